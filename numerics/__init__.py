"""numerics: the raw parameter-space gradient flows, integrated independently of
the closed forms in :mod:`solvable` (the oracle they are checked against).

``simulate(setup, out0, in0, times, *, method, dps, rtol, device)`` integrates
``d theta/dt = -eta dL/dtheta`` of the loss the setup describes, from the
output-layer weights ``out0`` and input-layer weights ``in0``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np

from numerics import mp, scipy_ode
from solvable import _numbers, kunin, xu_ziyin
from solvable.flows import (
    GradientFlow,
    kunin_flow,
    kunin_parameters,
    xu_ziyin_flow,
    xu_ziyin_parameters,
)

__all__ = ["METHODS", "simulate"]

METHODS = ("mpmath", "scipy", "torch")
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
) -> list[Any]:
    """Integrate the raw gradient flow and return the states at ``times``.

    ``method="mpmath"``: Taylor series method at ``dps`` digits (default 30),
    error-controlled to ``10**-(dps + 20)`` per step (:mod:`numerics.mp`).
    ``method="scipy"``: float64 DOP853 at ``rtol`` (default 1e-13).
    ``method="torch"``: float64 DOP853 in torch (:mod:`numerics.torch_flow`) at ``rtol``
    (default 1e-12) on ``device`` (default: CUDA when available, else CPU).
    Times may come in any order (and repeat); each must be finite and ``>= 0``; the
    states come back in the order given.  ``dps`` with a float64 method, ``rtol`` with
    ``method="mpmath"`` and ``device`` with a method other than torch are errors.

    Models (dispatch on the type of ``setup``):
    * :class:`solvable.xu_ziyin.Setup`: ``out0 = u0`` (d,), ``in0 = W0`` (d, d0) (seed 001,
      eqs. (4)-(5)); returns :class:`solvable.xu_ziyin.State`.
    * :class:`solvable.kunin.Setup`: ``out0 = a0`` (scalar), ``in0 = w0`` (d,) (seed 003);
      returns :class:`solvable.kunin.State`.
    """
    model = _model(setup)
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if device is not None and method != "torch":
        raise ValueError(f"device is only meaningful for torch; method={method!r} got {device!r}")
    flow, blocks, y0_raw, params_of, make_state = model(setup, out0, in0)
    if isinstance(times, (str, bytes)) or not isinstance(times, (Sequence, np.ndarray)):
        raise TypeError(f"times must be a sequence of numbers, got {type(times).__name__}")
    ts = _numbers.check_vector("times", list(times) if not isinstance(times, np.ndarray) else times)
    for t in ts:
        _numbers.check_number("times", t, nonnegative=True)

    if method in ("scipy", "torch"):
        if dps is not None:
            raise ValueError(
                f"dps is for method='mpmath'; method={method!r} is float64, got dps={dps}"
            )
        if rtol is not None and not (0 < rtol < 1):
            raise ValueError(f"rtol must be in (0, 1), got {rtol}")
        tf = np.array([_numbers.to_float(t) for t in ts])
        order = np.argsort(tf, kind="stable")
        y0 = [_numbers.to_float(v) for v in y0_raw]
        if method == "scipy":
            ys, _ = scipy_ode.integrate(
                flow, params_of(_numbers.to_float), y0, tf[order],
                rtol=scipy_ode.DEFAULT_RTOL if rtol is None else rtol,
            )  # fmt: skip
        else:
            ys = _torch_integrate(setup, y0, tf[order], 1e-12 if rtol is None else rtol, device)
        states: list[Any] = [None] * len(ts)
        for row, k in zip(ys, order, strict=True):
            states[k] = make_state(tf[k], row, None)
        return states

    if rtol is not None:
        raise ValueError("rtol is for method='scipy'; method='mpmath' is controlled by dps")
    dps = DEFAULT_DPS if dps is None else xu_ziyin._check_dps(dps)
    with mpmath.workdps(dps + mp.GUARD_DIGITS):
        tm = [_numbers.to_mpf(t) for t in ts]
        order = sorted(range(len(tm)), key=lambda k: tm[k])
        y0 = [_numbers.to_mpf(v) for v in y0_raw]
        params = params_of(_numbers.to_mpf)
    prog = _program(flow)
    ys, _stats = mp.integrate(prog, params, flow.params, y0, [tm[k] for k in order], dps, blocks)
    states = [None] * len(ts)
    for row, k in zip(ys, order, strict=True):
        # measures at the integrator's working precision (f = gamma u.Wx cancels as f -> 0)
        states[k] = _rounded(make_state(tm[k], row, dps + mp.GUARD_DIGITS), dps)
    return states


def _torch_integrate(setup: Any, y0: list[float], times: np.ndarray, rtol: float,
                     device: Any) -> np.ndarray:  # fmt: skip
    """One trajectory with :func:`numerics.torch_flow.gradient_flow`, as rows of the flat
    state ``(out0, in0)`` in the order of :mod:`solvable.flows`."""
    import torch

    from numerics import models, torch_flow

    dev = torch_flow.resolve_device(device)
    y = torch.tensor(y0, dtype=torch.float64, device=dev)
    f = _numbers.to_float
    if isinstance(setup, xu_ziyin.Setup):
        d = (len(y0)) // (1 + setup.d0)
        model = models.TwoLayerLinear(
            [f(v) for v in setup.x], f(setup.y), f(setup.gamma), f(setup.eta_u), f(setup.eta_w)
        )
        params = {"u": y[None, :d], "W": y[None, d:].reshape(1, d, setup.d0)}
    else:
        model = models.SingleNeuron(
            [[f(v) for v in row] for row in setup.X], [f(v) for v in setup.y],
            f(setup.eta_a), f(setup.eta_w),
        )  # fmt: skip
        params = {"a": y[None, 0], "w": y[None, 1:]}
    res = torch_flow.gradient_flow(model, params, times, rtol=rtol)
    flat = torch.cat([res.params[b].reshape(len(times), -1) for b in model.blocks], 1)
    return flat.cpu().numpy()


def _model(setup: Any):
    if isinstance(setup, xu_ziyin.Setup):
        return _xu_ziyin_model
    if isinstance(setup, kunin.Setup):
        return _kunin_model
    raise TypeError(
        "setup must be a solvable.xu_ziyin.Setup or solvable.kunin.Setup, "
        f"got {type(setup).__name__}"
    )


def _xu_ziyin_model(setup: xu_ziyin.Setup, out0: Any, in0: Any):
    u0 = _numbers.check_vector("out0", out0)
    W0 = _numbers.check_matrix("in0", in0, (len(u0), setup.d0))
    d, d0 = len(u0), setup.d0
    flow = xu_ziyin_flow(d, d0)
    y0 = [*u0, *[v for row in W0 for v in row]]

    def make_state(t: Any, row: Any, dps: int | None) -> xu_ziyin.State:
        dt = float if dps is None else object
        u = np.array(row[:d], dtype=dt)
        W = np.array(row[d:], dtype=dt).reshape(d, d0)
        return xu_ziyin.State.from_weights(setup, t, u, W, dps=dps)

    blocks = [(0, d), (d, d + d * d0)]
    return flow, blocks, y0, lambda conv: xu_ziyin_parameters(setup, conv), make_state


def _kunin_model(setup: kunin.Setup, out0: Any, in0: Any):
    a0 = _numbers.check_number("out0", out0)
    w0 = _numbers.check_vector("in0", in0, setup.d)
    flow = kunin_flow(setup.n, setup.d)
    y0 = [a0, *w0]

    def make_state(t: Any, row: Any, dps: int | None) -> kunin.State:
        return kunin.State.from_weights(setup, t, row[0], list(row[1:]), dps=dps)

    blocks = [(0, 1), (1, 1 + setup.d)]
    return flow, blocks, y0, lambda conv: kunin_parameters(setup, conv), make_state


def _rounded(st: Any, dps: int) -> Any:
    with mpmath.workdps(dps):
        rnd = np.vectorize(lambda z: +z, otypes=[object])
        fields = {k: (rnd(v) if isinstance(v, np.ndarray) else +v) for k, v in vars(st).items()}
        return type(st)(**fields)


@functools.cache
def _program(flow: GradientFlow) -> mp.TaylorProgram:
    """The compiled Taylor program of a flow (flows are frozen, hashable and cached)."""
    return mp.compile_polynomial(flow.state, flow.params, flow.rhs)
