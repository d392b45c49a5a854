"""Load the bundled glossary and/or user glossary files (YAML, JSON, CSV) into a ``Glossary``.

All files are read and validated before anything is returned, so a bad user file
can never leave the bot with a half-loaded glossary; every problem is reported as
a ``GlossaryError`` naming the file, record and field to fix. Files above a size
limit and glossaries above an entry limit are refused before they can tie up the
machine (every entry is embedded some thirty times when the index is built).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from glossary.errors import GlossaryError, from_validation_error
from glossary.schema import GlossaryDocument
from glossary.store import Glossary
from glossary.validation import check_glossary
from glossary.yamlio import (
    DEFAULT_MAX_MB,
    YamlTooLarge,
    load_yaml_cached,
    yaml_error_line,
    yaml_error_message,
)

DATA_DIR = Path(__file__).resolve().with_name("data")
#: Default limits (the bot's Settings can change them): a file's size in MB, and all files' entries.
MAX_FILE_MB = DEFAULT_MAX_MB
MAX_ENTRIES = 5000
SUPPORTED_SUFFIXES = (".yaml", ".yml", ".json", ".csv")
CSV_REQUIRED = (
    "id",
    "term",
    "term_en",
    "term_hi",
    "category_hi",
    "category_en",
    "definition_hi",
    "definition_en",
)
CSV_OPTIONAL = (
    "aliases",
    "usage_hi",
    "example_hi",
    "notes_hi",
    "usage_en",
    "example_en",
    "notes_en",
    "paraphrases",
    "related",
    "source_document",
    "source_line",
)
# List cells hold items separated by '|'; notes_en[i] translates notes_hi[i].
CSV_LIST_COLUMNS = ("aliases", "notes_hi", "notes_en", "paraphrases", "related")
CSV_FIELD_NAMES = {
    "category.hi": "category_hi",
    "category.en": "category_en",
    "source.document": "source_document",
    "source.line": "source_line",
}


def load_glossary(
    paths: Sequence[Path] | None = None,
    max_file_mb: float = MAX_FILE_MB,
    max_entries: int = MAX_ENTRIES,
    parse_cache: Path | None = None,
) -> Glossary:
    """Load glossary files (or directories of them); ``None`` loads the bundled ``glossary/data``.

    ``parse_cache``: a folder where parsed YAML is kept between runs (``yamlio.load_yaml_cached``).
    """
    files = _expand([DATA_DIR] if paths is None else [Path(p) for p in paths])
    sources: list[tuple[Path, GlossaryDocument]] = []
    count = 0
    for path in files:
        document = load_document(path, max_file_mb, parse_cache)
        count += len(document.entries)
        if count > max_entries:
            raise GlossaryError(
                path,
                f"too many entries: the glossary reaches {count} entries here; the limit is {max_entries} "
                "(setting max_glossary_entries)",
            )
        sources.append((path, document))
    if count == 0:
        raise GlossaryError(files[0], "no entries: a glossary needs at least one entry")
    check_glossary(sources)
    return Glossary([document for _, document in sources])


def load_document(
    path: Path, max_file_mb: float = MAX_FILE_MB, parse_cache: Path | None = None
) -> GlossaryDocument:
    """Parse and validate one file on its own (cross-file checks happen in ``load_glossary``)."""
    text = _decode(path, max_file_mb)
    entry_lines: list[int] | None = None
    if path.suffix.lower() == ".csv":
        raw, entry_lines = _read_csv(path, text)
    elif path.suffix.lower() == ".json":
        raw = _read_json(path, text)
    else:
        raw = _read_yaml(path, text, parse_cache, max_file_mb)
    if isinstance(raw, list):
        raw = {"document": path.name, "title_hi": path.stem, "entries": raw}
    if not isinstance(raw, dict):
        raise GlossaryError(
            path, f"expected a glossary document (mapping) or a list of entries, got {type(raw).__name__}"
        )
    try:
        return GlossaryDocument.model_validate(raw)
    except ValidationError as exc:
        raise from_validation_error(
            path, exc, raw, entry_lines, CSV_FIELD_NAMES if entry_lines else None
        ) from exc


def _expand(paths: Sequence[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted(
                child
                for child in path.iterdir()
                if child.is_file()
                and child.suffix.lower() in SUPPORTED_SUFFIXES
                and not child.name.startswith(".")
            )
            if not found:
                raise GlossaryError(
                    path, f"directory has no glossary files ({', '.join(SUPPORTED_SUFFIXES)})"
                )
            files.extend(found)
        elif not path.is_file():
            raise GlossaryError(path, "no such file or directory")
        elif path.suffix.lower() not in SUPPORTED_SUFFIXES:
            raise GlossaryError(path, f"unsupported file type; use one of {', '.join(SUPPORTED_SUFFIXES)}")
        else:
            files.append(path)
    return files


def _decode(path: Path, max_file_mb: float) -> str:
    try:
        size = path.stat().st_size
        if size > max_file_mb * 1024 * 1024:
            raise GlossaryError(
                path,
                f"file too large: {size / 1024 / 1024:.1f} MB; the limit is {max_file_mb:g} MB "
                "(setting max_glossary_mb); split it or raise the limit",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise GlossaryError(path, f"cannot read file: {exc.strerror or exc}") from exc
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise GlossaryError(
            path, f"not UTF-8 text (byte {exc.start}: {exc.reason}); save it as UTF-8", line=line
        ) from exc


def _read_yaml(path: Path, text: str, parse_cache: Path | None, max_mb: float) -> Any:
    try:
        return load_yaml_cached(text, parse_cache, max_mb)
    except YamlTooLarge as exc:
        raise GlossaryError(path, str(exc)) from exc
    except yaml.YAMLError as exc:
        problem = f"invalid YAML: {yaml_error_message(exc)}"
        raise GlossaryError(path, problem, line=yaml_error_line(exc)) from exc


def _read_json(path: Path, text: str) -> Any:
    def reject_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        duplicates = sorted({key for key in keys if keys.count(key) > 1})
        if duplicates:
            raise GlossaryError(path, f"invalid JSON: duplicate key(s) {duplicates}")
        return dict(pairs)

    try:
        return json.loads(text, object_pairs_hook=reject_duplicates)
    except json.JSONDecodeError as exc:
        raise GlossaryError(path, f"invalid JSON: {exc.msg} (column {exc.colno})", line=exc.lineno) from exc
    except RecursionError as exc:
        raise GlossaryError(path, "invalid JSON: nested too deeply") from exc


def _read_csv(path: Path, text: str) -> tuple[dict[str, Any], list[int]]:
    """One entry per row; returns the document dict and each entry's 1-based starting line."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise GlossaryError(path, f"invalid CSV: {exc}", line=reader.line_num) from exc
    if not rows:
        raise GlossaryError(path, "empty CSV file; expected a header row")
    header = [name.strip() for name in rows[0][1]]
    _check_header(path, header, line=rows[0][0])
    entries = []
    for line, row in rows[1:]:
        if len(row) != len(header):
            raise GlossaryError(path, f"row has {len(row)} cells, the header has {len(header)}", line=line)
        entries.append(_csv_entry(path, dict(zip(header, row, strict=True)), line))
    return {"document": path.name, "title_hi": path.stem, "entries": entries}, [line for line, _ in rows[1:]]


