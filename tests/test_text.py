import re

import pytest

from bot.understand.text import (
    answer_language,
    content_tokens,
    detect_lang,
    lang_undecided,
    strip_scaffolding,
    tokens,
)


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


# (function, question, what it returns): romanized and English stop words are dropped, the
# language is told, the question's scaffolding is stripped.
QUESTION_CASES = [
    (content_tokens, "dropout kya hai", ["dropout"]),
    (content_tokens, "gradient clipping ka matlab kya hota hai", ["gradient", "clipping"]),
    (content_tokens, "What is the meaning of overfitting?", ["overfitting"]),
    (content_tokens, "ओवरफिटिंग क्या है?", ["ओवरफिटिंग"]),
    (content_tokens, "batch size kaise choose kare", ["batch", "size", "choose"]),
    (detect_lang, "What is gradient clipping?", "en"),
    (detect_lang, "dropout kya hai?", "hinglish"),
    (detect_lang, "ओवरफिटिंग क्या है?", "hi"),
    (detect_lang, "LoRA में low-rank matrices कहाँ inject की जाती हैं?", "mixed"),
    (detect_lang, "give me an example", "en"),
    (detect_lang, "", "en"),
    (strip_scaffolding, "What is gradient clipping?", "gradient clipping"),
    (strip_scaffolding, "dropout kya hota hai", "dropout"),
    (strip_scaffolding, "ओवरफिटिंग क्या है?", "ओवरफिटिंग"),
    (strip_scaffolding, "meaning of epoch", "epoch"),
    (strip_scaffolding, "What is?", "What is"),
    (strip_scaffolding, "dropout ke baare mein hindi me batao", "dropout"),  # frames one after another
    (strip_scaffolding, "what is dropout in English?", "dropout"),
    (strip_scaffolding, "in hindi", "in hindi"),  # nothing but the request: a follow-up's
    (strip_scaffolding, "what is the meaning of life", "meaning of life"),  # one opening frame only
    # requests around the question
    (strip_scaffolding, "can you tell me about dropout", "dropout"),
    (strip_scaffolding, "could you please tell me what dropout is", "dropout"),
    (strip_scaffolding, "do you know what dropout is?", "dropout"),
    (strip_scaffolding, "what dropout is", "what dropout is"),  # no request: no embedded question
    (strip_scaffolding, "can you explain dropout to me in simple words", "dropout"),
    (strip_scaffolding, "i have a doubt about dropout", "dropout"),
    (strip_scaffolding, "mujhe dropout samajh nahi aaya", "dropout"),
    (strip_scaffolding, "मुझे ड्रॉपआउट के बारे में जानना है", "ड्रॉपआउट"),
    (strip_scaffolding, "मुझे अच्छी नींद कैसे आएगी", "मुझे अच्छी नींद कैसे आएगी"),  # no request of its own
    (strip_scaffolding, "ड्रॉपआउट सरल शब्दों में समझाइए", "ड्रॉपआउट"),
    (answer_language, "dropout in Hindi", "hi"),
    (answer_language, "overfitting english me samjhao", "en"),
    (answer_language, "ओवरफिटिंग अंग्रेज़ी में समझाइए", "en"),
    (answer_language, "what is a hindi tokenizer", None),  # a topic's word, no request
    (answer_language, "epoch ka hindi word kya hai", "hi"),  # what the term is called in Hindi
    (answer_language, "epoch ko hindi me kya kehte hai", "hi"),
    (answer_language, "युग का अंग्रेज़ी शब्द", "en"),
    (strip_scaffolding, "epoch ko hindi me kya kehte hai", "epoch"),
    (answer_language, "dropout kya hai", None),
    (lang_undecided, "dropout", True),  # a bare name: the interface language decides
    (lang_undecided, "learning rate?", True),
    (lang_undecided, "what is dropout", False),
    (lang_undecided, "dropout kya hai", False),
    (lang_undecided, "ड्रॉपआउट", False),
    (lang_undecided, "", False),
]


@pytest.mark.parametrize(
    ("function", "question", "expected"),
    QUESTION_CASES,
    ids=lambda v: v.__name__ if callable(v) else None,
)
def test_question_helpers(function, question, expected):
    assert function(question) == expected
