"""The Gradio app (ui/): message building, the /ask and /chat API through gradio_client, and the plain
POST /api/answer route, on 127.0.0.1."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import anyio
import gradio as gr
import httpx
import pytest
import regex
from typer.testing import CliRunner

from bot import cli
from bot import markdown as answer_module
from bot.records import Store
from bot.records.writer import Recorder
from tests.conftest import serving
from tests.markdown import render
from ui import admission, callbacks, chat


@pytest.fixture(scope="module")
def client(bot, settings) -> Iterator:
    from gradio_client import Client

    with serving(bot, settings) as (url, _):
        yield Client(f"{url}/", verbose=False, analytics_enabled=False)


@pytest.fixture(scope="module")
def answer_url(client) -> str:
    return f"{client.src.rstrip('/')}/api/answer"


def test_user_message_is_escaped_and_capped():
    message = chat.user_message("<img src=x onerror=alert(1)> [x](javascript:1)" + "y" * 100, 60)
    assert message["role"] == "user"
    assert "<img" not in render(message["content"]) and "<a" not in render(message["content"])
    assert len(message["content"]) < 80


@pytest.mark.model
def test_reply_is_the_answer_then_a_titled_sources_block(bot):
    answer = bot.answer("What is gradient clipping?")
    text, details, sources = chat.reply_messages(answer, bot.glossary)
    assert text == {"role": "assistant", "content": answer.text}
    assert details["metadata"]["title"].startswith("Details") and details["content"] == answer.details
    assert sources["metadata"] == {"title": "Sources", "status": "done"}
    # The calibrated confidence, not the raw fused score.
    assert (
        "Gradient clipping" in sources["content"]
        and f"{round(answer.confidence * 100)} %" in sources["content"]
    )
    assert f"{answer.hits[0].score:.2f}" not in sources["content"]


@pytest.mark.model
def test_hindi_answer_has_a_hindi_sources_title(bot):
    answer = bot.answer("ओवरफिटिंग क्या है?")
    assert chat.reply_messages(answer, bot.glossary)[-1]["metadata"]["title"] == "स्रोत"


@pytest.mark.model
def test_related_labels_are_in_the_answer_language(bot):
    english = chat.related_labels(bot.answer("What is dropout?"), bot.glossary)
    hindi = chat.related_labels(bot.answer("ड्रॉपआउट क्या है?"), bot.glossary)
    assert 2 <= len(english) <= chat.N_RELATED and len(hindi) == len(english)
    assert all(label.isascii() for label in english)
    assert any(not label.isascii() for label in hindi)


@pytest.mark.model
def test_ask_api_returns_the_cli_answer(client, bot, monkeypatch):
    question = "dropout kya hai?"
    via_api = client.predict(question, api_name="/ask")
    monkeypatch.setattr(cli, "_bot", lambda: bot)
    monkeypatch.setitem(cli._state, "settings", bot.settings)
    result = CliRunner().invoke(cli.app, ["ask", question])
    answer = bot.answer(question)
    assert result.exit_code == 0 and via_api == answer.text
    # Readable terminal text: the definition and the source title, no markdown or HTML markup.
    assert answer.hits[0].entry.definition_hi in " ".join(result.output.split())
    assert bot.glossary.title(answer.hits[0].entry.source.document) in result.output
    assert not any(mark in result.output for mark in ("**", "<details", "](source/", "###"))


@pytest.mark.model
def test_chat_api_keeps_history_and_follows_up(client, bot):
    box, history = client.predict("What is gradient clipping?", [], api_name="/chat")
    assert box == ""
    assert [m["role"] for m in history] == ["user", "assistant", "assistant", "assistant"]
    _, history = client.predict("give me an example", history, api_name="/chat")
    example = bot.glossary.get("gradient-clipping").example_en
    assert example in str(history[-2]["content"])


@pytest.mark.model
def test_chat_follows_up_from_the_recorded_entries_whatever_the_citation_says(client, bot, monkeypatch):
    """The session records what each answer cites: a reworded citation line, which the history's
    reader no longer recognises, does not lose the term (through Gradio's round trip of the chat)."""
    monkeypatch.setattr(answer_module, "_CITATION", regex.compile("never matches"))
    _, history = client.predict("What is gradient clipping?", [], api_name="/chat")
    assert bot.answer("give me an example", history).abstained  # the text alone no longer names it
    _, history = client.predict("give me an example", history, api_name="/chat")
    assert bot.glossary.get("gradient-clipping").example_en in str(history[-2]["content"])


@pytest.mark.model
def test_respond_records_the_cited_entries(bot, settings, tmp_path):
    store = Store.open(f"sqlite:///{tmp_path}/r.sqlite3")
    recorder = Recorder.over(store)
    app = callbacks.Callbacks(bot, settings, recorder)
    session = gr.Request(session_hash="s")
    _, history, labels, cited = app.respond("What is dropout?", [], [], {}, session)
    assert cited == {history[1]["content"]: ["dropout"]}
    _, history, _, cited = app.respond("give me an example", history, labels, cited, session)
    assert list(cited.values()) == [["dropout"], ["dropout"]] and "Example" in history[-2]["content"]
    assert recorder.flush(10)  # answers are written off the request path
    rows = store.answers_between(None, None)
    assert [(r["question"], r["kind"], r["entry_ids"], r["channel"]) for r in rows] == [
        ("What is dropout?", "answer", ["dropout"], "chat"),
        ("give me an example", "follow-up", ["dropout"], "chat"),
    ]
    assert rows[0]["glossary_version"] == bot.glossary.content_hash
    assert app.answered.lookup("s", history[1]["content"]) == rows[0]["id"]


@pytest.mark.model
def test_interface_language_answers_a_bare_term_name(bot, settings, tmp_path):
    """A bare "dropout" is answered in the interface language; a question with words of its own
    language keeps that language whatever the interface's."""
    store = Store.open(f"sqlite:///{tmp_path}/r.sqlite3")
    respond = callbacks.Callbacks(bot, settings, Recorder.over(store)).respond
    session = gr.Request(session_hash="s")
    dropout = bot.glossary.get("dropout")
    names = {"hi": dropout.term_hi, "en": dropout.term_en}
    for ui_lang in ("hi", "en"):
        _, history, _, _ = respond("dropout", [], [], {}, session, ui_lang)
        assert history[1]["content"].startswith(f"### {names[ui_lang]} ·"), history[1]["content"][:80]
    _, history, _, _ = respond("what is dropout?", [], [], {}, session, "hi")
    assert history[1]["content"].startswith(f"### {names['en']} ·")


@pytest.mark.model
def test_only_ask_and_chat_are_public(client):
    endpoints = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    assert set(endpoints) == {"/ask", "/chat"}


@pytest.mark.model
@pytest.mark.parametrize("question", ["", "\x00", "<script>alert(1)</script>", "क" * 5000])
def test_bad_input_through_the_api_gets_text_not_a_traceback(client, question):
    reply = client.predict(question, api_name="/ask")
    assert isinstance(reply, str) and reply and "Traceback" not in reply


@pytest.mark.model
@pytest.mark.parametrize("question", ["dropout kya hai?", "ओवरफिटिंग क्या है?", "batch vs epoch"])
def test_answer_route_returns_the_answer_with_its_citations(answer_url, bot, question):
    reply = httpx.post(answer_url, json={"question": question}, timeout=60)
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/json"
    expected = bot.answer(question)
    assert reply.json() == {
        "text": expected.text,
        "details": expected.details,
        "lang": expected.lang,
        "abstained": False,
        "citations": [c.model_dump() for c in expected.citations],
        "related": expected.related,
        "notice": None,
        "confidence": expected.confidence,
        "label": expected.label,
    }
    assert 0 <= reply.json()["confidence"] <= 1


@pytest.mark.model
def test_answer_route_answers_in_the_language_asked_for(answer_url, bot):
    reply = httpx.post(answer_url, json={"question": "What is dropout?", "lang": "hi"}, timeout=60).json()
    assert reply["text"] == bot.answer("What is dropout?", lang="hi").text
    assert reply["lang"] == "hi" and "श्रेणी" in reply["text"]


@pytest.mark.model
def test_answer_route_declines_what_the_glossary_does_not_cover(answer_url):
    reply = httpx.post(answer_url, json={"question": "what is the capital of France?"}, timeout=60).json()
    assert reply["abstained"] is True and reply["citations"] == []


@pytest.mark.model
@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({}, "question"),
        ({"question": 42}, "valid string"),
        ({"question": "dropout", "lang": "fr"}, "lang"),
        ("not json", "valid dictionary"),
    ],
)
def test_answer_route_names_what_is_wrong_with_a_bad_request(answer_url, body, problem):
    reply = httpx.post(answer_url, json=body, timeout=60)
    assert reply.status_code == 422
    assert problem in reply.text and "Traceback" not in reply.text


