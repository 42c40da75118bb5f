"""Numeric checks of the deep linear network's formulas where sympy's proof does not reach
(the antiderivative at depths whose roots of unity have no radicals sympy simplifies)."""

from __future__ import annotations

import mpmath
import sympy as sp

from solvable._core.claims import Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats, error_in_units
from solvable.models.deep_linear import expressions as ex
from solvable.models.deep_linear.setups import MAX_LAYERS

POINTS = ("0.03", "0.2", "0.55", "0.9", "1.2", "1.8", "2.9")


def antiderivative_high_depths(dps: int = 60) -> Verdict:
    """``dT/dv`` (sympy's derivative of the source, evaluated at ``dps + 20`` digits) against
    the integrand for ``L = 7..MAX_LAYERS``, both signs, at :data:`POINTS`."""
    tol = Tolerance.digits(dps - 5, "sympy derivative evaluated at dps + 20 digits")
    worst, where = NOTHING_COMPARED, ""
    with mpmath.workdps(dps + 20):
        for L in range(7, MAX_LAYERS + 1):
            for sign in (1, -1):
                logs = {ex.LOG_D: sp.log(sp.Abs(1 - ex.V)), ex.LOG_V: sp.log(ex.V)}
                d = sp.diff(ex.antiderivative(L, sign).subs(logs), ex.V)
                f = sp.lambdify(ex.V, d, "mpmath")
                g = sp.lambdify(ex.V, ex.integrand(L, sign), "mpmath")
                for p in POINTS:
                    v = mpmath.mpf(p)
                    err = error_in_units([f(v)], [g(v)], tol)
                    if beats(err, worst):
                        worst, where = err, f"L={L}, sign={sign}, v={p}"
    return Verdict.from_error(worst, f"L = 7..{MAX_LAYERS}, both signs, {len(POINTS)} points: "
                              f"worst {worst:.2g} tolerances ({where})", tol)  # fmt: skip
