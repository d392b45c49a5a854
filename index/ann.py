"""Exact or approximate inner-product search, picked by the number of vectors.

Below ``threshold`` rows the index is exact (``IndexFlatIP``): the bundled
glossary has a few thousand rows and a brute-force scan of them costs well
under a millisecond. A flat scan reads every vector for every query, so its
cost grows with memory bandwidth (1M x 384 float32 = 1.5 GB per query, far
beyond the 5 ms budget), and above the threshold the index is an inverted file
(``IndexIVFFlat``): k-means cells, of which ``nprobe`` are scanned per query.

IVF rather than HNSW: at equal query time and recall@10 it builds many times
faster on this 2-core machine (HNSW inserts one vector at a time) and adds 8
bytes per vector instead of HNSW's graph links. The figures are in
benchmarks/RESULTS.md ("Scale").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import faiss
import numpy as np

from index.pages import release_rows

Kind = Literal["flat", "ivf"]

#: Row count from which the index is approximate (the ``ann_threshold`` setting's default).
DEFAULT_THRESHOLD = 50_000
#: IVF cells scanned per query (the ``ann_nprobe`` setting); 0 = enough cells for ``SCAN`` vectors.
DEFAULT_NPROBE = 0
#: Vectors an automatic nprobe scans per query: recall@10 >= 0.98 from 50k to 1M rows in
#: benchmarks/RESULTS.md, where a fixed nprobe is either slow at 1M or inexact at 100k.
SCAN = 16_384
#: Rows an approximate index scores for the retriever (``all_scores``); the rest count as -1.
CANDIDATES = 1024
#: k-means sees this many training vectors per cell (faiss warns below 39).
TRAIN_PER_CELL = 40
SEED = 1234
#: Rows added to an index at a time when its matrix is handed over (``make_index``'s ``consume``).
ADD_ROWS = 8192
#: A new IVF index takes the trained cells of an earlier one (of the same encoder and recipe) whose
#: row count differs by at most this share: an edit moves a few vectors, and k-means over all of them
#: again costs seconds at 62k rows for cells that would hardly move.
REUSE_CELLS_SHARE = 0.1


def kind_for(n_rows: int, threshold: int = DEFAULT_THRESHOLD) -> Kind:
    return "ivf" if n_rows >= threshold else "flat"


def kind_of(index: faiss.Index) -> Kind:
    return "ivf" if isinstance(index, faiss.IndexIVF) else "flat"


def n_cells(n_rows: int) -> int:
    """About 2·sqrt(n) cells: ~2,000 at 1M, so a cell holds ~500 vectors."""
    return max(1, round(2 * math.sqrt(n_rows)))


@dataclass(frozen=True)
class Cells:
    """The trained cells of an IVF index (its quantizer's centroids) and how many rows it held: all a
    later index needs to reuse them, under 1 MB where the whole index is ~90 MB at 60,000 rows."""

    centroids: np.ndarray
    n_rows: int

    @classmethod
    def of(cls, index: faiss.Index) -> Cells:
        ivf = faiss.extract_index_ivf(index)
        return cls(ivf.quantizer.reconstruct_n(0, ivf.nlist), ivf.ntotal)

    def suit(self, n_rows: int, dim: int) -> bool:
        """Whether these cells suit ``n_rows`` vectors of ``dim`` dimensions."""
        return self.centroids.shape[1] == dim and abs(self.n_rows - n_rows) <= REUSE_CELLS_SHARE * n_rows


def make_index(
    vectors: np.ndarray,
    threshold: int = DEFAULT_THRESHOLD,
    nprobe: int = DEFAULT_NPROBE,
    cells: Cells | None = None,
    consume: bool = False,
):
    """An index holding ``vectors`` (L2-normalised float32 rows), exact or IVF by their number; an IVF
    one takes ``cells`` (an earlier index's) when they suit (``Cells.suit``), else trains its own.
    ``consume``: the caller hands ``vectors`` over; the rows added to the index are freed as it goes
    (``index.pages``), and ``vectors`` reads as zeros after."""
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    n, dim = vectors.shape
    index: faiss.Index
    if kind_for(n, threshold) == "flat":
        index = faiss.IndexFlatIP(dim)
    elif cells is not None and cells.suit(n, dim):
        quantizer = faiss.IndexFlatIP(dim)
        quantizer.add(np.ascontiguousarray(cells.centroids, dtype=np.float32))
        index = faiss.IndexIVFFlat(quantizer, dim, len(cells.centroids), faiss.METRIC_INNER_PRODUCT)
    else:
        n_list = n_cells(n)
        index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, n_list, faiss.METRIC_INNER_PRODUCT)
        sample = np.random.default_rng(SEED).choice(n, min(n, n_list * TRAIN_PER_CELL), replace=False)
        index.train(vectors[np.sort(sample)])
    for start in range(0, n, ADD_ROWS):
        index.add(vectors[start : start + ADD_ROWS])
        if consume:
            release_rows(vectors, start + ADD_ROWS)
    configure(index, nprobe)
    return index


def configure(index: faiss.Index, nprobe: int = DEFAULT_NPROBE) -> None:
    """Search-time parameters, which a saved index does not carry reliably."""
    if isinstance(index, faiss.IndexIVF):
        if nprobe <= 0:
            nprobe = math.ceil(SCAN * index.nlist / max(index.ntotal, 1))
        index.nprobe = max(1, min(nprobe, index.nlist))


def top_k(index: faiss.Index, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Best ``k`` rows per query: (cosines, row ids), id -1 where fewer than ``k`` were found."""
    return index.search(np.ascontiguousarray(queries, dtype=np.float32), k)


def all_scores(index: faiss.Index, queries: np.ndarray, candidates: int = CANDIDATES) -> np.ndarray:
    """(n_queries, n_rows) cosines. Exact: inner products with every stored vector (no sort).

    Approximate: the best ``candidates`` rows get their cosine, every other row -1.
    """
    queries = np.ascontiguousarray(queries, dtype=np.float32)
    n = index.ntotal
    if isinstance(index, faiss.IndexFlat):
        # faiss's single-threaded SIMD kernel: numpy's matmul would wake OpenBLAS's thread pool,
        # whose spinning threads cost more than the product itself on a busy 2-core machine.
        out = np.empty((len(queries), n), dtype=np.float32)
        for out_row, query in zip(out, queries, strict=True):
            faiss.fvec_inner_products_ny(  # type: ignore[attr-defined]  # not in faiss's stubs
                faiss.swig_ptr(out_row), faiss.swig_ptr(query), index.get_xb(), index.d, n
            )
        return out
    sims, ids = top_k(index, queries, min(candidates, n))
    out = np.full((len(queries), n), -1.0, dtype=np.float32)
    for row, (row_sims, row_ids) in enumerate(zip(sims, ids, strict=True)):
        found = row_ids >= 0
        out[row, row_ids[found]] = row_sims[found]
    return out
