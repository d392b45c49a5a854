"""Cold start (process start to first answer) against importing the stack and loading the model.

Every figure comes from a new process (benchmarks.child); the same runs give each backend's
memory: peak and final RSS of a process that loaded the bot, answered 21 questions and built
the Gradio app. Two starts are judged: the bot's (first ``bot.answer``, against importing the
libraries it is built on and loading the model) and the app's (the Gradio app built as well,
against the same plus importing gradio). The model alone is reported beside them.

The project's own modules are byte-compiled first, as the libraries of the floor are by pip at
install and as any start after the first finds them: a machine that sets PYTHONDONTWRITEBYTECODE
would otherwise compile them from source in every child, a cost only the bot's side would pay.
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.config import REPO
from benchmarks.stats import AgainstFloor

#: The project's packages and the app's entry module, byte-compiled before any start is timed.
PROJECT_SOURCES = ("bot", "glossary", "index", "ui", "app.py")


class Start(AgainstFloor):
    RATIO = ("cached_s", "bare_s")

    backend: str
    cached_s: float
    bare_s: float
    bare_encoder_s: float
    app_s: float
    bare_app_s: float
    import_s: float
    load_s: float
    app_build_s: float
    first_ever_s: float | None
    first_ever_load_s: float | None
    peak_rss_mb: float
    rss_mb: float
    bare_peak_rss_mb: float

    @property
    def app_ratio(self) -> float:
        return self.app_s / self.bare_app_s


def child(mode: str, backend: str, cache: Path, glossary: list[Path]) -> dict:
    """Run one child; timestamps become seconds since just before it was spawned."""
    cmd = [sys.executable, "-m", "benchmarks.child", mode, backend, str(cache), *map(str, glossary)]
    env = {**os.environ, "TQDM_DISABLE": "1"}
    t0 = time.time()
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, check=False, timeout=1800)
    if done.returncode:
        raise RuntimeError(f"benchmarks.child {mode} {backend} failed:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return {k: (v - t0 if k in {"imported", "loaded", "ready", "app_built"} else v) for k, v in out.items()}


def compile_project() -> None:
    """Write the bytecode a second start reads (``compileall`` writes it whatever the environment says)."""
    for name in PROJECT_SOURCES:
        path = REPO / name
        compile_one = compileall.compile_file if path.is_file() else compileall.compile_dir
        done = compile_one(path, quiet=1)
        if not done:
            raise RuntimeError(f"byte-compiling {path} failed")


def measure(backend: str, cache: Path, repeats: int, first_ever: bool, glossary: list[Path]) -> Start:
    compile_project()
    with tempfile.TemporaryDirectory(prefix="bench-start-") as tmp:
        child("serve", backend, cache, glossary)  # make sure model and index are cached
        runs: list[dict] = []
        bares: dict[str, list[dict]] = {"bare": [], "bare-encoder": [], "bare-app": []}
        for _ in range(repeats):  # interleaved, so load drift hits every kind alike
            runs.append(child("serve", backend, cache, glossary))
            for mode, rows in bares.items():
                rows.append(child(mode, backend, cache, glossary))
        fresh = child("serve", backend, Path(tmp, "cache"), glossary) if first_ever else None

    def med(rows: list[dict], key: str, since: str | None = None) -> float:
        return statistics.median(r[key] - (r[since] if since else 0.0) for r in rows)

    return Start(
        backend=backend,
        cached_s=med(runs, "ready"),
        bare_s=med(bares["bare"], "ready"),
        bare_encoder_s=med(bares["bare-encoder"], "ready"),
        app_s=med(runs, "app_built"),
        bare_app_s=med(bares["bare-app"], "ready"),
        import_s=med(runs, "imported"),
        load_s=med(runs, "loaded", "imported"),
        app_build_s=med(runs, "app_built", "ready"),
        first_ever_s=fresh["ready"] if fresh else None,
        first_ever_load_s=fresh["loaded"] - fresh["imported"] if fresh else None,
        peak_rss_mb=med(runs, "peak_rss_mb"),
        rss_mb=med(runs, "rss_mb"),
        bare_peak_rss_mb=med(bares["bare"], "peak_rss_mb"),
    )
