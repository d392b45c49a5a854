"""The pydantic models reject malformed records before they reach the loader's cross-checks."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from glossary import Category, FaqItem, GlossaryDocument, GlossaryEntry, Source
from tests.factories import user_entry

DROPOUT = {"aliases": ["drop-out"], "category": {"hi": "नियमितीकरण", "en": "Regularization"}}


def entry_data(**overrides: Any) -> dict[str, Any]:
    """A valid entry (the shared factory's, with aliases and its own category) with ``overrides``."""
    return user_entry("dropout", **{**DROPOUT, **overrides})


def test_valid_entry_gets_defaults() -> None:
    entry = GlossaryEntry.model_validate(entry_data())
    assert entry.usage_hi is None
    assert entry.notes_hi == []
    assert (entry.usage_en, entry.example_en, entry.notes_en) == (None, None, [])
    assert entry.related == []
    assert entry.paraphrases == []
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
        ({"paraphrases": ["described without its name", " "]}, "paraphrases"),
        ({"source": {"document": "x.txt", "line": 0}}, "source"),
        ({"unexpected": 1}, "unexpected"),
        ({"notes_hi": ["नोट।"], "notes_en": [" "]}, "notes_en"),
        ({"usage_hi": "उपयोग।", "usage_en": ""}, "usage_en"),
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


HINDI_LINES = {"usage_hi": "उपयोग।", "example_hi": "उदाहरण।", "notes_hi": ["पहला नोट।", "दूसरा नोट।"]}


def test_english_translations_are_optional_and_line_up() -> None:
    hindi_only = GlossaryEntry.model_validate(entry_data(**HINDI_LINES))
    assert (hindi_only.usage_en, hindi_only.example_en, hindi_only.notes_en) == (None, None, [])
    full = GlossaryEntry.model_validate(
        entry_data(**HINDI_LINES, usage_en="Usage.", example_en="Example.", notes_en=["First.", "Second."])
    )
    assert full.notes_en == ["First.", "Second."]
    partial = GlossaryEntry.model_validate(entry_data(**HINDI_LINES, example_en="Example."))
    assert (partial.usage_en, partial.example_en) == (None, "Example.")


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"usage_en": "Usage."}, "usage_en", "translates usage_hi, which is not set"),
        ({"usage_hi": None, "usage_en": "Usage."}, "usage_en", "translates usage_hi"),
        ({"example_en": "Example."}, "example_en", "translates example_hi, which is not set"),
        ({"notes_en": ["A note."]}, "notes_en", "has 1 item(s) but notes_hi has 0"),
        (
            {"notes_hi": ["एक।", "दो।"], "notes_en": ["One.", "Two.", "Three."]},
            "notes_en",
            "has 3 item(s) but notes_hi has 2",
        ),
    ],
)
def test_translation_without_matching_hindi_is_rejected(
    overrides: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ValidationError) as info:
        GlossaryEntry.model_validate(entry_data(**overrides))
    error = info.value.errors()[0]
    assert error["loc"] == (field,)
    assert message in error["msg"]


def test_faq_answer_en_is_optional() -> None:
    data = {
        "id": "faq-x",
        "question_hi": "प्रश्न?",
        "question_en": "Question?",
        "answer_hi": "उत्तर।",
        "source": {"document": "x.txt", "line": 9},
    }
    assert FaqItem.model_validate(data).answer_en is None
    assert FaqItem.model_validate({**data, "answer_en": "Answer."}).answer_en == "Answer."
    with pytest.raises(ValidationError):
        FaqItem.model_validate({**data, "answer_en": ""})
