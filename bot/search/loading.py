"""A glossary made ready to search: read, its index and calibration loaded (or built), held as one.

The bundled glossary serves its shipped index and calibration when they verify (``prebuilt``);
any other glossary its saved ones, or new ones built through the embedding store (encoding only
texts it has not seen, on every core) and saved for the next start.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from functools import cached_property

from bot.allocation import GiveBackOnGrowth
from bot.search import prebuilt
from bot.search.calibration import Calibration
from bot.search.calibration_files import load_or_fit
from bot.search.entry_words import WORDS_FILE, EntryWords
from bot.search.faq import FaqIndex
from bot.search.lexical import kept_words
from bot.search.retrieval import Retriever
from bot.search.sentences import SENTENCE_RECIPE, SentenceIndex, sentence_passages
from bot.settings import Settings
from bot.understand.dialogue import CitationIndex
from glossary import Glossary, GlossaryError, load_glossary
from glossary.report import check, render
from glossary.yamlio import PARSED_DIR
from index import bulk
from index.embeddings import BuildEncoder, BuildStatus, EmbeddingStore, cores, threads
from index.encoders import Encoder
from index.passages import (
    FIRST_PASS_PROMPT,
    FIRST_PASS_RECIPE,
    RECIPE,
    first_pass_passages,
    glossary_passages,
)
from index.rows import PROMPTS
from index.store import INDEX_DIR, Passage, VectorIndex, index_key, is_saved, load_or_build

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Loaded:
    """A glossary and the retriever over its index: swapped as one, so no question sees a mix."""

    glossary: Glossary
    retriever: Retriever
    calibration: Calibration
    #: Every entry sentence's vector (None where a caller made a bot without them, or until the app
    #: has added them: advice is then looked for in whole fields only).
    sentences: SentenceIndex | None = None
    #: False for a first pass (``ready(first_pass=True)``): the index holds the query-prompt copies
    #: only, until ``ready`` builds the whole of it.
    complete: bool = True

    @cached_property
    def citations(self) -> CitationIndex:
        """How answers cite this glossary's entries, for reading histories back: once per glossary."""
        return CitationIndex(self.glossary.entries)

    @cached_property
    def faq(self) -> FaqIndex:
        """The FAQ questions embedded for how-to questions: once per glossary, on first use."""
        return FaqIndex.build(self.glossary, self.retriever.encoder)


def read_glossary(settings: Settings) -> Glossary:
    """The configured glossary (the bundled one when none is), without the project-written extras
    when the settings turn them off."""
    glossary = load_glossary(
        settings.glossary_paths or None,
        settings.max_glossary_mb,
        settings.max_glossary_entries,
        parse_cache=settings.cache_dir / PARSED_DIR,
        options=settings.read_options,
    )
    return glossary if settings.project_extras else glossary.without_project_extras()


def glossary_report(settings: Settings, error: GlossaryError) -> str:
    """What ``glossary-bot check`` says about the configured files (the error alone for the bundled
    glossary, or when the check finds nothing more)."""
    if not settings.glossary_paths:
        return str(error)
    reports = check(settings.glossary_paths, settings.read_options)
    return render(reports) if any(r.problems for r in reports) else str(error)


def ready(
    glossary: Glossary,
    encoder: Encoder,
    settings: Settings,
    rebuild_index: bool = False,
    progress: bool = False,
    status: BuildStatus | None = None,
    sentences: bool = True,
    first_pass: bool = False,
) -> Loaded:
    """``glossary`` with the retriever over its index, fused with the weights fitted to it (or those
    the settings give), and its calibration: the verified prebuilt ones shipped for the bundled
    glossary, else the saved ones, else built and saved.

    ``sentences=False`` leaves out the sentence index that advice quotes from: ranking and deciding
    read the sentence rows of the entries' index instead, so a search needs none, and the app adds
    it after it serves (``GlossaryBot.add_sentences``). Its vectors are those rows' (stored by the
    whole index's build; after a first pass, which embeds no sentences, a third of the encoding is
    theirs). With it, any sentences not stored are encoded right after the index's texts, by the
    same build encoder: the bulk backend is loaded once, and let go before the calibration (which
    would otherwise sit under a second load of it).

    ``first_pass``: when the whole index is not saved and at least ``first_pass_min_texts`` of its
    passage-prompt copies are not stored, build and calibrate the query-prompt copies alone (half
    the encoding, nearly the same ranking) and return that (``Loaded.complete`` False); the caller
    serves it and calls ``ready`` again for the whole index, which then encodes the rest."""
    passages = glossary_passages(list(glossary.entries))
    words = kept_words(settings.cache_dir / WORDS_FILE)
    shipped = None if rebuild_index else prebuilt.load(glossary.content_hash, encoder, passages, settings)
    status = status or BuildStatus()
    started = time.perf_counter()
    builder, workers = _build_encoder(encoder, settings, status, progress)
    recipe = RECIPE
    if (
        shipped is None
        and first_pass
        and _first_pass_pays(passages, builder, glossary.content_hash, settings)
    ):
        passages, recipe = first_pass_passages(passages), FIRST_PASS_RECIPE
    with threads(encoder, workers):
        if shipped is None:
            status.begin(f"encoding {glossary}" if recipe == RECIPE else f"encoding {glossary}, first pass")
            vectors = _vectors(passages, builder, glossary, recipe, settings, rebuild_index)
        index = _sentences(glossary, builder, settings, rebuild_index) if sentences else None
        builder.end_bulk()
        if shipped is None:
            status.begin("calibrating")
            retriever, calibration = _calibrated(glossary, vectors, builder, settings, words, recipe)
        else:
            vectors, calibration = shipped
            retriever = Retriever(list(glossary.entries), encoder, vectors, words=words)
    _finish(builder, workers, started)
    if builder.encoded:  # a build that added nothing to the store leaves it as it is
        builder.prune()
    words.save()
    options = calibration.options
    if settings.fusion_weights:
        options = options.model_copy(update=settings.fusion_weights)
    return Loaded(glossary, retriever.with_options(options), calibration, index, complete=recipe == RECIPE)


