"""GlossaryBot: the public Python API (load, search, answer, reload)."""

from __future__ import annotations

import logging
import threading
import time
import unicodedata
from dataclasses import dataclass
from functools import cached_property

import faiss

from bot import dialogue, prebuilt
from bot.answer import MAX_RELATED, Answer, compare, compose, decline, focus, no_context
from bot.calibration import Calibration, load_or_fit
from bot.comparison import split_comparison
from bot.messages import t
from bot.retrieval import Hit, Retriever
from bot.settings import Settings
from bot.text import Lang, content_tokens, detect_lang
from glossary import Glossary, load_glossary
from index.embeddings import STORE_FILE, BuildEncoder, BuildStatus, EmbeddingStore, cores, threads
from index.encoders import CachedEncoder, Encoder, make_encoder
from index.passages import RECIPE, glossary_passages
from index.store import Passage, index_key, load_or_build

log = logging.getLogger(__name__)

History = list[dict]
#: How much of an entry's name (IDF-weighted) one side of a comparison must spell out.
SIDE_NAME_MATCH = 0.5
#: Hits an answer reads: a comparison's two sides, then up to MAX_RELATED follow-ups after them
#: (a single-entry answer needs one fewer; it shows 3 of them as sources).
ANSWER_HITS = 2 + MAX_RELATED
#: Nearest entries a declining answer still offers ("did you mean ...").
DECLINE_SUGGESTIONS = 2
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
        pair = self._comparison_hits(retriever, query.text)
        if pair:
            rest = [h for h in hits if h.entry.id not in {p.entry.id for p in pair}]
            hits = [h.model_copy(update={"rank": i}) for i, h in enumerate(pair + rest, start=1)]
        threshold = self.settings.min_answer_probability
        if threshold is None:
            threshold = calibration.threshold
        # A question whose only words are numbers or scaffolding ("12345", "what is it?") names no topic.
        topical = any(ch.isalpha() for word in content_tokens(query.text) for ch in word)
        abstained = pair is None and (not topical or calibration.answer_probability(ranking) < threshold)
        return Retrieval(query, hits[:k], abstained, pair is not None, calibration.confidence(ranking))

    def search(self, question: str, k: int | None = None) -> list[Hit]:
        """The top-k entries for a question, best first (empty for a question with no words)."""
        return self.retrieve(question, k).hits

    def answer(self, question: str, history: History | None = None, lang: Lang | None = None) -> Answer:
        """Answer one question in its own language (or ``lang``); ``history`` is Gradio's messages list.

        A follow-up with no topic of its own ("give me an example", "in Hindi please") is about the
        entries of an earlier answer: those its message's ``metadata["entry_ids"]`` lists, or, in a
        history without them, those read back from its citations.
        """
        return self._answer(self._loaded, question, history or [], lang)

    def _answer(self, loaded: Loaded, question: str, history: History, lang: Lang | None) -> Answer:
        glossary = loaded.glossary
        query = self.prepare(question)
        follow = dialogue.resolve(query.text, history, loaded.citations)
        if follow is not None:
            lang = lang or follow.lang or query.lang
            if follow.turn is None:
                return no_context(lang)
            if follow.aspect is None:
                return self._answer(loaded, follow.turn.question, history[: follow.turn.position], lang)
            entries = [glossary.get(i) for i in follow.turn.entry_ids]
            return focus(entries, follow.aspect, lang, glossary)
        named = dialogue.named_entry(query.text, glossary)  # a bare term is answered even if it ranks 2nd
        found = self._retrieve(loaded, query, ANSWER_HITS, named.id if named else None)
        lang = lang or query.lang
        if not found.hits:
            return decline([], lang, query.notice or t("empty_question", lang))
        if found.comparison:
            answer = compare(found.hits, lang, glossary, query.notice)
        elif named is None and found.abstained:
            answer = decline(found.hits[:DECLINE_SUGGESTIONS], lang, query.notice)
        else:
            answer = compose(found.hits, lang, glossary, query.notice)
        return answer.model_copy(update={"confidence": found.confidence})

    def _comparison_hits(self, retriever: Retriever, text: str) -> list[Hit] | None:
        """For "X vs Y" questions, the entry each side names (None if not a comparison).

        Sides are short names, so they are matched lexically: no extra encoder call.
        """
        sides = split_comparison(text) if self.comparisons else None
        if sides is None:
            return None
        picked: list[Hit] = []
        for side in sides:
            ranking = retriever.rank(side, use_dense=False)
            if ranking.name[ranking.top] < SIDE_NAME_MATCH:
                continue
            best = retriever.hits(ranking, 1)[0]
            if all(best.entry.id != p.entry.id for p in picked):
                picked.append(best)
        return picked[:2] if len(picked) >= 2 else None


def _read_glossary(settings: Settings) -> Glossary:
    glossary = load_glossary(
        settings.glossary_paths or None,
        settings.max_glossary_mb,
        settings.max_glossary_entries,
        parse_cache=settings.cache_dir / "parsed",
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
    shipped = None if rebuild_index else prebuilt.load(glossary.content_hash, encoder.id, passages, settings)
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
    folder = settings.cache_dir / "indexes"
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
