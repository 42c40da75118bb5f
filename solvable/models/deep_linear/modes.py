"""The modes of a balanced, task-aligned start (the conditions of the exact solution,
checked): from the weights ``(W_1, ..., W_L)`` and the data, the mode records
``(s_k, lambda_k, u_k(0), r_{1,k}, ..., r_{L+1,k}, c_{1,k}, ..., c_{L,k})`` with
``W_l = sum_k c_{l,k} r_{l+1,k} r_{l,k}^T + (the rest, zero)``.

Conditions (each refused with a ``ValueError`` naming it and pointing to
:func:`numerics.simulate`):

1. balanced: every ``D_l = W_{l+1}^T W_{l+1}/eta_{l+1} - W_l W_l^T/eta_l = 0``.  Then
   ``P^T P = c (W_1^T W_1)^L`` (``P = W_L ... W_1``), each ``W_l`` maps the eigenvectors of
   ``W_l^T W_l`` to those of ``W_{l+1}^T W_{l+1}``, and a right singular vector ``b`` of ``P``
   (singular value ``u > 0``) starts a chain ``r_1 = b``, ``r_{l+1} = W_l r_l/|W_l r_l|`` with
   ``c_l^2/eta_l`` the same for every ``l``;
2. task-aligned: for every mode, ``Sigma_xx b = lambda b`` (``Sigma_xx = X^T X``), ``Sigma_yx b
   = s a`` and ``Sigma_yx^T a = s b`` (``Sigma_yx = Y^T X``, ``a = P b/u``).  Within a group of
   equal singular values the basis is rotated to make this hold where it can (``A^T Sigma_yx
   B`` symmetric and commuting with ``B^T Sigma_xx B``).

Then ``G = P Sigma_xx - Sigma_yx`` maps each mode to itself, so the modes decouple:
``dc_l/dt = eta_l (u/c_l)(s - lambda u)`` and, balanced, ``du/dt = L eta |u|^(2-2/L)(s -
lambda u)`` with ``eta = (eta_1 ... eta_L)^(1/L)`` (claim ``deep_linear.mode_reduction``).
The rest of each ``W_l`` (the zero singular values of ``P``) stays 0.  Singular values of
``P`` below ``rtol`` times the largest are taken as exact zeros.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.exact_gram import exact_gram, exact_matmul, to_fraction
from solvable.models.deep_linear.network import balance
from solvable.models.deep_linear.setups import Setup

SIMULATE = "use numerics.simulate for this start (the raw gradient flow)"


@dataclass(frozen=True)
class Mode:
    """One mode (mpmath numbers at the working precision): ``s``, ``lam``, ``u0`` (> 0),
    ``r`` (the L + 1 unit vectors ``r_1 = b``, ..., ``r_{L+1} = a``) and ``c`` (the L
    layer strengths, ``prod c = u0``)."""

    s: Any
    lam: Any
    u0: Any
    r: tuple[np.ndarray, ...]
    c: tuple[Any, ...]


def _mp(M: Any) -> np.ndarray:
    return np.array([[nb.to_mpf(v) for v in row] for row in M], dtype=object)


def _norm(M: np.ndarray) -> Any:
    return mpmath.sqrt(mpmath.fsum(v * v for v in np.asarray(M).ravel()))


def _maxabs(M: np.ndarray) -> Any:
    return max((abs(v) for v in np.asarray(M).ravel()), default=mpmath.mpf(0))


def _eigsy(M: np.ndarray) -> tuple[list[Any], np.ndarray]:
    E, Q = mpmath.eigsy(mpmath.matrix(M.tolist()))
    n = M.shape[0]
    return [E[i] for i in range(n)], np.array(Q.tolist(), dtype=object).reshape(n, n)


def _groups(values: list[Any], tol: Any) -> list[list[int]]:
    """Indices of ``values`` (sorted descending or ascending) split where consecutive values
    differ by more than ``tol``."""
    out: list[list[int]] = []
    for i, v in enumerate(values):
        if out and abs(v - values[out[-1][-1]]) <= tol:
            out[-1].append(i)
        else:
            out.append([i])
    return out


_U = 2.0**-53  # float64's unit roundoff


def _gamma(n: int) -> float:
    return n * _U / (1 - n * _U)


def _float_matrix(M: Any) -> np.ndarray | None:
    """``M`` as a float64 array when every entry is a Python float with ``|v|`` 0 or in
    ``[1e-100, 1e100]`` (the products and their sums then stay normal and finite), else None."""
    if not all(type(v) is float for row in M for v in row):
        return None
    F = np.array(M, dtype=float)
    mag = np.abs(F[F != 0])
    if mag.size == 0 or mag.min() < 1e-100 or mag.max() > 1e100:
        return None
    return F


def _certainly_balanced(upper: Any, lower: Any, eta_upper: Any, eta_lower: Any,
                        rtol: Any) -> bool:  # fmt: skip
    """Whether ``max|D| <= rtol max(|W_{l+1}|_F^2/eta_{l+1}, |W_l|_F^2/eta_l)`` certainly
    holds, decided in float64 for float weights and rates: ``fl(D)`` is within ``gamma_{N+4}
    (|W_{l+1}|_F^2/eta_{l+1} + |W_l|_F^2/eta_l + max|fl(D)|)`` of ``D`` (each entry of ``W^T
    W`` is a dot product of ``N`` terms each at most ``|W|_F^2``; the division and the
    difference add one rounding each; Higham, Accuracy and Stability, Sec. 3.1), and each
    computed squared norm is within ``gamma_{M+2}`` (``M`` entries) of its value.  False:
    undecided or not balanced (the exact check decides and reports)."""
    U, Lw = _float_matrix(upper), _float_matrix(lower)
    rates = (eta_upper, eta_lower)
    if U is None or Lw is None or not all(type(e) in (float, int) for e in rates):
        return False
    eu, el = float(eta_upper), float(eta_lower)
    if eu != eta_upper or el != eta_lower or not all(1e-50 <= e <= 1e50 for e in (eu, el)):
        return False
    D = U.T @ U / eu - Lw @ Lw.T / el
    dev = float(np.max(np.abs(D)))
    norm_u, norm_l = float(np.sum(U * U)) / eu, float(np.sum(Lw * Lw)) / el
    g_norm = _gamma(max(U.size, Lw.size) + 2)
    scale_lo = max(norm_u, norm_l) * (1 - g_norm)
    if not scale_lo > 0:
        return False
    err = _gamma(max(U.shape[0], Lw.shape[1]) + 4) * ((norm_u + norm_l) * (1 + g_norm) + dev)
    rtol_lo = float(rtol) * (1 - 4 * _U)  # (rtol rounded to float64 at most half an ulp up)
    return (dev + err) * (1 + 4 * _U) <= rtol_lo * scale_lo * (1 - 4 * _U)


def _balance_defect(upper: Any, lower: Any, eta_upper: Any,
                    eta_lower: Any) -> tuple[Fraction, Fraction] | None:  # fmt: skip
    """``(max|D|, max(|W_{l+1}|_F^2/eta_{l+1}, |W_l|_F^2/eta_l))`` of the balance
    ``D = W_{l+1}^T W_{l+1}/eta_{l+1} - W_l W_l^T/eta_l`` exactly (two
    :func:`~solvable._core.exact_gram.exact_gram` products, BLAS on exact limbs, then Python
    integers), or None where ``exact_gram`` refuses the work (then mpmath decides)."""
    try:
        G_up, den_up = exact_gram(upper, "W_{l+1}")  # W_{l+1}^T W_{l+1} = G_up / den_up
        G_lo, den_lo = exact_gram(list(zip(*lower, strict=True)), "W_l")  # W_l W_l^T
    except ValueError:
        return None
    a = 1 / (den_up * to_fraction(eta_upper))
    b = 1 / (den_lo * to_fraction(eta_lower))
    num = G_up * (a.numerator * b.denominator) - G_lo * (b.numerator * a.denominator)
    dev = Fraction(max(abs(int(v)) for v in num.flat), a.denominator * b.denominator)
    traces = (sum(int(G_up[i, i]) for i in range(G_up.shape[0])),
              sum(int(G_lo[i, i]) for i in range(G_lo.shape[0])))  # fmt: skip
    return dev, max(a * traces[0], b * traces[1])


def modes(setup: Setup, weights: list[Any], rtol: Any) -> tuple[list[np.ndarray], list[Mode]]:
    """The weights (object arrays at the working precision) and the modes of a balanced
    aligned start; ``ValueError`` naming the failed condition otherwise."""
    Ws = [_mp(W) for W in weights]
    etas = [nb.to_mpf(e) for e in setup.rates]
    for l in range(setup.L - 1):
        pair = (weights[l + 1], weights[l], setup.rates[l + 1], setup.rates[l])
        if _certainly_balanced(*pair, rtol):  # float64 with a proved bound: no exact work
            continue
        exact = _balance_defect(*pair)
        if exact is not None:  # decided exactly (rtol is an exact binary number)
            dev, scale = (nb.to_mpf(v) for v in exact)
            balanced = exact[0] <= to_fraction(rtol) * exact[1]
        else:
            D = balance(Ws[l + 1], Ws[l], etas[l + 1], etas[l])
            scale = max(_norm(Ws[l + 1]) ** 2 / etas[l + 1], _norm(Ws[l]) ** 2 / etas[l])
            dev = _maxabs(D)
            balanced = dev <= rtol * scale
        if not balanced:
            raise ValueError(
                f"weights must be balanced for the exact solution: D_{l + 1} = "
                f"W{l + 2}^T W{l + 2}/eta_{l + 2} - W{l + 1} W{l + 1}^T/eta_{l + 1} = 0; got "
                f"max|D_{l + 1}| = {mpmath.nstr(dev, 3)} with terms of size "
                f"{mpmath.nstr(scale, 3)} (allowed: rtol = {mpmath.nstr(rtol, 3)} times that); "
                f"{SIMULATE}"
            )
    P = Ws[0]
    for W in Ws[1:]:  # W_L ... W_1, each product exact and rounded once
        P = exact_matmul(W, P)
    dL, d0 = P.shape
    _, Sv, V = mpmath.svd_r(mpmath.matrix(P.tolist()))
    sv = [Sv[k] for k in range(min(dL, d0))]
    if not sv or max(sv) == 0:
        return Ws, []
    top = max(sv)
    keep = [k for k in range(len(sv)) if sv[k] > rtol * top]
    X, Y = _mp(setup.X), _mp(setup.Y)
    Sxx, Syx = X.T @ X, Y.T @ X
    nxx, nyx = max(_norm(Sxx), 1), max(_norm(Syx), 1)
    out: list[Mode] = []
    for group in _groups([sv[k] for k in keep], rtol * top):
        ks = [keep[i] for i in group]
        u = mpmath.fsum(sv[k] for k in ks) / len(ks)
        B = np.array([[V[k, j] for k in ks] for j in range(d0)], dtype=object)
        A = (P @ B) / u
        lam_B = B.T @ Sxx @ B
        S_B = A.T @ Syx @ B
        checks = (
            ("X^T X b = lambda b (the input covariance has each mode's input vector as an "
             "eigenvector: whitened or aligned inputs)", Sxx @ B - B @ lam_B, nxx),
            ("Y^T X b = s a (each mode's vectors are singular vectors of Y^T X: task-aligned)",
             Syx @ B - A @ S_B, nyx),
            ("X^T Y a = s b (task-aligned)", Syx.T @ A - B @ S_B.T, nyx),
            ("a^T Y^T X b symmetric within equal modes (aligned)", S_B - S_B.T, nyx),
            ("the modes' covariances commute (aligned)", lam_B @ S_B - S_B @ lam_B, nxx * nyx),
        )  # fmt: skip
        for what, R, scale in checks:
            dev = _maxabs(R)
            if dev > rtol * scale:
                raise ValueError(
                    f"the start must be task-aligned for the exact solution: {what}; got a "
                    f"residual {mpmath.nstr(dev, 3)} at the singular value "
                    f"{mpmath.nstr(u, 6)} of W_L...W_1 (allowed: rtol = {mpmath.nstr(rtol, 3)} "
                    f"times {mpmath.nstr(scale, 3)}); {SIMULATE}"
                )
        lams, Q = _eigsy(lam_B)
        for sub in _groups(lams, rtol * nxx):
            Qs = Q[:, sub]
            _, Q2 = _eigsy(Qs.T @ S_B @ Qs)
            for j in range(len(sub)):
                b = B @ (Qs @ Q2[:, j])
                out.append(_chain(Ws, b, Sxx, Syx))
    return Ws, out


def _chain(Ws: list[np.ndarray], b: np.ndarray, Sxx: np.ndarray, Syx: np.ndarray) -> Mode:
    r, c = [b], []
    for W in Ws:
        y = exact_matmul(W, r[-1])
        c.append(_norm(y))
        r.append(y / c[-1])
    return Mode(s=r[-1] @ Syx @ b, lam=b @ Sxx @ b, u0=mpmath.fprod(c), r=tuple(r), c=tuple(c))
