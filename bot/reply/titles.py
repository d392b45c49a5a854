"""A source document's name in the interface language.

The bundled documents carry Hindi titles only; ``bot/data/document_titles.yaml`` gives them English
names (project-written, so they are used only for the very document they were written for: same
file name and Hindi title). Any other document is named by its own title in either language.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bot.understand.text import Side
from glossary import Glossary
from glossary.yamlio import load_yaml

TITLES_FILE = Path(__file__).parents[1] / "data" / "document_titles.yaml"


@cache
def _english_titles() -> dict[tuple[str, str], str]:
    """(document file, Hindi title) -> English title."""
    raw = load_yaml(TITLES_FILE.read_text(encoding="utf-8"))
    return {(document, names["title_hi"]): names["title_en"] for document, names in raw.items()}


def document_title(glossary: Glossary, document: str, lang: Side) -> str:
    """``document``'s title as ``glossary`` loaded it, or its English name in an English interface."""
    title = glossary.title(document)
    if lang == "en":
        return _english_titles().get((document, title), title)
    return title
