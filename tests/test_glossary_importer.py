"""The importer: layout parsing on tiny inputs, and a full re-import that must match the committed data."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from glossary import GlossaryError, SeedFormatError, load_glossary
from glossary.enrichment import ENRICHMENT_PATH
from glossary.importer import DATA_DIR, SEEDS, import_seeds, main
from glossary.seeds import parse_pairs, parse_sections

SEEDS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(not SEEDS_DIR.is_dir(), reason=f"seed documents not found at {SEEDS_DIR}")

TINY_SECTIONS = [
    "शीर्षक",
    "उपशीर्षक",
    "2 शब्द",
    "श्रेणी एक",
    "Alpha",
    "अल्फा परिभाषा।",
    "अल्फा उपयोग।",
    "अल्फा उदाहरण। दूसरा वाक्य।श्रेणी दो",
    "Beta",
    "बीटा परिभाषा।",
    "बीटा उपयोग।",
    "बीटा सावधानी।",
    "बीटा उदाहरण।तालिका शीर्षक।",
    "| शब्द | अर्थ |",
    "|---|---|",
    "| अल्फा | पहला |",
    "उत्तर एक।",
    "आगे पढ़ें।",
]


def test_parse_sections_splits_glued_blocks() -> None:
    doc = parse_sections(Path("tiny.txt"), TINY_SECTIONS, expected_entries=2, faq_count=1)
    alpha, beta = doc.entries
    assert (alpha.term, alpha.line, alpha.category_hi) == ("Alpha", 5, "श्रेणी एक")
    assert alpha.example_hi == "अल्फा उदाहरण। दूसरा वाक्य।"
    assert (beta.category_hi, beta.notes_hi, beta.example_hi) == (
        "श्रेणी दो",
        ("बीटा सावधानी।",),
        "बीटा उदाहरण।",
    )
    assert doc.table is not None
    assert (doc.table.caption_hi, doc.table.line, doc.table.rows) == (
        "तालिका शीर्षक।",
        14,
        (("अल्फा", "पहला"),),
    )
    assert [(a.line, a.text) for a in doc.faq] == [(17, "उत्तर एक।")]
    assert doc.further_reading_hi == ("आगे पढ़ें।",)


@pytest.mark.parametrize(
    ("index", "replacement", "line", "message"),
    [
        (2, "दो शब्द", 3, "entry count"),
        (2, "3 शब्द", 3, "declares 3 entries"),
        (7, "अल्फा उदाहरण। दूसरा वाक्य। श्रेणी दो", 8, "found 0"),
        (6, None, 5, "entry 'Alpha' has 2 lines"),
        (14, "|-x-|", 14, "markdown table"),
    ],
)
def test_parse_sections_reports_file_and_line(
    index: int, replacement: str | None, line: int, message: str
) -> None:
    lines = list(TINY_SECTIONS)
    if replacement is None:
        del lines[index]
    else:
        lines[index] = replacement
    with pytest.raises(SeedFormatError) as info:
        parse_sections(Path("tiny.txt"), lines, expected_entries=2, faq_count=1)
    assert (info.value.line, info.value.file.name) == (line, "tiny.txt")
    assert message in str(info.value) and str(info.value).startswith("tiny.txt:")


def test_parse_pairs() -> None:
    doc = parse_pairs(Path("p.txt"), ["शीर्षक", "उप", "शब्द एक", "परिभाषा एक।", "शब्द दो", "परिभाषा दो।"], 2)
    assert [(e.term, e.line, e.definition_hi) for e in doc.entries] == [
        ("शब्द एक", 3, "परिभाषा एक।"),
        ("शब्द दो", 5, "परिभाषा दो।"),
    ]
    with pytest.raises(SeedFormatError, match="found 2 entries, expected 3"):
        parse_pairs(Path("p.txt"), ["शीर्षक", "उप", "शब्द एक", "परिभाषा एक।", "शब्द दो", "परिभाषा दो।"], 3)
    with pytest.raises(SeedFormatError, match="definition sentence") as info:
        parse_pairs(Path("p.txt"), ["शीर्षक", "उप", "शब्द एक", "परिभाषा एक"], 1)
    assert info.value.line == 4


@needs_seeds
def test_reimport_reproduces_committed_data(tmp_path: Path) -> None:
    assert main([str(SEEDS_DIR), "--out", str(tmp_path)]) == 0
    for spec in SEEDS:
        name = f"{Path(spec.document).stem}.yaml"
        assert (tmp_path / name).read_bytes() == (DATA_DIR / name).read_bytes(), (
            f"{name} is stale; re-run importer"
        )
    shipped = [*DATA_DIR.glob("*.yaml"), *DATA_DIR.glob("*.txt"), DATA_DIR / "seeds.sha256"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in shipped)
    for name in ("seeds.sha256", *(spec.document for spec in SEEDS)):
        assert (tmp_path / name).read_bytes() == (DATA_DIR / name).read_bytes(), f"{name} is stale"


@needs_seeds
def test_hindi_fields_are_verbatim_seed_text() -> None:
    glossary = load_glossary()
    seeds = {spec.document: (SEEDS_DIR / spec.document).read_text("utf-8").split("\n") for spec in SEEDS}
    for e in glossary:
        lines = seeds[e.source.document]
        at = e.source.line - 1
        assert lines[at] == e.term
        assert lines[at + 1] == e.definition_hi
        if e.usage_hi is None:
            assert e.example_hi is None and not e.notes_hi
            continue
        assert lines[at + 2] == e.usage_hi
        assert lines[at + 3 : at + 3 + len(e.notes_hi)] == e.notes_hi
        example_line = lines[at + 3 + len(e.notes_hi)]
        assert e.example_hi is not None and example_line.startswith(e.example_hi)
        next_block = example_line[len(e.example_hi) :]
        # A heading the seed writes in English has a project-written Hindi name (categories_hi).
        headings = {x.category.hi for x in glossary} | {
            x.category.en for x in glossary if "category" in x.written_by_project
        }
        assert next_block in headings or next_block == glossary.tables[0].caption_hi
    for item in glossary.faq:
        assert seeds[item.source.document][item.source.line - 1] == item.answer_hi
    table = glossary.tables[0]
    table_lines = seeds[table.source.document][table.source.line - 1 :]
    for row, line in zip(table.rows, table_lines[2:], strict=False):
        assert line == "| " + " | ".join(row) + " |"


@needs_seeds
@pytest.mark.parametrize(
    ("document", "edit", "message"),
    [
        (
            "004_2d22f4c9d7805074.txt",
            lambda lines: lines[:6] + lines[7:],
            "004_2d22f4c9d7805074.txt:5: entry",
        ),
        ("000_0aafce8d45fe4737.txt", lambda lines: lines[:-2], "found 15 entries, expected 16"),
        ("000_0aafce8d45fe4737.txt", lambda lines: [*lines[:4], "", *lines[4:]], ":5: unexpected blank line"),
    ],
)
def test_malformed_seed_is_reported(
    tmp_path: Path, document: str, edit: Callable[[list[str]], list[str]], message: str
) -> None:
    for spec in SEEDS:
        shutil.copy(SEEDS_DIR / spec.document, tmp_path / spec.document)
    path = tmp_path / document
    path.write_text("\n".join(edit(path.read_text("utf-8").split("\n"))), "utf-8")
    with pytest.raises(SeedFormatError) as info:
        import_seeds(tmp_path)
    assert message in str(info.value)


def _set(record: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        record.pop(key, None)
    else:
        record[key] = value


@needs_seeds
@pytest.mark.parametrize(
    ("doc", "entry_id", "key", "value", "message"),
    [
        ("004_2d22f4c9d7805074.txt", "dropout", "usage_en", None, "required: English translation"),
        ("004_2d22f4c9d7805074.txt", "dropout", "example_en", None, "required: English translation"),
        ("004_2d22f4c9d7805074.txt", "learning-rate", "notes_en", None, "has 1 caution note(s)"),
        ("004_2d22f4c9d7805074.txt", "dropout", "notes_en", ["Extra."], "has 0 caution note(s)"),
        ("000_0aafce8d45fe4737.txt", "lora", "usage_en", "Usage.", "has no usage line"),
    ],
)
def test_enrichment_translations_must_match_the_source_lines(
    tmp_path: Path, doc: str, entry_id: str, key: str, value: Any, message: str
) -> None:
    data = yaml.safe_load(ENRICHMENT_PATH.read_text("utf-8"))
    _set(data["documents"][doc]["entries"][entry_id], key, value)
    path = tmp_path / "enrichment.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    with pytest.raises(GlossaryError) as info:
        import_seeds(SEEDS_DIR, path)
    assert (info.value.file, info.value.entry, info.value.field) == (path, entry_id, key)
    assert message in str(info.value)


def test_enrichment_requires_faq_answer_en(tmp_path: Path) -> None:
    data = yaml.safe_load(ENRICHMENT_PATH.read_text("utf-8"))
    del data["documents"]["004_2d22f4c9d7805074.txt"]["faq"][0]["answer_en"]
    path = tmp_path / "enrichment.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    with pytest.raises(GlossaryError) as info:
        import_seeds(SEEDS_DIR, path)
    assert info.value.field is not None and info.value.field.endswith("faq.0.answer_en")


def test_missing_seed_folder_fails_cleanly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 1
    assert "seed file not found" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
