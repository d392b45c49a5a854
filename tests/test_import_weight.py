"""What a process holds from its start: libraries only some work needs are imported by that work.

A process keeps every module it imported. scikit-learn imports pandas and scipy.stats (~100 MB of
resident memory, measured from ``import bot.core``), so the app imports it only when a maintainer's
report clusters questions; scipy.optimize (26 MB) only when a calibration is fitted."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _imported_after(statement: str, modules: list[str]) -> list[str]:
    code = f"import sys; {statement}; print([m for m in {modules!r} if m in sys.modules])"
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO, env=env
    )
    return ast.literal_eval(out.stdout.strip().splitlines()[-1])


def test_starting_the_app_imports_neither_scikit_learn_nor_scipys_optimiser():
    heavy = ["sklearn", "scipy.stats", "scipy.optimize"]
    assert _imported_after("import app", heavy) == []


def test_the_report_and_the_calibration_import_their_libraries_when_they_run():
    assert _imported_after("import bot.records.report", ["sklearn"]) == []
    assert _imported_after("import bot.search.calibration", ["scipy.optimize"]) == []
