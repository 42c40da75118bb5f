"""Seed 003 (Kunin et al.), the self-consistent flow of ``beta``: Part I's ``d beta/dt = -M
grad_beta L`` with ``M(beta, delta) = lambda_1 I + lambda_2 beta beta^T/|beta|^2``
(:func:`preconditioner`, from the generated ``lambda_1``, ``lambda_2`` of
:func:`~solvable.models.kunin.expressions.symbolic`), Part II's Theorem 4.2, ``d beta/dt =
-(M_L G + G M_R)`` (:func:`wide_preconditioner`: the same functions of the singular values of
``beta``), and the regimes 1-3 of Part I (:func:`regime`: lazy, rich, delayed rich).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.arrays import all_finite
from solvable._core.backends import generate
from solvable._core.numbers import Number
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.setups import _weights


@nb.mpmath_in_mpmath_out
def preconditioner(beta: Any, delta: Any, eta_a: Any, eta_w: Any, *,
                   dps: int | None = None) -> np.ndarray:  # fmt: skip
    """``M(beta, delta) = lambda_1 I + lambda_2 beta beta^T/|beta|^2`` of ``d beta/dt = -M grad
    L`` (Part I), from the generated ``lambda_1``, ``lambda_2`` of :func:`symbolic`: float64
    (``dps=None``) or mpmath at ``dps`` digits (object array)."""
    beta, delta, eta_a, eta_w, dps = _preconditioner_args(beta, delta, eta_a, eta_w, dps, 1)
    lam1, lam2 = _lambda_fns("numpy" if dps is None else "mpmath")
    with nb.Precision(dps), np.errstate(all="ignore"):
        b = _weights(beta, dps, "beta").reshape(-1)
        delta, eta_a, eta_w = (nb.converter(dps, n)(x) for n, x in
                               (("delta", delta), ("eta_a", eta_a), ("eta_w", eta_w)))  # fmt: skip
        nb2 = sum(b * b)
        try:
            l1, l2 = lam1(delta, eta_a, eta_w, nb2), lam2(delta, eta_a, eta_w, nb2)
        except OverflowError:  # float64 (delta**2 of a Python float)
            l1 = l2 = math.inf
        proj = np.outer(b, b) / nb2 if nb2 > 0 else np.zeros((b.size, b.size), dtype=b.dtype)
        M = l1 * np.eye(b.size, dtype=int) + l2 * proj
    if dps is None:
        return _f64_result(np.asarray(M, dtype=float), "M")
    return nb.rounded((M,), dps)[0]


def _preconditioner_args(beta: Any, delta: Any, eta_a: Any, eta_w: Any, dps: Any,
                         ndim: int) -> tuple[Any, ...]:  # fmt: skip
    """The checked arguments of :func:`preconditioner` (``ndim`` 1: beta (d,)) and
    :func:`wide_preconditioner` (``ndim`` 2: beta (d, c))."""
    dps = nb.check_dps(dps)
    if ndim == 1:
        beta = nb.check_vector("beta", beta)
    else:
        beta = nb.check_matrix("beta", beta, (None, None))
    delta = nb.check_number("delta", delta)
    eta_a = nb.check_number("eta_a", eta_a, positive=True)
    eta_w = nb.check_number("eta_w", eta_w, positive=True)
    return beta, delta, eta_a, eta_w, dps


def _f64_result(value: Any, name: str) -> Any:
    """``value`` if it is finite, else ``ValueError``: float64 cannot hold it."""
    if not all_finite(value):
        raise ValueError(
            f"{name} is outside the float64 range (|value| <= 1.8e308) for these beta, delta, "
            "eta_a, eta_w: pass dps=... for mpmath"
        )
    return value


@functools.cache
def _lambda_fns(backend: str = "numpy") -> tuple[Callable[..., Any], Callable[..., Any]]:
    S = symbolic()
    args = (S.delta, S.eta_a, S.eta_w, S.beta2)
    ex = S.exprs
    return generate(args, ex["lambda_1"], backend), generate(args, ex["lambda_2"], backend)


def _singular_functions(
    B: np.ndarray, f_left: Callable[[Any], Any], f_right: Callable[[Any], Any], dps: int | None
) -> tuple[Any, Any]:
    """``(f_left(B B^T), f_right(B^T B))`` for a (d, c) matrix ``B``, from its singular value
    decomposition ``B = U S V^T`` (each function of a squared singular value; 0 on the extra
    columns of U or V).  Through the SVD, not the eigenvalues of ``B B^T``: a zero singular
    value is 0 to the working precision instead of ``u |B|^2``, which matters where ``f`` has
    a square-root branch point at 0 (``delta = 0``)."""
    d, c = B.shape
    if dps is None:
        U, sv, Vt = np.linalg.svd(np.asarray(B, dtype=float), full_matrices=True)
        sq = [float(v) ** 2 for v in sv]
        V = Vt.T
    else:
        Um, Sm, Vm = mpmath.svd_r(mpmath.matrix(B.tolist()), full_matrices=True)
        sq = [Sm[k] ** 2 for k in range(min(d, c))]
        U = np.array([[Um[i, j] for j in range(d)] for i in range(d)], dtype=object)
        V = np.array([[Vm[j, i] for j in range(c)] for i in range(c)], dtype=object)
    zero = 0.0 if dps is None else mpmath.mpf(0)
    left = np.array([f_left(sq[k] if k < len(sq) else zero) for k in range(d)])
    right = np.array([f_right(sq[k] if k < len(sq) else zero) for k in range(c)])
    return (U * left) @ U.T, (V * right) @ V.T


@nb.mpmath_in_mpmath_out
def wide_preconditioner(beta: Any, delta: Any, eta_a: Any, eta_w: Any, *,
                        dps: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Part II, Theorem 4.2 (wide linear net ``f = A^T W x`` started from ``Delta = delta
    I_h``, ``h = d`` if ``delta < 0``, ``h = c`` if ``delta > 0``): ``d beta/dt = -(M_L G +
    G M_R)`` with ``G = grad_beta L`` (d, c), ``beta = W^T A`` (d, c) and

        ``M_L = lambda_2(beta beta^T) = (sqrt(delta^2 I_d + 4 eta_a eta_w beta beta^T) -
        delta I_d)/2``,  ``M_R = lambda_1(beta^T beta) = (sqrt(delta^2 I_c + 4 eta_a eta_w
        beta^T beta) + delta I_c)/2``:

    the single neuron's ``lambda_2``, ``lambda_1`` of :func:`symbolic` (generated evaluators)
    applied as matrix functions.  Returns ``(M_L, M_R)``, float64 or mpmath at ``dps``
    digits.  For ``c = 1`` and ``delta >= 0`` (or ``d = 1``) ``M_L + M_R`` is
    :func:`preconditioner` (claim ``kunin.wide_preconditioner_single``)."""
    beta, delta, eta_a, eta_w, dps = _preconditioner_args(beta, delta, eta_a, eta_w, dps, 2)
    lam1, lam2 = _lambda_fns("numpy" if dps is None else "mpmath")
    with nb.Precision(dps), np.errstate(all="ignore"):
        B = _weights(beta, dps, "beta")
        delta, eta_a, eta_w = (nb.converter(dps, n)(x) for n, x in
                               (("delta", delta), ("eta_a", eta_a), ("eta_w", eta_w)))  # fmt: skip
        f_left = functools.partial(lam2, delta, eta_a, eta_w)  # M_L = lambda_2(beta beta^T)
        f_right = functools.partial(lam1, delta, eta_a, eta_w)  # M_R = lambda_1(beta^T beta)
        try:
            left, right = _singular_functions(B, f_left, f_right, dps)
        except OverflowError:  # float64 (a square of a Python float)
            left = right = np.full((1, 1), math.inf)
    if dps is None:
        return _f64_result(left, "M_L"), _f64_result(right, "M_R")
    return nb.rounded((left, right), dps)


