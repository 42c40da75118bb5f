"""Seed 000, Theorem 7.4: the limit ``t -> oo``, eqs. (19), (20), for one data set and a batch of
initialisations (:func:`limit`, :class:`LinearLimit`; for Monte Carlo over initialisations).
"""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.numbers import check_dps as _check_dps
from solvable.models.linear_node_scaling._evaluators import _evaluator
from solvable.models.linear_node_scaling.svd import (
    ReducedSVD,
    _check_lam,
    _check_signs,
    _to_object,
    reduced_svd,
)


# ---------------------------------------------------------------------------
# Theorem 7.4, the limit (19)-(20) for a batch of initialisations
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class LinearLimit:
    """Theorem 7.4 for one data set and a batch of initialisations (leading axes ``...``).

    Returned by :func:`limit` (for Monte Carlo over initialisations; one network at every
    ``t``: :func:`closed_form`).  ``svd`` (reduced SVD of X), ``beta0`` (..., d),
    ``beta_inf`` (d,) (min-norm least squares), ``projector`` ``V V^T`` (d, d), ``delta_W``
    ``w_inf_j - w_0j`` (..., m, d) (eq. (19)), ``W_inf`` (..., m, d), ``f`` (..., p) learnt
    function on the probes (second form of eq. (20); ``None`` without probes), ``f_nodes``
    (first form of (20), from ``W_inf``)."""

    svd: ReducedSVD
    beta0: np.ndarray
    beta_inf: np.ndarray
    projector: np.ndarray
    delta_W: np.ndarray  # noqa: N815 (the paper's notation)
    W_inf: np.ndarray
    f: np.ndarray | None
    f_nodes: np.ndarray | None


@nb.mpmath_in_mpmath_out
def limit(
    X: Any, y: Any, lam: Any, a: Any, W0: Any, *, probes: Any = None, dps: int | None = None,
    rank: int | None = None,
) -> LinearLimit:  # fmt: skip
    """Eqs. (19), (20) of Theorem 7.4 (the limit ``t -> oo``) for a batch of networks: data
    ``X`` (n, d), ``y`` (n,), node scalings ``lam``
    (m,) or (B, m) (any ``lambda >= 0`` with ``sum > 0``; eq. (1) not required), output signs
    ``a`` (m,) or (B, m) in {-1, +1} (eq. (3)), initial weights ``W0`` (m, d) or (B, m, d), and
    optional ``probes`` (p, d).  ``dps=None``: float64; ``dps=k``: mpmath at ``k`` digits."""
    dps = _check_dps(dps)
    Xa = nb.check_float_array("X", X, ndim=2)
    n, d = Xa.shape
    ya = nb.check_float_array("y", y, ndim=1)
    if len(ya) != n:
        raise ValueError(f"y must have n = {n} entries (rows of X), got {len(ya)}")
    lam_a = _check_lam(lam, None)
    m = lam_a.shape[-1]
    a_a = _check_signs(a)
    if a_a.shape[-1] != m:
        raise ValueError(f"a must have {m} entries per network (as lam), got shape {a_a.shape}")
    W_a = nb.check_float_array("W0", W0, ndim=(2, 3))
    if W_a.shape[-2:] != (m, d):
        raise ValueError(f"W0 must have shape (m, d) = ({m}, {d}) (m entries of lam, d columns of "
                         f"X) or (B, m, d), got {W_a.shape}")  # fmt: skip
    P_a = None if probes is None else nb.check_float_array("probes", probes, ndim=2)
    if P_a is not None and P_a.shape[1] != d:
        raise ValueError(f"probes must have d = {d} columns (as X), got shape {P_a.shape}")
    svd = reduced_svd(X, dps=dps, rank=rank)
    backend = "numpy" if dps is None else "mpmath"
    conv = (lambda v, arr: arr) if dps is None else (lambda v, arr: _to_object(v))
    ctx = mpmath.workdps(dps) if dps is not None else contextlib.nullcontext()
    with ctx:
        s = (np.sqrt(lam_a) if dps is None else
             np.vectorize(mpmath.sqrt, otypes=[object])(_to_object(lam)))  # fmt: skip
        col = lambda v: v[..., None]  # noqa: E731 - vectors as (..., rows, 1) columns
        Dinv = np.diag(1 / svd.D) if dps is None else _diag_object(1 / svd.D)
        args = (d, col(conv(y, ya)), svd.U, Dinv, svd.V, conv(W0, W_a), col(s),
                col(conv(a, a_a).astype(object) if dps is not None else a_a))  # fmt: skip
        ev = functools.partial(_call, backend)
        beta0 = ev("beta0", *args[5:8])[..., 0]
        beta_inf = ev("beta_inf", *args[:5])[..., 0]
        proj = ev("projector", svd.V)
        delta_W = ev("delta_W", *args)
        W_inf = ev("W_inf", *args)
        f = f_nodes = None
        if P_a is not None:
            Pr = conv(probes, P_a)
            f = ev("f", *args, Pr)[..., 0]
            f_nodes = ev("f_nodes", *args, Pr)[..., 0]
    return LinearLimit(svd, beta0, beta_inf, proj, delta_W, W_inf, f, f_nodes)


def _diag_object(v: np.ndarray) -> np.ndarray:
    out = _to_object(np.zeros((len(v), len(v))))
    for i, x in enumerate(v):
        out[i, i] = x
    return out


def _call(backend: str, name: str, *args: Any) -> Any:
    return np.asarray(_evaluator(name, backend)(*args))
