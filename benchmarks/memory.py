"""``python -m benchmarks.memory --kept DIR``: the peak memory of a big glossary's build in the
app's order, of the bot alone and of ``python app.py`` with its web UI, in minutes.

The ``big`` section of ``benchmarks.deploy`` measures the bot alone in a child process (no Gradio),
from an empty cache: 40 minutes of encoding at 5,000 entries. Here every phase of that build runs
(the index, its calibration, serving, then the advice sentences added in the background), but from
a copy of the embedding store that section kept (``--keep DIR``) with a share of its vectors
deleted (``--new``, 5 % by default, the same ones each run): both the bulk backend and the serving
encoder encode what is missing, beside what a served glossary holds, and the rest is read from the
store. The bot alone runs as that section's child does; the app is started on a free port, waited
for until ``/readyz`` says its advice sentences are ready, then asked the same questions. Each
figure is the process's own ``VmHWM`` / ``VmRSS`` (MB of 1,024 x 1,024 bytes) once it has answered.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import tempfile
import time
from contextlib import closing
from pathlib import Path

import httpx
import numpy as np

from benchmarks.child import status_mb
from benchmarks.deploy import DEPLOY_FILE, App, _child, command_line, merge, stamp
from benchmarks.deploy_modes import LATENCY_ROUNDS, QUESTIONS
from index.embeddings import STORE_FILE

#: Share of the kept store's vectors deleted, so that this share is encoded again.
NEW_SHARE = 0.05
SEED = 7


def prepare(kept_cache: Path, out: Path, share: float) -> int:
    """``out``: a cache holding only the kept cache's store (no index, calibration or parse cache,
    so that the build does all but encode what is stored), ``share`` of its vectors deleted; how
    many were."""
    out.mkdir(parents=True)
    with (
        closing(sqlite3.connect(kept_cache / STORE_FILE)) as kept,
        closing(sqlite3.connect(out / STORE_FILE)) as copy,
    ):
        kept.backup(copy)  # what the kept store's write-ahead log holds too
    with closing(sqlite3.connect(out / STORE_FILE)) as db, db:
        keys = db.execute(
            "SELECT encoder, prompt, digest FROM vectors ORDER BY encoder, prompt, digest"
        ).fetchall()
        chosen = np.random.default_rng(SEED).choice(len(keys), round(share * len(keys)), replace=False)
        db.executemany(
            "DELETE FROM vectors WHERE encoder = ? AND prompt = ? AND digest = ?", [keys[i] for i in chosen]
        )
    return len(chosen)


def bot(glossary: Path, cache: Path) -> dict[str, float]:
    out = _child("app", str(glossary), cache=cache)
    return {key: out[key] for key in ("searchable_s", "load_s", "peak_rss_mb", "rss_mb")}


def app(glossary: Path, cache: Path) -> dict[str, float]:
    began = time.monotonic()
    served = App(cache, glossary_paths=str(glossary))
    try:
        while served.ready().get("advice_sentences") != "ready":
            time.sleep(1)
        whole_s = time.monotonic() - began
        for n in range(LATENCY_ROUNDS):
            for question in QUESTIONS:
                reply = httpx.post(
                    f"{served.url}/api/answer", json={"question": f"{question} {n}"}, timeout=600
                )
                reply.raise_for_status()
        peak_mb, rss_mb = (status_mb(field, served.proc.pid) for field in ("VmHWM", "VmRSS"))
    finally:
        served.stop()
    return {"whole_s": whole_s, "peak_rss_mb": peak_mb, "rss_mb": rss_mb}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory", description=__doc__)
    parser.add_argument("--kept", type=Path, required=True, help="A folder benchmarks.deploy's --keep wrote.")
    parser.add_argument("--new", type=float, default=NEW_SHARE, help="Share of the stored vectors deleted.")
    parser.add_argument("--label", help="Record the run as memory_<label>.")
    parser.add_argument("--out", type=Path, default=DEPLOY_FILE)
    args = parser.parse_args(argv)
    glossary = args.kept / "big" / "generated.yaml"
    run: dict[str, object] = {
        "command": command_line("benchmarks.memory", argv),
        "when": stamp(),
        "load_average": round(os.getloadavg()[0], 1),
    }
    with tempfile.TemporaryDirectory(prefix="bench-memory-") as tmp:
        prepared = Path(tmp) / "prepared"
        run["deleted"] = prepare(args.kept / "big-cache", prepared, args.new)
        for name, measure in (("bot", bot), ("app", app)):
            cache = Path(tmp) / name
            shutil.copytree(prepared, cache)
            run.update({f"{name}_{key}": value for key, value in measure(glossary, cache).items()})
            print(name, {k: v for k, v in run.items() if k.startswith(name)}, flush=True)
    merge(args.out, {f"memory_{args.label}" if args.label else "memory": run})


if __name__ == "__main__":
    main()
