""" "The opposite of X": the antonym's card (``bot.search.names.antonym``), or a plain statement that
the glossary names none."""

from __future__ import annotations

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import detail_card, quick_card, suggest, term
from bot.reply.context import Context
from bot.reply.messages import t
from bot.understand.text import Lang, side
from glossary import Glossary, GlossaryEntry


def opposite(
    entry: GlossaryEntry,
    antonym: GlossaryEntry | None,
    lang: Lang,
    glossary: Glossary,
    notice: str | None = None,
) -> Answer:
    """ "The opposite of X": the antonym's card, or a plain statement that the glossary names none."""
    first = side(lang)
    shown = antonym or entry
    key = "opposite_of" if antonym else "no_opposite"
    text = "\n\n".join([t(key, first, term=escape_md(term(entry, first))), quick_card(shown, lang, glossary)])
    return cited_answer(
        text,
        [shown],
        lang,
        [],
        suggest([shown], [], glossary),
        notice,
        detail_card(shown, lang),
        kind="opposite",
    )


def reply(ctx: Context) -> Answer:
    found = ctx.evidence.opposite
    assert found is not None  # routed here only when the question names an entry's opposite
    entry, antonym = found
    return opposite(entry, antonym, ctx.lang, ctx.glossary, ctx.notice)
