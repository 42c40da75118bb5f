r"""Seed 000, Section 7.2: the linear-activation network with node scaling, solved exactly.

Source: seed ``000_f57230b12d385b63.txt`` ("Over-parameterised shallow neural networks with
asymmetrical node scaling"), Theorem 7.4 (eqs. (19), (20), footnote 3), Theorem 7.5 (eq.
(21)), Proposition 7.6, Definitions 7.1 / 7.3 with ``sigma(x) = x``.

Model, eqs. (2), (3), (5) with the identity activation: ``f(x; W) = x^T beta(W) / sqrt(d)``,
``beta(W) = sum_j sqrt(lambda_j) a_j w_j``, ``a_j = +-1`` fixed, ``L = 1/2 |y - X beta/sqrt(d)|^2``
and the flow ``dw_j/dt = -eta grad_{w_j} L = eta sqrt(lambda_j) a_j X^T r / sqrt(d)``,
``r = y - X beta / sqrt(d)``.  Every node moves along the same vector ``X^T r``, so

    W_t - W_0 = (sqrt(lambda) * a) c(t)^T,   c(t) in the row space of X (= span V),

(claim ``gradient_structure``) and ``beta_t - beta_0 = (sum_k lambda_k a_k^2) c(t)``.  With the
reduced SVD ``X = U D V^T`` (rank ``k``), the limit is the unique stationary point in that
affine set (claims ``stationary_point``, ``limit_is_unique``)::

    w_inf_j - w_0j = sqrt(lambda_j) a_j / sum_k lambda_k (beta_inf - V V^T beta_0)      (19)
    beta_0 = sum_j sqrt(lambda_j) a_j w_0j,   beta_inf = sqrt(d) V D^-1 U^T y
    f(x; W_inf) = x^T (beta_inf + (I - V V^T) beta_0) / sqrt(d)                         (20)

for any node scalings (not only eq. (1)): the denominator is ``sum_k lambda_k a_k^2``, which is
the printed ``sum_k lambda_k`` because ``a_k^2 = 1`` (eq. (3)); (20) needs the same.  Gradient
descent stays in the same affine set and contracts the data-space error by
``1 - eta D_i^2 sum_k lambda_k / d`` per step: it converges to (19) iff ``eta < 2 d /
(D_max^2 sum_k lambda_k)``; footnote 3's ``d / (D_max^2 sum_k lambda_k)`` is sufficient (it
makes every factor lie in ``[0, 1)``, monotone convergence), half the sharp bound.

Theorem 7.5 / Proposition 7.6: for a set ``T`` of nodes with ``Lambda_T = sum_{j in T}
lambda_j`` and ``S = sum_k lambda_k``, ``sum_{j in T} sqrt(lambda_j) a_j w_inf_j ~
N(Lambda_T/S beta_inf, Lambda_T (I - Lambda_T/S V V^T))`` exactly for Gaussian ``W_0`` (``T =
{j}``: Theorem 7.5; the pruned nodes ``j > floor(rho m)``: the pruning error of Proposition 7.6,
``f~ - f = -x^T (...) / sqrt(d)``, a normal variable whose exceedance probability
:func:`pruning_exceedance` is exact, next to the printed Markov-type bound
:func:`pruning_bound`).

Numeric evaluators are generated from the sympy matrix expressions by ``sympy.lambdify`` with
a batch-aware printer (``matmul`` over leading batch axes): float64 numpy, or mpmath at ``dps``
digits (numpy object arrays of ``mpmath.mpf``).  Simulations of the raw flow / GD that check
them live in :mod:`numerics.node_scaling_linear`.
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from sympy.printing.lambdarepr import LambdaPrinter

from solvable import node_scaling as ns
from solvable._core.backends import generate
from solvable._core.claims import Erratum, Theorem, Verdict, decide, prove_zero
from solvable._core.model import Model
from solvable._core.numbers import check_dps as _check_dps
from solvable._core.tolerance import Tolerance, error_in_units

SEED = "000_f57230b12d385b63.txt"

__all__ = [
    "LinearLimit",
    "ReducedSVD",
    "claims",
    "closed_form",
    "contribution_limit_moments",
    "errata",
    "gd_step_bounds",
    "group_moments",
    "pruned_mass",
    "pruned_mass_numeric",
    "pruning_bound",
    "pruning_error_moments",
    "pruning_exceedance",
    "reduced_svd",
    "symbolic",
]

# ---------------------------------------------------------------------------
# the single source: sympy matrix expressions (symbolic shapes)
# ---------------------------------------------------------------------------
_n, _d, _m, _k, _p = sp.symbols("n d m k p", positive=True, integer=True)
_y = sp.MatrixSymbol("y", _n, 1)
_U = sp.MatrixSymbol("U", _n, _k)
_Dinv = sp.MatrixSymbol("Dinv", _k, _k)  # diag(1/D_1, ..., 1/D_k)
_V = sp.MatrixSymbol("V", _d, _k)
_W0 = sp.MatrixSymbol("W0", _m, _d)
_s = sp.MatrixSymbol("s", _m, 1)  # sqrt(lambda_j)
_a = sp.MatrixSymbol("a", _m, 1)  # +-1, eq. (3)
_Xp = sp.MatrixSymbol("Xp", _p, _d)  # probe inputs, one per row
_bvec = sp.MatrixSymbol("beta_inf", _d, 1)

# scalars of Theorem 7.5 / Proposition 7.6 (group T of nodes)
_LT, _S = sp.symbols("Lambda_T S", positive=True)
_XB = sp.Symbol("xb", real=True)  # x^T beta_inf
_XX, _XPX = sp.symbols("xx xPx", nonnegative=True)  # |x|^2, |V V^T x|^2
_NB = sp.Symbol("nb", nonnegative=True)  # |beta_inf|
_EPS = sp.Symbol("epsilon", positive=True)
_DMAX = sp.Symbol("D_max", positive=True)
_ETA = sp.Symbol("eta", positive=True)


@functools.cache
def symbolic() -> dict[str, sp.Basic]:
    """The sympy expressions of Theorem 7.4 / 7.5 / Proposition 7.6 (shapes ``n, d, m, k, p``
    symbolic): ``beta0``, ``beta_inf``, ``projector`` (``V V^T``), ``c`` (the common direction,
    ``(beta_inf - V V^T beta_0)/sum lambda``), ``delta_W`` (eq. (19), rows ``j``), ``beta_final``,
    ``f_nodes`` (first form of (20)), ``f`` (second form of (20)), ``group_mean`` /
    ``group_cov`` (Theorem 7.5 for a node set of mass ``Lambda_T``), ``error_mean`` /
    ``error_var`` / ``exceedance`` / ``bound`` (Proposition 7.6), ``eta_bound`` (footnote 3)
    and ``eta_sharp``."""
    sa = sp.HadamardProduct(_s, _a)
    beta0 = _W0.T * sa
    beta_inf = sp.sqrt(_d) * _V * _Dinv * _U.T * _y
    proj = _V * _V.T
    c = (beta_inf - proj * beta0) * sp.Inverse(_s.T * _s)  # (d, 1) times the 1x1 1/sum lambda
    delta_W = sa * c.T
    W_inf = _W0 + delta_W
    beta_final = W_inf.T * sa
    f_nodes = _Xp * beta_final / sp.sqrt(_d)
    f = _Xp * (beta_inf + beta0 - proj * beta0) / sp.sqrt(_d)
    # Theorem 7.5 for a node set T (T = {j}: one contribution)
    group_mean = _LT / _S * _bvec
    group_cov = _LT * (sp.Identity(_d) - _LT / _S * proj)
    # Proposition 7.6: e = f~ - f = -x^T sum_{j in T} c_j / sqrt(d), T = pruned nodes
    mu = -_LT / _S * _XB / sp.sqrt(_d)
    var = _LT * (_XX - _LT / _S * _XPX) / _d
    z = sp.sqrt(2 * var)
    exceed = (sp.erfc((_EPS - mu) / z) + sp.erfc((_EPS + mu) / z)) / 2
    bound = sp.sqrt(_XX) / (_EPS * sp.sqrt(_d)) * ((_NB + sp.sqrt(_d)) * _LT + sp.sqrt(_d * _LT))
    return {
        "beta0": beta0, "beta_inf": beta_inf, "projector": proj, "c": c,
        "delta_W": delta_W, "W_inf": W_inf, "beta_final": beta_final, "f_nodes": f_nodes,
        "f": f, "group_mean": group_mean, "group_cov": group_cov, "error_mean": mu,
        "error_var": var, "exceedance": exceed, "bound": bound,
        "eta_bound": _d / (_DMAX**2 * _S), "eta_sharp": 2 * _d / (_DMAX**2 * _S),
    }  # fmt: skip


class _BatchedPrinter(LambdaPrinter):
    """Matrix expressions as batch-aware calls: products ``matmul`` (numpy broadcasting over
    leading batch axes), transposes swap the last two axes, the 1x1 inverse is a reciprocal."""

    def _print_MatrixSymbol(self, e: sp.MatrixSymbol) -> str:
        return e.name

    def _print_MatMul(self, e: sp.MatMul) -> str:
        coeff, mats = e.as_coeff_matrices()
        out = self._print(mats[0])
        for x in mats[1:]:
            out = f"matmul({out}, {self._print(x)})"
        return out if coeff == 1 else f"({self._print(coeff)})*{out}"

    def _print_MatAdd(self, e: sp.MatAdd) -> str:
        return "(" + " + ".join(self._print(x) for x in e.args) + ")"

    def _print_Transpose(self, e: sp.Transpose) -> str:
        return f"T({self._print(e.arg)})"

    def _print_HadamardProduct(self, e: sp.HadamardProduct) -> str:
        return f"multiply({', '.join(self._print(x) for x in e.args)})"

    def _print_Inverse(self, e: sp.Inverse) -> str:  # only 1x1 inverses occur
        return f"recip({self._print(e.arg)})"

    def _print_Identity(self, e: sp.Identity) -> str:
        return f"identity({self._print(e.shape[0])})"


def _matrix_namespace(backend: str) -> dict[str, Any]:
    mp = backend == "mpmath"

    def identity(n: Any) -> np.ndarray:
        eye = np.eye(int(n))
        return _to_object(eye) if mp else eye

    return {
        "matmul": np.matmul, "multiply": np.multiply,
        "T": lambda x: np.swapaxes(x, -1, -2), "recip": lambda x: 1 / x,
        "identity": identity,
        "sqrt": mpmath.sqrt if mp else np.sqrt,
    }  # fmt: skip


_MATRIX_ARGS = {
    "beta0": (_W0, _s, _a),
    "beta_inf": (_d, _y, _U, _Dinv, _V),
    "projector": (_V,),
    "delta_W": (_d, _y, _U, _Dinv, _V, _W0, _s, _a),
    "W_inf": (_d, _y, _U, _Dinv, _V, _W0, _s, _a),
    "f_nodes": (_d, _y, _U, _Dinv, _V, _W0, _s, _a, _Xp),
    "f": (_d, _y, _U, _Dinv, _V, _W0, _s, _a, _Xp),
    "group_mean": (_LT, _S, _bvec),
    "group_cov": (_d, _LT, _S, _V),
}
_SCALAR_ARGS = {
    "error_mean": (_LT, _S, _XB, _d),
    "error_var": (_LT, _S, _XX, _XPX, _d),
    "exceedance": (_LT, _S, _XB, _XX, _XPX, _d, _EPS),
    "bound": (_LT, _NB, _XX, _d, _EPS),
    "eta_bound": (_d, _DMAX, _S),
    "eta_sharp": (_d, _DMAX, _S),
}


@functools.cache
def _evaluator(name: str, backend: str) -> Callable[..., Any]:
    expr = symbolic()[name]
    if name in _MATRIX_ARGS:
        return generate(_MATRIX_ARGS[name], expr, backend, printer=_BatchedPrinter,
                        extra=_matrix_namespace(backend))  # fmt: skip
    return generate(_SCALAR_ARGS[name], expr, backend)


# ---------------------------------------------------------------------------
# validation and conversion
# ---------------------------------------------------------------------------
def _to_object(arr: Any) -> np.ndarray:
    """An object array of ``mpmath.mpf`` at the working precision (str / float / mpf / int)."""
    a = np.asarray(arr, dtype=object)
    out = np.empty(a.shape, dtype=object)
    for idx, v in np.ndenumerate(a):
        out[idx] = mpmath.mpf(v.strip() if isinstance(v, str) else v)
    return out


def _array(name: str, value: Any, ndims: tuple[int, ...], dps: int | None) -> np.ndarray:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of real numbers, got {value!r:.80}") from None
    if arr.ndim not in ndims:
        raise ValueError(f"{name} must have {' or '.join(map(str, ndims))} dimensions, "
                         f"got shape {arr.shape}")  # fmt: skip
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {value!r:.80}")
    if dps is None:
        return arr
    return _to_object(np.asarray(value, dtype=object) if not isinstance(value, np.ndarray)
                      or value.dtype == object else value)  # fmt: skip


@dataclass(frozen=True)
class ReducedSVD:
    """``X = U diag(D) V^T`` with ``U`` (n, k), ``D`` (k,) > 0 decreasing, ``V`` (d, k)."""

    U: np.ndarray
    D: np.ndarray
    V: np.ndarray

    def __post_init__(self) -> None:
        k = len(self.D)
        if self.U.ndim != 2 or self.V.ndim != 2 or self.U.shape[1] != k or self.V.shape[1] != k:
            raise ValueError(f"U (n, k), D (k,), V (d, k) must agree on k, got shapes "
                             f"{self.U.shape}, {self.D.shape}, {self.V.shape}")  # fmt: skip

    @property
    def rank(self) -> int:
        return len(self.D)


def reduced_svd(X: Any, *, dps: int | None = None, rank: int | None = None) -> ReducedSVD:
    """The reduced SVD of Theorem 7.4 (``k`` = rank of ``X``).  The rank is ``rank`` if given,
    else the number of singular values above ``max(n, d) * 2.2e-16 * D_max`` (numpy's
    ``matrix_rank`` rule, also for ``dps``: float64 input data are only known to that
    resolution).  ``dps``: mpmath ``svd_r`` at ``dps`` digits (object arrays)."""
    dps = _check_dps(dps)
    arr = _array("X", X, (2,), None)
    n, d = arr.shape
    if dps is None:
        U, D, Vt = np.linalg.svd(arr, full_matrices=False)
    else:
        with mpmath.workdps(dps):
            Um, Dm, Vm = mpmath.svd_r(mpmath.matrix(_to_object(X).tolist()), full_matrices=False,
                                      compute_uv=True)  # fmt: skip
            U = np.array(Um.tolist(), dtype=object)
            D = np.array([Dm[i] for i in range(len(Dm))], dtype=object)
            Vt = np.array(Vm.tolist(), dtype=object)
            order = sorted(range(len(D)), key=lambda i: -D[i])
            U, D, Vt = U[:, order], D[order], Vt[order, :]
    top = float(D[0]) if len(D) else 0.0
    if rank is None:
        k = int(sum(float(v) > max(n, d) * np.finfo(float).eps * top for v in D))
    else:
        if isinstance(rank, bool) or not isinstance(rank, numbers.Integral):
            raise TypeError(f"rank must be an int or None, got {rank!r}")
        if not 1 <= rank <= min(n, d):
            raise ValueError(f"rank must be in 1..min(n, d) = {min(n, d)}, got {rank}")
        k = int(rank)
    if k == 0:
        raise ValueError("X must have rank >= 1 (got the zero matrix)")
    return ReducedSVD(U[:, :k], D[:k], Vt[:k, :].T)


def _check_lam(lam: Any, dps: int | None) -> np.ndarray:
    arr = _array("lam", lam, (1, 2), None)
    if np.any(arr < 0):
        raise ValueError(f"lam must be >= 0 (node scalings), got {lam!r:.80}")
    if np.any(arr.sum(-1) <= 0):
        raise ValueError("lam must have a positive sum (sum_k lambda_k > 0)")
    return arr if dps is None else _to_object(lam)


def _check_signs(a: Any) -> np.ndarray:
    arr = _array("a", a, (1, 2), None)
    if not np.all(np.abs(arr) == 1):
        raise ValueError(f"a must hold +-1 (eq. (3)), got {a!r:.80}")
    return arr


# ---------------------------------------------------------------------------
# Theorem 7.4: the closed form
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LinearLimit:
    """Theorem 7.4 for one data set and a batch of initialisations (leading axes ``...``).

    ``svd`` (reduced SVD of X), ``beta0`` (..., d), ``beta_inf`` (d,) (min-norm least
    squares), ``projector`` ``V V^T`` (d, d), ``delta_W`` ``w_inf_j - w_0j`` (..., m, d) (eq.
    (19)), ``W_inf`` (..., m, d), ``f`` (..., p) learnt function on the probes (second form of
    eq. (20); ``None`` without probes), ``f_nodes`` (first form of (20), from ``W_inf``)."""

    svd: ReducedSVD
    beta0: np.ndarray
    beta_inf: np.ndarray
    projector: np.ndarray
    delta_W: np.ndarray  # noqa: N815 (the paper's notation)
    W_inf: np.ndarray
    f: np.ndarray | None
    f_nodes: np.ndarray | None


def closed_form(
    X: Any, y: Any, lam: Any, a: Any, W0: Any, *, probes: Any = None, dps: int | None = None,
    rank: int | None = None,
) -> LinearLimit:  # fmt: skip
    """Theorem 7.4 (eqs. (19), (20)) for data ``X`` (n, d), ``y`` (n,), node scalings ``lam``
    (m,) or (B, m) (any ``lambda >= 0`` with ``sum > 0``; eq. (1) not required), output signs
    ``a`` (m,) or (B, m) in {-1, +1} (eq. (3)), initial weights ``W0`` (m, d) or (B, m, d), and
    optional ``probes`` (p, d).  ``dps=None``: float64; ``dps=k``: mpmath at ``k`` digits."""
    dps = _check_dps(dps)
    Xa = _array("X", X, (2,), None)
    n, d = Xa.shape
    ya = _array("y", y, (1,), None)
    if len(ya) != n:
        raise ValueError(f"y must have {n} entries (rows of X), got {len(ya)}")
    lam_a = _check_lam(lam, None)
    m = lam_a.shape[-1]
    a_a = _check_signs(a)
    if a_a.shape[-1] != m:
        raise ValueError(f"a must have {m} entries per network (as lam), got shape {a_a.shape}")
    W_a = _array("W0", W0, (2, 3), None)
    if W_a.shape[-2:] != (m, d):
        raise ValueError(f"W0 must have shape (m, d) = ({m}, {d}) or (B, m, d), got {W_a.shape}")
    P_a = None if probes is None else _array("probes", probes, (2,), None)
    if P_a is not None and P_a.shape[1] != d:
        raise ValueError(f"probes must have d = {d} columns, got shape {P_a.shape}")
    svd = reduced_svd(X, dps=dps, rank=rank)
    backend = "numpy" if dps is None else "mpmath"
    conv = (lambda v, arr: arr) if dps is None else (lambda v, arr: _to_object(v))
    ctx = mpmath.workdps(dps) if dps is not None else contextlib.nullcontext()
    with ctx:
        s = (np.sqrt(lam_a) if dps is None else
             np.vectorize(mpmath.sqrt, otypes=[object])(_to_object(lam)))  # fmt: skip
        col = lambda v: v[..., None]  # noqa: E731 - vectors as (..., rows, 1) columns
        Dinv = np.diag(1 / svd.D) if dps is None else _diag_object(1 / svd.D)
        args = (d, col(conv(y, ya)), svd.U, Dinv, svd.V, conv(W0, W_a), col(s),
                col(conv(a, a_a).astype(object) if dps is not None else a_a))  # fmt: skip
        ev = functools.partial(_call, backend)
        beta0 = ev("beta0", *args[5:8])[..., 0]
        beta_inf = ev("beta_inf", *args[:5])[..., 0]
        proj = ev("projector", svd.V)
        delta_W = ev("delta_W", *args)
        W_inf = ev("W_inf", *args)
        f = f_nodes = None
        if P_a is not None:
            Pr = conv(probes, P_a)
            f = ev("f", *args, Pr)[..., 0]
            f_nodes = ev("f_nodes", *args, Pr)[..., 0]
    return LinearLimit(svd, beta0, beta_inf, proj, delta_W, W_inf, f, f_nodes)


def _diag_object(v: np.ndarray) -> np.ndarray:
    out = _to_object(np.zeros((len(v), len(v))))
    for i, x in enumerate(v):
        out[i, i] = x
    return out


def _call(backend: str, name: str, *args: Any) -> Any:
    return np.asarray(_evaluator(name, backend)(*args))


# ---------------------------------------------------------------------------
# footnote 3, Theorem 7.5, Proposition 7.6
# ---------------------------------------------------------------------------
def gd_step_bounds(X: Any, lam: Any) -> tuple[float, float]:
    """Footnote 3's step size bound ``d / (D_max^2 sum_k lambda_k)`` and the sharp bound
    ``2 d / (D_max^2 sum_k lambda_k)`` below which gradient descent converges to eq. (19)."""
    svd = reduced_svd(X)
    lam_a = _check_lam(lam, None)
    if lam_a.ndim != 1:
        raise ValueError(f"lam must have shape (m,), got {lam_a.shape}")
    d = np.shape(X)[1]
    args = (d, float(svd.D[0]), float(lam_a.sum()))
    return float(_evaluator("eta_bound", "numpy")(*args)), float(
        _evaluator("eta_sharp", "numpy")(*args)
    )


def _check_mass(name: str, value: Any, upper: Any = None) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    v = float(value)
    if not (math.isfinite(v) and v > 0) or (upper is not None and v > float(upper) * (1 + 1e-12)):
        rng = f"(0, {upper}]" if upper is not None else "(0, oo)"
        raise ValueError(f"{name} must be in {rng}, got {value!r}")
    return v


def group_moments(lam_T: float, total: float, beta_inf: Any, V: Any) -> tuple[Any, Any]:
    """Theorem 7.5 (a node set ``T``): mean ``Lambda_T/S beta_inf`` and covariance
    ``Lambda_T (I - Lambda_T/S V V^T)`` of ``sum_{j in T} sqrt(lambda_j) a_j w_inf_j``, with
    ``Lambda_T = sum_{j in T} lambda_j`` and ``S = sum_k lambda_k`` (float64)."""
    S = _check_mass("total", total)
    LT = _check_mass("lam_T", lam_T, S)
    b = _array("beta_inf", beta_inf, (1,), None)
    Va = _array("V", V, (2,), None)
    if Va.shape[0] != len(b):
        raise ValueError(f"V must have {len(b)} rows (as beta_inf), got shape {Va.shape}")
    mean = _evaluator("group_mean", "numpy")(LT, S, b[:, None])[:, 0]
    cov = _evaluator("group_cov", "numpy")(len(b), LT, S, Va)
    return np.asarray(mean), np.asarray(cov)


def contribution_limit_moments(
    j: int, gamma: Any, weights: ns.Weights, beta_inf: Any, V: Any
) -> tuple[Any, Any]:
    """Eq. (21): the ``m -> oo`` moments of ``sqrt(lambda_{m,j}) a_j w_inf_j`` under eq. (1):
    ``lambda_{m,j}`` replaced by its limit ``(1 - gamma) lambda~_j`` (``node_scaling_limit``)
    and ``S = 1``; float64.  Degenerate (zero) for ``gamma = 1`` or ``lambda~_j = 0``."""
    limit = float(ns.node_scaling_limit(j, gamma, weights))
    b = _array("beta_inf", beta_inf, (1,), None)
    if limit == 0:
        return np.zeros_like(b), np.zeros((len(b), len(b)))
    return group_moments(limit, 1.0, b, V)


def pruned_mass(m: Any, rho: Any, gamma: Any, weights: ns.Weights) -> sp.Expr:
    """``sum_{j > floor(rho m)} lambda_{m,j} = gamma (m - r)/m + (1 - gamma)(S_m - S_r)/S_m``,
    ``r = floor(rho m)`` (exact, from the partial sums of :mod:`solvable.node_scaling`)."""
    m = ns._check_integer("m", m)
    g = ns._check_gamma(gamma)
    r_ = ns._sympify_number("rho", rho)
    if r_.free_symbols or not (0 < r_ < 1):
        raise ValueError(f"rho must be a number in (0, 1), got {rho!r}")
    r = sp.floor(r_ * m)
    S_m = weights.partial_sum(m)
    S_r = weights.partial_sum(r) if r >= 1 else sp.S.Zero
    return g * (m - r) / m + (1 - g) * (S_m - S_r) / S_m


def pruned_mass_numeric(m: int, rho: float, gamma: Any, weights: ns.Weights) -> float:
    """``sum_{j > floor(rho m)} lambda_{m,j}`` in float64 from the generated ``lambda_{m,j}``
    evaluator of :mod:`solvable.node_scaling` (summed over the pruned nodes)."""
    m = int(ns._check_integer("m", m))
    if not (isinstance(rho, numbers.Real) and 0 < rho < 1):
        raise ValueError(f"rho must be in (0, 1), got {rho!r}")
    r = math.floor(rho * m)
    if r >= m:
        return 0.0
    j = np.arange(r + 1, m + 1)
    return float(np.sum(ns.node_scaling_numeric(np.full_like(j, m), j, gamma, weights)))


def pruning_error_moments(
    x: Any, lam_T: float, total: float, beta_inf: Any, V: Any
) -> tuple[float, float]:
    """Mean and variance of the pruning error ``f~_{m,rho}(x) - f_m(x)`` (Proposition 7.6's
    setting, exact for Gaussian ``W_0``): ``-Lambda_T/S x^T beta_inf/sqrt(d)`` and
    ``Lambda_T (|x|^2 - Lambda_T/S |V V^T x|^2)/d`` (``Lambda_T``: the pruned mass)."""
    xa, b, Va, LT, S = _pruning_args(x, lam_T, total, beta_inf, V)
    d = len(xa)
    Px = Va @ (Va.T @ xa)
    mu = _evaluator("error_mean", "numpy")(LT, S, float(xa @ b), d)
    var = _evaluator("error_var", "numpy")(LT, S, float(xa @ xa), float(Px @ Px), d)
    return float(mu), float(var)


def _pruning_args(x, lam_T, total, beta_inf, V):
    S = _check_mass("total", total)
    LT = _check_mass("lam_T", lam_T, S)
    xa = _array("x", x, (1,), None)
    b = _array("beta_inf", beta_inf, (1,), None)
    Va = _array("V", V, (2,), None)
    if len(b) != len(xa) or Va.shape[0] != len(xa):
        raise ValueError(f"x, beta_inf and V must have d = {len(xa)} rows, got "
                         f"{len(b)}, {Va.shape}")  # fmt: skip
    return xa, b, Va, LT, S


def pruning_exceedance(
    x: Any, eps: float, lam_T: float, total: float, beta_inf: Any, V: Any
) -> float:
    """The exact ``Pr(|f~_{m,rho}(x) - f_m(x)| > eps)`` (the error is normal, see
    :func:`pruning_error_moments`)."""
    xa, b, Va, LT, S = _pruning_args(x, lam_T, total, beta_inf, V)
    e = _check_mass("eps", eps)
    Px = Va @ (Va.T @ xa)
    fn = _evaluator("exceedance", "numpy")
    return float(fn(LT, S, float(xa @ b), float(xa @ xa), float(Px @ Px), len(xa), e))


def pruning_bound(x: Any, eps: float, lam_T: float, beta_inf: Any) -> float:
    """Proposition 7.6's printed bound ``|x|/(eps sqrt(d)) ((|beta_inf| + sqrt(d)) Lambda_T +
    sqrt(d Lambda_T))`` with ``Lambda_T = sum_{j > floor(rho m)} lambda_{m,j}``."""
    xa = _array("x", x, (1,), None)
    b = _array("beta_inf", beta_inf, (1,), None)
    LT = _check_mass("lam_T", lam_T)
    e = _check_mass("eps", eps)
    fn = _evaluator("bound", "numpy")
    return float(fn(LT, float(np.linalg.norm(b)), float(xa @ xa), len(xa), e))


# ---------------------------------------------------------------------------
# symbolic claims
# ---------------------------------------------------------------------------
_QU = sp.Matrix([[1, 2, 2], [2, 1, -2], [2, -2, 1]]) / 3  # rational orthogonal matrices
_QV = sp.Matrix([[2, 3, 6], [3, -6, 2], [6, 2, -3]]) / 7


@functools.cache
def _instance() -> dict[str, Any]:
    """A small generic instance: n = d = 3, rank k = 2 (so U U^T != I and V V^T != I), m = 2
    nodes; U, V two columns of rational orthogonal matrices, everything else symbolic
    (D, y, W0, s = sqrt(lambda), a real non-zero; ``sd`` stands for sqrt(d), which only
    ever appears as a factor)."""
    n, d, k, m = 3, 3, 2, 2
    U, V = _QU[:, :k], _QV[:, :k]
    D = sp.diag(*sp.symbols("D1:3", positive=True))
    X = U * D * V.T
    y = sp.Matrix(sp.symbols("y1:4", real=True))
    s = sp.symbols("s1:3", positive=True)
    a = sp.symbols("a1:3", real=True, nonzero=True)
    W0 = sp.Matrix(m, d, sp.symbols("w1:7", real=True))
    W = sp.Matrix(m, d, sp.symbols("v1:7", real=True))
    sd = sp.Symbol("sd", positive=True)
    return dict(n=n, d=d, k=k, m=m, U=U, V=V, D=D, X=X, y=y, s=s, a=a, W0=W0, W=W, sd=sd)


def _beta(W: sp.Matrix, inst: dict[str, Any]) -> sp.Matrix:
    s, a = inst["s"], inst["a"]
    return sum((s[j] * a[j] * W[j, :].T for j in range(inst["m"])),
               sp.zeros(inst["d"], 1)).applyfunc(sp.cancel)  # fmt: skip


def _residual(W: sp.Matrix, inst: dict[str, Any]) -> sp.Matrix:
    return (inst["y"] - inst["X"] * _beta(W, inst) / inst["sd"]).applyfunc(sp.cancel)


def _instance_limit(inst: dict[str, Any], general: bool = True) -> dict[str, sp.Matrix]:
    """Eq. (19) on the instance, with denominator ``sum lambda a^2`` (general) or the printed
    ``sum lambda``."""
    s, a, U, V, D, y, W0, sd, m = (inst[k] for k in ("s", "a", "U", "V", "D", "y", "W0", "sd",
                                                     "m"))  # fmt: skip
    beta0 = _beta(W0, inst)
    beta_inf = sd * V * D.inv() * U.T * y
    S = sum(s[j] ** 2 * (a[j] ** 2 if general else 1) for j in range(m))
    c = (beta_inf - V * V.T * beta0) / S
    sa = sp.Matrix(m, 1, [s[j] * a[j] for j in range(m)])
    return {"beta0": beta0, "beta_inf": beta_inf, "c": c, "W_inf": W0 + sa * c.T}


def _gradient_structure() -> Verdict:
    # grad_{w_j} L (sympy differentiation of eq. (5) with sigma = id) equals
    # -(s_j a_j / sqrt(d)) X^T r for every W: all nodes move along one vector X^T r, which lies
    # in the row space of X; hence W_t - W_0 = (s * a) c(t)^T with c(t) in span V
    inst = _instance()
    W, X, s, a, sd = inst["W"], inst["X"], inst["s"], inst["a"], inst["sd"]
    r = _residual(W, inst)
    L = (r.T * r)[0] / 2
    res = []
    for j in range(inst["m"]):
        grad = sp.Matrix([sp.diff(L, W[j, i]) for i in range(inst["d"])])
        res += list((grad + s[j] * a[j] * X.T * r / sd).applyfunc(sp.expand))
    # X^T r = V (D U^T r): in span V, the row space of X
    V = inst["V"]
    res += list((X.T * r - V * (V.T * X.T * r)).applyfunc(sp.expand))
    return prove_zero(*res)


def _stationary_point() -> Verdict:
    # (19) (denominator sum lambda a^2) is a zero of the loss gradient, on the instance
    # (gradient X^T r by gradient_structure) and in matrix form for every n, d, m, k
    # (non-commutative symbols reduced by U^T U = I, V^T V = I, D D^-1 = I)
    inst = _instance()
    lim = _instance_limit(inst)
    res = list((inst["X"].T * _residual(lim["W_inf"], inst)).applyfunc(sp.cancel))
    res.append(_matrix_form_gradient())
    return prove_zero(*res)


def _matrix_form_gradient() -> sp.Expr:
    U, D, V, Ut, Vt, Di, y, b0 = sp.symbols("U D V U^T V^T D^-1 y beta_0", commutative=False)
    d, Sa = sp.symbols("d S_a", positive=True)
    beta_inf = sp.sqrt(d) * V * Di * Ut * y
    beta_final = b0 + Sa * (beta_inf - V * Vt * b0) / Sa  # beta_0 + (sum lambda a^2) c
    r = y - U * D * Vt * beta_final / sp.sqrt(d)
    g = sp.expand(V * D * Ut * r)  # X^T r with X^T = V D U^T
    rules = {Ut * U: 1, Vt * V: 1, D * Di: 1}
    for _ in range(10):
        new = sp.expand(g.subs(rules))
        if new == g:
            break
        g = new
    return g


def _limit_is_unique() -> Verdict:
    # derivation of (19): W - W0 = (s*a) (V z)^T (gradient_structure), the stationarity
    # condition X^T r = 0 is linear in z (k unknowns) with a unique solution, equal to V^T c of
    # (19); then (20) follows from (19) under eq. (3) (a_j = +-1, every sign pattern)
    inst = _instance()
    V, s, a, m = inst["V"], inst["s"], inst["a"], inst["m"]
    z = sp.Matrix(sp.symbols("z1:3"))
    sa = sp.Matrix(m, 1, [s[j] * a[j] for j in range(m)])
    W = inst["W0"] + sa * (V * z).T
    eqs = list((inst["X"].T * _residual(W, inst)).applyfunc(sp.cancel))
    sol = sp.solve(eqs, list(z), dict=True)
    lim = _instance_limit(inst)
    if len(sol) != 1:
        return Verdict("failed", f"{len(sol)} solutions for z")
    res = [sp.cancel(sol[0][zi] - ci) for zi, ci in zip(z, V.T * lim["c"], strict=True)]
    res += list((lim["c"] - V * (V.T * lim["c"])).applyfunc(sp.cancel))  # c in span V
    # (20): x^T beta(W_inf)/sqrt(d) = x^T (beta_inf + (I - V V^T) beta_0)/sqrt(d), and the
    # general denominator equals the printed sum lambda, for a in {-1, 1}^2
    for signs in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
        sub = dict(zip(a, signs, strict=True))
        lim_p = _instance_limit(inst, general=False)
        gen = {k: v.subs(sub) for k, v in lim.items()}
        res += list((gen["W_inf"] - lim_p["W_inf"].subs(sub)).applyfunc(sp.cancel))
        beta_f = _beta(gen["W_inf"], {**inst, "a": signs})
        P = V * V.T
        target = gen["beta_inf"] + (sp.eye(3) - P) * gen["beta0"]
        res += list((beta_f - target).applyfunc(sp.cancel))
    return prove_zero(*res)


def _evaluator_matches_instance() -> Verdict:
    # the generated (lambdified) delta_W and f equal the hand-built instance formulas: the
    # matrix expressions of symbolic() evaluated on the explicit instance (as_explicit)
    inst = _instance()
    lim = _instance_limit(inst, general=False)
    e = symbolic()
    k, m, d, p = inst["k"], inst["m"], inst["d"], 1
    xp = sp.Matrix(1, d, sp.symbols("x1:4", real=True))
    sub = {
        _n: inst["n"], _d: d, _m: m, _k: k, _p: p,
    }  # fmt: skip
    vals = {
        _y: inst["y"], _U: inst["U"], _Dinv: inst["D"].inv(), _V: inst["V"], _W0: inst["W0"],
        _s: sp.Matrix(inst["s"]), _a: sp.Matrix(inst["a"]), _Xp: xp,
    }  # fmt: skip
    signs = {inst["a"][0]: 1, inst["a"][1]: -1}

    def explicit(name: str) -> sp.Matrix:
        ex = e[name].subs(sub)
        ex = ex.subs({sp.MatrixSymbol(ms.name, *[sub.get(q, q) for q in ms.shape]): v
                      for ms, v in vals.items()})  # fmt: skip
        return sp.Matrix(ex.doit().as_explicit()).subs(signs)

    def zero(M: sp.Matrix) -> list[sp.Expr]:  # sd = sqrt(3) here: expand the radicals
        return list(M.subs({inst["sd"]: sp.sqrt(d)}).applyfunc(lambda v: sp.expand(
            sp.radsimp(sp.together(v)))))  # fmt: skip

    res = zero(explicit("delta_W") - (lim["W_inf"] - inst["W0"]).subs(signs))
    target_f = xp * (lim["beta_inf"] + lim["beta0"] - inst["V"] * inst["V"].T * lim["beta0"])
    res += zero(explicit("f") - target_f.subs(signs) / inst["sd"])
    res += zero(explicit("f_nodes") - explicit("f"))
    return prove_zero(*res)


def _gd_step_size() -> Verdict:
    # GD on W: c <- c + eta X^T r/sqrt(d), so in the data coordinates e = V^T(beta - beta*)
    # evolves as e <- (I - eta S D^2/d) e (S = sum lambda a^2; residual of the recursion on the
    # instance).  Footnote 3: eta = theta d/(D_max^2 S), 0 < theta < 1, gives factors
    # 1 - theta D_i^2/D_max^2 in [0, 1) (convergence, monotone); the sharp bound is 2d/(D_max^2 S)
    inst = _instance()
    lim = _instance_limit(inst)
    V, D, sd, s, a, m = (inst[q] for q in ("V", "D", "sd", "s", "a", "m"))
    eta = sp.Symbol("eta", positive=True)
    cz = sp.Matrix(sp.symbols("z1:3"))
    sa = sp.Matrix(m, 1, [s[j] * a[j] for j in range(m)])
    W = inst["W0"] + sa * (V * cz).T
    W_next = W + eta * sa * (inst["X"].T * _residual(W, inst) / sd).T
    S = sum(s[j] ** 2 * a[j] ** 2 for j in range(m))
    e_now = V.T * (_beta(W, inst) - _beta(lim["W_inf"], inst))
    e_next = V.T * (_beta(W_next, inst) - _beta(lim["W_inf"], inst))
    factor = sp.eye(2) - eta * S * D**2 / sd**2
    res = list((e_next - factor * e_now).applyfunc(sp.cancel))
    verdict = prove_zero(*res)
    t, u = sp.symbols("t u", positive=True)  # theta = 1/(1 + t) in (0, 1), q = 1/(1 + u)
    theta, q = 1 / (1 + t), 1 / (1 + u)  # q = D_i^2/D_max^2 in (0, 1)  (q = 1: below)
    f = 1 - theta * q  # the factor at eta = theta d/(D_max^2 S)

    def pos(e: sp.Expr) -> bool | None:
        return sp.factor(sp.together(e)).is_positive

    cases = [
        ("factor > 0 (q < 1)", pos(f)),
        ("factor > 0 (q = 1)", pos(1 - theta)),
        ("factor < 1", pos(1 - f)),
        ("factor > -1 at eta = 2 theta d/(D_max^2 S)", pos(1 + (1 - 2 * theta * q))),
        ("divergence at q = 1, eta = 2 (1 + t) d/(D_max^2 S): factor < -1",
         pos(-(1 - 2 * (1 + t)) - 1)),
    ]  # fmt: skip
    cverdict = decide(cases, "contraction factor 1 - eta S D_i^2/d")
    if verdict.status != "proved" or cverdict.status != "proved":
        return Verdict("failed", f"{verdict.detail}; {cverdict.detail}",
                       residuals=verdict.residuals + cverdict.residuals)  # fmt: skip
    return Verdict(
        "proved",
        "GD error recursion e <- (I - eta S D^2/d) e (S = sum lambda a^2, exact on the instance); "
        "footnote 3's eta < d/(D_max^2 S) gives factors in [0, 1) (sufficient, monotone); "
        "the sharp condition is eta < 2 d/(D_max^2 S) (factor -1 - 2 theta beyond it)",
        residuals=verdict.residuals + cverdict.residuals,
    )


def _group_covariance() -> Verdict:
    # the sum over a node set T of c_j = sqrt(lambda_j) a_j w_inf_j: mean Lambda_T/S beta_inf,
    # covariance Lambda_T (I - Lambda_T/S P) (m = 4, T = {3, 4}, d = 2, rank-1 P = v v^T),
    # u_k = sqrt(lambda_k) a_k w_0k ~ N(0, lambda_k I) independent: sum_T c_j = sum_k A_k u_k +
    # Lambda_T/S beta_inf with A_k = 1[k in T] I - Lambda_T/S P
    lam = sp.symbols("lambda1:5", positive=True)
    S = sum(lam)
    T = (2, 3)
    LT = lam[2] + lam[3]
    t = sp.Symbol("t", real=True)
    v = sp.Matrix([sp.cos(t), sp.sin(t)])
    P = v * v.T
    I2 = sp.eye(2)
    cov = sp.zeros(2, 2)
    for k in range(4):
        A = (I2 if k in T else sp.zeros(2, 2)) - LT / S * P
        cov += lam[k] * A * A.T
    # the generated group_cov expression, made explicit at d = 2 with V = v
    gc = symbolic()["group_cov"].subs(_d, 2)
    gc = gc.subs({sp.MatrixSymbol("V", 2, _k): sp.Matrix(v)}).subs(_k, 1)
    gc = sp.Matrix(gc.subs({_LT: LT, _S: S}).doit().as_explicit())
    return prove_zero(*(cov - LT * (I2 - LT / S * P)), *(gc - LT * (I2 - LT / S * P)))


def _contribution_limit() -> Verdict:
    # eq. (21): with lambda_{m,j} -> (1 - gamma) lambda~_j (node_scaling_limit, sympy limit)
    # and S = 1 (eq. (1)), the moments lambda/S beta_inf and lambda (I - lambda/S P) become
    # (1 - gamma) lambda~_j beta_inf and (1 - gamma) lambda~_j (I - (1 - gamma) lambda~_j P),
    # for Zipf (every alpha) and finite K (every K), j = 1 and symbolic j
    b, p = sp.symbols("b_inf P", real=True)  # one coordinate of beta_inf, one entry of P
    res = []
    for w in (ns.zipf_symbolic(), ns.finite_k_symbolic()):
        for j in (1, ns.J):
            lam_lim = ns.node_scaling_limit(j, ns.GAMMA, w)
            mean = (_LT / _S * b).subs({_LT: lam_lim, _S: 1})
            cov = (_LT * (1 - _LT / _S * p)).subs({_LT: lam_lim, _S: 1})
            wt = (1 - ns.GAMMA) * w.weight(j)
            res += [mean - wt * b, cov - wt * (1 - wt * p)]
    return prove_zero(*res)


def _pruned_mass_limit() -> Verdict:
    # sum_{j > r} lambda_{m,j} = gamma (m - r)/m + (1 - gamma)(S_m - S_r)/S_m, r = floor(rho m):
    # (i) the identity against the direct sum (m <= 6, rho = 1/2, 1/3, Zipf 1/2, K = 2);
    # (ii) squeeze: rho m - 1 < r <= rho m, so gamma (m - r)/m is between gamma (1 - rho) and
    # gamma (1 - rho) + gamma/m, both -> gamma (1 - rho); 0 <= (S_m - S_r)/S_m <= (1 - S_r)/S_m
    # with S_m -> 1 and 1 - S_r -> 0 as r -> oo (Zipf every alpha: sympy limits); finite K:
    # S_r = S_m = 1 once r >= K, so the second part is exactly 0 for m >= (K + 1)/rho
    res = []
    for w in (ns.zipf(sp.Rational(1, 2)), ns.finite_k(2)):
        for rho in (sp.Rational(1, 2), sp.Rational(1, 3)):
            for m in range(1, 7):
                r = int(sp.floor(rho * m))
                direct = sum(ns.node_scaling(m, j, ns.GAMMA, w) for j in range(r + 1, m + 1))
                res.append(pruned_mass(m, rho, ns.GAMMA, w) - direct)
    rho = sp.Symbol("rho", positive=True)
    mm = sp.Symbol("m", positive=True)
    res += [
        sp.limit(ns.GAMMA * (1 - rho), mm, sp.oo) - ns.GAMMA * (1 - rho),
        sp.limit(ns.GAMMA * (1 - rho) + ns.GAMMA / mm, mm, sp.oo) - ns.GAMMA * (1 - rho),
    ]
    zs = ns.zipf_symbolic()
    N = sp.Symbol("N", positive=True, integer=True)
    res += [
        sp.limit(zs.partial_sum(N + 1), N, sp.oo) - 1,
        sp.limit(1 - zs.partial_sum(N + 1), N, sp.oo),
    ]
    fk = ns.finite_k_symbolic()
    i = sp.Symbol("i", nonnegative=True, integer=True)
    res.append(fk.partial_sum(fk.K + i) - 1)  # S_r = 1 for r >= K
    return prove_zero(*res)  # fmt: skip


def _markov_derivation() -> Verdict:
    # Proposition 7.6's bound from the exact moments: E|e| <= |mu| + sqrt(var) (triangle and
    # Jensen), |mu| <= Lambda_T |x||beta_inf|/sqrt(d) (S = 1), var <= Lambda_T |x|^2/d; so
    # eps * bound - E-bound = |x|/sqrt(d) (sqrt(d) Lambda_T + sqrt(d Lambda_T) - sqrt(Lambda_T))
    # >= 0 (d >= 1): the printed bound holds (with slack sqrt(d) Lambda_T + (sqrt(d) - 1)
    # sqrt(Lambda_T)).  Residual: the identity of the slack; the sign by cases.
    x = sp.Symbol("x_norm", positive=True)
    e = symbolic()
    bound = e["bound"].subs({_XX: x**2, _S: 1})
    eabs = x * _NB * _LT / sp.sqrt(_d) + sp.sqrt(_LT * x**2 / _d)
    slack = sp.expand(_EPS * bound - eabs)
    target = x / sp.sqrt(_d) * (sp.sqrt(_d) * _LT + sp.sqrt(_d * _LT) - sp.sqrt(_LT))
    q = sp.Symbol("q", nonnegative=True)  # sqrt(d) = 1 + q >= 1
    ok = sp.factor(sp.expand(target.subs(_d, (1 + q) ** 2))).is_nonnegative
    v1 = prove_zero(sp.simplify(slack - sp.expand(target)))
    v2 = decide([("slack >= 0 for d >= 1", ok)], "Markov bound of Proposition 7.6")
    status = "proved" if v1.status == v2.status == "proved" else "failed"
    return Verdict(status, f"{v1.detail}; {v2.detail}", residuals=v1.residuals + v2.residuals)


# ---------------------------------------------------------------------------
# numeric claims
# ---------------------------------------------------------------------------
def _evaluators_mpmath(dps: int = 30) -> Verdict:
    # float64 and mpmath evaluators of (19)-(20) against each other and against the exact
    # rational instance (U, V rational orthogonal columns, D, y, W0 rational): the mpmath
    # result must match the exact one to dps - 3 digits (3 digits for the SVD at dps digits)
    tol_mp = Tolerance.digits(dps - 3, "mpmath svd_r and products at dps digits; 3 digits "
                                       "margin for the conditioning (D_max/D_min = 2)")  # fmt: skip
    tol_f = Tolerance(
        rtol=1e-12,
        reason="float64 SVD: backward error ~ 1e-16 times "
        "D_max/D_min = 2, amplified by the O(10) entries; 1e-12 leaves a margin",
    )
    U, V = np.array(_QU[:, :2].tolist(), dtype=object), np.array(_QV[:, :2].tolist(),
                                                                  dtype=object)  # fmt: skip
    Dm = sp.diag(2, 1)
    Xs = sp.Matrix(U.tolist()) * Dm * sp.Matrix(V.tolist()).T
    ys = sp.Matrix([1, sp.Rational(-1, 2), sp.Rational(1, 3)])
    W0s = sp.Matrix([[sp.Rational(1, 2), -1, sp.Rational(1, 4)], [2, sp.Rational(-1, 3), 1]])
    lam = [sp.Rational(3, 4), sp.Rational(1, 4)]
    a = [1, -1]
    xp = sp.Matrix([[1, 2, -1]])
    S = sum(lam)
    sa = sp.Matrix([sp.sqrt(li) * ai for li, ai in zip(lam, a, strict=True)])
    b0 = W0s.T * sa
    Vs, Us = sp.Matrix(V.tolist()), sp.Matrix(U.tolist())
    binf = sp.sqrt(3) * Vs * Dm.inv() * Us.T * ys
    exact_dW = sa * ((binf - Vs * Vs.T * b0) / S).T
    exact_f = xp * (binf + b0 - Vs * Vs.T * b0) / sp.sqrt(3)
    to = lambda M: np.array([[str(sp.N(v, dps + 10)) for v in row] for row in M.tolist()])  # noqa: E731
    dec = lambda v: str(sp.N(v, dps + 10))  # noqa: E731 - exact decimals for mpmath
    args = (to(Xs), [dec(v) for v in ys], [dec(v) for v in lam], a, to(W0s))
    kw = {"probes": to(xp), "rank": 2}
    mp_res = closed_form(*args, dps=dps, **kw)
    f_res = closed_form(*(np.asarray(v, dtype=float) for v in args[:4]),
                        np.asarray(args[4], dtype=float), probes=np.asarray(to(xp), dtype=float),
                        rank=2)  # fmt: skip
    with mpmath.workdps(dps + 10):
        ex_dW = [[mpmath.mpf(str(sp.N(v, dps + 10))) for v in row] for row in exact_dW.tolist()]
        ex_f = [mpmath.mpf(str(sp.N(v, dps + 10))) for v in exact_f]
    errs = [
        error_in_units(mp_res.delta_W, ex_dW, tol_mp),
        error_in_units(mp_res.f, ex_f, tol_mp),
        error_in_units(f_res.delta_W, ex_dW, tol_f),
        error_in_units(f_res.f, ex_f, tol_f),
    ]
    worst = max(errs)
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"exact rational instance (n = d = 3, rank 2, m = 2): mpmath at dps = {dps}: "
        f"{errs[0]:.2g}, {errs[1]:.2g} tolerances (delta_W, f); float64: {errs[2]:.2g}, "
        f"{errs[3]:.2g}",
        max_error=worst,
        tolerance=tol_mp,
    )  # fmt: skip


def claims() -> list[Theorem]:
    """The checks of seed 000, Section 7.2 (Theorem 7.4, Theorem 7.5, Proposition 7.6)."""

    def T(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"linear_node_scaling.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("gradient_structure", "Section 3.2, Theorem 7.4",
          "With sigma = id, grad_{w_j} L = -(sqrt(lambda_j) a_j/sqrt(d)) X^T r (differentiated "
          "from eq. (5)) and X^T r lies in span V: W_t - W_0 = (sqrt(lambda) a) c(t)^T with "
          "c(t) in the row space of X (flow and GD).", _gradient_structure),
        T("stationary_point", "Theorem 7.4, eq. (19)",
          "W_0 + (sqrt(lambda) a)(beta_inf - V V^T beta_0)^T / sum_k lambda_k a_k^2 is a zero of "
          "the loss gradient (generic instance n = d = 3, rank 2, m = 2; and in matrix form for "
          "all shapes).", _stationary_point),
        T("limit_is_unique", "Theorem 7.4, eqs. (19), (20)",
          "In the affine set reachable by the flow, the stationary point is unique and equals "
          "(19); under eq. (3) (a_j = +-1) the denominator is the printed sum_k lambda_k, and "
          "(20) follows from (19).", _limit_is_unique),
        T("generated_formula", "Theorem 7.4, eqs. (19), (20)",
          "The matrix expressions behind the numeric evaluators equal the instance formulas "
          "(delta_W, f, and both forms of (20)).", _evaluator_matches_instance),
        T("gd_step_size", "Theorem 7.4, footnote 3",
          "GD contracts the data-space error by I - eta S D^2/d per step: footnote 3's eta < "
          "d/(D_max^2 sum lambda) suffices (monotone); the sharp bound is twice it.",
          _gd_step_size),
        T("group_covariance", "Theorem 7.5, Proposition 7.6",
          "For a node set T of mass Lambda_T: sum_T sqrt(lambda_j) a_j w_inf_j has mean "
          "Lambda_T/S beta_inf and covariance Lambda_T (I - Lambda_T/S V V^T) (m = 4, "
          "|T| = 2, rank-1 V; T = {j} is Theorem 7.5).", _group_covariance),
        T("contribution_limit", "Theorem 7.5, eq. (21)",
          "With lambda_{m,j} -> (1 - gamma) lambda~_j and S = 1 the finite-m moments become "
          "those of eq. (21) (Zipf every alpha, finite K every K).", _contribution_limit),
        T("pruned_mass_limit", "Proposition 7.6",
          "sum_{j > floor(rho m)} lambda_{m,j} -> gamma (1 - rho) (exact partial-sum form; "
          "squeeze over floor; Zipf every alpha, finite K).", _pruned_mass_limit),
        T("pruning_bound_derivation", "Proposition 7.6",
          "The printed bound is >= (E|mu| + sqrt(var))/eps from the exact error moments "
          "(Markov): it holds, with slack |x|/(eps sqrt d) (sqrt(d) Lambda_T + (sqrt(d) - 1) "
          "sqrt(Lambda_T)).", _markov_derivation),
        T("evaluators_mpmath", "Theorem 7.4, eqs. (19), (20)",
          "The generated float64 and mpmath evaluators of (19)-(20) match the exact rational "
          "instance.", _evaluators_mpmath, "numeric"),
]  # fmt: skip


def errata() -> list[Erratum]:
    """Disagreements with seed 000, Section 7.2, found here (none beyond the ``argmax`` of
    Theorem 7.4, registered in :func:`solvable.node_scaling.errata`): (19), (20), (21),
    footnote 3 and Proposition 7.6 check out (see :func:`claims`)."""
    return []


MODEL = Model(
    name="linear_node_scaling",
    seed=SEED,
    title="Seed 000 Section 7.2: linear activation, Theorems 7.4, 7.5, Proposition 7.6",
    claims=claims,
    errata=errata,
)
