"""Admission control for ``POST /api/answer``: a bounded number of answers at once, a bounded wait.

Gradio's queue does this for its own events; the plain route runs beside the queue, so it needs
its own gate, or a burst of programs would make every caller wait without bound.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Busy(Exception):
    """More questions are waiting than the server queues (``queue_max_size``)."""


class Gate:
    """At most ``workers`` answers computed at once (more only share the cores slower), and at most
    ``capacity`` callers waiting: beyond that a caller is told to come back instead of waiting unbounded."""

    def __init__(self, workers: int, capacity: int) -> None:
        self._slots = threading.BoundedSemaphore(workers)
        self._lock = threading.Lock()
        self._waiting = 0
        self.capacity = capacity

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._lock:
            if self._waiting >= self.capacity:
                raise Busy
            self._waiting += 1
        try:
            self._slots.acquire()
        finally:
            with self._lock:
                self._waiting -= 1
        try:
            yield
        finally:
            self._slots.release()
