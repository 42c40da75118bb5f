"""Seed 000, Theorem 7.4: the float64 engine of :meth:`Trajectory.sample
<solvable.models.linear_node_scaling.trajectory.Trajectory.sample>` (issue 17): chunks of
times, ``W`` assembled block by block (the two parts added first where exact), two threads.
:class:`Float64Sample` holds it; the trajectory (the record and the mode factors this engine
reads) inherits it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.backends import fill_in_halves, one_blas_thread
from solvable._core.scaled import times_power_of_two
from solvable.models.linear_node_scaling._evaluators import _FAST_ARGS, _fast_evaluator
from solvable.models.linear_node_scaling.states import (
    States,
    _check_out,
    _check_times,
    _is_infinite,
)

PARALLEL_SAMPLE = 2**22
"""The float64 :meth:`Trajectory.sample` fills the two halves of its times in two threads
where each half holds at least this many entries of ``W`` and ``f`` (32 MiB of float64):
below it the threads' start costs more than they save (issue 17,
``python benchmarks/closed_form_scale.py``)."""
# The block of times of W (times, m, d): 2 MiB, this machine's L2 per core, so that W_0 is
# added to the rank one written into the block while it is in cache (2 MiB against 512 KiB:
# 0.136 s against 0.145 s at n = 52, d = 160, m = 14, 43591 times, two threads;
# benchmarks/closed_form_family.py).
_BLOCK_BYTES = 1 << 21
# The chunk of times whose mode factors, c(t), f(t) and residual are evaluated together (issue
# 17, B2): at m = d = 100 a block of W holds ~6 times, and the ~100 numpy calls of those
# evaluations per block cost more than the block's arithmetic; 1024 times amortise them, and
# 2 MiB per (times, max(n, d)) array keeps the chunk's arrays near L2 (W stays in blocks).
_CHUNK_TIMES = 1024
_CHUNK_BYTES = 1 << 21


class Float64Sample:
    """The float64 :meth:`sample` of a :class:`Trajectory` (``dps=None``): uses the
    trajectory's ``_data``, ``a``, ``_scaled`` and ``_mode_factors``."""

    def _sample_f64(self, times: Any, out: States | None) -> States:
        """float64 :meth:`sample`, block by block into the output arrays."""
        k = self._data
        e = k["exp"]  # the power-of-two scales of X, y, lam (even), a, W0
        if (isinstance(times, np.ndarray) and times.ndim == 1 and times.size
                and times.dtype.kind in "fiu" and np.all(times >= 0)):  # fmt: skip
            tt = times.astype(float)  # numeric times >= 0 or +inf: valid as they are
        else:  # anything else validated (and a bad time reported) one by one
            ts = _check_times(times)
            tt = np.array([math.inf if _is_infinite(t) else nb.to_float(t, f"times[{i}]")
                           for i, t in enumerate(ts)])  # fmt: skip
        T, (m, d), n = len(tt), k["W0"].shape, k["n"]
        res = _check_out(out, T, m, d, n) if out is not None else States(
            t=np.empty(T), W=np.empty((T, m, d)), a=self.a, f=np.empty((T, n)),
            loss=np.empty(T))  # fmt: skip
        res.t[...] = tt
        fast = lambda name, *args: _fast_evaluator(name)(*args)  # noqa: E731
        base = (k["d"], k["y"], k["U"])
        zy, zW = k["zero_y"], k["zero_W"]
        w_args = (k["V"], k["W0"], k["s"], k["a"])
        ew_f = e["X"] + e["W0"] + e["lam"] // 2 + e["a"]  # the scale of f_0 = X beta_0/sqrt(d)
        top = max(e["y"], ew_f)
        step = max(1, _BLOCK_BYTES // (8 * m * d))
        chunk = max(1, min(_CHUNK_TIMES, _CHUNK_BYTES // (8 * max(n, d))))
        chunk = max(step, chunk - chunk % step)  # a whole number of W's blocks
        errors = np.geterr()  # np.errstate is per thread: the workers take the caller's

        def chunks(start: int, stop: int) -> bool:
            """The chunks of times ``start:stop`` (``chunk`` apart): whether W is finite."""
            finite_W = True
            with np.errstate(**errors):
                for c0 in range(start, stop, chunk):
                    cs = slice(c0, min(c0 + chunk, stop))
                    g, h, boost = self._mode_factors(tt[cs])
                    nb_ = lambda ndim, boost=boost: -boost.reshape((-1,) + (1,) * (ndim - 1))  # noqa: E731
                    # W(t) - W_0 = (y-part) + (W_0-part), each the rank one (sqrt(lam) a) c^T
                    c_y = fast("c_t", *base, k["Dinv"], k["V"], zW, k["s"], k["a"], g)
                    c_w = fast("c_t", k["d"], zy, k["U"], k["Dinv"], *w_args, g)
                    ey_W = e["y"] - e["X"] - e["lam"] // 2 - e["a"] + nb_(3)  # the y-part's scale
                    finite_W &= self._assemble_W(res.W[cs], c_y, c_w, ey_W, -boost, step)
                    # f = f_t_w + f_t_y, and y - f = residual_t_y - f_t_w (symbolic())
                    f_y = fast("f_t_y", k["y"], k["U"], g)[..., 0]
                    f_w = fast("f_t_w", k["d"], k["U"], k["Dm"], *w_args, h)[..., 0]
                    np.add(self._scaled(f_y, e["y"] + nb_(2)), self._scaled(f_w, ew_f),
                           out=res.f[cs])  # fmt: skip
                    r_y = fast("residual_t_y", k["y"], k["U"], h, k["R_y"])[..., 0]
                    # eq. (5): L = 1/2 |y - f|^2, the residual taken at the larger of the two scales
                    r = self._scaled(r_y, e["y"] - top) - self._scaled(f_w, ew_f - top)
                    res.loss[cs] = self._scaled((r**2).sum(-1) / 2, 2 * top)
            return finite_W

        for name in _FAST_ARGS:  # generated here, not by two threads at once
            _fast_evaluator(name)
        with one_blas_thread():  # matvecs' products the same for every batch of times
            parts = fill_in_halves(chunks, T, chunk, T * (m * d + n), PARALLEL_SAMPLE)
        finite = {"W": all(parts)}
        finite["f"] = bool(np.isfinite(res.f).all())
        finite["loss"] = bool(np.isfinite(res.loss).all())
        for name in ("W", "f", "loss"):
            if not finite[name]:
                raise ValueError(
                    f"{name}(t) exceeds the float64 range (|value| < 1.8e308) for this setup "
                    "(the scales of X, y, lam, a0, W0): rescale the data, or use dps=k "
                    "(mpmath, no exponent limit)"
                )
        if res.a is self.a:
            return res
        return States(t=res.t, W=res.W, a=self.a, f=res.f, loss=res.loss)

    def _assemble_W(self, W: np.ndarray, c_y: np.ndarray, c_w: np.ndarray, ey_W: np.ndarray,
                    nboost: np.ndarray, step: int) -> bool:  # fmt: skip
        """``W = W_0 + (y-part) + (W_0-part)`` for a chunk of times, into ``W`` (times, m, d),
        :data:`_BLOCK_BYTES` at a time (each part the rank one ``(sqrt(lam) a) c^T`` of its
        (times, d, 1) ``c_y`` / ``c_w``, scaled back by ``2^ey_W`` / ``2^(e_W0 + nboost)``):
        whether every entry is finite.

        Both parts share the rows ``u = sqrt(lam) a``, so at a time where the scaled-back
        ``c``'s and every product ``u_i c_j`` are normal floats (:meth:`_fusable`) the ``c``'s
        are added first (issue 17): ``W = W_0 + u (c_y 2^ey_W + c_w 2^ew)^T``, one product and
        one addition per entry of ``W`` instead of two of each and two rescalings (the
        rescalings are exact there, so the two orders differ by the rounding of the one sum
        of the ``c``'s, within the reference's bound).  Other times (an underflowing mode, a
        scale near the float64 range) take the two parts separately, as before; the choice is
        made per time, so the result does not depend on the blocks."""
        k = self._data
        e = k["exp"]
        fast, into = _fast_evaluator("rank_one"), _fast_evaluator("rank_one_into")
        ew = (e["W0"] + nboost).reshape(-1, 1, 1)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            cy, cw = times_power_of_two(c_y, ey_W), times_power_of_two(c_w, ew)
            c = cy + cw
        fused = self._fusable(c_y, c_w, cy, cw, c)
        finite = True
        for i0 in range(0, len(W), step):
            blk = slice(i0, min(i0 + step, len(W)))
            Wb = W[blk]
            rows = fused[blk]
            if not rows.all():  # the two parts separately (then the fused rows replaced)
                nb_ = lambda ndim, blk=blk: nboost[blk].reshape((-1,) + (1,) * (ndim - 1))  # noqa: E731
                dW = fast(k["s"], k["a"], c_y[blk])
                np.add(k["W0_full"], self._scaled(dW, ey_W[blk], inplace=True), out=Wb)
                dW = fast(k["s"], k["a"], c_w[blk])
                np.add(Wb, self._scaled(dW, e["W0"] + nb_(3), inplace=True), out=Wb)
                if rows.any():
                    Wb[rows] = k["W0_full"] + fast(k["s"], k["a"], c[blk][rows])
                finite &= bool(np.isfinite(Wb[~rows]).all())  # (the fused rows: below)
            else:  # the rank one into the block (the first touch), then W_0 added in cache
                into(k["s"], k["a"], c[blk], Wb)
                np.add(Wb, k["W0_full"], out=Wb)
        # a fused time is finite: |u c_j| <= 2^1022 (_fusable) and |W_0| <= 2^1023 sum to at
        # most 1.5 2^1023, below the largest double with its rounding; else checked
        if fused.any() and not float(np.max(np.abs(k["W0_full"]), initial=0.0)) <= 2.0**1023:
            finite &= bool(np.isfinite(W[fused]).all())
        return finite

    def _fusable(self, c_y: np.ndarray, c_w: np.ndarray, cy: np.ndarray, cw: np.ndarray,
                 c: np.ndarray) -> np.ndarray:  # fmt: skip
        """Per time (a (times,) bool) whether :meth:`_assemble_W` may add the ``c``'s first:
        both rescalings ``cy = c_y 2^ey``, ``cw = c_w 2^ew`` exact (each entry zero or a
        normal float, none from a nonzero mantissa lost to zero), the products ``u_i c_j`` of
        the nonzero ``u = sqrt(lam) a`` and nonzero ``c_j`` normal (``>= 2^-1022``), and
        ``max|u| (|cy_j| + |cw_j|) <= 2^1022`` (no overflow of ``c``, of a product or of
        a part)."""
        k = self._data
        u = np.abs(k["s"] * k["a"])[:, 0]
        u_max = float(np.max(u, initial=0.0))
        u_min = float(np.min(u[u > 0], initial=math.inf))
        tiny, huge = 2.0**-1022, 2.0**1022
        with np.errstate(over="ignore", invalid="ignore"):
            ok = np.ones(len(c), dtype=bool)
            for mant, v in ((c_y, cy), (c_w, cw)):
                av = np.abs(v[..., 0])
                ok &= np.all((mant[..., 0] == 0) | (av >= tiny), axis=1)
            ok &= np.all(u_max * (np.abs(cy[..., 0]) + np.abs(cw[..., 0])) <= huge, axis=1)
            ok &= np.all((c[..., 0] == 0) | (u_min * np.abs(c[..., 0]) >= tiny), axis=1)
        return ok
