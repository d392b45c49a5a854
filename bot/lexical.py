"""The lexical branch: BM25 over entry text, plus exact and fuzzy matches on term names.

Dense vectors blur near neighbours (batch vs batch size) and romanized Hindi;
words the asker actually typed, matched against the names and aliases of an
entry, settle those cases. Misspellings ("overfiting") are mapped to the
nearest known word with character-level similarity before matching.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import bm25s
import numpy as np
from rapidfuzz import fuzz, process

from bot.text import STOP_WORDS, tokens
from glossary import GlossaryEntry

#: Similarity (0-100) a misspelt word needs to be read as a known word.
FUZZY_CUTOFF = 84
MIN_FUZZY_LEN = 4


def _content(text: str) -> list[str]:
    return [t for t in tokens(text) if t not in STOP_WORDS]


def entry_names(entry: GlossaryEntry) -> list[str]:
    return list(dict.fromkeys([entry.term, entry.term_en, entry.term_hi, *entry.aliases]))


class LexicalIndex:
    """BM25 and name matching over a fixed list of entries (scores align with that list)."""

    def __init__(self, entries: Sequence[GlossaryEntry]) -> None:
        self.entries = list(entries)
        self._names = [[tuple(_content(name)) for name in entry_names(e)] for e in self.entries]
        docs = []
        for entry, names in zip(self.entries, self._names, strict=True):
            text = " ".join(
                filter(None, [entry.definition_en, entry.definition_hi, entry.usage_hi, entry.example_hi])
            )
            name_tokens = [t for name in names for t in name]
            docs.append(name_tokens * 2 + _content(text))
        self._bm25 = bm25s.BM25()
        self._bm25.index(docs, show_progress=False)
        self.vocabulary = sorted({t for doc in docs for t in doc})
        self._known = frozenset(self.vocabulary)

    def correct(self, words: Sequence[str]) -> list[str]:
        """Replace unknown words by their closest known word when the match is close enough."""
        return [self._closest(w) for w in words]

    @lru_cache(maxsize=4096)  # noqa: B019 - the index lives as long as the process
    def _closest(self, word: str) -> str:
        if word in self._known or len(word) < MIN_FUZZY_LEN:
            return word
        match = process.extractOne(word, self.vocabulary, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        return match[0] if match else word

    def bm25(self, words: Sequence[str]) -> np.ndarray:
        if not words:
            return np.zeros(len(self.entries), dtype=np.float32)
        return np.asarray(self._bm25.get_scores(list(words)), dtype=np.float32)

    def name_match(self, words: Sequence[str]) -> np.ndarray:
        """Per entry, the best share of one of its names that the words spell out.

        A full match of a longer name beats a full match of a shorter one it
        contains ("batch size" over "batch"), so coverage is tie-broken by length.
        """
        present = set(words)
        out = np.zeros(len(self.entries), dtype=np.float32)
        for i, names in enumerate(self._names):
            best = 0.0
            for name in names:
                if not name:
                    continue
                hit = sum(1 for t in name if t in present)
                if hit:
                    best = max(best, hit / len(name) + 0.05 * min(hit, 4))
            out[i] = best
        return out
