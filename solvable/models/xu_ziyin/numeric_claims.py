"""The numeric claims of seed 001: the constants :func:`closed_form` reports (eqs. (6), (7),
(11), (12), (47)) against the paper's forms evaluated exactly (:func:`paper_constants`), and
the relations between them (text after (14), eq. (47)), on every named case.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable._core.claims import Verdict
from solvable._core.exact_gram import to_fraction
from solvable._core.numbers import Number
from solvable._core.tolerance import NOTHING_COMPARED, beats, worst_of
from solvable.models.xu_ziyin.cases import CASES, Case
from solvable.models.xu_ziyin.expressions import symbolic
from solvable.models.xu_ziyin.setups import Setup, _check_weights
from solvable.models.xu_ziyin.symbolic_claims import _D
from solvable.models.xu_ziyin.trajectory import GUARD_DIGITS, closed_form


# ---------------------------------------------------------------------------
# Numeric claims: the reported constants against the paper's forms, evaluated exactly
# ---------------------------------------------------------------------------
def _rational(value: Number) -> sp.Rational:
    """The exact value of a stored number: a decimal string exactly, a float or an ``mpf`` at
    its exact binary value."""
    f = to_fraction(value)  # (an mpf with its sign: mpf.man_exp's mantissa is unsigned)
    return sp.Rational(f.numerator, f.denominator)


def paper_constants(setup: Setup, u0: Any, W0: Any) -> dict[str, sp.Expr | None]:
    """The constants a :class:`Trajectory` reports, in exact arithmetic from the paper's
    forms: ``P``, ``Q`` of eqs. (6), (7) on ``(u0, W0)`` (``symbolic().paper["p"]``,
    ``["q"]``, every number taken at its exact value), then ``alpha_plus``,
    ``alpha_minus`` (eq. (12), corrected sign), ``t_c`` (eq. (11)) and, for ``P = 0 < Q``,
    ``alpha_prime`` (eq. (47)).  For ``P = 0`` alpha_+- are the ``P -> 0+`` limits of
    eq. (12) (``sympy.oo`` where infinite; for ``y < 0`` alpha_+ is also the late-time limit
    of ``1/beta(t)`` of Proposition 1), and ``t_c = oo`` where ``D = 0``.  Closed sympy
    numbers (algebraic), for checks: evaluate with ``sympy.N`` at any precision."""
    S = symbolic()
    co, pa = S.coefficients, S.paper
    u0c, W0c = _check_weights(setup, u0, W0)
    x = [_rational(v) for v in setup.x]
    rho = sp.sqrt(sum(v**2 for v in x))
    base = {S.eta_u: _rational(setup.eta_u), S.eta_w: _rational(setup.eta_w),
            S.gamma: _rational(setup.gamma), S.rho: rho, S.y: _rational(setup.y)}  # fmt: skip
    p, q = [], []
    for ui, row in zip(u0c, W0c, strict=True):
        v = sum(_rational(w) * xj for w, xj in zip(row, x, strict=True))
        at = {**base, S.u: _rational(ui), S.v: v}
        p.append(pa["p"].subs(at))
        q.append(pa["q"].subs(at))
    d = len(p)
    P = sp.radsimp(sp.expand(sum(v**2 for v in p) / d))
    Q = sp.radsimp(sp.expand(sum(v**2 for v in q) / d))
    at = {**base, S.d: d, S.P: P, S.Q: Q}
    A, B, C = (sp.radsimp(co[k].subs(at)) for k in ("A", "B", "C"))
    D = sp.sqrt(B**2 + 4 * A * C)
    out: dict[str, sp.Expr | None] = {"P": P, "Q": Q}
    num = {S.A: A, S.B: B, S.C: C, S.D: D}
    if P != 0:
        for key in ("alpha_plus", "alpha_minus"):
            out[key] = pa[key].subs(num)
    else:
        a = sp.Symbol("a", positive=True)  # A -> 0+
        for key in ("alpha_plus", "alpha_minus"):
            expr = pa[key].subs(S.D, _D()).subs({S.A: a, S.B: B, S.C: C}, simultaneous=True)
            out[key] = sp.limit(expr, a, 0, "+")
    out["t_c"] = pa["t_c"].subs(num) if D != 0 else sp.oo
    out["alpha_prime"] = pa["alpha_prime"].subs(num) if (P == 0 and Q != 0) else None
    if P == 0 and Q != 0 and B < 0:  # Proposition 1: alpha_+ = lim 1/beta(t)
        out["alpha_plus (Prop. 1)"] = sp.limit(1 / pa["beta"].subs(num), S.t, sp.oo)
    return out


# Tolerances of the reported constants against their exact values, in units of tolerance:
# * mpmath at dps: rounded to dps digits (relative error <= 10**-dps; 10**(1 - dps) asked),
#   evaluated at dps + GUARD_DIGITS (10) digits; the only cancellation is in p_i, q_i (a_i +-
#   b_i), whose relative error is amplified by cond = max_i (|a_i| + |b_i|)/|a_i +- b_i|
#   (<= 1e5 in the suite): 10**-(dps + 10) * 4 cond is added.
# * float64: about 20 roundings of inputs and operations (<= eps/2 each) reach P, Q, B
#   amplified by cond; alpha_+-, t_c, alpha' have condition <= 2 in P, Q, B (roots of
#   A a^2 - B a - C: |d log alpha_+-| <= 2 max |d log(A, B, C)|): rtol = 64 eps (1 + cond).
def _pq_condition(case_: Case) -> float:
    """``max_i (|a_i| + |b_i|) / |a_i +- b_i|`` over the units with ``a_i +- b_i != 0`` (the
    amplification of rounding errors by the cancellation in p_i, q_i of eq. (6))."""
    with mpmath.workdps(40):
        x = [mpmath.mpf(v) for v in case_.setup.x]
        rho = mpmath.sqrt(mpmath.fsum(v * v for v in x))
        sa = mpmath.sqrt(mpmath.mpf(case_.setup.eta_u)) / rho
        sb = mpmath.sqrt(mpmath.mpf(case_.setup.eta_w))
        worst = mpmath.mpf(1)
        for ui, row in zip(case_.u0, case_.W0, strict=True):
            a = sa * mpmath.fsum(mpmath.mpf(w) * xj for w, xj in zip(row, x, strict=True))
            b = sb * mpmath.mpf(ui)
            for c in (a + b, a - b):
                if abs(c) > (abs(a) + abs(b)) * mpmath.mpf(10) ** -35:
                    worst = worst_of(worst, (abs(a) + abs(b)) / abs(c))
        return float(worst)


def _constant_error(got: Any, exact: sp.Expr | None, rtol: float) -> float:
    """Error of a reported constant in units of ``rtol`` (relative): ``inf`` where
    ``None``/infinite/zero do not match exactly."""
    if exact is None or got is None:
        return 0.0 if exact is None and got is None else math.inf
    with mpmath.workdps(80):
        g = mpmath.mpf(got)
        if exact.is_infinite:
            return 0.0 if g == mpmath.inf else math.inf
        e = mpmath.mpf(sp.N(exact, 90))
        if e == 0:
            return 0.0 if g == 0 else math.inf
        return float(abs(g - e) / (rtol * abs(e)))


def _reported_constants(dps: int = 30) -> Verdict:
    """Every reported constant of :func:`closed_form` (float64, mpmath at ``dps`` and at
    ``2 dps``) on every named case against :func:`paper_constants`."""
    worst, where, n = NOTHING_COMPARED, "", 0
    for c in CASES:
        exact = paper_constants(c.setup, c.u0, c.W0)
        cond = _pq_condition(c)
        for prec in (None, dps, 2 * dps):
            traj = closed_form(c.setup, c.u0, c.W0, dps=prec)
            if prec is None:
                rtol = 64 * 2.0**-52 * (1 + cond)
            else:
                rtol = 10.0 ** (1 - prec) + 4 * cond * 10.0 ** -(prec + GUARD_DIGITS)
            for key, value in exact.items():
                got = getattr(traj, key.split(" ")[0])
                err = _constant_error(got, value, rtol)
                n += 1
                if beats(err, worst):
                    worst, where = err, f"{c.name}: {key} at dps={prec}"
    return Verdict.from_error(
        worst,
        f"{n} comparisons ({len(CASES)} cases x float64, dps={dps}, {2 * dps}) with eqs. "
        f"(6), (7), (11), (12), (47) in exact arithmetic; worst {worst:.2g} tolerances "
        f"({where})",
    )


def _reported_relations(dps: int = 30) -> Verdict:
    """Relations between the reported constants, at their working precision: for P > 0
    alpha_+ alpha_- = Q/P, alpha_+ - alpha_- = B/A, alpha_+ + alpha_- = 1/(A t_c) (text
    after (14)); for P = 0 < Q, alpha' C = B (eq. (47)), t_c |B| = 1, and alpha_+ alpha' = -1
    (y < 0) or alpha_- alpha' = 1 (y > 0) (the P -> 0 limits of (12)).  A, B, C from the
    generated evaluator of ``symbolic().coefficients`` at the reported P, Q."""
    S = symbolic()
    co = S.coefficients
    worst, where, n = NOTHING_COMPARED, "", 0
    for c in CASES:
        cond = _pq_condition(c)
        for prec in (None, dps, 2 * dps):
            traj = closed_form(c.setup, c.u0, c.W0, dps=prec)
            k = traj._data
            backend = "numpy" if prec is None else "mpmath"
            abc = generate((S.eta_u, S.eta_w, S.gamma, S.rho, S.y, S.d, S.P, S.Q),
                           (co["A"], co["B"], co["C"]), backend)  # fmt: skip
            # each side combines <= 3 reported values: 3 times their tolerance (see
            # _reported_constants), relative to the magnitudes of the terms
            rtol = 3 * (
                64 * 2.0**-52 * (1 + cond)
                if prec is None
                else 10.0 ** (1 - prec) + 4 * cond * 10.0 ** -(prec + GUARD_DIGITS)
            )
            with nb.Precision(prec):
                A, B, C = abc(k["eta_u"], k["eta_w"], k["gamma"], k["rho"], k["y"],
                              len(k["p0"]), traj.P, traj.Q)  # fmt: skip
                ap, am, tc, P, Q = traj.alpha_plus, traj.alpha_minus, traj.t_c, traj.P, traj.Q
                pairs = []
                if P > 0:
                    pairs += [
                        ("alpha_+ alpha_- = Q/P", ap * am, Q / P),
                        ("alpha_+ - alpha_- = B/A", ap - am, B / A, ap + am),
                        ("alpha_+ + alpha_- = 1/(A t_c)", ap + am, 1 / (A * tc)),
                    ]
                elif Q > 0:
                    ab = traj.alpha_prime
                    pairs += [("alpha' C = B", ab * C, B), ("t_c |B| = 1", tc * abs(B), 1)]
                    pairs += [("alpha_+ alpha' = -1", ap * ab, -1)] if B < 0 else []
                    pairs += [("alpha_- alpha' = 1", am * ab, 1)] if B > 0 else []
                else:
                    continue  # the saddle: no relation (all constants checked exactly)
            for name, lhs, rhs, *scale in pairs:
                with mpmath.workdps(80):
                    diff = abs(mpmath.mpf(lhs) - mpmath.mpf(rhs))
                    mag = abs(mpmath.mpf(scale[0] if scale else rhs))
                    err = 0.0 if diff == 0 else float(diff / (rtol * mag)) if mag else math.inf
                n += 1
                if beats(err, worst):
                    worst, where = err, f"{c.name}: {name} at dps={prec}"
    return Verdict.from_error(
        worst,
        f"{n} relations over the cases x 3 precisions; worst {worst:.2g} tolerances ({where})",
    )