def regime(delta: Any, eta_a: Number | None = None, eta_w: Number | None = None,
           beta_norm: Number | None = None, ratio: Number = 10.0) -> str:  # fmt: skip
    """``"lazy"`` (delta >= ratio * scale), ``"rich"`` (``|delta| < scale / ratio``),
    ``"delayed rich"`` (delta <= -ratio * scale) or ``"intermediate"``; the scale is
    ``2 sqrt(eta_a eta_w) ||beta||``, the size of ``sigma`` at delta = 0 (Part I, regimes
    1-3).  ``delta`` finite, ``eta_a, eta_w > 0``, ``beta_norm >= 0``, ``ratio >= 1`` (else
    ``ValueError`` naming the argument); compared at 30 digits, so every float64 scale
    works.

    ``regime(traj)`` (or ``regime(traj, ratio=...)``) with a single-neuron
    :class:`~solvable.models.kunin.Trajectory` reads its ``delta``, rates and ``||beta*||``
    (:meth:`~solvable.models.kunin.Trajectory.regime`)."""
    if callable(getattr(delta, "regime", None)) and hasattr(delta, "beta_star"):
        given = [n for n, v in (("eta_a", eta_a), ("eta_w", eta_w), ("beta_norm", beta_norm))
                 if v is not None]  # fmt: skip
        if given:
            raise TypeError(f"regime(traj) reads the rates and |beta*| from the trajectory; "
                            f"{given[0]} must not be given too")  # fmt: skip
        return str(delta.regime(ratio))
    missing = [n for n, v in (("eta_a", eta_a), ("eta_w", eta_w), ("beta_norm", beta_norm))
               if v is None]  # fmt: skip
    if missing:
        raise TypeError(f"regime(delta, eta_a, eta_w, beta_norm) needs {missing[0]} with a "
                        f"number delta (or pass a kunin Trajectory: regime(traj))")  # fmt: skip
    delta = nb.check_number("delta", delta)
    eta_a = nb.check_number("eta_a", eta_a, positive=True)
    eta_w = nb.check_number("eta_w", eta_w, positive=True)
    beta_norm = nb.check_number("beta_norm", beta_norm, nonnegative=True)
    ratio = nb.check_number("ratio", ratio, positive=True)
    with mpmath.workdps(30):
        dl, r = nb.to_mpf(delta), nb.to_mpf(ratio)
        if r < 1:
            raise ValueError(f"ratio must be >= 1, got {nb.describe(ratio)}")
        scale = 2 * mpmath.sqrt(nb.to_mpf(eta_a) * nb.to_mpf(eta_w)) * nb.to_mpf(beta_norm)
        if dl >= r * scale:
            return "lazy"
        if dl <= -r * scale:
            return "delayed rich"
        if abs(dl) < scale / r:
            return "rich"
    return "intermediate"
