"""Fewer garbage collections while a glossary is read and indexed.

A build makes hundreds of thousands of objects that live as long as the glossary is served
(entries, passages, rows, tokens). Python's collector counts every one as it is made: every 700 it
looks for cycles among the young, and every so often it walks every object. A one-entry edit of a
5,000-entry glossary went through 6 full walks and 1,000 young ones, 1.2-2.5 s of its 6-9 s. A
build makes few cycles, so a larger first threshold finds the same garbage in a few dozen walks.
Collection is never switched off: a build that encodes for minutes in the app's background still
collects, only less often.

When a build ends, the heap it freed goes back to the system (``give_back``): glibc keeps freed
memory for later allocations, and a process that had just built a 5,000-entry glossary went on
serving at 798 MB resident, 514 MB once it was handed back. It is also handed back between a
build's batches whenever resident memory has grown by ``REGROWTH_MB`` (``GiveBackOnGrowth``): the
serving encoder encoding the 3,366 new advice sentences of a 5,000-entry glossary beside the served
glossary grew the process by 218 MB of freed heap that glibc kept, and its peak was there.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from index.bulk import resident_mb
from index.pages import libc_function

#: Growth of resident memory, in MB, after which a build hands freed heap back between two batches.
#: Each hand-back walks the heap (milliseconds), so it is not done after every batch; a growth that
#: is live memory (the index's matrix filling) costs one walk per step and frees nothing.
REGROWTH_MB = 32

#: Objects made between two young collections while a build runs (Python's default is 700): on a
#: 5,000-entry edit 10,000 gave what 50,000 did, with a tenth of the garbage left waiting.
BUILD_THRESHOLD = 10_000


class _Builds:
    """The thresholds to restore when the last of the builds running at once ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._saved = gc.get_threshold()

    @contextmanager
    def running(self) -> Iterator[None]:
        with self._lock:
            if self._running == 0:
                self._saved = gc.get_threshold()
                gc.set_threshold(max(BUILD_THRESHOLD, self._saved[0]), *self._saved[1:])
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                if self._running == 0:
                    gc.set_threshold(*self._saved)
                    give_back()


#: glibc's ``malloc_trim`` (None where the C library has none: musl, macOS, Windows).
_TRIM = libc_function("malloc_trim")
_BUILDS = _Builds()


def give_back() -> None:
    """Hand the heap's free memory back to the system, where the C library can (a few ms)."""
    if _TRIM is not None:
        _TRIM(0)


def fewer_collections() -> contextlib.AbstractContextManager[None]:
    """While a glossary is read and indexed: collect garbage less often (see the module docstring)."""
    return _BUILDS.running()


class GiveBackOnGrowth:
    """Called between a build's batches: hands the freed heap back once resident memory has grown
    by ``grown_mb`` since the last time. A 5,000-entry glossary's sentences, encoded by the serving
    encoder beside the served glossary (the app's order, 5 % of them new; one traced run each,
    2026-12-04): resident memory grew 727 -> 945 MB over the encoding without it, and stayed at
    722-745 MB with the heap handed back after every batch; the process peaked at 843 MB instead
    of 968."""

    def __init__(
        self, grown_mb: float = REGROWTH_MB, resident: Callable[[], float | None] = resident_mb
    ) -> None:
        self._grown_mb = grown_mb
        self._resident = resident
        self._mark = resident()

    def __call__(self) -> None:
        now = self._resident()
        if now is None or self._mark is None:
            self._mark = now
        elif now - self._mark >= self._grown_mb:
            give_back()
            self._mark = self._resident()
