"""The sampled-width slope of seed 002's lazy criterion (lazy_training.sampled_kappa_slopes on
a network whose kappa is known in closed form) and the verdict of the NTG almost-sure
convergence confirmation (its pass rule on exactly known distance paths).
Written in the mutation-testing triage of the seed-5 run."""

from __future__ import annotations

import math
import types
from fractions import Fraction

import numpy as np
import pytest

from solvable.models import lazy_training as lt
from solvable.verification.confirmations import ntg as conf_ntg


# ---------------------------------------------------------------------------
# lazy_training.sampled_kappa_slopes: the least-squares slope over p = 2^8 .. 2^14
# ---------------------------------------------------------------------------
def _known_network(a_j, w_j):
    """A stand-in for one unit of (3.8) at every j: h = 0, grad h = (1, 0), Hessian block
    diag(c(p), 0) with c(p) = exp((ln p)^2 / 10), p = the number of units.  So y - h = 1,
    ||grad h||^2 = p and ||H||_op = c(p) (alpha = 1), and (3.7) at alpha = p^a gives
    kappa = alpha c(p) / (alpha^2 p): ln kappa = (ln p)^2/10 - (1 + a) ln p, the same for
    every draw."""
    p = len(a_j)
    assert len(w_j) == p
    c = math.exp(math.log(p) ** 2 / 10)
    return 0.0, 1.0, 0.0, np.full(p, c), 0.0, 0.0


@pytest.mark.parametrize("draws", [1, 3])
def test_sampled_kappa_slope_is_the_least_squares_slope_over_p_2_8_to_2_14(monkeypatch, draws):
    """The docstring's statistic: the log-log slope in p of the geometric mean of kappa (3.7)
    over p = 2^8 .. 2^14.  With ln kappa = x^2/10 - (1 + a) x, x = ln p = k ln 2 (k = 8..14,
    equally spaced about their mean 11 ln 2), the least-squares slope of x^2 on x is twice
    the mean, so the slope is 2.2 ln 2 - (1 + a) exactly (a grid 2^9 .. 2^14 would give
    2.3 ln 2 - (1 + a)).  Mutant solvable/models/lazy_training.py:473:core/NumberReplacer:180."""
    monkeypatch.setattr(lt, "_unit_evaluator", lambda: _known_network)
    exponents = (Fraction(-3, 2), Fraction(0), Fraction(1, 2))
    slopes = lt.sampled_kappa_slopes(exponents, draws=draws)
    assert set(slopes) == set(exponents)
    for a, slope in slopes.items():
        expected = 2.2 * math.log(2) - (1 + float(a))
        # rounding only: logs of numbers below 1e41 and a 7-point fit, errors ~1e-14;
        # the grid 2^9 .. 2^14 would be 0.1 ln 2 = 0.069 away
        assert slope == pytest.approx(expected, abs=1e-9), (a, slope, expected)


# ---------------------------------------------------------------------------
# confirmations.ntg._claim_almost_sure: confirmed iff final/first distance <= 0.1 on both paths
# ---------------------------------------------------------------------------
def _paths(ratios: dict[str, float]):
    """A stand-in for nested_widths: distances falling geometrically from 1 to ``ratio`` (the
    activation's), rms the same, no tail mass."""

    def nested_widths(X, name, gamma, weights, widths, *, tail_nodes, seed):
        d = np.geomspace(1.0, ratios[name], len(widths))
        d[-1] = ratios[name]  # final/first exactly the ratio
        return types.SimpleNamespace(distances=d, rms=d.copy(), tail_bound=0.0)

    return nested_widths


@pytest.mark.parametrize(
    ("relu", "swish", "status"),
    [
        (0.05, 0.02, "confirmed"),  # both paths shrink by more than 10x
        (0.1, 0.05, "confirmed"),  # exactly 0.1: worst = 1, the edge that passes (<= 1)
        (0.5, 0.05, "failed"),  # relu shrinks only 2x
        (0.05, 3.0, "failed"),  # swish grows
        (4.0, 2.0, "failed"),  # neither shrinks
    ],
)
def test_almost_sure_claim_confirms_exactly_when_both_paths_shrink_tenfold(
    monkeypatch, relu, swish, status
):
    """The claim's rule (code comment and tolerance): pass when final/first distance <= 0.1
    on every path; max_error is the worst ratio / 0.1 (a confirmed verdict needs it in
    [0, 1], the package's pass rule ``worst <= 1``).
    Mutant
    solvable/verification/confirmations/ntg.py:155:core/ReplaceComparisonOperator_LtE_NotEq:2."""
    monkeypatch.setattr(conf_ntg, "nested_widths", _paths({"relu": relu, "swish": swish}))
    v = conf_ntg._claim_almost_sure()
    assert v.status == status, v.detail
    # 0.1 is not a double, so ratio/0.1 is the ratio times 10 to a few ulps
    assert v.max_error == pytest.approx(max(relu, swish) / 0.1, rel=1e-15)
