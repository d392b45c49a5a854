"""Vectors that index builds have computed before, kept so that an edit re-encodes only what changed.

Encoding is nearly all of an index build (and of its calibration's pseudo-questions), and an edit
of a glossary leaves almost every text as it was. So every vector a build computes is stored under
(encoder id, prompt, sha256 of the text), and the next build encodes only texts it has not seen:
a one-entry edit costs that entry's texts. The store is one SQLite file in the cache folder: each
batch is written in one transaction (a reader sees it whole or not at all), concurrent builders are
serialised by SQLite's own locking, and a file SQLite cannot read is moved aside and started
afresh (it only costs encoding again). A store that cannot be opened at all (read-only cache) is
skipped with a warning: builds then encode everything, as before.

``BuildEncoder`` wraps the serving encoder for builds: it reads and fills the store, encodes the
missing texts in batches on every core the process may use, reports progress (``BuildStatus``,
read by the app's start page and ``/readyz``), and gives the serving thread setting back afterwards.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
from tqdm import tqdm

from index.bulk import MIN_TEXTS as BULK_MIN_TEXTS
from index.encoders.base import Encoder
from index.rows import Prompt

log = logging.getLogger(__name__)

STORE_FILE = "embeddings.sqlite3"
#: Texts encoded per call during a build: enough for the engines to spread over the cores.
BUILD_BATCH = 32
#: A stored vector's last use is recorded to this precision (pruning keeps what recent builds used).
_USED_RESOLUTION_S = 3600.0
#: Stored vectors read at a time: copied into the caller's matrix a block at a time (6 MB at 384
#: dimensions), never held all at once.
_READ_ROWS = 4096
#: How long a builder waits for another one's write transaction before giving up on the store.
_BUSY_TIMEOUT_S = 30.0
#: After a build the store keeps at most this many times the vectors that build used (the most
#: recently used first), and never fewer than ``MIN_KEPT``: old glossaries' vectors age out.
KEEP_FACTOR = 4
MIN_KEPT = 50_000
_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    encoder TEXT NOT NULL, prompt TEXT NOT NULL, digest BLOB NOT NULL,
    vector BLOB NOT NULL, used REAL NOT NULL,
    PRIMARY KEY (encoder, prompt, digest)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS vectors_used ON vectors (used);
"""


#: The stored vectors of the texts ``_want`` put in the temporary table, for one encoder and prompt.
_WANTED_VECTORS = (
    "FROM wanted w CROSS JOIN vectors v ON v.encoder = ? AND v.prompt = ? AND v.digest = w.digest"
)


def _want(db: sqlite3.Connection, texts: Sequence[str]) -> None:
    """The texts' digests, each with its first slot in ``texts``, in a temporary table ``wanted`` of
    the connection, to be joined with the vectors (``_WANTED_VECTORS``)."""
    db.execute("CREATE TEMP TABLE wanted (digest BLOB PRIMARY KEY, slot INTEGER) WITHOUT ROWID")
    db.executemany(
        "INSERT OR IGNORE INTO wanted VALUES (?, ?)", ((digest(t), i) for i, t in enumerate(texts))
    )


