"""``/healthz`` and ``/readyz`` while the bot loads (the start server) and once the app serves, and the
fresh-start path: ``python app.py`` on an empty cache answers (prebuilt index of the bundled glossary)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable

import httpx
import pytest

from bot.reply.messages import t
from index.embeddings import BuildStatus
from index.passages import FIRST_PASS_RECIPE, RECIPE
from index.store import INDEX_DIR, MANIFEST_FILE
from tests.conftest import REPO, free_port, serving
from tests.test_glossary_loader import document, write_yaml
from tests.test_reliability_glossary import QUOKKA, WOMBAT
from ui.health import StartingServer

#: How long a started app may take to answer before the test gives up (a failure, not a timing claim).
START_TIMEOUT_S = 600


def test_while_loading_healthz_is_ok_and_readyz_says_what_is_built():
    status = BuildStatus()
    status.begin("encoding g.yaml")
    status.expect(100, 40)
    port = free_port()
    with StartingServer("127.0.0.1", port, status):
        base = f"http://127.0.0.1:{port}"
        assert httpx.get(f"{base}/healthz").json() == {"status": "alive"}
        ready = httpx.get(f"{base}/readyz")
        assert ready.status_code == 503
        assert ready.headers["retry-after"]
        assert ready.json() == {"ready": False, "reason": status.describe()}
        assert "40/100 texts" in ready.json()["reason"]
        status.advance(10)  # texts encoded: now there is a rate to tell the time left by
        assert "50/100 texts (40 already encoded), about" in httpx.get(f"{base}/readyz").json()["reason"]
        page = httpx.get(f"{base}/")
        assert page.status_code == 503
        assert t("starting", "en") in page.text
        assert t("starting", "hi") in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["x-content-type-options"] == "nosniff"
    with pytest.raises(httpx.ConnectError):  # the port is free again for the app
        httpx.get(f"{base}/healthz")


@pytest.mark.model
def test_once_serving_readyz_names_the_glossary(bot, settings):
    with serving(bot, settings) as (url, _):
        assert httpx.get(f"{url}/healthz").json() == {"status": "alive"}
        ready = httpx.get(f"{url}/readyz")
        assert ready.status_code == 200
        assert ready.json() | {"store": None} == {
            "ready": True,
            "glossary": str(bot.glossary),
            "entries": len(bot.glossary),
            "glossary_hash": bot.glossary.content_hash,
            "index": "complete",
            "advice_sentences": "ready",
            "store": None,
        }
        assert ready.json()["store"]["state"] == "ok"


@pytest.mark.model
def test_a_fresh_start_on_an_empty_cache_answers(tmp_path):
    """The first start of a fresh machine (a Space after a restart): empty cache, default settings."""
    port = free_port()
    env = {
        **os.environ,
        "GLOSSARY_BOT_CACHE_DIR": str(tmp_path / "cache"),
        "GLOSSARY_BOT_PORT": str(port),
        "GLOSSARY_BOT_HOST": "127.0.0.1",
    }
    started = time.monotonic()
    app = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        _wait_for(app, base, lambda ready: True)
        answer = httpx.post(f"{base}/api/answer", json={"question": "dropout kya hai?"}, timeout=60).json()
        print(f"fresh start to first answer: {time.monotonic() - started:.1f} s")
        assert [c["entry_id"] for c in answer["citations"]][:1] == ["dropout"]
    finally:
        app.terminate()
        app.communicate(timeout=30)
    assert not (tmp_path / "cache" / "indexes").exists(), "the prebuilt index is served, nothing is built"


def _wait_for(app: subprocess.Popen, base: str, until: Callable[[dict], bool]) -> dict:
    """``/readyz``'s JSON once it says ready and ``until`` accepts it (the app still running)."""
    started = time.monotonic()
    while time.monotonic() - started < START_TIMEOUT_S:
        assert app.poll() is None, app.stderr.read() if app.stderr else "the app exited"
        try:
            ready = httpx.get(f"{base}/readyz")
            if ready.status_code == 200 and until(ready.json()):
                return ready.json()
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError(f"/readyz did not say so within {START_TIMEOUT_S} s")


@pytest.mark.model
def test_the_app_answers_from_a_first_pass_and_completes_its_index(tmp_path):
    """``first_pass_min_texts`` set (1: a small glossary's few texts are enough): the app serves the
    first pass, then completes the index and adds the sentences in the background."""
    glossary = write_yaml(tmp_path / "user.yaml", document(QUOKKA, WOMBAT))
    port = free_port()
    env = {
        **os.environ,
        "GLOSSARY_BOT_CACHE_DIR": str(tmp_path / "cache"),
        "GLOSSARY_BOT_PORT": str(port),
        "GLOSSARY_BOT_HOST": "127.0.0.1",
        "GLOSSARY_BOT_GLOSSARY_PATHS": str(glossary),
        "GLOSSARY_BOT_FIRST_PASS_MIN_TEXTS": "1",
    }
    app = subprocess.Popen([sys.executable, "app.py"], cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        served = _wait_for(app, base, lambda ready: True)
        assert served["index"] == "complete" or served["index"].startswith("first pass")
        answer = httpx.post(
            f"{base}/api/answer", json={"question": "What is Wombat rate?"}, timeout=60
        ).json()
        assert [c["entry_id"] for c in answer["citations"]][:1] == ["wombat-rate"]
        done = _wait_for(app, base, lambda ready: ready["advice_sentences"] == "ready")
        assert done["index"] == "complete"
    finally:
        app.terminate()
        app.communicate(timeout=30)
    manifests = (tmp_path / "cache" / INDEX_DIR).glob(f"*/{MANIFEST_FILE}")
    assert {json.loads(m.read_text(encoding="utf-8"))["recipe"] for m in manifests} >= {
        FIRST_PASS_RECIPE,
        RECIPE,
    }
