"""Recognising "X vs Y" questions in English, Hindi and Hinglish, and splitting them in two."""

from __future__ import annotations

import regex

_CUE = regex.compile(
    r"(?i)\b(?:vs\.?|versus|difference|differences|compare|comparison|farak|fark|farq|"
    r"antar|same\s+thing|ek\s+hi)\b|अंतर|फ़?र्क़?|फ़र्क|तुलना|एक\s+ही"
)
_SPLIT = regex.compile(r"(?i)\s+(?:vs\.?|versus|and|or|aur|ya|और|या|tatha|तथा)\s+|\s*/\s*")
_FRAME = regex.compile(
    r"(?i)\b(?:what(?:'s|\s+is)\s+the\s+difference\s+between|difference\s+between|compare|"
    r"how\s+(?:is|are|does|do)|what\s+is|whats)\b"
)


def split_comparison(text: str) -> tuple[str, ...] | None:
    """The two (or more) things compared, or None when the question is not a comparison."""
    if not _CUE.search(text):
        return None
    core = _FRAME.sub(" ", text)
    sides = tuple(s.strip(" ?？।.!") for s in _SPLIT.split(core) if s and s.strip(" ?？।.!"))
    return sides if len(sides) >= 2 else None
