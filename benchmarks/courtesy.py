"""``python -m benchmarks.courtesy [--views DIR] [--out benchmarks/COURTESY.json]``: each dev view's
questions asked with the courtesy people wrap a question in, against the questions as written.

A support desk's askers greet the bot, address it, thank it and say please ("hi, …", "sir, …",
"… pls help", "… 🙏"). None of it changes what is asked, so each dev question wrapped in each of
``WRAPPERS`` should be answered as it is bare: the same first entry, the same in-scope questions
answered right, the same out-of-scope ones declined. Nothing here is written for a glossary: the
wrappers are fixed, and the questions are the dev sets' own.

Per wrapper, pooled over the dev views (``benchmarks.dev_views.views``), of the ranking and decision
that ``GlossaryBot.retrieve`` gives (what ``make eval`` judges): questions ``in_scope`` and
``out_of_scope``, ``right_first`` (R@1), ``answered_right`` (not declined and the right entry first),
``in_declined`` and ``out_declined``.
"""

from __future__ import annotations

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks.dev_views import arguments, pooled, record, views
from bot.core import GlossaryBot
from bot.evaluation import EvalItem, Outcome, load_items, retrieve_with, run

#: Courtesy around a question, in English, Hinglish and Hindi; the first is the question as written.
WRAPPERS = (
    "{}",
    "hi, {}",
    "sir, {}",
    "hello bot, {}",
    "ok, {}",
    "Q: {}",
    "नमस्ते, {}",
    "{} please",
    "{} sir",
    "{} bhai",
    "{} जी",
    "{} 🙏",
    "{} (urgent)",
    "{} thanks in advance",
    "{} pls help",
)
#: What is counted per wrapper.
FIGURES = ("in_scope", "out_of_scope", "right_first", "answered_right", "in_declined", "out_declined")


def counted(outcomes: list[Outcome]) -> dict[str, int]:
    inside = [o for o in outcomes if o.in_scope]
    return {
        "in_scope": len(inside),
        "out_of_scope": len(outcomes) - len(inside),
        "right_first": sum(o.first_right for o in inside),
        "answered_right": sum(o.first_right and not o.abstained for o in inside),
        "in_declined": sum(o.abstained for o in inside),
        "out_declined": sum(o.abstained for o in outcomes if not o.in_scope),
    }


def wrapped(bot: GlossaryBot, items: list[EvalItem]) -> dict[str, dict[str, int]]:
    """Per wrapper: the view's questions so wrapped, counted."""
    ask = retrieve_with(bot)
    return {
        wrapper: counted(run([i.model_copy(update={"query": wrapper.format(i.query)}) for i in items], ask))
        for wrapper in WRAPPERS
    }


def table(total: dict[str, dict[str, int]]) -> str:
    lines = [
        "| asked | R@1 | answered right | in-scope declined | out-of-scope declined |",
        "|---|---|---|---|---|",
    ]
    for wrapper in WRAPPERS:
        c = total[wrapper]
        shares = [c[k] / c["in_scope"] for k in ("right_first", "answered_right", "in_declined")]
        cells = [f"{s:.3f}" for s in (*shares, c["out_declined"] / c["out_of_scope"])]
        lines.append(f"| {wrapper.format('…')} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    args = arguments(__doc__ or "")
    runs = {
        name: wrapped(GlossaryBot.load(settings, sentences=False), load_items(questions))
        for name, (settings, questions, _) in views(args.views).items()
    }
    total = pooled(runs)
    print(table(total))
    if args.out is not None:
        record(args.out, "benchmarks.courtesy", runs=runs, pooled=total)


if __name__ == "__main__":
    main()
