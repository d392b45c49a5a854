"""multilingual-e5-small as an int8 ONNX graph run by onnxruntime: no torch at serving time.

Why not sentence-transformers' own ONNX backend: it needs ``optimum``, whose ONNX
package pins transformers < 4.58, below this project's pin. So the converted
sentence-transformers folder is exported here with torch's TorchScript exporter
(BERT + mean pooling + L2 norm in one graph), its weights are quantised to int8
per channel (onnxruntime's dynamic quantisation: activations stay float), and the
result is verified against the float folder before it is published in the cache
(glossary.files.load_or_publish, like the conversion itself).
"""

from __future__ import annotations

import logging
import shutil
import warnings
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Self

import numpy as np

from glossary import pruning
from glossary.files import Artifact, folder_itself, load_or_publish
from index.convert import MODELS_DIR, PASSAGE_PROMPT, QUERY_PROMPT, VERIFY_TEXTS, WEIGHTS_HASH_CHARS, convert
from index.encoders.base import BUNDLED_MODEL, MAX_TOKENS, bundled_weights
from index.encoders.onnx_session import OnnxEncoder, Tokenize
from index.errors import EncoderError, ModelConversionError

if TYPE_CHECKING:
    from tokenizers import Tokenizer

log = logging.getLogger(__name__)

EXPORTER_VERSION = 1
#: The export's manifest (see glossary.files.Artifact).
META_FILE = "glossary_bot_onnx.json"
MODEL_FILE = "model-int8.onnx"
TOKENIZER_FILE = "tokenizer.json"
#: int8 weights cost a little fidelity (observed min cosine ~0.994 vs the float model).
MIN_COSINE = 0.98
pruning.register("ONNX exports", MODELS_DIR, f"e5-small-onnx-int8-[0-9a-f]{{{WEIGHTS_HASH_CHARS}}}")
BATCH = 32


def export_artifact(models_dir: Path, src_hash: str) -> Artifact:
    """Where the int8 export of the weights with this sha256 lives, and what makes it complete."""
    return Artifact(
        models_dir / f"e5-small-onnx-int8-{src_hash[:WEIGHTS_HASH_CHARS]}",
        {"exporter_version": EXPORTER_VERSION, "source_sha256": src_hash},
        (MODEL_FILE, TOKENIZER_FILE),
        META_FILE,
    )


def ensure_export(models_dir: Path, weights: Path, src_hash: str) -> Path:
    """The int8 ONNX folder for these weights, exported (once) from the converted folder."""
    artifact = export_artifact(models_dir, src_hash)
    return load_or_publish(artifact, folder_itself, partial(_export, weights, artifact.path))


def _export(weights: Path, final: Path, work: Path, notes: dict[str, object]) -> Path:
    st_folder = convert(final.parent, weights)
    log.info("exporting %s to int8 ONNX (one-off, ~1 min)", st_folder.name)
    scratch = work / "float"  # the float graph (and whatever quantisation leaves beside it): not kept
    scratch.mkdir()
    _export_float(st_folder, scratch / "model.onnx")
    _quantise(scratch / "model.onnx", work / MODEL_FILE)
    shutil.rmtree(scratch)
    shutil.copy(st_folder / TOKENIZER_FILE, work / TOKENIZER_FILE)
    cosine = verify(work, st_folder)
    if cosine < MIN_COSINE:
        raise ModelConversionError(f"int8 model disagrees with float (min cosine {cosine:.4f})")
    notes["min_cosine"] = cosine
    log.info("int8 ONNX model ready: min cosine vs float %.4f", cosine)
    return final


def _export_float(st_folder: Path, out: Path) -> None:
    import torch
    from transformers import BertModel

    class Pooled(torch.nn.Module):
        def __init__(self, bert: BertModel) -> None:
            super().__init__()
            self.bert = bert

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            mean = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(mean, dim=-1)

    model = Pooled(BertModel.from_pretrained(str(st_folder)).eval())
    ids = torch.tensor([[0, 1000, 2000, 2]])
    axes = {"batch": 0, "tokens": 1}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # the tracer's notes on Python branches over shapes
        torch.onnx.export(
            model,
            (ids, torch.ones_like(ids)),
            str(out),
            dynamo=False,  # the dynamo exporter needs onnxscript; the tracer is enough for BERT
            input_names=["input_ids", "attention_mask"],
            output_names=["embedding"],
            dynamic_axes={
                "input_ids": {v: k for k, v in axes.items()},
                "attention_mask": {v: k for k, v in axes.items()},
                "embedding": {0: "batch"},
            },
            opset_version=17,
        )


def _quantise(src: Path, out: Path) -> None:
    from onnx import TensorProto
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        str(src),
        str(out),
        weight_type=QuantType.QInt8,
        per_channel=True,
        extra_options={"DefaultTensorType": TensorProto.FLOAT},
    )


def verify(folder: Path, st_folder: Path) -> float:
    """Minimum cosine between the int8 graph and the float folder on VERIFY_TEXTS, both prompts."""
    from sentence_transformers import SentenceTransformer

    st = SentenceTransformer(str(st_folder), device="cpu")
    ours = OnnxInt8Encoder(folder, "verify")
    pairs = [
        (
            ours.encode_queries(VERIFY_TEXTS),
            st.encode(VERIFY_TEXTS, prompt=QUERY_PROMPT, show_progress_bar=False),
        ),
        (
            ours.encode_passages(VERIFY_TEXTS),
            st.encode(VERIFY_TEXTS, prompt=PASSAGE_PROMPT, show_progress_bar=False),
        ),
    ]
    return float(min(np.min(np.sum(a * b, axis=1)) for a, b in pairs))


def _ids(tokenizer: Tokenizer) -> Tokenize:
    """``tokenizer``'s ids for a batch; one text is encoded alone, since ``encode_batch`` hands even
    one text to the tokenizers thread pool."""

    def tokenize(texts: list[str]) -> list[list[int]]:
        encoded = tokenizer.encode_batch(texts) if len(texts) > 1 else [tokenizer.encode(texts[0])]
        return [e.ids for e in encoded]

    return tokenize


class OnnxInt8Encoder(OnnxEncoder):
    """The exported int8 graph under onnxruntime, with the converted folder's fast tokenizer."""

    batch = BATCH

    def __init__(self, folder: Path, encoder_id: str, threads: int = 1) -> None:
        from tokenizers import Tokenizer

        try:
            tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        except Exception as exc:  # tokenizers raises its own untyped exceptions
            raise EncoderError(f"cannot load the tokenizer in {folder}: {exc}") from exc
        tokenizer.enable_truncation(MAX_TOKENS)
        super().__init__(folder / MODEL_FILE, _ids(tokenizer), encoder_id, threads)

    @classmethod
    def bundled(cls, cache_dir: Path, threads: int) -> Self:
        weights, digest = bundled_weights(cache_dir)
        folder = ensure_export(cache_dir / MODELS_DIR, weights, digest)
        return cls(folder, f"onnx-int8:{BUNDLED_MODEL}@{digest[:16]}/v{EXPORTER_VERSION}", threads)

    def _feeds(self, ids: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"input_ids": ids, "attention_mask": mask}
