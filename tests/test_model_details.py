"""Details of the models a user can observe but no other test pins: the elementary form of
``exprel``, the ``d = 1`` lecture initialisation, the digits a kernel-evaluator verdict
quotes, Theorem 5.1 (c) against its derivation, the erratum residual of seed 001 eq. (14)
and the error that exactly-zero constants cost in ``xu_ziyin.reported_constants`` (that
every module compiles cleanly: ``tests/test_source_checks.py``)."""

from __future__ import annotations

import re

import pytest
import sympy as sp

from solvable._core.backends import exprel
from solvable.models import global_convergence as gc
from solvable.models import kernels as kn
from solvable.models import xu_ziyin as xz
from solvable.verification.theorems import select


def _claim(claim_id: str):
    (claim,) = [c for c in select(claim_id.split(".")[0] + ".*") if c.id == claim_id]
    return claim


# ---------------------------------------------------------------------------
# backends: exprel written in exp
# ---------------------------------------------------------------------------
def test_exprel_rewrites_to_its_defining_quotient():
    """``exprel(z).rewrite(exp)`` is the docstring's ``(exp(z) - 1) / z`` (the form sympy's
    proofs and series use), and its limit at 0 is the continuation ``exprel(0) = 1``."""
    z = sp.Symbol("z")
    form = exprel(z).rewrite(sp.exp)
    assert sp.simplify(form - (sp.exp(z) - 1) / z) == 0
    assert sp.limit(form, z, 0) == exprel(0) == 1
    # at z = 2: (e^2 - 1)/2 exactly
    assert sp.simplify(form.subs(z, 2) - (sp.E**2 - 1) / 2) == 0


# ---------------------------------------------------------------------------
# kernels: eq. (2.28) in dimension 1; the digits quoted by evaluators_agree
# ---------------------------------------------------------------------------
def test_lecture_initialisation_accepts_dimension_one():
    """Eq. (2.28) holds for every ``d >= 1``: at ``d = 1``, ``E[a^2] = 1/3`` (Unif[-1, 1])
    and ``s^2 = 1/d = 1``, recorded for ``d = 1``; ``d = 0`` is the first refused value."""
    init = kn.lecture_initialisation(1)
    assert init.a_second_moment == sp.Rational(1, 3)
    assert init.w_variance == 1
    assert init.d == 1
    assert kn.lecture_initialisation(sp.Integer(1)).w_variance == 1
    with pytest.raises(ValueError, match=r"d must be an integer >= 1, got 0"):
        kn.lecture_initialisation(0)


@pytest.mark.parametrize("dps", [30, 40])
def test_evaluators_agree_quotes_the_mpmath_tolerance_of_dps_minus_2_digits(dps):
    """The verdict of ``kernels.evaluators_agree`` states that mpmath at ``dps`` and ``2 dps``
    digits agree to ``dps - 2`` digits (its statement): the detail quotes the worst error in
    units of ``1e-(dps - 2)``, and that error times the unit is below ``10^-(dps - 2)``."""
    v = _claim("kernels.evaluators_agree").verify(dps=dps)
    assert v.status == "confirmed"
    m = re.search(rf"mpmath {dps} vs {2 * dps} digits (\S+) x 1e-(\d+)$", v.detail)
    assert m is not None, v.detail
    assert int(m.group(2)) == dps - 2
    assert float(m.group(1)) <= 1


