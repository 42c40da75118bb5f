"""Edges of the closed forms of kunin, xu_ziyin and linear_node_scaling that the named cases
do not reach: the balance tolerance of the wide net at rates far from 1, the digits of the
float64 fallback, the residuals of printed errata (derived here by hand), and the precision
of the exact reference of the evaluator claim.  Each test names the surviving mutant of the
seed-2 sample (docs/mutation_testing.md) it was written against."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from solvable._core.tolerance import Tolerance, error_in_units
from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import xu_ziyin as xz
from solvable.models.linear_node_scaling import checks as lns_checks


# ---------------------------------------------------------------------------
# kunin.wide_closed_form: the balance tolerance scales with eta_w A A^T + eta_a W W^T
# ---------------------------------------------------------------------------
def test_wide_balance_tolerance_is_relative_to_the_rate_weighted_terms():
    """Mutant solvable/models/kunin.py:2166:core/ReplaceBinaryOperator_Mul_Add:237.

    The docstring: Delta(0) = eta_w A0 A0^T - eta_a W0 W0^T must equal delta I_h to
    ``balance_rtol`` times ``max diag(eta_w A A^T + eta_a W W^T)``.  With eta_a = 1/1024,
    A0 = I and W0 = [[4, 0], [1, 4]] (exact binary numbers): eta_a W0 W0^T = [[16, 4], [4,
    17]]/1024, so max|Delta - delta I| is the off-diagonal 4/1024 and the scale is 1 +
    17/1024 = 1041/1024: the start is accepted exactly when balance_rtol >= 4/1041."""
    setup = kunin.WideSetup("0.0009765625", 1, ((1, 0), (0, 1)), (("0.5", "0.2"), ("0.1", "-0.3")))
    A0 = ((1, 0), (0, 1))
    W0 = ((4, 0), (1, 4))
    threshold = Fraction(4, 1041)
    # a relative margin of 1e-3 either side of the threshold: far above the rounding of the
    # check (done at 50 digits) and of balance_rtol's float conversion (1e-16)
    below, above = float(threshold) * (1 - 1e-3), float(threshold) * (1 + 1e-3)
    with pytest.raises(ValueError, match="balance_rtol"):
        kunin.wide_closed_form(setup, A0, W0, balance_rtol=below)
    traj = kunin.wide_closed_form(setup, A0, W0, balance_rtol=above)
    assert traj is not None


# ---------------------------------------------------------------------------
# kunin.closed_form: the float64 fallback is the 17-digit mpmath evaluation, rounded once
# ---------------------------------------------------------------------------
def _ulps(got: np.ndarray, want: np.ndarray) -> float:
    """The largest distance in units in the last place of ``want`` (1 ulp of the smallest
    normal for a zero)."""
    g, w = np.asarray(got, dtype=float).ravel(), np.asarray(want, dtype=float).ravel()
    units = [abs(a - b) / math.ulp(max(abs(b), 2.0**-1022)) for a, b in zip(g, w, strict=True)]
    return max(units, default=0.0)


@pytest.mark.parametrize(
    ("scale", "times"),
    [("", [1e101, 3e101]), ("e25", [0.25, 1.0, 2.5])],
    ids=["beyond_the_safe_times", "untrusted_constants"],
)
def test_float64_fallback_is_the_17_digit_evaluation_rounded_once(scale, times):
    """Mutant solvable/models/kunin.py:1324:core/NumberReplacer:427 (_SHADOW_DPS 17 -> 16).

    The Trajectory docstring: float64 is evaluated in float64 where it is safe, "and otherwise
    at 17 digits in mpmath (no exponent range) and rounded once".  So at times beyond the
    safe range (t > 1e100) and for constants outside [1e-20, 1e20] (data of scale 1e25), the
    float64 sample equals closed_form(dps=17) (the same evaluation, rounded to 17 digits)
    converted to float64: a, w and the loss within 1 ulp (the second rounding of a 17-digit
    value), beta = a w formed in float64 from the rounded a and w, so within 2 ulp.  X square
    (n = d) makes the loss cancel to its last carried digits (the exact loss -> 0), where it
    depends on the digits carried."""
    X = ((f"1{scale}", "0"), ("0", f"1{scale}"))
    y = (f"0.6{scale}", f"-0.3{scale}")
    setup = kunin.Setup("1", "0.5", X, y)
    a0, w0 = "0.5", ("0.2", "0.1")
    fast = kunin.closed_form(setup, a0, w0)
    got = fast.sample(times)
    ref = kunin.closed_form(setup, a0, w0, dps=17).sample(times)
    as_float = lambda v: np.array([float(x) for x in np.asarray(v, dtype=object).ravel()])  # noqa: E731
    for name, ulps in (("a", 1), ("w", 1), ("loss", 1), ("beta", 2)):
        assert _ulps(getattr(got, name), as_float(getattr(ref, name))) <= ulps, (
            name, getattr(got, name), as_float(getattr(ref, name)))  # fmt: skip


# ---------------------------------------------------------------------------
# xu_ziyin errata: the printed residuals are those of the printed formulas (derived by hand)
# ---------------------------------------------------------------------------
def _erratum(equation: str):
    (e,) = [e for e in xz.errata() if e.equation == equation]
    return e


def _at(expr: sp.Expr, **values: object) -> sp.Expr:
    """``expr`` with each free symbol (by name) set to ``values[name]``, all of them."""
    free = {s.name: s for s in expr.free_symbols}
    assert set(free) <= set(values), sorted(set(free) - set(values))
    return sp.simplify(sp.radsimp(expr.subs({free[k]: v for k, v in values.items() if k in free})))


RHO_POINTS = [
    dict(eta_u=sp.Rational(4, 9), eta_w=sp.Rational(9, 4), gamma=sp.Rational(3, 2),
         r=sp.Rational(-2, 3), x_0=3, x_1=4),
    dict(eta_u=2, eta_w=sp.Rational(1, 3), gamma=sp.Rational(1, 5), r=sp.Rational(7, 2),
         x_0=sp.Rational(-1, 2), x_1=sp.Rational(5, 3)),
]  # fmt: skip


@pytest.mark.parametrize("point", RHO_POINTS, ids=["x_3_4", "x_neg"])
def test_printed_rho_normalisation_residual_is_the_minor_at_rho_squared_half_norm(point):
    """Mutant solvable/models/xu_ziyin.py:2557:core/ReplaceBinaryOperator_Pow_Sub:99.

    The erratum "(6), (7): rho": the printed rho^2 = (1/d0) sum x_i^2 (d0 = 2), and the
    residual is the 2x2 minor of the coefficients of dp/dt and p in (u, w_0).  By hand, with
    p = (sqrt(eta_u) v + sqrt(eta_w) rho u)/(2 rho), v = w . x, du/dt = -2 eta_u gamma v r,
    dw_j/dt = -2 eta_w gamma u x_j r: the minor is (gamma r eta_u eta_w x_0/2)(1 - |x|^2/rho^2),
    so at rho^2 = |x|^2/2 it is -gamma r eta_u eta_w x_0/2 (and 0 at rho = |x|)."""
    e = _erratum("(6), (7): rho")
    printed, corrected = e._residuals()
    P = point
    want = -P["gamma"] * P["r"] * P["eta_u"] * P["eta_w"] * P["x_0"] / 2
    assert _at(printed, **P) == want
    assert _at(corrected, **P) == 0
    # the public residual (at the erratum's own rational point) is the same closed number
    free = sorted(printed.free_symbols, key=lambda s: s.name)
    Pk = {s.name: sp.Rational(k + 2, k + 3) for k, s in enumerate(free)}
    assert e.residuals()[0] == -Pk["gamma"] * Pk["r"] * Pk["eta_u"] * Pk["eta_w"] * Pk["x_0"] / 2


def test_printed_ntk_residual_is_the_rate_swap_and_vanishes_at_equal_rates():
    """Mutant solvable/models/xu_ziyin.py:2620:core/ReplaceBinaryOperator_Pow_Sub:103.

    The erratum "(18)": printed K = gamma^2 (eta_w v^2 + eta_u u^2 |x|^2) (v = w . x), rates
    swapped, "harmless only when eta_u = eta_w".  By hand, for f = gamma u v: df/dt =
    gamma (v du/dt + u x . dw/dt) = -2 gamma^2 r (eta_u v^2 + eta_w u^2 |x|^2), so the
    printed residual df/dt + 2 K r is 2 gamma^2 r (eta_w - eta_u)(v^2 - u^2 |x|^2)."""
    e = _erratum("(18)")
    printed, corrected = e._residuals()
    names = {s.name: s for s in printed.free_symbols}
    g, r, eu, ew = (names[k] for k in ("gamma", "r", "eta_u", "eta_w"))
    u, w0, w1, x0, x1 = (names[k] for k in ("u_i", "w_i0", "w_i1", "x_0", "x_1"))
    v = w0 * x0 + w1 * x1
    want = 2 * g**2 * r * (ew - eu) * (v**2 - u**2 * (x0**2 + x1**2))
    assert sp.expand(printed - want) == 0
    assert sp.expand(printed.subs(ew, eu)) == 0  # harmless at equal rates
    assert sp.expand(corrected) == 0


@pytest.mark.parametrize(
    "point",
    [dict(alpha=sp.Rational(3, 2), p0=sp.Rational(2, 3), q0=sp.Rational(-1, 5),
          eta_w=sp.Rational(1, 4)),
     dict(alpha=sp.Rational(1, 7), p0=3, q0=sp.Rational(5, 2), eta_w=sp.Rational(9, 4))],
    ids=["eta_w_quarter", "eta_w_9_4"],
)  # fmt: skip
def test_printed_norm_u2_residual_is_right_only_at_unit_rate(point):
    """Mutant solvable/models/xu_ziyin.py:2710:core/ReplaceBinaryOperator_Sub_FloorDiv:165.

    The erratum "(25)": printed ||u||^2 = d(alpha P + Q/alpha) - 2 sum p_i q_i, right only for
    eta_w = 1.  By hand (d = 1, eq. (13)): u = (p - q)/sqrt(eta_w) with p = p0 sqrt(alpha),
    q = q0/sqrt(alpha), so ||u||^2 = (alpha p0^2 + q0^2/alpha - 2 p0 q0)/eta_w and the printed
    residual ||u||^2 - printed is (1/eta_w - 1)(alpha p0^2 + q0^2/alpha - 2 p0 q0)."""
    e = _erratum("(25)")
    printed, corrected = e._residuals()
    a, p0, q0, ew = (point[k] for k in ("alpha", "p0", "q0", "eta_w"))
    want = (1 / ew - 1) * (a * p0**2 + q0**2 / a - 2 * p0 * q0)
    assert _at(printed, eta_u=sp.Rational(5, 3), **point) == want
    assert _at(printed, eta_u=sp.Rational(5, 3), **{**point, "eta_w": 1}) == 0
    assert _at(corrected, eta_u=sp.Rational(5, 3), **point) == 0


# ---------------------------------------------------------------------------
# linear_node_scaling's evaluator claim: its exact reference resolves the errors it reports
# ---------------------------------------------------------------------------
def test_evaluator_claim_reports_the_true_error_of_the_start(monkeypatch):
    """Mutant solvable/models/linear_node_scaling.py:1929:core/ReplaceBinaryOperator_Add_BitOr:85.

    The claim compares the evaluators "against the same sympy expressions evaluated exactly
    on a rational instance (then to dps + 10 digits)" and reports each error in tolerances.
    At t = 0 the exact W is the instance's rational W0, so the reported "W(t=0) mpmath"
    error must be the true error of the closed form's W(0) (dps = 30) against the rationals,
    here computed against them at 60 digits.  The report prints 2 significant digits:
    agreement within 5 % of the true value (the claim's reference, 10 digits beyond dps,
    moves the error by ~1e-10 of itself)."""
    seen: dict[object, lns.Trajectory] = {}
    real = lns.closed_form

    def spy(*args, **kwargs):
        traj = real(*args, **kwargs)
        seen[kwargs.get("dps")] = traj
        return traj

    monkeypatch.setattr(lns_checks, "closed_form", spy)  # where the claim looks it up
    dps = 30
    verdict = lns_checks._evaluators_mpmath(dps)
    assert verdict.status == "confirmed", verdict.detail
    tols = {dps: Tolerance.digits(dps - 3, "the claim's tolerance of the mpmath evaluators"),
            None: Tolerance(rtol=1e-12, reason="the claim's tolerance of float64")}  # fmt: skip
    W0 = lns_checks._rational_instance()["W0"]
    with mpmath.workdps(80):
        exact = [[mpmath.mpf(str(sp.N(v, 80))) for v in row] for row in W0.tolist()]
    for label, digits in (("mpmath", dps), ("float64", None)):
        W = seen[digits].sample([0]).W[0]
        true = error_in_units(W, exact, tols[digits])
        m = re.search(rf"W\(t=0\) {label} ([-+.e0-9]+)", verdict.detail)
        assert m, verdict.detail
        reported = float(m.group(1))
        assert true > 0  # W0 (thirds) is not a dps-digit or float64 number
        assert abs(reported - true) <= 0.05 * true, (label, reported, true)


# ---------------------------------------------------------------------------
# xu_ziyin.paper_constants: P = 0 is decided exactly, also for a start that is balanced to
# hundreds of digits
# ---------------------------------------------------------------------------
def test_paper_constants_reports_no_alpha_prime_for_a_nearly_balanced_nonzero_p():
    """Mutant solvable/models/xu_ziyin.py:2299:core/ReplaceComparisonOperator_Eq_LtE:38.

    The docstring: ``alpha_prime`` (eq. (47)) only for ``P = 0 < Q``.  With eta_u = 2, eta_w
    = 1, x = (1,) (rho = 1), W0 = ((1,),) (v = 1) and u0 = -r, r the 200-digit decimal of
    sqrt(2), eq. (6) gives p = (sqrt(2) - r)/2 != 0 (sqrt(2) is irrational) and q = (sqrt(2)
    + r)/2, so P = (sqrt(2) - r)^2/4 ~ 1e-401 > 0 and Q = (sqrt(2) + r)^2/4 > 0: not the
    case of eq. (47), however close to it (P's cancellation is beyond what sympy's default
    numerical evaluation resolves, so only the exact test P == 0 decides it)."""
    with mpmath.workdps(220):
        r = mpmath.nstr(mpmath.sqrt(2), 200)
    setup = xz.Setup(2, 1, 1, (1,), 1)
    out = xz.paper_constants(setup, ("-" + r,), ((1,),))
    R = sp.Rational(r)
    # exact algebraic numbers: the differences expand to 0 exactly
    assert sp.expand(out["P"] - (sp.sqrt(2) - R) ** 2 / 4) == 0, out["P"]
    assert sp.expand(out["Q"] - (sp.sqrt(2) + R) ** 2 / 4) == 0, out["Q"]
    assert out["P"] != 0
    assert out["alpha_prime"] is None, out["alpha_prime"]
    assert "alpha_plus (Prop. 1)" not in out


# ---------------------------------------------------------------------------
# kunin.wide_symbolic: p_inf = 2 max(k, 0)/kappa^2
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("k", "kappa"),
    [(-3, sp.Rational(1, 2)), (0, sp.Rational(1, 2)), (sp.Rational(5, 2), sp.Rational(1, 2)),
     (-sp.Rational(1, 7), 3), (7, 3)],
    ids=["k=-3", "k=0", "k=5/2", "k=-1/7", "k=7"],
)  # fmt: skip
def test_wide_p_inf_is_twice_the_positive_part_of_the_rate_over_kappa_squared(k, kappa):
    """Mutant solvable/models/kunin.py:1683:core/NumberReplacer:513.

    The docstring of WideSymbols: ``p_inf = 2 max(k, 0)/kappa^2`` (the t -> oo limit of a
    mode's entry of P): 0 for every rate k <= 0, 2k/kappa^2 above.  (The symbolic claim
    kunin.wide_limit_at_infinity also fails under this mutant, but ``wide_symbolic`` is
    cached, so a per-line test selection can miss it.)"""
    W = kunin.wide_symbolic()
    got = W.exprs["p_inf"].subs({W.k: k, W.kappa: kappa})
    want = 2 * max(sp.sympify(k), sp.Integer(0)) / sp.sympify(kappa) ** 2
    # exact rationals on both sides
    assert sp.simplify(got - want) == 0, (k, kappa, got)
