"""Seed 004, eqs. (1)-(7) at explicit sizes, the symbolic pieces: the undefined
activation :class:`sigma` and its derivative :class:`sigma_prime`, ReLU's positive
homogeneity ``sigma(c z) = c sigma(z)``, ``sigma'(c z) = sigma'(z)`` for ``c > 0`` (used
between (6) and (7); :func:`homogeneity`), and the symbolic weights and data."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.activations import elementwise
from solvable.models.three_layer.coordinates import _describe


# ---------------------------------------------------------------------------
# eqs. (1)-(7): the gradient flow and its rescaling, explicit sizes
# ---------------------------------------------------------------------------
class sigma_prime(sp.Function):  # noqa: N801 (a sympy function, named as in the paper)
    """sigma' as an undefined function (ReLU: the Heaviside step)."""


class sigma(sp.Function):  # noqa: N801
    """An undefined activation whose derivative is :class:`sigma_prime`."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return sigma_prime(self.args[0])


def _split_positive(arg: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """``arg = c * rest`` with ``c`` the product of the manifestly positive factors."""
    c, rest = sp.Integer(1), sp.Integer(1)
    # together: a positive denominator of some terms only (b/beta_1 + W h) is a factor too
    for f in sp.Mul.make_args(sp.factor_terms(sp.together(arg))):
        if f.is_positive:
            c *= f
        else:
            rest *= f
    return c, rest


def homogeneity(expr: sp.Expr) -> sp.Expr:
    """Apply ``sigma(c z) = c sigma(z)`` and ``sigma'(c z) = sigma'(z)`` (``c > 0``), the
    positive homogeneity of ReLU used between (6) and (7), bottom-up."""
    if not isinstance(expr, sp.Basic):
        raise TypeError(f"expr must be a sympy expression, got {type(expr).__name__} "
                        f"{_describe(expr)}")  # fmt: skip
    return _homogeneity(expr)


def _homogeneity(expr: sp.Basic) -> sp.Basic:
    if expr.is_Atom:
        return expr
    args = tuple(_homogeneity(a) for a in expr.args)
    if args != expr.args:
        expr = expr.func(*args)
    if isinstance(expr, sigma):
        c, rest = _split_positive(expr.args[0])
        return c * sigma(rest) if c != 1 else expr
    if isinstance(expr, sigma_prime):
        c, rest = _split_positive(expr.args[0])
        return sigma_prime(rest) if c != 1 else expr
    return expr


@dataclass(frozen=True)
class _Params:
    a: sp.Matrix  # m x 1
    W2: sp.Matrix  # m x m
    W1: sp.Matrix  # m x d
    X: list[sp.Matrix]  # n inputs, d x 1
    y: list[sp.Symbol]


def _params(m: int, d: int, n: int, bar: bool) -> _Params:
    s = "bar" if bar else ""
    a = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"a{s}_{i}", real=True))
    W2 = sp.Matrix(m, m, lambda i, j: sp.Symbol(f"W2{s}_{i}{j}", real=True))
    W1 = sp.Matrix(m, d, lambda i, j: sp.Symbol(f"W1{s}_{i}{j}", real=True))
    X = [sp.Matrix(d, 1, lambda j, _, i=i: sp.Symbol(f"x_{i}{j}", real=True)) for i in range(n)]
    y = [sp.Symbol(f"y_{i}", real=True) for i in range(n)]
    return _Params(a, W2, W1, X, y)


def _vec(f: Callable[[sp.Expr], sp.Expr], v: sp.Matrix) -> sp.Matrix:
    return v.applyfunc(f)


def _sympy_activation(activation: Any) -> Callable[[Any], Any]:
    """An activation entrywise on sympy object arrays: ``"relu"`` (the package's
    ``max(0, z)``), ``"generic"`` (:class:`sigma`) or a one-argument sympy callable."""
    if isinstance(activation, str) and activation == "generic":
        activation = sigma
    if isinstance(activation, str):
        return elementwise(activation, "sympy")
    return np.vectorize(activation, otypes=[object])
