"""Records read by meaning (``glossary.columns``) become schema entries, with everything a user's
file may leave out derived: id = slug of the term (a suffix where two collide; a Devanagari term is
transliterated), source = file and line or row (the page, for a folder of pages), no category when
there is none. Every problem is collected with its place and column, so one report lists them all.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import regex
from pydantic import ValidationError

from glossary.columns import Column, script_language, split_list
from glossary.formats.base import MAX_CELL_CHARS, Record, Table
from glossary.schema import SLUG_PATTERN, GlossaryEntry

#: Longest id derived from a term.
MAX_SLUG_CHARS = 60
_SLUG_JUNK = regex.compile(r"[^a-z0-9]+")
_IS_SLUG = regex.compile(SLUG_PATTERN)


@dataclass
class Problem:
    """One thing to fix: where (line, row, item or page), which column, and what."""

    where: str
    column: str | None
    message: str

    def __str__(self) -> str:
        return f"{self.where}" + (f", column '{self.column}'" if self.column else "") + f": {self.message}"


@dataclass
class Built:
    """The entries a table gives, and the problems found in it."""

    entries: list[GlossaryEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)


def build(table: Table, columns: list[Column], document: str) -> Built:
    """Entries for every record that has a term and a definition; problems for the others."""
    out = Built()
    out.problems = [
        Problem(_place(table.unit, where, None), column, msg) for where, column, msg in table.problems
    ]
    headers = {c.field: c.header for c in columns if c.field}
    if "term" not in headers or "definition" not in headers:
        missing = "term" if "term" not in headers else "definition"
        out.problems.append(
            Problem(
                "header",
                None,
                f"no {missing} column among {', '.join(repr(h) for h in table.header) or 'no headers'}: "
                f"name one '{missing}' (or a synonym, see `glossary-bot template`) "
                f"or pass --columns {missing}=<header>",
            )
        )
        return out
    ids: Counter[str] = Counter()
    terms: dict[str, str] = {}
    pending: list[tuple[Record, dict[str, Any]]] = []
    for record in table.records:
        data = _entry_data(table, record, columns, out.problems)
        if data is None:
            continue
        data["id"] = _unique(data.get("id") or slug(data["term"]), ids)
        terms.setdefault(data["term"].casefold(), data["id"])
        pending.append((record, data))
    for record, data in pending:
        data["related"] = [
            r if _IS_SLUG.match(r) else terms.get(r.casefold(), r) for r in data.get("related", [])
        ]
        data["source"] = {"document": record.page or document, "line": record.where, **data.get("source", {})}
        try:
            entry = GlossaryEntry.model_validate(data)
        except ValidationError as exc:
            where = _place(table.unit, record.where, record.page)
            out.problems.extend(
                Problem(where, _column_of(e["loc"], columns), _message(e)) for e in exc.errors()
            )
            continue
        out.entries.append(entry)
    return out


def _entry_data(
    table: Table, record: Record, columns: list[Column], problems: list[Problem]
) -> dict[str, Any] | None:
    where = _place(table.unit, record.where, record.page)
    data: dict[str, Any] = {"extra": {}}
    # columns that name their language first: a script-decided cell never displaces them
    for column in sorted(columns, key=lambda c: c.lang == "script"):
        value = (record.cells.get(column.header) or "").strip()
        if not value:
            continue
        if len(value) > MAX_CELL_CHARS:
            problems.append(
                Problem(
                    where,
                    column.header,
                    f"{len(value):,} characters; the limit is "
                    f"{MAX_CELL_CHARS:,}: shorten the text or split it",
                )
            )
            return None
        _put(data, column, value)
    heading = data.pop("heading", None)
    term = heading or data.get("term_en") or data.get("term_hi")
    missing = [
        name
        for name, ok in (
            ("term", term),
            ("definition", data.get("definition_en") or data.get("definition_hi")),
        )
        if not ok
    ]
    if missing:
        header = next((c.header for c in columns if c.field == missing[0]), None)
        problems.append(
            Problem(where, header, f"no {' and no '.join(missing)}: fill the cell or remove the {table.unit}")
        )
        return None
    data["term"] = term
    return data


def _put(data: dict[str, Any], column: Column, value: str) -> None:
    name = column.field
    if name is None:
        data["extra"][column.header] = value
    elif name == "term" and column.lang == "heading":
        data["heading"] = value
    elif name == "category":
        data.setdefault("category", {})[_lang(column, value)] = value
    elif name in ("notes", "usage", "example", "term", "definition"):
        key = f"{name}_{_lang(column, value)}"
        if key in data:  # two cells of one language in script-decided columns: keep the second as is
            data["extra"][column.header] = value
        else:
            data[key] = split_list(value, "|") if name == "notes" else value
    elif name in ("aliases", "related", "paraphrases"):
        data.setdefault(name, []).extend(split_list(value, "|;," if name != "paraphrases" else "|"))
    elif name == "id":
        data["id"] = value if _IS_SLUG.match(value) else slug(value)
    elif name == "source":
        data.setdefault("source", {})["reference"] = value
    elif name == "source_document":
        data.setdefault("source", {})["document"] = value
    elif name == "source_line":
        data.setdefault("source", {})["line"] = value


def _lang(column: Column, value: str) -> str:
    return column.lang if column.lang in ("en", "hi") else script_language(value)


def slug(term: str) -> str:
    """A lowercase ASCII id for a term; Devanagari is transliterated (ITRANS), anything else that
    leaves nothing becomes ``term-`` and a short hash."""
    text = term
    if regex.search(r"\p{Devanagari}", text):
        from indic_transliteration import sanscript  # only for Devanagari terms: a slow import

        text = sanscript.transliterate(text, sanscript.DEVANAGARI, sanscript.ITRANS)
    out = _SLUG_JUNK.sub("-", text.casefold()).strip("-")[:MAX_SLUG_CHARS].strip("-")
    return out or "term-" + hashlib.sha256(term.encode()).hexdigest()[:8]


def _unique(base: str, seen: Counter[str]) -> str:
    seen[base] += 1
    if seen[base] == 1:
        return base
    candidate = f"{base}-{seen[base]}"
    while candidate in seen:
        seen[base] += 1
        candidate = f"{base}-{seen[base]}"
    seen[candidate] += 1
    return candidate


def _place(unit: str, where: int, page: str | None) -> str:
    return page if page else f"{unit} {where}"


def _column_of(loc: tuple[Any, ...], columns: list[Column]) -> str | None:
    """The user's header for a schema field an error names (the field's own name when no column gave it)."""
    if not loc:
        return None
    name = str(loc[0])
    field_name, lang = (name[:-3], name[-2:]) if name.endswith(("_en", "_hi")) else (name, None)
    exact = [c.header for c in columns if c.field == field_name and c.lang == lang]
    loose = [c.header for c in columns if c.field == field_name]
    return (exact or loose or [name])[0]


def _message(error: Mapping[str, Any]) -> str:
    return str(error["msg"]).removeprefix("Value error, ")
