"""Which kind of reply a question gets, decided in one place, and the handler that composes each.

:func:`route` reads the question as understood (``bot.understand.query.Query``), the earlier answer
it follows up on (``bot.understand.dialogue.FollowUp``) and what search found
(``bot.search.evidence.Evidence``, asked only as far as the decision needs), and returns a
:class:`Kind`; :data:`HANDLERS` maps each kind to the module that writes it. A new kind of reply is
a member here, a branch of :func:`route` and a module of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum, auto

from bot.reply import (
    card,
    comparison,
    decline,
    faq,
    follow_up,
    near_miss,
    opposite,
    remedy,
    small_talk,
    topic_list,
)
from bot.reply.answer import NEAR_MISS_CONFIDENCE, Answer
from bot.reply.context import Context
from bot.search.calibration import SURE
from bot.search.evidence import Evidence, Retrieval
from bot.understand.cues import HELP
from bot.understand.dialogue import FollowUp
from bot.understand.query import Query
from bot.understand.text import Lang


class Kind(Enum):
    """The kinds of reply."""

    NO_CONTEXT = auto()  # a follow-up, or a comparison naming nothing, with no earlier answer to refer to
    AGAIN = auto()  # "in Hindi please": the earlier question answered again in that language
    FOCUS = auto()  # "give me an example": a part of the earlier answer
    SMALL_TALK = auto()
    OPPOSITE = auto()  # "the opposite of X"
    TOPIC_LIST = auto()  # "types of X", "terms related to X": the entries named or filed under X
    FAQ = auto()  # a how-to or problem question the glossary's FAQ answers
    EMPTY = auto()  # no words to search
    COMPARISON = auto()  # "X vs Y"
    REMEDY = auto()  # a problem no entry names, addressed by entries' own text
    DECLINE = auto()  # out of scope
    NEAR_MISS = auto()  # no entry for what was asked; the closest offered
    UNSURE = auto()  # too unsure of the first entry to show it as the answer; the closest offered
    CARD = auto()  # the entry asked about


HANDLERS: dict[Kind, Callable[[Context], Answer]] = {
    Kind.NO_CONTEXT: follow_up.reply_no_context,
    Kind.AGAIN: follow_up.reply_again,
    Kind.FOCUS: follow_up.reply_focus,
    Kind.SMALL_TALK: small_talk.reply,
    Kind.OPPOSITE: opposite.reply,
    Kind.TOPIC_LIST: topic_list.reply,
    Kind.FAQ: faq.reply,
    Kind.EMPTY: decline.reply_empty,
    Kind.COMPARISON: comparison.reply,
    Kind.REMEDY: remedy.reply,
    Kind.DECLINE: decline.reply,
    Kind.NEAR_MISS: near_miss.reply,
    Kind.UNSURE: near_miss.reply_unsure,
    Kind.CARD: card.reply,
}


def answer_lang(query: Query, follow: FollowUp | None, asked: Lang | None, preferred: Lang | None) -> Lang:
    """The language to answer in: the one asked for (``asked``), else the one the question names
    ("dropout in Hindi") or a follow-up names ("in Hindi please"), else the question's own. The
    asker's interface language (``preferred``) decides when the question's own cannot be told, as for
    a bare term name ("dropout"), and for a Hinglish question: its asker reads either script, and the
    interface says which one they chose (the other is one click away, in the answer's details)."""
    named = query.answer_in or (follow.lang if follow is not None else None)
    readable_either = query.undecided or query.lang == "hinglish"
    if asked is None and preferred is not None and named is None and readable_either:
        asked = preferred
    return asked or named or query.lang


def route(query: Query, follow: FollowUp | None, evidence: Evidence) -> Kind:
    """The kind of reply, deciding in order: follow-ups, small talk, opposites, a topic's terms, the
    FAQ, then what the ranking says. Search is asked only as far as the decision needs it."""
    if follow is not None:
        if follow.turn is None:
            return Kind.NO_CONTEXT
        return Kind.AGAIN if follow.aspect is None else Kind.FOCUS
    if query.small_talk is not None and not (query.small_talk == HELP and evidence.named is not None):
        return Kind.SMALL_TALK  # a glossary's own "Help" or "Terms" entry is asked about, not help
    if evidence.opposite is not None:
        return Kind.OPPOSITE
    if len(evidence.listed) >= topic_list.MIN_LISTED and evidence.named is None:
        return Kind.TOPIC_LIST
    if evidence.faq is not None:
        return Kind.FAQ
    found = evidence.found
    if not found.hits:
        return Kind.EMPTY
    if found.comparison:
        return Kind.COMPARISON
    if query.sides == () and evidence.named is None:
        return Kind.NO_CONTEXT  # "difference?" with no two earlier answers to compare
    miss = _not_the_first_entry(found)
    if miss is None and not _unnamed_problem(query, found):
        return Kind.CARD
    # A problem no entry names may still be one the glossary's sentences address.
    if evidence.remedies:
        return Kind.REMEDY
    return Kind.CARD if miss is None else miss


def _unnamed_problem(query: Query, found: Retrieval) -> bool:
    """A how-to or problem question that does not spell out its first entry's name, ranked under
    ``SURE``: the entries whose own sentences address it answer it better than that entry's card.
    "my model does badly even on the training data, what should I do" got Overfitting's card at
    0.53 once the confidence stated more (calibration version 12), where its remedies lead with
    Underfitting; a card is kept for "how does dropout work", which names its entry."""
    return query.how_to and found.confidence < SURE and found.hits[0].name_match < 1.0


def _not_the_first_entry(found: Retrieval) -> Kind | None:
    """Why the first entry is not shown as the answer, or None: out of scope (a decline); a term the
    glossary has no entry for (a near miss, ``Retrieval.no_entry``); or too unsure of it. Too unsure
    is not "no entry": below ``NEAR_MISS_CONFIDENCE`` the first entry was still right for 32 of 52
    dev questions (see its comment): the reply offers it without a verdict."""
    if found.abstained:
        return Kind.NEAR_MISS if found.no_entry else Kind.DECLINE
    return Kind.UNSURE if found.confidence < NEAR_MISS_CONFIDENCE else None