# ---------------------------------------------------------------------------
# global_convergence: Theorem 5.1 (c) against the integrated loss decay
# ---------------------------------------------------------------------------
def test_theorem_5_1_weight_is_twice_the_markov_bound():
    """Theorem 5.1 (c) as printed is twice the bound derived in the proof: integrating
    ``sqrt(lambda) sqrt(2 n L(s)/d)`` along ``L(s) = e^{-gamma kappa s/2} L_0`` gives
    ``4 sqrt(2 n L_0 lambda/d)/(gamma kappa)``, and Markov's ``L_0 <= n (C^2 + C_1)/delta``
    turns it into ``4 n sqrt(2 (C^2 + C_1) lambda/(d delta))/(gamma kappa)`` (hand-derived)."""
    g = gc.GAMMA
    derived = (
        4 * gc.N * sp.sqrt(2 * (gc.CS**2 + gc.C1) * gc.LAM / (gc.D * gc.DELTA)) / (g * gc.KAPPA)
    )
    assert sp.simplify(gc.theorem_5_1().weight / derived) == 2
    # the same at a rational point (n, d, kappa, gamma, delta, C, C_1, lambda)
    point = {gc.N: 3, gc.D: 2, gc.KAPPA: sp.Rational(1, 5), g: sp.Rational(1, 2),
             gc.DELTA: sp.Rational(1, 10), gc.CS: 1, gc.C1: 1, gc.LAM: 4}  # fmt: skip
    # 2 * 4 * 3 * sqrt(2 * 2 * 4 / (2 / 10)) / (1/10) = 240 sqrt(80)
    assert sp.nsimplify(gc.theorem_5_1().weight.subs(point)) == 240 * sp.sqrt(80)


def test_weight_bound_claim_reports_the_factor_two():
    """The proved verdict of ``global_convergence.weight_bound_from_loss_decay`` says what
    was shown: the integral, the Markov step and that printed (c) / derived = 2."""
    v = _claim("global_convergence.weight_bound_from_loss_decay").verify()
    assert v.status == "proved"
    assert "4 sqrt(2 n L_0 lambda/d)/(gamma kappa_n)" in v.detail
    assert "L_0 <= n (C^2 + C_1)/delta (Markov)" in v.detail
    assert v.detail.endswith("printed (c) / derived = 2")
    assert all(r == 0 for r in v.residuals)


# ---------------------------------------------------------------------------
# xu_ziyin: the erratum of eq. (14); exactly-zero reported constants
# ---------------------------------------------------------------------------
def test_eq14_erratum_printed_residual_is_that_of_rho_under_the_root():
    """The printed eq. (14) puts ``rho`` under the square root: ``(W(t) - W(0)) x =
    (dp + dq) |x|^2 / sqrt(eta_u rho)`` where eq. (13) needs ``rho (dp + dq)/sqrt(eta_u)``,
    a residual ``(dp + dq) (rho^(3/2) - rho)/sqrt(eta_u)`` (hand-simplified, ``rho = |x|``,
    d0 = 2), evaluated at the documented rational point: symbols in name order (Delta_p,
    Delta_q, eta_u, x_0, x_1) set to 2/3, 3/4, 4/5, 5/6, 6/7.  The corrected one is 0."""
    (err,) = [e for e in xz.errata() if e.equation == "(14)"]
    printed, corrected = err.residuals()
    dp, dq, eta, x0, x1 = (sp.Rational(k + 2, k + 3) for k in range(5))
    rho = sp.sqrt(x0**2 + x1**2)
    hand = (dp + dq) * (rho ** sp.Rational(3, 2) - rho) / sp.sqrt(eta)
    # two exact closed numbers: 50 digits of agreement (to 1e-45) is equality for the check
    assert abs(sp.N(printed - hand, 50)) < sp.Float("1e-45", 50)
    assert corrected == 0
    assert err.check()


def test_reported_constants_zero_constants_cost_nothing():
    """``xu_ziyin.reported_constants``: where a constant is exactly 0 (P in the P = 0 cases,
    Q and alpha_+ at Q = 0, P, Q, alpha_- at the saddle) ``closed_form`` reports exactly 0,
    which is no error at all; so the claim's worst error is that of the non-zero constants,
    a small fraction of a tolerance, not a whole one."""
    zeros = 0
    for c in xz.CASES:
        exact = xz.paper_constants(c.setup, c.u0, c.W0)
        traj = xz.closed_form(c.setup, c.u0, c.W0)
        for key, value in exact.items():
            if value is not None and value == 0:
                assert getattr(traj, key.split(" ")[0]) == 0, (c.name, key)
                zeros += 1
    assert zeros >= 4
    v = _claim("xu_ziyin.reported_constants").verify(dps=30)
    assert v.status == "confirmed"
    # measured 0.0101 (float64 alpha_- of P_zero_y_positive, 64 eps (1 + cond) per unit);
    # 0.1 leaves a factor 10 of margin yet is far below the 1 a spurious unit would give
    assert v.max_error < 0.1, v.detail
