"""Fitting retrieval to one glossary: fusion weights, answer-or-decline, and answer confidence.

Fitted once per (glossary, encoder, index recipe) when the index is built, from pseudo-questions
made from the glossary's own text (``bot.search.pseudo``), and saved beside the index
(``bot.search.calibration_files``); nothing is written by hand for any glossary. Three things are fitted:

1. the fusion weights: the candidate from ``WEIGHT_GRID`` with the best MRR on the in-scope
   pseudo-questions (ties keep the default);
2. ``P(in scope)``: a logistic model on a few features of the ranking (``IN_SCOPE_FEATURES``),
   trained on in-scope pseudo-questions against held-out entries and the off-topic pool, and on
   the borrowed in-scope questions asked in a script the glossary lacks, lightly weighed. The bot
   answers when it is at least ``threshold``, the lowest value that still answers
   ``1 - MAX_WRONGLY_DECLINED`` of the in-scope pseudo-questions;
3. ``P(first entry is right)``: every feature but one (``CONFIDENCE_FEATURES``), trained on
   whether the pseudo-question's own entry came first (out-of-scope ones never do), with the field
   questions asked both of a view without their field and of the whole glossary, then rescaled on
   real questions (the borrowed ones). This is ``Answer.confidence``.

The features never read the project-written paraphrase channel, so decisions hold for a user's
glossary, which has none. scikit-learn is imported only while fitting: serving is a dot product.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
from pydantic import BaseModel, ConfigDict

from bot.search import transfer
from bot.search.logistic import C, Logistic, Standard, fit_logistic
from bot.search.pseudo import REWORDED, PseudoQuestion, View, views_and_questions
from bot.search.retrieval import Ranking, RetrievalOptions, Retriever, fuse
from bot.understand.query import Reading, read
from glossary import languages_of

log = logging.getLogger(__name__)

#: Bump when pseudo-questions, features or fitting change: saved calibrations are then refitted.
#: 7: ``foreign_share`` (a question asked in a script the glossary's languages do not use).
#: 8: the confidence rescaled on the borrowed real questions (:func:`_rescaled`).
#: 9: one-language glossaries borrow their names asked in the language they lack.
#: 10: out-of-scope borrowed questions weighed down in the rescaling (reverted: wrong cards).
#: 11: the confidence no longer reads ``name_cover`` (``CONFIDENCE_FEATURES``).
#: 12: the rescaling weighs the borrowed out-of-scope questions to ``ASKED_OUT_OF_SCOPE_SHARE`` (10
#: again, with the remedy route kept for problem questions: ``bot.reply.router``).
#: 13: the ranking reads the entries' sentences (``RetrievalOptions.sentence``).
#: 14: BM25 weighs less in a question asked in a script the glossary lacks (``foreign_discount``).
#: 15: the in-scope model learns from borrowed questions asked across scripts (``ACROSS_WEIGHT``).
VERSION = 15
#: Share of in-scope pseudo-questions the fitted threshold may decline.
MAX_WRONGLY_DECLINED = 0.01
#: Fusion weights tried; the default options' values are among them.
WEIGHT_GRID: dict[str, tuple[float | int, ...]] = {
    "dense_fields": (1, 2),
    "bm25": (0.2, 0.3, 0.5),
    "name": (1.0, 2.0),
}
FEATURES = (
    "similarity",
    "best_similarity",
    "margin",
    "score",
    "unknown_share",
    "name_cover",
    "bm25_z",
    "foreign_share",
)
#: What the answer-or-decline model reads: every feature but ``foreign_share``. A glossary's in-scope
#: pseudo-questions are asked mostly in its own languages and its off-topic pool in all of them, so a
#: model fitted on them learnt "asked in another script: decline" (``make eval``: in-scope questions
#: wrongly declined went from .073 to .218 on the bundled English-only view, .034 to .318 on CNCF's);
#: the confidence model also learns from the borrowed real questions, which are asked across languages.
IN_SCOPE_FEATURES = [i for i, name in enumerate(FEATURES) if name != "foreign_share"]
#: What the confidence model reads: every feature but ``name_cover``. The fused score and margin
#: already carry the name match (the fusion's name weight); read again on its own, it took a negative
#: weight (-0.52 on the bundled glossary's fit), so naming an entry lowered the confidence in it.
#: Without it, on the six dev views together (``make eval``), the ECE is lower on five.
CONFIDENCE_FEATURES = [i for i, name in enumerate(FEATURES) if name != "name_cover"]
#: Each model's features by name, in the order of its coefficients.
FEATURE_NAMES = {
    "in_scope": [FEATURES[i] for i in IN_SCOPE_FEATURES],
    "correct": [FEATURES[i] for i in CONFIDENCE_FEATURES],
}
#: A confidence at which declining would contradict it (the first entry right 19 times in 20): being
#: right implies being in scope, so the bot answers then whatever ``P(in scope)`` says.
SURE = 0.95
#: The share of out-of-scope questions the confidence's rescaling (:func:`_rescaled`) assumes askers
#: ask: the dev sets' (27 of their 280 questions). The borrowed questions hold 21 % (every fold's
#: held-out entries), all near the glossary's domain; weighed as they come, they pulled the
#: confidence of every in-scope question down (mean 0.53 stated against 0.68 right on the Hindi-only
#: view).
ASKED_OUT_OF_SCOPE_SHARE = 0.1
#: The weight of the borrowed in-scope questions asked in a script the glossary lacks, all of them
#: together, in the answer-or-decline model: this share of the glossary's own in-scope
#: pseudo-questions. A one-language glossary's pseudo-questions ask descriptions in its own language
#: only, so an in-scope description in the other looked out of scope (bundled English-only view:
#: 0.097 of in-scope questions declined). On the four one-language dev views together (``make
#: eval``) 0.05 declined fewer in-scope questions on every view and no fewer out-of-scope ones; 0.1
#: answered one more out-of-scope question of CNCF's English-only view; weighed as they come (about
#: 360 and 590 rows against 300 to 400), the out-of-scope declines fell to 0.33-0.42 on three views.
ACROSS_WEIGHT = 0.05
#: A glossary with fewer entries cannot question itself usefully (each view must keep most of it):
#: it gets the shipped calibration, fitted the same way on the bundled glossary without its
#: project-written extras (``make default-calibration`` remakes it).
MIN_ENTRIES_TO_FIT = 24
DEFAULT_PATH = Path(__file__).parents[1] / "data" / "default_calibration.json"


def features(ranking: Ranking) -> np.ndarray:
    """What the decisions read of a ranking; the paraphrase channel is not among them: they describe
    the entry that leads without it (the one the pseudo-questions were ranked by)."""
    top = int(np.argmax(ranking.decisive))
    others = np.delete(ranking.decisive, top)
    runner_up = float(others.max()) if others.size else float(ranking.decisive[top])
    bm25 = ranking.bm25
    std = float(bm25.std())
    return np.array(
        [
            ranking.dense[top],
            ranking.dense.max(),
            ranking.decisive[top] - runner_up,
            ranking.decisive[top],
            ranking.unknown_share,
            ranking.name_cover[top],
            (bm25[top] - bm25.mean()) / std if std > 0 else 0.0,
            ranking.foreign_share,
        ],
        dtype=np.float64,
    )


class TradeOff(BaseModel):
    threshold: float
    out_declined: float
    in_declined: float


class Calibration(BaseModel):
    """Everything fitted for one glossary index, saved beside it as JSON."""

    model_config = ConfigDict(frozen=True)

    version: int = VERSION
    options: RetrievalOptions
    in_scope: Logistic
    correct: Logistic
    threshold: float
    questions: dict[str, int]  # pseudo-questions per kind
    pseudo_mrr: float
    pseudo_recall_at_1: float
    trade_off: list[TradeOff]

    def judge(self, ranking: Ranking, threshold: float) -> Judgement:
        """Whether to answer, and the confidence, from one reading of the ranking's features. Answer
        when ``P(in scope)`` reaches ``threshold``, or when the confidence is ``SURE`` for a question
        with words in a script the glossary's languages do not use: the two models read different
        features (the in-scope model not ``foreign_share``), and the English-only views declined
        "लोरा क्या है और यह कैसे काम करता है?" and "नोड किसे कहते हैं?" at a confidence of 0.99, both
        rightly ranked. Asked in the glossary's own scripts, a question the in-scope model declines is
        declined however sure the ranking: "RAG में vector database क्यों use होता है?" got Gradient's
        card at 0.96 from the bilingual bundled glossary, whose alias "gradient vector" alone holds
        "vector"."""
        x = features(ranking)
        confidence = self.correct.probability(x[CONFIDENCE_FEATURES])
        across = confidence >= SURE and ranking.foreign_share > 0
        answers = self.in_scope.probability(x[IN_SCOPE_FEATURES]) >= threshold or across
        return Judgement(answers, confidence)


class Judgement(NamedTuple):
    answers: bool
    confidence: float  # P(first entry is right): ``Answer.confidence``


@dataclass(frozen=True)
class _Judged:
    """What fitting reads of one question's ranking under one set of fusion weights."""

    features: np.ndarray
    top: int
    target_rank: int | None  # the question's entry's place in the ranking (None: out of scope)


