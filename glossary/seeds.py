"""Parsers for the two seed-document layouts, returning verbatim text with line numbers.

The seeds are plain-text exports with structural quirks (categories glued to the
previous example line, a table caption glued to the last example, FAQ answers
without questions). The parsers undo only those quirks: every returned string is a
byte-exact slice of the source line, so Hindi text is never altered. Anything that
does not fit the expected layout raises ``SeedFormatError`` naming file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import regex

from glossary.errors import SeedFormatError

DEVANAGARI = regex.compile(r"\p{Devanagari}")
# Sentences end in a danda followed by a space or the end of the line; a danda directly followed by
# text marks where the export glued the next block (category name or table caption) onto the line.
GLUE_POINT = regex.compile(r"।(?=\S)")
ENTRY_COUNT = regex.compile(r"(\d+) शब्द")
TABLE_SEPARATOR = regex.compile(r"\|(?:\s*:?-+:?\s*\|)+")


@dataclass(frozen=True)
class RawEntry:
    term: str
    line: int
    definition_hi: str
    category_hi: str | None = None
    usage_hi: str | None = None
    example_hi: str | None = None
    notes_hi: tuple[str, ...] = ()


@dataclass(frozen=True)
class RawTable:
    caption_hi: str
    line: int
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class RawAnswer:
    line: int
    text: str


@dataclass(frozen=True)
class RawDocument:
    document: str
    title_hi: str
    subtitle_hi: str
    entries: tuple[RawEntry, ...]
    table: RawTable | None = None
    faq: tuple[RawAnswer, ...] = ()
    further_reading_hi: tuple[str, ...] = ()


def read_lines(path: Path) -> list[str]:
    """Read a seed as UTF-8 lines (no line terminators); blank lines are a format error."""
    if not path.is_file():
        raise SeedFormatError(path, "seed file not found")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SeedFormatError(
            path, f"not valid UTF-8 ({exc.reason})", line=data.count(b"\n", 0, exc.start) + 1
        ) from exc
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise SeedFormatError(path, "unexpected blank line", line=number)
    return lines


def parse_pairs(path: Path, lines: list[str], expected_entries: int) -> RawDocument:
    """Layout of 000: title, subtitle, then alternating heading / definition lines."""
    if len(lines) < 2 or len(lines) % 2:
        raise SeedFormatError(
            path, f"expected title, subtitle and heading/definition pairs, got {len(lines)} lines"
        )
    entries = []
    for index in range(2, len(lines), 2):
        heading, definition = lines[index], lines[index + 1]
        if heading.endswith("।"):
            raise SeedFormatError(path, "expected a heading here but found a sentence", line=index + 1)
        if not definition.endswith("।"):
            raise SeedFormatError(path, "expected a definition sentence ending in '।'", line=index + 2)
        entries.append(RawEntry(term=heading, line=index + 1, definition_hi=definition))
    _check_count(path, entries, expected_entries)
    return RawDocument(path.name, lines[0], lines[1], tuple(entries))


def parse_sections(path: Path, lines: list[str], expected_entries: int, faq_count: int) -> RawDocument:
    """Layout of 004: categorised entries, a comparison table, FAQ answers, further reading."""
    if len(lines) < 5:
        raise SeedFormatError(path, "too short: expected title, subtitle, entry count and a category")
    declared = ENTRY_COUNT.fullmatch(lines[2])
    if declared is None:
        raise SeedFormatError(path, "expected the entry count ('<n> शब्द')", line=3)
    if int(declared.group(1)) != expected_entries:
        raise SeedFormatError(
            path, f"declares {declared.group(1)} entries, expected {expected_entries}", line=3
        )
    table_start = next((i for i, line in enumerate(lines) if line.startswith("|")), None)
    if table_start is None:
        raise SeedFormatError(path, "no comparison table (lines starting with '|') found")
    entries, caption = _parse_entries(path, lines, body_start=4, body_end=table_start, category=lines[3])
    _check_count(path, entries, expected_entries)
    table, table_end = _parse_table(path, lines, table_start, caption)
    answers = lines[table_end : table_end + faq_count]
    if len(answers) != faq_count:
        raise SeedFormatError(path, f"expected {faq_count} FAQ answers after the table, found {len(answers)}")
    return RawDocument(
        document=path.name,
        title_hi=lines[0],
        subtitle_hi=lines[1],
        entries=tuple(entries),
        table=table,
        faq=tuple(RawAnswer(table_end + 1 + i, text) for i, text in enumerate(answers)),
        further_reading_hi=tuple(lines[table_end + faq_count :]),
    )


def _parse_entries(
    path: Path, lines: list[str], body_start: int, body_end: int, category: str
) -> tuple[list[RawEntry], str]:
    """Split the body into entries; return them and the table caption glued to the last example."""
    headings = [i for i in range(body_start, body_end) if not DEVANAGARI.search(lines[i])]
    if not headings or headings[0] != body_start:
        raise SeedFormatError(path, "expected an English entry heading", line=body_start + 1)
    entries = []
    tail = ""
    for position, start in enumerate(headings):
        end = headings[position + 1] if position + 1 < len(headings) else body_end
        content = lines[start + 1 : end]
        if len(content) not in (3, 4):
            raise SeedFormatError(
                path,
                f"entry '{lines[start]}' has {len(content)} lines; expected definition, usage, "
                "optional caution note and example",
                line=start + 1,
            )
        example, tail = _split_glued(path, content[-1], line=end)
        entries.append(
            RawEntry(
                term=lines[start],
                line=start + 1,
                definition_hi=content[0],
                category_hi=category,
                usage_hi=content[1],
                example_hi=example,
                notes_hi=tuple(content[2:-1]),
            )
        )
        category = tail
    return entries, tail


def _split_glued(path: Path, line_text: str, line: int) -> tuple[str, str]:
    glued = list(GLUE_POINT.finditer(line_text))
    if len(glued) != 1:
        raise SeedFormatError(
            path,
            f"expected an example sentence with the next block glued after its '।', found {len(glued)}",
            line=line,
        )
    cut = glued[0].end()
    return line_text[:cut], line_text[cut:]


def _parse_table(path: Path, lines: list[str], start: int, caption: str) -> tuple[RawTable, int]:
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    if end - start < 3 or not TABLE_SEPARATOR.fullmatch(lines[start + 1]):
        raise SeedFormatError(
            path, "expected a markdown table: header, '|---|' separator, rows", line=start + 1
        )
    columns = _cells(lines[start])
    rows = []
    for index in range(start + 2, end):
        cells = _cells(lines[index])
        if len(cells) != len(columns):
            raise SeedFormatError(
                path, f"table row has {len(cells)} cells, header has {len(columns)}", line=index + 1
            )
        rows.append(cells)
    return RawTable(caption, start + 1, columns, tuple(rows)), end


def _cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in line.strip().strip("|").split("|"))


def _check_count(path: Path, entries: list[RawEntry], expected: int) -> None:
    if len(entries) != expected:
        raise SeedFormatError(path, f"found {len(entries)} entries, expected {expected}")
