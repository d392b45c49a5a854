"""Intent decisions: when an FAQ answers a how-to question, when a bare term is only part of a longer
name, and when a problem question is answered with the entries whose text addresses it."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bot.search.calibration import SURE
from bot.search.faq import FAQ_MATCH, FaqIndex
from bot.search.names import named_entry
from bot.search.other_term import (
    defines_other_term,
    names_another,
    names_other_term,
    only_part_of_name,
    prefixes_name,
)
from bot.understand.cues import is_how_to
from glossary import GlossaryEntry

from .conftest import DEV_SET
from .factories import user_entry

#: Rewordings of the bundled FAQ questions (the issue's own how-to examples among them), each of which
#: must reach its FAQ answer.
FAQ_REWORDINGS = [
    "is a GPU required for training?",
    "do I need a GPU to train a model?",
    "GPU zaroori hai kya training ke liye?",
    "training loss keeps going down but validation loss is rising, why?",
    "validation loss badh raha hai par training loss kam ho raha hai, kyu?",
    "how many steps are in one epoch?",
    "can I train on public data without permission?",
    "how is validation data different from test data?",
]


def _best_faq_cosine(bot, question: str) -> float:
    faq = FaqIndex.build(bot.glossary, bot.encoder)
    return float(np.max(faq.vectors @ bot.encoder.encode_queries([question])[0]))


@pytest.mark.model
@pytest.mark.skipif(not DEV_SET.exists(), reason="../shared/eval/dev.jsonl is not present")
def test_faq_match_separates_faq_questions_from_term_questions(bot) -> None:
    """FAQ_MATCH lies between every rewording of an FAQ question and every in-scope how-to question
    of the dev set (those ask about an entry: answering them with an FAQ would be wrong)."""
    rows = [json.loads(line) for line in DEV_SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    term_questions = [r["query"] for r in rows if r["expected"] and is_how_to(r["query"])]
    assert term_questions
    positives = {q: _best_faq_cosine(bot, q) for q in FAQ_REWORDINGS}
    negatives = {q: _best_faq_cosine(bot, q) for q in term_questions}
    assert min(positives.values()) >= FAQ_MATCH, positives
    assert max(negatives.values()) < FAQ_MATCH, max(negatives.items(), key=lambda kv: kv[1])


def _entry(entry_id: str, term: str, *aliases: str) -> GlossaryEntry:
    return GlossaryEntry.model_validate(user_entry(entry_id, term=term, term_en=term, aliases=list(aliases)))


@pytest.mark.parametrize(
    ("question", "term", "aliases", "expected"),
    [
        ("what is attention", "FlashAttention", ("flash attention",), True),
        ("what is atention?", "FlashAttention", (), True),
        ("what is flash attention", "FlashAttention", ("flash attention",), False),
        ("what is flashattension", "FlashAttention", (), False),
        ("what is dropouts", "Dropout", (), False),
        ("what is a batch", "Batch size", (), True),
        ("how does attention speed up long sequences on a GPU", "FlashAttention", (), False),
        ("नोड किसे कहते हैं?", "Nodes", (), False),  # romanized "nod": the singular of a name word
        # a name whole with only stop words beside it, though "over" and "example" are stop words too
        ("over-fitting meaning", "Overfitting", ("over-fitting",), False),
        ("training example meaning", "Training sample or example", ("training example",), False),
        ("fitting meaning", "Overfitting", ("over-fitting",), True),
        ("what is trianing sample or example", "Training sample or example", (), False),  # a typo
        # the term asked without the context a definition question sets it in
        ("what is attention in neural networks", "FlashAttention", (), True),
        ("what is flash attention in neural networks", "FlashAttention", ("flash attention",), False),
        ("what is over-fitting in deep learning", "Overfitting", ("over-fitting",), False),
        ("what is the best attention", "FlashAttention", (), True),
        ("what is fitting in deep learning models", "Overfitting", ("over-fitting",), True),
    ],
)
def test_only_part_of_name(question: str, term: str, aliases: tuple[str, ...], expected: bool) -> None:
    assert only_part_of_name(question, _entry("x", term, *aliases)) is expected


@pytest.mark.parametrize(
    ("question", "term", "expected"),
    [
        ("कुबेरनेट्स क्या है?", "Kubernetes", False),  # the name in Devanagari
        ("what is supervised learning", "सुपरवाइज़्ड लर्निंग", False),  # a Devanagari name in Latin letters
        ("what is a load balancer", "Kubernetes", True),
        ("what is batch normalization", "Batch", True),
        ("what is batch normalization in deep learning", "Batch", True),
        ("what is a batch in deep learning", "Batch", False),
        # a word asking which is best of a term asks about it, not for another term
        ("what is the best optimizer", "Optimizer", False),
        ("सबसे अच्छा optimizer क्या है", "Optimizer", False),
        ("what is the best normalization", "Batch", True),
        # counted with its qualifier, a longer question is no bare term: the confidence decides
        ("what is a good optimizer for transformers", "ZeRO", False),
        # a word typed as two is the name's word
        ("what is check point", "Checkpoint", False),
        ("what is a blue check", "Checkpoint", True),
    ],
)
def test_a_bare_term_names_another_term_only_when_no_spelling_of_its_words_is_in_the_name(
    question: str, term: str, expected: bool
) -> None:
    assert names_other_term(question, _entry("x", term)) is expected


@pytest.mark.parametrize(
    ("question", "term", "expected"),
    [
        ("what is blue green deployment", "Canary Deployment", True),
        ("blue green deployment kya hota hai", "Canary Deployment", True),
        ("what is Zero Trust Architecture", "Zero Redundancy Optimizer (ZeRO)", True),
        ("what is large batch size", "Batch size", False),  # one word more than the name: a kind of it
        ("what is a training check point", "Training checkpoint", False),  # a word typed as two
        ("why do we use learning rate warmup", "Warmup", False),  # no definition question
        ("what is blue deployment", "Canary Deployment", False),  # a bare term: names_other_term's
        # a stop word joins the words: more than a term is asked
        ("what is VRAM and why does it limit training", "Video memory (VRAM)", False),
        ("microservices architecture के फायदे क्या हैं?", "Microservices", False),
        ("what is the best warmup schedule", "Warmup", False),  # which is best: the confidence decides
    ],
)
def test_a_definition_questions_three_word_term_with_two_words_not_the_name_is_another_term(
    question: str, term: str, expected: bool
) -> None:
    assert defines_other_term(question, _entry("x", term)) is expected


@pytest.mark.parametrize(
    ("question", "names", "expected"),
    [
        # a prefix hyphened to a name's word makes another word of it
        ("what is semi-supervised learning", ("Supervised learning",), True),
        ("अर्ध-पर्यवेक्षित अधिगम क्या है?", ("पर्यवेक्षित अधिगम",), True),
        ("what is self-supervised learning", ("Self-supervised learning",), False),
        ("what is mixed-precision training", ("Mixed-precision training",), False),
        ("what is non-linear layer", ("Linear layer",), True),
        ("what is large batch size", ("Batch size",), False),  # one word more, not hyphened: a kind of it
        # each name is read alone: a term's words are not pieced together from several names
        (
            "what is multi-task learning",
            ("Distributed training", "multi-GPU training", "distributed learning"),
            True,
        ),
        (
            "what is multi-gpu training",
            ("Distributed training", "multi-GPU training", "distributed learning"),
            False,
        ),
    ],
)
def test_a_term_is_read_against_one_name_at_a_time_and_a_hyphened_prefix_makes_another_word(
    question: str, names: tuple[str, ...], expected: bool
) -> None:
    assert defines_other_term(question, _entry("x", *names)) is expected


@pytest.mark.parametrize(
    ("side", "term", "expected"),
    [
        ("batch normalization", "Batch", True),
        ("Agile Software Development", "Validation dataset (development set)", True),
        ("Zero Trust Architecture", "Zero Redundancy Optimizer (ZeRO)", True),
        ("distributed data parallel training", "Distributed training", False),  # two words of four
        ("weight decay", "Weight decay", False),
        ("dropuot", "Dropout", False),  # a typo
        ("batch sizes", "Batch size", False),  # a plural
        # courtesy that opened the question with no comma after it stays in the first side
        ("sir dropout", "Dropout", False),
        ("कृपया batch", "Batch", False),
    ],
)
def test_a_side_names_another_term_when_its_words_are_not_the_names(
    side: str, term: str, expected: bool
) -> None:
    """Whatever its length, a comparison's side is said as a name (``bot.search.evidence.named_by``)."""
    assert names_another(side, _entry("x", term)) is expected