@pytest.mark.model
@pytest.mark.parametrize("question", ["", "\x00", "<script>alert(1)</script>", "क" * 5000])
def test_odd_questions_through_the_answer_route_get_an_answer(answer_url, question):
    reply = httpx.post(answer_url, json={"question": question}, timeout=60)
    assert reply.status_code == 200 and reply.json()["text"]


def test_gate_turns_callers_away_beyond_its_capacity():
    """One worker, one waiting place: the third caller is refused at once, and its work never runs."""
    release = threading.Event()
    ran: list[str] = []
    results: list[str] = []

    def work(name: str) -> str:
        ran.append(name)
        if name == "first":
            release.wait(5)
        return name

    async def scenario() -> None:
        gate = admission.Gate(workers=1, capacity=1)

        async def call(name: str) -> None:
            try:
                results.append(await gate.run(lambda: work(name)))
            except admission.Busy:
                results.append(f"{name}: busy")

        async with anyio.create_task_group() as group:
            group.start_soon(call, "first")
            group.start_soon(call, "second")
            with anyio.fail_after(5):
                while gate.admitted < 2:
                    await anyio.sleep(0.01)
            await call("third")
            assert results == ["third: busy"] and "third" not in ran
            release.set()
        await call("fourth")
        assert gate.admitted == 0

    anyio.run(scenario)
    assert results == ["third: busy", "first", "second", "fourth"]
