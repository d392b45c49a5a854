"""GlossaryBot: the public Python API (load, search, answer, reload)."""

from __future__ import annotations

import logging
import threading
import time
import unicodedata
from dataclasses import dataclass
from functools import cached_property

import faiss

from bot import dialogue, intent, prebuilt
from bot.answer import (
    DECLINE_SUGGESTIONS,
    MAX_RELATED,
    NEAR_MISS_CONFIDENCE,
    Answer,
    compare,
    compose,
    decline,
    faq_answer,
    focus,
    near_miss,
    no_context,
    opposite,
    remedy_answer,
    small_talk,
)
from bot.calibration import Calibration, load_or_fit
from bot.comparison import split_comparison
from bot.messages import t
from bot.remedies import remedies
from bot.retrieval import Hit, Retriever
from bot.settings import Settings
from bot.text import Lang, content_tokens, detect_lang, lang_undecided, strip_scaffolding
from glossary import Glossary, load_glossary, pruning
from glossary.yamlio import PARSED_DIR
from index.embeddings import STORE_FILE, BuildEncoder, BuildStatus, EmbeddingStore, cores, threads
from index.encoders import CachedEncoder, Encoder, make_encoder
from index.passages import RECIPE, glossary_passages
from index.store import INDEX_DIR, Passage, index_key, load_or_build

log = logging.getLogger(__name__)

History = list[dict]
#: How much of an entry's name (IDF-weighted) one side of a comparison must spell out.
SIDE_NAME_MATCH = 0.5
#: Most sides a comparison sets side by side ("X vs Y vs Z vs W"); a phone still shows the table.
MAX_COMPARED = 4
#: Hits an answer reads: a comparison's sides, then up to MAX_RELATED follow-ups after them.
ANSWER_HITS = MAX_COMPARED + MAX_RELATED
#: Hits ranked at least, whatever ``k``: a comparison's two sides plus one to fall back on.
MIN_RANKED = 3
#: What ``prepare`` does with characters by Unicode category: line breaks and other controls become
#: spaces; invisible format characters (zero-width, bidi controls, BOM, soft hyphen) and lone
#: surrogates are dropped, so "drop\u200bout" is "dropout".
_CLEANED = {"Cc": " ", "Zl": " ", "Zp": " ", "Cf": "", "Cs": ""}
#: ``prepare`` reads at most this many times ``max_question_chars`` of a question (cleaning only
#: shortens text), so a megabyte-long question costs no more than a long one.
_READ_FACTOR = 4


@dataclass(frozen=True)
class Loaded:
    """A glossary and the retriever over its index: swapped as one, so no question sees a mix."""

    glossary: Glossary
    retriever: Retriever
    calibration: Calibration

    @cached_property
    def citations(self) -> dialogue.CitationIndex:
        """How answers cite this glossary's entries, for reading histories back: once per glossary."""
        return dialogue.CitationIndex(self.glossary.entries)

    @cached_property
    def faq(self) -> intent.FaqIndex:
        """The FAQ questions embedded for how-to questions: once per glossary, on first use."""
        return intent.FaqIndex.build(self.glossary, self.retriever.encoder)


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
    #: Probability that the first hit is the right entry (``bot.calibration``); 0 for no words.
    confidence: float
    #: A comparison's sides: how many of the first hits they are, and the sides that name no entry.
    sides: int = 0
    missing: tuple[str, ...] = ()


