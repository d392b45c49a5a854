"""End-to-end checks of GlossaryBot with the real model and the real index."""

import pytest

pytestmark = pytest.mark.model


def test_gradient_clipping_first(bot):
    hits = bot.search("What is gradient clipping?", k=5)
    assert hits[0].entry.term == "Gradient clipping"
    assert [h.rank for h in hits] == [1, 2, 3, 4, 5]
    assert hits[0].score >= hits[1].score


def test_devanagari_transliteration_finds_overfitting(bot):
    assert bot.search("ओवरफिटिंग क्या है")[0].entry.term == "Overfitting"


def test_hinglish_question(bot):
    answer = bot.answer("dropout kya hai", history=[])
    assert not answer.abstained
    assert answer.citations[0].entry_id == "dropout"
    assert "004_2d22f4c9d7805074.txt" in answer.citations[0].source


@pytest.mark.parametrize("question", ["what's the weather like in Mumbai tomorrow", "how do I bake bread"])
def test_out_of_scope_is_declined_with_two_suggestions(bot, question):
    answer = bot.answer(question)
    assert answer.abstained and not answer.citations
    assert "does not cover" in answer.text
    suggestions = answer.text.split("Nearest terms it does cover:")[1]
    assert suggestions.count("**") == 4  # exactly two suggested terms, in bold
    assert answer.hits[0].entry.term_en in suggestions


def test_hindi_decline_is_in_hindi(bot):
    answer = bot.answer("क्रिकेट मैच का स्कोर क्या है?")
    assert answer.abstained
    assert "शब्दावली" in answer.text


def test_english_answer_puts_english_first(bot):
    text = bot.answer("What is gradient clipping?").full_text
    english = text.index("Limiting the magnitude")
    hindi = text.index("ऑप्टिमाइज़र अपडेट से पहले")
    assert english < hindi


def test_hindi_answer_puts_hindi_first(bot):
    text = bot.answer("ग्रेडिएंट क्लिपिंग क्या है?").full_text
    assert text.index("ऑप्टिमाइज़र अपडेट से पहले") < text.index("Limiting the magnitude")


@pytest.mark.parametrize(
    ("question", "first", "second"),
    [
        ("gradient clipping in hindi", "ऑप्टिमाइज़र अपडेट से पहले", "Limiting the magnitude"),
        ("gradient clipping hindi me samjhao", "ऑप्टिमाइज़र अपडेट से पहले", "Limiting the magnitude"),
        ("ग्रेडिएंट क्लिपिंग अंग्रेज़ी में समझाइए", "Limiting the magnitude", "ऑप्टिमाइज़र अपडेट से पहले"),
    ],
)
def test_a_question_that_names_its_answers_language_is_answered_in_it(bot, question, first, second):
    """ "in Hindi" after a term is no part of the term: the card is the name's, shown exact, in Hindi."""
    reply = bot.answer(question)
    assert reply.entry_ids[0] == "gradient-clipping" and reply.label == "exact"
    assert reply.full_text.index(first) < reply.full_text.index(second)


def test_comparison_returns_both_entries_on_top(bot):
    found = bot.retrieve("batch vs epoch", 5)
    assert found.comparison
    assert {h.entry.id for h in found.hits[:2]} == {"batch", "epoch"}


def test_question_without_words_gets_a_message(bot):
    answer = bot.answer("?!? ...")
    assert answer.abstained and answer.notice


def test_long_question_is_truncated_and_says_so(bot):
    answer = bot.answer("what is dropout " * 1000)
    assert answer.notice and "characters" in answer.notice
    assert answer.citations and answer.citations[0].entry_id == "dropout"


def test_public_import_path():
    from bot import GlossaryBot
    from bot.core import GlossaryBot as Core

    assert GlossaryBot is Core
