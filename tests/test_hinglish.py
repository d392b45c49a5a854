"""The Hinglish lexicon file and the glossing built on it."""

from __future__ import annotations

import pytest

from bot.understand.hinglish import FUNCTION_WORDS, LEXICON_PATH, MIN_FOLD_LEN, gloss, to_english
from bot.understand.text import STOP_WORDS, tokens
from glossary.yamlio import load_yaml

#: Common English words that look like romanized Hindi; as headwords they would mistranslate English.
ENGLISH_LOOKALIKES = (
    "to me par hi bas man sun hate mile pure niche din bad bar hat ban lag pad char teen rang mod"
)


@pytest.fixture(scope="module")
def raw() -> dict:
    """The lexicon as the project reads it (``load_yaml`` refuses a repeated headword)."""
    return load_yaml(LEXICON_PATH.read_text(encoding="utf-8"))


def test_headwords_and_glosses_are_plain_short_strings(raw):
    for headword, english in raw["words"].items():
        # YAML 1.1 reads on/off/true/false as booleans unless quoted.
        assert isinstance(headword, str) and isinstance(english, str), headword
        assert tokens(headword) == headword.split(), headword
        assert 1 <= len(english.split()) <= 2, headword
        assert " " in headword or len(headword) >= 3, headword


def test_no_headword_is_a_function_word_or_english_lookalike(raw):
    singles = {h for h in raw["words"] if " " not in h}
    assert not singles & STOP_WORDS
    assert not singles & FUNCTION_WORDS
    assert not singles & set(ENGLISH_LOOKALIKES.split())


def test_light_verb_forms_belong_to_one_verb(raw):
    forms = [form for verb_forms in raw["light_verbs"].values() for form in verb_forms.split()]
    assert len(forms) == len(set(forms))


def test_lexicon_is_large_enough(raw):
    assert len(raw["words"]) >= 300


@pytest.mark.parametrize("word", ["badhna", "badhta", "badhti", "badhte", "badhne", "badhega", "badhao"])
def test_verb_inflections_share_a_gloss(word):
    assert gloss([word]) == ["increase"]


def test_phrases_match_before_words():
    assert gloss(["band"]) == ["off"]
    assert gloss(["band", "kar", "dena"]) == ["turn off"]
    assert gloss(["baar"]) == ["times"]
    assert gloss(["loss", "baar", "baar", "badhta"]) == ["repeatedly", "increase"]
    assert gloss(["kam", "se", "kam"]) == ["minimum"]


@pytest.mark.parametrize("phrase", ["kam karna", "kam karte", "kam kiya", "kam karne", "kam kar"])
def test_phrase_ending_in_a_light_verb_matches_its_forms(phrase):
    assert gloss(phrase.split()) == ["reduce"]


def test_unlisted_spelling_variants_fold_onto_listed_ones():
    assert gloss(["jaaroori"]) == ["necessary"]  # listed: zaroori, zaruri, jaruri, jaroori
    assert gloss(["seekhaata"]) == ["teach"]
    short = "thiik"  # too short to fold safely
    assert len(short) < MIN_FOLD_LEN and gloss([short]) == []


def test_to_english_glosses_content_words_and_drops_function_words():
    assert to_english("training me random neurons band kar dena") == "training random neurons turn off"
    assert to_english("training ke time loss kyu badhta hai?") == "training time loss increase"
    assert to_english("Overfitting se kaise bachein") == "overfitting avoid"


def test_to_english_keeps_english_and_devanagari():
    assert to_english("What is gradient clipping") == "what is gradient clipping"
    assert to_english("ओवरफिटिंग को कैसे रोकें") == "ओवरफिटिंग को कैसे रोकें"
    assert to_english("dropout kya hai") == "dropout"
