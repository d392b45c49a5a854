"""Reloading a user glossary while the app serves: poll the files, swap in an edit once it loads.

A daemon thread looks at the configured glossary paths every ``reload_interval_s`` seconds
(size and modification time of each file, and of each folder and the files in it, so added and
removed files count too). When something changed it calls ``GlossaryBot.reload``: a good edit is
swapped in atomically; a broken one is logged as one clear error, kept as the watcher's ``refused``
(shown by ``/readyz``), and the last good glossary stays in service until the files change again.
The bundled glossary is never watched.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from bot.core import GlossaryBot
from glossary import GlossaryError
from index.errors import IndexLayerError

log = logging.getLogger(__name__)

Outcome = Literal["unchanged", "reloaded", "failed"]
Signature = tuple[tuple[str, int, int], ...]


def files_hash(paths: Sequence[Path]) -> str:
    """sha256 over the names and bytes of the glossary files (a folder's files in name order), so a
    refused edit can be told apart from the next one; unreadable files count by name only."""
    digest = hashlib.sha256()
    for path in paths:
        try:
            files = sorted(p for p in path.iterdir() if p.is_file()) if path.is_dir() else [path]
        except OSError:
            files = [path]
        for file in files:
            digest.update(str(file).encode("utf-8", "replace") + b"\0")
            try:
                with file.open("rb") as handle:
                    digest.update(hashlib.file_digest(handle, "sha256").digest())
            except OSError:
                digest.update(b"unreadable")
    return digest.hexdigest()


def signature(paths: Sequence[Path]) -> Signature:
    """(path, size, mtime in ns) of each path, and of the entries of each folder; -1s for a missing one."""
    seen: list[tuple[str, int, int]] = []
    for path in paths:
        try:
            children = sorted(path.iterdir()) if path.is_dir() else []
        except OSError:
            children = []
        for item in [path, *children]:
            try:
                st = item.stat()
            except OSError:
                seen.append((str(item), -1, -1))
                continue
            seen.append((str(item), st.st_size, st.st_mtime_ns))
    return tuple(seen)


@dataclass
class ReloadHistory:
    """When the glossary was last swapped in, and the last edit refused with its full report (what
    the maintainers' area shows; before, a refused edit was visible only in the server log)."""

    last_reload: datetime | None = None
    last_refused: datetime | None = None
    refused_report: str | None = None
    #: sha256 of the refused files (``files_hash``), so a refusal can be told from the next edit.
    refused_hash: str | None = None

    def reloaded(self) -> None:
        self.last_reload = datetime.now(UTC)

    def refused(self, report: str, files_sha256: str | None = None) -> None:
        self.last_refused, self.refused_report = datetime.now(UTC), report
        self.refused_hash = files_sha256

    def refusal(self) -> dict[str, str] | None:
        """The last refused edit for ``/readyz`` (kept after a later good edit), or None."""
        if self.last_refused is None:
            return None
        return {
            "files_sha256": self.refused_hash or "",
            "message": self.refused_report or "",
            "at": self.last_refused.isoformat(),
        }


class GlossaryWatcher:
    """Polls a bot's user glossary files and reloads the bot when they change."""

    def __init__(self, bot: GlossaryBot, interval_s: float) -> None:
        self.bot = bot
        self.interval_s = interval_s
        self.last_error: str | None = None
        self.history = ReloadHistory()
        self._paths = list(bot.settings.glossary_paths)
        self._seen = signature(self._paths)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="glossary-watcher", daemon=True)

    @classmethod
    def start_for(cls, bot: GlossaryBot) -> GlossaryWatcher | None:
        """A running watcher for the bot's user glossary; None for the bundled one or interval 0."""
        settings = bot.settings
        if not settings.glossary_paths or settings.reload_interval_s <= 0:
            return None
        watcher = cls(bot, settings.reload_interval_s)
        watcher._thread.start()
        log.info("watching %s for edits every %gs", [str(p) for p in watcher._paths], watcher.interval_s)
        return watcher

    def poll(self) -> Outcome:
        """Reload if the files changed since the last look. A failure is logged and kept in ``last_error``."""
        now = signature(self._paths)
        if now == self._seen:
            return "unchanged"
        self._seen = now
        try:
            changed = self.bot.reload()
        except (GlossaryError, IndexLayerError, OSError) as exc:
            self.last_error = str(exc)
            self.history.refused(self.last_error, files_hash(self._paths))
            log.error("glossary edit not loaded, still serving the last good glossary: %s", exc)
            return "failed"
        self.last_error = None
        if changed:
            self.history.reloaded()
        return "reloaded" if changed else "unchanged"

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.poll()
            except Exception:  # the watcher must outlive any surprise; the app keeps serving regardless
                log.exception("unexpected error while reloading; still serving the last good glossary")
