"""Theorems 5.1 and 6.1 of seed 000 scale in every variable with the powers the paper prints
(every entry of every bound), the experiments of seed 000 record at ``n_records`` log-spaced
steps, and the delayed-rich plateau time equals ``1/(Omega - D/2)`` with ``Omega =
sqrt(D^2/4 + kappa^2 Y^2)`` in every evaluated form.

Mutation-testing triage (seed-3 run).
"""

from __future__ import annotations

import mpmath
import sympy as sp
import torch  # noqa: F401  (the experiments import it lazily: paid at collection, not in a test)

from numerics import node_scaling_experiment as ex
from solvable.models import delayed_rich as dr
from solvable.models import global_convergence as gc

# ---------------------------------------------------------------------------
# Theorems 5.1 and 6.1: the power of every variable in every bound, as printed
# ---------------------------------------------------------------------------
n, d, k, g, dl = gc.N, gc.D, gc.KAPPA, gc.GAMMA, gc.DELTA
M, C, C1, eta, lam, R0, s = gc.MS, gc.CS, gc.C1, gc.ETA, gc.LAM, gc.R0, gc.STEPS
h = sp.Rational(1, 2)
cc = C**2 + C1  # enters every bound only as (C^2 + C_1)^p: kept as a factor of its own
beta = sp.sqrt(1 - eta * g * k / 2)  # Theorem 6.1's beta, typed from the paper
ALL = (n, d, k, g, dl, M, C, C1, gc.T, gc.L0, eta, lam, gc.SUM_SQ, R0, s)


def _ntg_parts(expr):
    """(d) of Theorem 5.1 as (coefficient of S_2, coefficient of sqrt(S_2)), and what is left."""
    x = sp.Symbol("x", positive=True)
    e = sp.expand(expr.subs(gc.SUM_SQ, x**2))
    a2, a1 = e.coeff(x, 2), e.coeff(x, 1)
    return a2, a1, sp.simplify(e - a2 * x**2 - a1 * x)


def _entries():
    """(name, expression, paper's non-power factor, paper's coefficient, {variable: power})
    for every entry of both theorems; powers from seed 000, Theorems 5.1, 6.1 and (16), and
    for the reconstructed weight bounds from the GradientFlowBounds/GradientDescentBounds
    docstrings."""
    t5, t6 = gc.theorem_5_1(), gc.theorem_6_1()
    log = sp.log(2 * n / dl)
    w1 = {n: 3, M: 2, k: -3, d: -3, g: -2, dl: -1}
    w2 = {n: 4, M: 2, k: -4, d: -4, g: -2, dl: -1}
    first = (log, 2**3, {n: 1, k: -1, d: -1})
    s2, sq, rest = _ntg_parts(t5.ntg_change)
    assert rest == 0, rest  # (d) is a term in S_2 plus a term in sqrt(S_2), nothing else
    return [
        ("5.1 width[0]", t5.width_terms[0], *first),
        ("5.1 width[1]", t5.width_terms[1], cc, 2**10, w1),
        ("5.1 width[2]", t5.width_terms[2], cc, 2**15, w2),
        ("5.1 (a)", t5.eig_min, 1, sp.Rational(1, 4), {g: 1, k: 1}),
        ("5.1 (b)", t5.loss, sp.exp(-g * k * gc.T / 2), 1, {gc.L0: 1}),
        ("5.1 (b) rate", sp.diff(sp.log(t5.loss), gc.T), 1, -h, {g: 1, k: 1}),
        ("5.1 (c)", t5.weight, sp.sqrt(cc), sp.sqrt(2**7),
         {n: 1, lam: h, k: -1, d: -h, g: -1, dl: -h}),
        ("5.1 (d) S_2", s2, cc, 2**7, {n: 3, M: 2, k: -2, d: -3, g: -2, dl: -1}),
        ("5.1 (d) sqrt S_2", sq, sp.sqrt(cc), 2**5, {n: 2, M: 1, k: -1, d: -2, g: -1, dl: -h}),
        ("5.1 weight|L_0", t5.weight_given_loss, 1, 4 * sp.sqrt(2),
         {n: h, gc.L0: h, lam: h, d: -h, g: -1, k: -1}),
        ("6.1 step[0]", t6.step_size_terms[0], 1, 2, {g: -1, k: -1}),
        ("6.1 step[1]", t6.step_size_terms[1], 1, sp.Rational(1, 8), {g: 1, k: 1, d: 2, n: -2}),
        ("6.1 step[2]", t6.step_size_terms[2], 1 / sp.sqrt(cc), 2 ** (-sp.Rational(9, 2)),
         {g: 1, k: 1, d: 2, dl: h, n: -2, M: -1}),
        ("6.1 1 - beta^2", 1 - t6.beta**2, 1, h, {eta: 1, g: 1, k: 1}),
        ("6.1 width[0]", t6.width_terms[0], *first),
        ("6.1 width[1]", t6.width_terms[1], cc / (1 - beta) ** 2, 2**5,
         {eta: 2, n: 3, M: 2, k: -1, d: -3, dl: -1}),
        ("6.1 width[2]", t6.width_terms[2], cc / (1 - beta) ** 2, 2**11,
         {eta: 2, n: 4, M: 2, k: -2, d: -4, dl: -1}),
        ("6.1 1 - rate", 1 - t6.rate, 1, h, {eta: 1, g: 1, k: 1}),
        ("6.1 (16)", t6.residual_sq, (1 - eta * g * k / 2) ** s, 1, {R0: 2}),
        ("6.1 weight|R_0", t6.weight_given_residual, (1 - beta**s) / (1 - beta), 1,
         {eta: 1, n: h, lam: h, d: -h, R0: 1}),
        ("6.1 weight", t6.weight, sp.sqrt(cc) / (1 - beta), sp.sqrt(2),
         {eta: 1, n: 1, lam: h, d: -h, dl: -h}),
    ]  # fmt: skip


