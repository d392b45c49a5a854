"""Reloading a user glossary while the app serves: poll the files, swap in an edit once it loads.

A daemon thread looks at the configured glossary paths every ``reload_interval_s`` seconds
(size and modification time of each file, and of each folder and the files in it, so added and
removed files count too). When something changed it calls ``GlossaryBot.reload``: a good edit is
swapped in atomically; a broken one is logged as one clear error and the last good glossary stays
in service until the files change again. The bundled glossary is never watched.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from bot.core import GlossaryBot
from glossary import GlossaryError
from index.errors import IndexLayerError

log = logging.getLogger(__name__)

Outcome = Literal["unchanged", "reloaded", "failed"]
Signature = tuple[tuple[str, int, int], ...]


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


class GlossaryWatcher:
    """Polls a bot's user glossary files and reloads the bot when they change."""

    def __init__(self, bot: GlossaryBot, interval_s: float) -> None:
        self.bot = bot
        self.interval_s = interval_s
        self.last_error: str | None = None
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
            log.error("glossary edit not loaded, still serving the last good glossary: %s", exc)
            return "failed"
        self.last_error = None
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
