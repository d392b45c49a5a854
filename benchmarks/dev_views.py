"""The dev views that ``make eval`` judges, for the benchmarks that run after it on its views folder
(``benchmarks.lovo``, ``benchmarks.frames``, ``benchmarks.courtesy``), and how they take their arguments,
pool their counts and record figures."""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from bot.settings import Settings
from glossary import Glossary, load_glossary
from glossary.files import atomic_write

DEV = Path("../shared/eval/dev.jsonl")
CNCF = Path("../shared/eval/foreign/cncf-hi")


def views(folder: Path) -> dict[str, tuple[Settings, Path, bool]]:
    """Each dev view: its settings, its questions, and whether the borrowed rows were made from it."""

    def written(name: str, made_from_it: bool) -> tuple[Settings, Path, bool]:
        return (
            Settings(glossary_paths=[folder / name / "glossary.yaml"]),
            folder / name / "queries.jsonl",
            made_from_it,
        )

    return {
        "bundled": (Settings(), DEV, True),
        "bundled-no-extras": (Settings(project_extras=False), DEV, True),
        "bundled-en": written("bundled-en", True),
        "bundled-hi": written("bundled-hi", True),
        "cncf-hi": (Settings(glossary_paths=[CNCF / "glossary.yaml"]), CNCF / "queries.jsonl", False),
        "cncf-hi-en": written("cncf-hi-en", False),
        "cncf-hi-hi": written("cncf-hi-hi", False),
    }


def field(view: str) -> str:
    """The dev glossary a view was made from: "bundled" or "cncf"."""
    return "cncf" if view.startswith("cncf") else "bundled"


@cache
def source(name: str) -> Glossary:
    """A dev glossary (``field``) as a user's file has it, bilingual: the bundled one without the
    project's paraphrases and aliases, or CNCF's."""
    if name == "cncf":
        return load_glossary([CNCF / "glossary.yaml"])
    return load_glossary().without_project_extras()


def arguments(doc: str) -> argparse.Namespace:
    """``--views`` (make eval's views folder) and ``--out``, for a benchmark described by ``doc``."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "--views", type=Path, default=Path(".cache/eval/views"), help="make eval's views folder"
    )
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    return parser.parse_args()


def record(out: Path, module: str, **figures: object) -> None:
    """Write ``figures`` to ``out`` with the command that made them, when, and the machine's load."""
    result = {
        "command": " ".join([f"python -m {module}", *sys.argv[1:]]),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_average_1m": round(os.getloadavg()[0], 2),
        **figures,
    }
    atomic_write(out, (json.dumps(result, indent=1, ensure_ascii=False) + "\n").encode())


def pooled(runs: dict[str, dict[str, dict[str, int]]]) -> dict[str, dict[str, int]]:
    """Counts per row (a frame, a wrapper) summed over the views."""
    total: dict[str, dict[str, int]] = {}
    for counts in runs.values():
        for row, count in counts.items():
            into = total.setdefault(row, dict.fromkeys(count, 0))
            for key, n in count.items():
                into[key] += n
    return total
