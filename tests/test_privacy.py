"""Nothing one visitor asked reaches another (issue 23): a question and a comment carrying a unique
marker are recorded, then every anonymous way into the running app is tried — the page, ``/config``,
``/gradio_api/info``, every dependency by index through the queue and through ``/gradio_api/run``,
every named endpoint through ``/gradio_api/call``, the file route (with a file holding the marker
planted in Gradio's own cache folder, where the old report download put its file), and ``/admin``
without a login — and the marker never comes back. Votes belong to a browser session: a caller
without one, or with another session, cannot rate an answer it was not given."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from gradio import utils as gradio_utils
from pydantic import SecretStr

from bot.passwords import hash_password
from bot.records import Store
from tests.conftest import serving
from tests.load.harness import AppSession, endpoints

pytestmark = pytest.mark.model
MARKER = f"zebrafish{uuid.uuid4().hex[:10]}"
EMAIL = f"{MARKER}@example.org"
PASSWORD = "correct horse battery staple"
TIMEOUT_S = 60
#: A file a reply names (Gradio's FileData: its "path" on the server).
FILE_PATH = re.compile(r'"path":\s*"([^"]+)"')


@pytest.fixture(scope="module")
def app(bot, settings) -> Iterator[tuple[str, Store]]:
    """The app with the maintainers' area on, and a visitor's question and comment carrying MARKER."""
    with serving(bot, settings, admin_password_hash=SecretStr(hash_password(PASSWORD))) as (url, config):
        store = Store.open(config.database)
        with httpx.Client(timeout=TIMEOUT_S) as http:
            visitor = AppSession(url, http, endpoints(url))
            visitor.chat(f"what is {MARKER} regularisation?")
            visitor.vote(1, liked=False)
            visitor.call("comment", [f"wrong! write to {EMAIL}", None, "en"])
        recorded = store.answers_between(None, None)
        assert any(MARKER in (r["question"] or "") for r in recorded)  # the marker is in the store
        yield url, store


def _stream(http: httpx.Client, url: str, session: str) -> str:
    """Everything the queue's event stream sends one session until its events complete."""
    out = []
    with http.stream("GET", f"{url}/gradio_api/queue/data", params={"session_hash": session}) as stream:
        for line in stream.iter_lines():
            out.append(line)
            if '"process_completed"' in line or '"close_stream"' in line:
                break
    return "\n".join(out)


def _every_anonymous_reply(url: str) -> list[str]:
    """The text of every reply the app gives an anonymous caller, by every route in."""
    replies = []
    with httpx.Client(timeout=TIMEOUT_S) as http:
        for path in ("/", "/config", "/gradio_api/info", "/gradio_api/info?all_endpoints=true"):
            replies.append(http.get(url + path).text)
        config = http.get(f"{url}/config").json()
        dependencies = config["dependencies"]
        assert len(dependencies) > 10  # the test reaches every one the page has
        for dep in dependencies:
            n_inputs = len(dep["inputs"])
            targets = dep.get("targets") or [[None]]
            body = {
                "data": [None] * n_inputs,
                "fn_index": dep["id"],
                "trigger_id": targets[0][0],
                "event_data": {"index": 1, "value": None, "liked": False},
            }
            session = uuid.uuid4().hex[:11]
            joined = http.post(f"{url}/gradio_api/queue/join", json={**body, "session_hash": session})
            replies.append(joined.text)
            if joined.status_code == 200:
                replies.append(_stream(http, url, session))
            replies.append(http.post(f"{url}/gradio_api/run/predict", json=body).text)
        info = http.get(f"{url}/gradio_api/info").json()
        for name in info["named_endpoints"]:
            called = http.post(f"{url}/gradio_api/call{name}", json={"data": ["what is dropout", []]})
            replies.append(called.text)
            if called.status_code == 200:
                event = called.json()["event_id"]
                replies.append(http.get(f"{url}/gradio_api/call{name}/{event}").text)
        for path in ("/admin", "/admin/report.md", "/admin/report.csv", "/admin/feedback"):
            replies.append(http.get(url + path, follow_redirects=True).text)
        for path in {p for r in replies for p in FILE_PATH.findall(r)}:  # every file a reply names
            replies.append(http.get(f"{url}/gradio_api/file={path}").text)
    return replies


