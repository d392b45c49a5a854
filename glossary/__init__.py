"""Bilingual (Hindi + English) AI glossary: schema, validated loading and lookup.

The Hindi text comes verbatim from the seed documents; English definitions,
aliases and other project-written fields are listed in each record's
``written_by_project``. Typical use::

    from glossary import load_glossary
    glossary = load_glossary()            # bundled glossary/data/*.yaml
    glossary.get("gradient-clipping").definition_hi
"""

from glossary.errors import GlossaryError, SeedFormatError
from glossary.loader import load_glossary
from glossary.schema import (
    Category,
    ComparisonTable,
    FaqItem,
    GlossaryDocument,
    GlossaryEntry,
    Source,
    languages_of,
)
from glossary.store import Glossary

__all__ = [
    "Category",
    "ComparisonTable",
    "FaqItem",
    "Glossary",
    "GlossaryDocument",
    "GlossaryEntry",
    "GlossaryError",
    "SeedFormatError",
    "Source",
    "languages_of",
    "load_glossary",
]
