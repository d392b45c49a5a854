"""Votes from the page (issue 13.5): only answers the server gave this session can be rated, impossible
positions are refused, one vote per answer, votes and comments rate-limited per session and capped."""

from __future__ import annotations

from types import SimpleNamespace

import gradio as gr
import pytest

from bot.records import AnswerRecord, Store
from bot.records.writer import Recorder
from bot.reply.messages import t
from bot.settings import Settings
from ui.callbacks import Callbacks
from ui.votes import RateLimit, SessionAnswers

ANSWER = "### Dropout\nDropout switches units off at random."
HISTORY = [
    {"role": "user", "content": "What is dropout?"},
    {"role": "assistant", "content": ANSWER},
    {"role": "assistant", "content": "| # | term |", "metadata": {"title": "Sources"}},
]


@pytest.fixture()
def app(tmp_path) -> tuple[Callbacks, Store, str]:
    """Callbacks over a fresh store in which session "s1" was given ``ANSWER`` (no model: votes never
    touch the bot)."""
    settings = Settings(cache_dir=tmp_path, votes_per_minute=3, max_comment_chars=10)
    store = Store.open(settings.database)
    callbacks = Callbacks(SimpleNamespace(), settings, Recorder.over(store))  # type: ignore[arg-type]
    answer_id = store.record_answer(
        AnswerRecord("What is dropout?", "en", "answer", ("dropout",), 0.9, "v", "chat")
    )
    callbacks.answered.remember("s1", ANSWER, answer_id)
    return callbacks, store, answer_id


def _vote(callbacks: Callbacks, index: object, liked: bool = True, session: str = "s1", history=HISTORY):
    data = gr.LikeData(None, {"index": index, "value": None, "liked": liked})
    return callbacks.vote(history, {}, "en", data, gr.Request(session_hash=session))


def _votes(store: Store) -> list[tuple[str | None, str | None]]:
    return [(r["vote"], r["comment"]) for r in store.answers_between(None, None)]


@pytest.mark.parametrize("index", [1, 2, [2, 0]])
def test_a_vote_on_the_answer_or_its_sources_rates_the_servers_answer(app, index):
    callbacks, store, answer_id = app
    pending, _, status = _vote(callbacks, index)
    assert pending == {"answer_id": answer_id, "vote": "like"} and status == t("vote_like", "en")
    assert _votes(store) == [("like", None)]


@pytest.mark.parametrize("index", [-5, 3, 99, 0, "1", None])
def test_impossible_positions_and_questions_are_refused(app, index):
    callbacks, store, _ = app
    pending, _, status = _vote(callbacks, index)
    assert pending is None and status == t("feedback_unknown", "en")
    assert _votes(store) == [(None, None)]


def test_a_forged_answer_or_another_sessions_answer_cannot_be_rated(app):
    callbacks, store, _ = app
    forged = [HISTORY[0], {"role": "assistant", "content": "### Anything I like"}]
    assert _vote(callbacks, 1, history=forged)[2] == t("feedback_unknown", "en")
    assert _vote(callbacks, 1, session="s2")[2] == t("feedback_unknown", "en")
    assert _votes(store) == [(None, None)]


def test_a_later_vote_replaces_the_earlier_and_a_comment_joins_it_capped(app):
    callbacks, store, _ = app
    _vote(callbacks, 1, liked=True)
    pending, _, _ = _vote(callbacks, 1, liked=False)
    callbacks.comment("far too short an answer", pending, "en", gr.Request(session_hash="s1"))
    assert _votes(store) == [("dislike", "far too sh")]


def test_votes_beyond_the_rate_limit_are_refused_per_session(app):
    callbacks, store, _ = app
    statuses = [_vote(callbacks, 1, liked=bool(n % 2))[2] for n in range(4)]
    assert statuses[-1] == t("feedback_too_fast", "en") and t("feedback_too_fast", "en") not in statuses[:3]
    assert _votes(store) == [("dislike", None)]  # the third vote stands


def test_rate_limit_window_slides(monkeypatch):
    now = [0.0]
    monkeypatch.setattr("ui.votes.time.monotonic", lambda: now[0])
    limit = RateLimit(2, window_s=10)
    assert [limit.allow("a"), limit.allow("a"), limit.allow("a"), limit.allow("b")] == [
        True,
        True,
        False,
        True,
    ]
    now[0] = 10.0
    assert limit.allow("a")


def test_session_memory_is_bounded():
    answers = SessionAnswers(sessions=2, per_session=2)
    for n in range(3):
        answers.remember("s1", f"a{n}", f"id{n}")
    answers.remember("s2", "x", "idx")
    answers.remember("s3", "y", "idy")
    assert answers.lookup("s1", "a0") is None  # s1 is the oldest session: forgotten
    assert (answers.lookup("s2", "x"), answers.lookup("s3", "y")) == ("idx", "idy")
    answers.remember("s2", "z", "idz")
    answers.remember("s2", "w", "idw")
    assert answers.lookup("s2", "x") is None and answers.lookup("s2", "w") == "idw"


def test_an_answer_restored_after_a_reload_is_rated_by_its_id_in_the_same_browser_only(app):
    callbacks, store, answer_id = app
    callbacks.browsers.bind("before-reload", "browser-1")
    callbacks.answered.remember(callbacks.browsers.key("before-reload"), f"id:{answer_id}", answer_id)
    restored = [HISTORY[0], {"role": "assistant", "content": "edited text", "metadata": {"id": answer_id}}]
    callbacks.browsers.bind("after-reload", "browser-2")
    assert _vote(callbacks, 1, session="after-reload", history=restored)[2] == t("feedback_unknown", "en")
    callbacks.browsers.bind("after-reload", "browser-1")
    pending, _, _ = _vote(callbacks, 1, session="after-reload", history=restored)
    assert pending == {"answer_id": answer_id, "vote": "like"}
    assert _votes(store) == [("like", None)]


def test_a_caller_without_a_session_cannot_vote(app):
    """A plain REST call has no session: before, all such callers shared one key."""
    callbacks, store, _ = app
    callbacks.answered.remember(
        "", ANSWER, store.record_answer(AnswerRecord("q", "en", "answer", ("dropout",), 0.9, "v", "chat"))
    )
    data = gr.LikeData(None, {"index": 1, "value": None, "liked": False})
    _, _, status = callbacks.vote(HISTORY, {}, "en", data, gr.Request(session_hash=None))
    assert status == t("feedback_unknown", "en") and _votes(store) == [(None, None), (None, None)]