def test_every_theorem_bound_scales_with_the_printed_powers():
    """Keys solvable/models/global_convergence.py:223:core/ReplaceBinaryOperator_Pow_Mod:7 and
    solvable/models/global_convergence.py:256:core/ReplaceBinaryOperator_Pow_Mod:46 (any operator
    mutant of a bound's monomial): for every entry, once the paper's non-power factor (log,
    exp, (C^2 + C_1)^p, (1 - beta)^-2, ...) is divided out, scaling one variable by 2
    multiplies the entry by exactly 2^p with p the paper's power (0 for a variable it lacks),
    and the entry at all variables 1 is the paper's coefficient. Exact (sympy), no tolerance."""
    ones = dict.fromkeys(ALL, 1)
    for name, expr, factor, coefficient, powers in _entries():
        r = sp.simplify(expr / factor)
        for v in ALL:
            ratio = sp.simplify(r.subs(v, 2 * v) / r)
            assert ratio == 2 ** sp.S(powers.get(v, 0)), (name, v, ratio)
        assert sp.simplify(r.subs(ones) - coefficient) == 0, (name, r.subs(ones))
    # (16) geometric in s: one more step multiplies the bound by the corrected rate
    t6 = gc.theorem_6_1()
    step = sp.simplify(t6.residual_sq.subs(s, s + 1) / t6.residual_sq)
    assert sp.simplify(step - (1 - eta * g * k / 2)) == 0, step


# ---------------------------------------------------------------------------
# seed 000 experiments: n_records log-spaced record steps
# ---------------------------------------------------------------------------
def test_experiments_record_at_n_records_log_spaced_steps():
    """Key numerics/node_scaling_experiment.py:799:core/NumberReplacer:519 (and the same
    statement of section_8_1_1): "recorded at n_records steps (log-spaced)": step 0 and
    n_records - 1 steps log-spaced from 1 to steps; with steps = 16 and n_records = 6 those
    are 16^(j/4), j = 0..4, exactly the powers of 2 (no rounding collisions)."""
    expected = [0, 1, 2, 4, 8, 16]
    common = {"n": 6, "d": 3, "steps": 16, "n_records": 6, "settings": ((0.5, 0.7),),
              "threads": 1}  # fmt: skip
    relu = ex.single_relu_experiment(width=8, n_test=4, repeats=1, pytorch_default=False,
                                     **common)  # fmt: skip
    assert relu["record_steps"] == expected
    assert len(relu["train"][0][0]) == len(relu["test"][0][0]) == len(expected)
    sec = ex.section_8_1_1(widths=(8,), top_neurons=2, **common)
    assert sec["record_steps"] == expected
    assert len(sec["runs"][0]["risk"]) == len(expected)


# ---------------------------------------------------------------------------
# delayed-rich plateau time: T_p = (Omega + D/2)/(kappa^2 Y^2) = 1/(Omega - D/2)
# ---------------------------------------------------------------------------
def test_plateau_time_is_one_over_omega_minus_half_d():
    """Key solvable/models/delayed_rich.py:119:core/ReplaceBinaryOperator_Pow_Mul:1 (kappa^2 Y^2 in
    every form built on it: T_p, T_half_lead, T_p_series)."""
    ev = dr.evaluators("mpmath")
    theta0 = mpmath.mpf("0.9")
    with mpmath.workdps(30):
        # D = 3, kappa Y = 2: Omega = sqrt(9/4 + 4) = 5/2, T_p = 1/(5/2 - 3/2) = 1, both for
        # (kappa, Y) = (2, 1) and (1/2, 4) (T_p depends on kappa and Y only through kappa Y);
        # 25 digits: a few roundings at 30 digits
        for kappa, Y in ((2, 1), (mpmath.mpf(1) / 2, 4)):
            assert abs(ev["T_p"](3, kappa, Y) - 1) < mpmath.mpf(10) ** -25, (kappa, Y)
            # log(tan(theta0)/tan(theta_half)), theta_half = theta0 - asin(sin(theta0)/2)
            half = mpmath.log(
                mpmath.tan(theta0) / mpmath.tan(theta0 - mpmath.asin(mpmath.sin(theta0) / 2))
            )
            assert abs(ev["T_half_lead"](3, kappa, Y, theta0) - half) < mpmath.mpf(10) ** -25
    S = dr.symbolic()
    K = dr.kunin.symbolic()
    at = {S.D: 3, K.kappa: 2, K.Y: 1}
    # the series D/(kappa Y)^2 + 1/D - (kappa Y)^2/D^3 of the module docstring, exactly
    assert S.exprs["T_p_series"].subs(at) == sp.Rational(3, 4) + sp.Rational(1, 3) - sp.Rational(
        4, 27
    )
    # the public plateau_time on dr.example: s = 1, eta_a = 1, eta_w = 1/2, a0 = 0, so D =
    # -delta = 3 and kappa^2 Y^2 = eta_a eta_w |y|^2 = 0.625 (example's docstring)
    setup, a0, w0 = dr.example("-3")
    got = dr.plateau_time(setup, a0, w0, dps=30)
    with mpmath.workdps(40):
        want = 1 / (mpmath.sqrt(mpmath.mpf(9) / 4 + mpmath.mpf("0.625")) - mpmath.mpf(3) / 2)
        # 25 digits: example's weights are 40-digit decimals, T_p at 30 digits
        assert abs(got / want - 1) < mpmath.mpf(10) ** -25, (got, want)
