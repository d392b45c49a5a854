"""Schema and loading of ``enrichment.yaml``: everything the project writes about the seeds.

Keeping project-written text in one reviewed file (never in the importer code)
means the verbatim imports and the project's additions stay clearly separated, and
a typo in the file fails loudly instead of silently dropping data.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from glossary.errors import GlossaryError
from glossary.schema import SLUG_PATTERN, Category
from glossary.yamlio import load_yaml, yaml_error_line, yaml_error_message

ENRICHMENT_PATH = Path(__file__).with_name("enrichment.yaml")
MIN_PARAPHRASES = 6
_DEVANAGARI = re.compile(r"[\u0900-\u097F]")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EntryEnrichment(_Strict):
    """Project-written fields for one entry; ``term`` must equal the source heading it belongs to.

    ``usage_en``, ``example_en`` and ``notes_en`` translate the source's usage, example and caution
    lines; the importer requires exactly the ones the source entry has (one ``notes_en`` item per note).
    ``paraphrases`` describe the concept in plain words without naming it (English, Hinglish and
    Devanagari Hindi); every seed entry needs at least ``MIN_PARAPHRASES`` of them, in both scripts.
    """

    term: str = Field(min_length=1)
    term_en: str | None = None
    term_hi: str | None = None
    category: Category | None = None
    definition_en: str = Field(min_length=1)
    usage_en: str | None = Field(default=None, min_length=1)
    example_en: str | None = Field(default=None, min_length=1)
    notes_en: list[str] = Field(default_factory=list)
    aliases: list[str] = Field(min_length=1)
    paraphrases: list[str] = Field(min_length=MIN_PARAPHRASES)
    related: list[str] = Field(min_length=1)

    @field_validator("paraphrases")
    @classmethod
    def _paraphrases_are_distinct_lines_in_both_scripts(cls, items: list[str]) -> list[str]:
        for item in items:
            if not item.strip() or item != item.strip() or "\n" in item:
                raise ValueError(f"paraphrase must be one non-blank line without outer spaces: {item!r}")
        folded = [item.casefold() for item in items]
        repeated = sorted({item for item in folded if folded.count(item) > 1})
        if repeated:
            raise ValueError(f"paraphrase listed twice: {repeated[0]!r}")
        if all(_DEVANAGARI.search(item) for item in items) or not any(_DEVANAGARI.search(i) for i in items):
            raise ValueError("needs paraphrases in Latin script (English, Hinglish) and in Devanagari")
        return items


class TableEnrichment(_Strict):
    id: str = Field(pattern=SLUG_PATTERN)
    entry_ids: list[str]


class FaqEnrichment(_Strict):
    """Question and English answer written for one FAQ answer; matched to answers in source order."""

    id: str = Field(pattern=SLUG_PATTERN)
    question_hi: str = Field(min_length=1)
    question_en: str = Field(min_length=1)
    answer_en: str = Field(min_length=1, description="English translation of the source answer")
    related: list[str] = Field(min_length=1)


class DocumentEnrichment(_Strict):
    categories_en: dict[str, str] = Field(default_factory=dict, description="source category -> English name")
    categories_hi: dict[str, str] = Field(
        default_factory=dict,
        description="source category the Hindi seed writes in English -> the project's Hindi name",
    )
    entries: dict[str, EntryEnrichment] = Field(description="entry id -> enrichment, in document order")
    tables: list[TableEnrichment] = Field(default_factory=list)
    faq: list[FaqEnrichment] = Field(default_factory=list)


class Enrichment(_Strict):
    documents: dict[str, DocumentEnrichment]


def load_enrichment(path: Path = ENRICHMENT_PATH) -> Enrichment:
    """Read and validate the enrichment file, raising GlossaryError with file/line/field on problems."""
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise GlossaryError(path, "enrichment file not found") from exc
    except yaml.YAMLError as exc:
        problem = f"invalid YAML: {yaml_error_message(exc)}"
        raise GlossaryError(path, problem, line=yaml_error_line(exc)) from exc
    try:
        return Enrichment.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        raise GlossaryError(path, error["msg"], field=".".join(str(p) for p in error["loc"])) from exc
