"""``python -m benchmarks.maintainers_report``: the maintainers' report over a store of 10,000 questions.

A SQLite store in a temp folder is filled with ``--questions`` recorded questions (by default
10,000: 80 % declined, nearly all of them distinct texts — the worst case for grouping — and a
vote with a comment on every tenth), then each run builds the report in a fresh process (the bundled
glossary, the default encoder) and reports its wall time and peak memory (max RSS). The floor, in
the same run: a fresh process that loads the same bot and reads the same rows without building the
report; then, in the same process, 100 more questions are declined and the report is made again
(what the maintainers' area does: earlier vectors are kept). Prints the median of ``--runs`` runs
and the ratios to the floor. ``--unbounded`` groups
every declined text, as the report did before it was bounded (quadratic).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.records import Store
from bot.records.tables import answers, votes

TOPICS = (
    "quantum annealing",
    "vector database",
    "prompt caching",
    "graph neural network",
    "diffusion sampler",
    "speculative decoding",
    "mixture of experts",
    "retrieval augmented generation",
    "kv cache eviction",
    "sparse attention",
    "federated averaging",
    "contrastive loss",
    "tokenizer merges",
    "beam search",
)
FORMS = (
    "what is {t} {n}",
    "{t} kya hai {n}",
    "explain {t} for case {n}",
    "{t} ka matlab {n}",
    "how does {t} {n} work",
)
SEED = 23


def fill(url: str, questions: int) -> None:
    """The rows the app would have recorded, written in one transaction (how they were written is
    not what is measured)."""
    store = Store.open(url)
    rng = random.Random(SEED)
    now = datetime.now(UTC)
    asked, voted = [], []
    for n in range(questions):
        declined = n % 5 != 0
        answer_id = uuid.UUID(int=rng.getrandbits(128)).hex
        asked.append(
            {
                "id": answer_id,
                "ts": now - timedelta(seconds=questions - n),
                "question": rng.choice(FORMS).format(t=rng.choice(TOPICS), n=n)
                if declined
                else "What is dropout?",
                "lang": "en",
                "kind": "declined" if declined else "answer",
                "entry_ids": [] if declined else ["dropout"],
                "confidence": 0.2,
                "glossary_version": "bench",
                "channel": "api",
            }
        )
        if n % 10 == 0:
            voted.append(
                {"answer_id": answer_id, "ts": now, "vote": "dislike", "comment": f"=HYPERLINK({n})"}
            )
    with store.engine.begin() as conn:
        conn.execute(answers.insert(), asked)
        conn.execute(votes.insert(), voted)


#: Questions declined between one report and the next in the same process (the area's case).
NEWLY_DECLINED = 100
CHILD = (
    f"NEWLY_DECLINED = {NEWLY_DECLINED}\n"
    + """
import json, resource, sys, time
from bot.core import GlossaryBot
from bot.records import AnswerRecord, Store
from bot.records import report as maintainers
if sys.argv[3] == "unbounded":
    maintainers.MAX_GROUPED = 10**9
bot = GlossaryBot.load()
store = Store.open(sys.argv[1])
began = time.perf_counter()
again = 0.0
if sys.argv[2] == "report":
    memo = maintainers.VectorMemo()
    built = maintainers.build(store, bot, memo=memo)
    maintainers.to_csv(built), maintainers.to_markdown(built)
    seconds = time.perf_counter() - began
    for n in range(NEWLY_DECLINED):
        new = AnswerRecord(f"what is a brand new topic {n}", "en", "declined", (), 0.1, "b", "api")
        store.record_answer(new)
    began = time.perf_counter()
    maintainers.build(store, bot, memo=memo)
    again = time.perf_counter() - began
else:
    store.answers_between(None, None)
    seconds = time.perf_counter() - began
rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"s": seconds, "again_s": again, "rss_mb": rss_mb}))
"""
)


def run(url: str, what: str, grouping: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, url, what, grouping], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--unbounded", action="store_true")
    args = parser.parse_args()
    grouping = "unbounded" if args.unbounded else "bounded"
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'records.sqlite3'}"
        began = time.perf_counter()
        fill(url, args.questions)
        print(f"filled {args.questions} questions in {time.perf_counter() - began:.0f} s", file=sys.stderr)
        floors = [run(url, "read", grouping) for _ in range(args.runs)]
        reports = [run(url, "report", grouping) for _ in range(args.runs)]
    floor_s = statistics.median(r["s"] for r in floors)
    floor_mb = statistics.median(r["rss_mb"] for r in floors)
    report_s = statistics.median(r["s"] for r in reports)
    report_mb = statistics.median(r["rss_mb"] for r in reports)
    again_s = statistics.median(r["again_s"] for r in reports)
    print(
        f"| report over {args.questions:,} questions ({grouping}) | {report_s:.1f} s | {report_mb:.0f} MB | "
        f"floor (load the bot, read the rows): {floor_s:.2f} s, {floor_mb:.0f} MB | "
        f"× {report_s / max(floor_s, 1e-9):.0f} time, × {report_mb / floor_mb:.2f} memory |"
    )
    print(
        f"| the next report in the same process, {NEWLY_DECLINED} questions declined since "
        f"| {again_s:.1f} s | "
        f"(same process) | floor: {floor_s:.2f} s | × {again_s / max(floor_s, 1e-9):.0f} time |"
    )


if __name__ == "__main__":
    main()
