"""The one publish helper every cached artifact goes through (glossary.files.load_or_publish).

A reader finds an artifact complete or not at all: an interrupted build leaves no half artifact,
a file of the wrong size or a stale manifest means build again, and two processes publishing at
once build it once while both read the complete result.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest
from filelock import FileLock

from glossary import files

SPAWN = multiprocessing.get_context("spawn")
BODY = "payload " * 100


def _artifact(root: Path, version: int = 1) -> files.Artifact:
    return files.Artifact(root / "thing", {"version": version}, ("data.txt",))


class Builder:
    """Writes ``data.txt`` (and ``sub/extra.txt``) and counts its calls in a log beside the cache."""

    def __init__(self, log: Path, body: str = BODY, seconds: float = 0.0) -> None:
        self.log, self.body, self.seconds = log, body, seconds

    def __call__(self, folder: Path, notes: dict[str, object]) -> str:
        with self.log.open("a") as fh:
            fh.write("built\n")
        time.sleep(self.seconds)  # long enough for other builders to arrive while this one works
        (folder / "data.txt").write_text(self.body, encoding="utf-8")
        (folder / "sub").mkdir()
        (folder / "sub" / "extra.txt").write_text("x", encoding="utf-8")
        notes["note"] = "for people"
        return self.body

    @property
    def calls(self) -> int:
        return len(self.log.read_text().splitlines()) if self.log.exists() else 0


def _read(folder: Path) -> str | None:
    return (folder / "data.txt").read_text(encoding="utf-8")


def test_a_published_artifact_is_reused_and_describes_itself(tmp_path):
    build = Builder(tmp_path / "log")
    artifact = _artifact(tmp_path / "cache")
    assert files.load_or_publish(artifact, _read, build) == BODY
    assert files.load_or_publish(artifact, _read, build) == BODY and build.calls == 1
    manifest = json.loads((artifact.path / files.PUBLISHED_FILE).read_text())
    assert manifest == {
        "version": 1,
        "note": "for people",
        "files": {"data.txt": len(BODY), "sub/extra.txt": 1},
    }
    assert artifact.is_complete() and not artifact.temps()


@pytest.mark.parametrize(
    "damage", ["resized file", "missing file", "missing manifest", "garbled manifest", "other version"]
)
def test_a_damaged_or_stale_artifact_is_built_again(tmp_path, damage):
    build = Builder(tmp_path / "log")
    artifact = _artifact(tmp_path / "cache")
    files.load_or_publish(artifact, _read, build)
    manifest = artifact.path / files.PUBLISHED_FILE
    if damage == "resized file":
        (artifact.path / "sub" / "extra.txt").write_text("xy", encoding="utf-8")
    elif damage == "missing file":
        (artifact.path / "data.txt").unlink()
    elif damage == "missing manifest":
        manifest.unlink()
    elif damage == "garbled manifest":
        manifest.write_text("[1, 2", encoding="utf-8")
    else:
        artifact = _artifact(tmp_path / "cache", version=2)
    assert not artifact.is_complete()
    assert files.load_or_publish(artifact, _read, build) == BODY and build.calls == 2
    assert artifact.is_complete() and not artifact.temps()


def test_a_manifest_without_sizes_is_checked_by_the_required_files(tmp_path):
    """Folders published before sizes were recorded stay valid while their required files are there."""
    artifact = _artifact(tmp_path)
    artifact.path.mkdir()
    (artifact.path / files.PUBLISHED_FILE).write_text('{"version": 1}', encoding="utf-8")
    assert not artifact.is_complete()
    (artifact.path / "data.txt").write_text("old", encoding="utf-8")
    assert artifact.is_complete()


def test_an_artifact_load_refuses_is_built_again_and_replaced(tmp_path):
    build = Builder(tmp_path / "log", body="new")
    artifact = _artifact(tmp_path)
    files.load_or_publish(artifact, _read, Builder(tmp_path / "log", body="old"))
    assert files.load_or_publish(artifact, lambda f: None if _read(f) == "old" else _read(f), build) == "new"
    assert _read(artifact.path) == "new" and build.calls == 2 and not artifact.temps()
    assert files.load_or_publish(artifact, _read, build, rebuild=True) == "new" and build.calls == 3


def test_a_failed_build_leaves_nothing_behind(tmp_path):
    artifact = _artifact(tmp_path)

    def failing(folder: Path, notes: dict[str, object]) -> str:
        (folder / "data.txt").write_text("half", encoding="utf-8")
        raise ValueError("verification failed")

    with pytest.raises(ValueError, match="verification failed"):
        files.load_or_publish(artifact, _read, failing)
    assert not artifact.path.exists() and not artifact.temps()


def test_a_build_that_misses_a_required_file_is_not_published(tmp_path):
    artifact = _artifact(tmp_path)
    with pytest.raises(RuntimeError, match=r"did not write data\.txt"):
        files.load_or_publish(artifact, _read, lambda folder, notes: "nothing written")
    assert not artifact.path.exists() and not artifact.temps()


def _build_until_killed(root: str, started: str) -> None:
    def hang(folder: Path, notes: dict[str, object]) -> str:
        (folder / "data.txt").write_text("half", encoding="utf-8")
        Path(started).touch()
        signal.pause()  # killed here, mid-build
        return "never"

    files.load_or_publish(_artifact(Path(root)), _read, hang)


def test_a_killed_build_leaves_no_half_artifact_and_its_leftovers_are_swept(tmp_path):
    started = tmp_path / "started"
    process = SPAWN.Process(target=_build_until_killed, args=(str(tmp_path / "cache"), str(started)))
    process.start()
    try:
        _wait_for(started, process)
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.join(timeout=30)
    artifact = _artifact(tmp_path / "cache")
    assert not artifact.path.exists() and len(artifact.temps()) == 1  # the dead builder's temp folder
    build = Builder(tmp_path / "log")
    assert files.load_or_publish(artifact, _read, build) == BODY  # its lock died with it
    assert not artifact.temps() and artifact.is_complete()


def _wait_for(path: Path, process) -> None:
    while not path.exists():
        assert process.is_alive(), "the builder died before it started"
        process.join(timeout=0.05)


def test_leftovers_are_swept_only_when_nobody_builds(tmp_path):
    artifact = _artifact(tmp_path)
    files.load_or_publish(artifact, _read, Builder(tmp_path / "log"))
    leftover = tmp_path / f"{artifact.temp_prefix}dead"
    leftover.mkdir()
    with FileLock(artifact.lock_path):  # as if another process were building it now
        files.sweep_if_idle(artifact)
        assert leftover.exists()
    assert files.load_or_publish(artifact, _read, Builder(tmp_path / "log")) == BODY
    assert not leftover.exists()


def _publish_in_process(root: str, log: str, result: str, barrier) -> None:
    barrier.wait()
    value = files.load_or_publish(_artifact(Path(root)), _read, Builder(Path(log), seconds=0.5))
    Path(result).write_text(value or "", encoding="utf-8")


def test_two_processes_publishing_at_once_build_once_and_both_read_it_whole(tmp_path):
    n = 3
    barrier = SPAWN.Barrier(n)
    results = [tmp_path / f"result-{i}" for i in range(n)]
    args = (str(tmp_path / "cache"), str(tmp_path / "log"))
    processes = [SPAWN.Process(target=_publish_in_process, args=(*args, str(r), barrier)) for r in results]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=60)
    assert [p.exitcode for p in processes] == [0] * n
    assert Builder(tmp_path / "log").calls == 1
    assert [r.read_text(encoding="utf-8") for r in results] == [BODY] * n
    artifact = _artifact(tmp_path / "cache")
    assert artifact.is_complete() and not artifact.temps()


def test_an_unwritable_cache_raises_or_with_fallback_builds_without_keeping(tmp_path):
    """Root ignores permission bits, so the cache is made unusable by putting it under a file."""
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    build = Builder(tmp_path / "log")
    artifact = _artifact(blocker / "cache")
    with pytest.raises(OSError):
        files.load_or_publish(artifact, _read, build)
    assert files.load_or_publish(artifact, _read, build, fallback=True) == BODY and build.calls == 1
    assert blocker.read_text(encoding="utf-8") == "x"


def test_an_atomic_write_replaces_the_file_whole_with_the_mode_asked_for(tmp_path):
    target = tmp_path / "data.json"
    target.write_text("old")
    files.atomic_write(target, b"new", mode=0o644)
    assert target.read_bytes() == b"new" and (target.stat().st_mode & 0o777) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["data.json"]


def test_a_file_written_by_name_that_fails_leaves_the_old_one_and_no_temp(tmp_path):
    target = tmp_path / "index.faiss"
    target.write_text("old")
    with pytest.raises(OSError), files.atomic_path(target) as tmp:
        tmp.write_text("half")
        raise OSError("disk full")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["index.faiss"]
