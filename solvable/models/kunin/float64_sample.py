"""Seed 003 (Kunin et al.), Part I's exact solution: the fast float64 engine of
:meth:`Trajectory.sample <solvable.models.kunin.single_neuron.Trajectory.sample>` (issue 17):
the coefficients ``z_a``, ``z_1``, ``z_perp`` once per chunk of times, ``w`` and ``beta``
block by block from their coordinates in the plane, the loss on the plane's frame, two
threads for large samples; times where float64 could under- or overflow go to the 17-digit
fallback (:class:`Float64Sample`, a base class of the trajectory).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solvable._core.arrays import max_abs as _max_abs
from solvable._core.backends import fill_in_halves
from solvable.models.kunin._float64 import (
    _F64_MAX_EXPONENT,
    _F64_MAX_T,
    _F64_MIN_UNSTABLE,
    _check_out,
    _chunk_coefficients,
    _empty_states,
    _piece_choice,
    _resolved_coefficients,
    _w_and_beta,
    _w_and_beta_scratch,
)
from solvable.models.kunin.expressions import _evaluators
from solvable.models.kunin.frame import _frame_loss, _loss_frame
from solvable.models.kunin.losses import _loss
from solvable.models.kunin.minimum import _loss_of
from solvable.models.kunin.states import States
from solvable.models.kunin.times import _float_times

# The block of times of the float64 sample: 1 MiB per (times, d) or (times, n) array, so
# that the block's w, beta, the temporary (and the loss's (times, n) array where there is no
# frame), about 3-4 MiB together, stay in the 32 MiB L3 between the operations (this
# machine's L2 is 1 MiB per core: 256 KiB blocks kept them there, but their ~8 numpy calls
# per block then cost more than the cache saves: 0.16 s against 0.18 s at n = d = 32, 1.5e6
# times; issue 17, benchmarks/closed_form_scale.py).
PARALLEL_SAMPLE = 2**22
"""The float64 :meth:`Trajectory.sample` fills the two halves of its times in two threads
where each half holds at least this many entries of ``w``, ``beta`` and the loss's ``X w``
(32 MiB of float64): below it the threads' start costs more than they save (issue 17,
``python benchmarks/closed_form_scale.py``)."""


_BLOCK_BYTES = 1 << 20


# The chunk of times whose coefficients z_a, z_1, z_perp are evaluated together: 65536 times
# (512 KiB per (times,) array; the evaluator's temporaries in L3). Smaller chunks kept them
# in L2, but two threads then spent their time handing the GIL back and forth between
# numpy's short calls (a multiply of 16384 entries: 1.08x faster in two threads than in
# one; of 131072: 2x): at n = 26, d = 8, 5.3e6 times the sample took 0.18 s with 8192,
# 0.16 s with 65536 (benchmarks/closed_form_family.py).
_COEFFICIENT_TIMES = 65536


class Float64Sample:
    """:meth:`_sample_f64` (uses the trajectory's ``_data``, ``setup``, ``delta`` and its
    17-digit fallback ``_float64``)."""

    def _sample_f64(self, times: Any, out: States | None, name: str = "t") -> States:
        """float64 :meth:`sample`: coefficients once on the (T,) times, ``w``, ``beta`` and
        the loss block by block into ``out`` (see :meth:`sample`)."""
        k = self._data
        tf, inf, orig = _float_times(times, name)
        T, d = len(tf), self.setup.d
        res = _check_out(out, T, d) if out is not None else _empty_states(T, d, self.delta)
        # the float64-safe times (the vectorised _f64_safe: the same float64 operations);
        # each test grows with t (rate >= 0), so where the largest time (finite) passes,
        # every time does
        if k["trusted"]:
            rate = 2 * k["Omega"] + abs(k["delta_p"])
            unstable = abs(k["c_plus"]) > _F64_MIN_UNSTABLE * k["r"]
            top = float(np.max(tf, initial=0.0))
            if top <= _F64_MAX_T and (rate * top <= _F64_MAX_EXPONENT or unstable):
                safe = np.ones(T, dtype=bool)  # (and no time is +inf: top is finite)
            else:
                with np.errstate(invalid="ignore", over="ignore"):
                    ok = (tf <= _F64_MAX_T) & ((rate * tf <= _F64_MAX_EXPONENT) | unstable)
                safe = inf | ok
        else:
            safe = np.zeros(T, dtype=bool)
        fin = safe & ~inf
        consts = (k["delta_p"], k["kappa"], k["Y"], k["Omega"], k["c_plus"], k["c_minus"],
                  k["cperp"], k["vx"], k["vy"])  # fmt: skip
        coeffs = _resolved_coefficients(_piece_choice(k["delta_p"]))
        lim = None
        if np.any(inf & safe):
            with np.errstate(all="ignore"):  # the pieces that do not apply may be nan
                lim = [float(v) for v in _evaluators("numpy")["limits"](
                    k["delta_p"], k["kappa"], k["Omega"], k["c_plus"], k["cperp"], k["vx"],
                    k["vy"])]  # fmt: skip
        # the loss from the coordinates of w in the plane (beta*-hat, c_perp): X w =
        # sw z_1 (X beta*-hat) + sw z_perp (X c_perp); loss() of those coordinates
        XB = k["X"] @ np.stack([k["bhat"], k["cperp_vec"]], axis=1)
        # and of those, O(1) per time: the same loss() on the plane's orthonormal frame
        # (claim kunin.loss_in_frame), computed once per trajectory; else on XB (O(n))
        if "frame" not in k:  # (untrusted constants: every time takes the fallback;
            # exactly isotropic data: the loss from beta - beta*, no frame)
            k["frame"] = _loss_frame(XB, k["y"]) if k["trusted"] and k["minimum"] is None \
                else None  # fmt: skip
        frame = k["frame"] is not None
        LX, Ly = k["frame"] if frame else (XB, k["y"])
        minimum = k["minimum"]
        if minimum is not None:
            choice = _piece_choice(k["delta_p"])
            deviation = _resolved_coefficients(choice, ("z_dev",))
            loss_deviation = _evaluators("numpy")["loss_deviation"]
            lim_dev = None
            if lim is not None:
                lim_dev = [float(_evaluators("numpy")["deviation_limit"](
                    k["kappa"], k["Y"], k["Omega"], k["c_plus"]))]  # fmt: skip
        frame_entries = (*LX.ravel().tolist(), *Ly.tolist()) if frame else ()
        frame_loss = _frame_loss(tuple(v != 0 for v in frame_entries)) if frame else None
        # w and beta are finite where sw (|z_1| max|beta*-hat| + |z_perp| max|c_perp|) (times
        # |a|) is below the largest double by more than the rounding of its 4 operations
        # (relative 4 u each way, 8 u < 1e-15): checked on the times, else entry by entry
        wide = (
            abs(k["sw"]) * float(np.max(np.abs(k["bhat"]), initial=0.0)),
            abs(k["sw"]) * float(np.max(np.abs(k["cperp_vec"]), initial=0.0)),
        )
        limit = np.finfo(float).max * (1 - 1e-15)
        # (the (times, n) arrays of the loss only where there is neither frame nor minimum)
        width = d if frame or minimum is not None else max(d, self.setup.n)
        step = max(1, _BLOCK_BYTES // (8 * width))
        chunk = max(step, _COEFFICIENT_TIMES - _COEFFICIENT_TIMES % step)

        def chunks(start: int, stop: int) -> dict[str, bool]:
            """The chunks of times ``start:stop`` (``chunk`` apart), with their own scratch:
            whether their w and beta are finite."""
            finite = dict.fromkeys(("a", "w", "beta", "loss"), True)
            scratch = _w_and_beta_scratch(min(step, T), d)
            coords = np.empty((min(chunk, T), 2))
            with np.errstate(all="ignore"):  # per thread
                for c0 in range(start, stop, chunk):
                    cs = slice(c0, min(c0 + chunk, stop))
                    res.t[cs] = tf[cs]
                    za, z1, zp = _chunk_coefficients(coeffs, consts, lim, tf[cs], fin[cs],
                                                     inf[cs] & safe[cs])  # fmt: skip
                    a = res.a[cs]
                    np.multiply(za, k["sa"], out=a)  # a = sqrt(eta_a') z_a
                    cc = coords[: cs.stop - c0]  # w's coordinates in the plane
                    np.multiply(z1, k["sw"], out=cc[:, 0])
                    np.multiply(zp, k["sw"], out=cc[:, 1])
                    if minimum is not None:  # from beta - beta*: every term decaying
                        zd = _chunk_coefficients(deviation, (*consts, minimum["k_dev"]),
                                                 lim_dev, tf[cs], fin[cs],
                                                 inf[cs] & safe[cs], last=True)  # fmt: skip
                        res.loss[cs] = _loss_of(loss_deviation, k, zd, a * cc[:, 1])
                    elif frame:  # O(1) per time: the whole chunk at once
                        res.loss[cs] = frame_loss(a, cc[:, 0], cc[:, 1], *frame_entries)
                    # the bound at every time of the chunk is at most its value at the
                    # chunk's largest |z_1|, |z_perp| (a nan fails each test)
                    bound = wide[0] * _max_abs(z1) + wide[1] * _max_abs(zp)
                    largest_a = _max_abs(a)
                    finite["a"] &= largest_a < math.inf  # (nan: False)
                    # (and w's coordinates themselves finite)
                    w_ok = bound < limit and _max_abs(cc) < limit
                    beta_ok = w_ok and largest_a * bound < limit
                    for i0 in range(0, cs.stop - c0, step):
                        i1 = min(i0 + step, cs.stop - c0)
                        blk = slice(c0 + i0, c0 + i1)
                        wb, bb = res.w[blk], res.beta[blk]
                        # w from its coordinates in the plane, beta = a w, as in _states
                        _w_and_beta(cc[i0:i1], a[i0:i1], k["bhat"], k["cperp_vec"], wb, bb,
                                    scratch)  # fmt: skip
                        if not frame and minimum is None:  # O(n) per time: (times, n)
                            # arrays kept in cache
                            res.loss[blk] = _loss(a[i0:i1], cc[i0:i1], LX, Ly)
                        if not w_ok:
                            finite["w"] &= bool(np.isfinite(wb).all())
                        if not beta_ok:
                            finite["beta"] &= bool(np.isfinite(bb).all())
                    finite["loss"] &= _max_abs(res.loss[cs]) < math.inf
            return finite

        parts = fill_in_halves(chunks, T, chunk, T * (2 * d + self.setup.n), PARALLEL_SAMPLE)
        finite = {key: all(part[key] for part in parts) for key in ("a", "w", "beta", "loss")}
        rest = np.flatnonzero(~safe)
        if rest.size:  # the 17-digit fallback (raises for a state beyond float64)
            given = [float(orig[i]) if orig is tf else orig[i] for i in rest]
            ar, wr, lr = self._float64(given, [bool(inf[i]) for i in rest])
            res.a[rest], res.w[rest], res.loss[rest] = ar, wr, lr
            with np.errstate(over="ignore"):
                res.beta[rest] = ar[:, None] * wr
            finite.update(a=bool(np.isfinite(res.a).all()), w=bool(np.isfinite(res.w).all()),
                          loss=bool(np.isfinite(res.loss).all()),
                          beta=bool(np.isfinite(res.beta).all()))  # fmt: skip
        for name in ("a", "w", "loss"):
            if not finite[name]:
                raise ValueError(
                    f"the state's {name} exceeds the float64 range (|value| <= 1.8e308) for "
                    "these X, y, eta_a, eta_w, a0, w0; pass dps=... for mpmath"
                )
        if not finite["beta"]:
            raise ValueError(
                "the state's beta = a w exceeds the float64 range (|value| <= 1.8e308) for "
                "these X, y, eta_a, eta_w, a0, w0; pass dps=... for mpmath"
            )
        if res.delta is self.delta or res.delta == self.delta:
            return res
        return States(t=res.t, a=res.a, w=res.w, beta=res.beta, delta=self.delta, loss=res.loss)
