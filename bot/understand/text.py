"""Language detection, tokenising and question scaffolding for Hindi, English and Hinglish.

Python's ``re`` splits Devanagari words at vowel signs, so tokens are runs of
letters *and* marks (``\\p{L}\\p{M}``) from the ``regex`` module, after NFC so
that precomposed and decomposed nukta letters compare equal.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Literal, get_args

import regex
import stopwordsiso

from glossary.yamlio import load_yaml

#: The language of a question: its script, and for Latin script whether it is Hinglish.
Lang = Literal["en", "hi", "hinglish", "mixed"]
#: An interface language: the language an answer puts first, and the app's interface switch.
Side = Literal["en", "hi"]
SIDES: tuple[Side, ...] = get_args(Side)

#: Share of Devanagari letters from which a question is Hindi (an English term or two inside it is
#: ordinary Hindi technical writing), and below which it is Latin text with a stray Hindi word.
HINDI_SHARE = 0.85
MIXED_SHARE = 0.15
_TOKEN = regex.compile(r"[\p{L}\p{M}\p{N}]+")
_DEVANAGARI = regex.compile(r"\p{Devanagari}")
_LATIN = regex.compile(r"\p{Latin}")


def _word_lists() -> dict[str, frozenset[str]]:
    raw = load_yaml((Path(__file__).parents[1] / "data" / "stopwords.yaml").read_text(encoding="utf-8"))
    return {name: frozenset(words.split()) for name, words in raw.items()}


_LISTS = _word_lists()
#: Romanized Hindi function words; one unambiguous one in a Latin-script question marks it as Hinglish.
HINGLISH_WORDS = _LISTS["hinglish_function_words"]
_AMBIGUOUS = _LISTS["hinglish_ambiguous"]
#: Hindi words in the stopwords-iso list that name a topic in this domain ("वर्ग" = class) or
#: are no function word at all ("घर" = home): they are kept as content words.
_HINDI_TOPICAL = frozenset({"वर्ग", "घर"})
#: Hindi function words: the project's scaffolding list and the general stopwords-iso list, so a
#: user's glossary is matched on its content words without anyone listing them for it.
HINDI_STOP_WORDS = _LISTS["hindi_stop_words"] | (frozenset(stopwordsiso.stopwords("hi")) - _HINDI_TOPICAL)
#: Words that carry no topic: question scaffolding in English, romanized Hindi and Hindi.
STOP_WORDS = HINGLISH_WORDS | _LISTS["english_stop_words"] | HINDI_STOP_WORDS
#: Words that ask which is best or usual of a term, not for another term ("the best optimizer"): a
#: bare-term check leaves them out. Search still reads them.
TERM_QUALIFIERS = _LISTS["term_qualifiers"]

#: The names of the two languages an asker may ask the answer in.
LANGUAGE_NAMES: dict[Side, tuple[str, ...]] = {
    # Hinglish is Hindi to answer in: a glossary has no romanized text, and its asker reads Hindi
    "hi": ("hindi", "hindii", "हिंदी", "हिन्दी", "hinglish", "हिंग्लिश"),
    "en": ("english", "angrezi", "angreji", "inglish", "अंग्रेज़ी", "अंग्रेजी", "इंग्लिश"),
}
_LANGUAGE_OF = {
    unicodedata.normalize("NFC", n).casefold(): side for side, ns in LANGUAGE_NAMES.items() for n in ns
}
_LANGUAGE = "|".join(_LANGUAGE_OF)
#: The verb a closing request may end with ("hindi me *samjhao*", "आसान शब्दों में *समझाइए*").
_TELL = r"(?:\s+(?:please|pls|explain|samjhao|samjhaiye|batao|btao|bataiye|समझाओ|समझाइए|बताओ|बताइए))?"
#: A question's closing request for its answer's language: "in Hindi", "hindi me samjhao", "अंग्रेज़ी में".
_IN_LANGUAGE = (
    rf"(?:in\s+(?P<language>{_LANGUAGE})|(?P<language>{_LANGUAGE})\s+(?:me|mein|mai|main|में)){_TELL}|"
    # what the term is called in a language: "X ka hindi (word)", "X ko hindi me kya kehte hain"
    rf"(?:ka|ki|ko|का|की|को)\s+(?P<language>{_LANGUAGE})(?:\s+(?:meaning|word|naam|shabd|matlab|शब्द|नाम))?|"
    rf"(?:ko\s+|को\s+)?(?P<language>{_LANGUAGE})\s+(?:me|mein|में)\s+(?:kya|क्या)\s+(?:kehte|kahte|कहते)"
    r"\s+(?:hai|hain|h|है|हैं)"
)
#: A request around the question ("can you tell me what X is", "I want to know about X"); "mujhe X"
#: only before a closing request of its own ("samajh nahi aaya", "जानना है").
_REQUEST = (
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:(?:please|pls|plz|kindly)\s+)?|do\s+(?:you|u)\s+know\s+|"
    r"i\s+(?:want|need|would\s+like|wanna)\s+to\s+(?:know|learn|understand)\s+(?:(?:more\s+)?about\s+)?|"
    r"i\s+have\s+an?\s+(?:doubt|question|query)\s+(?:about|on|regarding|in)\s+|"
    r"i\s+(?:do\s*n'?t|did\s*n'?t|dont|didnt)\s+(?:understand|get)\s+|help\s+me\s+understand\s+|"
    r"(?:mujhe|mujhko|muje|मुझे)\s+(?=.*(?:samajh|samaj|ja+nna|समझ|जानना))|(?=tell\s+me\s+what\s))"
)
#: Phrases that only frame a question; removed before the dense encoder sees it. Besides "what is
#: X" and "X kya hai", the frames that ask for a name's meaning or its letters' expansion ("what is
#: meant by X", "what does X stand for", "X ka full form", "X के बारे में बताओ"): left in, their
#: words were taken as words of the asked term, and the bot said the glossary had no entry for
#: "X baare" (7 % of names so asked on the dev glossaries, ``python -m benchmarks.frames``).
_FRAME_START = regex.compile(
    rf"(?i)^\s*(?:{_REQUEST}(?:(?:tell\s+me\s+)?(?P<embedded>what\s+)"
    r"(?:(?:is|are)\s+(?:an?\s+|the\s+)?)?)?)?"
    r"(?:what\s+(?:is|are)\s+meant\s+by\s+|what\s+do\s+(?:you|we|they|people)\s+mean\s+by\s+|"
    r"(?:what\s+(?:is|are)\s+)?(?:the\s+)?full\s+forms?\s+of\s+|"
    # chat spellings too: "wat is X", "what r X", "wats X"
    r"(?:what|wat|wht|wot)\s+(?:is|are|r|does|do)\s+(?:an?\s+|the\s+)?|(?:what|wat|wht)'?s\s+(?:an?\s+)?|"
    r"(?:(?:please|pls|plz|kindly)\s+)?(?:define\s+|explain\s+(?:the\s+)?|describe\s+|tell\s+me\s+about\s+)|"
    r"meaning\s+of\s+)?"
)
#: The verb an embedded question ends with ("do you know what X is").
_EMBEDDED_END = regex.compile(r"(?i)\s+(?:is|are|means?)\s*[?？।.!]*\s*$")
#: Closing frames; :func:`strip_scaffolding` strips them one after another.
_FRAME_END = regex.compile(
    r"(?i)\s*(?:kya\s+(?:hota|hoti|hote)\s+(?:hai|hain)|kya\s+(?:hai|hain)|kya\s+cheez\s+(?:hai|h|hoti\s+hai)|"
    r"क्या\s+चीज़\s+(?:है|होती\s+है)|ka\s+(?:matlab|matlb|mtlb|mtlab)(?:\s+kya\s+hai)?|"
    r"\s+stands?\s+for|(?:(?:ka|ki)\s+)?full\s+form(?:\s+kya\s+(?:hai|hain|h))?|"
    r"ke?\s+ba+re\s+(?:me|mein|mai|main)"
    r"(?:\s+(?:batao|btao|bataiye|bataye|bata\s+do|samjhao|ja+nkari\s+(?:do|dijiye|chahiye)))?|"
    r"with\s+(?:an?\s+)?examples?|examples?\s+ke\s+sa+th|udaa?hara?n\s+ke\s+sa+th|"
    r"क्या\s+(?:होता|होती|होते)\s+(?:है|हैं)|क्या\s+(?:है|हैं)|किसे\s+कहते\s+हैं|"
    r"का\s+(?:मतलब|अर्थ)(?:\s+क्या\s+है)?|की\s+परिभाषा(?:\s+क्या\s+है)?|"
    r"का\s+(?:फुल\s+फॉर्म|पूरा\s+नाम)(?:\s+क्या\s+(?:है|हैं))?|"
    r"के\s+बारे\s+में(?:\s+(?:बताओ|बताइए|बताइये|बताएं|समझाओ|समझाइए|जानकारी\s+(?:दो|दीजिए)))?|"
    r"उदाहरण\s+(?:सहित|के\s+साथ)|"
    r"(?:to|for)\s+me|(?:in\s+(?:simple|easy|plain)\s+(?:words|terms|language)|simply|briefly|"
    r"in\s+(?:short|brief|detail)|(?:detail|details)\s+(?:me|mein|main|se)|vistaa?r\s+se|विस्तार\s+से|"
    r"like\s+i'?m\s+(?:5|five)|(?:aasan|asan|saral)\s+(?:shabdon|shabdo|bhasha)\s+(?:me|mein)|"
    rf"(?:आसान|सरल)\s+(?:शब्दों|भाषा)\s+में){_TELL}|samajh\s+(?:nahi|nahin)\s+(?:aaya|aya|aa\s+raha|aata)|"
    r"ja+nna\s+(?:hai|chahta\s+hu|chahti\s+hu)|समझ\s+नहीं\s+(?:आया|आ\s+रहा|आता)|जानना\s+(?:है|चाहता\s+हूँ|चाहती\s+हूँ)|"
    rf"{_IN_LANGUAGE})"
    r"\s*[?？।.!]*\s*$"
)
#: A closing request for a language, read by :func:`answer_language` before the frames are stripped.
_ASKED_IN = regex.compile(rf"(?i)(?:^|\s){_IN_LANGUAGE}\s*[?？।.!]*\s*$")


def normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def word_set(text: str) -> frozenset[str]:
    """A vocabulary written as words separated by spaces, normalised as questions are."""
    return frozenset(normalise(w) for w in text.split())


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalise(text))


def content_tokens(text: str) -> list[str]:
    """Tokens minus question scaffolding; what the lexical branch should match on."""
    return [t for t in tokens(text) if t not in STOP_WORDS]


def detect_lang(text: str) -> Lang:
    """Script share decides Hindi/English/mixed; Hindi function words turn Latin text into Hinglish."""
    deva = len(_DEVANAGARI.findall(text))
    latin = len(_LATIN.findall(text))
    if deva and latin:
        share = deva / (deva + latin)
        if share >= HINDI_SHARE:
            return "hi"
        return "mixed" if share >= MIXED_SHARE else _latin_kind(text)
    if deva:
        return "hi"
    return _latin_kind(text)


def lang_undecided(text: str) -> bool:
    """Latin-script text made only of content words ("dropout", "learning rate"): no English or
    Hinglish word says which language the asker reads, so the interface language decides."""
    words = tokens(text)
    return bool(words) and not _DEVANAGARI.search(text) and all(w not in STOP_WORDS for w in words)


def _latin_kind(text: str) -> Lang:
    words = tokens(text)
    hits = sum(1 for w in words if w in HINGLISH_WORDS and w not in _AMBIGUOUS)
    return "hinglish" if hits >= 1 else "en"


#: Words a Hinglish or Hindi question may end with that are no part of its topic.
_CLOSING_WORDS = HINGLISH_WORDS | HINDI_STOP_WORDS
#: Punctuation around a question's topic.
_AROUND_TOPIC = " ?？।.!,"


def strip_scaffolding(text: str) -> str:
    """'What is dropout?' -> 'dropout'; 'dropout kya hai' -> 'dropout'. Keeps the text if nothing is left.
    Closing frames may stand one after another ("dropout ke baare mein hindi me batao"): they are
    stripped until none is left."""
    whole = unicodedata.normalize("NFC", text).strip()
    opening = _FRAME_START.match(whole)
    topic = whole[opening.end() if opening else 0 :].strip(_AROUND_TOPIC)
    if opening and opening["embedded"]:
        topic = _EMBEDDED_END.sub("", topic)
    while (stripped := _FRAME_END.sub(" ", topic).strip(_AROUND_TOPIC)) and stripped != topic:
        topic = stripped
    return topic or whole


def answer_language(text: str) -> Side | None:
    """The language a question asks its answer in ("dropout in Hindi", "overfitting english me
    samjhao"), or None: its own language then decides."""
    found = _ASKED_IN.search(unicodedata.normalize("NFC", text))
    if found is None:
        return None
    return _LANGUAGE_OF[normalise(found["language"])]


def asked_topic(text: str) -> str:
    """What a question asks about, for comparing with entry names: its topic without the Hinglish or
    Hindi function words it ends with, since such a question puts its scaffolding last in more forms
    than a pattern lists ("vram kya hota h" -> "vram", "overfitting kya hai bhai" -> "overfitting");
    English closing words say what is asked of the topic ("what is a mini-batch used for").
    The encoder still reads the whole topic: a description's last words carry its sense."""
    topic = strip_scaffolding(text)
    words = topic.split()
    while words and all(t in _CLOSING_WORDS for t in tokens(words[-1])):
        words.pop()
    return " ".join(words).strip(_AROUND_TOPIC) or topic


#: An English definition question ("what is X", "define X"): if its topic goes on "in Y", Y says where
#: X is asked about ("what is a service in cloud native terms"), and X alone is the name asked.
_DEFINITION = regex.compile(r"(?i)^\s*(?:what\s+(?:is|are)|what'?s|define|explain)\b")
_IN_CONTEXT = regex.compile(r"(?i)\s+in(?:\s+|$)")
#: A Hindi or Hinglish definition question puts the context first and its scaffolding last ("ML me
#: X kya hai", "मशीन लर्निंग में X का मतलब क्या है"): X, after the last "me"/"में", is the name asked.
_HINDI_DEFINITION = regex.compile(
    r"(?i)(?:\bkya\s+(?:hai|hain|h|hota\s+hai|hoti\s+hai|hote\s+hain?)|क्या\s+(?:है|हैं|होता\s+है|होती\s+है|होते\s+हैं))"
    r"[\s?？।.!]*$"
)
_IN_CONTEXT_BEFORE = regex.compile(r"(?i)\s(?:me|mein|mai|में)\s")


def asked_name(text: str, asked: str, defining: bool) -> str:
    """The name ``text`` asks for, from its asked topic (:func:`asked_topic`): the topic without the
    context a definition question (``defining``: :func:`defines`) sets it in ("service", not "service
    in cloud native terms"; in Hinglish and Hindi the context comes first: "dropout", of "deep learning
    me dropout kya hai"). Only a question that is wholly an entry's name is answered by name, so a
    longer head ("the role of dropout") names nothing and changes nothing."""
    if not defining:
        return asked
    if _DEFINITION.match(text) is None:  # Hinglish and Hindi set the context first ("Y me X kya hai")
        asked = _IN_CONTEXT_BEFORE.split(f" {asked} ")[-1].strip(_AROUND_TOPIC) or asked
    # English sets it after, in an English frame or a Hinglish one ("attention in transformers kya hai")
    return _IN_CONTEXT.split(asked, maxsplit=1)[0].strip(_AROUND_TOPIC) or asked


def defines(text: str) -> bool:
    """``text`` asks what a term is ("what is X", "X kya hai", "X का मतलब क्या है"), not something of it."""
    return _DEFINITION.match(text) is not None or _HINDI_DEFINITION.search(text) is not None


def side(lang: Lang) -> Side:
    """Which language goes first: English for English questions, Hindi for Hindi, Hinglish and mixed."""
    return "en" if lang == "en" else "hi"


def other(first: Side) -> Side:
    """The other language of a bilingual entry."""
    return "hi" if first == "en" else "en"
