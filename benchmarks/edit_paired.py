"""``python -m benchmarks.edit_paired``: a one-entry edit of a big glossary, this checkout against a git ref.

On a shared machine an absolute time says more about the neighbours than about the code, so the two
are measured in turns under the same load: each round edits one more entry's definition, then times
``GlossaryBot.load`` in a new process with the ref's code and with this checkout's (the order
alternates between rounds), each on its own copy of ``--cache``, a cache in which ``--glossary`` was
built once: ``--prepare 5000`` writes it (``benchmarks.generated``'s generator with same texts, so each
text is encoded once) and builds it there, then exits. Prints one JSON line per load and a summary;
``--record SECTION`` also merges the summary, with the command, time and load average, into
``--out`` (default ``benchmarks/DEPLOY.json``) under that name.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

from benchmarks.config import REPO
from benchmarks.deploy import DEPLOY_FILE, command_line, merge, stamp
from benchmarks.generated import generate

#: What the child process runs: the bot's load with the code on the front of sys.path.
CHILD = """
import json, sys, time
code, cache, glossary = sys.argv[1:4]
sys.path.insert(0, code)
import bot
assert bot.__file__.startswith(code), bot.__file__
from bot.core import GlossaryBot
from bot.settings import Settings
began = time.perf_counter()
GlossaryBot.load(Settings(glossary_paths=[glossary], cache_dir=cache))
print(json.dumps({"load_s": time.perf_counter() - began}))
"""


def _load_s(code: Path, cache: Path, glossary: Path) -> float:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "HF_HUB_OFFLINE": "1", "TQDM_DISABLE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(code), str(cache), str(glossary)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(json.loads(done.stdout.strip().splitlines()[-1])["load_s"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.edit_paired", description=__doc__)
    parser.add_argument("--ref", default="main", help="The git ref to compare with.")
    parser.add_argument("--cache", type=Path, required=True, help="A cache the glossary was built in.")
    parser.add_argument("--glossary", type=Path, required=True, help="The glossary file (edited in place).")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--record", help="Merge the summary into --out under this section name.")
    parser.add_argument("--prepare", type=int, help="Write a glossary of this many entries, build it, exit.")
    parser.add_argument("--out", type=Path, default=DEPLOY_FILE)
    args = parser.parse_args(argv)
    if args.prepare:
        _prepare(args.prepare, args.cache, args.glossary)
        return
    began = stamp()
    with tempfile.TemporaryDirectory(prefix="edit-paired-") as tmp:
        work = Path(tmp)
        ref_code = work / "ref"
        ref_code.mkdir()
        archive = subprocess.run(["git", "archive", args.ref], cwd=REPO, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(ref_code)], input=archive.stdout, check=True)
        sides = {args.ref: ref_code, "this checkout": REPO}
        caches = {name: work / f"cache-{i}" for i, name in enumerate(sides)}
        for cache in caches.values():
            shutil.copytree(args.cache, cache)
        doc = yaml.safe_load(args.glossary.read_text(encoding="utf-8"))
        times: dict[str, list[float]] = {name: [] for name in sides}
        for n in range(args.rounds):
            doc["entries"][n]["definition_en"] += f" Edited ({n}) for the benchmark."
            args.glossary.write_text(
                yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8"
            )
            for name in list(sides)[:: 1 if n % 2 == 0 else -1]:
                times[name].append(_load_s(sides[name], caches[name], args.glossary))
                print(json.dumps({"round": n, "code": name, "load_s": times[name][-1]}), flush=True)
    summary = {name: statistics.median(ts) for name, ts in times.items()}
    print(json.dumps({"median_load_s": summary, "load_average": os.getloadavg()[0]}))
    if args.record:
        command = command_line("benchmarks.edit_paired", argv)
        merge(args.out, {args.record: _recorded(command, began, args.ref, times)})


def _prepare(entries: int, cache: Path, glossary: Path) -> None:
    """The glossary the rounds edit, built once in ``cache`` (what each round's copy starts from)."""
    from bot.core import GlossaryBot
    from bot.settings import Settings

    generate(entries, glossary.parent, same_texts=True).replace(glossary)
    GlossaryBot.load(Settings(glossary_paths=[glossary], cache_dir=cache))


def _recorded(command: str, began: str, ref: str, times: dict[str, list[float]]) -> dict[str, object]:
    """The paired loads and their medians, as DEPLOY.json records them (the README quotes them)."""
    ref_s, checkout_s = times[ref], times["this checkout"]
    return {
        "command": command,
        "when": began,
        "load_average": round(os.getloadavg()[0], 1),
        "ref": ref,
        "ref_s": ref_s,
        "checkout_s": checkout_s,
        "ref_median_s": statistics.median(ref_s),
        "checkout_median_s": statistics.median(checkout_s),
        "ratio": statistics.median(ref_s) / statistics.median(checkout_s),
    }


if __name__ == "__main__":
    main()
