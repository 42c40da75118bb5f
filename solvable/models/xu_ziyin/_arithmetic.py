"""Small arithmetic of seed 001's closed form and measures, float64 or mpmath alike: reported
scalars, dot products, square roots, Lagrange's identity (the conserved Lambda of eq. (21))
and the cosine of eq. (20).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.exact_gram import to_fraction


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


def _exact_manifold_zeros(
    p0: np.ndarray, q0: np.ndarray, u: np.ndarray, W: np.ndarray, x: np.ndarray,
    eta: tuple[Any, Any], given: tuple[Any, Any, Any, Any, Any], dps: int | None,
) -> None:  # fmt: skip
    """Set ``p0_i`` (``q0_i``) to exactly 0 where it is 0 for the exact inputs: on
    Proposition 1's invariant manifolds (``P = 0``: every ``p_i = 0``) the flow stays for all
    time, but ``(sqrt(eta_u) v_i +- sqrt(eta_w) rho u_i) / (2 rho)`` with rounded roots
    (e.g. eta_u = 6, eta_w = 2, |x|^2 = 3: sqrt(6) = sqrt(2) sqrt(3)) is a rounding residue,
    which grows and took the float64 state to the other fixed point (f -> 1 for f -> 0).

    ``u``, ``W``, ``x``, ``eta = (eta_u, eta_w)``: the working values; ``given``: the exact
    inputs ``(u0, W0, x, eta_u, eta_w)`` as given.  ``p_i = 0`` exactly iff ``eta_u v_i^2 =
    eta_w |x|^2 u_i^2`` and ``v_i u_i <= 0`` (``q_i``: ``v_i u_i >= 0``), ``v = W0 x``, decided
    in rationals for the units whose computed ``p_i`` or ``q_i`` is within the rounding of
    its terms (``2^10 d0`` units of roundoff: a generous margin, as a false candidate only
    costs the exact check)."""
    eps = 2.0**-52 if dps is None else mpmath.mpf(10) ** -dps
    rho = _sqrt(_dot(x, x), dps)
    root_u, root_w = (_sqrt(e, dps) for e in eta)
    with np.errstate(all="ignore"):
        terms = root_u * (abs(W) @ abs(x)) + root_w * rho * abs(u)
        margin = 2**10 * len(x) * eps * terms / (2 * rho)
        near = (abs(p0) <= margin) | (abs(q0) <= margin)
    candidates = [i for i in range(len(u)) if bool(near[i])]
    if not candidates:
        return
    u0g, W0g, xg, eta_ug, eta_wg = given
    xs = [to_fraction(v) for v in xg]
    rho2 = sum((v * v for v in xs), Fraction(0))
    eta_u, eta_w = to_fraction(eta_ug), to_fraction(eta_wg)
    for i in candidates:
        ui = to_fraction(u0g[i])
        vi = sum((to_fraction(w) * xj for w, xj in zip(W0g[i], xs, strict=True)), Fraction(0))
        if eta_u * vi * vi != eta_w * rho2 * ui * ui:
            continue
        if vi * ui <= 0:
            p0[i] = abs(p0[i]) * 0  # (+0, of the working type)
        if vi * ui >= 0:
            q0[i] = abs(q0[i]) * 0
