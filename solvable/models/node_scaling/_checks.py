"""Input validation of the node-scaling parameters of seed 000 (eq. (1), eq. (4)): exact sympy
values of ``gamma``, ``alpha`` and the integers ``m``, ``j``, ``K``.
"""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp


# ---------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------
def _sympify_number(name: str, value: Any) -> sp.Expr:
    """Exact sympy value; floats go through ``nsimplify(rational=True)`` (0.1 -> 1/10)."""
    if isinstance(value, bool) or not isinstance(
        value, (numbers.Real, Fraction, sp.Expr, np.integer, np.floating, str)
    ):
        raise TypeError(f"{name} must be a real number or sympy expression, got {value!r}")
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    if isinstance(value, str):  # an exact decimal, "0.3" -> 3/10
        try:
            return sp.Rational(value.strip())
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a decimal number, got {value!r}") from None
    if isinstance(value, float):
        if not np.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return sp.nsimplify(value, rational=True)
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    expr = sp.sympify(value, strict=True)
    if expr.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or expr.is_real is False:
        raise ValueError(f"{name} must be a finite real number, got {value!r}")
    return expr


def _check_gamma(gamma: Any) -> sp.Expr:
    g = _sympify_number("gamma", gamma)
    if g.free_symbols:
        if g.is_negative or (1 - g).is_negative:
            raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
        return g
    if not (0 <= g <= 1):
        raise ValueError(f"gamma must be in [0, 1], got {gamma!r}")
    return g


def _check_alpha(alpha: Any) -> sp.Expr:
    a = _sympify_number("alpha", alpha)
    inside = (sp.together(a).is_positive, sp.together(1 - a).is_positive)
    if a.free_symbols:
        if inside != (True, True):
            raise ValueError(
                f"alpha must be provably in (0, 1) (e.g. 1/(1 + b), b > 0), got {alpha!r}"
            )
        return a
    if not (0 < a < 1):
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    return a


def _check_integer(name: str, value: Any, low: int = 1) -> sp.Expr:
    if isinstance(value, sp.Symbol):
        if not (value.is_integer and value.is_positive):
            raise ValueError(f"{name} must be a positive integer symbol, got {value!r}")
        return value
    if isinstance(value, sp.Expr) and value.free_symbols:
        if not (value.is_integer and value.is_positive):
            raise ValueError(f"{name} must be a positive integer expression, got {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, sp.Integer)):
        raise TypeError(f"{name} must be an int >= {low}, got {type(value).__name__} {value!r}")
    if int(value) < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return sp.Integer(int(value))
