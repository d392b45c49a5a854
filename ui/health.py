"""``GET /healthz`` and ``GET /readyz``, from the first second of a start to the end of serving.

Spaces and container platforms probe a port: "alive" (restart the process if not) and "ready" (send
traffic). Loading the bot can take minutes when an index must be built (a user glossary on a fresh
disk), and the Gradio app needs the loaded bot, so until it is loaded ``StartingServer`` holds the
port: ``/healthz`` 200, ``/readyz`` 503 with a JSON reason that names the build stage and its
progress, and every other path a small bilingual page that says what is being built and refreshes
itself. Then it lets go of the port and the app takes it over, with ``health_routes`` answering
the same two paths (``/readyz`` 200 with the glossary served).
"""

from __future__ import annotations

import html
import json
import logging
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fastapi.routing import APIRoute

from bot.core import GlossaryBot
from bot.records.writer import Recorder
from bot.reload import ReloadHistory
from bot.reply.messages import t
from index.embeddings import BuildStatus
from ui.headers import security_headers

log = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
#: Seconds after which the start page reloads itself and a client should ask again.
RETRY_S = 2


def alive() -> dict[str, str]:
    return {"status": "alive"}


def health_routes(
    bot: GlossaryBot, store: Recorder | None = None, history: ReloadHistory | None = None
) -> list[APIRoute]:
    """The two probes once the app serves: the configured glossary's index is loaded, so ready.

    ``/readyz`` also says what does not stop the answers: the question store's state (``store``: ok,
    failing or unavailable, its last error, what is queued and what was not recorded) and the last
    glossary edit the watcher refused (``refused_edit``: the files' sha256 and the message), and the
    sentence index advice reads (``advice_sentences``: ready, or its build's progress), and the index
    (``index``: complete, or the progress of its completion while a first pass serves). None of them
    makes it 503: a load balancer should keep sending questions to an app that answers them.
    """

    def healthz() -> dict[str, str]:
        return alive()

    def readyz() -> dict[str, object]:
        glossary = bot.glossary
        ready: dict[str, object] = {
            "ready": True,
            "glossary": str(glossary),
            "entries": len(glossary),
            "glossary_hash": glossary.content_hash,
        }
        ready["index"] = _index_state(bot)
        ready["advice_sentences"] = _sentences_state(bot)
        if store is not None:
            ready["store"] = store.health()
        refused = history.refusal() if history is not None else None
        if refused is not None:
            ready["refused_edit"] = refused
        return ready

    return [
        APIRoute(HEALTH_PATH, healthz, methods=["GET"], summary="Liveness: the process answers."),
        APIRoute(READY_PATH, readyz, methods=["GET"], summary="Readiness: the glossary's index is loaded."),
    ]


def _index_state(bot: GlossaryBot) -> str:
    """The index answers come from: "complete", or a first pass and its completion's progress."""
    if bot.complete:
        return "complete"
    completing = bot.completing
    progress = completing.describe() if completing is not None else "not being completed"
    return f"first pass (query-prompt copies only); {progress}"


def _sentences_state(bot: GlossaryBot) -> str:
    """The sentence index advice reads: "ready", its build's progress, or "not built"."""
    if bot.sentences is not None:
        return "ready"
    adding = bot.adding
    return adding.describe() if adding is not None else "not built (advice looks in whole fields)"


class StartingServer:
    """Holds the app's port while the bot loads (see the module docstring); a context manager."""

    def __init__(
        self, host: str, port: int, status: BuildStatus, frame_ancestors: tuple[str, ...] = ("'self'",)
    ) -> None:
        self.status = status
        self.headers = security_headers(list(frame_ancestors))
        self._server = ThreadingHTTPServer((host, port), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="starting-page", daemon=True)

    def __enter__(self) -> StartingServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        status, headers = self.status, self.headers

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                if path == HEALTH_PATH:
                    self._send(HTTPStatus.OK, "application/json", json.dumps(alive()))
                elif path == READY_PATH:
                    body = json.dumps({"ready": False, "reason": status.describe()}, ensure_ascii=False)
                    self._send(HTTPStatus.SERVICE_UNAVAILABLE, "application/json", body)
                else:
                    self._send(HTTPStatus.SERVICE_UNAVAILABLE, "text/html; charset=utf-8", _page(status))

            def _send(self, code: HTTPStatus, kind: str, body: str) -> None:
                data = body.encode("utf-8")
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.send_header("Retry-After", str(RETRY_S))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:
                log.debug(format, *args)

        return Handler


def _page(status: BuildStatus) -> str:
    """The start page: what is being built, how far it is, in both languages; it reloads itself."""
    progress = html.escape(status.describe())
    lines = "".join(f"<p>{html.escape(t('starting', lang))}</p>" for lang in ("hi", "en"))
    return (
        f'<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="{RETRY_S}">'
        f"<title>{html.escape(t('page_title', 'en'))}</title></head>"
        f"<body>{lines}<p><code>{progress}</code></p></body></html>"
    )
