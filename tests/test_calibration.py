"""Pseudo-questions and calibration mechanics with a small fake encoder (no quality claims here:
the real-model figures are in test_retrieval_quality.py)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import numpy as np
import pytest
from pydantic import ValidationError

from bot import evaluation
from bot.search import calibration, calibration_files, pseudo
from bot.search.logistic import Logistic, Standard
from bot.search.retrieval import Retriever, fuse
from bot.understand.query import read
from bot.understand.text import tokens
from glossary import languages_of, load_glossary
from index.passages import glossary_passages
from index.store import VectorIndex
from tests.shipped_fits import FIT_TOLERANCE, assert_same_fit

#: Share of borrowed questions whose first entry may differ from the shipped file's on another CPU.
ROW_FLIPS = 0.02


class HashEncoder:
    """Deterministic pseudo-random unit vectors per text: enough to exercise every code path."""

    id = "hash"
    dim = 8

    def __init__(self) -> None:
        self.calls = 0

    def _encode(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            rng = np.random.default_rng(int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big"))
            v = rng.standard_normal(self.dim)
            out[i] = v / np.linalg.norm(v)
        return out

    encode_queries = encode_passages = _encode


@pytest.fixture(scope="module")
def entries():
    return list(load_glossary().entries)


@pytest.fixture(scope="module")
def retriever(entries) -> Retriever:
    encoder = HashEncoder()
    vectors = VectorIndex.build(glossary_passages(entries), encoder, "h", "r")
    return Retriever(entries, encoder, vectors)


def test_pseudo_questions_are_deterministic_and_labelled(entries):
    views, questions = pseudo.views_and_questions(entries)
    again = pseudo.views_and_questions(entries)[1]
    assert questions == again
    assert len(views) == pseudo.FOLDS
    kinds = {q.kind for q in questions}
    assert kinds == {"name", "field", "romanized", "held-out", "off-topic"}
    for q in questions:
        assert (q.entry_id is None) == (q.kind in ("held-out", "off-topic"))


def test_a_view_hides_the_field_its_question_comes_from(entries):
    views, _ = pseudo.views_and_questions(entries)
    by_id = {e.id: e for e in entries}
    for view in views:
        shown = {e.id: e for e in view.entries(entries)}
        assert not set(shown) & view.held_out
        for entry_id, field in view.hidden.items():
            assert getattr(shown[entry_id], field) == ""
            assert getattr(by_id[entry_id], field)  # the glossary itself is untouched
            assert view.hides(entry_id, field) and not view.hides(entry_id, "names")


def test_field_questions_do_not_name_their_entry(entries):
    by_id = {e.id: e for e in entries}
    for q in pseudo.views_and_questions(entries)[1]:
        if q.kind != "field" or q.entry_id is None:
            continue
        e = by_id[q.entry_id]
        name_words = {t for n in (e.term, e.term_en, e.term_hi, *e.aliases) for t in tokens(n)}
        assert not set(tokens(q.text)) & name_words, q


@pytest.mark.parametrize(
    ("view", "asked"),
    [("hi", "what is dropout?"), ("en", "Dropout क्या होता है?")],
)
def test_a_one_language_glossary_is_also_asked_in_the_language_it_lacks(view, asked):
    """A Hindi-only file's names are asked romanized in English (ड्रॉपआउट -> "what is dropout?"), an
    English-only file's in a Hindi sentence; a bilingual file has both languages already."""
    from glossary.views import glossary_view

    bare = load_glossary().without_project_extras()
    one = list(glossary_view(bare, view).entries)
    texts = {q.text for q in pseudo.views_and_questions(one)[1] if q.kind == "name"}
    assert asked in texts
    both = {q.text for q in pseudo.views_and_questions(list(bare.entries))[1]}
    assert asked not in both
    plain = {q.text for q in pseudo.views_and_questions(one, other_languages=False)[1]}
    assert asked not in plain, "switched off for the ablation (benchmarks.ideas)"


