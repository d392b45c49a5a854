"""Follow-ups about an earlier answer's entries ("give me an example", "tell me more"), and the reply
when there is no earlier answer to refer to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.identity import GlossaryIdentity
from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import cite, entry_card, fields, known, names, suggest, summary, term
from bot.reply.context import Context
from bot.reply.faq import faq_text
from bot.reply.messages import t
from bot.understand.dialogue import Aspect
from bot.understand.text import Lang, side
from glossary import FaqItem, Glossary, GlossaryEntry


def aspect_card(
    entry: GlossaryEntry, aspect: Literal["example", "usage"], lang: Lang, glossary: Glossary
) -> str:
    """Just an entry's example (or usage note), in the asker's language; its definition when it has none."""
    first = side(lang)
    heading = f"### {t(aspect, first)}: {names(entry, first)}"
    value = fields(entry, first)[aspect] or fields(entry, "hi")[aspect]
    if value is None:
        missing = t(f"no_{aspect}", first, term=escape_md(term(entry, first)))
        body = [missing, summary(entry, first)]
    else:
        body = [escape_md(value)]
    return "\n\n".join([heading, *body, cite(entry.source, lang, glossary)])


def faq_for(entry: GlossaryEntry, glossary: Glossary) -> list[FaqItem]:
    return [item for item in glossary.faq if entry.id in item.related]


def _faq_block(items: Sequence[FaqItem], lang: Lang, glossary: Glossary) -> str:
    first = side(lang)
    lines = []
    for item in items:
        question, reply = faq_text(item, first)
        lines += [f"**{escape_md(question)}** {escape_md(reply)}", cite(item.source, lang, glossary)]
    return "\n\n".join([f"#### {t('faq', first)}", *lines]) if lines else ""


def more_card(entry: GlossaryEntry, lang: Lang, glossary: Glossary) -> str:
    """The full card, the FAQ answers that mention the entry, and its related terms."""
    first = side(lang)
    related = [glossary.get(r) for r in known(entry.related, glossary)]
    see_also = ", ".join(f"**{escape_md(term(r, first))}**" for r in related)
    parts = [
        entry_card(entry, lang, glossary),
        _faq_block(faq_for(entry, glossary), lang, glossary),
        f"{t('see_also', first)}: {see_also}" if see_also else "",
    ]
    return "\n\n".join(p for p in parts if p)


def focus(entries: Sequence[GlossaryEntry], aspect: Aspect, lang: Lang, glossary: Glossary) -> Answer:
    """A follow-up about entries answered before: their example, usage, or everything known."""
    if aspect == "more":
        cards = [more_card(e, lang, glossary) for e in entries]
    else:
        cards = [aspect_card(e, aspect, lang, glossary) for e in entries]
    return cited_answer(
        "\n\n".join(cards), entries, lang, [], suggest(entries, [], glossary), None, kind="follow-up"
    )


def no_context(lang: Lang, identity: GlossaryIdentity, comparison: bool = False) -> Answer:
    """A follow-up ("give me an example") with no earlier answer to refer to; or a ``comparison``
    that names nothing ("difference?") with fewer than two earlier answers to compare."""
    text = t("which_compared", lang) if comparison else identity.say("which_term", lang)
    return Answer(text=text, citations=[], abstained=True, lang=lang, kind="no context")


def reply_focus(ctx: Context) -> Answer:
    """A part of the earlier answer ("give me an example"), about the entries it cited."""
    follow = ctx.follow
    assert follow is not None and follow.turn is not None and follow.aspect is not None
    entries = [ctx.glossary.get(i) for i in follow.turn.entry_ids]
    return focus(entries, follow.aspect, ctx.lang, ctx.glossary)


def reply_again(ctx: Context) -> Answer:
    """The earlier question answered again, in the language asked for ("in Hindi please")."""
    assert ctx.follow is not None and ctx.follow.turn is not None
    return ctx.again(ctx.follow.turn, ctx.lang)


def reply_no_context(ctx: Context) -> Answer:
    return no_context(ctx.lang, ctx.identity, comparison=ctx.query.sides == ())
