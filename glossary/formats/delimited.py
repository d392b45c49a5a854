"""CSV and TSV: the delimiter is sniffed (``,`` ``;`` tab ``|``), the encoding detected
(``glossary.formats.text``), quoted cells may span lines, and each record keeps its first line.

A cell starting with ``=`` is text here like any other: nothing in a glossary is ever evaluated.
"""

from __future__ import annotations

import csv
import io
import itertools
from pathlib import Path

from glossary.formats.base import ReadOptions, Record, Table, header_names, refuse
from glossary.formats.text import decode

DELIMITERS = ",;\t|"
DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "vertical bar"}
#: Records the delimiter is judged on.
SNIFF_RECORDS = 50


def read(path: Path, data: bytes, options: ReadOptions) -> Table:
    kind = "TSV" if path.suffix.lower() == ".tsv" else "CSV"
    text, encoding = decode(path, data, kind)
    delimiter = _sniff(text, "\t" if kind == "TSV" else None)
    rows = _rows(path, text, delimiter)
    if not rows:
        raise refuse(path, f"empty {kind} file; expected a header row, then one row per term")
    (_, raw_header), body = rows[0], rows[1:]
    header = header_names(raw_header)
    table = Table(kind, header, [], "line", {"encoding": encoding, "delimiter": DELIMITER_NAMES[delimiter]})
    for line, row in body:
        if len(row) > len(header):
            table.problems.append(
                (
                    line,
                    None,
                    f"row has {len(row)} cells, the header has {len(header)}: quote cells that "
                    f"hold a {DELIMITER_NAMES[delimiter]}, or add a header for the extra cells",
                )
            )
            continue
        table.records.append(Record(line, dict(zip(header, row, strict=False))))
    return table


def _sniff(text: str, given: str | None) -> str:
    """The delimiter that splits the first records into the most equal-width rows of the most cells
    (csv.Sniffer guesses from character counts and is fooled by commas inside quoted definitions)."""
    if given:
        return given
    sample = text[: 256 * 1024]

    def score(delimiter: str) -> tuple[float, int]:
        try:
            reader = csv.reader(io.StringIO(sample), delimiter=delimiter)
            rows = list(itertools.islice(reader, SNIFF_RECORDS))
        except csv.Error:
            return (0.0, 0)
        rows = [r for r in rows if any(c.strip() for c in r)]
        if not rows or len(rows[0]) < 2:
            return (0.0, 0)
        same = sum(len(r) == len(rows[0]) for r in rows[1:-1] or rows[:1])
        return (same / max(1, len(rows[1:-1] or rows[:1])), len(rows[0]))

    best = max(DELIMITERS, key=score)
    return best if score(best)[1] >= 2 else ","


def _rows(path: Path, text: str, delimiter: str) -> list[tuple[int, list[str]]]:
    """Non-blank rows with the line each starts on."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise refuse(path, f"invalid CSV: {exc}", reader.line_num) from exc
    return rows
