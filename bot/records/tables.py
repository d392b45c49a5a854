"""The store's two tables: every answered question, and the one vote (with its comment) on an answer.

The schema is described once, here, with SQLAlchemy Core; SQLite and PostgreSQL get the same tables
from the versioned migrations beside it (``migrations/versions``), which must agree with this file
(``tests/test_records.py`` checks that a migrated database matches it).
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, Float, ForeignKey, Index, MetaData, String, Table, Text

#: Length of an answer id: a random UUID as 32 hex digits.
ID_CHARS = 32

metadata = MetaData()

answers = Table(
    "answers",
    metadata,
    Column("id", String(ID_CHARS), primary_key=True),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("question", Text, nullable=True),  # None when record_questions is off
    Column("lang", String(16), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("entry_ids", JSON, nullable=False),
    Column("confidence", Float, nullable=True),
    Column("glossary_version", String(64), nullable=False),
    Column("channel", String(16), nullable=False),
    Index("ix_answers_ts", "ts"),
)

votes = Table(
    "votes",
    metadata,
    Column("answer_id", String(ID_CHARS), ForeignKey("answers.id", ondelete="CASCADE"), primary_key=True),
    Column("ts", DateTime(timezone=True), nullable=False),
    Column("vote", String(8), nullable=False),
    Column("comment", Text, nullable=True),
)
