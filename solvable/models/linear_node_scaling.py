r"""Seed 000, Section 7.2: the linear-activation network with node scaling, solved exactly.

Source: seed ``000_f57230b12d385b63.txt`` ("Over-parameterised shallow neural networks with
asymmetrical node scaling"), Theorem 7.4 (eqs. (19), (20), footnote 3), Theorem 7.5 (eq.
(21)), Proposition 7.6, Definitions 7.1 / 7.3 with ``sigma(x) = x``.

Model: eqs. (2), (5) with the identity activation, the one definition
:func:`solvable.models.node_scaling.loss` (setup :class:`solvable.models.node_scaling.Setup` with
``activation="linear"``): ``f(x; W) = x^T beta(W) / sqrt(d)``, ``beta(W) = sum_j sqrt(lambda_j)
a_j w_j``, ``a_j`` fixed, ``L = 1/2 |y - X beta/sqrt(d)|^2`` and the flow ``dw_j/dt = -eta
grad_{w_j} L = eta sqrt(lambda_j) a_j X^T r / sqrt(d)``, ``r = y - X beta / sqrt(d)``.  Every
node moves along the same vector ``X^T r``, so ``W_t - W_0 = (sqrt(lambda) * a) c(t)^T`` with
``c(t)`` in the row space of X (claim ``gradient_structure``), and ``beta`` obeys the linear ODE
``dbeta/dt = eta S X^T r/sqrt(d)``, ``S = sum_k lambda_k a_k^2``.  With the reduced SVD ``X = U
D V^T`` (rank ``k``) its solution is exact (:func:`closed_form`, claims
``trajectory_solves_flow``, ``trajectory_limit``)::

    c(t) = V diag(1 - exp(-eta S D_i^2 t/d)) V^T (beta_inf - beta_0) / S
    w_j(t) = w_0j + sqrt(lambda_j) a_j c(t)

and as ``t -> oo`` it reaches the unique stationary point in that affine set (claims
``stationary_point``, ``limit_is_unique``)::

    w_inf_j - w_0j = sqrt(lambda_j) a_j / sum_k lambda_k (beta_inf - V V^T beta_0)      (19)
    beta_0 = sum_j sqrt(lambda_j) a_j w_0j,   beta_inf = sqrt(d) V D^-1 U^T y
    f(x; W_inf) = x^T (beta_inf + (I - V V^T) beta_0) / sqrt(d)                         (20)

for any node scalings (not only eq. (1)): the denominator is ``S = sum_k lambda_k a_k^2``,
which is the printed ``sum_k lambda_k`` because ``a_k^2 = 1`` (eq. (3)); (20) needs the same.
Gradient descent stays in the same affine set and contracts the data-space error by ``1 - eta
D_i^2 S / d`` per step: it converges to (19) iff ``eta < 2 d / (D_max^2 S)``; footnote 3's
``d / (D_max^2 S)`` is sufficient (it makes every factor lie in ``[0, 1)``, monotone
convergence), half the sharp bound.

Theorem 7.5 / Proposition 7.6: for a set ``T`` of nodes with ``Lambda_T = sum_{j in T}
lambda_j`` and ``S = sum_k lambda_k``, ``sum_{j in T} sqrt(lambda_j) a_j w_inf_j ~
N(Lambda_T/S beta_inf, Lambda_T (I - Lambda_T/S V V^T))`` exactly for Gaussian ``W_0`` (``T =
{j}``: Theorem 7.5; the pruned nodes ``j > floor(rho m)``: the pruning error of Proposition 7.6,
``f~ - f = -x^T (...) / sqrt(d)``, a normal variable whose exceedance probability
:func:`pruning_exceedance` is exact, next to the printed Markov-type bound
:func:`pruning_bound`).

Every formula is a sympy matrix expression of :func:`symbolic`; the evaluators are generated
from them by ``sympy.lambdify`` with a batch-aware printer (``matmul`` over leading batch axes):
float64 numpy, or mpmath at ``dps`` digits (numpy object arrays of ``mpmath.mpf``).  Two ways to
evaluate: :func:`closed_form` (the model protocol: one network, ``Trajectory.at(t)`` for ``t``
in ``[0, oo]``) and :func:`limit` (eqs. (19)-(20) for a batch of initialisations, for Monte
Carlo).  Simulations of the raw flow / GD that check them are in :mod:`numerics.simulate`,
:mod:`numerics.node_scaling_linear` and
:mod:`solvable.verification.confirmations.linear_node_scaling`.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from sympy.polys.fields import field as rational_field
from sympy.printing.lambdarepr import LambdaPrinter

from solvable._core import numbers as nb
from solvable._core.activations import Z, activation, elementwise
from solvable._core.backends import expm1, fill_in_halves, generate
from solvable._core.claims import Erratum, Theorem, Verdict, decide, prove_zero
from solvable._core.model import Model
from solvable._core.numbers import check_dps as _check_dps
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, error_in_units, worst_of
from solvable.models import node_scaling as ns

SEED = "000_f57230b12d385b63.txt"

__all__ = [
    "MAX_PRUNED_WIDTH",
    "LinearLimit",
    "ReducedSVD",
    "States",
    "Symbols",
    "Trajectory",
    "claims",
    "closed_form",
    "contribution_limit_moments",
    "errata",
    "gd_step_bounds",
    "group_moments",
    "limit",
    "mean_field_expressions",
    "mean_field_moments",
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
_G = sp.MatrixSymbol("G", _k, _k)  # diag(1 - exp(-rate_i t)): how far each data mode has moved
_E = sp.MatrixSymbol("E", _k, _k)  # diag(exp(-rate_i t)) = I - G: how much of each mode is left
_Dm = sp.MatrixSymbol("D", _k, _k)  # diag(D_1, ..., D_k)
_bvec = sp.MatrixSymbol("beta_inf", _d, 1)

# scalars of Theorem 7.5 / Proposition 7.6 (group T of nodes) and of the trajectory
_LT, _S = sp.symbols("Lambda_T S", positive=True)
_XB = sp.Symbol("xb", real=True)  # x^T beta_inf
_XX, _XPX = sp.symbols("xx xPx", nonnegative=True)  # |x|^2, |V V^T x|^2
_NB = sp.Symbol("nb", nonnegative=True)  # |beta_inf|
_EPS = sp.Symbol("epsilon", positive=True)
_DMAX = sp.Symbol("D_max", positive=True)
_DI = sp.Symbol("D_i", positive=True)  # one singular value of X
_ETA = sp.Symbol("eta", positive=True)
_T = sp.Symbol("t", nonnegative=True)
_C = sp.MatrixSymbol("c", _d, 1)  # a value of c(t), for the fast float64 path


def _rank_one(c: sp.MatrixExpr) -> sp.MatrixExpr:
    """``W(t) - W_0 = (sqrt(lambda) * a) c^T`` (rows ``sqrt(lambda_j) a_j c^T``): the one
    definition, used by :func:`symbolic` (``delta_W_t`` of ``c_t``) and, of the symbol ``c``,
    by the fast float64 path (:func:`_fast_evaluator`)."""
    return sp.HadamardProduct(_s, _a) * c.T


@dataclass(frozen=True)
class Symbols:
    """The sympy symbols and expressions of Theorem 7.4 / 7.5 / Proposition 7.6 (shapes
    ``n, d, m, k, p`` symbolic; matrices are ``MatrixSymbol`` expressions).

    Symbols: shapes ``n, d, m, k, p``; data ``y`` (n, 1), SVD ``U`` (n, k), ``Dinv`` (k, k),
    ``V`` (d, k); weights ``W0`` (m, d), ``s = sqrt(lambda)`` (m, 1), ``a`` (m, 1); probes
    ``Xp`` (p, d); ``G`` (k, k) the diagonal of mode factors, ``E = I - G`` (k, k) the decays,
    ``D`` (k, k) the singular values; ``beta_vec`` (d, 1) a given
    ``beta_inf``; scalars ``t``, ``eta``, ``D_i``, ``S``, ``Lambda_T``, ``xb`` (``x^T
    beta_inf``), ``xx`` (``|x|^2``), ``xPx`` (``|V V^T x|^2``), ``nb`` (``|beta_inf|``),
    ``epsilon``, ``D_max``.

    Theorem 7.4, the limit: ``beta0``, ``beta_inf``, ``projector`` (``V V^T``), ``c``
    (``(beta_inf - V V^T beta_0)/sum lambda``, the printed denominator ``s^T s``), ``delta_W``
    (eq. (19), rows ``j``), ``W_inf``, ``beta_final``, ``f_nodes`` (first form of (20)), ``f``
    (second form of (20)).
    Theorem 7.4, the trajectory: ``total`` (1x1: ``S = sum_j lambda_j a_j^2``), ``rate``
    (``eta S D_i^2/d``, the decay rate of data mode ``i``), ``mode_factor`` (``1 - exp(-rate
    t)``, as ``-expm1``), ``decay`` (``exp(-rate t)``), ``c_t`` (``V G V^T (beta_inf -
    beta_0)/S``), ``delta_W_t`` (``W(t) - W_0``), ``W_t``, and the outputs on the data in mode
    form ``f_t`` (``U E D V^T beta_0/sqrt(d) + U G U^T y``) and ``residual_t`` (``y - f(t)``).
    Theorem 7.5 / Proposition 7.6 / footnote 3: ``group_mean``, ``group_cov`` (a node set of
    mass ``Lambda_T``), ``error_mean``, ``error_var``, ``exceedance``, ``bound`` (printed),
    ``eta_bound`` (footnote 3, ``d/(D_max^2 S)``) and ``eta_sharp`` (``2 d/(D_max^2 S)``).
    """

    n: sp.Symbol
    d: sp.Symbol
    m: sp.Symbol
    k: sp.Symbol
    p: sp.Symbol
    y: sp.MatrixSymbol
    U: sp.MatrixSymbol
    Dinv: sp.MatrixSymbol
    V: sp.MatrixSymbol
    W0: sp.MatrixSymbol
    s: sp.MatrixSymbol
    a: sp.MatrixSymbol
    Xp: sp.MatrixSymbol
    G: sp.MatrixSymbol
    beta_vec: sp.MatrixSymbol
    D: sp.MatrixSymbol
    E: sp.MatrixSymbol
    t: sp.Symbol
    eta: sp.Symbol
    D_i: sp.Symbol
    S: sp.Symbol
    Lambda_T: sp.Symbol
    xb: sp.Symbol
    xx: sp.Symbol
    xPx: sp.Symbol  # noqa: N815 (|V V^T x|^2)
    nb: sp.Symbol
    epsilon: sp.Symbol
    D_max: sp.Symbol
    beta0: sp.MatrixExpr = field(repr=False)
    beta_inf: sp.MatrixExpr = field(repr=False)
    projector: sp.MatrixExpr = field(repr=False)
    c: sp.MatrixExpr = field(repr=False)
    delta_W: sp.MatrixExpr = field(repr=False)  # noqa: N815 (the paper's notation)
    W_inf: sp.MatrixExpr = field(repr=False)
    beta_final: sp.MatrixExpr = field(repr=False)
    f_nodes: sp.MatrixExpr = field(repr=False)
    f: sp.MatrixExpr = field(repr=False)
    total: sp.MatrixExpr = field(repr=False)
    rate: sp.Expr = field(repr=False)
    mode_factor: sp.Expr = field(repr=False)
    decay: sp.Expr = field(repr=False)
    c_t: sp.MatrixExpr = field(repr=False)
    delta_W_t: sp.MatrixExpr = field(repr=False)  # noqa: N815
    W_t: sp.MatrixExpr = field(repr=False)
    f_t: sp.MatrixExpr = field(repr=False)
    residual_t: sp.MatrixExpr = field(repr=False)
    group_mean: sp.MatrixExpr = field(repr=False)
    group_cov: sp.MatrixExpr = field(repr=False)
    error_mean: sp.Expr = field(repr=False)
    error_var: sp.Expr = field(repr=False)
    exceedance: sp.Expr = field(repr=False)
    bound: sp.Expr = field(repr=False)
    eta_bound: sp.Expr = field(repr=False)
    eta_sharp: sp.Expr = field(repr=False)


@functools.cache
def symbolic() -> Symbols:
    """The sympy expressions of Theorem 7.4 (its limit (19)-(20) and its trajectory), Theorem
    7.5, Proposition 7.6 and footnote 3 (see :class:`Symbols`)."""
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
    # the trajectory: beta - beta_0 = V G V^T (beta_inf - beta_0), G_ii = 1 - exp(-rate_i t)
    total = sa.T * sa
    rate = _ETA * _S * _DI**2 / _d
    c_t = _V * _G * _V.T * (beta_inf - beta0) * sp.Inverse(total)
    delta_W_t = _rank_one(c_t)
    # the outputs on the data in mode form (X = U D V^T, E = I - G): each data mode is the convex
    # combination exp(-rate t) f_0 + (1 - exp(-rate t)) y, so f(t) and the residual y - f(t) are
    # evaluated without the cancellation of X W(t) (claim ``output_mode_form``)
    f0_modes = _Dm * _V.T * beta0 / sp.sqrt(_d)  # U^T f_0
    f_t = _U * _E * f0_modes + _U * _G * _U.T * _y
    residual_t = (_y - _U * _U.T * _y) + _U * _E * (_U.T * _y - f0_modes)
    # Theorem 7.5 for a node set T (T = {j}: one contribution)
    group_mean = _LT / _S * _bvec
    group_cov = _LT * (sp.Identity(_d) - _LT / _S * proj)
    # Proposition 7.6: e = f~ - f = -x^T sum_{j in T} c_j / sqrt(d), T = pruned nodes
    mu = -_LT / _S * _XB / sp.sqrt(_d)
    var = _LT * (_XX - _LT / _S * _XPX) / _d
    z = sp.sqrt(2 * var)
    exceed = (sp.erfc((_EPS - mu) / z) + sp.erfc((_EPS + mu) / z)) / 2
    bound = sp.sqrt(_XX) / (_EPS * sp.sqrt(_d)) * ((_NB + sp.sqrt(_d)) * _LT + sp.sqrt(_d * _LT))
    return Symbols(
        n=_n, d=_d, m=_m, k=_k, p=_p, y=_y, U=_U, Dinv=_Dinv, V=_V, W0=_W0, s=_s, a=_a,
        Xp=_Xp, G=_G, beta_vec=_bvec, D=_Dm, E=_E,
        t=_T, eta=_ETA, D_i=_DI, S=_S, Lambda_T=_LT, xb=_XB,
        xx=_XX, xPx=_XPX, nb=_NB, epsilon=_EPS, D_max=_DMAX,
        beta0=beta0, beta_inf=beta_inf, projector=proj, c=c, delta_W=delta_W, W_inf=W_inf,
        beta_final=beta_final, f_nodes=f_nodes, f=f, total=total, rate=rate,
        mode_factor=-expm1(-rate * _T), decay=sp.exp(-rate * _T), c_t=c_t, f_t=f_t,
        residual_t=residual_t, delta_W_t=delta_W_t, W_t=_W0 + delta_W_t,
        group_mean=group_mean, group_cov=group_cov, error_mean=mu, error_var=var,
        exceedance=exceed, bound=bound,
        eta_bound=_d / (_DMAX**2 * _S), eta_sharp=2 * _d / (_DMAX**2 * _S),
    )  # fmt: skip


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
        return out if coeff == 1 else f"multiply({self._print(coeff)}, {out})"

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


class _FastPrinter(_BatchedPrinter):
    """The float64 path of issue 17: products evaluated right to left (every chain of
    ``c_t``, ``f_t`` and ``residual_t`` ends in a column, so each step is a matrix-vector
    product, never a (times, d, d) or (times, n, n) intermediate), and the diagonal mode
    matrices ``G``, ``E`` passed as their diagonals (times, k) and applied by ``dmul``
    (a row scaling), not as (times, k, k) matrices."""

    _DIAGONAL = ("G", "E")

    def _diagonal(self, e: Any) -> str | None:
        if isinstance(e, sp.Transpose):
            e = e.arg
        if isinstance(e, sp.MatrixSymbol) and e.name in self._DIAGONAL:
            return e.name
        return None

    def _print_MatMul(self, e: sp.MatMul) -> str:
        coeff, mats = e.as_coeff_matrices()
        if self._diagonal(mats[-1]):
            raise NotImplementedError(f"a diagonal factor at the right end of {e}")
        out = self._print(mats[-1])
        for x in reversed(mats[:-1]):
            diag = self._diagonal(x)
            if diag:
                out = f"dmul({diag}, {out})"
            elif x.shape[1] == 1:  # an outer product: one rounded product per entry
                out = f"multiply({self._print(x)}, {out})"
            else:
                out = f"matmul({self._print(x)}, {out})"
        return out if coeff == 1 else f"multiply({self._print(coeff)}, {out})"


def _dmul(g: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``diag(g) x`` for diagonals ``g`` (..., k) and ``x`` (..., k, c)."""
    return g[..., :, None] * x


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
    "total": (_s, _a),
    "c_t": (_d, _y, _U, _Dinv, _V, _W0, _s, _a, _G),
    "delta_W_t": (_d, _y, _U, _Dinv, _V, _W0, _s, _a, _G),
    "W_t": (_d, _y, _U, _Dinv, _V, _W0, _s, _a, _G),
    "f_t": (_d, _y, _U, _Dm, _V, _W0, _s, _a, _G, _E),
    "residual_t": (_d, _y, _U, _Dm, _V, _W0, _s, _a, _E),
    "group_mean": (_LT, _S, _bvec),
    "group_cov": (_d, _LT, _S, _V),
}
_SCALAR_ARGS = {
    "rate": (_ETA, _S, _DI, _d),
    "mode_factor": (_ETA, _S, _DI, _T, _d),
    "decay": (_ETA, _S, _DI, _T, _d),
    "error_mean": (_LT, _S, _XB, _d),
    "error_var": (_LT, _S, _XX, _XPX, _d),
    "exceedance": (_LT, _S, _XB, _XX, _XPX, _d, _EPS),
    "bound": (_LT, _NB, _XX, _d, _EPS),
    "eta_bound": (_d, _DMAX, _S),
    "eta_sharp": (_d, _DMAX, _S),
}


