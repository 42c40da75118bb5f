"""Seed 001 (Xu & Ziyin): the per-unit arithmetic both engines of
:meth:`~solvable.models.xu_ziyin.trajectory.Trajectory.sample` share (the fast float64
engine, :mod:`~solvable.models.xu_ziyin.float64_sample`, and the reference
``Trajectory._evaluate``): u_t and v_t of a unit from the coefficients of time
(:func:`~solvable.models.xu_ziyin.evaluators.unit_forms`) and its initial values, the sums of
squares over the units, and the broadcast of a value of time to ``n`` entries.  One copy of
the arithmetic, so the two engines agree bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _full_any(a: Any, n: int) -> np.ndarray:
    """A function of time as an ``(n,)`` array of its own dtype (float64, or mpmath
    objects)."""
    a = np.asarray(a)
    return np.broadcast_to(a, (n,)) if a.ndim == 0 else a


def _full(a: Any, n: int) -> np.ndarray:
    """A function of time as a float64 ``(n,)`` array (a lazy Piecewise whose one piece is
    a constant returns the scalar)."""
    return np.broadcast_to(np.asarray(a, dtype=float), (n,))


def _initial_sums(p0: np.ndarray, q0: np.ndarray) -> tuple[Any, Any]:
    """``sum_i p_i(0)^2`` and ``sum_i q_i(0)^2`` (float64 or mpmath; one function for both
    paths of :meth:`Trajectory.sample`, so that they sum in the same order)."""
    return np.sum(p0 * p0), np.sum(q0 * q0)


def _unit_sums(squares: tuple[Any, Any], sums0: tuple[Any, Any], n: int) -> tuple[Any, Any]:
    """``sum_i p_i(t)^2`` and ``sum_i q_i(t)^2`` at ``n`` times: the coefficients of
    :func:`~solvable.models.xu_ziyin.evaluators.unit_forms` (``squares``, functions of time)
    times the initial sums; 0 where an initial sum is 0 (each ``p_t`` is 0 there, also where
    its coefficient is infinite)."""
    return tuple(np.zeros(n) if s0 == 0 else _full_any(c, n) * s0
                 for c, s0 in zip(squares, sums0, strict=True))  # fmt: skip


def _unit_value(first: np.ndarray, c: list[Any], units: tuple[Any, ...]) -> Any:
    """One of u(t), v(t) (or ``v(t) x_0 / |x|^2``) of every unit, ``(T, d)``, from four
    coefficients of :func:`~solvable.models.xu_ziyin.evaluators.unit_forms` at each time
    (``c``, each ``(T,)``: :data:`_U_TERMS` or :data:`_V_TERMS`) and the units' values
    (``units``, each ``(1, d)``: those multiplying u0, v0, p0, q0): the first pieces where
    ``first``, else the second, a term whose ``p0`` or ``q0`` is 0 being 0.  float64 or
    mpmath object arrays alike; :func:`_two_terms` does the same operations."""
    c = [np.asarray(a)[:, None] for a in c]

    def term(ci: Any, x: Any) -> Any:  # 0 where x = 0, as the Piecewise p_t, q_t
        return np.where(x == 0, 0.0, ci * x)

    return np.where(first[:, None], c[0] * units[0] + c[1] * units[1],
                    term(c[2], units[2]) + term(c[3], units[3]))  # fmt: skip


_U_TERMS = (0, 1, 4, 5)
"""The coefficients of :func:`~solvable.models.xu_ziyin.evaluators.unit_forms` that make u
(of u0, v0 in the first pieces, of p0, q0 in the second)."""


_V_TERMS = (2, 3, 6, 7)
"""Those that make v."""
