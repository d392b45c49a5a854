"""Loading: the bundled data's invariants, user files in every format, and actionable errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import regex
import yaml

from glossary import Glossary, GlossaryError, load_glossary, yamlio
from glossary.loader import DATA_DIR
from tests.factories import user_entry as entry

DOC_000 = "000_0aafce8d45fe4737.txt"
DOC_004 = "004_2d22f4c9d7805074.txt"


@pytest.fixture(scope="module")
def bundled() -> Glossary:
    return load_glossary()


def write_yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def document(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"document": "user.txt", "title_hi": "उपयोगकर्ता", "entries": list(entries)}


# --- bundled data -----------------------------------------------------------------------------


def test_bundled_counts_and_unique_ids(bundled: Glossary) -> None:
    assert len(bundled) == 77
    assert [len(d.entries) for d in bundled.documents] == [16, 61]
    assert [d.document for d in bundled.documents] == [DOC_000, DOC_004]
    assert len({e.id for e in bundled}) == 77
    assert list(bundled) == list(bundled.entries)


def test_bundled_references_resolve(bundled: Glossary) -> None:
    ids = {e.id for e in bundled}
    for e in bundled:
        assert 2 <= len(e.related) <= 5, e.id
        assert set(e.related) <= ids - {e.id}, e.id
    assert all(set(item.related) <= ids for item in bundled.faq)
    assert all(set(table.entry_ids) <= ids for table in bundled.tables)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("model-parallelism-strategy", "model-parallelism"),
        ("gradient-accumulation-technique", "gradient-accumulation"),
        ("zero", "optimizer-state-sharding"),
        ("tensor-parallelism", "model-parallelism"),
        ("pipeline-parallelism", "model-parallelism"),
    ],
)
def test_cross_document_links(bundled: Glossary, a: str, b: str) -> None:
    assert b in bundled.get(a).related
    assert a in bundled.get(b).related


def test_bundled_aliases_are_names_not_repeats(bundled: Glossary) -> None:
    for e in bundled:
        assert 2 <= len(e.aliases) <= 8, e.id
        folded = [a.casefold() for a in e.aliases]
        assert len(set(folded)) == len(folded), e.id
        assert not {e.term.casefold(), e.term_en.casefold(), e.term_hi.casefold()} & set(folded), e.id


def test_bundled_spot_checks(bundled: Glossary) -> None:
    clipping = bundled.get("gradient-clipping")
    assert (clipping.term, clipping.source.document, clipping.source.line) == (
        "Gradient clipping",
        DOC_004,
        197,
    )
    # The seed names this category only in English; the Hindi name is the project's (enrichment.yaml).
    assert clipping.category.hi == "सामान्यीकरण और गुणवत्ता" and "category" in clipping.written_by_project
    assert clipping.example_hi == "दस्तावेज़ित सीमा पर वैश्विक ग्रेडिएंट मानदंड को काटें और काटे गए चरणों को लॉग करें।"
    lora = bundled.get("lora")
    assert (lora.term, lora.term_hi, lora.source.document, lora.source.line) == (
        "लोरा (लो-रैंक एडाप्टेशन)",
        "लोरा (लो-रैंक एडाप्टेशन)",
        DOC_000,
        5,
    )
    assert lora.usage_hi is None and lora.example_hi is None
    assert bundled.get("model-training").example_hi.endswith("परिभाषित करें।")
    assert bundled.get("model-training").category.en == "Training foundations"
    assert bundled.by_term("Epoch") == bundled.get("epoch")
    assert bundled.by_term("epoch") is None


def test_notes_only_where_the_source_has_them(bundled: Glossary) -> None:
    with_notes = {e.id: e.notes_hi for e in bundled if e.notes_hi}
    assert set(with_notes) == {
        "training-dataset",
        "synthetic-training-data",
        "confidential-training-data",
        "learning-rate",
    }
    assert all(len(notes) == 1 for notes in with_notes.values())
    assert with_notes["learning-rate"][0].startswith("कोई भी सार्वभौमिक रूप से सही लर्निंग रेट नहीं है;")


def test_categories_and_written_by_project(bundled: Glossary) -> None:
    doc_000, doc_004 = bundled.documents
    assert {e.category.hi for e in doc_004.entries} == {
        "प्रशिक्षण नींव",
        "प्रशिक्षण डेटा",
        "प्रशिक्षण लूप",
        "सामान्यीकरण और गुणवत्ता",
        "गणना और पुनरुत्पादकता",
    }
    # Every Hindi category name is in Devanagari: the Hindi pages show no English category names.
    assert all(regex.search(r"\p{Devanagari}", e.category.hi) for e in bundled)
    for e in bundled:
        assert e.example_hi is None or e.example_hi.endswith("।")
        assert {"definition_en", "aliases"} <= set(e.written_by_project)
    assert all({"term_en", "category"} <= set(e.written_by_project) for e in doc_000.entries)
    assert all("term_hi" in e.written_by_project and e.term == e.term_en for e in doc_004.entries)


DEVANAGARI = regex.compile(r"\p{Devanagari}")


def test_bundled_english_translations_cover_every_hindi_line(bundled: Glossary) -> None:
    doc_000, doc_004 = bundled.documents
    for e in doc_004.entries:
        assert e.usage_en and e.example_en, e.id
        assert len(e.notes_en) == len(e.notes_hi), e.id
        translated = {"usage_en", "example_en"} | ({"notes_en"} if e.notes_hi else set())
        assert {f for f in e.written_by_project if f.endswith("_en")} - {"definition_en"} == translated, e.id
    for e in doc_000.entries:
        assert (e.usage_en, e.example_en, e.notes_en) == (None, None, []), e.id
        assert not {"usage_en", "example_en", "notes_en"} & set(e.written_by_project), e.id
    for item in bundled.faq:
        assert item.answer_en and "answer_en" in item.written_by_project, item.id


def test_bundled_translations_are_english_sentences(bundled: Glossary) -> None:
    texts = [t for e in bundled for t in (e.usage_en, e.example_en, *e.notes_en) if t is not None]
    texts += [item.answer_en for item in bundled.faq if item.answer_en]
    assert len(texts) == 61 * 2 + 4 + 5
    for text in texts:
        assert not DEVANAGARI.search(text), text
        assert text == text.strip() and "  " not in text and "\n" not in text, text
        assert text[0].isupper() and text.endswith("."), text


def test_bundled_translation_spot_checks(bundled: Glossary) -> None:
    clipping = bundled.get("gradient-clipping")
    assert clipping.example_en == (
        "Clip the global gradient norm at a documented threshold and log the clipped steps."
    )
    assert bundled.get("learning-rate").notes_en == [
        "There is no universally correct learning rate; suitable values depend on the model, method, "
        "data, batch size and optimizer."
    ]
    # Source lines that say the opposite of what they mean are translated with the intended meaning.
    assert "instead of training a new model from random initialization" in (
        bundled.get("transfer-learning").usage_en or ""
    )
    assert (bundled.get("data-split").usage_en or "").startswith("Split by user, time, document or group")
    assert (bundled.get("data-deduplication").example_en or "").startswith("Before splitting, deduplicate")
    assert "number of batches per epoch" in (bundled.faq[1].answer_en or "")


def test_end_matter(bundled: Glossary) -> None:
    (table,) = bundled.tables
    assert table.entry_ids == ["batch", "mini-batch", "training-step-iteration", "epoch"]
    assert [row[0] for row in table.rows] == ["बैच", "मिनी-बैच", "प्रशिक्षण चरण", "युग"]
    assert table.caption_hi.startswith("ये इकाइयाँ")
    assert [item.source.line for item in bundled.faq] == [259, 260, 261, 262, 263]
    assert all(item.question_hi and item.question_en for item in bundled.faq)
    assert len(bundled.documents[1].further_reading_hi) == 6


def test_get_unknown_id_explains(bundled: Glossary) -> None:
    with pytest.raises(KeyError, match="no glossary entry with id 'nope'"):
        bundled.get("nope")


# --- user files -------------------------------------------------------------------------------


def test_json_document_and_list_forms(tmp_path: Path) -> None:
    (tmp_path / "doc.json").write_text(json.dumps(document(entry("alpha", related=["beta"]))), "utf-8")
    (tmp_path / "list.json").write_text(json.dumps([entry("beta", related=["alpha"])]), "utf-8")
    glossary = load_glossary([tmp_path / "doc.json", tmp_path / "list.json"])
    assert [e.id for e in glossary] == ["alpha", "beta"]
    assert glossary.documents[1].document == "list.json"


CSV_HEADER = "id,term,term_en,term_hi,aliases,category_hi,category_en,definition_hi,definition_en,related\n"


def test_csv_glossary_loads_with_defaults(tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    path.write_text(
        CSV_HEADER
        + "my-dropout,Dropout,Dropout,ड्रॉपआउट, dropout2 | ड्रॉप-आउट ,"
        + 'श्रेणी,Cat,"पहली पंक्ति\nदूसरी।",Def.,dropout\n'
        + "my-other,Other,Other,अन्य,,श्रेणी,Cat,परिभाषा।,Def.,my-dropout|gradient\n",
        encoding="utf-8",
    )
    glossary = load_glossary([DATA_DIR, path])
    first, second = glossary.get("my-dropout"), glossary.get("my-other")
    assert first.aliases == ["dropout2", "ड्रॉप-आउट"]
    assert first.definition_hi == "पहली पंक्ति\nदूसरी।"
    assert first.usage_hi is None and first.notes_hi == []
    assert (first.source.document, first.source.line) == ("mine.csv", 2)
    assert second.source.line == 4  # the quoted cell above spans two lines
    assert second.related == ["my-dropout", "gradient"]


def test_csv_with_english_translation_columns(tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    header = CSV_HEADER.rstrip("\n") + ",usage_hi,usage_en,example_hi,example_en,notes_hi,notes_en\n"
    path.write_text(
        header
        + "a,A,A,अ,,श,C,प।,D.,,उपयोग।,Usage.,उदाहरण।,Example.,पहला। | दूसरा।,First. | Second.\n"
        + "b,B,B,ब,,श,C,प।,D.,,उपयोग।,,,,नोट।,\n",
        encoding="utf-8",
    )
    glossary = load_glossary([path])
    a, b = glossary.get("a"), glossary.get("b")
    assert (a.usage_en, a.example_en, a.notes_en) == ("Usage.", "Example.", ["First.", "Second."])
    assert a.notes_hi == ["पहला।", "दूसरा।"]
    assert (b.usage_hi, b.usage_en, b.example_hi, b.notes_en) == ("उपयोग।", None, None, [])


def test_user_glossary_without_english_translations_loads(tmp_path: Path) -> None:
    hindi_only = entry("alpha", usage_hi="उपयोग।", example_hi="उदाहरण।", notes_hi=["सावधानी।"])
    glossary = load_glossary([write_yaml(tmp_path / "hi.yaml", document(hindi_only))])
    alpha = glossary.get("alpha")
    assert alpha.notes_hi == ["सावधानी।"]
    assert (alpha.usage_en, alpha.example_en, alpha.notes_en) == (None, None, [])


def test_directory_loads_supported_files_sorted(tmp_path: Path) -> None:
    write_yaml(tmp_path / "b.yml", document(entry("bravo")))
    write_yaml(tmp_path / "a.yaml", [entry("alpha")])
    (tmp_path / "notes.txt").write_text("ignored", "utf-8")
    glossary = load_glossary([tmp_path])
    assert [e.id for e in glossary] == ["alpha", "bravo"]


def test_content_hash_is_stable_and_tracks_changes(tmp_path: Path, bundled: Glossary) -> None:
    assert load_glossary().content_hash == bundled.content_hash
    assert len(bundled.content_hash) == 64
    path = write_yaml(tmp_path / "g.yaml", document(entry("alpha")))
    before = load_glossary([path]).content_hash
    assert load_glossary([path]).content_hash == before
    write_yaml(path, document(entry("alpha", aliases=["new alias"])))
    assert load_glossary([path]).content_hash != before


# --- errors -----------------------------------------------------------------------------------


def load_error(paths: list[Path]) -> GlossaryError:
    with pytest.raises(GlossaryError) as info:
        load_glossary(paths)
    assert isinstance(info.value, ValueError)
    return info.value


def test_missing_field_names_file_entry_and_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    bad = entry("dropout")
    del bad["id"]
    write_yaml(tmp_path / "x.yaml", document(entry("alpha"), bad))
    error = load_error([Path("x.yaml")])
    assert (error.file, error.entry, error.field) == (Path("x.yaml"), 1, "id")
    assert str(error) == "x.yaml: entry at index 1: field 'id': Field required"


def test_invalid_entry_without_id_is_named_by_index(tmp_path: Path) -> None:
    error = load_error([write_yaml(tmp_path / "x.yaml", [entry("alpha"), {"term": "x"}])])
    assert error.entry == 1
    assert "entry at index 1" in str(error)


def test_invalid_yaml(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("entries:\n  - id: a\n    term: [unclosed\n", "utf-8")
    error = load_error([path])
    assert "invalid YAML" in str(error) and error.line is not None


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_text("document: a\ndocument: b\n", "utf-8")
    assert "duplicate key" in str(load_error([path]))


def test_a_yaml_key_that_is_a_list_is_named_not_a_traceback(tmp_path: Path) -> None:
    """``? [a, b]`` is a key Python cannot hold: the duplicate-key check raised TypeError on it."""
    path = tmp_path / "x.yaml"
    path.write_text("entries:\n  - id: a\n    ? [x, y]\n    : z\n", "utf-8")
    error = load_error([path])
    assert "unhashable key" in str(error) and error.line == 3


def test_invalid_json(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"document": "x",\n "entries": [}', "utf-8")
    error = load_error([path])
    assert error.line == 2 and "invalid JSON" in str(error)


def test_json_of_wrong_shape(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('"just a string"', "utf-8")
    assert "list of entries" in str(load_error([path]))


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (CSV_HEADER + 'a,A,A,अ,,श,C,"unclosed,D,\n', "invalid CSV"),
        (CSV_HEADER + "a,A,A,अ,,श,C,प।,D,,extra\n", "row has 11 cells"),
        ("id,term,colour\n", "no definition column among 'id', 'term', 'colour'"),
        ("", "empty CSV"),
    ],
)
def test_bad_csv(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "x.csv"
    path.write_text(content, "utf-8")
    assert expected in str(load_error([path]))


def test_csv_field_errors_use_column_names_and_lines(tmp_path: Path) -> None:
    path = tmp_path / "x.csv"
    path.write_text(CSV_HEADER + "ok,A,A,अ,,श,C,प।,D,\nbad,B,B,ब,,,C,,,\nworse,,,,,,C,प।,D,\n", "utf-8")
    error = load_error([path])
    assert error.field == "definition_hi"
    assert str(error).splitlines()[1:] == [
        "  - line 3, column 'definition_hi': no definition: fill the cell or remove the line",
        "  - line 4, column 'term': no term: fill the cell or remove the line",
    ]


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"usage_en": "Usage."}, "usage_en", "translates usage_hi, which is not set"),
        ({"example_en": "Example."}, "example_en", "translates example_hi, which is not set"),
        (
            {"notes_hi": ["एक।", "दो।"], "notes_en": ["One."]},
            "notes_en",
            "has 1 item(s) but notes_hi has 2",
        ),
    ],
)
def test_inconsistent_translation_names_file_entry_and_field(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, overrides: dict[str, Any], field: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    bravo = entry("bravo", **overrides, written_by_project=[field])
    write_yaml(tmp_path / "x.yaml", document(entry("alpha"), bravo))
    error = load_error([Path("x.yaml")])
    assert (error.file, error.entry) == (Path("x.yaml"), "bravo")
    assert str(error).startswith(f"x.yaml: entry 'bravo': Value error, {field} ")
    assert message in str(error)


def test_a_teams_own_notes_need_not_line_up(tmp_path: Path) -> None:
    """A user's file translates nothing for the project: its English notes are its own."""
    path = tmp_path / "x.csv"
    header = CSV_HEADER.rstrip("\n") + ",notes_hi,notes_en\n"
    path.write_text(header + "ok,A,A,अ,,श,C,प।,D,,,\nbad,B,B,ब,,श,C,प।,D,,नोट।,One.|Two.\n", "utf-8")
    assert load_glossary([path]).get("bad").notes_en == ["One.", "Two."]


