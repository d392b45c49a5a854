"""``python -m benchmarks.ideas [--views DIR] [--out benchmarks/IDEAS.json]``: each idea of the issue
"Answer or decline honestly on every glossary" switched off in turn, on every dev view.

The issue asked for four things around the ranking: pseudo-questions in the languages a glossary
lacks (1), evidence counted in the glossary's own languages (2), a decision and a confidence that
learn from questions the project owns (3), and "no entry for X" read from the name asked (4). Each
row switches one of them off and refits the view's calibration with the same code, so the
difference from "full" is what that idea gives today, after every later change. "full" is each
view as it serves (``benchmarks.lovo``'s "own"): for the bundled glossary, the calibration shipped
with its prebuilt index, which a refit on the machine that made it gives to the last digit.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks import lovo
from benchmarks.dev_views import arguments, record, views
from benchmarks.lovo import figures, judged
from bot import evaluation
from bot.core import GlossaryBot
from bot.search import calibration, transfer
from bot.settings import Settings
from glossary import languages_of


@dataclass(frozen=True)
class Idea:
    """One row: what is switched off, and the issue's "What to build" item it belongs to."""

    item: int
    options: dict[str, object] = field(default_factory=dict)  # RetrievalOptions switched off
    other_languages: bool = True  # pseudo-questions asking names in the languages a glossary lacks
    borrowed: bool = True  # the real questions borrowed for the glossary's languages
    across: bool = True  # the borrowed in-scope ones asked across scripts, in the answer-or-decline model


IDEAS: dict[str, Idea] = {
    "− names asked in the language the glossary lacks": Idea(1, other_languages=False),
    "− unknown words counted in the glossary's scripts": Idea(2, options={"own_scripts": False}),
    "− borrowed questions (pseudo-questions alone)": Idea(3, borrowed=False),
    "− borrowed questions in the answer-or-decline model": Idea(3, across=False),
    '− "no entry for X" from the name asked': Idea(4, options={"other_term": False}),
}
#: What each row is judged by: ``benchmarks.lovo``'s figures, and the answers labelled "Exact match"
#: on a wrong entry.
FIGURES = (*lovo.FIGURES, "exact_wrong")


def rows_for(idea: Idea, own: transfer.Borrowed) -> transfer.Borrowed:
    """The borrowed rows ``idea`` fits with: all of the glossary's, none, or none in the
    answer-or-decline model (it reads only those flagged as asked across scripts)."""
    if not idea.borrowed:
        return transfer.Borrowed()
    if not idea.across:
        return own.model_copy(update={"across": [False] * len(own.across)})
    return own


def switched_off(
    bot: GlossaryBot, idea: Idea, own: transfer.Borrowed, items: list[evaluation.EvalItem]
) -> dict[str, float | None]:
    """``bot`` with ``idea`` switched off and its calibration refitted, judged on ``items``."""
    retriever = bot.retriever.with_options(bot.retriever.options.model_copy(update=idea.options))
    plain = GlossaryBot(bot.glossary, retriever, bot.calibration, bot.settings, sentences=bot.sentences)
    return judged(plain, rows_for(idea, own), items, FIGURES, idea.other_languages)


def measure(settings: Settings, questions: Path, _made_from_it: bool) -> dict[str, dict[str, float | None]]:
    bot = GlossaryBot.load(settings)
    items = evaluation.load_items(questions)
    own = transfer.borrowed(
        languages_of(list(bot.glossary.entries)), calibration.VERSION, calibration.FEATURES
    )
    runs = {"full": figures(bot, items, FIGURES)}
    runs.update({name: switched_off(bot, idea, own, items) for name, idea in IDEAS.items()})
    return runs


def table(runs: dict[str, dict[str, dict]]) -> str:
    """One row per idea switched off, one column per view: A&R / OOS↓ / IN↓ / ECE / shown✓."""
    names = list(runs)
    lines = [
        "| switched off (issue item) | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for row in ["full", *IDEAS]:
        label = "**full**" if row == "full" else f"{row} ({IDEAS[row].item})"
        cells = [_cell(runs[view][row]) for view in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(figure: dict[str, float | None]) -> str:
    keys = ("answered_right", "out_declined", "in_declined", "ece", "shown_right")
    return " / ".join("–" if figure[k] is None else f"{figure[k]:.3f}" for k in keys)


def main() -> None:
    args = arguments(__doc__ or "")
    runs = {name: measure(*view) for name, view in views(args.views).items()}
    print(table(runs))
    if args.out is not None:
        record(args.out, "benchmarks.ideas", ideas={n: i.item for n, i in IDEAS.items()}, runs=runs)


if __name__ == "__main__":
    main()
