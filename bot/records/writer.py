"""Recording off the request path: answers are queued in memory and written by one background thread.

An answer never waits for the store (before this, each answer was written on its worker thread
before it was returned, with no timeout: a frozen PostgreSQL held every answer 65 s, a SQLite file
locked by another process 30-44 s). :class:`Recorder` puts the record in a bounded queue and returns
the answer's id at once; its writer thread writes the queue in order, many answers per transaction,
each wait on the database bounded (``Store.open(..., timeout_s)``). When the store fails the writer
tries the same batch again a few times, ``retry_s`` apart, then drops it; when the queue is full a
new record is dropped. Either way the answer was given, "not recorded" is logged (once per
``LOG_INTERVAL_S``, with counts) and counted in :meth:`Recorder.health` (``/readyz``'s ``store``).

A store that cannot be opened at start-up is tried again with every batch the writer writes: the
app serves meanwhile, says so in its log and in ``/readyz``, and records again once it opens.

A vote goes through the same queue, after the answer it rates (one writer, in order), but its caller
waits for it to be written, at most ``vote_wait_s``: a vote is acknowledged only once it is committed,
and one that cannot be is told as such (:class:`StoreUnavailable`). An answer is acknowledged before
it is written: a process killed with SIGKILL loses the answers still queued (normally the last few
milliseconds' worth; all that waited while the store failed). :meth:`Recorder.close` (at exit and on
SIGTERM) writes what is queued first, for at most ``vote_wait_s``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

from bot.records.store import (
    AnswerRecord,
    InvalidDatabaseUrl,
    Store,
    StoreError,
    UnknownAnswer,
    Vote,
    new_answer_id,
)
from bot.settings import Settings

log = logging.getLogger(__name__)

#: Answers written in one transaction at most.
BATCH = 64
#: Times a batch is tried before it is dropped (the store failed each time).
ATTEMPTS = 3
#: "Not recorded" is logged at most once per this many seconds (with what was dropped meanwhile).
LOG_INTERVAL_S = 60.0

State = Literal["ok", "failing", "unavailable"]


class StoreUnavailable(StoreError):
    """The store did not take a write in time (down, hung, locked, or not open): nothing was recorded."""


@dataclass
class _AnswerJob:
    answer_id: str
    ts: datetime
    record: AnswerRecord


@dataclass
class _VoteJob:
    answer_id: str
    vote: Vote
    comment: str | None
    done: Future[None] = field(default_factory=Future)


@dataclass
class _Counts:
    recorded: int = 0
    dropped_full: int = 0
    dropped_failed: int = 0
    votes_failed: int = 0


class Recorder:
    """Answers and votes written to a :class:`Store` by a background thread (see the module docstring)."""

    def __init__(
        self,
        opener: Callable[[], Store],
        capacity: int,
        vote_wait_s: float,
        retry_s: float,
        store: Store | None = None,
    ) -> None:
        self.capacity = capacity
        self.vote_wait_s = vote_wait_s
        self.retry_s = retry_s
        self._opener = opener
        self._store = store
        self._jobs: deque[_AnswerJob | _VoteJob] = deque()
        self._busy = 0  # jobs taken off the queue and not yet written or given up
        self._cond = threading.Condition()
        self._closing = False
        self._counts = _Counts()
        self._state: State = "ok" if store is not None else "unavailable"
        self._error: str | None = None
        self._last_log = 0.0
        self._unlogged = 0
        self._thread = threading.Thread(target=self._run, name="store-writer", daemon=True)
        self._thread.start()

    @classmethod
    def open(cls, opener: Callable[[], Store], capacity: int, vote_wait_s: float, retry_s: float) -> Recorder:
        """A recorder over the store ``opener`` opens, if it opens; if not, one that serves unrecorded,
        logs why, and keeps trying to open it."""
        try:
            store = opener()
        except InvalidDatabaseUrl:
            raise
        except StoreError as exc:
            log.error("question store not open, answers are served but not recorded: %s", exc)
            recorder = cls(opener, capacity, vote_wait_s, retry_s)
            recorder._error = str(exc)
            return recorder
        return cls(opener, capacity, vote_wait_s, retry_s, store)

    @classmethod
    def over(
        cls, store: Store, capacity: int = 1000, vote_wait_s: float = 5.0, retry_s: float = 1.0
    ) -> Recorder:
        """A recorder over a store already open (tests, tools)."""
        return cls(lambda: store, capacity, vote_wait_s, retry_s, store)

    @property
    def store(self) -> Store | None:
        """The open store (None while it cannot be opened): for reading, e.g. the maintainers' report."""
        return self._store

    @property
    def where(self) -> str:
        return self._store.where if self._store is not None else "the question store (not open)"

    def record_answer(self, record: AnswerRecord) -> str:
        """Queue ``record``; returns the id a vote on it must name, at once (it may never be written)."""
        job = _AnswerJob(new_answer_id(), datetime.now(UTC), record)
        if not self._put(job):
            with self._cond:
                self._counts.dropped_full += 1
                why = "the app is stopping" if self._closing else "the queue is full"
            self._not_recorded(1, why)
        return job.answer_id

    def record_vote(self, answer_id: str, vote: Vote, comment: str | None = None) -> None:
        """Write the vote, after every answer queued before it; returns once it is committed.

        Raises ``UnknownAnswer`` when the store has no such answer (it was never recorded, or pruned)
        and :class:`StoreUnavailable` when the vote was not written within ``vote_wait_s``.
        """
        job = _VoteJob(answer_id, vote, comment)
        if not self._put(job):
            with self._cond:
                self._counts.votes_failed += 1
            raise StoreUnavailable("the question store is behind: its queue is full")
        try:
            job.done.result(self.vote_wait_s)
        except FutureTimeout:
            job.done.cancel()  # not written later, since the voter was told it was not saved
            raise StoreUnavailable(
                f"{self.where} did not take the vote within {self.vote_wait_s:g} s"
            ) from None

    def reader(self) -> Store:
        """The store, for reading straight from it (reports: a person waits, not an asker)."""
        if self._store is None:
            raise StoreUnavailable(f"{self.where}: {self._error}")
        return self._store

    def answers_between(self, since: datetime | None, until: datetime | None) -> list[dict[str, Any]]:
        """Read straight from the store (reports: a person waits, not an asker)."""
        return self.reader().answers_between(since, until)

    def health(self) -> dict[str, Any]:
        """The store's state for ``/readyz``: ok / failing / unavailable, the last error, and counts."""
        with self._cond:
            counts = self._counts
            return {
                "state": self._state,
                "error": self._error,
                "queued": len(self._jobs) + self._busy,
                "recorded": counts.recorded,
                "not_recorded": {
                    "queue_full": counts.dropped_full,
                    "store_failed": counts.dropped_failed,
                    "votes": counts.votes_failed,
                },
            }

    def flush(self, timeout_s: float) -> bool:
        """Wait until everything queued so far was written or given up; False if ``timeout_s`` ran out."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while self._jobs or self._busy:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def close(self) -> None:
        """Write what is queued (at most ``vote_wait_s``), then stop the writer and close the store."""
        if not self.flush(self.vote_wait_s):
            log.error("stopping with %d records not written to %s", len(self._jobs), self.where)
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        self._thread.join(self.vote_wait_s)
        if self._store is not None:
            self._store.close()

    def _put(self, job: _AnswerJob | _VoteJob) -> bool:
        with self._cond:
            if self._closing or len(self._jobs) >= self.capacity:
                return False
            self._jobs.append(job)
            self._cond.notify_all()
            return True

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._jobs and not self._closing:
                    self._cond.wait()
                if not self._jobs:
                    return
                batch = self._take()
            try:
                self._write(batch)
            except Exception:  # the writer must outlive any surprise; what it held is counted as lost
                log.exception("unexpected error in the store writer")
                self._give_up(batch, "an unexpected error")
            finally:
                with self._cond:
                    self._busy = 0
                    self._cond.notify_all()

    def _take(self) -> list[_AnswerJob | _VoteJob]:
        """The next vote alone, or the answers ahead of the next vote (at most ``BATCH``); under the lock."""
        first = self._jobs.popleft()
        batch: list[_AnswerJob | _VoteJob] = [first]
        while isinstance(first, _AnswerJob) and self._jobs and len(batch) < BATCH:
            if not isinstance(self._jobs[0], _AnswerJob):
                break
            batch.append(self._jobs.popleft())
        self._busy = len(batch)
        return batch

    def _write(self, batch: list[_AnswerJob | _VoteJob]) -> None:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                store = self._open()
                if isinstance(batch[0], _VoteJob):
                    self._write_vote(store, batch[0])
                else:
                    store.record_answers(
                        [(j.answer_id, j.ts, j.record) for j in batch if isinstance(j, _AnswerJob)]
                    )
                    with self._cond:
                        self._counts.recorded += len(batch)
                self._healthy()
                return
            except StoreError as exc:
                self._failing(exc)
                if isinstance(batch[0], _VoteJob) or attempt == ATTEMPTS:
                    break
                with self._cond:  # wait before trying again, unless the app is stopping
                    if self._cond.wait_for(lambda: self._closing, self.retry_s):
                        break
        self._give_up(batch, self._error or "the store failed")

    def _write_vote(self, store: Store, job: _VoteJob) -> None:
        if not job.done.set_running_or_notify_cancel():
            return  # the voter stopped waiting and was told it was not saved
        try:
            store.record_vote(job.answer_id, job.vote, job.comment)
        except UnknownAnswer as exc:  # the store works; the vote names an answer it does not have
            job.done.set_exception(exc)
            return
        # Any other StoreError goes on to _write, whose _give_up tells the voter StoreUnavailable, as
        # record_vote promises (not the store's own error, which callers do not expect).
        job.done.set_result(None)

    def _open(self) -> Store:
        if self._store is None:
            self._store = self._opener()
            log.info("question store open: %s", self._store.where)
        return self._store

    def _healthy(self) -> None:
        with self._cond:
            if self._state != "ok":
                log.info("question store recovered: %s", self.where)
            self._state, self._error = "ok", None

    def _failing(self, exc: StoreError) -> None:
        with self._cond:
            self._state = "failing" if self._store is not None else "unavailable"
            self._error = str(exc)

    def _give_up(self, batch: list[_AnswerJob | _VoteJob], why: str) -> None:
        answers = [j for j in batch if isinstance(j, _AnswerJob)]
        with self._cond:
            self._counts.dropped_failed += len(answers)
            self._counts.votes_failed += len(batch) - len(answers)
        for job in batch:
            if (
                isinstance(job, _VoteJob)
                and not job.done.done()
                and (job.done.running() or job.done.set_running_or_notify_cancel())
            ):
                job.done.set_exception(StoreUnavailable(f"{self.where}: {why}"))
        if answers:
            self._not_recorded(len(answers), why)

    def _not_recorded(self, count: int, why: str) -> None:
        """Log "not recorded", at most once per ``LOG_INTERVAL_S`` (counting what was not logged)."""
        now = time.monotonic()
        with self._cond:
            self._unlogged += count
            if now - self._last_log < LOG_INTERVAL_S:
                return
            self._last_log, unlogged, self._unlogged = now, self._unlogged, 0
        log.error("%d answers not recorded in %s (%s); the askers were answered", unlogged, self.where, why)


def open_recorder(settings: Settings) -> Recorder:
    """The recorder over the store ``database_url`` names, with the settings' timeouts and bounds."""

    def opener() -> Store:
        return Store.open(settings.database, settings.record_questions, settings.store_timeout_s)

    return Recorder.open(opener, settings.store_queue_size, settings.vote_wait_s, settings.store_retry_s)
