"""The one configuration model: every knob, with its environment variable and meaning.

Values come from (highest first) CLI flags, ``GLOSSARY_BOT_*`` environment
variables, then the defaults below. Lower layers (glossary/, index/) take plain
arguments; only the bot, app and CLI read this model.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from glossary.loader import MAX_ENTRIES, MAX_FILE_MB
from index.ann import DEFAULT_NPROBE, DEFAULT_THRESHOLD
from index.encoders.registry import BACKENDS, DEFAULT_BACKEND, BackendName

#: A Hugging Face Space's persistent storage, when the Space has it: the only folder that outlives
#: a restart there, so the cache goes there when it exists and can be written.
PERSISTENT_DIR = Path("/data")


def _default_cache_dir() -> Path:
    if PERSISTENT_DIR.is_dir() and os.access(PERSISTENT_DIR, os.W_OK | os.X_OK):
        return PERSISTENT_DIR / "glossary-bot"
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "glossary-bot"


def _default_host() -> str:
    """Spaces route traffic to the container, so there the app must listen on all interfaces."""
    return "0.0.0.0" if os.environ.get("SPACE_ID") else "127.0.0.1"


def _two_per_core() -> int:
    """While one answer is in Python (HTTP, JSON, ranking) another can use the core for encoding:
    two per core gave 0.75 of the ideal throughput, one per core 0.65 (benchmarks/RESULTS.md §3)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 * cores


class Settings(BaseSettings):
    """Configuration of the glossary bot. Env var = ``GLOSSARY_BOT_`` + field name in capitals."""

    model_config = SettingsConfigDict(env_prefix="GLOSSARY_BOT_", extra="ignore")

    glossary_paths: list[Path] = Field(
        default_factory=list,
        description="Glossary files or folders (YAML, JSON, CSV). Empty: the bundled glossary.",
    )
    cache_dir: Path = Field(
        default_factory=_default_cache_dir,
        description="Where the converted model, saved indexes and encoded texts live; default "
        "/data/glossary-bot when /data exists and is writable (a Space's persistent storage), "
        "else $XDG_CACHE_HOME/glossary-bot or ~/.cache/glossary-bot.",
    )
    encoder_backend: BackendName = Field(
        default=DEFAULT_BACKEND,
        description="Which engine runs multilingual-e5-small: "
        + "; ".join(f"{b.name}: {b.summary}" for b in BACKENDS.values())
        + " (index/encoders/registry.py; benchmarks/RESULTS.md compares them).",
        json_schema_extra={"enum": list(BACKENDS)},
    )
    encoder_model: str | None = Field(
        default=None,
        description="Another sentence-transformers model name or path. Names need hub access, "
        "so this is off by default.",
    )
    threads: int = Field(default=1, ge=1, description="torch / FAISS / OpenMP threads for serving.")
    build_threads: int | None = Field(
        default=None,
        ge=1,
        description="Threads an index build encodes on (serving keeps ``threads``); unset: every core "
        "this process may use.",
    )
    ann_threshold: int = Field(
        default=DEFAULT_THRESHOLD,
        ge=1,
        description="Vector count from which the index is approximate (FAISS IVF) instead of exact: "
        "a flat scan of 1M vectors reads 1.5 GB per query. Changing it rebuilds a saved index "
        "that falls on the other side. Default = index.ann.DEFAULT_THRESHOLD.",
    )
    ann_nprobe: int = Field(
        default=DEFAULT_NPROBE,
        ge=0,
        description="IVF cells searched per query when the index is approximate: higher is slower "
        "and closer to exact. 0 = as many as hold ~16k vectors (recall@10 >= 0.98 from 50k to 1M "
        "vectors, benchmarks/RESULTS.md). Default = index.ann.DEFAULT_NPROBE.",
    )
    project_extras: bool = Field(
        default=True,
        description="Use the bundled glossary's project-written paraphrases and aliases. Off: the "
        "glossary as a user's file would be (what `make eval` also measures).",
    )
    fusion_weights: dict[str, float] | None = Field(
        default=None,
        description='Override fitted retrieval weights, e.g. {"bm25": 0.3, "name": 1.0, '
        '"dense_fields": 2}; unset: the weights fitted to the glossary (`glossary-bot calibrate`).',
    )
    min_answer_probability: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="Answer when P(in scope) is at least this; unset: the threshold fitted to the "
        "glossary (`glossary-bot calibrate` prints the trade-off).",
    )
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
    max_glossary_mb: float = Field(
        default=MAX_FILE_MB,
        gt=0,
        description="A glossary file larger than this (MB) is refused with a clear error.",
    )
    max_glossary_entries: int = Field(
        default=MAX_ENTRIES,
        ge=1,
        description="A glossary with more entries than this (all files together) is refused.",
    )
    reload_interval_s: float = Field(
        default=2.0,
        ge=0,
        description="How often (seconds) the app checks user glossary files for edits and reloads them; "
        "0 = never. An edit is live this long plus its rebuild after saving. The bundled glossary is "
        "never watched.",
    )
    queue_max_size: int = Field(
        default=64,
        ge=1,
        description="Requests the app queues at most; beyond that a caller is told the queue is full.",
    )
    concurrency_limit: int = Field(
        default_factory=_two_per_core,
        ge=1,
        description="Questions the app answers at the same time, per kind (POST /api/answer, chat, "
        "ask, ...); the rest wait their turn. Default: twice the CPU cores this process may use "
        "(answers are single-threaded; more than that only share the cores, benchmarks/RESULTS.md §3).",
    )
