"""Seed 002, the Gaussian limit (2.3)-(2.5): the mixed ReLU moments (polar
integration of the package's network unit), ``E[a^4]`` of each law, and the cumulants and
the excess kurtosis of the output at finite width ``p``."""

from __future__ import annotations

import functools
import numbers
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import activations as act
from solvable._core.numbers import describe as _describe
from solvable._core.numbers import to_expr
from solvable.models.kernels.initialisation import Initialisation, _check_init
from solvable.models.kernels.symbols import A2, N1, N2, S2, THETA
from solvable.models.kernels.table_1 import C1, C2, P
from solvable.models.linearisation import network_output


# ---------------------------------------------------------------------------
# the Gaussian limit (2.3)-(2.5): the fourth cumulant at finite width
# ---------------------------------------------------------------------------
def _unit_values() -> tuple[sp.Expr, sp.Expr, sp.Symbol, tuple[sp.Symbol, sp.Symbol]]:
    """One unit of the package's network (p = 1, scale 1, ReLU) at ``x = n1 e1`` and
    ``x' = n2 (cos theta, sin theta)``: ``(f(x), f(x'), a, (w0, w1))``."""
    a = sp.Symbol("a", real=True)
    w = sp.symbols("w0 w1", real=True)
    W = np.array([list(w)], dtype=object)
    relu = act.elementwise("relu", "sympy")

    def f(x: tuple[sp.Expr, sp.Expr]) -> sp.Expr:
        X = np.array([list(x)], dtype=object)
        out = network_output(W, np.array([a], dtype=object), X, relu, 1)[0]
        return sp.sympify(out, strict=True)

    return f((N1, 0)), f((N2 * sp.cos(THETA), N2 * sp.sin(THETA))), a, w


