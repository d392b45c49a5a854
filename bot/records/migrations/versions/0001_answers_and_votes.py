"""Answers and the votes on them.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "answers",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("question", sa.Text, nullable=True),
        sa.Column("lang", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("entry_ids", sa.JSON, nullable=False),
        sa.Column("confidence", sa.Float, nullable=True),
        sa.Column("glossary_version", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
    )
    op.create_index("ix_answers_ts", "answers", ["ts"])
    op.create_table(
        "votes",
        sa.Column(
            "answer_id", sa.String(32), sa.ForeignKey("answers.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("ts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("vote", sa.String(8), nullable=False),
        sa.Column("comment", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("votes")
    op.drop_index("ix_answers_ts", "answers")
    op.drop_table("answers")
