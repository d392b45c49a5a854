"""The term card: the answer to "what is X" when the glossary has X.

The best entry's quick card, with its details collapsed, the nearest entries as sources and
follow-ups; for a how-to or problem question the card opens with the line that answers it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer, confidence_label
from bot.reply.cards import (
    ANSWER_SOURCES,
    detail_card,
    entry_notes,
    fields,
    quick_card,
    shown_side,
    suggest,
)
from bot.reply.context import Context
from bot.reply.messages import t
from bot.search.remedies import ADVICE_FIELDS, best_sentence
from bot.search.retrieval import Hit
from bot.search.sentences import Sentence
from bot.understand.text import Lang, side
from glossary import Glossary, GlossaryEntry


def advice_line(entry: GlossaryEntry, lang: Lang, closest: Sentence | None = None) -> str:
    """What a how-to or problem question about an entry needs first: the sentence of its usage,
    cautions or example closest to the question by meaning (``closest``), else its usage line, else
    its first caution, else its example ("" when the entry has none of them)."""
    first = side(lang)
    if closest is not None:
        return f"**{t(closest.field, first)}:** {escape_md(closest.text)}"
    shown = shown_side(entry, first)
    values = fields(entry, shown)
    notes = entry_notes(entry, shown)
    for key, value in (("usage", values["usage"]), ("notes", notes[0] if notes else None)):
        if value:
            return f"**{t(key, first)}:** {escape_md(value)}"
    example = values["example"]
    return f"**{t('example', first)}:** {escape_md(example)}" if example else ""


def compose(
    hits: Sequence[Hit],
    lang: Lang,
    glossary: Glossary,
    confidence: float,
    notice: str | None = None,
    how_to: bool = False,
    closest: Sentence | None = None,
) -> Answer:
    """The quick card of the best hit (details collapsed); the following hits as sources and follow-ups.
    For a how-to or problem question (``how_to``) the card opens with the line that answers it
    (``closest``: the entry's sentence found closest to the question, see :func:`advice_line`).

    Below ``NEAR_MISS_CONFIDENCE`` it is a near miss instead (``bot.reply.near_miss``).
    """
    best, nearby = hits[0].entry, hits[1:]
    label = confidence_label(confidence)
    card = quick_card(best, lang, glossary, label=label, confidence=confidence)
    lead = advice_line(best, lang, closest) if how_to else ""
    answer = cited_answer(
        f"{lead}\n\n{card}" if lead else card,
        [best],
        lang,
        hits[:ANSWER_SOURCES],
        suggest([best], nearby, glossary),
        notice,
        detail_card(best, lang),
        confidence,
    )
    return answer.model_copy(update={"advice": {best.id: closest.text}}) if how_to and closest else answer


def reply(ctx: Context) -> Answer:
    """The card of the entry asked about. A question that is exactly an entry's name is that entry,
    whatever the ranking's doubts."""
    found, named = ctx.evidence.found, ctx.evidence.named
    confidence = 1.0 if named is not None and found.hits[0].entry.id == named.id else found.confidence
    how_to = ctx.query.how_to
    closest = _closest_advice(ctx, found.hits[0].entry) if how_to else None
    return compose(found.hits, ctx.lang, ctx.glossary, confidence, ctx.notice, how_to, closest)


def _closest_advice(ctx: Context, entry: GlossaryEntry) -> Sentence | None:
    """The entry's usage, caution or example sentence closest to the question by meaning."""
    vector, index = ctx.evidence.question_vector, ctx.evidence.loaded.sentences
    if vector is None or index is None:
        return None
    return best_sentence(vector, index, entry.id, ctx.lang, ADVICE_FIELDS)
