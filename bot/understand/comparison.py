"""Recognising comparisons in English, Hindi and Hinglish, and splitting them into their sides.

Loose forms count: "diff b/w X and Y", "X or Y", "X vs Y vs Z", "compare X, Y and Z", lists of
names asked at once ("what are X and Y", "X aur Y kya hai"), and one thing set against another
("how is X different from Y", "X ka Y se kya fark hai", "is X the same as Y"). A side
that names no entry is reported by the bot, not dropped (``bot.core``).

A comparison may refer back to the answers before it: a side that is a pronoun ("how is it
different from Y", "iska Y se kya fark hai") stands for the entry the last answer was about, and a
comparison with no sides at all ("difference?", "which is better?", "dono me kya fark hai")
compares the entries answered last (``bot.understand.dialogue.compared_before``).
"""

from __future__ import annotations

import regex

from bot.understand.text import normalise, tokens, word_set

_CUE = regex.compile(
    r"(?i)\b(?:vs\.?|versus|difference|differences|diff|differ|compare|comparison|farak|fark|farq|"
    r"antar|same\s+thing|ek\s+hi|or|ya|relation|relationship|sambandh)\b|अंतर|फ़?र्क़?|फ़र्क|तुलना|"
    r"एक\s+ही|संबंध|सम्बन्ध|\bया\b"
)
#: Framing around the sides, removed before splitting ("b/w" first: its slash is no separator).
_FRAME = regex.compile(
    r"(?i)\b(?:what(?:'s|\s+is|\s+are)\s+the\s+(?:diff(?:erences?)?|difference|relation(?:ship)?s?)\s+"
    r"(?:between|b/w|btw)|"
    r"(?:diff(?:erences?)?|difference)\s+(?:between|b/w|btw|in)|relation(?:ship)?s?\s+(?:between|b/w|btw)|"
    r"b/w|btw|compare|comparison\s+of|"
    r"how\s+(?:is|are|does|do)|what\s+is|whats|which\s+(?:one\s+)?is\s+(?:better|worse)|which\s+one|differ)\b|\?"
)
#: The cues that only offer a choice ("X or Y", "kam ya zyada"): a comparison of two entries only
#: when each side is an entry's name (decided by search, which knows the names).
_CHOICE = regex.compile(r"(?i)\b(?:or|ya)\b|\bया\b")
#: A list of things asked at once ("what are dropout and weight decay", "X aur Y kya hai", "X, Y"):
#: answered side by side, as a choice is, only when each is an entry's name.
_LIST = regex.compile(r"(?i)\b(?:and|aur)\b|\bऔर\b|,")
#: What separates the sides, and a frame said apart from them ("X vs Y, what's the difference?",
#: "X vs Y: which is better?", "X vs Y - differences?"), which :func:`_is_frame` then leaves out.
_SPLIT = regex.compile(r"(?i)\s+(?:vs\.?|versus|and|or|aur|ya|और|या|tatha|तथा)\s+|\s*[/,&:;]\s*|\s+[-–—]+\s+")
#: What a comparison is asked as after its sides: a difference, or a relation ("X aur Y me kya
#: sambandh hai", "X और Y में क्या संबंध है").
_ASKED = r"(?:अंतर|फ़र्क|फर्क|antar|farak|fark|difference|संबंध|सम्बन्ध|sambandh|relation|relationship)"
_TRAILING = regex.compile(
    r"(?i)\s+(?:में|me|mein|mai)\s+(?:क्या|kya)\s+" + _ASKED + r"\s*(?:है|hai)?$"
    r"|\s+(?:ka|ke|में|me|mein)?\s*" + _ASKED + r"\s*(?:kya|क्या)?\s*(?:है|hai)?$"
    r"|\s+(?:differ|compare)$"
    r"|,?\s+(?:kya|kaun\s*sa|konsa|is)?\s*(?:better|worse|behtar|accha|acha|achha)\s*(?:hai|h)?$"
    r"|,?\s+(?:कौन\s*सा\s+)?(?:बेहतर|अच्छा)\s*(?:है)?$"
)
_END = " ?？।.!"
#: What a side is stripped of: the end marks, and a dash or colon left by a frame cut off after it.
_SIDE_END = _END + ",:;-–—"
#: How "Y se" differs: "kya fark hai", "kaise alag hai", "क्या अंतर है"; not "kya fark padta / aata /
#: hota hai", which asks what difference Y makes.
_DIFFERING = (
    r"(?:fark|farak|farq|antar|difference|alag|different|bhinn|अंतर|फ़र्क़?|फर्क|अलग|भिन्न)"
    r"(?!\s+(?:padta|padega|pdta|padti|aata|ata|aayega|hota|hoga|पड़ता|पड़ेगा|पड़ती|आता|होता|होगा))"
)
_AFTER = r"(?:\s+.*)?"
#: "… se kya fark hai", "… से कैसे अलग है": what follows Y in the Hinglish and Hindi forms.
_FROM_Y = r"\s+(?:se|से)\s+(?:(?:kya|kaise|kese|क्या|कैसे)\s+)?" + _DIFFERING + _AFTER
#: One thing set against another: each pattern captures the two sides as ``x`` and ``y`` (matched
#: whole, after the question's end marks; never a "why" question, which asks for a reason).
_RELATIONS = tuple(
    regex.compile(r"(?i)(?!(?:why|kyu|kyun|kyon)\b|क्यों)" + pattern)
    for pattern in (
        # "how is X different from Y", "is X different from Y", "what makes X different from Y"
        r"(?:(?:how|in\s+what\s+way)\s+(?:is|are)\s+|(?:is|are)\s+|what\s+makes\s+)?(?P<x>.+?)\s+"
        r"(?:(?:is|are)\s+)?(?:different|distinct)\s+(?:from|than|to)\s+(?P<y>.+)",
        # "how does X differ from Y", "how does X compare to Y", "X differs from Y"
        r"(?:how\s+(?:does|do)\s+)?(?P<x>.+?)\s+(?:differs?|compares?)\s+(?:from|with|to|against)\s+(?P<y>.+)",
        r"(?P<x>.+?)\s+(?:compared|as\s+opposed)\s+(?:to|with)\s+(?P<y>.+)",
        r"(?:compare|contrast)\s+(?P<x>.+?)\s+(?:with|to|against)\s+(?P<y>.+)",
        # "is X the same as Y", "X same as Y?", "is X similar to Y"
        r"(?:(?:is|are)\s+)?(?P<x>.+?)\s+(?:(?:is|are)\s+)?(?:the\s+)?(?:same\s+(?:thing\s+)?as|similar\s+to)\s+(?P<y>.+)",
        # "X, Y se kaise alag hai", "ye Y se alag kaise hai", "यह Y से कैसे अलग है"
        r"(?P<x>[^,]+?),\s*(?P<y>.+?)" + _FROM_Y,
        r"(?P<x>ye|yeh|yah|it|this|यह|ये)\s+(?P<y>.+?)" + _FROM_Y,
        # "X aur Y same hai kya", "क्या X और Y एक ही हैं"
        r"(?:(?:kya|क्या)\s+)?(?P<x>.+?)\s+(?:aur|and|और)\s+(?P<y>.+?)\s+"
        r"(?:same|ek\s+hi|एक\s+ही|समान)" + _AFTER,
        # One side said, the other the answer before: "compare with Y", "how is Y different",
        # "how does Y differ", "Y se kaise alag hai", "Y से क्या अंतर है"
        r"(?:compare|contrast)\s+(?:(?:it|this)\s+)?(?:with|to|against)\s+(?P<y>.+)",
        r"(?:how\s+(?:is|are)\s+)(?P<y>.+?)\s+(?:different|distinct)",
        r"(?:how\s+(?:does|do)\s+)(?P<y>.+?)\s+differ",
        r"(?P<y>.+?)" + _FROM_Y,
    )
)
#: The side a comparison leaves unsaid ("compare with Y"): a pronoun, for the answer before.
_UNSAID = "it"
#: "X ka Y se kya fark hai", "iska Y se kaise alag hai", "X का Y से क्या अंतर है": ``head`` is "X ka Y".
_SET_AGAINST = regex.compile(r"(?i)(?P<head>.+?)" + _FROM_Y)
#: The genitive between X and Y in "X ka Y", and a pronoun's ("iska Y", "इसका Y").
_OF = regex.compile(r"\s+(?:ka|ki|ke|का|की|के)\s+")
_ITS = regex.compile(r"(?i)(?P<x>iska|iski|iske|uska|uski|uske|इसका|इसकी|इसके|उसका|उसकी|उसके)\s+(?P<y>.+)")
#: Words that stand for the entry the last answer was about, as a comparison's side.
BACK_REFERENCES = word_set(
    "it this that iska iski iske isko isse ye yeh yah uska uski uske wo woh "
    "इसका इसकी इसके इसको इससे इस यह ये उसका उसकी उसके वह"
)
#: The words of a comparison that names nothing ("difference?", "which one is better?", "dono me
#: kya fark hai", "दोनों में क्या अंतर है"): it compares the entries answered last. One of them
#: must be a cue (:data:`_BARE_CUES`).
_BARE_CUES = word_set(
    "difference differences diff different differ compare comparison contrast better worse "
    "relation relationship sambandh behtar fark farak farq antar vs versus अंतर फ़र्क फर्क फ़र्क़ बेहतर "
    "तुलना संबंध"
)
_BARE_WORDS = (
    _BARE_CUES
    | BACK_REFERENCES
    | word_set(
        "what s whats the a is are which one ones between them these those they their two both "
        "how do does in me mein mai kya hai h hain kaun konsa kaunsa sa accha acha achha dono donon "
        "karo kijiye batao btao bataiye दोनों में क्या है हैं कौन सा करो कीजिए बताओ बताइए"
    )
)


