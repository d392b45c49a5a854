"""The entries about a topic: what "types of X" and "terms related to X" ask for.

An entry is about X when its names (terms, aliases, bracketed parts, as typed and romanized) hold
every word of X, or its category's names do, with the tolerance for typos and plurals the name
checks have (``bot.search.names``). A word index of names and categories offers the few candidates,
so a question never compares every entry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz, process

from bot.search.names import NAME_WORD_MATCH, every_word_in, forms_of, name_forms, spellings
from bot.understand.cues import TOPIC_KINDS
from bot.understand.query import Reading, reading_of
from glossary import Glossary, GlossaryEntry


def entries_about(topic: Reading | str, glossary: Glossary) -> list[GlossaryEntry]:
    """The entries a topic's every word names ("parallelism": Data, Model, Pipeline and Tensor
    parallelism) or files them under (a category "Distributed training" for "distributed training"),
    in the glossary's order: what "types of X" and "terms related to X" ask for. A word that says only
    what kind of terms they are ("parallelism techniques") is left out when no entry holds it."""
    said = reading_of(topic).topic_words
    # "parallelism techniques": the kind of term only, when no name holds it
    for words in dict.fromkeys([said, tuple(w for w in said if w not in TOPIC_KINDS)]):
        if words and (found := _entries_holding(words, glossary)):
            return found
    return []


#: Glossaries whose word index is kept (the served one, and a reload's).
WORD_INDEX_MEMORY = 8


@dataclass(frozen=True)
class _WordIndex:
    """Each word of a glossary's names and categories with the entries that have it, and the words
    as a list, which every topic word is compared against."""

    entries: dict[str, frozenset[int]]
    words: list[str]


def _entries_holding(words: Sequence[str], glossary: Glossary) -> list[GlossaryEntry]:
    index = _entries_by_word(glossary)
    candidates = set.intersection(*(_having(word, index) for word in words))
    return [
        e
        for i, e in enumerate(glossary.entries)
        if i in candidates and any(every_word_in(words, f) for f in (name_forms(e), _filed(e)))
    ]


@lru_cache(maxsize=WORD_INDEX_MEMORY)
def _entries_by_word(glossary: Glossary) -> _WordIndex:
    """Each word of the entries' names and categories (and a plural's singular), with the entries
    that have it: a topic's few candidates are found without comparing every entry (0.19 s a question
    on 5,000 entries before; the index once, then milliseconds)."""
    index: dict[str, set[int]] = {}
    for i, entry in enumerate(glossary.entries):
        for word in {w for form in name_forms(entry) | _filed(entry) for w in form.split()}:
            for key in {word, word.removesuffix("s")}:
                index.setdefault(key, set()).add(i)
    return _WordIndex({key: frozenset(ids) for key, ids in index.items()}, list(index))


def _having(word: str, index: _WordIndex) -> set[int]:
    """The entries with a word alike ``word`` as typed or romanized: every entry :func:`alike`
    may accept, and a few more that :func:`every_word_in` then turns away."""
    found = (
        key
        for spelling in spellings([word])
        for key, _, _ in process.extract(
            spelling, index.words, scorer=fuzz.ratio, score_cutoff=NAME_WORD_MATCH, limit=None
        )
    )
    return {i for key in found for i in index.entries[key]}


def _filed(entry: GlossaryEntry) -> frozenset[str]:
    """The names of ``entry``'s category, as typed and romanized (none for an entry filed under none)."""
    category = entry.category
    return forms_of(tuple(n for n in (category.en, category.hi) if n)) if category else frozenset()
