"""The one-time import of the old ``feedback.jsonl`` (likes, dislikes and comments) into the store.

That file was appended to line by line; a write cut short (a full disk) left a record without its
newline, and the next record was glued onto it. The reader here takes every complete JSON record
it finds, including one glued after a torn fragment, and counts the fragments it had to skip. A
vote and its later comment shared a ``vote_id``; each ``vote_id`` becomes one answer (kind
``imported``: what the bot answered is not known) with one vote. The answer id is the ``vote_id``,
so importing the same file twice (two replicas starting at once) records nothing twice. After a
successful import the file is renamed to ``<name>.imported``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from bot.records.store import AnswerRecord, Store, Vote
from bot.records.tables import ID_CHARS
from bot.understand.text import detect_lang

log = logging.getLogger(__name__)

IMPORTED_SUFFIX = ".imported"
_DECODER = json.JSONDecoder()


class LegacyRecord(BaseModel):
    """One line of the old feedback file."""

    ts: datetime
    vote_id: str = Field(min_length=1, max_length=ID_CHARS)
    question: str
    entry_ids: list[str]
    vote: Vote
    comment: str | None = None


@dataclass
class ImportReport:
    """What an import found: votes imported, and the damaged fragments skipped (line numbers)."""

    votes: int = 0
    damaged_lines: list[int] = field(default_factory=list)
    torn_tail: bool = False

    def __str__(self) -> str:
        text = f"imported {self.votes} votes"
        if self.damaged_lines:
            text += f"; skipped damaged text on lines {', '.join(map(str, self.damaged_lines))}"
        if self.torn_tail:
            text += " (the last line was cut short)"
        return text


def _records_in(line: str) -> tuple[list[LegacyRecord], bool]:
    """The complete records in one line (more than one when a torn record was glued before another),
    and whether any text in it was not part of one."""
    found: list[LegacyRecord] = []
    leftover: list[str] = []
    pos = 0
    while (start := line.find("{", pos)) >= 0:
        try:
            value, end = _DECODER.raw_decode(line, start)
            record = LegacyRecord.model_validate(value)
        except (ValueError, ValidationError):
            leftover.append(line[pos : start + 1])
            pos = start + 1
            continue
        found.append(record)
        leftover.append(line[pos:start])
        pos = end
    leftover.append(line[pos:])
    return found, bool("".join(leftover).strip())


def read_feedback(data: bytes) -> tuple[list[LegacyRecord], ImportReport]:
    """Every complete record in the file's bytes, in order, and what was damaged."""
    report = ImportReport(torn_tail=bool(data) and not data.endswith(b"\n"))
    records: list[LegacyRecord] = []
    for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines(), start=1):
        found, damaged = _records_in(line)
        records += found
        if damaged:
            report.damaged_lines.append(number)
    return records, report


def _merged(records: list[LegacyRecord]) -> dict[str, tuple[LegacyRecord, str | None]]:
    """vote_id -> (its last vote, its last comment)."""
    merged: dict[str, tuple[LegacyRecord, str | None]] = {}
    for r in records:
        earlier_comment = merged[r.vote_id][1] if r.vote_id in merged else None
        merged[r.vote_id] = (r, r.comment or earlier_comment)
    return merged


def import_feedback(store: Store, path: Path) -> ImportReport | None:
    """Import ``path`` into ``store`` and rename it; None when there is no such file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    records, report = read_feedback(data)
    first_seen: dict[str, Any] = {}
    for r in records:
        first_seen.setdefault(r.vote_id, r.ts)
    for vote_id, (last, comment) in _merged(records).items():
        record = AnswerRecord(
            question=last.question,
            lang=detect_lang(last.question),
            kind="imported",
            entry_ids=tuple(last.entry_ids),
            confidence=None,
            glossary_version="",
            channel="import",
        )
        store.record_answer(record, first_seen[vote_id], answer_id=vote_id)
        store.record_vote(vote_id, last.vote, comment, ts=last.ts)
        report.votes += 1
    path.replace(path.with_name(path.name + IMPORTED_SUFFIX))
    log.warning("%s: %s into %s", path, report, store.where)
    return report