def cores() -> int:
    """CPU cores this process may run on (its affinity mask, which containers narrow)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def digest(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()


class EmbeddingStore:
    """Vectors by (encoder id, prompt, text hash) in one SQLite file; see the module docstring."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._opened: bool | None = None  # opened on first use: a start that builds nothing never opens it

    @property
    def _usable(self) -> bool:
        if self._opened is None:
            self._opened = self._open()
        return self._opened

    def lookup(
        self,
        encoder_id: str,
        prompt: str,
        texts: Sequence[str],
        into: np.ndarray,
        rows: np.ndarray | None = None,
    ) -> np.ndarray:
        """Write text ``i``'s stored vector into ``into[rows[i]]`` (``rows``: default ``i``) and say
        which texts were found (all False where the store is unusable; a vector of another width than
        ``into``'s is ignored). The texts are distinct, as ``BuildEncoder.encode_into`` asks for them:
        a text given again is found at its first place only.

        One pass: the wanted keys go into a temporary table joined with the vectors (a 5,000-entry
        glossary asks for 62k keys: chunked ``IN`` lists cost a query plan and a B-tree descent per
        chunk), and the rows are copied into the caller's matrix a block at a time. Holding the rows
        first, then joining them into one matrix, had held every vector three times: looking up
        49,979 stored texts of a 5,000-entry glossary peaked 307 MB above what the process held
        before, now 94 MB, its result's 73 MB included (tracemalloc; 1.1 s either way).
        Vectors not marked used for ``_USED_RESOLUTION_S`` are marked now, so that builds in quick
        succession (edits) do not rewrite every row's timestamp.
        """
        found = np.zeros(len(texts), dtype=bool)
        if not self._usable:
            return found
        at = np.arange(len(texts)) if rows is None else np.asarray(rows)
        width = into.shape[1] * into.itemsize
        now = time.time()
        try:
            with closing(self._connect()) as db, db:
                _want(db, texts)
                cursor = db.execute(f"SELECT w.slot, v.vector {_WANTED_VECTORS}", (encoder_id, prompt))
                while fetched := cursor.fetchmany(_READ_ROWS):
                    chunk = [(slot, blob) for slot, blob in fetched if len(blob) == width]
                    slots = [slot for slot, _ in chunk]
                    block = np.frombuffer(b"".join(blob for _, blob in chunk), dtype=into.dtype)
                    into[at[slots]] = block.reshape(len(chunk), into.shape[1])
                    found[slots] = True
                db.execute(
                    "UPDATE vectors SET used = ? WHERE encoder = ? AND prompt = ? AND used < ? "
                    "AND digest IN (SELECT digest FROM wanted)",
                    (now, encoder_id, prompt, now - _USED_RESOLUTION_S),
                )
        except sqlite3.Error as exc:
            self._give_up(exc)
            return np.zeros(len(texts), dtype=bool)
        return found

    def stored(self, encoder_id: str, prompt: str, texts: Sequence[str]) -> int:
        """How many of ``texts`` (distinct) have a vector stored: what a build would not encode
        (0 where the store is unusable). Read without the vectors, which ``lookup`` copies."""
        if not self._usable:
            return 0
        try:
            with closing(self._connect()) as db, db:
                _want(db, texts)
                (count,) = db.execute(f"SELECT count(*) {_WANTED_VECTORS}", (encoder_id, prompt)).fetchone()
        except sqlite3.Error as exc:
            self._give_up(exc)
            return 0
        return int(count)

    def add(self, encoder_id: str, prompt: str, texts: Sequence[str], vectors: np.ndarray) -> None:
        """Store one vector per text, in one transaction."""
        if not self._usable or not texts:
            return
        now = time.time()
        rows = [
            (encoder_id, prompt, digest(t), np.ascontiguousarray(v, dtype=np.float32).tobytes(), now)
            for t, v in zip(texts, vectors, strict=True)
        ]
        try:
            with closing(self._connect()) as db, db:
                db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?, ?)", rows)
        except sqlite3.Error as exc:
            self._give_up(exc)

    def prune(self, keep: int) -> int:
        """Delete all but the ``keep`` most recently used vectors; how many were deleted."""
        if not self._usable:
            return 0
        try:
            with closing(self._connect()) as db, db:
                (count,) = db.execute("SELECT count(*) FROM vectors").fetchone()
                if count <= keep:
                    return 0
                cut = db.execute(
                    "SELECT used FROM vectors ORDER BY used DESC LIMIT 1 OFFSET ?", (keep,)
                ).fetchone()[0]
                return db.execute("DELETE FROM vectors WHERE used <= ?", (cut,)).rowcount
        except sqlite3.Error as exc:
            self._give_up(exc)
            return 0

    def _connect(self) -> sqlite3.Connection:
        if not self._usable:
            raise sqlite3.OperationalError("the embedding store is not in use")
        return sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S)

    def _open(self) -> bool:
        """Create or check the file; a damaged one is moved aside once and started afresh."""
        for attempt in range(2):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                with closing(sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT_S)) as db, db:
                    db.execute("PRAGMA journal_mode=WAL")
                    db.executescript(_SCHEMA)
                    db.execute("SELECT count(*) FROM vectors").fetchone()
                return True
            except sqlite3.DatabaseError as exc:
                if attempt or isinstance(exc, sqlite3.OperationalError):
                    log.warning(
                        "not keeping encoded texts in %s (%s): builds encode every text", self.path, exc
                    )
                    return False
                aside = self.path.with_name(f"{self.path.name}.damaged-{int(time.time())}")
                log.warning("%s is damaged (%s); moved to %s, starting afresh", self.path, exc, aside.name)
                try:
                    os.replace(self.path, aside)
                except OSError:
                    return False
            except OSError as exc:
                log.warning("not keeping encoded texts in %s (%s): builds encode every text", self.path, exc)
                return False
        return False

    def _give_up(self, exc: sqlite3.Error) -> None:
        log.warning("embedding store %s failed (%s); encoding without it", self.path, exc)
        self._opened = False


