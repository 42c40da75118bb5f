"""float64 closed form against the same closed form at 30 digits (mpmath), over a
hypothesis-generated parameter space: scales 1e-6..1e6, learning rates and gamma
1e-3..1e3, d in 1..4, d0 in 1..3, generic / exactly aligned / nearly aligned
layers, y of either sign or 0, and t from 0 to 1000 t_c.

Error measures (one policy: :mod:`solvable._core.tolerance`; RTOL = 1e-10 as the issue
asks, atol = 1e-300 only absorbs values below float64's normal range, ~2.2e-308,
to which the 30-digit reference is rounded):

* state: ``(sqrt(eta_w) u, sqrt(eta_u) W)`` normwise.  These balanced
  coordinates are those in which the flow is a hyperbolic rotation
  (Theorem 1); a block of the state that decays to an exponentially small
  value (e.g. u when y = 0 and d = 1) is only determined to float64 precision
  relative to the whole state.
* f: relative to ``|y| + |f - y|``, the scale at which y (given to 1 ulp) and the
  residual (exact up to rounding of the initial weights) determine it.
* ntk: relative (a sum of squares: no cancellation).
* alignment: absolute 1e-10 plus its condition bound under the float64 rounding
  of the conserved Lagrange sum Lambda (see ``_alignment_bound``): for nearly
  aligned layers Lambda ~ eps^2 |p|^2 |q|^2 is below float64 resolution, and once
  F^2 ~ Lambda the cosine is ill-conditioned in the inputs themselves.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solvable.models import xu_ziyin as xz

RTOL = 1e-10
ATOL = 1e-300
EPS = np.finfo(float).eps


def _f64(a):
    return np.vectorize(float, otypes=[float])(np.asarray(a, dtype=object))


@st.composite
def problems(draw):
    d = draw(st.integers(1, 4))
    d0 = draw(st.integers(1, 3))

    def log_uniform(lo, hi):
        return 10.0 ** draw(st.floats(lo, hi))

    def array(shape):
        scale = log_uniform(-6, 6)
        flat = draw(
            st.lists(
                st.floats(-1, 1).filter(lambda z: abs(z) > 1e-3),
                min_size=int(np.prod(shape)),
                max_size=int(np.prod(shape)),
            )
        )
        return np.array(flat).reshape(shape) * scale

    eta_u, eta_w, gamma = (log_uniform(-3, 3) for _ in range(3))
    x = array((d0,))
    y = draw(st.sampled_from([-1.0, 0.0, 1.0])) * log_uniform(-3, 3)
    W0 = array((d, d0))
    structure = draw(st.sampled_from(["generic", "aligned", "nearly_aligned"]))
    if structure == "generic":
        u0 = array((d,))
    else:
        v0 = W0 @ x
        c = draw(st.sampled_from([-1.0, 1.0])) * log_uniform(-2, 2)
        u0 = c * v0
        if structure == "nearly_aligned":
            u0 = u0 * (
                1 + 1e-9 * np.array(draw(st.lists(st.floats(-1, 1), min_size=d, max_size=d)))
            )
    setup = xz.Setup(eta_u, eta_w, gamma, x, y)
    fractions = draw(st.lists(st.floats(-3, 3), min_size=1, max_size=4))
    return setup, u0, W0, fractions


def _alignment_bound(ref: xz.Trajectory, f_ref: float, f_tol: float) -> float:
    """First-order error bound of zeta = F / sqrt(F^2 + 4 Lambda), F = f sqrt(eta_u eta_w)
    / (gamma rho), from (i) the float64 rounding of the conserved Lagrange sum
    Lambda = sum_{i<j}(p_i q_j - p_j q_i)^2 and (ii) the error ``f_tol`` allowed in f.

    (i): p_i, q_i = (a_i +- b_i)/2 with a_i = sqrt(eta_u) (W x)_i / rho, b_i = sqrt(eta_w)
    u_i are computed in float64 with errors |dp_i|, |dq_i| <= (d0 + 2) eps (|a|_i + |b_i|)/2,
    |a|_i = sqrt(eta_u) sum_j |W_ij x_j| / rho (summation and one addition: nearly aligned
    layers make p or q cancel, so the error is relative to the summands, not to p, q).
    Then |dLambda| <= 2 sqrt(2) sqrt(Lambda) (|dp| |q| + |p| |dq|) + 2 (|dp| |q| + |p| |dq|)^2.
    """
    k = ref._data
    with mpmath.workdps(40):
        x = [mpmath.mpf(v) for v in k["x"]]
        sa = mpmath.sqrt(k["eta_u"]) / k["rho"]
        sb = mpmath.sqrt(k["eta_w"])
        mags = []
        for u, row in zip(k["u0"], k["W0"], strict=True):
            a_abs = sa * mpmath.fsum(abs(w * xj) for w, xj in zip(row, x, strict=True))
            mags.append((a_abs + sb * abs(u)) / 2)
        summands = float(mpmath.sqrt(mpmath.fsum(m * m for m in mags)))
        p_norm = float(mpmath.sqrt(mpmath.fsum(p * p for p in k["p0"])))
        q_norm = float(mpmath.sqrt(mpmath.fsum(q * q for q in k["q0"])))
        lam = float(k["Lam"])
        to_F = float(mpmath.sqrt(k["eta_u"] * k["eta_w"]) / (k["gamma"] * k["rho"]))
    F, dF = f_ref * to_F, f_tol * to_F
    dpq = (len(x) + 2) * EPS * summands
    first = dpq * q_norm + p_norm * dpq
    dlam = 2 * math.sqrt(2) * math.sqrt(lam) * first + 2 * first**2
    if F == 0:
        return 2.0  # the sign of an underflowed F carries no information

    def zeta(L: float) -> float:
        return F / math.hypot(F, 2 * math.sqrt(max(L, 0.0)))

    from_lam = abs(zeta(lam + dlam) - zeta(lam)) + abs(zeta(max(lam - dlam, 0.0)) - zeta(lam))
    from_f = 4 * lam / math.hypot(F, 2 * math.sqrt(lam)) ** 3 * dF if lam > 0 else 0.0
    return from_lam + from_f


def _compare(setup, ref, fast, times, cond=0.0):
    """Assert the float64 trajectory matches the 30-digit one at ``times`` (module doc)."""
    su, sw = math.sqrt(float(setup.eta_w)), math.sqrt(float(setup.eta_u))
    y = float(setup.y)
    a, b = fast.sample(times), ref.sample(times)
    k0 = ref._data
    scale0 = max(np.abs(su * _f64(k0["u0"])).max(), np.abs(sw * _f64(k0["W0"])).max())
    for k, t in enumerate(times):
        bu, bW = _f64(b.u[k]), _f64(b.W[k])
        scale = max(np.abs(su * bu).max(), np.abs(sw * bW).max())
        err = max(np.abs(su * (a.u[k] - bu)).max(), np.abs(sw * (a.W[k] - bW)).max())
        # plus the float64 rounding of the initial state (4 eps of its scale), amplified
        # off the invariant manifolds P = 0 / Q = 0 by kappa (solvable.verification.testing): a
        # state
        # that decays into the saddle is only determined to that floor
        kappa = xz.manifold_condition(float(fast.P), float(fast.Q), float(b.alpha[k]))
        if not math.isfinite(kappa):  # exactly on P = 0 / Q = 0 with alpha -> 0 or oo: no
            kappa = 1.0  # input rounding off it (assumed above), only the evaluation's own
        floor = 4 * EPS * scale0 * kappa
        assert err <= RTOL * scale + floor + ATOL, f"state at t={t}: {err / max(scale, 1e-300):.3g}"
        bf = float(b.f[k])
        # cond: how well float64 inputs fix the smaller of P, Q (relative), which the
        # late-time f and K run on (see test_float64_matches_30_digits)
        # ... and a relative error c in the rate of an exponential decay becomes c times the
        # number of e-foldings done (log of the decay of |f - y| and of K since t = 0)
        with mpmath.workdps(30):  # logs of the 30-digit values (they may underflow float64)
            r0, rk = abs(b.f[0] - mpmath.mpf(y)), abs(b.f[k] - mpmath.mpf(y))
            folds = float(abs(mpmath.log(rk / r0))) if r0 > 0 and rk > 0 else 0.0
            n0, nk = b.ntk[0], b.ntk[k]
            k_folds = float(abs(mpmath.log(nk / n0))) if n0 > 0 and nk > 0 else 0.0
        cond_f, cond_k = cond * (1 + folds), cond * (1 + k_folds)
        f_tol = (RTOL + cond_f) * (abs(y) + abs(float(b.f[k] - mpmath.mpf(y)))) + ATOL
        assert abs(a.f[k] - bf) <= f_tol, f"f at t={t}: {a.f[k]} vs {bf}"
        bn = float(b.ntk[k])
        assert abs(a.ntk[k] - bn) <= (RTOL + cond_k) * bn + ATOL, f"ntk at t={t}"
        ba = float(b.alignment[k])
        if math.isnan(ba):
            assert math.isnan(a.alignment[k])
        else:
            bound = RTOL + _alignment_bound(ref, bf, f_tol)
            assert abs(a.alignment[k] - ba) <= bound, (
                f"alignment at t={t}: {a.alignment[k]} vs {ba}"
            )


@given(problems())
def test_float64_matches_30_digits(problem):
    setup, u0, W0, fractions = problem
    ref = xz.closed_form(setup, u0, W0, dps=30)
    fast = xz.closed_form(setup, u0, W0)
    P, Q = float(ref.P), float(ref.Q)
    # Each p_i(0), q_i(0) is a difference of two rounded terms, so float64 inputs fix the
    # smaller of P, Q only to ~4 eps (sqrt(P/Q) + 1) relative.  Where that is worse than
    # 1e-6 (exactly (anti)parallel layers built in float64: P/Q ~ eps^2, not 0) the inputs
    # do not determine the late-time flow, which runs off that tiny P or Q; such problems
    # are posed exactly (binary-exact P = 0, Q = 0) in test_float64_exact_degenerate_cases.
    # An exact zero is determined only if float64 finds it too (rho = sqrt(x.x) and the
    # square roots of the rates are rounded, so q_i = 0 in exact arithmetic can be ~eps).
    assume((P == 0) == (fast.P == 0) and (Q == 0) == (fast.Q == 0))
    kappa = sum(4 * (math.sqrt(a / b) + 1) for a, b in ((P, Q), (Q, P)) if b > 0)
    assume(EPS * kappa <= 1e-6)
    tc = float(ref.t_c)
    if not math.isfinite(tc):  # D = 0: y = 0 and PQ = 0; use the kernel time 1/(A + C)
        tc = 1.0
    times = [0.0, 1000 * tc] + [tc * 10.0**f for f in fractions]
    _compare(setup, ref, fast, times, cond=EPS * kappa)
    # (P, Q) normwise; alpha_+-, t_c relative, within RTOL plus the conditioning of P, Q
    assert max(abs(fast.P - P), abs(fast.Q - Q)) <= RTOL * max(P, Q) + ATOL
    for name in ("alpha_plus", "alpha_minus", "t_c"):
        exact = float(getattr(ref, name))
        got = float(getattr(fast, name))
        if math.isinf(exact) or exact == 0:
            assert got == exact, name
        else:
            assert abs(got - exact) <= (RTOL + 8 * EPS * kappa) * abs(exact) + ATOL, name


# Exact degenerate cases, binary-exact so that float64 sees the same exact zeros:
# x = (3, 4) (rho = 5), eta_u = 4, eta_w = 1: W x = -2.5 u makes every p_i = 0 exactly,
# W x = +2.5 u every q_i = 0.
_U = [1.0, -0.5, 0.25]
_ANTI = [[-0.5, -0.25], [0.25, 0.125], [-0.125, -0.0625]]
_PAR = [[-a for a in row] for row in _ANTI]


@pytest.mark.parametrize(
    ("W0", "y", "u0"),
    [
        (_ANTI, 1.0, _U),
        (_ANTI, -1.0, _U),
        (_ANTI, 0.0, _U),
        (_PAR, 1.0, _U),
        (_PAR, -1.0, _U),
        (_PAR, 0.0, _U),
        ([[0.0, 0.0]] * 3, 1.0, [0.0] * 3),
    ],
    ids=["P0_y+", "P0_y-", "P0_y0", "Q0_y+", "Q0_y-", "Q0_y0", "saddle"],
)
def test_float64_exact_degenerate_cases(W0, y, u0):
    setup = xz.Setup(4.0, 1.0, 0.5, [3.0, 4.0], y)
    ref = xz.closed_form(setup, u0, W0, dps=30)
    fast = xz.closed_form(setup, u0, W0)
    assert (fast.P == 0 or fast.Q == 0) and (ref.P == 0 or ref.Q == 0)
    tc = float(ref.t_c) if math.isfinite(float(ref.t_c)) else 1.0
    _compare(setup, ref, fast, [0.0, tc / 10, tc, 10 * tc, 1000 * tc])


def _well_posed_in_float64(case) -> bool:
    """The criterion of test_float64_matches_30_digits: float64 finds the exact zeros of P, Q
    and fixes the smaller of them to 1e-6 (else the late flow is not determined by it)."""
    ref = xz.closed_form(case.setup, case.u0, case.W0, dps=30)
    fast = xz.closed_form(case.setup, case.u0, case.W0)
    P, Q = float(ref.P), float(ref.Q)
    kappa = sum(4 * (math.sqrt(a / b) + 1) for a, b in ((P, Q), (Q, P)) if b > 0)
    return (P == 0) == (fast.P == 0) and (Q == 0) == (fast.Q == 0) and EPS * kappa <= 1e-6


@pytest.mark.parametrize(
    "case", [c for c in xz.CASES if _well_posed_in_float64(c)], ids=lambda c: c.name
)
def test_float64_suite_at_late_times(case):
    """Every well-posed suite case (exact decimals, so not binary-exact) up to 1e4 t_c: the
    stable form neither overflows nor loses the state, f, NTK or alignment far into the
    limit (an overflow-prone rewrite of the log-space form gives inf/nan here)."""
    ref = xz.closed_form(case.setup, case.u0, case.W0, dps=30)
    fast = xz.closed_form(case.setup, case.u0, case.W0)
    P, Q = float(ref.P), float(ref.Q)
    kappa = sum(4 * (math.sqrt(a / b) + 1) for a, b in ((P, Q), (Q, P)) if b > 0)
    tc = float(ref.t_c)
    _compare(case.setup, ref, fast, [0.0, tc, 30 * tc, 300 * tc, 1e4 * tc], cond=EPS * kappa)


@pytest.mark.slow
@settings(max_examples=2000)
@given(problems())
def test_float64_matches_30_digits_thorough(problem):
    """The same property over 2000 examples (run with ``-m slow``)."""
    test_float64_matches_30_digits.hypothesis.inner_test(problem)


def test_state_errors_measures_f_in_units_of_its_tolerance():
    # solvable.verification.testing.state_errors: f's error is |f_got - f_ref| in units of the
    # absolute
    # tolerance atol + rtol (|y| + |f_ref - y| + f_floor); with y = 1, f_ref = 0.5, rtol = 1e-3
    # that unit is 1.5e-3, so an output off by 2.5 units (3.75e-3) reports 2.5 (a failure),
    # and one off by 0.4 units reports 0.4
    from solvable.verification import testing

    tol = testing.Tolerance(rtol=1e-3, reason="test")
    u, W = np.array([1.0, 0.0]), np.array([[1.0], [0.0]])
    ref = xz.State(0.0, u, W, 0.5, 1.0, 1.0, 0.0)
    for units in (2.5, 0.4):
        got = xz.State(0.0, u, W, 0.5 + units * 1.5e-3, 1.0, 1.0, 0.0)
        errs = testing.state_errors(got, ref, 1.0, tol)
        # rel 1e-12: float64 roundings of 0.5 + units * 1.5e-3 (ulps ~1e-16 on 1e-3)
        assert errs["f"] == pytest.approx(units, rel=1e-12)
        assert errs["u"] == 0 and errs["W"] == 0
