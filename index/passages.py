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
from index.rows import PROMPTS, Passage, Prompt, TextKind

RECIPE = "fields-v5-kinds"
#: The prompt of a first pass's texts: a big first build can serve before the other prompt's copies
#: are encoded (half its encoding). The query copies alone rank nearly as well as both on the dev
#: sets (``benchmarks/FIRST_PASS.json``: R@1 within 0.013), the passage copies alone 2.5-5 points worse.
FIRST_PASS_PROMPT: Prompt = "query"
#: The first pass's own index and calibration, saved beside the whole index's.
FIRST_PASS_RECIPE = f"{RECIPE}+{FIRST_PASS_PROMPT}-prompt"
#: The text fields, in the order their passages are made (the order is part of the recipe).
FIELD_ORDER = (
    ("definition", "en"),
    ("definition", "hi"),
    ("usage", "hi"),
    ("example", "hi"),
    ("usage", "en"),
    ("example", "en"),
)


def entry_passages(entry: GlossaryEntry) -> list[Passage]:
    fields = {"names": " / ".join(entry.names)}
    # Each text is prefixed with the term in its own language (the heading when it has none there);
    # a field the entry does not have in a language has no passage: nothing is embedded that the
    # glossary does not say.
    term = {"en": entry.term_en or entry.term, "hi": entry.term_hi or entry.term}
    for name, lang in FIELD_ORDER:
        if text := entry.text(name, lang):
            fields[f"{name}_{lang}"] = f"{term[lang]}: {text}"
    extra = {f"paraphrase_{i}": text for i, text in enumerate(entry.paraphrases)}
    kinds: tuple[tuple[TextKind, dict[str, str]], ...] = (("field", fields), ("paraphrase", extra))
    return [
        Passage(entry_id=entry.id, field=name, text=text, prompt=prompt, kind=kind)
        for prompt in PROMPTS
        for kind, texts in kinds
        for name, text in texts.items()
    ]


def glossary_passages(entries: list[GlossaryEntry]) -> list[Passage]:
    return [p for entry in entries for p in entry_passages(entry)]


def blob_passages(entries: list[GlossaryEntry]) -> list[Passage]:
    """The baseline layout: one passage per entry (term + Hindi definition, usage, example)."""
    return [
        Passage(
            entry_id=e.id,
            field="blob",
            text=" ".join(
                filter(None, [e.term, e.definition_hi or e.definition_en, e.usage_hi, e.example_hi])
            ),
        )
        for e in entries
    ]


def first_pass_passages(passages: list[Passage]) -> list[Passage]:
    """The passages a first pass encodes: those of ``FIRST_PASS_PROMPT``."""
    return [p for p in passages if p.prompt == FIRST_PASS_PROMPT]
