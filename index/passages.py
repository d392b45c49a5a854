"""How a glossary entry is turned into the texts that get embedded.

Each entry becomes several passages (one per field) rather than one blob, so
a short question that names a term meets the short name passage, while a
question that describes the idea meets the definition in either language.
Every field is embedded twice, with e5's passage and query prompts: on the dev
set the best of the two beats either alone (Recall@1 0.855 vs 0.818 dense-only).
The recipe string names this layout; changing the layout changes the recipe,
which invalidates saved indexes through their manifest.
"""

from __future__ import annotations

from glossary import GlossaryEntry
from index.store import Passage

RECIPE = "fields-v5-kinds"


def entry_passages(entry: GlossaryEntry) -> list[Passage]:
    names = " / ".join(dict.fromkeys([entry.term, entry.term_en, entry.term_hi, *entry.aliases]))
    fields = {
        "names": names,
        "definition_en": f"{entry.term_en}: {entry.definition_en}",
        "definition_hi": f"{entry.term_hi}: {entry.definition_hi}",
    }
    optional = {
        "usage_hi": (entry.term_hi, entry.usage_hi),
        "example_hi": (entry.term_hi, entry.example_hi),
        "usage_en": (entry.term_en, entry.usage_en),
        "example_en": (entry.term_en, entry.example_en),
    }
    fields.update({name: f"{term}: {text}" for name, (term, text) in optional.items() if text})
    own = [(name, text, "field") for name, text in fields.items()]
    extra = [(f"paraphrase_{i}", text, "paraphrase") for i, text in enumerate(entry.paraphrases)]
    return [
        Passage(entry_id=entry.id, field=name, text=text, prompt=prompt, kind=kind)
        for prompt in ("passage", "query")
        for name, text, kind in own + extra
    ]


def glossary_passages(entries: list[GlossaryEntry]) -> list[Passage]:
    return [p for entry in entries for p in entry_passages(entry)]


def blob_passages(entries: list[GlossaryEntry]) -> list[Passage]:
    """The baseline layout: one passage per entry (term + Hindi definition, usage, example)."""
    return [
        Passage(
            entry_id=e.id,
            field="blob",
            text=" ".join(filter(None, [e.term, e.definition_hi, e.usage_hi, e.example_hi])),
        )
        for e in entries
    ]
