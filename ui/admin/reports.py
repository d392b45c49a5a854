"""The maintainers' report, made off the request path and one at a time.

A report encodes and groups declined questions (seconds of CPU on a big store), so it never runs on
an event-loop or answer thread: one worker thread makes reports, one after the other; a page asking
for the report that is being made waits for that one (it is not started twice), and one made in the
last ``FRESH_S`` seconds for the same period is reused. At most ``MAX_PENDING`` periods wait. The
question vectors of earlier reports are kept (``VectorMemo``), so a report encodes only what was
declined since the last one.
"""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import datetime

from bot.core import GlossaryBot
from bot.records import report as maintainers
from bot.records.store import AnswerSource

#: A report this recent (seconds) is shown again instead of being made again.
FRESH_S = 30.0
#: Reports waiting to be made at most (different periods); beyond that the page says "busy".
MAX_PENDING = 4
#: How long a page waits for its report before saying it is being made (and refreshing).
WAIT_S = 20.0

Period = tuple[datetime | None, datetime | None]


class ReportBusy(Exception):
    """Too many reports are waiting to be made."""


class ReportRunner:
    """Makes reports on one worker thread (see the module docstring)."""

    def __init__(self, store: AnswerSource, bot: GlossaryBot) -> None:
        self.store = store
        self.bot = bot
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="report")
        self._jobs: dict[Period, tuple[float, Future[maintainers.Report]]] = {}
        self._lock = threading.Lock()
        self._memo = maintainers.VectorMemo()  # used on the one worker thread only

    def submit(self, period: Period) -> Future[maintainers.Report]:
        """The report over ``period`` being made, or made a moment ago."""
        now = time.monotonic()
        with self._lock:
            for key, (started, job) in list(self._jobs.items()):
                if job.done() and now - started > FRESH_S:
                    del self._jobs[key]
            if period in self._jobs:
                return self._jobs[period][1]
            if sum(not job.done() for _, job in self._jobs.values()) >= MAX_PENDING:
                raise ReportBusy
            job = self._worker.submit(maintainers.build, self.store, self.bot, *period, self._memo)
            self._jobs[period] = (now, job)
            return job

    async def get(self, period: Period, wait_s: float = WAIT_S) -> maintainers.Report | None:
        """The report, or None when it is still being made after ``wait_s`` (ask again)."""
        job = self.submit(period)
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job)), wait_s)
        except TimeoutError:
            return None

    def close(self) -> None:
        self._worker.shutdown(wait=False, cancel_futures=True)
