"""Pydantic models for the glossary.

An entry needs a term and a definition, in English or Hindi or both; everything else is
optional. Each text sits in the field of the language it is written in (``_en`` / ``_hi``), so
nothing pretends a text is in a language it is not.

In the bundled glossary the Hindi fields are imported verbatim from the source documents;
everything the project writes itself (English definitions, aliases, names missing from the
source, FAQ questions, English translations of the usage/example/caution lines and FAQ answers)
is listed per record in ``written_by_project`` so a reader can always tell the two apart. A
user's file lists nothing there unless it says so: its texts are its own.

A translation the project wrote must line up with the Hindi it translates: when
``written_by_project`` names ``usage_en`` it needs ``usage_hi``, ``example_en`` needs
``example_hi``, and ``notes_en`` has exactly one item per ``notes_hi`` item, in the same order.
A team's own English lines need no Hindi counterpart.

Fields added for users' files (``extra``, a document's ``title`` / ``description``, a source's
``url``) are left out of dumps while empty, so the bundled glossary dumps, and hashes, as before.

``paraphrases`` are project-written plain-language descriptions of the concept (English,
Hindi and Hinglish) that deliberately avoid the term's name; they exist for retrieval, so a
question that describes a concept without naming it still finds the entry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
#: A language a glossary text is written in.
Language = Literal["en", "hi"]
#: Every ``Language``, in the order a glossary's languages are listed.
LANGUAGES: tuple[Language, ...] = get_args(Language)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


def _empty(value: Any) -> bool:
    """Fields added for users' files are not dumped while empty (``exclude_if``)."""
    return not value


class Category(_Strict):
    """A category name in Hindi, English or both."""

    hi: str | None = Field(default=None, min_length=1)
    en: str | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _named(self) -> Category:
        if self.hi is None and self.en is None:
            raise ValueError("a category needs a name in Hindi (hi) or English (en)")
        return self

    def name(self, lang: str) -> str:
        """The name in ``lang`` ("en" or "hi"), else the one it has."""
        preferred, fallback = (self.en, self.hi) if lang == "en" else (self.hi, self.en)
        return preferred or fallback or ""


class Source(_Strict):
    """Where a record came from: document file name and 1-based line number."""

    document: str = Field(min_length=1)
    line: int = Field(ge=1)
    reference: str | None = Field(
        default=None, min_length=1, exclude_if=_empty, description="a web address or citation the file gives"
    )

    def cite(self) -> str:
        return f"{self.document}:{self.line}"


