"""IR evaluation on labelled questions (the dev-set JSONL format).

Each line: ``{"id", "query", "lang", "style", "expected": [exact term headings]}``;
``expected: []`` means the bot should decline. Reported per group:
Recall@1 (the top hit is an expected entry), Recall@5 (share of expected
entries found in the top 5), MRR, out-of-scope questions declined, in-scope
questions wrongly declined, and the expected calibration error (ECE) of the bot's
confidence: the gap between stated confidence and the share of first entries that
were right, averaged over ``ECE_BINS`` equal-width bins weighted by their size
(an out-of-scope question's first entry is never right).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, ValidationError

#: Equal-width confidence bins for the expected calibration error.
ECE_BINS = 10
#: Draws, and their seed, of the ECE a calibrated confidence would show (:func:`ece_floor`).
ECE_FLOOR_DRAWS = 2000
ECE_FLOOR_SEED = 0


class EvalError(ValueError):
    """The evaluation file cannot be read."""


#: Replies that give an entry as the answer. The rest offer the closest entries (a near miss, or
#: "unsure") or decline. The reply's router decides which, reading the name asked as well as the
#: retrieval's decision: what the asker sees.
ANSWERING_KINDS = frozenset({"answer", "comparison", "list", "faq", "remedy", "opposite"})


class EvalItem(BaseModel):
    id: str = ""
    query: str
    lang: str = "?"
    style: str = "?"
    expected: list[str]


class Outcome(BaseModel):
    item: EvalItem
    ranked_terms: list[str]
    abstained: bool
    confidence: float = 0.0
    #: The answer's label ("exact", ...), the entry its card shows and its kind, when answers were read.
    label: str | None = None
    shown: str | None = None
    kind: str | None = None
    labelled: bool = False

    @property
    def exact_on_wrong_entry(self) -> bool:
        """Labelled an exact match while the entry shown is not one asked for."""
        return self.label == "exact" and self.shown not in self.item.expected

    @property
    def in_scope(self) -> bool:
        return bool(self.item.expected)

    @property
    def presented(self) -> bool:
        """The reply gave an entry as the answer (not the closest offered, nor a decline)."""
        return self.kind in ANSWERING_KINDS

    @property
    def presented_right(self) -> bool:
        return self.presented and self.in_scope and self.shown in self.item.expected

    @property
    def first_right(self) -> bool:
        return self.in_scope and self.rank_of_first() == 1

    def rank_of_first(self) -> int | None:
        for rank, term in enumerate(self.ranked_terms, start=1):
            if term in self.item.expected:
                return rank
        return None


class Metrics(BaseModel):
    n_in: int
    n_out: int
    recall_at_1: float | None
    recall_at_5: float | None
    mrr: float | None
    out_abstained: float | None
    in_abstained: float | None
    ece: float | None = None
    #: the ECE a perfectly calibrated confidence would show here (``ece_floor``): the measure's noise
    ece_floor: float | None = None
    #: in-scope questions answered (not declined) with the right first entry
    answered_right: float | None = None
    #: answers labelled an exact match on a wrong entry (a count; None when answers were not read)
    exact_wrong: int | None = None
    #: what askers see (None when answers were not read): in-scope questions whose reply gives the
    #: right entry as the answer, and out-of-scope ones whose reply gives any entry as the answer
    shown_right: float | None = None
    out_shown: float | None = None


def load_items(path: Path) -> list[EvalItem]:
    items = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise EvalError(f"cannot read {path}: {exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            items.append(EvalItem.model_validate_json(line))
        except ValidationError as exc:
            raise EvalError(f"{path}:{number}: not an evaluation item: {exc.errors()[0]['msg']}") from exc
    return items


RetrieveFn = Callable[[str], tuple[list[str], bool, float]]


class Retrieves(Protocol):
    """What evaluation needs of a bot (``GlossaryBot.retrieve``)."""

    def retrieve(self, question: str, k: int | None = None) -> Any: ...


def retrieve_with(bot: Retrieves, k: int = 5) -> RetrieveFn:
    """The bot's top-k term headings, its decision to decline and its confidence, per question."""

    def retrieve(query: str) -> tuple[list[str], bool, float]:
        found = bot.retrieve(query, k)
        return [h.entry.term for h in found.hits], found.abstained, found.confidence

    return retrieve


class Answers(Protocol):
    """What reading the answers needs of a bot (``GlossaryBot.answer``)."""

    def answer(self, question: str) -> Any: ...


def with_labels(outcomes: list[Outcome], bot: Answers) -> list[Outcome]:
    """The outcomes with each question's answer label and the entry its card shows (the first cited)."""
    labelled = []
    for o in outcomes:
        answer = bot.answer(o.item.query)
        shown = answer.citations[0].term if answer.citations else None
        update = {"label": answer.label, "shown": shown, "kind": answer.kind, "labelled": True}
        labelled.append(o.model_copy(update=update))
    return labelled


