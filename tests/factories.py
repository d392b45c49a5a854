"""Small builders shared by the glossary tests."""

from typing import Any


def user_entry(entry_id: str, **overrides: Any) -> dict[str, Any]:
    """A minimal valid entry as a user's glossary file would hold it."""
    data: dict[str, Any] = {
        "id": entry_id,
        "term": entry_id.title(),
        "term_en": entry_id.title(),
        "term_hi": "शब्द",
        "category": {"hi": "श्रेणी", "en": "Category"},
        "definition_hi": "परिभाषा।",
        "definition_en": "Definition.",
        "source": {"document": "user.txt", "line": 1},
    }
    data.update(overrides)
    return data
