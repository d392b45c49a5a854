"""Follow-up questions: does a message refer to an earlier answer, and what does it ask of it?

"iska example do", "give me an example", "और इसका उपयोग कब करें?", "in Hindi please",
"tell me more" have no topic of their own: they are about the term of the
previous answer. That term is read from the chat history itself (Gradio's
messages format): an answer message whose ``metadata`` carries ``entry_ids``
(:data:`CITED_KEY`, as the app records them) is taken at its word; one without
(a history from an API caller, or from before the metadata) is read back from
its text, where each answer cites its entries as ```document`, line N`` and the
citation index maps that back to an entry id. Nothing is kept on the server, so
the same history gives the same answer through the app, the API or tests.

Everything here is a pure function of its arguments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bot.answer import Aspect, citation_key, cited_sources, unescape_md
from bot.messages import Side
from bot.text import STOP_WORDS, normalise, strip_scaffolding, tokens
from glossary import Glossary, GlossaryEntry


def _words(text: str) -> frozenset[str]:
    return frozenset(normalise(w) for w in text.split())


#: Words that ask for a part of the previous answer (matched after casefolding).
ASPECT_WORDS: dict[Aspect, frozenset[str]] = {
    "example": _words("example examples eg sample instance udaharan udahran udaaharan उदाहरण उदाहरणों मिसाल"),
    "usage": _words(
        "usage use used uses using upyog upayog upyoug istemal istemaal prayog उपयोग प्रयोग इस्तेमाल"
    ),
    "more": _words(
        "more detail details detailed elaborate expand further explain zyada jyada vistar vistaar "
        "विस्तार ज़्यादा ज्यादा अधिक"
    ),
}
#: Words that ask for the previous answer in another language.
LANGUAGE_WORDS: dict[Side, frozenset[str]] = {
    "hi": _words("hindi hindii हिंदी हिन्दी"),
    "en": _words("english angrezi angreji inglish अंग्रेज़ी अंग्रेजी इंग्लिश"),
}
#: Words that carry no topic in a follow-up: pronouns, politeness, "give/show/tell", "when", "in".
FILLER_WORDS = _words(
    """
    it its this that these those same term word one please pls plz kindly can could would you me
    give show tell say write provide share another some any an a the of for in about on with now also again
    and when where how why what more so ok okay thanks language please
    iska iske iski isko isse iss is uska uske uski usko inka unka ye yeh wo woh bhi aur ek koi
    do dijiye dijie de dena dedo dikhao dikhaiye batao bataiye bataye btao samjhao samjhaiye likho
    kab kaise kyu kyon me mein main mai karen kare karein karna karte plz zara thoda
    इसका इसके इसकी इसको इसे इस उसका उसके उसकी उसे यह वह और भी एक कोई कब कैसे क्यों में
    दो दीजिए दिखाओ दिखाइए बताओ बताइए बताएं समझाओ समझाइए लिखो करें करना करते कृपया ज़रा थोड़ा
    """
)


#: The key of an answer message's ``metadata`` that lists the ids of the entries it cites.
CITED_KEY = "entry_ids"


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
    metadata = message.get("metadata") or {}
    return message.get("role") == "assistant" and not metadata.get("title")


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
    recorded = (message.get("metadata") or {}).get(CITED_KEY)
    if recorded is not None:
        return [i for i in recorded if i in index.ids]
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


def follow_up_cues(message: str) -> tuple[Aspect | None, Side | None] | None:
    """(aspect, language) asked for, or None when the message has a topic of its own or no cue at all."""
    words = tokens(message)
    aspect = next((a for a, vocab in ASPECT_WORDS.items() if any(w in vocab for w in words)), None)
    lang = next((lg for lg, vocab in LANGUAGE_WORDS.items() if any(w in vocab for w in words)), None)
    if aspect is None and lang is None:
        return None
    cue_words = set().union(*ASPECT_WORDS.values(), *LANGUAGE_WORDS.values())
    topic = [
        w for w in words if w not in cue_words | FILLER_WORDS | STOP_WORDS and len(w) > 1 and not w.isdigit()
    ]
    return None if topic else (aspect, lang)


def _language_switch(message: str) -> bool:
    cues = follow_up_cues(message)
    return cues is not None and cues[0] is None


def resolve(message: str, history: Sequence[Mapping[str, Any]], index: CitationIndex) -> FollowUp | None:
    """The follow-up a message asks for, with the earlier question it refers to (None: a new question).

    A language switch ("in Hindi please") re-answers the last question that was not itself a
    language switch; an aspect ("give me an example") refers to the last answer that cited entries.
    """
    cues = follow_up_cues(message)
    if cues is None:
        return None
    aspect, lang = cues
    past = turns(history, index)
    if aspect is None:
        candidates = [t for t in past if not _language_switch(t.question)]
    else:
        candidates = [t for t in past if t.entry_ids]
    return FollowUp(aspect, lang, candidates[-1] if candidates else None)


@lru_cache(maxsize=8)
def _name_index(glossary: Glossary) -> dict[str, str | None]:
    names: dict[str, str | None] = {}
    for entry in glossary.entries:
        for name in {normalise(n) for n in (entry.term, entry.term_en, entry.term_hi, *entry.aliases)}:
            names[name] = entry.id if names.get(name, entry.id) == entry.id else None
    return names


def named_entry(question: str, glossary: Glossary) -> GlossaryEntry | None:
    """The entry whose name (term or alias) is the whole question, if exactly one entry has that name."""
    name = normalise(strip_scaffolding(question).strip(" ?？।.!"))
    entry_id = _name_index(glossary).get(name)
    return glossary.get(entry_id) if entry_id else None
