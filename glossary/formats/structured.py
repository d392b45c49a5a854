"""YAML, JSON and JSONL. A file in the full glossary schema (a document, or a list of entries whose
category and source are mappings) is handed on as it is; a list of flat objects (``{"Term": ...,
"Meaning": ...}``), alone or as a document's ``entries`` beside an optional ``title`` and
``description``, is a table like a spreadsheet's, read by header meaning.

These formats are UTF-8 (a BOM is allowed), as their specifications say.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from glossary.errors import GlossaryError
from glossary.formats.base import ReadOptions, Record, Structured, Table, refuse
from glossary.formats.text import BINARY_MAGIC
from glossary.yamlio import YamlTooLarge, load_yaml_cached, yaml_error_line, yaml_error_message

#: Keys a document of flat entries may have besides ``entries``.
TABLE_DOCUMENT_KEYS = {"entries", "title", "description"}
#: How list cells are joined into one cell (``glossary.columns`` splits them again).
LIST_JOIN = " | "


def read_yaml(path: Path, data: bytes, options: ReadOptions) -> Table | Structured:
    text = _utf8(path, data, "YAML")
    try:
        raw = load_yaml_cached(text, options.parse_cache, options.max_mb)
    except YamlTooLarge as exc:
        raise refuse(path, str(exc)) from exc
    except yaml.YAMLError as exc:
        raise refuse(path, f"invalid YAML: {yaml_error_message(exc)}", yaml_error_line(exc)) from exc
    return _shape(path, raw, "YAML")


def read_json(path: Path, data: bytes, options: ReadOptions) -> Table | Structured:
    return _shape(path, _json(path, _utf8(path, data, "JSON")), "JSON")


def read_jsonl(path: Path, data: bytes, options: ReadOptions) -> Table | Structured:
    items, lines = [], []
    for number, line in enumerate(_utf8(path, data, "JSONL").splitlines(), start=1):
        if line.strip():
            items.append(_json(path, line, number))
            lines.append(number)
    shaped = _shape(path, items, "JSONL", lines)
    if isinstance(shaped, Structured):
        shaped.entry_lines = lines
    return shaped


def _shape(path: Path, raw: Any, kind: str, lines: list[int] | None = None) -> Table | Structured:
    entries = raw.get("entries") if isinstance(raw, Mapping) else raw
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) for e in entries):
        if isinstance(raw, Mapping):
            return Structured(kind, raw)  # the schema's messages name what is missing
        raise refuse(
            path, f"expected a glossary document (mapping) or a list of entries, got {type(raw).__name__}"
        )
    flat = all(not isinstance(v, Mapping) for e in entries for v in e.values())
    if not flat or (isinstance(raw, Mapping) and set(raw) - TABLE_DOCUMENT_KEYS):
        return Structured(kind, raw)
    table = Table(kind, [], [], "line" if lines else "item")
    for number, entry in enumerate(entries, start=1):
        cells = {str(key): _cell(value) for key, value in entry.items()}
        table.records.append(Record(lines[number - 1] if lines else number, cells))
        table.header.extend(h for h in cells if h not in table.header)
    if isinstance(raw, Mapping):
        table.title, table.description = (
            _text_or_none(raw.get("title")),
            _text_or_none(raw.get("description")),
        )
    return table


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return LIST_JOIN.join(_cell(item) for item in value if item is not None)
    return str(value)


def _text_or_none(value: Any) -> str | None:
    return str(value).strip() or None if value is not None else None


def _utf8(path: Path, data: bytes, kind: str) -> str:
    for magic, what in BINARY_MAGIC.items():
        if data.startswith(magic):
            raise refuse(path, f"not {kind} text: this is {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise refuse(
            path, f"not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8", line
        ) from exc


def _json(path: Path, text: str, line: int | None = None) -> Any:
    def reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        duplicates = sorted({key for key in keys if keys.count(key) > 1})
        if duplicates:
            raise GlossaryError(path, f"invalid JSON: duplicate key(s) {duplicates}", line=line)
        return dict(pairs)

    try:
        return json.loads(text, object_pairs_hook=reject_duplicates)
    except json.JSONDecodeError as exc:
        raise refuse(path, f"invalid JSON: {exc.msg} (column {exc.colno})", line or exc.lineno) from exc
    except RecursionError as exc:
        raise refuse(path, "invalid JSON: nested too deeply", line) from exc
