"""Comparisons: the sides a question sets against each other, the earlier answers a comparison that
refers back stands for, and the bot answering both side by side (marked ``model``)."""

from __future__ import annotations

import pytest

from benchmarks.frames import converse
from bot.understand import dialogue
from bot.understand.comparison import comparison_splits, is_bare_comparison, refers_back
from bot.understand.query import understand
from glossary import load_glossary

MAX_CHARS = 2000


@pytest.mark.parametrize(
    ("question", "sides"),
    [
        ("how is LoRA different from PEFT", ("LoRA", "PEFT")),
        ("how does LoRA differ from PEFT?", ("LoRA", "PEFT")),
        ("is LoRA different from PEFT?", ("LoRA", "PEFT")),
        ("what makes LoRA different from PEFT", ("LoRA", "PEFT")),
        ("LoRA compared to PEFT", ("LoRA", "PEFT")),
        ("compare LoRA with PEFT", ("LoRA", "PEFT")),
        ("is LoRA the same as PEFT", ("LoRA", "PEFT")),
        ("is LoRA similar to PEFT", ("LoRA", "PEFT")),
        ("LoRA ka PEFT se kya fark hai", ("LoRA", "PEFT")),
        ("LoRA का PEFT से क्या अंतर है", ("LoRA", "PEFT")),
        ("LoRA, PEFT से कैसे अलग है", ("LoRA", "PEFT")),
        ("LoRA aur PEFT same hai kya", ("LoRA", "PEFT")),
        ("क्या LoRA और PEFT एक ही हैं", ("LoRA", "PEFT")),
        ("how is it different from PEFT", ("it", "PEFT")),
        ("iska PEFT se kya fark hai", ("iska", "PEFT")),
        ("यह PEFT से कैसे अलग है", ("यह", "PEFT")),
        # one side said, the other the answer before
        ("compare with epoch", ("it", "epoch")),
        ("how is weight decay different", ("it", "weight decay")),
        ("how does weight decay differ?", ("it", "weight decay")),
        ("epoch se kaise alag hai", ("it", "epoch")),
        ("epoch से क्या अंतर है", ("it", "epoch")),
        # the forms read before
        ("difference between LoRA and PEFT", ("LoRA", "PEFT")),
        ("LoRA और PEFT में क्या अंतर है", ("LoRA", "PEFT")),
        ("batch vs epoch", ("batch", "epoch")),
        # a comparison that names nothing refers back
        ("difference?", ()),
        ("which is better?", ()),
        ("what's the difference between them", ()),
        ("dono me kya fark hai", ()),
        ("दोनों में क्या अंतर है?", ()),
        # no comparison: a reason asked, the difference a thing makes, a term
        ("why is validation loss different from training loss", None),
        ("batch size se kya fark padta hai", None),
        ("dropout lagane se kya fark hota hai", None),
        ("learning rate badhane se kya antar aata hai", None),
        ("how is the loss different in training", None),
        ("what is dropout", None),
        ("difference of squares", None),
        # a frame said apart from the sides is no side ("no entry for *the*" was said under the table)
        ("dropout vs weight decay, what is the difference", ("dropout", "weight decay")),
        ("pre-training vs fine-tuning, what's the difference?", ("pre-training", "fine-tuning")),
        ("dropout vs weight decay, kya fark hai?", ("dropout", "weight decay")),
        ("dropout vs weight decay - which is better?", ("dropout", "weight decay")),
        ("dropout vs weight decay: differences?", ("dropout", "weight decay")),
        ("what is the difference: dropout vs weight decay", ("dropout", "weight decay")),
        ("LoRA vs PEFT — which one?", ("LoRA", "PEFT")),
        ("mini-batch vs batch", ("mini-batch", "batch")),
        # a relation asked between two things: both are shown side by side
        ("what is the relationship between batch size and learning rate", ("batch size", "learning rate")),
        ("batch size aur learning rate me kya relation hai", ("batch size", "learning rate")),
        ("बैच आकार और सीखने की दर में क्या संबंध है", ("बैच आकार", "सीखने की दर")),
        ("what is relation in deep learning", None),
        ("terms related to distributed training", None),
    ],
)
def test_sides_of_a_comparison(question, sides):
    splits = comparison_splits(question)
    assert (None if splits is None else splits[0]) == sides


@pytest.mark.parametrize(
    ("question", "splits"),
    [
        (
            "सीखने की दर का PEFT से क्या अंतर है",
            (("सीखने", "दर का PEFT"), ("सीखने की दर", "PEFT"), ("it", "सीखने की दर का PEFT")),
        ),
        (
            "PEFT का सीखने की दर से क्या अंतर है",
            (("PEFT", "सीखने की दर"), ("PEFT का सीखने", "दर"), ("it", "PEFT का सीखने की दर")),
        ),
        ("विशेषज्ञों का मिश्रण se kaise alag hai", (("विशेषज्ञों", "मिश्रण"), ("it", "विशेषज्ञों का मिश्रण"))),
        ("iska विशेषज्ञों का मिश्रण se kya fark hai", (("iska", "विशेषज्ञों का मिश्रण"),)),
    ],
)
def test_a_genitive_in_a_name_gives_other_splits(question, splits):
    """Which is right only the glossary's names tell (``bot.search.evidence.compared_of``)."""
    assert comparison_splits(question) == splits


