"""The angle between two vectors, computed once for every backend.

``theta(x, x') = 2 atan2(|x^ - x'^|, |x^ + x'^|)`` with the unit vectors ``x^ = x/|x|``
(Kahan's form): accurate to a few ulps at every angle, where ``acos(x^ . x'^)`` loses half
the digits near ``theta = 0`` and ``pi``.  :data:`ANGLE` is the sympy expression of the
formula in the two norms; the claim ``kernels.stable_forms`` proves it equal to
``acos(rho)`` for unit vectors.  :func:`norms_and_angles` evaluates it for numpy (float64),
mpmath (object arrays of ``mpf``) and torch with one body (:func:`solvable._core.backends.ops`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.backends import check_backend, generate, ops

__all__ = [
    "ANGLE",
    "DIFF_NORM",
    "SUM_NORM",
    "SUPPLEMENT",
    "norms_and_angles",
    "norms_and_chords",
    "row_norms",
]

DIFF_NORM = sp.Symbol("n_minus", nonnegative=True)
"""``|x^ - x'^|``."""
SUM_NORM = sp.Symbol("n_plus", nonnegative=True)
"""``|x^ + x'^|``."""
ANGLE = 2 * sp.atan2(DIFF_NORM, SUM_NORM)
"""The angle from the two norms (Kahan)."""
SUPPLEMENT = 2 * sp.atan2(SUM_NORM, DIFF_NORM)
"""``pi - theta`` from the two norms, directly: as accurate near antiparallel inputs
(``theta -> pi``) as :data:`ANGLE` is near parallel ones, where ``pi - ANGLE`` would keep
only the absolute accuracy of ``ANGLE`` (claim ``kernels.stable_forms`` proves
``ANGLE + SUPPLEMENT = pi``)."""


@functools.cache
def _angle_fn(backend: str) -> Callable[..., Any]:
    return generate((DIFF_NORM, SUM_NORM), ANGLE, backend, elementwise=True)


def row_norms(Z: Any, backend: str) -> Any:
    """Euclidean norms along the last axis, without underflow or overflow of the squares
    (each row scaled by its largest entry first).  A zero row's norm is 0 with a zero
    gradient under torch's autograd (``sqrt`` is never taken at 0: its infinite slope
    times 0 made every gradient of a Gram matrix NaN, through its diagonal)."""
    o = ops(check_backend(backend))
    top = o.amax(o.abs(Z), -1)
    nonzero = top > 0
    safe = o.where(nonzero, top, o.ones_like(top))
    squares = o.sum((Z / safe[..., None]) ** 2, -1)  # >= 1 on a nonzero row
    return o.where(nonzero, top * o.sqrt(o.where(nonzero, squares, o.ones_like(squares))),
                   top)  # fmt: skip


def norms_and_chords(X: Any, Y: Any, backend: str) -> tuple[Any, Any, Any, Any]:
    """For the rows ``x_i`` of ``X`` (n, d) and ``y_j`` of ``Y`` (m, d): the norms ``|x_i|``
    (n, 1), ``|y_j|`` (1, m) and the chords ``|x^_i - y^_j|``, ``|x^_i + y^_j|`` (n, m) of the
    unit vectors (a zero row's unit vector is taken as 0): the arguments of :data:`ANGLE`
    and :data:`SUPPLEMENT`."""
    backend = check_backend(backend)
    o = ops(backend)
    nx, ny = row_norms(X, backend), row_norms(Y, backend)
    U = X / o.where(nx > 0, nx, o.ones_like(nx))[:, None]
    V = Y / o.where(ny > 0, ny, o.ones_like(ny))[:, None]
    if backend == "numpy":
        diff, summ = _chords_float64(U, V)
    else:
        diff = row_norms(U[:, None, :] - V[None, :, :], backend)
        summ = row_norms(U[:, None, :] + V[None, :, :], backend)
    return nx[:, None], ny[None, :], diff, summ


CHORD_BLOCK_BYTES = 1 << 20
"""The float64 chords are formed for blocks of rows of ``X`` whose ``(rows, m, d)`` scratch
takes about this many bytes (in cache): two passes over it per chord (the difference, then
its sum of squares by ``einsum``) instead of five over an ``(n, m, d)`` array (row_norms'
scaling).  2000 x 2000 points in d = 10: 1.3 s -> 0.3 s on the 2-core EPYC (issue 30)."""
_TINY_SQUARES = 2.0**-960  # a sum of squares below this may have lost digits to underflow


def _chords_float64(U: Any, V: Any) -> tuple[Any, Any]:
    """``|u_i - v_j|`` and ``|u_i + v_j|`` (n, m) for float64 rows of norm 1 or 0: each a
    plain sum of squares (an entry is at most 1 in magnitude, so no square overflows; each
    sum has the same few-ulp error as :func:`row_norms`' scaled one), except where a sum is
    below :data:`_TINY_SQUARES` (entries below 1e-144 whose squares may underflow): those
    pairs are taken again by :func:`row_norms`."""
    n, m, d = U.shape[0], V.shape[0], U.shape[1]
    diff, summ = np.empty((n, m)), np.empty((n, m))
    rows = max(1, CHORD_BLOCK_BYTES // (8 * max(1, m * d)))
    scratch = np.empty((min(rows, n), m, d))
    for a in range(0, n, rows):
        b = min(a + rows, n)
        D = scratch[: b - a]
        for out, op in ((diff, np.subtract), (summ, np.add)):
            op(U[a:b, None, :], V[None, :, :], out=D)
            np.einsum("ijk,ijk->ij", D, D, out=out[a:b])
    chords = []
    for squares, sign in ((diff, -1.0), (summ, 1.0)):
        small = np.argwhere(squares < _TINY_SQUARES)
        norms = np.sqrt(squares, out=squares)
        if len(small):
            i, j = small.T
            norms[i, j] = row_norms(U[i] + sign * V[j], "numpy")
        chords.append(norms)
    return chords[0], chords[1]


def norms_and_angles(X: Any, Y: Any, backend: str) -> tuple[Any, Any, Any]:
    """For the rows ``x_i`` of ``X`` (n, d) and ``y_j`` of ``Y`` (m, d): the norms ``|x_i|``
    (n, 1), ``|y_j|`` (1, m) and the angles ``theta_ij`` (n, m) in ``[0, pi]``.  A zero row
    gives ``theta = pi/2`` (its unit vector is taken as 0; formulas that use the angle carry
    a factor of the norm).  Arrays of the backend (float64, object ``mpf`` at the working
    precision, torch tensors)."""
    nx, ny, diff, summ = norms_and_chords(X, Y, backend)
    return nx, ny, _angle_fn(check_backend(backend))(diff, summ)
