"""PNG plots beside RESULTS.md (matplotlib, no display)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after use("Agg"): no display here

from benchmarks.results import Results


def write(r: Results, folder: Path) -> list[Path]:
    written = []
    for name, draw in (
        ("latency", _latency),
        ("concurrency", _concurrency),
        ("scale", _scale),
        ("start", _start),
    ):
        fig = draw(r)
        if fig is not None:
            path = folder / f"{name}.png"
            fig.savefig(path, dpi=110, bbox_inches="tight")
            plt.close(fig)
            written.append(path)
    return written


def _latency(r: Results):
    if not r.latency:
        return None
    fig, ax = plt.subplots(figsize=(8, 4))
    names = ["floor", "search", "answer", "HTTP"]
    width = 0.8 / len(names)
    for i, x in enumerate(r.latency):
        http = next((h.latency for h in r.http if h.backend == x.backend), None)
        dists = [x.floor, x.search, x.answer, http]
        for j, d in enumerate(dists):
            if d is None:
                continue
            ax.bar(i + j * width, d.p50, width, color=f"C{j}", label=names[j] if i == 0 else None)
            ax.plot([i + j * width] * 2, [d.p50, d.p95], color="black", linewidth=1)
    ax.set_xticks([i + 0.3 for i in range(len(r.latency))], [x.backend for x in r.latency])
    ax.set_ylabel("ms (bar p50, line to p95)")
    ax.set_title("Latency per question, cold encoder cache")
    ax.legend()
    return fig


def _concurrency(r: Results):
    runs = r.concurrency + r.sweep
    if not runs:
        return None
    fig, ax = plt.subplots(figsize=(8, 4))
    labels = [f"{c.backend} {c.client}\nlimit {c.queue_limit}" for c in runs]
    ax.bar(range(len(runs)), [c.throughput for c in runs], color="C0", label="answers/s")
    xs = range(len(runs))
    ax.scatter(xs, [r.ideal(c.backend) for c in runs], color="C3", marker="_", s=400, label="ideal")
    now = [r.parallel_floor.get(c.backend, float("nan")) for c in runs]
    ax.scatter(xs, now, color="C1", marker="_", s=400, label="bare encoder × cores, measured")
    ax.set_xticks(range(len(runs)), labels, fontsize=7)
    ax.set_ylabel("answers per second")
    ax.set_title(f"{r.config.http_clients} concurrent HTTP clients")
    ax.legend()
    return fig


def _scale(r: Results):
    if not r.scale:
        return None
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))

    def family(kind: str) -> str:  # IVF rows name their cells and nprobe, which change with n
        return "ivf (auto nprobe)" if kind.startswith("ivf") else kind

    for kind in dict.fromkeys(family(s.kind) for s in r.scale):
        rows = [s for s in r.scale if family(s.kind) == kind]
        left.plot([s.n for s in rows], [s.query.p50 for s in rows], marker="o", label=kind)
        right.plot([s.n for s in rows], [s.build_s for s in rows], marker="o", label=kind)
    for ax, title in ((left, "query p50 (ms)"), (right, "build (s)")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("vectors")
        ax.set_title(title)
        ax.legend(fontsize=7)
    return fig


def _start(r: Results):
    if not r.start:
        return None
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    xs = range(len(r.start))
    names = [s.backend for s in r.start]
    left.bar([x - 0.2 for x in xs], [s.cached_s for s in r.start], 0.4, label="start → first answer")
    left.bar([x + 0.2 for x in xs], [s.bare_s for s in r.start], 0.4, label="bare stack + model")
    left.set_xticks(list(xs), names)
    left.set_ylabel("s")
    left.legend()
    right.bar(list(xs), [s.peak_rss_mb for s in r.start], color="C2")
    right.set_xticks(list(xs), names)
    right.set_ylabel("peak RSS (MB)")
    return fig
