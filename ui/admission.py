"""Admission control for ``POST /api/answer``: a bounded number of answers at once, a bounded wait.

Gradio's queue does this for its own events; the plain route runs beside the queue, so it needs
its own gate, or a burst of programs would make every caller wait without bound. The gate is
decided on the event loop, before a worker thread is taken: a gate that waited inside a thread
(the first version) let 100 callers fill AnyIO's default pool of 40 threads, which Gradio's queue
also runs on, so no one was ever turned away and the chat starved. Answers run on a thread
limiter of their own, so programs can hold at most ``workers`` threads whatever they send.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")


class Busy(Exception):
    """More questions are waiting than the server queues (``queue_max_size``)."""


class Gate:
    """At most ``workers`` answers computed at once (more only share the cores slower), and at most
    ``capacity`` callers waiting: beyond that a caller is told to come back instead of waiting unbounded."""

    def __init__(self, workers: int, capacity: int) -> None:
        self.workers = workers
        self.capacity = capacity
        self._threads = anyio.CapacityLimiter(workers)
        #: Callers admitted and not yet answered (running or waiting); only the event loop changes it.
        self.admitted = 0

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` on one of this gate's threads once one is free; ``Busy`` at once if the wait is full."""
        if self.admitted >= self.workers + self.capacity:
            raise Busy
        self.admitted += 1
        try:
            return await anyio.to_thread.run_sync(work, limiter=self._threads)
        finally:
            self.admitted -= 1