def test_non_utf8_bytes(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"document: a\ntitle_hi: " + "café".encode("latin-1"))
    error = load_error([path])
    assert error.line == 2 and "not UTF-8" in str(error)


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    first = write_yaml(tmp_path / "a.yaml", [entry("alpha")])
    second = write_yaml(tmp_path / "b.yaml", [entry("alpha")])
    error = load_error([first, second])
    assert (error.file, error.entry, error.field) == (second, "alpha", "id")
    assert "a.yaml" in str(error)


def test_duplicate_of_bundled_id(tmp_path: Path) -> None:
    error = load_error([DATA_DIR, write_yaml(tmp_path / "a.yaml", [entry("dropout")])])
    assert error.entry == "dropout" and "duplicate id" in str(error)


def test_dangling_related_id_suggests_fix(tmp_path: Path) -> None:
    path = write_yaml(tmp_path / "a.yaml", [entry("alpha"), entry("bravo", related=["alphaa"])])
    error = load_error([path])
    assert (error.entry, error.field) == ("bravo", "related")
    assert "unknown entry id 'alphaa'; did you mean 'alpha'?" in str(error)


def test_self_relation_and_repeats(tmp_path: Path) -> None:
    path = write_yaml(tmp_path / "a.yaml", [entry("alpha", related=["alpha"])])
    assert "must not relate to itself" in str(load_error([path]))
    path = write_yaml(tmp_path / "b.yaml", [entry("alpha"), entry("bravo", related=["alpha", "alpha"])])
    assert "listed twice" in str(load_error([path]))


