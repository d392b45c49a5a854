"""What each row of a vector index stands for: an entry's field, embedded with one e5 prompt."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

#: The e5 prompt a text is embedded with.
Prompt = Literal["passage", "query"]
#: Each text is embedded with both e5 prompts, passage first (the order is part of the recipe).
PROMPTS: tuple[Prompt, ...] = ("passage", "query")
#: Whose text a row embeds (see ``Row.kind``).
TextKind = Literal["field", "paraphrase", "sentence"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Row:
    """What one vector stands for: a field of an entry, embedded as a passage or as a query.

    e5 is trained with asymmetric prompts; embedding a field both ways lets a
    question meet it as a document and, symmetrically, as a similar question.

    A plain dataclass, not a pydantic model: a 5,000-entry glossary makes ~120,000 rows and
    passages from its own typed entries on every start, and validating each took seconds of an
    edit. What is read from a file (a manifest's rows) is still validated, by ``Manifest``.
    """

    entry_id: str
    field: str
    prompt: Prompt = "passage"
    #: "field": the entry's own text; "paraphrase": a project-written description (an extra channel);
    #: "sentence": one sentence of the entry's text (``index.sentences``).
    kind: TextKind = "field"


@dataclass(frozen=True, slots=True, kw_only=True)
class Passage(Row):
    text: str


def rows_of(passages: Sequence[Passage]) -> list[Row]:
    """What the manifest records of each passage (everything but its text)."""
    return [Row(entry_id=p.entry_id, field=p.field, prompt=p.prompt, kind=p.kind) for p in passages]
