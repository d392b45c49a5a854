"""One-language views of a glossary: what a team with an English-only or a Hindi-only file has.

A bilingual glossary measures only half of what askers do; the views let the project measure, on
its own material, how the bot answers a Hindi question from an English-only glossary and the other
way round. A view keeps each entry's id and drops the other language's fields: its term, definition,
usage, example and notes, the category's other name, and aliases and paraphrases written in the
other script. The heading becomes the view language's term (an English file has no Hindi heading).
Tables and FAQ answers, which need both languages in the schema, are left out, and nothing is
marked as written by the project: a view stands for a user's file, whose texts are its own.

Labelled questions follow the view: their expected headings are mapped by entry id to the view's
headings, and every question is kept (asking in the other language is exactly what is measured).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import regex

from glossary.files import atomic_write
from glossary.schema import Category, GlossaryDocument, GlossaryEntry
from glossary.store import Glossary
from glossary.yamlio import dump_yaml

View = Literal["en", "hi"]
VIEWS: tuple[View, ...] = ("en", "hi")
#: Per-language fields an entry carries (``<field>_en`` / ``<field>_hi``).
_TEXT_FIELDS = ("term", "definition", "usage", "example")
_LIST_FIELDS = ("notes",)
_DEVANAGARI = regex.compile(r"\p{Devanagari}")
GLOSSARY_FILE = "glossary.yaml"
QUESTIONS_FILE = "queries.jsonl"


class ViewError(ValueError):
    """A view cannot be made (the glossary has no entry in that language)."""


def _other(view: View) -> View:
    return "hi" if view == "en" else "en"


def _in_view_script(text: str, view: View) -> bool:
    """Hindi text is written in Devanagari; anything else (English, romanized) is not."""
    return bool(_DEVANAGARI.search(text)) == (view == "hi")


def entry_view(entry: GlossaryEntry, view: View) -> GlossaryEntry | None:
    """``entry`` with only ``view``'s language, or None when it has no term or definition in it."""
    term, definition = entry.text("term", view), entry.text("definition", view)
    if term is None or definition is None:
        return None
    other = _other(view)
    update: dict[str, Any] = {f"{f}_{other}": None for f in _TEXT_FIELDS}
    update |= {f"{f}_{other}": [] for f in _LIST_FIELDS}
    update |= {
        "term": term,
        "aliases": [a for a in entry.aliases if _in_view_script(a, view)],
        "paraphrases": [p for p in entry.paraphrases if _in_view_script(p, view)],
        "category": _category_view(entry.category, view),
        "written_by_project": [],
    }
    return GlossaryEntry.model_validate({**entry.model_dump(), **update})


def _category_view(category: Category | None, view: View) -> Category | None:
    name = getattr(category, view) if category is not None else None
    return Category.model_validate({view: name}) if name else None


def glossary_view(glossary: Glossary, view: View) -> Glossary:
    """The glossary as one one-language file would have it (entries without that language dropped)."""
    entries = [e for e in (entry_view(x, view) for x in glossary.entries) if e is not None]
    if not entries:
        raise ViewError(f"the glossary has no entry with a term and a definition in {view!r}")
    kept = {e.id for e in entries}
    entries = [e.model_copy(update={"related": [r for r in e.related if r in kept]}) for e in entries]
    return Glossary([GlossaryDocument(document=f"{view}-view", entries=entries)])


def map_questions(lines: Iterable[str], source: Glossary, view: Glossary) -> list[str]:
    """Labelled questions (dev-set JSONL lines) with expected headings renamed to the view's: an
    expected entry the view lacks is dropped, so a question left without one is out of its scope."""
    headings = {e.id: e.term for e in view.entries}
    mapped = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            expected = [str(t) for t in item["expected"]]
        except (ValueError, KeyError, TypeError) as exc:
            problem = f"line {number}: not a labelled question with an 'expected' list"
            raise ViewError(f"{problem} ({exc})") from exc
        ids = [e.id for e in (source.by_term(t) for t in expected) if e is not None]
        item["expected"] = list(dict.fromkeys(headings[i] for i in ids if i in headings))
        mapped.append(json.dumps(item, ensure_ascii=False))
    return mapped


def write_view(glossary: Glossary, view: View, folder: Path, questions: Path | None = None) -> Glossary:
    """Write the view as ``folder/glossary.yaml`` (and the questions mapped to it as
    ``folder/queries.jsonl``); the same glossary always gives the same bytes."""
    made = glossary_view(glossary, view)
    folder.mkdir(parents=True, exist_ok=True)
    text = dump_yaml(made.documents[0].model_dump(mode="json", exclude_none=True))
    atomic_write(folder / GLOSSARY_FILE, text.encode("utf-8"))
    if questions is not None:
        lines = questions.read_text(encoding="utf-8").splitlines()
        mapped = map_questions(lines, glossary, made)
        atomic_write(folder / QUESTIONS_FILE, ("\n".join(mapped) + "\n").encode("utf-8"))
    return made
