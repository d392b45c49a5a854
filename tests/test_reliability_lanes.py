"""Lanes by cost, not by field (issue 26, point 3): the admission lane is chosen by the text the answer
will encode, so a long question sent as the history of "in English please" waits in the long lane,
and the chat has the same long lane as ``POST /api/answer``.

Before: 6 such callers for 20 s took normal API users from p50 32 ms to 4,554 ms and never saw a 503;
100 chat joins of 2,000-character questions filled the queue and a normal chat got "Queue is full".
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import gradio as gr
import httpx
import pytest

from bot.core import GlossaryBot
from bot.records import Store
from bot.records.writer import Recorder
from bot.understand.dialogue import message_text
from tests.conftest import eventually, serving
from tests.load.harness import AppSession, endpoints, long_question
from ui.admission import LONG_QUESTION_QUEUE, LONG_QUESTION_WORKERS, Busy, Gate, Lane, Lanes
from ui.callbacks import Callbacks

pytestmark = pytest.mark.model

ATTACKERS = 6
#: A refused attacker's pause before it asks again (it would hammer as fast as it is refused).
ATTACK_PAUSE_S = 0.02
#: Short questions a normal user asks while the long lane is held full.
NORMAL_QUESTIONS = 10
#: Long chat questions joining the queue at once.
FLOOD = 40
#: The longest a long answer is held (a bound against a hang, not a timing claim: a test releases
#: them as soon as it has counted).
HOLD_S = 60.0


def test_a_reserved_place_is_taken_over_by_its_event_and_counted_for_everyone_else():
    """A join's reservation becomes its event's admission in one step, and every place reserved is
    full for others: the API's long questions (no session) and joins alike (before, the event let
    go of its reservation and then was admitted, and an API caller was admitted past reservations)."""
    lane = Lane(1, 4)
    assert all(lane.reserve(f"s{n}") for n in range(5)) and not lane.reserve("late")
    with pytest.raises(Busy), lane.admission():
        pass
    with pytest.raises(Busy), lane.admission("late"):
        pass
    with lane.admission("s0"):  # its own place, though the lane is full
        assert not lane.reserve("late") and lane.admitted == 1
    lane.claim("s1")  # an event that runs in another lane lets its place go (and s0 has ended)
    assert lane.reserve("late") and lane.reserve("later") and not lane.reserve("last")


def _switch(long: str) -> tuple[str, list[dict]]:
    """ "in English please" after a long question: the follow-up answers the long question again."""
    return "in English please", [{"role": "user", "content": long}, {"role": "assistant", "content": "…"}]


def test_the_text_to_encode_is_the_question_a_follow_up_answers_again(bot):
    long = long_question(1)
    question, history = _switch(long)
    assert bot.encoded_text(question, history) == long[: bot.settings.max_question_chars].strip()
    assert bot.encoded_text("give me an example", history) == ""  # about the earlier answer's entries
    assert bot.encoded_text("what is dropout?", history) == "what is dropout?"
    assert Lanes.is_long(bot.encoded_text(question, history)) and not Lanes.is_long("what is dropout?")


def test_the_chat_has_the_long_lane_and_a_follow_up_cannot_bypass_it(bot, settings, tmp_path):
    lanes = Lanes(long=Lane(1, 0), chat=Lane(2, 10), api=Gate(1, 1))
    store = Recorder.over(Store.open(f"sqlite:///{tmp_path}/r.sqlite3"))
    respond = Callbacks(bot, settings, store, lanes).respond
    session = gr.Request(session_hash="s")
    question, history = _switch(long_question(2))
    with lanes.long.admission():  # the long lane is full
        for asked, earlier in ((long_question(3), []), (question, history)):
            with pytest.raises(gr.Error):
                respond(asked, earlier, [], {}, session)
        _, answered, _, _ = respond("what is dropout?", history, [], {}, session)  # the short lane
    assert "Dropout" in answered[-3]["content"] or "ड्रॉपआउट" in answered[-3]["content"]
    _, answered, _, _ = respond(question, history, [], {}, session)  # the lane free again: answered
    assert len(answered) > len(history)
    store.close()


@pytest.fixture
def held_long_answers(monkeypatch) -> Iterator[threading.Event]:
    """Every answer that encodes a long text waits until the event is set (``HOLD_S`` at the most), so
    the long lane stays full for as long as a test needs: places are counted, not timed (a timed
    version failed on a loaded machine when an answer freed its place mid-flood)."""
    release = threading.Event()
    answer = GlossaryBot._answer

    def held(self, loaded, question, history, *rest):
        if Lanes.is_long(self.encoded_text(question, history)):
            release.wait(HOLD_S)
        return answer(self, loaded, question, history, *rest)

    monkeypatch.setattr(GlossaryBot, "_answer", held)
    try:
        yield release
    finally:
        release.set()


def _attacker(url: str, seed: int, stop: threading.Event, seen: list[int]) -> None:
    with httpx.Client(timeout=2 * HOLD_S) as http:
        while not stop.is_set():
            question, history = _switch(long_question(seed * 1000 + len(seen)))  # new each time: no cache
            reply = http.post(f"{url}/api/answer", json={"question": question, "history": history})
            seen.append(reply.status_code)
            stop.wait(ATTACK_PAUSE_S)


def test_the_history_bypass_is_turned_away_while_normal_users_are_served(bot, settings, held_long_answers):
    """``ATTACKERS`` callers sending long questions through the history of "in English please" fill the
    long lane (held there) and are turned away beyond it, while a normal user's short questions are
    each answered. Before the fix the bypass was answered in the short lane: held answers would have
    taken its workers and the normal user would have waited for them. How much slower a normal user
    is while such answers take the cores is a figure of ``python -m tests.load.run --attackers``."""
    stop = threading.Event()
    seen: list[list[int]] = [[] for _ in range(ATTACKERS)]
    with serving(bot, settings) as (url, _), httpx.Client(timeout=HOLD_S / 2) as http:
        callers = [threading.Thread(target=_attacker, args=(url, n, stop, seen[n])) for n in range(ATTACKERS)]
        for caller in callers:
            caller.start()
        try:
            refused = eventually(lambda: sum(one.count(503) for one in seen), lambda n: n > 0, HOLD_S / 2)
            assert refused, "the long lane never filled"
            for n in range(NORMAL_QUESTIONS):  # each must come while the long lane is held full
                reply = http.post(f"{url}/api/answer", json={"question": f"what is dropout? ({n})"})
                assert reply.status_code == 200 and reply.json()["citations"][0]["entry_id"] == "dropout"
        finally:
            stop.set()
            held_long_answers.set()
            for caller in callers:
                caller.join(2 * HOLD_S)
    statuses = [status for one in seen for status in one]
    print(f"history attackers: {statuses.count(200)} answered, {statuses.count(503)} x 503")
    assert statuses.count(503) > 0 and set(statuses) <= {200, 503}
    assert statuses.count(200) >= LONG_QUESTION_WORKERS + LONG_QUESTION_QUEUE  # the held ones, released


#: What each question-asking API event takes after its question.
REST_OF_JOIN = {"chat": [[], None, None, None], "ask": []}


@pytest.mark.parametrize("api_name", list(REST_OF_JOIN))
def test_long_chat_questions_beyond_the_lane_are_turned_away_when_they_join(
    bot, settings, held_long_answers, api_name
):
    """100 joins at once of long questions filled Gradio's queue and a normal user a second later was
    told "Queue is full"; now each long join holds a place in the long lane or gets 503 at once,
    through the chat or gradio_client's ``/ask`` (which bypassed the lanes: 10 long ones were all
    taken, four at a time, while ``/api/answer`` refused half). The long answers are held, so no place
    is freed while the joins arrive: exactly the lane's places are taken, and a normal chat is
    answered while they are held."""
    with serving(bot, settings) as (url, _), httpx.Client(timeout=HOLD_S / 2) as http:
        ends = endpoints(url)
        fn_index, trigger = ends[api_name]

        def join(n: int) -> int:
            body = {
                "data": [long_question(100 + n), *REST_OF_JOIN[api_name]],
                "fn_index": fn_index,
                "trigger_id": trigger,
                "session_hash": f"flood{n}",
                "event_data": None,
            }
            return http.post(f"{url}/gradio_api/queue/join", json=body).status_code

        with ThreadPoolExecutor(FLOOD) as pool:
            joined = list(pool.map(join, range(FLOOD)))
        new = AppSession(url, http, ends).chat("what is dropout?")
        held_long_answers.set()
    places = LONG_QUESTION_WORKERS + LONG_QUESTION_QUEUE
    assert joined.count(200) == places and joined.count(503) == FLOOD - places, joined
    assert "Dropout" in message_text(new[1])