@runtime_checkable
class Threaded(Protocol):
    """An encoder whose engine can change how many threads it runs on."""

    def use_threads(self, threads: int) -> int:
        """Run on ``threads`` threads from now on (in the calling thread); the number it ran on before."""
        ...


@contextmanager
def threads(encoder: Encoder, count: int) -> Iterator[None]:
    """``encoder`` runs on ``count`` threads inside the block, and on what it had before after it."""
    inner = getattr(encoder, "inner", encoder)
    if not isinstance(inner, Threaded):
        yield
        return
    before = inner.use_threads(count)
    try:
        yield
    finally:
        inner.use_threads(before)


@dataclass
class BuildStatus:
    """What a build is doing now, for people waiting on it (start page, ``/readyz``, the log): texts
    done of those known so far, and the time left at the rate texts have been encoded since the
    stage began."""

    stage: str = "starting"
    done: int = 0
    total: int = 0
    from_store: int = 0
    _began: float = field(default_factory=time.monotonic, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def begin(self, stage: str) -> None:
        with self._lock:
            self.stage, self.done, self.total, self.from_store = stage, 0, 0, 0
            self._began = time.monotonic()

    def expect(self, texts: int, stored: int) -> None:
        with self._lock:
            self.total += texts
            self.done += stored
            self.from_store += stored

    def advance(self, texts: int) -> None:
        with self._lock:
            self.done += texts

    def seconds_left(self) -> float | None:
        """Time left at the encoding rate so far; None before the first batch is encoded."""
        with self._lock:
            encoded = self.done - self.from_store
            if encoded <= 0:
                return None
            rate = encoded / max(time.monotonic() - self._began, 1e-6)
            return (self.total - self.done) / rate

    def describe(self) -> str:
        left = self.seconds_left()
        with self._lock:
            if not self.total:
                return self.stage
            text = f"{self.stage}: {self.done}/{self.total} texts ({self.from_store} already encoded)"
        return text if left is None else f"{text}, about {_duration(left)} left"


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds} s" if seconds < 120 else f"{round(seconds / 60)} min"


