"""Regression guard on both labelled dev sets, with the real model and index.

The bundled glossary (with and without its project-written paraphrases and aliases) and the
foreign CNCF glossary, loaded as it is. Floors are the figures reached when this test was
written (README, "How retrieval works") minus 0.02 overall and 0.05 per language (one question
moves a language group by 3-10 points); abstention floors likewise, and the confidence's
expected calibration error may grow by at most 0.05.
"""

from __future__ import annotations

import pytest

from bot import evaluation
from bot.evaluation import Metrics

from .conftest import DEV_SET, SHARED

CNCF = SHARED / "eval" / "foreign" / "cncf-hi"

pytestmark = [
    pytest.mark.model,
    pytest.mark.skipif(not DEV_SET.exists(), reason="../shared/eval/dev.jsonl is not present"),
]

#: glossary set -> group -> R@1 reached
REACHED = {
    "bundled": {
        "overall": 0.958,
        "lang:en": 0.977,
        "lang:hi": 0.967,
        "lang:hinglish": 0.879,
        "lang:mixed": 1.0,
    },
    "bare": {
        "overall": 0.903,
        "lang:en": 0.931,
        "lang:hi": 0.933,
        "lang:hinglish": 0.788,
        "lang:mixed": 0.933,
    },
    "cncf": {
        "overall": 0.818,
        "lang:en": 0.889,
        "lang:hi": 0.727,
        "lang:hinglish": 0.818,
        "lang:mixed": 0.750,
    },
}
#: glossary set -> (R@5, out-of-scope declined, in-scope wrongly declined) reached
REACHED_OTHER = {
    # bundled OOS: the README said 0.933; today's dev set gives 0.867 (13 of 15), as does the code of
    # a9070f5 (the last landed state that claimed 0.933), so the figure, not the code, was stale.
    "bundled": (0.997, 0.867, 0.018, 0.194),
    "bare": (0.979, 0.867, 0.036, 0.159),
    "cncf": (0.915, 0.750, 0.000, 0.135),
}


def _results(settings, **changes) -> dict[str, Metrics]:
    from bot.core import GlossaryBot

    items = evaluation.load_items(changes.pop("questions", DEV_SET))
    bot = GlossaryBot.load(settings.model_copy(update=changes))
    return evaluation.grouped(evaluation.run(items, evaluation.retrieve_with(bot)))


@pytest.fixture(scope="module")
def results(settings) -> dict[str, dict[str, Metrics]]:
    out = {"bundled": _results(settings), "bare": _results(settings, project_extras=False)}
    if CNCF.exists():
        out["cncf"] = _results(
            settings, glossary_paths=[CNCF / "glossary.yaml"], questions=CNCF / "queries.jsonl"
        )
    return out


CASES = [(s, g) for s, groups in REACHED.items() for g in groups]


@pytest.mark.parametrize(("glossary_set", "group"), CASES)
def test_recall_at_1_floor(results, glossary_set, group):
    if glossary_set not in results:
        pytest.skip(f"{CNCF} is not present")
    margin = 0.02 if group == "overall" else 0.05
    assert results[glossary_set][group].recall_at_1 >= REACHED[glossary_set][group] - margin


@pytest.mark.parametrize("glossary_set", list(REACHED_OTHER))
def test_recall_at_5_and_abstention(results, glossary_set):
    if glossary_set not in results:
        pytest.skip(f"{CNCF} is not present")
    recall5, out_declined, in_declined, ece = REACHED_OTHER[glossary_set]
    overall = results[glossary_set]["overall"]
    assert overall.recall_at_5 >= recall5 - 0.02
    assert overall.out_abstained >= out_declined - 0.05
    assert overall.in_abstained <= in_declined + 0.02
    assert overall.ece <= ece + 0.05
