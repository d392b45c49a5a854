"""Pydantic models for the glossary.

The Hindi fields are imported verbatim from the source documents and are the
source of truth; everything the project writes itself (English definitions,
aliases, names missing from the source, FAQ questions, English translations of
the usage/example/caution lines and FAQ answers) is listed per record in
``written_by_project`` so a reader can always tell the two apart.

English translations are optional (user glossaries may be Hindi-only), but when
one is given it must line up with the Hindi it translates: ``usage_en`` needs
``usage_hi``, ``example_en`` needs ``example_hi`` and a non-empty ``notes_en``
has exactly one item per ``notes_hi`` item, in the same order.

``paraphrases`` are project-written plain-language descriptions of the concept (English,
Hindi and Hinglish) that deliberately avoid the term's name; they exist for retrieval, so a
question that describes a concept without naming it still finds the entry.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

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
        default_factory=lambda: ["definition_en"],
        description="names of fields written by the project rather than imported",
    )

    @field_validator("aliases", "notes_hi", "notes_en", "paraphrases", "related")
    @classmethod
    def _no_blank_items(cls, items: list[str]) -> list[str]:
        if any(not item.strip() for item in items):
            raise ValueError("list items must not be blank")
        return items

    @field_validator("usage_en", "example_en")
    @classmethod
    def _translation_has_source(cls, value: str | None, info: ValidationInfo) -> str | None:
        # The Hindi field is declared first, so it is in info.data unless it failed validation itself.
        source = f"{(info.field_name or '').removesuffix('_en')}_hi"
        if value is not None and source in info.data and info.data[source] is None:
            raise ValueError(f"translates {source}, which is not set; add {source} or remove this field")
        return value

    @field_validator("notes_en")
    @classmethod
    def _notes_line_up(cls, notes_en: list[str], info: ValidationInfo) -> list[str]:
        notes_hi = info.data.get("notes_hi")
        if notes_en and notes_hi is not None and len(notes_en) != len(notes_hi):
            raise ValueError(
                f"has {len(notes_en)} item(s) but notes_hi has {len(notes_hi)}; "
                "notes_en[i] must translate notes_hi[i] (or leave notes_en empty)"
            )
        return notes_en


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
    """Everything imported from one source document."""

    document: str
    title_hi: str
    subtitle_hi: str | None = None
    entries: list[GlossaryEntry]
    tables: list[ComparisonTable] = Field(default_factory=list)
    faq: list[FaqItem] = Field(default_factory=list)
    further_reading_hi: list[str] = Field(default_factory=list)