class BuildEncoder:
    """The serving encoder as index builds and calibration use it (see the module docstring)."""

    def __init__(
        self,
        inner: Encoder,
        store: EmbeddingStore,
        status: BuildStatus,
        progress: bool = False,
        bulk: Callable[[int], Encoder | None] | None = None,
        bulk_min_texts: int = BULK_MIN_TEXTS,
        between_batches: Callable[[], None] | None = None,
    ) -> None:
        """``bulk``: for a number of texts to encode, an encoder that matches ``inner`` and is faster
        in batches (or None); asked for calls with at least ``bulk_min_texts`` texts to encode
        (``index.bulk``; 0: never). ``between_batches``: called after each batch is stored (the
        caller's housekeeping: ``bot.allocation.GiveBackOnGrowth``)."""
        self.inner = inner
        self.bulk = bulk if bulk_min_texts > 0 else None
        self.bulk_min_texts = bulk_min_texts
        self.between_batches = between_batches
        self.id: str = inner.id
        self.dim: int = inner.dim
        self.store = store
        self.status = status
        self.progress = progress
        #: Texts this encoder has encoded (not found in the store) and the seconds that took.
        self.encoded = 0
        self.encoding_s = 0.0
        self._asked = 0

    def encode_queries(self, texts: list[str]) -> np.ndarray:
        return self._encoded("query", texts)

    def encode_passages(self, texts: list[str]) -> np.ndarray:
        return self._encoded("passage", texts)

    def _encoded(self, prompt: Prompt, texts: list[str]) -> np.ndarray:
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        self.encode_into(prompt, texts, out, np.arange(len(texts)))
        return out

    def encode_into(self, prompt: Prompt, texts: list[str], out: np.ndarray, rows: np.ndarray) -> None:
        """Text ``i``'s vector into ``out[rows[i]]`` (``index.encoders.base.encode_into``): the
        stored ones read straight into it, the rest encoded once per distinct text (entries may share
        a text), shortest first so that each batch is of like lengths (padding backends pad little)."""
        self._asked += len(texts)
        first: dict[str, int] = {}
        for i, text in enumerate(texts):
            first.setdefault(text, i)
        unique = list(first)
        at = rows[list(first.values())]
        have = self.store.lookup(self.id, prompt, unique, out, at)
        missing = sorted(np.flatnonzero(~have).tolist(), key=lambda i: len(unique[i]))
        found = len(unique) - len(missing)
        self.status.expect(len(unique), found)
        if missing:
            log.info("%s: %d texts to encode, %d already encoded", self.status.stage, len(missing), found)
        encoder = self.inner
        if self.bulk is not None and len(missing) >= self.bulk_min_texts:
            encoder = self.bulk(len(missing)) or encoder
        encode = encoder.encode_queries if prompt == "query" else encoder.encode_passages
        bar = tqdm(total=len(missing), desc=self.status.stage, unit="text", disable=not self.progress)
        started = time.perf_counter()
        for start in range(0, len(missing), BUILD_BATCH):
            slots = missing[start : start + BUILD_BATCH]
            fresh = [unique[i] for i in slots]
            vectors = encode(fresh)
            out[at[slots]] = vectors
            self.store.add(self.id, prompt, fresh, vectors)
            self.status.advance(len(fresh))
            bar.update(len(fresh))
            if self.between_batches is not None:
                self.between_batches()
        bar.close()
        self.encoded += len(missing)
        self.encoding_s += time.perf_counter() - started
        if len(unique) < len(texts):  # a text asked again: its first row's vector
            source = np.array([first[t] for t in texts])
            again = np.flatnonzero(source != np.arange(len(texts)))
            out[rows[again]] = out[rows[source[again]]]

    def end_bulk(self) -> None:
        """From here on, encode with the serving encoder alone (the store still first), and let the
        bulk backend go: its graph, session and tokenizer hold ~500 MB that calibration, which comes
        next, would otherwise add to. For the questions a calibration asks: its confidence learns
        from their vectors, so they must be the vectors serving gives a question, not the bulk
        backend's, which differ by 1e-4 in cosine and move near ties."""
        self.bulk = None
        gc.collect()

    def taken(self, count: int) -> None:
        """``count`` texts of this build came from the last index (``index.earlier``), not from this
        encoder: they are used all the same, and the store keeps room for them when it is pruned
        (counted as asked for, a one-entry edit pruned a 5,000-entry glossary's vectors to 50,000)."""
        self._asked += count

    def prune(self) -> int:
        """Age out of the store what recent builds did not use (see ``KEEP_FACTOR``)."""
        return self.store.prune(max(KEEP_FACTOR * self._asked, MIN_KEPT))