def run(items: Iterable[EvalItem], retrieve: RetrieveFn) -> list[Outcome]:
    """``retrieve`` maps a query to (ranked term headings, abstained, confidence)."""
    outcomes = []
    for item in items:
        terms, abstained, confidence = retrieve(item.query)
        outcomes.append(Outcome(item=item, ranked_terms=terms, abstained=abstained, confidence=confidence))
    return outcomes


def expected_calibration_error(outcomes: list[Outcome], bins: int = ECE_BINS) -> float | None:
    if not outcomes:
        return None
    right = np.array([[o.first_right for o in outcomes]])
    return float(_binned_gaps(_stated(outcomes), right, bins)[0])


def ece_floor(outcomes: list[Outcome], bins: int = ECE_BINS) -> float | None:
    """The median ECE of a perfectly calibrated confidence with the same stated values on as many
    questions: each question drawn right with the probability it states. On 100–180 questions it is
    0.05–0.09, so a measured ECE near it cannot tell a calibrated confidence from this one, and a
    target under it cannot be shown met on this set."""
    if not outcomes:
        return None
    stated = _stated(outcomes)
    right = np.random.default_rng(ECE_FLOOR_SEED).random((ECE_FLOOR_DRAWS, len(stated))) < stated
    return float(np.median(_binned_gaps(stated, right, bins)))


def _stated(outcomes: list[Outcome]) -> np.ndarray:
    return np.clip([o.confidence for o in outcomes], 0.0, 1.0)


def _binned_gaps(stated: np.ndarray, right: np.ndarray, bins: int) -> np.ndarray:
    """The ECE of each row of ``right`` (which questions were right, one row per draw): the gap
    between stated confidence and the share right, per equal-width bin, weighted by its size."""
    slot = np.minimum((stated * bins).astype(int), bins - 1)
    gaps = np.zeros(right.shape[0])
    for b in np.unique(slot):
        members = slot == b
        gaps += members.mean() * np.abs(stated[members].mean() - right[:, members].mean(axis=1))
    return gaps


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _exact_wrong(outcomes: list[Outcome]) -> int | None:
    if not any(o.labelled for o in outcomes):
        return None
    return sum(o.exact_on_wrong_entry for o in outcomes)


def _share_shown(outcomes: list[Outcome], right: bool) -> float | None:
    """The share of these outcomes whose reply gave the right entry (``right``) or any entry as the
    answer; None when answers were not read."""
    if not any(o.labelled for o in outcomes):
        return None
    return _mean([1.0 if (o.presented_right if right else o.presented) else 0.0 for o in outcomes])


def metrics(outcomes: list[Outcome]) -> Metrics:
    inside = [o for o in outcomes if o.in_scope]
    outside = [o for o in outcomes if not o.in_scope]
    ranks = [o.rank_of_first() for o in inside]
    recall5 = [
        sum(1 for t in o.item.expected if t in o.ranked_terms[:5]) / len(o.item.expected) for o in inside
    ]
    return Metrics(
        n_in=len(inside),
        n_out=len(outside),
        recall_at_1=_mean([1.0 if r == 1 else 0.0 for r in ranks]),
        recall_at_5=_mean(recall5),
        mrr=_mean([1.0 / r if r else 0.0 for r in ranks]),
        out_abstained=_mean([1.0 if o.abstained else 0.0 for o in outside]),
        in_abstained=_mean([1.0 if o.abstained else 0.0 for o in inside]),
        answered_right=_mean([1.0 if o.first_right and not o.abstained else 0.0 for o in inside]),
        ece=expected_calibration_error(outcomes),
        ece_floor=ece_floor(outcomes),
        exact_wrong=_exact_wrong(outcomes),
        shown_right=_share_shown(inside, right=True),
        out_shown=_share_shown(outside, right=False),
    )


