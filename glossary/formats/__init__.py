"""Glossary file formats: one small reader per format, chosen by the file's extension.

Each reader turns bytes into a ``Table`` (records under headers, read by meaning in
``glossary.columns``) or a ``Structured`` document in the full schema (YAML / JSON as the bundled
glossary is written). A folder of Markdown pages is read as one table (``pages.read_folder``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from glossary.formats import delimited, sheets, structured, tbx
from glossary.formats.base import ReadOptions, Record, Structured, Table, refuse
from glossary.formats.pages import SUFFIXES as PAGE_SUFFIXES
from glossary.formats.pages import read_folder

Reader = Callable[[Path, bytes, ReadOptions], Table | Structured]

READERS: dict[str, Reader] = {
    ".csv": delimited.read,
    ".tsv": delimited.read,
    ".xlsx": sheets.read,
    ".xls": sheets.read,
    ".ods": sheets.read,
    ".tbx": tbx.read,
    ".json": structured.read_json,
    ".jsonl": structured.read_jsonl,
    ".yaml": structured.read_yaml,
    ".yml": structured.read_yaml,
}
#: Extensions of files that are glossaries on their own (Markdown pages are read as a folder).
SUPPORTED_SUFFIXES = tuple(READERS)
UNSUPPORTED = (
    f"unsupported file type; use one of {', '.join(SUPPORTED_SUFFIXES)} or a folder of Markdown pages"
)


def read(path: Path, data: bytes, options: ReadOptions) -> Table | Structured:
    """Read one glossary file with the reader its extension names."""
    reader = READERS.get(path.suffix.lower())
    if reader is None:
        raise refuse(path, UNSUPPORTED)
    return reader(path, data, options)


__all__ = [
    "PAGE_SUFFIXES",
    "READERS",
    "SUPPORTED_SUFFIXES",
    "UNSUPPORTED",
    "ReadOptions",
    "Record",
    "Structured",
    "Table",
    "read",
    "read_folder",
]
