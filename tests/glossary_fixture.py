"""One 10-entry glossary (English-only, Hindi-only and bilingual entries, with and without
categories, usage lines and synonyms), written out in every format the loader reads.

The texts were written for these tests; each writer turns the one definition below into a file as
a team's tool would save it, so every format can be checked to load to the same entries.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

import yaml

from glossary.loader import Source, expand

HEADER = ("Term", "Definition", "Hindi term", "Hindi definition", "Category", "When to use", "Synonyms")


@dataclass(frozen=True)
class Row:
    en: tuple[str, str] | None  # (term, definition)
    hi: tuple[str, str] | None
    category: str = ""
    usage: tuple[str, str] | None = None  # (language, text)
    synonyms: tuple[str, ...] = ()

    def cells(self) -> tuple[str, ...]:
        en, hi = self.en or ("", ""), self.hi or ("", "")
        usage = self.usage[1] if self.usage else ""
        return (*en, *hi, self.category, usage, " | ".join(self.synonyms))


ROWS = (
    Row(
        (
            "Overfitting",
            "A model fits its training data so closely, noise included, that it does worse on new data.",
        ),
        None,
        "Training",
        synonyms=("overfit",),
    ),
    Row(("Batch size", "How many examples the model sees before each update of its weights."), None),
    Row(None, ("अधिगम दर", "वह चरण आकार जिससे ऑप्टिमाइज़र हर अद्यतन में वज़न बदलता है।"), "प्रशिक्षण"),
    Row(None, ("टोकन", "पाठ का वह छोटा टुकड़ा जिसे मॉडल एक इकाई के रूप में पढ़ता है।")),
    Row(
        (
            "Dropout",
            "Randomly switching off units during training, so the network cannot rely on any one of them.",
        ),
        ("ड्रॉपआउट", "प्रशिक्षण के दौरान इकाइयों को यादृच्छिक रूप से बंद करना।"),
        "Regularization",
    ),
    Row(
        ("Epoch", "One full pass of the training data through the model."),
        ("युग", "प्रशिक्षण डेटा का एक पूरा चक्कर।"),
        synonyms=("training pass", "पास"),
    ),
    Row(
        ("Checkpoint", "A saved copy of the model's weights and optimizer state during training."),
        None,
        "Operations",
        usage=("en", "Use it to resume a run that stopped, or to compare versions."),
    ),
    Row(
        None,
        ("सत्यापन सेट", "वह डेटा जिस पर प्रशिक्षण नहीं होता और जिससे मॉडल की जाँच होती है।"),
        usage=("hi", "मॉडल चुनने और ओवरफिटिंग पकड़ने के लिए इसका उपयोग करें।"),
    ),
    Row(
        ("Learning rate schedule", "A plan for changing the learning rate as training goes on."),
        ("लर्निंग रेट शेड्यूल", "प्रशिक्षण के साथ अधिगम दर बदलने की योजना।"),
        "Training",
        usage=("en", "Use warm-up then decay for long runs."),
        synonyms=("LR schedule",),
    ),
    Row(
        (
            "Gradient descent",
            "Moving the weights a small step against the gradient of the loss, again and again.",
        ),
        None,
        "Optimization",
        synonyms=("GD", "steepest descent"),
    ),
)
TEXT_FORMATS = {
    "comma.csv": (",", "utf-8"),
    "bom.csv": (",", "utf-8-sig"),
    "semicolon.csv": (";", "utf-8"),
    "pipe.csv": ("|", "utf-8"),
    "tab.tsv": ("\t", "utf-8"),
    "unicode-text.tsv": ("\t", "utf-16"),  # Excel's "Unicode text": UTF-16 with a BOM, tab-separated
}


def table() -> list[tuple[str, ...]]:
    return [HEADER, *(row.cells() for row in ROWS)]


def write_delimited(path: Path, delimiter: str, encoding: str) -> Path:
    out = io.StringIO(newline="")
    csv.writer(out, delimiter=delimiter, lineterminator="\r\n").writerows(table())
    path.write_bytes(out.getvalue().encode(encoding))
    return path


def _objects() -> list[dict[str, str]]:
    return [{h: v for h, v in zip(HEADER, row.cells(), strict=True) if v} for row in ROWS]


def write_json(path: Path) -> Path:
    path.write_text(json.dumps(_objects(), ensure_ascii=False, indent=1), "utf-8")
    return path


def write_jsonl(path: Path) -> Path:
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in _objects()), "utf-8")
    return path


def write_yaml(path: Path) -> Path:
    path.write_text(yaml.safe_dump({"title": "Fixture", "entries": _objects()}, allow_unicode=True), "utf-8")
    return path


def write_xlsx(path: Path) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Glossary"
    for row in table():
        sheet.append([v or None for v in row])
    book.save(path)
    return path


def write_xls(path: Path) -> Path:
    import xlwt

    book = xlwt.Workbook(encoding="utf-8")
    sheet = book.add_sheet("Glossary")
    for r, row in enumerate(table()):
        for c, value in enumerate(row):
            if value:
                sheet.write(r, c, value)
    book.save(str(path))
    return path


def write_ods(path: Path) -> Path:
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    sheet = Table(name="Glossary")
    for row in table():
        line = TableRow()
        for value in row:
            cell = TableCell(valuetype="string") if value else TableCell()
            if value:
                cell.addElement(P(text=value))
            line.addElement(cell)
        sheet.addElement(line)
    document.spreadsheet.addElement(sheet)
    document.save(str(path))
    return path


def write_tbx(path: Path) -> Path:
    """TBX v3 (TBX-Basic style): a conceptEntry per row, a langSet per language, synonyms as more
    terms of the first langSet, the usage line as a context of its language's langSet."""
    concepts = []
    for row in ROWS:
        own = f'<descrip type="subjectField">{escape(row.category)}</descrip>' if row.category else ""
        sets = []
        for lang, pair in (("en", row.en), ("hi", row.hi)):
            if pair is None:
                continue
            terms = [pair[0], *(row.synonyms if not sets else ())]
            sections = "".join(f"<termSec><term>{escape(t)}</term></termSec>" for t in terms)
            context = (
                f'<descrip type="context">{escape(row.usage[1])}</descrip>'
                if row.usage and row.usage[0] == lang
                else ""
            )
            sets.append(
                f'<langSec xml:lang="{lang}"><descrip type="definition">{escape(pair[1])}</descrip>'
                f"{context}{sections}</langSec>".replace("langSec", "langSet")
            )
        concepts.append(f"<conceptEntry>{own}{''.join(sets)}</conceptEntry>")
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<tbx type="TBX-Basic" style="dca" xml:lang="en" '
        'xmlns="urn:iso:std:iso:30042:ed-2"><tbxHeader><fileDesc><sourceDesc><p>fixture</p></sourceDesc>'
        f"</fileDesc></tbxHeader><text><body>{''.join(concepts)}</body></text></tbx>\n",
        "utf-8",
    )
    return path


