"""Seed 002, Exercise 1(b), (c): the Hoeffding epsilon-delta bound on the empirical K_NTK Gram
matrix (4.4) at finite width, in sympy (the one source), with its generated float64
evaluators.

Exercise 1's network (4.1) (``a_k = +-1``, ``w_k ~ N(0, I_d)``), data ``x_1..x_n`` in the unit
ball ``B(0, 1)``.  Entry ``(i, j)`` of (4.4) is the mean of ``p`` i.i.d. terms
``<x_i, x_j> a_k^2 relu'(<w_k, x_i>) relu'(<w_k, x_j>)``, each in an interval of length
``|<x_i, x_j>| <= 1``, with mean ``K_NTK(x_i, x_j)`` (4.2).  Hoeffding's inequality gives
``P(|K^_ij - K_ij| >= s) <= 2 exp(-2 p s^2)``; ``||K^ - K||_F <= n max_ij |K^_ij - K_ij|``,
so ``s = epsilon / n`` and a union bound over the ``n (n + 1) / 2`` entries ``i <= j`` (the
matrices are symmetric) give

``P(||K^ - K||_F > epsilon) <= delta(p, epsilon, n) = n (n + 1) exp(-2 p epsilon^2 / n^2)``,

i.e. ``||K^ - K||_F <= epsilon`` with probability at least ``1 - delta`` as soon as
``p >= n^2 log(n (n + 1) / delta) / (2 epsilon^2)``: the exercise's ``p = Omega(epsilon^-2 n^2
log(n / delta))``.  Exercise 1(c): ``|lambda_min(K^) - lambda_min(K)| <= ||K^ - K||_2 <=
||K^ - K||_F`` (Weyl), so with ``epsilon = lambda_min(K)`` that width makes ``lambda_min(K^) >
0`` with probability at least ``1 - delta``.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable._core.claims import Verdict, prove_zero
from solvable.models.kernels.initialisation import exercise_initialisation
from solvable.models.kernels.table_1 import P

__all__ = [
    "DELTA",
    "EPS",
    "NPTS",
    "hoeffding_epsilon",
    "hoeffding_failure_probability",
    "hoeffding_width",
]

EPS = sp.Symbol("epsilon", positive=True)
"""The Frobenius tolerance ``epsilon`` of (4.3)."""
DELTA = sp.Symbol("delta", positive=True)
"""The failure probability ``delta`` of Exercise 1(b)."""
NPTS = sp.Symbol("n", positive=True, integer=True)
"""The number ``n`` of data points."""


def failure_probability_expr() -> sp.Expr:
    """``delta(p, epsilon, n) = n (n + 1) exp(-2 p epsilon^2 / n^2)`` (module docstring):
    Hoeffding per entry at ``s = epsilon / n`` (range ``|<x_i, x_j>| <= 1``), union over the
    ``n (n + 1) / 2`` entries ``i <= j``, two-sided."""
    return NPTS * (NPTS + 1) * sp.exp(-2 * P * EPS**2 / NPTS**2)


def width_expr() -> sp.Expr:
    """The width at which :func:`failure_probability_expr` equals ``delta``:
    ``n^2 log(n (n + 1) / delta) / (2 epsilon^2)`` (claim ``kernels.hoeffding_bound`` proves it
    the unique root)."""
    return NPTS**2 * sp.log(NPTS * (NPTS + 1) / DELTA) / (2 * EPS**2)


def epsilon_expr() -> sp.Expr:
    """The ``epsilon`` at which :func:`failure_probability_expr` equals ``delta`` at width
    ``p``: ``n sqrt(log(n (n + 1) / delta) / (2 p))`` (claim ``kernels.hoeffding_bound``)."""
    return NPTS * sp.sqrt(sp.log(NPTS * (NPTS + 1) / DELTA) / (2 * P))


@functools.cache
def _evaluators() -> dict[str, Any]:
    return {
        "delta": generate((P, EPS, NPTS), failure_probability_expr(), "numpy"),
        "width": generate((EPS, DELTA, NPTS), width_expr(), "numpy"),
        "epsilon": generate((P, DELTA, NPTS), epsilon_expr(), "numpy"),
    }


def _positive(name: str, value: Any) -> float:
    return nb.to_float(nb.check_number(name, value, positive=True), name)


def _probability(name: str, value: Any) -> float:
    v = _positive(name, value)
    if not v < 1:
        raise ValueError(f"{name} must be a probability in (0, 1), got {value!r}")
    return v


def _finite(what: str, value: float, argument: str) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{what} overflows float64 ({argument} too small or too large for "
                         "a finite bound)")  # fmt: skip
    return float(value)


def hoeffding_failure_probability(p: int, epsilon: Any, n: int) -> float:
    """Exercise 1(b) (seed 002, eqs. (4.3), (4.4)): the Hoeffding bound ``n (n + 1) exp(-2 p
    epsilon^2 / n^2)`` on ``P(||K^_NTK - K_NTK||_F > epsilon)`` at width ``p`` for ``n`` data
    points in the unit ball (a value above 1 bounds nothing).  ``p``, ``n``: ints >= 1;
    ``epsilon > 0``."""
    p, n = nb.check_int("p", p), nb.check_int("n", n)
    return float(_evaluators()["delta"](float(p), _positive("epsilon", epsilon), float(n)))


def hoeffding_width(epsilon: Any, delta: Any, n: int) -> float:
    """Exercise 1(b): the width ``n^2 log(n (n + 1) / delta) / (2 epsilon^2)`` above which
    ``||K^_NTK - K_NTK||_F <= epsilon`` with probability at least ``1 - delta`` (not rounded
    up).  With ``epsilon = lambda_min(K_NTK)``, Exercise 1(c): ``lambda_min(K^_NTK) > 0`` with
    probability at least ``1 - delta``.  ``epsilon > 0``, ``delta`` in (0, 1), ``n`` an int
    >= 1; a width beyond float64 is a ``ValueError``."""
    eps, dlt = _positive("epsilon", epsilon), _probability("delta", delta)
    n = nb.check_int("n", n)
    with np.errstate(over="ignore"):  # an overflow is refused just below, naming epsilon
        with_overflow = _evaluators()["width"](eps, dlt, float(n))
    return _finite("the width", with_overflow, "epsilon")


def hoeffding_epsilon(p: int, delta: Any, n: int) -> float:
    """Exercise 1(b): the ``epsilon = n sqrt(log(n (n + 1) / delta) / (2 p))`` such that
    ``||K^_NTK - K_NTK||_F <= epsilon`` with probability at least ``1 - delta`` at width
    ``p``.  ``p``, ``n``: ints >= 1; ``delta`` in (0, 1)."""
    p, n = nb.check_int("p", p), nb.check_int("n", n)
    dlt = _probability("delta", delta)
    with np.errstate(over="ignore"):  # an overflow is refused by _finite, naming delta
        eps = _evaluators()["epsilon"](float(p), dlt, float(n))
    return _finite("epsilon", eps, "delta")


def _hoeffding_bound() -> Verdict:
    """The derivation of the module docstring, step by step: the summand's range under
    Exercise 1's record (a^2 = 1: Rademacher of second moment 1), the per-entry Hoeffding
    bound at ``s = epsilon / n`` summed over the ``n (n + 1) / 2`` entries ``i <= j``; the
    width and epsilon as the roots (unique: ``d log delta / dp = -2 epsilon^2 / n^2 < 0``);
    and the order ``width = Theta(epsilon^-2 n^2 log(n / delta))`` (ratio -> 1/2 as ``delta
    -> 0``, -> 1 as ``n -> oo``)."""
    init = exercise_initialisation()
    s = EPS / NPTS
    per_entry = 2 * sp.exp(-2 * P * s**2 / init.a_second_moment**2)  # range a^2 |<x,x'>| <= 1
    union = NPTS * (NPTS + 1) / 2 * per_entry
    delta = failure_probability_expr()
    at_width = delta.subs(P, width_expr())
    at_eps = delta.subs(EPS, epsilon_expr())
    slope = sp.diff(sp.log(delta), P) + 2 * EPS**2 / NPTS**2
    order = width_expr() * EPS**2 / (NPTS**2 * sp.log(NPTS / DELTA))
    small_delta = sp.limit(order, DELTA, 0, "+") - sp.Rational(1, 2)
    wide_n = sp.limit(order.subs(DELTA, sp.Rational(1, 10)), NPTS, sp.oo) - 1
    law = sp.Integer(0 if init.a_law == "rademacher" else 1)
    return prove_zero(union - delta, at_width - DELTA, at_eps - DELTA, slope, small_delta,
                      wide_n, law)  # fmt: skip
