"""Every sentence of every entry's text with its vector: where advice looks for what to do.

A problem question ("my loss is NaN, what to do") rarely names the entry whose text answers it; a
single sentence ("Use it when gradient spikes are possible ...") is what meets it by meaning. Each
sentence (``index.sentences``) is embedded with e5's passage prompt, headed as the entries' index
heads it, so its vector is the one that index already stored. The vectors are an index of their own
beside the entries' index, kept with their sentences (text, field, language) for the answer to quote:
built and saved with it (``bot.search.loading``), shipped for the bundled glossary (``prebuilt``),
never encoded at a start that finds them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from glossary import GlossaryEntry
from index.sentences import Sentence, entry_sentences, headed
from index.store import Passage, VectorIndex

#: Names this layout; a change invalidates saved sentence indexes through their manifest.
#: v2: a sentence is headed by ``index.sentences.headed``, as the main index's sentence rows are.
SENTENCE_RECIPE = "sentences-v2"


def _passage(sentence: Sentence, entry: GlossaryEntry, n: int) -> Passage:
    return Passage(
        entry_id=entry.id,
        field=f"{sentence.source}_{n}",
        text=headed(entry, sentence.lang, sentence.text),
    )


def sentence_passages(entries: list[GlossaryEntry]) -> tuple[list[Sentence], list[Passage]]:
    """The sentences of ``entries`` and the passage each is embedded as (row for row)."""
    sentences, passages = [], []
    for entry in entries:
        for n, sentence in enumerate(entry_sentences(entry)):
            sentences.append(sentence)
            passages.append(_passage(sentence, entry, n))
    return sentences, passages


@dataclass(frozen=True)
class SentenceIndex:
    """The sentences of a glossary and their vectors, row for row."""

    sentences: tuple[Sentence, ...]
    vectors: VectorIndex

    def scores(self, query_vector: np.ndarray) -> np.ndarray:
        """Cosine of the query against every sentence."""
        return self.vectors.scores(query_vector[None, :])[0]
