"""Cleaning a question as it arrives: invisible and control characters out, the length capped.

What is cleaned here is what everything after reads and what the records keep (``bot.records``),
so "drop\u200bout" is "dropout" for search and for the maintainers' report alike.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import regex

from bot.understand.text import Lang, detect_lang

#: What cleaning does with characters by Unicode category: line breaks and other controls become
#: spaces; invisible format characters (zero-width, bidi controls, BOM, soft hyphen) and lone
#: surrogates are dropped, so "drop\u200bout" is "dropout".
_CLEANED = {"Cc": " ", "Zl": " ", "Zp": " ", "Cf": "", "Cs": ""}
#: A terminal's control sequence, pasted with a question ("\x1b[0m" sets its colour back): its
#: escape character alone would be dropped, leaving "[0m" to be read as a word.
_TERMINAL_SEQUENCE = regex.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
#: Cleaning reads at most this many times ``max_chars`` of a question (cleaning only shortens
#: text), so a megabyte-long question costs no more than a long one.
_READ_FACTOR = 4


@dataclass(frozen=True)
class Cleaned:
    """A question after cleaning: the text that is searched and recorded, in the asker's language."""

    text: str
    #: The language of the whole cleaned question (before the cap): what the asker wrote in.
    lang: Lang
    #: The length the question was cut to (the answer says so), or None when it was whole.
    cut_at: int | None


def clean(question: str, max_chars: int) -> Cleaned:
    """Drop terminal control sequences, control and invisible characters, collapse whitespace and
    cap the length."""
    head = question[: max_chars * _READ_FACTOR]
    text = "".join(_CLEANED.get(unicodedata.category(ch), ch) for ch in _TERMINAL_SEQUENCE.sub("", head))
    text = " ".join(text.split())
    lang = detect_lang(text)
    if len(text) > max_chars or len(head) < len(question):
        return Cleaned(text[:max_chars], lang, max_chars)
    return Cleaned(text, lang, None)