def _hindi_only_entry(entry_id: str, term: str) -> GlossaryEntry:
    """An entry of a Hindi-only file: its names are in Devanagari alone."""
    data = user_entry(entry_id, term=term, term_en=None, term_hi=term, definition_en=None)
    return GlossaryEntry.model_validate(data)


@pytest.mark.parametrize(
    ("question", "term", "expected"),
    [
        # romanized "modal parelijm": the sound comparison misses, so the words cannot tell
        ("what is model parallelism", "मॉडल पैरेललिज़्म", False),
        ("what is a load balancer", "मॉडल पैरेललिज़्म", False),  # nor here: the confidence decides
        ("बैच नॉर्मलाइज़ेशन क्या है", "बैच", True),  # the same script: the words can tell
        ("What is mTLS?", "एमटीएलएस (Mutual Transport Layer Security)", False),  # its initials
        ("What is TCP?", "एमटीएलएस (Mutual Transport Layer Security)", True),
    ],
)
def test_words_in_a_script_none_of_the_names_use_do_not_say_no_entry(
    question: str, term: str, expected: bool
) -> None:
    assert names_other_term(question, _hindi_only_entry("x", term)) is expected


def test_a_word_asked_in_a_context_is_not_compared_across_scripts_as_part_of_a_name() -> None:
    """A Latin word matches a Devanagari name's part only loosely, by romanized sound ("bacth" in
    मिनी-बैच): asked in a context, the confidence decides; asked bare, the check still applies."""
    entry = _hindi_only_entry("x", "मिनी-बैच")
    assert not only_part_of_name("what is a bacth in ML training", entry)
    assert only_part_of_name("what is bacth", entry)


