"""The question and feedback store: one small interface over SQLite (default) or PostgreSQL.

Every answered question is one row of ``answers`` with a random id made here, on the server; a vote
names that id, so a client can rate only answers it was given, and the question and cited entries
it rates are the server's own record, never what the client sends back. One vote per answer: a
later vote replaces the earlier one, and a comment joins the vote it follows.

The schema is applied by Alembic's versioned migrations (``migrations/``) when the store opens,
inside one transaction that holds the database's lock (PostgreSQL: an advisory lock; SQLite: the
write lock, as every SQLite transaction here begins ``IMMEDIATE``), so replicas starting at once
migrate one after the other and the second finds nothing to do. SQLite runs in WAL mode with a
busy timeout, so several processes can write one file; every write is one short transaction.
"""

from __future__ import annotations

import logging
import math
import socket
import threading
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, Table, create_engine, delete, event, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.pool import NullPool

from bot.inputs import scrub
from bot.records.tables import answers, votes
from bot.reply.answer import AnswerKind

log = logging.getLogger(__name__)

Vote = Literal["like", "dislike"]
#: What an answer was (``bot.answer.AnswerKind``), or a vote imported from the old feedback file
#: (what was answered is not known).
Kind = AnswerKind | Literal["imported"]
#: Kinds that gave no entry as the answer (none fits, or none surely): what maintainers may want to
#: add, or to word the way askers do.
UNANSWERED: frozenset[str] = frozenset({"declined", "near miss", "unsure"})
#: Where a question came from.
Channel = Literal["chat", "api", "cli", "import"]

MIGRATIONS = Path(__file__).parent / "migrations"
#: Key of the PostgreSQL advisory lock held while migrating (any constant shared by all replicas).
MIGRATION_LOCK = 0x6C6F7373  # "loss"
#: How long a SQLite writer waits for another's transaction before giving up (seconds), when the
#: caller names no timeout of its own (the CLI and the maintainers' report: a person waits, not an asker).
SQLITE_BUSY_TIMEOUT_S = 30
#: How often a running app deletes records past the retention setting (seconds).
PRUNE_INTERVAL_S = 3600
#: Longest question or comment kept; the rest is cut off.
MAX_TEXT = 2000


class AnswerSource(Protocol):
    """What reads recorded answers (the maintainers' report): a :class:`Store`, or the app's
    ``Recorder``, which reads from its store when it is open."""

    def answers_between(self, since: datetime | None, until: datetime | None) -> list[dict[str, Any]]: ...


class StoreError(Exception):
    """The store cannot be opened, migrated, read or written; the message says which database and why."""


class UnknownAnswer(StoreError):
    """A vote names an answer this store never recorded (forged, or pruned by the retention setting)."""


@dataclass(frozen=True)
class AnswerRecord:
    """What is recorded of one answered question: no IP address, session or other personal data."""

    question: str | None
    lang: str
    kind: Kind
    entry_ids: tuple[str, ...]
    confidence: float | None
    glossary_version: str
    channel: Channel


def new_answer_id() -> str:
    """A random answer id, made on the server (a vote must name one it was given)."""
    return uuid.uuid4().hex


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


class InvalidDatabaseUrl(StoreError):
    """``database_url`` cannot be read or names a database this store does not speak: a setting to fix."""


def _engine(url: str, timeout_s: float | None = None) -> Engine:
    """An engine for ``url``: PostgreSQL through psycopg 3, SQLite in WAL mode with IMMEDIATE writes.

    ``timeout_s`` bounds each wait on the database: SQLite's busy timeout (another process holding
    the write lock); PostgreSQL's ``connect_timeout`` and ``statement_timeout`` (a server that does
    not answer, a lock held by another session). A server that stops mid-statement (frozen, or a
    network partition) enforces no timeout of its own: :class:`Store` then closes the connection's
    socket from a timer (:func:`_deadline`).
    """
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise InvalidDatabaseUrl(f"invalid database_url {url!r}: {exc}") from exc
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            try:
                Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"cannot create the folder of {parsed.database}: {exc}") from exc
        busy = SQLITE_BUSY_TIMEOUT_S if timeout_s is None else timeout_s
        engine = create_engine(parsed, connect_args={"timeout": busy})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", lambda conn: conn.exec_driver_sql("BEGIN IMMEDIATE"))
        return engine
    options: dict[str, Any] = {"pool_pre_ping": True}
    if timeout_s is not None:
        # A fresh connection per transaction (no pool): a pooled one would be pinged on checkout, and
        # a ping to a stopped server waits for ever, before any timeout of ours is armed.
        options = {
            "poolclass": NullPool,
            "connect_args": {
                "connect_timeout": max(1, math.ceil(timeout_s)),  # libpq counts whole seconds
                "options": f"-c statement_timeout={int(timeout_s * 1000)}",
            },
        }
    try:
        return create_engine(parsed, **options)
    except (ArgumentError, ImportError) as exc:
        raise InvalidDatabaseUrl(f"unsupported database_url {parsed!r}: {exc}") from exc


