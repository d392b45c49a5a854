"""The question and feedback store on SQLite and on a real PostgreSQL server (started by the test):
answers and votes, one vote per answer, retention, migrations under concurrent start-ups, 8
processes x 50 concurrent writes with nothing lost, and the one-time import of feedback.jsonl."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.inputs import json_line
from bot.records import AnswerRecord, Store, UnknownAnswer
from bot.records.legacy import IMPORTED_SUFFIX, import_feedback, read_feedback
from bot.records.store import MAX_TEXT, Pruner, StoreError
from bot.records.tables import metadata
from tests.postgres import postgres_server

REPO = Path(__file__).resolve().parents[1]
WORKERS = 8
PER_WORKER = 50
ASKED = AnswerRecord("What is dropout?", "en", "answer", ("dropout",), 0.91, "v1", "chat")


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path) -> Iterator[str]:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/records.sqlite3"
        return
    base = request.getfixturevalue("postgres")
    store = Store.open(base)
    with store.engine.begin() as conn:  # an empty schema for each test
        conn.exec_driver_sql("DROP TABLE IF EXISTS votes, answers, alembic_version")
    store.close()
    yield base


def test_answers_and_votes_are_linked_and_one_vote_per_answer_remains(url):
    store = Store.open(url)
    answer_id = store.record_answer(ASKED)
    store.record_vote(answer_id, "like")
    store.record_vote(answer_id, "dislike", "  wrong table  ")
    store.record_vote(answer_id, "dislike")  # a later vote without a comment keeps the comment
    (row,) = store.answers_between(None, None)
    assert (row["id"], row["question"], row["entry_ids"], row["kind"], row["lang"]) == (
        answer_id,
        "What is dropout?",
        ["dropout"],
        "answer",
        "en",
    )
    assert (row["vote"], row["comment"], row["confidence"], row["glossary_version"]) == (
        "dislike",
        "wrong table",
        0.91,
        "v1",
    )


def test_a_vote_on_an_answer_never_given_is_refused(url):
    store = Store.open(url)
    store.record_answer(ASKED)
    with pytest.raises(UnknownAnswer, match="vote on an answer you were given"):
        store.record_vote("f" * 32, "like")
    assert all(r["vote"] is None for r in store.answers_between(None, None))


def test_texts_are_capped_and_question_text_can_be_left_out(url):
    store = Store.open(url)
    long = AnswerRecord("q" * 5000, "en", "declined", (), 0.1, "v1", "api")
    store.record_vote(store.record_answer(long), "like", "c" * 5000)
    Store.open(url, record_questions=False).record_answer(ASKED)
    first, second = store.answers_between(None, None)
    assert len(first["question"]) == MAX_TEXT and len(first["comment"]) == MAX_TEXT
    assert second["question"] is None and second["entry_ids"] == ["dropout"]


def test_retention_prunes_old_answers_with_their_votes(url):
    store = Store.open(url)
    now = datetime.now(UTC)
    old = store.record_answer(ASKED, ts=now - timedelta(days=40))
    store.record_vote(old, "dislike", "old")
    new = store.record_answer(ASKED, ts=now - timedelta(days=2))
    assert store.prune(30, now) == 1
    assert [r["id"] for r in store.answers_between(None, None)] == [new]
    with pytest.raises(UnknownAnswer):
        store.record_vote(old, "like")
    assert [r["id"] for r in store.answers_between(now - timedelta(days=3), now)] == [new]
    assert store.answers_between(now - timedelta(days=1), None) == []


def test_migrations_build_exactly_the_declared_tables(url):
    store = Store.open(url)
    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn), metadata) == []


def _open(url: str) -> None:
    Store.open(url).close()


def test_replicas_starting_at_once_migrate_once(url):
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_open, args=(url,)) for _ in range(4)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * 4
    with Store.open(url).engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all() == ["0001"]


def _write_many(url: str, worker: int) -> None:
    """PER_WORKER answers, each voted on; long Hindi comments make the rows of different sizes."""
    store = Store.open(url)
    for n in range(PER_WORKER):
        asked = AnswerRecord(f"q{worker}-{n}", "hi", "answer", ("dropout",), 0.5, "v1", "chat")
        comment = "टिप्पणी " * (n * 20) or None
        store.record_vote(store.record_answer(asked), "like" if n % 2 else "dislike", comment)
    store.close()


def test_eight_processes_writing_at_once_lose_nothing(url):
    Store.open(url).close()
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_write_many, args=(url, w)) for w in range(WORKERS)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=300)
    assert [p.exitcode for p in processes] == [0] * WORKERS
    rows = Store.open(url).answers_between(None, None)
    assert sorted(r["question"] for r in rows) == sorted(
        f"q{w}-{n}" for w in range(WORKERS) for n in range(PER_WORKER)
    )
    assert all(r["vote"] == ("like" if int(r["question"].split("-")[1]) % 2 else "dislike") for r in rows)


def test_a_bad_database_url_is_a_clear_error(tmp_path):
    with pytest.raises(StoreError, match="invalid database_url"):
        Store.open("not a url")
    (tmp_path / "dir.sqlite3").mkdir()
    with pytest.raises(StoreError, match=r"dir\.sqlite3"):
        Store.open(f"sqlite:///{tmp_path}/dir.sqlite3")


# --- the old feedback.jsonl ---------------------------------------------------------------------


def _legacy(vote_id: str, question: str, vote: str = "like", comment: str | None = None) -> str:
    record = {
        "ts": "2026-11-01T10:00:00+00:00",
        "vote_id": vote_id,
        "question": question,
        "entry_ids": ["dropout"],
        "vote": vote,
        "comment": comment,
    }
    return json.dumps(record, ensure_ascii=False)


def test_a_torn_record_glued_to_the_next_loses_only_itself():
    """Issue 13.4: a write cut short left no newline; the next vote was glued onto the torn one."""
    torn = _legacy("a" * 32, "torn")[:40]
    data = "\n".join([_legacy("b" * 32, "first"), torn + _legacy("c" * 32, "glued"), torn]).encode()
    records, report = read_feedback(data)
    assert [r.question for r in records] == ["first", "glued"]
    assert report.damaged_lines == [2, 3] and report.torn_tail


def test_import_merges_comments_reports_damage_and_runs_once(tmp_path, url):
    path = tmp_path / "feedback.jsonl"
    lines = [
        _legacy("a" * 32, "What is dropout?", "dislike"),
        _legacy("a" * 32, "What is dropout?", "dislike", "too short"),
        _legacy("b" * 32, "batch kya hai", "like") + "{half",
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    copy = path.read_bytes()
    store = Store.open(url)
    report = import_feedback(store, path)
    assert report is not None and report.votes == 2 and report.damaged_lines == [3]
    assert "skipped damaged text on lines 3" in str(report)
    assert not path.exists() and path.with_name(path.name + IMPORTED_SUFFIX).exists()
    path.write_bytes(copy)  # a second replica importing the same file records nothing twice
    import_feedback(store, path)
    rows = store.answers_between(None, None)
    assert sorted((r["question"], r["vote"], r["comment"], r["kind"]) for r in rows) == [
        ("What is dropout?", "dislike", "too short", "imported"),
        ("batch kya hai", "like", None, "imported"),
    ]
    assert import_feedback(store, tmp_path / "missing.jsonl") is None


def test_json_lines_escape_characters_that_split_lines():
    """Issue 13.11: NEL and U+2028/U+2029 inside a JSON string broke line-based readers of the JSONL."""
    value = {"question": "a\u2028b\u0085c\u2029d", "bad": "\ud800"}
    line = json_line(value)
    assert len(line.splitlines()) == 1
    assert json.loads(line) == {"question": "a\u2028b\u0085c\u2029d", "bad": "\ufffd"}


def test_the_app_refuses_a_bad_database_url_in_one_line(tmp_path):
    """The real ``python app.py``: a URL it cannot read is a setting to fix (exit 2, one line), found
    before the model is loaded; a store that is only down does not stop the app (test_reliability_store)."""
    env = {**os.environ, "GLOSSARY_BOT_DATABASE_URL": "postgresql+nodriver://x@127.0.0.1/db"}
    command = [sys.executable, str(REPO / "app.py")]
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert done.stderr.startswith("error: invalid setting: GLOSSARY_BOT_DATABASE_URL: unsupported")
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_the_pruner_deletes_old_rows_at_start_and_is_off_for_0_days(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path}/r.sqlite3")
    store.record_answer(ASKED, ts=datetime.now(UTC) - timedelta(days=10))
    assert Pruner.start_for(store, 0) is None
    pruner = Pruner.start_for(store, 5)
    assert pruner is not None
    pruner.stop()  # returns once the first round is done
    assert store.answers_between(None, None) == []