@pytest.mark.model
def test_a_sure_ranking_is_answered_whatever_words_ride_along_with_the_name(bot) -> None:
    """ "PEFT stand" is not a name, but the ranking is sure of PEFT: a card, not "no entry for it";
    a bare term the ranking is not sure of is still a near miss."""
    sure = bot.answer("What does PEFT stand for and why use it?")
    assert sure.kind == "answer" and sure.entry_ids[0] == "peft" and sure.confidence >= SURE
    unsure = bot.answer("what is batch normalization")
    assert unsure.kind in ("near miss", "declined") and (unsure.confidence or 0.0) < SURE


@pytest.mark.model
@pytest.mark.parametrize(
    "question",
    [
        "what is batch normalization",
        "what is attention",
        "what is attention in neural networks",
        "neural networks me attention kya hai",
        "न्यूरल नेटवर्क में attention क्या है",
        "attention in neural networks kya hai",
        "what is Zero Trust Architecture",  # ZeRO first, at a confidence of 1.0
        "zero trust architecture kya hai",
    ],
)
def test_search_declines_a_term_the_glossary_has_no_entry_for_as_the_answer_does(bot, question) -> None:
    """The chat says "no entry for X" (a near miss); search and evaluation said the glossary covered
    it, since its first entry (Batch, FlashAttention) was in scope. They now decline it, saying why."""
    found = bot.retrieve(question)
    assert found.abstained and found.no_entry
    assert bot.answer(question).kind == "near miss"
    named = bot.retrieve("what is flash attention")
    assert not named.abstained and not named.no_entry


