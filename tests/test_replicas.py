"""Two replicas: two ``python app.py`` processes on different ports sharing one cache folder and one
PostgreSQL database (a real server started by the test). Both serve; every question and vote sent
to either is recorded exactly once; an edit of the user glossary reaches both while they run."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from bot.passwords import hash_password
from bot.records import Store
from tests.conftest import free_port
from tests.factories import user_entry
from tests.load.harness import AppSession, endpoints
from tests.load.run import _wait_until_serving
from tests.postgres import postgres_server

pytestmark = pytest.mark.model
REPO = Path(__file__).resolve().parents[1]
RELOAD_INTERVAL_S = 0.5
#: How long the test waits for an edit to be served before failing (a bound, not a timing claim:
#: a reload re-indexes the small glossary, a few seconds on a loaded machine).
RELOAD_DEADLINE_S = 60
QUOKKA = user_entry("quokka-loss", term="Quokka loss", term_en="Quokka loss", term_hi="क्वोका लॉस")
WOMBAT = user_entry("wombat-rate", term="Wombat rate", term_en="Wombat rate", term_hi="वॉम्बैट रेट")
KOALA = user_entry("koala-norm", term="Koala norm", term_en="Koala norm", term_hi="कोआला नॉर्म")
ADMIN_PASSWORD = "replicas share this password"


def _write_glossary(path: Path, *entries: dict) -> None:
    document = {"document": "user.txt", "title_hi": "उपयोगकर्ता", "entries": list(entries)}
    path.write_text(yaml.safe_dump(document, allow_unicode=True), encoding="utf-8")


@pytest.fixture(scope="module")
def replicas(tmp_path_factory) -> Iterator[tuple[list[str], Path, str]]:
    """(the two replicas' URLs, the user glossary file, the database URL)."""
    folder = tmp_path_factory.mktemp("replicas")
    glossary = folder / "user.yaml"
    _write_glossary(glossary, QUOKKA)
    with postgres_server() as database:
        env = {
            **os.environ,
            "GLOSSARY_BOT_HOST": "127.0.0.1",
            "GLOSSARY_BOT_CACHE_DIR": str(folder / "cache"),  # one cache folder: the index is built once
            "GLOSSARY_BOT_GLOSSARY_PATHS": json.dumps([str(glossary)]),
            "GLOSSARY_BOT_DATABASE_URL": database,
            "GLOSSARY_BOT_RELOAD_INTERVAL_S": str(RELOAD_INTERVAL_S),
            "GLOSSARY_BOT_FEEDBACK_PATH": str(folder / "feedback.jsonl"),
            "GLOSSARY_BOT_ADMIN_PASSWORD_HASH": hash_password(ADMIN_PASSWORD),
        }
        ports = [free_port(), free_port()]
        apps, logs = [], []
        try:
            for n, port in enumerate(ports):
                log = folder / f"app{n}.log"
                logs.append(log)
                with log.open("w") as out:
                    apps.append(
                        subprocess.Popen(
                            [sys.executable, "app.py"],
                            cwd=REPO,
                            env={**env, "GLOSSARY_BOT_PORT": str(port)},
                            stdout=out,
                            stderr=out,
                        )
                    )
            urls = [f"http://127.0.0.1:{port}" for port in ports]
            for url, app, log in zip(urls, apps, logs, strict=True):
                _wait_until_serving(url, app, log)
            yield urls, glossary, database
        finally:
            for app in apps:
                app.terminate()
                app.wait(timeout=30)


def _ask(url: str, question: str) -> dict:
    reply = httpx.post(f"{url}/api/answer", json={"question": question}, timeout=60)
    reply.raise_for_status()
    return reply.json()


def test_both_serve_and_record_questions_and_votes_exactly_once(replicas):
    urls, _, database = replicas
    sent: Counter[str] = Counter()
    for n, url in enumerate(urls):
        for question in (f"What is Quokka loss? ({n})", f"How do I bake bread? ({n})"):
            _ask(url, question)
            sent[question] += 1
        with httpx.Client(timeout=60) as http:
            session = AppSession(url, http, endpoints(url))
            question = f"quokka loss kya hai {n}"
            session.chat(question)
            sent[question] += 1
            session.vote(1, liked=n == 0)
    rows = Store.open(database).answers_between(None, None)
    assert Counter(r["question"] for r in rows) == sent
    voted = sorted((r["question"], r["vote"], r["entry_ids"]) for r in rows if r["vote"])
    assert voted == [
        ("quokka loss kya hai 0", "like", ["quokka-loss"]),
        ("quokka loss kya hai 1", "dislike", ["quokka-loss"]),
    ]
    assert {r["channel"] for r in rows} == {"api", "chat"}


def _serves(url: str, question: str, entry_id: str) -> bool:
    """The replica at ``url`` answers ``question`` with ``entry_id`` (whatever it said before the
    entry existed: a decline or a near miss naming the closest other entries)."""
    reply = _ask(url, question)
    return not reply["abstained"] and reply["citations"][0]["entry_id"] == entry_id


def _served_by_both(urls: list[str], question: str, entry_id: str) -> None:
    deadline = time.monotonic() + RELOAD_DEADLINE_S
    waiting = set(urls)
    while waiting and time.monotonic() < deadline:
        waiting = {u for u in waiting if not _serves(u, question, entry_id)}
        time.sleep(RELOAD_INTERVAL_S / 2)
    assert waiting == set()


def test_an_edit_of_the_user_glossary_reaches_both(replicas):
    urls, glossary, _ = replicas
    assert not any(_serves(url, "What is Wombat rate?", "wombat-rate") for url in urls)
    _write_glossary(glossary, QUOKKA, WOMBAT)
    _served_by_both(urls, "What is Wombat rate?", "wombat-rate")


def test_a_glossary_uploaded_to_one_replica_is_served_by_both(replicas, tmp_path):
    urls, _, _ = replicas
    assert not any(_serves(url, "What is Koala norm?", "koala-norm") for url in urls)
    _write_glossary(tmp_path / "user.yaml", QUOKKA, WOMBAT, KOALA)
    with httpx.Client(base_url=urls[0], timeout=60) as http:
        assert http.post("/admin/login", data={"password": ADMIN_PASSWORD}).status_code == 303
        token = re.search(r'name="form_token" value="([^"]+)"', http.get("/admin").text)
        assert token
        files = {"file": ("user.yaml", (tmp_path / "user.yaml").read_bytes())}
        reply = http.post("/admin/glossary", data={"form_token": token.group(1)}, files=files)
        assert reply.status_code == 200, reply.text
    _served_by_both(urls, "What is Koala norm?", "koala-norm")
