"""The logistic fit is scikit-learn's LogisticRegression(C): the same optimum, on data shaped like a
calibration's (a few hundred rows of standardised features, classes unbalanced)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from bot.search.logistic import fit_logistic


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("c", [0.1, 1.0])
def test_the_fit_is_scikit_learns(seed, c):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((300, 8))
    y = x @ rng.standard_normal(8) + rng.standard_normal(300) > 0.8
    coef, intercept = fit_logistic(x, y, c)
    theirs = LogisticRegression(C=c, max_iter=1000, tol=1e-10).fit(x, y)
    assert np.allclose(coef, theirs.coef_[0], atol=1e-5)
    assert intercept == pytest.approx(theirs.intercept_[0], abs=1e-5)


def test_separable_classes_stay_finite():
    """Without the penalty the weights of separable classes would grow without end."""
    x = np.array([[-2.0], [-1.0], [1.0], [2.0]])
    coef, intercept = fit_logistic(x, np.array([0, 0, 1, 1]), 1.0)
    assert np.all(np.isfinite(coef)) and 0 < coef[0] < 10 and np.isfinite(intercept)


@pytest.mark.parametrize("seed", range(3))
def test_weighted_rows_fit_as_scikit_learns_sample_weight(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((300, 3))
    y = x @ rng.standard_normal(3) + rng.standard_normal(300) > 0.0
    weights = np.where(y, 1.0, rng.uniform(0.1, 0.5))
    coef, intercept = fit_logistic(x, y, 1.0, weights)
    theirs = LogisticRegression(C=1.0, max_iter=1000, tol=1e-10).fit(x, y, sample_weight=weights)
    # scikit-learn's own L-BFGS stops about 1e-5 short of the weighted optimum (seed 1)
    assert np.allclose(coef, theirs.coef_[0], atol=1e-4)
    assert intercept == pytest.approx(theirs.intercept_[0], abs=1e-4)
