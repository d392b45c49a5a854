"""Named retrieval variants for side-by-side evaluation and ablation."""

from __future__ import annotations

from bot.core import GlossaryBot
from bot.retrieval import RetrievalOptions, Retriever
from index.passages import blob_passages
from index.store import VectorIndex

FULL = RetrievalOptions()
_DENSE_ONLY = RetrievalOptions(
    bm25=0.0, name=0.0, fuzzy=False, strip_scaffolding=False, hinglish=False, acronyms=False
)

#: name -> (options, comparison handling on?)
VARIANTS: dict[str, tuple[RetrievalOptions, bool]] = {
    "full": (FULL, True),
    "dense one-blob baseline": (_DENSE_ONLY, False),
    "dense-only": (_DENSE_ONLY, False),
    "lexical-only": (FULL.model_copy(update={"dense": 0.0, "paraphrase": 0.0}), False),
    "full -paraphrases": (FULL.model_copy(update={"paraphrase": 0.0}), True),
    "full -bm25": (FULL.model_copy(update={"bm25": 0.0}), True),
    "full -name match": (FULL.model_copy(update={"name": 0.0}), True),
    "full -fuzzy": (FULL.model_copy(update={"fuzzy": False}), True),
    "full -scaffold strip": (FULL.model_copy(update={"strip_scaffolding": False}), True),
    "full -hinglish": (FULL.model_copy(update={"hinglish": False}), True),
    "full -acronym expansion": (FULL.model_copy(update={"acronyms": False}), True),
    "full -comparison": (FULL, False),
}


def variant_bot(bot: GlossaryBot, name: str) -> GlossaryBot:
    """A bot sharing ``bot``'s glossary, encoder and index, retrieving the ``name`` way."""
    options, comparisons = VARIANTS[name]
    base = bot.retriever
    vectors = base.vectors
    if name == "dense one-blob baseline":
        vectors = VectorIndex.build(blob_passages(base.entries), base.encoder, "", "blob")
    retriever = Retriever(base.entries, base.encoder, vectors, options)
    return GlossaryBot(bot.glossary, retriever, bot.settings, comparisons=comparisons)
