"""A flood of ``POST /api/answer`` callers (issue 13, point 2): the gate is decided before a thread is
taken, so callers beyond ``queue_max_size`` get 503 at once, and the chat keeps being served; long
questions wait in a lane of their own, so short ones are still answered.

The answers of the flood are held on an event (not timed), so the test sees the state a slow flood
leaves the server in: more callers than AnyIO's 40 worker threads, all of them waiting.
"""

from __future__ import annotations

import asyncio
import threading

import httpx
import pytest

from bot.core import GlossaryBot
from tests.conftest import serving
from ui.admission import LONG_QUESTION_CHARS, LONG_QUESTION_QUEUE, LONG_QUESTION_WORKERS

#: More than AnyIO's default thread pool (40), which Gradio's queue runs its events on.
FLOOD = 100
QUEUE = 50
HOLD = "hold this question"
API_WORKERS = 2
#: Per lane: how a flooding caller's n-th question reads, and how many of them the lane admits.
LANES = {
    "short": (lambda n: f"{HOLD} {n}", API_WORKERS + QUEUE),
    "long": (
        lambda n: f"{HOLD} {n} " + "x" * LONG_QUESTION_CHARS,
        LONG_QUESTION_WORKERS + LONG_QUESTION_QUEUE,
    ),
}


@pytest.mark.model
@pytest.mark.parametrize("lane", LANES)
def test_a_flood_of_api_callers_is_turned_away_and_the_chat_is_still_served(bot, settings, lane):
    """Short questions: more callers than AnyIO's 40 threads and a queue longer than that (the
    reported case). Long ones: a lane of their own, so short questions are answered meanwhile."""
    from gradio_client import Client

    question, admitted = LANES[lane]

    served = bot.pinned()
    release = threading.Event()

    def answer(*args, **kwargs):
        if args and HOLD in args[0]:
            release.wait(120)
        return GlossaryBot.answer(served, *args, **kwargs)

    served.answer = answer  # type: ignore[method-assign]
    with serving(served, settings, queue_max_size=QUEUE, api_concurrency_limit=API_WORKERS) as (url, _):

        async def flood() -> list[httpx.Response]:
            limits = httpx.Limits(max_connections=FLOOD)
            async with httpx.AsyncClient(timeout=180, limits=limits) as client:
                calls = [
                    asyncio.create_task(client.post(f"{url}/api/answer", json={"question": question(n)}))
                    for n in range(FLOOD)
                ]
                done, _ = await asyncio.wait(calls, return_when=asyncio.FIRST_COMPLETED, timeout=120)
                busy = [task.result() for task in done]
                # every caller the gate cannot hold has been answered 503 while the rest are still held
                while len(busy) < FLOOD - admitted:
                    more, _ = await asyncio.wait(
                        [c for c in calls if not c.done()], return_when=asyncio.FIRST_COMPLETED, timeout=120
                    )
                    assert more, "the flood's excess was never turned away"
                    busy += [task.result() for task in more]
                assert all(r.status_code == 503 for r in busy)
                # the chat is served while the admitted callers are held on their threads
                chat = Client(url + "/", verbose=False, analytics_enabled=False)
                _, history = await asyncio.to_thread(chat.predict, "What is dropout?", [], api_name="/chat")
                assert "Dropout" in str(history[-1]["content"])
                if lane == "long":  # and so is a short question to the same route
                    short = await client.post(f"{url}/api/answer", json={"question": "What is dropout?"})
                    assert short.json()["citations"][0]["entry_id"] == "dropout"
                release.set()
                return [await call for call in calls]

        replies = asyncio.run(flood())
    codes = [r.status_code for r in replies]
    assert codes.count(503) == FLOOD - admitted and codes.count(200) == admitted
    assert replies[codes.index(503)].headers["retry-after"] == "1"
