"""Real glossaries nobody here wrote load as their owners publish them, with no flags: the
machinelearning.wtf CSV, the CNCF glossary written out as a spreadsheet would export it, and the
Kubernetes Hindi glossary as the folder of Hugo pages it is published as. Load checks only:
nothing is written for these glossaries (no aliases, rules or thresholds)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from glossary import load_glossary
from glossary.formats import ReadOptions
from glossary.loader import read_source
from tests.conftest import SHARED
from tests.glossary_fixture import source_of

HELDOUT = SHARED / "eval" / "heldout-glossaries"
ML_CSV = HELDOUT / "mlglossary-en" / "glossary.csv"
K8S_PAGES = HELDOUT / "k8s-hi-src.jsonl"
CNCF = SHARED / "eval" / "foreign" / "cncf-hi" / "glossary.yaml"

pytestmark = pytest.mark.skipif(not ML_CSV.is_file(), reason="the shared eval folder is not here")


def test_the_machine_learning_glossary_csv_loads_as_it_is() -> None:
    document, report = read_source(ML_CSV, ReadOptions())
    assert document is not None and report.problems == []
    assert report.entries == len(document.entries) == 173
    assert (report.format, report.details) == ("CSV", {"encoding": "UTF-8", "delimiter": "comma"})
    assert report.languages == {"term": {"en": 173}, "definition": {"en": 173}}
    assert all(e.definition_hi is None and e.term_hi is None for e in document.entries)
    assert len({e.id for e in document.entries}) == 173


def test_the_cncf_glossary_exported_as_csv_loads(tmp_path: Path) -> None:
    """Written out with a spreadsheet's headers (Term, Definition, Hindi term, ...), one row each."""
    entries = load_glossary([CNCF]).entries
    path = tmp_path / "cncf.csv"
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["Term", "Definition", "Hindi term", "Hindi definition", "Category", "श्रेणी"])
        for e in entries:
            names = (e.category.en, e.category.hi) if e.category else ("", "")
            writer.writerow([e.term_en, e.definition_en, e.term_hi, e.definition_hi, *names])
    loaded = load_glossary([path]).entries
    assert len(loaded) == len(entries)
    for mine, theirs in zip(loaded, entries, strict=True):
        assert (mine.term_en, mine.term_hi) == (theirs.term_en, theirs.term_hi)
        assert (mine.definition_en, mine.definition_hi) == (theirs.definition_en, theirs.definition_hi)


def test_the_kubernetes_hindi_pages_load_as_a_folder(tmp_path: Path) -> None:
    """The Hindi pages as Hugo publishes them: front matter (title, id, aka, tags, short_description)
    and shortcodes in the body."""
    folder = tmp_path / "glossary"
    folder.mkdir()
    pages = [json.loads(line) for line in K8S_PAGES.read_text("utf-8").splitlines() if line.strip()]
    hindi = [p for p in pages if "/content/hi/" in f"/{p['path']}"]
    for page in hindi:
        (folder / Path(page["path"]).name).write_text(page["text"], "utf-8")
    document, report = read_source(source_of(folder), ReadOptions())
    assert report.problems == [], report.problems
    assert document is not None and report.entries == len(hindi) == 140
    assert not any("{{" in (e.definition_hi or e.definition_en or "") for e in document.entries)
    assert report.languages["definition"]["hi"] > 100  # some pages are untranslated English upstream
    addons = next(e for e in document.entries if e.id == "addons")
    assert addons.term_hi == "ऐड-ऑन" and addons.category is not None and addons.category.en == "tool"
    assert addons.source.document == "addons.md"
    assert any(note.startswith("short_description: a summary") for note in report.notes)
    assert addons.source.reference == "/docs/concepts/cluster-administration/addons/"
