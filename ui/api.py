"""``POST /api/answer``: the answer as JSON for programs, a plain route beside Gradio's queue.

Off the queue there is no event stream and no per-event bookkeeping, so a program's question costs
about what ``bot.answer`` costs (benchmarks/RESULTS.md, "Over HTTP"). The request and reply models
live here with the route: they are its documented contract (``/docs``).
"""

from __future__ import annotations

from functools import partial

from fastapi import HTTPException, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field

from bot.answer import Answer, Citation, public_json
from bot.core import GlossaryBot
from bot.inputs import as_question
from bot.messages import t
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


#: A question longer than this (characters) may cost up to a full 512-token encoder pass (~1 s on
#: one core, against ~20 ms for a usual one): such questions wait in a lane of their own with one
#: worker, so a caller sending them can neither hold every API worker nor delay the short questions.
LONG_QUESTION_CHARS = 256
LONG_QUESTION_WORKERS = 1
#: Long questions waiting at most: each wait is a few seconds, so a longer queue would only hold
#: callers for minutes (65 of them took over 120 s); beyond it they get 503 at once.
LONG_QUESTION_QUEUE = 4


def api_routes(bot: GlossaryBot, settings: Settings, store: Store) -> list[APIRoute]:
    """``POST /api/answer``, admitted by a :class:`Gate` with its own workers (``api_concurrency_limit``)
    and the same wait as Gradio's queue (``queue_max_size``); long questions by a gate of their own.
    Each answer is recorded in ``store`` on the same worker thread."""
    short = Gate(settings.api_concurrency_limit, settings.queue_max_size)
    long = Gate(LONG_QUESTION_WORKERS, min(LONG_QUESTION_QUEUE, settings.queue_max_size))

    def answer_and_record(question: str, history: list[dict] | None, lang: Lang | None) -> Answer:
        found = bot.answer(question, history, lang=lang)
        record(store, bot, question, found, "api")
        return found

    async def answer(body: AskBody) -> Response:
        """Answer one question with citations."""
        question = as_question(body.question)
        gate = long if len(question) > LONG_QUESTION_CHARS else short
        try:
            history = body.history[-settings.max_history_messages :]
            found = await gate.run(partial(answer_and_record, question, history, body.lang))
        except Busy:
            raise HTTPException(
                503, t("api_busy", "en", waiting=gate.capacity), {"Retry-After": "1"}
            ) from None
        # Serialised straight from the Answer: FastAPI would otherwise validate it again as ApiAnswer.
        return Response(public_json(found), media_type="application/json")

    return [APIRoute("/api/answer", answer, methods=["POST"], response_model=ApiAnswer)]
