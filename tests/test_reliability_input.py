"""Bad questions through every door: bot.answer / bot.search, the Gradio API on 127.0.0.1, the CLI.

Each gets a sensible answer or a clear message and never a traceback; the CLI exits with its
documented codes (bot/exitcodes.py).
"""

from __future__ import annotations

import json
import threading
import unicodedata
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor

import httpx
import pytest
from gradio_client import Client
from gradio_client.exceptions import AppError
from typer.testing import CliRunner

import app
from bot import cli
from bot.core import GlossaryBot
from bot.exitcodes import ExitCode
from bot.inputs import scrub
from bot.records import AnswerRecord, Store
from bot.records.writer import Recorder
from tests.conftest import eventually, free_port, serving
from ui import chat
from ui.admission import Lanes
from ui.callbacks import _answer_lang
from ui.layout import build_app

EMPTY = "Please type a question"
TRUNCATED = "The question was longer than"
GATE_TIMEOUT_S = 60.0  # an answer held back longer than this means the test itself is stuck

#: id -> (question, entry the answer must cite or None, notice it must carry or None)
BAD = {
    "empty": ("", None, EMPTY),
    "spaces": ("   \t  \n ", None, EMPTY),
    "punctuation": ("?!?... ,;: -- ()", None, EMPTY),
    "emoji": ("🤖🔥🎉👍🏽", None, EMPTY),
    "only-nul": ("\x00" * 20, None, EMPTY),
    "lone-surrogate": ("\ud800", None, EMPTY),
    "controls-and-nul": ("dropout\x00\x01\x1b[31m kya hai\x7f", "dropout", None),
    "surrogate-in-word": ("what is dropout\udcff", "dropout", None),
    "right-to-left-override": ("\u202ewhat is dropout\u202c", "dropout", None),
    "zero-width-inside-word": ("what is drop\u200bout", "dropout", None),
    "bom-and-soft-hyphen": ("\ufeffgradient clip\u00adping kya hai", "gradient-clipping", None),
    "zero-width-joiner-in-hindi": ("ओवरफिटिंग\u200d क्या है", "overfitting", None),
    "mixed-scripts": ("ड्रॉपआउट dropout क्या है", "dropout", None),
    "arabic-and-latin": ("ما هو dropout?", "dropout", None),
    "cyrillic-and-latin": ("Что такое dropout?", "dropout", None),
    "100k-characters": ("what is dropout " * 6250, "dropout", TRUNCATED),
}
#: Those a JSON client can send as real text (lone surrogates need JSON escapes: see the raw test).
SENDABLE = {k: v for k, v in BAD.items() if scrub(v[0]) == v[0]}


def _check(answer, entry_id: str | None, notice: str | None) -> None:
    assert answer.text and "Traceback" not in answer.text
    if entry_id is None:
        assert answer.abstained and not answer.citations
    else:
        assert answer.entry_ids[:1] == [entry_id]
    if notice is None:
        assert answer.notice is None
    else:
        assert answer.notice and answer.notice.startswith(notice) and answer.text.startswith("> ")


# --- bot.answer and bot.search --------------------------------------------------------------------


@pytest.mark.model
@pytest.mark.parametrize(("question", "entry_id", "notice"), BAD.values(), ids=BAD.keys())
def test_answer_handles_bad_questions(bot, question, entry_id, notice):
    _check(bot.answer(question), entry_id, notice)


@pytest.mark.model
@pytest.mark.parametrize(("question", "entry_id", "notice"), BAD.values(), ids=BAD.keys())
def test_search_handles_bad_questions(bot, question, entry_id, notice):
    hits = bot.search(question, k=3)
    if notice == EMPTY:
        assert hits == []
    else:
        assert [h.rank for h in hits] == [1, 2, 3]
        assert hits[0].entry.id == entry_id


@pytest.mark.model
def test_a_huge_question_is_read_only_up_to_its_cap(bot, monkeypatch):
    """Only max_question_chars x 4 characters are ever read, so a 5 MB question is cheap and says so."""
    huge = "what is dropout " * 330_000
    category = unicodedata.category
    read: list[str] = []  # every character the cleaning step looks at

    def counting(ch: str) -> str:
        read.append(ch)
        return category(ch)

    monkeypatch.setattr(unicodedata, "category", counting)
    answer = bot.answer(huge)
    assert 0 < len(read) <= bot.settings.max_question_chars * 4 < len(huge)
    assert answer.notice and answer.notice.startswith(TRUNCATED) and answer.entry_ids == ["dropout"]


