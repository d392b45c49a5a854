"""``python -m benchmarks.lovo [--views DIR] [--out benchmarks/LOVO.json]``: each dev view judged with
the borrowed questions made from it left out.

A glossary's confidence learns from real questions the project owns, asked of a view of its own
glossary in the same languages (``bot.search.transfer``). The bundled glossary's dev views are that
glossary, so the rows they borrow were made from the very view being judged: its entries, its
paraphrases. A user's glossary never gets rows made from it. Each view is judged twice in one run:
as it serves, fitted with the rows for its languages (the bundled glossary: the calibration shipped
with its prebuilt index, fitted so), and refitted with the rows of every other view pooled
(``transfer.left_out``). The difference is what judging in-sample flatters. CNCF
and its one-language views are not among the views the rows were made from, so nothing is left out
for them: their two fits are the same, and they are the out-of-sample judge either way. The other
views still share the bundled glossary's entries, so this leaves one view out, not one glossary.

``--views``: the folder ``make eval`` writes the one-language views into (``.cache/eval/views``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks.dev_views import arguments, record, views
from bot import evaluation
from bot.core import GlossaryBot
from bot.search import calibration, transfer
from bot.settings import Settings
from glossary import languages_of

#: The headline figures each fit is judged by (``evaluation.summary_row``'s keys); R@1 is the same
#: for both fits, since the borrowed rows reach only the confidence.
FIGURES = ("recall_at_1", "out_declined", "in_declined", "answered_right", "ece", "shown_right", "out_shown")


def judged(
    bot: GlossaryBot,
    rows: transfer.Borrowed,
    items: list[evaluation.EvalItem],
    keys: Sequence[str] = FIGURES,
    other_languages: bool = True,
) -> dict[str, float | None]:
    """``bot`` refitted with the borrowed ``rows`` (and ``other_languages``: ``calibration.fit``), and
    its headline figures on ``items``."""
    fitted = calibration.fit(bot.retriever, borrowed=rows, other_languages=other_languages)
    refitted = GlossaryBot(
        bot.glossary,
        bot.retriever.with_options(fitted.options),
        fitted,
        bot.settings,
        sentences=bot.sentences,
    )
    return figures(refitted, items, keys)


def figures(
    bot: GlossaryBot, items: list[evaluation.EvalItem], keys: Sequence[str] = FIGURES
) -> dict[str, float | None]:
    """``bot``'s headline figures (``keys``) on ``items``."""
    outcomes = evaluation.with_labels(evaluation.run(items, evaluation.retrieve_with(bot)), bot)
    row = evaluation.summary_row(evaluation.grouped(outcomes))
    return {key: row[key] for key in keys}


def measure(settings: Settings, questions: Path, made_from_it: bool) -> dict[str, object]:
    bot = GlossaryBot.load(settings)
    items = evaluation.load_items(questions)
    languages = languages_of(list(bot.glossary.entries))
    own = transfer.borrowed(languages, calibration.VERSION, calibration.FEATURES)
    left = transfer.left_out(languages, calibration.VERSION, calibration.FEATURES) if made_from_it else own
    # as it serves: fitted with the rows for its languages when it loaded, or, for the bundled
    # glossary, the calibration shipped with its prebuilt index (fitted so on the machine that made
    # it; a refit here would read this CPU's rounding of the pseudo-questions' vectors)
    served = figures(bot, items)
    return {
        "made_from_it": made_from_it,
        "rows": {"own": len(own.right), "left_out": len(left.right)},
        "own": served,
        "left_out": judged(bot, left, items) if made_from_it else served,
    }


def table(runs: dict[str, dict]) -> str:
    head = "| view | rows own / left out | ECE | OOS↓ | IN↓ | A&R | shown✓ |"
    lines = [head, "|---|---|---|---|---|---|---|"]
    for name, run in runs.items():
        own, left = run["own"], run["left_out"]
        cells = [
            f"{own[k]:.3f} → {left[k]:.3f}"
            for k in ("ece", "out_declined", "in_declined", "answered_right", "shown_right")
        ]
        lines.append(
            f"| {name} | {run['rows']['own']} / {run['rows']['left_out']} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines)


def main() -> None:
    args = arguments(__doc__ or "")
    runs = {name: measure(*view) for name, view in views(args.views).items()}
    print(table(runs))
    if args.out is not None:
        record(args.out, "benchmarks.lovo", runs=runs)


if __name__ == "__main__":
    main()
