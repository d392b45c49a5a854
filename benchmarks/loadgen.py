"""Load generator, run as its own process so its CPU and GIL are not the server's.

``python -m benchmarks.loadgen KIND URL QUERIES_JSON CLIENTS SECONDS REQUESTS`` prints one JSON
object. Each client thread asks /ask in a loop: REQUESTS questions in all (0: no limit) or until
SECONDS have passed (0: no limit). KIND ``api``: the app's plain route (POST /api/answer, JSON in
and out) over one kept-alive httpx connection per thread. KIND ``rest``: Gradio's documented HTTP
API for /ask (POST /gradio_api/call/ask, then its event stream), kept alive the same way.
KIND ``gradio_client``: one gradio_client.Client per thread. gradio_client opens a new httpx client, and so
a new TLS context, for every call (~0.1 s of CPU even for http://), which on a 2-core machine
would measure the client rather than the server.
"""

from __future__ import annotations

import itertools
import json
import resource
import sys
import threading
import time


class Rest:
    """One client of Gradio's call API on a kept-alive connection."""

    def __init__(self, url: str) -> None:
        import httpx

        self.url = url
        self.http = httpx.Client(timeout=120)

    def predict(self, question: str, api_name: str) -> str:
        call = f"{self.url}gradio_api/call{api_name}"
        event = self.http.post(call, json={"data": [question]}).raise_for_status().json()["event_id"]
        kind = ""
        with self.http.stream("GET", f"{call}/{event}") as stream:
            for line in stream.iter_lines():
                if line.startswith("event:"):
                    kind = line.split(":", 1)[1].strip()
                elif line.startswith("data:") and kind in {"complete", "error"}:
                    if kind == "error":
                        raise RuntimeError(f"server error: {line[5:].strip()}")
                    return json.loads(line[5:])[0]
        raise RuntimeError("event stream ended without a result")


class Api:
    """One client of the app's own route, POST /api/answer, on a kept-alive connection."""

    def __init__(self, url: str) -> None:
        import httpx

        self.url = f"{url}api/answer"
        self.http = httpx.Client(timeout=120)

    def predict(self, question: str, api_name: str) -> str:
        return self.http.post(self.url, json={"question": question}).raise_for_status().json()["text"]


def _client(kind: str, url: str):
    if kind == "rest":
        return Rest(url)
    if kind == "api":
        return Api(url)
    from gradio_client import Client

    return Client(url, verbose=False, analytics_enabled=False)


def main(kind: str, url: str, queries_file: str, clients: int, seconds: float, requests: int) -> dict:
    with open(queries_file, encoding="utf-8") as fh:
        queries = json.load(fh)
    pool = [_client(kind, url) for _ in range(clients)]
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    # Each request takes the next question (an unbounded run cycles through them all).
    issued = iter(range(requests)) if requests else itertools.count()
    start = threading.Barrier(clients + 1)
    deadline = [0.0]

    def worker(client) -> None:
        start.wait()
        while not seconds or time.perf_counter() < deadline[0]:
            with lock:
                i = next(issued, None)
            if i is None:
                return
            t0 = time.perf_counter()
            try:
                client.predict(queries[i % len(queries)], api_name="/ask")
            except Exception as exc:  # any failure counts as an error, whatever its type
                with lock:
                    errors.append(f"{type(exc).__name__}: {exc}"[:200])
                continue
            with lock:
                latencies.append((time.perf_counter() - t0) * 1000)

    threads = [threading.Thread(target=worker, args=(c,)) for c in pool]
    for t in threads:
        t.start()
    cpu0 = _cpu()
    t0 = time.perf_counter()
    deadline[0] = t0 + seconds
    start.wait()
    for t in threads:
        t.join()
    return {
        "latencies_ms": latencies,
        "errors": len(errors),
        "error_samples": errors[:5],
        "elapsed_s": time.perf_counter() - t0,
        "cpu_s": _cpu() - cpu0,
    }


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    kind, url, qfile, n, secs, reqs = sys.argv[1:7]
    print(json.dumps(main(kind, url, qfile, int(n), float(secs), int(reqs))))
