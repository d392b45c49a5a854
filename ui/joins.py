"""Long chat questions turned away when they join Gradio's queue, not only when they run.

The chat's answering events share the long lane with ``POST /api/answer`` (``ui.admission``), but
the lane is decided in the event's handler, which runs only once Gradio's queue reaches it: 100
joins of 2,000-character questions at once filled the queue (``queue_max_size``), and a normal user
joining a second later was told "Queue is full" although every long question but five was then
refused in milliseconds. ``LongJoins`` (ASGI middleware, behind ``RequestLimits``, which has read
and bounded the body) reads a join of a question-asking event, and when the text it will encode is
long, reserves a place in the long lane for it (``Lane.reserve``) or answers 503 at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection
from typing import Any

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from bot.reply.messages import t
from ui.admission import Lanes
from ui.limits import replay_body

#: Gradio's route an event joins the queue by (after the mount prefix).
JOIN_SUFFIX = "/queue/join"


class LongJoins:
    """ASGI middleware: a long question joining the queue holds a place in the long lane, or gets 503."""

    def __init__(
        self, app: ASGIApp, lanes: Lanes, encoded: Callable[[str, list], str], asking: Collection[int]
    ) -> None:
        self.app = app
        self.lanes = lanes
        self.encoded = encoded  # the bot's encoded_text, read when a join arrives
        self.asking = asking  # the fn_index of each event whose first input is the question asked

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or not scope["path"].endswith(JOIN_SUFFIX):
            await self.app(scope, receive, send)
            return
        message = await receive()  # RequestLimits hands on the whole body as one message
        if not self._admit(message.get("body", b"")):
            await JSONResponse({"detail": t("chat_busy", "en")}, 503, headers={"Retry-After": "1"})(
                scope, receive, send
            )
            return
        await self.app(scope, replay_body(message.get("body", b""), receive), send)

    def _admit(self, body: bytes) -> bool:
        try:
            join: Any = json.loads(body)
            data, fn_index, session = join["data"], join["fn_index"], str(join.get("session_hash") or "")
        except (ValueError, TypeError, KeyError):
            return True  # Gradio's own validation answers a malformed join
        if (
            fn_index not in self.asking
            or not isinstance(data, list)
            or not data
            or not isinstance(data[0], str)
        ):
            return True
        history = data[1] if len(data) > 1 and isinstance(data[1], list) else []
        try:
            text = self.encoded(data[0], history)
        except (TypeError, AttributeError, KeyError):  # a history of the wrong shape: Gradio refuses it
            return True
        return not self.lanes.is_long(text) or self.lanes.long.reserve(session)
