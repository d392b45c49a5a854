"""GlossaryBot: the public Python API (load, search, answer)."""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass

import faiss

from bot.abstain import AbstentionPolicy
from bot.answer import Answer, compose, decline
from bot.comparison import split_comparison
from bot.retrieval import Hit, Retriever
from bot.settings import Settings
from bot.text import Lang, detect_lang
from glossary import Glossary, load_glossary
from index.encoders import CachedEncoder, Encoder, make_encoder
from index.passages import RECIPE, glossary_passages
from index.store import load_or_build

log = logging.getLogger(__name__)

History = list[dict]


@dataclass(frozen=True)
class Query:
    """A question after cleaning: what is searched, and what the asker should be told about it."""

    text: str
    lang: Lang
    notice: str | None


@dataclass(frozen=True)
class Retrieval:
    query: Query
    hits: list[Hit]
    abstained: bool
    comparison: bool


class GlossaryBot:
    """Finds glossary entries for a question and answers with citations."""

    def __init__(
        self, glossary: Glossary, retriever: Retriever, settings: Settings, comparisons: bool = True
    ) -> None:
        self.glossary = glossary
        self.comparisons = comparisons
        self.retriever = retriever
        self.settings = settings
        self.policy = AbstentionPolicy()

    @property
    def encoder(self) -> Encoder:
        return self.retriever.encoder

    @classmethod
    def load(cls, settings: Settings | None = None, rebuild_index: bool = False, progress: bool = False):
        """Bundled (or configured) glossary, configured encoder, cached index (built if stale)."""
        settings = settings or Settings()
        faiss.omp_set_num_threads(settings.threads)
        glossary = load_glossary(settings.glossary_paths or None)
        encoder = CachedEncoder(
            make_encoder(
                settings.encoder_backend, settings.cache_dir, settings.encoder_model, settings.threads
            )
        )
        vectors = load_or_build(
            settings.cache_dir / "indexes",
            glossary_passages(list(glossary.entries)),
            encoder,
            glossary.content_hash,
            RECIPE,
            rebuild=rebuild_index,
            progress=progress,
        )
        return cls(glossary, Retriever(list(glossary.entries), encoder, vectors), settings)

    def prepare(self, question: str) -> Query:
        """Drop control characters and cap the length, remembering to tell the asker."""
        text = "".join(
            " " if unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Zl", "Zp"} else ch for ch in question
        )
        text = " ".join(text.split())
        notice = None
        limit = self.settings.max_question_chars
        lang = detect_lang(text)
        if len(text) > limit:
            text = text[:limit]
            notice = (
                f"The question was longer than {limit} characters; only the first {limit} were used."
                if lang == "en"
                else f"प्रश्न {limit} अक्षरों से लंबा था; केवल पहले {limit} अक्षर उपयोग किए गए।"
            )
        return Query(text=text, lang=lang, notice=notice)

    def retrieve(self, question: str, k: int | None = None) -> Retrieval:
        """Rank entries for a question and decide whether the glossary covers it.

        A comparison ("X vs Y") puts the best entry for each side at the top.
        """
        query = self.prepare(question)
        k = k or self.settings.top_k
        if not any(ch.isalnum() for ch in query.text):
            return Retrieval(query, [], True, False)
        ranking = self.retriever.rank(query.text)
        hits = self.retriever.hits(ranking, max(k, 3))
        pair = self.comparison_hits(query.text)
        if pair:
            rest = [h for h in hits if h.entry.id not in {p.entry.id for p in pair}]
            hits = [h.model_copy(update={"rank": i}) for i, h in enumerate(pair + rest, start=1)]
        abstained = pair is None and self.policy.abstain(ranking)
        return Retrieval(query, hits[:k], abstained, pair is not None)

    def search(self, question: str, k: int | None = None) -> list[Hit]:
        """The top-k entries for a question, best first (empty for a question with no words)."""
        return self.retrieve(question, k).hits

    def answer(self, question: str, history: History | None = None) -> Answer:
        """Answer one question; ``history`` is Gradio's messages list (used for follow-ups)."""
        found = self.retrieve(question, 3)
        query = found.query
        if not found.hits:
            return decline([], query.lang, query.notice or _empty_notice(query.lang))
        if found.abstained:
            return decline(found.hits[:2], query.lang, query.notice)
        shown = found.hits[:2] if found.comparison else found.hits[:1]
        return compose(shown, query.lang, query.notice)

    def comparison_hits(self, text: str) -> list[Hit] | None:
        """For "X vs Y" questions, the best covered entry for each side (None if not a comparison)."""
        sides = split_comparison(text) if self.comparisons else None
        if sides is None:
            return None
        picked: list[Hit] = []
        for side in sides:
            ranking = self.retriever.rank(side)
            if self.policy.abstain(ranking):
                continue
            best = self.retriever.hits(ranking, 1)[0]
            if all(best.entry.id != p.entry.id for p in picked):
                picked.append(best)
        return picked[:2] if len(picked) >= 2 else None


def _empty_notice(lang: Lang) -> str:
    if lang == "en":
        return "Please type a question about an AI/ML training term, e.g. “What is dropout?”"
    return "कृपया किसी AI/ML प्रशिक्षण शब्द के बारे में प्रश्न लिखें, जैसे “ड्रॉपआउट क्या है?”"