def _check_header(path: Path, header: list[str], line: int) -> None:
    unknown = [name for name in header if name not in CSV_REQUIRED + CSV_OPTIONAL]
    missing = [name for name in CSV_REQUIRED if name not in header]
    duplicated = sorted({name for name in header if header.count(name) > 1})
    if unknown or missing or duplicated:
        problems = [
            f"{label}: {', '.join(names)}"
            for label, names in (
                ("unknown columns", unknown),
                ("missing columns", missing),
                ("repeated columns", duplicated),
            )
            if names
        ]
        raise GlossaryError(path, "bad CSV header; " + "; ".join(problems), line=line)


def _csv_entry(path: Path, cells: dict[str, str], line: int) -> dict[str, Any]:
    entry: dict[str, Any] = {
        name: cells[name] for name in CSV_REQUIRED if name not in ("category_hi", "category_en")
    }
    entry["category"] = {"hi": cells["category_hi"], "en": cells["category_en"]}
    for name in CSV_LIST_COLUMNS:
        entry[name] = [item.strip() for item in cells.get(name, "").split("|") if item.strip()]
    for name in ("usage_hi", "example_hi", "usage_en", "example_en"):
        entry[name] = cells.get(name) or None
    entry["source"] = {
        "document": cells.get("source_document") or path.name,
        "line": cells.get("source_line") or line,
    }
    return entry
