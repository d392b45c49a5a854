"""A maintainer's new glossary file: checked whole before anything is swapped in, the previous file
kept as a backup, then loaded into the running app.

The upload replaces a file of the configured glossary (``glossary_paths``): the one file, or the
file of that name in a configured folder (a new name in a folder adds a file). The glossary it
would make — the other configured files with this one in place — is loaded from a staging copy
with the app's own limits first; a refusal carries the loader's full message and leaves the files
and the app as they were. A good file is written over the old one atomically (temp file, rename),
after the old one is copied to ``cache_dir/glossary-backups/``; the app then reloads in the
background (``GlossaryBot.reload``, its build followed by ``status``), and every replica watching
the same file picks it up as it picks up any edit. If that load still fails, the backup goes back.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.core import GlossaryBot
from bot.reload import ReloadHistory
from bot.settings import Settings
from glossary import GlossaryError
from glossary.files import atomic_write
from glossary.loader import SUPPORTED_SUFFIXES, load_glossary
from index.embeddings import BuildStatus
from index.errors import IndexLayerError

log = logging.getLogger(__name__)

BACKUP_DIR = "glossary-backups"
#: Backups kept (the oldest beyond this are deleted as a new one is made): many uploads must not
#: fill the cache disk, and a maintainer undoing a mistake wants the last few.
BACKUPS_KEPT = 20
STAGING_DIR = "glossary-uploads"
#: Permissions of the written glossary file (readable by the app and its replicas).
FILE_MODE = 0o644
MB = 1024 * 1024


class UploadRefused(Exception):
    """The upload cannot replace the glossary; the message says why and what to do."""


@dataclass(frozen=True)
class Accepted:
    target: Path
    backup: Path | None
    entries: int


class GlossaryUploads:
    """Checks, backs up, writes and loads one uploaded glossary file at a time."""

    def __init__(self, bot: GlossaryBot, settings: Settings, history: ReloadHistory) -> None:
        self.bot = bot
        self.settings = settings
        self.history = history
        self.status = BuildStatus()
        self._busy = threading.Lock()
        self.loading = False

    def target_for(self, name: str) -> Path:
        """The configured file an upload called ``name`` replaces (or adds, in a folder)."""
        plain = Path(name).name
        if (
            not plain
            or plain != name
            or plain.startswith(".")
            or Path(plain).suffix.lower() not in (SUPPORTED_SUFFIXES)
        ):
            raise UploadRefused(
                f"{name!r}: give the file a plain name ending in {', '.join(SUPPORTED_SUFFIXES)}"
            )
        paths = self.settings.glossary_paths
        if not paths:
            raise UploadRefused(
                "the bundled glossary is served: set glossary_paths to your glossary file or folder "
                "to replace it from here"
            )
        for path in paths:
            if path.is_file() and path.name == plain:
                return path
        files = [p for p in paths if not p.is_dir()]
        folders = [p for p in paths if p.is_dir()]
        if len(paths) == 1 and files:
            raise UploadRefused(f"the glossary file is {files[0].name}: upload a file of that name")
        if len(folders) == 1:
            return folders[0] / plain
        raise UploadRefused(
            f"{plain} is none of the configured glossary files "
            f"({', '.join(p.name for p in files)}); upload one of those"
        )

    def check(self, target: Path, data: bytes) -> int:
        """Load the glossary as it would be with ``data`` at ``target``; its entry count.
        Raises ``UploadRefused`` (size) or ``GlossaryError`` (the loader's full report)."""
        if len(data) > self.settings.admin_upload_mb * MB:
            raise UploadRefused(
                f"{target.name}: {len(data) / MB:.1f} MB; the limit is {self.settings.admin_upload_mb:g} MB "
                "(setting admin_upload_mb)"
            )
        staging = self.settings.cache_dir / STAGING_DIR
        staging.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=staging) as folder:
            candidate = Path(folder) / target.name
            candidate.write_bytes(data)
            glossary = load_glossary(
                self._with(target, candidate),
                self.settings.max_glossary_mb,
                self.settings.max_glossary_entries,
                options=self.settings.read_options,
            )
        return len(glossary)

    def _with(self, target: Path, candidate: Path) -> list[Path]:
        """The configured glossary's files with ``candidate`` in place of (or beside) ``target``."""
        files: list[Path] = []
        for path in self.settings.glossary_paths:
            if path == target:
                files.append(candidate)
            elif path.is_dir():
                children = sorted(
                    c
                    for c in path.iterdir()
                    if c.is_file() and c.suffix.lower() in SUPPORTED_SUFFIXES and not c.name.startswith(".")
                )
                kept = [c for c in children if c.name != target.name]
                files.extend(
                    sorted([*kept, candidate], key=lambda p: p.name) if target.parent == path else kept
                )
            else:
                files.append(path)
        return files

    def replace(self, name: str, data: bytes) -> Accepted:
        """Check the upload, back up the old file, write the new one and start loading it."""
        if not self._busy.acquire(blocking=False):
            raise UploadRefused("another upload is being checked or loaded; try again when it is served")
        try:
            if self.loading:
                raise UploadRefused("the last upload is still being loaded; try again when it is served")
            target = self.target_for(name)
            try:
                entries = self.check(target, data)
            except GlossaryError as exc:
                self.history.refused(str(exc))
                raise
            backup = self._back_up(target)
            atomic_write(target, data, FILE_MODE)
            self.loading = True
        finally:
            self._busy.release()
        threading.Thread(
            target=self._load, args=(target, backup), name="glossary-upload", daemon=True
        ).start()
        return Accepted(target, backup, entries)

    def _back_up(self, target: Path) -> Path | None:
        if not target.exists():
            return None
        folder = self.settings.cache_dir / BACKUP_DIR
        folder.mkdir(parents=True, exist_ok=True)
        backup = folder / f"{datetime.now(UTC).strftime('%Y%m%dT%H%M%S%fZ')}-{target.name}"
        shutil.copy2(target, backup)
        for old in sorted(folder.iterdir())[:-BACKUPS_KEPT]:  # names start with their UTC time
            old.unlink(missing_ok=True)
        return backup

    def _load(self, target: Path, backup: Path | None) -> None:
        """Swap the written file in; if it still does not load, put the backup back."""
        try:
            self.status.begin(f"loading {target.name}")
            changed = self.bot.reload(self.status)
            self.status.begin("served")
            if changed:
                self.history.reloaded()
            log.info("maintainers' upload of %s is served", target.name)
        except (GlossaryError, IndexLayerError, OSError) as exc:
            self.history.refused(str(exc))
            self.status.begin("refused")
            log.error("maintainers' upload of %s not loaded: %s", target.name, exc)
            if backup is not None:
                atomic_write(target, backup.read_bytes(), FILE_MODE)
        finally:
            self.loading = False
