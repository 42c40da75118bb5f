"""Seed 002, eqs. (2.4), (2.30), (2.31) and (4.2): the arc-cosine expectations
(Cho & Saul) and the closed-form kernels ``K_GP``, ``K_RF``, ``K_NTK``, ``K_0`` of the ReLU
network in the norms and the cosine (:func:`kernel`), in the angle (:func:`kernel_theta`)
and at two exact vectors (:func:`kernel_of_vectors`); (4.2) as printed."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.numbers import describe as _describe
from solvable._core.numbers import to_expr
from solvable.models.kernels.initialisation import (
    Initialisation,
    _check_dimension,
    _check_init,
    _check_name,
)
from solvable.models.kernels.symbols import N1, N2, RHO, THETA


def arccos_expectation(order: int, rho: sp.Expr = RHO) -> sp.Expr:
    r"""``E[1{u>0} 1{v>0} (u v)^order]`` for standard normals ``u, v`` with correlation
    ``rho``: ``J_order(arccos rho) / (2 pi)`` (Cho & Saul 2009), ``order in {0, 1}``.

    ``order = 0`` is the ReLU-derivative kernel ``E[sigma'(u) sigma'(v)]``; ``order = 1`` the
    ReLU kernel ``E[sigma(u) sigma(v)]``."""
    if isinstance(order, bool) or not isinstance(order, numbers.Integral) or order not in (0, 1):
        raise ValueError(f"order must be 0 or 1, got {_describe(order)}")
    rho = to_expr("rho", rho)
    theta = sp.acos(rho)
    if order == 0:
        return (sp.pi - theta) / (2 * sp.pi)
    return (sp.sqrt(1 - rho**2) + (sp.pi - theta) * rho) / (2 * sp.pi)


# ---------------------------------------------------------------------------
# closed forms
# ---------------------------------------------------------------------------
def _symbolic_arg(name: str, value: Any, valid: str) -> sp.Expr:
    """One argument of :func:`kernel`: a real number (int, float, numpy scalar, Fraction,
    exact-decimal str) or a sympy expression; ``TypeError`` for anything else (bool, complex,
    None, arrays, torch tensors), ``ValueError`` for a string that is not a decimal."""
    want = f"{name} must be {valid}: a real number, exact-decimal str or sympy expression"
    if isinstance(value, str):
        try:
            return sp.Rational(value.strip())
        except (TypeError, ValueError):
            raise ValueError(f"{want}, got {value!r} (not a decimal)") from None
    if isinstance(value, (bool, np.bool_)) or not isinstance(
        value, (numbers.Real, Fraction, sp.Expr, np.integer, np.floating)
    ):
        raise TypeError(f"{want}, got {type(value).__name__} {_describe(value)}")
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{name} must be finite ({valid}), got {value!r}")
    return sp.sympify(value, strict=True)


def _check_symbolic_args(n1: Any, n2: Any, rho: Any) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    out = []
    for name, value in (("n1", n1), ("n2", n2)):
        v = _symbolic_arg(name, value, "a norm (>= 0, finite)")
        if v.is_negative or v.is_real is False or v.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
            raise ValueError(f"{name} must be a norm (>= 0, finite), got {_describe(value)}")
        out.append(v)
    r = _symbolic_arg("rho", rho, "a cosine in [-1, 1]")
    if (
        r.is_real is False
        or r.has(sp.oo, -sp.oo, sp.zoo, sp.nan)
        or (r.is_number and not (-1 <= r <= 1))
    ):
        raise ValueError(f"rho must be a cosine in [-1, 1], got {_describe(rho)}")
    return out[0], out[1], r


def kernel(name: str, init: Initialisation | None = None, n1: Any = N1, n2: Any = N2,
           rho: Any = RHO) -> sp.Expr:  # fmt: skip
    """The infinite-width kernel ``name`` (``"nngp"`` = ``K_GP`` (2.4), ``"rf"`` = ``K_RF``
    and ``"ntk_first_layer"`` = ``K_NTK`` (2.31), ``"ntk"`` = ``K_0 = K_RF + K_NTK`` (2.30);
    :data:`~solvable.models.kernels.symbols.KERNELS`) of the ReLU network as a function of
    the norms ``n1 = |x|``, ``n2 = |x'|`` and the cosine ``rho`` (``init=None``: generic
    ``E[a^2] = A2``, ``s^2 = S2``).  See the module docstring for the derivation (claims
    ``closed_forms_from_definitions``, ``arccos_order_0``, ``arccos_order_1``)."""
    name, init = _check_name(name), _check_init(init)
    n1, n2, rho = _check_symbolic_args(n1, n2, rho)
    m2, s2 = init.a_second_moment, init.w_variance
    rf = s2 * n1 * n2 * arccos_expectation(1, rho)  # relu(s n u) = s n relu(u), s n > 0
    first = m2 * (n1 * n2 * rho) * arccos_expectation(0, rho)  # relu' is scale invariant
    return {"rf": rf, "ntk_first_layer": first, "nngp": m2 * rf, "ntk": rf + first}[name]


def _angle_form(expr: sp.Expr) -> sp.Expr:
    """``expr(rho)`` at ``rho = cos(theta)``, ``theta in [0, pi]``: ``acos(cos theta) = theta``
    and ``sqrt(1 - cos^2 theta) = sin theta`` there (claim ``stable_forms``)."""
    e = expr.subs(RHO, sp.cos(THETA))
    return e.replace(sp.acos(sp.cos(THETA)), THETA).subs(
        sp.sqrt(1 - sp.cos(THETA) ** 2), sp.sin(THETA)
    )


def kernel_theta(name: str, init: Initialisation | None = None, n1: Any = N1, n2: Any = N2,
                 theta: Any = THETA) -> sp.Expr:  # fmt: skip
    """:func:`kernel` in terms of the angle ``theta in [0, pi]`` between ``x`` and ``x'``."""
    th = to_expr("theta", theta)
    if th.is_number and not (0 <= th <= sp.pi):
        raise ValueError(f"theta must be an angle in [0, pi], got {theta!r}")
    return _angle_form(kernel(name, init, n1, n2, RHO)).subs(THETA, th)


