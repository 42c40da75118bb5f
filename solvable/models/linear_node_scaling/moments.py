"""Seed 000, footnote 3, Theorem 7.5 (eq. (21)) and Proposition 7.6 in float64, from the generated
evaluators: the gradient-descent step bounds (:func:`gd_step_bounds`), the moments of a node set's
contribution ``sum_{j in T} sqrt(lambda_j) a_j w_inf_j`` (:func:`group_moments`,
:func:`contribution_limit_moments`), the pruned mass (:func:`pruned_mass`,
:func:`pruned_mass_numeric`), the pruning error's moments and exact exceedance probability next
to the printed Markov-type bound (:func:`pruning_error_moments`, :func:`pruning_exceedance`,
:func:`pruning_bound`), and Theorem 7.5's mean-field bullet (:func:`mean_field_expressions`,
:func:`mean_field_moments`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable.models import node_scaling as ns
from solvable.models.linear_node_scaling._evaluators import _evaluator
from solvable.models.linear_node_scaling.expressions import _XB, _XPX, _XX, _m
from solvable.models.linear_node_scaling.linear_limit import limit
from solvable.models.linear_node_scaling.svd import _check_lam, reduced_svd
from solvable.models.node_scaling._checks import _check_gamma, _check_integer, _sympify_number
from solvable.models.node_scaling.numeric import _check_gamma_numeric
from solvable.models.node_scaling.weights import _check_weights


# ---------------------------------------------------------------------------
# footnote 3, Theorem 7.5, Proposition 7.6
# ---------------------------------------------------------------------------
def _finite_result(fn: str, names: str, *values: Any) -> None:
    """A float64 result beyond the float64 range (inf, or NaN from inf - inf) is refused:
    ``ValueError`` naming every argument ``names`` of ``fn`` (the inputs were finite)."""
    if not all(np.all(np.isfinite(np.asarray(v, dtype=float))) for v in values):
        raise ValueError(
            f"{fn}({names}): the result is outside the float64 range (|value| <= "
            f"{nb.FLOAT64_MAX:.4g}) for these values: rescale them"
        )


def _float64(fn: Callable[..., Any], *args: Any) -> Any:
    """A generated float64 evaluator on numpy scalars (overflow gives inf, refused by
    :func:`_finite_result`, not a Python ``OverflowError`` / ``ZeroDivisionError``)."""
    with np.errstate(all="ignore"):
        return fn(*(np.float64(a) if isinstance(a, (int, float)) else a for a in args))


def gd_step_bounds(X: Any, lam: Any) -> tuple[float, float]:
    """Footnote 3's step size bound ``d / (D_max^2 sum_k lambda_k)`` and the sharp bound
    ``2 d / (D_max^2 sum_k lambda_k)`` below which gradient descent converges to eq. (19)."""
    svd = reduced_svd(X)
    lam_a = _check_lam(lam, None)
    if lam_a.ndim != 1:
        raise ValueError(f"lam must have shape (m,), got {lam_a.shape}")
    d = svd.V.shape[0]
    args = (d, float(svd.D[0]), float(lam_a.sum()))
    out = (float(_float64(_evaluator("eta_bound", "numpy"), *args)),
           float(_float64(_evaluator("eta_sharp", "numpy"), *args)))  # fmt: skip
    _finite_result("gd_step_bounds", "X, lam", *out)
    return out


def _check_mass(name: str, value: Any, upper: Any = None, upper_name: str = "") -> float:
    v = nb.to_float(nb.check_number(name, value), name)
    if not v > 0 or (upper is not None and v > float(upper) * (1 + 1e-12)):
        rng = f"(0, {upper_name} = {upper!r}]" if upper is not None else "(0, oo)"
        raise ValueError(f"{name} must be in {rng}, got {value!r}")
    return v


def _check_V(V: Any, d: int, rows: str) -> np.ndarray:
    """``V`` (d, k): the orthonormal columns of :func:`reduced_svd` (``V^T V = I_k`` to
    1e-8), ``d`` rows (as ``rows``)."""
    Va = nb.check_float_array("V", V, ndim=2)
    if Va.shape[0] != d or not 1 <= Va.shape[1] <= d:
        raise ValueError(f"V must have shape (d, k) with d = {d} rows (as {rows}) and "
                         f"1 <= k <= d, got {Va.shape}")  # fmt: skip
    with np.errstate(all="ignore"):
        gap = np.abs(Va.T @ Va - np.eye(Va.shape[1]))
    if not np.all(gap <= 1e-8):
        raise ValueError("V must have orthonormal columns (V^T V = I, the V of reduced_svd(X)), "
                         f"got {nb.describe(V)}")  # fmt: skip
    return Va


def group_moments(lam_T: float, total: float, beta_inf: Any, V: Any) -> tuple[Any, Any]:
    """Theorem 7.5 (a node set ``T``): mean ``Lambda_T/S beta_inf`` and covariance
    ``Lambda_T (I - Lambda_T/S V V^T)`` of ``sum_{j in T} sqrt(lambda_j) a_j w_inf_j``, with
    ``Lambda_T = sum_{j in T} lambda_j`` and ``S = sum_k lambda_k`` (float64)."""
    S = _check_mass("total", total)
    LT = _check_mass("lam_T", lam_T, S, "total")
    b = nb.check_float_array("beta_inf", beta_inf, ndim=1)
    Va = _check_V(V, len(b), "beta_inf")
    with np.errstate(all="ignore"):
        mean = np.asarray(_evaluator("group_mean", "numpy")(LT, S, b[:, None])[:, 0])
        cov = np.asarray(_evaluator("group_cov", "numpy")(len(b), LT, S, Va))
    _finite_result("group_moments", "lam_T, total, beta_inf, V", mean, cov)
    return mean, cov


def contribution_limit_moments(
    j: int, gamma: Any, weights: ns.Weights, beta_inf: Any, V: Any
) -> tuple[Any, Any]:
    """Eq. (21): the ``m -> oo`` moments of ``sqrt(lambda_{m,j}) a_j w_inf_j`` under eq. (1):
    ``lambda_{m,j}`` replaced by its limit ``(1 - gamma) lambda~_j`` (``node_scaling_limit``)
    and ``S = 1``; float64.  Degenerate (zero) for ``gamma = 1`` or ``lambda~_j = 0``."""
    limit = float(ns.node_scaling_limit(j, _check_gamma_numeric(gamma), weights))
    b = nb.check_float_array("beta_inf", beta_inf, ndim=1)
    if limit == 0:
        _check_V(V, len(b), "beta_inf")
        return np.zeros_like(b), np.zeros((len(b), len(b)))
    return group_moments(limit, 1.0, b, V)


def pruned_mass(m: Any, rho: Any, gamma: Any, weights: ns.Weights) -> sp.Expr:
    """``sum_{j > floor(rho m)} lambda_{m,j} = gamma (m - r)/m + (1 - gamma)(S_m - S_r)/S_m``,
    ``r = floor(rho m)`` (exact, from the partial sums of :mod:`solvable.models.node_scaling`)."""
    m = _check_integer("m", m)
    g = _check_gamma(gamma)
    weights = _check_weights(weights)
    r_ = _sympify_number("rho", rho)
    if r_.free_symbols or not (0 < r_ < 1):
        raise ValueError(f"rho must be a number in (0, 1), got {rho!r}")
    r = sp.floor(r_ * m)
    S_m = weights.partial_sum(m)
    S_r = weights.partial_sum(r) if r >= 1 else sp.S.Zero
    return g * (m - r) / m + (1 - g) * (S_m - S_r) / S_m


MAX_PRUNED_WIDTH = 10**7
"""The largest width ``m`` of :func:`pruned_mass_numeric`, which sums the pruned nodes'
``lambda_{m,j}`` one by one (10^7 nodes: about a second and 80 MB per array)."""


def pruned_mass_numeric(m: int, rho: float, gamma: Any, weights: ns.Weights) -> float:
    """``sum_{j > floor(rho m)} lambda_{m,j}`` in float64 from the generated ``lambda_{m,j}``
    evaluator of :mod:`solvable.models.node_scaling` (summed over the pruned nodes; ``m`` at most
    :data:`MAX_PRUNED_WIDTH`).  A ``gamma`` given as an ``mpmath.mpf`` or a decimal string
    is rounded once to float64 (the result is float64; the exact mass is :func:`pruned_mass`)."""
    m = int(_check_integer("m", m))
    if m > MAX_PRUNED_WIDTH:
        raise ValueError(f"m must be <= MAX_PRUNED_WIDTH = {MAX_PRUNED_WIDTH} (the nodes are "
                         f"summed one by one; pruned_mass is exact for m <= "
                         f"{ns.MAX_EXACT_WIDTH}), got {m}")  # fmt: skip
    if not (isinstance(rho, numbers.Real) and 0 < rho < 1):
        raise ValueError(f"rho must be in (0, 1), got {rho!r}")
    r = math.floor(rho * m)
    if r >= m:
        return 0.0
    _check_gamma_numeric(gamma)  # named and in [0, 1] before it is rounded
    g = nb.to_float(gamma, "gamma")
    j = np.arange(r + 1, m + 1)
    return float(np.sum(ns.node_scaling_numeric(np.full_like(j, m), j, g, weights)))


def pruning_error_moments(
    x: Any, lam_T: float, total: float, beta_inf: Any, V: Any
) -> tuple[float, float]:
    """Mean and variance of the pruning error ``f~_{m,rho}(x) - f_m(x)`` (Proposition 7.6's
    setting, exact for Gaussian ``W_0``): ``-Lambda_T/S x^T beta_inf/sqrt(d)`` and
    ``Lambda_T (|x|^2 - Lambda_T/S |V V^T x|^2)/d`` (``Lambda_T``: the pruned mass)."""
    xa, b, Va, LT, S = _pruning_args(x, lam_T, total, beta_inf, V)
    d = len(xa)
    with np.errstate(all="ignore"):
        Px = Va @ (Va.T @ xa)
        mu = _float64(_evaluator("error_mean", "numpy"), LT, S, float(xa @ b), d)
        var = _float64(_evaluator("error_var", "numpy"), LT, S, float(xa @ xa),
                       float(Px @ Px), d)  # fmt: skip
    _finite_result("pruning_error_moments", "x, lam_T, total, beta_inf, V", mu, var)
    return float(mu), float(var)


def _pruning_args(x, lam_T, total, beta_inf, V):
    S = _check_mass("total", total)
    LT = _check_mass("lam_T", lam_T, S, "total")
    xa = nb.check_float_array("x", x, ndim=1)
    b = nb.check_float_array("beta_inf", beta_inf, ndim=1)
    if len(b) != len(xa):
        raise ValueError(f"x and beta_inf must have d entries each, got {len(xa)} and {len(b)}")
    return xa, b, _check_V(V, len(xa), "x and beta_inf"), LT, S


def pruning_exceedance(
    x: Any, eps: float, lam_T: float, total: float, beta_inf: Any, V: Any
) -> float:
    """The exact ``Pr(|f~_{m,rho}(x) - f_m(x)| > eps)`` (the error is normal, see
    :func:`pruning_error_moments`)."""
    xa, b, Va, LT, S = _pruning_args(x, lam_T, total, beta_inf, V)
    e = _check_mass("eps", eps)
    fn = _evaluator("exceedance", "numpy")
    with np.errstate(all="ignore"):
        Px = Va @ (Va.T @ xa)
        p = _float64(fn, LT, S, float(xa @ b), float(xa @ xa), float(Px @ Px), len(xa), e)
    _finite_result("pruning_exceedance", "x, eps, lam_T, total, beta_inf, V", p)
    return float(p)


def pruning_bound(x: Any, eps: float, lam_T: float, beta_inf: Any) -> float:
    """Proposition 7.6's printed bound ``|x|/(eps sqrt(d)) ((|beta_inf| + sqrt(d)) Lambda_T +
    sqrt(d Lambda_T))`` with ``Lambda_T = sum_{j > floor(rho m)} lambda_{m,j}``."""
    xa = nb.check_float_array("x", x, ndim=1)
    b = nb.check_float_array("beta_inf", beta_inf, ndim=1)
    LT = _check_mass("lam_T", lam_T)
    e = _check_mass("eps", eps)
    fn = _evaluator("bound", "numpy")
    with np.errstate(all="ignore"):
        out = _float64(fn, LT, float(np.linalg.norm(b)), float(xa @ xa), len(xa), e)
    _finite_result("pruning_bound", "x, eps, lam_T, beta_inf", out)
    return float(out)


def mean_field_expressions() -> dict[str, sp.Expr]:
    """Theorem 7.5's mean-field bullet (``lambda_{m,j} = 1/m^2``, any ``eta`` below footnote 3,
    e.g. the mean-field ``eta_0 m``) at ``t = oo`` and a probe ``x``: ratio (17) ``=
    N_m/D_m`` with ``N_m = (x^T (beta_inf - V V^T beta_0))^2``, ``D_m = (1/m) sum_k (x^T
    w_0k)^2``, and ratio (18) ``= (17)/m``.  Returns ``mean_N`` ``(x^T beta_inf)^2 + |V V^T
    x|^2/m``, ``mean_D`` ``|x|^2`` (their expectations over Assumption 3.3 and eq. (3)) and
    ``limit`` ``(x^T beta_inf)^2/|x|^2`` (the almost-sure limit of (17)), in the symbols
    ``m``, ``xb``, ``xPx``, ``xx`` of :func:`symbolic` (claim ``mean_field_bullet``)."""
    return {"mean_N": _XB**2 + _XPX / _m, "mean_D": _XX, "limit": _XB**2 / _XX}


def mean_field_moments(X: Any, y: Any, x: Any, m: int) -> tuple[float, float, float]:
    """``(E N_m, E D_m, lim (17))`` of :func:`mean_field_expressions` for data ``X``, ``y``, a
    probe ``x`` (d,) (non-zero) and width ``m`` (float64, generated)."""
    xa = nb.check_float_array("x", x, ndim=1)
    m = int(_check_integer("m", m))
    d = nb.check_float_array("X", X, ndim=2).shape[1]
    if len(xa) != d:
        raise ValueError(f"x must have d = {d} entries (columns of X), got {len(xa)}")
    if not np.any(xa):
        raise ValueError("x must not be the zero vector (the limit of (17) divides by |x|^2)")
    lim = limit(X, y, [1.0], [1.0], np.zeros((1, d)))
    with np.errstate(all="ignore"):
        Px = lim.projector @ xa
        vals = (m, float(xa @ lim.beta_inf), float(Px @ Px), float(xa @ xa))
    args = (_m, _XB, _XPX, _XX)
    out = tuple(float(_float64(generate(args, e, "numpy"), *vals))
                for e in mean_field_expressions().values())  # fmt: skip
    _finite_result("mean_field_moments", "X, y, x, m", *out)
    return out  # type: ignore[return-value]
