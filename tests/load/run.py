"""``make bench-load``: the full load test against the app running as its own process on 127.0.0.1.

    python -m tests.load.run [--sessions 50] [--questions 20] [--vote-every 4]
    python -m tests.load.run --attackers 6 --sessions 10 --questions 8   # the mixed attack
    python -m tests.load.run --flood 100                                 # 100 long questions at once

Starts ``python app.py`` on a free loopback port with a temporary question store, waits until it
serves, runs the chat sessions of ``tests/load/harness.py`` against it, checks that every vote is
in the store exactly once, prints the figures and stops the app. Exits 0 only when there
was no error at all. Nothing but 127.0.0.1 is contacted. With ``--attackers N``: the mixed attack
(``harness.run_attack``) instead; it reports normal users' latency and 503s (no votes).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bot.records import Store
from bot.settings import Settings
from glossary import load_glossary
from tests.conftest import free_port
from tests.load.harness import feedback_errors, run_attack, run_flood, run_load, wait_until_recorded

REPO = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 600  # a first start converts the model and builds the index
#: What the app logs once Gradio's launch has returned. Gradio answers ``/config`` before that, while
#: its launch still fetches ``/`` to check itself: a test that floods the app's descriptors then made
#: that fetch fail (a traceback in the log) in one CI run in several.
SERVING_LINE = "ui.serve: serving "
#: The question length of issue 13's flood (600 Devanagari characters).
FLOOD_QUESTION_CHARS = 600


def _wait_until_serving(url: str, app: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if app.poll() is not None:
            tail = "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-20:])
            raise SystemExit(f"the app exited with code {app.returncode} before serving:\n{tail}")
        try:
            answers = httpx.get(f"{url}/config", timeout=5).status_code == 200
        except httpx.TransportError:
            answers = False
        if answers and SERVING_LINE in log.read_text(encoding="utf-8", errors="replace"):
            return
        time.sleep(1)
    raise SystemExit(f"the app did not serve within {START_TIMEOUT_S} s")


@contextmanager
def app_process(
    folder: Path, env: dict[str, str] | None = None, prelude: str = ""
) -> Iterator[tuple[str, subprocess.Popen, Path]]:
    """``python app.py`` on a free loopback port with its store in ``folder``, once it serves; yields
    (url, process, log file) and stops it (SIGTERM) at the end. ``prelude``: Python run first in the
    app's process (e.g. a resource limit); ``env`` adds or overrides environment variables."""
    port = free_port()
    environment = {
        **os.environ,
        "GLOSSARY_BOT_HOST": "127.0.0.1",
        "GLOSSARY_BOT_PORT": str(port),
        "GLOSSARY_BOT_DATABASE_URL": f"sqlite:///{folder}/records.sqlite3",
        **(env or {}),
    }
    command = [sys.executable, "app.py"]
    if prelude:
        run = "import runpy, sys; sys.argv = ['app.py']; runpy.run_path('app.py', run_name='__main__')"
        command = [sys.executable, "-c", f"{prelude}\n{run}"]
    log = folder / "app.log"
    with log.open("w") as out:
        app = subprocess.Popen(command, cwd=REPO, env=environment, stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_serving(url, app, log)
        yield url, app, log
    finally:
        if app.poll() is None:
            app.terminate()
            app.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--questions", type=int, default=20)
    parser.add_argument("--vote-every", type=int, default=4, help="vote on every n-th answer (0: never)")
    parser.add_argument("--flood", type=int, default=0, help="send this many long questions at once")
    parser.add_argument(
        "--attackers",
        type=int,
        default=None,
        help="long-question callers (the mixed attack; 0: its baseline)",
    )
    args = parser.parse_args(argv)

    settings = Settings()
    glossary = load_glossary(settings.glossary_paths or None)
    with tempfile.TemporaryDirectory() as tmp, app_process(Path(tmp)) as (url, _, _):
        database = f"sqlite:///{tmp}/records.sqlite3"
        if args.flood:
            print(run_flood(url, args.flood, FLOOD_QUESTION_CHARS))
            return 0
        if args.attackers is not None:
            attack = run_attack(url, glossary, args.attackers, args.sessions, args.questions)
            print(attack.summary())
            return 1 if attack.chat.errors or attack.api.errors else 0
        report = run_load(url, glossary, args.sessions, args.questions, args.vote_every)
        wait_until_recorded(url)
        errors = report.errors + feedback_errors(Store.open(database), report)
    print(report.summary())
    print(f"feedback: {len(report.votes)} votes sent, each recorded exactly once: {not errors}")
    for error in errors[:20]:
        print(f"  error: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
