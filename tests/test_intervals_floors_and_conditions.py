"""The fixed-point test interval of the integrators is the documented ``max(16, ceil((N +
2) / 3))``, kunin's closed-form oracle measures beta, delta and the loss against their
documented floors and reports the measured late-time rate's true relative deviation from
2 Omega, the Section 2.3 conditions of Xu & Ziyin partition the (P, Q, alpha_+) space into
exactly the case the text names, and Theorem 7.5's moments take ``V`` of more than 256 rows.

Mutation-testing triage (seed-3 run).
"""

from __future__ import annotations

import dataclasses
import math
import re
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from numerics import scipy_ode
from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.verification.confirmations import kunin as ck
from solvable.verification.confirmations import xu_ziyin as cxz

DPS = 20  # kunin's checks at 20 digits (rtol 1e-15 of the oracle): enough for every figure


# ---------------------------------------------------------------------------
# numerics.scipy_ode.check_interval
# ---------------------------------------------------------------------------
def test_check_interval_is_the_smallest_interval_within_the_documented_cost():
    """Mutant numerics/scipy_ode.py:71:core/ReplaceBinaryOperator_Add_LShift:0.

    The docstring: a fixed-point test costs ``N + 2`` field evaluations, a DOP853 step 12;
    testing every ``max(16, (N + 2)/3)`` steps adds at most 25%.  So the interval is at
    least 16, keeps the cost ``(N + 2) / (12 every)`` within 1/4, and is the smallest
    integer that does both (testing no less often than the budget allows)."""
    for n in range(0, 400):
        every = scipy_ode.check_interval(n)
        assert isinstance(every, int) and every >= 16, (n, every)
        assert Fraction(n + 2, 12 * every) <= Fraction(1, 4), (n, every)
        smaller = every - 1
        assert smaller < 16 or Fraction(n + 2, 12 * smaller) > Fraction(1, 4), (n, every)


# ---------------------------------------------------------------------------
# solvable.verification.confirmations.kunin._oracle: the floors of beta, delta and the loss
# ---------------------------------------------------------------------------
def _fractions(values):
    return [Fraction(v) for v in values]


def _exact_floors(case):
    """The oracle's documented floors from the case's data, in exact rationals:
    ``L(0) = 1/2 sum_i (a0 w0.x_i - y_i)^2`` and ``eta_w a0^2 + eta_a |w0|^2``."""
    s = case.setup
    a0, w0 = Fraction(case.a0), _fractions(case.w0)
    X, y = [_fractions(row) for row in s.X], _fractions(s.y)
    loss0 = sum((a0 * sum(w * x for w, x in zip(w0, row, strict=True)) - yi) ** 2
                for row, yi in zip(X, y, strict=True)) / 2  # fmt: skip
    scale = Fraction(s.eta_w) * a0**2 + Fraction(s.eta_a) * sum(w * w for w in w0)
    return {"loss": loss0, "delta": scale}


