"""A problem no entry names, answered with the entries whose own text addresses it
(``bot.search.remedies``), each with the sentence that does."""

from __future__ import annotations

from collections.abc import Sequence

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import source_link, suggest, term
from bot.reply.context import Context
from bot.reply.messages import t
from bot.search.remedies import Remedy
from bot.understand.text import Lang, side
from glossary import Glossary


def remedy_answer(
    found: Sequence[Remedy], lang: Lang, glossary: Glossary, notice: str | None = None
) -> Answer:
    """A problem no entry names, answered with the entries whose own text addresses it: each with the
    sentence that does, so the asker sees why it is offered (not a definition of what was asked)."""
    first = side(lang)
    lines = [
        f"- **{escape_md(term(r.entry, first))}** — {escape_md(r.sentence)} "
        f"({source_link(r.entry.source, lang, glossary)})"
        for r in found
    ]
    entries = [r.entry for r in found]
    return cited_answer(
        "\n\n".join([t("remedies", first), "\n".join(lines)]),
        entries,
        lang,
        [],
        suggest(entries, [], glossary),
        notice,
        kind="remedy",
    ).model_copy(update={"advice": {r.entry.id: r.sentence for r in found}})


def reply(ctx: Context) -> Answer:
    return remedy_answer(ctx.evidence.remedies, ctx.lang, ctx.glossary, ctx.notice)
