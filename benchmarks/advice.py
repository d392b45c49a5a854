"""``python -m benchmarks.advice``: precision of the advice the bot gives to how-to and problem questions.

The questions (``benchmarks/data/advice.jsonl``, written for this in English, Hindi and Hinglish,
about the bundled glossary only) each list the entries (or FAQ items) whose text answers them; an
empty list means no entry does and the honest reply is a decline. Printed per register and in all:
``precision`` (of the questions answered with an entry, the share whose first cited entry or FAQ
item is one of the listed), ``answered`` (of the answerable questions, the share not declined),
``honest_declines`` (of the unanswerable, the share declined) and ``leads_with_advice`` (of the
correct card answers, the share whose quick text, read first, already holds the entry's usage line
rather than only its definition).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from bot.core import GlossaryBot
from bot.markdown import escape_md
from bot.reply.answer import Answer
from bot.reply.cards import fields
from bot.understand.text import side

DATA = Path(__file__).parent / "data" / "advice.jsonl"
NOT_ANSWERED = frozenset({"declined", "small talk", "no context"})


def _given(answer: Answer) -> list[str]:
    return [answer.faq_id] if answer.faq_id else answer.entry_ids


def _leads(answer: Answer, bot: GlossaryBot) -> bool:
    if answer.kind != "answer" or not answer.entry_ids:
        return answer.kind in ("faq", "remedy")  # these open with the answering sentence
    entry = bot.glossary.get(answer.entry_ids[0])
    usage = fields(entry, side(answer.lang))["usage"]
    return bool(usage) and escape_md(usage)[:40] in answer.text


def measure(bot: GlossaryBot, rows: list[dict]) -> dict[str, dict[str, float | int]]:
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
                t["led"] += right and _leads(answer, bot)
    out = {}
    for group, t in tally.items():
        out[group] = {
            "questions": t["answerable"] + t["unanswerable"],
            "precision": round(t["right"] / t["answered"], 3) if t["answered"] else 0.0,
            "answered": round(t["answered"] / t["answerable"], 3) if t["answerable"] else 0.0,
            "honest_declines": round(t["declined"] / t["unanswerable"], 3) if t["unanswerable"] else 1.0,
            "leads_with_advice": round(t["led"] / t["right"], 3) if t["right"] else 0.0,
        }
    return out


def main() -> None:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]
    bot = GlossaryBot.load()
    print(json.dumps(measure(bot, rows), indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
