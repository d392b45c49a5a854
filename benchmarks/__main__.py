"""``python -m benchmarks [--smoke] [--scale-only] [--out DIR]``: run, print the table, write RESULTS.md."""

from __future__ import annotations

import argparse
import json
import logging
import os
import tempfile
from pathlib import Path

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks import report, runner  # after the offline switches above
from benchmarks.config import BenchConfig
from benchmarks.results import Results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="Tiny sizes: every code path once.")
    parser.add_argument(
        "--scale-only", action="store_true", help="Only the index scale section, with HNSW up to 1M."
    )
    parser.add_argument("--out", type=Path, default=None, help="Folder for RESULTS.md and plots.")
    parser.add_argument("--render", type=Path, help="Only rewrite RESULTS.md (and plots) from its JSON.")
    parser.add_argument(
        "--set", action="append", default=[], metavar="FIELD=JSON", help="Override a setting."
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if args.render:
        results = Results.model_validate_json(args.render.read_text(encoding="utf-8"))
        path = runner.write(results, args.render.parent, args.render.with_suffix(".md").name)
        print(f"written: {path}")
        return
    if args.smoke:
        cfg = BenchConfig.smoke(args.out or Path(tempfile.mkdtemp(prefix="bench-smoke-")))
    else:
        cfg = BenchConfig(**({"out_dir": args.out} if args.out else {}))
    overrides = dict(item.split("=", 1) for item in args.set)
    cfg = BenchConfig.model_validate({**cfg.model_dump(), **{k: json.loads(v) for k, v in overrides.items()}})
    name = "RESULTS.md"
    if args.scale_only:
        cfg = cfg.model_copy(update={"sections": ["scale"], "hnsw_max": max(cfg.scale_sizes)})
        name = "RESULTS-scale.md"
    results = runner.run(cfg)
    path = runner.write(results, cfg.out_dir, name)
    print(report.console(results))
    print(f"\nwritten: {path}")


if __name__ == "__main__":
    main()
