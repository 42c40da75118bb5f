"""deep_linear's float64 strengths on arrays of times (issue 31, item 5) at the places an
outside reviewer's mutants found untested: the accuracy next to the fixed point (where the
series of ``log|1 - z^(1/L)|`` takes over), the refusal of a ``kappa t`` beyond float64's
range naming the right time, and an exactly balanced start at ``rtol = 0``."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from solvable import deep_linear as dl
from solvable.models.deep_linear.modes import modes
from solvable.models.deep_linear.strength import (
    ModeFlow,
    RateOutOfRangeError,
    strength,
    strengths,
)


@pytest.mark.parametrize("L", [2, 3, 5])
@pytest.mark.parametrize("u0", [0.01, 0.3])
def test_strengths_next_to_the_fixed_point_keep_every_digit(L, u0):
    """Growing modes sampled until ``1 - z`` (z = lambda u / s) runs from 1e-2 to 1e-12: the
    root is found to a few ulps of ``w = log(1 - z)`` (|w| <= 28), so ``u`` is within
    ``1e-14`` relative of 40 digits (about 30 ulps: measured below 1e-16)."""
    s, lam, eta = 1.3, 0.9, 0.7
    f = ModeFlow(L, eta, s, lam, u0)
    ts = np.geomspace(0.5, 400.0, 600)
    got = strengths(f, ts, np.zeros(ts.shape, dtype=bool))
    near = 0
    with mpmath.workdps(40):
        fm = ModeFlow(L, *(mpmath.mpf(v) for v in (eta, s, lam, u0)))
        for t, u in zip(ts, got, strict=True):
            ref = strength(fm, mpmath.mpf(t))
            gap = 1 - lam * ref / s
            if 1e-12 < gap < 1e-2:
                near += 1
                assert abs(u - ref) <= 1e-14 * abs(ref), (t, float(gap))
    assert near >= 40  # (the regime is reached: not a check of nothing)


def _flow() -> ModeFlow:
    return ModeFlow(3, 2.0, 1.5, 1.0, 0.2)  # kappa = 3 * 2 * 1.5^(4/3) > 1: 1e308 overflows


def test_a_rate_beyond_float64_names_its_own_time():
    f = _flow()
    t = np.array([0.0, 1.0, 1e308, 2.0])
    with pytest.raises(RateOutOfRangeError, match="float64's range") as err:
        strengths(f, t, np.zeros(4, dtype=bool))
    assert err.value.index == 2  # (the caller's index: the t = 0 entry is skipped inside)
    with pytest.raises(RateOutOfRangeError) as err:
        strengths(f, t[[1, 2]], np.zeros(2, dtype=bool))
    assert err.value.index == 1
    ok = strengths(f, t[[0, 1, 3]], np.zeros(3, dtype=bool))  # (the other times: no refusal)
    assert np.all(np.isfinite(ok))


def test_sample_names_the_first_time_it_refuses():
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((5, 2)))
    setup = dl.Setup((1.0, 2.0, 3.0), 3.0 * Q, 5.0 * rng.standard_normal((5, 2)))
    tr = dl.closed_form(setup, dl.spectral_start(setup, [0.5, 0.2], (2, 2)))
    with pytest.raises(ValueError, match=r"times\[2\]: the mode's rate"):
        tr.sample([0.0, 1.0, 1e308, "inf", 1e308])
    with pytest.raises(ValueError, match=r"times\[0\]"):
        tr.sample(np.array([-1.0, 0.5, -2.0]))  # (a float array: the first bad entry)
    with pytest.raises(ValueError, match=r"times\[1\]"):
        tr.sample(np.array([0.5, math.nan, -2.0]))


def test_an_exactly_balanced_start_passes_the_balance_check_at_rtol_zero():
    X = [[1, 1, 1], [1, -1, 1], [1, 1, -1], [1, -1, -1]]  # X^T X = 4 I
    Y = [[1, 0], [0, 1], [0, 0], [1, 1]]
    setup = dl.Setup((1, 1), X, Y)
    W1 = [[1, 0, 0], [0, 1, 0]]
    W2 = [[1, 0], [0, 1]]  # D_1 = W2^T W2 - W1 W1^T = 0 exactly
    try:
        modes(setup, [tuple(map(tuple, W1)), tuple(map(tuple, W2))], mpmath.mpf(0))
    except ValueError as exc:  # (only the alignment may fail at rtol = 0, never the balance)
        assert "balanced" not in str(exc), str(exc)
    W2b = [[1, 0], [0, 2]]  # D_1 = diag(0, 3): refused at any rtol < 1
    with pytest.raises(ValueError, match="balanced"):
        modes(setup, [tuple(map(tuple, W1)), tuple(map(tuple, W2b))], mpmath.mpf("0.5"))
