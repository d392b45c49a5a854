"""How an answer names its match: "Exact match" only when the asked topic (scaffolding stripped) is
the first entry's name or alias, "did you mean <name>" for a misspelt name, else how sure the
ranking is. The quoted questions are the ones that misled before (real model and index)."""

from __future__ import annotations

import pytest

from bot.search.names import misspelt_name, names_entry
from bot.understand.text import asked_topic
from glossary import load_glossary


@pytest.fixture(scope="module")
def glossary():
    return load_glossary()


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("vram kya hota h", "vram"),
        ("overfitting kya hai bhai", "overfitting"),
        ("learning rate batao na", "learning rate"),
        ("ओवरफिटिंग क्या है भाई?", "ओवरफिटिंग"),
        ("what is attention in neural networks", "attention in neural networks"),
        ("What is?", "What is"),
    ],
)
def test_the_asked_topic_drops_the_scaffolding_a_question_ends_with(question, topic):
    assert asked_topic(question) == topic


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [("vram kya hota h", "vram"), ("what is Flash Attention", "flash-attention"), ("एपॉक क्या है", "epoch")],
)
def test_a_name_or_its_bracketed_part_names_the_entry(glossary, question, entry_id):
    assert names_entry(question, glossary.without_project_extras().get(entry_id))


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [("GPU out of memory", "ai-accelerator"), ("what is attention", "flash-attention"), ("dropout", "lora")],
)
def test_other_words_do_not_name_the_entry(glossary, question, entry_id):
    entry = glossary.get(entry_id)
    assert not names_entry(question, entry) and misspelt_name(question, entry) is None


def test_a_misspelt_name_is_the_name_it_meant(glossary):
    assert misspelt_name("whats overfiting", glossary.get("overfitting")) == "Overfitting"
    assert not names_entry("whats overfiting", glossary.get("overfitting"))


@pytest.mark.model
@pytest.mark.parametrize(
    "question",
    ["GPU out of memory", "gpu ki memory khatam ho gayi", "what is attention in neural networks"],
)
def test_no_exact_match_label_for_an_entry_the_question_does_not_name(bot, question):
    reply = bot.answer(question)
    assert reply.label != "exact"
    assert "Exact match" not in reply.text and "सटीक मेल" not in reply.text


@pytest.mark.model
def test_a_hinglish_question_with_scaffolding_at_its_end_gets_the_card_it_names(bot):
    reply = bot.answer("vram kya hota h")
    assert reply.kind == "answer" and reply.entry_ids[0] == "vram" and reply.label == "exact"
    assert "vram kya hota h" not in reply.text
    assert bot.answer("overfitting kya hai bhai").label == "exact"


@pytest.mark.model
def test_a_misspelt_name_says_did_you_mean(bot):
    reply = bot.answer("whats overfiting")
    assert reply.entry_ids[0] == "overfitting" and reply.label == "did_you_mean"
    assert "Did you mean Overfitting?" in reply.text


def test_a_name_asked_with_more_words_is_not_a_misspelling(glossary):
    """ "ग्रेडिएंट क्लिपिंग कब उपयोग करें" holds the Hindi name whole: no "did you mean"."""
    entry = glossary.get("gradient-clipping")
    assert misspelt_name("ग्रेडिएंट क्लिपिंग कब उपयोग करें", entry) is None
    assert misspelt_name("gradient cliping", entry) == "Gradient clipping"
