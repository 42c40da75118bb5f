"""Seed 004 (Zhou et al., "Empirical phase diagram for three-layer neural networks with
infinite width"), eqs. (8)-(9): the symbols (widths ``m, m_1, m_2, d``; scales ``alpha``,
``beta_1..3``), the checked inputs, and the coefficients ``kappa_1..3`` of the normalised flow
(7), the time factor of (8) and the phase coordinates ``gamma_i`` of (9) (``m_1 = m_2 = m``,
Assumption 3.1; ``d`` fixed)."""

from __future__ import annotations

import numbers
from fractions import Fraction
from typing import Any

import sympy as sp

SEED = "004_9b376d17acb97b57.txt"

# width, widths of the two hidden layers (Table 1 writes m_1, m_2) and input dimension
M, M1, M2, D = sp.symbols("m m_1 m_2 d", positive=True)
_NAMED = {"m": M, "m_1": M1, "m1": M1, "m_2": M2, "m2": M2, "d": D}

# hyper-parameters as positive symbols (alpha, beta_i > 0 in (1), (6))
ALPHA, B1, B2, B3 = sp.symbols("alpha beta_1 beta_2 beta_3", positive=True)

MAX_SIZE = 4  # largest m, d, n for the explicit symbolic proofs (cost grows like m^4 n)


# ---------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------
def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _scale(name: str, value: Any, *, free: bool = False) -> sp.Expr:
    """A positive scale (alpha or beta_i): a number or a sympy expression in m, m_1, m_2, d
    (with ``free``, also in other symbols declared ``positive=True``, and in real symbols
    where the expression is manifestly positive, e.g. the exponent ``s`` of ``m**s``).

    Floats are converted to the decimal they print as (``sp.nsimplify(...,
    rational=True)``, e.g. 0.1 -> 1/10); symbols are matched by name to ``m, m_1, m_2, d``.
    """
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number or a sympy expression, got bool {value!r}")
    if isinstance(value, float):
        expr: sp.Expr = sp.nsimplify(value, rational=True)
    elif isinstance(value, (Fraction, numbers.Rational)):
        expr = sp.Rational(value.numerator, value.denominator)
    elif isinstance(value, sp.Basic):
        expr = value
    else:
        raise TypeError(
            f"{name} must be int, float, Fraction or a sympy expression in m, m_1, m_2, d, "
            f"got {type(value).__name__} {_describe(value)}"
        )
    if not isinstance(expr, sp.Expr):
        raise TypeError(f"{name} must be a sympy expression, got {_describe(value)}")
    unknown = sorted(
        s.name for s in expr.free_symbols
        if s.name not in _NAMED
        and not (free and (s.is_positive or (s.is_real and expr.is_positive)))
    )  # fmt: skip
    if unknown:
        extra = " and positive symbols" if free else ""
        raise ValueError(
            f"{name} may depend only on m, m_1, m_2, d{extra}, got {_describe(value)} "
            f"(not allowed: {unknown})"
        )
    expr = expr.subs({s: _NAMED[s.name] for s in expr.free_symbols if s.name in _NAMED})
    if not expr.is_finite or expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise ValueError(f"{name} must be finite, got {_describe(value)}")
    if expr.is_positive is False or (expr.is_positive is None and expr.is_number):
        raise ValueError(f"{name} must be > 0 (a scale of eq. (1)/(6)), got {_describe(value)}")
    return expr


def _size(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int in [1, {MAX_SIZE}], got {_describe(value)}")
    if not 1 <= int(value) <= MAX_SIZE:
        raise ValueError(f"{name} must be in [1, {MAX_SIZE}], got {value!r}")
    return int(value)


def _number(name: str, value: Any) -> sp.Rational:
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, sp.Number)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} "
                        f"{_describe(value)}")  # fmt: skip
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be finite, got {value!r}")
        return sp.nsimplify(value, rational=True)
    v = sp.sympify(value, strict=True)
    if not v.is_finite or not v.is_real:
        raise ValueError(f"{name} must be a finite real number, got {_describe(value)}")
    return v


# ---------------------------------------------------------------------------
# eq. (8)-(9): kappa, time factor, exponents
# ---------------------------------------------------------------------------
def kappas(alpha: Any, beta_1: Any, beta_2: Any, beta_3: Any) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(kappa_1, kappa_2, kappa_3) = (beta_3/beta_2, beta_3/beta_1, beta_1 beta_2 beta_3/alpha)``,
    eq. (8) (derived in :func:`rescaling_residuals`)."""
    a, b1, b2, b3 = (
        _scale(n, v, free=True) for n, v in zip(("alpha", "beta_1", "beta_2", "beta_3"),
                                     (alpha, beta_1, beta_2, beta_3), strict=True)
    )  # fmt: skip
    return b3 / b2, b3 / b1, b1 * b2 * b3 / a


def time_factor(alpha: Any, beta_1: Any, beta_2: Any, beta_3: Any) -> sp.Expr:
    """``dtbar/dt = (alpha kappa_1 kappa_2 kappa_3)^(-2/3)``, eq. (8); equals ``beta_3^-2``
    because ``alpha kappa_1 kappa_2 kappa_3 = beta_3^3``."""
    k1, k2, k3 = kappas(alpha, beta_1, beta_2, beta_3)
    a = _scale("alpha", alpha, free=True)
    return sp.powsimp((a * k1 * k2 * k3) ** sp.Rational(-2, 3), force=True)


def exponent(kappa: Any) -> sp.Expr:
    """``lim_{m->oo} -log(kappa)/log(m)`` (eq. (9)) with ``m_1 = m_2 = m`` (Assumption 3.1)
    and ``d`` fixed; an exact sympy number (an expression in the exponents' symbols when
    ``kappa`` is ``m`` to a symbolic real power, e.g. ``m**(p - q)`` gives ``q - p``).

    Other symbols declared positive are constants independent of m (e.g. ``B`` of
    Assumption 3.2).  Raises ``ValueError`` when the limit is not a finite real number
    (kappa not of power-law order in m).
    """
    k = _scale("kappa", kappa, free=True).subs({M1: M, M2: M})
    g = sp.limit(-sp.expand_log(sp.log(k), force=True) / sp.log(M), M, sp.oo)
    if (
        not (g.is_finite and g.is_real)
        or g.has(sp.AccumBounds, M, D)
        or not all(s.is_real for s in g.free_symbols)
    ):
        raise ValueError(f"kappa must be of power-law order in m, got {_describe(kappa)}")
    return g


def gamma_coordinates(
    alpha: Any, beta_1: Any, beta_2: Any, beta_3: Any
) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """``(gamma_1, gamma_2, gamma_3)`` of eq. (9) (``gamma_1`` from the text after (9))."""
    k1, k2, k3 = kappas(alpha, beta_1, beta_2, beta_3)
    return exponent(k1), exponent(k2), exponent(k3)
