"""A decline: the glossary does not cover the question, said plainly, with the nearest terms it does."""

from __future__ import annotations

from collections.abc import Sequence

from bot.markdown import escape_md
from bot.reply.answer import Answer, with_notice
from bot.reply.cards import DECLINE_SUGGESTIONS, MAX_RELATED, term
from bot.reply.context import Context
from bot.reply.messages import t
from bot.search.retrieval import Hit
from bot.understand.text import Lang, side


def decline(suggestions: Sequence[Hit], lang: Lang, notice: str | None = None) -> Answer:
    """Say plainly that the glossary does not cover the question, and offer the nearest terms."""
    first = side(lang)
    text = t("declined", first)
    listed = ", ".join(f"**{escape_md(term(h.entry, first))}**" for h in suggestions)
    if listed:
        text += " " + t("nearest", first, names=listed)
    return Answer(
        text=with_notice(text, notice),
        citations=[],
        abstained=True,
        lang=lang,
        hits=list(suggestions),
        notice=notice,
        related=[h.entry.id for h in suggestions][:MAX_RELATED],
        kind="declined",
    )


def reply(ctx: Context) -> Answer:
    """Out of scope: declined, with the nearest entries and the confidence in the first."""
    found = ctx.evidence.found
    answer = decline(found.hits[:DECLINE_SUGGESTIONS], ctx.lang, ctx.notice)
    return answer.model_copy(update={"confidence": found.confidence})


def reply_empty(ctx: Context) -> Answer:
    """A question with no words to search ("?!?"): declined, saying why."""
    return decline([], ctx.lang, ctx.notice or ctx.identity.say("empty_question", ctx.lang))
