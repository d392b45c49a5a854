"""Turning retrieved entries into a cited answer in the asker's language.

Hindi text is quoted verbatim from the glossary; the English definition is
the project's translation and is labelled as such. English questions get the
English definition first, Hindi and Hinglish questions get Hindi first.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from bot.retrieval import Hit
from bot.text import Lang
from glossary import GlossaryEntry


class Citation(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry_id: str
    term: str
    source: str  # "document:line"


class Answer(BaseModel):
    """What the bot says: markdown text, the entries it cites, and whether it declined."""

    model_config = ConfigDict(frozen=True)

    text: str
    citations: list[Citation]
    abstained: bool
    lang: Lang
    hits: list[Hit] = []
    notice: str | None = None


def _hindi_first(lang: Lang) -> bool:
    return lang != "en"


def citation(entry: GlossaryEntry) -> Citation:
    return Citation(entry_id=entry.id, term=entry.term, source=entry.source.cite())


def entry_card(entry: GlossaryEntry, lang: Lang) -> str:
    """The full answer for one entry: names, category, definitions, usage, example, notes, source."""
    en_def = f"**Definition** *(English translation by the project)*: {entry.definition_en}"
    hi_lines = [f"**परिभाषा** *(मूल हिंदी)*: {entry.definition_hi}"]
    if entry.usage_hi:
        hi_lines.append(f"**उपयोग**: {entry.usage_hi}")
    if entry.example_hi:
        hi_lines.append(f"**उदाहरण**: {entry.example_hi}")
    hi_lines.extend(f"**सावधानी**: {note}" for note in entry.notes_hi)
    body = [*hi_lines, en_def] if _hindi_first(lang) else [en_def, *hi_lines]
    heading = (
        f"### {entry.term_hi} · {entry.term_en}"
        if _hindi_first(lang)
        else (f"### {entry.term_en} · {entry.term_hi}")
    )
    category = f"*{entry.category.hi} / {entry.category.en}*"
    source = ("स्रोत" if _hindi_first(lang) else "Source") + (
        f": `{entry.source.document}`, line {entry.source.line}"
    )
    return "\n\n".join([heading, category, *body, source])


def compose(hits: list[Hit], lang: Lang, notice: str | None = None) -> Answer:
    """An answer built from the given hits (one card each, most relevant first)."""
    cards = [entry_card(h.entry, lang) for h in hits]
    parts = ([f"> {notice}"] if notice else []) + cards
    return Answer(
        text="\n\n---\n\n".join(parts),
        citations=[citation(h.entry) for h in hits],
        abstained=False,
        lang=lang,
        hits=hits,
        notice=notice,
    )


def decline(suggestions: list[Hit], lang: Lang, notice: str | None = None) -> Answer:
    """Say plainly that the glossary does not cover the question, and offer the nearest terms."""
    names = ", ".join(
        f"**{h.entry.term_hi if _hindi_first(lang) else h.entry.term_en}**" for h in suggestions
    )
    if _hindi_first(lang):
        text = "यह शब्दावली इस प्रश्न को कवर नहीं करती।"
        if names:
            text += f" शायद आप इनमें से कुछ पूछना चाहते हैं: {names}"
    else:
        text = "The glossary does not cover this question."
        if names:
            text += f" Nearest terms it does cover: {names}"
    if notice:
        text = f"> {notice}\n\n{text}"
    return Answer(text=text, citations=[], abstained=True, lang=lang, hits=suggestions, notice=notice)
