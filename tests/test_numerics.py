"""numerics.simulate: the raw gradient flow, integrated independently of the
closed form, against the closed form (the oracle suite itself is the registry
claim ``xu_ziyin.theorem_1_oracle``, run by tests/test_registry.py)."""

from __future__ import annotations

from dataclasses import replace

import mpmath
import numpy as np
import pytest
import sympy as sp

import numerics
from solvable._core.tolerance import Tolerance, digits
from solvable.models import xu_ziyin as xz
from solvable.verification import testing
from solvable.verification.confirmations import xu_ziyin as confirm_xz


def _times(traj, dps):
    with mpmath.workdps(dps + 10):
        return [mpmath.mpf(0), traj.t_c / 10, traj.t_c, 10 * traj.t_c]


@pytest.mark.parametrize("name", ["generic", "near_antiparallel", "P_zero_y_positive"])
def test_mpmath_at_50_digits(name):
    """Second precision: dps=50 simulation vs dps=50 closed form, >= 45 digits
    (same 5-digit allowance as at dps=30, see
    solvable.verification.confirmations.xu_ziyin.oracle)."""
    case = xz.case(name)
    traj = xz.closed_form(case.setup, case.u0, case.W0, dps=50)
    times = _times(traj, 50)
    sim = numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=50)
    exact = traj.sample(times)
    for k in range(len(times)):
        assert digits(sim.u[k], exact.u[k]) >= 45
        assert digits(sim.W[k], exact.W[k]) >= 45
        assert digits([sim.f[k]], [exact.f[k]]) >= 45


@pytest.mark.parametrize("case", xz.CASES, ids=lambda c: c.name)
def test_scipy_matches_closed_form(case):
    """DOP853 at rtol = 1e-13 against the float64 closed form, 1e-10 normwise in u, W, f.

    Local error control at 1e-13 accumulates over ~10 e-foldings of the flow to
    ~1e-12; 1e-10 leaves room for the near-saddle escape (tiny_init), which
    amplifies early errors by up to ~1e2.  Two conditionings are added, both
    properties of the problem, not of the integrator:
    * off the invariant manifolds P = 0 / Q = 0 an error eps in the p (q) direction
      grows like e^{|log alpha|/2} while the state shrinks like e^{-|log alpha|/2}:
      kappa(t) = sqrt((P + Q) e^{|log alpha|} / (P alpha + Q/alpha)) (= 1 + O(1) for
      P, Q > 0 comparable, = alpha(t) for P = 0);
    * f is measured from the simulated weights as a float64 dot product, with
      condition gamma ||u|| ||W x|| / |f| (large when f -> 0, or in the kernel regime).
    """
    traj = xz.closed_form(case.setup, case.u0, case.W0)
    tc = traj.t_c
    # up to 3 t_c: on the P = 0 / Q = 0 cases kappa(10 t_c) ~ e^40 would leave float64
    # nothing to check; at 3 t_c kappa ~ 1e5 and the comparison still has teeth
    times = [0.0, tc / 10, tc, 3 * tc]
    sim = numerics.simulate(case.setup, case.u0, case.W0, times, method="scipy")
    exact = traj.sample(times)
    x = np.array([float(v) for v in case.setup.x])
    g = float(case.setup.gamma)
    P, Q = traj.P, traj.Q
    for k in range(len(times)):
        kappa = xz.manifold_condition(P, Q, exact.alpha[k])
        tol = Tolerance(rtol=1e-10 * kappa)
        assert tol.rtol <= 1e-4  # the check stays meaningful
        dot = g * np.linalg.norm(exact.u[k]) * np.linalg.norm(exact.W[k] @ x)
        errs = testing.state_errors(sim.at(k), exact.at(k), case.setup.y, tol, f_floor=dot)
        assert max(errs.values()) <= 1, (k, kappa, errs)


def test_flow_is_the_loss_gradient():
    flow = xz.flow(2, 3)
    assert len(flow.state) == 2 + 6
    L = flow.loss
    for s, rhs in zip(flow.state, flow.rhs, strict=True):
        rate = flow.params[0] if s.name.startswith("u") else flow.params[1]
        assert sp.simplify(rhs + rate * sp.diff(L, s)) == 0


def test_agreement_check_detects_a_wrong_flow(monkeypatch):
    """The oracle comparison is not vacuous: simulating with y shifted by 1e-20 fails it."""
    real = numerics.simulate

    def shifted(setup, *args, **kwargs):
        with mpmath.workdps(50):
            y = mpmath.mpf(setup.y) + mpmath.mpf("1e-20")
        wrong = xz.Setup(setup.eta_u, setup.eta_w, setup.gamma, setup.x, y)
        return real(wrong, *args, **kwargs)

    monkeypatch.setattr(numerics, "simulate", shifted)
    confirm_xz._simulation.cache_clear()  # the confirmations cache their simulations
    try:
        verdict = confirm_xz.oracle(dps=30, cases=["generic"])
    finally:
        confirm_xz._simulation.cache_clear()
    assert verdict.status == "failed" and verdict.max_error > 1


