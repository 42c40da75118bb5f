"""numerics: the raw parameter-space gradient flows, integrated independently of
the closed forms in :mod:`solvable` (the oracle they are checked against).

``simulate(setup, out0, in0, times, *, method, dps, rtol, device)`` integrates
``d theta/dt = -eta dL/dtheta`` of the loss the setup describes, from the
output-layer weights ``out0`` and input-layer weights ``in0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np

from numerics import mp, scipy_ode
from numerics.systems import xu_ziyin_flow, xu_ziyin_parameters
from solvable import _numbers, xu_ziyin

__all__ = ["METHODS", "simulate"]

METHODS = ("mpmath", "scipy")
DEFAULT_DPS = 30


def simulate(
    setup: Any,
    out0: Any,
    in0: Any,
    times: Sequence[Any],
    *,
    method: str = "mpmath",
    dps: int | None = None,
    rtol: float | None = None,
    device: Any = None,
) -> list[xu_ziyin.State]:
    """Integrate the raw gradient flow and return the states at ``times``.

    ``method="mpmath"``: Taylor series method at ``dps`` digits (default 30),
    error-controlled to ``10**-(dps + 10)`` per step (:mod:`numerics.mp`).
    ``method="scipy"``: float64 DOP853 at ``rtol`` (default 1e-13).
    Times may come in any order; each must be finite and ``>= 0``.
    For a :class:`solvable.xu_ziyin.Setup`, ``out0`` is ``u0`` (d,) and ``in0`` is
    ``W0`` (d, d0) (seed 001, eqs. (4)-(5)).
    """
    if not isinstance(setup, xu_ziyin.Setup):
        raise TypeError(f"setup must be a solvable.xu_ziyin.Setup, got {type(setup).__name__}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if device is not None:
        raise ValueError(f"device is only meaningful for torch; method={method!r} got {device!r}")
    u0 = _numbers.check_vector("out0", out0)
    W0 = _numbers.check_matrix("in0", in0, (len(u0), setup.d0))
    ts = _numbers.check_vector("times", list(times) if not isinstance(times, np.ndarray) else times)
    for t in ts:
        _numbers.check_number("times", t, nonnegative=True)
    flow = xu_ziyin_flow(len(u0), setup.d0)
    d, d0 = len(u0), setup.d0

    if method == "scipy":
        if dps is not None:
            raise ValueError(
                f"dps is for method='mpmath'; method='scipy' is float64, got dps={dps}"
            )
        if rtol is not None and not (0 < rtol < 1):
            raise ValueError(f"rtol must be in (0, 1), got {rtol}")
        tf = np.array([_numbers.to_float(t) for t in ts])
        order = np.argsort(tf, kind="stable")
        y0 = flow.pack(
            [_numbers.to_float(v) for v in u0], [[_numbers.to_float(v) for v in row] for row in W0]
        )
        ys, _ = scipy_ode.integrate(
            flow,
            xu_ziyin_parameters(setup, _numbers.to_float),
            y0,
            tf[order],
            rtol=scipy_ode.DEFAULT_RTOL if rtol is None else rtol,
        )
        states: list[Any] = [None] * len(ts)
        for row, k in zip(ys, order, strict=True):
            u, W = row[:d], row[d:].reshape(d, d0)
            states[k] = xu_ziyin.State.from_weights(setup, tf[k], u, W)
        return states

    if rtol is not None:
        raise ValueError("rtol is for method='scipy'; method='mpmath' is controlled by dps")
    dps = DEFAULT_DPS if dps is None else xu_ziyin._check_dps(dps)
    with mpmath.workdps(dps + mp.GUARD_DIGITS):
        tm = [_numbers.to_mpf(t) for t in ts]
        order = sorted(range(len(tm)), key=lambda k: tm[k])
        y0 = flow.pack(
            [_numbers.to_mpf(v) for v in u0], [[_numbers.to_mpf(v) for v in row] for row in W0]
        )
        params = xu_ziyin_parameters(setup, _numbers.to_mpf)
    prog = _program(d, d0)
    blocks = [(0, d), (d, d + d * d0)]
    ys, _stats = mp.integrate(prog, params, flow.params, y0, [tm[k] for k in order], dps, blocks)
    states = [None] * len(ts)
    for row, k in zip(ys, order, strict=True):
        u = np.array(row[:d], dtype=object)
        W = np.array(row[d:], dtype=object).reshape(d, d0)
        # measure f, alignment, ntk at the integrator's working precision: f = gamma u.Wx
        # cancels when f -> 0 (y = 0), so the guard digits are needed there too
        st = xu_ziyin.State.from_weights(setup, tm[k], u, W, dps=dps + mp.GUARD_DIGITS)
        states[k] = _rounded(st, dps)
    return states


def _rounded(st: xu_ziyin.State, dps: int) -> xu_ziyin.State:
    with mpmath.workdps(dps):
        rnd = np.vectorize(lambda z: +z, otypes=[object])
        return xu_ziyin.State(
            t=+st.t, u=rnd(st.u), W=rnd(st.W), f=+st.f, alignment=+st.alignment, ntk=+st.ntk
        )


_PROGRAMS: dict[tuple[int, int], mp.TaylorProgram] = {}


def _program(d: int, d0: int) -> mp.TaylorProgram:
    key = (d, d0)
    if key not in _PROGRAMS:
        flow = xu_ziyin_flow(d, d0)
        _PROGRAMS[key] = mp.compile_polynomial(flow.state, flow.params, flow.rhs)
    return _PROGRAMS[key]
