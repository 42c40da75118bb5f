r"""The float64 engine of :meth:`SpectralTrajectory.sample
<solvable.models.deep_linear.spectral.SpectralTrajectory.sample>` (issue 31, item 5): the
arithmetic of the per-time :meth:`~solvable.models.deep_linear.spectral.SpectralTrajectory.at`
on stacks of times, with no per-time arrays to stack afterwards.

Each mode strength ``u_k(t)`` is the scalar :func:`~solvable.models.deep_linear.strength.strength`
of ``at`` (one bracketed root per time and mode: the cost that remains, see
docs/benchmarks.md), and ``rho_k = (u_k/u_k(0))^(1/L)`` the same Python float expression;
the layers ``W_l(t) = W_l(0) + sum_k (rho_k - 1) c_{l,k} r_{l+1,k} r_{l,k}^T`` (Saxe et al.
2013, cited by seed 001 Sec. 2) are then built on ``(T, d_l, d_{l-1})`` stacks in place, in
the order of ``at`` (the same float64 operations elementwise), and ``beta``, ``f`` and the
loss by the stacked :mod:`~solvable.models.deep_linear.network` code.  The fields equal those
of ``at`` bit for bit (``tests/test_deep_linear_sample_f64.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable.models.deep_linear.network import loss, outputs, product
from solvable.models.deep_linear.sampling import _each
from solvable.models.deep_linear.strength import strength

__all__ = ["BLOCK_BYTES", "sample_float64"]

BLOCK_BYTES = 1 << 20
"""The bytes of one layer over a block of times (the layers are built block by block)."""


def _strengths(traj: Any, times: Any) -> tuple[np.ndarray, list[list[float]]]:
    """The times as ``at`` reads them (``inf`` for the limit) and ``u_k(t)`` for every time
    and mode (scalar, as ``at``), an error naming ``times[k]``."""
    flows = [traj._flow(k) for k in range(len(traj.modes))]

    def one(t: Any) -> tuple[float, list[float]]:
        tt, inf = traj._time(t)
        return (math.inf if inf else tt), [strength(f, tt, inf) for f in flows]

    pairs = _each(one, times)
    return np.array([p[0] for p in pairs], dtype=float), [p[1] for p in pairs]


def sample_float64(traj: Any, times: Any) -> dict[str, Any]:
    """The stacked fields ``t``, ``params`` (``{"W1": (T, d1, d0), ...}``), ``beta``, ``f``,
    ``loss`` of the float64 trajectory ``traj`` (a
    :class:`~solvable.models.deep_linear.spectral.SpectralTrajectory`) at ``times``, written
    into arrays allocated once (no per-time arrays, no stacking copy)."""
    ts, us = _strengths(traj, times)
    L, T = traj.setup.L, len(ts)
    rhos = []
    for k, flow in enumerate(traj._flow(k) for k in range(len(traj.modes))):
        col = [(u[k] / flow.u0) ** (1 / L) - 1 for u in us]  # (the expression of ``at``)
        rhos.append(np.array(col, dtype=float)[:, None, None])
    conv = nb.converter(None)
    X = np.array([[conv(v) for v in row] for row in traj.setup.X], dtype=float)
    Y = np.array([[conv(v) for v in row] for row in traj.setup.Y], dtype=float)
    Ws = [np.empty((T, *W0.shape)) for W0 in traj._weights]
    beta = np.empty((T, traj.setup.dL, traj.setup.d0))
    f = np.empty((T, traj.setup.n, traj.setup.dL))
    out_loss = np.empty(T)
    # blocks of times whose layers fit in a cache (the stacked operations are memory-bound)
    step = max(1, BLOCK_BYTES // (8 * max(W.size for W in traj._weights)))
    for i in range(0, T, step):
        j = min(T, i + step)
        block = [W[i:j] for W in Ws]
        for l, W in enumerate(block):
            W[...] = traj._weights[l]
            buf = np.empty_like(W)
            for k in range(len(traj.modes)):  # W + (rho - 1) part, mode after mode, as ``at``
                np.multiply(rhos[k][i:j], traj._parts[k][l], out=buf)
                W += buf
        beta[i:j] = product(block)
        f[i:j] = outputs(block, X)
        out_loss[i:j] = loss(block, X, Y)
    params = {f"W{l}": W for l, W in enumerate(Ws, start=1)}
    return dict(t=ts, params=params, beta=beta, f=f, loss=out_loss)
