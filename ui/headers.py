"""Security headers on every response, and a file route that serves nothing the app did not ship.

``SecurityHeaders`` (ASGI middleware) adds a Content-Security-Policy that lets a page load only from
the app's own origin, ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy``; where the page
may be framed (``frame-ancestors``) is the setting ``frame_ancestors``, so the bot can be embedded
in a help centre. What Gradio needs beyond "own origin only" was measured in Chromium with a
strict policy (``tests/e2e/test_browser.py::test_the_page_works_under_its_content_security_policy``):
its page carries inline ``<script>`` blocks (the app's config) and inline styles, its theme fonts
and icons come as ``data:`` URLs, so scripts and styles also allow ``'unsafe-inline'``, images and
fonts ``data:`` and ``blob:``; nothing is allowed from any other origin.

``FileGuard`` closes Gradio's ``/gradio_api/file=`` route to everything but the files Gradio itself
ships (its package folder). The public app makes no files, so there is nothing of one visitor's
for another to fetch; before, the maintainers' report was made into Gradio's cache folder, and any
file there could be fetched by anyone who knew its path.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

import gradio
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Where each kind of content may come from (the own origin only; see the module docstring).
POLICY = (
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "media-src 'self' data: blob:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
)
REFERRER_POLICY = "same-origin"
#: Gradio's file route (under its API prefix, at the app's root or under a mount).
FILE_ROUTE = "/file="
#: The only files the file route may serve: those Gradio's package ships (theme fonts and the like).
GRADIO_PACKAGE = Path(gradio.__file__).resolve().parent


def content_security_policy(frame_ancestors: list[str]) -> str:
    ancestors = " ".join(frame_ancestors) or "'none'"
    return "; ".join([*POLICY, f"frame-ancestors {ancestors}"])


def security_headers(frame_ancestors: list[str]) -> list[tuple[str, str]]:
    """The headers every response carries (the app's, and the start page's while it builds)."""
    return [
        ("Content-Security-Policy", content_security_policy(frame_ancestors)),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", REFERRER_POLICY),
    ]


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response, whatever route made it."""

    def __init__(self, app: ASGIApp, frame_ancestors: list[str]) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in security_headers(frame_ancestors)]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        names = {name for name, _ in self.headers}

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": [*kept, *self.headers]}
            await send(message)

        await self.app(scope, receive, with_headers)


def shipped_by_gradio(path: str) -> bool:
    """Whether a path the file route was asked for is one of Gradio's own package files."""
    try:
        resolved = Path(unquote(path)).resolve()
    except (OSError, ValueError):
        return False
    return resolved.is_relative_to(GRADIO_PACKAGE)


class FileGuard:
    """ASGI middleware: ``/gradio_api/file=<path>`` answers 404 unless Gradio's package ships the file."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            path: str = scope["path"]
            at = path.find(FILE_ROUTE)
            if at >= 0 and not shipped_by_gradio(path[at + len(FILE_ROUTE) :]):
                await PlainTextResponse("Not found", 404)(scope, receive, send)
                return
        await self.app(scope, receive, send)
