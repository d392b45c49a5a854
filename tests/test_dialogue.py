"""Follow-up resolution: pure functions over a hand-built Gradio history (no model needed)."""

from __future__ import annotations

import pytest

from bot.markdown import escape_md
from bot.reply.cards import entry_card
from bot.search.names import named_entry
from bot.understand import dialogue
from bot.understand.cues import follow_up_cues
from glossary import load_glossary


@pytest.fixture(scope="module")
def glossary():
    return load_glossary()


@pytest.fixture(scope="module")
def index(glossary):
    return dialogue.CitationIndex(glossary.entries)


def _history(glossary, *turns: tuple[str, list[str], str]) -> list[dict]:
    """Gradio messages for (question, cited entry ids, answer language) turns, with a Sources block each."""
    messages: list[dict] = []
    for question, ids, lang in turns:
        messages.append({"role": "user", "content": escape_md(question)})
        text = (
            "\n\n".join(entry_card(glossary.get(i), lang, glossary) for i in ids)
            or "The glossary does not cover this."
        )
        messages.append({"role": "assistant", "content": text})
        messages.append(
            {"role": "assistant", "content": "`004_2d22f4c9d7805074.txt:1`", "metadata": {"title": "Sources"}}
        )
    return messages


@pytest.mark.parametrize(
    ("message", "cues"),
    [
        ("iska example do", ("example", None)),
        ("give me an example", ("example", None)),
        ("Give me an example, please!", ("example", None)),
        ("और इसका उपयोग कब करें?", ("usage", None)),
        ("when should I use it?", ("usage", None)),
        ("इसका उदाहरण दीजिए", ("example", None)),
        ("tell me more", ("more", None)),
        ("aur detail mein batao", ("more", None)),
        ("in Hindi please", (None, "hi")),
        ("hindi me batao", (None, "hi")),
        ("हिंदी में", (None, "hi")),
        ("in English", (None, "en")),
        ("English mein samjhao", (None, "en")),
        ("give an example in English", ("example", "en")),
        # Hinglish is answered in Hindi: no glossary has romanized text (before: declined)
        ("in hinglish", (None, "hi")),
        # the whole card again, its heading spelling the name out (before: declined)
        ("what is its full form", ("more", None)),
        ("what does it stand for?", ("more", None)),
        ("iska full form kya hai", ("more", None)),
        ("what is the full form of PEFT", None),
        ("इसका पूरा नाम क्या है", ("more", None)),
        ("what is a stand", None),
        ("what is a form", None),
    ],
)
def test_follow_up_cues(message, cues):
    assert follow_up_cues(message) == cues


@pytest.mark.parametrize(
    "message",
    [
        "give me an example of dropout",
        "dropout example",
        "what is dropout?",
        "batch vs epoch",
        "ओवरफिटिंग क्या है?",
        "how is learning rate used in warmup",
        "",
        "???",
    ],
)
def test_a_message_with_its_own_topic_is_not_a_follow_up(message):
    assert follow_up_cues(message) is None


def test_message_text_reads_strings_and_parts():
    assert dialogue.message_text({"role": "user", "content": "plain"}) == "plain"
    parts = {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "file", "file": {}}, "b"]}
    assert dialogue.message_text(parts) == "a\nb"
    assert dialogue.message_text({"role": "user", "content": None}) == ""


def test_turns_pair_questions_with_cited_entries(glossary, index):
    history = _history(
        glossary,
        ("What is dropout?", ["dropout"], "en"),
        ("<b>batch</b> vs epoch", ["batch", "epoch"], "hi"),
        ("capital of France?", [], "en"),
    )
    turns = dialogue.turns(history, index)
    assert [t.entry_ids for t in turns] == [("dropout",), ("batch", "epoch"), ()]
    assert turns[1].question == "<b>batch</b> vs epoch"  # unescaped back to what was typed
    assert [t.position for t in turns] == [0, 3, 6]


