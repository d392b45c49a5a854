"""Starting the app: build, queue and launch it, or refuse to start with one line and an exit code.

It refuses, with no traceback, when a setting is invalid (``ExitCode.USAGE``), when the glossary,
model or index cannot be loaded (``ExitCode.LOAD``, as the CLI), or when it cannot listen on the
configured address (``ExitCode.SERVE``), or when the question store cannot be opened
(``ExitCode.LOAD``; an old ``feedback.jsonl`` is imported into it once). While the bot loads,
``ui.health.StartingServer`` answers on the port (``/healthz``, ``/readyz`` 503 with the build's
progress, a start page). A user glossary is watched while serving (``reload_interval_s``): an edit
is swapped in once it loads; a broken edit is logged and the last good glossary stays in service.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, NoReturn

import gradio as gr
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.middleware import Middleware

from bot.core import GlossaryBot
from bot.exitcodes import ExitCode
from bot.records import Store, StoreError
from bot.records.legacy import import_feedback
from bot.records.store import Pruner
from bot.reload import GlossaryWatcher
from bot.settings import Settings
from glossary import GlossaryError
from index.embeddings import BuildStatus
from index.errors import IndexLayerError
from ui.api import api_routes
from ui.health import StartingServer, health_routes
from ui.layout import CSS, HEAD, THEME, build_app
from ui.limits import RequestLimits, SlowClientReaper, without_input
from ui.sources import source_routes

log = logging.getLogger(__name__)


def serve(bot: GlossaryBot, settings: Settings, store: Store | None = None, **launch: Any) -> gr.Blocks:
    """Build, queue and launch the app (offline: no share link, no analytics, errors without tracebacks).

    Questions and votes go to ``store`` (default: the one ``database_url`` names, opened here).

    The queue holds at most ``queue_max_size`` requests (a caller beyond that is told it is full) and
    works on ``concurrency_limit`` requests of each kind at a time, so one busy client cannot
    make the others wait without bound; every request is held to ``ui.limits`` (size, time, no
    uploads).
    """
    store = store or Store.open(settings.database, settings.record_questions)
    demo = build_app(bot, settings, store)
    demo.queue(default_concurrency_limit=settings.concurrency_limit, max_size=settings.queue_max_size)
    block = not launch.pop("prevent_thread_lock", False)
    demo.launch(
        server_name=settings.host,
        server_port=settings.port,
        share=False,
        show_error=False,
        css=CSS,
        theme=THEME,
        head=HEAD,
        app_kwargs={
            # first in the router, before Gradio's own
            "routes": [*health_routes(bot), *api_routes(bot, settings, store), *source_routes(bot)],
            "middleware": [
                Middleware(
                    RequestLimits,
                    max_request_kb=settings.max_request_kb,
                    request_timeout_s=settings.request_timeout_s,
                )
            ],
            "exception_handlers": {RequestValidationError: without_input},
        },
        prevent_thread_lock=True,
        **launch,
    )
    reaper = SlowClientReaper(demo.server, settings.request_timeout_s)
    reaper.start()
    _close = demo.close

    def close(*args: Any, **kwargs: Any) -> None:
        reaper.stop()
        _close(*args, **kwargs)

    demo.close = close  # type: ignore[method-assign]
    if block:
        demo.block_thread()
    return demo


def _refuse(message: str, code: ExitCode) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)


def main() -> None:
    """Load the configured bot, watch its glossary and serve until stopped (``python app.py``)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for ours in ("bot", "index", "ui"):  # reloads, index builds, the URL; libraries stay quiet
        logging.getLogger(ours).setLevel(logging.INFO)
    try:
        settings = Settings()
    except ValidationError as exc:
        _refuse(f"invalid setting: {exc}", ExitCode.USAGE)
    try:  # before the model: a wrong database_url is reported at once
        store = Store.open(settings.database, settings.record_questions)
        import_feedback(store, settings.feedback_path)
    except (StoreError, OSError) as exc:
        _refuse(f"cannot open the question store: {exc}", ExitCode.LOAD)
    status = BuildStatus()
    try:
        starting = StartingServer(settings.host, settings.port, status)  # /healthz, /readyz, progress page
    except OSError as exc:
        _refuse(f"cannot serve on {settings.host}:{settings.port}: {exc}", ExitCode.SERVE)
    try:
        with starting:
            bot = GlossaryBot.load(settings, progress=True, status=status)  # may build the index first
    except (GlossaryError, IndexLayerError, OSError) as exc:
        _refuse(f"cannot start: {exc}", ExitCode.LOAD)
    GlossaryWatcher.start_for(bot)
    Pruner.start_for(store, settings.retention_days)
    try:
        # quiet: Gradio's own lines include a hint to create a public link, which this app never does
        demo = serve(bot, settings, store, quiet=True, prevent_thread_lock=True)
    except OSError as exc:
        _refuse(f"cannot serve on {settings.host}:{settings.port}: {exc}", ExitCode.SERVE)
    log.info("serving %s on %s", bot.glossary, demo.local_url)
    demo.block_thread()
