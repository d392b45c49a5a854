"""Pydantic models for the glossary.

The Hindi fields are imported verbatim from the source documents and are the
source of truth; everything the project writes itself (English definitions,
aliases, names missing from the source, FAQ questions) is listed per record in
``written_by_project`` so a reader can always tell the two apart.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=False)


class Category(_Strict):
    """A category name in both languages."""

    hi: str = Field(min_length=1)
    en: str = Field(min_length=1)


class Source(_Strict):
    """Where a record came from: document file name and 1-based line number."""

    document: str = Field(min_length=1)
    line: int = Field(ge=1)

    def cite(self) -> str:
        return f"{self.document}:{self.line}"


class GlossaryEntry(_Strict):
    """One glossary term."""

    id: str = Field(pattern=SLUG_PATTERN, description="stable slug, unique across all files")
    term: str = Field(min_length=1, description="heading exactly as written in the source")
    term_en: str = Field(min_length=1)
    term_hi: str = Field(min_length=1)
    aliases: list[str] = Field(
        default_factory=list, description="acronyms, transliterations, romanized forms"
    )
    category: Category
    definition_hi: str = Field(min_length=1)
    usage_hi: str | None = None
    example_hi: str | None = None
    notes_hi: list[str] = Field(default_factory=list, description="extra caution lines")
    definition_en: str = Field(min_length=1, description="the project's English translation")
    related: list[str] = Field(default_factory=list, description="ids of related entries")
    source: Source
    written_by_project: list[str] = Field(
        default_factory=lambda: ["definition_en"],
        description="names of fields written by the project rather than imported",
    )

    @field_validator("aliases", "notes_hi", "related")
    @classmethod
    def _no_blank_items(cls, items: list[str]) -> list[str]:
        if any(not item.strip() for item in items):
            raise ValueError("list items must not be blank")
        return items


class ComparisonTable(_Strict):
    """A table from a document's end matter, kept cell for cell."""

    id: str = Field(pattern=SLUG_PATTERN)
    caption_hi: str
    columns: list[str]
    rows: list[list[str]]
    entry_ids: list[str] = Field(default_factory=list, description="entries each row describes, in row order")
    source: Source


class FaqItem(_Strict):
    """An FAQ answer from the source; its question was written by the project."""

    id: str = Field(pattern=SLUG_PATTERN)
    question_hi: str
    question_en: str
    answer_hi: str
    related: list[str] = Field(default_factory=list)
    source: Source
    written_by_project: list[str] = Field(default_factory=lambda: ["question_hi", "question_en"])


class GlossaryDocument(_Strict):
    """Everything imported from one source document."""

    document: str
    title_hi: str
    subtitle_hi: str | None = None
    entries: list[GlossaryEntry]
    tables: list[ComparisonTable] = Field(default_factory=list)
    faq: list[FaqItem] = Field(default_factory=list)
    further_reading_hi: list[str] = Field(default_factory=list)
