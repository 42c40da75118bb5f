"""Small arithmetic of seed 001's closed form and measures, float64 or mpmath alike: reported
scalars, dot products, square roots, Lagrange's identity (the conserved Lambda of eq. (21))
and the cosine of eq. (20).
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb


def _scalar(z: Any, dps: int | None) -> Any:
    """A reported constant: a Python float (float64), or an ``mpf`` rounded to ``dps``."""
    return float(z) if dps is None else nb.round_to(dps)(z)


def _dot(a: Any, b: Any) -> Any:
    if a.dtype.kind == "f" and b.dtype.kind == "f":
        return float(a @ b)
    return sum((ai * bi for ai, bi in zip(a, b, strict=True)), start=0 * a[0])


def _sqrt(z: Any, dps: int | None) -> Any:
    return float(np.sqrt(z)) if dps is None else mpmath.sqrt(z)


def _lagrange(p: np.ndarray, q: np.ndarray, block: int = 512) -> Any:
    """``sum_{i<j} (p_i q_j - p_j q_i)^2`` (Lagrange's identity: ``|p|^2 |q|^2 - (p.q)^2``
    without its cancellation when ``p`` and ``q`` are nearly parallel), in row blocks."""
    total = 0 * p[0]
    for start in range(0, len(p), block):
        pi, qi = p[start : start + block, None], q[start : start + block, None]
        m = pi * q[None, :] - qi * p[None, :]
        total = total + (m * m).sum()
    return total / 2


def _cosine(uv: Any, nu: Any, nv: Any, dps: int | None) -> Any:
    if nu == 0 or nv == 0:
        return float("nan") if dps is None else mpmath.nan
    return uv / nu / nv
