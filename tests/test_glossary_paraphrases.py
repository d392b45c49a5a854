"""Paraphrases: plain-language descriptions of each concept that must never name it.

They exist so a question that *describes* a concept (in English, Hinglish or Hindi) still
retrieves the entry; a paraphrase that contains the term's name, an alias or the acronym
would only duplicate the name fields and hide whether the description works on its own.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import regex
import yaml

from glossary import GlossaryEntry, GlossaryError, load_glossary
from glossary.enrichment import ENRICHMENT_PATH, load_enrichment
from glossary.importer import import_seeds
from glossary.schema import GlossaryDocument
from tests.factories import user_entry as _user_entry

SEEDS_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
needs_seeds = pytest.mark.skipif(not SEEDS_DIR.is_dir(), reason=f"seed documents not found at {SEEDS_DIR}")

DEVANAGARI = regex.compile(r"\p{Devanagari}")
# One token with at least two capitals: PEFT, LoRA, ZeRO-3, MoE, LR, FP16, RevNet.
ACRONYM = re.compile(r"^(?=(?:[^A-Z]*[A-Z]){2})[A-Za-z0-9-]+$")
# Function words that mark romanized Hindi; none of them is an English word used in the English lines.
HINGLISH = re.compile(
    r"\b(hai|hain|hota|hoti|hote|jata|jaata|jati|jaati|jaate|ko|ka|ki|ke|kya|kyu|kyun|kaise|kaunsa|"
    r"kaunse|kaunsi|mein|jab|karna|karte|karke|karo|kare|bolte|kehte|kehlata|kehlati|wala|wali|wale|"
    r"nahi|aur|gaya|gayi|diya|dena|raha|rahi)\b",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def entries() -> list[GlossaryEntry]:
    return list(load_glossary())


def fold(text: str) -> str:
    """Case-fold and drop the nukta, so फ़ॉरवर्ड and फॉरवर्ड (or ज़ and ज) count as the same spelling."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", text).replace("\u093c", "")).casefold()


def name_forms(entry: GlossaryEntry) -> set[str]:
    """The entry's names: term_en/term_hi/heading, their parts and parenthesised acronyms, and aliases.

    'LoRA (Low-Rank Adaptation)' gives 'LoRA' and 'Low-Rank Adaptation'; 'AI accelerator (GPU, TPU,
    NPU)' gives 'AI accelerator', 'GPU', 'TPU' and 'NPU'; 'Training step / iteration' gives both halves.
    Latin forms shorter than three letters count only when they are acronyms ('LR').
    """
    forms: set[str] = set(entry.aliases)
    for name in (entry.term, entry.term_en, entry.term_hi):
        outer = re.sub(r"\s*\([^)]*\)", "", name).strip()
        inner = [part for group in re.findall(r"\(([^)]*)\)", name) for part in group.split(",")]
        for part in (outer, *inner):
            forms.update(half.strip() for half in part.split(" / "))
    return {f for f in forms if f and (DEVANAGARI.search(f) or len(f) >= 3 or ACRONYM.match(f))}


def mentions(text: str, form: str) -> bool:
    """Substring match for Devanagari and multi-word names; whole word (plural allowed) otherwise."""
    if DEVANAGARI.search(form) or " " in form:
        return fold(form) in fold(text)
    return re.search(rf"\b{re.escape(fold(form))}(?:s|es)?\b", fold(text)) is not None


def kind(paraphrase: str) -> str:
    if DEVANAGARI.search(paraphrase):
        return "hindi"
    return "hinglish" if HINGLISH.search(paraphrase) else "english"


# --- the checker itself -----------------------------------------------------------------------


def test_name_forms_split_headings_and_keep_acronyms(entries: list[GlossaryEntry]) -> None:
    by_id = {e.id: e for e in entries}
    assert {"LoRA", "Low-Rank Adaptation", "लोरा", "लो-रैंक एडाप्टेशन"} <= name_forms(by_id["lora"])
    assert {"AI accelerator", "GPU", "TPU", "NPU"} <= name_forms(by_id["ai-accelerator"])
    assert {"Training step", "iteration", "पुनरावृत्ति"} <= name_forms(by_id["training-step-iteration"])
    assert "LR" in name_forms(by_id["learning-rate"])


@pytest.mark.parametrize(
    ("text", "form", "expected"),
    [
        ("Randomly switching off neurons (dropouts) while training", "Dropout", True),
        ("the dropout-like trick", "Dropout", True),
        ("dropped out units", "Dropout", False),
        ("lr=3e-4 is too high", "LR", True),
        ("a larger step", "LR", False),
        ("Plot the Training Loss curve", "Training loss", True),
        ("फ़ॉरवर्ड पास के बाद", "फॉरवर्ड पास", True),
        ("GPU की मेमोरी", "GPU मेमोरी", False),
    ],
)
def test_mentions(text: str, form: str, expected: bool) -> None:
    assert mentions(text, form) is expected


# --- bundled data -----------------------------------------------------------------------------