@pytest.mark.parametrize("quantity", ["loss", "delta", "beta"])
def test_kunin_oracle_measures_each_quantity_against_its_documented_floor(monkeypatch, quantity):
    """Mutant solvable/verification/confirmations/kunin.py:80:core/NumberReplacer:19 (the loss floor
    L(0) read as L(30)); the delta and beta floors are the same kind.

    The "simulation" is the closed form itself (0 error everywhere) with one quantity at
    the last time t = 30 moved by delta_q = rtol (floor + max|ref|) / 2: the docstring's
    floors (|beta*| for beta, eta_w a0^2 + eta_a |w0|^2 for delta, L(0) for the loss) make
    that exactly half a tolerance, so the oracle reports max_error 1/2 and confirms."""
    case = next(c for c in kunin.CASES if c.name == "delayed_rich")  # L(30) = 0.8 L(0)
    rtol = 10.0 ** -(DPS - 5)  # the oracle's rtol (its docstring: dps - 5 digits)
    traj = kunin.closed_form(case.setup, case.a0, case.w0, dps=DPS)
    exact = traj.sample(list(ck.ORACLE_TIMES))
    last = exact.at(len(ck.ORACLE_TIMES) - 1)
    with mpmath.workdps(60):
        if quantity == "beta":
            floor = max(abs(v) for v in traj.beta_star)
            ref_scale = max(abs(v) for v in last.beta)
        else:
            exact_floor = _exact_floors(case)[quantity]
            floor = mpmath.mpf(exact_floor.numerator) / exact_floor.denominator
            ref_scale = abs(traj.delta if quantity == "delta" else last.loss)
        shift = rtol * (floor + ref_scale) / 2
        if quantity == "beta":
            beta = np.array(last.beta, dtype=object)
            beta[0] = beta[0] + shift
            moved = dataclasses.replace(last, beta=beta)
        else:
            moved = dataclasses.replace(last, **{quantity: getattr(last, quantity) + shift})

    def fake_simulate(setup, a0, w0, times, *, method, dps):
        assert list(times) == list(ck.ORACLE_TIMES) and (a0, w0) == (case.a0, case.w0)
        states = kunin.closed_form(setup, a0, w0, dps=dps).sample(list(times))
        return [states.at(k) for k in range(len(times) - 1)] + [moved]

    monkeypatch.setattr(ck.numerics, "simulate", fake_simulate)
    v = ck._oracle(dps=DPS, cases=(case.name,))
    assert v.status == "confirmed", v.detail
    # half a tolerance up to the rounding of the float atol and the 60-digit units (1e-9)
    assert v.max_error == pytest.approx(0.5, rel=1e-9), v.detail
    assert f"{quantity} at t=30" in v.detail, v.detail


# ---------------------------------------------------------------------------
# solvable.verification.confirmations.kunin._constants_on_flow: the reported relative rate deviation
# ---------------------------------------------------------------------------
def test_kunin_constants_report_the_measured_rate_deviation_from_two_omega():
    """Mutant solvable/verification/confirmations/kunin.py:159:core/ReplaceBinaryOperator_Div_Mod:9.

    The detail's "2 Omega to X relative" is max |rate / (2 Omega) - 1| over the starts.  The
    tolerance of the rate is rtol = 1e-5 relative (atol 0), so a confirmed verdict whose
    worst entry is a rate has max_error = X / 1e-5; and the docstring bounds the next
    in-plane mode's effect by 1e-6 relative."""
    v = ck._constants_on_flow(dps=DPS)
    assert v.status == "confirmed", v.detail
    m = re.search(r"2 Omega to (\S+) relative", v.detail)
    assert m, v.detail
    reported = float(m.group(1))
    assert 0 < reported <= 1e-6, v.detail
    assert ": rate " in v.detail, v.detail  # the worst entry is a rate: its units are X/rtol
    # the detail prints X to 2 significant digits: within 5% of max_error * rtol
    assert reported == pytest.approx(v.max_error * 1e-5, rel=0.05), v.detail


# ---------------------------------------------------------------------------
# solvable.verification.confirmations.xu_ziyin.rescaling_condition: Section 2.3's cases partition
# ---------------------------------------------------------------------------
def _section_2_3_case(P, Q, ap):
    """The Section 2.3 case of (P, Q, alpha_+), P != Q, from the text: alpha_+ = 1
    unchanged; P > Q (sqrt(Q/P) < 1): increase above 1, decrease on [sqrt(Q/P), 1),
    decrease then increase below sqrt(Q/P); P < Q (sqrt(Q/P) > 1): increase below 1,
    decrease on (1, sqrt(Q/P)], decrease then increase above sqrt(Q/P)."""
    root = math.sqrt(Q / P)  # exact: Q/P is a square of a dyadic below
    if ap == 1:
        return "unchanged: alpha_+ = 1"
    if P > Q:
        if ap > 1:
            return "increase: P > Q, alpha_+ > 1"
        if ap >= root:
            return "decrease: P > Q, sqrt(Q/P) <= alpha_+ < 1"
        return "decrease then increase: P > Q, alpha_+ < sqrt(Q/P)"
    if ap < 1:
        return "increase: P < Q, alpha_+ < 1"
    if ap <= root:
        return "decrease: P < Q, 1 < alpha_+ <= sqrt(Q/P)"
    return "decrease then increase: P < Q, alpha_+ > sqrt(Q/P)"


