"""The embedding store: a build encodes only texts it has not seen; a damaged or unusable store only
costs encoding again; builds take every core and give the serving setting back (fake encoders)."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import numpy as np

from bot.core import GlossaryBot
from bot.settings import Settings
from index.embeddings import STORE_FILE, BuildEncoder, BuildStatus, EmbeddingStore, threads
from index.store import Passage, load_or_build
from tests.factories import user_entry
from tests.test_glossary_loader import document, write_yaml


class CountingEncoder:
    """Hash-seeded unit vectors that remember every text they encoded (no quality claims)."""

    dim = 8

    def __init__(self, name: str = "counting") -> None:
        self.id = name
        self.texts: list[str] = []

    def _encode(self, texts: list[str]) -> np.ndarray:
        self.texts.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")
            v = np.random.default_rng(seed).standard_normal(self.dim)
            out[i] = v / np.linalg.norm(v)
        return out

    encode_queries = encode_passages = _encode


class ThreadedEncoder(CountingEncoder):
    """Records the thread count it is asked to run on, and on which it encodes."""

    def __init__(self) -> None:
        super().__init__()
        self.current = 1
        self.seen_while_encoding: set[int] = set()

    def use_threads(self, count: int) -> int:
        before, self.current = self.current, count
        return before

    def _encode(self, texts: list[str]) -> np.ndarray:
        self.seen_while_encoding.add(self.current)
        return super()._encode(texts)

    encode_queries = encode_passages = _encode


def _builder(tmp_path: Path, inner: CountingEncoder) -> BuildEncoder:
    return BuildEncoder(inner, EmbeddingStore(tmp_path / STORE_FILE), BuildStatus())


def _passages(texts: list[str]) -> list[Passage]:
    return [Passage(entry_id=f"e{i}", field="definition_en", text=t) for i, t in enumerate(texts)]


def test_a_build_encodes_only_texts_it_has_not_seen(tmp_path):
    inner = CountingEncoder()
    first = load_or_build(
        tmp_path / "a", _passages(["alpha", "beta", "gamma"]), _builder(tmp_path, inner), "g1", "r"
    )
    assert sorted(inner.texts) == ["alpha", "beta", "gamma"]
    inner.texts.clear()
    edited = _passages(["alpha", "beta (edited)", "gamma"])
    second = load_or_build(tmp_path / "b", edited, _builder(tmp_path, inner), "g2", "r")
    assert inner.texts == ["beta (edited)"]
    q = inner.encode_queries(["alpha"])
    assert np.allclose(first.scores(q)[0][[0, 2]], second.scores(q)[0][[0, 2]])


def test_vectors_are_kept_per_encoder_and_prompt(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    store.add("enc-a", "passage", ["x"], np.ones((1, 4), dtype=np.float32))
    assert store.lookup("enc-a", "passage", ["x"], 4)[0] is not None
    assert store.lookup("enc-b", "passage", ["x"], 4) == [None]
    assert store.lookup("enc-a", "query", ["x"], 4) == [None]
    assert store.lookup("enc-a", "passage", ["x"], 8) == [None], "a vector of another size is not served"


def test_a_damaged_store_is_moved_aside_and_builds_still_work(tmp_path, caplog):
    (tmp_path / STORE_FILE).write_bytes(b"not a database at all" * 100)
    inner = CountingEncoder()
    built = load_or_build(tmp_path, _passages(["alpha", "beta"]), _builder(tmp_path, inner), "g", "r")
    assert built.faiss_index.ntotal == 2
    assert "damaged" in caplog.text
    assert any(p.name.startswith(f"{STORE_FILE}.damaged-") for p in tmp_path.iterdir())
    with sqlite3.connect(tmp_path / STORE_FILE) as db:
        assert db.execute("SELECT count(*) FROM vectors").fetchone()[0] == 2


def test_a_store_that_cannot_be_opened_only_costs_encoding(tmp_path, caplog):
    (tmp_path / STORE_FILE).mkdir()  # something SQLite cannot open in its place (as root, too)
    inner = CountingEncoder()
    builder = _builder(tmp_path, inner)
    assert builder.encode_passages(["alpha", "beta"]).shape == (2, inner.dim)
    assert builder.encode_passages(["alpha"]).shape == (1, inner.dim)
    assert inner.texts == ["alpha", "beta", "alpha"]
    assert "builds encode every text" in caplog.text


def test_pruning_keeps_the_most_recently_used(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    for i in range(5):
        store.add("e", "passage", [f"t{i}"], np.ones((1, 4), dtype=np.float32))
    store.lookup("e", "passage", ["t0"], 4)  # used again: now the newest
    assert store.prune(2) == 3
    kept = store.lookup("e", "passage", [f"t{i}" for i in range(5)], 4)
    assert [v is not None for v in kept] == [True, False, False, False, True]


def test_a_build_runs_on_the_build_threads_and_gives_the_serving_setting_back(tmp_path):
    inner = ThreadedEncoder()
    builder = _builder(tmp_path, inner)
    with threads(builder, 4):
        builder.encode_passages(["alpha"])
    assert inner.seen_while_encoding == {4}
    assert inner.current == 1


def test_status_counts_stored_and_encoded_texts(tmp_path):
    inner = CountingEncoder()
    _builder(tmp_path, inner).encode_passages(["alpha"])
    status = BuildStatus()
    status.begin("encoding")
    BuildEncoder(inner, EmbeddingStore(tmp_path / STORE_FILE), status).encode_passages(["alpha", "beta"])
    assert (status.done, status.total, status.from_store) == (2, 2, 1)
    assert "2/2 texts (1 already encoded)" in status.describe()


def test_a_one_entry_edit_of_a_user_glossary_encodes_only_that_entry(tmp_path):
    """The bot end to end (a small glossary: calibration is the shipped one, nothing to encode there)."""
    entries = [user_entry(f"term-{i}", definition_en=f"Definition number {i}.") for i in range(3)]
    path = write_yaml(tmp_path / "g.yaml", document(*entries))
    settings = Settings(glossary_paths=[path], cache_dir=tmp_path / "cache", build_threads=2)
    inner = CountingEncoder()
    GlossaryBot.load(settings, encoder=inner)
    first = len(inner.texts)
    inner.texts.clear()
    entries[1]["definition_en"] = "An edited definition."
    write_yaml(path, document(*entries))
    bot = GlossaryBot.load(settings, encoder=inner)
    assert first > len(inner.texts) > 0
    assert all("edited" in text for text in inner.texts), inner.texts
    assert bot.encoder is inner, "serving uses the encoder itself, not the build's"
