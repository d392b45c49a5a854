"""The Gradio app (ui/): message building, the /ask and /chat API through gradio_client, and the plain
POST /api/answer route, on 127.0.0.1."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import anyio
import httpx
import pytest
from typer.testing import CliRunner

from bot import cli
from bot.messages import MESSAGES
from tests.conftest import serving
from ui import admission, callbacks


@pytest.fixture(scope="module")
def client(bot, settings, tmp_path_factory) -> Iterator:
    from gradio_client import Client

    with serving(bot, settings, feedback_path=tmp_path_factory.mktemp("fb") / "feedback.jsonl") as (url, _):
        yield Client(f"{url}/", verbose=False, analytics_enabled=False)


@pytest.fixture(scope="module")
def answer_url(client) -> str:
    return f"{client.src.rstrip('/')}/api/answer"


def test_user_message_is_escaped_and_capped():
    message = callbacks.user_message("<img src=x onerror=alert(1)> [x](javascript:1)" + "y" * 100, 60)
    assert message["role"] == "user"
    assert "<" not in message["content"] and "](" not in message["content"].replace("\\]", "")
    assert len(message["content"]) < 80


@pytest.mark.model
def test_reply_is_the_answer_then_a_titled_sources_block(bot):
    answer = bot.answer("What is gradient clipping?")
    text, sources = callbacks.reply_messages(answer, bot.glossary)
    assert text == {"role": "assistant", "content": answer.text}
    assert sources["metadata"] == {"title": "Sources", "status": "done"}
    assert "Gradient clipping" in sources["content"] and f"{answer.hits[0].score:.2f}" in sources["content"]


@pytest.mark.model
def test_hindi_answer_has_a_hindi_sources_title(bot):
    answer = bot.answer("ओवरफिटिंग क्या है?")
    assert callbacks.reply_messages(answer, bot.glossary)[1]["metadata"]["title"] == "स्रोत · Sources"


@pytest.mark.model
def test_related_labels_are_in_the_answer_language(bot):
    english = callbacks.related_labels(bot.answer("What is dropout?"), bot.glossary)
    hindi = callbacks.related_labels(bot.answer("ड्रॉपआउट क्या है?"), bot.glossary)
    assert 2 <= len(english) <= callbacks.N_RELATED and len(hindi) == len(english)
    assert all(label.isascii() for label in english)
    assert any(not label.isascii() for label in hindi)


@pytest.mark.model
def test_ask_api_returns_the_cli_answer(client, bot, monkeypatch):
    question = "dropout kya hai?"
    via_api = client.predict(question, api_name="/ask")
    monkeypatch.setattr(cli, "_bot", lambda: bot)
    monkeypatch.setitem(cli._state, "settings", bot.settings)
    result = CliRunner().invoke(cli.app, ["ask", question])
    assert result.exit_code == 0
    assert via_api == bot.answer(question).text == result.output.rstrip("\n")


@pytest.mark.model
def test_chat_api_keeps_history_and_follows_up(client, bot):
    box, history = client.predict("What is gradient clipping?", [], api_name="/chat")
    assert box == ""
    assert [m["role"] for m in history] == ["user", "assistant", "assistant"]
    _, history = client.predict("give me an example", history, api_name="/chat")
    example = bot.glossary.get("gradient-clipping").example_en
    assert example in str(history[-2]["content"])


@pytest.mark.model
def test_chat_follows_up_from_the_recorded_entries_whatever_the_citation_says(client, bot, monkeypatch):
    """The session records what each answer cites: a reworded citation line, which the history's
    reader no longer recognises, does not lose the term (through Gradio's round trip of the chat)."""
    monkeypatch.setitem(MESSAGES, "line", {"en": "row", "hi": "पंक्ति"})
    _, history = client.predict("What is gradient clipping?", [], api_name="/chat")
    assert ", row " in str(history[1]["content"])
    assert bot.answer("give me an example", history).abstained  # the text alone no longer names it
    _, history = client.predict("give me an example", history, api_name="/chat")
    assert bot.glossary.get("gradient-clipping").example_en in str(history[-2]["content"])


@pytest.mark.model
def test_respond_records_the_cited_entries(bot, settings):
    respond = callbacks.Callbacks(bot, settings).respond
    _, history, labels, cited = respond("What is dropout?", [], [], {})
    assert cited == {history[1]["content"]: ["dropout"]}
    _, history, _, cited = respond("give me an example", history, labels, cited)
    assert list(cited.values()) == [["dropout"], ["dropout"]] and "Example" in history[-2]["content"]


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
        "lang": expected.lang,
        "abstained": False,
        "citations": [c.model_dump() for c in expected.citations],
        "related": expected.related,
        "notice": None,
        "confidence": expected.confidence,
    }
    assert 0 <= reply.json()["confidence"] <= 1


@pytest.mark.model
def test_answer_route_answers_in_the_language_asked_for(answer_url, bot):
    reply = httpx.post(answer_url, json={"question": "What is dropout?", "lang": "hi"}, timeout=60).json()
    assert reply["text"] == bot.answer("What is dropout?", lang="hi").text
    assert reply["lang"] == "hi" and "परिभाषा" in reply["text"]


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
