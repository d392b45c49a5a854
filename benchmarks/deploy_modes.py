"""What one child process of ``python -m benchmarks.deploy`` measures (its ``--child MODE``): each
figure comes from a new process, so that no cache or loaded model of another run is counted."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.child import status_mb

if TYPE_CHECKING:
    from bot.core import GlossaryBot
    from bot.settings import Settings

QUESTIONS = [
    "what is a container",
    "dropout kya hai?",
    "ओवरफिटिंग क्या है",
    "batch vs epoch",
    "gradient clipping",
]
#: Rounds of ``QUESTIONS`` (each question numbered, so none is answered from the query cache).
LATENCY_ROUNDS = 4
#: Runs of each side of a paired figure (a first build against its floor, a build's encoding against
#: the bare encoder's), in turns.
ROUNDS = 2
#: Texts encoded before the throughput figure is timed (the engine's first call sets itself up).
WARM_UP = 8
#: Texts encoded per thread count for the encoding-speed figure.
SPEED_SAMPLE = 64


def _throughput(glossary: Path, settings: Settings) -> dict:
    """Inside a child: both ways of encoding the glossary's index texts, in turns (``benchmarks.deploy``'s
    docstring, 5: throughput)."""
    from glossary import load_glossary
    from index import bulk
    from index.embeddings import BuildEncoder, BuildStatus, EmbeddingStore, cores
    from index.embeddings import threads as using
    from index.encoders import make_encoder
    from index.passages import glossary_passages

    serving = make_encoder(settings.encoder_backend, settings.cache_dir)
    passages = glossary_passages(list(load_glossary([glossary]).entries))
    by_prompt = {p: [x.text for x in passages if x.prompt == p] for p in ("passage", "query")}
    texts = sum(len(t) for t in by_prompt.values())
    faster = bulk.lazy(serving, settings.cache_dir, cores(), settings.bulk_memory_mb)
    encoder = faster(min(len(t) for t in by_prompt.values())) or serving
    build, bare = [], []
    with using(serving, cores()), tempfile.TemporaryDirectory() as tmp:
        encoder.encode_passages(by_prompt["passage"][:WARM_UP])
        for r in range(ROUNDS):
            store = EmbeddingStore(Path(tmp) / f"{r}.sqlite3")
            builder = BuildEncoder(serving, store, BuildStatus(), bulk=faster)
            began = time.perf_counter()
            builder.encode_passages(by_prompt["passage"])
            builder.encode_queries(by_prompt["query"])
            build.append(texts / (time.perf_counter() - began))
            began = time.perf_counter()
            encoder.encode_passages(by_prompt["passage"])
            encoder.encode_queries(by_prompt["query"])
            bare.append(texts / (time.perf_counter() - began))
    backend = bulk.backend_of(encoder) or settings.encoder_backend
    return {"backend": backend, "texts": texts, "build_per_s": build, "bare_per_s": bare}


def child(mode: str, glossary: Path, threads: int = 1) -> dict:
    """Inside a child process: load the bot whole and query it (``load``), load it in the app's order
    (``app``: searchable, then the sentences added) and query it, load it searchable only
    (``search``); time encoding on ``threads`` threads; or (the first build's floor) load the
    encoder and encode one ``term: definition`` text per entry."""
    from bot.core import GlossaryBot
    from bot.settings import Settings

    settings = Settings(glossary_paths=[glossary])
    if mode == "throughput":
        return _throughput(glossary, settings)
    if mode == "floor":
        from glossary import load_glossary
        from index.encoders import make_encoder

        entries = load_glossary([glossary]).entries
        encoder = make_encoder(settings.encoder_backend, settings.cache_dir)
        encoder.encode_passages([f"{e.term}: {e.definition_en or e.definition_hi}" for e in entries])
        return {"texts": len(entries)}
    if mode == "speed":
        from glossary import load_glossary
        from index.embeddings import threads as using
        from index.encoders import make_encoder
        from index.passages import glossary_passages

        encoder = make_encoder(settings.encoder_backend, settings.cache_dir)
        texts = [p.text for p in glossary_passages(list(load_glossary([glossary]).entries))][:SPEED_SAMPLE]
        with using(encoder, threads):
            began = time.perf_counter()
            encoder.encode_passages(texts)
            return {"rate": len(texts) / (time.perf_counter() - began)}
    began = time.perf_counter()
    bot = GlossaryBot.load(settings, sentences=mode == "load", first_pass=mode == "app")
    out = {"load_s": time.perf_counter() - began}
    if mode == "search":
        return out
    if mode == "app":  # served from here on; the rest is added after, as the app adds it
        if not bot.complete:
            out["first_pass_s"] = out["load_s"]
            out["first_pass_p50_ms"] = _p50_ms(bot, "first pass ")
            bot.complete_index()
        out["searchable_s"] = time.perf_counter() - began
        bot.add_sentences()
        out["load_s"] = time.perf_counter() - began
    p50_ms = _p50_ms(bot)
    return {**out, "query_p50_ms": p50_ms, "peak_rss_mb": status_mb("VmHWM"), "rss_mb": status_mb("VmRSS")}


def _p50_ms(bot: GlossaryBot, mark: str = "") -> float:
    """``bot.answer``'s median over ``QUESTIONS`` asked ``LATENCY_ROUNDS`` times, each new to its LRU
    (numbered, after ``mark``: another series asks other questions)."""
    latencies = []
    for question in [f"{q} {mark}{n}" for n in range(LATENCY_ROUNDS) for q in QUESTIONS]:
        t0 = time.perf_counter()
        bot.answer(question)
        latencies.append(time.perf_counter() - t0)
    return 1000 * statistics.median(latencies)