def test_time_scale_is_independent_of_and_below_t_c():
    """The oracle's times come from the setup and initial weights only (time_scale), which
    never exceeds t_c = 1/D (D <= |B| + K/2), here t_c/6 to t_c."""
    for case in xz.CASES:
        T = confirm_xz.time_scale(case.setup, case.u0, case.W0)
        tc = xz.closed_form(case.setup, case.u0, case.W0, dps=30).t_c
        assert tc / 6 <= T <= tc * (1 + mpmath.mpf(10) ** -25), case.name


@pytest.mark.parametrize("field", ["alignment", "ntk"])
def test_oracle_compares_alignment_and_ntk(monkeypatch, field):
    """A closed form whose alignment (sign flipped) or NTK (x 1.01) is wrong fails the oracle,
    though u, W and f are right."""
    real = xz.Trajectory.sample

    def wrong(self, times):
        s = real(self, times)
        value = getattr(s, field)
        return replace(s, **{field: -value if field == "alignment" else value * 1.01})

    monkeypatch.setattr(xz.Trajectory, "sample", wrong)
    verdict = confirm_xz.oracle(dps=30, cases=["generic"])
    assert verdict.status == "failed" and field in verdict.detail


@pytest.mark.parametrize(
    ("name", "field", "wrong"),
    [
        ("generic", "t_c", lambda v: 2 * v),
        ("generic", "alpha_minus", lambda v: -v),
        ("P_zero_y_positive", "alpha_prime", lambda v: 1 / v),
        ("P_zero_y_negative", "alpha_plus", lambda v: v * (1 + mpmath.mpf(10) ** -12)),
        ("Q_zero_y_negative", "alpha_minus", lambda v: v / 2),
    ],
)
def test_measured_constants_catch_a_wrong_reported_constant(monkeypatch, name, field, wrong):
    """The simulation-backed measurement of the reported constants has teeth: a wrong value
    reported by closed_form (the trajectory itself unchanged) fails it."""
    assert confirm_xz.measured_constants(cases=[name]).status == "confirmed"
    real = xz.closed_form

    def mutated(*args, **kwargs):
        traj = real(*args, **kwargs)
        return replace(traj, **{field: wrong(getattr(traj, field))})

    monkeypatch.setattr(xz, "closed_form", mutated)
    verdict = confirm_xz.measured_constants(cases=[name])
    assert verdict.status == "failed" and field in verdict.detail


@pytest.mark.slow
def test_oracle_suite_at_50_digits():
    """The registry's oracle claim at a second precision over the whole suite."""
    verdict = confirm_xz.oracle(dps=50)
    assert verdict.status == "confirmed", verdict.detail


def test_assert_matches_closed_form_as_a_user_oracle():
    """A user's trajectory (here: plain gradient descent, step 1e-4 t_c) passes at the
    accuracy GD has (global error O(step)), and a wrong trajectory fails."""
    case = xz.case("generic")
    setup = case.setup
    u = np.array([float(v) for v in case.u0])
    W = np.array([[float(v) for v in row] for row in case.W0])
    x = np.array([float(v) for v in setup.x])
    eu, ew, g, y = (float(v) for v in (setup.eta_u, setup.eta_w, setup.gamma, setup.y))
    tc = xz.closed_form(setup, case.u0, case.W0).t_c
    h = 1e-4 * tc
    times, us, Ws = [], [], []
    for n in range(20001):
        if n % 5000 == 0:
            times.append(n * h), us.append(u.copy()), Ws.append(W.copy())
        r = g * u @ W @ x - y
        u, W = u - h * eu * 2 * g * r * (W @ x), W - h * ew * 2 * g * r * np.outer(u, x)
    # Euler's global error over 2 t_c at h = 1e-4 t_c is ~1e-4 relative: 1e-3 passes
    testing.assert_matches_closed_form(setup, case.u0, case.W0, times, us, Ws, rtol=1e-3)
    with pytest.raises(AssertionError, match="leaves the exact solution at times"):
        testing.assert_matches_closed_form(setup, case.u0, case.W0, times, us, Ws, rtol=1e-7)
    with pytest.raises(ValueError, match=r"u \(xu_ziyin block\) must have shape"):
        testing.assert_matches_closed_form(setup, case.u0, case.W0, times, us[:-1], Ws)
