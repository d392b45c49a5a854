"""Starting the app: build, queue and launch it, or refuse to start with one line and an exit code.

It refuses, with no traceback, when a setting is invalid (``ExitCode.USAGE``), when the glossary,
model or index cannot be loaded (``ExitCode.LOAD``, as the CLI), or when it cannot listen on the
configured address (``ExitCode.SERVE``). A question store that cannot be opened does not stop it:
it serves, says so in its log and in ``/readyz``, and records once the store opens (an old
``feedback.jsonl`` is imported into the store once, when it is open at start). While the bot loads,
``ui.health.StartingServer`` answers on the port (``/healthz``, ``/readyz`` 503 with the build's
progress, a start page). It serves once ranking and deciding are ready: the sentence index advice
reads (a third of a first build's encoding) is built afterwards in the background, ``/readyz``
showing its progress. A user glossary is watched while serving (``reload_interval_s``): an edit
is swapped in once it loads; a broken edit is logged and the last good glossary stays in service.
"""

from __future__ import annotations

import faulthandler
import logging
import os
import resource
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import gradio as gr
from fastapi.exceptions import RequestValidationError
from pydantic import ValidationError
from starlette.middleware import Middleware

from bot.core import GlossaryBot
from bot.exitcodes import ExitCode
from bot.records import StoreError
from bot.records.legacy import import_feedback
from bot.records.store import InvalidDatabaseUrl, Pruner
from bot.records.writer import Recorder, open_recorder
from bot.reload import GlossaryWatcher, ReloadHistory
from bot.search.loading import glossary_report
from bot.settings import Settings, setting_errors
from glossary import GlossaryError
from index.embeddings import BuildStatus
from index.errors import IndexLayerError
from ui.admin.app import admin_middleware
from ui.admission import Lanes
from ui.api import api_routes
from ui.desk import desk_routes
from ui.headers import FileGuard, SecurityHeaders
from ui.health import StartingServer, health_routes
from ui.joins import LongJoins
from ui.layout import ANSWERING, CSS, HEAD, QUESTION_INPUTS, THEME, build_app
from ui.limits import RequestLimits, SlowClientReaper, without_input
from ui.sources import source_routes
from ui.streams import StreamLimits

log = logging.getLogger(__name__)
#: uvicorn's variable for the proxies whose X-Forwarded-For it believes (settings.forwarded_allow_ips).
FORWARDED_ALLOW_IPS = "FORWARDED_ALLOW_IPS"


@contextmanager
def _forwarded_allow_ips(value: str) -> Iterator[None]:
    """uvicorn reads ``FORWARDED_ALLOW_IPS`` when Gradio builds its config (Gradio passes no such
    option); set for that moment only, so one app's setting is not another's."""
    before = os.environ.get(FORWARDED_ALLOW_IPS)
    os.environ[FORWARDED_ALLOW_IPS] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(FORWARDED_ALLOW_IPS, None)
        else:
            os.environ[FORWARDED_ALLOW_IPS] = before


