"""Where the time goes: profiles folded into project modules (pyinstrument in-thread, py-spy per process)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from pydantic import BaseModel

ENCODER_PACKAGE = "index/encoders/"
PROJECT = re.compile(r"(^|/)((bot|index|glossary)/\w+\.py|app\.py)$")
SERVER = re.compile(
    r"(^|/)(gradio|fastapi|starlette|uvicorn|anyio|asyncio|httpx|httpcore|h11|sse_starlette)/"
)
#: Leaf frames of a thread that waits (py-spy samples idle threads too): not time spent working.
IDLE = re.compile(
    r"^(Condition\.wait|Event\.wait|\w*Selector\.select|select|poll|sleep|Queue\.get|_worker|"
    r"lock\.acquire|_wait_for_tstate_lock|Thread\.join|)$"
)
_SPY_FRAME = re.compile(r"^(?P<func>.*) \((?P<file>.*):\d+\)$")


class Breakdown(BaseModel):
    """Time per category (a project module, the encoder, the server stack), per call, in ms."""

    calls: int
    total_ms: float
    per_call_ms: dict[str, float]
    top_functions: list[tuple[str, float]]


def category(files: Iterable[str]) -> str:
    """The encoder if it is on the stack, else the innermost project module, else the library kind."""
    project, server = None, False
    for path in files:
        if "site-packages" in path:
            server = server or bool(SERVER.search(path.split("site-packages/")[-1]))
            continue
        if ENCODER_PACKAGE in path:
            return "encoder"
        found = PROJECT.search(path)
        project = found.group(2) if found else project
        server = server or bool(SERVER.search(path))
    return project or ("server stack (gradio/uvicorn/anyio)" if server else "other")


def _breakdown(samples: list[tuple[list[tuple[str, str]], float]], calls: int) -> Breakdown:
    per_cat: Counter[str] = Counter()
    per_fn: Counter[str] = Counter()
    for stack, ms in samples:
        if not stack or IDLE.match(stack[-1][0]):
            continue
        cat = category(f for _, f in stack)
        per_cat[cat] += ms
        if cat != "encoder" and stack:
            func, path = stack[-1]
            per_fn[f"{func} ({Path(path).name})"] += ms
    calls = max(calls, 1)
    return Breakdown(
        calls=calls,
        total_ms=sum(per_cat.values()),
        per_call_ms={k: v / calls for k, v in per_cat.most_common()},
        top_functions=[(k, v / calls) for k, v in per_fn.most_common(8)],
    )


def profile_calls(fn: Callable[[str], object], inputs: list[str]) -> Breakdown:
    """pyinstrument over ``fn(x)`` for each input, in this thread."""
    from pyinstrument import Profiler

    profiler = Profiler(interval=0.0005)
    profiler.start()
    for x in inputs:
        fn(x)
    session = profiler.stop()
    samples: list[tuple[list[tuple[str, str]], float]] = []

    def walk(frame, stack: list[tuple[str, str]]) -> None:
        if not frame.is_synthetic:  # "[self]" and the like: time of the enclosing function
            stack = [*stack, (frame.function or "?", frame.file_path or "")]
        own = frame.time - sum(c.time for c in frame.children)
        if own > 0:
            samples.append((stack, own * 1000))
        for child in frame.children:
            walk(child, stack)

    root = session.root_frame()
    if root is not None:
        walk(root, [])
    return _breakdown(samples, len(inputs))


class Spy:
    """py-spy sampling a process (all threads) until SIGINT; ``result(calls)`` folds the samples."""

    RATE = 250

    def __init__(self, pid: int, out: Path) -> None:
        self.out = out
        cmd = [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid), "--format", "raw"]
        cmd += ["--rate", str(self.RATE), "--nonblocking", "-o", str(out)]  # never pause the server
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def result(self, calls: int) -> Breakdown | None:
        self.proc.wait(timeout=120)
        try:
            lines = self.out.read_text(encoding="utf-8").splitlines()
        except OSError:
            return None  # py-spy could not attach (no ptrace here): no server profile
        samples = []
        for line in lines:
            stack_text, _, count = line.rpartition(" ")
            stack = []
            for frame in stack_text.split(";"):
                m = _SPY_FRAME.match(frame)
                stack.append((m["func"], m["file"]) if m else (frame, ""))
            samples.append((stack, int(count) * 1000 / self.RATE))
        return _breakdown(samples, calls) if samples else None
