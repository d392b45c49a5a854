"""The support desk around the chat: copy for a ticket, shareable links, suggestions as you type.

Each answer in the chat carries an id in its message ``metadata`` (Gradio keeps ``id``): the
store's id of the recorded answer, or a random one when it was not recorded. The server keeps, per
chat session, what each of its answers copies as (:class:`bot.reply.ticket.Ticket`); the browser keeps
its own copies (``gr.BrowserState``) so that answers restored after a reload can still be copied.
A history sent back by the browser only picks which of its own tickets the page shows: a ticket
of another session is never looked up, whatever id the history names.

The page's own script (``static/desk.js``) is served from this app's origin as a file, so a strict
Content-Security-Policy (``script-src 'self'``) lets it run: it adds the copy actions to each
answer, the suggestion list under the question box and the ``/`` shortcut.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import gradio as gr
from fastapi import Query
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute

from bot.core import GlossaryBot
from bot.lookup.suggest import MAX_CHARS, Suggester, Suggestion
from bot.reply import ticket
from bot.reply.answer import Answer
from bot.reply.messages import t
from bot.settings import Settings
from bot.understand import dialogue
from bot.understand.cues import is_how_to
from bot.understand.text import SIDES, Side
from glossary import Glossary
from ui.votes import SessionAnswers

#: Where the page's script and the suggestions are served.
SCRIPT_ROUTE = "/desk.js"
SUGGEST_ROUTE = "/suggest"
#: localStorage key of the tickets this browser keeps (answer id -> ticket).
TICKETS_KEY = "glossary-bot-tickets"
SCRIPT = (Path(__file__).parent / "static" / "desk.js").read_text(encoding="utf-8")
#: The ``<head>`` line that loads the script (an external file: no inline script needed).
SCRIPT_TAG = f'<script src="{SCRIPT_ROUTE}" defer></script>'
Tickets = dict[str, dict[str, str]]


def page_texts() -> dict[Side, dict[str, str]]:
    """The script's texts in every interface language (from the message catalog)."""
    return {
        lang: {
            "copy_ticket": t("copy_ticket", lang),
            "copy_details": t("copy_details", lang),
            "copy_link": t("copy_link", lang),
            "copied": t("copied", lang),
            "copy_failed": t("copy_failed", lang),
            "suggestions": t("suggestions", lang),
            "box_limit": t("box_limit", lang),
            "clear_confirm": t("clear_confirm", lang),
        }
        for lang in SIDES
    }


def base_url(request: gr.Request, settings: Settings) -> str:
    """The app's absolute address as its user reached it (``public_url`` when set), no trailing slash."""
    if settings.public_url:
        return settings.public_url.rstrip("/")
    # a Request made by a caller (tests, gradio_client in-process) may carry no headers at all
    headers = getattr(request, "headers", None) or {}
    host = headers.get("x-forwarded-host") or headers.get("host") or f"{settings.host}:{settings.port}"
    raw = getattr(request, "request", None)
    scheme = headers.get("x-forwarded-proto") or (raw.url.scheme if raw is not None else "http")
    scheme = "https" if scheme in ("https", "wss") else "http"
    return f"{scheme}://{host}"


def answer_ids(history: list[dict]) -> list[str | None]:
    """The id of each answer (assistant message that is not a side block) in the history, in order."""
    return [
        str(meta["id"]) if isinstance(meta := m.get("metadata"), Mapping) and meta.get("id") else None
        for m in history
        if isinstance(m, dict) and dialogue.is_answer(m)
    ]


class Desk:
    """The tickets of every chat session's answers, bounded like the votes' record (``ui.votes``)."""

    def __init__(self) -> None:
        self._tickets = SessionAnswers()

    def remember(
        self, session: str, answer_id: str, answer: Answer, question: str, glossary: Glossary, base: str
    ) -> None:
        made = ticket.build(answer, question, glossary, base, is_how_to(question))
        self._tickets.remember(session, answer_id, made.model_dump_json())

    def shown(self, history: list[dict], kept: Tickets | None, session: str) -> tuple[Tickets, list]:
        """(the tickets the browser keeps now, one ticket or None per answer of the chat, in order):
        this session's tickets, else the browser's own from before a reload."""
        kept = kept if isinstance(kept, dict) else {}
        ids = answer_ids(history)
        now: Tickets = {}
        for answer_id in filter(None, ids):
            found = self._tickets.lookup(session, answer_id)
            if found is not None:
                now[answer_id] = json.loads(found)
            elif isinstance(kept.get(answer_id), dict):
                now[answer_id] = kept[answer_id]
        return now, [now.get(i) if i else None for i in ids]


class Suggestions:
    """The suggester of the glossary served now: made once per glossary (a reload makes a new one)."""

    def __init__(self, bot: GlossaryBot) -> None:
        self.bot = bot
        self._made: tuple[Glossary, Suggester] | None = None

    def __call__(self, typed: str, lang: Side) -> list[Suggestion]:
        view = self.bot.pinned()
        made = self._made
        if made is None or made[0] is not view.glossary:
            made = self._made = (view.glossary, Suggester(view.glossary, view.retriever.lexical))
        return made[1](typed, lang)


def desk_routes(bot: GlossaryBot) -> list[APIRoute]:
    """``GET /desk.js`` (the page's script) and ``GET /suggest?q=…&lang=…`` (entry names as JSON)."""
    suggestions = Suggestions(bot)
    script = f"const GLOSSARY_DESK_TEXTS = {json.dumps(page_texts(), ensure_ascii=False)};\n{SCRIPT}"

    def script_file() -> Response:
        return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    def suggest(q: str = Query("", max_length=MAX_CHARS * 4), lang: str = "en") -> JSONResponse:
        chosen: Side = "hi" if lang == "hi" else "en"
        found = suggestions(q, chosen)
        return JSONResponse([{"id": s.entry_id, "name": s.name, "other": s.other} for s in found])

    return [
        APIRoute(SCRIPT_ROUTE, script_file, methods=["GET"]),
        APIRoute(SUGGEST_ROUTE, suggest, methods=["GET"]),
    ]


def with_id(messages: list[dict[str, Any]], answer_id: str) -> list[dict[str, Any]]:
    """The reply's messages with ``answer_id`` on its answer (the first message, never a side block)."""
    first, *rest = messages
    return [{**first, "metadata": {**(first.get("metadata") or {}), "id": answer_id}}, *rest]