@pytest.mark.model
def test_the_no_entry_check_can_be_switched_off_for_the_ablation(bot) -> None:
    """``RetrievalOptions.other_term`` off (``benchmarks.ideas``): the first entry is judged as ranked."""
    from bot.core import GlossaryBot

    options = bot.retriever.options.model_copy(update={"other_term": False})
    plain = GlossaryBot(bot.glossary, bot.retriever.with_options(options), bot.calibration, bot.settings)
    assert not plain.retrieve("what is attention").no_entry
    assert bot.retrieve("what is attention").no_entry


@pytest.mark.parametrize(
    ("question", "names", "expected"),
    [
        ("what is semi-dropout", ("Dropout",), True),
        ("उप-ड्रॉपआउट क्या है", ("ड्रॉपआउट",), True),
        ("what is semi-supervised learning", ("Supervised learning",), True),
        ("what is drop-out", ("Dropout", "drop-out"), False),  # the name's own hyphen
        ("what is dorp-out", ("Dropout", "drop-out"), False),  # a typo in its first word adds no word
        ("what is semi-Mixture of Experts", ("Mixture of Experts (MoE)",), True),  # a stop word inside
        ("what is semi-VRAM", ("Video memory (VRAM)",), True),  # one word more than its bracketed part
        ("what is multi-gpu training", ("Distributed training", "multi-GPU training"), False),
        ("what is mixed-precision training", ("Mixed-precision training",), False),
        ("what is batch normalization", ("Batch",), False),  # no hyphen: a sure ranking may overrule
    ],
)
def test_a_prefix_hyphened_to_a_names_word_asks_another_term(
    question: str, names: tuple[str, ...], expected: bool
) -> None:
    assert prefixes_name(question, _entry("x", *names)) is expected


@pytest.mark.model
@pytest.mark.parametrize(
    "question",
    [
        "what is semi-supervised learning",
        "what is non-overfitting",
        "what is semi-dropout",
        "उप-ड्रॉपआउट क्या है",
    ],
)
def test_a_name_with_a_prefix_hyphened_to_it_is_a_near_miss_not_its_card(bot, question) -> None:
    """ "non-overfitting" sounds 88 % like Overfitting and "semi-dropout" ranked Dropout first at 0.98;
    both got that card, labelled "likely", as did "semi-supervised learning" (Supervised learning, one
    word more than the name)."""
    found = bot.retrieve(question)
    assert found.abstained and found.no_entry
    assert bot.answer(question).kind == "near miss"
    for named in (
        "what is self-supervised learning",
        "what is over-fitting",
        "what is mixed-precision training",
    ):
        assert bot.answer(named).label == "exact", named


@pytest.mark.model
def test_part_of_a_longer_name_is_a_near_miss(bot) -> None:
    part = bot.answer("what is attention")
    assert part.label == "closest" and "*attention*" in part.text
    assert "%" not in part.text  # no percentage that would read as confidence in an answer to it
    assert bot.answer("what is flash attention").label == "exact"
    # the term without the context it was asked in: what the glossary has no entry for
    in_context = bot.answer("what is attention in neural networks")
    assert in_context.kind == "near miss" and "*attention*" in in_context.text