def test_borrowed_questions_teach_the_confidence_not_the_decision(retriever):
    """Rows borrowed for the glossary's languages join the confidence model's data; whether to answer
    is fitted on the glossary's own pseudo-questions and none of them but those asked across scripts
    (all pooled, they declined fewer out-of-scope questions on the dev sets). Rows given to ``fit``
    replace the shipped ones (``benchmarks.lovo``)."""
    alone = calibration.fit(retriever)
    rows = calibration.transfer.Borrowed(
        z=[[3.0] * len(calibration.FEATURES)] * 40,
        inside=[True] * 40,
        right=[False] * 40,
        across=[False] * 40,
    )
    pooled = calibration.fit(retriever, borrowed=rows)
    assert pooled.in_scope == alone.in_scope and pooled.threshold == alone.threshold
    assert pooled.correct != alone.correct and pooled.questions["borrowed"] == 40
    high = np.asarray(pooled.correct.mean) + 3 * np.asarray(pooled.correct.scale)
    assert pooled.correct.probability(high) < alone.correct.probability(high), "wrong there, it learnt"


def test_in_scope_questions_asked_across_scripts_teach_the_decision_at_a_fixed_weight(retriever):
    """A one-language glossary's pseudo-questions describe its entries in its own language only; the
    borrowed in-scope questions asked in the other script teach the answer-or-decline model that
    such a question may be in scope. Together they weigh ``ACROSS_WEIGHT`` of the glossary's own
    in-scope pseudo-questions, however many there are."""
    alone = calibration.fit(retriever)
    width = len(calibration.FEATURES)
    low = [-2.0] * width  # where the glossary's own out-of-scope questions lie

    def across(n: int) -> calibration.transfer.Borrowed:
        return calibration.transfer.Borrowed(
            z=[low] * n, inside=[True] * n, right=[False] * n, across=[True] * n
        )

    taught = calibration.fit(retriever, borrowed=across(40))
    point = np.asarray(taught.in_scope.mean) - 2 * np.asarray(taught.in_scope.scale)
    assert taught.in_scope.probability(point) > alone.in_scope.probability(point)
    doubled = calibration.fit(retriever, borrowed=across(80)).in_scope
    assert doubled.coef == pytest.approx(taught.in_scope.coef, abs=1e-4)
    assert doubled.intercept == pytest.approx(taught.in_scope.intercept, abs=1e-4)
    out_of_scope = across(40).model_copy(update={"inside": [False] * 40})
    assert calibration.fit(retriever, borrowed=out_of_scope).in_scope == alone.in_scope


def test_borrowed_rows_have_one_value_of_each_kind_per_row():
    with pytest.raises(ValidationError, match="one value per row"):
        calibration.transfer.Borrowed(z=[[0.0]], inside=[True], right=[True])


def test_the_confidence_is_rescaled_to_the_borrowed_questions():
    """Platt scaling on the borrowed real questions: a model that states too little where they are
    mostly right is scaled to them, its order kept; one they contradict, or that they cannot judge
    (all right or all wrong), is kept as it is."""
    model = Logistic(mean=[0.0], scale=[1.0], coef=[1.0], intercept=0.0)
    rng = np.random.default_rng(0)
    z = rng.normal(size=(400, 1))
    right = rng.random(400) < 1 / (1 + np.exp(-(3 * z[:, 0] + 1)))  # real questions: right more often

    def stated(m: Logistic) -> float:
        return float(np.mean([m.probability(row) for row in z]))

    borrowed = calibration.transfer.Borrowed(
        z=z.tolist(), inside=[True] * 400, right=right.tolist(), across=[False] * 400
    )
    scaled = calibration._rescaled(model, borrowed)
    assert abs(stated(scaled) - right.mean()) < 0.02 < abs(stated(model) - right.mean())
    assert scaled.coef[0] > model.coef[0] > 0 and scaled.mean == model.mean
    contradicting = borrowed.model_copy(update={"right": (z[:, 0] < 0).tolist()})
    assert calibration._rescaled(model, contradicting) == model
    assert calibration._rescaled(model, borrowed.model_copy(update={"right": [True] * 400})) == model