def serve(
    bot: GlossaryBot,
    settings: Settings,
    store: Recorder | None = None,
    history: ReloadHistory | None = None,
    **launch: Any,
) -> gr.Blocks:
    """Build, queue and launch the app (offline: no share link, no analytics, errors without tracebacks).

    Questions and votes go to ``store`` (default: a :class:`Recorder` over the one ``database_url``
    names, opened here); ``watcher``'s last refused edit shows in ``/readyz``.

    The queue holds at most ``queue_max_size`` requests (a caller beyond that is told it is full) and
    works on ``concurrency_limit`` requests of each kind at a time, so one busy client cannot
    make the others wait without bound; answers go through ``ui.admission``'s lanes by cost; every
    request is held to ``ui.limits`` (size, time, no uploads) and every stream to ``ui.streams``.
    The maintainers' area (``ui.admin``) is mounted beside it when a password hash is configured;
    ``history`` is where reloads and refused edits are recorded for it (and for ``/readyz``).
    """
    store = store or open_recorder(settings)
    lanes = Lanes.for_settings(
        settings.concurrency_limit, settings.api_concurrency_limit, settings.queue_max_size
    )
    demo = build_app(bot, settings, store, lanes)
    asking = frozenset(
        i
        for i, fn in demo.fns.items()
        if fn.concurrency_id == ANSWERING and fn.inputs and isinstance(fn.inputs[0], QUESTION_INPUTS)
    )
    demo.queue(default_concurrency_limit=settings.concurrency_limit, max_size=settings.queue_max_size)
    block = not launch.pop("prevent_thread_lock", False)
    with _forwarded_allow_ips(settings.forwarded_allow_ips):
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
                "routes": [
                    *health_routes(bot, store, history),
                    *api_routes(bot, settings, store, lanes),
                    *source_routes(bot),
                    *desk_routes(bot),
                ],
                "middleware": [
                    Middleware(SecurityHeaders, frame_ancestors=settings.frame_ancestors),
                    *admin_middleware(bot, settings, store, history or ReloadHistory()),
                    Middleware(FileGuard),
                    Middleware(
                        StreamLimits,
                        per_client=settings.max_streams_per_client,
                        total=stream_cap(settings.max_streams),
                        idle_s=settings.stream_idle_s,
                    ),
                    Middleware(
                        RequestLimits,
                        max_request_kb=settings.max_request_kb,
                        request_timeout_s=settings.request_timeout_s,
                    ),
                    Middleware(LongJoins, lanes=lanes, encoded=bot.encoded_text, asking=asking),
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
        store.close()

    demo.close = close  # type: ignore[method-assign]
    if block:
        demo.block_thread()
    return demo


def stream_cap(configured: int) -> int:
    """``max_streams``, but at most half the descriptors this process may open (the other half for
    the requests those streams would otherwise starve, files and the store)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or configured <= soft // 2:
        return configured
    log.warning(
        "max_streams %d lowered to %d: half of this process's descriptor limit", configured, soft // 2
    )
    return max(1, soft // 2)


def _refuse(message: str, code: ExitCode) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(code)


def _report_fatal_signals() -> None:
    """SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL: a last line ("Fatal Python error: Bus error") and the
    threads' stacks on stderr before the process dies (before, a SIGBUS from an immutable
    ``records.sqlite3-shm`` ended the app without a word)."""
    try:
        faulthandler.enable()
    except (OSError, ValueError):  # stderr is no file (an embedding host): nothing to write to
        log.warning("fatal signals will not be reported: stderr is not a file")


def _finish_later(bot: GlossaryBot) -> threading.Thread:
    """What the app builds while it serves: the whole index, if it serves a first pass, then the
    sentence index (advice looks in whole fields until it is in). A failure of either costs only
    that (``GlossaryBot.complete_index`` and ``add_sentences`` log it), never the answers."""

    def finish() -> None:
        bot.complete_index()
        bot.add_sentences()

    thread = threading.Thread(target=finish, name="finishing", daemon=True)
    thread.start()
    return thread


def _stop_on_sigterm() -> None:
    """SIGTERM (a platform stopping the container) ends serving as Ctrl-C does, so the app closes
    cleanly and writes the records still queued."""

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupt)


def main() -> None:
    """Load the configured bot, watch its glossary and serve until stopped (``python app.py``)."""
    _report_fatal_signals()
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    for ours in ("bot", "index", "ui"):  # reloads, index builds, the URL; libraries stay quiet
        logging.getLogger(ours).setLevel(logging.INFO)
    try:
        settings = Settings()
    except ValidationError as exc:
        _refuse(f"invalid setting: {setting_errors(exc)}", ExitCode.USAGE)
    try:  # before the model: a wrong database_url is reported at once; a store that is down is not fatal
        store = open_recorder(settings)
    except InvalidDatabaseUrl as exc:
        _refuse(f"invalid setting: GLOSSARY_BOT_DATABASE_URL: {exc}", ExitCode.USAGE)
    if store.store is not None:
        try:
            import_feedback(store.store, settings.feedback_path)
        except (StoreError, OSError) as exc:
            log.error("old feedback not imported (tried again at the next start): %s", exc)
    status = BuildStatus()
    try:
        # /healthz, /readyz, a progress page
        starting = StartingServer(settings.host, settings.port, status, tuple(settings.frame_ancestors))
    except OSError as exc:
        _refuse(f"cannot serve on {settings.host}:{settings.port}: {exc}", ExitCode.SERVE)
    try:
        with starting:
            bot = GlossaryBot.load(settings, progress=True, status=status, sentences=False, first_pass=True)
    except GlossaryError as exc:
        _refuse(f"cannot start: the glossary does not load:\n{glossary_report(settings, exc)}", ExitCode.LOAD)
    except (IndexLayerError, OSError) as exc:
        _refuse(f"cannot start: {exc}", ExitCode.LOAD)
    _finish_later(bot)
    watcher = GlossaryWatcher.start_for(bot)
    if store.store is not None:
        Pruner.start_for(store.store, settings.retention_days)
    history = watcher.history if watcher is not None else None
    try:
        # quiet: Gradio's own lines include a hint to create a public link, which this app never does
        demo = serve(bot, settings, store, history, quiet=True, prevent_thread_lock=True)
    except OSError as exc:
        _refuse(f"cannot serve on {settings.host}:{settings.port}: {exc}", ExitCode.SERVE)
    log.info("serving %s on %s", bot.glossary, demo.local_url)
    _stop_on_sigterm()
    demo.block_thread()
    store.close()