class GlossaryBot:
    """Finds glossary entries for a question and answers with citations."""

    def __init__(
        self,
        glossary: Glossary,
        retriever: Retriever,
        calibration: Calibration,
        settings: Settings,
        comparisons: bool = True,
    ) -> None:
        self._loaded = Loaded(glossary, retriever, calibration)
        self._reload_lock = threading.Lock()
        self.comparisons = comparisons
        self.settings = settings

    @property
    def glossary(self) -> Glossary:
        return self._loaded.glossary

    @property
    def retriever(self) -> Retriever:
        return self._loaded.retriever

    @property
    def calibration(self) -> Calibration:
        return self._loaded.calibration

    @property
    def citations(self) -> dialogue.CitationIndex:
        """How answers cite the glossary served now (built once per load or reload)."""
        return self._loaded.citations

    @property
    def encoder(self) -> Encoder:
        return self.retriever.encoder

    @classmethod
    def load(
        cls,
        settings: Settings | None = None,
        rebuild_index: bool = False,
        progress: bool = False,
        encoder: Encoder | None = None,
        status: BuildStatus | None = None,
    ) -> GlossaryBot:
        """Bundled (or configured) glossary, configured (or given) encoder, cached index (built if stale).

        The glossary is read first, so a broken file is reported before any model is loaded.
        ``status`` follows a build as it goes (the app's start page and ``/readyz`` show it).
        """
        settings = settings or Settings()
        faiss.omp_set_num_threads(settings.threads)
        glossary = _read_glossary(settings)
        encoder = encoder or CachedEncoder(
            make_encoder(
                settings.encoder_backend, settings.cache_dir, settings.encoder_model, settings.threads
            )
        )
        retriever, calibration = _retriever(
            glossary, encoder, settings, rebuild_index=rebuild_index, progress=progress, status=status
        )
        pruning.prune(settings.cache_dir, settings.cache_keep)  # what was just served is the newest
        return cls(glossary, retriever, calibration, settings)

    def reload(self) -> bool:
        """Read the configured glossary again and swap it in with its index, only if both load.

        Returns False when the glossary's content has not changed. On a broken glossary or index
        the error (``GlossaryError``, ``IndexLayerError``, ``OSError``) propagates and the bot keeps
        serving what it had. Questions being answered meanwhile finish on the glossary they began with.
        """
        with self._reload_lock:
            current = self._loaded
            glossary = _read_glossary(self.settings)
            if glossary.content_hash == current.glossary.content_hash:
                return False
            retriever, calibration = _retriever(glossary, current.retriever.encoder, self.settings)
            self._loaded = Loaded(glossary, retriever, calibration)
        log.info("glossary reloaded: %s", glossary)
        pruning.prune(self.settings.cache_dir, self.settings.cache_keep)
        return True

    def pinned(self) -> GlossaryBot:
        """This bot fixed to the glossary it serves now: answer with it and render with its glossary."""
        loaded = self._loaded
        view = GlossaryBot(
            loaded.glossary, loaded.retriever, loaded.calibration, self.settings, self.comparisons
        )
        view._loaded = loaded  # the same Loaded, with its citation index
        return view

    def prepare(self, question: str) -> Query:
        """Drop control and invisible characters and cap the length, remembering to tell the asker."""
        limit = self.settings.max_question_chars
        head = question[: limit * _READ_FACTOR]
        text = "".join(_CLEANED.get(unicodedata.category(ch), ch) for ch in head)
        text = " ".join(text.split())
        notice = None
        lang = detect_lang(text)
        if len(text) > limit or len(head) < len(question):
            text = text[:limit]
            notice = t("truncated", lang, limit=limit)
        return Query(text=text, lang=lang, notice=notice)

    def retrieve(self, question: str, k: int | None = None) -> Retrieval:
        """Rank entries for a question and decide whether the glossary covers it.

        A comparison ("X vs Y") puts the best entry for each side at the top.
        """
        return self._retrieve(self._loaded, self.prepare(question), k)

    def _retrieve(self, loaded: Loaded, query: Query, k: int | None, first: str | None = None) -> Retrieval:
        k = k or self.settings.top_k
        if not any(ch.isalnum() for ch in query.text):
            return Retrieval(query, [], True, False, 0.0)
        retriever, calibration = loaded.retriever, loaded.calibration
        ranking = retriever.rank(query.text)
        hits = retriever.hits(ranking, max(k, MIN_RANKED), first)
        pair, missing = self._comparison_hits(retriever, query.text)
        if pair:
            rest = [h for h in hits if h.entry.id not in {p.entry.id for p in pair}]
            hits = [h.model_copy(update={"rank": i}) for i, h in enumerate(pair + rest, start=1)]
        threshold = self.settings.min_answer_probability
        if threshold is None:
            threshold = calibration.threshold
        # A question whose only words are numbers or scaffolding ("12345", "what is it?") names no topic.
        topical = any(ch.isalpha() for word in content_tokens(query.text) for ch in word)
        abstained = pair is None and (not topical or calibration.answer_probability(ranking) < threshold)
        confidence = calibration.confidence(ranking)
        if pair is None:
            return Retrieval(query, hits[:k], abstained, False, confidence)
        return Retrieval(query, hits[: max(k, len(pair))], abstained, True, confidence, len(pair), missing)

    def search(self, question: str, k: int | None = None) -> list[Hit]:
        """The top-k entries for a question, best first (empty for a question with no words)."""
        return self.retrieve(question, k).hits

    def answer(
        self,
        question: str,
        history: History | None = None,
        lang: Lang | None = None,
        preferred: Lang | None = None,
    ) -> Answer:
        """Answer one question in its own language (or ``lang``); ``history`` is Gradio's messages list.
        ``preferred`` (the asker's interface language) is the answer's language when the question's
        own cannot be told, as for a bare term name ("dropout").

        A follow-up with no topic of its own ("give me an example", "in Hindi please") is about the
        entries of an earlier answer: those its message's ``metadata["entry_ids"]`` lists, or, in a
        history without them, those read back from its citations.
        """
        return self._answer(self._loaded, question, history or [], lang, preferred)

    def _answer(
        self,
        loaded: Loaded,
        question: str,
        history: History,
        lang: Lang | None,
        preferred: Lang | None = None,
    ) -> Answer:
        glossary = loaded.glossary
        query = self.prepare(question)
        if lang is None and preferred is not None and lang_undecided(query.text):
            lang = preferred
        follow = dialogue.resolve(query.text, history, loaded.citations)
        if follow is not None:
            lang = lang or follow.lang or query.lang
            if follow.turn is None:
                return no_context(lang)
            if follow.aspect is None:
                return self._answer(loaded, follow.turn.question, history[: follow.turn.position], lang)
            entries = [glossary.get(i) for i in follow.turn.entry_ids]
            return focus(entries, follow.aspect, lang, glossary)
        lang = lang or query.lang
        special = self._intent(loaded, query, lang)
        if special is not None:
            return special
        named = dialogue.named_entry(query.text, glossary)  # a bare term is answered even if it ranks 2nd
        found = self._retrieve(loaded, query, ANSWER_HITS, named.id if named else None)
        if not found.hits:
            return decline([], lang, query.notice or t("empty_question", lang))
        if found.comparison:
            answer = compare(found.hits, found.sides, lang, glossary, found.missing, query.notice)
        elif named is None and (
            found.abstained
            or found.confidence < NEAR_MISS_CONFIDENCE
            or intent.names_other_term(query.text, found.hits[0].entry)
            or intent.only_part_of_name(query.text, found.hits[0].entry)
        ):
            # A problem no entry names may still be one the glossary's usage or example text addresses.
            fixes = remedies(query.text, loaded.retriever, lang) if intent.is_how_to(query.text) else []
            if fixes:
                return remedy_answer(fixes, lang, glossary, query.notice)
            if not found.abstained:
                topic = strip_scaffolding(query.text)
                return near_miss(topic, found.hits, lang, glossary, found.confidence, query.notice)
            answer = decline(found.hits[:DECLINE_SUGGESTIONS], lang, query.notice)
        else:
            # A question that is exactly an entry's name is that entry, whatever the ranking's doubts.
            confidence = 1.0 if named is not None and found.hits[0].entry.id == named.id else found.confidence
            return compose(found.hits, lang, glossary, confidence, query.notice)
        return answer.model_copy(update={"confidence": found.confidence})

    def _intent(self, loaded: Loaded, query: Query, lang: Lang) -> Answer | None:
        """Small talk, "the opposite of X", or a how-to question the FAQ answers (None: none of these)."""
        kind = intent.small_talk(query.text)
        if kind is not None:
            return small_talk(kind, lang)
        topic = intent.opposite_topic(query.text)
        if topic is not None:
            ranking = loaded.retriever.rank(topic, use_dense=False)
            if ranking.name[ranking.top] >= SIDE_NAME_MATCH:
                entry = loaded.retriever.hits(ranking, 1)[0].entry
                return opposite(
                    entry, intent.antonym(entry, loaded.glossary), lang, loaded.glossary, query.notice
                )
        if intent.is_how_to(query.text):
            item = loaded.faq.match(query.text, loaded.retriever.encoder)
            if item is not None:
                return faq_answer(item, lang, loaded.glossary, query.notice)
        return None

    def _comparison_hits(self, retriever: Retriever, text: str) -> tuple[list[Hit] | None, tuple[str, ...]]:
        """For "X vs Y (vs Z)" questions, the entry each side names (None if not a comparison), and
        the sides that name no entry (said in the answer, never dropped silently).

        Sides are short names, so they are matched lexically: no extra encoder call.
        """
        sides = split_comparison(text) if self.comparisons else None
        if sides is None:
            return None, ()
        picked: list[Hit] = []
        missing: list[str] = []
        for side in sides:
            ranking = retriever.rank(side, use_dense=False)
            if ranking.name[ranking.top] < SIDE_NAME_MATCH:
                missing.append(side)
                continue
            best = retriever.hits(ranking, 1)[0]
            if all(best.entry.id != p.entry.id for p in picked):
                picked.append(best)
        if len(picked) < 2:
            return None, ()
        return picked[:MAX_COMPARED], (*missing, *(h.entry.term for h in picked[MAX_COMPARED:]))


