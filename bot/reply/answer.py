"""What the bot says, as one typed object: the reply's text, what it cites, how sure it is, its kind.

Every handler (``bot.reply.router``) returns an :class:`Answer`; the app, the API, the CLI, the
ticket copy (``bot.reply.ticket``) and the records read its fields, never its rendered markdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.markdown import escape_md
from bot.search.retrieval import Hit
from bot.understand.text import Lang
from glossary import GlossaryEntry

#: "exact": the question names the entry; "did_you_mean": it names it misspelt; "likely" and
#: "closest" say how sure the ranking is of an entry the question does not name.
ConfidenceLabel = Literal["exact", "did_you_mean", "likely", "closest"]
#: A card; a near miss (no entry for what was asked, the closest offered); the closest offered for a
#: question the ranking is too unsure of ("unsure"); a comparison; a topic's entries ("list"); the
#: FAQ's answer; entries whose text addresses a problem; an antonym; a follow-up about an earlier
#: answer; a decline; small talk; a follow-up with nothing to refer to.
AnswerKind = Literal[
    "answer",
    "near miss",
    "unsure",
    "comparison",
    "list",
    "faq",
    "remedy",
    "opposite",
    "follow-up",
    "declined",
    "small talk",
    "no context",
]
#: Confidence below which the closest entries are offered rather than an answer ("not sure which
#: entry answers X; the closest are ..."): a card is shown when its first entry is more likely right
#: than wrong. When it was chosen (calibration version 9), on both dev sets together (bundled and
#: cncf-hi), 195 of the 203 answered first entries at or above it were right (96 %) and 32 of 52
#: below it, which the offer still lists first; at 0.4, 209 of 221 and 18 of 34; at 0.3, 216 of
#: 234 (92 %) and 11 of 21.
NEAR_MISS_CONFIDENCE = 0.5


class Citation(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry_id: str
    term: str
    source: str  # "document:line"


class Answer(BaseModel):
    """What the bot says: markdown, the entries it cites, follow-up suggestions, whether it declined.

    ``text`` is the quick answer, read first; ``details`` (usage, example, cautions, the other
    language) is shown collapsed by the app and after the text by the CLI.
    """

    model_config = ConfigDict(frozen=True)

    text: str
    citations: list[Citation]
    abstained: bool
    lang: Lang
    details: str = ""
    hits: list[Hit] = []
    notice: str | None = None
    related: list[str] = []  # entry ids offered as follow-up questions
    #: Probability that the first entry is the right one (calibrated per glossary); None when no
    #: search was made (a follow-up about an earlier answer).
    confidence: float | None = None
    #: The confidence in words (:func:`confidence_label`); None when there is no confidence.
    label: ConfidenceLabel | None = None
    #: What kind of reply this is, set where it is made (recorded for the maintainers' report).
    kind: AnswerKind = "answer"
    #: The FAQ item a "faq" answer quotes, and per entry id the sentence of a "remedy" answer: what a
    #: plain-text copy (``bot.reply.ticket``) is built from, so it never has to read the markdown back.
    faq_id: str | None = None
    advice: dict[str, str] = {}
    #: The sides of a comparison left out of its table, as asked (no entry names them, or more than
    #: the table holds): the reply says so under it.
    unnamed: list[str] = []

    @property
    def entry_ids(self) -> list[str]:
        return [c.entry_id for c in self.citations]

    @property
    def full_text(self) -> str:
        """The quick answer and its details, for readers that show everything at once (the CLI)."""
        return "\n\n".join(p for p in (self.text, self.details) if p)


#: The Answer fields programs get (``ask --json`` and ``POST /api/answer``): the hits' full entries
#: would be most of the bytes, and ``citations`` names them.
PUBLIC_FIELDS = frozenset(
    {"text", "details", "lang", "abstained", "citations", "related", "notice", "confidence", "label"}
)


def public_json(answer: Answer) -> str:
    """The answer as programs get it: the same JSON from ``ask --json`` and ``POST /api/answer``."""
    return answer.model_dump_json(include=set(PUBLIC_FIELDS))


def confidence_label(confidence: float) -> ConfidenceLabel:
    """The label of an entry the question does not name: only a name makes a match exact, since a
    confidence of 0.9 still picks a wrong entry on the dev sets ("GPU out of memory" -> AI accelerator)."""
    return "likely" if confidence >= NEAR_MISS_CONFIDENCE else "closest"


def citation(entry: GlossaryEntry) -> Citation:
    return Citation(entry_id=entry.id, term=entry.term, source=entry.source.cite())


def with_notice(text: str, notice: str | None) -> str:
    """The text under a quoted notice (a question cut to its maximum length says so first)."""
    return f"> {escape_md(notice)}\n\n{text}" if notice else text


def cited_answer(
    text: str,
    entries: Sequence[GlossaryEntry],
    lang: Lang,
    hits: Sequence[Hit],
    related: list[str],
    notice: str | None,
    details: str = "",
    confidence: float | None = None,
    kind: AnswerKind = "answer",
    label: ConfidenceLabel | None = None,
) -> Answer:
    """An answer that cites ``entries`` (the kinds that do not decline), with the notice on top."""
    return Answer(
        text=with_notice(text, notice),
        details=details,
        citations=[citation(e) for e in entries],
        abstained=False,
        lang=lang,
        hits=list(hits),
        notice=notice,
        related=related,
        confidence=confidence,
        label=label or (None if confidence is None else confidence_label(confidence)),
        kind=kind,
    )
