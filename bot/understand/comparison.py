"""Recognising comparisons in English, Hindi and Hinglish, and splitting them into their sides.

Loose forms count: "diff b/w X and Y", "X or Y", "X vs Y vs Z", "compare X, Y and Z", and lists of
names asked at once ("what are X and Y", "X aur Y kya hai"). A side
that names no entry is reported by the bot, not dropped (``bot.core``).
"""

from __future__ import annotations

import regex

_CUE = regex.compile(
    r"(?i)\b(?:vs\.?|versus|difference|differences|diff|differ|compare|comparison|farak|fark|farq|"
    r"antar|same\s+thing|ek\s+hi|or|ya)\b|अंतर|फ़?र्क़?|फ़र्क|तुलना|एक\s+ही|\bया\b"
)
#: Framing around the sides, removed before splitting ("b/w" first: its slash is no separator).
_FRAME = regex.compile(
    r"(?i)\b(?:what(?:'s|\s+is|\s+are)\s+the\s+(?:diff(?:erences?)?|difference)\s+(?:between|b/w|btw)|"
    r"(?:diff(?:erences?)?|difference)\s+(?:between|b/w|btw|in)|b/w|btw|compare|comparison\s+of|"
    r"how\s+(?:is|are|does|do)|what\s+is|whats|which\s+is\s+better|which\s+one|differ)\b|\?"
)
#: The cues that only offer a choice ("X or Y", "kam ya zyada"): a comparison of two entries only
#: when each side is an entry's name (decided by search, which knows the names).
_CHOICE = regex.compile(r"(?i)\b(?:or|ya)\b|\bया\b")
#: A list of things asked at once ("what are dropout and weight decay", "X aur Y kya hai", "X, Y"):
#: answered side by side, as a choice is, only when each is an entry's name.
_LIST = regex.compile(r"(?i)\b(?:and|aur)\b|\bऔर\b|,")
_SPLIT = regex.compile(r"(?i)\s+(?:vs\.?|versus|and|or|aur|ya|और|या|tatha|तथा)\s+|\s*[/,&]\s*")
_TRAILING = regex.compile(
    r"(?i)\s+(?:में|me|mein|mai)\s+(?:क्या|kya)\s+(?:अंतर|फ़र्क|फर्क|antar|farak|fark|difference)\s*(?:है|hai)?$"
    r"|\s+(?:ka|ke|में|me|mein)?\s*(?:अंतर|फ़र्क|फर्क|antar|farak|fark|difference)\s*(?:kya|क्या)?\s*(?:है|hai)?$"
    r"|\s+(?:differ|compare)$"
    r"|,?\s+(?:kya|kaun\s*sa|konsa|is)?\s*(?:better|behtar|accha|acha|achha)\s*(?:hai|h)?$"
    r"|,?\s+(?:कौन\s*सा\s+)?(?:बेहतर|अच्छा)\s*(?:है)?$"
)


def split_comparison(text: str) -> tuple[str, ...] | None:
    """The two or more things compared, or None when the question is not a comparison."""
    if not _CUE.search(text) and not _LIST.search(text):
        return None
    core = _TRAILING.sub("", _FRAME.sub(" ", text).strip(" ?？।.!"))
    sides = tuple(s.strip(" ?？।.!") for s in _SPLIT.split(core) if s and s.strip(" ?？।.!"))
    return sides if len(sides) >= 2 else None


def is_choice(text: str) -> bool:
    """The question's only comparison cue is "or" / "ya" / "या", or it has none but lists things
    ("and", "aur", a comma): a choice or a list ("lower the learning rate or raise it?", "train aur
    validation dono accuracy kharab hai") unless every side turns out to be an entry's name ("batch
    or epoch?", "what are dropout and weight decay")."""
    listed = _CHOICE.search(text) or _LIST.search(text)
    return listed is not None and not _CUE.search(_CHOICE.sub(" ", text))