@pytest.mark.model
def test_an_invisible_character_does_not_hide_a_follow_up(bot):
    history: list[dict] = []
    for question in ("What is gradient clipping?", "give me an exam\u200bple"):
        answer = bot.answer(question, history)
        history += [chat.user_message(question, 2000), *chat.reply_messages(answer, bot.glossary)]
    assert answer.text.startswith("### Example: Gradient clipping")


@pytest.mark.model
def test_a_pasted_definition_finds_its_entry(bot):
    """Every sixth entry (both languages): its whole definition, pasted as the question, answers with it."""
    for entry in bot.glossary.entries[::6]:
        for definition in (entry.definition_en, entry.definition_hi):
            assert bot.answer(definition).entry_ids == [entry.id], (entry.id, definition)


# --- the Gradio API on 127.0.0.1 ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(bot, settings) -> Iterator[str]:
    with serving(bot, settings) as (url, _):
        yield url


@pytest.fixture(scope="module")
def client(served) -> Client:
    return Client(served + "/", verbose=False, analytics_enabled=False)


def _raw_call(url: str, api: str, body: str) -> tuple[str, object]:
    """POST a raw JSON body to a named endpoint; returns the final SSE event and its data."""
    headers = {"content-type": "application/json"}
    joined = httpx.post(f"{url}/gradio_api/call/{api}", content=body, headers=headers)
    joined.raise_for_status()
    result = httpx.get(f"{url}/gradio_api/call/{api}/{joined.json()['event_id']}", timeout=60).text
    event = [line for line in result.splitlines() if line.startswith("event:")][-1].split(":", 1)[1].strip()
    data = [line for line in result.splitlines() if line.startswith("data:")][-1].split(":", 1)[1]
    return event, json.loads(data)


@pytest.mark.model
@pytest.mark.parametrize(("question", "entry_id", "notice"), SENDABLE.values(), ids=SENDABLE.keys())
def test_ask_api_answers_bad_questions(client, bot, question, entry_id, notice):
    assert client.predict(question, api_name="/ask") == bot.answer(question).text


@pytest.mark.model
@pytest.mark.parametrize(("question", "entry_id", "notice"), SENDABLE.values(), ids=SENDABLE.keys())
def test_chat_api_answers_bad_questions(client, bot, question, entry_id, notice):
    box, history = client.predict(question, [], api_name="/chat")
    assert box == ""
    if not question.strip():
        assert history == []  # an empty message is ignored, as in the chat box
        return
    assert [m["role"] for m in history][:2] == ["user", "assistant"]
    shown = history[0]["content"][0]["text"]
    assert len(shown) <= 2 * bot.settings.max_question_chars  # echoed capped (and escaped)
    # the chat's own endpoint answers a Hinglish question in the interface's language (English here)
    assert history[1]["content"][0]["text"] == bot.answer(question, lang=_answer_lang(question, "en")).text


@pytest.mark.model
@pytest.mark.parametrize(
    ("api", "data", "expected"),
    [
        ("ask", ["\\ud800"], EMPTY),
        ("ask", ["what is dropout \\udfff"], "### Dropout"),
        ("ask", [None], EMPTY),
        ("ask", [12345], "does not cover"),
        ("chat", ["\\ud800 dropout kya hai", [], None, None, None], "### Dropout"),  # English interface
    ],
    ids=["ask-surrogate", "ask-surrogate-in-word", "ask-null", "ask-number", "chat-surrogate"],
)
def test_raw_json_the_client_library_cannot_send(served, api, data, expected):
    """Lone surrogates as JSON escapes, null and numbers: answered, and the echo is valid Unicode."""
    items = [f'"{d}"' if isinstance(d, str) else json.dumps(d) for d in data]  # strings keep their escapes
    body = '{"data": [' + ", ".join(items) + "]}"
    event, result = _raw_call(served, api, body)
    assert event == "complete", result
    text = json.dumps(result, ensure_ascii=False)
    text.encode("utf-8")  # no lone surrogate survives into the reply
    assert expected in text and "Traceback" not in text