def test_a_sure_confidence_answers_a_question_asked_across_scripts_whatever_the_in_scope_model_says(
    retriever,
):
    """Across scripts only: in the glossary's own, the in-scope model decides ("RAG में vector database
    क्यों use होता है?" got a wrong card at 0.96 from the bilingual bundled glossary)."""
    fitted = calibration.fit(retriever)
    own = retriever.rank("what is dropout")
    ranking = replace(own, foreign_share=0.5)
    in_scope, confidence = len(calibration.IN_SCOPE_FEATURES), len(calibration.CONFIDENCE_FEATURES)

    def constant(p: float, n: int) -> Logistic:
        logit = float(np.log(p / (1 - p)))
        return Logistic(mean=[0.0] * n, scale=[1.0] * n, coef=[0.0] * n, intercept=logit)

    unsure = fitted.model_copy(
        update={"in_scope": constant(0.1, in_scope), "correct": constant(0.9, confidence)}
    )
    sure = unsure.model_copy(update={"correct": constant(calibration.SURE + 0.01, confidence)})
    assert not unsure.judge(ranking, 0.5).answers and sure.judge(ranking, 0.5).answers
    assert not sure.judge(own, 0.5).answers and sure.judge(own, 0.1 - 1e-6).answers
    assert unsure.judge(ranking, 0.1 - 1e-6).answers
    assert unsure.judge(ranking, 0.5).confidence == pytest.approx(0.9)


def test_the_shipped_borrowed_questions_are_for_this_calibration():
    """`make borrowed-questions` remakes bot/data/borrowed_questions.json after a calibration change."""
    shipped = calibration.transfer.shipped()
    assert shipped is not None and shipped.version == calibration.VERSION
    assert shipped.features == calibration.FEATURES
    assert set(shipped.by_languages) == {"en+hi", "en", "hi"}
    for languages, rows in shipped.by_languages.items():
        assert len(rows.z) == len(rows.inside) == len(rows.right) == len(rows.across) > 0
        assert all(len(z) == len(calibration.FEATURES) for z in rows.z)
        assert any(rows.inside) and not all(rows.inside), "held-out entries' questions are out of scope"
        assert any(rows.across) == (languages != "en+hi"), "only a one-language view lacks a script"


def test_a_view_left_out_gets_every_other_views_rows_and_none_of_its_own():
    """Judging a view of the project's glossary without the rows made from it (``benchmarks.lovo``)."""
    shipped = calibration.transfer.shipped()
    assert shipped is not None
    left = calibration.transfer.left_out(("en",), calibration.VERSION, calibration.FEATURES)
    others = [shipped.by_languages[k] for k in ("en+hi", "hi")]
    assert left.z == [z for rows in others for z in rows.z]
    assert left.right == [r for rows in others for r in rows.right]
    assert left.inside == [i for rows in others for i in rows.inside]
    assert left.across == [a for rows in others for a in rows.across]
    assert calibration.transfer.left_out(("en",), calibration.VERSION - 1, calibration.FEATURES) == (
        calibration.transfer.Borrowed()
    ), "rows of another calibration version are never used"


def test_features_never_read_the_paraphrase_channel(retriever):
    with_para = retriever.rank("what is dropout")
    without = retriever.with_options(retriever.options.model_copy(update={"paraphrase": 0.0})).rank(
        "what is dropout"
    )
    assert np.allclose(calibration.features(with_para), calibration.features(without))


def test_logistic_model_probabilities():
    x = np.array([[0.0], [1.0], [2.0], [3.0]])
    model = Logistic.fit(x, np.array([0, 0, 1, 1]))
    low, high = model.probability(np.array([0.0])), model.probability(np.array([3.0]))
    assert 0 < low < 0.5 < high < 1
    constant = Logistic.fit(x, np.array([1, 1, 1, 1]))
    assert constant.probability(np.array([5.0])) == 0.5
    scale = Standard.of(x)
    same = Logistic.fit_standardised(scale.apply(x), np.array([0, 0, 1, 1]), scale)
    assert same == model