def relu_moment(k: int, m: int, simplify: bool = True) -> sp.Expr:
    """``E[relu(<w, x>)^k relu(<w, x'>)^m]`` for ``w ~ N(0, s^2 I_d)`` (``k, m >= 0``,
    ``k + m <= 4``) in :data:`N1`, :data:`N2`, :data:`THETA` (``[0, pi]``) and :data:`S2`:
    the package's ReLU unit integrated in polar coordinates on the span of ``x, x'``
    (``w = r (cos phi, sin phi)``, density ``r e^{-r^2/(2 s^2)}/(2 pi s^2)``), over the arc
    where the pre-activations that appear are positive (``relu = identity`` there, 0 off
    it).  ``simplify=False``: the same integral as integrated, not passed through
    ``sympy.simplify`` (equal values, longer expressions; a second less to build, for
    generated numeric evaluators)."""
    if not isinstance(simplify, bool):
        raise TypeError(f"simplify must be a bool, got {_describe(simplify)}")
    for name, v in (("k", k), ("m", m)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be an integer >= 0, got {_describe(v)}")
    if k + m > 4:
        raise ValueError(f"k + m must be <= 4, got {k} + {m}")
    return _relu_moment(k, m, simplify)


@functools.cache
def _relu_moment(k: int, m: int, simplify: bool) -> sp.Expr:
    """:func:`relu_moment` of checked arguments (cached)."""
    if simplify:
        return sp.simplify(_relu_moment(k, m, False))
    fx, fxp, a, (w0, w1) = _unit_values()
    r, phi = sp.Symbol("r", positive=True), sp.Symbol("phi", real=True)
    density = r * sp.exp(-(r**2) / (2 * S2)) / (2 * sp.pi * S2)
    lo = THETA - sp.pi / 2 if m else -sp.pi / 2
    hi = sp.pi / 2 if k else THETA + sp.pi / 2

    def positive_branch(t: sp.Piecewise) -> sp.Expr:
        (zero, _), (value, otherwise) = t.args
        if zero != 0 or otherwise is not sp.true:
            raise ArithmeticError(f"not a ReLU branch: {t}")
        return value

    e = (fx**k * fxp**m).subs(a, 1)
    e = e.subs({w0: r * sp.cos(phi), w1: r * sp.sin(phi)})
    e = e.replace(lambda t: isinstance(t, sp.Piecewise), positive_branch)
    poly = sp.Poly(sp.expand(e), r)
    total = sum((sp.integrate(r**j * density, (r, 0, sp.oo))
                 * sp.integrate(sp.expand(c, trig=True), (phi, lo, hi))
                 for (j,), c in poly.terms()), sp.S.Zero)  # fmt: skip
    return total


def a_fourth_moment(init: Initialisation) -> sp.Expr:
    """``E[a^4]`` of the record's output-weight law at second moment ``m2``: uniform
    ``9 m2^2/5``, Rademacher ``m2^2``, Gaussian ``3 m2^2`` (claim ``fourth_cumulant``)."""
    init = _check_init(init)
    m2 = init.a_second_moment
    return {"uniform": sp.Rational(9, 5), "rademacher": sp.S.One,
            "gaussian": sp.Integer(3)}[init.a_law] * m2**2  # fmt: skip


def _projection_moment(order: int, simplify: bool = True) -> sp.Expr:
    """``E[(c1 relu(<w,x>) + c2 relu(<w,x'>))^order]`` (binomial expansion)."""
    return sum(sp.binomial(order, i) * C1**i * C2 ** (order - i)
               * relu_moment(i, order - i, simplify) for i in range(order + 1))  # fmt: skip


def output_cumulant(order: int, init: Initialisation | None = None, p: Any = P, *,
                    simplify: bool = True) -> sp.Expr:  # fmt: skip
    """Cumulant ``kappa_order`` (2 or 4) of the projection ``c1 f(x) + c2 f(x')`` of the ReLU
    network (2.3) at initialisation, width ``p``: with ``u_j = a_j (c1 relu(<w_j,x>) + c2
    relu(<w_j,x'>))`` i.i.d. and symmetric, ``kappa_2 = E[u^2] = E[a^2] E[s^2]`` (``= c^T K_GP
    c``) and ``kappa_4 = (E[a^4] E[s^4] - 3 E[a^2]^2 E[s^2]^2) / p`` exactly (claim
    ``fourth_cumulant``); 0 in the Gaussian limit (2.5).  Symbols :data:`C1`, :data:`C2`,
    :data:`N1`, :data:`N2`, :data:`THETA`, :data:`P`; ``init=None``: generic moments with the
    law's ``E[a^4]`` left as ``E_a4``; ``simplify=False``: built from the unsimplified
    moments (``relu_moment(k, m, simplify=False)``: the same values, cheaper to build)."""
    if isinstance(order, bool) or not isinstance(order, numbers.Integral) or order not in (2, 4):
        raise ValueError(f"order must be 2 or 4, got {_describe(order)}")
    if not isinstance(simplify, bool):
        raise TypeError(f"simplify must be a bool, got {_describe(simplify)}")
    p = _width(p)
    if init is None:
        m2, m4, s2 = A2, sp.Symbol("E_a4", positive=True), S2
    else:
        init = _check_init(init)
        m2, m4, s2 = init.a_second_moment, a_fourth_moment(init), init.w_variance
    e2 = _projection_moment(2, simplify).subs(S2, s2)
    if order == 2:
        return m2 * e2
    e4 = _projection_moment(4, simplify).subs(S2, s2)
    return (m4 * e4 - 3 * m2**2 * e2**2) / p


def _width(p: Any) -> sp.Expr:
    """The width ``p``: a number > 0 or a sympy expression not known to be <= 0."""
    p = to_expr("p", p)
    if p.is_positive is False or p.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
        raise ValueError(f"p must be a width > 0 (finite), got {_describe(p)}")
    return p


def output_excess_kurtosis(init: Initialisation | None = None, p: Any = P, c1: Any = 1,
                           c2: Any = 0) -> sp.Expr:  # fmt: skip
    """``kappa_4 / kappa_2^2`` of the projection ``c1 f(x) + c2 f(x')``
    (:func:`output_cumulant`); for ``f(x)`` alone (the default ``c = (1, 0)``):
    ``(6 E[a^4]/E[a^2]^2 - 3)/p`` (``E[relu^4]/E[relu^2]^2 = 6``)."""
    c = {C1: to_expr("c1", c1), C2: to_expr("c2", c2)}
    if c[C1].is_zero and c[C2].is_zero:
        raise ValueError("c1 and c2 must not both be 0 (the projection 0 has no kurtosis)")
    # cancel, not simplify: exact and quick (simplify took minutes on c2 = 1e300)
    return sp.cancel(output_cumulant(4, init, p).subs(c) / output_cumulant(2, init).subs(c) ** 2)
