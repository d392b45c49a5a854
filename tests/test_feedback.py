"""Feedback logging: one valid JSON line per vote, nothing lost under concurrent threads and processes."""

from __future__ import annotations

import json
import multiprocessing
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot import feedback

WORKERS = 8
PER_WORKER = 50


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _write_many(path: str, worker: int) -> None:
    # Long Hindi comments make most lines bigger than PIPE_BUF (4 KiB), where atomicity is not a given.
    for n in range(PER_WORKER):
        comment = "टिप्पणी " * (n * 20) or None
        item = feedback.record(f"q{worker}-{n}", ["dropout"], "like" if n % 2 else "dislike", comment)
        feedback.append(Path(path), item)


def _check_complete(path: Path) -> None:
    records = _lines(path)
    assert len(records) == WORKERS * PER_WORKER
    assert {r["question"] for r in records} == {
        f"q{w}-{n}" for w in range(WORKERS) for n in range(PER_WORKER)
    }
    for r in records:
        feedback.FeedbackRecord.model_validate(r)


def test_record_fields(tmp_path):
    item = feedback.record("What is dropout?", ["dropout"], "like", "  helpful  ")
    feedback.append(tmp_path / "sub" / "feedback.jsonl", item)
    (line,) = _lines(tmp_path / "sub" / "feedback.jsonl")
    assert set(line) == {"ts", "vote_id", "question", "entry_ids", "vote", "comment"}
    assert datetime.fromisoformat(line["ts"]).tzinfo == UTC
    assert (line["question"], line["entry_ids"], line["vote"], line["comment"]) == (
        "What is dropout?",
        ["dropout"],
        "like",
        "helpful",
    )


def test_blank_comment_is_none_and_long_text_is_capped():
    item = feedback.record("q" * 5000, [], "dislike", "   ")
    assert item.comment is None and len(item.question) == feedback.MAX_TEXT


def test_comment_reuses_the_vote_id(tmp_path):
    vote = feedback.record("q", ["batch"], "dislike")
    comment = feedback.record("q", ["batch"], "dislike", "wrong table", vote.vote_id)
    path = tmp_path / "f.jsonl"
    feedback.append(path, vote)
    feedback.append(path, comment)
    first, second = _lines(path)
    assert first["vote_id"] == second["vote_id"] and second["comment"] == "wrong table"


def test_unwritable_path_raises_a_typed_error(tmp_path):
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(feedback.FeedbackError, match="cannot open feedback file"):
        feedback.append(tmp_path / "dir.jsonl", feedback.record("q", [], "like"))


def test_concurrent_threads_lose_nothing(tmp_path):
    path = tmp_path / "threads.jsonl"
    threads = [threading.Thread(target=_write_many, args=(str(path), w)) for w in range(WORKERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _check_complete(path)


def test_concurrent_processes_lose_nothing(tmp_path):
    path = tmp_path / "processes.jsonl"
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_write_many, args=(str(path), w)) for w in range(WORKERS)]
    for p in processes:
        p.start()
    for p in processes:
        p.join(timeout=120)
    assert [p.exitcode for p in processes] == [0] * WORKERS
    _check_complete(path)
