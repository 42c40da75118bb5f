"""Seed 003 (Kunin et al.), Part I's exact solution (derived here; see the package docstring):
:func:`closed_form` and its :class:`Trajectory` for isotropic inputs ``X^T X = s I``, ``z(t) =
e^{G t} z0 / sqrt(phi(t))`` evaluated with every term non-negative and every exponent <= 0,
in mpmath or in float64 (the fast sample of issue 17: the coefficients once per chunk of
times, ``w`` and ``beta`` block by block, in two threads for large samples).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.arrays import max_abs as _max_abs
from solvable._core.backends import fill_in_halves
from solvable._core.exact_gram import to_fraction
from solvable._core.numbers import Number
from solvable.models.kunin._float64 import (
    _F64_MAX_EXPONENT,
    _F64_MAX_T,
    _F64_MIN_UNSTABLE,
    _SHADOW_DPS,
    _check_out,
    _chunk_coefficients,
    _empty_states,
    _f64_safe,
    _f64_trusted,
    _piece_choice,
    _resolved_coefficients,
    _w_and_beta,
    _w_and_beta_scratch,
)
from solvable.models.kunin.expressions import _evaluators
from solvable.models.kunin.flows import _scalar
from solvable.models.kunin.frame import _frame_loss, _loss_frame
from solvable.models.kunin.isotropic_data import _isotropic_s, isotropy
from solvable.models.kunin.losses import _balance, _loss
from solvable.models.kunin.minimum import (
    _loss_of,
    _projection,
    _working_rational,
    _working_sqrt,
)
from solvable.models.kunin.setups import Setup, _arrays, _check_weights, _weights
from solvable.models.kunin.states import State, States
from solvable.models.kunin.times import _SAMPLE_TIMES, _float_times, _times


@dataclass(frozen=True)
class Trajectory:
    """Exact solution from ``(a0, w0)`` for isotropic inputs ``X^T X = s I``.

    Attributes: ``delta`` (conserved, eta_w a^2 - eta_a ||w||^2), ``s``,
    ``beta_star`` (= X^T y / s, the least-squares solution), ``Omega`` (rate of the
    Riccati block, for the primed rates eta' = s eta).

    Valid for every ``t`` in ``[0, inf]`` (``float("inf")`` or ``mpmath.inf``: the limit,
    ``z_*_inf`` of :func:`symbolic`).  float64: evaluated in float64 where every constant
    lies in ``[1e-20, 1e20]`` (or is 0) and no term can underflow (:func:`_f64_safe`), and
    otherwise at 17 digits in mpmath (no exponent range) and rounded once; a result that
    float64 cannot hold raises ``ValueError``.  mpmath: the exponents ``Omega t`` are formed
    with ``log10(rate t)`` extra digits, so ``e^{-Omega t}`` keeps ``dps`` digits at any t.
    """

    setup: Setup
    dps: int | None
    delta: Any
    s: Any
    beta_star: np.ndarray
    Omega: Any
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> State:
        """The state at time ``t`` in ``[0, inf]``."""
        return self._sample([t], None, "t")[0]

    def sample(self, times: Any, *, out: States | None = None) -> States:
        """The states at many times (vectorised over ``times``; each in ``[0, inf]``).

        Parameters
        ----------
        times
            One time or a 1-d sequence / array of times, each ``>= 0`` or ``+inf``.
        out
            float64 only (``dps=None``): a preallocated :class:`States` (e.g. an earlier
            result) whose ``t``, ``a``, ``loss`` (T,) and ``w``, ``beta`` (T, d) are writeable
            float64 arrays that do not overlap; they are filled in place.

        Returns
        -------
        States
            The states; with ``out``, a :class:`States` holding ``out``'s arrays (``out`` itself
            when its ``delta`` is this trajectory's).

        float64 (issue 17): the time-only coefficients ``z_a``, ``z_1``, ``z_perp`` of
        :func:`symbolic` are evaluated once on the (T,) vector of times, from evaluators in
        which every ``Piecewise`` whose condition depends on the trajectory's constants only
        (the sign of delta) is resolved once (:func:`_resolved_coefficients`: the same
        arithmetic as the ``Piecewise``, only the piece that applies); ``w`` and ``beta`` are
        written block by block (:data:`_BLOCK_BYTES`) into the output arrays, never through a
        temporary of the output's size, and the loss is :func:`loss` of the two coordinates of
        ``w`` in its plane ``(beta*-hat, c_perp)``, on an orthonormal frame of that plane
        (:func:`_loss_frame`: three rows and targets with the plane's exact Gram, claim
        ``kunin.loss_in_frame``; evaluated by :func:`_frame_loss`, generated from
        :func:`loss` on symbols), so that a time costs O(d), not O(n d); where the frame's
        entries are out of range, on the plane's data ``X beta*-hat, X c_perp`` (O(n + d)).
        ``a``, ``w``, ``beta`` and ``t`` are bit-for-bit those of the previous path
        (:meth:`_sample_reference`); the loss agrees within a derived rounding bound.  Times
        outside the float64-safe range (:func:`_f64_safe`) take the 17-digit fallback as
        before.
        """
        return self._sample(times, out, _SAMPLE_TIMES)

    def _sample(self, times: Any, out: States | None, name: str) -> States:
        """:meth:`sample` (``name``: the argument the times come from, for messages)."""
        if self.dps is None:
            return self._sample_f64(times, out, name)
        if out is not None:
            raise ValueError(
                f"out must be None for dps={self.dps} (preallocated outputs are float64 only, "
                f"dps=None), got {type(out).__name__}"
            )
        return self._sample_reference(times, name)

    def _sample_reference(self, times: Any, name: str = "t") -> States:
        """The path before issue 17 (every time through :meth:`_float64` / :meth:`_mpmath`,
        ``w`` and the loss on (T, d) and (T, n) temporaries): kept as the reference of the
        fast float64 path (tests, ``benchmarks/closed_form_scale.py``) and as the
        mpmath path."""
        ts, inf = _times(times, name)
        if self.dps is None:
            a, w, losses = self._float64(ts, inf)
            tt = np.array([math.inf if i else float(v) for v, i in zip(ts, inf, strict=True)])
        else:
            a, w, losses = self._mpmath(ts, inf)
            with mpmath.workdps(self.dps):
                tt = np.array([mpmath.inf if i else nb.to_mpf(v)
                               for v, i in zip(ts, inf, strict=True)], dtype=object)  # fmt: skip
        with nb.Precision(self.dps), np.errstate(over="ignore"):
            beta = a[:, None] * w
        if self.dps is None and not np.all(np.isfinite(beta)):
            raise ValueError(
                "the state's beta = a w exceeds the float64 range (|value| <= 1.8e308) for "
                "these X, y, eta_a, eta_w, a0, w0; pass dps=... for mpmath"
            )
        if self.dps is not None:
            a, w, beta, losses = nb.rounded((a, w, beta, losses), self.dps)
        return States(t=tt, a=a, w=w, beta=beta, delta=self.delta, loss=losses)

    def _states(self, ts: Any, inf: list[bool]) -> tuple[Any, Any, Any]:
        """``a`` (T,), ``w`` (T, d), ``loss`` (T,) at the working precision of the stored
        constants (no refinement; float64 without the safety check)."""
        k = self._data
        dps = self.dps
        ev = _evaluators("numpy" if dps is None else "mpmath")
        conv = nb.converter(dps)
        dt = nb.dtype(dps)
        T = len(ts)
        with nb.Precision(dps), np.errstate(all="ignore"):
            za, z1, zp = (np.empty(T, dtype=dt) for _ in range(3))
            fin = [i for i in range(T) if not inf[i]]
            if fin:
                tt = np.array([conv(ts[i]) for i in fin], dtype=dt)
                out = ev["coeffs"](
                    k["delta_p"], k["kappa"], k["Y"], k["Omega"], k["c_plus"], k["c_minus"],
                    k["cperp"], k["vx"], k["vy"], tt,
                )  # fmt: skip
                for arr, val in zip((za, z1, zp), out, strict=True):
                    arr[fin] = np.broadcast_to(val, tt.shape)
            if len(fin) < T:
                lim = ev["limits"](k["delta_p"], k["kappa"], k["Omega"], k["c_plus"],
                                   k["cperp"], k["vx"], k["vy"])  # fmt: skip
                for arr, val in zip((za, z1, zp), lim, strict=True):
                    arr[[i for i in range(T) if inf[i]]] = conv(val) if dps else float(val)
            a = k["sa"] * za
            # w = sqrt(eta_w') (z_1 beta*-hat + z_perp c_perp), as its coordinates in the plane
            # (sqrt(eta_w') z_1, sqrt(eta_w') z_perp) times the plane's vectors
            w = (z1 * k["sw"])[:, None] * k["bhat"][None, :] \
                + (zp * k["sw"])[:, None] * k["cperp_vec"][None, :]  # fmt: skip
            if k["minimum"] is None:
                losses = _loss(a, w, k["X"], k["y"])
            else:  # from beta - beta*, every term decaying (claim kunin.deviation_from_minimum)
                zd = np.empty(T, dtype=dt)
                if fin:
                    val = ev["deviation"](
                        k["delta_p"], k["kappa"], k["Y"], k["Omega"], k["c_plus"],
                        k["c_minus"], k["cperp"], k["vx"], k["vy"], tt, k["minimum"]["k_dev"],
                    )  # fmt: skip
                    zd[fin] = np.broadcast_to(val, tt.shape)
                if len(fin) < T:
                    val = ev["deviation_limit"](k["kappa"], k["Y"], k["Omega"], k["c_plus"])
                    zd[[i for i in range(T) if inf[i]]] = conv(val) if dps else float(val)
                losses = _loss_of(ev["loss_deviation"], k, zd, a * (zp * k["sw"]))
        return a, w, losses

    def _refined(self, dps: int) -> Trajectory:
        """The same trajectory with its constants at ``dps`` digits (cached)."""
        cache = self._data["refined"]
        if dps not in cache:
            k = self._data
            cache[dps] = _build(self.setup, k["a0"], k["w0"], dps)
        return cache[dps]

    def _mpmath(self, ts: Any, inf: list[bool]) -> tuple[Any, Any, Any]:
        """mpmath: the time ``t`` at ``dps + log10(rate t)`` digits (``rate = 2 Omega +
        |delta'|`` bounds every exponent rate of z(t)), so that the exponents are formed to
        ``dps + GUARD_DIGITS`` digits and the rounded result keeps ``dps`` digits."""
        k = self._data
        T = len(ts)
        extra = [0] * T
        with nb.Precision(self.dps):
            rate = 2 * k["Omega"] + abs(k["delta_p"])
            for i in range(T):
                if not inf[i]:
                    rt = rate * nb.to_mpf(ts[i])
                    extra[i] = int(mpmath.ceil(mpmath.log10(rt))) + 1 if rt > 1 else 0
        a = np.empty(T, dtype=object)
        w = np.empty((T, self.setup.d), dtype=object)
        losses = np.empty(T, dtype=object)
        for e in sorted(set(extra)):
            idx = [i for i in range(T) if extra[i] == e]
            traj = self if e == 0 else self._refined(self.dps + e)
            ai, wi, li = traj._states([ts[i] for i in idx], [inf[i] for i in idx])
            a[idx], w[idx], losses[idx] = ai, wi, li
        return a, w, losses

    def _float64(self, ts: Any, inf: list[bool]) -> tuple[Any, Any, Any]:
        k = self._data
        T = len(ts)
        safe = [k["trusted"] and _f64_safe(k, float(ts[i]), inf[i]) for i in range(T)]
        a = np.empty(T)
        w = np.empty((T, self.setup.d))
        losses = np.empty(T)
        idx = [i for i in range(T) if safe[i]]
        if idx:
            a[idx], w[idx], losses[idx] = self._states([ts[i] for i in idx],
                                                       [inf[i] for i in idx])  # fmt: skip
        rest = [i for i in range(T) if not safe[i]]
        if rest:
            shadow = self._refined(_SHADOW_DPS)
            ar, wr, lr = shadow._mpmath([ts[i] for i in rest], [inf[i] for i in rest])
            with mpmath.workdps(_SHADOW_DPS):
                a[rest] = [float(v) for v in ar]
                w[rest] = [[float(v) for v in row] for row in wr]
                losses[rest] = [float(v) for v in lr]
        for name, arr in (("a", a), ("w", w), ("loss", losses)):
            if not np.all(np.isfinite(arr)):
                raise ValueError(
                    f"the state's {name} exceeds the float64 range (|value| <= 1.8e308) for "
                    "these X, y, eta_a, eta_w, a0, w0; pass dps=... for mpmath"
                )
        return a, w, losses

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


@nb.mpmath_in_mpmath_out
def closed_form(setup: Setup, a0: Number, w0: Any, *, dps: int | None = None,
                isotropy_rtol: Number | None = None) -> Trajectory:  # fmt: skip
    """Exact gradient-flow solution from ``(a0, w0)`` (seed 003, Part I, exact solution).

    Exists (and is implemented) when the inputs are isotropic, ``X^T X = s I_d`` with
    ``s > 0`` (whitened data: ``s = 1``); otherwise ``ValueError``.  Accepted when
    ``max|X^T X - s I| <= rtol s`` (``s = tr(X^T X)/d``) with ``rtol = isotropy_rtol`` or by
    default ``max(10 u, r_data)``: ``u`` the unit roundoff of float64 or of ``dps`` digits,
    ``r_data = whitening_rtol(n)`` (``4 n eps``) when any entry of X is a float (data whitened
    in float64 cannot be more isotropic, whatever ``dps``) and 0 for exact entries (int, str,
    mpf).  Data whitened from ill-conditioned inputs: ``isotropy_rtol=whitening_rtol(n,
    condition)``.

    Error from the isotropy defect: the solution is that of ``X^T X`` replaced by ``s I``.
    With ``X^T X = s (I + E)``, ``eps_iso = ||E||_2 <= d max|X^T X - s I| / s``, the true flow
    has the extra field ``-M s E beta``; to first order in ``eps_iso`` its state differs by
    ``int_0^t Phi(t, tau) M s E beta dtau``, of norm ``<= eps_iso s int_0^t ||Phi(t, tau)||
    ||M(tau)|| |beta(tau)| dtau`` (Phi the flow's linearisation); at ``t = inf`` the limit
    ``beta_inf = (X^T X)^-1 X^T y`` differs from ``beta*`` by ``<= eps_iso/(1 - eps_iso)
    |beta*|``.  So a defect of ``k eps`` costs about ``k`` units in the last place of the
    state, not more, on every time scale the flow is stable.
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a kunin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    a0, w0c = _check_weights(setup, a0, w0)
    s_exact = _isotropic_s(setup, dps, isotropy_rtol)
    traj = _build(setup, a0, w0c, dps, s_exact)
    if dps is not None:
        return traj
    k = traj._data
    k["trusted"] = _f64_trusted(k)
    if k["trusted"]:
        return traj
    # constants out of the safe float64 range: report them from the 17-digit evaluation
    shadow = traj._refined(_SHADOW_DPS)
    with mpmath.workdps(_SHADOW_DPS):
        rep = {"delta": float(shadow.delta), "s": float(shadow.s), "Omega": float(shadow.Omega),
               "beta_star": np.array([float(v) for v in shadow.beta_star])}  # fmt: skip
    args = {"delta": "a0, w0, eta_a, eta_w", "s": "X", "Omega": "X, y, eta_a, eta_w, a0, w0",
            "beta_star": "X, y"}  # fmt: skip
    for name, v in rep.items():
        if not np.all(np.isfinite(v)):
            raise ValueError(
                f"{name} exceeds the float64 range (|value| <= 1.8e308): {args[name]} too "
                "large for float64; pass dps=... for mpmath"
            )
    return Trajectory(setup=setup, dps=None, _data=k, **rep)


def _build(setup: Setup, a0: Number, w0c: Any, dps: int | None,
           s_exact: Any = None) -> Trajectory:  # fmt: skip
    """The trajectory's constants at ``dps`` digits (float64: ``None``), isotropy checked
    by the caller (``s_exact`` from :func:`isotropy`; recomputed when missing)."""
    if s_exact is None:
        s_exact = isotropy(setup, max(50, (dps or 17) + 20))[0]
    ev = _evaluators("numpy" if dps is None else "mpmath")
    conv = nb.converter(dps)
    sqrt = np.sqrt if dps is None else mpmath.sqrt
    with nb.Precision(dps), np.errstate(all="ignore"):
        X, y = _arrays(setup, dps)
        a = _weights(a0, dps, "a0")
        w = _weights(w0c, dps, "w0")
        s = conv(s_exact) if dps is not None else float(s_exact)
        eta_a, eta_w = conv(setup.eta_a), conv(setup.eta_w)
        # delta exactly from the exact inputs, rounded once: at working precision it cancels
        # (eta_w a^2 and eta_a |w|^2 agree to 1e-31 leave dps - 31 digits)
        exact = _balance(to_fraction(a0), np.array([to_fraction(v) for v in w0c], dtype=object),
                         to_fraction(setup.eta_a), to_fraction(setup.eta_w))  # fmt: skip
        if dps is None:
            # numpy's float64 (as the working values are): an overflow below is an inf for the
            # range checks, not a Python OverflowError
            delta = np.float64(nb.to_float(exact, "delta (from a0, w0, eta_a, eta_w)"))
        else:
            delta = mpmath.mpf(exact.numerator) / exact.denominator
        a = _scalar(a)
        # the primed quantities (eta' = s eta): delta' = s delta, kappa = sqrt(eta_a' eta_w')
        delta_p, kappa, sa, sw = ev["primed"](eta_a, eta_w, s, delta)
        beta_star = X.T @ y / s
        Y = sqrt(sum(beta_star * beta_star))
        bhat = beta_star / Y if Y != 0 else np.zeros_like(beta_star)
        # balanced coordinates z0 = (a / sqrt(eta_a'), w / sqrt(eta_w'))
        c0 = a / sa
        w_par = sum(bhat * w)
        c1 = w_par / sw
        cperp_vec = (w - w_par * bhat) / sw
        cperp = sqrt(sum(cperp_vec * cperp_vec))
        Omega = ev["Omega"](delta_p, kappa, Y)
        if Omega == 0:
            vx, vy = (1.0, 0.0) if dps is None else (mpmath.mpf(1), mpmath.mpf(0))
        else:
            rx, ry = (ev["v_pos"] if delta_p >= 0 else ev["v_neg"])(delta_p, kappa, Y, Omega)
            nrm = sqrt(rx * rx + ry * ry)
            vx, vy = rx / nrm, ry / nrm
        proj = _projection(setup)
        if proj is not None and Y != 0 and any(proj.Xty):
            # |w_perp|^2 = |w0|^2 - (w0.X^T y)^2 / |X^T y|^2 exactly: the rounding of w -
            # w_par bhat (~1e-17 |w| in float64) is not a perpendicular part.  It would decay
            # as E^2, slower than beta - beta* (E^4) of a start on the line of beta*, and
            # become the loss near the minimum (2e-81 for 1e-94 at 45 e-folds).  (Where
            # |beta*| rounds to 0, or X^T y is exactly 0, the working bhat is kept as it is.)
            w_fr = [to_fraction(v) for v in w0c]
            qq = sum((q * q for q in proj.Xty), Fraction(0))
            wq = sum((v * q for v, q in zip(w_fr, proj.Xty, strict=True)), Fraction(0))
            wperp2 = sum((v * v for v in w_fr), Fraction(0)) - wq * wq / qq
            if wperp2 == 0:
                cperp_vec = cperp_vec * 0
            cperp = _working_sqrt(wperp2, dps) / sw
            if wq == 0:
                # w0 exactly perpendicular to beta*: w_par = 0, not its rounding.  With a0 = 0
                # the start is the saddle's fixed line (zero gradient: it never moves), and a
                # residue of c_plus (-2e-62 at dps = 50) would grow into the minimum
                c1 = c1 * 0
                cperp_vec = w / sw
        c_plus = vx * c0 + vy * c1
        c_minus = -vy * c0 + vx * c1
        r = max(abs(c_plus), abs(c_minus), abs(cperp))
        # w(t) = sqrt(eta_w') (z_1(t) bhat + z_perp(t) c_perp_vec)
        data = dict(
            delta_p=delta_p, kappa=kappa, Y=Y, Omega=Omega, c_plus=c_plus, c_minus=c_minus,
            cperp=cperp, vx=vx, vy=vy, sa=sa, sw=sw, bhat=bhat, cperp_vec=cperp_vec, X=X, y=y,
            r=r, s=s, a0=a0, w0=w0c, refined={}, trusted=True, minimum=None,
        )  # fmt: skip
        if proj is not None:  # the loss from beta - beta* (claim kunin.deviation_from_minimum)
            if Y == 0:
                k_dev = c0 * c1
            else:  # (a0 w0.beta* - |beta*|^2) / (|beta*| kappa), the numerator exactly
                bw = sum((to_fraction(v) * q for v, q in zip(w0c, proj.Xty, strict=True)),
                         Fraction(0)) / proj.s  # fmt: skip
                bb = sum((q * q for q in proj.Xty), Fraction(0)) / proj.s**2
                k_dev = _working_rational(to_fraction(a0) * bw - bb, dps) / (Y * kappa)
            data["minimum"] = {"k_dev": k_dev, "floor": _working_rational(proj.floor, dps),
                               "root_s": sqrt(s)}  # fmt: skip
    rnd = nb.round_to(dps)
    return Trajectory(
        setup=setup, dps=dps, delta=rnd(delta), s=rnd(s), beta_star=beta_star,
        Omega=rnd(Omega), _data=data,
    )  # fmt: skip
