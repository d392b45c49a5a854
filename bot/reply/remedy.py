"""A problem no entry names, answered with the entries whose own text addresses it
(``bot.search.remedies``), each with the sentence that does."""

from __future__ import annotations

from collections.abc import Sequence

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import snippet, source_link, suggest, term
from bot.reply.context import Context
from bot.reply.messages import t
from bot.search.remedies import Remedy
from bot.understand.text import Lang, Side, other, side
from glossary import Glossary


def remedy_answer(
    found: Sequence[Remedy], lang: Lang, glossary: Glossary, notice: str | None = None
) -> Answer:
    """A problem no entry names, answered with the entries whose own text addresses it: each with the
    sentence that does, so the asker sees why it is offered (not a definition of what was asked)."""
    first = side(lang)
    lines = [
        f"- **{escape_md(term(r.entry, first))}** — {escape_md(r.sentence.text)} "
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
        _other_language(found, first),
        kind="remedy",
    ).model_copy(update={"advice": {r.entry.id: r.sentence.text for r in found}})


def _other_language(found: Sequence[Remedy], first: Side) -> str:
    """The offered entries and their advice in the other language, one click away (the app's
    collapsed Details)."""
    second = other(first)
    rows = [
        f"- **{escape_md(term(r.entry, second))}** — "
        + (escape_md(r.translation.text) if r.translation else snippet(r.entry, second))
        for r in found
    ]
    return "\n".join([f"#### {t('language_name', second)}", *rows])


def reply(ctx: Context) -> Answer:
    return remedy_answer(ctx.evidence.remedies, ctx.lang, ctx.glossary, ctx.notice)
