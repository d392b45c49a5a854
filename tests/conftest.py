"""Shared fixtures and helpers.

The real model and bot are loaded once per test run (session fixtures ``bot`` and ``st_model_dir``);
a test that uses them must carry ``@pytest.mark.model`` (enforced below), so that
``pytest -m "not model and not browser"`` runs everything that needs neither the model nor Chromium.
"""

from __future__ import annotations

import os
import socket
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DEV_SET = SHARED / "eval" / "dev.jsonl"

#: Fixtures that load the real multilingual-e5-small model (directly or through the bot).
T = TypeVar("T")
#: How often eventually() reads again.
POLL_S = 0.05

MODEL_FIXTURES = frozenset({"bot", "st_model_dir"})


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail, before loading anything, a test that uses the real model without the ``model`` marker."""
    used = MODEL_FIXTURES.intersection(getattr(item, "fixturenames", ()))
    if used and item.get_closest_marker("model") is None:
        pytest.fail(f"uses {', '.join(sorted(used))} (the real model): mark it @pytest.mark.model", False)


def eventually(read: Callable[[], T], done: Callable[[T], bool], timeout_s: float) -> T:
    """``read()`` once ``done`` holds for it, or its last value after ``timeout_s`` (the caller
    asserts on it): for what lands off the request path (a background writer, a queue draining,
    a fade-in)."""
    deadline = time.monotonic() + timeout_s
    value = read()
    while not done(value) and time.monotonic() < deadline:
        time.sleep(POLL_S)
        value = read()
    return value


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(bot, settings, history=None, **updates) -> Iterator[tuple[str, object]]:
    """The app for ``bot`` on a free loopback port (``updates`` override settings; the question store
    is a fresh SQLite file unless ``database_url`` is given; ``history``: a watcher's reload history,
    whose refusals show in ``/readyz``); yields (url, settings)."""
    from ui.serve import serve

    with tempfile.TemporaryDirectory(prefix="glossary-bot-store-") as folder:
        fresh = {"database_url": f"sqlite:///{folder}/records.sqlite3"}
        config = settings.model_copy(update={"host": "127.0.0.1", "port": free_port(), **fresh, **updates})
        demo = serve(bot, config, history=history, prevent_thread_lock=True, quiet=True)
        try:
            yield f"http://127.0.0.1:{config.port}", config
        finally:
            demo.close()


@pytest.fixture(scope="session")
def cache_dir() -> Path:
    return Path(os.environ.get("GLOSSARY_BOT_CACHE_DIR", REPO / ".cache"))


@pytest.fixture(scope="session")
def settings(cache_dir: Path):
    from bot.settings import Settings

    return Settings(cache_dir=cache_dir)


@pytest.fixture(scope="session")
def bot(settings):
    from bot.core import GlossaryBot

    return GlossaryBot.load(settings)


@pytest.fixture(scope="session")
def st_model_dir(cache_dir: Path) -> Path:
    from index.convert import convert

    return convert(cache_dir / "models")
