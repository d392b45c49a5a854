"""Making an index from a matrix handed over frees the matrix's rows as they are added: the index
is the same, and the memory goes back to the system as it goes (Linux)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from index import ann, pages
from index.bulk import resident_mb
from index.pages import release_rows
from tests.test_ann import unit_rows

REPO = Path(__file__).resolve().parents[1]
linux_only = pytest.mark.skipif(pages._MADVISE is None, reason="madvise(MADV_DONTNEED) and /proc are Linux's")


@pytest.mark.parametrize("threshold", [10**9, 100], ids=["flat", "ivf"])
def test_a_consumed_matrix_makes_the_same_index(monkeypatch, threshold):
    monkeypatch.setattr(ann, "ADD_ROWS", 300)  # several blocks
    x = unit_rows(2000)
    kept = ann.make_index(x.copy(), threshold=threshold, nprobe=10**6)
    consumed = ann.make_index(x.copy(), threshold=threshold, nprobe=10**6, consume=True)
    assert consumed.ntotal == kept.ntotal == 2000
    for a, b in zip(ann.top_k(kept, x[:50], 5), ann.top_k(consumed, x[:50], 5), strict=True):
        assert np.array_equal(a, b)


@linux_only
def test_released_rows_read_as_zeros_and_the_rest_are_untouched():
    x = np.ones((4096, 384), dtype=np.float32)
    freed = release_rows(x, 1000)
    assert freed > 0 and freed % 4096 == 0
    assert freed <= 1000 * 384 * 4, "never past the rows handed over"
    zeroed = np.flatnonzero(~x.any(axis=1))
    assert len(zeroed) >= freed // (384 * 4) - 1 and zeroed.max() < 1000
    assert x[1000:].all(), "rows after stop are kept"


@linux_only
def test_the_memory_of_released_rows_goes_back_to_the_system():
    x = np.ones((100_000, 384), dtype=np.float32)  # 146 MB, touched
    before = resident_mb()
    release_rows(x, len(x))
    assert resident_mb() < before - 100


def test_nothing_is_released_of_a_matrix_that_is_not_one_block():
    x = np.ones((1000, 384), dtype=np.float32)
    assert release_rows(x[:, ::2], 1000) == 0
    assert x.all()


#: In a process of its own, so that what the test suite's process holds and frees does not count.
HANDED_OVER = """
import numpy as np
from index import ann
from index.bulk import resident_mb
x = np.random.default_rng(0).random((100_000, 384), dtype=np.float32)  # 146 MB, touched
before = resident_mb()
index = ann.make_index(x, threshold=10**9, consume=True)  # the index holds its own 146 MB
assert index.ntotal == 100_000
print(resident_mb() - before)
"""


@linux_only
def test_making_an_index_of_a_handed_over_matrix_does_not_hold_both():
    done = subprocess.run(
        [sys.executable, "-c", HANDED_OVER], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert float(done.stdout) < 50, "the matrix and the index were both held whole"