def test_every_entry_has_paraphrases_in_each_language(entries: list[GlossaryEntry]) -> None:
    assert len(entries) == 77
    for e in entries:
        kinds = [kind(p) for p in e.paraphrases]
        assert 6 <= len(kinds) <= 9, e.id
        assert any(not DEVANAGARI.search(p) for p in e.paraphrases), e.id  # at least one Latin-only
        assert any(DEVANAGARI.search(p) for p in e.paraphrases), e.id  # at least one Devanagari
        assert kinds.count("english") == 3, (e.id, kinds)
        assert 2 <= kinds.count("hinglish") <= 3, (e.id, kinds)
        assert 2 <= kinds.count("hindi") <= 3, (e.id, kinds)
        assert "paraphrases" in e.written_by_project, e.id


def test_paraphrases_never_name_the_term(entries: list[GlossaryEntry]) -> None:
    leaks = [
        (e.id, form, p) for e in entries for p in e.paraphrases for form in name_forms(e) if mentions(p, form)
    ]
    assert not leaks, "\n".join(f"{i}: {form!r} in {p!r}" for i, form, p in leaks)


def test_paraphrases_are_single_distinct_lines(entries: list[GlossaryEntry]) -> None:
    seen: dict[str, str] = {}
    for e in entries:
        for p in e.paraphrases:
            assert p == p.strip() and "\n" not in p and "  " not in p, (e.id, p)
            words = len(p.split())
            assert 5 <= words <= 22 if kind(p) == "english" else 4 <= words <= 25, (e.id, words, p)
            assert fold(p) not in seen, f"{e.id} repeats a paraphrase of {seen.get(fold(p))}: {p!r}"
            seen[fold(p)] = e.id


def test_paraphrases_are_not_copies_of_other_fields(entries: list[GlossaryEntry]) -> None:
    for e in entries:
        own = {fold(t) for t in (e.definition_en, e.definition_hi, e.usage_en, e.usage_hi) if t}
        assert not own & {fold(p) for p in e.paraphrases}, e.id


# --- enrichment and user files ----------------------------------------------------------------


def _write_enrichment(tmp_path: Path, entry_id: str, paraphrases: Any) -> Path:
    data = yaml.safe_load(ENRICHMENT_PATH.read_text("utf-8"))
    record = data["documents"]["004_2d22f4c9d7805074.txt"]["entries"][entry_id]
    if paraphrases is None:
        del record["paraphrases"]
    else:
        record["paraphrases"] = paraphrases
    path = tmp_path / "enrichment.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    return path


LATIN = [f"plain description number {n}" for n in range(5)]


@pytest.mark.parametrize(
    ("paraphrases", "message"),
    [
        (None, "Field required"),
        ([*LATIN[:4], "एक"], "at least 6 items"),
        ([*LATIN, "x x x x"], "in Devanagari"),
        ([f"हिंदी विवरण {n}" for n in range(6)], "in Latin script"),
        ([*LATIN, "हिंदी", "Plain description number 1"], "listed twice"),
        ([*LATIN, "हिंदी", " padded "], "one non-blank line"),
    ],
)
def test_enrichment_requires_paraphrases(tmp_path: Path, paraphrases: Any, message: str) -> None:
    path = _write_enrichment(tmp_path, "dropout", paraphrases)
    with pytest.raises(GlossaryError) as info:
        load_enrichment(path)
    assert info.value.field is not None and info.value.field.endswith("dropout.paraphrases")
    assert message in str(info.value)


@needs_seeds
def test_importer_merges_paraphrases(tmp_path: Path) -> None:
    mine = [*LATIN, "हिंदी में विवरण"]
    documents = import_seeds(SEEDS_DIR, _write_enrichment(tmp_path, "dropout", mine))
    dropout = next(e for d in documents for e in d.entries if e.id == "dropout")
    assert dropout.paraphrases == mine
    assert dropout.written_by_project[-2:] == ["paraphrases", "related"]


def test_user_glossary_without_paraphrases_loads(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump([_user_entry("alpha")], allow_unicode=True), "utf-8")
    alpha = load_glossary([path]).get("alpha")
    assert alpha.paraphrases == []
    assert alpha.written_by_project == []


def test_user_glossary_paraphrases_need_no_minimum(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump([_user_entry("alpha", paraphrases=["one line"])]), "utf-8")
    assert load_glossary([path]).get("alpha").paraphrases == ["one line"]


def test_csv_paraphrases_column(tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    path.write_text(
        "id,term,term_en,term_hi,category_hi,category_en,definition_hi,definition_en,paraphrases\n"
        "a,A,A,अ,श,C,प।,D.,switching units off at random | न्यूरॉन बंद करना |\n"
        "b,B,B,ब,श,C,प।,D.,\n",
        encoding="utf-8",
    )
    glossary = load_glossary([path])
    assert glossary.get("a").paraphrases == ["switching units off at random", "न्यूरॉन बंद करना"]
    assert glossary.get("b").paraphrases == []


def test_blank_paraphrase_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(yaml.safe_dump([_user_entry("alpha", paraphrases=["ok", " "])]), "utf-8")
    with pytest.raises(GlossaryError) as info:
        load_glossary([path])
    assert (info.value.entry, info.value.field) == ("alpha", "paraphrases")


def test_paraphrases_round_trip() -> None:
    doc = GlossaryDocument(
        document="x.txt", title_hi="शीर्षक", entries=[GlossaryEntry(**_user_entry("alpha", paraphrases=["p"]))]
    )
    assert GlossaryDocument.model_validate(doc.model_dump(mode="json")) == doc