def test_a_pronoun_side_is_read_as_none_and_refers_back():
    query = understand("how is it different from PEFT?", MAX_CHARS)
    assert query.sides is not None and query.sides[0] is None and query.sides[1] is not None
    assert query.compares_earlier and refers_back("इसका") and not refers_back("LoRA")
    bare = understand("difference?", MAX_CHARS)
    assert bare.sides == () and bare.compares_earlier and is_bare_comparison("which one is better")
    assert not understand("LoRA vs PEFT", MAX_CHARS).compares_earlier
    assert not understand("what is LoRA", MAX_CHARS).compares_earlier


# --- the earlier answers a comparison stands for -------------------------------------------------


@pytest.fixture(scope="module")
def index():
    return dialogue.CitationIndex(load_glossary().entries)


def _history(*turns: tuple[str, list[str]]) -> list[dict]:
    messages: list[dict] = []
    for question, ids in turns:
        messages.append({"role": "user", "content": question})
        messages.append({"role": "assistant", "content": "…", "metadata": {dialogue.CITED_KEY: ids}})
    return messages


@pytest.mark.parametrize(
    ("question", "turns", "entries"),
    [
        # a pronoun stands for the entry the last answer was about
        (
            "how is it different from PEFT",
            [("what is batch", ["batch"]), ("what is LoRA", ["lora"])],
            ("lora",),
        ),
        # nothing named: the entries the last answer set side by side ...
        ("difference?", [("batch vs epoch", ["batch", "epoch"])], ("batch", "epoch")),
        # ... else those the last two answers were about, in the order asked, each once
        (
            "difference?",
            [("what is batch", ["batch"]), ("what is epoch", ["epoch"]), ("example?", ["epoch"])],
            ("batch", "epoch"),
        ),
        ("which is better?", [("what is batch", ["batch"]), ("hello", [])], ("batch",)),
        ("difference?", [], ()),
        # no comparison, or one that names both sides, reads no history
        ("LoRA vs PEFT", [("what is batch", ["batch"])], ()),
        ("what is LoRA", [("what is batch", ["batch"])], ()),
    ],
)
def test_compared_before(index, question, turns, entries):
    query = understand(question, MAX_CHARS)
    assert dialogue.compared_before(query, _history(*turns), index) == entries


# --- the bot ------------------------------------------------------------------------------------


@pytest.mark.model
@pytest.mark.parametrize(
    ("question", "entries"),
    [
        # a list of names; before, only the second got a card, labelled "likely"
        ("what are dropout and weight decay", ["dropout", "weight-decay"]),
        ("dropout aur weight decay kya hai", ["dropout", "weight-decay"]),
        ("dropout, weight decay", ["dropout", "weight-decay"]),
        # one set against another; before, "how is LoRA different from PEFT" got LoRA's card alone
        ("how is LoRA different from PEFT", ["lora", "peft"]),
        ("how does LoRA differ from PEFT", ["lora", "peft"]),
        ("is LoRA the same as PEFT", ["lora", "peft"]),
        ("LoRA ka PEFT se kya fark hai", ["lora", "peft"]),
        ("लोरा का PEFT से क्या अंतर है", ["lora", "peft"]),
        # a Hindi name holding a genitive: split where both sides are names
        ("सीखने की दर का PEFT से क्या अंतर है", ["learning-rate", "peft"]),
        ("PEFT का सीखने की दर से क्या अंतर है", ["peft", "learning-rate"]),
        ("बैच का विशेषज्ञों का मिश्रण से क्या अंतर है", ["batch", "mixture-of-experts"]),
        # a relation between two terms: before, a "not sure" reply led by Layer-wise learning rate decay
        ("batch size aur learning rate me kya relation hai", ["batch-size", "learning-rate"]),
        ("what is the relationship between batch size and learning rate", ["batch-size", "learning-rate"]),
    ],
)
def test_two_names_are_answered_side_by_side(bot, question, entries):
    reply = bot.answer(question)
    assert reply.kind == "comparison" and reply.entry_ids[:2] == entries