@dataclass(frozen=True)
class _Asked:
    """A pseudo-question's ranking judged under each set of weights fitting may pick, not the
    ranking itself: its signals cover every entry (11 numbers each), and at 5,000 entries a
    thousand questions' signals held 220 MB at once, a first build's peak."""

    question: PseudoQuestion
    target: int | None  # position of the question's entry among its view's entries
    judged: dict[RetrievalOptions, _Judged]


def shipped() -> Calibration:
    return Calibration.model_validate_json(DEFAULT_PATH.read_bytes())


@dataclass(frozen=True)
class Questioned:
    """A glossary's pseudo-questions asked of its views, with the fusion weights fitted on them."""

    views: list[View]
    questions: list[PseudoQuestion]
    readings: list[Reading]
    vectors: np.ndarray
    asked: list[_Asked]
    options: RetrievalOptions


def question(retriever: Retriever, progress: bool = False, other_languages: bool = True) -> Questioned:
    """Ask the glossary its pseudo-questions (encoding them) and fit the fusion weights on them."""
    views, questions = views_and_questions(retriever.entries, other_languages)
    if progress:
        log.warning("calibrating on %d pseudo-questions", len(questions))
    readings = [read(q.text) for q in questions]  # each read once, then asked of its views
    vectors = retriever.encode(readings)
    candidates = _candidates(retriever.options)
    asked = ask(retriever, views, questions, readings, vectors, candidates)
    return Questioned(views, questions, readings, vectors, asked, _best_options(candidates, asked))