def comparison_splits(text: str) -> tuple[tuple[str, ...], ...] | None:
    """Every way a comparison may split into its sides (the two or more things compared), the
    likeliest first, or None when it is no comparison; no sides at all (``((),)``) for a comparison
    that names nothing ("difference?"): it refers back. Only "X ka Y se kya fark hai" has more than
    one: a Hindi name may hold the genitive itself ("सीखने की दर का PEFT से क्या अंतर है"), which only
    the glossary's names tell apart (search takes the first split whose every side names an entry)."""
    if is_bare_comparison(text):
        return ((),)
    if (set_against := _set_against(text)) is not None:
        return set_against
    if (sides := _related(text)) is not None:
        return (sides,)
    if not _CUE.search(text) and not _LIST.search(text):
        return None
    core = _TRAILING.sub("", _FRAME.sub(" ", text).strip(_END))
    parts = (s.strip(_SIDE_END) for s in _SPLIT.split(core) if s)
    listed = tuple(s for s in parts if s and not _is_frame(s))
    return (listed,) if len(listed) >= 2 else None


def _is_frame(part: str) -> bool:
    """A part of the question that only asks for the comparison ("what's the", "the difference",
    "kya", "which is better"), said apart from the sides: no side, which "the glossary has no entry
    for *the*" under the table once said it was."""
    return set(tokens(part)) <= _BARE_WORDS


