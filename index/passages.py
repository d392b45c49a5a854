"""How a glossary entry is turned into the texts that get embedded.

Each entry becomes several passages (one per field) rather than one blob, so
a short question that names a term meets the short name passage, while a
question that describes the idea meets the definition in either language.
Every field is embedded twice, with e5's passage and query prompts: on the dev
set the best of the two beats either alone (Recall@1 0.855 vs 0.818 dense-only).
In a glossary where some entry is defined in one language only, each sentence of
every entry's text is embedded too, with the passage prompt only
(``index.sentences``): a question in the language an entry lacks meets the one
sentence that says it (``bot.search.retrieval``, which weighs them by the share
of such entries, so a bilingual glossary is spared their encoding). A
one-sentence field's sentence is that field's passage text, so the store encodes
it once. The recipe string names this layout; changing the layout changes the
recipe, which invalidates saved indexes through their manifest.
"""

from __future__ import annotations

from glossary import GlossaryEntry
from glossary.schema import Language
from index.rows import PROMPTS, Passage, Prompt, TextKind
from index.sentences import entry_sentences, headed

RECIPE = "fields-v6-sentences"
#: The prompt of a first pass's texts: a big first build can serve before the other prompt's copies
#: are encoded (half its encoding). The query copies alone rank nearly as well as both on the dev
#: sets (``benchmarks/FIRST_PASS.json``: R@1 within 0.013), the passage copies alone 2.5-5 points worse.
FIRST_PASS_PROMPT: Prompt = "query"
#: The first pass's own index and calibration, saved beside the whole index's.
FIRST_PASS_RECIPE = f"{RECIPE}+{FIRST_PASS_PROMPT}-prompt"
#: The prompt sentences are embedded with (a question meets them as documents).
SENTENCE_PROMPT: Prompt = "passage"
#: The text fields, in the order their passages are made (the order is part of the recipe).
FIELD_ORDER: tuple[tuple[str, Language], ...] = (
    ("definition", "en"),
    ("definition", "hi"),
    ("usage", "hi"),
    ("example", "hi"),
    ("usage", "en"),
    ("example", "en"),
)


def entry_passages(entry: GlossaryEntry, sentences: bool) -> list[Passage]:
    """The entry's texts as embedded; ``sentences``: with a row for each sentence of its text."""
    fields = {"names": " / ".join(entry.names)}
    # Each text is headed by the term in its own language; a field the entry does not have in a
    # language has no passage: nothing is embedded that the glossary does not say.
    for name, lang in FIELD_ORDER:
        if text := entry.text(name, lang):
            fields[f"{name}_{lang}"] = headed(entry, lang, text)
    extra = {f"paraphrase_{i}": text for i, text in enumerate(entry.paraphrases)}
    kinds: tuple[tuple[TextKind, dict[str, str]], ...] = (("field", fields), ("paraphrase", extra))
    texts = [
        Passage(entry_id=entry.id, field=name, text=text, prompt=prompt, kind=kind)
        for prompt in PROMPTS
        for kind, texts in kinds
        for name, text in texts.items()
    ]
    if not sentences:
        return texts
    # A sentence row is named for the field it comes from: a view that hides a field hides them too.
    return texts + [
        Passage(
            entry_id=entry.id,
            field=s.source,
            text=headed(entry, s.lang, s.text),
            prompt=SENTENCE_PROMPT,
            kind="sentence",
        )
        for s in entry_sentences(entry)
    ]


def glossary_passages(entries: list[GlossaryEntry]) -> list[Passage]:
    sentences = any(len(entry.languages) == 1 for entry in entries)
    return [p for entry in entries for p in entry_passages(entry, sentences)]


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
