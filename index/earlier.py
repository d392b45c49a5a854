"""What a rebuild takes from the last saved index of the same encoder and recipe.

An edit leaves nearly every text as it was, and the vectors of those texts are in the last index
already: one read of its FAISS file gives them all, where the embedding store is looked up text by
text (a 5,000-entry glossary's 62k texts: over a second of a one-entry edit). Its trained IVF cells
spare k-means. Rows are matched by a digest of their prompt and text, saved beside each index
(``DIGESTS_FILE``); an index saved without one lends its cells only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import faiss
import numpy as np

from index import ann
from index.rows import Passage

#: Each row's ``text_digests``, beside a saved index (vouched for by its manifest).
DIGESTS_FILE = "digests.npy"
DIGEST_BYTES = hashlib.sha256().digest_size


@runtime_checkable
class CountsTaken(Protocol):
    """An encoder that is told how many texts a build took from the last index instead of asking
    it (the build encoder: they count as used when it ages vectors out of its store)."""

    def taken(self, count: int) -> None: ...


def text_digests(passages: Sequence[Passage]) -> np.ndarray:
    """(rows, ``DIGEST_BYTES``) uint8: the sha256 of each passage's prompt and text, what its vector
    depends on."""
    joined = b"".join(
        hashlib.sha256(f"{p.prompt}\n{p.text}".encode("utf-8", "surrogatepass")).digest() for p in passages
    )
    return np.frombuffer(joined, dtype=np.uint8).reshape(-1, DIGEST_BYTES)


def index_vectors(index: faiss.Index) -> np.ndarray:
    """Every row's vector, in row order (an IVF index keeps them by cell: it maps them back)."""
    if isinstance(index, faiss.IndexIVF):
        index.make_direct_map()
    return index.reconstruct_n(0, index.ntotal)


@dataclass
class Earlier:
    """The last index's trained cells (IVF only) and its rows' vectors by ``text_digests``.

    A build lets the vectors go once it has taken what it needs (``forget``): they are the last
    index's whole matrix (at 5,000 entries, 62k index rows or 84k sentences: 95 or 129 MB), and
    kept, they added a third matrix to the two the new index's making holds. Traced on a
    5,000-entry edit's sentences: 847 MB resident after the making, 723 MB since; reading the last
    index (its FAISS file and the matrix rebuilt from it, then the rows taken) peaks higher still."""

    cells: ann.Cells | None
    digests: np.ndarray
    vectors: np.ndarray

    @classmethod
    def cells_only(cls, cells: ann.Cells | None, dim: int) -> Earlier:
        return cls(cells, np.zeros((0, DIGEST_BYTES), dtype=np.uint8), np.zeros((0, dim), dtype=np.float32))

    def take(self, digests: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray]:
        """For each of ``digests``, its vector here (zeros where there is none) and whether it was
        found; vectors of another width are never taken.

        Matched in numpy (sorted by each digest's first 8 bytes, then compared whole): a dict of
        62k digests made as many Python objects, which cost an edit half a second."""
        if self.vectors.shape[1:] != (dim,) or not len(self.digests) or not len(digests):
            return np.zeros((len(digests), dim), dtype=np.float32), np.zeros(len(digests), dtype=bool)
        mine, theirs = _words(self.digests), _words(digests)
        order = np.argsort(mine[:, 0], kind="stable")
        row = order[np.minimum(np.searchsorted(mine[order, 0], theirs[:, 0]), len(order) - 1)]
        found = (mine[row] == theirs).all(axis=1)
        out = self.vectors[row]  # one new matrix (touching fresh pages is most of the cost here)
        out[~found] = 0
        return out, found

    def forget(self) -> None:
        """Drop the vectors and digests (the cells stay)."""
        self.digests = np.zeros((0, DIGEST_BYTES), dtype=np.uint8)  # not a view: it would keep the matrix
        self.vectors = np.zeros((0, self.vectors.shape[1]), dtype=np.float32)


def _words(digests: np.ndarray) -> np.ndarray:
    """Each digest as ``DIGEST_BYTES // 8`` unsigned 64-bit words (a view, no copy)."""
    return np.ascontiguousarray(digests, dtype=np.uint8).view(np.uint64)