def _set_against(text: str) -> tuple[tuple[str, str], ...] | None:
    """The splits of "X ka Y se kya fark hai": a pronoun's "iska Y" first, then at each genitive from
    the left, then the whole as Y set against the answer before ("विशेषज्ञों का मिश्रण से क्या अंतर
    है", a name holding a genitive); None for another form, or one without a genitive."""
    match = _SET_AGAINST.fullmatch(text.strip(_END))
    if match is None:
        return None
    head = match.group("head")
    if (its := _ITS.fullmatch(head)) is not None:
        return ((its.group("x"), its.group("y")),)
    splits = [(head[: g.start()], head[g.end() :]) for g in _OF.finditer(head, overlapped=True)]
    return (*splits, (_UNSAID, head)) if splits else None


def _related(text: str) -> tuple[str, str] | None:
    """X and Y of "how is X different from Y" and its kin, or None."""
    core = text.strip(_END)
    for pattern in _RELATIONS:
        if (match := pattern.fullmatch(core)) is not None:
            return (match.groupdict().get("x") or _UNSAID).strip(_END), match.group("y").strip(_END)
    return None


def is_bare_comparison(text: str) -> bool:
    """A comparison that names nothing to compare: "difference?", "which is better?"."""
    words = set(tokens(text))
    return bool(words & _BARE_CUES) and words <= _BARE_WORDS


def refers_back(side: str) -> bool:
    """A side that is a pronoun ("it", "iska", "यह"): the entry the last answer was about."""
    return normalise(side) in BACK_REFERENCES


def is_list(text: str) -> bool:
    """Things only listed ("what are dropout and weight decay", "X aur Y kya hai", "X, Y"), with no
    comparison asked: answered side by side all the same, but titled "X and Y", not "X vs Y"."""
    if _LIST.search(text) is None or _CUE.search(text) is not None:
        return False
    return _related(text) is None and _set_against(text) is None


def is_choice(text: str) -> bool:
    """The question's only comparison cue is "or" / "ya" / "या", or it has none but lists things
    ("and", "aur", a comma): a choice or a list ("lower the learning rate or raise it?", "train aur
    validation dono accuracy kharab hai") unless every side turns out to be an entry's name ("batch
    or epoch?", "what are dropout and weight decay")."""
    listed = _CHOICE.search(text) or _LIST.search(text)
    return listed is not None and not _CUE.search(_CHOICE.sub(" ", text))
