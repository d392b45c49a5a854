"""Session-scoped fixtures: the real model and bot are loaded once per test run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DEV_SET = SHARED / "eval" / "dev.jsonl"


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