@functools.cache
def _evaluator(name: str, backend: str) -> Callable[..., Any]:
    """The generated evaluator of the expression ``name`` of :func:`symbolic` (matrices:
    batched numpy / object-array code; scalars: numpy ufunc code, or mpmath mapped over
    object arrays)."""
    expr = getattr(symbolic(), name)
    if name in _MATRIX_ARGS:
        return generate(_MATRIX_ARGS[name], expr, backend, printer=_BatchedPrinter,
                        extra=_matrix_namespace(backend))  # fmt: skip
    return generate(_SCALAR_ARGS[name], expr, backend, elementwise=backend == "mpmath")


_FAST_ARGS = {
    "c_t": (_d, _y, _U, _Dinv, _V, _W0, _s, _a, _G),
    "rank_one": (_s, _a, _C),
    "f_t": _MATRIX_ARGS["f_t"],
    "residual_t": _MATRIX_ARGS["residual_t"],
}


@functools.cache
def _fast_evaluator(name: str) -> Callable[..., Any]:
    """The float64 evaluator of ``c_t``, ``f_t``, ``residual_t`` of :func:`symbolic` or of
    ``rank_one`` (:func:`_rank_one` of the symbol ``c``; ``delta_W_t`` is ``rank_one`` of
    ``c_t``) generated by :class:`_FastPrinter`: ``G`` and ``E`` are the (times, k)
    diagonals."""
    expr = _rank_one(_C) if name == "rank_one" else getattr(symbolic(), name)
    extra = {**_matrix_namespace("numpy"), "dmul": _dmul}
    return generate(_FAST_ARGS[name], expr, "numpy", printer=_FastPrinter, extra=extra)


# The block of times of the float64 sample: 512 KiB for W's block (times, m, d) and as much
# for each of its two parts (y and W_0), 1.5 MiB together, within a 2 MiB L2 cache (this
# machine's, per core), so that the parts are added while in cache.
PARALLEL_SAMPLE = 2**22
"""The float64 :meth:`Trajectory.sample` fills the two halves of its times in two threads
where each half holds at least this many entries of ``W`` and ``f`` (32 MiB of float64):
below it the threads' start costs more than they save (issue 17,
``python benchmarks/closed_form_scale.py``)."""
_BLOCK_BYTES = 1 << 19
# The chunk of times whose mode factors, c(t), f(t) and residual are evaluated together (issue
# 17, B2): at m = d = 100 a block of W holds ~6 times, and the ~100 numpy calls of those
# evaluations per block cost more than the block's arithmetic; 1024 times amortise them, and
# 2 MiB per (times, max(n, d)) array keeps the chunk's arrays near L2 (W stays in blocks).
_CHUNK_TIMES = 1024
_CHUNK_BYTES = 1 << 21


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


@nb.mpmath_in_mpmath_out
def reduced_svd(X: Any, *, dps: int | None = None, rank: int | None = None) -> ReducedSVD:
    """The reduced SVD of Theorem 7.4 (``k`` = rank of ``X``).  The rank is ``rank`` if given,
    else the number of singular values above ``max(n, d) * 2.2e-16 * D_max`` (numpy's
    ``matrix_rank`` rule, also for ``dps``: float64 input data are only known to that
    resolution).  ``dps``: mpmath ``svd_r`` at ``dps`` digits (object arrays)."""
    dps = _check_dps(dps)
    arr = nb.check_float_array("X", X, ndim=2)
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
    arr = nb.check_float_array("lam", lam, ndim=(1, 2))
    if np.any(arr < 0):
        raise ValueError(f"lam must be >= 0 (node scalings), got {lam!r:.80}")
    if np.any(arr.sum(-1) <= 0):
        raise ValueError("lam must have a positive sum (sum_k lambda_k > 0)")
    return arr if dps is None else _to_object(lam)


def _check_signs(a: Any) -> np.ndarray:
    arr = nb.check_float_array("a", a, ndim=(1, 2))
    if not np.all(np.abs(arr) == 1):
        raise ValueError(f"a must hold +-1 (eq. (3)), got {a!r:.80}")
    return arr


# ---------------------------------------------------------------------------
# Theorem 7.4, the limit (19)-(20) for a batch of initialisations
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LinearLimit:
    """Theorem 7.4 for one data set and a batch of initialisations (leading axes ``...``).

    Returned by :func:`limit` (for Monte Carlo over initialisations; one network at every
    ``t``: :func:`closed_form`).  ``svd`` (reduced SVD of X), ``beta0`` (..., d),
    ``beta_inf`` (d,) (min-norm least squares), ``projector`` ``V V^T`` (d, d), ``delta_W``
    ``w_inf_j - w_0j`` (..., m, d) (eq. (19)), ``W_inf`` (..., m, d), ``f`` (..., p) learnt
    function on the probes (second form of eq. (20); ``None`` without probes), ``f_nodes``
    (first form of (20), from ``W_inf``)."""

    svd: ReducedSVD
    beta0: np.ndarray
    beta_inf: np.ndarray
    projector: np.ndarray
    delta_W: np.ndarray  # noqa: N815 (the paper's notation)
    W_inf: np.ndarray
    f: np.ndarray | None
    f_nodes: np.ndarray | None


@nb.mpmath_in_mpmath_out
def limit(
    X: Any, y: Any, lam: Any, a: Any, W0: Any, *, probes: Any = None, dps: int | None = None,
    rank: int | None = None,
) -> LinearLimit:  # fmt: skip
    """Eqs. (19), (20) of Theorem 7.4 (the limit ``t -> oo``) for a batch of networks: data
    ``X`` (n, d), ``y`` (n,), node scalings ``lam``
    (m,) or (B, m) (any ``lambda >= 0`` with ``sum > 0``; eq. (1) not required), output signs
    ``a`` (m,) or (B, m) in {-1, +1} (eq. (3)), initial weights ``W0`` (m, d) or (B, m, d), and
    optional ``probes`` (p, d).  ``dps=None``: float64; ``dps=k``: mpmath at ``k`` digits."""
    dps = _check_dps(dps)
    Xa = nb.check_float_array("X", X, ndim=2)
    n, d = Xa.shape
    ya = nb.check_float_array("y", y, ndim=1)
    if len(ya) != n:
        raise ValueError(f"y must have n = {n} entries (rows of X), got {len(ya)}")
    lam_a = _check_lam(lam, None)
    m = lam_a.shape[-1]
    a_a = _check_signs(a)
    if a_a.shape[-1] != m:
        raise ValueError(f"a must have {m} entries per network (as lam), got shape {a_a.shape}")
    W_a = nb.check_float_array("W0", W0, ndim=(2, 3))
    if W_a.shape[-2:] != (m, d):
        raise ValueError(f"W0 must have shape (m, d) = ({m}, {d}) (m entries of lam, d columns of "
                         f"X) or (B, m, d), got {W_a.shape}")  # fmt: skip
    P_a = None if probes is None else nb.check_float_array("probes", probes, ndim=2)
    if P_a is not None and P_a.shape[1] != d:
        raise ValueError(f"probes must have d = {d} columns (as X), got shape {P_a.shape}")
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
# Theorem 7.4 as a trajectory: the model protocol
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class States:
    """Many times at once (leading time axis): ``t`` (T,), ``W`` (T, m, d), ``a`` (m,), the
    outputs ``f`` (T, n) on the data and the ``loss`` (T,) of eq. (5), from the mode forms
    ``f_t`` / ``residual_t`` (equal to :func:`solvable.models.node_scaling.network_output` at ``W``,
    claim ``output_mode_form``, without its cancellation when ``|X W_0| >> |y|``)."""

    t: np.ndarray
    W: np.ndarray
    a: np.ndarray
    f: np.ndarray
    loss: np.ndarray

    def __getitem__(self, k: int) -> ns.State:
        return ns.State(t=self.t[k], W=self.W[k], a=self.a, f=self.f[k], loss=self.loss[k])

    def __len__(self) -> int:
        return len(self.t)


def _is_infinite(t: Any, name: str = "t") -> bool:
    """``t`` is ``+inf`` (float, numpy or mpmath); ``-inf`` is a ``ValueError``."""
    if isinstance(t, (float, np.floating)) and math.isinf(t):
        inf = True
    elif isinstance(t, mpmath.mpf) and mpmath.isinf(t):
        inf = True
    else:
        return False
    if t < 0:
        raise ValueError(f"{name} must be >= 0, got {t!r}")
    return inf


def _check_time(name: str, t: Any) -> Any:
    """One time: a finite number ``>= 0`` (checked, as given) or ``+inf``."""
    if isinstance(t, np.ndarray) and t.ndim == 0:
        t = t.item()
    return t if _is_infinite(t, name) else nb.check_number(name, t, nonnegative=True)


