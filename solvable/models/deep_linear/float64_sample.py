r"""The float64 engine of :meth:`SpectralTrajectory.sample
<solvable.models.deep_linear.spectral.SpectralTrajectory.sample>` (issue 31, item 5): every
mode strength at every time at once, the layers by one matrix product each, written into
arrays allocated once.

Each mode's ``u_k(t)`` at all times is :func:`~solvable.models.deep_linear.strength.strengths`
(the proved brackets and Illinois iteration of the per-time
:meth:`~solvable.models.deep_linear.spectral.SpectralTrajectory.at`, elementwise on arrays),
``rho_k = (u_k/u_k(0))^(1/L)``, and the layers ``W_l(t) = W_l(0) + sum_k (rho_k - 1) c_{l,k}
r_{l+1,k} r_{l,k}^T`` (Saxe et al. 2013, cited by seed 001 Sec. 2) are the rows of one
product ``G M`` with ``G = [1, rho_1 - 1, ...]`` (T, m + 1) and ``M`` the flattened ``W_l(0)``
and mode parts (m + 1, d_l d_{l-1}), written straight into the output (``at`` sums the same
terms one mode after another: the two agree to the rounding bound of an (m + 1)-term sum,
``tests/test_deep_linear_sample_f64.py``).  ``beta``, ``f`` and the loss are then the stacked
:mod:`~solvable.models.deep_linear.network` code on blocks of times (the bytes of
:func:`~solvable.models.deep_linear.states.state_of` applied to those layers).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable.models.deep_linear.network import loss_of, outputs_of, product
from solvable.models.deep_linear.sampling import _each
from solvable.models.deep_linear.strength import RateOutOfRangeError, strengths

__all__ = ["BLOCK_BYTES", "sample_float64"]

BLOCK_BYTES = 1 << 20
"""The bytes of one layer over a block of times (``beta``, ``f``, loss built block by block)."""


def _times(traj: Any, times: Any) -> tuple[np.ndarray, np.ndarray]:
    """The times as ``at`` reads them (``t``, with ``inf`` for the limit, and the mask of the
    limit); an error naming ``times[k]``.  A float array of finite nonnegative numbers and
    ``inf`` is taken as it is (``at`` would read each entry the same way)."""
    arr = times if isinstance(times, np.ndarray) else None
    if arr is not None and arr.dtype.kind == "f" and arr.ndim == 1:
        t = arr.astype(float)
        if not np.all((t >= 0) & ~np.isnan(t)):
            k = int(np.flatnonzero(~((t >= 0) & ~np.isnan(t)))[0])
            try:
                traj._time(arr[k])  # (raises, naming the value)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"times[{k}]: {exc}") from exc
        return t, t == math.inf
    pairs = _each(traj._time, times)
    inf = np.array([p[1] for p in pairs], dtype=bool)
    t = np.array([0.0 if p[1] else p[0] for p in pairs], dtype=float)
    t[inf] = math.inf
    return t, inf


def sample_float64(traj: Any, times: Any) -> dict[str, Any]:
    """The stacked fields ``t``, ``params`` (``{"W1": (T, d1, d0), ...}``), ``beta``, ``f``,
    ``loss`` of the float64 trajectory ``traj`` (a
    :class:`~solvable.models.deep_linear.spectral.SpectralTrajectory`) at ``times``, written
    into arrays allocated once (no per-time arrays, no stacking copy)."""
    ts, inf = _times(traj, times)
    L, T, m = traj.setup.L, len(ts), len(traj.modes)
    G = np.empty((T, m + 1))
    G[:, 0] = 1.0
    for k in range(m):
        flow = traj._flow(k)
        try:
            u = strengths(flow, np.where(inf, 0.0, ts), inf)
        except RateOutOfRangeError as exc:
            raise ValueError(f"times[{exc.index}]: {exc}") from None
        G[:, k + 1] = (u / flow.u0) ** (1 / L) - 1
    conv = nb.converter(None)
    X = np.array([[conv(v) for v in row] for row in traj.setup.X], dtype=float)
    Y = np.array([[conv(v) for v in row] for row in traj.setup.Y], dtype=float)
    Ws = []
    for l, W0 in enumerate(traj._weights):
        M = np.stack([W0.ravel(), *(traj._parts[k][l].ravel() for k in range(m))])
        W = np.empty((T, *W0.shape))
        np.matmul(G, M, out=W.reshape(T, W0.size))
        Ws.append(W)
    beta = np.empty((T, traj.setup.dL, traj.setup.d0))
    f = np.empty((T, traj.setup.n, traj.setup.dL))
    out_loss = np.empty(T)
    # blocks of times whose layers fit in a cache (the stacked products are memory-bound)
    step = max(1, BLOCK_BYTES // (8 * max(W.size for W in traj._weights)))
    for i in range(0, T, step):
        j = min(T, i + step)
        beta[i:j] = product([W[i:j] for W in Ws])  # (then F and the loss as state_of's)
        f[i:j] = outputs_of(beta[i:j], X)
        out_loss[i:j] = loss_of(f[i:j], Y)
    params = {f"W{l}": W for l, W in enumerate(Ws, start=1)}
    return dict(t=ts, params=params, beta=beta, f=f, loss=out_loss)
