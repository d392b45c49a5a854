"""Likes, dislikes and comments on answers, appended to a JSONL file.

Each record is one line written by a single ``os.write`` on an ``O_APPEND``
descriptor while holding the file's lock (``filelock``, on ``<file>.lock`` beside
it), so concurrent threads and processes never interleave or lose lines. A record holds only what the asker
typed and what the bot answered: no names, addresses or session ids.
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from filelock import FileLock
from pydantic import BaseModel, ConfigDict, Field

from bot.inputs import scrub

Vote = Literal["like", "dislike"]

#: Longest question or comment kept; the rest is cut off.
MAX_TEXT = 2000


class FeedbackError(OSError):
    """The feedback file cannot be written."""


class FeedbackRecord(BaseModel):
    """One line of the feedback file. A comment arrives as a second record with the same ``vote_id``."""

    model_config = ConfigDict(frozen=True)

    ts: str = Field(description="UTC time, ISO 8601")
    vote_id: str = Field(description="random id linking a vote and its later comment")
    question: str
    entry_ids: list[str]
    vote: Vote
    comment: str | None = None


def record(
    question: str,
    entry_ids: list[str],
    vote: Vote,
    comment: str | None = None,
    vote_id: str | None = None,
) -> FeedbackRecord:
    """A record to append; texts are capped and scrubbed (see ``bot.inputs``) so they can be written."""
    comment = scrub(comment or "").strip()[:MAX_TEXT] or None
    return FeedbackRecord(
        ts=datetime.now(UTC).isoformat(timespec="seconds"),
        vote_id=vote_id or uuid.uuid4().hex,
        question=scrub(question[:MAX_TEXT]),
        entry_ids=entry_ids,
        vote=vote,
        comment=comment,
    )


def append(path: Path, item: FeedbackRecord) -> None:
    """Append one record as one line, atomically (see the module docstring)."""
    line = (json.dumps(item.model_dump(), ensure_ascii=False) + "\n").encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise FeedbackError(f"cannot open feedback file {path}: {exc.strerror}") from exc
    try:
        # A lock object per call: each holds its own descriptor, so threads exclude each other too.
        with FileLock(path.with_name(f"{path.name}.lock")):
            written = os.write(fd, line)
    except OSError as exc:
        raise FeedbackError(f"cannot write feedback file {path}: {exc.strerror}") from exc
    finally:
        os.close(fd)
    if written != len(line):
        raise FeedbackError(f"short write to feedback file {path} ({written} of {len(line)} bytes)")
