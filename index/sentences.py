"""An entry's text sentence by sentence: what ranking and advice compare a description with.

A long definition is one vector among many ideas; a question that describes one of them ("adding
machines instead of a bigger one") meets the sentence that says it far better than the whole field.
So the index embeds each sentence of an entry's definition, usage, cautions and example too
(``index.passages``), and advice finds what to do in a single sentence (``bot.search.remedies``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import regex

from glossary import GlossaryEntry
from glossary.schema import Language

#: The kinds of text split into sentences, in the order an answer prefers them when they tie.
Field = Literal["usage", "notes", "example", "definition"]
FIELDS: tuple[Field, ...] = ("usage", "notes", "example", "definition")
#: The end of a sentence (full stop, question or exclamation mark, Hindi danda) before a space.
_SENTENCE_END = regex.compile(r"(?<=[.!?।])\s+")


@dataclass(frozen=True)
class Sentence:
    """One sentence of an entry's text, where it comes from, and in which language."""

    entry_id: str
    field: Field
    lang: Language
    text: str

    @property
    def source(self) -> str:
        """The entry field it was taken from ("definition_hi", "notes_en"), as index rows name it."""
        return f"{self.field}_{self.lang}"


def _texts(entry: GlossaryEntry, field: Field, lang: Language) -> list[str]:
    if field == "notes":
        return list(getattr(entry, f"notes_{lang}"))
    value = getattr(entry, f"{field}_{lang}")
    return [value] if value else []


def entry_sentences(entry: GlossaryEntry) -> list[Sentence]:
    """The entry's usage, cautions, example and definition, sentence by sentence, English then Hindi."""
    return [
        Sentence(entry.id, field, lang, part.strip())
        for lang in ("en", "hi")
        for field in FIELDS
        for text in _texts(entry, field, lang)
        for part in _SENTENCE_END.split(text)
        if part.strip()
    ]


def first_sentence(text: str) -> tuple[str, str]:
    """(the first sentence, the rest), split where ``entry_sentences`` splits."""
    parts = _SENTENCE_END.split(text.strip(), maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


def headed(entry: GlossaryEntry, lang: Language, text: str) -> str:
    """``text`` as it is embedded: after the entry's term in that language (its heading when it has
    none there), so that a sentence that never names the entry still says what it is about."""
    term = {"en": entry.term_en, "hi": entry.term_hi}[lang] or entry.term
    return f"{term}: {text}"
