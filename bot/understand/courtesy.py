"""Courtesy around a question: greetings, forms of address, thanks, "please", urgency.

"hi, what is dropout", "sir, GPU memory kam hai, kya karu?", "what is a batch please", "dropout kya
hai bhai 🙏" ask what the question without them asks. Left in, their words were read as the
question's: the lexical branch matched "sir", the unknown-word evidence counted it, a Hinglish
question's English rendering and a comparison's first side held it (over the dev sets, "hello bot, "
before each question cost 4.1 points of R@1, and "… pls help" after it declined 11 points fewer of
the out-of-scope questions; ``python -m benchmarks.courtesy``). Understanding reads
the question without them (:func:`without_courtesy`); small talk and follow-ups ("thanks bhai",
"in Hindi please") are told from the whole message.
"""

from __future__ import annotations

import unicodedata

import regex

from bot.understand.text import strip_scaffolding, word_set

#: How an asker may address the bot before or after a question ("sir", "bhai", "जी"). The English
#: ones start a question only before punctuation or a frame ("Sir, what is X"): "SIR model" is a name.
_ADDRESS_LOOSE = r"(?:ji|bhai|bro|yaar|dost|सर|जी|भाई|यार|दोस्त)"
_ADDRESS = rf"(?:{_ADDRESS_LOOSE}|sir|madam|ma'?am|guys|मैडम)"
#: Courtesy that may open a question with no comma after it, and so stay in a comparison's first
#: side ("sir dropout vs weight decay", "कृपया batch vs epoch"): no word of the name it asks for
#: (``bot.search.other_term.names_another``).
COURTESY_WORDS = word_set(
    "sir madam maam ji bhai bro yaar dost guys please pls plz kindly kripya kripaya "
    "सर जी भाई यार दोस्त मैडम कृपया"
)
#: A greeting or an acknowledgement before a question: "hello world" is a name, so an English one
#: needs punctuation or a question word after it; a Hindi greeting is no name's word.
_GREETING_LOOSE = r"(?:namaste|namaskar|नमस्ते|नमस्कार)"
_GREETING = (
    rf"(?:{_GREETING_LOOSE}|hi+|hello|helo|hey+|heya|yo|good\s+(?:morning|afternoon|evening)|"
    # an acknowledgement of the last answer before the next question ("ok, and epoch?")
    r"ok+|okay|acc?h+a|th(?:ee|i|e)k\s+hai|got\s+it|cool|great|nice|thanks|thank\s+you|अच्छा|ठीक\s+है)"
)
#: The first word of a question: after a greeting it says the greeting is no name's word.
_OPENS = (
    r"(?:what|whats|what's|how|why|when|which|where|can|could|would|will|do|does|is|are|i|please|pls|plz|"
    r"kindly|tell|explain|define|describe|meaning|mujhe|muje|mujhko|मुझे|क्या)\b"
)
#: A label before a question ("Q:", "question -", "सवाल:").
_LABEL = r"(?:q|ques|question|query|doubt|sawaa?l|सवाल|प्रश्न)\s*[:\-–]\s*"
_START = regex.compile(
    rf"(?i)^\s*(?:{_LABEL}|"
    rf"(?:{_GREETING}(?:\s+(?:{_ADDRESS}|there|all|everyone|team|bot))?|{_ADDRESS})(?:\s*[,!.]+\s*|\s+(?={_OPENS}))|"
    rf"(?:{_GREETING_LOOSE}|{_ADDRESS_LOOSE})(?:\s+{_ADDRESS})?\s+)"
)
#: What a question may end with besides its topic: an address, "please", thanks, urgency, a symbol
#: (an emoji, with its skin tone or presentation selector; not "`" or "^", which may close a name).
_END = regex.compile(
    rf"(?i)(?:(?:\s*,\s*|\s+)(?:{_ADDRESS}|please|pls|plz|kindly|thanks(?:\s+in\s+advance)?|"
    r"thank\s+you(?:\s+in\s+advance)?|thx|(?:please|pls|plz)\s+help(?:\s+me)?|help\s+(?:me\s+)?(?:please|pls|plz)|"
    r"urgent(?:ly)?|asap|\(\s*urgent\s*\)|jaldi(?:\s+(?:batao|btao|bataiye|se))?|जल्दी(?:\s+(?:बताओ|बताइए|से))?|"
    r"धन्यवाद|कृपया|shukriya|dhanyavaa?d)|\s*[\p{So}\U0001F3FB-\U0001F3FF\uFE0F]+)[\s?？।.!]*$"
)


def without_courtesy(text: str) -> str:
    """``text`` without the courtesy before and after its question ("hi, what is dropout 🙏" ->
    "what is dropout"), each end stripped until none is left; the text itself when nothing else is."""
    whole = unicodedata.normalize("NFC", text).strip()
    core = whole
    while (stripped := _START.sub("", core, count=1)) != core and stripped:
        core = stripped
    while (stripped := _END.sub("", core)) != core and stripped:
        core = stripped
    return core.strip() or whole


def topic_of(text: str) -> str:
    """What the encoder reads of a question: its topic without courtesy or scaffolding, as
    understanding reads it. For readers of raw question text (the maintainers' report, suggestions as
    one types), so that "sir, what is RLHF" is read as the answer read it."""
    return strip_scaffolding(without_courtesy(text))
