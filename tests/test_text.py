import re

import pytest

from bot.text import content_tokens, detect_lang, strip_scaffolding, tokens


def test_devanagari_words_stay_whole_with_matras_and_viramas():
    assert re.findall(r"\w+", "प्रशिक्षण") != ["प्रशिक्षण"]  # the pitfall this tokeniser avoids
    assert tokens("प्रशिक्षण") == ["प्रशिक्षण"]
    assert tokens("ग्रेडिएंट संचयन, क्लिपिंग।") == ["ग्रेडिएंट", "संचयन", "क्लिपिंग"]
    precomposed = "\u095b\u094d\u092f\u093e\u0926\u093e"  # ज़्यादा with ZA (U+095B)
    decomposed = "\u091c\u093c\u094d\u092f\u093e\u0926\u093e"  # JA (U+091C) + NUKTA (U+093C)
    assert precomposed != decomposed
    assert tokens(precomposed) == tokens(decomposed) == [decomposed]  # they agree (NFC form)


def test_mixed_script_and_case():
    assert tokens("LoRA में low-rank matrices") == ["lora", "में", "low", "rank", "matrices"]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("dropout kya hai", ["dropout"]),
        ("gradient clipping ka matlab kya hota hai", ["gradient", "clipping"]),
        ("What is the meaning of overfitting?", ["overfitting"]),
        ("ओवरफिटिंग क्या है?", ["ओवरफिटिंग"]),
        ("batch size kaise choose kare", ["batch", "size", "choose"]),
    ],
)
def test_romanized_and_english_stop_words_are_dropped(question, expected):
    assert content_tokens(question) == expected


@pytest.mark.parametrize(
    ("question", "lang"),
    [
        ("What is gradient clipping?", "en"),
        ("dropout kya hai?", "hinglish"),
        ("ओवरफिटिंग क्या है?", "hi"),
        ("LoRA में low-rank matrices कहाँ inject की जाती हैं?", "mixed"),
        ("give me an example", "en"),
        ("", "en"),
    ],
)
def test_detect_lang(question, lang):
    assert detect_lang(question) == lang


@pytest.mark.parametrize(
    ("question", "stripped"),
    [
        ("What is gradient clipping?", "gradient clipping"),
        ("dropout kya hota hai", "dropout"),
        ("ओवरफिटिंग क्या है?", "ओवरफिटिंग"),
        ("meaning of epoch", "epoch"),
        ("What is?", "What is"),
    ],
)
def test_strip_scaffolding(question, stripped):
    assert strip_scaffolding(question) == stripped
