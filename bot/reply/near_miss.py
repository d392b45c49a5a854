"""A near miss: the glossary has no entry for what was asked, and says so, offering the closest ones;
or the ranking is too unsure of its first entry to show it as the answer, and says that instead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import ANSWER_SOURCES, DECLINE_SUGGESTIONS, closest_list, label_line, suggest
from bot.reply.context import Context
from bot.reply.messages import t
from bot.search.retrieval import Hit
from bot.understand.text import Lang, side
from glossary import Glossary

#: The two kinds of reply this module writes: no entry for what was asked, or too unsure to say.
Miss = Literal["near miss", "unsure"]
#: The message that says what is missing, by kind of reply.
LINES: dict[Miss, str] = {"near miss": "near_miss", "unsure": "near_miss_unsure"}


def near_miss(
    topic: str,
    hits: Sequence[Hit],
    lang: Lang,
    glossary: Glossary,
    confidence: float,
    notice: str | None = None,
    kind: Miss = "near miss",
) -> Answer:
    """ "The glossary has no entry for *topic*; the closest entries are ..." (or, ``unsure``, "not
    sure which entry answers *topic*"): the entries are offered as what they are, not as a
    definition of what was asked."""
    first = side(lang)
    shown = [h.entry for h in hits[:DECLINE_SUGGESTIONS]]
    # a percentage would read as the confidence in an answer to what was asked; it is the confidence
    # that the first entry is the nearest, which a near miss already says. "Not exactly what you
    # asked" is what a near miss knows and an unsure reply does not: its line says so instead.
    label = label_line("closest", None, first) if kind == "near miss" else ""
    said = [label, t(LINES[kind], first, topic=escape_md(topic)), closest_list(shown, lang, glossary)]
    text = "\n\n".join(part for part in said if part)
    answer = cited_answer(
        text,
        shown,
        lang,
        hits[:ANSWER_SOURCES],
        suggest(shown, hits[len(shown) :], glossary),
        notice,
        confidence=confidence,
        kind=kind,
    )
    return answer.model_copy(update={"label": "closest"})  # whatever the confidence: offered, not answered


def reply(ctx: Context) -> Answer:
    """The asked topic (the question without its scaffolding) and the closest entries."""
    return _reply(ctx, "near miss")


def reply_unsure(ctx: Context) -> Answer:
    """The closest entries to a question the ranking is too unsure of, without saying none is it."""
    return _reply(ctx, "unsure")


def _reply(ctx: Context, kind: Miss) -> Answer:
    """A near miss names the term asked without the context set around it ("no entry for
    *attention*", of "what is attention in neural networks"): that is what the checks found missing
    (``bot.search.names``); an unsure reply, the whole topic it could not place."""
    found, reading = ctx.evidence.found, ctx.query.reading
    topic = reading.term if kind == "near miss" else reading.asked
    return near_miss(topic, found.hits, ctx.lang, ctx.glossary, found.confidence, ctx.notice, kind)