def _abort(dbapi_connection: Any) -> None:
    """Shut the socket of a PostgreSQL connection down, from another thread: the statement waiting on
    it fails at once ("server closed the connection") instead of waiting for a server that is stopped."""
    fd = getattr(getattr(dbapi_connection, "pgconn", None), "socket", -1)
    if not isinstance(fd, int) or fd < 0:
        return
    try:
        with socket.fromfd(fd, socket.AF_INET, socket.SOCK_STREAM) as duplicate:  # a dup: ours to close
            duplicate.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


@contextmanager
def _deadline(conn: Connection, timeout_s: float | None) -> Iterator[None]:
    """Abort ``conn`` if what runs inside takes longer than ``timeout_s`` (PostgreSQL only: SQLite's
    waits are bounded by its busy timeout, and a local file does not stop answering)."""
    if timeout_s is None or conn.dialect.name != "postgresql":
        yield
        return
    timer = threading.Timer(timeout_s, _abort, [conn.connection.dbapi_connection])
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """WAL (readers never block the writer), foreign keys on, and transactions left to SQLAlchemy's
    ``begin`` event, which starts each one IMMEDIATE (SQLAlchemy's documented pysqlite recipe)."""
    dbapi_connection.isolation_level = None
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
        dbapi_connection.execute(f"PRAGMA {pragma}")


def _insert(conn: Connection, table: Table) -> postgresql.Insert | sqlite.Insert:
    """An INSERT that can say what to do on a conflict (both dialects spell it the same way)."""
    return (postgresql if conn.dialect.name == "postgresql" else sqlite).insert(table)


