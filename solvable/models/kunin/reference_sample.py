"""Seed 003 (Kunin et al.), Part I's exact solution: the reference engine of
:meth:`Trajectory.sample <solvable.models.kunin.single_neuron.Trajectory.sample>` (the path
before issue 17): the closed form at each time in mpmath, rounded to float64 where the
trajectory is float64, with more digits where a state needs them (:class:`ReferenceSample`, a
base class of the trajectory; also the 17-digit fallback of the fast engine).
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable.models.kunin._float64 import _SHADOW_DPS, _f64_safe
from solvable.models.kunin.states import States
from solvable.models.kunin.times import _times


class ReferenceSample:
    """:meth:`_sample_reference`, :meth:`_mpmath` and :meth:`_float64` (use the
    trajectory's ``_states``, ``_refined``, ``dps`` and ``delta``)."""

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
