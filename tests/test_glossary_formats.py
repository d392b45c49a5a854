"""A glossary as a team has it: every format loads the same 10-entry fixture to the same entries,
headers are read by meaning, and only a term and a definition are required, in either language."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from glossary import GlossaryError, load_glossary
from glossary.columns import map_columns, parse_overrides, script_language
from glossary.formats import ReadOptions
from glossary.loader import read_source
from glossary.report import check
from glossary.tables import slug
from tests.glossary_fixture import ROWS, source_of, write_all, write_delimited


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_all(tmp_path_factory.mktemp("formats"))


def _view(path: Path) -> list[dict[str, object]]:
    return [e.model_dump(exclude={"source"}) for e in load_glossary([path]).entries]


def test_the_fixture_reads_as_written(written: dict[str, Path]) -> None:
    glossary = load_glossary([written["comma.csv"]])
    assert len(glossary) == len(ROWS) == 10
    overfitting, batch, rate, token, dropout = glossary.entries[:5]
    assert (overfitting.term_en, overfitting.term_hi, overfitting.definition_hi) == (
        "Overfitting",
        None,
        None,
    )
    assert overfitting.category is not None and overfitting.category.en == "Training"
    assert overfitting.aliases == ["overfit"]
    assert batch.category is None and batch.written_by_project == []
    assert (rate.term_en, rate.term_hi, rate.id) == (None, "अधिगम दर", "adhigama-dara")
    assert rate.category is not None and (rate.category.hi, rate.category.en) == ("प्रशिक्षण", None)
    assert token.languages == ("hi",) and dropout.languages == ("en", "hi")
    checkpoint, validation = glossary.entries[6:8]
    assert (checkpoint.usage_en, checkpoint.usage_hi) == (ROWS[6].usage[1], None)  # type: ignore[index]
    assert (validation.usage_hi, validation.usage_en) == (ROWS[7].usage[1], None)  # type: ignore[index]
    assert glossary.entries[-1].aliases == ["GD", "steepest descent"]
    assert (overfitting.source.document, overfitting.source.line) == ("comma.csv", 2)


@pytest.mark.parametrize(
    "name",
    [
        "bom.csv",
        "semicolon.csv",
        "pipe.csv",
        "tab.tsv",
        "unicode-text.tsv",
        "list.json",
        "lines.jsonl",
        "flat.yaml",
        "sheet.xlsx",
        "sheet.xls",
        "sheet.ods",
        "termbase.tbx",
        "pages",
    ],
)
def test_every_format_loads_the_same_entries(written: dict[str, Path], name: str) -> None:
    assert _view(written[name]) == _view(written["comma.csv"])


@pytest.mark.parametrize(
    ("name", "details"),
    [
        ("semicolon.csv", {"encoding": "UTF-8", "delimiter": "semicolon"}),
        ("bom.csv", {"encoding": "UTF-8 with BOM", "delimiter": "comma"}),
        ("unicode-text.tsv", {"encoding": "UTF-16 (Unicode text)", "delimiter": "tab"}),
        ("sheet.ods", {"sheet": "Glossary"}),
    ],
)
def test_the_report_says_how_a_file_was_read(written: dict[str, Path], name: str, details: dict) -> None:
    document, report = read_source(written[name], ReadOptions())
    assert document is not None and report.entries == 10 and report.details == details
    assert report.languages["definition"] == {"en": 7, "hi": 6}


def test_sources_name_the_row_sheet_row_and_page(written: dict[str, Path]) -> None:
    assert load_glossary([written["sheet.xlsx"]]).entries[0].source.line == 2
    pages = load_glossary([written["pages"]])
    first = pages.entries[0].source
    assert (first.document, first.line) == ("page-00.md", 2)
    assert pages.documents[0].title == "Fixture glossary"
    assert pages.documents[0].description == "Ten terms"


def test_a_page_without_front_matter_is_not_an_entry(tmp_path: Path) -> None:
    folder = tmp_path / "glossary"
    folder.mkdir()
    (folder / "README.md").write_text("# How we keep this glossary\n\nOne page per term.\n", "utf-8")
    (folder / "epoch.md").write_text("---\ntitle: Epoch\n---\nOne full pass over the data.\n", "utf-8")
    document, report = read_source(source_of(folder), ReadOptions())
    assert document is not None and [e.term for e in document.entries] == ["Epoch"]
    assert report.notes == ["pages without front matter, not glossary entries, left out: README.md"]


def test_a_readme_beside_a_spreadsheet_is_a_note_not_a_problem(tmp_path: Path) -> None:
    """A folder as a team keeps it: "glossary.csv" and a "README.md" about it. Before, loading the
    folder failed with "no entries", the README read as a folder of pages without one entry."""
    folder = tmp_path / "team"
    folder.mkdir()
    write_delimited(folder / "glossary.csv", ",", "utf-8")
    (folder / "README.md").write_text("# Our glossary\n\nExported from the team sheet.\n", "utf-8")
    assert len(load_glossary([folder])) == len(ROWS)
    reports = check([folder], ReadOptions())
    assert [r.problems for r in reports] == [[], []] and reports[1].entries == 0
    assert reports[1].notes == ["pages without front matter, not glossary entries, left out: README.md"]
    (folder / "glossary.csv").unlink()
    with pytest.raises(GlossaryError, match="no entries"):
        load_glossary([folder])


def test_a_markdown_file_without_entries_is_named_with_the_reason(tmp_path: Path) -> None:
    """One Markdown file is read as its folder's pages; its error and its `check` report named the
    folder ("/docs: no entries"), a path the user never gave, and the error not why the page was no
    entry."""
    page = tmp_path / "docs" / "notes.md"
    page.parent.mkdir()
    page.write_text("# Notes\n\nNo glossary here.\n", "utf-8")
    with pytest.raises(GlossaryError) as raised:
        load_glossary([page])
    assert raised.value.file == page
    assert "pages without front matter, not glossary entries, left out: notes.md" in str(raised.value)
    assert [r.path for r in check([page], ReadOptions())] == [page], "`check` names it as loading does"


def test_a_folder_whose_glossary_is_in_a_subfolder_says_which(tmp_path: Path) -> None:
    """Only a folder's own files are read; its error names the subfolders that hold a glossary."""
    (tmp_path / "team" / "2026").mkdir(parents=True)
    write_delimited(tmp_path / "team" / "2026" / "glossary.csv", ",", "utf-8")
    (tmp_path / "team" / "images").mkdir()
    with pytest.raises(GlossaryError, match=r"subfolders are not read, give them instead: \S+/team/2026$"):
        load_glossary([tmp_path / "team"])


