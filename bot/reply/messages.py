"""The interface's own words, in one catalog (``data/messages.yaml``) with one lookup, :func:`t`.

Labels, notices, decline texts and headings were spread over the app, the answer composer, the
Browse page and the question cleaner; with one catalog a new label, or a new language, is an edit
to one file, and a test can check that no language lacks a text. Glossary content is not here: it
is quoted from the glossary files.

Hinglish and mixed questions are answered Hindi first (``bot.understand.text.side``), so they read
the Hindi texts.
"""

from __future__ import annotations

from pathlib import Path

from bot.understand.text import SIDES, Lang, Side, side
from glossary.yamlio import load_yaml

CATALOG_PATH = Path(__file__).parents[1] / "data" / "messages.yaml"


def _load(path: Path) -> dict[str, dict[Side, str]]:
    """key -> text per interface language (a plain string in the file is the text in every language)."""
    raw = load_yaml(path.read_text(encoding="utf-8"))
    return {key: dict.fromkeys(SIDES, text) if isinstance(text, str) else text for key, text in raw.items()}


MESSAGES = _load(CATALOG_PATH)


def t(key: str, lang: Lang, /, **values: object) -> str:
    """The text ``key`` in ``lang``'s interface language, ``{name}`` filled in from ``values``."""
    text = MESSAGES[key][side(lang)]
    return text.format(**values) if values else text