def test_dangling_table_entry_id(tmp_path: Path) -> None:
    data = document(entry("alpha"))
    data["tables"] = [
        {
            "id": "units",
            "caption_hi": "c",
            "columns": ["a"],
            "rows": [["x"]],
            "entry_ids": ["ghost"],
            "source": {"document": "user.txt", "line": 9},
        }
    ]
    error = load_error([write_yaml(tmp_path / "a.yaml", data)])
    assert (error.entry, error.field) == ("units", "entry_ids")
    assert "table 'units'" in str(error)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("g.txt", "unsupported file type"),
        ("missing.yaml", "no such file"),
        ("empty-dir", "no glossary files"),
    ],
)
def test_path_problems(tmp_path: Path, name: str, expected: str) -> None:
    (tmp_path / "g.txt").write_text("x", "utf-8")
    (tmp_path / "empty-dir").mkdir()
    assert expected in str(load_error([tmp_path / name]))


# --- the parse cache ----------------------------------------------------------------------------------

#: Each parse is a folder of its own in the cache (glossary.files.Artifact).
PARSED = f"*/{yamlio.PARSED_FILE}"


def test_parse_cache_gives_the_same_glossary_and_is_read_next_time(tmp_path, bundled, monkeypatch) -> None:
    cache = tmp_path / "parsed"
    first = load_glossary(parse_cache=cache)
    assert first.content_hash == bundled.content_hash and len(list(cache.glob(PARSED))) == 2

    def no_parsing(text: str) -> Any:
        raise AssertionError("parsed again instead of read from the cache")

    monkeypatch.setattr(yamlio, "load_yaml", no_parsing)
    assert load_glossary(parse_cache=cache).content_hash == bundled.content_hash


