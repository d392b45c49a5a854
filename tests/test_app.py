"""The Gradio app: message building, and the /ask and /chat API through gradio_client on 127.0.0.1."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

import app
from bot import cli

pytestmark = pytest.mark.model


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def client(bot, settings, tmp_path_factory) -> Iterator:
    from gradio_client import Client

    config = settings.model_copy(
        update={"port": _free_port(), "feedback_path": tmp_path_factory.mktemp("fb") / "feedback.jsonl"}
    )
    demo = app.serve(bot, config, prevent_thread_lock=True, quiet=True)
    yield Client(f"http://127.0.0.1:{config.port}/", verbose=False, analytics_enabled=False)
    demo.close()


def test_user_message_is_escaped_and_capped():
    message = app.user_message("<img src=x onerror=alert(1)> [x](javascript:1)" + "y" * 100, 60)
    assert message["role"] == "user"
    assert "<" not in message["content"] and "](" not in message["content"].replace("\\]", "")
    assert len(message["content"]) < 80


def test_reply_is_the_answer_then_a_titled_sources_block(bot):
    answer = bot.answer("What is gradient clipping?")
    text, sources = app.reply_messages(answer, bot.glossary)
    assert text == {"role": "assistant", "content": answer.text}
    assert sources["metadata"] == {"title": "Sources", "status": "done"}
    assert "Gradient clipping" in sources["content"] and f"{answer.hits[0].score:.2f}" in sources["content"]


def test_hindi_answer_has_a_hindi_sources_title(bot):
    answer = bot.answer("ओवरफिटिंग क्या है?")
    assert app.reply_messages(answer, bot.glossary)[1]["metadata"]["title"] == "स्रोत · Sources"


def test_related_labels_are_in_the_answer_language(bot):
    english = app.related_labels(bot.answer("What is dropout?"), bot.glossary)
    hindi = app.related_labels(bot.answer("ड्रॉपआउट क्या है?"), bot.glossary)
    assert 2 <= len(english) <= app.N_RELATED and len(hindi) == len(english)
    assert all(label.isascii() for label in english)
    assert any(not label.isascii() for label in hindi)


def test_ask_api_returns_the_cli_answer(client, bot, monkeypatch):
    question = "dropout kya hai?"
    via_api = client.predict(question, api_name="/ask")
    monkeypatch.setattr(cli, "_bot", lambda: bot)
    monkeypatch.setitem(cli._state, "settings", bot.settings)
    result = CliRunner().invoke(cli.app, ["ask", question])
    assert result.exit_code == 0
    assert via_api == bot.answer(question).text == result.output.rstrip("\n")


def test_chat_api_keeps_history_and_follows_up(client, bot):
    box, history = client.predict("What is gradient clipping?", [], api_name="/chat")
    assert box == ""
    assert [m["role"] for m in history] == ["user", "assistant", "assistant"]
    _, history = client.predict("give me an example", history, api_name="/chat")
    example = bot.glossary.get("gradient-clipping").example_en
    assert example in str(history[-2]["content"])


def test_only_ask_and_chat_are_public(client):
    endpoints = client.view_api(print_info=False, return_format="dict")["named_endpoints"]
    assert set(endpoints) == {"/ask", "/chat"}


@pytest.mark.parametrize("question", ["", "\x00", "<script>alert(1)</script>", "क" * 5000])
def test_bad_input_through_the_api_gets_text_not_a_traceback(client, question):
    reply = client.predict(question, api_name="/ask")
    assert isinstance(reply, str) and reply and "Traceback" not in reply
