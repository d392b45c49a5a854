"""The memory benchmark's starting point: a copy of a kept store with the same share of its vectors
deleted each run, and nothing else of the kept cache."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import numpy as np

from benchmarks.memory import prepare
from index.embeddings import STORE_FILE, EmbeddingStore


def _keys(path) -> set[tuple]:
    with closing(sqlite3.connect(path)) as db:
        return set(db.execute("SELECT encoder, prompt, digest FROM vectors"))


def test_a_share_of_the_kept_vectors_is_deleted_the_same_each_run(tmp_path):
    kept = tmp_path / "kept"
    kept.mkdir()
    texts = [f"text {i}" for i in range(200)]
    EmbeddingStore(kept / STORE_FILE).add("enc", "passage", texts, np.ones((200, 4), dtype=np.float32))
    (kept / "indexes").mkdir()
    first = prepare(kept, tmp_path / "a", 0.1)
    second = prepare(kept, tmp_path / "b", 0.1)
    assert first == second == 20
    assert len(_keys(kept / STORE_FILE)) == 200, "the kept store is left as it was"
    assert _keys(tmp_path / "a" / STORE_FILE) == _keys(tmp_path / "b" / STORE_FILE)
    assert len(_keys(tmp_path / "a" / STORE_FILE)) == 180
    assert [p.name for p in (tmp_path / "a").iterdir()] == [STORE_FILE], (
        "no index, calibration or parse cache"
    )
