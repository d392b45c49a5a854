"""Index build throughput (texts per second: a build encoder with its progress bar, writing a new
embedding store) against bare batch encoding of them."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from benchmarks.stats import AgainstFloor
from bot.core import GlossaryBot
from index.embeddings import STORE_FILE, BuildEncoder, BuildStatus, EmbeddingStore
from index.passages import RECIPE, glossary_passages
from index.store import VectorIndex


class Build(AgainstFloor):
    RATIO = ("build_per_s", "bare_per_s")

    backend: str
    texts: int
    build_per_s: float
    bare_per_s: float


def measure(bot: GlossaryBot, n_texts: int) -> Build:
    """``n_texts`` of the glossary's passages (both prompts); bare = one encode call per prompt."""
    encoder = bot.encoder.inner
    passages = glossary_passages(list(bot.glossary.entries))
    step = max(1, len(passages) // n_texts)
    subset = passages[::step][:n_texts]  # spread over entries, fields and both prompts

    def bare() -> None:
        encoder.encode_passages([p.text for p in subset if p.prompt == "passage"])
        encoder.encode_queries([p.text for p in subset if p.prompt == "query"])

    def build() -> None:
        with tempfile.TemporaryDirectory(prefix="bench-build-") as tmp:  # empty store: every text encoded
            store = EmbeddingStore(Path(tmp) / STORE_FILE)
            VectorIndex.build(
                subset, BuildEncoder(encoder, store, BuildStatus(), progress=True), "bench", RECIPE
            )

    timings: dict[str, list[float]] = {"bare": [], "build": []}
    for name, run in (("bare", bare), ("build", build), ("build", build), ("bare", bare)):
        start = time.perf_counter()
        run()
        timings[name].append(time.perf_counter() - start)
    return Build(
        backend=bot.settings.encoder_backend,
        texts=len(subset),
        build_per_s=len(subset) / min(timings["build"]),
        bare_per_s=len(subset) / min(timings["bare"]),
    )
