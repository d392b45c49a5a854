"""Schema and loading of ``enrichment.yaml``: everything the project writes about the seeds.

Keeping project-written text in one reviewed file (never in the importer code)
means the verbatim imports and the project's additions stay clearly separated, and
a typo in the file fails loudly instead of silently dropping data.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from glossary.errors import GlossaryError
from glossary.schema import SLUG_PATTERN, Category
from glossary.yamlio import load_yaml, yaml_error_line

ENRICHMENT_PATH = Path(__file__).with_name("enrichment.yaml")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EntryEnrichment(_Strict):
    """Project-written fields for one entry; ``term`` must equal the source heading it belongs to."""

    term: str = Field(min_length=1)
    term_en: str | None = None
    term_hi: str | None = None
    category: Category | None = None
    definition_en: str = Field(min_length=1)
    aliases: list[str] = Field(min_length=1)
    related: list[str] = Field(min_length=1)


class TableEnrichment(_Strict):
    id: str = Field(pattern=SLUG_PATTERN)
    entry_ids: list[str]


class FaqEnrichment(_Strict):
    """Question written for one FAQ answer; FAQ items are matched to answers in source order."""

    id: str = Field(pattern=SLUG_PATTERN)
    question_hi: str = Field(min_length=1)
    question_en: str = Field(min_length=1)
    related: list[str] = Field(min_length=1)


class DocumentEnrichment(_Strict):
    categories_en: dict[str, str] = Field(default_factory=dict, description="source category -> English name")
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
        raise GlossaryError(path, f"invalid YAML: {exc}", line=yaml_error_line(exc)) from exc
    try:
        return Enrichment.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        raise GlossaryError(path, error["msg"], field=".".join(str(p) for p in error["loc"])) from exc
