"""The terms about a topic ("types of parallelism", "terms related to distributed training"): every
entry whose name or category holds it (``bot.search.topics.entries_about``), each with its first
sentence and citation, A to Z."""

from __future__ import annotations

from collections.abc import Sequence

from bot.markdown import escape_md
from bot.reply.answer import Answer, cited_answer
from bot.reply.cards import closest_list, suggest, term
from bot.reply.context import Context
from bot.reply.messages import t
from bot.understand.text import Lang, normalise, other, side
from glossary import Glossary, GlossaryEntry

#: Entries a list shows at most; the rest are counted, and the Browse tab's filter shows them all.
MAX_LISTED = 10
#: Entries a topic must have to be listed: one is answered with its card, as any question naming it.
MIN_LISTED = 2


def topic_list(
    topic: str, entries: Sequence[GlossaryEntry], lang: Lang, glossary: Glossary, notice: str | None = None
) -> Answer:
    """The entries about ``topic``, A to Z in the answer's language, the first ``MAX_LISTED`` shown."""
    first = side(lang)
    ordered = sorted(entries, key=lambda e: normalise(term(e, first)))
    shown, rest = ordered[:MAX_LISTED], len(ordered) - MAX_LISTED
    parts = [
        t("topic_list", first, topic=escape_md(topic), count=len(ordered)),
        closest_list(shown, lang, glossary),
        t("topic_list_more", first, count=rest, topic=escape_md(topic)) if rest > 0 else "",
    ]
    return cited_answer(
        "\n\n".join(p for p in parts if p),
        shown,
        lang,
        [],
        suggest(shown, [], glossary),
        notice,
        "\n".join([f"#### {t('language_name', other(first))}", closest_list(shown, other(first), glossary)]),
        kind="list",
    )


def reply(ctx: Context) -> Answer:
    topic = ctx.query.topic
    assert topic is not None  # routed here only for a topic with entries
    return topic_list(topic.asked, ctx.evidence.listed, ctx.lang, ctx.glossary, ctx.notice)
