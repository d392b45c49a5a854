"""Answers the chat gives without understanding a question: an entry's permalink (``/?entry=<id>``)
and Retry's "not this one"; and which later turns an edit keeps.

A permalink names the entry, so there is no question to understand and no confidence to give: the
card is the entry's own, in the interface language, with its details and related terms as any
answer has them. A link to an id the glossary does not have (renamed, or a user glossary that
changed) says so instead of answering something else. An edit keeps the later turns when none of
their questions refers back to the edited one; otherwise they go, and the new answer says so.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import GlossaryBot
from bot.markdown import escape_md, unescape_md
from bot.reply.answer import Answer, citation
from bot.reply.cards import detail_card, quick_card, suggest, term
from bot.reply.messages import t
from bot.understand.cues import follow_up_cues
from bot.understand.dialogue import message_text
from bot.understand.text import Side
from glossary import Glossary, GlossaryEntry


def card_answer(entry: GlossaryEntry, lang: Side, glossary: Glossary, notice: str | None = None) -> Answer:
    """The entry's own card as an answer (no search, so no confidence), ``notice`` above it."""
    card = quick_card(entry, lang, glossary)
    return Answer(
        text=f"> {escape_md(notice)}\n\n{card}" if notice else card,
        details=detail_card(entry, lang),
        citations=[citation(entry)],
        abstained=False,
        lang=lang,
        notice=notice,
        related=suggest([entry], [], glossary),
    )


def entry_answer(entry_id: str, lang: Side, glossary: Glossary) -> tuple[str, Answer]:
    """(the question the chat shows for the link: the entry's name, its card)."""
    try:
        entry = glossary.get(entry_id)
    except KeyError:
        missing = t("no_such_entry", lang, entry=escape_md(entry_id))
        return entry_id, Answer(text=missing, citations=[], abstained=True, lang=lang, kind="declined")
    return term(entry, lang), card_answer(entry, lang, glossary)


def next_best(question: str, shown: Sequence[str], lang: Side, bot: GlossaryBot) -> Answer | None:
    """Retry as "not this one": the card of the best entry for ``question`` that the retried answer
    did not show (None when the search has nothing else)."""
    hits = bot.search(question, k=len(shown) + 1)
    rest = [h.entry for h in hits if h.entry.id not in shown]
    if not rest:
        return None
    return card_answer(rest[0], lang, bot.glossary, t("retry_next", lang))


def later_turns(history: list[dict], question_at: int) -> list[dict]:
    """The messages after the turn whose question is at ``question_at`` (its answer and side blocks)."""
    after = [i for i, m in enumerate(history) if i > question_at and m.get("role") == "user"]
    return history[after[0] :] if after else []


def independent(later: list[dict]) -> bool:
    """No later question refers back ("give me an example", "in Hindi"): they survive an edit."""
    questions = [unescape_md(message_text(m)) for m in later if m.get("role") == "user"]
    return all(follow_up_cues(q) is None for q in questions)
