"""The Gradio app over HTTP: one sequential client, then many concurrent ones (benchmarks.loadgen).

While measured, the bot's CachedEncoder is bypassed (the bare encoder is swapped in), so
repeated benchmark questions cost what new questions cost.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

from benchmarks.config import REPO
from benchmarks.profile import Breakdown, Spy
from benchmarks.stats import Dist
from bot.core import GlossaryBot
from ui.admission import Gate
from ui.api import AskBody
from ui.serve import serve

ClientKind = Literal["api", "rest", "gradio_client"]


class Load(BaseModel):
    backend: str
    client: ClientKind
    queue_limit: str
    clients: int
    completed: int
    errors: int
    error_samples: list[str]
    elapsed_s: float
    latency: Dist
    handler: Dist
    handler_cpu: Dist
    client_cpu_share: float
    server_profile: Breakdown | None = None

    @property
    def throughput(self) -> float:
        return self.completed / self.elapsed_s if self.elapsed_s else 0.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def uncached(bot: GlossaryBot) -> Iterator[None]:
    cached = bot.retriever.encoder
    bot.retriever.encoder = cached.inner
    try:
        yield
    finally:
        bot.retriever.encoder = cached


class Handler:
    """Times ``GlossaryBot.answer`` inside the server. It wraps the method on the class, not on the
    served instance: the chat and /ask answer with ``GlossaryBot.pinned()``, a new instance per
    question, which an instance attribute would miss (their rows read nan)."""

    def __init__(self) -> None:
        self.ms: list[float] = []
        self.cpu_ms: list[float] = []

    def wrap(self, answer: Callable[..., object]) -> Callable[..., object]:
        def timed(*args: object, **kwargs: object) -> object:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return answer(*args, **kwargs)
            finally:
                self.cpu_ms.append((time.thread_time() - cpu) * 1000)
                self.ms.append((time.perf_counter() - start) * 1000)

        return timed

    def take(self) -> tuple[list[float], list[float]]:
        """(wall ms, this thread's CPU ms) of the calls since the last take."""
        taken = self.ms, self.cpu_ms
        self.ms, self.cpu_ms = [], []
        return taken


@contextmanager
def served(bot: GlossaryBot, limit: int | None, store_dir: Path) -> Iterator[tuple[str, Handler]]:
    """``ui.serve.serve`` on 127.0.0.1, with its concurrency limit (None) or another one; questions are
    recorded in a store in ``store_dir``."""
    port = free_port()
    update = {"host": "127.0.0.1", "port": port, "database_url": f"sqlite:///{store_dir}/records.sqlite3"}
    if limit is not None:
        update["concurrency_limit"] = update["api_concurrency_limit"] = limit
    demo = serve(bot, bot.settings.model_copy(update=update), prevent_thread_lock=True, quiet=True)
    handler = Handler()
    answer = GlossaryBot.answer
    GlossaryBot.answer = handler.wrap(answer)  # type: ignore[method-assign,assignment]
    try:
        with uncached(bot):
            yield f"http://127.0.0.1:{port}/", handler
    finally:
        GlossaryBot.answer = answer  # type: ignore[method-assign]
        demo.close()


@contextmanager
def echo_app(limit: int = 4) -> Iterator[str]:
    """The framework alone: Gradio's /ask and a plain /api/answer route that return the question,
    served and limited like ui.serve.serve. The HTTP floor of each client kind."""
    import gradio as gr
    from fastapi.routing import APIRoute

    def ask(question: str) -> str:
        return question

    gate = Gate(limit, 64)

    async def answer(body: AskBody) -> dict:
        return await gate.run(lambda: {"text": body.question})

    with gr.Blocks(analytics_enabled=False) as demo:
        gr.api(ask, api_name="ask")
    demo.queue(default_concurrency_limit=limit, max_size=64)
    port = free_port()
    demo.launch(
        server_name="127.0.0.1",
        server_port=port,
        prevent_thread_lock=True,
        quiet=True,
        app_kwargs={"routes": [APIRoute("/api/answer", answer, methods=["POST"])]},
    )
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        demo.close()


def calls_per_second(
    call: Callable[[str], object], queries: list[str], threads: int, seconds: float
) -> float:
    """``call(question)`` from ``threads`` threads at once for ``seconds``: completed calls per second."""
    done = [0] * threads
    deadline = time.perf_counter() + seconds

    def work(slot: int) -> None:
        i = slot
        while time.perf_counter() < deadline:
            call(queries[i % len(queries)])
            done[slot] += 1
            i += threads

    pool = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    start = time.perf_counter()
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sum(done) / (time.perf_counter() - start)


def encoder_throughput(bot: GlossaryBot, queries: list[str], threads: int, seconds: float) -> float:
    """Bare encoder calls per second, one thread per core: the floor of concurrency measured now
    (the ideal, cores ÷ floor, assumes cores that nobody else is using)."""
    encoder = bot.encoder.inner
    return calls_per_second(lambda q: encoder.encode_queries([q]), queries, threads, seconds)


def thread_scaling(
    bot: GlossaryBot, queries: list[str], counts: list[int], seconds: float
) -> dict[int, float]:
    """bot.answer per second (new questions) from N threads, no HTTP: what a queue limit of N can give."""
    with uncached(bot):
        return {n: calls_per_second(bot.answer, queries, n, seconds) for n in counts}


def run_load(
    url: str,
    queries: list[str],
    kind: ClientKind,
    *,
    clients: int,
    seconds: float = 0.0,
    requests: int = 0,
    profile_to: Path | None = None,
) -> tuple[dict, Breakdown | None]:
    """Drive the app from a loadgen process; optionally py-spy this (the server) process meanwhile."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
        json.dump(queries, fh, ensure_ascii=False)
    cmd = [sys.executable, "-m", "benchmarks.loadgen", kind, url, fh.name]
    cmd += [str(clients), str(seconds), str(requests)]
    spy = Spy(os.getpid(), profile_to) if profile_to else None
    try:
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=True, timeout=900)
    finally:
        Path(fh.name).unlink(missing_ok=True)
        if spy:
            spy.proc.send_signal(signal.SIGINT)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result, spy.result(len(result["latencies_ms"])) if spy else None


def load(
    backend: str,
    kind: ClientKind,
    limit: str,
    clients: int,
    raw: dict,
    handler_ms: tuple[list[float], list[float]],
    cores: int,
    profile: Breakdown | None = None,
) -> Load:
    return Load(
        backend=backend,
        client=kind,
        queue_limit=limit,
        clients=clients,
        completed=len(raw["latencies_ms"]),
        errors=raw["errors"],
        error_samples=raw["error_samples"],
        elapsed_s=raw["elapsed_s"],
        latency=Dist.of(raw["latencies_ms"]),
        handler=Dist.of(handler_ms[0]),
        handler_cpu=Dist.of(handler_ms[1]),
        client_cpu_share=raw["cpu_s"] / (raw["elapsed_s"] * cores) if raw["elapsed_s"] else 0.0,
        server_profile=profile,
    )
