"""Entry names to suggest while a question is typed in the chat box.

Suggestions read the typed text as the Browse filter does (``bot.lookup.browse``: misspellings through the
bot's spelling correction, Hinglish glosses, Devanagari, romanized Hindi, aliases such as acronyms),
so the box and the filter agree on what a word means. Entries whose names match come before those
that only mention the words in their definitions, and a name that starts with what was typed comes
first. The entries' haystacks are made once per glossary: a keystroke only compares.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
from dataclasses import dataclass
from typing import get_args

from bot.lookup.browse import Reading, _Haystack
from bot.reply.cards import term
from bot.search.lexical import LexicalIndex, entry_names, romanized
from bot.understand.courtesy import topic_of
from bot.understand.hinglish import FUNCTION_WORDS
from bot.understand.text import Side, normalise, other, tokens
from glossary import Glossary, GlossaryEntry

#: Names offered at most: enough to pick from at a glance.
MAX_SUGGESTIONS = 5
#: Typed text shorter than this (after trimming) gets no suggestions: one letter matches half the glossary.
MIN_CHARS = 2
#: Between two entries' texts in a searched corpus: in no typed word, so no match spans two entries.
SEPARATOR = "\x00"
#: Typed text beyond this is a question being written, not a name being looked up.
MAX_CHARS = 80


@dataclass(frozen=True)
class Suggestion:
    entry_id: str
    name: str  # in the asked language; what the box gets when it is picked
    other: str  # the other language's name, shown beside it


class _Corpus:
    """Every word of every entry's text, searched as one string: a typed word is looked for among
    the distinct words at C speed (``str.find``), not entry by entry in Python, so a keystroke stays
    within budget on a glossary of thousands of entries. A form without spaces is in an entry's text
    exactly when it is in one of its words; a form with spaces is looked for in the texts."""

    def __init__(self, haystacks: list[_Haystack]) -> None:
        self._texts = [h.text for h in haystacks]
        entries_of: dict[str, set[int]] = {}
        self._folded: dict[str, set[int]] = {}
        for n, haystack in enumerate(haystacks):
            for word in haystack.text.split():
                entries_of.setdefault(word, set()).add(n)
            for word in haystack.romanized:
                self._folded.setdefault(word, set()).add(n)
        self._words = list(entries_of)
        self._entries_of = [entries_of[w] for w in self._words]
        self._text = SEPARATOR.join(self._words)
        self._starts = list(itertools.accumulate((len(w) + 1 for w in self._words[:-1]), initial=0))

    def matching(self, reading: Reading) -> set[int]:
        """The entries (by position) whose text has one of the reading's forms, as ``_Haystack.has``."""
        found = set(self._folded.get(reading.folded, ()))
        for form in filter(None, reading.forms):
            if " " in form:
                found.update(n for n, text in enumerate(self._texts) if form in text)
                continue
            at = self._text.find(form)
            while at != -1:
                n = bisect.bisect_right(self._starts, at) - 1
                found |= self._entries_of[n]
                if n + 1 == len(self._starts):
                    break
                at = self._text.find(form, self._starts[n + 1])  # on to the next word
        return found


def _names_haystack(entry: GlossaryEntry) -> _Haystack:
    text = " ".join(normalise(n) for n in entry_names(entry))
    return _Haystack(text, frozenset(romanized(tokens(text))))


class Suggester:
    """The entry names that match a typed prefix, for one glossary."""

    def __init__(self, glossary: Glossary, lexical: LexicalIndex | None = None) -> None:
        self.glossary = glossary
        self.lexical = lexical
        self._entries = list(glossary.entries)
        self._names = [tuple(normalise(n) for n in entry_names(e)) for e in self._entries]
        self._in_names = _Corpus([_names_haystack(e) for e in self._entries])
        self._in_text = _Corpus([_Haystack.of(e) for e in self._entries])
        self._order = {lang: [normalise(term(e, lang)) for e in self._entries] for lang in get_args(Side)}

    def __call__(self, typed: str, lang: Side, limit: int = MAX_SUGGESTIONS) -> list[Suggestion]:
        text = normalise(topic_of(typed)).replace(SEPARATOR, " ")
        if not MIN_CHARS <= len(text) <= MAX_CHARS:
            return []
        words = [w for w in text.split() if w not in FUNCTION_WORDS] or text.split()
        readings = [Reading.of(w, self.lexical) for w in words]
        chosen = set.intersection(*(self._in_text.matching(r) for r in readings))
        named = [self._in_names.matching(r) & chosen for r in readings]

        def rank(n: int) -> tuple[bool, int, str]:
            starts = any(name.startswith(text) for name in self._names[n])
            return (not starts, -sum(n in found for found in named), self._order[lang][n])

        best = heapq.nsmallest(limit, chosen, key=rank)
        return [
            Suggestion(e.id, term(e, lang), term(e, other(lang)))
            for e in map(self._entries.__getitem__, best)
        ]
