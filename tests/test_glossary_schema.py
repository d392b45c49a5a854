"""The pydantic models reject malformed records before they reach the loader's cross-checks."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from glossary import Category, GlossaryDocument, GlossaryEntry, Source


def entry_data(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": "dropout",
        "term": "Dropout",
        "term_en": "Dropout",
        "term_hi": "ड्रॉपआउट",
        "aliases": ["drop-out"],
        "category": {"hi": "नियमितीकरण", "en": "Regularization"},
        "definition_hi": "एक नियमितीकरण तकनीक।",
        "definition_en": "A regularization technique.",
        "source": {"document": "x.txt", "line": 3},
    }
    data.update(overrides)
    return data


def test_valid_entry_gets_defaults() -> None:
    entry = GlossaryEntry.model_validate(entry_data())
    assert entry.usage_hi is None
    assert entry.notes_hi == []
    assert entry.related == []
    assert entry.written_by_project == ["definition_en"]
    assert entry.category == Category(hi="नियमितीकरण", en="Regularization")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"id": "Not A Slug"}, "id"),
        ({"id": "trailing-"}, "id"),
        ({"term": ""}, "term"),
        ({"aliases": ["ok", "  "]}, "aliases"),
        ({"related": [""]}, "related"),
        ({"source": {"document": "x.txt", "line": 0}}, "source"),
        ({"unexpected": 1}, "unexpected"),
    ],
)
def test_invalid_entries_are_rejected(overrides: dict[str, Any], field: str) -> None:
    with pytest.raises(ValidationError) as info:
        GlossaryEntry.model_validate(entry_data(**overrides))
    assert info.value.errors()[0]["loc"][0] == field


def test_missing_required_field_is_rejected() -> None:
    data = entry_data()
    del data["definition_hi"]
    with pytest.raises(ValidationError, match="definition_hi"):
        GlossaryEntry.model_validate(data)


def test_entries_are_frozen() -> None:
    entry = GlossaryEntry.model_validate(entry_data())
    with pytest.raises(ValidationError):
        entry.term = "changed"  # type: ignore[misc]


def test_source_cite() -> None:
    assert Source(document="004.txt", line=197).cite() == "004.txt:197"


def test_document_round_trips_through_json_dump() -> None:
    document = GlossaryDocument(document="x.txt", title_hi="शीर्षक", entries=[GlossaryEntry(**entry_data())])
    assert GlossaryDocument.model_validate(document.model_dump(mode="json")) == document
