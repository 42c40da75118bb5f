r"""Seed 000, Section 7.2, the single source: the sympy matrix expressions (symbolic shapes) of
Theorem 7.4 (its limit (19)-(20) and its trajectory), Theorem 7.5 (eq. (21)), Proposition 7.6
and footnote 3, for the linear-activation network with node scaling (:class:`Symbols`,
:func:`symbolic`).

Source: seed ``000_f57230b12d385b63.txt`` (:data:`SEED`, "Over-parameterised shallow neural
networks with asymmetrical node scaling").  Every evaluator of the package
(:mod:`solvable.models.linear_node_scaling._evaluators`) and every claim is generated from these
expressions.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import sympy as sp

from solvable._core.backends import expm1

SEED = "000_f57230b12d385b63.txt"


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
_P = sp.MatrixSymbol("p", _k, 1)  # mode coefficients of c(t), for the fast float64 path
_R = sp.MatrixSymbol("R", _n, 1)  # y - U U^T y, the part of y off the range of X


def _mode_sum(p: sp.MatrixExpr) -> sp.MatrixExpr:
    """``c(t) = V G p``: the data modes' coefficients ``p`` (k, 1), each moved by its mode
    factor, back in weight space: the one definition, used by :func:`symbolic` (``c_t`` of
    ``c_modes``) and, of the symbol ``p``, by the fast float64 path."""
    return _V * _G * p


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
    beta_0)/S``, the ``V G`` of its mode coefficients ``c_modes``), ``delta_W_t``
    (``W(t) - W_0``), ``W_t``, and the outputs on the data in mode form ``f_t`` (``U E D
    V^T beta_0/sqrt(d) + U G U^T y``) and ``residual_t`` (``y - f(t)`` as ``R + U E (U^T
    y - D V^T beta_0/sqrt(d))``, ``R`` (n, 1) the symbol of the part of
    ``y`` off the range of X, ``least_residual = y - U U^T y``); their parts ``f_t_y = U G
    U^T y``, ``f_t_w = U E D V^T beta_0/sqrt(d)`` (``f_t = f_t_w + f_t_y``) and
    ``residual_t_y = R + U E U^T y`` (``residual_t = residual_t_y - f_t_w``).
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
    c_modes: sp.MatrixExpr = field(repr=False)
    c_t: sp.MatrixExpr = field(repr=False)
    delta_W_t: sp.MatrixExpr = field(repr=False)  # noqa: N815
    W_t: sp.MatrixExpr = field(repr=False)
    f_t: sp.MatrixExpr = field(repr=False)
    f_t_y: sp.MatrixExpr = field(repr=False)
    f_t_w: sp.MatrixExpr = field(repr=False)
    residual_t: sp.MatrixExpr = field(repr=False)
    residual_t_y: sp.MatrixExpr = field(repr=False)
    least_residual: sp.MatrixExpr = field(repr=False)
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
    c_modes = _V.T * (beta_inf - beta0) * sp.Inverse(total)  # the modes' coefficients of c
    c_t = _mode_sum(c_modes)
    delta_W_t = _rank_one(c_t)
    # the outputs on the data in mode form (X = U D V^T, E = I - G): each data mode is the convex
    # combination exp(-rate t) f_0 + (1 - exp(-rate t)) y, so f(t) and the residual y - f(t) are
    # evaluated without the cancellation of X W(t) (claim ``output_mode_form``)
    f0_modes = _Dm * _V.T * beta0 / sp.sqrt(_d)  # U^T f_0
    # each output as its y-part and its W_0-part (the float64 path scales them apart); the
    # residual's W_0-part is the output's with the opposite sign
    f_t_w = _U * _E * f0_modes
    f_t_y = _U * _G * _U.T * _y
    f_t = f_t_w + f_t_y
    # the part of y off the range of X is the symbol R (least_residual: y - U U^T y), so that
    # a y exactly in the range gives R = 0 exactly, not the rounding of U U^T y
    least_residual = _y - _U * _U.T * _y
    residual_t_y = _R + _U * _E * _U.T * _y
    residual_t = residual_t_y - f_t_w
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
        mode_factor=-expm1(-rate * _T), decay=sp.exp(-rate * _T), c_modes=c_modes,
        c_t=c_t, f_t=f_t,
        f_t_y=f_t_y, f_t_w=f_t_w, residual_t=residual_t, residual_t_y=residual_t_y,
        least_residual=least_residual, delta_W_t=delta_W_t,
        W_t=_W0 + delta_W_t,
        group_mean=group_mean, group_cov=group_cov, error_mean=mu, error_var=var,
        exceedance=exceed, bound=bound,
        eta_bound=_d / (_DMAX**2 * _S), eta_sharp=2 * _d / (_DMAX**2 * _S),
    )  # fmt: skip