@pytest.mark.model
def test_problem_question_lists_the_entries_whose_text_addresses_it(bot) -> None:
    """A problem no entry names, whose fix an entry's usage text states, is answered with that entry
    and its sentence; a how-to question the glossary says nothing about is still declined."""
    question = "my model does badly even on the training data, what should I do"
    reply = bot.answer(question)
    assert not reply.abstained and reply.citations and reply.label is None
    first = bot.glossary.get(reply.entry_ids[0])
    said = [
        s for text in (first.usage_en, first.example_en, *first.notes_en) if text for s in text.split(". ")
    ]
    assert any(s.rstrip(".") in reply.text for s in said), reply.text
    assert bot.answer("how do I reset my laptop password").abstained


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [
        ("What is dropout in neural networks?", "dropout"),
        ("define overfitting in simple words", "overfitting"),
        ("what is the role of dropout in regularization", None),  # a longer head names no entry
        ("how does dropout work in training", None),  # no definition question: its whole topic
        # Hinglish and Hindi set the context first: X after the last "me" / "में"
        ("deep learning me dropout kya hota hai", "dropout"),
        ("neural networks mein overfitting ka matlab kya hai", "overfitting"),
        ("डीप लर्निंग में ड्रॉपआउट क्या है?", "dropout"),
        ("training me random neurons band kar dena kya kehlata hai", None),  # no definition frame
        ("dropout in neural networks kya hota hai", "dropout"),  # English words in a Hinglish frame
    ],
)
def test_a_definition_question_names_its_topic_without_the_context_it_is_set_in(question, entry_id):
    """ "What is X in Y": Y says where X is asked about, so X alone is the name asked, and an entry
    named X is the answer whatever the ranking makes of Y ("What is a service in cloud native terms?"
    ranked Cloud Native Technology first)."""
    from glossary import load_glossary

    named = named_entry(question, load_glossary())
    assert (named.id if named else None) == entry_id


@pytest.mark.model
@pytest.mark.parametrize(
    ("question", "named", "ranked_first"),
    [
        ("What is dropout in overfitting and regularization?", "Dropout", "Regularization"),
        ("define epoch in training loss and validation loss curves", "Epoch", "Overfitting"),
    ],
)
def test_search_gives_first_the_entry_a_question_names_as_the_card_does(bot, question, named, ranked_first):
    """Search, evaluation and the card agree on the first entry: the one the question names outright,
    answered at the confidence the card states for it; the ablation's lookup switch shows the ranking
    alone put another entry first."""
    from bot.search.evidence import NAMED_CONFIDENCE
    from bot.variants import variant_bot

    found = bot.retrieve(question)
    assert (found.hits[0].entry.term, found.abstained, found.confidence) == (named, False, NAMED_CONFIDENCE)
    assert bot.answer(question).citations[0].term == named
    assert variant_bot(bot, "full -whole names").retrieve(question).hits[0].entry.term == ranked_first


@pytest.mark.parametrize(
    ("heading", "question", "named"),
    [
        ("ऑब्जर्वेबिलिटी (Observability)", "What is observability in cloud native systems?", True),
        ("ऑब्जर्वेबिलिटी (Observability)", "ऑब्जर्वेबिलिटी क्या है", True),
        ("Overfitting (ओवरफिटिंग)", "ओवरफिटिंग क्या है", True),
        ("Kernel (OS)", "what is OS", False),  # a bracket in the same script may qualify: no name
        ("AI एक्सेलेरेटर (GPU, TPU, NPU)", "what is GPU", False),  # both scripts outside the bracket
        # a bracket that lists its names with semicolons: each is a name
        ("निरंतर डिलीवरी (Continuous Delivery; CD)", "what is CD", True),
        ("निरंतर डिलीवरी (Continuous Delivery; CD)", "continuous delivery kya hai", True),
        ("निरंतर डिलीवरी (Continuous Delivery; CD)", "what is continuous delivery; cd", True),
    ],
)
def test_a_heading_with_its_other_language_name_in_brackets_is_named_by_either_side(heading, question, named):
    """Hindi glossaries often write a heading as "हिंदी नाम (English name)": a question that is
    either side is that entry, as it is when the glossary lists the two as separate names."""
    from glossary import Glossary, load_glossary

    entry = GlossaryEntry.model_validate(user_entry("x", term=heading, term_en=None, term_hi=heading))
    document = load_glossary().documents[0].model_copy(update={"entries": [entry], "tables": [], "faq": []})
    found = named_entry(question, Glossary([document]))
    assert (found is not None) is named
