"""A build collects garbage less often while it runs, and the process's own thresholds come back
when the last build running at once ends (a reload in the app's background overlaps a load); what
it freed then goes back to the system."""

from __future__ import annotations

import gc

import pytest

from bot import allocation
from bot.allocation import BUILD_THRESHOLD, REGROWTH_MB, GiveBackOnGrowth, fewer_collections
from index.bulk import resident_mb


@pytest.fixture
def thresholds():
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*saved)


def test_the_first_threshold_is_raised_while_a_build_runs_and_restored_after(thresholds):
    with fewer_collections():
        assert gc.get_threshold() == (BUILD_THRESHOLD, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_overlapping_builds_restore_the_thresholds_only_when_the_last_ends(thresholds):
    first, second = fewer_collections(), fewer_collections()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert gc.get_threshold()[0] == BUILD_THRESHOLD
    second.__exit__(None, None, None)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_failed_build_restores_them_too_and_a_higher_setting_is_kept(thresholds):
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("broken glossary")
    assert gc.get_threshold() == (700, 10, 10)
    gc.set_threshold(BUILD_THRESHOLD * 2, 10, 10)
    with fewer_collections():
        assert gc.get_threshold()[0] == BUILD_THRESHOLD * 2  # a process that asked for fewer keeps it


@pytest.mark.skipif(allocation._TRIM is None or resident_mb() is None, reason="glibc only")
def test_what_a_build_freed_goes_back_to_the_system_when_it_ends():
    pieces = [bytes(4000) + str(i).encode() for i in range(50_000)]  # ~200 MB from the C heap
    keep = pieces[::100]  # a few survivors among them, as a build's served state
    del pieces
    before = resident_mb()
    with fewer_collections():
        pass
    assert resident_mb() < before - 50, "the freed heap stayed with the process"
    assert len(keep) == 500


class Resident:
    """A stand-in for resident memory: the values it is set to, in MB."""

    def __init__(self, mb: float | None) -> None:
        self.mb = mb

    def __call__(self) -> float | None:
        return self.mb


@pytest.fixture
def handed_back(monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(allocation, "give_back", lambda: calls.append(1))
    return calls


def test_the_heap_is_handed_back_between_batches_only_once_memory_has_grown(handed_back):
    resident = Resident(500.0)
    hook = GiveBackOnGrowth(resident=resident)
    resident.mb = 500 + REGROWTH_MB - 1
    hook()
    assert handed_back == []
    resident.mb = 500 + REGROWTH_MB
    hook()
    assert handed_back == [1]


def test_growth_is_counted_from_what_was_resident_after_the_last_hand_back(handed_back):
    resident = Resident(500.0)
    hook = GiveBackOnGrowth(grown_mb=10, resident=resident)
    resident.mb = 600.0  # live memory: handing back frees nothing, and 600 is the new mark
    hook()
    resident.mb = 609.0
    hook()
    assert len(handed_back) == 1
    resident.mb = 610.0
    hook()
    assert len(handed_back) == 2


def test_where_resident_memory_cannot_be_read_nothing_is_handed_back(handed_back):
    resident = Resident(None)
    hook = GiveBackOnGrowth(grown_mb=10, resident=resident)
    hook()
    resident.mb = 900.0  # readable from here on: the first reading is the mark
    hook()
    assert handed_back == []
    resident.mb = 910.0
    hook()
    assert handed_back == [1]
