"""``POST /api/answer``: the answer as JSON for programs, a plain route beside Gradio's queue.

Off the queue there is no event stream and no per-event bookkeeping, so a program's question costs
about what ``bot.answer`` costs (benchmarks/RESULTS.md, "Over HTTP"). The request and reply models
live here with the route: they are its documented contract (``/docs``); every part of the body is
typed, a history message too, so a malformed one is a 422 naming the field (before, a ``metadata``
that was not an object or ``entry_ids`` that were not strings raised inside the bot: a 500).
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Literal

from fastapi import HTTPException, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, Field

from bot.core import GlossaryBot
from bot.inputs import as_question
from bot.records.answered import record
from bot.records.writer import Recorder
from bot.reply.answer import Answer, Citation, public_json
from bot.reply.messages import t
from bot.settings import Settings
from bot.understand.text import Lang
from ui.admission import Busy, Gate, Lane, Lanes

#: Longest content of one history message, and most entry ids its metadata may list: bounds far
#: above what the app writes (an answer with its details is a few KB and cites a handful of entries).
MAX_MESSAGE_CHARS = 20_000
MAX_CITED_IDS = 64
MAX_ID_CHARS = 200


class MessageMetadata(BaseModel):
    """A chat message's ``metadata``: Gradio's keys (``title`` marks a side block such as Sources)
    and the entries an answer cites; other keys are kept as they are."""

    model_config = ConfigDict(extra="allow")

    title: str | None = Field(default=None, max_length=MAX_ID_CHARS)
    entry_ids: list[Annotated[str, Field(max_length=MAX_ID_CHARS)]] | None = Field(
        default=None, max_length=MAX_CITED_IDS, description="Ids of the entries the answer cites."
    )


#: Most parts a message's content may be split into (Gradio's list form).
MAX_PARTS = 64
Text = Annotated[str, Field(max_length=MAX_MESSAGE_CHARS)]


class TextPart(BaseModel):
    """One part of a message's content in Gradio's list form (only text parts are read)."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(default="text", max_length=MAX_ID_CHARS)
    text: Text = ""


class HistoryMessage(BaseModel):
    """One earlier message, in Gradio's messages format (content a string, or a list of parts)."""

    role: Literal["user", "assistant", "system"]
    content: Text | Annotated[list[TextPart | Text], Field(max_length=MAX_PARTS)]
    metadata: MessageMetadata | None = None


class AskBody(BaseModel):
    """Body of ``POST /api/answer``."""

    question: str = Field(description="The question, in Hindi, English or Hinglish.")
    lang: Lang | None = Field(default=None, description="Answer language; null = the question's.")
    history: list[HistoryMessage] = Field(
        default_factory=list,
        description="Earlier messages, Gradio's format ([{role, content, metadata}, ...]), for "
        "follow-ups such as 'give me an example'.",
    )

    def messages(self, keep: int) -> list[dict]:
        """The newest ``keep`` messages as the bot reads them (plain dicts)."""
        return [m.model_dump(exclude_none=True) for m in self.history[-keep:]]


class ApiAnswer(BaseModel):
    """Reply of ``POST /api/answer``: the answer's text and where each part came from."""

    text: str = Field(description="The quick answer as markdown (the same text as the chat).")
    details: str = Field(description="Usage, example, cautions, the other language (shown collapsed).")
    label: str | None = Field(
        description="How the answer names its match: exact (the question names the entry), did_you_mean "
        "(it names it misspelt), likely or closest (how sure the ranking is)."
    )
    lang: Lang
    abstained: bool = Field(description="True when the glossary does not cover the question.")
    citations: list[Citation]
    related: list[str] = Field(description="Entry ids offered as follow-up questions.")
    notice: str | None
    confidence: float | None = Field(
        description="Probability that the first cited entry is the right one, calibrated for this "
        "glossary (None for a follow-up about an earlier answer)."
    )


def api_routes(bot: GlossaryBot, settings: Settings, store: Recorder, lanes: Lanes) -> list[APIRoute]:
    """``POST /api/answer``, admitted by the API's :class:`Gate` (``api_concurrency_limit`` workers,
    ``queue_max_size`` waiting), or, when the text it will encode is long, by the long lane it shares
    with the chat. Each answer is queued to be recorded in ``store`` (never waited for)."""

    def answer_and_record(question: str, history: list[dict], lang: Lang | None) -> Answer:
        found = bot.answer(question, history, lang=lang)
        record(store, bot, question, found, "api")
        return found

    async def answer(body: AskBody) -> Response:
        """Answer one question with citations."""
        question = as_question(body.question)
        history = body.messages(settings.max_history_messages)
        work = partial(answer_and_record, question, history, body.lang)
        lane: Gate | Lane = lanes.api
        try:
            if lanes.is_long(bot.encoded_text(question, history)):
                lane = lanes.long
                found = await lanes.long.run_async(work)
            else:
                found = await lanes.api.run(work)
        except Busy:
            raise HTTPException(
                503, t("api_busy", "en", waiting=lane.capacity), {"Retry-After": "1"}
            ) from None
        # Serialised straight from the Answer: FastAPI would otherwise validate it again as ApiAnswer.
        return Response(public_json(found), media_type="application/json")

    return [APIRoute("/api/answer", answer, methods=["POST"], response_model=ApiAnswer)]
