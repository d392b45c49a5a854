"""Bytes to text the way spreadsheet programs write it: UTF-8 with or without a BOM, UTF-16 with a
BOM (Excel's "Unicode text"), or a legacy 8-bit code page, which is detected and named in the report
(a guess: the user is told to save as UTF-8 to be sure). Binary files are refused before decoding.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from glossary.formats.base import refuse

#: Leading bytes of files that are not text, whatever their extension says.
BINARY_MAGIC = {
    b"PK\x03\x04": "a zip archive (an .xlsx or .ods spreadsheet?): give it its real extension",
    b"\xd0\xcf\x11\xe0": "an old Office file (an .xls spreadsheet?): give it its real extension",
    b"%PDF": "a PDF document: export the glossary as CSV or a spreadsheet",
    b"\x7fELF": "a program, not a glossary",
}
#: What Excel on Windows writes a "CSV" in, in Western locales: taken whenever it decodes the file
#: plausibly (charset-normalizer ranks the Baltic cp1257 first on French text with an em dash).
PREFERRED_LEGACY = "cp1252"
#: How much of a file the binary check and the encoding guess look at.
SNIFF_BYTES = 64 * 1024


def decode(path: Path, data: bytes, kind: str) -> tuple[str, str]:
    """(text, encoding as the report names it). Refuses binary data and text that decodes as nothing."""
    for magic, what in BINARY_MAGIC.items():
        if data.startswith(magic):
            raise refuse(path, f"not {kind} text: this is {what}")
    if data.startswith(codecs.BOM_UTF8):
        return _strict(path, data[len(codecs.BOM_UTF8) :], "utf-8"), "UTF-8 with BOM"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return _strict(path, data, "utf-16"), "UTF-16 (Unicode text)"
    if b"\x00" in data[:SNIFF_BYTES]:
        raise refuse(path, f"not {kind} text: the file holds binary data (NUL bytes); export it as {kind}")
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes  # only for files that are not UTF-8

    plausible = [match.encoding for match in from_bytes(data[: SNIFF_BYTES * 4])]
    if not plausible:
        raise refuse(path, f"not {kind} text in any known encoding; save it as UTF-8 {kind}")
    encoding = PREFERRED_LEGACY if PREFERRED_LEGACY in plausible else plausible[0]
    return (
        _strict(path, data, encoding),
        f"{encoding} (detected, not UTF-8: check the accents, or save the file as UTF-8)",
    )


def _strict(path: Path, data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise refuse(
            path, f"not {encoding} text (byte {exc.start}: {exc.reason}); save it as UTF-8", line
        ) from exc