class GlossaryEntry(_Strict):
    """One glossary term."""

    id: str = Field(pattern=SLUG_PATTERN, description="stable slug, unique across all files")
    term: str = Field(min_length=1, description="heading exactly as written in the source")
    term_en: str | None = Field(default=None, min_length=1)
    term_hi: str | None = Field(default=None, min_length=1)
    aliases: list[str] = Field(
        default_factory=list, description="acronyms, transliterations, romanized forms"
    )
    category: Category | None = None
    definition_hi: str | None = Field(default=None, min_length=1)
    usage_hi: str | None = None
    example_hi: str | None = None
    notes_hi: list[str] = Field(default_factory=list, description="extra caution lines")
    definition_en: str | None = Field(default=None, min_length=1)
    usage_en: str | None = Field(default=None, min_length=1, description="English translation of usage_hi")
    example_en: str | None = Field(
        default=None, min_length=1, description="English translation of example_hi"
    )
    notes_en: list[str] = Field(
        default_factory=list, description="English translations of notes_hi, item for item (or empty)"
    )
    paraphrases: list[str] = Field(
        default_factory=list,
        description=(
            "project-written plain-language descriptions of the concept, in English, Hindi and "
            "Hinglish, that avoid the term's name; used for retrieval"
        ),
    )
    related: list[str] = Field(default_factory=list, description="ids of related entries")
    source: Source
    written_by_project: list[str] = Field(
        default_factory=list,
        description="names of fields written by the project rather than imported (none in a user's file)",
    )
    extra: dict[str, str] = Field(
        default_factory=dict,
        exclude_if=_empty,
        description="columns no field took, under their own headers (shown on the card as they are)",
    )

    @field_validator("aliases", "notes_hi", "notes_en", "paraphrases", "related")
    @classmethod
    def _no_blank_items(cls, items: list[str]) -> list[str]:
        if any(not item.strip() for item in items):
            raise ValueError("list items must not be blank")
        return items

    @model_validator(mode="after")
    def _term_and_definition(self) -> GlossaryEntry:
        if self.term_en is None and self.term_hi is None:
            raise ValueError("needs a term: term_en (English) or term_hi (Hindi)")
        if self.definition_en is None and self.definition_hi is None:
            raise ValueError("needs a definition: definition_en (English) or definition_hi (Hindi)")
        return self

    @model_validator(mode="after")
    def _translations_have_sources(self) -> GlossaryEntry:
        """A project translation without the Hindi it translates would be an invented text."""
        for name, hindi in (("usage_en", self.usage_hi), ("example_en", self.example_hi)):
            if name in self.written_by_project and getattr(self, name) is not None and hindi is None:
                source = name.replace("_en", "_hi")
                raise ValueError(
                    f"{name} translates {source}, which is not set; add {source} or remove {name}"
                )
        if (
            "notes_en" in self.written_by_project
            and self.notes_en
            and len(self.notes_en) != len(self.notes_hi)
        ):
            raise ValueError(
                f"notes_en has {len(self.notes_en)} item(s) but notes_hi has {len(self.notes_hi)}; "
                "notes_en[i] must translate notes_hi[i] (or leave notes_en empty)"
            )
        return self

    def text(self, field: str, lang: str) -> str | None:
        """``field`` ("term", "definition", "usage", "example") in ``lang`` ("en" / "hi"), or None."""
        value: str | None = getattr(self, f"{field}_{lang}")
        return value

    @property
    def names(self) -> list[str]:
        """The heading, the English and Hindi terms and the aliases, each once, in that order."""
        return list(dict.fromkeys(n for n in (self.term, self.term_en, self.term_hi, *self.aliases) if n))

    @property
    def languages(self) -> tuple[Language, ...]:
        """The languages this entry has a definition in ("en", "hi")."""
        return tuple(lang for lang in LANGUAGES if self.text("definition", lang))


def languages_of(entries: Iterable[GlossaryEntry]) -> tuple[Language, ...]:
    """The languages a glossary's definitions are written in, in ``LANGUAGES`` order: the one answer
    that calibration (which borrowed rows apply), pseudo-questions (which languages to add), lexical
    evidence (which scripts are the glossary's own) and the About page all read."""
    present = {lang for entry in entries for lang in entry.languages}
    return tuple(lang for lang in LANGUAGES if lang in present)


class ComparisonTable(_Strict):
    """A table from a document's end matter, kept cell for cell."""

    id: str = Field(pattern=SLUG_PATTERN)
    caption_hi: str
    columns: list[str]
    rows: list[list[str]]
    entry_ids: list[str] = Field(default_factory=list, description="entries each row describes, in row order")
    source: Source


class FaqItem(_Strict):
    """An FAQ answer from the source; its question (and any English answer) was written by the project."""

    id: str = Field(pattern=SLUG_PATTERN)
    question_hi: str
    question_en: str
    answer_hi: str
    answer_en: str | None = Field(default=None, min_length=1, description="English translation of answer_hi")
    related: list[str] = Field(default_factory=list)
    source: Source
    written_by_project: list[str] = Field(default_factory=lambda: ["question_hi", "question_en"])


class GlossaryDocument(_Strict):
    """Everything imported from one source document (or read from one user file or folder)."""

    document: str
    title_hi: str | None = Field(default=None, description="the source document's Hindi title")
    subtitle_hi: str | None = None
    title: str | None = Field(
        default=None,
        min_length=1,
        exclude_if=_empty,
        description="the glossary's name, as its owners write it",
    )
    description: str | None = Field(
        default=None, min_length=1, exclude_if=_empty, description="one line on what the glossary covers"
    )
    entries: list[GlossaryEntry]
    tables: list[ComparisonTable] = Field(default_factory=list)
    faq: list[FaqItem] = Field(default_factory=list)
    further_reading_hi: list[str] = Field(default_factory=list)