def test_fit_is_saved_and_reused(retriever, tmp_path):
    encoder = retriever.encoder
    fitted = calibration_files.load_or_fit(tmp_path, "key", retriever)
    assert 0 <= fitted.threshold <= 1
    for name, grid in calibration.WEIGHT_GRID.items():
        assert getattr(fitted.options, name) in grid
    calls = encoder.calls
    again = calibration_files.load_or_fit(tmp_path, "key", retriever)
    assert again == fitted and encoder.calls == calls  # read back, nothing encoded


def test_a_damaged_saved_fit_is_refitted(retriever, tmp_path):
    artifact = calibration_files.calibration_artifact(
        tmp_path, "key", retriever.vectors.manifest.faiss_sha256
    )
    calibration_files.load_or_fit(tmp_path, "key", retriever)
    (artifact.path / calibration_files.CALIBRATION_FILE).write_text("{not json")
    assert calibration_files.load_or_fit(tmp_path, "key", retriever).version == calibration.VERSION


def test_a_fit_for_other_vectors_is_stale(retriever, tmp_path):
    calibration_files.load_or_fit(tmp_path, "key", retriever)
    other = calibration_files.calibration_artifact(tmp_path, "key", "another-index")
    assert not other.is_complete()


def test_a_small_glossary_gets_the_shipped_calibration(entries):
    few = entries[: calibration.MIN_ENTRIES_TO_FIT - 1]
    encoder = HashEncoder()
    small = Retriever(few, encoder, VectorIndex.build(glossary_passages(few), encoder, "h", "r"))
    built = encoder.calls
    assert calibration.fit(small) == calibration.shipped()
    assert encoder.calls == built  # no pseudo-question was encoded


def _outcome(conf: float, right: bool) -> evaluation.Outcome:
    item = evaluation.EvalItem(query="q", expected=["A"])
    ranked = ["A" if right else "B"]
    return evaluation.Outcome(item=item, ranked_terms=ranked, abstained=False, confidence=conf)


def test_expected_calibration_error():
    perfect = [_outcome(1.0, True), _outcome(0.0, False)]
    assert evaluation.expected_calibration_error(perfect) == 0.0
    overconfident = [_outcome(0.9, False), _outcome(0.9, False)]
    assert evaluation.expected_calibration_error(overconfident) == pytest.approx(0.9)


def test_the_ece_floor_is_what_a_calibrated_confidence_shows_by_chance():
    """100 questions at a stated 0.5: |Binomial(100, 1/2) / 100 - 1/2| has median 0.035 or so,
    whatever was right (the floor reads the stated values only); sure statements have none."""
    coin = [_outcome(0.5, n % 3 == 0) for n in range(100)]
    floor = evaluation.ece_floor(coin)
    assert floor is not None and 0.025 < floor < 0.05 and floor == evaluation.ece_floor(coin)
    assert evaluation.ece_floor([_outcome(1.0, True), _outcome(0.0, False)]) == 0.0
    assert evaluation.ece_floor([]) is None


def test_saved_metrics_round_trip():
    outcomes = [
        evaluation.Outcome(
            item=evaluation.EvalItem(query="q", lang="en", expected=["A"]),
            ranked_terms=["A"],
            abstained=False,
            confidence=0.8,
        )
    ]
    results = {"full": evaluation.grouped(outcomes)}
    assert evaluation.from_json(evaluation.to_json(results).encode()) == results


def _seen(expected: list[str], kind: str, shown: str | None) -> evaluation.Outcome:
    """A question whose retrieval answered with A first, and the reply the asker saw."""
    item = evaluation.EvalItem(query="q", expected=expected)
    update = {"kind": kind, "shown": shown, "labelled": True}
    return evaluation.Outcome(item=item, ranked_terms=["A"], abstained=False).model_copy(update=update)


