"""A name asked in the other script than the glossary writes it, matched by its consonants as
sounded: "रिफंड" is Refund, "weight decay" is "वेट डिके", though their letters differ too much for a typo."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.search.skeleton import MIN_SKELETON, skeleton
from bot.settings import Settings


def sound_alike(one: str, other: str) -> bool:
    """As ``bot.search.names`` compares a name across scripts."""
    return len(skeleton(one)) >= MIN_SKELETON and skeleton(one) == skeleton(other)


@pytest.mark.parametrize(
    ("romanized", "name"),
    [
        ("rifand", "refund"),  # रिफंड
        ("vet dike", "weight decay"),  # वेट डिके
        ("paswerd", "password"),  # पासवर्ड
        ("eskelation", "escalation"),  # एस्केलेशन
        ("setalment", "settlement"),  # सेटलमेंट
        ("sabsacription", "subscription"),  # सब्सक्रिप्शन
    ],
)
def test_a_devanagari_spelling_sounds_like_its_english_name(romanized, name):
    assert sound_alike(romanized, name)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("modal", "model"),  # "mdl": too few consonants to tell model, modal and middle apart
        ("tikat", "ticket"),
        ("rifand", "rewind"),
        ("batch", "bitch"),
    ],
)
def test_short_or_different_skeletons_do_not(one, other):
    assert not sound_alike(one, other)


def test_the_skeleton_reads_english_spellings_as_sounds():
    assert skeleton("chargeback") == "Crgbk" and skeleton("physics") == "fsks" and skeleton("weight") == "vt"


@pytest.mark.model
def test_a_name_spelt_in_the_other_script_is_answered(tmp_path: Path, settings: Settings):
    """Before, "रिफंड क्या होता है" on an English-only file offered Refund and Partial refund without
    an answer, and "what is a refund" on a Hindi-only one did as much."""
    from bot.core import GlossaryBot

    english = tmp_path / "en.csv"
    english.write_text(
        "term,definition\n"
        "Refund,Money paid back to a customer for a returned or cancelled purchase.\n"
        "Partial refund,A refund of only part of the amount the customer paid.\n"
        "Password reset,Setting a new password through a link sent to the registered email.\n"
        "Escalation,Passing a ticket to a more senior team when the first line cannot solve it.\n",
        "utf-8",
    )
    hindi = tmp_path / "hi.csv"
    hindi.write_text(
        "शब्द,परिभाषा\n"
        "रिफंड,खरीद लौटाने या रद्द करने पर ग्राहक को लौटाया गया पैसा।\n"
        "आंशिक रिफंड,ग्राहक के चुकाए पैसे के केवल एक हिस्से की वापसी।\n"
        "पासवर्ड रीसेट,पंजीकृत ईमेल पर भेजे गए लिंक से नया पासवर्ड बनाना।\n"
        "एस्केलेशन,पहली टीम के हल न कर पाने पर टिकट को वरिष्ठ टीम को सौंपना।\n",
        "utf-8",
    )
    for path, questions, ids in (
        (
            english,
            ["रिफंड क्या होता है", "पासवर्ड रीसेट क्या है", "एस्केलेशन"],
            ["refund", "password-reset", "escalation"],
        ),
        (hindi, ["what is a refund", "password reset kya hai", "escalation"], None),
    ):
        bot = GlossaryBot.load(settings.model_copy(update={"glossary_paths": [path]}))
        for n, question in enumerate(questions):
            reply = bot.answer(question)
            want = ids[n] if ids else bot.glossary.entries[[0, 2, 3][n]].id
            assert reply.kind == "answer" and reply.entry_ids[:1] == [want], (
                question,
                reply.kind,
                reply.entry_ids,
            )
