"""``python -m benchmarks.deploy``: what a deployment waits for, each figure from new processes.

1. start: ``python app.py`` to its first answer (``POST /api/answer``) on an empty cache (a fresh
   Space) and again on the cache that start left (a warm restart);
2. edit: a one-entry edit of a copy of the CNCF glossary (benchmark filler text; nothing is tuned on
   it) until it is searchable, from the CLI and in the running app (its watcher; ``/readyz`` names
   the glossary hash served);
3. big: a glossary of ``--entries`` entries (default 5,000, the entry limit) generated at run time
   from the bundled and CNCF entries, each copy's texts made distinct: its first build in the app's
   order (searchable once the index and calibration are built, whole once the advice sentences are
   added) and peak memory, query latency, a one-entry edit rebuilt whole (``GlossaryBot.load``) and
   another until searchable (without sentences, as the CLI's ``search`` and the app's reload), and
   build encoding speed on 1 and 2 threads;
4. first: a team's first build, whole process (``glossary-bot --glossary G search`` on an empty
   cache), against its floor measured in the same run: a new process that loads the encoder and
   encodes one ``term: definition`` text per entry (what the plainest index of the glossary costs),
   each ``ROUNDS`` times in turns; for the CNCF glossary and each file of ``--first`` (e.g. a CSV);
5. throughput: a build's encoding against the bare batch encoding of the backend it encodes with
   (``index.bulk``), on the same texts (the CNCF index texts, both prompts) in one child process,
   ``ROUNDS`` times in turns: the build's way (``BuildEncoder``: a new embedding store, each distinct
   text once, length-sorted batches of ``BUILD_BATCH``, every vector stored) and that backend called
   once per prompt with every text;
6. edits: ``EDIT_ROUNDS`` one-entry edits of a glossary already built in a cache (``--glossary``,
   ``--cache``: the ``big`` section's, kept with ``--keep``), each rebuilt in a new process whole
   (``GlossaryBot.load``) and, after another, until searchable (no advice sentences).

Results are merged into ``--out`` (default ``benchmarks/DEPLOY.json``), each section with the command,
time and load average of its run (``--label`` names it ``<section>_<label>``); ``make bench`` runs it
after the suite.
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
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import httpx
import yaml

from benchmarks.config import REPO
from benchmarks.deploy_modes import QUESTIONS, ROUNDS, child
from benchmarks.generated import CNCF, generate
from bot.settings import ENV_PREFIX

#: Where deployment figures are recorded (the README quotes them; tests/test_readme_figures.py checks).
DEPLOY_FILE = REPO / "benchmarks" / "DEPLOY.json"
ENTRY_LIMIT = 5000
#: How long one start or build may take before the benchmark gives up on it.
TIMEOUT_S = 4 * 3600
POLL_S = 0.1
#: One-entry edits of each kind in the edits section.
EDIT_ROUNDS = 3
#: What the benchmark's edit appends to one definition.
EDIT = " Edited for the benchmark."


def _env(cache: Path, **settings: str) -> dict[str, str]:
    """The child's environment: every cache in ``cache`` (an embedding store set elsewhere would make
    a first build warm)."""
    env = {k: v for k, v in os.environ.items() if k != "GLOSSARY_BOT_EMBEDDING_STORE"}
    env.update({"GLOSSARY_BOT_CACHE_DIR": str(cache), "TQDM_DISABLE": "1", "HF_HUB_OFFLINE": "1"})
    env.update({f"GLOSSARY_BOT_{k.upper()}": v for k, v in settings.items()})
    return env


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class App:
    """``python app.py`` in a child process on a free port."""

    def __init__(self, cache: Path, **settings: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = _env(cache, host="127.0.0.1", port=str(self.port), **settings)
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "app.py"],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def ready(self) -> dict:
        while time.monotonic() - self.started < TIMEOUT_S:
            if self.proc.poll() is not None:
                raise RuntimeError(f"app.py exited with {self.proc.returncode}")
            try:
                reply = httpx.get(f"{self.url}/readyz")
                if reply.status_code == 200:
                    return reply.json()
            except httpx.TransportError:
                pass
            time.sleep(POLL_S)
        raise TimeoutError("the app did not get ready")

    def first_answer_s(self) -> float:
        self.ready()
        httpx.post(f"{self.url}/api/answer", json={"question": QUESTIONS[1]}, timeout=600).raise_for_status()
        return time.monotonic() - self.started

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=60)


def start(work: Path) -> dict[str, float]:
    cache = work / "start-cache"
    out = {}
    for kind in ("fresh", "warm"):
        app = App(cache)
        try:
            out[f"{kind}_s"] = app.first_answer_s()
        finally:
            app.stop()
    return out


def _edit(path: Path) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["entries"][0]["definition_en"] += EDIT
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _cli_search(glossary: Path, cache: Path) -> float:
    began = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "bot.cli", "--glossary", str(glossary), "search", QUESTIONS[0], "--k", "1"],
        cwd=REPO,
        env=_env(cache),
        check=True,
        capture_output=True,
        timeout=TIMEOUT_S,
    )
    return time.monotonic() - began


def edit(work: Path) -> dict[str, float]:
    """One-entry edit of the CNCF glossary: CLI (process start to answer) and app (save to served)."""
    cache = work / "edit-cache"
    glossary = work / "cncf" / "glossary.yaml"
    glossary.parent.mkdir(parents=True)
    shutil.copy(CNCF, glossary)
    out = {"full_build_cli_s": _cli_search(glossary, cache)}
    _edit(glossary)
    out["one_entry_edit_cli_s"] = _cli_search(glossary, cache)
    app = App(cache, glossary_paths=json.dumps([str(glossary)]))
    try:
        served = app.ready()["glossary"]
        _edit(glossary)
        saved = time.monotonic()
        while app.ready()["glossary"] == served:
            if time.monotonic() - saved > TIMEOUT_S:
                raise TimeoutError("the edit was never served")
            time.sleep(POLL_S)
        out["one_entry_edit_app_s"] = time.monotonic() - saved
    finally:
        app.stop()
    return out


def _child(*args: str, cache: Path, **settings: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.deploy", "--child", *args],
        cwd=REPO,
        env=_env(cache, **settings),
        check=True,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def big(work: Path, entries: int, same_texts: bool = False, keep: Path | None = None) -> dict[str, float]:
    glossary = generate(entries, work / "big", same_texts)
    cache = work / "big-cache"
    out = {"entries": entries, "same_texts": same_texts, **_child("app", str(glossary), cache=cache)}
    out["one_entry_rebuild_s"] = _edited_s(glossary, cache, "load")
    out["one_entry_searchable_s"] = _edited_s(glossary, cache, "search")
    if keep is not None:
        shutil.copytree(glossary.parent, keep / "big", dirs_exist_ok=True)
        shutil.copytree(cache, keep / "big-cache", dirs_exist_ok=True)
    for threads in (1, 2):
        out[f"texts_per_s_{threads}_threads"] = _child("speed", str(glossary), str(threads), cache=cache)[
            "rate"
        ]
    return out


def _edited_s(glossary: Path, cache: Path, mode: str) -> float:
    """One more entry edited, then the bot loaded in a new process (``child``'s ``mode``): its load."""
    _edit(glossary)
    return _child(mode, str(glossary), cache=cache)["load_s"]


def edits(glossary: Path, cache: Path) -> dict[str, object]:
    whole: list[float] = []
    searchable: list[float] = []
    for _ in range(EDIT_ROUNDS):
        whole.append(_edited_s(glossary, cache, "load"))
        searchable.append(_edited_s(glossary, cache, "search"))
    return {
        "whole_s": whole,
        "searchable_s": searchable,
        "whole_median_s": statistics.median(whole),
        "searchable_median_s": statistics.median(searchable),
    }


def _floor_s(glossary: Path, cache: Path) -> float:
    began = time.monotonic()
    _child("floor", str(glossary), cache=cache)
    return time.monotonic() - began


def first(work: Path, extra: list[Path]) -> dict[str, dict[str, object]]:
    """A first build from an empty cache against its floor, in turns, for CNCF and each ``extra`` file."""
    out: dict[str, dict[str, object]] = {}
    for n, glossary in enumerate([CNCF, *extra]):
        builds, floors = [], []
        for r in range(ROUNDS):
            builds.append(_cli_search(glossary, work / f"first-{n}-{r}"))
            floors.append(_floor_s(glossary, work / f"floor-{n}-{r}"))
        build, floor = statistics.median(builds), statistics.median(floors)
        out["cncf" if glossary == CNCF else glossary.name] = {
            "file": glossary.name,
            "build_s": builds,
            "floor_s": floors,
            "build_median_s": build,
            "floor_median_s": floor,
            "ratio": build / floor,
        }
    return out


def throughput(work: Path) -> dict[str, object]:
    """Texts per second of a build's encoding and of the bare encoder, and their ratio (medians)."""
    out = _child("throughput", str(CNCF), cache=work / "throughput-cache")
    build, bare = statistics.median(out["build_per_s"]), statistics.median(out["bare_per_s"])
    return {**out, "build_median_per_s": build, "bare_median_per_s": bare, "ratio": build / bare}


def stamp() -> str:
    """When a recorded run began, as DEPLOY.json writes it."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def command_line(module: str, argv: list[str] | None) -> str:
    """The command a recorded run was started with (what the README names beside its figures), after
    the app's settings set in the environment, which its child processes read too."""
    settings = [f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith(ENV_PREFIX)]
    return " ".join([*settings, f"python -m {module}", *(argv if argv is not None else sys.argv[1:])])


def merge(out: Path, runs: Mapping[str, object]) -> None:
    """Record ``runs`` (section name -> its figures) in ``out``, keeping every other section."""
    results = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    results.update(runs)
    out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"written: {out}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.deploy", description=__doc__)
    parser.add_argument("--entries", type=int, default=ENTRY_LIMIT, help="Size of the generated glossary.")
    parser.add_argument(
        "--sections",
        default="start,edit,big,first,throughput",
        help="Comma-separated: start, edit, big, first, throughput, edits.",
    )
    parser.add_argument("--keep", type=Path, help="Big: copy its glossary and cache here when it is built.")
    parser.add_argument("--glossary", type=Path, help="Edits: a glossary already built in --cache.")
    parser.add_argument("--cache", type=Path, help="Edits: the cache --glossary was built in.")
    parser.add_argument(
        "--same-texts",
        action="store_true",
        help="Big: copies share their texts (each encoded once): the rebuild path at full size in minutes.",
    )
    parser.add_argument("--first", type=Path, nargs="*", default=[], help="First: files besides CNCF.")
    parser.add_argument("--label", help="Record each section as <section>_<label>.")
    parser.add_argument("--out", type=Path, default=DEPLOY_FILE)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if "edits" in args.sections.split(",") and not (args.glossary and args.cache):
        parser.error("the edits section needs --glossary and --cache")
    if args.child:
        mode, glossary, *rest = args.child
        print(json.dumps(child(mode, Path(glossary), *(int(r) for r in rest))))
        return
    results: dict[str, object] = {}
    command = command_line("benchmarks.deploy", argv)
    with tempfile.TemporaryDirectory(prefix="bench-deploy-") as tmp:
        work = Path(tmp)
        sections: dict[str, Callable[[Path], Mapping[str, object]]] = {
            "start": start,
            "edit": edit,
            "big": lambda w: big(w, args.entries, args.same_texts, args.keep),
            "edits": lambda w: edits(args.glossary, args.cache),
            "first": lambda w: first(w, args.first),
            "throughput": throughput,
        }
        for section in args.sections.split(","):
            began = time.monotonic()
            run = {
                "command": command,
                "when": stamp(),
                "load_average": round(os.getloadavg()[0], 1),
                **sections[section](work),
            }
            results[f"{section}_{args.label}" if args.label else section] = run
            print(f"{section} ({time.monotonic() - began:.0f} s): {json.dumps(run)}", flush=True)
    merge(args.out, results)


if __name__ == "__main__":
    main()
