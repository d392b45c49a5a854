"""Lexical branch on the bundled glossary (no model needed)."""

import numpy as np
import pytest

from bot.search.lexical import LexicalIndex, romanized
from bot.understand.text import tokens
from glossary import load_glossary


@pytest.fixture(scope="module")
def lexical() -> LexicalIndex:
    return LexicalIndex(list(load_glossary().entries))


def _top(lexical: LexicalIndex, scores: np.ndarray) -> str:
    return lexical.entries[int(np.argmax(scores))].id


@pytest.mark.parametrize(
    ("typo", "fixed"),
    [("gradiant", "gradient"), ("cliping", "clipping"), ("overfiting", "overfitting"), ("bacth", "batch")],
)
def test_misspellings_are_corrected_to_name_words(lexical, typo, fixed):
    assert lexical.correct([typo]) == [fixed]


def test_known_and_short_words_are_left_alone(lexical):
    assert lexical.correct(["loss", "data", "xyz"]) == ["loss", "data", "xyz"]


def test_acronyms_expand_to_one_entry(lexical):
    assert lexical.expand_acronyms(["sgd"]) == ["Stochastic gradient descent (SGD)"]
    assert lexical.expand_acronyms(["peft", "unknown"]) == ["Parameter-efficient fine-tuning (PEFT)"]
    assert "ml" not in lexical.acronyms  # inside a longer name ("ML model training"), not an expansion


def test_name_match_prefers_the_longer_full_name(lexical):
    share, cover = lexical.name_match(["batch", "size"])
    assert _top(lexical, share) == "batch-size"
    assert _top(lexical, cover) == "batch-size"
    batch = [e.id for e in lexical.entries].index("batch")
    assert share[batch] >= 0.99  # still a full match, but a smaller part of the question
    assert 0 < cover[batch] < 1


def test_hindi_text_has_a_romanized_view(lexical):
    assert romanized(["बदलाव", "loss"]) == ["badlav"]  # as a Hinglish asker types it
    hindi = next(t for t in tokens(lexical.entries[0].definition_hi) if len(t) > 3)
    assert lexical.unknown_share(romanized([hindi])) == 0.0


def test_bm25_finds_devanagari_alias(lexical):
    assert _top(lexical, lexical.bm25(["ओवरफिटिंग"])) == "overfitting"


def test_unknown_share(lexical):
    assert lexical.unknown_share(["docker", "kubernetes", "gradient"]) == pytest.approx(2 / 3)
    assert lexical.unknown_share(["42"]) == 0.0


def test_words_in_a_script_the_glossary_never_writes_are_no_evidence_unless_they_sound_like_its_own():
    """An English-only glossary cannot know Hindi words: not knowing one is no evidence. One that
    sounds like its English ("ओवरफिटिंग", "overfitting") is a word it has; a question whose every word
    is in the other script and none sounds like the glossary's ("दाल मखनी") is wholly unknown."""
    from glossary.views import glossary_view

    english = LexicalIndex(list(glossary_view(load_glossary().without_project_extras(), "en").entries))
    assert english.scripts == {"latin"}
    assert english.unknown_share(["ओवरफिटिंग", "overfitting"]) == 0.0
    assert english.unknown_share(["ओवरफिटिंग"]) == 0.0
    assert english.unknown_share(["ओवरफिटिंग", "biryani"]) == 0.5, "the Hindi word is known by sound"
    assert english.unknown_share(["मखनी", "biryani"]) == 1.0, "the Hindi word is left out"
    assert english.unknown_share(["दाल", "मखनी"]) == 1.0, "nothing connects to the glossary"
    assert english.unknown_share(["ओवरफिटिंग", "overfitting"], own_scripts=False) == 0.5, "the ablation's row"
    bilingual = LexicalIndex(list(load_glossary().without_project_extras().entries))
    assert bilingual.unknown_share(["बिरयानी", "overfitting"]) == 0.5


def test_an_english_word_asked_of_a_hindi_only_glossary_is_known_when_it_sounds_like_its_hindi():
    """A Hindi glossary writes English terms in Devanagari ("ट्रेनिंग", romanized "trening"): "training"
    asked of it is a word it has, "cricket" is not (short words can meet one by chance: "rice" and
    "earth" do; skeletons of fewer than three consonants are never matched). A glossary with
    English text of its own is asked for the English word itself."""
    from glossary.views import glossary_view

    bare = load_glossary().without_project_extras()
    hindi = LexicalIndex(list(glossary_view(bare, "hi").entries))
    assert hindi.scripts == {"devanagari"}, "its acronyms (GPU, MoE) do not make English its language"
    assert hindi.unknown_share(["training", "cricket"]) == 0.0, "cricket is no evidence, training known"
    assert hindi.unknown_share(["cricket", "guitar"]) == 1.0, "nothing connects to the glossary"
    bilingual = LexicalIndex(list(bare.entries))
    assert hindi.unknown_share(["treyning"]) == 0.0 and bilingual.unknown_share(["treyning"]) == 1.0


def test_the_share_of_words_asked_in_a_script_the_glossary_does_not_write():
    """What the decisions read to tell a question asked across languages from an off-topic one:
    known or not, a word counts by its script; numbers and codes are left out, as above."""
    from glossary.views import glossary_view

    bare = load_glossary().without_project_extras()
    hindi = LexicalIndex(list(glossary_view(bare, "hi").entries))
    english = LexicalIndex(list(glossary_view(bare, "en").entries))
    bilingual = LexicalIndex(list(bare.entries))
    asked = ["overfitting", "क्या", "है", "7b"]
    assert hindi.foreign_share(asked) == pytest.approx(1 / 3)
    assert english.foreign_share(asked) == pytest.approx(2 / 3)
    assert bilingual.foreign_share(asked) == 0.0
    assert hindi.foreign_share(["42"]) == 0.0 and hindi.foreign_share([]) == 0.0