def _check_times(times: Any, name: str = "times") -> list[Any]:
    """One time or a 1-d sequence of times, each a finite number ``>= 0`` or ``+inf``."""
    if isinstance(times, np.ndarray) and times.ndim == 0:
        times = [times.item()]
    elif isinstance(times, (numbers.Real, str, mpmath.mpf)) and not isinstance(times, bool):
        times = [times]
    if isinstance(times, (str, bytes)) or not isinstance(times, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be a number or a sequence of numbers, got "
                        f"{type(times).__name__} {nb.describe(times)}")  # fmt: skip
    try:
        arr = np.asarray(times, dtype=object)
    except ValueError:
        raise ValueError(f"{name} must be one-dimensional, got {nb.describe(times)}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    return [_check_time(f"{name}[{i}]", t) for i, t in enumerate(arr.tolist())]


@dataclass(frozen=True)
class Trajectory:
    """Theorem 7.4 for one network: the exact gradient flow of loss (5) with ``sigma = id``,
    from ``W0`` with the output weights ``a`` fixed, at every ``t`` in ``[0, oo]``.

    Reported quantities (float64, or ``mpmath.mpf`` / object arrays at ``dps`` digits):

    * ``S``: ``sum_j lambda_j a_j^2``, the ``sum_k lambda_{m,k}`` of (19) when ``a_j = +-1``
      (eq. (3));
    * ``beta0`` (d,): ``sum_j sqrt(lambda_j) a_j w_0j``;
    * ``beta_inf`` (d,): ``sqrt(d) V D^-1 U^T y``, the minimum-norm least-squares solution;
    * ``projector`` (d, d): ``V V^T``, onto the row space of ``X``;
    * ``rates`` (k,): ``eta S D_i^2 / d``: the component of ``beta(t)`` along ``v_i`` reaches
      that of ``beta_inf`` like ``exp(-rate_i t)``;
    * ``step_bound``: footnote 3's gradient-descent step bound ``d / (D_max^2 S)`` (GD
      converges to (19) for every step below it; the sharp bound is twice it);
    * ``svd``: the reduced SVD of ``X`` (:class:`ReducedSVD`).

    ``at(t)`` (``t >= 0``, ``t = inf`` is the limit (19)-(20)) gives a
    :class:`solvable.models.node_scaling.State`, the type :func:`numerics.simulate` returns for the
    same setup; ``sample(times)`` gives :class:`States`."""

    setup: ns.Setup
    a: np.ndarray
    W0: np.ndarray
    dps: int | None
    svd: ReducedSVD
    S: Any
    beta0: np.ndarray
    beta_inf: np.ndarray
    projector: np.ndarray
    rates: np.ndarray
    step_bound: Any
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Any) -> ns.State:
        """The state at one time ``t`` in ``[0, oo]``."""
        if isinstance(t, (list, tuple)) or (isinstance(t, np.ndarray) and t.ndim):
            raise TypeError(f"t must be one time (a number >= 0 or inf; many: sample(times)), "
                            f"got {type(t).__name__} {nb.describe(t)}")  # fmt: skip
        t = _check_time("t", t)
        if self.dps is None and not _is_infinite(t):
            t = nb.to_float(t, "t")
        return self.sample([t])[0]

    def sample(self, times: Any, *, out: States | None = None) -> States:
        """The states at many times (each ``>= 0`` or ``inf``), vectorised over ``times``.

        ``out`` (float64 only, ``dps=None``): a preallocated :class:`States` (e.g. an earlier
        result) whose ``t`` (T,), ``W`` (T, m, d), ``f`` (T, n), ``loss`` (T,) are writeable
        float64 arrays that do not overlap; they are filled in place and returned (as a
        :class:`States` with this trajectory's ``a``).

        float64 (issue 17): the mode factors, ``c(t)``, ``f(t)`` and the residual for chunks of
        times (:data:`_CHUNK_TIMES`), ``W`` assembled from them block by block of times
        (:data:`_BLOCK_BYTES`, :meth:`_assemble_W`), ``W(t) - W_0`` as
        the rank-one ``(sqrt(lambda) a) c(t)^T`` of the (times, d) ``c_t`` and ``f``, the
        residual from (times, n) products, every chain evaluated right to left with the mode
        matrices as diagonals (:func:`_fast_evaluator`), written into the output arrays: no
        temporary of the output's size, cost O(T (m d + (n + d) k)); where exact, the two
        parts' ``c``'s are added before the rank one (:meth:`_assemble_W`: one product and one
        addition per entry of ``W``).  It matches the reference path (:meth:`_sample_reference`,
        the products associated left to right on (T, k, k) mode matrices) to rounding.

        Evaluated without cancellation or overflow at every ``t`` in ``[0, oo]``: the mode
        factors ``1 - exp(-x)`` and ``exp(-x)`` of ``x = rate_i t`` (``x`` as mantissa and
        exponent: ``t = 1e300`` or a rate beyond float64 is not an ``inf * 0``; the product is
        exact to rounding); ``W(t) - W_0`` is linear in
        ``(y, W_0)`` and the outputs ``f`` and the residual ``y - f`` are taken in mode form
        (``f_t``, ``residual_t`` of :func:`symbolic`), each part evaluated on the power-of-two
        mantissas of the data and rescaled exactly.  In float64 a state whose ``W``, ``f`` or
        ``loss`` exceeds the float64 range (about 1.8e308) is refused with a ``ValueError``."""
        if self.dps is None:
            return self._sample_f64(times, out)
        if out is not None:
            raise ValueError(
                f"out must be None for dps={self.dps} (preallocated outputs are float64 only, "
                f"dps=None), got {type(out).__name__}"
            )
        return self._sample_reference(times)

    def _sample_f64(self, times: Any, out: States | None) -> States:
        """float64 :meth:`sample`, block by block into the output arrays."""
        k = self._data
        e = k["exp"]  # the power-of-two scales of X, y, lam (even), a, W0
        if (isinstance(times, np.ndarray) and times.ndim == 1 and times.size
                and times.dtype.kind in "fiu" and np.all(times >= 0)):  # fmt: skip
            tt = times.astype(float)  # numeric times >= 0 or +inf: valid as they are
        else:  # anything else validated (and a bad time reported) one by one
            ts = _check_times(times)
            tt = np.array([math.inf if _is_infinite(t) else nb.to_float(t, f"times[{i}]")
                           for i, t in enumerate(ts)])  # fmt: skip
        T, (m, d), n = len(tt), k["W0"].shape, k["n"]
        res = _check_out(out, T, m, d, n) if out is not None else States(
            t=np.empty(T), W=np.empty((T, m, d)), a=self.a, f=np.empty((T, n)),
            loss=np.empty(T))  # fmt: skip
        res.t[...] = tt
        fast = lambda name, *args: _fast_evaluator(name)(*args)  # noqa: E731
        base = (k["d"], k["y"], k["U"])
        zy, zW = k["zero_y"], k["zero_W"]
        w_args = (k["V"], k["W0"], k["s"], k["a"])
        ew_f = e["X"] + e["W0"] + e["lam"] // 2 + e["a"]  # the scale of f_0 = X beta_0/sqrt(d)
        top = max(e["y"], ew_f)
        step = max(1, _BLOCK_BYTES // (8 * m * d))
        chunk = max(1, min(_CHUNK_TIMES, _CHUNK_BYTES // (8 * max(n, d))))
        chunk = max(step, chunk - chunk % step)  # a whole number of W's blocks
        errors = np.geterr()  # np.errstate is per thread: the workers take the caller's

        def chunks(start: int, stop: int) -> bool:
            """The chunks of times ``start:stop`` (``chunk`` apart): whether W is finite."""
            finite_W = True
            with np.errstate(**errors):
                for c0 in range(start, stop, chunk):
                    cs = slice(c0, min(c0 + chunk, stop))
                    g, h, boost = self._mode_factors(tt[cs])
                    nb_ = lambda ndim, boost=boost: -boost.reshape((-1,) + (1,) * (ndim - 1))  # noqa: E731
                    # W(t) - W_0 = (y-part) + (W_0-part), each the rank one (sqrt(lam) a) c^T
                    c_y = fast("c_t", *base, k["Dinv"], k["V"], zW, k["s"], k["a"], g)
                    c_w = fast("c_t", k["d"], zy, k["U"], k["Dinv"], *w_args, g)
                    ey_W = e["y"] - e["X"] - e["lam"] // 2 - e["a"] + nb_(3)  # the y-part's scale
                    finite_W &= self._assemble_W(res.W[cs], c_y, c_w, ey_W, -boost, step)
                    f_y = fast("f_t", *base, k["Dm"], k["V"], zW, k["s"], k["a"], g, h)
                    f_w = fast("f_t", k["d"], zy, k["U"], k["Dm"], *w_args, g, h)
                    fb = self._scaled(f_y, e["y"] + nb_(3)) + self._scaled(f_w, ew_f)
                    res.f[cs] = fb[..., 0]
                    r_y = fast("residual_t", *base, k["Dm"], k["V"], zW, k["s"], k["a"], h)[..., 0]
                    r_w = fast("residual_t", k["d"], zy, k["U"], k["Dm"], *w_args, h)[..., 0]
                    # eq. (5): L = 1/2 |y - f|^2, the residual taken at the larger of the two scales
                    r = self._scaled(r_y, e["y"] - top) + self._scaled(r_w, ew_f - top)
                    res.loss[cs] = self._scaled((r**2).sum(-1) / 2, 2 * top)
            return finite_W

        for name in _FAST_ARGS:  # generated here, not by two threads at once
            _fast_evaluator(name)
        parts = fill_in_halves(chunks, T, chunk, T * (m * d + n), PARALLEL_SAMPLE)
        finite = {"W": all(parts)}
        finite["f"] = bool(np.isfinite(res.f).all())
        finite["loss"] = bool(np.isfinite(res.loss).all())
        for name in ("W", "f", "loss"):
            if not finite[name]:
                raise ValueError(
                    f"{name}(t) exceeds the float64 range (|value| < 1.8e308) for this setup "
                    "(the scales of X, y, lam, a0, W0): rescale the data, or use dps=k "
                    "(mpmath, no exponent limit)"
                )
        if res.a is self.a:
            return res
        return States(t=res.t, W=res.W, a=self.a, f=res.f, loss=res.loss)

    def _assemble_W(self, W: np.ndarray, c_y: np.ndarray, c_w: np.ndarray, ey_W: np.ndarray,
                    nboost: np.ndarray, step: int) -> bool:  # fmt: skip
        """``W = W_0 + (y-part) + (W_0-part)`` for a chunk of times, into ``W`` (times, m, d),
        :data:`_BLOCK_BYTES` at a time (each part the rank one ``(sqrt(lam) a) c^T`` of its
        (times, d, 1) ``c_y`` / ``c_w``, scaled back by ``2^ey_W`` / ``2^(e_W0 + nboost)``):
        whether every entry is finite.

        Both parts share the rows ``u = sqrt(lam) a``, so at a time where the scaled-back
        ``c``'s and every product ``u_i c_j`` are normal floats (:meth:`_fusable`) the ``c``'s
        are added first (issue 17): ``W = W_0 + u (c_y 2^ey_W + c_w 2^ew)^T``, one product and
        one addition per entry of ``W`` instead of two of each and two rescalings (the
        rescalings are exact there, so the two orders differ by the rounding of the one sum
        of the ``c``'s, within the reference's bound).  Other times (an underflowing mode, a
        scale near the float64 range) take the two parts separately, as before; the choice is
        made per time, so the result does not depend on the blocks."""
        k = self._data
        e = k["exp"]
        fast = _fast_evaluator("rank_one")
        ew = (e["W0"] + nboost).reshape(-1, 1, 1)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            cy, cw = np.ldexp(c_y, ey_W), np.ldexp(c_w, ew)
            c = cy + cw
        fused = self._fusable(c_y, c_w, cy, cw, c)
        finite = True
        for i0 in range(0, len(W), step):
            blk = slice(i0, min(i0 + step, len(W)))
            Wb = W[blk]
            rows = fused[blk]
            if not rows.all():  # the two parts separately (then the fused rows replaced)
                nb_ = lambda ndim, blk=blk: nboost[blk].reshape((-1,) + (1,) * (ndim - 1))  # noqa: E731
                dW = fast(k["s"], k["a"], c_y[blk])
                np.add(k["W0_full"], self._scaled(dW, ey_W[blk], inplace=True), out=Wb)
                dW = fast(k["s"], k["a"], c_w[blk])
                np.add(Wb, self._scaled(dW, e["W0"] + nb_(3), inplace=True), out=Wb)
                if rows.any():
                    Wb[rows] = k["W0_full"] + fast(k["s"], k["a"], c[blk][rows])
                finite &= bool(np.isfinite(Wb[~rows]).all())  # (the fused rows: below)
            else:
                np.add(k["W0_full"], fast(k["s"], k["a"], c[blk]), out=Wb)
        # a fused time is finite: |u c_j| <= 2^1022 (_fusable) and |W_0| <= 2^1023 sum to at
        # most 1.5 2^1023, below the largest double with its rounding; else checked
        if fused.any() and not float(np.max(np.abs(k["W0_full"]), initial=0.0)) <= 2.0**1023:
            finite &= bool(np.isfinite(W[fused]).all())
        return finite

    def _fusable(self, c_y: np.ndarray, c_w: np.ndarray, cy: np.ndarray, cw: np.ndarray,
                 c: np.ndarray) -> np.ndarray:  # fmt: skip
        """Per time (a (times,) bool) whether :meth:`_assemble_W` may add the ``c``'s first:
        both rescalings ``cy = c_y 2^ey``, ``cw = c_w 2^ew`` exact (each entry zero or a
        normal float, none from a nonzero mantissa lost to zero), the products ``u_i c_j`` of
        the nonzero ``u = sqrt(lam) a`` and nonzero ``c_j`` normal (``>= 2^-1022``), and
        ``max|u| (|cy_j| + |cw_j|) <= 2^1022`` (no overflow of ``c``, of a product or of
        a part)."""
        k = self._data
        u = np.abs(k["s"] * k["a"])[:, 0]
        u_max = float(np.max(u, initial=0.0))
        u_min = float(np.min(u[u > 0], initial=math.inf))
        tiny, huge = 2.0**-1022, 2.0**1022
        with np.errstate(over="ignore", invalid="ignore"):
            ok = np.ones(len(c), dtype=bool)
            for mant, v in ((c_y, cy), (c_w, cw)):
                av = np.abs(v[..., 0])
                ok &= np.all((mant[..., 0] == 0) | (av >= tiny), axis=1)
            ok &= np.all(u_max * (np.abs(cy[..., 0]) + np.abs(cw[..., 0])) <= huge, axis=1)
            ok &= np.all((c[..., 0] == 0) | (u_min * np.abs(c[..., 0]) >= tiny), axis=1)
        return ok

    def _sample_reference(self, times: Any) -> States:
        """The path before issue 17 (products left to right on (T, k, k) mode matrices, the
        (T, m, d) parts as whole arrays): the mpmath path, and the reference of the float64
        one (tests, ``benchmarks/closed_form_scale.py``)."""
        ts = _check_times(times)
        k, dps = self._data, self.dps
        backend = "numpy" if dps is None else "mpmath"
        e = k["exp"]  # the power-of-two scales of X, y, lam (even), a, W0 (0 at dps)
        with nb.Precision(dps):
            if dps is None:
                conv = lambda v: math.inf if _is_infinite(v) else nb.to_float(v, "times")  # noqa: E731
            else:
                conv = lambda v: mpmath.inf if _is_infinite(v) else nb.to_mpf(v)  # noqa: E731
            tt = np.array([conv(t) for t in ts], dtype=nb.dtype(dps))
            G, E, boost = self._mode_matrices(tt)
            nb_ = lambda ndim: -boost.reshape((-1,) + (1,) * (ndim - 1))  # noqa: E731
            base = (k["d"], k["y"], k["U"])
            zy, zW = k["zero_y"], k["zero_W"]
            w_args = (k["V"], k["W0"], k["s"], k["a"])
            ev = functools.partial(_call, backend)
            # W(t) - W_0 = (y-part) + (W_0-part); rows sqrt(lambda) a times c(t)
            dW_y = ev("delta_W_t", *base, k["Dinv"], k["V"], zW, k["s"], k["a"], G)
            dW_w = ev("delta_W_t", k["d"], zy, k["U"], k["Dinv"], *w_args, G)
            # both parts are linear in G (a boosted row is scaled back)
            ey_W = e["y"] - e["X"] - e["lam"] // 2 - e["a"] + nb_(3)  # the y-part's scale
            W = k["W0_full"][None] + self._scaled(dW_y, ey_W) \
                + self._scaled(dW_w, e["W0"] + nb_(3))  # fmt: skip
            ew_f = e["X"] + e["W0"] + e["lam"] // 2 + e["a"]  # the scale of f_0 = X beta_0/sqrt(d)
            f_y = ev("f_t", *base, k["Dm"], k["V"], zW, k["s"], k["a"], G, E)
            f = self._scaled(f_y, e["y"] + nb_(3)) + self._scaled(
                ev("f_t", k["d"], zy, k["U"], k["Dm"], *w_args, G, E), ew_f
            )
            r_y = ev("residual_t", *base, k["Dm"], k["V"], zW, k["s"], k["a"], E)[..., 0]
            r_w = ev("residual_t", k["d"], zy, k["U"], k["Dm"], *w_args, E)[..., 0]
            # eq. (5): L = 1/2 |y - f|^2, the residual taken at the larger of the two scales
            top = max(e["y"], ew_f)
            r = self._scaled(r_y, e["y"] - top) + self._scaled(r_w, ew_f - top)
            L = self._scaled((r**2).sum(-1) / 2, 2 * top)
            f = f[..., 0]
        if dps is None:
            for name, v in (("W", W), ("f", f), ("loss", L)):
                if not np.all(np.isfinite(v)):
                    raise ValueError(
                        f"{name}(t) exceeds the float64 range (|value| < 1.8e308) for this setup "
                        "(the scales of X, y, lam, a0, W0): rescale the data, or use dps=k "
                        "(mpmath, no exponent limit)"
                    )
        tt, W, f, L = nb.rounded((tt, W, f, L), dps)
        return States(t=tt, W=W, a=self.a, f=f, loss=L)

    def _scaled(self, v: Any, exponent: Any, *, inplace: bool = False) -> Any:
        """``v 2^exponent`` exactly (float64: ``ldexp``, into ``v`` if ``inplace``; mpmath:
        the scales are 0)."""
        if self.dps is not None or np.all(exponent == 0):
            return v
        with np.errstate(over="ignore"):  # overflow is reported by sample() as a ValueError
            return np.ldexp(v, exponent, out=v if inplace else None)

    def _mode_matrices(self, tt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``G = diag(1 - exp(-rate_i t))`` and ``E = diag(exp(-rate_i t))`` (T, k, k): the
        diagonals of :meth:`_mode_factors` on the diagonal, and the boost."""
        g, h, boost = self._mode_factors(tt)
        idx = np.arange(g.shape[-1])
        G = np.zeros((*g.shape, g.shape[-1]), dtype=g.dtype)
        E = np.zeros((*h.shape, h.shape[-1]), dtype=h.dtype)
        if self.dps is not None:
            G[...] = mpmath.mpf(0)
            E[...] = mpmath.mpf(0)
        G[:, idx, idx] = g
        E[:, idx, idx] = h
        return G, E, boost

    def _mode_factors(self, tt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The diagonals ``g = 1 - exp(-rate_i t)`` and ``h = exp(-rate_i t)`` (T, k) from the
        generated ``mode_factor`` and ``decay`` at ``x = rate_i t`` (``eta = S = D = d = 1``):
        float64 multiplies the mantissas and adds the exponents (no ``inf * 0`` at ``t = inf``
        or a rate that underflows, no overflow of ``rate t``); ``t = 0`` gives ``g = 0``,
        ``t = inf`` gives ``g = 1``; a boosted row carries ``g 2^boost``."""
        k, dps = self._data, self.dps
        backend = "numpy" if dps is None else "mpmath"
        if dps is None:
            # x = rate_i t = (mantissa product) 2^K: mantissas of rate_i and t multiplied, the
            # exponents added exactly; ldexp saturates to 0 / inf (G = 0 / I, never inf * 0)
            tm, te = np.frexp(np.where(np.isinf(tt), 1.0, tt))
            K = k["rate_exp"][None, :] + te[:, None]
            with np.errstate(over="ignore"):  # rate t beyond 1.8e308: G = I, E = 0 exactly
                x = np.ldexp(k["rate_mant"][None, :] * tm[:, None], np.clip(K, -2000, 2000))
            x = np.where(np.isinf(tt)[:, None], math.inf, x)
            # all modes of a row below 2^-960: G = x to relative 2^-960 (far below eps) would be
            # subnormal, so that row carries G 2^boost (its y-parts are scaled back by 2^-boost)
            top = K.max(axis=1)
            boost = np.where((top < -960) & (tt > 0) & np.isfinite(tt), -top, 0)
        else:
            boost = np.zeros(len(tt), dtype=int)
            x = k["rates"][None, :] * tt[:, None]  # mpmath: inf at t = inf, no overflow
        one = 1.0 if dps is None else mpmath.mpf(1)
        g = np.asarray(_evaluator("mode_factor", backend)(one, one, one, x, one))
        h = np.asarray(_evaluator("decay", backend)(one, one, one, x, one))
        if dps is None and np.any(boost):
            rows = boost > 0
            Gb = np.ldexp(k["rate_mant"][None, :] * tm[:, None], K + boost[:, None])
            g = g.copy()
            g[rows] = Gb[rows]
        return g, h, boost


def _check_out(out: Any, T: int, m: int, d: int, n: int) -> States:
    """``out`` if it is a :class:`States` of writeable, non-overlapping float64 arrays ``t``,
    ``loss`` (T,), ``W`` (T, m, d), ``f`` (T, n); else ``TypeError`` / ``ValueError`` naming
    the field, the expected shape and dtype."""
    if not isinstance(out, States):
        raise TypeError(f"out must be a linear_node_scaling.States (e.g. an earlier sample), "
                        f"got {type(out).__name__}")  # fmt: skip
    shapes = {"t": (T,), "W": (T, m, d), "f": (T, n), "loss": (T,)}
    nb.check_output_arrays(out, shapes)
    return out


def _power_of_two(v: np.ndarray, even: bool = False) -> int:
    """The exponent ``e`` with ``max |v| 2^-e`` in ``[1/4, 1)`` (``even``: ``e`` even, so that a
    square root scales exactly); 0 for a zero array."""
    top = float(np.max(np.abs(v))) if v.size else 0.0
    if top == 0:
        return 0
    e = math.frexp(top)[1]
    return e + (e % 2) if even else e


@nb.mpmath_in_mpmath_out
def closed_form(setup: ns.Setup, a0: Any, W0: Any, *, dps: int | None = None) -> Trajectory:
    """Theorem 7.4: the exact gradient flow of eqs. (2), (5) with ``sigma = id`` (``setup``:
    :class:`solvable.models.node_scaling.Setup` with ``activation="linear"``; any node scalings
    ``lam >= 0``, not only eq. (1)) from the output weights ``a0`` (m,) (fixed; eq. (3) has
    ``+-1``, any real values with ``S = sum_j lambda_j a_j^2 > 0`` are solved) and the input
    weights ``W0`` (m, d), trained at the rate ``setup.eta``.

    ``dps=None``: float64; ``dps=k``: mpmath at ``k`` significant digits (the SVD of ``X`` and
    every product at ``k + 10``).  The rank of ``X`` follows :func:`reduced_svd`'s rule.

    Every finite float64 input (scales 1e-308..1e308) is accepted: float64 evaluates on the
    power-of-two mantissas of ``X``, ``y``, ``lam``, ``a0``, ``W0`` (the flow is homogeneous in
    them) and ``rate_i t`` as a mantissa and an exponent, so a state is right to float64 accuracy
    or, where ``W``, ``f`` or the loss exceed the float64 range, refused by ``at`` / ``sample``
    with a ``ValueError``.  The reported constants ``S``, ``beta0``, ``beta_inf``, ``rates`` and
    ``step_bound`` are ``inf`` / ``0`` where they leave the float64 range (the trajectory keeps
    their mantissas and exponents, so the states stay exact: ``beta_inf`` = 1e309 only refuses
    the late states whose ``W`` follows it)."""
    if not isinstance(setup, ns.Setup):
        raise TypeError(f"setup must be a node_scaling.Setup, got {type(setup).__name__}")
    if setup.activation != "linear":
        raise ValueError(
            f"setup.activation must be 'linear' (Theorem 7.4), got {setup.activation!r}"
        )
    dps = _check_dps(dps)
    a_in = nb.check_vector("a0", a0, setup.m)
    W_in = nb.check_matrix("W0", W0, (setup.m, setup.d))
    backend = "numpy" if dps is None else "mpmath"
    conv, dt = nb.converter(dps), nb.dtype(dps)
    n, d = setup.n, setup.d
    with nb.Precision(dps):
        X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
        yv = np.array([conv(v) for v in setup.y], dtype=dt)
        lam = np.array([conv(v) for v in setup.lam], dtype=dt)
        a = np.array([conv(v) for v in a_in], dtype=dt)
        Wa = np.array([[conv(v) for v in row] for row in W_in], dtype=dt)
        if dps is None:  # power-of-two mantissas (exact); the flow is homogeneous in each
            exp = {"X": _power_of_two(X), "y": _power_of_two(yv),
                   "lam": _power_of_two(lam, even=True), "a": _power_of_two(a),
                   "W0": _power_of_two(Wa)}  # fmt: skip
        else:
            exp = dict.fromkeys(("X", "y", "lam", "a", "W0"), 0)
        sc = (lambda v, e: np.ldexp(v, -e)) if dps is None else (lambda v, e: v)
        Xh, yh, lamh, ah, Wh = (sc(X, exp["X"]), sc(yv, exp["y"]), sc(lam, exp["lam"]),
                                sc(a, exp["a"]), sc(Wa, exp["W0"]))  # fmt: skip
        sqrt = np.sqrt if dps is None else np.vectorize(mpmath.sqrt, otypes=[object])
        s = sqrt(lamh)
        svd = reduced_svd(Xh, dps=None if dps is None else mpmath.mp.dps)
        D = np.asarray(svd.D, dtype=dt)
        Dinv = np.diag(1 / D) if dps is None else _diag_object(1 / D)
        Dm = np.diag(D) if dps is None else _diag_object(D)
        col = lambda v: v[:, None]  # noqa: E731 - vectors as (rows, 1) columns
        ev = functools.partial(_call, backend)
        S = ev("total", col(s), col(ah))[0, 0]
        if not S > 0:
            raise ValueError("a0 must give sum_j lambda_j a_j^2 > 0 (some node must move)")
        eta = conv(setup.eta)
        beta0 = ev("beta0", Wh, col(s), col(ah))[:, 0]
        beta_inf = ev("beta_inf", d, col(yh), svd.U, Dinv, svd.V)[:, 0]
        proj = ev("projector", svd.V)
        log2 = math.log(2)
        if dps is None:
            # rate = eta S D^2/d is a monomial: its log from the mantissas and the exponents
            # (degrees read off the sympy expression), exact to rounding at every scale
            sym = symbolic()
            deg_S, deg_D = int(sp.degree(sym.rate, _S)), int(sp.degree(sym.rate, _DI))
            rate_mant, rate_exp = np.frexp(_evaluator("rate", backend)(1.0, S, D, d))
            eta_mant, eta_exp = math.frexp(eta)
            rate_mant = rate_mant * eta_mant
            rate_exp = rate_exp + eta_exp + deg_S * (exp["lam"] + 2 * exp["a"]) + deg_D * exp["X"]
            with np.errstate(over="ignore", under="ignore"):
                rates = np.ldexp(rate_mant, rate_exp)
                step = float(np.exp(np.log(_evaluator("eta_bound", backend)(d, D[0], S))
                                    - (deg_S * (exp["lam"] + 2 * exp["a"])
                                       + deg_D * exp["X"]) * log2))  # fmt: skip
                S_full = float(np.ldexp(S, exp["lam"] + 2 * exp["a"]))
                beta0_full = np.ldexp(beta0, exp["W0"] + exp["lam"] // 2 + exp["a"])
                beta_inf_full = np.ldexp(beta_inf, exp["y"] - exp["X"])
        else:
            rates = np.asarray(_evaluator("rate", backend)(eta, S, D, d), dtype=dt)
            step = _evaluator("eta_bound", backend)(d, D[0], S)[()]
            S_full, beta0_full, beta_inf_full = S, beta0, beta_inf
        zero = 0.0 if dps is None else mpmath.mpf(0)
        data = {"X": X, "yv": yv, "y": col(yh), "U": svd.U, "Dinv": Dinv, "Dm": Dm, "V": svd.V,
                "W0": Wh, "W0_full": Wa, "s": col(s), "a": col(ah), "D": D, "d": d, "eta": eta,
                "S": S, "rates": rates, "exp": exp,
                "rate_mant": rate_mant if dps is None else None,
                "rate_exp": rate_exp if dps is None else None,
                "zero_y": np.full((n, 1), zero, dtype=dt),
                "zero_W": np.full(Wa.shape, zero, dtype=dt),
                "root_d": math.sqrt(d) if dps is None else mpmath.sqrt(d), "n": n}  # fmt: skip
    S_r, beta0_r, beta_inf_r, proj_r, rates_r = nb.rounded(
        (S_full, beta0_full, beta_inf_full, proj, rates), dps
    )
    (step_r,) = nb.rounded((step,), dps)
    a_r, W0_r = nb.rounded((a, Wa), dps)
    if dps is None:  # the reported SVD is that of X itself
        svd = ReducedSVD(svd.U, np.ldexp(svd.D, exp["X"]), svd.V)
    return Trajectory(setup, a_r, W0_r, dps, svd, S_r, beta0_r, beta_inf_r, proj_r, rates_r,
                      step_r, data)  # fmt: skip


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
    limit = float(ns.node_scaling_limit(j, ns._check_gamma_numeric(gamma), weights))
    b = nb.check_float_array("beta_inf", beta_inf, ndim=1)
    if limit == 0:
        _check_V(V, len(b), "beta_inf")
        return np.zeros_like(b), np.zeros((len(b), len(b)))
    return group_moments(limit, 1.0, b, V)


def pruned_mass(m: Any, rho: Any, gamma: Any, weights: ns.Weights) -> sp.Expr:
    """``sum_{j > floor(rho m)} lambda_{m,j} = gamma (m - r)/m + (1 - gamma)(S_m - S_r)/S_m``,
    ``r = floor(rho m)`` (exact, from the partial sums of :mod:`solvable.models.node_scaling`)."""
    m = ns._check_integer("m", m)
    g = ns._check_gamma(gamma)
    weights = ns._check_weights(weights)
    r_ = ns._sympify_number("rho", rho)
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
    m = int(ns._check_integer("m", m))
    if m > MAX_PRUNED_WIDTH:
        raise ValueError(f"m must be <= MAX_PRUNED_WIDTH = {MAX_PRUNED_WIDTH} (the nodes are "
                         f"summed one by one; pruned_mass is exact for m <= "
                         f"{ns.MAX_EXACT_WIDTH}), got {m}")  # fmt: skip
    if not (isinstance(rho, numbers.Real) and 0 < rho < 1):
        raise ValueError(f"rho must be in (0, 1), got {rho!r}")
    r = math.floor(rho * m)
    if r >= m:
        return 0.0
    ns._check_gamma_numeric(gamma)  # named and in [0, 1] before it is rounded
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
    m = int(ns._check_integer("m", m))
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


# ---------------------------------------------------------------------------
# symbolic claims, on an instance of the package's network (node_scaling.loss)
# ---------------------------------------------------------------------------
_QU = sp.Matrix([[1, 2, 2], [2, 1, -2], [2, -2, 1]]) / 3  # rational orthogonal matrices
_QV = sp.Matrix([[2, 3, 6], [3, -6, 2], [6, 2, -3]]) / 7
_QH = sp.Matrix([[1, 1, 1, 1], [1, 1, -1, -1], [1, -1, 1, -1], [1, -1, -1, 1]]) / 2
_SIGNS = ((1, 1), (1, -1), (-1, 1), (-1, -1))  # every a in {-1, 1}^2 (eq. (3))


def _obj(M: Any) -> np.ndarray:
    return np.array(M.tolist() if isinstance(M, sp.MatrixBase) else list(M), dtype=object)


@functools.cache
def _instance() -> dict[str, Any]:
    """A small generic instance: n = 3, d = 4 (sqrt(d) = 2, rational), rank k = 2 (so U U^T
    != I and V V^T != I), m = 2 nodes; U, V two columns of rational orthogonal matrices,
    everything else symbolic (D, y, W0, s = sqrt(lambda) > 0, a real non-zero, the rate eta >
    0).  ``flow`` is the sympy gradient flow of loss (5)
    (:func:`solvable.models.node_scaling.flow_symbolic`, linear) and ``values`` sets its parameters
    to
    this data.  ``K`` is the field of rational functions in every symbol used here: the claims
    evaluate the package's expressions in it (exact arithmetic, a residual is 0 in ``K`` iff it
    is identically 0), which is much faster than simplifying large sympy expressions."""
    n, d, k, m = 3, 4, 2, 2
    U, V = _QU[:, :k], _QH[:, :k]
    D = sp.diag(*sp.symbols("D1:3", positive=True))
    X = U * D * V.T
    y = sp.Matrix(sp.symbols("y1:4", real=True))
    s = sp.symbols("s1:3", positive=True)
    a = sp.symbols("a1:3", real=True, nonzero=True)
    W0 = sp.Matrix(m, d, sp.symbols("w1:9", real=True))
    W = sp.Matrix(m, d, sp.symbols("v1:9", real=True))
    flow = ns.flow_symbolic(n, d, m, "linear")
    eta = flow.params[0]
    values = dict(zip(flow.params, [eta, *X, *y, *s], strict=True))
    extra = dict(z=sp.symbols("z1:3", real=True), g=sp.symbols("g1:3"), E=sp.symbols("E1:3"),
                 xp=sp.symbols(f"x1:{d + 1}", real=True), eta_gd=sp.Symbol("eta_gd"))  # fmt: skip
    gens = (*D.diagonal(), *y, *s, *a, *W0, eta)
    return dict(n=n, d=d, k=k, m=m, U=U, V=V, D=D, X=X, y=y, s=s, a=a, W0=W0, W=W, eta=eta,
                flow=flow, values=values, gens=gens, K=rational_field(gens, sp.QQ)[0],
                **extra)  # fmt: skip


@functools.cache
def _instance_with(*names: str) -> dict[str, Any]:
    """:func:`_instance` with the field ``K`` extended by the extra symbols ``names`` (``"W"``,
    ``"z"``, ``"g"``, ``"E"``, ``"xp"``, ``"eta_gd"``): fewer generators, faster arithmetic."""
    inst = _instance()
    extra = [x for q in names for x in (inst[q] if q != "eta_gd" else [inst[q]])]
    return {**inst, "K": rational_field([*inst["gens"], *extra], sp.QQ)[0]}


def _F(value: Any, inst: dict[str, Any]) -> Any:
    """Sympy matrices / sequences / expressions as (object arrays of) elements of ``K``."""
    K = inst["K"]
    if isinstance(value, sp.MatrixBase):
        return np.array([[K.from_expr(v) for v in row] for row in value.tolist()], dtype=object)
    if isinstance(value, (list, tuple)):
        return np.array([K.from_expr(sp.sympify(v, strict=True)) for v in value], dtype=object)
    return K.from_expr(sp.sympify(value, strict=True))


def _zero(values: Any) -> list[sp.Expr]:
    """Residuals computed in ``K`` as sympy expressions (``0`` exactly when they vanish)."""
    return [v.as_expr() for v in np.asarray(values, dtype=object).ravel()]


def _evaluate(expr: sp.Expr, vals: dict[sp.Symbol, Any], K: Any, memo: dict) -> Any:
    """A polynomial sympy expression (the package's flow) evaluated in ``K``."""
    if expr in memo:
        return memo[expr]
    if expr.is_Symbol:
        out = vals[expr]
    elif expr.is_Number:
        out = K.from_expr(expr)
    elif expr.is_Add or expr.is_Mul:
        parts = [_evaluate(x, vals, K, memo) for x in expr.args]
        out = functools.reduce(lambda p, q: p + q if expr.is_Add else p * q, parts)
    elif expr.is_Pow and expr.exp.is_Integer:
        out = _evaluate(expr.base, vals, K, memo) ** int(expr.exp)
    else:  # pragma: no cover - the linear network's flow is polynomial
        raise TypeError(f"cannot evaluate {expr} in the rational function field")
    memo[expr] = out
    return out


def _gradient(W: np.ndarray, inst: dict[str, Any], a: Any = None) -> np.ndarray:
    """``grad_W L`` of loss (5), in ``K``: minus the W-block of the package's sympy flow (the
    one definition, :func:`solvable.models.node_scaling.flow_symbolic`) divided by ``eta``, at the
    weights ``W`` (an (m, d) array in ``K``) and output weights ``a``."""
    flow, K = inst["flow"], inst["K"]
    a = _F(list(inst["a"] if a is None else a), inst)
    vals = {**dict(zip(flow.block("a").ravel(), a, strict=True)),
            **dict(zip(flow.block("W").ravel(), W.ravel(), strict=True)),
            **{q: _F(v, inst) for q, v in inst["values"].items()}}  # fmt: skip
    rhs = dict(zip(flow.state, flow.rhs, strict=True))
    memo: dict = {}
    eta = _F(inst["eta"], inst)
    return np.array([-_evaluate(rhs[w], vals, K, memo) / eta for w in flow.block("W").ravel()],
                    dtype=object).reshape(W.shape)  # fmt: skip


def _outputs(W: np.ndarray, inst: dict[str, Any], X: Any = None, a: Any = None) -> np.ndarray:
    """``f`` of eq. (2) (sigma = id) on the rows of ``X`` (default the data), in ``K``:
    :func:`solvable.models.node_scaling.network_output`, the one definition (its unchecked form:
    the entries are rational functions, elements of ``K``, not numbers)."""
    X = _F(inst["X"] if X is None else X, inst)
    a = _F(list(inst["a"] if a is None else a), inst)
    sigma = np.vectorize(sp.lambdify(Z, activation("linear")), otypes=[object])
    return ns._network_output(W, a, _F(list(inst["s"]), inst), X, sigma, 2)  # sqrt(d) = 2


def _beta(W: np.ndarray, inst: dict[str, Any], a: Any = None) -> np.ndarray:
    """``beta(W)`` read off the network: ``f(e_k) = beta_k/sqrt(d)`` for the unit vectors."""
    return 2 * _outputs(W, inst, sp.eye(inst["d"]), a)


@functools.cache
def _field_evaluator(name: str, K: Any) -> Callable[..., Any]:
    """The generated evaluator of ``name`` (the same lambdified code as the numpy / mpmath
    ones) with a namespace for object arrays of elements of the instance's field ``K``
    (``sqrt(4) = 2`` exactly; scalars as 0-d object arrays, so that they broadcast)."""

    def identity(n: Any) -> np.ndarray:
        return np.array([[K.one if i == j else K.zero for j in range(int(n))]
                         for i in range(int(n))], dtype=object)  # fmt: skip

    space = {
        **_matrix_namespace("mpmath"),
        "identity": identity,
        "sqrt": lambda v: np.array(K.from_expr(sp.sqrt(sp.sympify(v, strict=True))), dtype=object),
    }
    return generate(_MATRIX_ARGS[name], getattr(symbolic(), name), "numpy",
                    printer=_BatchedPrinter, extra=space)  # fmt: skip


def _explicit(name: str, inst: dict[str, Any], *, G: sp.Matrix | None = None,
              Xp: sp.Matrix | None = None, a: Any = None,
              E: sp.Matrix | None = None) -> np.ndarray:  # fmt: skip
    """The generated evaluator of the matrix expression ``name`` of :func:`symbolic`, run on
    the instance in exact arithmetic (elements of ``K``)."""
    a = inst["a"] if a is None else a
    col = lambda v: _F(sp.Matrix(list(v)), inst)  # noqa: E731
    values = {
        _d: inst["d"],
        _y: col(inst["y"]),
        _U: _F(inst["U"], inst),
        _Dinv: _F(inst["D"].inv(), inst),
        _V: _F(inst["V"], inst),
        _W0: _F(inst["W0"], inst),
        _s: col(inst["s"]),
        _a: col(a),
        _G: None if G is None else _F(G, inst),
        _E: None if E is None else _F(E, inst),
        _Dm: _F(inst["D"], inst),
        _Xp: None if Xp is None else _F(Xp, inst),
    }
    out = _field_evaluator(name, inst["K"])(*[values[q] for q in _MATRIX_ARGS[name]])
    return np.asarray(out, dtype=object)


def _sa(inst: dict[str, Any], a: Any = None) -> np.ndarray:
    a = inst["a"] if a is None else a
    return _F([si * ai for si, ai in zip(inst["s"], a, strict=True)], inst)


def _gradient_structure() -> Verdict:
    # grad_{w_j} L (the package's flow of eq. (5), sigma = id) equals -(s_j a_j / sqrt(d)) X^T r,
    # r = y - f(W) (node_scaling.network_output), for every W: all nodes move along one vector
    # X^T r, which lies in the row space of X; hence W_t - W_0 = (s * a) c(t)^T, c(t) in span V
    inst = _instance_with("W")
    W = _F(inst["W"], inst)
    X, V = _F(inst["X"], inst), _F(inst["V"], inst)
    r = _F(list(inst["y"]), inst) - _outputs(W, inst)
    grad = _gradient(W, inst)
    direction = X.T @ r
    res = _zero(grad + _sa(inst)[:, None] * direction[None, :] / 2)  # sqrt(d) = 2
    res += _zero(direction - V @ (V.T @ direction))
    return prove_zero(*res)


def _stationary_point() -> Verdict:
    # the limit of the generated trajectory (G = I, any a, S = sum lambda a^2; it is the
    # generated (19) when a_j^2 = 1, claim trajectory_limit) zeroes the package's loss
    # gradient on the instance; and in matrix form for every n, d, m, k (the generated
    # beta_final with non-commutative symbols reduced by U^T U = I, V^T V = I, D D^-1 = I,
    # (s a)^T (s a) = s^T s)
    inst = _instance()
    W_inf = _explicit("W_t", inst, G=sp.eye(inst["k"]))
    res = _zero(_gradient(W_inf, inst))
    res.append(_matrix_form_gradient())
    return prove_zero(*res)


def _noncommutative(expr: sp.Basic, names: dict[str, sp.Symbol]) -> sp.Expr:
    """A matrix expression of :func:`symbolic` as a product of non-commutative symbols
    (``X^T`` a symbol of its own, the 1x1 inverse a commutative ``1/S``)."""
    if isinstance(expr, sp.MatrixSymbol):
        return names[expr.name]
    if isinstance(expr, sp.Transpose):
        inner = expr.arg
        key = inner.name if isinstance(inner, sp.MatrixSymbol) else "sa"
        return names[f"{key}^T"]
    if isinstance(expr, sp.HadamardProduct):  # s * a, or (s * a)^T after doit()
        return names["sa^T" if all(isinstance(x, sp.Transpose) for x in expr.args) else "sa"]
    if isinstance(expr, sp.Inverse):
        return 1 / names["S"]
    if isinstance(expr, sp.MatMul):
        out = sp.S.One
        for arg in expr.args:
            out = out * _noncommutative(arg, names)
        return out
    if isinstance(expr, sp.MatAdd):
        return sp.Add(*[_noncommutative(arg, names) for arg in expr.args])
    return expr  # a scalar factor


def _matrix_form_gradient() -> sp.Expr:
    nc = dict(commutative=False)
    names = {q: sp.Symbol(q, **nc) for q in ("U", "V", "U^T", "V^T", "Dinv", "y", "W0", "W0^T",
                                             "sa", "sa^T")}  # fmt: skip
    names["S"] = sp.Symbol("S_p", positive=True)  # s^T s = (s a)^T (s a) under eq. (3)
    D = sp.Symbol("D", commutative=False)
    beta_final = _noncommutative(symbolic().beta_final.doit(), names)
    X, Xt = names["U"] * D * names["V^T"], names["V"] * D * names["U^T"]  # X = U D V^T
    r = names["y"] - X * beta_final / sp.sqrt(_d)
    g = sp.expand(Xt * r)  # X^T r, the direction of every node's gradient
    rules = {names["U^T"] * names["U"]: 1, names["V^T"] * names["V"]: 1, D * names["Dinv"]: 1,
             names["sa^T"] * names["sa"]: names["S"]}  # fmt: skip
    for _ in range(10):
        new = sp.expand(g.subs(rules))
        if new == g:
            break
        g = new
    return g


def _affine(inst: dict[str, Any], z: Any) -> np.ndarray:
    """``W0 + (s * a) (V z)^T``: the affine set the flow stays in (gradient_structure)."""
    V = _F(inst["V"], inst)
    return _F(inst["W0"], inst) + _sa(inst)[:, None] * (V @ np.asarray(z, dtype=object))[None, :]


def _limit_is_unique() -> Verdict:
    # derivation of (19): W - W0 = (s*a) (V z)^T (gradient_structure); the stationarity
    # condition (package gradient = 0) is affine in z, A z + b = 0, with A of full rank k = 2
    # (det(A^T A) > 0: unique solution), solved by V^T c of the generated trajectory at G = I
    # (denominator S = sum lambda a^2, any a); and (20) (the generated f, second form) is the
    # network's output at the generated W_inf on a probe x, for every a in {-1, 1}^2
    inst = _instance_with("xp")
    K, V = inst["K"], _F(inst["V"], inst)
    b = _gradient(_affine(inst, [K.zero, K.zero]), inst).ravel()
    cols = [_gradient(_affine(inst, e), inst).ravel() - b for e in ([K.one, K.zero],
                                                                    [K.zero, K.one])]  # fmt: skip
    A = np.stack(cols, axis=1)  # (m d, 2)
    gram = A.T @ A
    det = sp.factor((gram[0, 0] * gram[1, 1] - gram[0, 1] * gram[1, 0]).as_expr())
    c_gen = _explicit("c_t", inst, G=sp.eye(inst["k"]))[:, 0]
    z_star = V.T @ c_gen
    res = _zero(A @ z_star + b)
    res += _zero(c_gen - V @ z_star)  # c in span V
    xp = sp.Matrix(1, inst["d"], inst["xp"])
    for signs in _SIGNS:
        W_inf = _explicit("W_inf", inst, a=signs)
        res += _zero(_outputs(W_inf, inst, xp, signs) - _explicit("f", inst, Xp=xp,
                                                                  a=signs)[:, 0])  # fmt: skip
    unique = decide([(f"det(A^T A) = {det} > 0", bool(det.is_positive))], "A has rank 2")
    verdict = prove_zero(*res)
    if verdict.status != "proved" or unique.status != "proved":
        return Verdict("failed", f"{verdict.detail}; {unique.detail}",
                       residuals=verdict.residuals + unique.residuals)  # fmt: skip
    return Verdict("proved", f"{verdict.detail}; {unique.detail}",
                   residuals=verdict.residuals + unique.residuals)  # fmt: skip


def _paper_form() -> Verdict:
    # the generated (19) and (20) against the formulas as printed in Theorem 7.4 (the paper's
    # side, typed here as data), on the instance with a in {-1, 1}^2 and a probe x
    inst = _instance_with("xp")
    U, V, D, y, W0, s = (inst[q] for q in ("U", "V", "D", "y", "W0", "s"))
    d, m = inst["d"], inst["m"]
    xp = sp.Matrix(1, d, inst["xp"])
    res = []
    for signs in _SIGNS:
        beta0 = sum((s[j] * signs[j] * W0[j, :].T for j in range(m)), sp.zeros(d, 1))
        beta_inf = sp.sqrt(d) * V * D.inv() * U.T * y
        total = sum(s[j] ** 2 for j in range(m))
        printed_19 = sp.Matrix.vstack(*[(s[j] / total * signs[j] * (beta_inf - V * V.T * beta0)).T
                                        for j in range(m)])  # fmt: skip
        printed_20 = xp * (beta_inf + (sp.eye(d) - V * V.T) * beta0) / sp.sqrt(d)
        res += _zero(_explicit("delta_W", inst, a=signs) - _F(printed_19, inst))
        res += _zero(_explicit("f", inst, Xp=xp, a=signs) - _F(printed_20, inst))
        res += _zero(_explicit("f_nodes", inst, Xp=xp, a=signs) - _F(printed_20, inst))
    return prove_zero(*res)


def _trajectory_solves_flow() -> Verdict:
    # the generated W(t) (any a, S = sum lambda a^2) solves the package's gradient flow of
    # eq. (5) (linear), dW/dt = -eta grad L(W(t)), and W(0) = W0, on the instance.  W(t) is
    # W(G) at G = diag(g_1(t), g_2(t)), g_i the generated mode factors: by the chain rule
    # dW/dt = sum_i dW/dg_i g_i'(t), with g_i' by sympy; naming exp(-rate_i t) = E_i (so g_i
    # = 1 - E_i) the residual is a rational function of E_1, E_2 that is 0 in K (for all E_i)
    inst = _instance_with("g", "E")
    t = sp.Symbol("t", nonnegative=True)
    S = sum(v**2 for v in _sa(inst)).as_expr()  # (s*a)^T (s*a), as the generated total
    S_gen = _explicit("total", inst)[0, 0].as_expr()
    sub = [{_ETA: inst["eta"], _S: S_gen, _DI: inst["D"][i, i], _T: t, _d: inst["d"]}
           for i in range(inst["k"])]  # fmt: skip
    g = [symbolic().mode_factor.subs(q) for q in sub]
    rates = [symbolic().rate.subs(q) for q in sub]
    E, gs = inst["E"], inst["g"]

    def named(v: sp.Expr) -> sp.Expr:  # exp(-rate_i t) -> E_i
        def rep(z: sp.Expr) -> sp.Expr:
            for rt, Ei in zip(rates, E, strict=True):
                if sp.expand(z + rt * t) == 0:
                    return Ei
            return sp.exp(z)

        return v.replace(expm1, lambda z: sp.exp(z) - 1).replace(sp.exp, rep)

    K = inst["K"]
    at = [named(v) for v in g]  # g_i(t) with exp(-rate_i t) = E_i
    slopes = [_F(named(sp.diff(v, t)), inst) for v in g]  # g_i'(t)
    W_g = _explicit("W_t", inst, G=sp.diag(*gs))  # in K, with g_i free
    gens = [K.from_expr(q) for q in gs]
    dW_dg = [np.vectorize(lambda e, q=q: e.diff(q), otypes=[object])(W_g) for q in gens]
    res = []
    for dWi in dW_dg:  # W is affine in G: dW/dg_i does not depend on g
        for q in gens:
            res += _zero(np.vectorize(lambda e, q=q: e.diff(q), otypes=[object])(dWi))
    W_E = _explicit("W_t", inst, G=sp.diag(*at))
    dW = sum(dWi * si for dWi, si in zip(dW_dg, slopes, strict=True))
    res += _zero(dW + _gradient(W_E, inst) * _F(inst["eta"], inst))
    W_at_0 = _explicit("W_t", inst, G=sp.diag(*[v.subs(t, 0) for v in g]))
    res += _zero(W_at_0 - _F(inst["W0"], inst))
    res += [sp.expand(v - (1 - Ei)) for v, Ei in zip(at, E, strict=True)]  # g_i = 1 - E_i
    res.append(sp.expand(S - S_gen))
    return prove_zero(*res)


def _trajectory_limit() -> Verdict:
    # t -> oo: every generated mode factor 1 - exp(-eta S D_i^2 t/d) -> 1 (sympy limit), so
    # W(t) -> the generated trajectory at G = I, which is the generated (19) W_inf when
    # a_j^2 = 1 (every sign pattern); at t = 0 the factor is 0 (W(0) = W0)
    inst = _instance()
    sym = symbolic()
    res = [sp.limit(sym.mode_factor, _T, sp.oo) - 1, sym.mode_factor.subs(_T, 0)]
    for signs in _SIGNS:
        at_inf = _explicit("W_t", inst, G=sp.eye(inst["k"]), a=signs)
        res += _zero(at_inf - _explicit("W_inf", inst, a=signs))
    return prove_zero(*res)


def _output_mode_form() -> Verdict:
    # the outputs the trajectory reports: the generated f_t (mode form, G and E = I - G) equals
    # the network's output (node_scaling.network_output) at the generated W_t for every G =
    # diag(g1, g2), and residual_t equals y minus it; the generated decay is 1 - mode_factor
    inst = _instance_with("g")
    G = sp.diag(*inst["g"])
    E = sp.eye(inst["k"]) - G
    W_t = _explicit("W_t", inst, G=G)
    f_net = _outputs(W_t, inst)
    res = _zero(_explicit("f_t", inst, G=G, E=E)[:, 0] - f_net)
    res += _zero(_explicit("residual_t", inst, E=E)[:, 0] - (_F(list(inst["y"]), inst) - f_net))
    sym = symbolic()
    res.append(sym.decay - (1 - sym.mode_factor))
    return prove_zero(*res)


def _gd_step_size() -> Verdict:
    # GD on W with the package's gradient: W <- W - eta grad L(W).  From W in the affine set
    # W0 + (s*a)(V z)^T the data coordinates e = V^T(beta - beta*) evolve as e <- (I - eta S
    # D^2/d) e (S = sum lambda a^2; residual of the recursion on the instance, beta read off
    # the network).  Footnote 3: eta = theta d/(D_max^2 S), 0 < theta < 1, gives factors 1 -
    # theta D_i^2/D_max^2 in [0, 1) (convergence, monotone); the sharp bound is 2d/(D_max^2 S)
    inst = _instance_with("z", "eta_gd")
    V, D, d = _F(inst["V"], inst), inst["D"], inst["d"]
    eta = _F(inst["eta_gd"], inst)
    W = _affine(inst, _F(list(inst["z"]), inst))
    W_next = W - _gradient(W, inst) * eta  # (array * element: K's elements do not broadcast)
    S_gen = _explicit("total", inst)[0, 0]
    W_star = _explicit("W_t", inst, G=sp.eye(inst["k"]))
    e_now = V.T @ (_beta(W, inst) - _beta(W_star, inst))
    e_next = V.T @ (_beta(W_next, inst) - _beta(W_star, inst))
    D2 = _F(D**2, inst)
    factor = _F(sp.eye(2), inst) - D2 * (eta * S_gen) / d
    verdict = prove_zero(*_zero(e_next - factor @ e_now))
    t, u = sp.symbols("t u", positive=True)  # theta = 1/(1 + t) in (0, 1), q = 1/(1 + u)
    theta, q = 1 / (1 + t), 1 / (1 + u)  # q = D_i^2/D_max^2 in (0, 1)  (q = 1: below)
    # the generated footnote-3 bound: eta_bound S D_max^2/d = 1, so the factor at theta x it is
    # 1 - theta D_i^2/D_max^2
    Dm, Sm = sp.symbols("D_m S_m", positive=True)
    unit = sp.simplify(symbolic().eta_bound.subs({_d: d, _S: Sm, _DMAX: Dm}) * Sm * Dm**2 / d)
    f = 1 - theta * q

    def pos(e: sp.Expr) -> bool | None:
        return sp.factor(sp.together(e)).is_positive

    cases = [
        ("eta_bound S D_max^2/d = 1", unit == 1),
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
    # Lambda_T/S beta_inf with A_k = 1[k in T] I - Lambda_T/S P.  Compared with the generated
    # group_cov (and the printed form of Theorem 7.5, typed as data)
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
    gc = _moment_explicit(symbolic().group_cov, v, LT, S)
    return prove_zero(*(cov - gc), *(gc - LT * (I2 - LT / S * P)))


def _moment_explicit(expr: sp.MatrixExpr, v: sp.Matrix, LT: Any, S: Any,
                     b: sp.Matrix | None = None) -> sp.Matrix:  # fmt: skip
    """The generated group_mean / group_cov made explicit with rank-1 ``V = v`` (d =
    len(v)), ``Lambda_T = LT``, ``S`` and ``beta_inf = b``."""
    d = v.rows
    ex = expr.subs(_d, d).subs(_k, 1)
    sub = {sp.MatrixSymbol("V", d, 1): v}
    if b is not None:
        sub[sp.MatrixSymbol("beta_inf", d, 1)] = b
    return sp.Matrix(ex.subs(sub).subs({_LT: LT, _S: S}).doit().as_explicit())


def _contribution_limit() -> Verdict:
    # eq. (21): with lambda_{m,j} -> (1 - gamma) lambda~_j (node_scaling_limit, sympy limit)
    # and S = 1 (eq. (1)), the generated moments (group_mean, group_cov with Lambda_T =
    # lambda_{m,j}) become the printed (1 - gamma) lambda~_j beta_inf and (1 - gamma)
    # lambda~_j (I - (1 - gamma) lambda~_j P), for Zipf (every alpha) and finite K (every K),
    # j = 1 and symbolic j; d = 1 with P = v^2
    b, v = sp.symbols("b_inf v", real=True)  # beta_inf and V in d = 1, P = v^2
    mean_of = _moment_explicit(symbolic().group_mean, sp.Matrix([v]), _LT, 1, sp.Matrix([b]))
    cov_of = _moment_explicit(symbolic().group_cov, sp.Matrix([v]), _LT, 1)
    res = []
    for w in (ns.zipf_symbolic(), ns.finite_k_symbolic()):
        for j in (1, ns.J):
            lam_lim = ns.node_scaling_limit(j, ns.GAMMA, w)
            mean, cov = mean_of[0, 0].subs(_LT, lam_lim), cov_of[0, 0].subs(_LT, lam_lim)
            wt = (1 - ns.GAMMA) * w.weight(j)
            res += [mean - wt * b, cov - wt * (1 - wt * v**2)]
    return prove_zero(*res)


def _mean_field_bullet() -> Verdict:
    # Instance d = 2, m = 2, n = 1, rank-1 V = (cos t, sin t), probe x, lambda_j = 1/m^2
    # (s_j = 1/2), every a in {-1, 1}^2, all from the generated expressions of symbolic():
    # (i) the rows of delta_W (19) are a_j (beta_inf - V V^T beta_0), so lambda_j (x^T
    # dw_j)^2/d is the same for every node: (18) = (17)/m, and (17) = N_m/D_m; (ii) E over
    # w_0k ~ N(0, I) of N_m is mean_N (beta_0 the generated beta0) and of D_m is mean_D;
    # (iii) as m -> oo, mean_N/mean_D -> limit and limit/m -> 0; the contribution moments
    # (group_mean, group_cov with Lambda_T = 1/m^2, S = 1/m) -> 0 ("contributions are
    # asymptotically vanishing").
    m, d = 2, 2
    t, yv, Dv = (
        sp.Symbol("t", real=True),
        sp.Symbol("y1", real=True),
        sp.Symbol("D1", positive=True),
    )
    v = sp.Matrix([sp.cos(t), sp.sin(t)])
    x = sp.Matrix(sp.symbols("x1 x2", real=True))
    W0 = sp.Matrix(m, d, sp.symbols(f"w1:{m * d + 1}", real=True))
    s_ = sp.Matrix([sp.Rational(1, m)] * m)
    e = symbolic()
    expr = mean_field_expressions()

    def explicit(M: sp.MatrixExpr, a: sp.Matrix) -> sp.Matrix:
        sub = {sp.MatrixSymbol("V", d, 1): v, sp.MatrixSymbol("W0", m, d): W0,
               sp.MatrixSymbol("s", m, 1): s_, sp.MatrixSymbol("a", m, 1): a,
               sp.MatrixSymbol("U", 1, 1): sp.Matrix([[1]]),
               sp.MatrixSymbol("Dinv", 1, 1): sp.Matrix([[1 / Dv]]),
               sp.MatrixSymbol("y", 1, 1): sp.Matrix([[yv]])}  # fmt: skip
        ex = M.subs({_m: m, _d: d, _k: 1, _n: 1}).subs(sub).doit()
        return sp.Matrix(ex.as_explicit()).applyfunc(sp.expand)

    P = v * v.T
    res = []
    for signs in itertools.product((1, -1), repeat=m):
        a = sp.Matrix(signs)
        dW, beta0, b = explicit(e.delta_W, a), explicit(e.beta0, a), explicit(e.beta_inf, a)
        res += [sp.expand(dW[j, k] - a[j] * (b - P * beta0)[k])
                for j in range(m) for k in range(d)]  # fmt: skip
        terms = [s_[j] ** 2 * ((x.T * dW.row(j).T)[0, 0]) ** 2 / d for j in range(m)]
        den = sum(s_[j] ** 2 * ((x.T * W0.row(j).T)[0, 0]) ** 2 / d for j in range(m))
        N = ((x.T * (b - P * beta0))[0, 0]) ** 2
        Dm = sum(((x.T * W0.row(j).T)[0, 0]) ** 2 for j in range(m)) / m
        res += [sp.expand(terms[j] - terms[0]) for j in range(1, m)]
        res.append(sp.expand(sum(terms) * Dm - N * den))  # (17) = N/D, cross-multiplied
        w = list(W0)
        sub_x = {_XB: (x.T * b)[0, 0], _XPX: ((P * x).T * (P * x))[0, 0], _XX: (x.T * x)[0, 0],
                 _m: m}  # fmt: skip
        res += [
            sp.expand(_gauss_expect(sp.expand(N), w) - expr["mean_N"].subs(sub_x)),
            sp.expand(_gauss_expect(sp.expand(Dm), w) - expr["mean_D"].subs(sub_x)),
        ]
    res += [sp.limit(expr["mean_N"] / expr["mean_D"], _m, sp.oo) - expr["limit"],
            sp.limit(expr["limit"] / _m, _m, sp.oo)]  # fmt: skip
    bvec = sp.Matrix(sp.symbols("bi1 bi2", real=True))
    mean_c = _moment_explicit(e.group_mean, v, 1 / _m**2, 1 / _m, bvec)
    cov_c = _moment_explicit(e.group_cov, v, 1 / _m**2, 1 / _m)
    res += [sp.limit(c, _m, sp.oo) for c in (*mean_c, *cov_c)]
    return prove_zero(*res)


def _gauss_expect(expr: sp.Expr, w: list[sp.Symbol]) -> sp.Expr:
    """``E`` of a polynomial of degree <= 2 in independent standard normal ``w``."""
    poly = sp.Poly(expr, *w)
    out = sp.S.Zero
    for powers, coeff in poly.terms():
        if sum(powers) == 0:
            out += coeff
        elif max(powers) == 2 and sum(powers) == 2:
            out += coeff
    return out


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
    # Proposition 7.6's bound from the generated exact moments: E|e| <= |mu| + sqrt(var)
    # (triangle and Jensen), with |x^T beta_inf| <= |x| |beta_inf| (Cauchy-Schwarz) in mu and
    # the non-positive -Lambda_T^2/S |V V^T x|^2/d dropped from var (S = 1); so eps * bound -
    # E-bound = |x|/sqrt(d) (sqrt(d) Lambda_T + sqrt(d Lambda_T) - sqrt(Lambda_T)) >= 0 (d >=
    # 1): the printed bound holds (with slack sqrt(d) Lambda_T + (sqrt(d) - 1) sqrt(Lambda_T)).
    # Residual: the identity of the slack; the sign by cases.
    x = sp.Symbol("x_norm", positive=True)
    e = symbolic()
    bound = e.bound.subs({_XX: x**2})
    mu_abs = e.error_mean.subs({_XB: -x * _NB, _S: 1})  # |x^T beta_inf| <= |x| |beta_inf|
    var_up = e.error_var.subs({_XX: x**2, _XPX: 0, _S: 1})
    eabs = mu_abs + sp.sqrt(var_up)
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
def _rational_instance() -> dict[str, Any]:
    """An exact instance (n = d = 3, rank 2, m = 2, rate eta = 1/2): U, V rational orthogonal
    columns, D = diag(2, 1), y, W0, lambda rational, a = (1, -1), one probe."""
    U, V = _QU[:, :2], _QV[:, :2]
    D = sp.diag(2, 1)
    return {
        "U": U, "V": V, "D": D, "X": U * D * V.T,
        "y": sp.Matrix([1, sp.Rational(-1, 2), sp.Rational(1, 3)]),
        "W0": sp.Matrix([[sp.Rational(1, 2), -1, sp.Rational(1, 4)], [2, sp.Rational(-1, 3), 1]]),
        "lam": [sp.Rational(3, 4), sp.Rational(1, 4)], "a": [1, -1],
        "xp": sp.Matrix([[1, 2, -1]]), "eta": sp.Rational(1, 2),
    }  # fmt: skip


def _exact_values(inst: dict[str, Any], t: Any) -> dict[str, sp.Matrix]:
    """The generated expressions made explicit on the rational instance, exactly: ``W_t`` at
    ``t`` (``sp.oo``: the limit, G = I), ``delta_W`` and ``f`` of (19)-(20)."""
    sym = symbolic()
    shapes = {_n: 3, _d: 3, _m: 2, _k: 2, _p: 1}
    s = sp.Matrix([sp.sqrt(v) for v in inst["lam"]])
    a = sp.Matrix(inst["a"])
    vals = {_y: inst["y"], _U: inst["U"], _Dinv: inst["D"].inv(), _V: inst["V"],
            _W0: inst["W0"], _s: s, _a: a, _Xp: inst["xp"]}  # fmt: skip
    S = sum(v * w**2 for v, w in zip(inst["lam"], inst["a"], strict=True))
    if t == sp.oo:
        G = sp.eye(2)
    else:
        G = sp.diag(*[sym.mode_factor.subs({_ETA: inst["eta"], _S: S, _DI: inst["D"][i, i],
                                            _T: t, _d: 3}) for i in range(2)])  # fmt: skip
    vals[_G] = G

    def explicit(expr: sp.MatrixExpr) -> sp.Matrix:
        ex = expr.subs(shapes)
        ex = ex.subs({sp.MatrixSymbol(ms.name, *[shapes.get(q, q) for q in ms.shape]): v
                      for ms, v in vals.items()})  # fmt: skip
        return sp.Matrix(ex.doit().as_explicit())

    return {"W_t": explicit(sym.W_t), "delta_W": explicit(sym.delta_W), "f": explicit(sym.f)}


def _evaluators_mpmath(dps: int = 30) -> Verdict:
    # the generated float64 and mpmath evaluators of (19)-(20) (limit()) and of the trajectory
    # (closed_form(), at t = 0, 1/2, 3 and oo) against the same sympy expressions evaluated
    # exactly on a rational instance (then to dps + 10 digits)
    tol_mp = Tolerance.digits(dps - 3, "mpmath svd_r and products at dps + 10 digits; 3 digits "
                              "margin for the conditioning (D_max/D_min = 2)")  # fmt: skip
    tol_f = Tolerance(
        rtol=1e-12,
        reason="float64 SVD: backward error ~ 1e-16 times "
        "D_max/D_min = 2, amplified by the O(10) entries; 1e-12 leaves a margin",
    )
    inst = _rational_instance()
    times = [0, sp.Rational(1, 2), 3, sp.oo]
    exact = {t: _exact_values(inst, t) for t in times}
    dec = lambda v: str(sp.N(v, dps + 10))  # noqa: E731 - exact decimals for mpmath
    to = lambda M: [[dec(v) for v in row] for row in M.tolist()]  # noqa: E731
    args = (to(inst["X"]), [dec(v) for v in inst["y"]], [dec(v) for v in inst["lam"]],
            inst["a"], to(inst["W0"]))  # fmt: skip
    mp_res = limit(*args, probes=to(inst["xp"]), dps=dps, rank=2)
    f_res = limit(*(np.asarray(v, dtype=float) for v in args), probes=np.asarray(
        to(inst["xp"]), dtype=float), rank=2)  # fmt: skip
    with mpmath.workdps(dps + 10):
        mpf = lambda M: [[mpmath.mpf(dec(v)) for v in row] for row in M.tolist()]  # noqa: E731
        ex = {t: {q: mpf(M) for q, M in e.items()} for t, e in exact.items()}
    errs = {
        "limit delta_W mpmath": error_in_units(mp_res.delta_W, ex[sp.oo]["delta_W"], tol_mp),
        "limit f mpmath": error_in_units(mp_res.f, ex[sp.oo]["f"][0], tol_mp),
        "limit delta_W float64": error_in_units(f_res.delta_W, ex[sp.oo]["delta_W"], tol_f),
        "limit f float64": error_in_units(f_res.f, ex[sp.oo]["f"][0], tol_f),
    }
    setup = ns.Setup(args[0], args[1], args[2], "linear", dec(inst["eta"]))
    tnum = [0, "0.5", 3, math.inf]
    for label, digits, tol in (("mpmath", dps, tol_mp), ("float64", None, tol_f)):
        traj = closed_form(setup, inst["a"], args[4], dps=digits).sample(tnum)
        for k, t in enumerate(times):
            errs[f"W(t={t}) {label}"] = error_in_units(traj.W[k], ex[t]["W_t"], tol)
    worst = worst_of(*errs.values())
    return Verdict.from_error(
        worst,
        f"exact rational instance (n = d = 3, rank 2, m = 2, eta = 1/2), mpmath at dps = "
        f"{dps}, errors in tolerances: " + ", ".join(f"{k} {v:.2g}" for k, v in errs.items()),
        tol_mp,
    )


def _reported_constants(dps: int = 30) -> Verdict:
    # The constants closed_form() reports, at dps and 2 dps digits and in float64, against the
    # printed forms of Theorem 7.4 and footnote 3 (typed as data) computed directly from the
    # setup, without the SVD: S = sum_k lambda_{m,k} (a = +-1), beta_inf = sqrt(d) X^T (X
    # X^T)^-1 y (the minimum-norm solution, X of full row rank n < d), D_i^2 the eigenvalues of
    # X X^T (so rates = eta S D_i^2/d and footnote 3's d/(D_max^2 sum_k lambda_{m,k})), and
    # w_inf_j - w_0j of (19) with V V^T = X^T (X X^T)^-1 X; gd_step_bounds() against the same
    # footnote-3 bound and twice it
    X = [["0.6", "-0.3", "0.5", "0.1"], ["0.2", "0.7", "-0.4", "0.3"], ["-0.5", "0.1", "0.2",
         "0.8"]]  # fmt: skip
    y = ["0.9", "-0.4", "0.3"]
    lam = [str(v) for v in ns.node_scaling_numeric(4, np.arange(1, 5), 0.5, ns.zipf("0.5"))]
    a = [1, -1, -1, 1]
    W0 = [["0.5", "-1", "0.25", "0.1"], ["2", "-0.3", "1", "-0.7"], ["-0.4", "0.9", "0.3", "1.2"],
          ["0.1", "0.2", "-0.8", "0.6"]]  # fmt: skip
    setup = ns.Setup(X, y, lam, "linear", "0.5")
    n, d, m = 3, 4, 4
    tol_f = Tolerance(rtol=1e-12, reason="float64 SVD / solve: backward error ~1e-16 times the "
                      "condition number of X X^T (< 10 here) and O(10) entries")  # fmt: skip
    worst, parts = NOTHING_COMPARED, []
    for digits in (dps, 2 * dps, None):
        work = 30 if digits is None else digits + 10
        tol = tol_f if digits is None else Tolerance.digits(
            digits - 5, "SVD (svd_r) vs solve / eigsy, both at dps + 10 digits: 5 digits of "
            "margin for the conditioning of X X^T")  # fmt: skip
        traj = closed_form(setup, a, W0, dps=digits)
        with mpmath.workdps(work):
            Xm = mpmath.matrix([[mpmath.mpf(v) for v in row] for row in X])
            ym = mpmath.matrix([mpmath.mpf(v) for v in y])
            lm = [mpmath.mpf(v) for v in lam]
            S = mpmath.fsum(lm)  # the printed sum_k lambda_{m,k}
            XXt = Xm * Xm.T
            beta_inf = mpmath.sqrt(d) * Xm.T * mpmath.lu_solve(XXt, ym)
            ev, _ = mpmath.eigsy(XXt)
            D2 = sorted((ev[i] for i in range(n)), reverse=True)
            eta = mpmath.mpf("0.5")
            rates = [eta * S * v / d for v in D2]
            step = d / (D2[0] * S)  # footnote 3: d (D_max^2 sum_k lambda_{m,k})^-1
            P = Xm.T * mpmath.inverse(XXt) * Xm
            b0 = mpmath.matrix([mpmath.fsum(mpmath.sqrt(lm[j]) * a[j] * mpmath.mpf(W0[j][i])
                                            for j in range(m)) for i in range(d)])  # fmt: skip
            c = beta_inf - P * b0
            dW = [[mpmath.sqrt(lm[j]) / S * a[j] * c[i] for i in range(d)] for j in range(m)]
            W_inf = traj.at(math.inf).W
            got_dW = [[W_inf[j][i] - traj.W0[j][i] for i in range(d)] for j in range(m)]
            e = {
                "S": error_in_units(traj.S, S, tol),
                "beta_inf": error_in_units(traj.beta_inf, list(beta_inf), tol),
                "rates": error_in_units(traj.rates, rates, tol),
                "step_bound": error_in_units(traj.step_bound, step, tol),
                "(19)": error_in_units(got_dW, dW, tol),
            }
            if digits is None:
                fn, sharp = gd_step_bounds(np.array(X, dtype=float), np.array(lam, dtype=float))
                e["gd_step_bounds"] = error_in_units([fn, sharp], [step, 2 * step], tol)
        worst = worst_of(worst, *e.values())
        parts.append(f"{'float64' if digits is None else f'dps={digits}'}: "
                     + ", ".join(f"{k} {v:.2g}" for k, v in e.items()))  # fmt: skip
    return Verdict.from_error(
        worst,
        "closed_form(...) constants vs Theorem 7.4 / footnote 3 computed directly (n = 3 < d = "
        "4, m = 4, gamma = 1/2, Zipf 1/2, eta = 1/2), errors in tolerances: " + "; ".join(parts),
        tol_f,
    )


def claims() -> list[Theorem]:
    """The checks of seed 000, Section 7.2 (Theorem 7.4, Theorem 7.5, Proposition 7.6)."""

    def T(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"linear_node_scaling.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("gradient_structure", "Section 3.2, Theorem 7.4",
          "With sigma = id, grad_{w_j} L = -(sqrt(lambda_j) a_j/sqrt(d)) X^T r (the package's "
          "flow of eq. (5)) and X^T r lies in span V: W_t - W_0 = (sqrt(lambda) a) c(t)^T with "
          "c(t) in the row space of X (flow and GD).", _gradient_structure),
        T("stationary_point", "Theorem 7.4, eq. (19)",
          "The generated W_inf of (19) is a zero of the loss gradient for every a in {-1, 1}^m "
          "(instance n = d = 3, rank 2, m = 2; and in matrix form for all shapes).",
          _stationary_point),
        T("limit_is_unique", "Theorem 7.4, eqs. (19), (20)",
          "In the affine set reachable by the flow, the stationary point is unique and equals "
          "the trajectory's limit (denominator sum lambda a^2); under eq. (3) it is (19), and "
          "(20) is the network's output there.", _limit_is_unique),
        T("generated_formula", "Theorem 7.4, eqs. (19), (20)",
          "The generated delta_W, f and f_nodes equal (19) and both forms of (20) as printed "
          "(a in {-1, 1}^2).", _paper_form),
        T("trajectory_solves_flow", "Theorem 7.4 (the flow it solves)",
          "W(t) = W0 + (sqrt(lambda) a) (V diag(1 - exp(-eta S D_i^2 t/d)) V^T (beta_inf - "
          "beta_0)/S)^T solves the gradient flow of eq. (5) with sigma = id exactly, W(0) = W0 "
          "(any a, S = sum lambda a^2).", _trajectory_solves_flow),
        T("trajectory_limit", "Theorem 7.4, eqs. (19), (20)",
          "As t -> oo every mode factor 1 - exp(-eta S D_i^2 t/d) -> 1 and W(t) -> (19) "
          "(a in {-1, 1}^2); at t = 0 the factors vanish.", _trajectory_limit),
        T("output_mode_form", "Theorem 7.4 (the outputs along the flow)",
          "The trajectory's outputs in mode form, U E D V^T beta_0/sqrt(d) + U G U^T y with E = "
          "I - G = diag(exp(-rate_i t)), equal the network's output at W(t) for every G, and "
          "the residual form equals y minus it (no cancellation at large t or scale).",
          _output_mode_form),
        T("gd_step_size", "Theorem 7.4, footnote 3",
          "GD contracts the data-space error by I - eta S D^2/d per step: footnote 3's eta < "
          "d/(D_max^2 sum lambda) suffices (monotone); the sharp bound is twice it.",
          _gd_step_size),
        T("group_covariance", "Theorem 7.5, Proposition 7.6",
          "For a node set T of mass Lambda_T: sum_T sqrt(lambda_j) a_j w_inf_j has mean "
          "Lambda_T/S beta_inf and covariance Lambda_T (I - Lambda_T/S V V^T) (m = 4, "
          "|T| = 2, rank-1 V; T = {j} is Theorem 7.5).", _group_covariance),
        T("contribution_limit", "Theorem 7.5, eq. (21)",
          "With lambda_{m,j} -> (1 - gamma) lambda~_j and S = 1 the generated finite-m moments "
          "become those of eq. (21) (Zipf every alpha, finite K every K).", _contribution_limit),
        T("mean_field_bullet", "Theorem 7.5 (second bullet)",
          "Under the mean-field scaling lambda_{m,j} = 1/m^2, every node moves by a_j (beta_inf "
          "- V V^T beta_0) (eq. (19)), so ratio (18) = ratio (17)/m exactly; (17) = N_m/D_m "
          "with E N_m = (x^T beta_inf)^2 + |V V^T x|^2/m and E D_m = |x|^2 (Gaussian W_0), "
          "so (17) -> (x^T beta_inf)^2/|x|^2 > 0 (feature learning) while (18) -> 0 (no "
          "non-uniform feature learning).", _mean_field_bullet),
        T("pruned_mass_limit", "Proposition 7.6",
          "sum_{j > floor(rho m)} lambda_{m,j} -> gamma (1 - rho) (exact partial-sum form; "
          "squeeze over floor; Zipf every alpha, finite K).", _pruned_mass_limit),
        T("pruning_bound_derivation", "Proposition 7.6",
          "The printed bound is >= (E|mu| + sqrt(var))/eps from the generated error moments "
          "(Markov): it holds, with slack |x|/(eps sqrt d) (sqrt(d) Lambda_T + (sqrt(d) - 1) "
          "sqrt(Lambda_T)).", _markov_derivation),
        T("evaluators_mpmath", "Theorem 7.4, eqs. (19), (20)",
          "The generated float64 and mpmath evaluators of (19)-(20) (limit) and of the "
          "trajectory (closed_form, t = 0, 1/2, 3, oo) match the exact rational instance.",
          _evaluators_mpmath, "numeric"),
        T("reported_constants", "Theorem 7.4, footnote 3",
          "closed_form's S, beta_inf, rates, step_bound and W_inf - W0 (dps, 2 dps, float64) "
          "and gd_step_bounds equal the printed forms computed directly from the setup "
          "(normal equations, eigenvalues of X X^T).", _reported_constants, "numeric"),
]  # fmt: skip


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _theorem74_argmax() -> tuple[sp.Expr, sp.Expr]:
    # L(beta) is loss (5) of the linear network (node_scaling.loss) with one node of weight
    # beta (lambda = 1, a = 1), X = diag(1, 2), d = 2; beta_inf is the generated expression
    # (U = V = I, D = X).  Printed (argmax): beta_inf maximises L, violated by how much L(beta_inf
    # + e) exceeds L(beta_inf) at e = (1, 0).  Corrected (argmin): the gradient vanishes at
    # beta_inf and L(beta_inf + e) - L(beta_inf) = 1/2 |X e/sqrt(d)|^2 >= 0.
    y = sp.Matrix(sp.symbols("y1 y2", real=True))
    e = sp.Matrix(sp.symbols("e1 e2", real=True))
    X = sp.diag(1, 2)
    d = 2
    shapes = {_n: 2, _d: d, _k: 2}
    ex = symbolic().beta_inf.subs(shapes)
    ex = ex.subs(
        {
            sp.MatrixSymbol("y", 2, 1): y,
            sp.MatrixSymbol("U", 2, 2): sp.eye(2),
            sp.MatrixSymbol("Dinv", 2, 2): X.inv(),
            sp.MatrixSymbol("V", 2, 2): sp.eye(2),
        }
    )
    beta = sp.Matrix(ex.doit().as_explicit())  # fmt: skip
    sigma = elementwise("linear", "sympy")
    one = np.array([sp.S.One], dtype=object)

    def L(b: sp.Matrix) -> sp.Expr:
        return ns.loss(_obj(b.T), one, one, _obj(X), _obj(list(y)), sigma, sp.sqrt(d))

    printed = sp.Max(0, (L(beta + sp.Matrix([1, 0])) - L(beta)))
    grad = [sp.diff(L(beta + e), ei).subs({e[0]: 0, e[1]: 0}) for ei in e]
    corrected = (
        sum(gi**2 for gi in grad)
        + (L(beta + e) - L(beta) - ((X * e).T * (X * e))[0] / (2 * d)) ** 2
    )
    return printed, corrected


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    return (
        Erratum(
            SEED, "Theorem 7.4",
            "beta_inf = sqrt(d) V D^-1 U^T y is the minimum-norm solution of "
            "argmax_beta 1/2 ||y - X beta/sqrt(d)||^2",
            "... of argmin_beta 1/2 ||y - X beta/sqrt(d)||^2",
            "The least-squares objective is unbounded above; beta_inf is its minimum-norm "
            "minimiser (gradient zero, L(beta_inf + e) - L(beta_inf) = |X e|^2/(2d) >= 0). "
            "Residuals at X = diag(1, 2), d = 2 with the package's loss (5) and beta_inf: the "
            "increase of L away from beta_inf (printed), and the gradient plus the exact "
            "expansion (corrected).",
            _theorem74_argmax,
            changes_math=False,
        ),
    )  # fmt: skip


def errata() -> list[Erratum]:
    """Disagreements with seed 000, Section 7.2, found here: the ``argmax`` of Theorem 7.4;
    (19), (20), (21), footnote 3 and Proposition 7.6 check out (see :func:`claims`)."""
    return list(_errata())


MODEL = Model(
    name="linear_node_scaling",
    seed=SEED,
    title="Seed 000 Section 7.2: linear activation, Theorems 7.4, 7.5, Proposition 7.6",
    claims=claims,
    errata=errata,
)
