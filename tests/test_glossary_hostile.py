"""Hostile files are refused fast and small, each in one line: zip bombs (also with lying sizes),
XML entity expansion and external entities, oversized cells, binary data behind a glossary
extension; formulas are never evaluated."""

from __future__ import annotations

import struct
import time
import zipfile
from pathlib import Path

import pytest

from glossary import GlossaryError, load_glossary
from glossary.formats.base import MAX_CELL_CHARS
from glossary.template import _MAIN, _PARTS, render

#: Every refusal below must cost less than this many seconds of the process's CPU (work done, not
#: wall time, which a loaded machine stretches): a bomb read before it was refused costs far more.
FAST_S = 1.0
SHEET = "xl/worksheets/sheet1.xml"


def refused(path: Path) -> str:
    """The one-line refusal of ``path``, checked to cost under FAST_S of CPU."""
    start = time.process_time()
    with pytest.raises(GlossaryError) as info:
        load_glossary([path])
    assert time.process_time() - start < FAST_S
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def _bomb(path: Path, megabytes: int) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in _PARTS.items():
            archive.writestr(name, text)
        with archive.open(SHEET, "w") as member:
            block = b"<row/>" * (1 << 17)
            for _ in range(megabytes * (1 << 20) // len(block)):
                member.write(block)
    return path


def _lie_about_size(path: Path, member: str, size: int) -> None:
    """Write ``size`` as the member's unpacked size in the central directory (what readers trust)."""
    data = bytearray(path.read_bytes())
    central = data.find(b"PK\x01\x02")
    while central != -1:
        name_len = struct.unpack_from("<H", data, central + 28)[0]
        if data[central + 46 : central + 46 + name_len] == member.encode():
            struct.pack_into("<I", data, central + 24, size)
        central = data.find(b"PK\x01\x02", central + 4)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_zip_bomb_is_refused(tmp_path: Path, suffix: str) -> None:
    message = refused(_bomb(tmp_path / f"bomb{suffix}", 80))
    assert "zip bomb" in message


def test_a_zip_bomb_that_lies_about_its_size_is_refused_by_what_it_unpacks_to(tmp_path: Path) -> None:
    path = _bomb(tmp_path / "liar.xlsx", 80)
    _lie_about_size(path, SHEET, 1000)
    assert zipfile.ZipFile(path).getinfo(SHEET).file_size == 1000
    assert f"{SHEET} unpacks to more than" in refused(path)


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<tbx><text><body><conceptEntry><langSec xml:lang="en"><termSec><term>&lol4;</term></termSec>
</langSec></conceptEntry></body></text></tbx>"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE tbx [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<tbx><text><body><conceptEntry><langSet xml:lang="en"><termSec><term>&secret;</term></termSec>
<descrip type="definition">x</descrip></langSet></conceptEntry></body></text></tbx>"""


@pytest.mark.parametrize("text", [BILLION_LAUGHS, EXTERNAL], ids=["entity-expansion", "external-entity"])
def test_xml_entities_are_refused(tmp_path: Path, text: str) -> None:
    path = tmp_path / "evil.tbx"
    path.write_text(text, "utf-8")
    message = refused(path)
    assert "refused: the TBX file declares XML entities" in message and "root:" not in message


def test_an_oversized_cell_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.csv"
    path.write_text(f"Term,Definition\nEpoch,{'x' * (MAX_CELL_CHARS + 1)}\n", "utf-8")
    message = refused(path)
    assert "line 2, column 'Definition'" in message and "the limit is 20,000" in message


def test_formulas_are_read_as_their_saved_value_never_evaluated(tmp_path: Path) -> None:
    """A sheet cell's formula gives the value the spreadsheet saved; a CSV cell is text."""
    sheet = (
        f'<worksheet xmlns="{_MAIN}"><sheetData>'
        '<row r="1"><c r="A1" t="inlineStr"><is><t>Term</t></is></c><c r="B1" t="inlineStr"><is><t>Definition'
        '</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>Two</t></is></c>'
        '<c r="B2" t="str"><f>CONCATENATE("one ","plus one")</f><v>saved value</v></c></row>'
        "</sheetData></worksheet>"
    )
    path = tmp_path / "formula.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in {**_PARTS, SHEET: sheet}.items():
            archive.writestr(name, text)
    assert load_glossary([path]).entries[0].definition_en == "saved value"
    csv_path = tmp_path / "formula.csv"
    csv_path.write_text('Term,Definition\nTwo,"=1+1"\nLink,"=HYPERLINK(""http://x"")"\n', "utf-8")
    assert [e.definition_en for e in load_glossary([csv_path])] == ["=1+1", '=HYPERLINK("http://x")']


@pytest.mark.parametrize(
    ("name", "data", "expected"),
    [
        ("terms.csv", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40, "binary data"),
        ("terms.csv", render("xlsx"), "a zip archive (an .xlsx or .ods spreadsheet?)"),
        ("terms.tsv", b"\x7fELF\x02\x01\x01" + bytes(1000), "a program, not a glossary"),
        ("terms.xlsx", b"Term,Definition\nEpoch,A pass.\n", "not a valid XLSX file"),
        ("terms.ods", bytes(range(256)) * 8, "not a valid ODS file"),
        ("terms.xls", bytes(range(256)) * 8, "cannot read this XLS file"),
        ("terms.tbx", b"\x00\x01\x02binary", "invalid TBX (XML)"),
        ("terms.json", b"\xff\xfe\x00\x00" + bytes(range(256)), "not UTF-8 text"),
        ("terms.yaml", b"%PDF-1.7\n" + bytes(range(256)), "this is a PDF document"),
    ],
)
def test_binary_files_with_a_glossary_extension_are_refused(
    tmp_path: Path, name: str, data: bytes, expected: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    assert expected in refused(path)
