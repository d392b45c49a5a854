"""Handing a matrix's memory back to the system while it is read, rows first to last.

Making an index copies its matrix into the index (a FAISS index owns its vectors), and the caller
drops the matrix only once the index is made: at the end both are held. For a 5,000-entry
glossary's advice sentences (84k rows, 129 MB each), made beside the served glossary, that moment
was the app's peak. So the making adds the rows a block at a time, and the pages of the rows it
has added go back to the system (``release_rows``): the two are never held whole together.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import mmap
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

#: Linux's "this range's contents are not needed": its pages are freed now, and read as zeros if
#: touched again. Other systems either lack it or keep the pages, so nothing is done there.
_MADV_DONTNEED = 4


def libc_function(name: str) -> Any:
    """The C library's function ``name`` (a ctypes function, whose ``argtypes`` and ``restype`` the
    caller may set), or None where this system's C library has none."""
    library = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(library), name, None) if library else None
    except OSError:
        return None


def _madvise() -> Callable[[int, int, int], int] | None:
    call = libc_function("madvise") if sys.platform.startswith("linux") else None
    if call is not None:
        call.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
        call.restype = ctypes.c_int
    return call


_MADVISE = _madvise()


def release_rows(matrix: np.ndarray, stop: int) -> int:
    """Free the memory pages that hold only rows before ``stop`` of ``matrix`` (C-contiguous), which
    the caller will not read again: they read as zeros from here on. Returns the bytes freed (0
    where the system cannot)."""
    if _MADVISE is None or not matrix.flags.c_contiguous or matrix.ndim != 2 or stop <= 0:
        return 0
    start = matrix.ctypes.data
    end = start + min(stop, matrix.shape[0]) * matrix.shape[1] * matrix.itemsize
    first = -(-start // mmap.PAGESIZE) * mmap.PAGESIZE  # whole pages only: the ends may hold other data
    last = end // mmap.PAGESIZE * mmap.PAGESIZE
    if last <= first or _MADVISE(first, last - first, _MADV_DONTNEED) != 0:
        return 0
    return last - first