@pytest.mark.model
@pytest.mark.parametrize(
    ("messages", "entries"),
    [
        (("what is LoRA", "how is it different from PEFT"), ["lora", "peft"]),
        (("dropout kya hai", "iska weight decay se kya fark hai"), ["dropout", "weight-decay"]),
        (("ओवरफिटिंग क्या है", "यह अंडरफिटिंग से कैसे अलग है"), ["overfitting", "underfitting"]),
        (("what is batch", "what is epoch", "difference?"), ["batch", "epoch"]),
        (("what are dropout and weight decay", "which is better?"), ["dropout", "weight-decay"]),
        (("what is batch", "compare with epoch", "epoch se kaise alag hai"), ["batch", "epoch"]),
        (("what is dropout", "how is weight decay different"), ["dropout", "weight-decay"]),
        (("batch kya hai", "विशेषज्ञों का मिश्रण se kaise alag hai"), ["batch", "mixture-of-experts"]),
    ],
)
def test_a_comparison_that_refers_back_compares_the_earlier_answers(bot, messages, entries):
    """Before, "how is it different from PEFT" got PEFT's card, labelled an exact match, and
    "difference?" was declined."""
    reply = converse(bot, list(messages))
    assert reply.kind == "comparison" and reply.entry_ids[:2] == entries


@pytest.mark.model
@pytest.mark.parametrize(
    "question",
    ["dropout vs batch normalization", "how is dropout different from batch normalization"],
)
def test_a_side_the_glossary_lacks_is_said_and_not_guessed(bot, question):
    """ "batch normalization" spells out all of Batch's name, and was set beside Dropout as Batch;
    now Dropout is shown alone and the reply says the glossary has no entry for the other side."""
    reply = bot.answer(question)
    assert reply.kind == "comparison" and reply.entry_ids == ["dropout"]
    assert "no entry for *batch normalization*" in reply.text


@pytest.mark.model
@pytest.mark.parametrize(
    "question", ["LoRA vs QLoRA", "QLoRA vs LoRA", "what's the difference between LoRA and QLoRA?"]
)
def test_a_side_only_close_to_the_name_another_side_says_is_another_term(bot, question):
    """ "QLoRA" is one letter from LoRA; beside "LoRA" it is no typo of it. LoRA's card was the answer,
    QLoRA never mentioned."""
    reply = bot.answer(question)
    assert reply.kind == "comparison" and reply.entry_ids == ["lora"] and reply.unnamed == ["QLoRA"]


@pytest.fixture(scope="module")
def one_language_bots(settings, tmp_path_factory):
    """The bundled glossary without extras as an English-only and a Hindi-only file (as ``make eval``
    writes its views), each loaded as a user's file is."""
    from bot.core import GlossaryBot
    from bot.search.loading import read_glossary
    from glossary.views import GLOSSARY_FILE, write_view

    source = read_glossary(settings.model_copy(update={"project_extras": False}))
    bots = {}
    for lang in ("en", "hi"):
        folder = tmp_path_factory.mktemp(lang)
        write_view(source, lang, folder)  # type: ignore[arg-type]
        bots[lang] = GlossaryBot.load(
            settings.model_copy(update={"glossary_paths": [folder / GLOSSARY_FILE]})
        )
    return bots


@pytest.mark.model
@pytest.mark.parametrize(
    ("view", "question", "entries"),
    [
        # the side's own lexical ranking finds nothing for "weight decay": the question's first entries
        ("hi", "dropout vs weight decay", ["dropout", "weight-decay"]),
        ("hi", "LoRA vs PEFT", ["lora", "peft"]),  # said "no entry for LoRA" for a moment
        ("en", "ड्रॉपआउट और वेट डिके में क्या अंतर है", ["dropout", "weight-decay"]),
    ],
)
def test_a_side_in_the_other_script_is_found_by_its_sound(one_language_bots, view, question, entries):
    reply = one_language_bots[view].answer(question)
    assert reply.kind == "comparison" and reply.entry_ids[:2] == entries and not reply.unnamed


@pytest.mark.model
def test_a_side_in_a_script_the_file_does_not_use_is_never_said_to_be_missing(one_language_bots):
    """नियमितीकरण is the English-only file's Regularization, translated: no sound tells, so the
    question is answered by its ranking, not as Dropout alone with "no entry for नियमितीकरण"."""
    reply = one_language_bots["en"].answer("ड्रॉपआउट और नियमितीकरण में क्या अंतर है")
    assert reply.kind != "comparison" and not reply.unnamed


@pytest.mark.model
def test_a_list_whose_side_only_comes_close_to_a_name_is_no_comparison(bot):
    """ "GPU, TTPU, NPU" is AI accelerator's name typed with a typo: every side of a list must be a
    name, so it is not AI accelerator alone under the heading " and AI accelerator"."""
    reply = bot.answer("what is GPU, TTPU, NPU")
    assert reply.kind != "comparison" and reply.entry_ids[:1] == ["ai-accelerator"]


@pytest.mark.model
def test_a_frame_after_the_sides_is_not_said_to_be_missing(bot):
    reply = bot.answer("dropout vs weight decay, what is the difference")
    assert reply.entry_ids[:2] == ["dropout", "weight-decay"] and "no entry" not in reply.text


@pytest.mark.model
def test_a_comparison_naming_nothing_with_nothing_before_asks_which_terms(bot):
    reply = bot.answer("difference?")
    assert reply.kind == "no context" and reply.abstained and "compare" in reply.text
    assert bot.answer("अंतर क्या है?").kind == "no context"
