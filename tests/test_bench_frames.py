"""The robustness benchmarks' own logic (``benchmarks.frames``, ``benchmarks.courtesy``), without a model."""

from __future__ import annotations

import pytest

from benchmarks.courtesy import counted
from benchmarks.dev_views import pooled
from benchmarks.frames import PLURALIZABLE, misspelt, names
from bot.evaluation import EvalItem, Outcome
from glossary import GlossaryEntry

from .factories import user_entry


@pytest.mark.parametrize(
    ("name", "adds_s"),
    [
        ("loss function", True),
        ("GPU", True),
        ("Data parallelism", True),
        ("Loss", False),
        ("Batch", False),
        ("Accuracy", False),
        ("Softmax", False),
        ("लेबल", False),
    ],
)
def test_a_plural_is_asked_only_of_names_that_add_an_s(name, adds_s):
    assert bool(PLURALIZABLE.match(name)) is adds_s


def test_a_typo_keeps_the_first_and_last_letter_and_changes_the_name():
    for name in ("Overfitting", "Gradient clipping", "Warmup"):
        for typo in misspelt(name).values():
            assert typo.casefold() != name.casefold()
            assert (typo[0], typo[-1]) == (name[0], name[-1])


def test_names_are_asked_as_typed_not_with_brackets():
    heading = "निरंतर डिलीवरी (Continuous Delivery; CD)"
    entry = GlossaryEntry.model_validate(user_entry("cd", term=heading, term_en=None, term_hi=heading))
    assert names(entry) == ["CD", "Continuous Delivery", "निरंतर डिलीवरी"]


def _outcome(expected: list[str], ranked: list[str], abstained: bool) -> Outcome:
    item = EvalItem(id="q", query="q", lang="en", style="term", expected=expected)
    return Outcome(item=item, ranked_terms=ranked, abstained=abstained)


def test_courtesy_counts_right_first_answered_and_declined_apart():
    outcomes = [
        _outcome(["A"], ["A", "B"], False),  # right and answered
        _outcome(["A"], ["A", "B"], True),  # right first, but declined
        _outcome(["A"], ["B", "A"], False),  # wrong first
        _outcome([], ["B"], True),  # out of scope, declined
        _outcome([], ["B"], False),  # out of scope, answered
    ]
    assert counted(outcomes) == {
        "in_scope": 3,
        "out_of_scope": 2,
        "right_first": 2,
        "answered_right": 1,
        "in_declined": 1,
        "out_declined": 1,
    }


def test_counts_are_pooled_over_views_row_by_row():
    runs = {
        "a": {"x": {"asked": 2, "right": 1}},
        "b": {"x": {"asked": 3, "right": 3}, "y": {"asked": 1, "right": 0}},
    }
    assert pooled(runs) == {"x": {"asked": 5, "right": 4}, "y": {"asked": 1, "right": 0}}
