"""What one HTTP client may cost the server: the size of a request, the time it takes to send it, files.

Before these limits a 200 MB ``POST /api/answer`` body was read whole (860 MB of memory) and its 422
echoed 52 MB back, ``/gradio_api/upload`` kept any file anyone sent (the app has no file inputs), and
a client that opened a connection and never finished its headers held it for ever (slowloris).

``RequestLimits`` (ASGI middleware, in front of every route): refuses uploads, answers 413 to a body
over ``max_request_kb`` (by its ``Content-Length`` before passing it on, or as soon as the bytes read
pass the limit) and 408 to a body not sent within ``request_timeout_s``. The 413 is readable: the
rest of the body is read and dropped first, up to ``DISCARD_FACTOR`` times the limit (a client
that sent ``Expect: 100-continue`` gets it before sending anything); before, urllib's 3 MB body
met a closed connection (``BrokenPipeError``) and never saw the status. ``without_input`` makes
validation errors name the field without echoing what was sent. ``SlowClientReaper`` closes
connections that have not sent a complete request head within ``request_timeout_s``: uvicorn has
no such timeout, and the headers arrive before any ASGI code runs.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import anyio
import h11
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.reply.messages import t

log = logging.getLogger(__name__)

KB = 1024
#: Methods whose body is read (and limited) before the route runs.
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
#: Gradio's upload route (``/gradio_api/upload``), which this app never needs.
UPLOAD_SUFFIX = "/upload"
#: A body over the limit is still read (and dropped) up to this many times the limit, so that the
#: client reads the 413: urllib and requests send the whole body before they read any reply.
DISCARD_FACTOR = 8
#: How often the reaper looks at the open connections (a fraction of the timeout it enforces).
REAPER_TICKS_PER_TIMEOUT = 4


class RequestLimits:
    """ASGI middleware: no uploads, bounded request bodies, bounded time to send one."""

    def __init__(self, app: ASGIApp, max_request_kb: int, request_timeout_s: float) -> None:
        self.app = app
        self.max_bytes = max_request_kb * KB
        self.timeout_s = request_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        if scope["path"].endswith(UPLOAD_SUFFIX):
            await _refuse(send, 403, t("limit_no_uploads", "en"))
            return
        headers = dict(scope["headers"])
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            # A client that asked "100-continue" sends nothing before our answer; one that declared no
            # more than the discard bound is read to the end, so it is listening when the 413 comes.
            waits = headers.get(b"expect", b"").lower() == b"100-continue"
            if not waits and int(declared) <= self.max_bytes * DISCARD_FACTOR:
                await self._discard(receive)
            await _refuse(send, 413, self._too_large())
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        try:
            with anyio.fail_after(self.timeout_s):
                while more:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    more = message.get("more_body", False)
                    if size > self.max_bytes:
                        if more:
                            await self._discard(receive, size)
                        await _refuse(send, 413, self._too_large())
                        return
                    chunks.append(chunk)
        except TimeoutError:
            await _refuse(send, 408, t("limit_too_slow", "en", seconds=f"{self.timeout_s:g}"))
            return
        await self.app(scope, replay_body(b"".join(chunks), receive), send)

    async def _discard(self, receive: Receive, size: int = 0) -> None:
        """Read and drop the rest of a body, up to ``DISCARD_FACTOR`` times the limit and within the
        time limit: a client that sends its whole body before it reads (urllib, requests) then reads
        the 413 instead of a broken pipe. Beyond either bound the connection is closed as it stands."""
        with anyio.move_on_after(self.timeout_s):
            while size <= self.max_bytes * DISCARD_FACTOR:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                size += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return

    def _too_large(self) -> str:
        return t("limit_too_large", "en", kb=self.max_bytes // KB)


def replay_body(body: bytes, receive: Receive) -> Receive:
    """The body already read, as one message; then whatever the connection says next (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _refuse(send: Send, status: int, detail: str) -> None:
    await JSONResponse({"detail": detail}, status, headers={"Connection": "close"})(
        {"type": "http"}, _nothing, send
    )


async def _nothing() -> Message:
    return {"type": "http.disconnect"}


async def without_input(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 for a bad request, naming each field and problem, without echoing what was sent
    (the default handler puts every bad value back in the reply: 52 MB for a 200 MB body)."""
    errors: list[dict[str, Any]] = []
    if isinstance(exc, RequestValidationError):
        errors = [{key: e.get(key) for key in ("loc", "msg", "type")} for e in exc.errors()]
    return JSONResponse({"detail": errors}, 422)


class SlowClientReaper(threading.Thread):
    """Closes connections that have not sent a complete request head within ``timeout_s``.

    It looks at uvicorn's open connections a few times per timeout; a connection waiting for a
    request (h11 state IDLE on the client's side) is timed from the first look that finds it so
    *after its last request* (uvicorn's ``cycle``): a keep-alive client that asks every few tenths of
    a second is IDLE at most looks, and timing it by connection alone closed it under a request in
    flight ("Connection reset by peer" in the middle of a normal user's questions).
    Only uvicorn's h11 protocol is known (the one installed with Gradio); others are left alone.
    """

    def __init__(self, server: Any, timeout_s: float) -> None:
        super().__init__(name="slow-client-reaper", daemon=True)
        self.server = server
        self.timeout_s = timeout_s
        self.stopped = threading.Event()
        self.closed = 0

    def run(self) -> None:
        # connection -> (its last request's cycle, when first seen waiting after it); the cycle
        # object itself is kept, so a new request is never taken for the old one by a reused id
        waiting_since: dict[int, tuple[object, float]] = {}
        while not self.stopped.wait(self.timeout_s / REAPER_TICKS_PER_TIMEOUT):
            state = getattr(self.server, "server_state", None)
            if state is None:
                continue
            now = time.monotonic()
            seen: dict[int, tuple[object, float]] = {}
            for connection in list(state.connections):
                h11_connection = getattr(connection, "conn", None)
                if (
                    not isinstance(h11_connection, h11.Connection)
                    or h11_connection.their_state is not h11.IDLE
                ):
                    continue
                cycle = getattr(connection, "cycle", None)
                earlier_cycle, since = waiting_since.get(id(connection), (cycle, now))
                if earlier_cycle is not cycle:  # a request came and went between two looks
                    since = now
                seen[id(connection)] = (cycle, since)
                if now - since >= self.timeout_s:
                    self.closed += 1
                    connection.loop.call_soon_threadsafe(connection.transport.close)
            waiting_since = seen

    def stop(self) -> None:
        self.stopped.set()
