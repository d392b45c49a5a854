"""Writing files so that a reader never sees half of one, and a crash never leaves one half-written.

``atomic_write`` does it for one file (``atomic_path`` for a file a library writes by name).
``load_or_publish`` does it for everything the project keeps in its cache (the converted model, the
ONNX export, each saved index, each parsed glossary): an ``Artifact`` is a folder that is built
under a temp name beside its final place and renamed into place whole, with a manifest of what it
was built from and every file's size. A reader serves a folder only if its manifest is there, names
the same sources and every file has its recorded size (sizes, not checksums: hashing 470 MB of
weights would add seconds to every start); anything else is built again. One lock file per artifact
(``filelock``) makes concurrent builders build it once, the others wait and read the result; temp
folders left by a builder that died are removed by the next process that finds nobody building. It
lives in glossary/ because index/ may import glossary/, not the reverse.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from filelock import FileLock, Timeout

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Default name of an artifact's manifest (some artifacts keep the name they had before this helper).
PUBLISHED_FILE = "published.json"
#: Where a manifest records the sha256 of an artifact's ``checksummed`` files.
CHECKSUMS_KEY = "sha256"


@contextmanager
def atomic_path(path: Path, mode: int | None = None) -> Iterator[Path]:
    """A temp file in ``path``'s folder for the caller to write (by name: FAISS writes its own
    files); when the block ends it is flushed to disk and renamed over ``path``, or removed if the
    block raised.

    ``mode``: permissions of the result (mkstemp creates 0600 files; source files must be readable).
    """
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        written = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(written)
        finally:
            os.close(written)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to a temp file in the same folder, flush it to disk, then rename it over
    ``path`` (``atomic_path``)."""
    with atomic_path(path, mode) as tmp:
        tmp.write_bytes(data)


