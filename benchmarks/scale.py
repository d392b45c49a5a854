"""The vector index at 10k-1M rows: exact (flat) against approximate (IVF, what VectorIndex switches
to at ``ann_threshold``), and HNSW for comparison up to ``hnsw_max``.

Rows are the glossary's real entry vectors, each copied with Gaussian noise of norm ~``NOISE``
and renormalised; queries are the benchmark questions encoded by the same model. Query time is
``index.ann.top_k`` for one question (k=10), the path VectorIndex.search takes.
"""

from __future__ import annotations

import gc
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import faiss
import numpy as np
import psutil
from pydantic import BaseModel

from benchmarks.stats import Dist, timed_ms
from index import ann

NOISE = 0.5
K = 10
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = [64, 256]


class ScaleRow(BaseModel):
    n: int
    kind: str
    build_s: float
    query: Dist
    memory_mb: float
    disk_mb: float
    recall_at_10: float


def synthetic(base: np.ndarray, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    rows = base[rng.integers(0, len(base), n)]
    rows += rng.standard_normal(rows.shape, dtype=np.float32) * np.float32(NOISE / np.sqrt(base.shape[1]))
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows


def _hnsw(vectors: np.ndarray) -> faiss.Index:
    index = faiss.IndexHNSWFlat(vectors.shape[1], HNSW_M, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
    index.add(vectors)
    return index


def _disk_mb(index: faiss.Index) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "index.faiss")
        faiss.write_index(index, str(path))
        return path.stat().st_size / 2**20


def _built(build: Callable[[], faiss.Index]) -> tuple[faiss.Index, float, float]:
    """(index, build seconds, RSS growth in MB)."""
    gc.collect()
    rss = psutil.Process(os.getpid()).memory_info().rss
    start = time.perf_counter()
    index = build()
    build_s = time.perf_counter() - start
    return index, build_s, (psutil.Process(os.getpid()).memory_info().rss - rss) / 2**20


def _queried(index: faiss.Index, queries: np.ndarray) -> tuple[Dist, np.ndarray]:
    ms, found = [], []
    for q in queries:
        ms.append(timed_ms(lambda q=q: found.append(ann.top_k(index, q[None], K)[1][0])))
    return Dist.of(ms), np.array(found)


def _recall(ids: np.ndarray, exact: np.ndarray) -> float:
    return float(np.mean([len(set(a) & set(b)) / K for a, b in zip(ids, exact, strict=True)]))


def measure(
    base: np.ndarray, queries: np.ndarray, sizes: list[int], hnsw_max: int, nprobe: int
) -> list[ScaleRow]:
    """Flat, then IVF as VectorIndex builds it past its threshold, then HNSW (n <= ``hnsw_max``)."""
    faiss.omp_set_num_threads(1)  # as served: Settings.threads = 1
    rows: list[ScaleRow] = []
    for n in sizes:
        vectors = synthetic(base, n)
        candidates: list[tuple[str, Callable[[], faiss.Index], list[int]]] = [
            ("flat (exact)", lambda v=vectors, t=n + 1: ann.make_index(v, threshold=t), [0]),
            ("ivf", lambda v=vectors: ann.make_index(v, threshold=1, nprobe=nprobe), [0]),
        ]
        if n <= hnsw_max:
            candidates.append((f"hnsw M={HNSW_M}", lambda v=vectors: _hnsw(v), HNSW_EF_SEARCH))
        exact = None
        for kind, build, search_params in candidates:
            index, build_s, memory = _built(build)
            disk = _disk_mb(index)
            for param in search_params:
                label = kind
                if isinstance(index, faiss.IndexHNSW):
                    index.hnsw.efSearch = param
                    label = f"{kind} efSearch={param}"
                elif isinstance(index, faiss.IndexIVF):
                    label = f"ivf nlist={index.nlist} nprobe={index.nprobe}"
                latency, ids = _queried(index, queries)
                exact = ids if exact is None else exact
                recall = _recall(ids, exact)
                rows.append(
                    ScaleRow(
                        n=n,
                        kind=label,
                        build_s=build_s,
                        query=latency,
                        memory_mb=memory,
                        disk_mb=disk,
                        recall_at_10=recall,
                    )
                )
            del index
        del vectors
    return rows
