"""Faults said as they are (issue 26, points 1 and 6): the app starts and answers when its store cannot
be opened, and says so; a fatal signal leaves a last line in the log; a refused glossary edit shows in
``/readyz``. One-line setting errors: ``test_reliability_input.py``; a vote the store cannot take:
``test_reliability_store.py``.
"""

from __future__ import annotations

import signal

import httpx
import pytest

from bot.reload import GlossaryWatcher, files_hash
from tests.conftest import serving
from tests.load.run import app_process
from tests.test_glossary_loader import document, write_yaml
from tests.test_reliability_glossary import BROKEN, QUOKKA, _write, user_bot

pytestmark = pytest.mark.model


def test_a_store_that_cannot_be_opened_leaves_the_app_answering_and_saying_so(tmp_path):
    """Before: ``error: cannot open the question store``, exit 3 (e.g. a full cache disk). Then a
    SIGBUS (as an immutable ``-shm`` file gave) ends the process with a line saying so, not silently."""
    (tmp_path / "records.sqlite3").mkdir()  # SQLite cannot open a folder, as it cannot a full disk
    with app_process(tmp_path) as (url, app, log):
        reply = httpx.post(f"{url}/api/answer", json={"question": "what is dropout?"}, timeout=60)
        assert reply.status_code == 200 and reply.json()["citations"][0]["entry_id"] == "dropout"
        ready = httpx.get(f"{url}/readyz", timeout=30)
        assert ready.status_code == 200 and ready.json()["ready"] is True
        store = ready.json()["store"]
        assert store["state"] == "unavailable" and "records.sqlite3" in store["error"]
        app.send_signal(signal.SIGBUS)
        # faulthandler writes its line, dumps every thread's stack and re-raises the signal; a thread
        # running on meanwhile can still fault first (seen once: SIGSEGV). Either way it is a signal's end.
        assert app.wait(timeout=30) in (-signal.SIGBUS, -signal.SIGSEGV)
    text = log.read_text()
    assert "question store not open, answers are served but not recorded" in text
    assert "Fatal Python error: Bus error" in text


def test_a_refused_edit_shows_in_readyz(bot, tmp_path):
    path = write_yaml(tmp_path / "user.yaml", document(QUOKKA))
    served = user_bot(bot, tmp_path, path)
    watcher = GlossaryWatcher(served, interval_s=60)  # polled by hand below
    with serving(served, served.settings, history=watcher.history) as (url, _):
        assert "refused_edit" not in httpx.get(f"{url}/readyz").json()
        _write(path, BROKEN["dangling-related"][1])
        assert watcher.poll() == "failed"
        ready = httpx.get(f"{url}/readyz")
    assert ready.status_code == 200 and ready.json()["glossary_hash"] == served.glossary.content_hash
    refused = ready.json()["refused_edit"]
    assert refused["files_sha256"] == files_hash([path]) and "user.yaml" in refused["message"]
