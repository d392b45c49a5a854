"""The record of what was asked and how answers were rated, for the people who keep the glossary.

``store`` holds answers and votes (SQLite or PostgreSQL, migrated at start-up), ``answered`` turns
a bot answer into what is recorded of it, ``legacy`` imports the old ``feedback.jsonl`` once, and
``report`` tells maintainers what the bot fails to answer.
"""

from bot.records.store import AnswerRecord, Store, StoreError, UnknownAnswer, Vote

__all__ = ["AnswerRecord", "Store", "StoreError", "UnknownAnswer", "Vote"]
