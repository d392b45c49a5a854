"""Courtesy around a question is no part of what it asks (``bot.understand.courtesy``)."""

from __future__ import annotations

import pytest

from bot.understand.courtesy import topic_of, without_courtesy
from bot.understand.query import understand

MAX_CHARS = 500


@pytest.mark.parametrize(
    ("message", "question"),
    [
        ("hi, what is dropout", "what is dropout"),
        ("hey what is dropout", "what is dropout"),  # a question word after the greeting
        ("hey how does dropout work", "how does dropout work"),
        ("namaste sir dropout kya hai", "dropout kya hai"),
        ("नमस्ते, ड्रॉपआउट क्या है जी", "ड्रॉपआउट क्या है"),
        ("bro dropout kya hai", "dropout kya hai"),
        ("dropout kya hai sir", "dropout kya hai"),
        ("ok, and epoch?", "and epoch?"),
        ("Q: what is dropout", "what is dropout"),
        ("hello bot, what is dropout", "what is dropout"),
        ("what is a batch please", "what is a batch"),
        ("what is dropout thanks in advance", "what is dropout"),
        ("what is dropout pls help", "what is dropout"),
        ("what is dropout (urgent)", "what is dropout"),
        ("what is dropout?? urgent", "what is dropout??"),
        ("what is dropout, thanks", "what is dropout"),
        ("dropout kya hai jaldi batao", "dropout kya hai"),
        ("ड्रॉपआउट क्या है? जल्दी बताओ", "ड्रॉपआउट क्या है?"),
        ("dropout kya hai bhai 🙏", "dropout kya hai"),
        ("dropout kya hai 🙏🏽", "dropout kya hai"),  # an emoji with its skin tone
        ("what is `dropout`", "what is `dropout`"),  # a backtick is no emoji
        ("sir, GPU memory kam hai, kya karu?", "GPU memory kam hai, kya karu?"),
        # names and messages that are only courtesy stay as they are
        ("hello world kya hai", "hello world kya hai"),  # an English greeting needs punctuation after it
        ("SIR model kya hai", "SIR model kya hai"),  # so does an English address
        ("Fiji kya hai", "Fiji kya hai"),
        ("hello", "hello"),
        ("thanks", "thanks"),
    ],
)
def test_courtesy_is_taken_off_both_ends(message, question):
    assert without_courtesy(message) == question


@pytest.mark.parametrize(
    "message", ["sir, what is RLHF? thanks", "dropout kya hai bhai 🙏", "hello world kya hai"]
)
def test_readers_of_raw_text_read_the_topic_the_answer_read(message):
    """The maintainers' report groups declined questions by this text's vector, as answering encoded it."""
    assert topic_of(message) == understand(message, MAX_CHARS).reading.topic


def test_the_reading_has_no_courtesy_but_small_talk_and_follow_ups_see_all():
    """ "sir" was a content word: the lexical branch matched it and the unknown-word evidence counted it."""
    query = understand("sir, what is dropout? thanks", MAX_CHARS)
    assert query.reading.words == ("dropout",) and query.text == "sir, what is dropout? thanks"
    assert understand("thanks bhai", MAX_CHARS).small_talk == "thanks"
    assert understand("in Hindi please", MAX_CHARS).follow_up == (None, "hi")


@pytest.mark.model
@pytest.mark.parametrize(
    ("bare", "wrapped"),
    [
        (
            "GPU memory kam hai par bada effective batch size chahiye, kya karu?",
            "sir, GPU memory kam hai par bada effective batch size chahiye, kya karu?",
        ),  # was answered with Batch size, not Gradient accumulation
        (
            "validation set aur test set me kya difference hai",
            "sir, validation set aur test set me kya difference hai",
        ),
        (
            "learning rate bahut high rakhne se loss explode kyu hota",
            "learning rate bahut high rakhne se loss explode kyu hota pls help",
        ),
        ("how do I bake bread", "hello bot, how do I bake bread 🙏"),
    ],
)
def test_a_question_in_courtesy_gets_the_bare_questions_answer(bot, bare, wrapped):
    plain, polite = bot.answer(bare), bot.answer(wrapped)
    assert (polite.kind, polite.entry_ids, polite.abstained) == (plain.kind, plain.entry_ids, plain.abstained)
