"""Seed 002, the numeric checks behind the claims on the generated evaluators (eqs.
(2.4), (2.31), (4.2); Exercise 1(c)): float64 against mpmath, the values at ``rho = +-1``
against the definitions, and the positive definite Gram matrices."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from solvable._core.claims import Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, error_in_units, worst_of
from solvable.models.kernels.evaluators import _GUARD, gram, kernel_numeric
from solvable.models.kernels.initialisation import exercise_initialisation, lecture_initialisation
from solvable.models.kernels.proofs import _diagonal_direct, _moments
from solvable.models.kernels.symbols import KERNELS, N1, N2

# ---------------------------------------------------------------------------
# numeric claims
# ---------------------------------------------------------------------------
_F64_TOL = Tolerance(
    rtol=1e-13,
    reason="float64 evaluators of O(1)-conditioned forms (stable sqrt, Kahan angle): about 20 "
    "roundings of 2^-53 each plus libm acos/atan2/sin/cos within 1 ulp; 1e-13 leaves a "
    "factor ~50 of margin",
)


def _evaluator_points() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    one = 1.0 - np.finfo(float).eps  # the float just below 1
    rho = np.array([-1.0, -one, -0.9, -0.5, 0.0, 0.3, 0.7, 0.99, one, 1.0, 0.5, 0.5])
    n1 = np.array([1.0, 2.0, 0.5, 3.0, 1.0, 0.25, 1.5, 1.0, 2.0, 1.0, 0.0, 1.0])
    n2 = np.array([1.0, 0.5, 2.0, 1.0, 4.0, 2.0, 0.75, 1.0, 0.5, 3.0, 1.0, 0.0])
    return n1, n2, rho


def _evaluator_data() -> np.ndarray:
    rng = np.random.default_rng(2)
    X = rng.normal(size=(5, 3))
    x = X[0]
    return np.vstack([X, x * (1 + 2e-9) + 1e-9 * X[1], -x + 1e-10 * X[2], -2 * x,
                      np.zeros(3)])  # fmt: skip


def _evaluators_agree(dps: int | None = None) -> Verdict:
    # numpy vs mpmath (dps and 2 dps) on (n1, n2, rho) points incl. rho = +-1 and the
    # adjacent floats and zero norms; Gram matrices (Kahan angle) incl. nearly parallel /
    # antiparallel rows and a zero row, against the mpmath Gram.  (The torch evaluators are
    # compared with these in tests/test_kernels.py, so that this check needs no torch.)
    dps = 30 if dps is None else dps
    tol_mp = Tolerance.digits(
        dps - 2,
        f"mpmath at {dps} vs {2 * dps} digits (+{_GUARD} guard digits each; the forms cancel "
        "no digits): 2 digits of margin",
    )
    n1, n2, rho = _evaluator_points()
    X = _evaluator_data()
    worst_f64, worst_mp = NOTHING_COMPARED, NOTHING_COMPARED
    for init in (lecture_initialisation(3), exercise_initialisation()):
        for k in KERNELS:
            f64 = kernel_numeric(k, init, n1, n2, rho)
            lo = [kernel_numeric(k, init, a, b, c, dps=dps)
                  for a, b, c in zip(n1, n2, rho, strict=True)]  # fmt: skip
            hi = [kernel_numeric(k, init, a, b, c, dps=2 * dps)
                  for a, b, c in zip(n1, n2, rho, strict=True)]  # fmt: skip
            worst_f64 = worst_of(worst_f64, error_in_units(f64, hi, _F64_TOL))
            worst_mp = worst_of(worst_mp, error_in_units(lo, hi, tol_mp))
            g64, gmp = gram(k, init, X), gram(k, init, X, dps=dps)
            worst_f64 = worst_of(worst_f64, error_in_units(g64, gmp, _F64_TOL))
    worst = worst_of(worst_f64, worst_mp)
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"4 kernels x 2 inits, 12 (n1, n2, rho) points (rho = +-1, +-(1 - 2^-52), zero norms) "
        f"and 10x10 Gram matrices (nearly parallel/antiparallel rows, a zero row): float64 vs "
        f"mpmath {worst_f64:.2g} x 1e-13 (normwise), mpmath {dps} vs {2 * dps} digits "
        f"{worst_mp:.2g} x 1e-{dps - 2}",
        max_error=worst,
        tolerance=_F64_TOL,
    )


def _diagonal_evaluated(dps: int | None = None) -> Verdict:
    # what a user gets at rho = +-1 (kernel_numeric in float64 and mpmath; gram, whose Kahan
    # angle is 0 / pi there, in float64 and mpmath) against the definitions integrated
    # directly (_diagonal_direct, exact), for the lecture (2.28) and Exercise 1 records
    dps = 30 if dps is None else dps
    tol_mp = Tolerance.digits(dps - 2, f"mpmath at {dps} digits (+{_GUARD} guard) vs exact")
    X = np.array([[0.5, 0.0, 0.0], [0.25, -1.5, 2.0], [-1.0, 2.0, 2.0]])  # dyadic: exact
    norms = [sp.sqrt(sum(sp.nsimplify(v) ** 2 for v in row)) for row in X]
    direct = _diagonal_direct()
    worst_f64, worst_mp = NOTHING_COMPARED, NOTHING_COMPARED
    for init in (lecture_initialisation(3), exercise_initialisation()):
        mom = _moments(init)
        for k in KERNELS:
            same = [direct[k].subs(mom).subs(N1, n) for n in norms]  # K(x, x)
            anti = [direct[f"{k}-"].subs(mom).subs({N1: n, N2: 2 * n}) for n in norms]
            exact = np.array([float(v) for v in same])
            zero = np.array([float(v) for v in anti])
            n64 = np.array([float(n) for n in norms])
            # the antiparallel value is 0: absolute error in units of 1e-13 |K(x, 2x)|
            tol_0 = Tolerance(rtol=0.0, atol=_F64_TOL.rtol * 2 * float(np.max(exact)),
                              reason="float64 rounding (sin(pi) = 1.2e-16) on the scale "
                              "of K(x, 2x)")  # fmt: skip
            worst_f64 = worst_of(
                worst_f64,
                error_in_units(kernel_numeric(k, init, n64, n64, 1.0), exact, _F64_TOL),
                error_in_units(np.diag(gram(k, init, X)), exact, _F64_TOL),
                error_in_units(np.diag(gram(k, init, X, -2 * X)), zero, tol_0),
            )
            with mpmath.workdps(dps + _GUARD):
                ex_mp = [mpmath.mpf(sp.N(v, dps + _GUARD)) for v in same]
            got = [
                kernel_numeric(k, init, str(sp.N(n**2, dps + _GUARD)), 1, 1, dps=dps) for n in norms
            ]  # K(x, x) = |x|^2 K(e, e): n1 = |x|^2, n2 = 1
            worst_mp = worst_of(
                worst_mp,
                error_in_units(got, ex_mp, tol_mp),
                error_in_units(np.diag(gram(k, init, X, dps=dps)), ex_mp, tol_mp),
            )
    worst = worst_of(worst_f64, worst_mp)
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"4 kernels x 2 inits x 3 inputs: K(x, x) and K(x, -2x) from kernel_numeric and gram "
        f"(float64 {worst_f64:.2g} x 1e-13; mpmath {dps} digits {worst_mp:.2g} x "
        f"1e-{dps - 2}) equal the definitions (2.4), (2.31) integrated directly "
        f"(E[relu(<w,x>)^2] = s^2|x|^2/2, E[relu'^2] = 1/2; 0 for antiparallel inputs)",
        max_error=worst,
        tolerance=_F64_TOL,
    )


def _gram_positive_definite(dps: int | None = None) -> Verdict:
    # Exercise 1(c): lambda_min of the limit Gram matrices is > 0 for pairwise non-parallel
    # data with n > d (X X^T has rank d < n: positivity comes from the arc-cosine factor)
    dps = 30 if dps is None else dps
    rng = np.random.default_rng(1)
    X = rng.normal(size=(12, 3))
    X /= np.linalg.norm(X, axis=1)[:, None]
    init = exercise_initialisation()
    tol = Tolerance(rtol=0.0, atol=1e-12, reason="float64 eigvalsh error <= n eps ||K||_2 "
                    "~ 12 * 2.2e-16 * 6 ~ 2e-14, bounded by 1e-12")  # fmt: skip
    found, worst = [], NOTHING_COMPARED
    for k in ("ntk_first_layer", "rf", "ntk"):
        with mpmath.workdps(dps):
            K = mpmath.matrix(gram(k, init, X, dps=dps).tolist())
            lam_mp = min(mpmath.eigsy(K, eigvals_only=True))
        lam64 = float(np.linalg.eigvalsh(gram(k, init, X))[0])
        worst = worst_of(worst, error_in_units(lam64, lam_mp, tol))
        found.append((k, lam_mp, lam64))
    ok = all(lam > 0 for _, lam, _ in found) and 0 <= worst <= 1  # (nothing compared: fails)
    text = ", ".join(f"{k}: {mpmath.nstr(lam, 6)}" for k, lam, _ in found)
    return Verdict(
        "confirmed" if ok else "failed",
        f"Exercise 1 init, 12 random unit vectors in R^3 (rank X X^T = 3 < 12): lambda_min "
        f"(mpmath {dps} digits) {text}; all > 0; float64 eigvalsh within {worst:.2g} x 1e-12",
        max_error=worst if ok else float("inf"),
        tolerance=tol,
    )
