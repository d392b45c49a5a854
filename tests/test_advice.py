"""Advice for how-to and problem questions, choices that are not comparisons, and the language an
answer and its Sources are in.

The quality test answers the whole labelled set (benchmarks/data/advice.jsonl) with the real model and
holds it to the figures recorded in benchmarks/ADVICE.json (less 0.02); the rest needs no model
unless marked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import advice
from bot.reply.answer import Answer
from bot.reply.router import answer_lang
from bot.reply.sources import sources_markdown
from bot.reply.titles import document_title
from bot.search import remedies
from bot.search.other_term import is_only_name
from bot.search.sentences import sentence_passages
from bot.understand.comparison import is_choice
from bot.understand.query import understand
from glossary import GlossaryEntry, load_glossary
from glossary.store import Glossary
from index.sentences import entry_sentences

from .factories import user_entry

RECORDED = json.loads((Path(__file__).resolve().parents[1] / "benchmarks" / "ADVICE.json").read_text("utf-8"))
#: How far below the recorded figures a re-run may land (the encoder's float noise, no more).
SLACK = 0.02
MAX_CHARS = 2000


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return load_glossary()


# --- a choice is not a comparison ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "choice"),
    [
        ("learning rate kam kare ya zyada? loss oscillate kar raha hai", True),
        ("should I lower the learning rate or raise it", True),
        ("लर्निंग रेट घटाएँ या बढ़ाएँ", True),
        ("batch or epoch?", True),
        ("batch vs epoch", False),
        ("difference between batch or epoch", False),
        ("dropout aur weight decay me kya antar hai", False),
        ("what is dropout", False),
        ("what are dropout and weight decay", True),  # a list: side by side if both are names
        ("dropout, weight decay", True),
    ],
)
def test_or_ya_and_lists_alone_make_a_choice(question, choice):
    assert is_choice(question) is choice


@pytest.mark.parametrize(
    ("question", "how_to"),
    [
        ("can you explain dropout to me", False),
        ("do you know what dropout is", False),
        ("what do you mean by training loss", False),  # was answered from the FAQ
        ("can I use dropout with LoRA", True),
        ("do we need warmup", True),
    ],
)
def test_a_request_to_explain_is_no_how_to(question, how_to):
    assert understand(question, MAX_CHARS).how_to is how_to


def test_a_choice_is_noted_and_a_description_with_or_is_no_how_to():
    assert understand("learning rate kam kare ya zyada? loss oscillate kar raha hai", MAX_CHARS).how_to
    assert understand("learning rate kam kare ya zyada?", MAX_CHARS).choice
    assert not understand("batch vs epoch", MAX_CHARS).choice
    described = understand("the system adds or removes compute resources by itself", MAX_CHARS)
    assert described.choice and not described.how_to


def _entry(entry_id: str, term: str, *aliases: str) -> GlossaryEntry:
    return GlossaryEntry.model_validate(user_entry(entry_id, term=term, term_en=term, aliases=list(aliases)))


@pytest.mark.parametrize(
    ("side", "term", "expected"),
    [
        ("weight decay", "Weight decay", True),
        ("learning rate", "Learning rate", True),
        ("lr", "Learning rate", False),
        ("learning rate scheduler", "Learning rate", False),
        ("zyada loss oscillate kar raha hai", "Loss function", False),
        ("attention", "FlashAttention", False),
    ],
)
def test_a_choice_side_is_an_entry_only_when_it_says_the_name_and_nothing_more(side, term, expected):
    assert is_only_name(understand(side, MAX_CHARS).reading, _entry("x", term)) is expected


@pytest.mark.model
def test_a_choice_is_answered_as_advice_and_two_names_are_compared(bot):
    choice = bot.answer("learning rate kam kare ya zyada? loss oscillate kar raha hai", preferred="en")
    assert choice.kind != "comparison"
    assert choice.entry_ids[0] in ("learning-rate", "learning-rate-scheduler")
    assert bot.answer("batch or epoch?").kind == "comparison"
    assert bot.answer("dropout ya weight decay?").kind == "comparison"


# --- sentences and advice ---------------------------------------------------------------------------


def test_every_sentence_of_an_entry_is_embedded_once_with_its_term(glossary):
    entry = glossary.get("learning-rate")
    sentences = entry_sentences(entry)
    assert {s.field for s in sentences} == {"usage", "notes", "example", "definition"}
    assert {s.lang for s in sentences} == {"en", "hi"}
    said, passages = sentence_passages([entry])
    assert len(said) == len(passages) == len({p.field for p in passages})
    assert all(p.text.endswith(s.text) and p.prompt == "passage" for s, p in zip(said, passages, strict=True))


def test_only_near_ties_of_the_first_entry_are_offered():
    closest = [("a", 0.90), ("b", 0.897), ("c", 0.89), ("d", 0.80)]
    assert [e for e, _ in remedies.offered(closest, cut_off=0.85, behind=0.005)] == ["a", "b"]
    assert remedies.offered(closest, cut_off=0.95, behind=1.0) == []
    assert len(remedies.offered(closest, cut_off=0.0, behind=1.0)) == remedies.MAX_REMEDIES


def test_the_cut_off_in_use_is_the_one_the_recorded_sweep_chose():
    chosen = RECORDED["sentence_search"]["chosen"]
    assert (chosen["cut_off"], chosen["behind"]) == (remedies.MIN_COSINE, remedies.MAX_BEHIND)


def test_the_recorded_choice_is_the_best_f1_of_its_sweep():
    sweep = RECORDED["sentence_search"]["sweep"]
    assert RECORDED["sentence_search"]["chosen"]["f1"] == max(r["f1"] for r in sweep)


def test_the_labelled_set_has_three_registers_and_questions_no_entry_answers():
    rows = advice.load_rows()
    registers = {r["register"] for r in rows}
    assert registers == {"en", "hi", "hinglish"}
    for register in registers:
        mine = [r for r in rows if r["register"] == register]
        assert sum(not r["expected"] for r in mine) >= 3 and sum(bool(r["expected"]) for r in mine) >= 10
    ids = {e.id for e in load_glossary().entries} | {f.id for f in load_glossary().faq}
    assert all(set(r["expected"]) <= ids for r in rows)


@pytest.mark.model
def test_advice_quality_on_the_labelled_set_holds_the_recorded_figures(bot):
    """The whole labelled set, answered now, against benchmarks/ADVICE.json (less SLACK)."""
    rows = advice.load_rows()
    answers = advice.measure(bot, rows)["all"]
    for key in ("precision", "answered", "honest_declines", "leads_with_advice"):
        assert answers[key] >= RECORDED["answers"]["all"][key] - SLACK, (key, answers[key])
    now = advice.at_cut_off(rows, advice.closest(bot, rows), remedies.MIN_COSINE, remedies.MAX_BEHIND)
    chosen = RECORDED["sentence_search"]["chosen"]
    for key in ("precision", "recall", "declines"):
        assert now[key] >= chosen[key] - SLACK, (key, now[key])


@pytest.mark.model
def test_a_how_to_question_about_an_entry_opens_with_the_sentence_that_answers_it(bot):
    answer = bot.answer("when should I use gradient clipping")
    entry = bot.glossary.get("gradient-clipping")
    assert answer.entry_ids[0] == entry.id
    assert answer.text.startswith("**Usage:**") and answer.advice[entry.id] == entry.usage_en
    hindi = bot.answer("ग्रेडिएंट क्लिपिंग कब उपयोग करें")
    assert hindi.text.startswith("**उपयोग:**") and hindi.entry_ids[0] == entry.id


@pytest.mark.model
def test_a_problem_no_entry_names_gets_the_entries_whose_sentence_addresses_it(bot):
    answer = bot.answer("my model does badly even on the training data, what should I do")
    assert answer.kind == "remedy" and answer.entry_ids
    for entry_id in answer.entry_ids:
        assert answer.advice[entry_id] in answer.text
        said = [s.text for s in entry_sentences(bot.glossary.get(entry_id)) if s.lang == "en"]
        assert answer.advice[entry_id] in said
    assert "हिंदी" in answer.details  # the other language one click away


@pytest.mark.model
def test_a_problem_the_glossary_says_nothing_about_gets_no_advice(bot):
    for question in ("my laptop battery drains fast, what should I do", "printer jam ho gaya kya karu"):
        assert bot.answer(question).kind in advice.NOT_ANSWERED, question


# --- the answer's language ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "preferred", "expected"),
    [
        ("overfitting kaise rokein", "en", "en"),
        ("overfitting kaise rokein", "hi", "hi"),
        ("overfitting kaise rokein", None, "hinglish"),
        ("dropout", "hi", "hi"),
        ("how do I stop overfitting", "hi", "en"),
        ("ओवरफिटिंग कैसे रोकें", "en", "hi"),
    ],
)
def test_a_hinglish_question_is_answered_in_the_interface_language(question, preferred, expected):
    query = understand(question, MAX_CHARS)
    assert answer_lang(query, None, None, preferred) == expected


def test_a_language_asked_for_wins_over_the_interface():
    query = understand("overfitting kaise rokein", MAX_CHARS)
    assert answer_lang(query, None, "hi", "en") == "hi"


@pytest.mark.model
def test_a_hinglish_answer_in_the_english_interface_has_the_hindi_one_click_away(bot):
    answer = bot.answer("dropout kya hai", preferred="en")
    entry = bot.glossary.get("dropout")
    assert answer.lang == "en" and entry.definition_en.split(".")[0] in answer.text
    assert entry.definition_hi.split("।")[0] in answer.details
    assert bot.answer("dropout kya hai", preferred="hi").lang == "hi"


def test_the_bundled_documents_have_english_names_in_the_english_interface(glossary):
    document = glossary.get("dropout").source.document
    assert document_title(glossary, document, "en") == "Generative AI Engineering"
    assert document_title(glossary, document, "hi") == glossary.title(document)


def test_another_document_of_the_same_file_name_keeps_its_own_title(tmp_path):
    entry = user_entry("alpha", source={"document": "004_2d22f4c9d7805074.txt", "line": 1})
    path = tmp_path / "004_2d22f4c9d7805074.yaml"
    path.write_text(
        json.dumps({"document": "004_2d22f4c9d7805074.txt", "title_hi": "मेरी शब्दावली", "entries": [entry]}),
        encoding="utf-8",
    )
    mine = load_glossary([path])
    assert document_title(mine, "004_2d22f4c9d7805074.txt", "en") == "मेरी शब्दावली"


def test_sources_follow_the_interface_language(glossary):
    entry = glossary.get("dropout")
    answer = Answer(
        text="x",
        citations=[{"entry_id": entry.id, "term": entry.term, "source": entry.source.cite()}],
        abstained=False,
        lang="hi",
    )
    english = sources_markdown(answer, glossary, "en")
    assert "Generative AI Engineering, line" in english and "पंक्ति" not in english
    assert "पंक्ति" in sources_markdown(answer, glossary, "hi")
