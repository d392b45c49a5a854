"""Answer rendering (cards, comparisons, escaping) and GlossaryBot.answer with follow-ups."""

from __future__ import annotations

import html

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from bot.markdown import cited_sources, escape_md, unescape_md
from bot.reply.answer import Answer, confidence_label
from bot.reply.cards import MAX_RELATED, detail_card, entry_card, fields, quick_card
from bot.reply.comparison import compare, comparison_card
from bot.reply.decline import decline
from bot.reply.follow_up import aspect_card
from bot.reply.titles import document_title
from bot.search.names import named_entry
from bot.search.retrieval import Hit
from bot.understand.dialogue import CitationIndex
from glossary import load_glossary
from index.sentences import first_sentence
from tests.markdown import render


@pytest.fixture(scope="module")
def glossary():
    return load_glossary()


def _chat(bot, glossary, *questions: str) -> tuple[list[dict], Answer]:
    """Ask questions in turn, keeping the history the app would keep; return it and the last answer."""
    from ui.chat import reply_messages, user_message

    history: list[dict] = []
    reply = None
    for q in questions:
        reply = bot.answer(q, history)
        history += [user_message(q, 2000), *reply_messages(reply, glossary)]
    return history, reply


# --- escaping -----------------------------------------------------------------------------------

#: Glossary text a user file could hold that markdown (or Gradio's KaTeX) would turn into markup.
HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "![i](http://e/x.png)",
    "see https://evil.example/login now",
    "www.evil.example",
    "mail evil@evil.example",
    "<https://evil.example>",
    "intro\n\n---\n\nafter",
    "    indented code",
    "Title\n======",
    "$$x^2$$",
    "1. first\n2. second",
    "- item",
    "> quote",
    "| a | b |\n|---|---|",
    "&lt;b&gt; &amp;",
]
_MARKUP = regex.compile(r"<(?!/?p>)")  # any tag but the paragraph around the text
_AUTOLINKABLE = regex.compile(r"(?i)(?<!\\)(?:[a-z]://|\bwww\.|\w@\w)")


def _renders_as_itself(text: str) -> None:
    escaped = escape_md(text)
    rendered = render(escaped)
    assert not _MARKUP.search(rendered), rendered
    plain = html.unescape(rendered.removeprefix("<p>").removesuffix("</p>\n"))
    assert plain == " ".join(text.split())
    # GFM's autolinks (not in CommonMark): the scheme, "www." or "@" must be escaped.
    assert not _AUTOLINKABLE.search(escaped)


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_glossary_text_renders_as_the_text_it_is(text):
    _renders_as_itself(text)


@given(st.text(alphabet=st.sampled_from(list("ab1 .:/@w-=+*_`#<>&$|~[]()!\\\n\t")), max_size=40))
def test_any_text_renders_as_itself(text):
    _renders_as_itself(text)


@given(st.text())
def test_escape_round_trips_up_to_whitespace(text):
    assert unescape_md(escape_md(text)) == " ".join(text.split())


def test_glossary_text_is_escaped_in_cards(glossary):
    entry = glossary.get("dropout").model_copy(update={"definition_en": "<b>bold</b> https://evil.example"})
    card = entry_card(entry, "en", glossary)
    assert "<b" not in render(card).replace("<blockquote", "") and "evil.example</a>" not in render(card)


# --- cards --------------------------------------------------------------------------------------


def test_english_card_leads_with_the_first_sentence_and_keeps_hindi_for_details(glossary):
    entry = glossary.get("gradient-clipping")
    quick = quick_card(entry, "en", glossary)
    details = detail_card(entry, "en")
    assert quick.startswith(f"### {entry.term_en} · {entry.term_hi}")
    assert f"**{escape_md(first_sentence(entry.definition_en)[0])}**" in quick
    assert entry.definition_hi not in quick and entry.usage_en not in quick
    for text in (entry.usage_en, entry.example_en, entry.definition_hi, entry.usage_hi, entry.example_hi):
        assert escape_md(text) in details
    title = document_title(glossary, entry.source.document, "en")
    assert f"[{title}, line {entry.source.line}](source/" in quick
    assert "<" not in quick + details  # no HTML: copied into tickets as it is


