"""Lanes by cost, not by field (issue 26, point 3): the admission lane is chosen by the text the answer
will encode, so a long question sent as the history of "in English please" waits in the long lane,
and the chat has the same long lane as ``POST /api/answer``.

Before: 6 such callers for 20 s took normal API users from p50 32 ms to 4,554 ms and never saw a 503;
100 chat joins of 2,000-character questions filled the queue and a normal chat got "Queue is full".
"""

from __future__ import annotations

import multiprocessing
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from multiprocessing import Queue

import gradio as gr
import httpx
import pytest

from bot.records import Store
from bot.records.writer import Recorder
from bot.understand.dialogue import message_text
from tests.conftest import serving
from tests.load.harness import AppSession, endpoints, long_question
from tests.load.run import app_process
from ui.admission import LONG_QUESTION_QUEUE, LONG_QUESTION_WORKERS, Gate, Lane, Lanes
from ui.callbacks import Callbacks

pytestmark = pytest.mark.model

ATTACKERS = 6
#: How long the attack lasts (short: the machine's two cores are shared with the rest of the suite).
ATTACK_S = 8.0
P95_MS = 200
#: Long chat questions joining the queue at once.
FLOOD = 40
#: The normal user alone first, for scale (printed, not asserted).
BASELINE_S = 3.0
#: Time the attackers' process gets to start and fill the long lane.
ATTACK_START_S = 3.0


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


def _attacker(url: str, seed: int, end: float, seen: list[int]) -> None:
    with httpx.Client(timeout=120) as http:
        while time.monotonic() < end:
            question, history = _switch(long_question(seed * 1000 + len(seen)))  # new each time: no cache
            reply = http.post(f"{url}/api/answer", json={"question": question, "history": history})
            seen.append(reply.status_code)


def _attack(url: str, seconds: float, statuses: Queue) -> None:
    """``ATTACKERS`` callers, in a process of their own (so the normal user's timings are not taken in
    a process busy with theirs): long questions through the history of "in English please", each
    caller as fast as it is answered or refused."""
    end = time.monotonic() + seconds
    seen: list[list[int]] = [[] for _ in range(ATTACKERS)]
    callers = [threading.Thread(target=_attacker, args=(url, n, end, seen[n])) for n in range(ATTACKERS)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    statuses.put([status for one in seen for status in one])


def _normal_user(http: httpx.Client, url: str, seconds: float) -> list[float]:
    """Short questions one after another for ``seconds``; each must be answered right."""
    latencies: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.perf_counter()
        reply = http.post(f"{url}/api/answer", json={"question": f"what is dropout? ({len(latencies)})"})
        latencies.append(time.perf_counter() - start)
        assert reply.status_code == 200 and reply.json()["citations"][0]["entry_id"] == "dropout"
        time.sleep(0.05)
    return latencies


def _p50_p95_ms(latencies: list[float]) -> tuple[float, float]:
    return statistics.median(latencies) * 1000, statistics.quantiles(latencies, n=20)[-1] * 1000


def test_the_history_bypass_is_turned_away_while_normal_users_are_served(tmp_path):
    spawn = multiprocessing.get_context("spawn")
    results = spawn.Queue()
    with app_process(tmp_path) as (url, _, _), httpx.Client(timeout=60) as http:
        baseline = _normal_user(http, url, BASELINE_S)
        attack_s = ATTACK_S + ATTACK_START_S
        attack = spawn.Process(target=_attack, args=(url, attack_s, results))
        attack.start()
        time.sleep(ATTACK_START_S)  # the attackers start and fill the long lane
        attacked = _normal_user(http, url, ATTACK_S)
        statuses = results.get(timeout=300)
        attack.join(60)
    before, during = _p50_p95_ms(baseline), _p50_p95_ms(attacked)
    print(
        f"normal user p50 / p95: {before[0]:.0f} / {before[1]:.0f} ms alone, {during[0]:.0f} / "
        f"{during[1]:.0f} ms under attack; history attackers: {statuses.count(200)} answered, "
        f"{statuses.count(503)} x 503"
    )
    assert statuses.count(503) > 0 and set(statuses) <= {200, 503}
    # 200 ms on a machine that answers in tens of ms alone; on one so loaded that the normal user's
    # own tail is slower than that, the attack may at most double it (before: p50 4,554 ms).
    assert during[1] < max(P95_MS, 2 * before[1]), (before, during)


#: What each question-asking API event takes after its question.
REST_OF_JOIN = {"chat": [[], None, None, None], "ask": []}


@pytest.mark.parametrize("api_name", list(REST_OF_JOIN))
def test_long_chat_questions_beyond_the_lane_are_turned_away_when_they_join(bot, settings, api_name):
    """100 joins at once of long questions filled Gradio's queue and a normal user a second later was
    told "Queue is full"; now each long join holds a place in the long lane or gets 503 at once,
    through the chat or gradio_client's ``/ask`` (which bypassed the lanes: 10 long ones were all
    taken, four at a time, while ``/api/answer`` refused half)."""
    with serving(bot, settings) as (url, _), httpx.Client(timeout=120) as http:
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

        started = time.monotonic()
        AppSession(url, http, ends).chat(long_question(99))  # one long answer alone, for its time
        one_long_s = time.monotonic() - started
        started = time.monotonic()
        with ThreadPoolExecutor(FLOOD) as pool:
            joined = list(pool.map(join, range(FLOOD)))
        flood_s = time.monotonic() - started
        new = AppSession(url, http, ends).chat("what is dropout?")
    # A place freed by a long answer that ended while the joins were still arriving may be taken again:
    # on a loaded machine the 40 joins can take longer than one answer alone (a floor: under the flood
    # each answer is slower still).
    freed = LONG_QUESTION_WORKERS * int(flood_s / one_long_s)
    places = LONG_QUESTION_WORKERS + LONG_QUESTION_QUEUE + freed
    print(f"one long answer {one_long_s:.2f} s, {FLOOD} joins in {flood_s:.2f} s: {freed} places freed")
    assert joined.count(200) <= places and joined.count(503) >= FLOOD - places, joined
    assert "Dropout" in message_text(new[1])
