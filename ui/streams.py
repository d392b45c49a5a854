"""How many long-lived streams the app holds open: per client address, in total, and for how long idle.

Gradio's page holds two streams open per tab (``GET /gradio_api/heartbeat/<session>`` and the queue's
event stream), and nothing bounded them: anyone could open ``/gradio_api/heartbeat/<any>`` for ever,
and with ``ulimit -n 1024`` 1,100 of them took every file descriptor, so no one else was served and
asyncio logged every failed ``accept`` with its traceback (121 MB in 20 s).

``StreamLimits`` (ASGI middleware) counts the open streams of each client address and in all; one
beyond ``max_streams_per_client`` or ``max_streams`` gets HTTP 429 at once and its connection is
closed, so refused streams do not hold descriptors either. A stream whose client has sent no other
request for ``stream_idle_s`` is ended (a browser reconnects it when the page is used again; a
stream opened only to hold a descriptor is not). The client address is uvicorn's (behind a proxy it
trusts, ``FORWARDED_ALLOW_IPS``, the forwarded one). ``quiet_loop_errors`` makes the event loop log
each kind of error (such as "socket.accept() out of system resource") once per interval with a
count, not once per attempt.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import anyio
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.reply.messages import t

log = logging.getLogger(__name__)

#: Paths (after the mount prefix) of Gradio's long-lived streams.
STREAM_MARKERS = ("/heartbeat/", "/queue/data", "/stream/")
#: How often a stream checks whether its client has gone idle (seconds).
IDLE_CHECK_S = 1.0
#: The same event-loop error is logged at most once per this many seconds.
LOOP_ERROR_INTERVAL_S = 10.0
#: Client addresses whose last request time is kept (the least recently seen is forgotten first).
MAX_CLIENTS = 10_000


def is_stream(scope: Scope) -> bool:
    return (
        scope["type"] == "http"
        and scope["method"] == "GET"
        and any(m in scope["path"] for m in STREAM_MARKERS)
    )


class StreamLimits:
    """ASGI middleware: bounded open streams per client and in total, idle streams ended."""

    def __init__(self, app: ASGIApp, per_client: int, total: int, idle_s: float) -> None:
        self.app = app
        self.per_client = per_client
        self.total = total
        self.idle_s = idle_s
        self.open: Counter[str] = Counter()
        self.refused = 0
        self.ended_idle = 0
        self._seen: dict[str, float] = {}
        self._quiet = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self._quiet:  # the first call (uvicorn's lifespan) runs on the server's event loop
            quiet_loop_errors(asyncio.get_running_loop())
            self._quiet = True
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("unknown", 0))[0]
        if not is_stream(scope):
            self._touch(client)
            await self.app(scope, receive, send)
            return
        if self.open[client] >= self.per_client or sum(self.open.values()) >= self.total:
            self.refused += 1
            await JSONResponse(
                {"detail": t("limit_streams", "en", per_client=self.per_client, total=self.total)},
                429,
                headers={"Connection": "close", "Retry-After": "5"},
            )(scope, receive, send)
            return
        self._touch(client)
        with self._holding(client):
            await self._until_idle(client, scope, receive, send)

    @contextmanager
    def _holding(self, client: str) -> Iterator[None]:
        self.open[client] += 1
        try:
            yield
        finally:
            self.open[client] -= 1
            if not self.open[client]:
                del self.open[client]

    async def _until_idle(self, client: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the stream until it ends, or end it (an empty last chunk) once its client is idle."""
        started = False
        finished = False

        async def tracking(message: Message) -> None:
            nonlocal started, finished
            started = started or message["type"] == "http.response.start"
            finished = finished or (message["type"] == "http.response.body" and not message.get("more_body"))
            await send(message)

        async with anyio.create_task_group() as group:

            async def watch() -> None:
                while time.monotonic() - self._seen.get(client, 0.0) < self.idle_s:
                    await anyio.sleep(IDLE_CHECK_S)
                self.ended_idle += 1
                group.cancel_scope.cancel()

            group.start_soon(watch)
            await self.app(scope, receive, tracking)
            group.cancel_scope.cancel()
        if started and not finished:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    def _touch(self, client: str) -> None:
        self._seen.pop(client, None)
        self._seen[client] = time.monotonic()
        if len(self._seen) > MAX_CLIENTS:
            del self._seen[next(iter(self._seen))]


def quiet_loop_errors(loop: asyncio.AbstractEventLoop, interval_s: float = LOOP_ERROR_INTERVAL_S) -> None:
    """Log each kind of event-loop error at most once per ``interval_s``, counting the ones not logged
    (asyncio logs an ``accept`` that fails for want of descriptors on every retry, with its traceback)."""
    last: dict[str, float] = {}
    skipped: Counter[str] = Counter()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", "event loop error"))
        now = time.monotonic()
        if now - last.get(message, -interval_s) < interval_s:
            skipped[message] += 1
            return
        last[message] = now
        exc = context.get("exception")
        more = (
            f" ({skipped.pop(message)} more like it in the last {interval_s:g} s)" if skipped[message] else ""
        )
        log.error("%s: %s%s", message, f"{type(exc).__name__}: {exc}" if exc else "", more)

    loop.set_exception_handler(handler)