@pytest.mark.parametrize("lang", ["hi", "hinglish", "mixed"])
def test_hindi_card_puts_hindi_first_and_english_in_details(glossary, lang):
    entry = glossary.get("dropout")
    quick, details = quick_card(entry, lang, glossary), detail_card(entry, lang)
    assert quick.startswith(f"### {entry.term_hi} · {entry.term_en}")
    assert escape_md(entry.definition_en) in details and entry.definition_en not in quick
    assert f"पंक्ति {entry.source.line}" in quick


def test_card_shows_caution_notes_in_both_languages(glossary):
    entry = glossary.get("learning-rate")
    card = entry_card(entry, "en", glossary)
    assert f"**Caution:** {escape_md(entry.notes_en[0])}" in card
    assert f"**सावधानी:** {escape_md(entry.notes_hi[0])}" in card


def test_card_without_usage_or_example_skips_them(glossary):
    card = entry_card(glossary.get("lora"), "en", glossary)
    assert "Usage" not in card and "Example" not in card


def test_citation_is_read_back_to_the_entry(glossary):
    index = CitationIndex(glossary.entries)
    for entry in glossary.entries:
        for lang in ("en", "hi"):
            assert [index[c] for c in cited_sources(quick_card(entry, lang, glossary))] == [entry.id]


def test_aspect_card_without_an_example_says_so(glossary):
    text = aspect_card(glossary.get("lora"), "example", "en", glossary)
    assert "gives no example" in text
    assert escape_md(first_sentence(glossary.get("lora").definition_en)[0]) in text


@pytest.mark.parametrize(
    ("confidence", "label"),
    [(0.99, "likely"), (0.5, "likely"), (0.1, "closest")],
)
def test_a_confidence_alone_never_makes_an_exact_match(confidence, label):
    assert confidence_label(confidence) == label


# --- comparisons --------------------------------------------------------------------------------


def test_comparison_table_rows_and_source_table(glossary):
    batch, epoch = glossary.get("batch"), glossary.get("epoch")
    hits = [
        Hit(entry=e, score=1.0, rank=i, similarity=0, lexical=0, name_match=1)
        for i, e in enumerate([batch, epoch])
    ]
    answer = compare(hits, 2, "en", glossary)
    english = answer.text
    assert english.startswith("### Batch vs Epoch")
    for row in ("Definition", "Usage", "Example", "Category", "Source"):
        assert f"| **{row}** |" in english
    assert (
        f"| **Definition** | {escape_md(batch.definition_en)} | {escape_md(epoch.definition_en)} |" in english
    )
    table = glossary.tables[0]
    assert escape_md(table.caption_hi) in answer.details
    assert all(escape_md(row[1]) in answer.details for row in table.rows)


def test_comparison_drops_rows_empty_on_every_side(glossary):
    sides = [glossary.get("lora"), glossary.get("peft")]
    card = comparison_card(sides, "en", glossary)
    empty = [k for k in ("usage", "example") if not any(fields(e, "hi")[k] for e in sides)]
    assert empty, "the test needs two entries without usage or example"
    assert all(f"**{k.title()}**" not in card for k in empty)


def test_comparison_outside_the_source_table_has_no_table(glossary):
    card = comparison_card([glossary.get("batch"), glossary.get("dropout")], "hi", glossary)
    assert glossary.tables[0].caption_hi not in card
    assert card.startswith("### बैच बनाम ड्रॉपआउट")


# --- the bot ------------------------------------------------------------------------------------


@pytest.mark.model
@pytest.mark.parametrize(
    ("question", "lang_first"),
    [
        ("batch vs epoch", "en"),
        ("batch aur epoch me kya farak hai", "hi"),
        ("बैच और युग में क्या अंतर है?", "hi"),
        # a choice asked "which is better": the asking is no part of the second name
        ("batch ya epoch kya better hai", "hi"),
        ("batch or epoch, which one is better?", "en"),
        ("बैच या युग कौन सा बेहतर है", "hi"),
    ],
)
def test_bot_compares_side_by_side(bot, question, lang_first):
    reply = bot.answer(question)
    assert sorted(reply.entry_ids) == ["batch", "epoch"]
    assert "| **Definition** |" in reply.text if lang_first == "en" else "| **परिभाषा** |" in reply.text
    assert "मिनी-बैच" in reply.full_text  # the training-units table from the source document


