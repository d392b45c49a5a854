"""The README's "Performance" table and budget figures, rendered from a Results.

The README quotes one `make bench` run; ``tests/test_readme_figures.py`` renders these lines from the
recorded ``benchmarks/RESULTS.json`` and finds them in the README, so the two cannot drift apart.
Run ``python -m benchmarks.summary`` after a `make bench` to print what to paste.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from benchmarks.latency import Latency
from benchmarks.results import Results
from benchmarks.serving import Load
from benchmarks.startup import Start
from index.encoders.registry import DEFAULT_BACKEND

T = TypeVar("T")

RESULTS_PATH = Path(__file__).with_name("RESULTS.json")
#: The serving default first: the README's table leads with it.
DEFAULT = DEFAULT_BACKEND
COLUMNS = (DEFAULT, "sentence-transformers", "onnx-int8")
#: The limit ``app.serve`` ships: the one the README's 16-client row quotes.
SHIPPED_LIMIT = "app.serve"
#: A cell for a backend the run did not measure in that section.
NONE = "–"
#: Seconds under this are shown with two decimals, others with one.
FINE_SECONDS = 10.0


def _seconds(value: float) -> str:
    return f"{value:.2f} s" if value < FINE_SECONDS else f"{value:.1f} s"


def _latency(r: Results, backend: str) -> Latency | None:
    return next((x for x in r.latency if x.backend == backend), None)


def _http(r: Results, backend: str) -> Load | None:
    return next((h for h in r.http if h.backend == backend and h.client == "api"), None)


def _busy(r: Results, backend: str) -> Load | None:
    shipped = (c for c in r.concurrency if c.client == "api" and c.queue_limit == SHIPPED_LIMIT)
    return next((c for c in shipped if c.backend == backend), None)


def _start(r: Results, backend: str) -> Start | None:
    return next((s for s in r.start if s.backend == backend), None)


def _recall(r: Results, x: Latency) -> str:
    if x.quality is None or x.quality.recall_at_1 is None:
        return NONE
    kept = "" if x.backend in r.kept else " (dropped)"
    return f"{x.quality.recall_at_1:.3f}{kept}"


def _row(r: Results, label: str, cell: Callable[[Results, str], str | None]) -> str:
    return "| " + " | ".join([label, *((cell(r, b) or NONE) for b in COLUMNS)]) + " |"


def _read(
    find: Callable[[Results, str], T | None], show: Callable[[Results, T], str]
) -> Callable[[Results, str], str | None]:
    """A cell: the backend's row of one section (``find``) shown by ``show``; None when not measured."""

    def cell(r: Results, backend: str) -> str | None:
        found = find(r, backend)
        return None if found is None else show(r, found)

    return cell


#: Each row's label and how one backend's cell is read from the run.
ROWS: list[tuple[str, Callable[[Results, str], str | None]]] = [
    ("encoder floor p50 (bare `encode_queries`)", _read(_latency, lambda r, x: f"{x.floor.p50:.1f} ms")),
    (
        "`bot.answer` p50 (new question) / ratio to floor",
        _read(_latency, lambda r, x: f"{x.answer.p50:.1f} ms / {x.answer_ratio:.2f}"),
    ),
    (
        "`POST /api/answer` p50, one client / over the in-server answer",
        _read(_http, lambda r, h: f"{h.latency.p50:.1f} ms / {h.latency.p50 - h.handler.p50:+.1f} ms"),
    ),
    (
        "16 clients: answers/s / ÷ ideal (cores ÷ floor)",
        _read(_busy, lambda r, c: f"{c.throughput:.1f} / {c.throughput / r.ideal(c.backend):.2f}"),
    ),
    (
        "cold start to first answer / ÷ importing the stack + loading the model",
        _read(_start, lambda r, s: f"{_seconds(s.cached_s)} / {s.ratio:.2f}"),
    ),
    (
        "app ready (Gradio built) / ÷ the same + `import gradio`",
        _read(_start, lambda r, s: f"{_seconds(s.app_s)} / {s.app_ratio:.2f}"),
    ),
    ("peak RSS", _read(_start, lambda r, s: f"{s.peak_rss_mb:.0f} MB")),
    ("dev R@1", _read(_latency, _recall)),
]


def table(r: Results) -> list[str]:
    head = "| | " + " | ".join(f"{b} (default)" if b == DEFAULT else b for b in COLUMNS) + " |"
    return [head, "|---" * (len(COLUMNS) + 1) + "|", *(_row(r, label, cell) for label, cell in ROWS)]


def budget_sentence(r: Results) -> str:
    """Every budget the run judged the default backend and the index by, met ones first, each with
    what it measured against its target (``Results.budgets``)."""
    rows = [b for b in r.budgets() if b.backend in (DEFAULT, None)]

    def listed(met: bool) -> str:
        return "; ".join(f"{b.name} {b.measured} ({b.target})" for b in rows if b.met == met) or "none"

    return f"Budgets of the default backend met: {listed(True)}. Missed: {listed(False)}."


def framework_sentence(r: Results) -> str:
    """What each way of calling the default backend adds to its in-server answer at p50 (§2)."""
    added = {h.client: h.latency.p50 - h.handler.p50 for h in r.http if h.backend == DEFAULT}
    return (
        f"Over the in-server answer, `/api/answer` adds {added['api']:.1f} ms at p50, Gradio's queued "
        f"`/ask` {added['rest']:.1f} ms and gradio_client {added['gradio_client']:.1f} ms"
    )


def load(path: Path = RESULTS_PATH) -> Results:
    return Results.model_validate_json(path.read_text(encoding="utf-8"))


def main() -> None:
    results = load(Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS_PATH)
    print(f"run {results.started_at:%Y-%m-%d %H:%M} UTC")
    print("\n".join(table(results)))
    print(budget_sentence(results))
    print(framework_sentence(results))


if __name__ == "__main__":
    main()
