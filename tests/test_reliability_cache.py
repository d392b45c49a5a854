"""Broken caches: two processes building the index or converting the model at once, a conversion
left half-done, a converted folder missing a file, a read-only cache, a manifest that lies.

Truncated and corrupted index files, a manifest with the wrong glossary hash and an unwritable
index folder are covered in test_index_store.py, the publish helper itself in test_files.py. The
conversion itself is replaced here by a fake that writes the same file layout (``_write_model``)
and passes verification: what is under test is how folders are published, checked and cleaned,
not the model (test_convert.py checks that).
"""

from __future__ import annotations

import json
import multiprocessing
import time
from pathlib import Path

import pytest
from filelock import FileLock

from glossary import files
from index import convert
from index.errors import ModelConversionError
from index.store import FAISS_FILE, MANIFEST_FILE, VectorIndex, index_key, load_or_build
from tests.test_index_store import PASSAGES, FakeEncoder

SPAWN = multiprocessing.get_context("spawn")


class SlowCountingEncoder(FakeEncoder):
    """Takes a second per batch and leaves one line per batch in ``log``: who encoded, and how often."""

    def __init__(self, log: Path) -> None:
        super().__init__()
        self.log = log

    def encode_passages(self, texts):
        with self.log.open("a") as fh:
            fh.write(f"{len(texts)}\n")
        time.sleep(1.0)
        return super().encode_passages(texts)


def _build_in_process(folder: str, log: str, result: str, barrier) -> None:
    barrier.wait()
    index = load_or_build(Path(folder), PASSAGES, SlowCountingEncoder(Path(log)), "g1", "r1")
    Path(result).write_text(index.manifest.model_dump_json(), encoding="utf-8")


def _run_together(target, args_for, n: int = 2) -> None:
    barrier = SPAWN.Barrier(n)
    processes = [SPAWN.Process(target=target, args=(*args_for(i), barrier)) for i in range(n)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * n


@pytest.mark.parametrize("start", ["empty cache", "corrupt index"])
def test_two_processes_building_the_index_encode_once_and_agree(tmp_path, start):
    folder, log = tmp_path / "indexes", tmp_path / "encode.log"
    if start == "corrupt index":
        load_or_build(folder, PASSAGES, FakeEncoder(), "g1", "r1")
        faiss_file = folder / index_key("g1", "fake", "r1") / FAISS_FILE
        faiss_file.write_bytes(faiss_file.read_bytes()[:50])
    results = [tmp_path / f"result-{i}.json" for i in range(2)]
    _run_together(_build_in_process, lambda i: (str(folder), str(log), str(results[i])))
    assert log.read_text().splitlines() == ["3"]  # one batch of the 3 passages, encoded by one process
    manifests = [json.loads(r.read_text()) for r in results]
    assert manifests[0]["faiss_sha256"] == manifests[1]["faiss_sha256"] != ""
    loaded = VectorIndex.load(folder / index_key("g1", "fake", "r1"))
    assert loaded.manifest.faiss_sha256 == manifests[0]["faiss_sha256"]
    key = index_key("g1", "fake", "r1")
    assert sorted(p.name for p in folder.iterdir()) == [f".{key}.lock", key]  # no temp files left


def test_a_manifest_whose_rows_lie_is_rebuilt(tmp_path):
    enc = FakeEncoder()
    load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    manifest_path = tmp_path / index_key("g1", "fake", "r1") / MANIFEST_FILE
    manifest = json.loads(manifest_path.read_text())
    manifest["rows"][0]["entry_id"], manifest["rows"][2]["entry_id"] = "b", "a"  # rows swapped, hashes kept
    manifest_path.write_text(json.dumps(manifest))
    served = load_or_build(tmp_path, PASSAGES, enc, "g1", "r1")
    assert [r.entry_id for r in served.manifest.rows] == [p.entry_id for p in PASSAGES]
    assert enc.calls == 2


# --- the converted model folder -------------------------------------------------------------------


def _fake_write_model(src, out: Path) -> None:
    """The conversion's file layout with placeholder bytes (the real one takes a minute)."""
    for name in convert.REQUIRED_FILES:
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"{name} " * 20, encoding="utf-8")
    log = Path(src).with_name("conversions.log")
    with log.open("a") as fh:
        fh.write("converted\n")
    time.sleep(0.3)  # long enough for a second converter to arrive while this one works


def _fake_conversion(monkeypatch) -> None:
    monkeypatch.setattr(convert, "E5File", lambda weights: weights)
    monkeypatch.setattr(convert, "_write_model", _fake_write_model)
    monkeypatch.setattr(convert, "verify", lambda folder, weights: 1.0)


@pytest.fixture()
def weights(tmp_path) -> Path:
    path = tmp_path / "weights.bin"
    path.write_bytes(b"fake weights")
    return path


def _artifact(models: Path, weights: Path) -> files.Artifact:
    return convert.model_artifact(models, convert.weights_sha256(weights, models))


def _conversions(weights: Path) -> int:
    log = weights.with_name("conversions.log")
    return len(log.read_text().splitlines()) if log.exists() else 0