class Store:
    """Answers and votes in one database; ``Store.open(url)`` migrates it first."""

    def __init__(self, engine: Engine, record_questions: bool = True, timeout_s: float | None = None) -> None:
        self.engine = engine
        self.record_questions = record_questions
        self.timeout_s = timeout_s

    @classmethod
    def open(cls, url: str, record_questions: bool = True, timeout_s: float | None = None) -> Store:
        """The store at ``url`` with its schema migrated to the newest version (see the module docstring);
        every wait on the database bounded by ``timeout_s`` when given (see :func:`_engine`)."""
        store = cls(_engine(url, timeout_s), record_questions, timeout_s)
        with store._write() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
        return store

    @property
    def where(self) -> str:
        """The database, for messages (without its password)."""
        return self.engine.url.render_as_string(hide_password=True)

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """One transaction; database errors become a :class:`StoreError` naming the database.

        The deadline is armed before the transaction begins and disarmed after it ends, so it covers
        the COMMIT too: a server frozen between the last statement and the commit otherwise held the
        writer until the server woke (a CI run saw the writer stuck for 30 s)."""
        try:
            with self.engine.connect() as conn, _deadline(conn, self.timeout_s), conn.begin():
                yield conn
        except UnknownAnswer:
            raise
        except IntegrityError as exc:  # the answer was pruned while its vote was being written
            raise UnknownAnswer(f"no such answer in {self.where}") from exc
        except SQLAlchemyError as exc:
            raise StoreError(f"database {self.where}: {exc.__class__.__name__}: {exc.args[0]}") from exc

    def record_answer(
        self, record: AnswerRecord, ts: datetime | None = None, answer_id: str | None = None
    ) -> str:
        """Record one answered question; returns the id a vote on it must name (``answer_id`` when given:
        an import keeps the old ids)."""
        answer_id = answer_id or new_answer_id()
        self.record_answers([(answer_id, ts or datetime.now(UTC), record)])
        return answer_id

    def record_answers(self, batch: Sequence[tuple[str, datetime, AnswerRecord]]) -> None:
        """Record several answers (id, time, record) in one transaction; an id given twice (an import
        run again, a batch written again after a timeout) is recorded once."""
        rows = [
            {
                "id": answer_id,
                "ts": ts,
                "question": scrub(r.question)[:MAX_TEXT] if r.question and self.record_questions else None,
                "lang": r.lang,
                "kind": r.kind,
                "entry_ids": list(r.entry_ids),
                "confidence": r.confidence,
                "glossary_version": r.glossary_version,
                "channel": r.channel,
            }
            for answer_id, ts, r in batch
        ]
        if not rows:
            return
        with self._write() as conn:
            conn.execute(_insert(conn, answers).on_conflict_do_nothing(), rows)

    def record_vote(
        self, answer_id: str, vote: Vote, comment: str | None = None, ts: datetime | None = None
    ) -> None:
        """The vote on ``answer_id``, replacing an earlier one; ``comment`` None keeps an earlier comment.

        Raises :class:`UnknownAnswer` when the answer was never recorded here.
        """
        comment = scrub(comment or "").strip()[:MAX_TEXT] or None
        row = {"answer_id": answer_id, "ts": ts or datetime.now(UTC), "vote": vote, "comment": comment}
        with self._write() as conn:
            if conn.execute(select(answers.c.id).where(answers.c.id == answer_id)).first() is None:
                raise UnknownAnswer(
                    f"no answer {answer_id!r} in {self.where}: vote on an answer you were given"
                )
            stmt = _insert(conn, votes).values(row)
            conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=[votes.c.answer_id],
                    set_={
                        "ts": stmt.excluded.ts,
                        "vote": stmt.excluded.vote,
                        "comment": func.coalesce(stmt.excluded.comment, votes.c.comment),
                    },
                )
            )

    def prune(self, days: int, now: datetime | None = None) -> int:
        """Delete answers (and their votes) older than ``days``; returns how many answers went."""
        cutoff = (now or datetime.now(UTC)) - timedelta(days=days)
        old = select(answers.c.id).where(answers.c.ts < cutoff)
        with self._write() as conn:
            conn.execute(delete(votes).where(votes.c.answer_id.in_(old)))
            return conn.execute(delete(answers).where(answers.c.ts < cutoff)).rowcount

    def answers_between(self, since: datetime | None, until: datetime | None) -> list[dict[str, Any]]:
        """Answers recorded in [since, until), oldest first, each with its vote and comment (or None)."""
        query = (
            select(answers, votes.c.vote, votes.c.comment)
            .outerjoin(votes, votes.c.answer_id == answers.c.id)
            .order_by(answers.c.ts, answers.c.id)
        )
        if since is not None:
            query = query.where(answers.c.ts >= since)
        if until is not None:
            query = query.where(answers.c.ts < until)
        try:
            with self.engine.connect() as conn:
                return [dict(row._mapping) for row in conn.execute(query)]
        except SQLAlchemyError as exc:
            raise StoreError(f"database {self.where}: {exc.__class__.__name__}: {exc.args[0]}") from exc


class Pruner:
    """Deletes records older than the retention setting: at start-up, then every ``PRUNE_INTERVAL_S``."""

    def __init__(self, store: Store, days: int) -> None:
        self.store = store
        self.days = days
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="store-pruner", daemon=True)

    @classmethod
    def start_for(cls, store: Store, days: int) -> Pruner | None:
        """A running pruner; None when records are kept for ever (``retention_days`` 0)."""
        if days <= 0:
            return None
        pruner = cls(store, days)
        pruner._thread.start()
        return pruner

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while True:
            try:
                gone = self.store.prune(self.days)
            except StoreError as exc:  # the next round tries again
                log.error("pruning failed: %s", exc)
            else:
                if gone:
                    log.info("pruned %d answers older than %d days", gone, self.days)
            if self._stop.wait(PRUNE_INTERVAL_S):
                return