def test_a_vote_on_a_question_with_a_lone_surrogate_is_recorded(tmp_path):
    store = Store.open(f"sqlite:///{tmp_path}/r.sqlite3")
    asked = AnswerRecord("what is dropout\ud800", "en", "answer", ("dropout",), 0.9, "v1", "chat")
    store.record_vote(store.record_answer(asked), "like", "ok\udfff")
    (row,) = store.answers_between(None, None)
    assert (row["question"], row["comment"]) == ("what is dropout\ufffd", "ok\ufffd")


@pytest.mark.model
def test_malformed_history_is_refused_without_a_traceback(client):
    with pytest.raises(AppError) as caught:
        client.predict("give me an example", [{"role": "user"}], api_name="/chat")
    assert "Traceback" not in str(caught.value) and "File " not in str(caught.value)


@pytest.mark.model
def test_full_queue_turns_callers_away_and_keeps_serving(bot, settings):
    """queue_max_size and concurrency_limit bound the work: the excess is told the queue is full.

    Answers wait on a gate until every caller has been admitted or turned away, so none
    finishes mid-wave and frees a place (a fixed sleep did, on a loaded machine).
    """
    slow = bot.pinned()
    gate = threading.Event()

    def slow_answer(*args, **kwargs):
        gate.wait(GATE_TIMEOUT_S)
        return GlossaryBot.answer(slow, *args, **kwargs)

    slow.answer = slow_answer  # type: ignore[method-assign]
    with serving(slow, settings, queue_max_size=2, concurrency_limit=1, api_concurrency_limit=1) as (url, _):
        body = {"data": ["what is dropout"], "fn_index": _fn_index(url, "ask"), "session_hash": "x"}

        def join(n: int) -> int:
            joined = httpx.post(f"{url}/gradio_api/queue/join", json={**body, "session_hash": f"s{n}"})
            return joined.status_code

        with ThreadPoolExecutor(12) as pool:
            codes = list(pool.map(join, range(12)))
        gate.set()
        # Gradio runs up to chat_slots answering events at once (short and long lanes) and its queue
        # holds queue_max_size more; the place an event leaves when it starts can be taken before the
        # wave ends, more than once on a loaded machine (8, then 9 of 12 admitted seen in CI). The
        # bound still fails for a queue that admits every caller.
        admitted = Lanes.for_settings(1, 1, 2).chat_slots + 3 * 2
        assert admitted < len(codes)
        assert codes.count(200) >= 1 and codes.count(200) <= admitted
        assert codes.count(503) == len(codes) - codes.count(200)
        _wait_until_the_queue_is_empty(url)
        assert Client(url + "/", verbose=False, analytics_enabled=False).predict("dropout", api_name="/ask")

        def ask(_: int) -> httpx.Response:
            return httpx.post(f"{url}/api/answer", json={"question": "what is dropout"}, timeout=60)

        gate.clear()
        with ThreadPoolExecutor(12) as pool:
            pending = [pool.submit(ask, n) for n in range(12)]
            _wait_until_done(pending, count=8)
            gate.set()
            replies = [f.result() for f in pending]
        busy = [r for r in replies if r.status_code == 503]
        assert len(busy) >= 8 and sum(r.status_code == 200 for r in replies) >= 1
        assert "try again" in busy[0].json()["detail"] and busy[0].headers["retry-after"] == "1"
        assert ask(0).json()["citations"][0]["entry_id"] == "dropout"


def _wait_until_done(futures: list[Future[httpx.Response]], count: int, timeout_s: float = 60.0) -> None:
    """Return once ``count`` of ``futures`` have finished (those are the callers turned away)."""
    done = eventually(lambda: sum(f.done() for f in futures), lambda n: n >= count, timeout_s)
    assert done >= count, f"fewer than {count} callers were answered within {timeout_s} s"


def _wait_until_the_queue_is_empty(url: str, timeout_s: float = 60.0) -> None:
    """Poll the app's queue until the callers it accepted have been served (fails after ``timeout_s``)."""
    size = eventually(
        lambda: httpx.get(f"{url}/gradio_api/queue/status").json()["queue_size"], lambda n: n == 0, timeout_s
    )
    assert size == 0, f"the queue did not drain within {timeout_s} s"


def _fn_index(url: str, api_name: str) -> int:
    config = httpx.get(f"{url}/config").json()
    return next(d["id"] for d in config["dependencies"] if d["api_name"] == api_name)