def test_aspect_follow_up_refers_to_the_last_answer_with_citations(glossary, index):
    history = _history(glossary, ("What is dropout?", ["dropout"], "en"), ("capital of France?", [], "en"))
    follow = dialogue.resolve("iska example do", history, index)
    assert follow is not None
    assert (follow.aspect, follow.lang, follow.turn.entry_ids) == ("example", None, ("dropout",))


def test_language_switch_refers_to_the_last_real_question(glossary, index):
    history = _history(
        glossary,
        ("What is dropout?", ["dropout"], "en"),
        ("in Hindi please", ["dropout"], "hi"),
    )
    follow = dialogue.resolve("in English", history, index)
    assert follow is not None
    assert (follow.aspect, follow.lang) == (None, "en")
    assert follow.turn.question == "What is dropout?" and follow.turn.position == 0


def test_follow_up_without_history_has_no_turn(index):
    follow = dialogue.resolve("give me an example", [], index)
    assert follow is not None and follow.turn is None


def test_new_question_is_not_resolved(glossary, index):
    history = _history(glossary, ("What is dropout?", ["dropout"], "en"))
    assert dialogue.resolve("give me an example of batch size", history, index) is None


def test_citations_in_sources_blocks_are_ignored(glossary, index):
    history = [
        {"role": "user", "content": "x"},
        {"role": "assistant", "content": "nothing cited"},
        {
            "role": "assistant",
            "content": entry_card(glossary.get("epoch"), "en", glossary),
            "metadata": {"title": "S"},
        },
    ]
    assert dialogue.turns(history, index)[0].entry_ids == ()


def _answers(history: list[dict], change) -> list[dict]:
    """The history with ``change`` applied to each answer message (not to the Sources blocks)."""
    return [change(m) if dialogue.is_answer(m) else m for m in history]


def test_recorded_entry_ids_survive_a_reworded_citation(glossary, index):
    history = _history(glossary, ("What is dropout?", ["dropout"], "en"))
    reworded = _answers(history, lambda m: {**m, "content": m["content"].replace("?line=", "?row=")})
    assert dialogue.resolve("give me an example", reworded, index).turn is None  # the text no longer says
    recorded = _answers(reworded, lambda m: {**m, "metadata": {dialogue.CITED_KEY: ["dropout"]}})
    follow = dialogue.resolve("give me an example", recorded, index)
    assert follow.turn is not None and follow.turn.entry_ids == ("dropout",)


def test_recorded_entry_ids_come_before_the_text_and_unknown_ones_are_skipped(glossary, index):
    history = _history(glossary, ("What is dropout?", ["dropout"], "en"))
    recorded = _answers(history, lambda m: {**m, "metadata": {dialogue.CITED_KEY: ["ghost", "batch"]}})
    assert dialogue.turns(recorded, index)[0].entry_ids == ("batch",)


def test_citation_index_knows_the_glossary_ids(glossary, index):
    assert index.ids == {e.id for e in glossary.entries}
    assert set(index.values()) == index.ids


def test_turn_at_finds_the_question_of_a_message(glossary, index):
    history = _history(glossary, ("What is dropout?", ["dropout"], "en"), ("batch", ["batch"], "en"))
    assert dialogue.turn_at(history, 1, index).question == "What is dropout?"
    assert dialogue.turn_at(history, 5, index).entry_ids == ("batch",)
    assert dialogue.turn_at([], 0, index) is None


@pytest.mark.parametrize(
    ("question", "entry_id"),
    [("Mini-batch", "mini-batch"), ("What is LoRA?", "lora"), ("लोरा", "lora"), ("  epoch ", "epoch")],
)
def test_named_entry(glossary, question, entry_id):
    entry = named_entry(question, glossary)
    assert entry is not None and entry.id == entry_id


def test_named_entry_needs_a_unique_whole_name(glossary):
    assert named_entry("what is a mini-batch used for", glossary) is None
    shared = [
        name
        for name in ("gradient accumulation", "model parallelism")
        if sum(name in {a.casefold() for a in (e.term_en, *e.aliases)} for e in glossary.entries) > 1
    ]
    for name in shared:
        assert named_entry(name, glossary) is None
