"""Seed 000 Proposition 4.1 (``kappa_n = eig_min Theta*(X) > 0`` under Assumptions 3.1-3.3)
on a family of data sets, beyond the one data set of ``ntg.kappa_positive``, with both sides of its
conditions (registered by :mod:`solvable.verification.confirmations.ntg`).

Source: seed ``000_f57230b12d385b63.txt``, Section 4 (Proposition 4.1, Remark 4.2).  The data
sets are fixed (:data:`DATASETS`: ``n > d``, ``n < d``, ``d = 2``, ``n = 25``), inputs in the
unit ball with norms in ``[0.3, 1]`` (Remark 4.2: unit norm is not needed); ``kappa_n`` is
:func:`solvable.models.ntg.kappa_n` in float64 and, for ReLU (closed form, Remark 4.2), at
``dps`` digits as well.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, error_in_units, worst_of
from solvable.models import ntg
from solvable.models.node_scaling import SEED

DATASETS: tuple[tuple[int, int, int], ...] = ((6, 3, 2), (12, 2, 12), (4, 10, 4), (25, 5, 25))
"""``(n, d, seed)`` of the data sets: more inputs than dimensions (three shapes, down to
``d = 2``, where the smooth kernels' ``kappa_n`` is ~5e-10) and fewer (``n = 4 < d = 10``)."""

MPMATH_MAX_N = 12
"""ReLU's ``kappa_n`` is also computed at ``dps`` digits for the data sets with ``n`` up to
this (the ``n = 25`` one takes ~4 s at 30 digits: float64 only)."""

KAPPA_TOL = Tolerance(
    rtol=0.0,
    atol=1e-12,
    reason="the float64 mean NTG is within 1e-14 absolute per entry (Gauss-Hermite's stopping "
    "rule, claim ntg.mean_ntg_quadrature; ReLU closed form: rounding), so eig_min within n "
    "1e-14 <= 2.5e-13: kappa_n > 1e-12 is positive beyond that error",
)
"""``kappa_n`` is judged positive when above ``atol`` (figure ``atol/kappa_n`` < 1), and
float64 against ``dps`` digits is compared to ``atol/100``."""


def unit_ball_data(n: int, d: int, seed: int) -> np.ndarray:
    """``n`` inputs of R^d with norms in ``[0.3, 1]`` and Gaussian directions (no two
    parallel with probability 1: Assumption 3.1(a), (b)), fixed by ``seed``."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X * rng.uniform(0.3, 1.0, size=(n, 1))


def kappa_family(dps: int = 30) -> dict[str, float]:
    """The errors of Proposition 4.1 on :data:`DATASETS`, in units of :data:`KAPPA_TOL`
    (each passes at <= 1): ``"positive"`` the largest ``atol/kappa_n`` over the data sets and
    relu, swish, tanh (float64; relu also at ``dps``); ``"precision"`` the largest float64
    - ``dps`` gap of relu's ``kappa_n`` over ``atol/100``; ``"parallel"`` relu's
    ``|kappa_n|/atol`` (float64) once a row ``2 x_1`` is added (Assumption 3.1(b) fails:
    ReLU' is 0-homogeneous, so the two rows of Theta* are proportional and ``kappa_n = 0``)
    and at ``dps`` over ``10^(5 - dps)``; ``"linear"`` the linear kernel's ``|kappa_n|/atol``
    where ``n > d`` (a polynomial: Assumption 3.2 fails, rank ``X X^T <= d < n``)."""
    out = {k: NOTHING_COMPARED for k in ("positive", "precision", "parallel", "linear")}
    floor = KAPPA_TOL.atol
    for n, d, seed in DATASETS:
        X = unit_ball_data(n, d, seed)
        for name in ("relu", "swish", "tanh"):
            k = ntg.kappa_n(X, name)
            out["positive"] = worst_of(out["positive"], floor / k if k > 0 else math.inf)
        if n <= MPMATH_MAX_N:
            k64, kmp = ntg.kappa_n(X, "relu"), ntg.kappa_n(X, "relu", dps=dps)
            out["positive"] = worst_of(out["positive"], floor / kmp if kmp > 0 else math.inf)
            gap = error_in_units(k64, kmp, Tolerance(rtol=0.0, atol=floor / 100))
            out["precision"] = worst_of(out["precision"], gap)
        if n > d:
            out["linear"] = worst_of(out["linear"], abs(ntg.kappa_n(X, "linear")) / floor)
    X = unit_ball_data(*DATASETS[0])
    X = np.vstack([X * 0.5, X[:1]])  # row n + 1 = 2 x row 1 (exact in binary), norms <= 1
    out["parallel"] = worst_of(abs(ntg.kappa_n(X, "relu")) / floor,
                               float(abs(ntg.kappa_n(X, "relu", dps=dps)) * mpmath.mpf(10) **
                                     (dps - 5)))  # fmt: skip
    return out


def _kappa_family_claim(dps: int = 30) -> Verdict:
    errs = kappa_family(dps)
    worst = worst_of(*errs.values())
    shapes = ", ".join(f"{n}x{d}" for n, d, _ in DATASETS)
    detail = (
        f"data sets (n x d) {shapes}, norms in [0.3, 1]: kappa_n > 1e-12 for relu, swish, tanh "
        f"(worst 1e-12/kappa_n = {errs['positive']:.3g}); relu float64 vs {dps} digits "
        f"{errs['precision']:.2g} tol (1e-14 absolute); the other side: a row 2 x_1 added "
        f"(Assumption 3.1(b) fails) gives relu kappa_n = 0 ({errs['parallel']:.2g} tol), the "
        f"linear (polynomial) kernel kappa_n = 0 where n > d ({errs['linear']:.2g} tol)"
    )
    return Verdict.from_error(worst, detail, KAPPA_TOL)


def kappa_family_claims() -> list[Theorem]:
    """The data-set family claim of Proposition 4.1 (id ``ntg.*``)."""
    return [
        Theorem(
            "ntg.kappa_positive_datasets", f"{SEED} Proposition 4.1, Remark 4.2",
            "kappa_n = eig_min Theta*(X) > 0 for relu, swish, tanh on four data sets of "
            "different shapes (6 x 3, 12 x 2, 4 x 10, 25 x 5) meeting Assumption 3.1 (relu "
            "also at dps digits); = 0 when two inputs are parallel (relu, Assumption 3.1(b) "
            "fails) and for the linear activation when n > d (Assumption 3.2 fails).",
            "numeric", _kappa_family_claim),
    ]  # fmt: skip
