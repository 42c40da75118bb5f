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
    diff = row_norms(U[:, None, :] - V[None, :, :], backend)
    summ = row_norms(U[:, None, :] + V[None, :, :], backend)
    return nx[:, None], ny[None, :], diff, summ


def norms_and_angles(X: Any, Y: Any, backend: str) -> tuple[Any, Any, Any]:
    """For the rows ``x_i`` of ``X`` (n, d) and ``y_j`` of ``Y`` (m, d): the norms ``|x_i|``
    (n, 1), ``|y_j|`` (1, m) and the angles ``theta_ij`` (n, m) in ``[0, pi]``.  A zero row
    gives ``theta = pi/2`` (its unit vector is taken as 0; formulas that use the angle carry
    a factor of the norm).  Arrays of the backend (float64, object ``mpf`` at the working
    precision, torch tensors)."""
    nx, ny, diff, summ = norms_and_chords(X, Y, backend)
    return nx, ny, _angle_fn(check_backend(backend))(diff, summ)
