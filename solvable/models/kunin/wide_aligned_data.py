"""Seed 003 (Kunin et al.), the condition of the wide net's exact solution on inputs that are
not whitened (issue 31, item 3a): the columns of ``X^T Y`` and the rows of ``W0`` projected
off ``ker X`` (the columns of ``X^T X W0^T``) in one eigenspace ``E`` of ``Sigma = X^T X``
(eigenvalue ``s > 0``).  Then ``W = W_E + W_N`` with ``X W_N^T = 0``, ``W_N`` is constant and
``(A, W_E)`` follows the whitened wide net with rates ``s eta`` on the virtual setup ``X = I_d,
Y = B* = X^T Y / s`` (claim ``kunin.wide_aligned_reduction``); its balance is ``Delta_E = Delta
+ eta_a W_N W_N^T`` (the cross terms ``W_E W_N^T`` vanish: ``E`` is orthogonal to ``ker X``).

:func:`_wide_alignment` decides it in exact rational arithmetic (one exact Gram of ``[X | Y]``)
with the tolerance policy of the single neuron's :func:`~solvable.models.kunin.aligned_data.
_alignment`; :func:`_reduced_balance` decides ``Delta_E = delta_E I_h``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from solvable._core.exact_gram import exact_gram, to_fraction
from solvable._core.numbers import Number
from solvable.models.kunin.aligned_data import _SIMULATE, _show, one_eigenspace

# the mode-decoupled case (every mode with its own s_k) is the deep linear network's L = 2
_DEEP = (
    "A start aligned with the singular vectors shared by X^T X and X^T Y (each mode with its "
    "own eigenvalue s_k, balanced or not) is solved by deep_linear.closed_form("
    "deep_linear.Setup((eta_w, eta_a), X, Y), (W0, A0^T)) (L = 2)."
)


@dataclass(frozen=True)
class WideAlignment:
    """The exact data of an aligned wide start (every entry an exact rational, matrices as
    tuples of rows).

    ``s``: the eigenvalue of ``X^T X`` on ``E``; ``beta_star = X^T Y / s`` (d x c, in ``E``:
    the least-norm least-squares solution); ``w_range = W0 X^T X / s`` (``W_E``, h x d: the
    rows of ``W0`` projected on ``E``) and ``w_kernel = W0 - W_E`` (``W_N``, rows in ``ker
    X``, constant along the flow); ``floor = (|Y|_F^2 - |X^T Y|_F^2 / s) / 2`` (the least
    loss; for data aligned only to a tolerance an upper bound of it); ``at_rest``: ``X^T Y =
    0`` and every row of ``W0`` in ``ker X`` (then ``s = tr(X^T X) / d``, which the trajectory
    does not depend on)."""

    s: Fraction
    beta_star: tuple[tuple[Fraction, ...], ...]
    w_range: tuple[tuple[Fraction, ...], ...]
    w_kernel: tuple[tuple[Fraction, ...], ...]
    floor: Fraction
    at_rest: bool


def _tuples(M: np.ndarray) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(row) for row in M)


def _wide_alignment(setup: Any, W0: tuple[tuple[Number, ...], ...], rtol: float) -> WideAlignment:
    """The :class:`WideAlignment` of ``(setup, W0)`` when ``X^T Y`` and ``X^T X W0^T`` lie in
    one eigenspace of ``X^T X`` to ``rtol`` (each matrix ``V`` measured as ``max|X^T X V - s
    V| / (s max|V|)`` with ``s`` the Rayleigh quotient ``tr(V^T X^T X V) / tr(V^T V)`` of the
    first nonzero one; exactly 0 for exactly aligned data), else ``ValueError`` naming the
    condition that failed and pointing to ``numerics.simulate`` (and to
    ``deep_linear.closed_form`` for the mode-decoupled case)."""
    d, c = setup.d, setup.c
    G, D2 = exact_gram([(*row, *ys) for row, ys in zip(setup.X, setup.Y, strict=True)], "X")
    S = np.array([[Fraction(int(G[p, r]), D2) for r in range(d)] for p in range(d)],
                 dtype=object)  # fmt: skip
    q = np.array([[Fraction(int(G[p, d + b]), D2) for b in range(c)] for p in range(d)],
                 dtype=object)  # fmt: skip
    yy = sum((Fraction(int(G[d + b, d + b]), D2) for b in range(c)), Fraction(0))
    W = np.array([[to_fraction(v) for v in row] for row in W0], dtype=object)
    U = S.dot(W.T)  # X^T X W0^T = s W_E^T (d x h)

    def refuse_q(dev: Fraction, s: Fraction) -> str:
        return ("the columns of X^T Y must lie in one eigenspace of X^T X for the exact "
                "solution on inputs that are not whitened; got max|X^T X Q - s Q| = "
                f"{_show(dev)} s max|Q| for Q = X^T Y, s = {_show(s, 6)} (its Rayleigh "
                f"quotient; allowed: alignment_rtol = {rtol:.1e}). {_DEEP} "
                f"{_SIMULATE}")  # fmt: skip

    def refuse_u(dev: Fraction, s: Fraction, q_zero: bool) -> str:
        where = "the eigenspace of X^T Y" if not q_zero else "one eigenspace of X^T X"
        return ("the rows of W0 must lie in ker X plus " + where + f" (eigenvalue s = "
                f"{_show(s, 6)}) for the exact solution on inputs that are not whitened: a "
                "part on another eigenvalue couples the eigenspaces through A (no closed form "
                f"here); got max|X^T X U - s U| = {_show(dev)} s max|U| for U = X^T X W0^T "
                f"(allowed: alignment_rtol = {rtol:.1e}). {_DEEP} {_SIMULATE}")  # fmt: skip

    s, at_rest = one_eigenspace(S, q, U, rtol, refuse_q, refuse_u)
    if at_rest:  # W is at rest, and so is A (dA/dt = -eta_a W (Sigma W^T A - q))
        zero = np.full((d, c), Fraction(0), dtype=object)
        return WideAlignment(s, _tuples(zero), _tuples(W * 0), _tuples(W), yy / 2, True)
    W_E = U.T / s
    return WideAlignment(
        s=s, beta_star=_tuples(q / s), w_range=_tuples(W_E), w_kernel=_tuples(W - W_E),
        floor=(yy - sum((v * v for v in q.ravel()), Fraction(0)) / s) / 2, at_rest=False,
    )  # fmt: skip


def _reduced_balance(setup: Any, A0: Any, W0: Any, al: WideAlignment,
                     brtol: float) -> tuple[Fraction, Fraction, Fraction]:  # fmt: skip
    """``(delta_E, delta_mean, scale)``: ``Delta_E = eta_w A0 A0^T - eta_a W_E W_E^T =
    Delta(0) + eta_a W_N W_N^T`` (the reduced flow's balance) equal to ``delta_E I_h`` within
    ``brtol * scale`` (``scale = max_i (eta_w |A0_i|^2 + eta_a |W0_i|^2)``, the terms of the
    start as given), else ``ValueError`` naming that condition; ``delta_mean = tr(Delta(0)) /
    h`` (``delta`` where ``Delta(0) = delta I_h``).  Exact rationals."""
    ea, ew = to_fraction(setup.eta_a), to_fraction(setup.eta_w)
    A = np.array([[to_fraction(v) for v in row] for row in A0], dtype=object)
    W = np.array([[to_fraction(v) for v in row] for row in W0], dtype=object)
    WE = np.array(al.w_range, dtype=object).reshape(W.shape)
    WN = np.array(al.w_kernel, dtype=object).reshape(W.shape)
    h = len(A)
    DE = ew * A.dot(A.T) - ea * WE.dot(WE.T)
    delta_E = sum((DE[i, i] for i in range(h)), Fraction(0)) / h
    dev = max(abs(DE[i, j] - (delta_E if i == j else 0)) for i in range(h) for j in range(h))
    scale = max(ew * A[i].dot(A[i]) + ea * W[i].dot(W[i]) for i in range(h))
    if dev > brtol * scale:
        NN = WN.dot(WN.T)
        mu = sum((NN[i, i] for i in range(h)), Fraction(0)) / h
        off = max(abs(NN[i, j] - (mu if i == j else 0)) for i in range(h) for j in range(h))
        raise ValueError(
            "wide_closed_form on inputs that are not whitened needs the reduced balance "
            "Delta_E = eta_w A0 A0^T - eta_a W_E W_E^T = Delta(0) + eta_a W_N W_N^T = delta_E I_h "
            "(W_N: the rows of W0 in ker X, W_E = W0 - W_N); got max|Delta_E - delta_E I| = "
            f"{_show(dev)} with terms of size {_show(scale)} (allowed: balance_rtol = "
            f"{brtol:.1e} times that); max|W_N W_N^T - mu I| = {_show(off)} (a balanced start, "
            "Delta(0) = delta I_h, keeps it only where W_N W_N^T is a multiple of I_h). "
            f"{_SIMULATE}"
        )
    Delta = ew * A.dot(A.T) - ea * W.dot(W.T)
    return delta_E, sum((Delta[i, i] for i in range(h)), Fraction(0)) / h, scale
