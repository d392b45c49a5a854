"""Glossary file formats: one small reader per format, chosen by the file's extension.

Each reader turns bytes into a ``Table`` (records under headers, read by meaning in
``glossary.columns``) or a ``Structured`` document in the full schema (YAML / JSON as the bundled
glossary is written). A folder of Markdown pages is read as one table (``pages.read_folder``).
A reader's module (and its library: calamine, defusedxml, frontmatter, ...) is imported when a file
of its format is read, so serving the bundled YAML glossary loads none of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from pathlib import Path

from glossary.formats.base import ReadOptions, Record, Structured, Table, refuse

Reader = Callable[[Path, bytes, ReadOptions], Table | Structured]

#: Extension -> (module in glossary.formats, its reader function).
READERS: dict[str, tuple[str, str]] = {
    ".csv": ("delimited", "read"),
    ".tsv": ("delimited", "read"),
    ".xlsx": ("sheets", "read"),
    ".xls": ("sheets", "read"),
    ".ods": ("sheets", "read"),
    ".tbx": ("tbx", "read"),
    ".json": ("structured", "read_json"),
    ".jsonl": ("structured", "read_jsonl"),
    ".yaml": ("structured", "read_yaml"),
    ".yml": ("structured", "read_yaml"),
}
#: Extensions of files that are glossaries on their own (Markdown pages are read as a folder).
SUPPORTED_SUFFIXES = tuple(READERS)
PAGE_SUFFIXES = (".md", ".markdown")
UNSUPPORTED = (
    f"unsupported file type; use one of {', '.join(SUPPORTED_SUFFIXES)} or a folder of Markdown pages"
)


def read(path: Path, data: bytes, options: ReadOptions) -> Table | Structured:
    """Read one glossary file with the reader its extension names."""
    found = READERS.get(path.suffix.lower())
    if found is None:
        raise refuse(path, UNSUPPORTED)
    module, function = found
    reader: Reader = getattr(importlib.import_module(f"glossary.formats.{module}"), function)
    return reader(path, data, options)


def read_folder(folder: Path, pages: Iterable[Path], options: ReadOptions) -> Table:
    """A folder's Markdown pages as one table (``glossary.formats.pages``)."""
    from glossary.formats import pages as markdown_pages

    return markdown_pages.read_folder(folder, pages, options)


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