def test_what_askers_see_counts_near_misses_as_not_answered():
    """Retrieval answered every question here; the replies gave the answer to one in-scope question
    of three (a near miss listing the right entry first is not an answer) and to one of two others."""
    seen = evaluation.metrics(
        [
            _seen(["A"], "answer", "A"),
            _seen(["A"], "near miss", "A"),
            _seen(["B"], "answer", "A"),
            _seen([], "answer", "A"),
            _seen([], "near miss", "A"),
        ]
    )
    assert seen.answered_right == pytest.approx(2 / 3) and seen.out_abstained == 0.0
    assert seen.shown_right == pytest.approx(1 / 3) and seen.out_shown == pytest.approx(1 / 2)
    unread = evaluation.metrics(
        [
            evaluation.Outcome(
                item=evaluation.EvalItem(query="q", expected=["A"]), ranked_terms=["A"], abstained=False
            )
        ]
    )
    assert unread.shown_right is None and unread.out_shown is None


@pytest.mark.model
def test_the_shipped_calibration_is_what_fitting_the_bundled_glossary_gives(settings):
    """bot/data/default_calibration.json is reproducible: `make default-calibration` remakes it."""
    from bot.core import GlossaryBot

    fitted = GlossaryBot.load(settings.model_copy(update={"project_extras": False})).calibration
    assert_same_fit(calibration.shipped(), fitted)


def _edited(entries, count: int) -> Retriever:
    """A retriever over ``entries`` with the first ``count`` definitions edited (new vectors too)."""
    changed = [
        e.model_copy(update={"definition_en": f"{e.definition_en} Edited."}) if i < count else e
        for i, e in enumerate(entries)
    ]
    encoder = HashEncoder()
    return Retriever(changed, encoder, VectorIndex.build(glossary_passages(changed), encoder, "h2", "r"))


def test_a_fit_is_kept_when_few_entries_changed(retriever, entries, tmp_path):
    fitted = calibration_files.load_or_fit(tmp_path, "index-a", retriever)
    few = int(calibration_files.REFIT_SHARE * len(entries))
    edited = _edited(entries, few)
    calls = edited.encoder.calls
    kept = calibration_files.load_or_fit(tmp_path, "index-b", edited)
    assert kept == fitted and edited.encoder.calls == calls, "kept: no pseudo-question encoded"
    # the kept fit is published with the basis it was fitted on, so edits cannot drift past the share
    again = _edited(entries, few + 1)
    calls = again.encoder.calls
    calibration_files.load_or_fit(tmp_path, "index-c", again)
    assert again.encoder.calls > calls, "more than REFIT_SHARE since the fit: refitted"


def test_a_fit_for_another_encoder_or_recipe_is_not_kept():
    basis = calibration_files.Basis(encoder_id="a", recipe="r", entries={"x": "1"})
    assert basis.changed_share(basis) == 0.0
    assert basis.changed_share(basis.model_copy(update={"encoder_id": "b"})) == 1.0
    assert basis.changed_share(basis.model_copy(update={"recipe": "s"})) == 1.0
    assert basis.changed_share(basis.model_copy(update={"entries": {"x": "1", "y": "2"}})) == 0.5


@pytest.mark.model
def test_the_borrowed_questions_are_what_asking_the_bundled_glossary_gives(settings):
    """bot/data/borrowed_questions.json is reproducible (`make borrowed-questions` remakes it): its
    Hindi-only rows, asked again here (the three views are made by one code path; asking all three
    took 123 s instead of 50 on this project's slower CI machines)."""
    from bot.search.loading import ready
    from bot.search.transfer_build import asked_rows, real_questions
    from glossary.views import glossary_view
    from index.encoders import CachedEncoder, make_encoder

    full = load_glossary()
    hindi = glossary_view(full.without_project_extras(), "hi")
    encoder = CachedEncoder(make_encoder(settings.encoder_backend, settings.cache_dir))
    retriever = ready(hindi, encoder, settings).retriever
    made = asked_rows(retriever, real_questions(full, languages_of(retriever.entries)))
    shipped = calibration.transfer.shipped()
    assert shipped is not None
    kept = shipped.by_languages["hi"]
    assert made.inside == kept.inside and made.across == kept.across
    # the CPU's share (tests/shipped_fits.py) may move a near tie between two entries
    assert np.mean(np.array(made.right) != np.array(kept.right)) <= ROW_FLIPS
    assert np.median(np.abs(np.array(made.z) - np.array(kept.z))) <= FIT_TOLERANCE