def _read_glossary(settings: Settings) -> Glossary:
    glossary = load_glossary(
        settings.glossary_paths or None,
        settings.max_glossary_mb,
        settings.max_glossary_entries,
        parse_cache=settings.cache_dir / PARSED_DIR,
    )
    return glossary if settings.project_extras else glossary.without_project_extras()


def _retriever(
    glossary: Glossary,
    encoder: Encoder,
    settings: Settings,
    rebuild_index: bool = False,
    progress: bool = False,
    status: BuildStatus | None = None,
) -> tuple[Retriever, Calibration]:
    """The retriever over ``glossary``'s index with the weights fitted to it (or those the settings
    give) and its calibration: the verified prebuilt ones shipped for the bundled glossary, else the
    saved ones, else built (encoding only texts the embedding store has not seen, on every core) and
    saved."""
    passages = glossary_passages(list(glossary.entries))
    shipped = None if rebuild_index else prebuilt.load(glossary.content_hash, encoder, passages, settings)
    if shipped is not None:
        vectors, calibration = shipped
        retriever = Retriever(list(glossary.entries), encoder, vectors)
    else:
        retriever, calibration = _built(
            glossary, passages, encoder, settings, rebuild_index, progress, status
        )
    options = calibration.options
    if settings.fusion_weights:
        options = options.model_copy(update=settings.fusion_weights)
    return retriever.with_options(options), calibration


