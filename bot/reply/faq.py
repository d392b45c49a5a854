"""The FAQ's answer to a how-to or problem question, then the entries it points to."""

from __future__ import annotations

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import MAX_RELATED, cite, closest_list, known
from bot.reply.context import Context
from bot.reply.messages import t
from bot.understand.text import Lang, Side, side
from glossary import FaqItem, Glossary
from index.sentences import first_sentence


def faq_text(item: FaqItem, lang: Side) -> tuple[str, str]:
    """(question, answer) in ``lang`` where the glossary has it, else in Hindi."""
    if lang == "en" and item.answer_en:
        return item.question_en, item.answer_en
    return item.question_hi, item.answer_hi


def faq_answer(item: FaqItem, lang: Lang, glossary: Glossary, notice: str | None = None) -> Answer:
    """A how-to or problem question the glossary's FAQ answers: that answer first, then the entries
    it points to."""
    first = side(lang)
    question, reply = faq_text(item, first)
    lead, rest = first_sentence(reply)
    entries = [glossary.get(i) for i in known(item.related, glossary)]
    text = "\n\n".join(
        [
            f"### {escape_md(question)}",
            f"**{escape_md(lead)}** {escape_md(rest)}".strip(),
            cite(item.source, lang, glossary),
        ]
    )
    details = "\n\n".join([f"#### {t('faq_entries', first)}", closest_list(entries, lang, glossary)])
    return cited_answer(
        text,
        entries,
        lang,
        [],
        [e.id for e in entries][:MAX_RELATED],
        notice,
        details if entries else "",
        kind="faq",
    ).model_copy(update={"faq_id": item.id})


def reply(ctx: Context) -> Answer:
    item = ctx.evidence.faq
    assert item is not None  # routed here only when the FAQ answers the question
    return faq_answer(item, ctx.lang, ctx.glossary, ctx.notice)
