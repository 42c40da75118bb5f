"""Numerically careful special functions, as sympy functions with one
implementation per array backend.

The closed forms in :mod:`solvable` are sympy expressions.  Where the textbook
form of a formula cancels or overflows in float64, the stable form is written
with the functions below (``expm1``, ``log1p``, ``logaddexp``, ``exprel``);
:func:`elementary` rewrites them back into ``exp``/``log`` so that sympy can
prove the stable form equal to the textbook one, and :func:`namespace` gives
the implementations that :func:`sympy.lambdify` binds for each backend.
"""

from __future__ import annotations

import functools
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from sympy.codegen.cfunctions import expm1, log1p

__all__ = ["BACKENDS", "elementary", "expm1", "exprel", "log1p", "logaddexp", "namespace"]

BACKENDS = ("numpy", "mpmath")


class logaddexp(sp.Function):  # noqa: N801 - sympy function names are lower case
    """``log(exp(a) + exp(b))`` without overflow; ``-oo`` arguments allowed."""

    nargs = 2

    def _eval_rewrite_as_exp(self, a, b, **kwargs):
        return sp.log(sp.exp(a) + sp.exp(b))

    _eval_rewrite_as_log = _eval_rewrite_as_exp


class exprel(sp.Function):  # noqa: N801
    """``(exp(z) - 1) / z``, continued by ``exprel(0) = 1``."""

    nargs = 1

    @classmethod
    def eval(cls, z):
        if z.is_zero:
            return sp.S.One
        return None

    def _eval_rewrite_as_exp(self, z, **kwargs):
        return (sp.exp(z) - 1) / z


def elementary(expr: sp.Expr) -> sp.Expr:
    """Rewrite the stable special functions into ``exp`` and ``log``."""
    return (
        expr.replace(expm1, lambda z: sp.exp(z) - 1)
        .replace(log1p, lambda z: sp.log(1 + z))
        .replace(logaddexp, lambda a, b: sp.log(sp.exp(a) + sp.exp(b)))
        .replace(exprel, lambda z: (sp.exp(z) - 1) / z)
    )


# --- numpy ----------------------------------------------------------------
def _np_exprel(z: Any) -> Any:
    z = np.asarray(z, dtype=float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        out = np.expm1(z) / z
    return np.where(z == 0, 1.0, out)


def _np_select(condlist: list[Any], choicelist: list[Any], default: Any = np.nan) -> Any:
    """``numpy.select`` for sympy's Piecewise, with scalar branches broadcast."""
    arrays = np.broadcast_arrays(*(np.asarray(a) for a in (*condlist, *choicelist)))
    n = len(condlist)
    return np.select(arrays[:n], arrays[n:], default=default)


class _Broadcasting:
    """``logical_and``/``logical_or`` whose ``.reduce`` (as printed by sympy's numpy
    printer for ``And``/``Or``) accepts a mix of scalars and arrays."""

    def __init__(self, ufunc: np.ufunc) -> None:
        self._ufunc = ufunc

    def __call__(self, *args: Any) -> Any:
        return self._ufunc(*args)

    def reduce(self, args: Any) -> Any:
        return functools.reduce(self._ufunc, args)


# --- mpmath ---------------------------------------------------------------
def _mp_logaddexp(a: Any, b: Any) -> Any:
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if a == mpmath.ninf:
        return b
    if b == mpmath.ninf:
        return a
    hi, lo = (a, b) if a >= b else (b, a)
    if hi == mpmath.inf:
        return hi
    return hi + mpmath.log1p(mpmath.exp(lo - hi))


def _mp_exprel(z: Any) -> Any:
    z = mpmath.mpf(z)
    if z == 0:
        return mpmath.mpf(1)
    if z == mpmath.inf:
        return z
    return mpmath.expm1(z) / z


def _mp_log(z: Any) -> Any:
    z = mpmath.mpf(z)
    return mpmath.ninf if z == 0 else mpmath.log(z)


def _mp_exp(z: Any) -> Any:
    z = mpmath.mpf(z)
    return mpmath.mpf(0) if z == mpmath.ninf else mpmath.exp(z)


def namespace(backend: str) -> list[Any]:
    """The ``modules`` argument of :func:`sympy.lambdify` for ``backend``."""
    if backend == "numpy":
        return [
            {
                "exprel": _np_exprel,
                "logaddexp": np.logaddexp,
                "select": _np_select,
                "logical_and": _Broadcasting(np.logical_and),
                "logical_or": _Broadcasting(np.logical_or),
            },
            "numpy",
        ]
    if backend == "mpmath":
        return [
            {
                "logaddexp": _mp_logaddexp,
                "exprel": _mp_exprel,
                "log": _mp_log,
                "exp": _mp_exp,
                "expm1": mpmath.expm1,
                "log1p": mpmath.log1p,
            },
            "mpmath",
        ]
    raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
