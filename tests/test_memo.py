"""Evidence's properties are kept per question without a lock shared by every question: with
``functools.cached_property`` (Python 3.11) a long question's ranking held up every other one."""

from __future__ import annotations

import threading
from functools import cached_property

from bot.search.evidence import Evidence
from bot.search.memo import memoized


class Slow:
    def __init__(self, gate: threading.Event | None = None) -> None:
        self.gate = gate
        self.calls = 0

    @memoized
    def value(self) -> int:
        self.calls += 1
        if self.gate is not None:
            assert self.gate.wait(10)
        return 42


def test_one_instance_computing_does_not_hold_up_another():
    gate = threading.Event()
    blocked = threading.Thread(target=lambda: Slow(gate).value)
    blocked.start()
    done = threading.Event()
    threading.Thread(target=lambda: (Slow().value, done.set())).start()
    assert done.wait(5)  # with a lock shared by the class this waits for the gate
    gate.set()
    blocked.join(10)


def test_the_value_is_computed_once_per_instance():
    slow = Slow()
    assert (slow.value, slow.value, slow.calls) == (42, 42, 1)


def test_the_evidence_keeps_its_parts_without_a_shared_lock():
    parts = vars(Evidence).values()
    assert any(isinstance(p, memoized) for p in parts)
    assert not any(isinstance(p, cached_property) for p in parts)
