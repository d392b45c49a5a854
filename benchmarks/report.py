"""RESULTS.md, its PNG plots and the console table, from a Results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from benchmarks.latency import Latency
from benchmarks.profile import Breakdown
from benchmarks.results import Results

T = TypeVar("T")

NOTES = Path(__file__).with_name("NOTES.md")


def _table(head: list[str], rows: list[list[object]]) -> list[str]:
    def cell(v: object) -> str:
        if isinstance(v, float):
            return f"{v:,.3f}" if abs(v) < 10 else f"{v:,.1f}"
        return str(v)

    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]


def _ms(d) -> str:
    return f"{d.p50:.1f} / {d.p95:.1f}"


def _columns(spec: Sequence[tuple[str, Callable[[T], object]]], items: Sequence[T]) -> list[str]:
    """A wide table from (heading, its cell for one item) pairs, so each heading stands by its value."""
    return _table([head for head, _ in spec], [[cell(x) for _, cell in spec] for x in items])


def _quality(x: Latency, metric: str) -> str:
    q = x.quality
    return f"{getattr(q, metric):.3f}" if q and q.recall_at_1 is not None else "-"


def sections(r: Results) -> list[str]:
    out: list[str] = []
    if r.latency:
        out += ["## 1. Floor vs answer (in process, new questions: encoder cache cleared)", ""]
        out += _columns(
            [
                ("backend", lambda x: x.backend),
                ("floor p50/p95 ms", lambda x: _ms(x.floor)),
                ("search", lambda x: _ms(x.search)),
                ("answer", lambda x: _ms(x.answer)),
                ("answer ÷ floor", lambda x: f"{x.answer_ratio:.2f}"),
                ("encoder in answer", lambda x: _ms(x.encoder_in_answer)),
                ("index part", lambda x: f"{x.index_part.p50:.3f} / {x.index_part.p95:.3f}"),
                ("repeat (cache hit)", lambda x: _ms(x.answer_repeat)),
                ("R@1", lambda x: _quality(x, "recall_at_1")),
                ("R@5", lambda x: _quality(x, "recall_at_5")),
                ("MRR", lambda x: _quality(x, "mrr")),
                ("kept", lambda x: "yes" if x.backend in r.kept else "no"),
            ],
            r.latency,
        )
        out += [
            "",
            f"Kept: Recall@1 within {r.config.parity} of {r.config.reference} on the same questions. "
            "'index part' = VectorIndex.scores for one query vector.",
            "",
        ]
    if r.http:
        out += ["## 2. Over HTTP (one sequential client, app.serve)", ""]
        rows = []
        for h in r.http:
            answer = next(x.answer.p50 for x in r.latency if x.backend == h.backend)
            rows.append(
                [
                    h.backend,
                    h.client,
                    h.completed,
                    _ms(h.latency),
                    _ms(h.handler),
                    f"{h.handler_cpu.p50:.1f}",
                    f"{h.latency.p50 - h.handler.p50:+.1f}",
                    f"{h.latency.p50 - answer:+.1f}",
                    f"{h.latency.p50 - r.floor_ms(h.backend):+.1f}",
                    h.errors,
                ]
            )
        out += _table(
            [
                "backend",
                "client",
                "answers",
                "p50/p95 ms",
                "bot.answer in server",
                "its thread's CPU p50",
                "p50 − in-server p50",
                "p50 − bot.answer p50 (§1)",
                "p50 − floor",
                "errors",
            ],
            rows,
        )
        echo = [e for e in r.echo if e.clients == 1]
        if echo:
            out += [
                "",
                *_table(
                    ["framework alone (routes echo)", "client", "answers", "p50/p95 ms"],
                    [[e.backend, e.client, e.completed, _ms(e.latency)] for e in echo],
                ),
            ]
        out += [
            "",
            "Clients: 'api' = POST /api/answer (the app's plain route, JSON), 'rest' = Gradio's call API "
            "for /ask (POST, then its event stream), both on one kept-alive connection; 'gradio_client' = "
            "gradio_client.Client.predict. 'bot.answer in server' is timed inside the server's worker "
            "thread; the difference to the client's figure is the framework, HTTP and the client. "
            "'framework alone' = the same clients against routes that return the question, limited like "
            "app.serve: the HTTP floor of each kind.",
            "",
        ]
    if r.concurrency or r.sweep:
        out += [f"## 3. Concurrency ({r.config.http_clients} clients)", ""]
        out += _columns(
            [
                ("backend", lambda c: c.backend),
                ("client", lambda c: c.client),
                ("limit", lambda c: c.queue_limit),
                ("seconds", lambda c: f"{c.elapsed_s:.0f}"),
                ("answers/s", lambda c: f"{c.throughput:.1f}"),
                ("p50/p95 ms", lambda c: _ms(c.latency)),
                ("bot.answer in server", lambda c: _ms(c.handler)),
                ("errors", lambda c: c.errors),
                ("ideal/s", lambda c: f"{r.ideal(c.backend):.0f}"),
                ("÷ ideal", lambda c: f"{c.throughput / r.ideal(c.backend):.2f}"),
                (
                    "bare encoder ×cores now /s",
                    lambda c: f"{r.parallel_floor.get(c.backend, float('nan')):.0f}",
                ),
                ("÷ that", lambda c: f"{c.throughput / r.parallel_floor.get(c.backend, float('nan')):.2f}"),
                ("load generator CPU", lambda c: f"{c.client_cpu_share:.0%} of the machine"),
            ],
            r.concurrency + r.sweep,
        )
        if r.thread_scaling:
            backend = r.sweep[0].backend if r.sweep else ""
            out += [
                "",
                *_table(
                    [f"bot.answer from N threads, no HTTP ({backend})", *(str(n) for n in r.thread_scaling)],
                    [["answers/s", *(f"{v:.1f}" for v in r.thread_scaling.values())]],
                ),
            ]
        many = [e for e in r.echo if e.clients > 1]
        if many:
            out += [
                "",
                *_table(
                    [
                        "framework alone (routes echo)",
                        "client",
                        "clients",
                        "answers/s",
                        "p50/p95 ms",
                        "errors",
                    ],
                    [
                        [e.backend, e.client, e.clients, f"{e.throughput:.1f}", _ms(e.latency), e.errors]
                        for e in many
                    ],
                ),
            ]
        out += [
            "",
            "ideal = cores ÷ encoder floor p50 (cores to ourselves). 'bare encoder ×cores now' = the bare "
            "encoder run from one thread per core just before, under the machine's load at the time. "
            "limit = answers computed at once (Settings.concurrency_limit and api_concurrency_limit: "
            "Gradio's queue and the /api/answer gate); 'app.serve' = the settings app.py ships.",
            "",
        ]
    if r.start:
        out += ["## 4. Cold start (new process each; median) and 7. memory", ""]
        out += _columns(
            [
                ("backend", lambda s: s.backend),
                ("start → first answer s", lambda s: s.cached_s),
                ("bare stack + model s", lambda s: s.bare_s),
                ("ratio", lambda s: f"{s.ratio:.2f}"),
                ("app ready s", lambda s: s.app_s),
                ("bare stack + gradio + model s", lambda s: s.bare_app_s),
                ("app ratio", lambda s: f"{s.app_ratio:.2f}"),
                ("model alone s", lambda s: s.bare_encoder_s),
                ("imports s", lambda s: s.import_s),
                ("bot load s", lambda s: s.load_s),
                ("build_app s", lambda s: s.app_build_s),
                ("first-ever start s", lambda s: "-" if s.first_ever_s is None else s.first_ever_s),
                ("peak RSS MB", lambda s: f"{s.peak_rss_mb:.0f}"),
                ("RSS after 21 answers MB", lambda s: f"{s.rss_mb:.0f}"),
                ("bare peak RSS MB", lambda s: f"{s.bare_peak_rss_mb:.0f}"),
            ],
            r.start,
        )
        out += [
            "",
            "start → first answer = `GlossaryBot.load()` + one `answer` in a new Python process; bare "
            "stack + model = a process that imports the libraries the bot is built on (benchmarks/child.py "
            "`STACK`: numpy, faiss, bm25s, rapidfuzz, regex, pydantic, pyyaml, tqdm, filelock), loads the "
            "model and encodes one question. app ready = the same process after building the Gradio app; "
            "its floor adds `import gradio`. model alone = interpreter + the encoder's library + model + one "
            "encode. first-ever = empty cache: conversion/export + index build + first answer.",
            "",
        ]
    if r.build:
        out += ["## 5. Index build (progress bar on; best of 2, ABBA order)", ""]
        out += _table(
            ["backend", "texts", "build texts/s", "bare batch encode texts/s", "ratio"],
            [[b.backend, b.texts, b.build_per_s, b.bare_per_s, f"{b.ratio:.2f}"] for b in r.build],
        )
        out.append("")
    if r.scale:
        out += ["## 6. Scale (one query, k = 10, 1 thread)", ""]
        out += _table(
            ["vectors", "index", "build s", "query p50/p95 ms", "memory MB", "disk MB", "recall@10 vs exact"],
            [
                [
                    f"{s.n:,}",
                    s.kind,
                    s.build_s,
                    f"{s.query.p50:.3f} / {s.query.p95:.3f}",
                    f"{s.memory_mb:.0f}",
                    f"{s.disk_mb:.0f}",
                    f"{s.recall_at_10:.4f}",
                ]
                for s in r.scale
            ],
        )
        out.append("")
    budgets = r.budgets()
    if budgets:
        out += ["## Budgets", ""]
        out += _table(
            ["item", "target", "measured", "status"],
            [[b.item, b.target, b.measured, "met" if b.met else "**missed**"] for b in budgets],
        )
        out.append("")
    out += _profiles(r)
    return out


def _breakdown(title: str, b: Breakdown) -> list[str]:
    lines = [
        f"**{title}** ({b.calls} calls; ms per call by module, then the hottest non-encoder functions)",
        "",
    ]
    lines += _table(
        ["where", "ms per call"], [[k, f"{v:.2f}"] for k, v in b.per_call_ms.items() if v >= 0.05]
    )
    lines += [
        "",
        *_table(["function (self time)", "ms per call"], [[k, f"{v:.2f}"] for k, v in b.top_functions]),
    ]
    return [*lines, ""]


def _profiles(r: Results) -> list[str]:
    out: list[str] = []
    for x in r.latency:
        if x.profile:
            out += _breakdown(f"bot.answer, {x.backend} (pyinstrument)", x.profile)
    for h in r.http:
        if h.server_profile:
            out += _breakdown(
                f"server process, sequential /api/answer client, {h.backend} (py-spy, separate pass)",
                h.server_profile,
            )
    return ["## Profiles", "", *out] if out else []


def markdown(r: Results) -> str:
    m = r.machine
    head = [
        "# Benchmark results",
        "",
        "Generated by `make bench` (`python -m benchmarks`); every ratio compares figures of the same run.",
        "",
        f"- run: {r.started_at:%Y-%m-%d %H:%M} UTC → {r.finished_at:%H:%M} UTC; queries: {r.query_source}",
        f"- machine: {m.cpu}, {m.cores} cores, {m.memory_gb} GB; Python {m.python}; {m.platform}",
        f"- load average (1/5/15 min): start {'/'.join(f'{v:.2f}' for v in m.load_start)}, "
        f"end {'/'.join(f'{v:.2f}' for v in m.load_end or ())} — a shared machine: others' jobs ran too",
        "- versions: " + ", ".join(f"{k} {v}" for k, v in m.versions.items()),
        f"- BLAS/OpenMP environment: {m.blas_env or 'none set'}; serving threads: 1 (Settings.threads)",
        "",
        "![latency](latency.png) ![concurrency](concurrency.png) ![scale](scale.png) ![start](start.png)",
        "",
    ]
    notes = NOTES.read_text(encoding="utf-8") if NOTES.exists() else ""
    return "\n".join(head + sections(r)) + ("\n" + notes if notes else "")


def console(r: Results) -> str:
    lines = [f"{'backend':<22}{'floor p50':>10}{'answer p50':>11}{'ratio':>7}{'R@1':>7}"]
    for x in r.latency:
        r1 = x.quality.recall_at_1 if x.quality and x.quality.recall_at_1 is not None else float("nan")
        lines.append(
            f"{x.backend:<22}{x.floor.p50:>10.1f}{x.answer.p50:>11.1f}{x.answer_ratio:>7.2f}{r1:>7.3f}"
        )
    lines.append("")
    for b in r.budgets():
        lines.append(f"{'MET ' if b.met else 'MISS'} {b.item}: {b.measured} (target {b.target})")
    return "\n".join(lines)
