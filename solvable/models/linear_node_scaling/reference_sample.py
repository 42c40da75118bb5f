"""Seed 000, Theorem 7.4: the reference engine of :meth:`Trajectory.sample
<solvable.models.linear_node_scaling.trajectory.Trajectory.sample>` (the path before issue
17): the products associated left to right on ``(T, k, k)`` mode matrices, the ``(T, m, d)``
parts as whole arrays; the mpmath path of the sample and the reference of the float64 one
(:class:`ReferenceSample`, a base class of the trajectory).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable.models.linear_node_scaling.linear_limit import _call
from solvable.models.linear_node_scaling.states import States, _check_times, _is_infinite


class ReferenceSample:
    """:meth:`_sample_reference` and the mode matrices it multiplies (uses the trajectory's
    ``_data``, ``dps``, ``a``, ``_scaled`` and ``_mode_factors``)."""

    def _sample_reference(self, times: Any) -> States:
        """The path before issue 17 (products left to right on (T, k, k) mode matrices, the
        (T, m, d) parts as whole arrays): the mpmath path, and the reference of the float64
        one (tests, ``benchmarks/closed_form_scale.py``)."""
        ts = _check_times(times)
        k, dps = self._data, self.dps
        backend = "numpy" if dps is None else "mpmath"
        e = k["exp"]  # the power-of-two scales of X, y, lam (even), a, W0 (0 at dps)
        with nb.Precision(dps):
            if dps is None:
                conv = lambda v: math.inf if _is_infinite(v) else nb.to_float(v, "times")  # noqa: E731
            else:
                conv = lambda v: mpmath.inf if _is_infinite(v) else nb.to_mpf(v)  # noqa: E731
            tt = np.array([conv(t) for t in ts], dtype=nb.dtype(dps))
            G, E, boost = self._mode_matrices(tt)
            nb_ = lambda ndim: -boost.reshape((-1,) + (1,) * (ndim - 1))  # noqa: E731
            base = (k["d"], k["y"], k["U"])
            zy, zW = k["zero_y"], k["zero_W"]
            w_args = (k["V"], k["W0"], k["s"], k["a"])
            ev = functools.partial(_call, backend)
            # W(t) - W_0 = (y-part) + (W_0-part); rows sqrt(lambda) a times c(t)
            dW_y = ev("delta_W_t", *base, k["Dinv"], k["V"], zW, k["s"], k["a"], G)
            dW_w = ev("delta_W_t", k["d"], zy, k["U"], k["Dinv"], *w_args, G)
            # both parts are linear in G (a boosted row is scaled back)
            ey_W = e["y"] - e["X"] - e["lam"] // 2 - e["a"] + nb_(3)  # the y-part's scale
            W = k["W0_full"][None] + self._scaled(dW_y, ey_W) \
                + self._scaled(dW_w, e["W0"] + nb_(3))  # fmt: skip
            ew_f = e["X"] + e["W0"] + e["lam"] // 2 + e["a"]  # the scale of f_0 = X beta_0/sqrt(d)
            f_y = ev("f_t", *base, k["Dm"], k["V"], zW, k["s"], k["a"], G, E)
            f = self._scaled(f_y, e["y"] + nb_(3)) + self._scaled(
                ev("f_t", k["d"], zy, k["U"], k["Dm"], *w_args, G, E), ew_f
            )
            r_y = ev("residual_t", *base, k["Dm"], k["V"], zW, k["s"], k["a"], E, k["R_y"])[..., 0]
            r_w = ev("residual_t", k["d"], zy, k["U"], k["Dm"], *w_args, E, zy)[..., 0]
            # eq. (5): L = 1/2 |y - f|^2, the residual taken at the larger of the two scales
            top = max(e["y"], ew_f)
            r = self._scaled(r_y, e["y"] - top) + self._scaled(r_w, ew_f - top)
            L = self._scaled((r**2).sum(-1) / 2, 2 * top)
            f = f[..., 0]
        if dps is None:
            for name, v in (("W", W), ("f", f), ("loss", L)):
                if not np.all(np.isfinite(v)):
                    raise ValueError(
                        f"{name}(t) exceeds the float64 range (|value| < 1.8e308) for this setup "
                        "(the scales of X, y, lam, a0, W0): rescale the data, or use dps=k "
                        "(mpmath, no exponent limit)"
                    )
        tt, W, f, L = nb.rounded((tt, W, f, L), dps)
        return States(t=tt, W=W, a=self.a, f=f, loss=L)

    def _mode_matrices(self, tt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``G = diag(1 - exp(-rate_i t))`` and ``E = diag(exp(-rate_i t))`` (T, k, k): the
        diagonals of :meth:`_mode_factors` on the diagonal, and the boost."""
        g, h, boost = self._mode_factors(tt)
        idx = np.arange(g.shape[-1])
        G = np.zeros((*g.shape, g.shape[-1]), dtype=g.dtype)
        E = np.zeros((*h.shape, h.shape[-1]), dtype=h.dtype)
        if self.dps is not None:
            G[...] = mpmath.mpf(0)
            E[...] = mpmath.mpf(0)
        G[:, idx, idx] = g
        E[:, idx, idx] = h
        return G, E, boost
