"""deep_linear's mode strengths at the edges an outside reviewer's mutants
(benchmarks/mutants/deep_linear_exact.py) found untested: tiny starts on the growing branch
(relative, not absolute, accuracy of the root), starts beyond |z| = 2 (the far series, on
the shrinking and the decaying branch), the growing branch's bracket at L = 3 and 5, the
proved bracket itself (before the widening that hides a wrong bound), and ``mpmath.inf`` as
a time.  The reference is the mode's own scalar ODE ``du/dt = L eta
|u|^(2 - 2/L) (s - lam u)`` (claim ``deep_linear.mode_reduction``) integrated by scipy, and
the same closed form at 40 digits."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.integrate import solve_ivp

from solvable import deep_linear
from solvable.models.deep_linear.strength import ModeFlow, _bracket, _t_of_w, strength


def _ode(L: int, eta: float, s: float, lam: float, u0: float, t: float) -> float:
    """The mode's scalar flow, integrated (rtol 1e-12: a reference to ~1e-10)."""

    def rhs(_t, u):
        return [L * eta * abs(u[0]) ** (2 - 2 / L) * (s - lam * u[0])]

    sol = solve_ivp(rhs, (0, t), [u0], method="DOP853", rtol=1e-12, atol=1e-300)
    return float(sol.y[0, -1])


def _mp(L, eta, s, lam, u0, t, dps=40):
    with mpmath.workdps(dps):
        f = ModeFlow(L, mpmath.mpf(eta), mpmath.mpf(s), mpmath.mpf(lam), mpmath.mpf(u0))
        return strength(f, mpmath.mpf(t))


@pytest.mark.parametrize("L", [2, 3, 5])
@pytest.mark.parametrize("u0", [1e-12, 2e-13, 1e-6])
def test_tiny_starts_keep_their_relative_accuracy(L, u0):
    # the growing branch's root w ~ -z is tiny: found to a relative tolerance (float64 to
    # ~1e-15 relative against 40 digits; an absolute tolerance would leave ~1e-7), and its
    # bracket holds at every depth (no overshoot past w = 0)
    for t in (0.5, 1.5, 3.0, 40.0):
        got = strength(ModeFlow(L, 0.7, 1.0, 1.0, u0), t)
        with mpmath.workdps(40):
            ref = _mp(L, 0.7, 1.0, 1.0, u0, t)
            # float64: the start and the rates are exact; ~10 roundings along the way
            assert abs(got - ref) <= 1e-13 * abs(ref), (L, u0, t, got, ref)


@pytest.mark.parametrize("L", [2, 3])
@pytest.mark.parametrize("u0", [3.0, -2.5, 5.0, -4.0])
def test_starts_beyond_the_far_series_radius_follow_the_mode_flow(L, u0):
    # |z0| > 2: the far series (in 1/|z|), shrinking (u0 > s/lam) or decaying (u0 < 0)
    for t in (0.05, 0.4, 2.0):
        got = strength(ModeFlow(L, 1.0, 1.0, 1.0, u0), t)
        ref = _ode(L, 1.0, 1.0, 1.0, u0, t)
        assert abs(got - ref) <= 1e-9 * max(1.0, abs(ref)), (L, u0, t, got, ref)
        with mpmath.workdps(40):
            assert abs(got - _mp(L, 1.0, 1.0, 1.0, u0, t)) <= 1e-13 * max(1, abs(ref))


def test_mpmath_inf_is_the_limit():
    X = (("1", "1", "1"), ("1", "-1", "1"), ("1", "1", "-1"), ("1", "-1", "-1"))
    Y = (("0.3", "-1.2"), ("0.8", "0.1"), ("-0.5", "0.7"), ("1.1", "0.4"))
    setup = deep_linear.Setup(("1", "0.5", "2"), X, Y)
    weights = deep_linear.spectral_start(setup, ("0.01", "-0.02"), (2, 2))
    for dps in (None, 30):
        traj = deep_linear.closed_form(setup, weights, dps=dps)
        want = traj.at("inf")
        for t in (mpmath.inf, mpmath.mpf("inf"), math.inf, np.float64("inf")):
            got = traj.at(t)
            assert got.loss == want.loss
            assert all(np.array_equal(a, b) for a, b in zip(got.weights, want.weights,
                                                            strict=True))  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(
    L=st.integers(2, 6),
    u0=st.floats(1e-8, 1e3).flatmap(lambda v: st.sampled_from([v, -v])),
    s=st.floats(0.1, 10).flatmap(lambda v: st.sampled_from([v, -v])),
    lam=st.floats(0.1, 10),
    eta=st.floats(0.1, 3),
    t=st.floats(1e-3, 50),
)
def test_the_proved_bracket_holds_before_widening(L, u0, s, lam, eta, t):
    # strength() widens its bounds outward only against rounding; the bounds themselves are
    # proved (Groenwall, module comments), so at 60 digits they bracket the root of
    # kappa t(w) - kappa t(w0) = kappa t: g(lo) >= 0 >= g(hi), to 60-digit rounding of T
    with mpmath.workdps(60):
        f = ModeFlow(L, *(mpmath.mpf(v) for v in (eta, s, lam, u0)))
        if lam * f.u0 == f.s:
            return
        branch, w0, lo, hi, kt = _bracket(f, mpmath.mpf(t), mpmath)
        T0 = _t_of_w(f, branch, w0, mpmath)

        def g(w):
            return _t_of_w(f, branch, w, mpmath) - T0 - kt

        slack = mpmath.mpf(10) ** -45 * (1 + abs(T0) + kt)
        assert lo <= hi
        assert g(lo) >= -slack, (branch, lo, g(lo))
        assert g(hi) <= slack, (branch, hi, g(hi))
