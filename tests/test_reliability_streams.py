"""Long-lived streams are bounded (issue 26, point 2): per client address, in all, and idle ones end;
event-loop errors such as a failed ``accept`` are logged once per interval, not once per attempt.

The middleware is tested alone, then the real ``python app.py`` under ``ulimit -n 1024`` (set in the
app's process) with 2,000 heartbeat streams held open against it: before, 1,100 of them took every
descriptor and no one was served for as long as they were held.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import socket
import time
from collections import Counter

import httpx
import pytest

from tests.conftest import serving
from tests.load.run import app_process
from ui import streams
from ui.streams import StreamLimits, quiet_loop_errors

DESCRIPTORS = 1024
STREAMS = 2000
#: Source addresses the streams come from (all of 127.0.0.0/8 is this machine), and per address.
ADDRESSES = 125
PER_ADDRESS = STREAMS // ADDRESSES
PER_CLIENT = 32
#: How long the probe may wait for its answer (a bound against a blocked app, not a timing claim:
#: before the fix no answer came while the streams were open; the time it took is printed).
PROBE_TIMEOUT_S = 30.0


# --- the middleware alone ---------------------------------------------------------------------------


async def _stream_app(scope, receive, send):
    """A stream that sends a chunk a second for ever (Gradio's heartbeat, in short)."""
    await send({"type": "http.response.start", "status": 200, "headers": []})
    while True:
        await send({"type": "http.response.body", "body": b"data: ALIVE\n\n", "more_body": True})
        await asyncio.sleep(0.05)


def _scope(client: str, path: str = "/gradio_api/heartbeat/x") -> dict:
    return {"type": "http", "method": "GET", "path": path, "headers": [], "client": (client, 1)}


def test_streams_beyond_the_caps_get_429_and_idle_ones_end(monkeypatch):
    monkeypatch.setattr(streams, "IDLE_CHECK_S", 0.05)
    limits = StreamLimits(_stream_app, per_client=2, total=3, idle_s=0.5)
    statuses: Counter[int] = Counter()
    ended: list[float] = []

    async def one(client: str) -> None:
        start = time.monotonic()

        async def receive():
            await asyncio.sleep(3600)

        async def send(message):
            if message["type"] == "http.response.start":
                statuses[message["status"]] += 1
            elif not message.get("more_body"):
                ended.append(time.monotonic() - start)

        await limits(_scope(client), receive, send)

    async def main() -> None:
        await asyncio.wait_for(asyncio.gather(*(one(c) for c in ["a", "a", "a", "b", "c"])), 10)

    asyncio.run(main())
    # a: 2 of 3 (per client); b: 1; c: refused (3 in all); the 3 held end once idle for 0.5 s
    assert statuses == {200: 3, 429: 2} and limits.refused == 2 and limits.ended_idle == 3
    assert all(0.4 < s < 5 for s in sorted(ended)[-3:]) and sum(limits.open.values()) == 0


def test_the_same_loop_error_is_logged_once_per_interval(caplog):
    loop = asyncio.new_event_loop()
    try:
        quiet_loop_errors(loop, interval_s=60)
        with caplog.at_level(logging.ERROR, logger="ui.streams"):
            for _ in range(10_000):
                loop.call_exception_handler(
                    {
                        "message": "socket.accept() out of system resource",
                        "exception": OSError(24, "Too many open files"),
                    }
                )
    finally:
        loop.close()
    assert len(caplog.records) == 1 and "Too many open files" in caplog.records[0].getMessage()


# --- the app, under ulimit -n 1024 ------------------------------------------------------------------


def _open_streams(port: int, sources: list[str], per_source: int) -> list[socket.socket]:
    held = []
    for source in sources:
        for n in range(per_source):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind((source, 0))
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET /gradio_api/heartbeat/{source}-{n} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            held.append(s)
    return held


def _statuses(held: list[socket.socket]) -> Counter[str]:
    """The status line each stream got (within a few seconds), "none" for a stream still waiting."""
    seen: Counter[str] = Counter()
    for s in held:
        s.settimeout(5)
        try:
            head = s.recv(64).decode("latin-1")
        except OSError:
            head = ""
        seen[head.split("\r\n", 1)[0][9:12] or "none"] += 1
    return seen


@pytest.mark.model
def test_2000_idle_heartbeats_under_ulimit_1024_leave_the_app_answering(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < STREAMS + 200:  # this test's own sockets
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 4 * STREAMS), hard))
    prelude = f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({DESCRIPTORS}, {DESCRIPTORS}))"
    extra = {"GLOSSARY_BOT_MAX_STREAMS_PER_CLIENT": str(PER_CLIENT)}
    held: list[socket.socket] = []
    with app_process(tmp_path, extra, prelude) as (url, _, log):
        port = int(url.rsplit(":", 1)[1])
        try:
            # One address past its own cap, then the rest from 125 others, past the total.
            held = _open_streams(port, ["127.0.0.1"], PER_CLIENT + 8)
            sources = [f"127.0.{k // 250 + 1}.{k % 250 + 2}" for k in range(ADDRESSES)]
            held += _open_streams(port, sources, PER_ADDRESS)
            seen = _statuses(held)  # every stream answered: held open (200) or refused (429)
            start = time.perf_counter()  # while the streams that were let in are held open
            reply = httpx.post(
                f"{url}/api/answer", json={"question": "what is dropout?"}, timeout=PROBE_TIMEOUT_S
            )
            probe_s = time.perf_counter() - start
            assert reply.status_code == 200 and reply.json()["citations"][0]["entry_id"] == "dropout"
            ready = httpx.get(f"{url}/readyz", timeout=30)
        finally:
            for s in held:
                s.close()
    text = log.read_text()
    print(f"probe answered in {probe_s * 1000:.0f} ms with {len(held)} streams sent; statuses {dict(seen)}")
    assert ready.status_code == 200
    cap = DESCRIPTORS // 2  # max_streams (512) is never more than half the descriptor limit
    assert seen["200"] <= cap and seen["429"] >= len(held) - cap, seen
    assert text.count("Traceback") == 0 and text.count("out of system resource") <= 3, text[-2000:]


