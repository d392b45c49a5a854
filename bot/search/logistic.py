"""L2-penalised logistic regression, fitted with scipy's L-BFGS, and the fitted model a calibration
saves (:class:`Logistic`, on features standardised by :class:`Standard`).

The model is scikit-learn's ``LogisticRegression(C)``: ``C`` times the summed log-loss plus half the
squared coefficients, the intercept unpenalised (a strictly convex objective, so one optimum, which
``tests/test_logistic.py`` holds to scikit-learn's). It is fitted here because importing
scikit-learn's model imports pandas and scipy.stats, which a process holds for the rest of its life:
100 MB of a served 5,000-entry glossary's resident memory, on top of which the advice sentences are
then built. scipy.optimize adds 26 MB.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pydantic import BaseModel, ConfigDict

#: Iterations and gradient tolerance of L-BFGS: a few hundred rows of eight standardised features
#: converge in tens of iterations, far below the cap; the tolerance is tight enough that the optimum
#: found does not depend on the solver.
MAX_ITERATIONS = 1000
GRADIENT_TOLERANCE = 1e-9
#: Inverse regularisation of the calibration's logistic models: a few hundred pseudo-questions,
#: eight features.
C = 1.0


def fit_logistic(
    x: np.ndarray, y: np.ndarray, c: float, weights: np.ndarray | None = None
) -> tuple[np.ndarray, float]:
    """Coefficients and intercept for rows ``x`` and labels ``y`` (both classes present); ``weights``:
    each row's weight in the log-loss (scikit-learn's ``sample_weight``; 1 each by default)."""
    from scipy.optimize import minimize  # only a process that fits holds these
    from scipy.special import expit, log_expit

    rows = np.hstack([np.asarray(x, dtype=np.float64), np.ones((len(x), 1))])
    sign = np.where(np.asarray(y, dtype=bool), 1.0, -1.0)
    weight = np.ones(len(rows)) if weights is None else np.asarray(weights, dtype=np.float64)

    def objective(w: np.ndarray) -> tuple[float, np.ndarray]:
        margin = sign * (rows @ w)
        grad = -c * (rows.T @ (weight * sign * expit(-margin)))
        grad[:-1] += w[:-1]
        return float(-c * (weight * log_expit(margin)).sum() + 0.5 * w[:-1] @ w[:-1]), grad

    found = minimize(
        objective,
        np.zeros(rows.shape[1]),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": MAX_ITERATIONS, "gtol": GRADIENT_TOLERANCE},
    )
    return found.x[:-1], float(found.x[-1])


@dataclass(frozen=True)
class Standard:
    """The mean and spread of a glossary's features over its own pseudo-questions."""

    mean: np.ndarray
    scale: np.ndarray

    @classmethod
    def of(cls, x: np.ndarray) -> Standard:
        mean, scale = x.mean(axis=0), x.std(axis=0)
        scale[scale == 0] = 1.0
        return cls(mean, scale)

    def apply(self, x: np.ndarray) -> np.ndarray:
        return (x - self.mean) / self.scale

    def of_columns(self, columns: list[int]) -> Standard:
        return Standard(self.mean[columns], self.scale[columns])


class Logistic(BaseModel):
    """A fitted logistic model on standardised features."""

    model_config = ConfigDict(frozen=True)

    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float

    def probability(self, x: np.ndarray) -> float:
        z = (x - np.asarray(self.mean)) / np.asarray(self.scale)
        return float(1.0 / (1.0 + np.exp(-(z @ np.asarray(self.coef) + self.intercept))))

    @classmethod
    def fit(cls, x: np.ndarray, y: np.ndarray) -> Logistic:
        scale = Standard.of(x)
        return cls.fit_standardised(scale.apply(x), y, scale)

    @classmethod
    def fit_standardised(
        cls, z: np.ndarray, y: np.ndarray, scale: Standard, weights: np.ndarray | None = None
    ) -> Logistic:
        """Fit on features already standardised by ``scale`` (kept to standardise what it is asked);
        ``weights``: each row's weight (``fit_logistic``)."""
        if len(set(y.tolist())) < 2:  # nothing to separate: a constant probability
            coef, intercept = [0.0] * z.shape[1], 0.0
        else:
            found, intercept = fit_logistic(z, y, C, weights)
            coef = found.tolist()
        return cls(mean=scale.mean.tolist(), scale=scale.scale.tolist(), coef=coef, intercept=intercept)
