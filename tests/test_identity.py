"""The glossary's identity (bot/identity.py) and whose each text is (bot/reply/provenance.py).

The bundled glossary keeps the title, description and examples it always had; a team's glossary
shows its own title (settings, then its metadata, else derived from its file's name), examples made
from its own entries in its languages, and its texts headed "from <file>" unless its entries say
the project translated them.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from typer.testing import CliRunner

from bot import cli
from bot.identity import human_name, identity
from bot.lookup import browse
from bot.reply.card import compose
from bot.reply.cards import detail_card
from bot.reply.comparison import compare
from bot.search.retrieval import Hit
from bot.settings import Settings
from bot.understand.query import reading_of
from glossary import Glossary, GlossaryEntry, load_glossary
from glossary.loader import DATA_DIR
from tests.factories import user_entry
from ui.chat import reply_messages
from ui.labels import Identity

BUNDLED_EXAMPLES = [
    "What is gradient clipping?",
    "ओवरफिटिंग क्या है?",
    "dropout kya hai?",
    "batch vs epoch",
    "मिनी-बैच और बैच में क्या अंतर है?",
    "LoRA में low-rank matrices कहाँ inject की जाती हैं?",
    "learning rate warmup kyu karte hai",
    "give me an example",
]
#: The header the app showed before it took the glossary's identity (English, Hindi interface).
BUNDLED_HEADERS = {
    "en": "## AI Glossary Bot · AI शब्दावली बॉट\nLook up AI/ML training terms in Hindi, English or "
    "Hinglish. Every answer cites its source document and line.",
    "hi": "## AI शब्दावली बॉट · AI Glossary Bot\nAI/ML प्रशिक्षण के शब्द हिंदी, अंग्रेज़ी या हिंग्लिश में "
    "खोजें। हर उत्तर अपने स्रोत दस्तावेज़ और पंक्ति का हवाला देता है।",
}
TERMS = [
    ("refund", "Refund", "धनवापसी", "Money paid back to a customer."),
    ("chargeback", "Chargeback", "चार्जबैक", "A payment reversed by the card issuer."),
    ("invoice", "Invoice", "चालान", "A bill for goods or services."),
    ("payout", "Payout", "भुगतान", "Money sent to a merchant."),
    ("ledger", "Ledger", "खाता-बही", "The record of every transaction."),
    ("settlement", "Settlement", "निपटान", "Moving the money between banks."),
    ("dispute", "Dispute", "विवाद", "A customer's claim against a payment."),
]


def _entries(document: str) -> list[dict]:
    return [
        user_entry(
            slug,
            term=en,
            term_en=en,
            term_hi=hi,
            definition_en=definition,
            definition_hi=f"{hi} की परिभाषा।",
            source={"document": document, "line": n + 1},
        )
        for n, (slug, en, hi, definition) in enumerate(TERMS)
    ]


def _settings(tmp_path: Path, paths: list[Path] | None = None, **values: str) -> Settings:
    return Settings(cache_dir=tmp_path / "cache", glossary_paths=paths or [], **values)


@pytest.fixture(scope="module")
def bundled() -> Glossary:
    return load_glossary()


@pytest.fixture
def plain(tmp_path: Path) -> tuple[Glossary, Path]:
    """A team's bilingual YAML file without metadata: a list of entries, as teams write it."""
    path = tmp_path / "support_terms.yaml"
    path.write_text(yaml.safe_dump(_entries("support_terms.yaml"), allow_unicode=True), encoding="utf-8")
    return load_glossary([path]), path


def test_bundled_glossary_keeps_its_identity(bundled, tmp_path):
    found = identity(bundled, _settings(tmp_path))
    assert found.bundled
    assert found.title == {"en": "AI Glossary Bot", "hi": "AI शब्दावली बॉट"}
    assert list(found.examples) == BUNDLED_EXAMPLES
    assert found.entries == len(bundled) == 77
    assert found.languages == ("en", "hi")
    assert [f.name for f in found.files] == [d.document for d in bundled.documents]
    assert {c.en for c in found.categories} == {e.category.en for e in bundled}


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_bundled_header_is_the_one_it_always_had(bundled, tmp_path, lang):
    bot = SimpleNamespace(identity=identity(bundled, _settings(tmp_path)))
    assert Identity(bot).header(lang)["value"] == BUNDLED_HEADERS[lang]  # type: ignore[arg-type]


