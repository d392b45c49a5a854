"""``python -m benchmarks.advice [--out benchmarks/ADVICE.json]``: how well the bot advises on how-to
and problem questions.

The questions (``benchmarks/data/advice.jsonl``, written for this in English, Hindi and Hinglish,
about the bundled glossary only) each list the entries (or FAQ items) whose text answers them; an
empty list means no entry does and the honest reply is a decline. Two measures:

* ``sentence_search``: the sentence-level search alone (``bot.search.remedies``, every question,
  whatever the router would do with it) swept over cut-offs. At a cut-off, the entries offered for a
  question are its closest ones whose closest sentence reaches it (near ties of the first only);
  ``precision``: offered entries that are listed for their question; ``recall``: answerable
  questions offered at least one listed entry; ``declines``: unanswerable questions offered none.
  Swept with the margin behind the first entry within which others are offered too; ``chosen``:
  the pair with the best F1 of precision and recall, on the whole set: what ``MIN_COSINE`` and
  ``MAX_BEHIND`` must be (a test holds them equal).
* ``answers``: the bot's answers, per register and in all: ``precision`` (of the questions answered
  with advice, the share whose first cited entry or FAQ item is listed), ``answered`` (of the
  answerable, the share given advice: a card, the FAQ, entries' sentences, a comparison; a decline
  or a near miss, which says the glossary has no entry for it, is none), ``honest_declines`` (of
  the unanswerable, the share given none) and ``leads_with_advice`` (of the right answers, the
  share that opens with the sentence that answers: a usage, caution or example line, the FAQ's).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np

from bot.core import GlossaryBot
from bot.reply.answer import Answer
from bot.search import remedies
from bot.search.remedies import MAX_REMEDIES, closest_per_entry
from glossary.files import atomic_write

DATA = Path(__file__).parent / "data" / "advice.jsonl"
#: Replies that give no advice: a decline, and a near miss or an unsure reply, which list the
#: closest entries (an in-scope question that describes an entry may still find it there, but it is
#: no answer to "what to do").
NOT_ANSWERED = frozenset({"declined", "near miss", "unsure", "small talk", "no context"})
#: The cut-offs swept: e5 cosines of a question against any sentence lie in this band.
SWEEP = tuple(round(float(c), 3) for c in np.arange(0.80, 0.9501, 0.005))
#: How far behind the first entry others may be and still be offered (1.0: any, up to MAX_REMEDIES).
MARGINS = (0.005, 0.01, 0.02, 0.03, 1.0)


def load_rows(path: Path = DATA) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _given(answer: Answer) -> list[str]:
    return [answer.faq_id] if answer.faq_id else answer.entry_ids


def _leads(answer: Answer) -> bool:
    """The answer opens with the sentence that answers (the FAQ's answer, or a chosen advice line)."""
    return answer.kind == "faq" or bool(answer.advice)


def measure(bot: GlossaryBot, rows: list[dict]) -> dict[str, dict[str, float | int]]:
    """The bot's answers, per register and in all (see the module docstring)."""
    tally: dict[str, defaultdict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows:
        answer = bot.answer(row["question"])
        given = [] if answer.kind in NOT_ANSWERED else _given(answer)
        for group in (row["register"], "all"):
            t = tally[group]
            if not row["expected"]:
                t["unanswerable"] += 1
                t["declined"] += not given
                continue
            t["answerable"] += 1
            if given:
                t["answered"] += 1
                right = given[0] in row["expected"]
                t["right"] += right
                t["led"] += right and _leads(answer)
    return {group: _rates(t) for group, t in sorted(tally.items())}


def _rates(t: defaultdict[str, int]) -> dict[str, float | int]:
    return {
        "questions": t["answerable"] + t["unanswerable"],
        "precision": round(t["right"] / t["answered"], 3) if t["answered"] else 0.0,
        "answered": round(t["answered"] / t["answerable"], 3) if t["answerable"] else 0.0,
        "honest_declines": round(t["declined"] / t["unanswerable"], 3) if t["unanswerable"] else 1.0,
        "leads_with_advice": round(t["led"] / t["right"], 3) if t["right"] else 0.0,
    }


def closest(bot: GlossaryBot, rows: list[dict]) -> list[list[tuple[str, float]]]:
    """Per question, its closest entries by sentence (at most MAX_REMEDIES) with their cosines."""
    assert bot.sentences is not None, "the bot was loaded without its sentence index"
    out = []
    for row in rows:
        ranking = bot.retrieve(row["question"]).ranking
        assert ranking is not None and ranking.vector is not None
        out.append(closest_per_entry(ranking.vector, bot.sentences)[:MAX_REMEDIES])
    return out


def at_cut_off(
    rows: list[dict], found: list[list[tuple[str, float]]], cut: float, behind: float
) -> dict[str, float]:
    """Precision, recall, declines and F1 of the sentence search at one cut-off and margin."""
    offered = right = answerable = reached = unanswerable = declined = 0
    for row, near in zip(rows, found, strict=True):
        picked = [entry for entry, _ in remedies.offered(near, cut, behind)]
        hits = sum(entry in row["expected"] for entry in picked)
        offered += len(picked)
        right += hits
        if row["expected"]:
            answerable += 1
            reached += hits > 0
        else:
            unanswerable += 1
            declined += not picked
    precision = right / offered if offered else 1.0
    recall = reached / answerable
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "cut_off": cut,
        "behind": behind,
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "declines": round(declined / unanswerable, 3) if unanswerable else 1.0,
        "f1": round(f1, 3),
    }


def sweep(rows: list[dict], found: list[list[tuple[str, float]]]) -> dict[str, object]:
    """Every cut-off of SWEEP with every margin of MARGINS, and the chosen pair: the best F1 (ties:
    the higher cut-off, then the wider margin)."""
    table = [at_cut_off(rows, found, cut, behind) for behind in MARGINS for cut in SWEEP]
    chosen = max(table, key=lambda r: (r["f1"], r["cut_off"], r["behind"]))
    return {"chosen": chosen, "sweep": table}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the figures as JSON here")
    args = parser.parse_args()
    rows = load_rows()
    bot = GlossaryBot.load()
    result = {
        "command": "python -m benchmarks.advice" + (f" --out {args.out}" if args.out else ""),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "load_average_1m": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
        "questions": len(rows),
        "registers": dict(sorted(defaultdict(int, _count(rows)).items())),
        "sentence_search": sweep(rows, closest(bot, rows)),
        "answers": measure(bot, rows),
    }
    text = json.dumps(result, indent=1, ensure_ascii=False)
    if args.out:
        atomic_write(args.out, (text + "\n").encode())
    json.dump({k: v for k, v in result.items() if k != "sentence_search"}, sys.stdout, ensure_ascii=False)
    print("\nsentence search, chosen cut-off:", result["sentence_search"]["chosen"])  # type: ignore[index]


def _count(rows: list[dict]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for row in rows:
        counts[row["register"]] += 1
    return counts


if __name__ == "__main__":
    main()
