"""How a shipped, model-made file is compared with what a build here gives.

The encoder's C engine rounds differently on different CPUs: on an AVX2 machine the shipped index's
texts (built on another) come out up to 0.003 a component apart (min cosine 0.9999), and a
calibration fitted on them a few hundredths of a coefficient apart (under 0.01 of probability at
the median point). A shipped file is stale when it is of another glossary, recipe, version, row
list or question count, which these checks compare exactly; the numbers are compared to a tolerance
well above the CPU's share and well below what a change of fit moves.
"""

from __future__ import annotations

import numpy as np
import pytest

from bot.search.calibration import Calibration
from index.store import VectorIndex

#: Least cosine between a shipped vector and the one built here.
MIN_COSINE = 0.999
#: Largest difference of a fitted threshold (and of a borrowed question's standardised feature).
FIT_TOLERANCE = 0.05
#: Points at which two fits' probabilities are compared, and how far apart they may be there.
PROBES = 500
PROBE_SEED = 0
MEDIAN_GAP = 0.02
MAX_GAP = 0.15


def assert_same_vectors(shipped: VectorIndex, built: VectorIndex) -> None:
    assert shipped.manifest.rows == built.manifest.rows
    a = shipped.faiss_index.reconstruct_n(0, shipped.faiss_index.ntotal)
    b = built.faiss_index.reconstruct_n(0, built.faiss_index.ntotal)
    assert a.shape == b.shape and float(np.sum(a * b, axis=1).min()) >= MIN_COSINE


def assert_same_fit(shipped: Calibration, fitted: Calibration) -> None:
    """Same questions and weights; the same probabilities, to the CPU's share, at points spread
    around the glossary's features (coefficients of correlated features, such as the two
    similarities, trade off against each other, so they are not compared one by one)."""
    assert shipped.version == fitted.version and shipped.questions == fitted.questions
    assert shipped.options == fitted.options
    assert shipped.threshold == pytest.approx(fitted.threshold, abs=FIT_TOLERANCE)
    rng = np.random.default_rng(PROBE_SEED)
    for ours, theirs in ((shipped.in_scope, fitted.in_scope), (shipped.correct, fitted.correct)):
        spread = rng.standard_normal((PROBES, len(ours.mean)))
        points = np.asarray(ours.mean) + spread * np.asarray(ours.scale)
        gap = np.abs([ours.probability(x) - theirs.probability(x) for x in points])
        assert float(np.median(gap)) <= MEDIAN_GAP and float(gap.max()) <= MAX_GAP