def test_bundled_glossary_named_by_its_folder_is_still_the_bundled_one(tmp_path):
    assert identity(load_glossary([DATA_DIR]), _settings(tmp_path, [DATA_DIR])).bundled


def test_a_glossary_without_metadata_is_named_after_its_file(plain, tmp_path):
    glossary, path = plain
    found = identity(glossary, _settings(tmp_path, [path]))
    assert not found.bundled
    assert found.title == {"en": "Support terms glossary", "hi": "Support terms शब्दावली"}
    assert "AI" not in found.description["en"] and "AI" not in found.description["hi"]
    assert found.languages == ("en", "hi")


def test_examples_are_its_own_entries_in_its_languages(plain, tmp_path):
    glossary, path = plain
    found = identity(glossary, _settings(tmp_path, [path]))
    english = [q for q in found.examples if q.startswith("What is ")]
    hindi = [q for q in found.examples if q.endswith(" क्या है?")]
    assert len(english) == len(hindi) == 3 and len(found.examples) == 6
    assert {q.removeprefix("What is ").removesuffix("?") for q in english} <= {e.term_en for e in glossary}
    assert {q.removesuffix(" क्या है?") for q in hindi} <= {e.term_hi for e in glossary}
    # each language asks about other entries, the first few show both languages
    assert {q[8:-1] for q in english}.isdisjoint(
        {e.term_en for e in glossary if f"{e.term_hi} क्या है?" in hindi}
    )
    assert found.examples[0] in english and found.examples[1] in hindi
    assert found.hints == {"en": tuple(english), "hi": tuple(hindi)}
    assert identity(glossary, _settings(tmp_path, [path])).examples == found.examples  # deterministic


def test_title_metadata_in_the_yaml_is_the_title(tmp_path):
    path = tmp_path / "payments.yaml"
    document = {
        "document": "payments.yaml",
        "title_hi": "Payments desk terms",
        "subtitle_hi": "The words our payments support desk uses.",
        "entries": _entries("payments.yaml"),
    }
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")
    found = identity(load_glossary([path]), _settings(tmp_path, [path]))
    assert found.title == {"en": "Payments desk terms", "hi": "Payments desk terms"}
    assert found.description["en"] == "The words our payments support desk uses."


def test_settings_title_and_description_win(plain, tmp_path, monkeypatch):
    glossary, path = plain
    monkeypatch.setenv("GLOSSARY_BOT_TITLE", "Helpdesk words")
    settings = _settings(tmp_path, [path], description="What our helpdesk says.")
    found = identity(glossary, settings)
    assert found.title == {"en": "Helpdesk words", "hi": "Helpdesk words"}
    assert found.description == {"en": "What our helpdesk says.", "hi": "What our helpdesk says."}


def test_title_and_description_are_cli_flags(tmp_path):
    missing = str(tmp_path / "missing.yaml")  # the command stops at the glossary, before any model
    flags = ["--title", "Helpdesk words", "--description", "What our helpdesk says."]
    result = CliRunner().invoke(cli.app, [*flags, "--glossary", missing, "search", "refund"])
    assert result.exit_code == 3
    assert cli._state["settings"].title == "Helpdesk words"
    assert cli._state["settings"].description == "What our helpdesk says."


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("support_terms.csv", "Support terms"),
        ("teams/payments-desk.v2.yaml", "Payments desk v2"),
        ("mlglossary-en/glossary.csv", "Mlglossary en"),
        ("glossary.yaml", "Glossary"),
    ],
)
def test_human_name(path, name):
    assert human_name(Path(path)) == name


@pytest.mark.parametrize("lang", ["en", "hi"])
def test_about_describes_the_loaded_glossary(plain, tmp_path, lang):
    glossary, path = plain
    text = browse.about(identity(glossary, _settings(tmp_path, [path])), lang)
    assert "Support terms" in text and "`support_terms.yaml`" in text
    assert f"**{len(TERMS)}**" in text and "English, हिंदी" in text
    assert "commissioned" not in text and "कमीशन" not in text and "AI/ML" not in text


def test_bundled_about_keeps_its_sources_and_licence(bundled, tmp_path):
    text = browse.about(identity(bundled, _settings(tmp_path)), "en")
    assert "two commissioned seed documents" in text and "### Licence" in text
    assert "**77**" in text and "`004_2d22f4c9d7805074.txt`" in text


# --- whose a text is -----------------------------------------------------------------------------


def test_bundled_texts_are_hindi_original_and_project_translation(bundled):
    dropout = bundled.get("dropout")
    assert "#### हिंदी (मूल पाठ) · Hindi original" in detail_card(dropout, "en")
    assert "#### English (project translation) · अंग्रेज़ी अनुवाद" in detail_card(dropout, "hi")