def write_pages(folder: Path) -> Path:
    """A Hugo-style folder: a page per row (title = term, body = definition, tags, aka), the Hindi
    of a bilingual row in front-matter keys, and an _index.md with the glossary's title."""
    folder.mkdir()
    (folder / "_index.md").write_text("---\ntitle: Fixture glossary\ndescription: Ten terms\n---\n", "utf-8")
    for number, row in enumerate(ROWS):
        term, definition = row.en or row.hi or ("", "")
        meta: dict[str, object] = {"title": term, "date": "2024-01-01", "weight": number}
        if row.en and row.hi:
            meta |= {"Hindi term": row.hi[0], "Hindi definition": row.hi[1]}
        if row.category:
            meta["tags"] = [row.category]
        if row.synonyms:
            meta["aka"] = list(row.synonyms)
        if row.usage:
            meta["when to use"] = row.usage[1]
        front = yaml.safe_dump(meta, allow_unicode=True, sort_keys=False)
        body = f"{definition}\n\n<!--more-->\n"
        (folder / f"page-{number:02}.md").write_text(f"---\n{front}---\n{body}", "utf-8")
    return folder


def write_all(folder: Path) -> dict[str, Path]:
    """Every format of the fixture in ``folder``, by a short name."""
    written = {name: write_delimited(folder / name, *spec) for name, spec in TEXT_FORMATS.items()}
    for name, writer in (
        ("list.json", write_json),
        ("lines.jsonl", write_jsonl),
        ("flat.yaml", write_yaml),
        ("sheet.xlsx", write_xlsx),
        ("sheet.xls", write_xls),
        ("sheet.ods", write_ods),
        ("termbase.tbx", write_tbx),
    ):
        written[name] = writer(folder / name)
    written["pages"] = write_pages(folder / "pages")
    return written


def source_of(folder: Path) -> Source:
    """What the loader reads a folder as (its pages as one ``PageFolder``)."""
    (source,) = expand([folder])
    return source