@pytest.mark.model
def test_question_box_length_comes_from_settings(bot, settings, tmp_path):
    config = settings.model_copy(update={"max_question_chars": 321})
    demo = build_app(bot, config, Recorder.over(Store.open(f"sqlite:///{tmp_path}/r.sqlite3")))
    box = next(c for c in demo.blocks.values() if getattr(c, "elem_id", None) == "question")
    assert box.max_length == 321


# --- the CLI (in process, with the session's bot) -----------------------------------------------------


@pytest.fixture()
def runner(bot, monkeypatch) -> CliRunner:
    monkeypatch.setattr(cli, "_bot", lambda **_: bot)
    return CliRunner()


@pytest.mark.model
@pytest.mark.parametrize(("question", "entry_id", "notice"), BAD.values(), ids=BAD.keys())
def test_cli_ask_and_search_handle_bad_questions(runner, bot, question, entry_id, notice):
    asked = runner.invoke(cli.app, ["ask", question])
    assert asked.exit_code == 0 and "Traceback" not in asked.output and asked.stdout.strip()
    as_json = runner.invoke(cli.app, ["ask", "--json", question])
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["text"] == bot.answer(scrub(question)).text
    searched = runner.invoke(cli.app, ["search", "--json", question])
    assert searched.exit_code == 0
    record = json.loads(searched.stdout)
    assert record["query"] == scrub(question)
    assert [r["id"] for r in record["results"]][:1] == ([entry_id] if entry_id else [])


@pytest.mark.model
def test_cli_stdin_with_undecodable_bytes(runner):
    lines = [b"dropout kya hai", b"\xff\xfe broken \xc3(", b"", b"\xe0\xa4 half a letter", b"x" * 100_000]
    result = runner.invoke(cli.app, ["search", "--json"], input=b"\n".join(lines) + b"\n")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == len(lines)
    assert records[0]["results"][0]["id"] == "dropout"
    assert "\ufffd" in records[1]["query"] and records[2]["results"] == []


def test_cli_internal_error_is_one_line_and_exit_1(monkeypatch):
    class Broken:
        def pinned(self):
            return self

        def answer(self, question, preferred=None):
            raise ZeroDivisionError("boom")

    monkeypatch.setattr(cli, "_bot", lambda **_: Broken())
    result = CliRunner().invoke(cli.app, ["ask", "dropout"])
    assert result.exit_code == ExitCode.INTERNAL
    assert result.stderr.strip() == "error: internal error: ZeroDivisionError: boom (run with -v for details)"
    assert "Traceback" not in result.output


def test_cli_usage_error_exits_2():
    result = CliRunner().invoke(cli.app, ["search", "--k", "0", "dropout"])
    assert result.exit_code == ExitCode.USAGE and "Traceback" not in result.output


# --- the app's own exit codes ----------------------------------------------------------------------


def test_app_with_an_invalid_setting_exits_2(monkeypatch, capsys):
    """One line naming each variable and its problem (before: pydantic's four lines per setting)."""
    monkeypatch.setenv("GLOSSARY_BOT_PORT", "not-a-port")
    monkeypatch.setenv("GLOSSARY_BOT_THREADS", "0")
    with pytest.raises(SystemExit) as caught:
        app.main()
    assert caught.value.code == ExitCode.USAGE
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("error: invalid setting: ")
    assert "GLOSSARY_BOT_PORT: Input should be a valid integer" in err
    assert "GLOSSARY_BOT_THREADS: Input should be greater than or equal to 1" in err


@pytest.mark.model
def test_app_on_a_taken_port_exits_5(bot, monkeypatch, capsys):
    import socket

    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        monkeypatch.setenv("GLOSSARY_BOT_PORT", str(port))
        monkeypatch.setenv("GLOSSARY_BOT_HOST", "127.0.0.1")
        monkeypatch.setattr(GlossaryBot, "load", lambda settings, **_: bot)
        with pytest.raises(SystemExit) as caught:
            app.main()
    assert caught.value.code == ExitCode.SERVE
    assert capsys.readouterr().err.startswith(f"error: cannot serve on 127.0.0.1:{port}:")


def test_a_terminal_control_sequence_is_cleaned_whole():
    """Its escape character alone was dropped, and "[0m" read as a word of the question."""
    from bot.understand.clean import clean

    assert clean("batch vs epoch\x1b[0m\x1b[1;31m!", 100).text == "batch vs epoch!"
