"""One-language views of a glossary (glossary/views.py): what an English-only or a Hindi-only team
file holds, made from the bundled glossary, loaded back as a user's file, and the labelled
questions mapped to its headings."""

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from glossary import load_glossary
from glossary.views import GLOSSARY_FILE, QUESTIONS_FILE, ViewError, entry_view, glossary_view, write_view

REPO = Path(__file__).resolve().parents[1]
DEVANAGARI = re.compile(r"[\u0900-\u097F]")


@pytest.fixture(scope="module")
def bare():
    return load_glossary().without_project_extras()


def _texts(entry, lang):
    return [
        entry.term,
        *entry.aliases,
        *entry.paraphrases,
        *(entry.text(f, lang) or "" for f in ("term", "definition", "usage", "example")),
    ]


def test_the_english_view_has_no_hindi_field_and_a_heading_in_english(bare):
    view = glossary_view(bare, "en")
    assert len(view) == len(bare)
    for entry in view:
        assert entry.term == entry.term_en
        assert (entry.term_hi, entry.definition_hi, entry.usage_hi, entry.example_hi) == (None,) * 4
        assert not entry.notes_hi and not entry.written_by_project
        assert entry.category is None or entry.category.hi is None
        assert not any(DEVANAGARI.search(t) for t in (entry.term, *entry.aliases, *entry.paraphrases))


def test_the_hindi_view_has_no_english_field(bare):
    view = glossary_view(bare, "hi")
    for entry in view:
        assert entry.term == entry.term_hi
        assert (entry.term_en, entry.definition_en, entry.usage_en, entry.example_en) == (None,) * 4
        assert not entry.notes_en


def test_aliases_and_paraphrases_in_the_other_script_are_dropped():
    entry = load_glossary().get("flash-attention")
    english = entry_view(entry, "en")
    hindi = entry_view(entry, "hi")
    assert english is not None and hindi is not None
    assert "Flash Attention" in english.aliases and "फ़्लैश अटेंशन" not in english.aliases
    assert "फ़्लैश अटेंशन" in hindi.aliases and "Flash Attention" not in hindi.aliases
    assert len(english.paraphrases) + len(hindi.paraphrases) == len(entry.paraphrases)


def test_an_entry_without_the_language_is_left_out(bare):
    entry = bare.entries[0].model_copy(update={"term_en": None, "definition_en": None})
    assert entry_view(entry, "en") is None


def test_a_view_with_no_entry_is_refused(bare):
    from glossary import Glossary

    only_hindi = [e.model_copy(update={"term_en": None, "definition_en": None}) for e in bare.entries[:2]]
    document = bare.documents[0].model_copy(update={"entries": only_hindi, "tables": [], "faq": []})
    with pytest.raises(ViewError, match="no entry"):
        glossary_view(Glossary([document]), "en")


@pytest.mark.parametrize("view", ["en", "hi"])
def test_a_written_view_loads_back_as_a_users_file_byte_for_byte_the_same(bare, tmp_path, view):
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        json.dumps({"query": "what is lora", "expected": ["लोरा (लो-रैंक एडाप्टेशन)"]})
        + "\n"
        + json.dumps({"query": "capital of France", "expected": []})
        + "\n",
        encoding="utf-8",
    )
    made = write_view(bare, view, tmp_path / "a", questions)
    write_view(bare, view, tmp_path / "b", questions)
    for name in (GLOSSARY_FILE, QUESTIONS_FILE):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    loaded = load_glossary([tmp_path / "a" / GLOSSARY_FILE])
    assert [e.model_dump() for e in loaded] == [e.model_dump() for e in made]
    mapped = [json.loads(line) for line in (tmp_path / "a" / QUESTIONS_FILE).read_text().splitlines()]
    assert mapped[0]["expected"] == [made.get("lora").term] and mapped[1]["expected"] == []
    assert mapped[0]["query"] == "what is lora"


def test_the_cli_refuses_an_unknown_view_in_one_line(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "bot.cli", "view", "fr", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert out.returncode == 2 and out.stderr.strip() == "error: unknown view 'fr': use en or hi"


def test_a_questions_file_that_is_not_labelled_questions_is_refused_with_its_line(tmp_path):
    bad = tmp_path / "q.jsonl"
    bad.write_text('{"query": "what is lora", "expected": []}\n{"query": "no label"}\n', encoding="utf-8")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot.cli",
            "--no-extras",
            "view",
            "en",
            "--out",
            str(tmp_path / "v"),
            "--questions",
            str(bad),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert out.returncode == 4 and "line 2: not a labelled question" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