def test_unnamed_and_repeated_columns_keep_their_cells(tmp_path: Path) -> None:
    """A spreadsheet's column without a header, or with another column's header: its cells were lost
    before (keyed by the same name, the last cell won), the report saying "kept"."""
    path = tmp_path / "team.csv"
    path.write_text(
        "term,definition,,Notes,Notes\nRefund,Money paid back.,see policy 4,first,second\n", "utf-8"
    )
    (entry,) = load_glossary([path]).entries
    assert entry.notes_en == ["first"]
    assert entry.extra == {"column 3": "see policy 4", "Notes (2)": "second"}
    (report,) = check([path], ReadOptions())
    assert [c.header for c in report.columns] == ["term", "definition", "column 3", "Notes", "Notes (2)"]


def test_a_sheet_is_chosen_by_name(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(["Notes"])
    terms = book.create_sheet("Terms")
    terms.append(["Word", "Meaning"])
    terms.append(["Epoch", "One full pass over the data."])
    book.save(tmp_path / "two.xlsx")
    with pytest.raises(GlossaryError, match="no term column"):
        load_glossary([tmp_path / "two.xlsx"])
    glossary = load_glossary([tmp_path / "two.xlsx"], options=ReadOptions(sheet="Terms"))
    assert glossary.entries[0].definition_en == "One full pass over the data."
    with pytest.raises(GlossaryError, match="no sheet named 'Other'; its sheets: Sheet, Terms"):
        load_glossary([tmp_path / "two.xlsx"], options=ReadOptions(sheet="Other"))


# --- columns by meaning -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "field", "lang"),
    [
        ("Term", "term", "script"),
        ("WORD", "term", "script"),
        ("शब्द", "term", "script"),
        ("पद", "term", "script"),
        ("Hindi term", "term", "hi"),
        ("हिंदी", "term", "hi"),
        ("term (English)", "term", "en"),
        ("Meaning", "definition", "script"),
        ("परिभाषा", "definition", "script"),
        ("अर्थ", "definition", "script"),
        ("Hindi definition", "definition", "hi"),
        ("definition_en", "definition", "en"),
        ("Topic", "category", "script"),
        ("श्रेणी", "category", "script"),
        ("उदाहरण", "example", "script"),
        ("When to use", "usage", "script"),
        ("उपयोग", "usage", "script"),
        ("Also known as", "aliases", None),
        ("Abbreviation", "aliases", None),
        ("See also", "related", None),
        ("URL", "source", None),
        ("ID", "id", None),
        ("Owner", None, None),
    ],
)
def test_headers_are_read_by_meaning(header: str, field: str | None, lang: str | None) -> None:
    (column,) = map_columns([header], {}, {})
    assert (column.field, column.lang) == (field, lang)


def test_the_first_of_two_columns_for_one_field_wins_and_the_other_is_kept() -> None:
    term, word = map_columns(["Term", "Word"], {}, {})
    assert (term.field, word.field) == ("term", None)


def test_overrides_name_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text("Begriff,Erklärung,Owner\nEpoch,One full pass over the data.,Team A\n", "utf-8")
    with pytest.raises(GlossaryError, match="no term column among 'Begriff', 'Erklärung', 'Owner'"):
        load_glossary([path])
    options = ReadOptions(columns=parse_overrides("term=Begriff,definition_en=erklärung"))
    entry = load_glossary([path], options=options).entries[0]
    assert (entry.term_en, entry.definition_en) == ("Epoch", "One full pass over the data.")
    assert entry.extra == {"Owner": "Team A"}  # kept under its own header, shown on the card
    with pytest.raises(ValueError, match="no such column"):
        load_glossary([path], options=ReadOptions(columns={"term": "Missing"}))