def test_only_gradios_stream_paths_count():
    """A page or an API call is never refused as a stream."""
    assert streams.is_stream(_scope("a")) and streams.is_stream(_scope("a", "/gradio_api/queue/data"))
    assert not streams.is_stream(_scope("a", "/readyz")) and not streams.is_stream(_scope("a", "/"))


def _heartbeat(url: str, forwarded_for: str) -> socket.socket:
    host, port = url.removeprefix("http://").split(":")
    s = socket.create_connection((host, int(port)))
    head = f"GET /gradio_api/heartbeat/{forwarded_for}-x HTTP/1.1\r\nHost: x\r\n"
    s.sendall(f"{head}X-Forwarded-For: {forwarded_for}\r\n\r\n".encode())
    return s


@pytest.mark.model
@pytest.mark.parametrize(("trusted", "expected"), [("*", {"200": 3}), ("10.9.9.9", {"200": 1, "429": 2})])
def test_behind_a_trusted_proxy_each_visitor_has_its_own_stream_cap(bot, settings, trusted, expected):
    """On a Space every request comes from its proxy: unless the proxy's X-Forwarded-For is believed
    (``forwarded_allow_ips``, "*" there by default), every visitor shares one address and one cap."""
    with serving(bot, settings, forwarded_allow_ips=trusted, max_streams_per_client=1) as (url, _):
        held = [_heartbeat(url, visitor) for visitor in ("10.0.0.1", "10.0.0.2", "10.0.0.3")]
        try:
            assert dict(_statuses(held)) == expected
        finally:
            for s in held:
                s.close()
