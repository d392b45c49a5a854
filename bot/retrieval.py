"""Hybrid retrieval: dense (multilingual-e5) and lexical evidence fused into one ranking.

The dense branch scores each entry by its best-matching field vector; the
lexical branch adds BM25 and a term-name match on the words the asker typed
(after spelling correction). Scores are put on one scale before fusing: the
dense cosine is centred on the query's median over all entries, BM25 is
divided by its maximum, so weights mean the same thing for every query.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict

from bot.lexical import LexicalIndex
from bot.text import content_tokens, strip_scaffolding
from glossary import GlossaryEntry
from index.encoders import Encoder
from index.store import VectorIndex


class RetrievalOptions(BaseModel):
    """How much each signal counts and which steps run; chosen on the dev set by ablation (README)."""

    model_config = ConfigDict(frozen=True)

    dense: float = 1.0
    bm25: float = 0.04
    name: float = 0.10
    fuzzy: bool = True
    strip_scaffolding: bool = True


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
    bm25: np.ndarray
    name: np.ndarray


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
        position = {e.id: i for i, e in enumerate(entries)}
        self._row_entry = np.array([position[eid] for eid in vectors.row_entry], dtype=np.int64)

    def dense_scores(self, query: str) -> np.ndarray:
        """Per entry, the cosine of its best field against the query."""
        text = strip_scaffolding(query) if self.options.strip_scaffolding else query
        q = self.encoder.encode_queries([text])
        rows = self.vectors.scores(q)[0]
        out = np.full(len(self.entries), -1.0, dtype=np.float32)
        np.maximum.at(out, self._row_entry, rows)
        return out

    def rank(self, query: str) -> Ranking:
        w = self.options
        dense = self.dense_scores(query) if w.dense else np.zeros(len(self.entries), dtype=np.float32)
        words = content_tokens(query)
        if w.fuzzy:
            words = self.lexical.correct(words)
        bm25 = self.lexical.bm25(words)
        name = self.lexical.name_match(words)
        bm25_norm = bm25 / bm25.max() if bm25.max() > 0 else bm25
        fused = w.dense * (dense - np.median(dense)) + w.bm25 * bm25_norm + w.name * name
        order = np.argsort(-fused, kind="stable")
        return Ranking(order, fused, dense, bm25_norm, name)

    def hits(self, ranking: Ranking, k: int) -> list[Hit]:
        return [
            Hit(
                entry=self.entries[i],
                score=float(ranking.fused[i]),
                rank=rank,
                dense=float(ranking.dense[i]),
                lexical=float(ranking.bm25[i]),
                name_match=float(ranking.name[i]),
            )
            for rank, i in enumerate(ranking.order[:k], start=1)
        ]