@dataclass(frozen=True)
class Artifact:
    """A cached folder that readers find complete or not at all.

    ``meta``: what it is built from (versions, source hashes; JSON values): a manifest that says
    otherwise means stale. ``required``: files every complete one holds; a manifest written before
    sizes were recorded (no ``files``) is checked by these alone. ``manifest``: the manifest's name.
    ``checksummed``: small files whose sha256 the manifest records and every read checks (an edit
    that keeps a file's size would otherwise be served: sizes are checked, contents are not).
    """

    path: Path
    meta: Mapping[str, object]
    required: tuple[str, ...]
    manifest: str = PUBLISHED_FILE
    checksummed: tuple[str, ...] = ()

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(f".{self.path.name}.lock")

    @property
    def temp_prefix(self) -> str:
        """Name start of the folders this artifact is built in (and of a replaced one being removed)."""
        return f".{self.path.name}.tmp-"

    def is_complete(self) -> bool:
        try:
            manifest = json.loads((self.path / self.manifest).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return False
        if not isinstance(manifest, dict) or any(manifest.get(k) != v for k, v in self.meta.items()):
            return False
        recorded, sums = manifest.get("files") or {}, manifest.get(CHECKSUMS_KEY) or {}
        if not isinstance(recorded, dict) or not isinstance(sums, dict):
            log.warning("%s has a damaged manifest; building it again", self.path)
            return False
        sizes: dict[str, object] = dict.fromkeys(self.required) | recorded
        for name, size in sizes.items():
            file = self.path / name
            if not file.is_file() or (size is not None and file.stat().st_size != size):
                log.warning("%s is damaged (%s missing or resized); building it again", self.path, name)
                return False
        for name in self.checksummed:
            if sums.get(name) != _sha256(self.path / name):
                log.warning(
                    "%s is damaged (%s does not match its checksum); building it again", self.path, name
                )
                return False
        return True

    def temps(self) -> list[Path]:
        return sorted(self.path.parent.glob(f"{self.temp_prefix}*"))


def load_or_publish(
    artifact: Artifact,
    load: Callable[[Path], T | None],
    build: Callable[[Path, dict[str, object]], T],
    *,
    rebuild: bool = False,
    fallback: bool = False,
) -> T:
    """``load`` the artifact if it is complete (and ``load`` accepts it); otherwise build and publish it.

    ``build(folder, notes)`` fills an empty folder and returns the value ``load`` would read from it;
    what it puts in ``notes`` goes into the manifest for people to read. ``rebuild``: build even
    if a complete artifact is there. OSError (no lock, cache not writable) propagates, unless
    ``fallback``: then it is logged and the artifact is built in a throw-away folder, not kept.
    """
    if not rebuild and (found := _load_complete(artifact, load)) is not None:
        sweep_if_idle(artifact)
        _mark_used(artifact.path)
        return found
    try:
        artifact.path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(artifact.lock_path):
            # another process may have published it while this one waited for the lock
            if not rebuild and (found := _load_complete(artifact, load)) is not None:
                return found
            _remove_temps(artifact)
            return _publish(artifact, build)
    except OSError as exc:
        if not fallback:
            raise
        log.warning("cannot keep %s in the cache (%s); building it without keeping it", artifact.path, exc)
        with tempfile.TemporaryDirectory() as scratch:
            return build(Path(scratch), {})


def folder_itself(folder: Path) -> Path:
    """``load`` for an artifact whose value is its folder (a model read from there by its library)."""
    return folder


def sweep_if_idle(artifact: Artifact) -> None:
    """Remove leftovers of interrupted builds, unless a build is running or the cache is read-only."""
    if not artifact.temps():
        return
    try:
        with FileLock(artifact.lock_path, timeout=0):
            _remove_temps(artifact)
    except Timeout:
        return  # a builder is at work: its temp folder is not a leftover
    except OSError as exc:
        log.warning("cannot remove leftovers of an interrupted build of %s: %s", artifact.path, exc)


def _mark_used(folder: Path) -> None:
    """Set the folder's time to now: ``glossary.pruning`` keeps the most recently used artifacts."""
    try:
        os.utime(folder)
    except OSError:
        return  # a read-only cache: nothing is pruned there either


def _sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _load_complete(artifact: Artifact, load: Callable[[Path], T | None]) -> T | None:
    return load(artifact.path) if artifact.is_complete() else None


def _remove_temps(artifact: Artifact) -> None:
    """Delete temp folders of builders that died (call with the lock held: no live one has any)."""
    for stale in artifact.temps():
        log.warning("removing %s, left behind by an interrupted build", stale)
        shutil.rmtree(stale, ignore_errors=True)


def _publish(artifact: Artifact, build: Callable[[Path, dict[str, object]], T]) -> T:
    work = Path(tempfile.mkdtemp(dir=artifact.path.parent, prefix=artifact.temp_prefix))
    try:
        os.chmod(work, 0o755)  # mkdtemp makes it private; a cache may be shared
        notes: dict[str, object] = {}
        value = build(work, notes)
        files = {
            f.relative_to(work).as_posix(): f.stat().st_size
            for f in sorted(work.rglob("*"))
            if f.is_file() and f.name != artifact.manifest
        }
        missing = sorted(set(artifact.required) - set(files))
        if missing:
            raise RuntimeError(f"the build of {artifact.path.name} did not write {', '.join(missing)}")
        manifest = {**artifact.meta, **notes, "files": files}
        if artifact.checksummed:
            manifest[CHECKSUMS_KEY] = {name: _sha256(work / name) for name in artifact.checksummed}
        atomic_write(work / artifact.manifest, json.dumps(manifest, indent=2).encode(), mode=0o644)
        replaced = None
        if artifact.path.exists():  # stale or damaged: moved aside first (a folder cannot be renamed over)
            replaced = Path(tempfile.mkdtemp(dir=work.parent, prefix=artifact.temp_prefix))
            os.replace(artifact.path, replaced)
        os.replace(work, artifact.path)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    if replaced is not None:
        shutil.rmtree(replaced, ignore_errors=True)
    return value