def fit(
    retriever: Retriever,
    progress: bool = False,
    borrowed: transfer.Borrowed | None = None,
    other_languages: bool = True,
) -> Calibration:
    """Fit weights, decision and confidence for ``retriever``'s glossary (encodes the pseudo-questions).

    Features are standardised by the glossary's own pseudo-questions, so that the rows borrowed from
    the project's glossary (``bot.search.transfer``: real questions asked of a view in the same
    languages, standardised by that view's own pseudo-questions) say the same thing in its terms.
    ``borrowed``: other rows than those for the glossary's languages (judging a view of the
    project's glossary without the rows made from it: ``benchmarks.lovo``); ``other_languages`` off:
    no pseudo-questions asking names in the languages the glossary lacks (``benchmarks.ideas``).
    """
    entries = retriever.entries
    if len(entries) < MIN_ENTRIES_TO_FIT:
        return shipped()
    done = question(retriever, progress, other_languages)
    x, inside, right = labelled(done.asked, done.options)
    scale = Standard.of(x)
    z = scale.apply(x)
    x_in = x[:, IN_SCOPE_FEATURES]
    if borrowed is None:
        borrowed = transfer.borrowed(languages_of(entries), VERSION, FEATURES)
    in_scope = _in_scope(z[:, IN_SCOPE_FEATURES], inside, scale.of_columns(IN_SCOPE_FEATURES), borrowed)
    p_in = np.array([in_scope.probability(row) for row in x_in])
    threshold = float(np.quantile(p_in[inside], MAX_WRONGLY_DECLINED)) if inside.any() else 0.5
    kinds: dict[str, int] = {}
    for q in done.questions:
        kinds[q.kind] = kinds.get(q.kind, 0) + 1
    kinds["borrowed"] = len(borrowed.inside)
    return Calibration(
        options=done.options,
        in_scope=in_scope,
        correct=_confidence(retriever, done, z, right, scale, borrowed),
        threshold=threshold,
        questions=kinds,
        pseudo_mrr=_mrr(done.asked, done.options),
        pseudo_recall_at_1=float(right[inside].mean()) if inside.any() else 0.0,
        trade_off=_trade_off(p_in, inside),
    )


