"""``python -m benchmarks.answers_snapshot OUT.json``: every answer the bot gives on the dev sets, as JSON.

A change meant to keep behaviour (a refactor) is checked by running this before and after it and
comparing the two files (``--compare BEFORE.json AFTER.json`` names the first differences): the
same questions must get the same text, kind, citations, confidence, label and details. ``make
eval`` compares rankings only; this compares what the asker reads.

Asked of each glossary: every question of its dev set; then, after each answer, the follow-ups a
chat sends ("give me an example", "tell me more", the other language, each with the answer in the
history as the app records it, and "give me an example" once more with a history that has only the
answer's text, as an API caller's); the question again with the other interface language preferred;
and the how-to and problem questions of ``benchmarks/data/advice.jsonl`` (FAQ, remedy and decline
answers, bundled glossary only); a few generic probes (small talk, a problem, an empty and an
over-long question); and, made from each glossary's own entries, "opposite of X" and "X vs Y" for
the first entries, so that every kind of reply is compared. Nothing is tuned here: it only records.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

from benchmarks.config import REPO  # after the offline switches above
from bot.core import GlossaryBot
from bot.settings import Settings

EVAL = REPO.parent / "shared" / "eval"
ADVICE = Path(__file__).parent / "data" / "advice.jsonl"
#: name -> (glossary files, project extras on?, question files)
FOREIGN = EVAL / "foreign" / "cncf-hi"
SETS: dict[str, tuple[list[Path], bool, list[Path]]] = {
    "bundled": ([], True, [EVAL / "dev.jsonl", ADVICE]),
    "bundled-no-extras": ([], False, [EVAL / "dev.jsonl"]),
    "cncf-hi": ([FOREIGN / "glossary.yaml"], True, [FOREIGN / "queries.jsonl"]),
}
#: Questions about no glossary in particular that reach the replies the dev sets rarely do.
PROBES = (
    "hi",
    "thanks!",
    "who are you?",
    "नमस्ते",
    "why does my GPU run out of memory with long sequences",
    "training ke time loss kyu badhta hai",
    "how do I reset my laptop password",
    "?!? ...",
    "what is dropout " * 300,
)
#: Entries of each glossary asked "opposite of X" and compared in pairs ("X vs Y").
MADE_FROM_ENTRIES = 30
FOLLOW_UPS = ("give me an example", "tell me more", "iska example do")
#: The follow-up that asks for the other language, by the language the answer was given in.
OTHER_LANGUAGE = {"en": "in Hindi please", "hi": "in English please"}


def _questions(files: list[Path]) -> Iterator[str]:
    for file in files:
        for line in file.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                yield row.get("query") or row["question"]  # the dev sets' key, or advice.jsonl's


def _made_from(bot: GlossaryBot) -> list[str]:
    """ "Opposite of X" and "X vs Y" for the glossary's first entries, in English and Hindi."""
    entries = list(bot.glossary.entries)[:MADE_FROM_ENTRIES]
    opposites = [f"opposite of {e.term_en}" for e in entries] + [
        f"{e.term_hi} का विपरीत" for e in entries[:5]
    ]
    pairs = [f"{a.term_en} vs {b.term_en}" for a, b in zip(entries[::2], entries[1::2], strict=False)]
    return [*opposites, *pairs, f"{entries[0].term_hi} और {entries[1].term_hi} में क्या अंतर है"]


def _record(asked: str, how: str, answer) -> dict:
    return {
        "asked": asked,
        "how": how,
        **answer.model_dump(
            mode="json",
            include={
                "text",
                "details",
                "kind",
                "citations",
                "confidence",
                "label",
                "abstained",
                "lang",
                "notice",
                "related",
                "faq_id",
                "advice",
            },
        ),
        "hits": [[h.entry.id, h.score, h.rank] for h in answer.hits],
    }


def _turn(question: str, answer, with_ids: bool) -> list[dict]:
    reply: dict = {"role": "assistant", "content": answer.text}
    if with_ids:
        reply["metadata"] = {"entry_ids": answer.entry_ids}
    return [{"role": "user", "content": question}, reply]


def _asked_of(bot: GlossaryBot, question: str) -> Iterator[dict]:
    first = bot.answer(question)
    yield _record(question, "question", first)
    history = _turn(question, first, with_ids=True)
    other = OTHER_LANGUAGE["en" if first.lang == "en" else "hi"]
    for follow in (*FOLLOW_UPS, other):
        yield _record(follow, f"after: {question}", bot.answer(follow, history))
    bare = _turn(question, first, with_ids=False)
    yield _record(FOLLOW_UPS[0], f"after (text only): {question}", bot.answer(FOLLOW_UPS[0], bare))
    preferred = "hi" if first.lang == "en" else "en"
    yield _record(question, f"preferred {preferred}", bot.answer(question, preferred=preferred))


def snapshot() -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for name, (paths, extras, files) in SETS.items():
        bot = GlossaryBot.load(Settings(glossary_paths=paths, project_extras=extras))
        questions = [*_questions(files), *PROBES, *_made_from(bot)]
        out[name] = [row for q in questions for row in _asked_of(bot, q)]
        print(f"{name}: {len(out[name])} answers", file=sys.stderr)
    return out


def compare(before: dict[str, list[dict]], after: dict[str, list[dict]], show: int = 5) -> int:
    """Print the first differences; the number of answers that differ."""
    differ = 0
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name, []), after.get(name, [])
        if len(old) != len(new):
            print(f"{name}: {len(old)} answers before, {len(new)} after")
            differ += abs(len(old) - len(new))
        for a, b in zip(old, new, strict=False):
            if a != b:
                differ += 1
                if differ <= show:
                    keys = [k for k in a if a[k] != b.get(k)]
                    print(f"{name}: {a['asked']!r} ({a['how']}) differs in {keys}")
        print(f"{name}: {len(new)} answers compared")
    return differ


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.answers_snapshot", description=__doc__)
    parser.add_argument("out", type=Path, nargs="?", help="Write the answers here (JSON).")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args(argv)
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        differ = compare(before, after)
        print("identical" if not differ else f"{differ} answers differ")
        sys.exit(1 if differ else 0)
    if args.out is None:
        parser.error("name the output file, or --compare two of them")
    args.out.write_text(json.dumps(snapshot(), ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
