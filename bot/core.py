"""GlossaryBot: the public Python API (load, search, answer)."""

from __future__ import annotations

import logging
import unicodedata
from dataclasses import dataclass

import faiss

from bot import dialogue
from bot.abstain import AbstentionPolicy
from bot.answer import Answer, compare, compose, decline, focus, no_context
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
#: How much of an entry's name (IDF-weighted) one side of a comparison must spell out.
SIDE_NAME_MATCH = 0.5


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

    def answer(self, question: str, history: History | None = None, lang: Lang | None = None) -> Answer:
        """Answer one question in its own language (or ``lang``); ``history`` is Gradio's messages list.

        A follow-up with no topic of its own ("give me an example", "in Hindi please") is about the
        entries of an earlier answer, read back from the citations in ``history``.
        """
        history = history or []
        follow = dialogue.resolve(question, history, dialogue.citation_index(self.glossary.entries))
        if follow is not None:
            lang = lang or follow.lang or detect_lang(question)
            if follow.turn is None:
                return no_context(lang)
            if follow.aspect is None:
                return self.answer(follow.turn.question, history[: follow.turn.position], lang)
            entries = [self.glossary.get(i) for i in follow.turn.entry_ids]
            return focus(entries, follow.aspect, lang, self.glossary)
        found = self.retrieve(question, len(self.glossary))
        query = found.query
        lang = lang or query.lang
        if not found.hits:
            return decline([], lang, query.notice or _empty_notice(lang))
        if found.comparison:
            return compare(found.hits, lang, self.glossary, query.notice)
        named = dialogue.named_entry(query.text, self.glossary)
        if named is None and found.abstained:
            return decline(found.hits[:2], lang, query.notice)
        hits = sorted(found.hits, key=lambda h: named is not None and h.entry.id != named.id)
        return compose(hits, lang, self.glossary, query.notice)

    def comparison_hits(self, text: str) -> list[Hit] | None:
        """For "X vs Y" questions, the entry each side names (None if not a comparison).

        Sides are short names, so they are matched lexically: no extra encoder call.
        """
        sides = split_comparison(text) if self.comparisons else None
        if sides is None:
            return None
        picked: list[Hit] = []
        for side in sides:
            ranking = self.retriever.rank(side, use_dense=False)
            if ranking.name[ranking.top] < SIDE_NAME_MATCH:
                continue
            best = self.retriever.hits(ranking, 1)[0]
            if all(best.entry.id != p.entry.id for p in picked):
                picked.append(best)
        return picked[:2] if len(picked) >= 2 else None


def _empty_notice(lang: Lang) -> str:
    if lang == "en":
        return "Please type a question about an AI/ML training term, e.g. “What is dropout?”"
    return "कृपया किसी AI/ML प्रशिक्षण शब्द के बारे में प्रश्न लिखें, जैसे “ड्रॉपआउट क्या है?”"
