"""Admission control for ``POST /api/answer``: a bounded number of answers at once, a bounded wait.

Gradio's queue does this for its own events; the plain route runs beside the queue, so it needs
its own gate (:class:`Gate`), or a burst of programs would make every caller wait without bound. The gate is
decided on the event loop, before a worker thread is taken: a gate that waited inside a thread
(the first version) let 100 callers fill AnyIO's default pool of 40 threads, which Gradio's queue
also runs on, so no one was ever turned away and the chat starved. Answers run on a thread
limiter of their own, so programs can hold at most ``workers`` threads whatever they send.

Questions are laned by what they cost, the text the answer will encode (``GlossaryBot.encoded_text``:
the question, or the earlier question a follow-up such as "in English please" answers again), not by
the field it came in: before, a 2,000-character question sent as the history of "in English please"
was answered in the short lane, and the chat had no long lane at all (:class:`Lanes`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")
log = logging.getLogger(__name__)

#: A text longer than this (characters) to encode may cost up to a full 512-token encoder pass (~1 s
#: on one core, against ~20 ms for a usual one): such questions wait in a lane of their own with one
#: worker, so a caller sending them can neither hold every worker nor delay the short questions.
LONG_QUESTION_CHARS = 256
LONG_QUESTION_WORKERS = 1
#: Long questions waiting at most: each wait is a few seconds, so a longer queue would only hold
#: callers for minutes (65 of them took over 120 s); beyond it they get 503 at once.
LONG_QUESTION_QUEUE = 4
#: How much lower the long lane's threads run than the rest (a nice value: 10 gives a contended core
#: to a nice-0 thread about 9 times in 10).
LONG_QUESTION_NICE = 10
#: A place reserved for a queued event lapses after this long if the event never runs (seconds).
RESERVATION_S = 60.0


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


class Lane:
    """A lane with threads of its own: at most ``workers`` answers at work, ``waiting`` more admitted,
    ``Busy`` at once beyond that. Admission is safe across threads and the event loop, so the chat
    (on Gradio's threads) and ``POST /api/answer`` (on the event loop) can share one lane.

    The lane's threads run at ``nice`` above the process's priority (Linux: a thread's own nice
    value): the long lane's encoder passes, seconds each, then give way to the short questions'
    milliseconds when the cores are contended, instead of sharing them evenly.
    """

    def __init__(self, workers: int, waiting: int, nice: int = 0, name: str = "lane") -> None:
        self.workers = workers
        self.capacity = waiting
        self.nice = nice
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix=name, initializer=self._lower_priority)
        self.admitted = 0
        #: Places held for queued chat events not yet run: session -> when each was reserved.
        self._reserved: dict[str, deque[float]] = {}

    def _lower_priority(self) -> None:
        if not self.nice or not sys.platform.startswith("linux"):  # elsewhere it would be the process's
            return
        thread = threading.get_native_id()
        try:
            os.setpriority(os.PRIO_PROCESS, thread, os.getpriority(os.PRIO_PROCESS, thread) + self.nice)
        except OSError as exc:
            log.warning("lane threads keep their priority: %s", exc)

    @contextmanager
    def admission(self, session: str | None = None) -> Iterator[None]:
        """Hold a place in the lane: the one ``session`` reserved when it joined, taken over in the
        same step (a claim, then an admission, left a moment when a join arriving could take the
        place: 6 of 40 joins at once were accepted for 5 places), or a free one; ``Busy`` when every
        place is at work, waiting or reserved. Cheap: decided before a thread is taken."""
        with self._lock:
            if not (session is not None and self._take(session)) and self._full():
                raise Busy
            self.admitted += 1
        try:
            yield
        finally:
            with self._lock:
                self.admitted -= 1

    def reserve(self, session: str) -> bool:
        """Hold a place for an event joining Gradio's queue (its handler runs later); False when the
        lane's places are all taken or held, so the caller is turned away before it fills the queue."""
        with self._lock:
            if self._full():
                return False
            self._reserved.setdefault(session, deque()).append(time.monotonic())
            return True

    def claim(self, session: str) -> None:
        """Let go of the place ``session`` reserved (its event runs in another lane after all)."""
        with self._lock:
            self._take(session)

    def _full(self) -> bool:
        """Every place at work, waiting or reserved (a reservation whose event never ran lapses)."""
        now = time.monotonic()
        for key in list(self._reserved):
            held = self._reserved[key]
            while held and now - held[0] > RESERVATION_S:
                held.popleft()
            if not held:
                del self._reserved[key]
        return self.admitted + sum(map(len, self._reserved.values())) >= self.workers + self.capacity

    def _take(self, session: str) -> bool:
        """Drop one of ``session``'s reservations (call holding the lock); False when it had none."""
        held = self._reserved.get(session)
        if not held:
            return False
        held.popleft()
        if not held:
            del self._reserved[session]
        return True

    def submit(self, work: Callable[[], T]) -> Future[T]:
        """``work()`` on one of the lane's threads, once one is free (call it holding an admission)."""
        return self._pool.submit(work)

    def run(self, work: Callable[[], T], session: str | None = None) -> T:
        """Admit (``session``: in the place it reserved, if any), then ``work()`` on one of the lane's
        threads; this thread waits for the result."""
        with self.admission(session):
            return self.submit(work).result()

    async def run_async(self, work: Callable[[], T]) -> T:
        """:meth:`run` for the event loop: admitted at once or ``Busy``; the wait costs no thread."""
        with self.admission():
            return await asyncio.wrap_future(self.submit(work))


@dataclass
class Lanes:
    """The lanes every answer goes through, chosen by what the answer will encode (:meth:`for_text`):
    questions over ``LONG_QUESTION_CHARS`` share one long lane, whether they come from the chat or the
    API, typed or re-answered from a history; short chat questions get ``chat`` (Gradio's queue holds
    their wait), short API ones the API's own :class:`Gate`."""

    long: Lane
    chat: Lane
    api: Gate

    @classmethod
    def for_settings(cls, concurrency_limit: int, api_workers: int, queue_max_size: int) -> Lanes:
        return cls(
            long=Lane(
                LONG_QUESTION_WORKERS, min(LONG_QUESTION_QUEUE, queue_max_size), LONG_QUESTION_NICE, "long"
            ),
            chat=Lane(concurrency_limit, queue_max_size, name="chat"),
            api=Gate(api_workers, queue_max_size),
        )

    @property
    def chat_slots(self) -> int:
        """How many chat events Gradio may run at once: every short worker, and every place of the long
        lane, so long questions waiting there never hold the slots short ones are answered in."""
        return self.chat.workers + self.long.workers + self.long.capacity

    @staticmethod
    def is_long(encoded: str) -> bool:
        return len(encoded) > LONG_QUESTION_CHARS

    def for_chat(self, encoded: str) -> Lane:
        return self.long if self.is_long(encoded) else self.chat

    def run_chat(self, encoded: str, session: str, work: Callable[[], T]) -> T:
        """``work()`` in the lane for ``encoded``, in the place ``session``'s join reserved in the long
        lane (``ui.joins``), if any; a place reserved for a text that is short by now is let go."""
        lane = self.for_chat(encoded)
        if lane is not self.long:
            self.long.claim(session)
        return lane.run(work, session)
