"""Seed 003 (Kunin et al.), Part I's loss ``L = 1/2 sum_i (a w^T x_i - y_i)^2`` in an orthonormal
frame of a plane (issue 17, claim ``kunin.loss_in_frame``): data ``B`` (n, 2) and targets ``y``
replaced by three rows ``R`` and targets ``g`` with the same exact Gram, so that the float64
sample's loss costs O(1) per time (:func:`_loss_frame`, :func:`_frame_loss`); the frame's sympy
expressions and the exact Gram of float64 data.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.backends import generate
from solvable.models.kunin.losses import _loss

_GRAM = sp.symbols("G_11 G_12 G_22 h_1 h_2 y_y", real=True)


@functools.cache
def _frame_exprs() -> dict[str, tuple[sp.Matrix, sp.Matrix]]:
    """The loss in an orthonormal frame of a plane (issue 17, claim ``kunin.loss_in_frame``):
    for data ``B`` (n, 2) with Gram ``G = B^T B``, ``h = B^T y``, ``y_y = y^T y``, three rows
    ``R`` (3, 2) and targets ``g`` (3,) with ``R^T R = G``, ``R^T g = h``, ``g^T g = y_y``, so
    that ``loss(a, c, B, y) = loss(a, c, R, g)`` for every ``a`` and ``c`` (O(1) per time
    instead of O(n)): ``R`` the Cholesky factor of ``G`` over a zero row, ``g = (R^-T h,
    sqrt(m))`` with ``m = y_y - h^T G^-1 h >= 0`` (the squared distance of ``y`` from the
    plane), as expressions of :data:`_GRAM`.  ``"full"``: ``G`` positive definite;
    ``"rank_one"``: ``G_11 > 0`` and the second column ``G_12 / G_11`` times the first (``G_22
    = G_12^2 / G_11``, ``h_2 = G_12 h_1 / G_11``); ``"zero"``: both columns zero."""
    G11, G12, G22, h1, h2, yy = _GRAM
    r11 = sp.sqrt(G11)
    r12 = G12 / r11
    schur = G22 - G12**2 / G11
    r22 = sp.sqrt(schur)
    g1 = h1 / r11
    g2 = (h2 - r12 * g1) / r22
    m_full = yy - h1**2 / G11 - (h2 - G12 * h1 / G11) ** 2 / schur
    m_one = yy - h1**2 / G11
    z = sp.Integer(0)
    return {
        "full": (sp.Matrix([[r11, r12], [z, r22], [z, z]]), sp.Matrix([g1, g2, sp.sqrt(m_full)])),
        "rank_one": (sp.Matrix([[r11, r12], [z, z], [z, z]]), sp.Matrix([g1, z, sp.sqrt(m_one)])),
        "zero": (sp.zeros(3, 2), sp.Matrix([z, z, sp.sqrt(yy)])),
    }


def _gram_values(B: Any, y: Any, dot: Callable[[Any, Any], Any],
                 convert: Callable[[Any], Any] = lambda v: v) -> tuple[Any, ...]:  # fmt: skip
    """``(G_11, G_12, G_22, h_1, h_2, y_y)`` (:data:`_GRAM`) of data ``B`` (n, 2) and targets
    ``y`` (n,), with the dot product ``dot`` of the vectors after ``convert`` (float64 data:
    :func:`_ratios` and :func:`_exact_dot`; sympy arrays: a sum of products)."""
    u, v, y = convert(B[:, 0]), convert(B[:, 1]), convert(y)
    return dot(u, u), dot(u, v), dot(v, v), dot(u, y), dot(v, y), dot(y, y)


def _ratios(x: np.ndarray) -> list[tuple[int, int]]:
    """The entries of a float64 vector as integer ratios (mantissa, power of two)."""
    return list(map(float.as_integer_ratio, x.tolist()))


def _exact_dot(x: list[tuple[int, int]], y: list[tuple[int, int]]) -> Fraction:
    """The exact dot product of two float64 vectors given as :func:`_ratios` (integer
    mantissas over powers of two)."""
    terms = []
    for p, q in zip(x, y, strict=True):
        if p[0] and q[0]:
            terms.append((p[0] * q[0], p[1] * q[1]))
    if not terms:
        return Fraction(0)
    den = max(q for _, q in terms)  # powers of two: each divides the largest
    return Fraction(sum(p * (den // q) for p, q in terms), den)


def _frame_kind(G11: Any, G12: Any, G22: Any) -> tuple[str, bool]:
    """Which frame of :func:`_frame_exprs` exact Gram entries take, and whether the columns
    are swapped first (the first zero, the second not)."""
    swap = G11 == 0 and G22 != 0
    if swap:
        G11, G22 = G22, G11
    if G11 == 0:
        return "zero", swap
    # Cauchy-Schwarz with equality: the second column a multiple of the first
    return ("rank_one" if G11 * G22 == G12 * G12 else "full"), swap


def _frame(gram: tuple[Any, ...], kind: str, swap: bool) -> tuple[sp.Matrix, sp.Matrix]:
    """The frame ``(R, g)`` of :func:`_frame_exprs` at the Gram values ``gram`` (sympy
    numbers or expressions), columns swapped back if ``swap``."""
    G11, G12, G22, h1, h2, yy = gram
    if swap:
        G11, G22, h1, h2 = G22, G11, h2, h1
    values = dict(zip(_GRAM, map(sp.sympify, (G11, G12, G22, h1, h2, yy)), strict=True))
    R, g = (e.xreplace(values) for e in _frame_exprs()[kind])
    return (R[:, ::-1] if swap else R), g


def _loss_frame(B: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """float64 ``(R, g)`` (3, 2), (3,) of :func:`_frame_exprs` for the float64 data ``B`` (n,
    2), ``y`` (n,): ``loss(a, c, B, y)`` equals ``loss(a, c, R, g)`` in exact arithmetic
    (claim ``kunin.loss_in_frame``), and each entry of ``R`` and ``g`` is its exact value
    (from the exact Gram) correctly rounded (40 digits, then to float64: within 1 unit).
    ``None`` where ``B`` or ``y`` is not finite or an entry is neither zero nor within
    [2^-500, 2^500] (its square a normal float; the caller then evaluates the loss on ``B``)."""
    if not (np.isfinite(B).all() and np.isfinite(y).all()):
        return None
    gram = tuple(map(sp.Rational, _gram_values(B, y, _exact_dot, _ratios)))
    R, g = _frame(gram, *_frame_kind(*gram[:3]))
    out = []
    for e in (*R, *g):
        try:
            v = float(e.evalf(40)) if e != 0 else 0.0
        except OverflowError:
            return None
        if not (v == 0 or _NORMAL <= abs(v) <= _LARGE):
            return None
        out.append(v)
    return np.array(out[:6]).reshape(3, 2), np.array(out[6:])


_NORMAL, _LARGE = 2.0**-500, 2.0**500  # the frame's entries and their squares: normal floats


@functools.cache
def _frame_loss(nonzero: tuple[bool, ...]) -> Callable[..., Any]:
    """The float64 evaluator of ``loss(a, (c_1, c_2), R, g)`` (:func:`loss` on the frame of
    :func:`_loss_frame`) as a function of ``(a, c_1, c_2, R_11, ..., R_32, g_1, g_2, g_3)``
    on 1-d arrays of times, generated from :func:`loss` on symbols with the entries that are
    zero (``nonzero``, in that order, false) put in as exact zeros: the same sums of products
    without the terms that vanish, each operation on a whole chunk of times (numpy's
    (times, 3) arrays cost more per time than the arithmetic)."""
    a, c1, c2 = sp.symbols("a c_1 c_2", real=True)
    entries = sp.symbols("R_11 R_12 R_21 R_22 R_31 R_32 g_1 g_2 g_3", real=True)
    kept = [e if keep else sp.Integer(0) for e, keep in zip(entries, nonzero, strict=True)]
    R = np.array(kept[:6], dtype=object).reshape(3, 2)
    value = _loss(np.array(a, dtype=object), np.array([c1, c2], dtype=object), R,
                  np.array(kept[6:], dtype=object))  # fmt: skip
    return generate((a, c1, c2, *entries), sp.sympify(value, strict=True), "numpy")
