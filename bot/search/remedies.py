"""Entries whose own text addresses a problem ("why does my loss become NaN?", "GPU out of memory").

A problem question that no FAQ answers and no entry names is still answerable when the glossary
says, in an entry's usage, example or notes, what to do about it or what to watch for. Such an
entry is offered when both kinds of evidence agree: its usage/example fields are among the closest
by meaning (the index's e5 vectors, no extra encoding of the glossary), and one of its sentences
mentions a distinctive word of the question (after the bot's spelling correction, Hinglish glosses
and romanized Hindi). Nothing here is about machine learning: the words come from the question and
the glossary.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import regex

from bot.search.lexical import romanized
from bot.search.retrieval import Ranking, Retriever
from bot.understand.query import Reading
from bot.understand.text import Lang, Side, content_tokens, other, side
from glossary import GlossaryEntry

#: The fields where a glossary says how an entry is used: the ones whose vectors are compared.
USE_FIELDS = ("usage_en", "usage_hi", "example_en", "example_hi")
#: Entries closest by meaning (over USE_FIELDS) among which a mention is looked for. Rank, not a
#: cosine cut: e5 cosines of unrelated texts sit in a narrow band (0.80-0.84 on the bundled glossary).
DENSE_POOL = 5
#: Distinct distinctive words of the question an entry's use text must mention: one shared word is
#: often chance ("results", or a Hindi adverb such as "जल्दी"), two say the text is about the problem.
MIN_MENTIONED = 2
#: Entries offered at most.
MAX_REMEDIES = 3
#: A word used in the text of more than this share of the entries ("training", "model") says
#: nothing about which entry addresses a problem, so mentioning it is no evidence.
GENERIC_SHARE = 0.1
_SENTENCE_END = regex.compile(r"(?<=[.!?।])\s+")


@dataclass(frozen=True)
class Remedy:
    """An entry that addresses the asked problem, and the sentence of its text that says so."""

    entry: GlossaryEntry
    sentence: str


def _sentences(entry: GlossaryEntry, lang: Side) -> list[str]:
    parts = [
        getattr(entry, f"usage_{lang}"),
        getattr(entry, f"example_{lang}"),
        *getattr(entry, f"notes_{lang}"),
    ]
    return [s for p in parts if p for s in _SENTENCE_END.split(p) if s.strip()]


def _words(sentence: str) -> set[str]:
    words = content_tokens(sentence)
    return set(words) | set(romanized(words))


def _distinctive(words: Sequence[str], retriever: Retriever) -> set[str]:
    """The question's words used by at most GENERIC_SHARE of the entries (the lexical index's IDF is
    log(1 + entries / df), so that share is 1 / (e^IDF - 1)); words the glossary never uses count."""
    idf = retriever.lexical.idf
    return {w for w in words if w not in idf or 1 / math.expm1(idf[w]) <= GENERIC_SHARE}


def remedies(question: Reading, ranking: Ranking, retriever: Retriever, lang: Lang) -> list[Remedy]:
    """Entries whose usage, example or notes address ``question``, best first, each with the sentence
    that does (in ``lang`` when that side says it); empty when the glossary says nothing about it.

    ``ranking`` is the question's own (``retriever.rank``): its matched words and query vector are
    read, not made again."""
    keys = _distinctive(ranking.words, retriever)
    columns = [retriever.field_kinds.index(k) for k in USE_FIELDS if k in retriever.field_kinds]
    if not keys or not columns:
        return []
    vector = ranking.vector if ranking.vector is not None else retriever.encode([question])[0]
    fields, _ = retriever.dense_scores(vector)
    closeness = fields[:, columns].max(axis=1)
    first = side(lang)
    found = []
    for i in np.argsort(-closeness, kind="stable")[:DENSE_POOL]:
        entry = retriever.entries[int(i)]
        sentences = [s for half in (first, other(first)) for s in _sentences(entry, half)]
        mentioned = [keys & _words(s) for s in sentences]
        if len(set().union(*mentioned)) >= MIN_MENTIONED:
            best = max(range(len(sentences)), key=lambda n: len(mentioned[n]))
            found.append(Remedy(entry, sentences[best]))
    return found[:MAX_REMEDIES]
