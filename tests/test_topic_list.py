"""What the glossary holds: "help" and "what can you do" say so, "types of X" and "terms related to
X" list the entries named or filed under X, and a list of names is titled "X and Y", not "X vs Y"."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.reply.comparison import comparison_card
from bot.search.topics import entries_about
from bot.settings import Settings
from bot.understand.comparison import comparison_splits, is_list
from bot.understand.cues import HELP, listed_topic, small_talk
from glossary import load_glossary

PARALLELISM = {
    "data-parallelism",
    "model-parallelism",
    "model-parallelism-strategy",
    "pipeline-parallelism",
    "tensor-parallelism",
}


@pytest.fixture(scope="module")
def bundled():
    return load_glossary()


@pytest.mark.parametrize(
    "message",
    [
        "help",
        "help?",
        "what can you do",
        "list all terms",
        "how many terms do you have",
        "what terms do you know",
        "show me all terms",
        "madad chahiye",
        "tum kya kar sakte ho",
        "kaun kaun se terms hain",
        "sab terms dikhao",
        "मदद",
        "आप क्या कर सकते हैं",
        "शब्दों की सूची",
        "terms ki list",
        "list of terms",
    ],
)
def test_asking_what_the_bot_can_do_is_help(message):
    assert small_talk(message) == HELP


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("who are you", "identity"),
        ("hi", "greeting"),
        ("thanks", "thanks"),
        ("what do you know about dropout", None),
        ("help me with overfitting", None),
        ("list the optimizers", None),
    ],
)
def test_help_words_with_a_topic_are_no_small_talk(message, kind):
    assert small_talk(message) == kind


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("types of parallelism", "parallelism"),
        ("what are the different types of parallelism?", "parallelism"),
        ("kinds of loss", "loss"),
        ("show me all terms related to parallelism", "parallelism"),
        ("terms about distributed training", "distributed training"),
        ("distributed training related terms", "distributed training"),
        ("list all training terms", "training"),
        ("list of optimizers", "optimizers"),
        ("give me a list of parallelism techniques", "parallelism techniques"),
        ("parallelism ke types batao", "parallelism"),
        ("loss se jude terms", "loss"),
        ("समानांतरता के प्रकार", "समानांतरता"),
        ("हानि से जुड़े शब्द", "हानि"),
        ("what is parallelism", None),
        ("what is the type of a batch", None),
        ("dropout kya hai", None),
    ],
)
def test_the_topic_of_a_list_question(question, topic):
    assert listed_topic(question) == topic


def test_entries_about_a_topic_are_those_it_names_or_files_them_under(bundled):
    assert {e.id for e in entries_about("parallelism", bundled)} == PARALLELISM
    assert {e.id for e in entries_about("समानांतरता", bundled)} >= PARALLELISM - {"model-parallelism-strategy"}
    filed = {e.id for e in bundled.entries if e.category and e.category.en == "Distributed training"}
    assert filed and filed <= {e.id for e in entries_about("distributed training", bundled)}
    assert entries_about("quantum physics", bundled) == []
    # a word that says only what kind of terms they are is left out when no name holds it
    assert {e.id for e in entries_about("parallelism techniques", bundled)} == PARALLELISM
    assert entries_about("the", bundled) == []


@pytest.mark.parametrize(
    ("question", "listing"),
    [
        ("what are dropout and weight decay", True),
        ("dropout aur weight decay kya hai", True),
        ("batch, epoch", True),
        ("batch vs epoch", False),
        ("batch or epoch", False),
        ("difference between batch and epoch", False),
        ("batch aur epoch same hai kya", False),
        ("what is batch", False),
    ],
)
def test_a_list_of_names_asks_no_comparison(question, listing):
    assert is_list(question) is listing


def test_a_list_is_titled_with_and_a_comparison_with_vs(bundled):
    entries = [bundled.get("dropout"), bundled.get("weight-decay"), bundled.get("batch")]
    assert comparison_card(entries, "en", bundled, listing=True).startswith(
        "### Dropout, Weight decay and Batch\n"
    )
    assert comparison_card(entries[:2], "en", bundled).startswith("### Dropout vs Weight decay\n")
    assert comparison_card(entries[:2], "hi", bundled, listing=True).startswith("### ड्रॉपआउट और वेट डिके")


@pytest.mark.parametrize(
    "question",
    ["overfitting or underfitting which is worse", "which one is worse, overfitting or underfitting"],
)
def test_which_is_worse_is_a_comparison(question):
    splits = comparison_splits(question)
    assert splits is not None and splits[0] == ("overfitting", "underfitting")


# --- the bot ------------------------------------------------------------------------------------


@pytest.mark.model
@pytest.mark.parametrize(
    ("question", "lang"),
    [("types of parallelism", "en"), ("parallelism ke types batao", "hinglish"), ("समानांतरता के प्रकार", "hi")],
)
def test_types_of_a_topic_list_its_entries_each_cited(bot, question, lang):
    reply = bot.answer(question)
    assert reply.kind == "list" and set(reply.entry_ids) == PARALLELISM, reply.text
    assert reply.lang == lang and reply.text.count("- **") == len(PARALLELISM)
    assert all(f"line={bot.glossary.get(i).source.line})" in reply.text for i in reply.entry_ids)


@pytest.mark.model
def test_a_long_list_shows_ten_and_counts_the_rest(bot):
    reply = bot.answer("list all training terms")
    assert reply.kind == "list" and len(reply.entry_ids) == 10
    assert "more: the **Browse** tab, filtered by *training*" in reply.text


@pytest.mark.model
def test_a_topic_with_one_entry_gets_its_card(bot):
    reply = bot.answer("types of overfitting")
    assert reply.kind == "answer" and reply.entry_ids[:1] == ["overfitting"]


@pytest.mark.model
def test_help_says_what_the_glossary_holds(bot):
    reply = bot.answer("what can you do")
    assert reply.kind == "small talk" and f"{len(bot.glossary)} terms (English, हिंदी)" in reply.text
    assert bot.answer("मदद").text.startswith("**AI शब्दावली बॉट**: ")


@pytest.mark.model
def test_a_list_of_names_is_titled_with_and(bot):
    reply = bot.answer("what are dropout and weight decay")
    assert reply.kind == "comparison" and reply.text.startswith("### Dropout and Weight decay\n")
    assert bot.answer("dropout vs weight decay").text.startswith("### Dropout vs Weight decay\n")


@pytest.mark.model
def test_a_teams_help_entry_and_topics_are_its_own(tmp_path: Path, settings: Settings):
    from bot.core import GlossaryBot

    path = tmp_path / "support.csv"
    path.write_text(
        "term,definition\n"
        "Help,The in-app page that lists guides and opens a support ticket.\n"
        "Refund,Money paid back to a customer for a returned purchase.\n"
        "Partial refund,A refund of part of what the customer paid.\n"
        "Refund window,The days after purchase within which a refund may be asked for.\n"
        "Invoice,A bill that lists the goods or services sold and what they cost.\n",
        "utf-8",
    )
    bot = GlossaryBot.load(settings.model_copy(update={"glossary_paths": [path]}))
    assert bot.answer("help").entry_ids == ["help"]
    helped = bot.answer("what can you do")
    assert helped.kind == "small talk" and "**Support glossary**: 5 terms (English)" in helped.text
    listed = bot.answer("types of refund")
    assert listed.kind == "list" and set(listed.entry_ids) == {"refund", "partial-refund", "refund-window"}


def test_the_word_index_finds_what_comparing_every_entry_finds(bundled):
    """``entries_about`` compares only the entries its word index offers; each name word of the
    glossary, typed right or with a typo, must find what comparing every entry finds."""
    from bot.search import names, topics

    words = sorted({w for e in bundled.entries for f in names.name_forms(e) for w in f.split()})
    for word in [*words, "paralelism", "distributed training"]:
        asked = names.reading_of(word).topic_words
        if not asked:  # a stop word ("and"): no topic, no entries (asserted above)
            continue
        every = [
            e
            for e in bundled.entries
            if any(names.every_word_in(asked, f) for f in (names.name_forms(e), topics._filed(e)))
        ]
        assert entries_about(word, bundled) == every, word
