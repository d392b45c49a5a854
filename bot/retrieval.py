"""Hybrid retrieval: dense (multilingual-e5) and lexical evidence fused into one ranking.

Signals, each per entry:

* ``dense`` — best cosine between the query and the entry's own fields (names,
  definitions, usage, example in both languages);
* ``paraphrase`` — best cosine against the project-written plain-language
  descriptions, kept as a separate channel so that many loose paraphrases
  cannot outvote a precise name or definition match;
* ``bm25`` — BM25 over names and text, on the asker's words after spelling
  correction (and, for Hinglish, with English glosses of Hindi words);
* ``name`` — 1 when the words spell out a whole name or alias of the entry.

Continuous signals are standardised over the entries (z-score) before the
weighted sum, so a weight means the same thing for every query whatever the
spread of its raw scores. Weights were chosen by ablation on the dev set
(README, "How retrieval works").

Only one encoder call is made per question: Hinglish questions are encoded
as their English rendering (``bot.hinglish.to_english``) instead of as typed,
which on the dev set beats the raw text and costs nothing extra.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import regex
from pydantic import BaseModel, ConfigDict

from bot.hinglish import gloss, to_english
from bot.lexical import LexicalIndex
from bot.text import content_tokens, detect_lang, strip_scaffolding
from bot.translit import romanise
from glossary import GlossaryEntry
from index.encoders import Encoder
from index.store import VectorIndex

_DEVANAGARI = regex.compile(r"\p{Devanagari}")
#: Acronyms are spelled out only in questions of at most this many content words.
MAX_WORDS_TO_EXPAND = 4
#: A name-match value at or above this means every word of some name was typed.
FULL_NAME = 0.99


class RetrievalOptions(BaseModel):
    """Signal weights and optional steps; each step is switched off in turn by the ablation."""

    model_config = ConfigDict(frozen=True)

    dense: float = 1.0
    paraphrase: float = 0.5
    bm25: float = 0.3
    name: float = 1.0
    fuzzy: bool = True
    strip_scaffolding: bool = True
    hinglish: bool = True
    acronyms: bool = True


class Hit(BaseModel):
    """One retrieved entry. ``score`` is the fused score; the parts explain it."""

    model_config = ConfigDict(frozen=True)

    entry: GlossaryEntry
    score: float
    rank: int
    dense: float
    lexical: float
    name_match: float


@dataclass(frozen=True)
class Ranking:
    """Every entry scored for one query; what search and abstention both read from."""

    order: np.ndarray
    fused: np.ndarray
    dense: np.ndarray
    paraphrase: np.ndarray
    bm25: np.ndarray
    name: np.ndarray
    words: list[str]
    unknown_share: float

    @property
    def top(self) -> int:
        return int(self.order[0])

    @property
    def best_similarity(self) -> float:
        """Highest cosine of the question to anything in the glossary (fields or paraphrases)."""
        return float(max(self.dense.max(), self.paraphrase.max()))


def _z(scores: np.ndarray) -> np.ndarray:
    std = float(scores.std())
    return (scores - scores.mean()) / std if std > 1e-9 else np.zeros_like(scores)


class Retriever:
    def __init__(
        self,
        entries: list[GlossaryEntry],
        encoder: Encoder,
        vectors: VectorIndex,
        options: RetrievalOptions | None = None,
    ) -> None:
        self.entries = entries
        self.encoder = encoder
        self.vectors = vectors
        self.options = options or RetrievalOptions()
        self.lexical = LexicalIndex(entries)
        self._position = {e.id: i for i, e in enumerate(entries)}
        self._row_entry = np.array([self._position[eid] for eid in vectors.row_entry], dtype=np.int64)
        self._paraphrase_rows = np.array([r.field.startswith("paraphrase") for r in vectors.manifest.rows])

    def dense_text(self, query: str, hinglish: bool) -> str:
        """What the encoder sees: Hinglish rendered in English, otherwise the question minus scaffolding;
        acronyms the glossary knows are spelled out after it ("sgd" -> "... (Stochastic gradient descent)").
        """
        text = to_english(query) if hinglish else ""
        if not text.strip():
            text = strip_scaffolding(query) if self.options.strip_scaffolding else query
        words = content_tokens(query)
        # In a longer question an acronym is usually context ("... on every GPU"), not the topic.
        if not self.options.acronyms or len(words) > MAX_WORDS_TO_EXPAND:
            return text
        expansions = self.lexical.expand_acronyms(words)
        return f"{text} ({'; '.join(expansions)})" if expansions else text

    def dense_scores(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Per entry, the best cosine over its own fields and over its paraphrases."""
        rows = self.vectors.scores(self.encoder.encode_queries([text]))[0]
        own = np.full(len(self.entries), -1.0, dtype=np.float32)
        para = np.full(len(self.entries), -1.0, dtype=np.float32)
        np.maximum.at(own, self._row_entry, np.where(self._paraphrase_rows, -1.0, rows))
        np.maximum.at(para, self._row_entry, np.where(self._paraphrase_rows, rows, -1.0))
        return own, para

    def words(self, query: str, hinglish: bool) -> tuple[list[str], float]:
        """The words to match on, and the share of the asker's own words the glossary never uses.

        Hinglish words add their English glosses; with fuzzy matching on, misspelt words are
        corrected and Devanagari spellings of English words ("डिस्ट्रिब्यूटेड") add the
        name word they sound like.
        """
        typed = content_tokens(query)
        glosses = gloss(typed) if hinglish else []
        words = typed + glosses
        if self.options.fuzzy:
            words = self.lexical.correct(words) + self._sounded_out(typed)
        unknown = self.lexical.unknown_share(self.lexical.correct([w for w in typed if not gloss([w])]))
        return words, unknown

    def _sounded_out(self, typed: list[str]) -> list[str]:
        out = []
        for word in typed:
            if word in self.lexical.known or not _DEVANAGARI.search(word):
                continue
            guess = self.lexical.correct([romanise(word)])[0]
            if guess in self.lexical.name_vocabulary:
                out.append(guess)
        return out

    def rank(self, query: str, use_dense: bool = True) -> Ranking:
        w = self.options
        hinglish = w.hinglish and detect_lang(query) == "hinglish"
        zeros = np.zeros(len(self.entries), dtype=np.float32)
        if use_dense and w.dense:
            dense, para = self.dense_scores(self.dense_text(query, hinglish))
        else:
            dense, para = zeros, zeros
        words, unknown = self.words(query, hinglish)
        bm25 = self.lexical.bm25(words)
        name = self.lexical.name_match(words)
        full_name = (name >= FULL_NAME).astype(np.float32)
        fused = w.dense * _z(dense) + w.paraphrase * _z(para) + w.bm25 * _z(bm25) + w.name * full_name
        order = np.argsort(-fused, kind="stable")
        return Ranking(order, fused, dense, para, bm25, name, words, unknown)

    def hits(self, ranking: Ranking, k: int, first: str | None = None) -> list[Hit]:
        """The top ``k`` as Hits (built only for those: a Hit per entry costs more than ranking them).
        ``first``: an entry id put at the top, wherever it ranked."""
        order = ranking.order
        if first is not None:
            pinned = self._position[first]
            order = np.concatenate(([pinned], order[order != pinned]))
        return [
            Hit(
                entry=self.entries[i],
                score=float(ranking.fused[i]),
                rank=rank,
                dense=float(max(ranking.dense[i], ranking.paraphrase[i])),
                lexical=float(ranking.bm25[i]),
                name_match=float(ranking.name[i]),
            )
            for rank, i in enumerate(order[:k], start=1)
        ]
