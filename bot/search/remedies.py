"""Entries whose own text addresses a how-to or problem question, found by meaning, sentence by sentence.

A problem question that no FAQ answers and no entry names ("GPU out of memory with a large batch")
is still answerable when one of an entry's sentences (usage, caution, example, definition) says what
to do about it. The question's vector (the one its ranking already made: no extra encoding) is
compared with every entry sentence (``bot.search.sentences``); an entry is offered when its closest
sentence reaches MIN_COSINE. Nothing here is about machine learning: the sentences are the glossary's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.search.sentences import SentenceIndex
from bot.understand.text import Lang, Side, other, side
from glossary import Glossary, GlossaryEntry
from index.sentences import FIELDS, Sentence

#: Cosine (e5: the question's query vector against an entry sentence's passage vector) from which a
#: sentence is taken to address the question. Chosen on the whole labelled set
#: (benchmarks/data/advice.jsonl: how-to and problem questions in English, Hindi and Hinglish, and
#: questions no entry answers), with MAX_BEHIND, as the pair with the best F1 of offered-entry
#: precision and question recall (``python -m benchmarks.advice``: the sweep, the chosen figures in
#: benchmarks/ADVICE.json and README "Advice"; a test holds these constants equal to that choice).
#: e5 cosines of unrelated texts sit high (0.80-0.85), so the cut-off is a narrow band above them.
MIN_COSINE = 0.87
#: How far below the closest entry's cosine another entry may be and still be offered with it: a
#: near tie. Chosen with MIN_COSINE (the same sweep): further down, the second and third entries
#: offered are mostly not ones that answer.
MAX_BEHIND = 0.005
#: Entries offered at most.
MAX_REMEDIES = 3
#: Fields whose sentence a card opens with for a how-to question (the definition is already there).
ADVICE_FIELDS = ("usage", "notes", "example")


@dataclass(frozen=True)
class Remedy:
    """An entry that addresses the asked problem, the sentence of its text that says so (in the
    answer's language) and how close that is."""

    entry: GlossaryEntry
    sentence: Sentence
    cosine: float
    #: The same advice in the other language (shown one click away), None where that side has none.
    translation: Sentence | None = None


def _prefer(sentence: Sentence) -> int:
    return FIELDS.index(sentence.field)


def closest_per_entry(vector: np.ndarray, index: SentenceIndex) -> list[tuple[str, float]]:
    """(entry id, cosine of its closest sentence in either language), closest first."""
    scores = index.scores(vector)
    best: dict[str, float] = {}
    for sentence, score in zip(index.sentences, scores, strict=True):
        best[sentence.entry_id] = max(best.get(sentence.entry_id, -1.0), float(score))
    return sorted(best.items(), key=lambda item: -item[1])


def best_sentence(
    vector: np.ndarray, index: SentenceIndex, entry_id: str, lang: Lang, fields: tuple[str, ...] = FIELDS
) -> Sentence | None:
    """The entry's sentence of ``fields`` in the answer's language closest to the question (ties: the
    earlier field of FIELDS); None when the entry has none there."""
    first = side(lang)
    scores = index.scores(vector)
    mine = [
        (float(scores[i]), -_prefer(s), i)
        for i, s in enumerate(index.sentences)
        if s.entry_id == entry_id and s.lang == first and s.field in fields
    ]
    return index.sentences[max(mine)[2]] if mine else None


def offered(
    closest: list[tuple[str, float]], cut_off: float = MIN_COSINE, behind: float = MAX_BEHIND
) -> list[tuple[str, float]]:
    """Of the entries closest first, those offered: at least ``cut_off``, at most ``behind`` below
    the first, MAX_REMEDIES at most."""
    if not closest:
        return []
    floor = max(cut_off, closest[0][1] - behind)
    return [(entry_id, cosine) for entry_id, cosine in closest[:MAX_REMEDIES] if cosine >= floor]


def remedies(vector: np.ndarray, index: SentenceIndex, glossary: Glossary, lang: Lang) -> list[Remedy]:
    """Entries with a sentence that addresses the question (cosine at least MIN_COSINE), closest
    first (near ties of the first only: :func:`offered`), each with its closest piece of advice in
    ``lang``; empty when no sentence of the glossary does."""
    found: list[Remedy] = []
    for entry_id, cosine in offered(closest_per_entry(vector, index)):
        sentence = _advice(vector, index, entry_id, side(lang))
        if sentence is not None:
            translation = _advice(vector, index, entry_id, other(side(lang)))
            found.append(Remedy(glossary.get(entry_id), sentence, cosine, translation))
    return found


def _advice(vector: np.ndarray, index: SentenceIndex, entry_id: str, lang: Side) -> Sentence | None:
    """An offered entry's sentence to show: its closest piece of advice (usage, caution, example) when
    it has one, the definition being no answer to "what to do"; else its closest sentence."""
    return best_sentence(vector, index, entry_id, lang, ADVICE_FIELDS) or best_sentence(
        vector, index, entry_id, lang
    )
