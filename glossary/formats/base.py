"""What every reader gives the loader: a ``Table`` of records under headers, or a ``Structured``
document already in the glossary schema; and the limits that keep a hostile file small.

A reader only reads: which header means what, and which language a text is in, is decided once for
every format by ``glossary.columns``, so a CSV, a sheet and a folder of pages follow the same rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from glossary.errors import GlossaryError

#: A cell (or page body) longer than this many characters is refused: a definition is a paragraph
#: or a few, and the index embeds every text about thirty times.
MAX_CELL_CHARS = 20_000
#: Bytes a spreadsheet (a zip of XML) may unpack to, and the largest compression ratio of a member
#: of some size: real sheets unpack ~5-20x; a zip bomb unpacks a thousand times and more.
MAX_UNPACKED_MB = 64
MAX_RATIO = 200
RATIO_FLOOR_BYTES = 1024 * 1024


@dataclass(frozen=True)
class ReadOptions:
    """How to read files: ``sheet`` picks a spreadsheet's sheet (default the first); ``columns`` maps
    a field name (``term``, ``definition_hi``, ...) to the header that holds it, over the synonyms."""

    sheet: str | None = None
    columns: Mapping[str, str] = field(default_factory=dict)
    max_mb: float = 20.0
    parse_cache: Path | None = None


def header_names(raw: Sequence[object]) -> list[str]:
    """A header row as cells are keyed by it: each name stripped; a blank one named by its place
    ("column 3") and a repeated one numbered ("Notes (2)"), so no cell under it is lost to another
    of the same name (a spreadsheet's unnamed or duplicated columns)."""
    names: list[str] = []
    for place, cell in enumerate(raw, start=1):
        name = str(cell).strip() if cell is not None else ""
        name = name or f"column {place}"
        base, copy = name, 2
        while name in names:
            name, copy = f"{base} ({copy})", copy + 1
        names.append(name)
    return names


@dataclass(frozen=True)
class Record:
    """One row, item, concept or page: its cells by header, and where it is (``where``: 1-based line,
    row or item number, in the unit its table names; ``page``: a Markdown page's file name)."""

    where: int
    cells: dict[str, str]
    page: str | None = None


@dataclass
class Table:
    """Records under headers, read from one file (or one folder of pages)."""

    format: str
    header: list[str]
    records: list[Record]
    #: What ``Record.where`` counts: "line", "row", "item", "concept" or "page".
    unit: str
    #: What was found while reading: encoding, delimiter, sheet, ... (shown by ``check``).
    details: dict[str, str] = field(default_factory=dict)
    #: Headers whose language the format itself states (a TBX langSet), header -> "en" / "hi".
    languages: dict[str, str] = field(default_factory=dict)
    #: Things the reader left out on purpose, said in the report rather than dropped silently.
    notes: list[str] = field(default_factory=list)
    title: str | None = None
    description: str | None = None
    #: Problems found while reading that do not stop the rest (a cell too long, a row too wide).
    problems: list[tuple[int, str | None, str]] = field(default_factory=list)


@dataclass
class Structured:
    """A document (or list of entries) in the full glossary schema, as YAML or JSON holds it.
    ``entry_lines``: the line of each entry, when the format knows it (JSONL)."""

    format: str
    data: Any
    details: dict[str, str] = field(default_factory=dict)
    entry_lines: list[int] | None = None


def refuse(path: Path, problem: str, line: int | None = None) -> GlossaryError:
    """A one-line refusal of the whole file (hostile, binary, unreadable)."""
    return GlossaryError(path, problem, line=line)
