"""Seed 003 (Kunin et al.), the condition of the single neuron's exact solution on inputs that
are not whitened (issue 31, item 3): ``X^T y`` and the part of ``w0`` outside ``ker X`` in one
eigenspace ``E`` of ``Sigma = X^T X`` (eigenvalue ``s > 0``).  Then ``X w_N = 0`` for ``w_N = w0 -
w_E`` and ``dw/dt = -eta_w a (Sigma w a - X^T y)`` lies in ``E``: ``w_N`` is constant and ``(a,
w_E)`` follows the whitened single neuron with that ``s`` (claim ``kunin.aligned_reduction``).
This covers rank-deficient inputs ``X^T X = s P`` (``P`` a projection; any ``w0``: the setting
of Kunin et al.'s implicit-bias discussion) and mode-aligned starts on any ``Sigma``.

:func:`_alignment` decides it in exact rational arithmetic (one exact Gram of ``[X | y]``,
:func:`solvable._core.exact_gram.exact_gram`) against the tolerance of the isotropy check.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core.exact_gram import exact_gram, to_fraction
from solvable._core.numbers import Number

_SIMULATE = "Use numerics.simulate (the raw flow) for this start."


@dataclass(frozen=True)
class Alignment:
    """The exact data of an aligned start (every entry an exact rational).

    ``s``: the eigenvalue of ``X^T X`` on ``E``; ``beta_star = X^T y / s`` (in ``E``: the
    least-norm least-squares solution); ``w_range = X^T X w0 / s`` (``w_E``, the part of
    ``w0`` in ``E``) and ``w_kernel = w0 - w_E`` (``w_N``, in ``ker X``, constant along the
    flow); ``floor = (|y|^2 - |X^T y|^2 / s) / 2`` (the least loss: the part of ``y``
    outside the range of ``X``; for data aligned only to a tolerance, an upper bound of the
    least loss, by Cauchy-Schwarz);
    ``at_rest``: ``X^T y = 0`` and ``w0`` in ``ker X`` (the start is a fixed point, ``s`` is
    then ``tr(X^T X) / d``, which the trajectory does not depend on)."""

    s: Fraction
    beta_star: tuple[Fraction, ...]
    w_range: tuple[Fraction, ...]
    w_kernel: tuple[Fraction, ...]
    floor: Fraction
    at_rest: bool


def _rel_defect(S: np.ndarray, V: np.ndarray, s: Fraction) -> Fraction:
    """``max|S V - s V| / (s max|V|)`` exactly (``V != 0``: a vector or columns, ``s > 0``)."""
    r = S.dot(V) - V * s
    return max(abs(x) for x in np.ravel(r)) / (s * max(abs(x) for x in np.ravel(V)))


def _rayleigh(S: np.ndarray, V: np.ndarray) -> Fraction:
    """``tr(V^T S V) / tr(V^T V)`` exactly (``V != 0``, columns)."""
    return sum((V[:, k].dot(S.dot(V[:, k])) for k in range(V.shape[1])), Fraction(0)) / sum(
        (v * v for v in V.ravel()), Fraction(0)
    )


def one_eigenspace(S: np.ndarray, Q: np.ndarray, U: np.ndarray, rtol: float,
                   refuse_q: Callable[[Fraction, Fraction], str],
                   refuse_u: Callable[[Fraction, Fraction, bool], str],
                   ) -> tuple[Fraction, bool]:  # fmt: skip
    """``(s, at_rest)``: the eigenvalue ``s > 0`` of ``S = X^T X`` whose eigenspace holds the
    columns of ``Q`` (``X^T y`` or ``X^T Y``) and of ``U`` (``X^T X w0`` or ``X^T X W0^T``),
    each to ``rtol`` (:func:`_rel_defect`, ``s`` the Rayleigh quotient of the first nonzero of
    ``Q``, ``U``); ``at_rest`` when both are zero (then ``s = tr(S) / d``, which the trajectory
    does not depend on).  ``ValueError``: ``X = 0``, or ``refuse_q(dev, s)`` /
    ``refuse_u(dev, s, q_zero)`` (the caller's wording).  The single neuron's test and the
    wide net's (one column each, or several)."""
    d = S.shape[0]
    if not any(S[p, p] for p in range(d)):
        raise ValueError(
            "X must have a nonzero entry for the exact solution (X = 0: the loss does not "
            f"depend on the weights and every start is at rest). {_SIMULATE}"
        )
    q_zero, u_zero = not any(np.ravel(Q)), not any(np.ravel(U))
    if q_zero and u_zero:  # a fixed point: nothing moves
        return sum((S[p, p] for p in range(d)), Fraction(0)) / d, True
    s = _rayleigh(S, U if q_zero else Q)  # > 0: in the range of X^T X
    if not q_zero:
        dev = _rel_defect(S, Q, s)
        if dev > rtol:
            raise ValueError(refuse_q(dev, s))
    if not u_zero:
        dev = _rel_defect(S, U, s)
        if dev > rtol:
            raise ValueError(refuse_u(dev, s, q_zero))
    return s, False


def _alignment(setup: Any, w0: tuple[Number, ...], rtol: float) -> Alignment:
    """The :class:`Alignment` of ``(setup, w0)`` when ``X^T y`` and ``X^T X w0`` lie in one
    eigenspace of ``X^T X`` to ``rtol`` (each measured as ``max|X^T X v - s v| / (s max|v|)``
    with ``s`` the Rayleigh quotient of ``v``; exact, 0, for exactly aligned data), else
    ``ValueError`` naming the condition that failed and pointing to ``numerics.simulate``."""
    G, D2 = exact_gram([(*row, v) for row, v in zip(setup.X, setup.y, strict=True)], "X")
    d = G.shape[0] - 1
    S = np.array([[Fraction(int(G[p, r]), D2) for r in range(d)] for p in range(d)],
                 dtype=object)  # fmt: skip
    q = np.array([Fraction(int(G[p, d]), D2) for p in range(d)], dtype=object)
    yy = Fraction(int(G[d, d]), D2)
    w = np.array([to_fraction(v) for v in w0], dtype=object)
    u = S.dot(w)  # X^T X w0 = s w_E

    def refuse_q(dev: Fraction, s: Fraction) -> str:
        return ("X^T y must be an eigenvector of X^T X for the exact solution on inputs that "
                "are not whitened; got max|X^T X q - s q| = "
                f"{_show(dev)} s max|q| for q = X^T y, s = {_show(s, 6)} (allowed: "
                f"alignment_rtol = {rtol:.1e}). {_SIMULATE}")  # fmt: skip

    def refuse_u(dev: Fraction, s: Fraction, q_zero: bool) -> str:
        where = "the eigenspace of X^T y" if not q_zero else "one eigenspace of X^T X"
        return ("w0 must lie in ker X plus " + where + f" (eigenvalue s = {_show(s, 6)}) for "
                "the exact solution on inputs that are not whitened: a component on another "
                "eigenvalue couples the modes through a (no closed form); got max|X^T X u - s "
                f"u| = {_show(dev)} s max|u| for u = X^T X w0 (allowed: alignment_rtol = "
                f"{rtol:.1e}). {_SIMULATE}")  # fmt: skip

    s, at_rest = one_eigenspace(S, q[:, None], u[:, None], rtol, refuse_q, refuse_u)
    if at_rest:  # a fixed point: a and w never move
        zero = (Fraction(0),) * d
        return Alignment(s, zero, zero, tuple(w), yy / 2, True)
    w_E = u / s
    return Alignment(
        s=s, beta_star=tuple(q / s), w_range=tuple(w_E), w_kernel=tuple(w - w_E),
        floor=(yy - q.dot(q) / s) / 2, at_rest=False,
    )  # fmt: skip


def _show(value: Fraction, digits: int = 3) -> str:
    """An exact rational to ``digits`` significant digits."""
    with mpmath.workdps(digits + 5):
        return mpmath.nstr(mpmath.mpf(value.numerator) / value.denominator, digits)
