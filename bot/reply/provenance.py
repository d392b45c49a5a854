"""Whose a text is: the heading over an entry's text in one language.

The bundled glossary's Hindi is quoted from its shipped seed documents ("Hindi original") and its
English is the project's translation; a team's text is its own, from its file. A text is said to be
translated by the project only where the entry's ``written_by_project`` lists the field: an entry
that does not list its fields at all (the schema's default) makes no such claim.
"""

from __future__ import annotations

from bot.markdown import escape_md
from bot.reply.messages import t
from bot.understand.text import Side
from glossary import GlossaryEntry
from glossary.sources import source_lines


def by_project(entry: GlossaryEntry, field: str) -> bool:
    """The entry itself lists ``field`` as written by the project (a default it never set does not)."""
    return "written_by_project" in entry.model_fields_set and field in entry.written_by_project


def from_seed(entry: GlossaryEntry) -> bool:
    """The entry is quoted from a shipped seed document of the bundled glossary, as imported."""
    return source_lines(entry.source.document) is not None


def voice(entry: GlossaryEntry, text_lang: Side, lang: Side) -> str:
    """The heading, in the interface language ``lang``, over the entry's text in ``text_lang`` (its
    definition decides: it is what that part of the card leads with)."""
    translated = by_project(entry, f"definition_{text_lang}")
    if from_seed(entry):
        if text_lang == "hi" and not translated:
            return t("hindi_original", lang)
        if text_lang == "en" and translated:
            return t("project_translation", lang)
    language = t("language_name", text_lang)
    if translated:
        return t("translated_by_project", lang, language=language)
    return t("from_file", lang, language=language, file=escape_md(entry.source.document))