def _first_pass_pays(
    passages: list[Passage], builder: BuildEncoder, glossary_hash: str, settings: Settings
) -> bool:
    """Whether a first pass is worth its own calibration: the whole index is not saved, and at least
    ``first_pass_min_texts`` of the copies a first pass leaves out are not in the embedding store."""
    if not settings.first_pass_min_texts:
        return False
    left = 0
    for prompt in PROMPTS:
        if prompt != FIRST_PASS_PROMPT:
            texts = list(dict.fromkeys(p.text for p in passages if p.prompt == prompt))
            left += len(texts) - builder.store.stored(builder.id, prompt, texts)
    # Asked second: a saved index's texts are stored, so a restart stops at the count above instead
    # of checksumming the saved FAISS file here and again when it is loaded.
    return left >= settings.first_pass_min_texts and not is_saved(
        settings.cache_dir / INDEX_DIR, glossary_hash, builder.id, RECIPE
    )


def sentence_index(
    glossary: Glossary,
    encoder: Encoder,
    settings: Settings,
    rebuild: bool = False,
    progress: bool = False,
    status: BuildStatus | None = None,
) -> SentenceIndex:
    """The entries' sentence vectors alone, for a glossary already served (``ready`` encodes them
    with its index when asked to)."""
    started = time.perf_counter()
    builder, workers = _build_encoder(encoder, settings, status or BuildStatus(), progress)
    with threads(encoder, workers):
        index = _sentences(glossary, builder, settings, rebuild)
    _finish(builder, workers, started)
    return index


def _sentences(glossary: Glossary, builder: BuildEncoder, settings: Settings, rebuild: bool) -> SentenceIndex:
    """The shipped sentence vectors for the bundled glossary, else the saved ones, else built through
    the embedding store (which holds them once the whole index is built) and saved."""
    sentences, passages = sentence_passages(list(glossary.entries))
    shipped = (
        None if rebuild else prebuilt.load_sentences(glossary.content_hash, builder.inner, passages, settings)
    )
    if shipped is not None:
        return SentenceIndex(tuple(sentences), shipped)
    builder.status.begin(f"encoding the sentences of {glossary}")
    return SentenceIndex(
        tuple(sentences), _vectors(passages, builder, glossary, SENTENCE_RECIPE, settings, rebuild)
    )


def _vectors(
    passages: list[Passage],
    builder: BuildEncoder,
    glossary: Glossary,
    recipe: str,
    settings: Settings,
    rebuild: bool,
) -> VectorIndex:
    """The saved vector index of ``passages`` under ``recipe``, or a new one built and saved."""
    return load_or_build(
        settings.cache_dir / INDEX_DIR,
        passages,
        builder,
        glossary.content_hash,
        recipe,
        rebuild=rebuild,
        ann_threshold=settings.ann_threshold,
        nprobe=settings.ann_nprobe,
    )


def _build_encoder(
    encoder: Encoder, settings: Settings, status: BuildStatus, progress: bool
) -> tuple[BuildEncoder, int]:
    """The encoder a build goes through (the embedding store first, a faster bulk backend for many
    texts) and the threads it encodes on."""
    workers = settings.build_threads or cores()
    store = EmbeddingStore(settings.store_file)
    faster = bulk.lazy(encoder, settings.cache_dir, workers, settings.bulk_memory_mb)
    builder = BuildEncoder(
        encoder, store, status, progress, faster, settings.bulk_min_texts, between_batches=GiveBackOnGrowth()
    )
    return builder, workers


def _calibrated(
    glossary: Glossary,
    vectors: VectorIndex,
    builder: BuildEncoder,
    settings: Settings,
    words: EntryWords,
    recipe: str,
) -> tuple[Retriever, Calibration]:
    """The saved calibration of this index (``recipe``'s), or a new one fitted and saved; its
    questions go through the build encoder (the store first)."""
    building = Retriever(list(glossary.entries), builder, vectors, words=words)
    key = index_key(glossary.content_hash, builder.inner.id, recipe)
    calibration = load_or_fit(settings.cache_dir / INDEX_DIR, key, building, progress=builder.progress)
    return building.with_options(calibration.options, builder.inner), calibration


def _finish(builder: BuildEncoder, workers: int, started: float) -> None:
    """Log what a build encoded.

    Only an index build ages the store (``BuildEncoder.prune``): a sentence build asks for its
    sentences alone, and sized by them alone the store could lose the vectors of the index it
    serves (a store shared by other glossaries past ``MIN_KEPT``, a glossary of few sentences).
    """
    if not builder.encoded:
        return
    log.info(
        "built in %.1f s: encoded %d new texts on %d threads (%.0f texts/s); the rest were stored",
        time.perf_counter() - started,
        builder.encoded,
        workers,
        builder.encoded / builder.encoding_s if builder.encoding_s else float("nan"),
    )
