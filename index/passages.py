"""How a glossary entry is turned into the texts that get embedded.

Each entry becomes several passages (one per field) rather than one blob, so
a short question that names a term meets the short name passage, while a
question that describes the idea meets the definition in either language.
The recipe string names this layout; changing the layout changes the recipe,
which invalidates saved indexes through their manifest.
"""

from __future__ import annotations

from glossary import GlossaryEntry
from index.store import Passage

RECIPE = "fields-v1"


def entry_passages(entry: GlossaryEntry) -> list[Passage]:
    names = " / ".join(dict.fromkeys([entry.term, entry.term_en, entry.term_hi, *entry.aliases]))
    fields = {
        "names": names,
        "definition_en": f"{entry.term_en}: {entry.definition_en}",
        "definition_hi": f"{entry.term_hi}: {entry.definition_hi}",
    }
    if entry.usage_hi:
        fields["usage_hi"] = f"{entry.term_hi}: {entry.usage_hi}"
    if entry.example_hi:
        fields["example_hi"] = f"{entry.term_hi}: {entry.example_hi}"
    return [Passage(entry_id=entry.id, field=name, text=text) for name, text in fields.items()]


def glossary_passages(entries: list[GlossaryEntry]) -> list[Passage]:
    return [p for entry in entries for p in entry_passages(entry)]
