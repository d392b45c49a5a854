"""The term card: the answer to "what is X" when the glossary has X.

The best entry's quick card, with its details collapsed, the nearest entries as sources and
follow-ups; for a how-to or problem question the card opens with the line that answers it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.markdown import escape_md
from bot.reply.answer import Answer, ConfidenceLabel, cited_answer, confidence_label
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
from bot.search.names import misspelt_name, names_entry
from bot.search.remedies import ADVICE_FIELDS, best_sentence
from bot.search.retrieval import Hit
from bot.understand.query import Reading
from bot.understand.text import Lang, side
from glossary import Glossary, GlossaryEntry
from index.sentences import Sentence


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


def match_label(
    asked: Reading, entry: GlossaryEntry, confidence: float, named: bool = False
) -> tuple[ConfidenceLabel, str | None]:
    """How the card names its match: "exact" only when the asked topic is the entry's name or alias
    (``named``: the question is known to be its whole name), "did you mean <name>" when it is a
    misspelling of one, else how sure the ranking is."""
    if named or names_entry(asked, entry):
        return "exact", None
    meant = misspelt_name(asked, entry)
    if meant is not None:
        return "did_you_mean", meant
    return confidence_label(confidence), None


def compose(
    hits: Sequence[Hit],
    lang: Lang,
    glossary: Glossary,
    confidence: float,
    asked: Reading,
    notice: str | None = None,
    how_to: bool = False,
    closest: Sentence | None = None,
    named: bool = False,
) -> Answer:
    """The quick card of the best hit (details collapsed), labelled by what ``asked`` names; the
    following hits as sources and follow-ups. For a how-to or problem question (``how_to``) the card
    opens with the line that answers it (``closest``: the entry's sentence found closest to the
    question, see :func:`advice_line`).

    Below ``NEAR_MISS_CONFIDENCE`` it is a near miss instead (``bot.reply.near_miss``).
    """
    best, nearby = hits[0].entry, hits[1:]
    label, meant = match_label(asked, best, confidence, named)
    card = quick_card(best, lang, glossary, label=label, confidence=confidence, meant=meant)
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
        label=label,
    )
    return answer.model_copy(update={"advice": {best.id: closest.text}}) if how_to and closest else answer


def reply(ctx: Context) -> Answer:
    """The card of the entry asked about. A question that is exactly an entry's name is that entry,
    whatever the ranking's doubts: search puts it first."""
    found = ctx.evidence.found
    how_to = ctx.query.how_to
    closest = _closest_advice(ctx, found.hits[0].entry) if how_to else None
    return compose(
        found.hits,
        ctx.lang,
        ctx.glossary,
        found.confidence,
        ctx.query.reading,
        ctx.notice,
        how_to=how_to,
        closest=closest,
        named=ctx.evidence.named is not None,
    )


def _closest_advice(ctx: Context, entry: GlossaryEntry) -> Sentence | None:
    """The entry's usage, caution or example sentence closest to the question by meaning."""
    vector, index = ctx.evidence.question_vector, ctx.evidence.loaded.sentences
    if vector is None or index is None:
        return None
    return best_sentence(vector, index, entry.id, ctx.lang, ADVICE_FIELDS)