def _in_scope(z: np.ndarray, inside: np.ndarray, scale: Standard, borrowed: transfer.Borrowed) -> Logistic:
    """``P(in scope)`` from the pseudo-questions (``z``, standardised) and the borrowed in-scope
    questions asked across scripts, weighed together as ``ACROSS_WEIGHT`` of the in-scope pseudo-questions.
    Only those: the other borrowed rows, in the answer-or-decline model, took CNCF's out-of-scope
    declines from 0.750 to 0.417 (real questions are looser than pseudo ones)."""
    lent = _lent(borrowed, IN_SCOPE_FEATURES)
    across = np.asarray(borrowed.inside, dtype=bool) & np.asarray(borrowed.across, dtype=bool)
    n = int(across.sum())
    if not n:
        return Logistic.fit_standardised(z, inside.astype(int), scale)
    rows = np.vstack([z, lent[across]])
    labels = np.concatenate([inside.astype(int), np.ones(n, dtype=int)])
    weights = np.concatenate([np.ones(len(z)), np.full(n, ACROSS_WEIGHT * inside.sum() / n)])
    return Logistic.fit_standardised(rows, labels, scale, weights)


def _lent(borrowed: transfer.Borrowed, columns: list[int]) -> np.ndarray:
    """The borrowed rows' features that one model reads: they carry every feature, shipped once for
    both models."""
    return np.asarray(borrowed.z, dtype=np.float64).reshape(-1, len(FEATURES))[:, columns]


def _confidence(
    retriever: Retriever,
    done: Questioned,
    z: np.ndarray,
    right: np.ndarray,
    scale: Standard,
    borrowed: transfer.Borrowed,
) -> Logistic:
    """P(first entry is right). How close a real description comes to the glossary's wording lies
    between a field asked of a view without it (``z``, ``right``) and the field asked verbatim, so
    it learns from both, and from the questions borrowed for the glossary's languages."""
    whole = View(len(done.views), frozenset(), {})
    reworded = [i for i, q in enumerate(done.questions) if q.kind in REWORDED]
    again = [replace(done.questions[i], fold=whole.fold) for i in reworded]
    readings = [done.readings[i] for i in reworded]
    verbatim = ask(retriever, [whole], again, readings, done.vectors[reworded], [done.options])
    xv, _, right_v = labelled(verbatim, done.options)
    lent = _lent(borrowed, CONFIDENCE_FEATURES)
    rows = np.vstack([np.vstack([z, scale.apply(xv)])[:, CONFIDENCE_FEATURES], lent])
    labels = np.concatenate([right, right_v, np.asarray(borrowed.right, dtype=bool)]).astype(int)
    fitted = Logistic.fit_standardised(rows, labels, scale.of_columns(CONFIDENCE_FEATURES))
    return _rescaled(fitted, borrowed.model_copy(update={"z": lent.tolist()}))


def _rescaled(model: Logistic, borrowed: transfer.Borrowed) -> Logistic:
    """``model`` with its log-odds scaled and shifted to fit the borrowed real questions (Platt
    scaling), which stand for how people ask. Most of its rows are pseudo-questions, a field asked
    of a view without it: harder than a real question, so the model stated too little. On every dev
    view the mean confidence was under the share of first entries right (0.44 against 0.68 on the
    Hindi-only view, 0.74 against 0.88 on the bundled glossary). The borrowed out-of-scope rows are
    weighed to the share askers are taken to ask (``ASKED_OUT_OF_SCOPE_SHARE``). A scaled logistic
    model is still one: serving is unchanged."""
    if len(set(borrowed.right)) < 2:
        return model
    odds = np.asarray(borrowed.z) @ np.asarray(model.coef) + model.intercept
    right = np.asarray(borrowed.right, dtype=bool)
    asked = _asked_share_weights(np.asarray(borrowed.inside, dtype=bool))
    weights, shift = fit_logistic(odds[:, None], right, C, asked)
    slope = float(weights[0])
    if slope <= 0:  # the borrowed questions disagree with the model's order: keep it as it is
        return model
    coef = [slope * c for c in model.coef]
    return model.model_copy(update={"coef": coef, "intercept": slope * model.intercept + shift})


