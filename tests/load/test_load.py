"""A reduced load test (8 sessions x 5 questions) through the app on 127.0.0.1; the full one is
``make bench-load`` (tests/load/run.py, 50 x 20, figures in RELIABILITY.md)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.records import Store
from tests.conftest import serving
from tests.load import harness

pytestmark = pytest.mark.model

SESSIONS = 8
QUESTIONS = 5


@pytest.fixture(scope="module")
def app_url(bot, settings) -> Iterator[tuple[str, object]]:
    with serving(bot, settings) as served:
        yield served


def test_concurrent_sessions_get_their_own_answers_and_every_vote_is_logged_once(app_url, bot):
    url, config = app_url
    report = harness.run_load(url, bot.glossary, SESSIONS, QUESTIONS, vote_every=2)
    print(report.summary())
    assert report.errors == []
    assert len(report.latencies) == SESSIONS * QUESTIONS
    assert len(report.votes) == SESSIONS * (QUESTIONS // 2)
    harness.wait_until_recorded(url)
    assert harness.feedback_errors(Store.open(config.database), report) == []


def test_the_checker_catches_an_answer_about_another_term(app_url, bot):
    """The load test can fail: a session expecting one term but hearing about another is an error."""
    url, _ = app_url
    first, second = [e for e in bot.glossary.entries if harness.askable(e, bot.glossary)][:2]
    report = harness.Report(sessions=1, questions=2)
    index = harness.CitationIndex(bot.glossary.entries)
    questions = harness.questions_for(first, 2)
    harness.run_session(url, harness.endpoints(url), second, questions, 0, report, index)
    assert len(report.errors) == 2 and all(f"not {second.id}" in e for e in report.errors)


def test_the_mixed_attack_leaves_normal_users_served(app_url, bot):
    """Long-question callers on /api/answer while chat sessions and short API questions go on: every
    normal user is answered correctly (latency and 503s are reported, not asserted)."""
    url, _ = app_url
    report = harness.run_attack(url, bot.glossary, attackers=3, sessions=3, questions=4)
    print(report.summary())
    assert report.chat.errors == [] and report.api.errors == []
    assert len(report.chat.latencies) == 3 * 4
    assert len(report.api.latencies) + report.api.busy == 3 * 4
    assert report.attack.errors == [] and len(report.attack.latencies) + report.attack.busy > 0
