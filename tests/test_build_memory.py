"""A build holds its vectors once: the build encoder writes stored and new vectors straight into the
index build's matrix, at the rows it is told (fake encoders; no quality claims)."""

from __future__ import annotations

import tracemalloc

import numpy as np

from index import embeddings
from index.embeddings import STORE_FILE, BuildEncoder, BuildStatus, EmbeddingStore
from index.encoders.base import encode_into
from index.store import VectorIndex
from tests.test_embeddings import CountingEncoder, _builder, _passages


def test_stored_new_and_repeated_texts_land_on_the_rows_asked(tmp_path):
    inner = CountingEncoder()
    _builder(tmp_path, inner).encode_passages(["b"])
    texts = ["a", "b", "a", "c"]
    rows = np.array([5, 1, 3, 0])
    out = np.full((6, inner.dim), 7.0, dtype=np.float32)
    encode_into(_builder(tmp_path, inner), "passage", texts, out, rows)
    assert np.array_equal(out[rows], CountingEncoder().encode_passages(texts))
    assert np.all(out[[2, 4]] == 7.0), "rows not asked for are left as they were"
    assert inner.texts == ["b", "a", "c"], "the stored text is read, the repeated one encoded once"


def test_an_encoder_without_its_own_filling_is_copied_into_the_rows():
    inner = CountingEncoder()
    out = np.zeros((3, inner.dim), dtype=np.float32)
    encode_into(inner, "query", ["x", "y"], out, np.array([2, 0]))
    assert np.array_equal(out[[2, 0]], CountingEncoder().encode_queries(["x", "y"]))
    assert not out[1].any()


def test_a_lookup_writes_each_found_text_at_its_row(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    vectors = np.arange(8, dtype=np.float32).reshape(2, 4)
    store.add("e", "passage", ["a", "b"], vectors)
    into = np.zeros((5, 4), dtype=np.float32)
    found = store.lookup("e", "passage", ["b", "new", "a"], into, np.array([4, 0, 2]))
    assert found.tolist() == [True, False, True]
    assert np.array_equal(into[[4, 2]], vectors[[1, 0]])
    assert not into[[0, 1, 3]].any()


def test_a_text_given_twice_is_found_at_its_first_place_only(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    store.add("e", "passage", ["a"], np.ones((1, 4), dtype=np.float32))
    into = np.zeros((2, 4), dtype=np.float32)
    assert store.lookup("e", "passage", ["a", "a"], into).tolist() == [True, False]
    assert into[0].all() and not into[1].any()


class WideEncoder(CountingEncoder):
    """384 dimensions, as the bundled model, so that matrices dwarf everything else a build holds."""

    dim = 384


def test_a_first_build_holds_its_matrix_once(tmp_path, monkeypatch):
    """Traced peak of a first build of 20,000 texts (half of them already stored) against the size of
    its matrix: the build encoder's own matrix, and the copy a repeated text made of it, had held it
    three times. FAISS's copy of the vectors is C++ memory, which tracemalloc does not see; the
    store's read block (a few MB whatever the glossary's size) is made small so that it does not
    hide the matrices at this size."""
    monkeypatch.setattr(embeddings, "_READ_ROWS", 256)
    texts = [f"text {i}" for i in range(20_000)]
    builder = BuildEncoder(WideEncoder(), EmbeddingStore(tmp_path / STORE_FILE), BuildStatus())
    builder.encode_passages(texts[::2])
    matrix_bytes = len(texts) * WideEncoder.dim * 4
    tracemalloc.start()
    try:
        VectorIndex.build(_passages([*texts, texts[0]]), builder, "g", "r", ann_threshold=10**6)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1.5 * matrix_bytes, f"peak {peak / matrix_bytes:.2f} x the matrix"