def _asked_share_weights(inside: np.ndarray) -> np.ndarray:
    """Sample weights under which the out-of-scope rows make up ``ASKED_OUT_OF_SCOPE_SHARE`` of
    ``inside``'s rows (a prior shift: each kind's rows keep their own distribution)."""
    out = 1.0 - float(inside.mean())
    if out in (0.0, 1.0):
        return np.ones(len(inside))
    weight = ASKED_OUT_OF_SCOPE_SHARE * (1.0 - out) / (out * (1.0 - ASKED_OUT_OF_SCOPE_SHARE))
    return np.where(inside, 1.0, weight)


def labelled(asked: Sequence[_Asked], options: RetrievalOptions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features of each question's ranking, whether it is in scope, whether its entry came first
    (``options``: weights the questions were judged under by ``ask``)."""
    judged = [a.judged[options] for a in asked]
    x = np.stack([j.features for j in judged])
    inside = np.array([a.target is not None for a in asked])
    right = np.array([a.target is not None and j.top == a.target for a, j in zip(asked, judged, strict=True)])
    return x, inside, right


def ask(
    retriever: Retriever,
    views: list[View],
    questions: list[PseudoQuestion],
    readings: Sequence[Reading],
    vectors: np.ndarray,
    candidates: Sequence[RetrievalOptions],
) -> list[_Asked]:
    """Every question asked of its fold's view and judged under each of ``candidates`` (sets of
    fusion weights); targets are positions in that view."""
    rows = retriever.vectors.manifest.rows
    out: list[_Asked] = []
    for view in views:
        shown = view.entries(retriever.entries)
        mask = np.array([not (r.kind == "paraphrase" or view.hides(r.entry_id, r.field)) for r in rows])
        folded = Retriever(
            shown, retriever.encoder, retriever.vectors, retriever.options, mask, retriever.lexical.words
        )
        position = {e.id: i for i, e in enumerate(shown)}
        for i, q in enumerate(questions):
            if q.fold == view.fold:
                target = position.get(q.entry_id) if q.entry_id else None
                signals = folded.signals(readings[i], vectors[i])
                judged = {w: _judge(fuse(signals, w), target) for w in candidates}
                out.append(_Asked(q, target, judged))
    return out


def _judge(ranking: Ranking, target: int | None) -> _Judged:
    place = None if target is None else int(np.flatnonzero(ranking.order == target)[0])
    return _Judged(features(ranking), ranking.top, place)


def _mrr(asked: Sequence[_Asked], options: RetrievalOptions) -> float:
    ranks = [1.0 / (1 + place) for a in asked if (place := a.judged[options].target_rank) is not None]
    return float(np.mean(ranks)) if ranks else 0.0


def _candidates(base: RetrievalOptions) -> list[RetrievalOptions]:
    """``base``, then each combination of ``WEIGHT_GRID``'s values on it."""
    names = list(WEIGHT_GRID)
    grid = itertools.product(*WEIGHT_GRID.values())
    return [base, *(base.model_copy(update=dict(zip(names, values, strict=True))) for values in grid)]


def _best_options(candidates: Sequence[RetrievalOptions], asked: Sequence[_Asked]) -> RetrievalOptions:
    """The candidate with the best MRR; the first (the retriever's own) on ties."""
    best, best_mrr = candidates[0], _mrr(asked, candidates[0])
    for candidate in candidates[1:]:
        score = _mrr(asked, candidate)
        if score > best_mrr + 1e-9:
            best, best_mrr = candidate, score
    return best


def _trade_off(p_in: np.ndarray, inside: np.ndarray) -> list[TradeOff]:
    rows = []
    for threshold in np.round(np.arange(0.05, 1.0, 0.05), 2):
        declined = p_in < threshold
        rows.append(
            TradeOff(
                threshold=float(threshold),
                out_declined=float(declined[~inside].mean()) if (~inside).any() else 0.0,
                in_declined=float(declined[inside].mean()) if inside.any() else 0.0,
            )
        )
    return rows