def test_an_edited_file_is_parsed_again(tmp_path) -> None:
    cache, path = tmp_path / "parsed", write_yaml(tmp_path / "g.yaml", document(entry("alpha", term="Alpha")))
    assert [e.term for e in load_glossary([path], parse_cache=cache).entries] == ["Alpha"]
    write_yaml(path, document(entry("alpha", term="Alpha prime")))
    assert [e.term for e in load_glossary([path], parse_cache=cache).entries] == ["Alpha prime"]


def test_a_damaged_cache_file_is_parsed_again_and_replaced(tmp_path, bundled) -> None:
    cache = tmp_path / "parsed"
    load_glossary(parse_cache=cache)
    for cached in cache.glob(PARSED):
        cached.write_text('{"entries": [', encoding="utf-8")
    assert load_glossary(parse_cache=cache).content_hash == bundled.content_hash
    assert all(json.loads(p.read_text(encoding="utf-8")) for p in cache.glob(PARSED))


def test_yaml_that_json_cannot_hold_is_not_cached(tmp_path) -> None:
    text = "a: 2024-01-02\n1: one\n"
    assert yamlio.load_yaml_cached(text, tmp_path) == yamlio.load_yaml(text)
    assert not list(tmp_path.glob(PARSED)) and not [p for p in tmp_path.iterdir() if p.is_dir()]


def test_an_unwritable_cache_only_costs_the_parse(tmp_path, bundled) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    assert load_glossary(parse_cache=blocker / "parsed").content_hash == bundled.content_hash
