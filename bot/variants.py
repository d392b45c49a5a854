"""Named retrieval variants for side-by-side evaluation and ablation.

Each variant re-weights the loaded bot's retriever; "fitted" means the weights calibrated for this
glossary, "default weights" the untuned RetrievalOptions, so the fit's own gain has a row.
"""

from __future__ import annotations

from bot.core import GlossaryBot
from bot.search.retrieval import RetrievalOptions, Retriever
from index.passages import blob_passages
from index.store import VectorIndex

_DENSE_ONLY: dict[str, object] = {
    "bm25": 0.0,
    "name": 0.0,
    "fuzzy": False,
    "strip_scaffolding": False,
    "hinglish": False,
    "acronyms": False,
    "whole_names": False,
    "sounded_names": False,
}

#: name -> (changes to the fitted options, comparison handling on?)
VARIANTS: dict[str, tuple[dict[str, object], bool]] = {
    "full": ({}, True),
    "dense one-blob baseline": (_DENSE_ONLY | {"dense_fields": 1}, False),
    "dense-only": (_DENSE_ONLY, False),
    "lexical-only": ({"dense": 0.0, "paraphrase": 0.0, "sentence": 0.0}, False),
    "full, default weights": (RetrievalOptions().model_dump(), True),
    "full -paraphrases": ({"paraphrase": 0.0}, True),
    "full -sentences": ({"sentence": 0.0}, True),
    "full -bm25": ({"bm25": 0.0}, True),
    "full -foreign discount": ({"foreign_discount": 0.0}, True),
    "full -name match": ({"name": 0.0}, True),
    "full -fuzzy": ({"fuzzy": False}, True),
    "full -scaffold strip": ({"strip_scaffolding": False}, True),
    "full -hinglish": ({"hinglish": False}, True),
    "full -acronym expansion": ({"acronyms": False}, True),
    "full -whole names": ({"whole_names": False}, True),
    "full -names by sound": ({"sounded_names": False}, True),
    "full -comparison": ({}, False),
}


def variant_bot(bot: GlossaryBot, name: str) -> GlossaryBot:
    """A bot sharing ``bot``'s glossary, encoder, index and calibration, retrieving the ``name`` way."""
    changes, comparisons = VARIANTS[name]
    base = bot.retriever
    options = base.options.model_copy(update=changes)
    if name == "dense one-blob baseline":
        vectors = VectorIndex.build(blob_passages(base.entries), base.encoder, "", "blob")
        retriever = Retriever(base.entries, base.encoder, vectors, options, words=base.lexical.words)
    else:
        retriever = base.with_options(options)
    return GlossaryBot(bot.glossary, retriever, bot.calibration, bot.settings, comparisons, bot.sentences)
