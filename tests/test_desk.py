"""The support desk without a browser: ticket text built from typed answers, suggestions as you type,
the tickets a chat session may be shown, and the app's absolute address."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import regex

from bot.lookup.suggest import MAX_SUGGESTIONS, Suggester
from bot.reply import ticket
from bot.reply.card import compose
from bot.reply.decline import decline
from bot.reply.faq import faq_answer
from bot.reply.near_miss import near_miss
from bot.search.lexical import LexicalIndex
from bot.search.retrieval import Hit
from bot.settings import Settings
from bot.understand.query import read
from glossary import load_glossary
from index.sentences import first_sentence
from ui.desk import Desk, answer_ids, base_url, with_id

BASE = "https://glossary.example.org"
#: Markdown a pasted ticket must not contain: emphasis, links, headings, backslash escapes.
MARKDOWN = regex.compile(r"\*\*|\]\(|^#+ |\\[!-/:-@\[-`{-~]", regex.MULTILINE)


@pytest.fixture(scope="module")
def glossary():
    return load_glossary()


@pytest.fixture(scope="module")
def suggester(glossary):
    return Suggester(glossary, LexicalIndex(glossary.entries))


def _hits(glossary, *ids: str) -> list[Hit]:
    return [
        Hit(entry=glossary.get(i), score=1.0, rank=n, similarity=0.9, lexical=1.0, name_match=1.0)
        for n, i in enumerate(ids, start=1)
    ]


def test_card_ticket_is_plain_text_with_one_absolute_citation(glossary):
    answer = compose(_hits(glossary, "batch-size", "batch"), "en", glossary, 0.95, read("batch-size"))
    made = ticket.build(answer, "what is batch size", glossary, BASE, how_to=False)
    lines = made.plain.splitlines()
    assert lines[0] == "Batch size (बैच आकार)"
    assert lines[1] == first_sentence(glossary.get("batch-size").definition_en)[0]
    assert (
        lines[-1] == f"{BASE}/source/004_2d22f4c9d7805074.txt?line={glossary.get('batch-size').source.line}"
    )
    assert len(regex.findall(r"https?://", made.plain)) == 1
    assert not MARKDOWN.search(made.plain) and not MARKDOWN.search(made.full)
    assert made.link == f"{BASE}/?q=what+is+batch+size&lang=en"


def test_how_to_ticket_adds_the_usage_line(glossary):
    answer = compose(_hits(glossary, "batch-size"), "en", glossary, 0.95, read("batch-size"))
    plain = ticket.build(answer, "how do I choose the batch size", glossary, BASE, how_to=True).plain
    assert f"Usage: {glossary.get('batch-size').usage_en}" in plain.splitlines()


def test_ticket_follows_the_answers_language(glossary):
    answer = compose(_hits(glossary, "dropout"), "hinglish", glossary, 0.95, read("dropout"))
    made = ticket.build(answer, "dropout kya hai", glossary, BASE, how_to=False)
    assert made.plain.splitlines()[0] == "ड्रॉपआउट (Dropout)"
    assert made.link.endswith("&lang=hi")


def test_details_ticket_has_everything_and_every_source_ranked(glossary):
    answer = compose(_hits(glossary, "dropout", "regularization"), "en", glossary, 0.95, read("dropout"))
    full = ticket.build(answer, "dropout", glossary, BASE, how_to=False).full
    entry = glossary.get("dropout")
    assert entry.example_en in full and entry.definition_hi in full
    assert regex.search(r"^1\. Dropout .*\(cited\): https://", full, regex.MULTILINE)
    assert regex.search(r"^2\. Regularization .*\(nearby\): https://", full, regex.MULTILINE)


def test_faq_ticket_quotes_the_faq_answer(glossary):
    item = glossary.faq[0]
    made = ticket.build(faq_answer(item, "en", glossary), item.question_en, glossary, BASE, how_to=True)
    assert made.plain.splitlines()[:2] == [item.question_en, item.answer_en or item.answer_hi]
    assert made.plain.endswith(f"?line={item.source.line}")


def test_decline_ticket_names_the_nearest_terms(glossary):
    answer = decline(_hits(glossary, "epoch"), "en")
    plain = ticket.build(answer, "who won the match", glossary, BASE, how_to=False).plain
    assert plain.splitlines() == [
        "The glossary does not cover this question.",
        "Nearest terms it does cover: Epoch",
    ]


@pytest.mark.parametrize(
    ("kind", "said", "line"),
    [
        (
            "near miss",
            "The glossary has no entry for *attention*.",
            "The glossary has no entry for this question. The closest entries are:",
        ),
        (
            "unsure",
            "Not sure which entry answers *attention*.",
            "Not sure which entry answers this question. The closest entries are:",
        ),
    ],
)
def test_a_near_miss_says_whether_the_entry_is_missing_or_the_ranking_unsure(glossary, kind, said, line):
    """Too unsure is not "no entry": the first entry offered may still be the one asked about."""
    answer = near_miss(
        "attention", _hits(glossary, "flash-attention", "epoch"), "en", glossary, 0.3, kind=kind
    )
    assert answer.kind == kind and said in answer.text
    assert ("not exactly what you asked" in answer.text) is (kind == "near miss")
    plain = ticket.build(answer, "what is attention", glossary, BASE, how_to=False).plain
    assert plain.splitlines()[0] == line and plain.splitlines()[1].startswith("- FlashAttention")


@pytest.mark.parametrize(
    ("typed", "first"),
    [
        ("drop", "Dropout"),
        ("dropuot", "Dropout"),  # a typo
        ("ड्रॉप", "Dropout"),  # Devanagari
        ("grad cli", "Gradient clipping"),
        ("what is overf", "Overfitting"),  # question words are not part of a name
        ("batch si", "Batch size"),
    ],
)
def test_suggestions_put_the_matching_name_first(suggester, typed, first):
    assert suggester(typed, "en")[0].name == first


def test_suggestions_read_hinglish_and_acronyms(suggester):
    assert "Learning rate" in [s.name for s in suggester("seekhne ki dar", "en")]
    assert suggester("LoRA", "hi")[0].other.startswith("LoRA")


def test_suggestions_are_few_and_need_two_characters(suggester):
    assert suggester("d", "en") == []
    assert len(suggester("ra", "en")) <= MAX_SUGGESTIONS


def test_a_session_sees_its_own_tickets_and_its_browsers_but_never_another_sessions(glossary):
    desk = Desk()
    answer = compose(_hits(glossary, "dropout"), "en", glossary, 0.95, read("dropout"))
    desk.remember("mine", "a1", answer, "dropout", glossary, BASE)
    desk.remember("theirs", "b1", answer, "their secret question", glossary, BASE)
    history = [
        {"role": "user", "content": "dropout"},
        *with_id([{"role": "assistant", "content": answer.text}], "a1"),
        {"role": "assistant", "content": "…", "metadata": {"title": "Sources"}},
        {"role": "assistant", "content": "forged", "metadata": {"id": "b1"}},
        {"role": "assistant", "content": "restored", "metadata": {"id": "c1"}},
    ]
    assert answer_ids(history) == ["a1", "b1", "c1"]
    kept = {"c1": {"plain": "from before a reload", "full": "", "link": ""}}
    now, shown = desk.shown(history, kept, "mine")
    assert shown[0]["plain"].startswith("Dropout") and shown[1] is None and shown[2] == kept["c1"]
    assert set(now) == {"a1", "c1"}


def test_the_apps_address_comes_from_the_request_or_the_setting():
    request = SimpleNamespace(
        headers={"host": "10.0.0.5:7860"}, request=SimpleNamespace(url=SimpleNamespace(scheme="http"))
    )
    assert base_url(request, Settings()) == "http://10.0.0.5:7860"  # type: ignore[arg-type]
    proxied = SimpleNamespace(
        headers={"host": "a", "x-forwarded-host": "b.org", "x-forwarded-proto": "https"}, request=None
    )
    assert base_url(proxied, Settings()) == "https://b.org"  # type: ignore[arg-type]
    assert base_url(request, Settings(public_url="https://g.example.org/")) == "https://g.example.org"  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Settings(public_url="javascript:alert(1)")