def _cosine_stable(expr: sp.Expr) -> sp.Expr:
    """``sqrt(1 - rho^2) -> sqrt((1 - rho)(1 + rho))``: no cancellation at ``rho -> +-1``."""
    return expr.subs(sp.sqrt(1 - RHO**2), sp.sqrt((1 - RHO) * (1 + RHO)))


def kernel_of_vectors(name: str, init: Initialisation | None, x: Any, xp: Any) -> sp.Expr:
    """The kernel at two explicit vectors (exact: ints, Fractions, sympy numbers), 0 when
    either is the zero vector (module docstring)."""
    xs, ys = sp.Matrix(_exact_vector("x", x)), sp.Matrix(_exact_vector("xp", xp))
    if xs.shape != ys.shape or xs.shape[0] == 0:
        raise ValueError(f"x and xp must be vectors of one length, got {xs.shape}, {ys.shape}")
    if init is not None:
        _check_dimension("x", xs.shape[0], _check_init(init))
    n1, n2 = sp.sqrt(xs.dot(xs)), sp.sqrt(ys.dot(ys))
    if n1 == 0 or n2 == 0:
        _check_name(name)
        _check_init(init)
        return sp.S.Zero
    return kernel(name, init, n1, n2, sp.radsimp(xs.dot(ys) / (n1 * n2)))


def _exact_vector(name: str, value: Any) -> list[sp.Expr]:
    """A 1-d sequence of finite real numbers or sympy expressions, exact (floats through
    ``nsimplify(rational=True)``; strings only as exact numbers, never evaluated)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a 1-d sequence of real numbers, got "
                        f"{type(value).__name__} {_describe(value)}")  # fmt: skip
    if isinstance(value, np.ndarray) and value.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {value.shape}")
    out = []
    for i, v in enumerate(value.tolist() if isinstance(value, np.ndarray) else value):
        if isinstance(v, float):
            if not math.isfinite(v):
                raise ValueError(f"{name}[{i}] must be finite, got {v!r}")
            out.append(sp.nsimplify(v, rational=True))
            continue
        e = to_expr(f"{name}[{i}]", v)
        if e.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or e.is_real is False:
            raise ValueError(f"{name}[{i}] must be a finite real number, got {_describe(v)}")
        out.append(e)
    return out


def exercise_printed_ntk(rho: Any = RHO) -> sp.Expr:
    """The right-hand side of (4.2) as printed: ``1/2 - arccos(rho)/(2 pi)`` (it lacks the
    factor ``<x, x'>``; see :func:`errata`)."""
    return sp.Rational(1, 2) - sp.acos(to_expr("rho", rho)) / (2 * sp.pi)
