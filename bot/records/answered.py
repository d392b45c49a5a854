"""What is recorded of one answer the bot gave: its kind, cited entries, confidence, glossary version."""

from __future__ import annotations

import logging

from bot.core import GlossaryBot
from bot.records.store import AnswerRecord, Channel, Store, StoreError
from bot.records.writer import Recorder
from bot.reply.answer import Answer
from bot.understand.clean import Cleaned

log = logging.getLogger(__name__)


def answer_record(question: Cleaned, answer: Answer, glossary_version: str, channel: Channel) -> AnswerRecord:
    """The record of ``answer`` to ``question`` (after input cleaning, with its detected language: an
    answer asked for in another language keeps the language the asker wrote in)."""
    return AnswerRecord(
        question=question.text,
        lang=question.lang,
        kind=answer.kind,
        entry_ids=tuple(answer.entry_ids),
        confidence=answer.confidence,
        glossary_version=glossary_version,
        channel=channel,
    )


def record(
    store: Store | Recorder, bot: GlossaryBot, question: str, answer: Answer, channel: Channel
) -> str | None:
    """Record ``bot``'s answer to ``question`` (a :class:`Recorder` only queues it); its id, or None
    (logged) when the store fails: the asker gets the answer either way. The glossary version is the
    one ``bot`` serves now: pass the pinned bot that answered where a reload in between must not be
    misattributed (the chat does)."""
    try:
        return store.record_answer(
            answer_record(bot.prepare(question), answer, bot.glossary.content_hash, channel)
        )
    except StoreError as exc:
        log.error("answer not recorded: %s", exc)
        return None