def grouped(outcomes: list[Outcome]) -> dict[str, Metrics]:
    """Overall, then per ``lang:`` and per ``style:`` group."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups["overall"].append(o)
        groups[f"lang:{o.item.lang}"].append(o)
        groups[f"style:{o.item.style}"].append(o)
    order = ["overall", *sorted(k for k in groups if k != "overall")]
    return {k: metrics(groups[k]) for k in order}


def worst_misses(outcomes: list[Outcome], n: int = 10) -> list[Outcome]:
    """In-scope misses (worst rank first), then wrong abstention decisions."""
    misses = [o for o in outcomes if o.in_scope and o.rank_of_first() != 1]
    misses.sort(key=lambda o: -(o.rank_of_first() or 99))
    wrong_abstain = [o for o in outcomes if o.abstained == o.in_scope and o not in misses]
    return (misses + wrong_abstain)[:n]


def _fmt(value: float | None) -> str:
    if isinstance(value, int):
        return str(value)
    return "   -" if value is None else f"{value:.3f}"


_NO_QUESTIONS = Metrics(
    n_in=0, n_out=0, recall_at_1=None, recall_at_5=None, mrr=None, out_abstained=None, in_abstained=None
)


def table(results: dict[str, dict[str, Metrics]]) -> str:
    """Side-by-side table: one row per group, one column block per variant."""
    variants = list(results)
    head = f"{'group':<22}" + "".join(f" | {v[:33]:^33}" for v in variants)
    sub = f"{'':<22}" + " | R@1   R@5   MRR   OOS↓  IN↓   ECE  " * len(variants)
    lines = [head, sub, "-" * len(sub)]
    groups = list(dict.fromkeys(g for r in results.values() for g in r))  # evaluations may differ in groups
    for group in groups:
        row = f"{group:<22}"
        for v in variants:
            m = results[v].get(group, _NO_QUESTIONS)
            row += " | " + " ".join(
                _fmt(x)[:5]
                for x in (m.recall_at_1, m.recall_at_5, m.mrr, m.out_abstained, m.in_abstained, m.ece)
            )
        lines.append(row)
    lines.append(
        "R@1/R@5/MRR on in-scope questions; OOS↓ = out-of-scope declined; IN↓ = in-scope wrongly declined;"
        " ECE = expected calibration error of the confidence"
    )
    return "\n".join(lines)


#: The languages askers use in the dev sets, each shown in the summary.
SUMMARY_LANGS = ("en", "hi", "hinglish", "mixed")


def summary_row(m: dict[str, Metrics]) -> dict[str, float | None]:
    """One evaluation's headline figures: overall, R@1 per asker's language, and of descriptions (the
    README's first table reads R@5, MRR and those from the same record)."""
    overall = m["overall"]
    described = m.get("style:descriptive")
    row: dict[str, float | None] = {
        "recall_at_1": overall.recall_at_1,
        "recall_at_5": overall.recall_at_5,
        "mrr": overall.mrr,
        "recall_at_1_descriptive": described.recall_at_1 if described else None,
        "out_declined": overall.out_abstained,
        "in_declined": overall.in_abstained,
        "answered_right": overall.answered_right,
        "ece": overall.ece,
        "ece_floor": overall.ece_floor,
        "exact_wrong": overall.exact_wrong,
        "shown_right": overall.shown_right,
        "out_shown": overall.out_shown,
    }
    for lang in SUMMARY_LANGS:
        group = m.get(f"lang:{lang}")
        row[f"recall_at_1_{lang}"] = group.recall_at_1 if group else None
    return row


SUMMARY_COLUMNS = (
    ("R@1", "recall_at_1"),
    *((f"R@1 {lang[:5]}", f"recall_at_1_{lang}") for lang in SUMMARY_LANGS),
    ("OOS↓", "out_declined"),
    ("IN↓", "in_declined"),
    ("A&R", "answered_right"),
    ("ECE", "ece"),
    ("ECE floor", "ece_floor"),
    ("exact✗", "exact_wrong"),
    ("shown✓", "shown_right"),
    ("OOS shown", "out_shown"),
)


def summary_table(rows: dict[str, dict[str, float | None]]) -> str:
    """One row per evaluation, its headline figures as columns (what ``make eval`` ends with)."""
    head = f"{'glossary':<20}" + "".join(f" | {title:>9}" for title, _ in SUMMARY_COLUMNS)
    lines = [head, "-" * len(head)]
    for name, row in rows.items():
        lines.append(f"{name:<20}" + "".join(f" | {_fmt(row.get(key)):>9}" for _, key in SUMMARY_COLUMNS))
    lines.append(
        "R@1 on in-scope questions (per asker's language after it); OOS↓ = out-of-scope declined; IN↓ ="
        " in-scope wrongly declined; A&R = in-scope answered with the right first entry; ECE = expected"
        " calibration error of the confidence; ECE floor = the median ECE of a calibrated confidence stating"
        " the same values on as many questions; exact✗ = answers labelled an exact match on a wrong entry;"
        " what askers see: shown✓ = in-scope replies giving the right entry as the answer (not a near miss"
        " or decline), OOS shown = out-of-scope replies giving an entry as the answer"
    )
    return "\n".join(lines)


def describe_miss(o: Outcome) -> str:
    got = ", ".join(o.ranked_terms[:3]) or "(nothing)"
    want = ", ".join(o.item.expected) or "(decline)"
    head = f"[{o.item.id} {o.item.lang}/{o.item.style}] {o.item.query!r}"
    return f"{head}\n    want {want}; got {got}; abstained={o.abstained}"


def to_json(results: dict[str, dict[str, Metrics]]) -> str:
    return json.dumps({v: {g: m.model_dump() for g, m in r.items()} for v, r in results.items()}, indent=1)


def from_json(data: bytes) -> dict[str, dict[str, Metrics]]:
    """The inverse of :func:`to_json`."""
    raw = json.loads(data)
    return {v: {g: Metrics.model_validate(m) for g, m in r.items()} for v, r in raw.items()}