@pytest.mark.model
@pytest.mark.parametrize(
    ("question", "entry_id"),
    [
        ("FP16 और BF16 kya hai", "fp16-bf16"),  # one entry's name, "and" in it
        ("what is dropout and how does it work", "dropout"),  # a name and a question
        ("train aur validation dono accuracy kharab hai", "underfitting"),  # no names at all
    ],
)
def test_a_list_that_is_not_every_side_a_name_is_no_comparison(bot, question, entry_id):
    reply = bot.answer(question)
    assert reply.kind != "comparison" and reply.entry_ids[:1] == [entry_id]


@pytest.mark.model
def test_bot_offers_related_terms(bot):
    reply = bot.answer("What is gradient clipping?")
    entry = bot.glossary.get("gradient-clipping")
    assert 2 <= len(reply.related) <= MAX_RELATED
    assert reply.related[0] == entry.related[0]
    assert "gradient-clipping" not in reply.related


@pytest.mark.model
def test_bot_answers_an_exact_name_with_that_entry(bot):
    """What a related-term button sends: the term's name, answered with exactly that entry."""
    unique = [e for e in bot.glossary.entries if named_entry(e.term_en, bot.glossary) is not None]
    assert len(unique) >= len(bot.glossary) - 4  # a few names are shared by two documents' entries
    for entry in unique:
        assert bot.answer(entry.term_en).entry_ids[:1] == [entry.id]


@pytest.mark.model
def test_follow_up_example_in_hinglish(bot, glossary):
    _, reply = _chat(bot, glossary, "dropout kya hai?", "iska example do")
    dropout = glossary.get("dropout")
    assert reply.entry_ids == ["dropout"]
    assert reply.text.startswith(f"### उदाहरण: {dropout.term_hi}")
    assert dropout.example_hi in reply.text and dropout.definition_hi not in reply.text


@pytest.mark.model
def test_follow_up_usage_in_hindi(bot, glossary):
    _, reply = _chat(bot, glossary, "ओवरफिटिंग क्या है?", "और इसका उपयोग कब करें?")
    assert reply.entry_ids == ["overfitting"]
    assert glossary.get("overfitting").usage_hi in reply.text


@pytest.mark.model
def test_follow_up_language_switch_re_renders_the_previous_answer(bot, glossary):
    history, english = _chat(bot, glossary, "What is gradient clipping?")
    hindi = bot.answer("in Hindi please", history)
    assert hindi.entry_ids == english.entry_ids and hindi.lang == "hi"
    assert hindi.text.startswith(
        quick_card(glossary.get("gradient-clipping"), "hi", glossary).split("\n\n")[0]
    )
    _, back = _chat(bot, glossary, "What is gradient clipping?", "in Hindi please", "in English")
    assert back.text == english.text


@pytest.mark.model
def test_language_switch_after_a_comparison_keeps_both_sides(bot, glossary):
    _, reply = _chat(bot, glossary, "batch vs epoch", "in Hindi please")
    assert sorted(reply.entry_ids) == ["batch", "epoch"] and "| **परिभाषा** |" in reply.text


@pytest.mark.model
def test_tell_me_more_adds_faq_and_related(bot, glossary):
    _, reply = _chat(bot, glossary, "What is overfitting?", "tell me more")
    faq = next(f for f in glossary.faq if "overfitting" in f.related)
    assert faq.answer_en in reply.text
    assert "See also:" in reply.text


@pytest.mark.model
def test_a_follow_up_with_its_own_topic_is_a_new_question(bot, glossary):
    _, reply = _chat(bot, glossary, "What is gradient clipping?", "give me an example of dropout")
    assert reply.entry_ids == ["dropout"]


@pytest.mark.model
def test_follow_up_without_context_asks_which_term(bot):
    reply = bot.answer("give me an example", [])
    assert reply.abstained and "Which term" in reply.text


@pytest.mark.model
@pytest.mark.parametrize("question", ["", "   ", "\x00\x01", "?!", "<script>", "a" * 10_000])
def test_bad_input_gets_an_answer_not_an_error(bot, question):
    reply = bot.answer(question)
    assert reply.text
    assert "<script" not in reply.text


@pytest.mark.model
def test_decline_lists_nearest_terms(bot):
    hits = bot.search("dropout", 2)
    text = decline(hits, "hi").text
    assert text.startswith("यह शब्दावली इस प्रश्न को कवर नहीं करती।")
    assert hits[0].entry.term_hi in text
