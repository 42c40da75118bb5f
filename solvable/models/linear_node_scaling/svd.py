"""Seed 000, Theorem 7.4: the reduced SVD ``X = U D V^T`` (rank ``k``) its solution is written in
(:func:`reduced_svd`, :class:`ReducedSVD`), and the validation / conversion of the inputs (mpmath
object arrays, node scalings ``lam``, output signs ``a`` of eq. (3)).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.numbers import check_dps as _check_dps


# ---------------------------------------------------------------------------
# validation and conversion
# ---------------------------------------------------------------------------
def _to_object(arr: Any) -> np.ndarray:
    """An object array of ``mpmath.mpf`` at the working precision (str / float / mpf / int)."""
    a = np.asarray(arr, dtype=object)
    out = np.empty(a.shape, dtype=object)
    for idx, v in np.ndenumerate(a):
        out[idx] = mpmath.mpf(v.strip() if isinstance(v, str) else v)
    return out


@dataclass(frozen=True)
class ReducedSVD:
    """``X = U diag(D) V^T`` with ``U`` (n, k), ``D`` (k,) > 0 decreasing, ``V`` (d, k)."""

    U: np.ndarray
    D: np.ndarray
    V: np.ndarray

    def __post_init__(self) -> None:
        k = len(self.D)
        if self.U.ndim != 2 or self.V.ndim != 2 or self.U.shape[1] != k or self.V.shape[1] != k:
            raise ValueError(f"U (n, k), D (k,), V (d, k) must agree on k, got shapes "
                             f"{self.U.shape}, {self.D.shape}, {self.V.shape}")  # fmt: skip

    @property
    def rank(self) -> int:
        return len(self.D)


@nb.mpmath_in_mpmath_out
def reduced_svd(X: Any, *, dps: int | None = None, rank: int | None = None) -> ReducedSVD:
    """The reduced SVD of Theorem 7.4 (``k`` = rank of ``X``).  The rank is ``rank`` if given,
    else the number of singular values above ``max(n, d) * 2.2e-16 * D_max`` (numpy's
    ``matrix_rank`` rule, also for ``dps``: float64 input data are only known to that
    resolution).  ``dps``: mpmath ``svd_r`` at ``dps`` digits (object arrays)."""
    dps = _check_dps(dps)
    arr = nb.check_float_array("X", X, ndim=2)
    n, d = arr.shape
    if dps is None:
        U, D, Vt = np.linalg.svd(arr, full_matrices=False)
    else:
        with mpmath.workdps(dps):
            Um, Dm, Vm = mpmath.svd_r(mpmath.matrix(_to_object(X).tolist()), full_matrices=False,
                                      compute_uv=True)  # fmt: skip
            U = np.array(Um.tolist(), dtype=object)
            D = np.array([Dm[i] for i in range(len(Dm))], dtype=object)
            Vt = np.array(Vm.tolist(), dtype=object)
            order = sorted(range(len(D)), key=lambda i: -D[i])
            U, D, Vt = U[:, order], D[order], Vt[order, :]
    top = float(D[0]) if len(D) else 0.0
    if rank is None:
        k = int(sum(float(v) > max(n, d) * np.finfo(float).eps * top for v in D))
    else:
        if isinstance(rank, bool) or not isinstance(rank, numbers.Integral):
            raise TypeError(f"rank must be an int or None, got {rank!r}")
        if not 1 <= rank <= min(n, d):
            raise ValueError(f"rank must be in 1..min(n, d) = {min(n, d)}, got {rank}")
        k = int(rank)
    if k == 0:
        raise ValueError("X must have rank >= 1 (got the zero matrix)")
    return ReducedSVD(U[:, :k], D[:k], Vt[:k, :].T)


def _check_lam(lam: Any, dps: int | None) -> np.ndarray:
    arr = nb.check_float_array("lam", lam, ndim=(1, 2))
    if np.any(arr < 0):
        raise ValueError(f"lam must be >= 0 (node scalings), got {lam!r:.80}")
    if np.any(arr.sum(-1) <= 0):
        raise ValueError("lam must have a positive sum (sum_k lambda_k > 0)")
    return arr if dps is None else _to_object(lam)


def _check_signs(a: Any) -> np.ndarray:
    arr = nb.check_float_array("a", a, ndim=(1, 2))
    if not np.all(np.abs(arr) == 1):
        raise ValueError(f"a must hold +-1 (eq. (3)), got {a!r:.80}")
    return arr
