"""Crossings, fixed-point powers and oracle tolerances: the first root of the delayed-rich
crossing interpolation, the rounding of the compiled Taylor engine's powers ``(s/H)^k`` and
the paper constants P, Q behind the Xu & Ziyin oracle's manifold condition.

Written in the mutation-testing triage of the seed-5 run.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics import mp
from solvable.models import xu_ziyin as xz
from solvable.verification.confirmations import delayed_rich as cdr
from solvable.verification.confirmations import xu_ziyin as cxz


# ---------------------------------------------------------------------------
# delayed-rich confirmation: _crossing returns the FIRST t with f(t) = 1/2
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "roots", [(0.42, 0.58, 0.9), (0.41, 0.59, 1.5), (0.45, 0.55, 2.0), (0.43, 0.6, 0.7)]
)
def test_crossing_is_the_first_root_when_f_falls_back_below_half_in_the_next_step(roots):
    """Key
    solvable/verification/confirmations/delayed_rich.py:76:core/ReplaceBinaryOperator_Sub_Add:3.

    ``_crossing``'s docstring: "The first t with f(t) = 1/2", from the cubic through the 4
    grid points around the first sign change.  For f - 1/2 = (t - r1)(t - r2)(t - r3) with
    r1 < t_k < r2 (f rises through 1/2 at r1 and falls back at r2, within one grid step
    of t_k), the cubic fit of exact cubic samples is f itself, so the answer is r1, never
    the later root r2 (mirrored about t_k: a wrong sign of the step h lands there)."""
    r1, r2, r3 = roots
    t = np.linspace(0.0, 1.0, 11)
    f = 0.5 + (t - r1) * (t - r2) * (t - r3)
    k = int(np.argmax(f >= 0.5))
    assert t[k - 1] < r1 < t[k] < r2  # the first sign change is at r1, r2 is one step on
    # a cubic fit of 4 exact cubic samples and Newton to |dx| < 1e-15 on x = (t - t_k)/h:
    # a few roundings of values O(1): 1e-13 absolute (h = 0.1, t <= 1), as for the monotone
    # cubics of test_crossing_is_exact_for_a_cubic_wherever_four_grid_points_surround_it
    assert abs(cdr._crossing(t, f) - r1) < 1e-13


# ---------------------------------------------------------------------------
# numerics.mp._CompiledEngine._sum: the powers (s/H)^k in fixed point at F bits
# ---------------------------------------------------------------------------
def _power_engine():
    """A real compiled engine (y' = -x at 30 digits: its F and H = 2**sigma) whose series
    rows are replaced by the unit rows, so that ``_sum(s)`` returns the fixed-point powers
    ``[P_0, ..., P_p]`` themselves."""
    x = sp.Symbol("x")
    prog = mp.compile_polynomial([x], [], [-x])
    p = 24
    with mpmath.workdps(30):
        eng = mp._CompiledEngine(prog, mp._const_values(prog, [], []), [mpmath.mpf(1)], p,
                                 [(0, 1)])  # fmt: skip
        eng.expand(1)
    eng.C = [[int(j == k) for j in range(p + 1)] for k in range(p + 1)]
    eng.n = p + 1
    return eng


def test_fixed_point_powers_are_rounded_to_nearest_at_f_bits():
    """Key numerics/mp.py:783:core/ReplaceBinaryOperator_LShift_Mul:9.

    ``_sum``: "P_k = (s / H)^k in fixed point at F bits (k ulps)", each power the previous
    one times ``r = s/H`` (rounded to F bits), rounded to nearest as every fixed-point
    quantity of the engine (``(S + half) >> shift``).  Against the exact rationals:
    (i) for an offset on the F-bit grid (``r`` exact) each of the k - 1 products adds at
    most half an ulp and ``r <= 1`` does not amplify it: ``|P_k - (s/H)^k 2^F| <= (k -
    1)/2`` (truncation would reach k - 1); (ii) for any offset (``r`` rounded: half an
    ulp more, carried by k - 1 products) the docstring's k ulps hold."""
    eng = _power_engine()
    F, sigma = eng.F, eng.sigma
    one = Fraction(1 << F)
    worst = Fraction(0)
    with mpmath.workprec(F + 200):  # every offset below is exact (2F bits or fewer)
        for m in range(1, 41):
            # (i) on the grid: s/H = j/2^F, j odd with all F bits in play, over (0, 1)
            j = ((1 << F) - 1) * m // 41 | 1
            table = eng._sum(mpmath.ldexp(j, sigma - F))
            for k, P in enumerate(table):
                err = abs(P - Fraction(j, 1 << F) ** k * one)
                assert err <= Fraction(max(k - 1, 0), 2), (m, k, float(err))
                worst = max(worst, err)
            # (ii) between grid points: s/H = j/2^F + 1/3 of an ulp, to 2F bits
            N = (j << F) + (1 << F) // 3
            ratio = Fraction(N, 1 << (2 * F))
            table = eng._sum(mpmath.ldexp(N, sigma - 2 * F))
            for k, P in enumerate(table):
                err = abs(P - ratio**k * one)
                assert err <= k, (m, k, float(err))
    assert worst > 0  # the products do round (else (i) would check nothing)


# ---------------------------------------------------------------------------
# solvable.verification.confirmations.xu_ziyin.oracle: kappa from the paper's P, Q (t = 0)
# ---------------------------------------------------------------------------
def test_xu_ziyin_oracle_conditions_its_tolerance_on_the_initial_paper_constants(monkeypatch):
    """Key solvable/verification/confirmations/xu_ziyin.py:158:core/NumberReplacer:68.

    ``oracle``: off the invariant manifolds an error grows with ``kappa =
    xu_ziyin.manifold_condition(P, Q, alpha)``, whose P, Q are the paper's constants of
    eqs. (6), (7): ``(1/d) sum p_i^2``, ``(1/d) sum q_i^2`` of the INITIAL weights (the
    closed form's ``P``, ``Q``), not of a later state (p_i, q_i move with alpha).  With the
    simulation replaced by the exact closed-form states (no integration: fast), every call
    of manifold_condition on the generic case gets the exact P, Q (sympy, from
    ``paper_constants``)."""
    name = "generic"
    case = xz.case(name)
    dps = 30
    T = cxz.time_scale(case.setup, case.u0, case.W0)
    with mpmath.workdps(dps + 10):
        times = tuple(T * k for k in cxz.GRID)
    states = tuple(xz.closed_form(case.setup, case.u0, case.W0, dps=dps).sample(list(times)))
    monkeypatch.setattr(cxz, "_simulation", lambda n, digits: (times, states, T))
    seen = []
    real = xz.manifold_condition

    def spy(P, Q, alpha):
        seen.append((P, Q))
        return real(P, Q, alpha)

    monkeypatch.setattr(xz, "manifold_condition", spy)
    verdict = cxz.oracle(dps=dps, cases=[name])
    assert verdict.status == "confirmed", verdict.detail
    exact = xz.paper_constants(case.setup, case.u0, case.W0)
    P, Q = float(sp.N(exact["P"], 30)), float(sp.N(exact["Q"], 30))
    assert abs(P - Q) > 1e-3 * (P + Q)  # generic: P != Q, so a swap would show too
    assert len(seen) == len(times)
    for got_P, got_Q in seen:
        # the sums of p^2, q^2 of a 30-digit state, rounded to float64: 1e-12 relative
        # leaves ~1e4 float64 units for the rounding (a later state's P, Q differ by
        # percents: p_i, q_i scale with alpha(t)^(+-1/2))
        assert got_P == pytest.approx(P, rel=1e-12) and got_Q == pytest.approx(Q, rel=1e-12)
