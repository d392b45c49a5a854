"""Persistence and staleness of the FAISS index, with a tiny deterministic fake encoder."""

import hashlib

import numpy as np
import pytest

from index import store
from index.errors import IndexStoreError
from index.store import FAISS_FILE, MANIFEST_FILE, Passage, VectorIndex, index_key, load_or_build


class FakeEncoder:
    """Hash-seeded unit vectors: enough to test storage, never used for quality claims."""

    def __init__(self, name: str = "fake") -> None:
        self.id = name
        self.dim = 8
        self.calls = 0

    def _vec(self, text: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "little")
        v = np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)
        return v / np.linalg.norm(v)

    def encode_queries(self, texts):
        return np.stack([self._vec(t) for t in texts])

    def encode_passages(self, texts):
        self.calls += 1
        return np.stack([self._vec(t) for t in texts])


PASSAGES = [
    Passage(entry_id="a", field="names", text="alpha"),
    Passage(entry_id="a", field="definition_en", text="first letter"),
    Passage(entry_id="b", field="names", text="beta"),
]


def test_round_trip_and_scores(tmp_path):
    enc = FakeEncoder()
    built = load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    loaded = load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    assert enc.calls == 1, "a matching manifest must be served without re-encoding"
    assert loaded.manifest.entry_ids == ["a", "b"]
    assert [r.field for r in loaded.manifest.rows] == ["names", "definition_en", "names"]
    q = enc.encode_queries(["beta"])
    assert np.allclose(built.scores(q), loaded.scores(q))
    assert int(np.argmax(loaded.scores(q)[0])) == 2  # identical text -> cosine 1


@pytest.mark.parametrize(
    ("glossary_hash", "encoder_name", "recipe"),
    [("g2", "fake", "r1"), ("g1", "other-encoder", "r1"), ("g1", "fake", "r2")],
)
def test_any_change_in_manifest_key_rebuilds(tmp_path, glossary_hash, encoder_name, recipe):
    load_or_build(tmp_path, PASSAGES, FakeEncoder(), "g1", "r1")
    enc = FakeEncoder(encoder_name)
    idx = load_or_build(tmp_path, PASSAGES, enc, glossary_hash, recipe)
    assert (tmp_path / index_key(glossary_hash, encoder_name, recipe) / MANIFEST_FILE).is_file()
    assert idx.manifest.glossary_hash == glossary_hash and idx.manifest.recipe == recipe
    same_vectors = (encoder_name, recipe) == ("fake", "r1")
    assert enc.calls == (0 if same_vectors else 1), "texts already in the last index are taken from it"


def test_lying_manifest_is_detected_and_rebuilt(tmp_path):
    enc = FakeEncoder()
    load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    key = index_key("g1", "fake", "r1")
    manifest = tmp_path / key / MANIFEST_FILE
    manifest.write_text(manifest.read_text().replace('"g1"', '"g9"'))
    load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    assert enc.calls == 2


@pytest.mark.parametrize("damage", ["truncate", "flip", "delete_manifest_tail"])
def test_corrupt_files_are_rebuilt_not_served(tmp_path, damage):
    enc = FakeEncoder()
    load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    key = index_key("g1", "fake", "r1")
    faiss_file, manifest = tmp_path / key / FAISS_FILE, tmp_path / key / MANIFEST_FILE
    if damage == "truncate":
        faiss_file.write_bytes(faiss_file.read_bytes()[:40])
    elif damage == "flip":
        data = bytearray(faiss_file.read_bytes())
        data[-5] ^= 0xFF
        faiss_file.write_bytes(bytes(data))
    else:
        manifest.write_text(manifest.read_text()[:30])
    with pytest.raises(IndexStoreError):
        VectorIndex.load(tmp_path / key)
    idx = load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    assert enc.calls == 2 and idx.faiss_index.ntotal == 3
    VectorIndex.load(tmp_path / key)  # the rebuilt pair is consistent again


def test_unwritable_cache_still_serves(tmp_path):
    """Root ignores permission bits, so make the cache path unusable by putting it under a file."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    enc = FakeEncoder()
    idx = load_or_build(blocker / "indexes", PASSAGES, enc, "g1", "r1")
    assert idx.faiss_index.ntotal == 3 and enc.calls == 1


def test_forced_rebuild(tmp_path):
    enc = FakeEncoder()
    load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    load_or_build(tmp_path, PASSAGES, enc, "g1", "r1", rebuild=True)
    assert enc.calls == 2


def test_the_manifest_keeps_each_row_kind(tmp_path):
    """Retrieval tells paraphrase vectors from an entry's own fields by the manifest's row kind."""
    from index.store import Passage, VectorIndex

    class Unit:
        id, dim = "unit", 2

        def encode_passages(self, texts):
            return np.tile(np.array([[1.0, 0.0]], dtype=np.float32), (len(texts), 1))

        encode_queries = encode_passages

    passages = [
        Passage(entry_id="a", field="names", text="A"),
        Passage(entry_id="a", field="paraphrase_0", text="an a", kind="paraphrase"),
    ]
    built = VectorIndex.build(passages, Unit(), "h", "r")
    assert [r.kind for r in built.manifest.rows] == ["field", "paraphrase"]


def test_the_saved_faiss_file_is_the_one_its_manifest_vouches_for(tmp_path):
    built = load_or_build(tmp_path, PASSAGES, FakeEncoder(), "g1", "r1")
    folder = tmp_path / index_key("g1", "fake", "r1")
    assert hashlib.sha256((folder / FAISS_FILE).read_bytes()).hexdigest() == built.manifest.faiss_sha256
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []


def test_a_faiss_file_that_cannot_be_written_is_an_os_error_and_leaves_nothing(tmp_path, monkeypatch):
    """FAISS reports a write it could not make as a RuntimeError; the cache's callers act on
    OSError (a cache that cannot be written only costs a rebuild)."""
    built = VectorIndex.build(PASSAGES, FakeEncoder(), "g1", "r1")

    def full_disk(index, name):
        with open(name, "wb") as fh:
            fh.write(b"half")
        raise RuntimeError("Error: 'ret == (1)' failed: write error")

    monkeypatch.setattr(store.faiss, "write_index", full_disk)
    with pytest.raises(OSError, match="cannot write"):
        built.save(tmp_path)
    assert list(tmp_path.iterdir()) == []
