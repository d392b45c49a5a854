"""GlossaryBot: the public Python API (load, reload, search, answer), a façade over the pipeline.

A question travels one way: ``bot.understand`` reads it once into a
:class:`~bot.understand.query.Query`; the dialogue finds the earlier answer a follow-up refers to;
``bot.search`` ranks the entries and gathers what else a reply may need (each piece on first use);
``bot.reply.router`` decides the kind of reply and its handler in ``bot.reply`` writes it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import replace

import faiss

from bot.allocation import fewer_collections, give_back
from bot.identity import GlossaryIdentity, identity
from bot.reply.answer import Answer
from bot.reply.cards import MAX_RELATED
from bot.reply.context import Context
from bot.reply.router import HANDLERS, answer_lang, route
from bot.search.calibration import Calibration
from bot.search.evidence import MAX_COMPARED, Evidence, Retrieval
from bot.search.loading import Loaded, read_glossary, ready, sentence_index
from bot.search.retrieval import Hit, Retriever
from bot.search.sentences import SentenceIndex
from bot.settings import Settings
from bot.understand import dialogue
from bot.understand.clean import Cleaned, clean
from bot.understand.query import understand
from bot.understand.text import Lang
from glossary import Glossary, pruning
from index.embeddings import BuildStatus
from index.encoders import CachedEncoder, Encoder, make_encoder
from index.errors import IndexLayerError

log = logging.getLogger(__name__)

History = list[dict]
#: Hits an answer reads: a comparison's sides, then up to MAX_RELATED follow-ups after them.
ANSWER_HITS = MAX_COMPARED + MAX_RELATED


class GlossaryBot:
    """Finds glossary entries for a question and answers with citations."""

    def __init__(
        self,
        glossary: Glossary,
        retriever: Retriever,
        calibration: Calibration,
        settings: Settings,
        comparisons: bool = True,
        sentences: SentenceIndex | None = None,
    ) -> None:
        self._loaded = Loaded(glossary, retriever, calibration, sentences)
        self._reload_lock = threading.Lock()
        self.comparisons = comparisons
        self.settings = settings
        self._identity: tuple[str, GlossaryIdentity] | None = None
        #: How the sentence index being added after the start is getting on (``add_sentences``).
        self.adding: BuildStatus | None = None
        #: How the whole index being built after a first pass is getting on (``complete_index``).
        self.completing: BuildStatus | None = None

    @property
    def glossary(self) -> Glossary:
        return self._loaded.glossary

    @property
    def identity(self) -> GlossaryIdentity:
        """What the app says the glossary served now is: title, examples, About's facts."""
        return self._identity_of(self.glossary)

    def _identity_of(self, glossary: Glossary) -> GlossaryIdentity:
        """``glossary``'s identity, made once per glossary content (every answer reads it)."""
        known = self._identity
        if known is None or known[0] != glossary.content_hash:
            known = (glossary.content_hash, identity(glossary, self.settings))
            self._identity = known
        return known[1]

    @property
    def retriever(self) -> Retriever:
        return self._loaded.retriever

    @property
    def calibration(self) -> Calibration:
        return self._loaded.calibration

    @property
    def sentences(self) -> SentenceIndex | None:
        """Every entry sentence's vector, for advice (``bot.search.remedies``)."""
        return self._loaded.sentences

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
        sentences: bool = True,
        first_pass: bool = False,
    ) -> GlossaryBot:
        """Bundled (or configured) glossary, configured (or given) encoder, cached index (built if stale).

        The glossary is read first, so a broken file is reported before any model is loaded.
        ``status`` follows a build as it goes (the app's start page and ``/readyz`` show it).
        ``sentences=False``: without the sentence index, which only advice reads (``add_sentences``).
        ``first_pass``: a big first build may return a first pass of the index, so that its caller
        serves sooner and completes it in the background (``complete_index``).
        """
        settings = settings or Settings()
        faiss.omp_set_num_threads(settings.threads)
        with fewer_collections():
            glossary = read_glossary(settings)
            encoder = encoder or CachedEncoder(
                make_encoder(
                    settings.encoder_backend, settings.cache_dir, settings.encoder_model, settings.threads
                )
            )
            loaded = ready(
                glossary,
                encoder,
                settings,
                rebuild_index=rebuild_index,
                progress=progress,
                status=status,
                sentences=sentences,
                first_pass=first_pass,
            )
        pruning.prune(settings.cache_dir, settings.cache_keep)  # what was just served is the newest
        return cls._serving(loaded, settings)

    @classmethod
    def _serving(cls, loaded: Loaded, settings: Settings, comparisons: bool = True) -> GlossaryBot:
        """A bot serving ``loaded`` as it is: its citation index, whether it is complete."""
        bot = cls(loaded.glossary, loaded.retriever, loaded.calibration, settings, comparisons)
        bot._loaded = loaded
        return bot

    @property
    def complete(self) -> bool:
        """False while the index served is a first pass (``load(first_pass=True)``)."""
        return self._loaded.complete

    def reload(self, status: BuildStatus | None = None) -> bool:
        """Read the configured glossary again and swap it in with its index, only if both load; then
        complete that index if it is a first pass (a new glossary with much to encode) and add its
        sentence index (``complete_index``, ``add_sentences``), so that an edit is served before
        the rest is encoded (advice looks in whole fields meanwhile).

        Returns False when the glossary's content has not changed. On a broken glossary or index
        the error (``GlossaryError``, ``IndexLayerError``, ``OSError``) propagates and the bot keeps
        serving what it had. Questions being answered meanwhile finish on the glossary they began with.
        ``status`` follows the index build, if one is needed (the maintainers' area shows it).
        """
        with self._reload_lock, fewer_collections():
            current = self._loaded
            glossary = read_glossary(self.settings)
            if glossary.content_hash == current.glossary.content_hash:
                return False
            self._loaded = ready(
                glossary,
                current.retriever.encoder,
                self.settings,
                status=status,
                sentences=False,
                first_pass=True,
            )
        log.info("glossary reloaded: %s", glossary)
        self.complete_index(status)
        self.add_sentences(status)
        pruning.prune(self.settings.cache_dir, self.settings.cache_keep)
        return True

    def complete_index(self, status: BuildStatus | None = None) -> bool:
        """Build the whole index of the glossary served now, if a first pass is served, and swap it in
        with its calibration. Answers keep coming from the first pass meanwhile; the swap is dropped
        if a reload swapped in another glossary (which completes its own), and a failure
        (``IndexLayerError``, ``OSError``) is logged: the first pass goes on serving. Returns whether
        it was swapped in."""
        loaded = self._loaded
        if loaded.complete:
            return False
        completing = self.completing = status or BuildStatus()
        try:
            whole = ready(
                loaded.glossary, loaded.retriever.encoder, self.settings, status=completing, sentences=False
            )
        except (IndexLayerError, OSError) as exc:
            log.error("index not completed (answers come from its first pass): %s", exc)
            return False
        finally:
            if self.completing is completing:
                self.completing = None
            give_back()
        with self._reload_lock:
            current = self._loaded
            if current.complete or current.glossary.content_hash != loaded.glossary.content_hash:
                return False
            self._loaded = replace(whole, sentences=current.sentences)
        log.info("index completed: %s", loaded.glossary)
        return True

    def add_sentences(self, status: BuildStatus | None = None) -> bool:
        """Build the sentence index of the glossary served now, if it has none, and swap it in.

        The app serves as soon as ranking and deciding are ready and calls this in the background:
        until it returns, advice is looked for in whole fields. The reload lock is held only for the
        swap; if a reload swapped in another glossary meanwhile (which adds its own), the index
        built is dropped. One that cannot be built or saved (``IndexLayerError``, ``OSError``) is
        logged: it costs advice its sentences, never the answers. Returns whether it was swapped in.
        """
        loaded = self._loaded
        if loaded.sentences is not None:
            return False
        adding = self.adding = status or BuildStatus()
        try:
            index = sentence_index(loaded.glossary, loaded.retriever.encoder, self.settings, status=adding)
        except (IndexLayerError, OSError) as exc:
            log.error("advice sentences not built (advice looks in whole fields): %s", exc)
            return False
        finally:
            if self.adding is adding:  # a later call (a reload's) reports its own
                self.adding = None
            give_back()  # what encoding them freed
        with self._reload_lock:
            current = self._loaded
            if current.sentences is not None or current.glossary.content_hash != loaded.glossary.content_hash:
                return False
            self._loaded = replace(current, sentences=index)
        log.info("advice sentences ready: %d", len(index.sentences))
        return True

    def pinned(self) -> GlossaryBot:
        """This bot fixed to the glossary it serves now: answer with it and render with its glossary."""
        return self._serving(self._loaded, self.settings, self.comparisons)

    def prepare(self, question: str) -> Cleaned:
        """The question as it is searched and recorded: control and invisible characters dropped, the
        length capped (``bot.understand.clean``)."""
        return clean(question, self.settings.max_question_chars)

    def retrieve(self, question: str, k: int | None = None) -> Retrieval:
        """Rank entries for a question and decide whether the glossary covers it, as an answer does:
        the entry a question names outright comes first, and a comparison ("X vs Y") puts the best
        entry for each side at the top. Search and evaluation read this, so they see what askers see.
        """
        query = understand(question, self.settings.max_question_chars)
        k = k or self.settings.top_k
        return Evidence(self._loaded, query, query.reading.lang, self.settings, self.comparisons, k).found

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
        history without them, those read back from its citations. The question is understood once;
        a language switch ("in Hindi please") answers the earlier question again, so that question is
        understood once more.
        """
        return self._answer(self._loaded, question, history or [], lang, preferred)

    def encoded_text(self, question: str, history: History | None = None) -> str:
        """The text ``answer(question, history)`` will encode: the cleaned question, or, for a follow-up
        that answers an earlier question again ("in English please"), that question; "" when the answer
        encodes nothing (a follow-up about an earlier answer's entries). Admission lanes by its length."""
        history = history or []
        text = self.prepare(question).text
        follow = dialogue.resolve(text, history, self._loaded.citations)
        if follow is None:
            return text
        if follow.turn is None or follow.aspect is not None:
            return ""
        return self.encoded_text(follow.turn.question, history[: follow.turn.position])

    def _answer(
        self,
        loaded: Loaded,
        question: str,
        history: History,
        lang: Lang | None,
        preferred: Lang | None = None,
    ) -> Answer:
        """The pipeline: understand, resolve the follow-up, route on what search finds, reply."""
        query = understand(question, self.settings.max_question_chars)
        follow = dialogue.resolve(query, history, loaded.citations)
        lang = answer_lang(query, follow, lang, preferred)
        earlier = dialogue.compared_before(query, history, loaded.citations)
        evidence = Evidence(loaded, query, lang, self.settings, self.comparisons, ANSWER_HITS, earlier)
        context = Context(
            query,
            follow,
            evidence,
            lang,
            loaded.glossary,
            self._identity_of(loaded.glossary),
            again=lambda turn, in_lang: self._answer(
                loaded, turn.question, history[: turn.position], in_lang
            ),
        )
        return HANDLERS[route(query, follow, evidence)](context)
