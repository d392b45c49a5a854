"""The maintainers' report over answers the real bot gave: declined questions grouped by meaning,
disliked answers with comments, most asked entries, per language; markdown, CSV and JSON from the CLI."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

import pytest

from bot.records import Store
from bot.records import report as maintainers
from bot.records.answered import record
from tests.test_cli import run_cli

pytestmark = pytest.mark.model
REPO = Path(__file__).resolve().parents[1]

#: Made-up questions the glossary does not cover: two topics, several phrasings and languages.
FRANCE = ["what is the capital of france", "capital of France?", "फ्रांस की राजधानी क्या है"]
BREAD = ["how do I bake bread", "bread baking recipe"]


@pytest.fixture()
def recorded(bot, tmp_path) -> tuple[Store, str]:
    url = f"sqlite:///{tmp_path}/records.sqlite3"
    store = Store.open(url)
    live = bot.pinned()
    for question in FRANCE + BREAD:
        answer = live.answer(question)
        assert answer.kind == "declined", question
        record(store, live, question, answer, "chat")
    for question, vote, comment in [
        ("What is dropout?", "dislike", "too short"),
        ("dropout kya hai", "like", None),
        ("What is dropout?", "dislike", None),
        ("batch vs epoch", "like", None),
    ]:
        answer = live.answer(question)
        answer_id = record(store, live, question, answer, "api")
        assert answer_id is not None
        store.record_vote(answer_id, vote, comment)
    return store, url


def test_declined_questions_are_grouped_by_topic_with_nearest_entries(bot, recorded):
    store, _ = recorded
    found = maintainers.build(store, bot)
    assert found.questions == len(FRANCE) + len(BREAD) + 4
    assert [sorted(g.examples) for g in found.declined] == [sorted(FRANCE), sorted(BREAD)]
    assert found.declined[0].languages == {"en": 2, "hi": 1}
    assert all(g.nearest and all(e in found.terms for e in g.nearest) for g in found.declined)


def test_disliked_answers_come_with_their_comments_and_most_asked_entries_are_counted(bot, recorded):
    store, _ = recorded
    found = maintainers.build(store, bot)
    worst = found.disliked[0]
    assert (worst.entry_ids, worst.dislikes, worst.likes, worst.comments) == (
        ["dropout"],
        2,
        1,
        ["too short"],
    )
    assert found.most_asked[0] == ("dropout", 3)
    assert {"batch", "epoch"} <= {e for e, _ in found.most_asked}
    assert found.languages["en"].dislikes == 2 and found.languages["hinglish"].likes == 1


def _report(url: str, cache_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return run_cli("report", *args, cache_dir=cache_dir, env={"GLOSSARY_BOT_DATABASE_URL": url})


def test_cli_report_in_markdown_csv_and_json(recorded, cache_dir):
    _, url = recorded
    markdown = _report(url, cache_dir)
    assert markdown.returncode == 0, markdown.stderr
    assert "## Declined questions, grouped by meaning" in markdown.stdout
    assert "| 3 | en 2, hi 1 |" in markdown.stdout and "too short" in markdown.stdout
    data = json.loads(_report(url, cache_dir, "--json").stdout)
    assert data["questions"] == 9 and data["declined"][0]["count"] == 3
    rows = list(csv.DictReader(io.StringIO(_report(url, cache_dir, "--csv").stdout)))
    assert [r["count"] for r in rows if r["section"] == "declined"] == ["3", "2"]
    later = json.loads(_report(url, cache_dir, "--json", "--since", "2999-01-01").stdout)
    assert later["questions"] == 0 and later["declined"] == []
    bad = _report(url, cache_dir, "--since", "yesterday")
    assert bad.returncode == 2 and "expected a date" in bad.stderr and "Traceback" not in bad.stderr


def test_ask_records_only_with_record(tmp_path, cache_dir):
    url = f"sqlite:///{tmp_path}/r.sqlite3"
    for args in (["ask", "What is dropout?"], ["ask", "--record", "What is dropout?"]):
        done = run_cli(*args, cache_dir=cache_dir, env={"GLOSSARY_BOT_DATABASE_URL": url})
        assert done.returncode == 0, done.stderr
    (row,) = Store.open(url).answers_between(None, None)
    assert (row["question"], row["channel"], row["kind"], row["entry_ids"]) == (
        "What is dropout?",
        "cli",
        "answer",
        ["dropout"],
    )
