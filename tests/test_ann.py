"""The exact/approximate index switch: kinds, recall, persistence and the settings that drive it."""

import hashlib
import io
import json
import math

import numpy as np
import pytest

from bot.settings import Settings
from index import ann
from index.errors import IndexStoreError
from index.store import (
    CELLS_FILE,
    FAISS_FILE,
    FORMAT_VERSION,
    MANIFEST_FILE,
    Passage,
    VectorIndex,
    index_key,
    load_or_build,
)
from tests.test_index_store import FakeEncoder


def unit_rows(n: int, dim: int = 16, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_settings_defaults_are_the_index_defaults():
    s = Settings()
    assert (s.ann_threshold, s.ann_nprobe) == (ann.DEFAULT_THRESHOLD, ann.DEFAULT_NPROBE)


def test_kind_follows_the_threshold():
    assert ann.kind_for(ann.DEFAULT_THRESHOLD - 1) == "flat"
    assert ann.kind_for(ann.DEFAULT_THRESHOLD) == "ivf"
    assert ann.kind_of(ann.make_index(unit_rows(100), threshold=101)) == "flat"
    assert ann.kind_of(ann.make_index(unit_rows(2000), threshold=100)) == "ivf"


def test_exact_scores_match_a_plain_matrix_product():
    x, q = unit_rows(300), unit_rows(3, seed=1)
    scores = ann.all_scores(ann.make_index(x), q)
    assert scores.shape == (3, 300)
    assert np.allclose(scores, q @ x.T, atol=1e-5)


def test_approximate_index_finds_the_exact_neighbours():
    x, q = unit_rows(4000), unit_rows(20, seed=1)
    exact = ann.make_index(x)
    approx = ann.make_index(x, threshold=1000, nprobe=ann.n_cells(4000))  # every cell: exact answers
    _, want = ann.top_k(exact, q, 10)
    _, got = ann.top_k(approx, q, 10)
    assert np.array_equal(np.sort(want, axis=1), np.sort(got, axis=1))
    scores = ann.all_scores(approx, q, candidates=50)
    assert scores.shape == (20, 4000)
    assert ((scores > -1).sum(axis=1) == 50).all()
    rows = np.arange(20)
    assert np.allclose(scores[rows, want[:, 0]], (q @ x.T).max(axis=1), atol=1e-5)


def test_nprobe_is_applied_capped_or_automatic():
    index = ann.make_index(unit_rows(2000), threshold=100, nprobe=4)
    assert index.nprobe == 4
    ann.configure(index, 10**6)
    assert index.nprobe == index.nlist
    big = ann.make_index(unit_rows(20_000, dim=4), threshold=100)  # automatic: cells for ~SCAN vectors
    per_cell = big.ntotal / big.nlist
    assert big.nprobe == math.ceil(ann.SCAN / per_cell) or big.nprobe == big.nlist


def _passages(n: int) -> list[Passage]:
    return [Passage(entry_id=f"e{i // 2}", field=f"f{i % 2}", text=f"text number {i}") for i in range(n)]


def test_store_switches_kind_and_rebuilds_when_the_threshold_moves(tmp_path):
    passages = _passages(600)
    enc = FakeEncoder()
    flat = load_or_build(tmp_path, passages, enc, "g", "r")
    assert flat.manifest.index_kind == "flat" and flat.manifest.format_version == FORMAT_VERSION
    calls = enc.calls
    approx = load_or_build(tmp_path, passages, enc, "g", "r", ann_threshold=500, nprobe=3)
    assert enc.calls > calls and approx.manifest.index_kind == "ivf"
    calls = enc.calls
    again = load_or_build(tmp_path, passages, enc, "g", "r", ann_threshold=500, nprobe=5)
    assert enc.calls == calls, "a saved index of the wanted kind is served, not rebuilt"
    assert again.faiss_index.nprobe == 5
    sims, rows = again.search(enc.encode_queries(["text number 7"]), 3)
    assert rows[0][0] == 7 and sims[0][0] == pytest.approx(1.0, abs=1e-5)


def test_kind_in_manifest_must_match_the_faiss_file(tmp_path):
    built = VectorIndex.build(_passages(40), FakeEncoder(), "g", "r")
    lying = built.manifest.model_copy(update={"index_kind": "ivf"})
    with pytest.raises(IndexStoreError):
        VectorIndex(built.faiss_index, lying)


def test_bot_builds_the_index_kind_its_settings_ask_for(tmp_path):
    """GlossaryBot passes ann_threshold / ann_nprobe to the index store (the bundled glossary has
    2,132 vectors: exact by default, IVF when the threshold is below that)."""
    from bot.core import GlossaryBot

    enc = FakeEncoder()
    default = GlossaryBot.load(Settings(cache_dir=tmp_path), encoder=enc)
    assert default.retriever.vectors.manifest.index_kind == "flat"
    settings = Settings(cache_dir=tmp_path, ann_threshold=1000, ann_nprobe=7)
    approx = GlossaryBot.load(settings, encoder=enc).retriever.vectors
    assert approx.manifest.index_kind == "ivf" and approx.faiss_index.nprobe == 7


def _centroids(index) -> np.ndarray:
    return index.quantizer.reconstruct_n(0, index.nlist)


def test_an_ivf_index_takes_the_trained_cells_of_a_similar_one():
    first = ann.make_index(unit_rows(2000), threshold=100)
    edited = unit_rows(2000, seed=5)  # other vectors, as many of them
    second = ann.make_index(edited, threshold=100, cells=ann.Cells.of(first))
    assert np.array_equal(_centroids(second), _centroids(first)), "cells reused, not trained again"
    assert second.ntotal == 2000 and first.ntotal == 2000, "the earlier index keeps its own vectors"
    sims, rows = ann.top_k(second, edited[:1], 1)
    assert rows[0][0] == 0 and sims[0][0] == pytest.approx(1.0, abs=1e-5)
    grown = ann.make_index(unit_rows(3000, seed=6), threshold=100, cells=ann.Cells.of(first))
    assert grown.nlist == ann.n_cells(3000), "a glossary half as big again is trained afresh"


def _texts_and_an_edit() -> tuple[list[Passage], list[Passage]]:
    texts = [f"text number {i}" for i in range(600)]
    passages = [Passage(entry_id=f"e{i}", field="definition_en", text=t) for i, t in enumerate(texts)]
    return passages, [*passages[:-1], Passage(entry_id="e599", field="definition_en", text="an edited text")]


def test_a_rebuild_reuses_the_cells_of_the_saved_index(tmp_path):
    """From the small cells file beside it, whether or not the FAISS file can be read."""
    enc = FakeEncoder()
    passages, edited = _texts_and_an_edit()
    first = load_or_build(tmp_path, passages, enc, "g1", "r", ann_threshold=500)
    (tmp_path / index_key("g1", enc.id, "r") / FAISS_FILE).write_bytes(b"not read")
    second = load_or_build(tmp_path, edited, enc, "g2", "r", ann_threshold=500)
    assert np.array_equal(_centroids(second.faiss_index), _centroids(first.faiss_index))
    assert second.manifest.cells_sha256 is not None and first.manifest.cells_sha256 is not None


def test_cells_that_are_not_those_their_manifest_vouches_for_are_trained_again(tmp_path):
    enc = FakeEncoder()
    passages, edited = _texts_and_an_edit()
    first = load_or_build(tmp_path, passages, enc, "g1", "r", ann_threshold=500)
    cells = tmp_path / index_key("g1", enc.id, "r") / CELLS_FILE
    tampered = io.BytesIO()
    np.save(tampered, -_centroids(first.faiss_index))
    cells.write_bytes(tampered.getvalue())
    second = load_or_build(tmp_path, edited, enc, "g2", "r", ann_threshold=500)
    assert not np.array_equal(_centroids(second.faiss_index), -_centroids(first.faiss_index))
    assert len(_centroids(second.faiss_index)) == ann.n_cells(600)


def test_cells_of_another_shape_are_trained_again_even_when_their_manifest_vouches_for_them(tmp_path):
    enc = FakeEncoder()
    passages, edited = _texts_and_an_edit()
    load_or_build(tmp_path, passages, enc, "g1", "r", ann_threshold=500)
    folder = tmp_path / index_key("g1", enc.id, "r")
    flat = io.BytesIO()
    np.save(flat, np.zeros(10, dtype=np.float32))
    (folder / CELLS_FILE).write_bytes(flat.getvalue())
    manifest = json.loads((folder / MANIFEST_FILE).read_bytes())
    manifest["cells_sha256"] = hashlib.sha256(flat.getvalue()).hexdigest()
    (folder / MANIFEST_FILE).write_text(json.dumps(manifest))
    second = load_or_build(tmp_path, edited, enc, "g2", "r", ann_threshold=500)
    assert len(_centroids(second.faiss_index)) == ann.n_cells(600)
