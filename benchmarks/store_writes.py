"""``python -m benchmarks.store_writes``: write throughput of the question store, SQLite and PostgreSQL.

8 writer processes at once (as 8 app workers or replicas would be), each recording answers and a
vote on each, every write its own transaction as the app does it. Prints votes/s (the vote writes
alone, on answers recorded beforehand) and answers+votes/s (an answered question and its vote),
the median of ``--runs`` runs, for a SQLite file in a temp folder and a throwaway PostgreSQL
server (``tests/postgres.py``). The machine is shared: read the figures as an order of magnitude
and against each other, not as a limit.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import tempfile
import time
from collections.abc import Callable

from bot.records import AnswerRecord, Store
from tests.postgres import postgres_server

WRITERS = 8
PER_WRITER = 200
ASKED = AnswerRecord("What is dropout?", "en", "answer", ("dropout",), 0.9, "bench", "api")


def _votes(url: str, ids: list[str], start: multiprocessing.synchronize.Event) -> None:
    store = Store.open(url)
    start.wait()
    for n, answer_id in enumerate(ids):
        store.record_vote(answer_id, "like" if n % 2 else "dislike")


def _answers_and_votes(url: str, count: int, start: multiprocessing.synchronize.Event) -> None:
    store = Store.open(url)
    start.wait()
    for n in range(count):
        store.record_vote(store.record_answer(ASKED), "like" if n % 2 else "dislike", "bench")


def _timed(target: Callable[..., None], args: list[tuple]) -> float:
    """Seconds from the start signal until every writer is done (their connections opened before)."""
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    processes = [context.Process(target=target, args=(*a, start)) for a in args]
    for p in processes:
        p.start()
    time.sleep(2)  # let every writer open its store and wait at the signal
    began = time.perf_counter()
    start.set()
    for p in processes:
        p.join()
    if any(p.exitcode for p in processes):
        raise SystemExit(f"a writer failed: exit codes {[p.exitcode for p in processes]}")
    return time.perf_counter() - began


def measure(url: str, runs: int, per_writer: int) -> dict[str, float]:
    store = Store.open(url)
    vote_rates, pair_rates = [], []
    for _ in range(runs):
        ids = [[store.record_answer(ASKED) for _ in range(per_writer)] for _ in range(WRITERS)]
        vote_rates.append(WRITERS * per_writer / _timed(_votes, [(url, i) for i in ids]))
        pair_rates.append(WRITERS * per_writer / _timed(_answers_and_votes, [(url, per_writer)] * WRITERS))
    return {"votes/s": statistics.median(vote_rates), "answers+votes/s": statistics.median(pair_rates)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--per-writer", type=int, default=PER_WRITER)
    args = parser.parse_args(argv)
    print(f"{WRITERS} writer processes x {args.per_writer} writes, median of {args.runs} runs")
    with tempfile.TemporaryDirectory() as folder, postgres_server() as postgres:
        for name, url in (("SQLite (WAL)", f"sqlite:///{folder}/records.sqlite3"), ("PostgreSQL", postgres)):
            figures = measure(url, args.runs, args.per_writer)
            print(f"{name:14} " + "  ".join(f"{k} {v:8.0f}" for k, v in figures.items()))


if __name__ == "__main__":
    main()
