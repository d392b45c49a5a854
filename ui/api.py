"""``POST /api/answer``: the answer as JSON for programs, a plain route beside Gradio's queue.

Off the queue there is no event stream and no per-event bookkeeping, so a program's question costs
about what ``bot.answer`` costs (benchmarks/RESULTS.md, "Over HTTP"). The request and reply models
live here with the route: they are its documented contract (``/docs``).
"""

from __future__ import annotations

from fastapi import HTTPException, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field

from bot.answer import Citation, public_json
from bot.core import GlossaryBot
from bot.inputs import as_question
from bot.records import Store
from bot.records.answered import record
from bot.settings import Settings
from bot.text import Lang
from ui.admission import Busy, Gate


class AskBody(BaseModel):
    """Body of ``POST /api/answer``."""

    question: str = Field(description="The question, in Hindi, English or Hinglish.")
    lang: Lang | None = Field(default=None, description="Answer language; null = the question's.")
    history: list[dict] = Field(
        default_factory=list,
        description="Earlier messages, Gradio's format ([{role, content}, ...]), for follow-ups such as "
        "'give me an example'.",
    )


class ApiAnswer(BaseModel):
    """Reply of ``POST /api/answer``: the answer's text and where each part came from."""

    text: str = Field(description="The quick answer as markdown (the same text as the chat).")
    details: str = Field(description="Usage, example, cautions, the other language (shown collapsed).")
    label: str | None = Field(description="The confidence in words: exact, likely or closest.")
    lang: Lang
    abstained: bool = Field(description="True when the glossary does not cover the question.")
    citations: list[Citation]
    related: list[str] = Field(description="Entry ids offered as follow-up questions.")
    notice: str | None
    confidence: float | None = Field(
        description="Probability that the first cited entry is the right one, calibrated for this "
        "glossary (None for a follow-up about an earlier answer)."
    )


def api_routes(bot: GlossaryBot, settings: Settings, store: Store) -> list[APIRoute]:
    """``POST /api/answer``, admitted by a :class:`Gate` sized by the same settings as Gradio's queue;
    each answer is recorded in ``store``."""
    gate = Gate(settings.concurrency_limit, settings.queue_max_size)

    def answer(body: AskBody) -> Response:
        """Answer one question with citations."""
        try:
            with gate.slot():
                question = as_question(body.question)
                found = bot.answer(question, body.history, lang=body.lang)
                record(store, bot, question, found, "api")
        except Busy:
            raise HTTPException(
                503, f"busy: {gate.capacity} questions are waiting; try again shortly", {"Retry-After": "1"}
            ) from None
        # Serialised straight from the Answer: FastAPI would otherwise validate it again as ApiAnswer.
        return Response(public_json(found), media_type="application/json")

    return [APIRoute("/api/answer", answer, methods=["POST"], response_model=ApiAnswer)]
