"""Seed 003 (Kunin et al.), the loss near its minimum for exactly isotropic data (claims
``kunin.deviation_from_minimum``, ``kunin.wide_deviation_from_limit``): the exact least loss of
a setup (:func:`_projection`, :func:`_wide_floor`, cached on the setup) and ``L = L_min + s
|beta - beta*|^2 / 2`` from decaying terms (:func:`_loss_of`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath

from solvable._core.exact_gram import IsotropicProjection, isotropic_projection
from solvable.models.kunin.setups import Setup, WideSetup, _float64_X


def _loss_of(loss_deviation: Callable[..., Any], k: dict[str, Any], z_dev: Any,
             u2: Any) -> Any:  # fmt: skip
    """The loss ``L_min + s |beta - beta*|^2 / 2`` of exactly isotropic data (claim
    ``kunin.deviation_from_minimum``) from ``z_dev`` and beta's coordinate ``u2`` along
    ``c_perp``: every term is a sum of squares, so the loss keeps its relative digits down to
    ``L_min`` (the residual ``X a w - y`` formed by subtraction keeps only absolute ones).
    Data that is isotropic only to a tolerance keeps that residual: there ``L`` differs from
    this by ``beta^T (X^T X - s I) beta / 2``, of the size of the isotropy defect times
    ``s |beta|^2``."""
    m = k["minimum"]
    return loss_deviation(k["kappa"] * z_dev, u2, m["root_s"], k["cperp"], m["floor"])


# The exact least loss of float64 data is looked for (one exact Gram of [X | y]) up to this
# many multiply-adds n (d + 1)^2: about 10 ms (n = d = 60); larger float64 data keeps the
# loss from the residual (whitened float64 data is not exactly isotropic: see _loss_of).
_EXACT_LOSS_WORK = 2**18
_PROJECTION = "_isotropic_projection"  # the instance attribute caching _projection


def _projection(setup: Setup) -> IsotropicProjection | None:
    """The exact :class:`IsotropicProjection` of the setup's data when ``X^T X = s I``
    holds exactly (exact data of any size :func:`exact_gram` takes; float64 data up to
    :data:`_EXACT_LOSS_WORK`), else ``None``; computed once per setup, cached on it."""
    got = setup.__dict__.get(_PROJECTION, False)
    if got is False:
        got = None
        if _float64_X(setup) is None or setup.n * (setup.d + 1) ** 2 <= _EXACT_LOSS_WORK:
            try:
                got = isotropic_projection(setup.X, setup.y, "X")
            except ValueError:  # beyond exact_gram's work limit: the loss from the residual
                got = None
        object.__setattr__(setup, _PROJECTION, got)
    return got


def _wide_floor(setup: WideSetup) -> Fraction | None:
    """The exact least loss of a wide setup, the sum of :func:`_projection`'s over the
    target columns, when ``X^T X = s I`` holds exactly (as :func:`_projection`), else
    ``None``; computed once per setup, cached on it."""
    got = setup.__dict__.get(_PROJECTION, False)
    if got is False:
        columns = [Setup(setup.eta_a, setup.eta_w, setup.X, tuple(r[j] for r in setup.Y))
                   for j in range(setup.c)]  # fmt: skip
        floors = [_projection(col) for col in columns]
        got = None if None in floors else sum((f.floor for f in floors), Fraction(0))
        object.__setattr__(setup, _PROJECTION, got)
    return got


def _working_rational(q: Fraction, dps: int | None) -> Any:
    """The exact rational ``q`` at the working precision (float64: correctly rounded, inf
    beyond the range)."""
    if dps is None:
        try:
            return float(q)
        except OverflowError:
            return math.inf if q > 0 else -math.inf
    return mpmath.mpf(q.numerator) / q.denominator


def _working_sqrt(q: Fraction, dps: int | None) -> Any:
    """``sqrt(q)`` of the exact rational ``q >= 0`` at the working precision, without the
    overflow or underflow of ``q`` itself in float64 (``q = 4^e r``, ``r`` near 1: the
    square root of ``r``, rounded once, times ``2^e``; inf beyond the range)."""
    if dps is not None:
        return mpmath.sqrt(_working_rational(q, dps))
    if q == 0:
        return 0.0
    e = (q.numerator.bit_length() - q.denominator.bit_length()) // 2
    r = q / Fraction(4) ** e if e >= 0 else q * Fraction(4) ** -e
    try:
        return math.ldexp(math.sqrt(float(r)), e)
    except OverflowError:
        return math.inf
