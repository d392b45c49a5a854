"""Spreadsheets (XLSX, XLS, ODS) through python-calamine: the first sheet, or the one named.

Formulas are never evaluated: calamine returns the value the spreadsheet program saved with the
formula (a cell whose formula has no saved value reads as empty). An XLSX or ODS file is a zip of
XML, so before calamine opens it, every member is inflated here with a cap on the bytes that come
out (declared sizes can lie): a zip bomb is refused in well under a second, at a few MB of memory.
"""

from __future__ import annotations

import datetime as dt
import struct
import zipfile
import zlib
from pathlib import Path
from typing import BinaryIO

from python_calamine import CalamineError, CalamineWorkbook

from glossary.errors import GlossaryError
from glossary.formats.base import (
    MAX_RATIO,
    MAX_UNPACKED_MB,
    RATIO_FLOOR_BYTES,
    ReadOptions,
    Record,
    Table,
    header_names,
    refuse,
)

MB = 1024 * 1024
CHUNK = 256 * 1024
#: Size of a zip member's local header before its name and extra field.
LOCAL_HEADER = 30
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
    header = header_names(header)
    details = {"sheet": name + (f" (of {len(names)}: {', '.join(names)})" if len(names) > 1 else "")}
    table = Table(kind, header, [], "row", details)
    table.records = [Record(number, dict(zip(header, row, strict=False))) for number, row in body]
    return table


def _check_zip(path: Path, kind: str) -> None:
    """Refuse a spreadsheet whose members unpack past MAX_UNPACKED_MB or at more than MAX_RATIO.

    Each member's deflate stream is inflated here, counting the bytes that come out, whatever
    sizes the archive declares (a lying header would let a bomb through a check of declared sizes).
    """
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            _check_declared(path, kind, members)
            with path.open("rb") as raw:
                budget = MAX_UNPACKED_MB * MB
                for member in members:
                    budget -= _inflated_size(path, kind, raw, member, budget)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, OSError) as exc:
        raise refuse(path, f"not a valid {kind} file ({exc}); open it and save it again as {kind}") from exc


def _check_declared(path: Path, kind: str, members: list[zipfile.ZipInfo]) -> None:
    """The cheap first look: what the archive says about itself."""
    if sum(m.file_size for m in members) > MAX_UNPACKED_MB * MB:
        raise refuse(path, _bomb(kind, "the archive"))
    for member in members:
        if _ratio_too_high(member.file_size, member.compress_size):
            raise refuse(path, _bomb(kind, member.filename))
        if member.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            raise refuse(
                path, f"{member.filename} uses a compression spreadsheets do not use; not a real {kind}"
            )


def _inflated_size(path: Path, kind: str, raw: BinaryIO, member: zipfile.ZipInfo, budget: int) -> int:
    """Bytes ``member`` really unpacks to, read from its local header on; refused past ``budget``
    or MAX_RATIO times its packed size."""
    raw.seek(member.header_offset)
    header = raw.read(LOCAL_HEADER)
    if len(header) < LOCAL_HEADER or header[:4] != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"bad local header for {member.filename}")
    name_len, extra_len = struct.unpack("<HH", header[26:30])
    raw.seek(name_len + extra_len, 1)
    if member.compress_type == zipfile.ZIP_STORED:
        return member.compress_size
    inflater, left, out = zlib.decompressobj(-zlib.MAX_WBITS), member.compress_size, 0
    while left > 0 and not inflater.eof:
        chunk = raw.read(min(CHUNK, left))
        if not chunk:
            break
        left -= len(chunk)
        data = chunk
        while data:
            out += len(inflater.decompress(data, CHUNK))
            data = inflater.unconsumed_tail
            if out > budget or _ratio_too_high(out, member.compress_size):
                raise refuse(path, _bomb(kind, member.filename))
    return out


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