def test_script_decides_the_language_of_an_unnamed_column() -> None:
    assert script_language("ओवरफिटिंग की समस्या (overfitting)") == "hi"
    assert script_language("Overfitting (ओवरफिटिंग)") == "en"


def test_ids_are_unique_slugs_of_the_terms(tmp_path: Path) -> None:
    path = tmp_path / "dupes.csv"
    path.write_text("term,definition\nEpoch,A pass.\nepoch,Another pass.\nटोकन,पाठ का टुकड़ा।\n", "utf-8")
    assert [e.id for e in load_glossary([path])] == ["epoch", "epoch-2", "tokana"]
    assert slug("!!!").startswith("term-")


def test_problems_are_all_reported_with_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    rows = ["Term,Meaning"] + [f"T{i}," for i in range(25)]
    path.write_text("\n".join(rows) + "\n", "utf-8")
    with pytest.raises(GlossaryError) as info:
        load_glossary([path])
    lines = str(info.value).splitlines()
    assert lines[0].endswith("bad.csv: 25 problems; fix them and load again:")
    assert lines[1] == "  - line 2, column 'Meaning': no definition: fill the cell or remove the line"
    assert lines[-1] == "  ... and 5 more" and len(lines) == 22


def test_a_legacy_8bit_file_is_read_and_its_encoding_said(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    text = (
        "Term,Definition\n"
        'Café,"A small restaurant that serves coffee and pastries; très populaire à Paris."\n'
        'Naïve Bayes,"A simple classifier that assumes the features are independent — the naïve part."\n'
    )
    path.write_bytes(text.encode("cp1252"))
    document, report = read_source(path, ReadOptions())
    assert document is not None and document.entries[0].term_en == "Café"
    assert "not UTF-8" in report.details["encoding"]


def test_see_also_names_outside_the_glossary_are_kept_as_text(tmp_path: Path) -> None:
    path = tmp_path / "see.csv"
    path.write_text("Term,Definition,See also\nEpoch,A pass.,Batch; Wikipedia\nBatch,A group.,\n", "utf-8")
    epoch = load_glossary([path]).get("epoch")
    assert epoch.related == ["batch"] and epoch.extra == {"related": "Wikipedia"}


def test_json_and_yaml_in_the_full_schema_still_load(tmp_path: Path) -> None:
    from tests.factories import user_entry

    (tmp_path / "full.json").write_text(json.dumps([user_entry("alpha")]), "utf-8")
    assert load_glossary([tmp_path / "full.json"]).get("alpha").category is not None


def test_markdown_and_shortcodes_are_reduced_to_text() -> None:
    from glossary.formats.pages import to_text

    body = (
        'A [Pod](/docs/pod/) runs {{< glossary_tooltip text="containers" term_id="container" >}} on '
        '**nodes** {{<param "version">}}.\n\n<!--more-->\n\n{{% note %}}Read `kubectl`.{{% /note %}}'
    )
    assert to_text(body) == "A Pod runs containers on nodes .\n\nRead kubectl."


def test_a_file_of_two_columns_loads_without_flags(tmp_path: Path) -> None:
    out = io.StringIO()
    csv.writer(out).writerows([["Term", "Definition"], ["Epoch", "One pass, over all of the data."]])
    path = tmp_path / "two.csv"
    path.write_text(out.getvalue(), "utf-8")
    entry = load_glossary([path]).entries[0]
    assert (entry.id, entry.term, entry.definition_en, entry.definition_hi) == (
        "epoch",
        "Epoch",
        "One pass, over all of the data.",
        None,
    )


def test_the_delimiter_is_sniffed_past_commas_in_quoted_cells(tmp_path: Path) -> None:
    path = write_delimited(tmp_path / "x.csv", ";", "utf-8")
    assert len(load_glossary([path])) == len(ROWS)


def test_a_tbx_v2_termbase_loads(tmp_path: Path) -> None:
    """martif / termEntry / tig and ntig, a DOCTYPE naming its DTD (not fetched), other languages kept."""
    path = tmp_path / "v2.tbx"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE martif SYSTEM "TBXcoreStructV02.dtd">\n'
        '<martif type="TBX-Basic" xml:lang="en-US"><text><body><termEntry id="c1">'
        '<descrip type="subjectField">Training</descrip>'
        '<langSet xml:lang="en-US"><tig><term>Epoch</term></tig><tig><term>training pass</term></tig>'
        '<descrip type="definition">One pass over the data.</descrip></langSet>'
        '<langSet xml:lang="hi"><ntig><termGrp><term>युग</term></termGrp></ntig></langSet>'
        '<langSet xml:lang="fr"><tig><term>Époque</term></tig></langSet>'
        "</termEntry></body></text></martif>\n",
        "utf-8",
    )
    entry = load_glossary([path]).entries[0]
    assert (entry.id, entry.term_en, entry.term_hi, entry.aliases) == ("c1", "Epoch", "युग", ["training pass"])
    assert entry.category is not None and entry.category.en == "Training"
    assert entry.extra == {"term_fr": "Époque"}