def test_a_complete_folder_is_reused(tmp_path, weights, monkeypatch):
    _fake_conversion(monkeypatch)
    first = convert.convert(tmp_path / "models", weights)
    assert convert.convert(tmp_path / "models", weights) == first and _conversions(weights) == 1
    meta = json.loads((first / convert.META_FILE).read_text())
    assert set(meta["files"]) == set(convert.REQUIRED_FILES)


@pytest.mark.parametrize("damage", ["missing file", "truncated file", "missing metadata"])
def test_a_damaged_folder_is_converted_again(tmp_path, weights, monkeypatch, damage):
    _fake_conversion(monkeypatch)
    folder = convert.convert(tmp_path / "models", weights)
    if damage == "missing file":
        (folder / "model.safetensors").unlink()
    elif damage == "truncated file":
        (folder / "tokenizer.json").write_text("{", encoding="utf-8")
    else:
        (folder / convert.META_FILE).unlink()
    assert convert.convert(tmp_path / "models", weights) == folder
    assert _conversions(weights) == 2
    assert (folder / "model.safetensors").is_file() and (folder / convert.META_FILE).is_file()


def test_a_folder_from_before_file_sizes_were_recorded_is_checked_against_the_file_list(
    tmp_path, weights, monkeypatch
):
    _fake_conversion(monkeypatch)
    folder = convert.convert(tmp_path / "models", weights)
    meta_path = folder / convert.META_FILE
    meta = json.loads(meta_path.read_text())
    del meta["files"]
    meta_path.write_text(json.dumps(meta))
    assert convert.convert(tmp_path / "models", weights) == folder and _conversions(weights) == 1
    (folder / "2_Normalize" / "config.json").unlink()
    convert.convert(tmp_path / "models", weights)
    assert _conversions(weights) == 2


def test_leftovers_of_an_interrupted_conversion_are_removed(tmp_path, weights, monkeypatch):
    _fake_conversion(monkeypatch)
    models = tmp_path / "models"
    stale = models / f"{_artifact(models, weights).temp_prefix}killed"
    stale.mkdir(parents=True)
    (stale / "model.safetensors").write_bytes(b"half")
    folder = convert.convert(models, weights)
    assert not stale.exists() and folder.is_dir()
    stale.mkdir()  # killed again later: swept at the next start, which finds the folder complete
    assert convert.convert(models, weights) == folder
    assert not stale.exists() and _conversions(weights) == 1


def test_a_running_conversion_keeps_its_temp_folder(tmp_path, weights):
    """The sweep at start-up skips the temp folder of a conversion that holds the lock."""
    models = tmp_path / "models"
    artifact = _artifact(models, weights)
    live = models / f"{artifact.temp_prefix}running"
    live.mkdir(parents=True)
    with FileLock(artifact.lock_path):
        files.sweep_if_idle(artifact)
        assert live.exists()
    files.sweep_if_idle(artifact)
    assert not live.exists()


def _convert_in_process(models: str, weights: str, result: str, barrier) -> None:
    import pytest as _pytest

    with _pytest.MonkeyPatch.context() as mp:
        _fake_conversion(mp)
        barrier.wait()
        Path(result).write_text(str(convert.convert(Path(models), Path(weights))), encoding="utf-8")


def test_two_processes_converting_at_once_convert_once(tmp_path, weights):
    models = tmp_path / "models"
    results = [tmp_path / f"result-{i}.txt" for i in range(2)]
    _run_together(_convert_in_process, lambda i: (str(models), str(weights), str(results[i])))
    assert _conversions(weights) == 1
    paths = {r.read_text() for r in results}
    assert len(paths) == 1
    artifact = _artifact(models, weights)
    assert Path(paths.pop()) == artifact.path and artifact.is_complete()
    assert not artifact.temps()


def test_a_read_only_cache_is_a_clear_error(tmp_path, weights, monkeypatch):
    """Root ignores permission bits, so the cache path is made unusable by putting it under a file."""
    _fake_conversion(monkeypatch)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with pytest.raises(ModelConversionError, match="make the folder writable or point GLOSSARY_BOT_CACHE"):
        convert.convert(blocker / "models", weights)


def test_a_read_only_cache_with_a_complete_model_still_serves(tmp_path, weights, monkeypatch):
    _fake_conversion(monkeypatch)
    models = tmp_path / "models"
    folder = convert.convert(models, weights)
    artifact = _artifact(models, weights)
    artifact.lock_path.unlink()
    (models / f"{artifact.temp_prefix}old").mkdir()
    monkeypatch.setattr(files, "FileLock", _unwritable)
    assert convert.convert(models, weights) == folder  # the sweep cannot lock: it warns and moves on


def _unwritable(path: Path, timeout: float = -1):
    raise PermissionError(13, "Read-only file system")


@pytest.mark.model
def test_the_real_converted_folder_is_complete(st_model_dir):
    digest = json.loads((st_model_dir / convert.META_FILE).read_text())["source_sha256"]
    artifact = convert.model_artifact(st_model_dir.parent, digest)
    assert artifact.path == st_model_dir and artifact.is_complete()
