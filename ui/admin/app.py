"""The maintainers' area at ``/admin``: its routes, and the middleware that puts it beside the app.

It exists only when ``admin_password_hash`` is set; otherwise ``/admin`` is an unknown path (404)
like any other. It is a small FastAPI app of its own, not part of the public Gradio Blocks, so no
``fn_index`` of the public app reaches it, and nothing it makes goes through Gradio's file cache:
downloads are answered by its own routes, to a logged-in session only. ``AdminArea`` sends every
``/admin`` request to it ahead of the public app's request limits: the upload has its own size limit
(``admin_upload_mb``) and time limit, every other admin request the public app's body limit.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.middleware import Middleware
from starlette.types import ASGIApp, Receive, Scope, Send

from bot.core import GlossaryBot
from bot.records import report as maintainers
from bot.records.store import AnswerSource
from bot.reload import ReloadHistory
from bot.settings import Settings
from glossary import GlossaryError
from ui.admin import pages
from ui.admin.auth import AdminAuth, Session, TooManyAttempts
from ui.admin.reports import Period, ReportBusy, ReportRunner
from ui.admin.upload import MB, GlossaryUploads, UploadRefused
from ui.limits import KB, RequestLimits

PREFIX = "/admin"
COOKIE = "glossary-bot-admin"
#: Time a maintainer's browser has to send an upload (seconds): 20 MB on a slow line.
UPLOAD_TIMEOUT_S = 120.0
#: Form fields beside the file (the form token).
UPLOAD_OVERHEAD_KB = 64


class AdminRefused(Exception):
    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status


def _day(value: str, name: str) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    except ValueError:
        raise AdminRefused(400, f"{name}: {value!r} is not a date (YYYY-MM-DD)") from None


def _period(request: Request) -> tuple[Period, str, str]:
    since, until = request.query_params.get("since", ""), request.query_params.get("until", "")
    return (_day(since, "since"), _day(until, "until")), since, until


class AdminService:
    """What the routes need: the bot, the store, the login, reports and uploads."""

    def __init__(
        self, bot: GlossaryBot, settings: Settings, store: AnswerSource, history: ReloadHistory
    ) -> None:
        assert settings.admin_password_hash is not None
        self.bot = bot
        self.settings = settings
        self.auth = AdminAuth(
            settings.admin_password_hash.get_secret_value(),
            settings.admin_session_minutes * 60,
            settings.admin_login_attempts,
        )
        self.reports = ReportRunner(store, bot)
        self.history = history
        self.uploads = GlossaryUploads(bot, settings, history)

    def session(self, request: Request) -> Session | None:
        return self.auth.session(request.cookies.get(COOKIE))

    def glossary_status(self) -> pages.GlossaryStatus:
        glossary = self.bot.glossary
        files = [str(p) for p in self.settings.glossary_paths] or ["the bundled glossary"]
        languages = {  # every entry has a definition in both; usage and examples may be missing
            f"{field} {lang}": sum(bool(getattr(e, f"{field}_{lang}")) for e in glossary.entries)
            for lang in ("hi", "en")
            for field in ("usage", "example")
        }
        return pages.GlossaryStatus(
            files,
            glossary.content_hash,
            len(glossary),
            languages,
            self.history.last_reload,
            self.history.last_refused,
            self.history.refused_report,
            self.uploads.status.describe(),
            self.uploads.loading,
        )


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status, headers={"Cache-Control": "no-store"})


def admin_app(service: AdminService) -> FastAPI:
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)

    def logged_in(request: Request) -> Session:
        session = service.session(request)
        if session is None:
            raise AdminRefused(401, "log in first")
        return session

    def checked(session: Session, form: Any) -> None:
        if form.get("form_token") != session.form_token:
            raise AdminRefused(403, "this form is out of date; open the page again")

    @app.exception_handler(AdminRefused)
    async def refused(request: Request, exc: AdminRefused) -> Response:
        if exc.status == 401:
            return _html(pages.login(str(exc)), 401)
        return _html(pages.message("Refused", str(exc)), exc.status)

    @app.get(PREFIX)
    async def home(request: Request) -> Response:
        session = service.session(request)
        if session is None:
            return _html(pages.login())
        period, since, until = _period(request)
        status = service.glossary_status()
        sections = [pages.glossary_section(status, session.form_token, service.settings.admin_upload_mb)]
        sections.append(pages.period_links(since, until))
        try:
            report = await service.reports.get(period)
        except ReportBusy:
            report = None
        waiting = report is None
        sections.append(
            pages.report_section(report)
            if report is not None
            else '<p id="report-waiting">The report is being made; this page refreshes itself.</p>'
        )
        return _html(pages.dashboard(sections, session.form_token, waiting or status.building))

    @app.post(f"{PREFIX}/login")
    async def login(request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=2)
        address = request.client.host if request.client else "?"
        try:
            # argon2 takes most of a second of CPU: off the event loop, which serves every visitor.
            session = await run_in_threadpool(service.auth.login, str(form.get("password", "")), address)
        except TooManyAttempts:
            return _html(pages.login("Too many login attempts: wait a minute, then try again."), 429)
        if session is None:
            return _html(pages.login("Wrong password."), 401)
        reply = RedirectResponse(PREFIX, 303)
        reply.set_cookie(
            COOKIE,
            session.token,
            max_age=int(service.auth.session_s),
            path=PREFIX,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https",
        )
        return reply

    @app.post(f"{PREFIX}/logout")
    async def logout(request: Request) -> Response:
        session = logged_in(request)
        checked(session, await request.form(max_files=0, max_fields=2))
        service.auth.logout(session.token)
        reply = RedirectResponse(PREFIX, 303)
        reply.delete_cookie(COOKIE, path=PREFIX)
        return reply

    async def report_or_wait(request: Request) -> maintainers.Report:
        logged_in(request)
        period, _, _ = _period(request)
        try:
            report = await service.reports.get(period)
        except ReportBusy:
            report = None
        if report is None:
            raise AdminRefused(503, "the report is being made; try again in a moment")
        return report

    def download(text: str, name: str, kind: str) -> Response:
        stamp = datetime.now(UTC).strftime("%Y-%m-%d")
        return PlainTextResponse(
            text,
            media_type=kind,
            headers={
                "Content-Disposition": f'attachment; filename="{name}-{stamp}"',
                "Cache-Control": "no-store",
            },
        )

    @app.get(f"{PREFIX}/report.md")
    async def report_md(request: Request) -> Response:
        report = await report_or_wait(request)
        return download(maintainers.to_markdown(report), "glossary-report.md", "text/markdown; charset=utf-8")

    @app.get(f"{PREFIX}/report.csv")
    async def report_csv(request: Request) -> Response:
        report = await report_or_wait(request)
        return download(maintainers.to_csv(report), "glossary-report.csv", "text/csv; charset=utf-8")

    @app.post(f"{PREFIX}/glossary")
    async def upload(request: Request) -> Response:
        session = logged_in(request)
        limit = int(service.settings.admin_upload_mb * MB)
        form = await request.form(max_files=1, max_fields=2, max_part_size=limit + 1)
        checked(session, form)
        file = form.get("file")
        if not isinstance(file, UploadFile) or not file.filename:
            raise AdminRefused(400, "choose a glossary file to upload")
        data = await file.read(limit + 1)
        try:
            accepted = await run_in_threadpool(service.uploads.replace, file.filename, data)
        except UploadRefused as exc:
            raise AdminRefused(400, str(exc)) from None
        except GlossaryError as exc:
            return _html(pages.message("Upload refused", "The file was not swapped in:", str(exc)), 422)
        kept = f"; the previous file is kept as {accepted.backup}" if accepted.backup else ""
        return _html(
            pages.message(
                "Upload accepted",
                f"{accepted.target.name}: {accepted.entries} entries checked and written{kept}. "
                "It is being loaded; the area shows when it is served.",
            )
        )

    return app


class AdminArea:
    """ASGI middleware: ``/admin`` and below go to the maintainers' area (with its own request
    limits), everything else to the public app."""

    def __init__(self, app: ASGIApp, area: ASGIApp, settings: Settings) -> None:
        self.app = app
        upload_kb = int(settings.admin_upload_mb * MB / KB) + UPLOAD_OVERHEAD_KB
        self.upload = RequestLimits(area, max_request_kb=upload_kb, request_timeout_s=UPLOAD_TIMEOUT_S)
        self.other = RequestLimits(
            area, max_request_kb=settings.max_request_kb, request_timeout_s=settings.request_timeout_s
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path == PREFIX or path.startswith(PREFIX + "/"):
            limits = self.upload if path == f"{PREFIX}/glossary" else self.other
            await limits(scope, receive, send)
            return
        await self.app(scope, receive, send)


def admin_middleware(
    bot: GlossaryBot, settings: Settings, store: AnswerSource, history: ReloadHistory
) -> list:
    """The area's middleware for the app, or nothing at all when no password hash is configured."""
    if settings.admin_password_hash is None:
        return []
    return [
        Middleware(AdminArea, area=admin_app(AdminService(bot, settings, store, history)), settings=settings)
    ]
