"""Spreadsheets (XLSX, XLS, ODS) through python-calamine: the first sheet, or the one named.

Formulas are never evaluated: calamine returns the value the spreadsheet program saved with the
formula (a cell whose formula has no saved value reads as empty). An XLSX or ODS file is a zip of
XML, so before calamine opens it, every member is unpacked here with a cap on the bytes actually
read (declared sizes can lie): a zip bomb is refused in well under a second, at a few MB of memory.
"""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

from python_calamine import CalamineError, CalamineWorkbook

from glossary.errors import GlossaryError
from glossary.formats.base import (
    MAX_RATIO,
    MAX_UNPACKED_MB,
    RATIO_FLOOR_BYTES,
    ReadOptions,
    Record,
    Table,
    refuse,
)

MB = 1024 * 1024
CHUNK = 256 * 1024
ZIPPED = (".xlsx", ".ods")
NAMES = {".xlsx": "XLSX", ".xls": "XLS", ".ods": "ODS"}


def read(path: Path, data: bytes, options: ReadOptions) -> Table:
    kind = NAMES[path.suffix.lower()]
    if path.suffix.lower() in ZIPPED:
        _check_zip(path, kind)
    try:
        book = CalamineWorkbook.from_path(str(path))
        names = book.sheet_names
        if not names:
            raise refuse(path, f"the {kind} file has no sheets")
        name = options.sheet or names[0]
        if name not in names:
            raise refuse(path, f"no sheet named '{name}'; its sheets: {', '.join(names)} (option --sheet)")
        rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
    except GlossaryError:
        raise
    except (CalamineError, ValueError, OSError) as exc:
        raise refuse(
            path, f"cannot read this {kind} file ({exc}); open it and save it again as {kind}"
        ) from exc
    cells = [(number, [_text(value) for value in row]) for number, row in enumerate(rows, start=1)]
    cells = [(number, row) for number, row in cells if any(row)]
    if not cells:
        raise refuse(path, f"sheet '{name}' is empty; expected a header row, then one row per term")
    (_, header), body = cells[0], cells[1:]
    header = [h.strip() for h in header]
    details = {"sheet": name + (f" (of {len(names)}: {', '.join(names)})" if len(names) > 1 else "")}
    table = Table(kind, header, [], "row", details)
    table.records = [Record(number, dict(zip(header, row, strict=False))) for number, row in body]
    return table


def _check_zip(path: Path, kind: str) -> None:
    """Refuse a spreadsheet whose members unpack past MAX_UNPACKED_MB or at more than MAX_RATIO."""
    cap = MAX_UNPACKED_MB * MB
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            _check_declared(path, kind, members, cap)
            total = 0
            for member in members:
                with archive.open(member) as stream:
                    read = 0
                    while chunk := stream.read(CHUNK):
                        read += len(chunk)
                        total += len(chunk)
                        if total > cap or _ratio_too_high(read, member.compress_size):
                            raise refuse(path, _bomb(kind, member.filename))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, OSError) as exc:
        raise refuse(path, f"not a valid {kind} file ({exc}); open it and save it again as {kind}") from exc


def _check_declared(path: Path, kind: str, members: list[zipfile.ZipInfo], cap: int) -> None:
    if sum(m.file_size for m in members) > cap:
        raise refuse(path, _bomb(kind, "the archive"))
    for member in members:
        if _ratio_too_high(member.file_size, member.compress_size):
            raise refuse(path, _bomb(kind, member.filename))


def _ratio_too_high(unpacked: int, packed: int) -> bool:
    return unpacked > RATIO_FLOOR_BYTES and unpacked > MAX_RATIO * max(packed, 1)


def _bomb(kind: str, member: str) -> str:
    return (
        f"refused: {member} unpacks to more than {MAX_UNPACKED_MB} MB or {MAX_RATIO}x its packed size "
        f"(a zip bomb, or not a real {kind} glossary)"
    )


def _text(value: object) -> str:
    """A cell as text: whole numbers without '.0', dates as ISO dates."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value).upper()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    return str(value)
