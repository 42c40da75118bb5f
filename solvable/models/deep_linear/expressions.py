r"""The sympy source of the aligned exact solution (one mode), and its generated evaluators.

A mode of strength ``u`` (balanced, task-aligned start; see
:mod:`~solvable.models.deep_linear.spectral`) obeys, with the rates folded into their
geometric mean ``eta = (eta_1 ... eta_L)^(1/L)``,

.. math::  \dot u = L\,\eta\,|u|^{2-2/L}\,(s - \lambda u)

(:func:`mode_rhs`)

(``s``: the input-output correlation of the mode, ``lambda``: the input variance along it).
For ``s != 0``, ``z = lambda u / s`` obeys :math:`\dot z = \kappa |z|^{2-2/L} (1 - z)` with
:math:`\kappa = L \eta \lambda^{2/L-1} |s|^{2-2/L}` (:func:`kappa`), so
``kappa t = T(z) - T(z_0)`` with ``T' = 1/(|z|^{2-2/L}(1 - z))``.  In ``v = |z|^{1/L}``:

* ``z > 0``: ``T = T_+(v)``, ``T_+' = L v^{1-L}/(1 - v^L)`` (:func:`antiderivative`);
* ``z < 0``: ``T = -T_-(v)``, ``T_-' = L v^{1-L}/(1 + v^L)``.

Both are elementary at every integer ``L`` (partial fractions over the ``L``-th roots of
``+-1``, ``omega = e^{i theta}``): ``L v/(1 -+ v^L) = -sum_omega omega^2/(v - omega)``, whose
real antiderivative is, per conjugate pair ``theta in (0, pi)``,
``-cos(2 theta) log(v^2 - 2 v cos(theta) + 1) + 2 sin(2 theta) atan((v - cos theta)/sin
theta)``, and ``-log|v -+ 1|`` per real root; with ``L v^{1-L}`` integrated to ``2 log v``
(``L = 2``; ``log v`` an input ``log_v``) or ``L v^{2-L}/(2-L)``.  The term ``-log|1 - v|``
of ``T_+`` (it diverges at the fixed point ``z = 1``) is an input ``log_d`` of the
evaluators, computed from ``log|1 - z|`` without cancellation by
:mod:`~solvable.models.deep_linear.strength`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sympy as sp

from solvable._core.backends import generate

V = sp.Symbol("v", positive=True)
LOG_D = sp.Symbol("log_d", real=True)  # log|1 - v|
LOG_V = sp.Symbol("log_v", real=True)  # log v (an input: v underflows where u decays as e^-t)
U, S, LAM, ETA = sp.symbols("u s lambda eta", real=True)


def mode_rhs(L: int) -> sp.Expr:
    """``du/dt = L eta |u|^(2 - 2/L) (s - lambda u)``: one mode of the balanced aligned flow."""
    return L * ETA * sp.Abs(U) ** (2 - sp.Rational(2, L)) * (S - LAM * U)


def kappa(L: int) -> sp.Expr:
    """``kappa = L eta lambda^(2/L - 1) |s|^(2 - 2/L)``: the rate of the ``z`` flow."""
    return L * ETA * LAM ** (sp.Rational(2, L) - 1) * sp.Abs(S) ** (2 - sp.Rational(2, L))


def _pair(theta: sp.Expr) -> sp.Expr:
    c, s = sp.cos(theta), sp.sin(theta)
    return -sp.cos(2 * theta) * sp.log(V**2 - 2 * V * c + 1) + 2 * sp.sin(2 * theta) * sp.atan(
        (V - c) / s
    )


def _power_part(L: int) -> sp.Expr:
    return 2 * LOG_V if L == 2 else L * V ** (2 - L) / (2 - L)


@functools.cache
def antiderivative(L: int, sign: int) -> sp.Expr:
    """``T_+`` (``sign = +1``, a function of ``v``, ``log_v = log v`` and ``log_d =
    log|1 - v|``) or ``T_-`` (``sign = -1``, of ``v`` and ``log_v``), up to a constant."""
    if sign == 1:  # roots of v^L = 1: theta = 2 pi k / L
        thetas = [2 * sp.pi * k / L for k in range(1, (L + 1) // 2)]
        real = -LOG_D - (sp.log(1 + V) if L % 2 == 0 else 0)
        return _power_part(L) + real + sum((_pair(th) for th in thetas), sp.S.Zero)
    # roots of v^L = -1: theta = pi (2k + 1) / L
    thetas = [sp.pi * (2 * k + 1) / L for k in range(L // 2)]
    real = -sp.log(1 + V) if L % 2 == 1 else 0
    return _power_part(L) - real - sum((_pair(th) for th in thetas), sp.S.Zero)


def integrand(L: int, sign: int) -> sp.Expr:
    """``dT_sign/dv = L v^(1-L)/(1 - sign v^L)``."""
    return L * V ** (1 - L) / (1 - sign * V**L)


def derivative_residual(L: int, sign: int) -> sp.Expr:
    """``dT/dv - integrand`` with ``log_d = log(1 - v)`` (``v < 1``; for ``v > 1`` the
    derivative of ``log(v - 1)`` is the same): 0 when :func:`antiderivative` is right."""
    T = antiderivative(L, sign).subs({LOG_D: sp.log(1 - V), LOG_V: sp.log(V)})
    return sp.diff(T, V) - integrand(L, sign)


@functools.cache
def evaluator(L: int, sign: int, backend: str) -> Callable[..., Any]:
    """The generated evaluator of :func:`antiderivative` (``backend``: ``"numpy"``,
    ``"mpmath"`` or ``"torch"``, batched): ``f(v, log_v, log_d)`` for ``sign = 1``,
    ``f(v, log_v)`` for ``sign = -1``."""
    args = (V, LOG_V, LOG_D) if sign == 1 else (V, LOG_V)
    expr = antiderivative(L, sign)
    if backend == "torch":  # constants such as sqrt(3) as 30-digit numbers (torch's sqrt
        # takes tensors only; sp.N leaves some inside a product unevaluated)
        expr = expr.replace(lambda x: x.is_number and not x.is_Atom,
                            lambda x: sp.Float(sp.N(x, 30), 30))  # fmt: skip
    return generate(args, expr, backend)
