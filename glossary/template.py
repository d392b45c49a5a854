"""``glossary-bot template``: a starter glossary with one filled example row, as CSV, XLSX or YAML.

Its headers are the ones the loader reads by meaning (``glossary.columns``); only a term and a
definition are required, in English or Hindi. The XLSX is written with the standard library (the
few XML parts a one-sheet workbook needs), so writing a template needs no spreadsheet library.
"""

from __future__ import annotations

import csv
import io
import zipfile
from xml.sax.saxutils import escape

from glossary.yamlio import dump_yaml

FORMATS = ("csv", "xlsx", "yaml")
HEADER = (
    "Term",
    "Definition",
    "Hindi term",
    "Hindi definition",
    "Category",
    "Example",
    "Synonyms",
    "See also",
)
EXAMPLE = (
    "Overfitting",
    "When a model learns its training data so closely, noise included, that it does worse on new data.",
    "ओवरफिटिंग",
    "जब मॉडल प्रशिक्षण डेटा को, उसके शोर सहित, इतनी बारीकी से सीख लेता है कि नए डेटा पर उसका प्रदर्शन गिर जाता है।",
    "Training",
    "Training loss keeps falling while validation loss rises.",
    "overfit | over-fitting",
    "",
)
TITLE = "My team's glossary"
DESCRIPTION = "Terms our team uses, with what they mean."


def render(kind: str) -> bytes:
    """The template's bytes in ``kind`` (one of FORMATS)."""
    if kind == "csv":
        out = io.StringIO(newline="")
        csv.writer(out, lineterminator="\r\n").writerows([HEADER, EXAMPLE])
        return out.getvalue().encode("utf-8-sig")  # the BOM makes Excel read the Hindi as UTF-8
    if kind == "xlsx":
        return _xlsx([HEADER, EXAMPLE])
    if kind == "yaml":
        names = ("term_en", "definition_en", "term_hi", "definition_hi", "category", "example_en")
        entry: dict[str, object] = dict(zip(names, EXAMPLE, strict=False))
        entry["aliases"] = EXAMPLE[6].split(" | ")
        return dump_yaml({"title": TITLE, "description": DESCRIPTION, "entries": [entry]}).encode()
    raise ValueError(f"unknown template format '{kind}'; use one of {', '.join(FORMATS)}")


_XML = '<?xml version="1.0" encoding="UTF-8"?>'
_PKG = "http://schemas.openxmlformats.org/package/2006"
_DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_PARTS = {
    "[Content_Types].xml": f'{_XML}<Types xmlns="{_PKG}/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{_TYPE}.sheet.main+xml"/>'
    f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{_TYPE}.worksheet+xml"/></Types>',
    "_rels/.rels": f'{_XML}<Relationships xmlns="{_PKG}/relationships">'
    f'<Relationship Id="rId1" Type="{_DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    "xl/workbook.xml": f'{_XML}<workbook xmlns="{_MAIN}" xmlns:r="{_DOC}">'
    '<sheets><sheet name="Glossary" sheetId="1" r:id="rId1"/></sheets></workbook>',
    "xl/_rels/workbook.xml.rels": f'{_XML}<Relationships xmlns="{_PKG}/relationships">'
    f'<Relationship Id="rId1" Type="{_DOC}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
}


def _xlsx(rows: list[tuple[str, ...]]) -> bytes:
    """A one-sheet workbook of inline-string cells."""
    xml_rows = "".join(
        f'<row r="{r}">'
        + "".join(
            f'<c r="{chr(65 + c)}{r}" t="inlineStr"><is><t>{escape(value)}</t></is></c>'
            for c, value in enumerate(row)
            if value
        )
        + "</row>"
        for r, row in enumerate(rows, start=1)
    )
    sheet = f'{_XML}<worksheet xmlns="{_MAIN}"><sheetData>{xml_rows}</sheetData></worksheet>'
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in {**_PARTS, "xl/worksheets/sheet1.xml": sheet}.items():
            archive.writestr(name, text)
    return out.getvalue()
