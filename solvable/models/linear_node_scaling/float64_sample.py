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
        w_args = (k["V"], k["W0"], k["s"], k["a"])
        ew_f = e["X"] + e["W0"] + e["lam"] // 2 + e["a"]  # the scale of f_0 = X beta_0/sqrt(d)
        top = max(e["y"], ew_f)
        step = max(1, _BLOCK_BYTES // (8 * m * d))
        chunk = max(1, min(_CHUNK_TIMES, _CHUNK_BYTES // (8 * max(n, d))))
        chunk = max(step, chunk - chunk % step)  # a whole number of W's blocks
        errors = np.geterr()  # np.errstate is per thread: the workers take the caller's
        modes: Any = None

        def chunks(start: int, stop: int) -> bool:
            """The chunks of times ``start:stop`` (``chunk`` apart): whether W is finite."""
            finite_W = True
            with np.errstate(**errors):
                for c0 in range(start, stop, chunk):
                    cs = slice(c0, min(c0 + chunk, stop))
                    g, h, boost = self._mode_factors(tt[cs])
                    finite_W &= self._assemble_W(res.W[cs], g, boost, modes, step)
                    # f = f_t_w + f_t_y, and y - f = residual_t_y - f_t_w (symbolic())
                    f_y = fast("f_t_y", k["y"], k["U"], g)[..., 0]
                    f_w = fast("f_t_w", k["d"], k["U"], k["Dm"], *w_args, h)[..., 0]
                    np.add(self._scaled(f_y, e["y"] - boost[:, None]), self._scaled(f_w, ew_f),
                           out=res.f[cs])  # fmt: skip
                    r_y = fast("residual_t_y", k["y"], k["U"], h, k["R_y"])[..., 0]
                    # eq. (5): L = 1/2 |y - f|^2, the residual taken at the larger of the two scales
                    r = self._scaled(r_y, e["y"] - top) - self._scaled(f_w, ew_f - top)
                    res.loss[cs] = self._scaled((r**2).sum(-1) / 2, 2 * top)
            return finite_W

        for name in _FAST_ARGS:  # generated here, not by two threads at once
            _fast_evaluator(name)
        with one_blas_thread():  # the products the same for every batch of times
            modes = self._fused_modes()
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

    def _fused_modes(self) -> tuple[np.ndarray, int] | None:
        """The mode coefficients of ``c(t)`` of both parts in one scale, ``(p, e)`` with
        ``c(t) = (V G p) 2^e`` (:meth:`_assemble_W`): ``p`` the y-part's and the W_0-part's
        ``c_modes`` (each on the mantissas of the data) added in the larger part's scale
        ``e``, or None where that scaling of the smaller part is not exact (a nonzero
        coefficient would become subnormal or 0: scales of y and W_0 some 1000 binades
        apart), and every time takes the two parts apart."""
        k = self._data
        e = k["exp"]
        fast = _fast_evaluator("c_modes")
        p_y = fast(k["d"], k["y"], k["U"], k["Dinv"], k["V"], k["zero_W"], k["s"], k["a"])
        p_w = fast(k["d"], k["zero_y"], k["U"], k["Dinv"], k["V"], k["W0"], k["s"], k["a"])
        top = max(_y_part_scale(e), e["W0"])
        parts = []
        for p, ep in ((p_y, _y_part_scale(e)), (p_w, e["W0"])):
            with np.errstate(under="ignore"):
                q = times_power_of_two(p, ep - top)
            if np.any((p != 0) & ~(np.abs(q) >= 2.0**-1022)):
                return None
            parts.append(q)
        return parts[0] + parts[1], top

    def _assemble_W(self, W: np.ndarray, g: np.ndarray, boost: np.ndarray,
                    modes: tuple[np.ndarray, int] | None, step: int) -> bool:  # fmt: skip
        """``W = W_0 + (sqrt(lam) a) c(t)^T`` for a chunk of times (mode factors ``g``, the
        rows' ``boost``), into ``W`` (times, m, d), :data:`_BLOCK_BYTES` at a time: whether
        every entry is finite.

        ``c(t)`` of the y-part and of the W_0-part are one ``V G p`` of their mode
        coefficients added first (:meth:`_fused_modes`; issue 17): one matrix product per
        time, and one product and one addition per entry of ``W``, written into the output
        (the rank one, then ``W_0`` added while the block is in cache), at every time where
        the scaled-back ``c`` and every product ``u_i c_j`` are normal floats
        (:meth:`_fusable`).  The two orders differ by the rounding of the one sum of the
        parts' coefficients, within the reference's bound.  Other times (an underflowing
        mode, a scale near the float64 range) take the two parts apart
        (:meth:`_two_parts`); the choice is made per time, so the result does not depend on
        the blocks."""
        k = self._data
        fast, into = _fast_evaluator("rank_one"), _fast_evaluator("rank_one_into")
        if modes is None:
            c, fused = None, np.zeros(len(g), dtype=bool)
        else:
            p, top = modes
            c_m = _fast_evaluator("c_of_modes")(k["V"], g, p)
            with np.errstate(over="ignore", under="ignore", invalid="ignore"):
                c = times_power_of_two(c_m, (top - boost).reshape(-1, 1, 1))
            fused = self._fusable(c_m, c)
        finite = True
        for i0 in range(0, len(W), step):
            blk = slice(i0, min(i0 + step, len(W)))
            Wb = W[blk]
            rows = fused[blk]
            if rows.all():  # the rank one into the block (the first touch), then W_0 in cache
                into(k["s"], k["a"], c[blk], Wb)
                np.add(Wb, k["W0_full"], out=Wb)
                continue
            if rows.any():
                Wb[rows] = k["W0_full"] + fast(k["s"], k["a"], c[blk][rows])
            apart = ~rows
            Wb[apart] = self._two_parts(g[blk][apart], boost[blk][apart])
            finite &= bool(np.isfinite(Wb[apart]).all())  # (the fused rows: below)
        # a fused time is finite: |u c_j| <= 2^1022 (_fusable) and |W_0| <= 2^1023 sum to at
        # most 1.5 2^1023, below the largest double with its rounding; else checked
        if fused.any() and not float(np.max(np.abs(k["W0_full"]), initial=0.0)) <= 2.0**1023:
            finite &= bool(np.isfinite(W[fused]).all())
        return finite

    def _two_parts(self, g: np.ndarray, boost: np.ndarray) -> np.ndarray:
        """``W = W_0 + (y-part) + (W_0-part)`` at the times of mode factors ``g``, each part
        the rank one ``(sqrt(lam) a) c^T`` of its own ``c_t`` on the data's mantissas,
        scaled back by its power of two (less the rows' ``boost``) after the product."""
        k = self._data
        e = k["exp"]
        fast, rank_one = _fast_evaluator("c_t"), _fast_evaluator("rank_one")
        c_y = fast(k["d"], k["y"], k["U"], k["Dinv"], k["V"], k["zero_W"], k["s"], k["a"], g)
        c_w = fast(k["d"], k["zero_y"], k["U"], k["Dinv"], k["V"], k["W0"], k["s"], k["a"], g)
        nboost = -boost.reshape(-1, 1, 1)
        u = (k["s"], k["a"])
        dW_y = self._scaled(rank_one(*u, c_y), _y_part_scale(e) + nboost, inplace=True)
        dW_w = self._scaled(rank_one(*u, c_w), e["W0"] + nboost, inplace=True)
        return np.add(np.add(k["W0_full"], dW_y, out=dW_y), dW_w, out=dW_y)

    def _fusable(self, c_m: np.ndarray, c: np.ndarray) -> np.ndarray:
        """Per time (a (times,) bool) whether :meth:`_assemble_W` may take ``c = c_m 2^e``
        (times, d, 1) as it is: the rescaling exact (each nonzero ``c_m`` a normal float
        after it, none lost to zero), the products ``u_i c_j`` of the nonzero ``u =
        sqrt(lam) a`` and nonzero ``c_j`` normal (``>= 2^-1022``), and ``max|u| |c_j| <=
        2^1022`` (no overflow of a product, nor of its sum with ``W_0``)."""
        k = self._data
        u = np.abs(k["s"] * k["a"])[:, 0]
        u_max = float(np.max(u, initial=0.0))
        u_min = float(np.min(u[u > 0], initial=math.inf))
        tiny, huge = 2.0**-1022, 2.0**1022
        with np.errstate(over="ignore", divide="ignore"):
            least = max(tiny, tiny / u_min)  # the least nonzero |c_j| both need
        av = np.abs(c[..., 0])
        with np.errstate(invalid="ignore"):
            lo = np.min(av, axis=1, where=c_m[..., 0] != 0, initial=math.inf)
            hi = np.max(av, axis=1, initial=0.0)
            return (lo >= least) & (u_max * hi <= huge)


def _y_part_scale(e: dict[str, int]) -> int:
    """The power of two of W's y-part ``sqrt(lam) a c_y^T`` on the data's mantissas: ``y /
    (X sqrt(lam) a)`` (``c_y`` carries ``beta_inf / S``, the rows ``sqrt(lam) a``)."""
    return e["y"] - e["X"] - e["lam"] // 2 - e["a"]
