"""Regression guard on the labelled dev set, with the real model and index.

Floors are the figures reached when this test was written (README, "How retrieval works")
minus a margin of 0.02 (0.05 for the smaller per-language groups, where one question moves
the figure by 3-7 points).
"""

import pytest

from bot import evaluation

from .conftest import DEV_SET

pytestmark = [
    pytest.mark.model,
    pytest.mark.skipif(not DEV_SET.exists(), reason="../shared/eval/dev.jsonl is not present"),
]

REACHED = {"overall": 0.952, "lang:en": 0.966, "lang:hi": 1.0, "lang:hinglish": 0.848, "lang:mixed": 1.0}


@pytest.fixture(scope="module")
def results(bot):
    def retrieve(q):
        found = bot.retrieve(q, 5)
        return [h.entry.term for h in found.hits], found.abstained

    return evaluation.grouped(evaluation.run(evaluation.load_items(DEV_SET), retrieve))


@pytest.mark.parametrize("group", list(REACHED))
def test_recall_at_1_floor(results, group):
    margin = 0.02 if group == "overall" else 0.05
    assert results[group].recall_at_1 >= REACHED[group] - margin


def test_recall_at_5(results):
    assert results["overall"].recall_at_5 >= 0.99 - 0.02


def test_abstention(results):
    overall = results["overall"]
    assert overall.out_abstained >= 0.90 - 0.05
    assert overall.in_abstained <= 0.03