def test_rescaling_conditions_partition_into_the_case_the_text_names():
    """Mutant solvable/verification/confirmations/xu_ziyin.py:515:core/NumberReplacer:376.

    Every condition of rescaling_condition, at every point of a grid through and around
    both boundaries (alpha_+ = 1 and alpha_+ = sqrt(Q/P), with sqrt(Q/P) = 1/4 ... 4):
    exactly one label's condition holds, the case Section 2.3 names."""
    labels = list(cxz._RESCALING_CASES)
    aps = (0.125, 0.25, 0.375, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 6)
    for P, Q in ((1, 4), (4, 1), (1, 9), (9, 1), (1, 16), (16, 1)):
        for ap in aps:
            with mpmath.workdps(30):
                holds = [lb for lb in labels
                         if cxz.rescaling_condition(lb, mpmath.mpf(P), mpmath.mpf(Q),
                                                    mpmath.mpf(ap))]  # fmt: skip
            assert holds == [_section_2_3_case(P, Q, ap)], (P, Q, ap, holds)


# ---------------------------------------------------------------------------
# solvable.models.linear_node_scaling: Theorem 7.5 / Proposition 7.6 with d > 256
# ---------------------------------------------------------------------------
def test_theorem_7_5_moments_accept_more_rows_than_the_small_int_cache():
    """Mutant
    solvable/models/linear_node_scaling.py:1157:core/ReplaceComparisonOperator_NotEq_IsNot:7
    (``V.shape[0] is not d``: two equal ints above 256 are different objects).

    d = 300 (above CPython's cached small ints), V the first two columns of I: every entry
    point that checks V returns the documented moments, all dyadic or computed here."""
    d = 300
    V = np.eye(d)[:, :2]
    b = np.arange(1, d + 1) / 64.0
    P = V @ V.T
    # Theorem 7.5: mean Lambda_T/S beta, covariance Lambda_T (I - Lambda_T/S V V^T); with
    # Lambda_T = 1/4, S = 1 every entry is dyadic, exact in float64
    mean, cov = lns.group_moments(0.25, 1.0, b, V)
    np.testing.assert_array_equal(mean, b / 4)
    np.testing.assert_array_equal(cov, 0.25 * (np.eye(d) - 0.25 * P))
    # eq. (21) with gamma = 0, finite_k(2): lambda~_1 = 1/2, S = 1; gamma = 1: zero
    mean, cov = lns.contribution_limit_moments(1, 0, ns.finite_k(2), b, V)
    np.testing.assert_allclose(mean, b / 2, rtol=1e-15)  # the limit 1/2 through sympy: 1 ulp
    np.testing.assert_allclose(cov, 0.5 * (np.eye(d) - 0.5 * P), rtol=1e-15, atol=0)
    mean, cov = lns.contribution_limit_moments(1, 1, ns.finite_k(2), b, V)
    np.testing.assert_array_equal(mean, 0)
    np.testing.assert_array_equal(cov, 0)
    # Proposition 7.6: mean -Lambda_T/S x.b/sqrt(d), variance Lambda_T (|x|^2 - Lambda_T/S
    # |V V^T x|^2)/d; x = (1, ..., 1): x.b = 300 * 301 / 128, |x|^2 = 300, |V V^T x|^2 = 2
    x = np.ones(d)
    mu, var = lns.pruning_error_moments(x, 0.25, 1.0, b, V)
    mu_exact = -0.25 * (d * (d + 1) / 128) / math.sqrt(d)
    var_exact = 0.25 * (d - 0.25 * 2) / d
    assert mu == pytest.approx(mu_exact, rel=1e-14)  # a sum of 300 products: <= 300 ulp
    assert var == pytest.approx(var_exact, rel=1e-14)
    # the error is normal: Pr(|e| > eps) = Phi((-eps - mu)/sd) + 1 - Phi((eps - mu)/sd)
    eps, sd = 10.0, math.sqrt(var_exact)  # |mu| = 10.2: p = 0.64, neither 0 nor 1
    p = lns.pruning_exceedance(x, eps, 0.25, 1.0, b, V)
    p_exact = (math.erfc((eps + mu_exact) / (sd * math.sqrt(2)))
               + math.erfc((eps - mu_exact) / (sd * math.sqrt(2)))) / 2  # fmt: skip
    assert p == pytest.approx(p_exact, rel=1e-10)  # erfc's conditioning at |x| ~ 8: 1e-13