def test_the_confidence_reads_every_feature_but_the_name_cover(retriever):
    """The fused score already carries the name match; as a feature of its own it took a negative
    weight in the confidence, so naming an entry lowered it. The decision still reads it."""
    fitted = calibration.fit(retriever)
    names = calibration.FEATURE_NAMES
    assert "name_cover" not in names["correct"] and "name_cover" in names["in_scope"]
    assert len(fitted.correct.coef) == len(names["correct"]) == len(calibration.FEATURES) - 1
    assert len(fitted.in_scope.coef) == len(names["in_scope"])


def test_each_question_is_judged_as_its_ranking_under_each_candidate_weighting(retriever):
    """Fitting keeps a few numbers per question and weighting, not the signals over every entry
    (a 5,000-entry glossary's pseudo-questions held 220 MB of them): what it keeps must be what
    ranking the question under those weights gives."""
    _, questions = pseudo.views_and_questions(retriever.entries)
    whole = pseudo.View(pseudo.FOLDS, frozenset(), {})
    asked_questions = [replace(q, fold=whole.fold) for q in questions[:40]]
    readings = [read(q.text) for q in asked_questions]
    vectors = retriever.encode(readings)
    candidates = calibration._candidates(retriever.options)
    assert len(set(candidates)) > 1
    asked = calibration.ask(retriever, [whole], asked_questions, readings, vectors, candidates)
    position = {e.id: i for i, e in enumerate(retriever.entries)}
    no_paraphrases = np.array([r.kind != "paraphrase" for r in retriever.vectors.manifest.rows])
    asked_of = Retriever(retriever.entries, retriever.encoder, retriever.vectors, row_mask=no_paraphrases)
    for a, reading, vector in zip(asked, readings, vectors, strict=True):
        signals = asked_of.signals(reading, vector)
        for weights in candidates:
            ranking = fuse(signals, weights)
            judged = a.judged[weights]
            assert judged.features.shape == (len(calibration.FEATURES),)
            np.testing.assert_array_equal(judged.features, calibration.features(ranking))
            assert judged.top == ranking.top
            target = position.get(a.question.entry_id) if a.question.entry_id else None
            expected = None if target is None else int(np.flatnonzero(ranking.order == target)[0])
            assert judged.target_rank == expected


@pytest.mark.parametrize("out", [1, 21, 60])
def test_the_rescaling_weighs_out_of_scope_rows_to_the_share_askers_ask(out):
    """The borrowed questions are 21 % out of scope; their rescaling counts them as a tenth."""
    inside = np.array([False] * out + [True] * (100 - out))
    weights = calibration._asked_share_weights(inside)
    share = weights[~inside].sum() / weights.sum()
    assert share == pytest.approx(calibration.ASKED_OUT_OF_SCOPE_SHARE)
    assert (weights[inside] == 1.0).all()


def test_rows_all_of_one_kind_keep_their_weight():
    for inside in (np.ones(5, dtype=bool), np.zeros(5, dtype=bool)):
        assert (calibration._asked_share_weights(inside) == 1.0).all()


def test_weighing_the_out_of_scope_rows_down_raises_the_rescaled_confidence():
    """Fewer wrong rows among the same features: the rescaled model states more for a middling row."""
    rng = np.random.default_rng(0)
    z = rng.normal(size=(400, 2))
    inside = rng.random(400) < 0.6
    right = inside & (z[:, 0] + rng.normal(scale=0.5, size=400) > 0)
    model = Logistic(mean=[0.0, 0.0], scale=[1.0, 1.0], coef=[1.0, 0.0], intercept=0.0)
    borrowed = calibration.transfer.Borrowed(
        z=z.tolist(), inside=inside.tolist(), right=right.tolist(), across=[False] * 400
    )
    rescaled = calibration._rescaled(model, borrowed)
    # the same rows, all marked in scope: every row weighed 1
    unmarked = borrowed.model_copy(update={"inside": [True] * 400})
    as_they_come = calibration._rescaled(model, unmarked)
    middling = np.array([0.5, 0.0])
    assert rescaled.probability(middling) > as_they_come.probability(middling)