def _built(
    glossary: Glossary,
    passages: list[Passage],
    encoder: Encoder,
    settings: Settings,
    rebuild: bool,
    progress: bool,
    status: BuildStatus | None,
) -> tuple[Retriever, Calibration]:
    """The saved index and calibration, or new ones built through the embedding store and saved."""
    folder = settings.cache_dir / INDEX_DIR
    status = status or BuildStatus()
    builder = BuildEncoder(encoder, EmbeddingStore(settings.cache_dir / STORE_FILE), status, progress)
    started = time.perf_counter()
    workers = settings.build_threads or cores()
    with threads(encoder, workers):
        status.begin(f"encoding {glossary}")
        vectors = load_or_build(
            folder,
            passages,
            builder,
            glossary.content_hash,
            RECIPE,
            rebuild=rebuild,
            ann_threshold=settings.ann_threshold,
            nprobe=settings.ann_nprobe,
        )
        status.begin("calibrating")
        building = Retriever(list(glossary.entries), builder, vectors)
        key = index_key(glossary.content_hash, encoder.id, RECIPE)
        calibration = load_or_fit(folder, key, building, progress=progress)
    if builder.encoded:
        log.info(
            "index ready in %.1f s: encoded %d new texts on %d threads (%.0f texts/s); the rest were stored",
            time.perf_counter() - started,
            builder.encoded,
            workers,
            builder.encoded / builder.encoding_s if builder.encoding_s else float("nan"),
        )
        builder.prune()
    return building.with_options(calibration.options, encoder), calibration
