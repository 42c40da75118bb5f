"""Seed 000, eq. (1): the node scaling ``lambda_{m,j} = gamma/m + (1 - gamma) lambda~_j/S_m``
(:func:`node_scaling`), its sums over the nodes derived by linearity (:func:`sum_of_scalings`,
:func:`sum_of_squares`) and their limits as ``m -> oo`` (Appendix B.2, quoted in Section 5:
:func:`node_scaling_limit`, :func:`max_node_scaling_limit`, :func:`sum_of_squares_limit`),
exact sympy.
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp

from solvable.models.node_scaling._checks import _check_gamma, _check_integer
from solvable.models.node_scaling.symbols import _BZ, _KS, _N, _Q, _S, _W, GAMMA, M
from solvable.models.node_scaling.weights import (
    Weights,
    Zipf,
    _check_weights,
    finite_k_symbolic,
    zipf_symbolic,
)


# ---------------------------------------------------------------------------
# eq. (1) and its sums
# ---------------------------------------------------------------------------
def _generic_scaling(m: sp.Expr, gamma: sp.Expr) -> sp.Expr:
    """``lambda_{m,j}`` with ``lambda~_j`` and ``S_m`` as the placeholders ``w`` and ``S``."""
    return gamma / m + (1 - gamma) * _W / _S


def _sum_over_nodes(expr: sp.Expr, m: sp.Expr) -> sp.Expr:
    """``sum_{j<=m}`` of a polynomial in ``w = lambda~_j`` whose coefficients do not depend on
    ``j``: by linearity, ``w^0 -> m``, ``w^1 -> S``, ``w^2 -> Q`` (the partial sums)."""
    moments = {0: m, 1: _S, 2: _Q}
    poly = sp.Poly(sp.expand(expr), _W)
    return sum(c * moments[k] for (k,), c in poly.terms())


def _squares_sum(m: sp.Expr, gamma: sp.Expr) -> sp.Expr:
    """``sum_{j<=m} lambda_{m,j}^2`` in ``m``, ``S``, ``Q``, derived by linearity and collected
    as ``gamma (2 - gamma)/m + (1 - gamma)^2 Q/S^2`` (the expanded form would cancel
    ``1 - 2 gamma + gamma^2`` in floating point as gamma -> 1)."""
    expr = _sum_over_nodes(_generic_scaling(m, gamma) ** 2, m)
    return sp.collect(sp.expand(expr), _Q, sp.factor)


def _substitute(expr: sp.Expr, m: sp.Expr, j: sp.Expr | None, weights: Weights) -> sp.Expr:
    parts = weights._parts()
    sub = {_S: parts["partial_sum"](m), _Q: parts["partial_sum_squares"](m)}
    if j is not None:
        sub[_W] = parts["weight"](j)
    return expr.subs(sub)


def _check_m_j(m: Any, j: Any) -> tuple[sp.Expr, sp.Expr]:
    m = _check_integer("m", m)
    j = _check_integer("j", j)
    if (j - m).is_positive:
        raise ValueError(f"j must be in 1..m (m = {m}), got j = {j}")
    return m, j


def node_scaling(m: Any, j: Any, gamma: Any, weights: Weights) -> sp.Expr:
    """``lambda_{m,j}`` of eq. (1), exact (``m``, ``j`` ints or positive integer symbols,
    ``1 <= j <= m``; ``gamma in [0, 1]``)."""
    m, j = _check_m_j(m, j)
    return _substitute(_generic_scaling(m, _check_gamma(gamma)), m, j, _check_weights(weights))


def sum_of_scalings(m: Any, gamma: Any, weights: Weights) -> sp.Expr:
    """``sum_{j<=m} lambda_{m,j}``, derived by linearity (it is 1: Section 3.1)."""
    m = _check_integer("m", m)
    expr = _sum_over_nodes(_generic_scaling(m, _check_gamma(gamma)), m)
    return sp.simplify(_substitute(expr, m, None, _check_weights(weights)))


def sum_of_squares(m: Any, gamma: Any, weights: Weights) -> sp.Expr:
    """``sum_{j<=m} lambda_{m,j}^2 = gamma (2 - gamma)/m + (1 - gamma)^2 Q_m / S_m^2``, derived
    by linearity from eq. (1)."""
    m = _check_integer("m", m)
    return _substitute(_squares_sum(m, _check_gamma(gamma)), m, None, _check_weights(weights))


# ---------------------------------------------------------------------------
# m -> oo (Appendix B.2)
# ---------------------------------------------------------------------------
@functools.cache
def _generic_limit(quantity: str, family: type) -> sp.Expr:
    """``lim_{m->oo}`` for all parameters at once (symbolic ``gamma`` and ``alpha = 1/(1 + b)``
    or ``K``), along ``m = large_width(n)``, ``n -> oo``; ``w = lambda~_j`` stays a placeholder
    (it does not depend on ``m``).  Concrete parameters are substituted afterwards: sympy's
    ``limit`` fails on e.g. ``harmonic(n, 5/2)`` but handles ``harmonic(n, 1 + b)``, ``b > 0``."""
    weights = zipf_symbolic() if family is Zipf else finite_k_symbolic()
    lam = _generic_scaling(M, GAMMA)
    expr = lam if quantity == "node_scaling" else _sum_over_nodes(lam**2, M)
    m = weights.large_width(_N)
    parts = weights._parts()
    e = expr.subs({M: m, _S: parts["partial_sum"](m), _Q: parts["partial_sum_squares"](m)})
    return sp.limit(e, _N, sp.oo)


def _limit_in_m(quantity: str, gamma: sp.Expr, weights: Weights) -> sp.Expr:
    lim = _generic_limit(quantity, type(weights))
    if isinstance(weights, Zipf):
        return lim.subs({GAMMA: gamma, _BZ: weights.s - 1})
    return lim.subs({GAMMA: gamma, _KS: weights.K})


def node_scaling_limit(j: Any, gamma: Any, weights: Weights) -> sp.Expr:
    """``lim_{m->oo} lambda_{m,j}`` by ``sp.limit`` (= ``(1 - gamma) lambda~_j``, B.2)."""
    j = _check_integer("j", j)
    weights = _check_weights(weights)
    lim = _limit_in_m("node_scaling", _check_gamma(gamma), weights)
    return lim.subs(_W, weights._parts()["weight"](j))


def max_node_scaling_limit(gamma: Any, weights: Weights) -> sp.Expr:
    """``lim_{m->oo} max_j lambda_{m,j}``: the weights are non-increasing, so the maximum is
    ``lambda_{m,1}`` and the limit is ``(1 - gamma) lambda~_1`` (Section 7)."""
    return node_scaling_limit(1, gamma, weights)


def sum_of_squares_limit(gamma: Any, weights: Weights) -> sp.Expr:
    """``lim_{m->oo} sum_{j<=m} lambda_{m,j}^2`` by ``sp.limit`` (B.2)."""
    weights = _check_weights(weights)
    return sp.simplify(_limit_in_m("sum_of_squares", _check_gamma(gamma), weights))
