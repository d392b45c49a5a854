"""Follow-up questions: which earlier answer a message refers to, read from the chat history.

"iska example do", "give me an example", "और इसका उपयोग कब करें?", "in Hindi please",
"tell me more" have no topic of their own (``bot.understand.cues.follow_up_cues`` tells them
apart): they are about the term of the previous answer. That term is read from the chat history
itself (Gradio's messages format): an answer message whose ``metadata`` carries ``entry_ids``
(:data:`CITED_KEY`, as the app records them) is taken at its word; one without (a history from an
API caller, or from before the metadata) is read back from its text, where each answer cites its
entries as ```document`, line N`` (``bot.markdown``) and the citation index maps that back to an
entry id. A comparison that refers back ("how is it different from PEFT", "difference?") is read
from the same history (:func:`compared_before`). Nothing is kept on the server, so the same history
gives the same answer through the app, the API or tests.

Everything here is a pure function of its arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.markdown import citation_key, cited_sources, unescape_md
from bot.understand.cues import Aspect, follow_up_cues
from bot.understand.query import Query
from bot.understand.text import Side
from glossary import GlossaryEntry

#: The key of an answer message's ``metadata`` that lists the ids of the entries it cites.
CITED_KEY = "entry_ids"
#: Answers a comparison that names nothing ("difference?") reaches back to: the last two terms asked.
COMPARED_BACK = 2


@dataclass(frozen=True)
class Turn:
    """One question in the history and the entries its answer cited."""

    question: str  # as the asker typed it
    position: int  # index of the question in the history
    entry_ids: tuple[str, ...]


@dataclass(frozen=True)
class FollowUp:
    """What a follow-up asks: a part of the earlier answer, and/or another language."""

    aspect: Aspect | None
    lang: Side | None
    turn: Turn | None  # the earlier question it refers to; None when there is none


def message_text(message: Mapping[str, Any]) -> str:
    """The text of a Gradio message, whether its content is a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        return "\n".join(
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, str) or (isinstance(part, Mapping) and part.get("type", "text") == "text")
        )
    return ""


def is_answer(message: Mapping[str, Any]) -> bool:
    """An assistant message that is an answer (titled ones, like Sources, are side blocks)."""
    metadata = message.get("metadata")
    return message.get("role") == "assistant" and not (
        isinstance(metadata, Mapping) and metadata.get("title")
    )


class CitationIndex(dict[str, str]):
    """``document:line`` of each entry, as answers cite it -> its id; and the glossary's ids, so that
    ids recorded in a history before a reload are checked against the glossary served now.

    Build it once per glossary (``GlossaryBot`` keeps one per load), not once per question.
    """

    def __init__(self, entries: Sequence[GlossaryEntry]) -> None:
        super().__init__((citation_key(e.source), e.id) for e in entries)
        self.ids = frozenset(e.id for e in entries)


def cited_ids(message: Mapping[str, Any], index: CitationIndex) -> list[str]:
    """The entries an answer message cites: its ``metadata`` record when it has one, else the
    citations read back from its text (tolerant: unknown citations and ids are skipped)."""
    metadata = message.get("metadata")
    recorded = metadata.get(CITED_KEY) if isinstance(metadata, Mapping) else None
    if isinstance(recorded, list):
        return [i for i in recorded if isinstance(i, str) and i in index.ids]
    return [index[c] for c in cited_sources(message_text(message)) if c in index]


def turns(history: Sequence[Mapping[str, Any]], index: CitationIndex) -> list[Turn]:
    """Each user question with the entries cited by the answers that followed it."""
    out: list[Turn] = []
    cited: list[str] = []
    question, position = None, 0
    for i, message in enumerate(history):
        if message.get("role") == "user":
            if question is not None:
                out.append(Turn(question, position, tuple(dict.fromkeys(cited))))
            question, position, cited = unescape_md(message_text(message)), i, []
        elif question is not None and is_answer(message):
            cited += cited_ids(message, index)
    if question is not None:
        out.append(Turn(question, position, tuple(dict.fromkeys(cited))))
    return out


def turn_at(history: Sequence[Mapping[str, Any]], position: int, index: CitationIndex) -> Turn | None:
    """The question (and cited entries) that the message at ``position`` belongs to."""
    before = [t for t in turns(history, index) if t.position <= position]
    return before[-1] if before else None


def compared_before(
    query: Query, history: Sequence[Mapping[str, Any]], index: CitationIndex
) -> tuple[str, ...]:
    """The entries a comparison that refers back stands for (empty when it does not, or the history
    has none): for a side that is a pronoun ("how is it different from Y"), the entry the last
    answer was about; for a comparison that names nothing ("difference?"), the entries the last
    answer set side by side, else the ones the last two answers were about ("what is batch", "what
    is epoch", "difference?")."""
    if not query.compares_earlier:
        return ()
    past = [t for t in turns(history, index) if t.entry_ids]
    if not past:
        return ()
    if query.sides:
        return past[-1].entry_ids[:1]
    if len(past[-1].entry_ids) > 1:
        return past[-1].entry_ids
    last = tuple(dict.fromkeys(t.entry_ids[0] for t in reversed(past)))[:COMPARED_BACK]
    return last[::-1]  # in the order they were asked


def _language_switch(message: str) -> bool:
    cues = follow_up_cues(message)
    return cues is not None and cues[0] is None


def resolve(
    message: Query | str, history: Sequence[Mapping[str, Any]], index: CitationIndex
) -> FollowUp | None:
    """The follow-up a message asks for, with the earlier question it refers to (None: a new question).
    ``message``: the question understood, or its text (whose cues are read here).

    A language switch ("in Hindi please") re-answers the last question that was not itself a
    language switch; an aspect ("give me an example") refers to the last answer that cited entries.
    """
    cues = message.follow_up if isinstance(message, Query) else follow_up_cues(message)
    if cues is None:
        return None
    aspect, lang = cues
    past = turns(history, index)
    if aspect is None:
        candidates = [t for t in past if not _language_switch(t.question)]
    else:
        candidates = [t for t in past if t.entry_ids]
    return FollowUp(aspect, lang, candidates[-1] if candidates else None)
