"""A team's own glossary end to end: `check` and `template` (typer's CliRunner), the setting that
names its files as people type them, and the answer for an entry the glossary has in one language
only (that language's text under the asker's labels, with one line saying so)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bot.cli import app
from bot.reply.cards import detail_card, quick_card
from bot.reply.messages import t
from bot.settings import Settings
from glossary import load_glossary
from glossary.template import FORMATS
from tests.glossary_fixture import ROWS, write_delimited

runner = CliRunner()


def test_check_reports_how_a_good_file_is_read(tmp_path: Path) -> None:
    path = write_delimited(tmp_path / "team.csv", ";", "utf-8-sig")
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("team.csv: CSV, encoding UTF-8 with BOM, delimiter semicolon")
    assert "    'Hindi definition' → definition_hi" in lines
    assert "    'When to use' → usage (language by script)" in lines
    assert (
        "  languages: term English 7, Hindi 6; definition English 7, Hindi 6; usage English 2, Hindi 1"
        in lines
    )
    assert lines[-2:] == [f"  entries: {len(ROWS)}", "  problems: none"]


def test_check_says_what_several_sources_hold_together(tmp_path: Path) -> None:
    """A folder as a team keeps it, a sheet and a README about it: the README's own block says
    "entries: 0", so the report ends with the glossary's whole count."""
    folder = tmp_path / "team"
    folder.mkdir()
    write_delimited(folder / "glossary.csv", ",", "utf-8")
    (folder / "README.md").write_text("# Our glossary\n\nExported from the team sheet.\n", "utf-8")
    result = runner.invoke(app, ["check", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"in all: {len(ROWS)} entries from 2 sources, problems: none"
    one = runner.invoke(app, ["check", str(folder / "glossary.csv")])
    assert "in all" not in one.output


def test_check_lists_every_problem_and_exits_3(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("Word,Meaning\nEpoch,\n,A pass.\nBatch,A group.\n", "utf-8")
    result = runner.invoke(app, ["check", str(path), str(tmp_path / "missing.csv")])
    assert result.exit_code == 3
    assert "    - line 2, column 'Meaning': no definition: fill the cell or remove the line" in result.output
    assert "    - line 3, column 'Word': no term: fill the cell or remove the line" in result.output
    assert "missing.csv: unknown\n  entries: 0\n  1 problem(s):\n    - file: no such file or directory" in (
        result.output
    )
    assert "Traceback" not in result.output


def test_check_takes_column_overrides(tmp_path: Path) -> None:
    path = tmp_path / "odd.csv"
    path.write_text("Begriff,Erklärung\nEpoch,One pass.\n", "utf-8")
    assert runner.invoke(app, ["check", str(path)]).exit_code == 3
    result = runner.invoke(app, ["--columns", "term=Begriff,definition=Erklärung", "check", str(path)])
    assert result.exit_code == 0 and "'Begriff' → term (language by script) (--columns)" in result.output
    bad = runner.invoke(app, ["--columns", "term", "check", str(path)])
    assert bad.exit_code == 2 and "GLOSSARY_BOT_GLOSSARY_COLUMNS" in bad.output


@pytest.mark.parametrize("kind", FORMATS)
def test_template_writes_a_starter_that_loads(tmp_path: Path, kind: str) -> None:
    target = tmp_path / f"starter.{kind}"
    result = runner.invoke(app, ["template", "--format", kind, "--output", str(target)])
    assert result.exit_code == 0, result.output
    entry = load_glossary([target]).entries[0]
    assert (entry.term_en, entry.term_hi, entry.id) == ("Overfitting", "ओवरफिटिंग", "overfitting")
    assert entry.category is not None and entry.category.en == "Training"
    again = runner.invoke(app, ["template", "--format", kind, "--output", str(target)])
    assert again.exit_code == 2 and "exists" in again.output
    assert runner.invoke(app, ["template", "--format", "docx"]).exit_code == 2


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/srv/terms.csv", ["/srv/terms.csv"]),
        (f"/srv/a.csv{os.pathsep}/srv/b.xlsx", ["/srv/a.csv", "/srv/b.xlsx"]),
        ("a.csv, b folder", ["a.csv", "b folder"]),
        ('["/srv/a,b.csv", "c.tbx"]', ["/srv/a,b.csv", "c.tbx"]),
    ],
)
def test_glossary_paths_as_people_type_them(
    monkeypatch: pytest.MonkeyPatch, value: str, expected: list[str]
) -> None:
    monkeypatch.setenv("GLOSSARY_BOT_GLOSSARY_PATHS", value)
    assert Settings().glossary_paths == [Path(p) for p in expected]


def test_a_bad_glossary_paths_value_is_one_line_naming_the_variable(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", str(tmp_path)], env={"GLOSSARY_BOT_GLOSSARY_PATHS": "[not json"})
    assert result.exit_code == 2
    (line,) = result.output.strip().splitlines()
    assert line.startswith("error: invalid option or setting: GLOSSARY_BOT_GLOSSARY_PATHS: ")


def _entry(tmp_path: Path, header: str, row: str):
    path = tmp_path / "one.csv"
    path.write_text(f"{header}\n{row}\n", "utf-8")
    glossary = load_glossary([path])
    return glossary.entries[0], glossary


@pytest.mark.parametrize(
    ("row", "asked", "shown"),
    [
        ("Epoch,One full pass over the training data.,Training,Use it to count passes.", "hi", "en"),
        ("युग,प्रशिक्षण डेटा का एक पूरा चक्कर।,प्रशिक्षण,पास गिनने के लिए।", "en", "hi"),
    ],
)
def test_an_entry_in_one_language_is_shown_under_the_askers_labels_with_one_note(
    tmp_path: Path, row: str, asked: str, shown: str
) -> None:
    entry, glossary = _entry(tmp_path, "Term,Definition,Category,When to use", row)
    card, details = quick_card(entry, asked, glossary), detail_card(entry, asked)
    definition = entry.text("definition", shown)
    assert definition and definition in card
    assert card.count(t("no_text_in_lang", asked)) == 1
    assert f"**{t('category', asked)}:**" in card and f"**{t('usage', asked)}:**" in details
    assert "####" not in details  # no empty other-language section


def test_a_bilingual_entry_has_no_note_and_keeps_its_other_language(tmp_path: Path) -> None:
    entry, glossary = _entry(
        tmp_path, "Term,Definition,Hindi term,Hindi definition", "Epoch,A pass.,युग,एक चक्कर।"
    )
    assert t("no_text_in_lang", "hi") not in quick_card(entry, "hi", glossary)
    assert "A pass." in detail_card(entry, "hi") and "#### " in detail_card(entry, "hi")


def test_unmapped_columns_are_shown_under_their_own_headers(tmp_path: Path) -> None:
    entry, _ = _entry(tmp_path, "Term,Definition,Owner", "Epoch,A pass.,Team A")
    assert "**Owner:** Team A" in detail_card(entry, "en")


@pytest.mark.model
def test_a_hindi_question_on_an_english_only_glossary_is_answered_in_english_under_hindi_labels(
    tmp_path: Path, settings: Settings
) -> None:
    from bot.core import GlossaryBot

    path = tmp_path / "team.csv"
    path.write_text(
        "Term,Definition\n"
        + "".join(f'"{row.en[0]}","{row.en[1]}"\n' for row in ROWS if row.en and not row.hi),
        "utf-8",
    )
    config = settings.model_copy(update={"glossary_paths": [path], "cache_dir": settings.cache_dir})
    bot = GlossaryBot.load(config)
    answer = bot.answer("Overfitting क्या है?")
    assert answer.entry_ids[:1] == ["overfitting"], answer.full_text
    assert t("no_text_in_lang", "hi") in answer.full_text
    assert ROWS[0].en is not None and ROWS[0].en[1].split(",")[0] in answer.full_text
    assert f"{t('source', 'hi')}:" in answer.full_text
