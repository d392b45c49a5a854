"""Every sentence of every entry's text embedded on its own: what an entry says about a problem.

A problem question ("my loss is NaN, what to do") rarely names the entry whose text answers it, and
an entry's whole field is one vector among many ideas; a single sentence ("Use it when gradient
spikes are possible ...") is what meets such a question by meaning. So the usage, cautions, example
and definition of each entry are split into sentences and each is embedded (e5 passage prompt, as
``entry term: sentence``, the way ``index.passages`` writes whole fields, so a one-sentence field
reuses its stored vector). The vectors are an index of their own beside the entries' index: built
and saved with it (``bot.search.loading``), shipped for the bundled glossary (``prebuilt``), never
encoded at a start that finds them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
import regex

from bot.understand.text import Side
from glossary import GlossaryEntry
from index.store import Passage, VectorIndex

#: Names this layout; a change invalidates saved sentence indexes through their manifest.
SENTENCE_RECIPE = "sentences-v1"
#: The kinds of text split into sentences, in the order an answer prefers them when they tie.
Field = Literal["usage", "notes", "example", "definition"]
FIELDS: tuple[Field, ...] = ("usage", "notes", "example", "definition")
#: The end of a sentence (full stop, question or exclamation mark, Hindi danda) before a space.
_SENTENCE_END = regex.compile(r"(?<=[.!?।])\s+")


@dataclass(frozen=True)
class Sentence:
    """One sentence of an entry's text, where it comes from, and in which language."""

    entry_id: str
    field: Field
    lang: Side
    text: str


def _texts(entry: GlossaryEntry, field: Field, lang: Side) -> list[str]:
    if field == "notes":
        return list(getattr(entry, f"notes_{lang}"))
    value = getattr(entry, f"{field}_{lang}")
    return [value] if value else []


def entry_sentences(entry: GlossaryEntry) -> list[Sentence]:
    """The entry's usage, cautions, example and definition, sentence by sentence, English then Hindi."""
    return [
        Sentence(entry.id, field, lang, part.strip())
        for lang in ("en", "hi")
        for field in FIELDS
        for text in _texts(entry, field, lang)
        for part in _SENTENCE_END.split(text)
        if part.strip()
    ]


def _passage(sentence: Sentence, entry: GlossaryEntry, n: int) -> Passage:
    term = entry.term_en if sentence.lang == "en" else entry.term_hi
    return Passage(
        entry_id=entry.id, field=f"{sentence.field}_{sentence.lang}_{n}", text=f"{term}: {sentence.text}"
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