def test_a_teams_text_is_from_its_file(plain):
    glossary, _ = plain
    refund = glossary.get("refund")
    assert "#### हिंदी — from support\\_terms.yaml" in detail_card(refund, "en")
    assert "#### English — support\\_terms.yaml से" in detail_card(refund, "hi")
    assert "original" not in detail_card(refund, "en") and "translation" not in detail_card(refund, "hi")


def test_translated_by_the_project_only_where_the_entry_lists_it(tmp_path):
    path = tmp_path / "mixed.yaml"
    entries = _entries("mixed.yaml")
    entries[0]["written_by_project"] = ["definition_en"]
    path.write_text(yaml.safe_dump(entries, allow_unicode=True), encoding="utf-8")
    glossary = load_glossary([path])
    listed, unlisted = glossary.get("refund"), glossary.get("chargeback")
    assert "#### English — परियोजना द्वारा अनूदित" in detail_card(listed, "hi")
    assert "#### हिंदी — from mixed.yaml" in detail_card(listed, "en")  # its Hindi is its own
    assert "#### English — mixed.yaml से" in detail_card(unlisted, "hi")
    # a comparison heads the other language's texts with each voice once
    compared = compare([_hit(listed), _hit(unlisted)], 2, "hi", glossary)
    assert "#### English — परियोजना द्वारा अनूदित; English — mixed.yaml से" in (compared.details or "")


@pytest.mark.parametrize(
    ("which", "expected"),
    [
        ("bundled", "Details: usage, example, Hindi original"),
        ("plain", "Details: usage, example, the other language"),
    ],
)
def test_details_title_says_what_the_block_holds(request, which, expected):
    fixture = request.getfixturevalue(which)
    glossary = fixture if isinstance(fixture, Glossary) else fixture[0]
    entry = next(iter(glossary))
    answer = compose([_hit(entry)], "en", glossary, 1.0, reading_of(f"what is {entry.term}"))
    assert reply_messages(answer, glossary)[1]["metadata"]["title"] == expected


def _hit(entry: GlossaryEntry) -> Hit:
    return Hit(entry=entry, score=1.0, rank=1, similarity=1.0, lexical=1.0, name_match=1.0)


# --- replies that name the glossary ----------------------------------------------------------------


def test_bundled_replies_keep_their_texts(bundled, tmp_path):
    found = identity(bundled, _settings(tmp_path))
    assert found.say("small_talk_identity", "en").startswith("I am the AI Glossary Bot: I answer from")
    assert found.say("which_term", "hinglish") == found.say("which_term", "hi")
    assert "ड्रॉपआउट क्या है?" in found.say("empty_question", "hi")


@pytest.mark.parametrize(
    "reply", ["small_talk_greeting", "small_talk_identity", "which_term", "empty_question"]
)
def test_a_teams_replies_name_it_and_ask_about_its_own_terms(plain, tmp_path, reply):
    glossary, path = plain
    found = identity(glossary, _settings(tmp_path, [path]))
    english, hindi = found.say(reply, "en"), found.say(reply, "hi")
    assert found.hints["en"][0] in english and found.hints["hi"][0] in hindi
    assert "dropout" not in english and "AI" not in english and "ड्रॉपआउट" not in hindi
    if reply != "which_term":
        assert "Support terms glossary" in english and "Support terms शब्दावली" in hindi


def test_question_box_and_empty_chat_suggest_the_glossarys_examples(bundled, plain, tmp_path):
    old = SimpleNamespace(identity=identity(bundled, _settings(tmp_path)))
    assert Identity(old).question("en")["placeholder"] == (  # type: ignore[arg-type]
        "e.g. What is gradient clipping? · dropout kya hai? · batch vs epoch"
    )
    assert (
        "Try *What is gradient clipping?*, *dropout kya hai?* or *batch vs epoch*, then"
        in (
            Identity(old).chat("en")["placeholder"]  # type: ignore[arg-type]
        )
    )
    glossary, path = plain
    team = identity(glossary, _settings(tmp_path, [path]))
    shown = Identity(SimpleNamespace(identity=team))  # type: ignore[arg-type]
    assert shown.question("hi")["placeholder"] == "जैसे " + " · ".join(team.hints["hi"])
    assert all(f"*{q}*" in shown.chat("en")["placeholder"] for q in team.hints["en"])