def test_nothing_a_visitor_asked_reaches_an_anonymous_caller(app):
    url, _ = app
    replies = _every_anonymous_reply(url)
    leaked = [r[:200] for r in replies if MARKER in r]
    assert not leaked


def test_the_public_app_has_no_report_and_no_callback_that_reads_the_store(app):
    url, _ = app
    config = httpx.get(f"{url}/config", timeout=TIMEOUT_S).json()
    api_names = {dep["api_name"] for dep in config["dependencies"]}
    assert not [name for name in api_names if "report" in str(name)]
    components = config["components"]
    assert not [c for c in components if "report" in str(c.get("props", {}).get("elem_id"))]
    assert not [c for c in components if c.get("type") == "file"]


def test_the_file_route_serves_no_file_the_app_did_not_ship(app):
    url, _ = app
    cache = Path(gradio_utils.get_cache_folder())
    planted = cache / uuid.uuid4().hex / "glossary-bot-report.md"
    planted.parent.mkdir(parents=True)
    planted.write_text(f"| 1 | {MARKER} |\n", encoding="utf-8")
    try:
        for path in (str(planted), str(planted.parent / ".." / planted.parent.name / planted.name)):
            reply = httpx.get(f"{url}/gradio_api/file={path}", timeout=TIMEOUT_S)
            assert reply.status_code == 404 and MARKER not in reply.text
        reply = httpx.get(f"{url}/gradio_api/file=http://127.0.0.1:1/x", timeout=TIMEOUT_S)
        assert reply.status_code == 404
    finally:
        planted.unlink()
        planted.parent.rmdir()


def _votes(store: Store) -> int:
    return sum(r["vote"] is not None for r in store.answers_between(None, None))


def test_a_caller_without_the_session_cannot_vote_on_anothers_answer(app):
    url, store = app
    with httpx.Client(timeout=TIMEOUT_S) as http:
        ends = endpoints(url)
        victim = AppSession(url, http, ends)
        victim.chat("What is gradient clipping?")
        before = _votes(store)
        vote = {"index": 1, "value": None, "liked": False}
        # no session at all (a plain REST call), by index: refused
        fn_index, trigger = ends["vote"]
        body = {"data": [victim.history, None, "en"], "fn_index": fn_index, "event_data": vote}
        http.post(f"{url}/gradio_api/run/predict", json={**body, "trigger_id": trigger})
        # another session, sending the victim's history: refused
        intruder = AppSession(url, http, ends)
        intruder.history = victim.history
        intruder.vote(1, liked=False)
        # a sessionless caller's answer: another sessionless caller cannot rate it (they once shared
        # one key, so this forged a dislike on another's answer)
        chat = {"data": ["What is dropout?", [], None, None, None], "fn_index": ends["chat"][0]}
        asked = http.post(f"{url}/gradio_api/run/predict", json=chat)
        rest_history = asked.json()["data"][1]
        http.post(f"{url}/gradio_api/run/predict", json={**body, "data": [rest_history, None, "en"]})
        assert _votes(store) == before
        victim.vote(1, liked=True)  # the session that was given the answer can
        assert _votes(store) == before + 1


def test_every_page_carries_the_security_headers(app):
    url, _ = app
    for path in ("/", "/config", "/healthz", "/api/answer", "/admin", "/source/x?line=1"):
        headers = httpx.get(url + path, timeout=TIMEOUT_S).headers
        policy = headers["content-security-policy"]
        assert "default-src 'self'" in policy and "frame-ancestors 'self'" in policy
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"


def test_a_configured_frame_ancestor_may_frame_the_app(bot, settings):
    """A help centre that embeds the bot is named in ``frame_ancestors`` and only it (and the app)."""
    allowed = ["'self'", "https://help.example.com"]
    with serving(bot, settings, frame_ancestors=allowed) as (url, _):
        policy = httpx.get(url + "/", timeout=TIMEOUT_S).headers["content-security-policy"]
    assert "frame-ancestors 'self' https://help.example.com" in policy
