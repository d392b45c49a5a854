"""Keeping the cache bounded: the newest ``keep`` artifacts of each kind stay, the others are removed.

Every edit of a user glossary publishes a new parsed file, index and calibration, and nothing ever
removed the old ones (14 index pairs and 354 MB of parsed files after one test session). Each kind
of artifact registers here the folder it lives in (relative to the cache folder) and the pattern of
its names, so a new kind (say an embedding cache) is pruned by registering, not by editing this
module. "Newest" is the folder's modification time, which ``glossary.files.load_or_publish`` sets
whenever it serves a folder, so what is in use is never the oldest. Each removal happens under the
artifact's own lock, skipped if another process holds it, and starts with a rename, so a reader
finds the folder whole or not at all (and then builds it again, as for any missing artifact).
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock, Timeout

from glossary.files import Artifact

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Kind:
    """One kind of cached artifact: the folder (relative to the cache folder) and its names' pattern."""

    name: str
    folder: str
    pattern: re.Pattern[str]

    def found(self, cache_dir: Path) -> list[Path]:
        """This kind's published folders, newest first (temp folders and lock files never match)."""
        return self.newest_first(cache_dir / self.folder)

    def newest_first(self, folder: Path) -> list[Path]:
        """This kind's published folders in ``folder``, most recently used first (what a build looks
        through for earlier work to reuse; a folder removed meanwhile sorts last, not fails)."""
        try:
            children = list(folder.iterdir())
        except OSError:
            return []
        matching = [c for c in children if c.is_dir() and self.pattern.fullmatch(c.name)]
        return sorted(matching, key=_age_key, reverse=True)


KINDS: dict[str, Kind] = {}


def register(name: str, folder: str, pattern: str) -> Kind:
    """Make a kind of artifact prunable: ``pattern`` must match its folders' names and nothing else."""
    kind = KINDS[name] = Kind(name, folder, re.compile(pattern))
    return kind


def prune(cache_dir: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` artifacts of every registered kind; returns what was removed."""
    removed = []
    for kind in KINDS.values():
        for stale in kind.found(cache_dir)[keep:]:
            if _remove(stale):
                removed.append(stale)
    if removed:
        log.info("removed %d old cached artifacts (setting cache_keep=%d)", len(removed), keep)
    return removed


def _age_key(path: Path) -> tuple[int, str]:
    try:
        return path.stat().st_mtime_ns, path.name
    except OSError:
        return 0, path.name


def _remove(folder: Path) -> bool:
    artifact = Artifact(folder, {}, ())
    try:
        with FileLock(artifact.lock_path, timeout=0):
            aside = Path(tempfile.mkdtemp(dir=folder.parent, prefix=artifact.temp_prefix))
            os.replace(folder, aside)
    except Timeout:
        return False  # a process is building or rebuilding it right now
    except OSError as exc:
        log.warning("cannot remove old cached %s: %s", folder, exc)
        return False
    shutil.rmtree(aside, ignore_errors=True)
    return True
