r"""numerics: the raw parameter-space gradient flows, integrated independently of the
closed forms in :mod:`solvable` (the oracle they are checked against).

``simulate(setup, out0, in0, times, *, method, dps, rtol, device)`` integrates
:math:`\mathrm{d}\theta/\mathrm{d}t = -\eta\,\partial L/\partial\theta` of the loss the
setup describes, from the output-layer weights ``out0`` and input-layer weights ``in0``:
``method="mpmath"`` (a Taylor series integrator at ``dps`` digits, :class:`mpmath.mpf`),
``"scipy"`` (float64, :class:`scipy.integrate.DOP853`, on :class:`numpy.ndarray`) or
``"torch"`` (batched :class:`torch.Tensor` on ``device``, a :class:`torch.device`).
It dispatches on the type of ``setup`` through one table, :func:`systems`, built from the
systems the models declare (``MODEL.systems`` of every model in :data:`solvable.MODELS`): a
new model's system is simulated without touching this package.
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np

import solvable
from solvable._core import numbers as nb
from solvable._core.lazy import lazy_module

# loaded on first use (issue 30: ``import numerics`` in 0.3 s instead of 1 s; scipy.integrate
# and the models' torch losses are needed only when a flow is integrated)
mp = lazy_module("numerics.mp")
scipy_ode = lazy_module("numerics.scipy_ode")
models = lazy_module("numerics.models")
torch_flow = lazy_module("numerics.torch_flow")
_flows = lazy_module("solvable._core.flows")  # (sympy: 0.2 s)
_model = lazy_module("solvable._core.model")

__all__ = ["DEFAULT_DPS", "METHODS", "simulate", "systems"]
_SUBMODULES = ("alpha_scaling", "datasets", "initialisation_scale", "kernel_sampling",
               "lazy_width", "measures", "models", "mp", "node_scaling_experiment",
               "node_scaling_gd", "node_scaling_linear", "ntg_sampling", "overall_scale",
               "phase_diagram", "scale_out", "scipy_ode", "sweep_three_layer", "sweeps",
               "teacher_task", "torch_flow")  # fmt: skip

METHODS = ("mpmath", "scipy", "torch")
DEFAULT_DPS = 30


def systems() -> dict[type, _model.System]:
    """The one dispatch table: setup type -> the model's :class:`solvable.System`, built
    from ``MODEL.systems`` of every model in :data:`solvable.MODELS`."""
    return {s.setup_type: s for m in solvable.MODELS for s in m.systems}


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
    max_steps: int | None = None,
    progress: bool = False,
    engine: str | None = None,
) -> Any:
    """Integrate the raw gradient flow and return the states at ``times``.

    Returns the model's ``States`` (:meth:`solvable.System.stack`): arrays with a leading
    time axis (``sim.u``, ``sim.loss``, ...), the type ``closed_form(...).sample`` returns
    where the model has a closed form (``xu_ziyin``, ``kunin``'s single neuron), else
    :class:`solvable._core.states.StackedStates` of the model's ``State`` fields;
    ``sim.at(k)`` or iteration give one ``State`` per time (``sim[k]``, the list this
    returned before, still works with a ``DeprecationWarning``).

    ``method="mpmath"``: Taylor series method at ``dps`` digits (default 30, or the
    caller's ``mpmath.mp.dps`` when that is higher and an input is an ``mpmath.mpf``),
    error-controlled to ``10**-(dps + 20)`` per step (:mod:`numerics.mp`); needs a polynomial
    vector field (the linear networks; ReLU, tanh and swish networks are refused).
    ``engine`` picks how the Taylor series is computed (:data:`numerics.mp.ENGINES`:
    ``"vector"``, the default: the program compiled to one Python function on fixed-point
    integer series, or ``"reference"``, the node-by-node ``mpmath.fdot`` recurrence kept
    for comparison; the same order, error control and working precision).
    ``method="scipy"``: float64 DOP853 at ``rtol`` (default 1e-13; ``mpmath.mpf`` inputs
    are rounded to float64 once: the float64 methods are chosen by name).
    ``method="torch"``: float64 DOP853 in torch (:mod:`numerics.torch_flow`) at ``rtol``
    (default 1e-12) on ``device`` (default: CUDA when available, else CPU).
    Times may come in any order (and repeat); each must be finite and ``>= 0``; the
    states come back in the order given.  ``dps`` with a float64 method, ``rtol`` with
    ``method="mpmath"``, ``engine`` with a method other than mpmath and ``device`` with a
    method other than torch are errors.

    Long times: the scipy and torch paths test, every few steps, whether the rest of the
    trajectory is the linearised flow around a stable fixed point to within the tolerance
    (:class:`numerics.scipy_ode.LinearTail` states the criterion) and then evaluate it in
    closed form, so ``t = 1e6`` costs what reaching the fixed point costs (a saddle is
    integrated on: the flow leaves it).  ``max_steps`` (default 100000, every method) caps
    the integrator's steps with an ``ArithmeticError`` naming it instead of a hang;
    ``progress=True`` shows a tqdm bar of the time reached.

    Models (dispatch on the type of ``setup``, see :func:`systems`): the output-layer and
    input-layer blocks are the first two of the system's ``blocks``, e.g.
    :class:`solvable.models.xu_ziyin.Setup` (``u0`` (d,), ``W0`` (d, d0)),
    :class:`solvable.models.kunin.Setup` (``a0``, ``w0`` (d,)),
    :class:`solvable.models.kunin.WideSetup`
    (``A0`` (h, c), ``W0`` (h, d)), :class:`solvable.models.kunin.PiecewiseLinearSetup`,
    :class:`solvable.models.node_scaling.Setup`, :class:`solvable.models.linearisation.Setup`,
    :class:`solvable.models.three_layer.Setup`; each gives its model's ``State`` at each time.
    """
    table = systems()
    system = table.get(type(setup))
    if system is None:
        names = ", ".join(f"{t.__module__}.{t.__qualname__}" for t in table)
        raise TypeError(f"setup must be one of {names}; got {type(setup).__name__}")
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if device is not None and method != "torch":
        raise ValueError(f"device is only meaningful for torch; method={method!r} got {device!r}")
    if engine is not None and method != "mpmath":
        raise ValueError(f"engine is for method='mpmath'; method={method!r} got {engine!r}")
    if engine is not None and engine not in mp.ENGINES:
        raise ValueError(f"engine must be one of {mp.ENGINES}, got {engine!r}")
    if max_steps is not None:
        max_steps = nb.check_int("max_steps", max_steps)
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be True or False, got {nb.describe(progress)}")
    weights = _initial(system, setup, out0, in0)
    shapes = {b: w.shape for b, w in weights.items()}
    if isinstance(times, (str, bytes)) or not isinstance(times, (Sequence, np.ndarray)):
        raise TypeError(f"times must be a sequence of numbers, got {type(times).__name__}")
    ts = nb.check_times(list(times) if not isinstance(times, np.ndarray) else times, "times")

    if method in ("scipy", "torch"):
        if dps is not None:
            raise ValueError(
                f"dps is for method='mpmath'; method={method!r} is float64, got dps={dps}"
            )
        if rtol is not None:
            _check_rtol(rtol)
        steps = scipy_ode.MAX_STEPS if max_steps is None else max_steps
        tf = np.array([nb.to_float(t, "times") for t in ts])
        order = np.argsort(tf, kind="stable")
        if method == "scipy":
            flow = system.flow(setup, shapes)
            y0 = [nb.to_float(v, "out0/in0") for v in flow.pack(weights)]
            params_f = system.flow_parameters(setup, nb.to_float)
            with np.errstate(all="ignore"):
                field0 = np.asarray(scipy_ode._compiled(flow)(np.array(y0), params_f), dtype=float)
            _check_start(bool(np.all(np.isfinite(field0))))
            rates = system.rates(setup)
            eta = [float(rates[b]) for b, shape in flow.blocks for _ in range(math.prod(shape))]
            ys, _ = scipy_ode.integrate(
                flow, params_f, y0, tf[order],
                rtol=scipy_ode.DEFAULT_RTOL if rtol is None else rtol, rates=eta,
                max_steps=steps, progress=progress,
            )  # fmt: skip
            rows = [flow.unpack(row, float) for row in ys]
        else:
            rows = _torch_integrate(system, setup, weights, tf[order],
                                    1e-12 if rtol is None else rtol, device, steps,
                                    progress)  # fmt: skip
        states: list[Any] = [None] * len(ts)
        for row, k in zip(rows, order, strict=True):
            states[k] = system.state(setup, tf[k], row, None)
        return system.stack(setup, states, weights, None)

    if rtol is not None:
        raise ValueError("rtol is for method='scipy'; method='mpmath' is controlled by dps")
    if not system.polynomial(setup):
        raise ValueError(
            f"method='mpmath' integrates polynomial vector fields only; "
            f"{type(setup).__name__}'s flow is not polynomial: use method='scipy' or 'torch'"
        )
    if dps is None:  # mpmath in: at least the caller's precision (mpmath.mp.dps)
        dps = max(DEFAULT_DPS, nb.dps_or_context(None, setup, out0, in0, times) or 0)
    dps = nb.check_dps(dps)
    if dps < nb.MIN_ORACLE_DPS:
        raise ValueError(
            f"dps must be >= {nb.MIN_ORACLE_DPS} for method='mpmath', got {dps}: for float64 "
            f"accuracy use method='scipy'"
        )
    flow = system.flow(setup, shapes)
    with mpmath.workdps(dps + mp.GUARD_DIGITS):
        tm = [nb.to_mpf(t) for t in ts]
        order = sorted(range(len(tm)), key=lambda k: tm[k])
        y0 = [nb.to_mpf(v) for v in flow.pack(weights)]
        params = system.flow_parameters(setup, nb.to_mpf)
    ys, _stats = mp.integrate(_program(flow), params, flow.params, y0, [tm[k] for k in order],
                              dps, flow.spans(),
                              max_steps=mp.MAX_STEPS if max_steps is None else max_steps,
                              progress=progress, engine=engine or "vector")  # fmt: skip
    states = [None] * len(ts)
    for row, k in zip(ys, order, strict=True):
        # measures at the integrator's working precision (f = gamma u.Wx cancels as f -> 0)
        state = system.state(setup, tm[k], flow.unpack(row), dps + mp.GUARD_DIGITS)
        states[k] = _rounded(state, dps)
    return system.stack(setup, states, weights, dps)


def _torch_integrate(
    system: _model.System, setup: Any, weights: dict[str, np.ndarray], times: np.ndarray,
    rtol: float, device: Any, max_steps: int, progress: bool,
) -> list[dict[str, Any]]:  # fmt: skip
    """One trajectory with :func:`numerics.torch_flow.gradient_flow` on the system's loss,
    as float64 weight arrays per time."""
    import torch

    dev = torch_flow.resolve_device(device)
    as_float = np.vectorize(lambda v: nb.to_float(v, "out0/in0"), otypes=[float])
    params = {b: torch.tensor(as_float(w), dtype=torch.float64, device=dev)[None]
              for b, w in weights.items()}  # fmt: skip
    model = models.SystemModel(system, setup)
    start = {b: p.detach().clone().requires_grad_(True) for b, p in params.items()}
    grads = torch.autograd.grad(model.loss(start).sum(), list(start.values()), allow_unused=True)
    _check_start(all(bool(torch.isfinite(g).all()) for g in grads if g is not None))
    res = torch_flow.gradient_flow(
        model, params, times, rtol=rtol, max_steps=max_steps, progress=progress
    )
    return [{b: res.params[b][k, 0].cpu().numpy() for b in model.blocks} for k in range(len(times))]


def _check_start(finite: bool) -> None:
    """The float64 methods refuse a start whose vector field (or loss) is not finite: the
    weights are too large for the flow's products in float64 (``out0 = 1e300``: the gradient
    is of order 1e900), which the integrator would report only as a failed first step."""
    if not finite:
        raise ValueError(
            "out0/in0: the gradient flow at the start is not finite in float64 (weights too "
            "large for the products of the flow); rescale them, or use method='mpmath' "
            "(mpmath has no exponent limit)"
        )


def _initial(system: _model.System, setup: Any, out0: Any, in0: Any) -> dict[str, np.ndarray]:
    """The system's validated initial weights; an error about one of its blocks says which
    of simulate's arguments carries it (``out0``: the output layer, ``in0``: the rest)."""
    try:
        return system.initial(setup, out0, in0)
    except (TypeError, ValueError) as exc:
        out_name, in_names = system.blocks[0], system.blocks[1:]
        inner = in_names[0] if len(in_names) == 1 else "(" + ", ".join(in_names) + ")"
        where = (f"simulate's out0 is {type(setup).__name__}'s {out_name}0, "
                 f"in0 its {inner}{'0' if len(in_names) == 1 else ''}")  # fmt: skip
        raise type(exc)(f"{exc} ({where})") from exc


def _check_rtol(rtol: Any) -> float:
    """rtol of the float64 methods: a real number in ``[100 eps, 1)`` (scipy raises a smaller
    one to ``100 eps`` anyway; below it the error control cannot be met)."""
    floor = 100 * float(np.finfo(np.float64).eps)
    if isinstance(rtol, bool) or not isinstance(rtol, numbers.Real):
        raise TypeError(f"rtol must be a real number in [{floor:.3g}, 1), got "
                        f"{type(rtol).__name__} {nb.describe(rtol)}")  # fmt: skip
    if not (floor <= mpmath.mpf(nb.to_mpf(rtol)) < 1):  # exact for a huge Fraction or int
        raise ValueError(f"rtol must be in [{floor:.3g}, 1) (100 float64 eps: the float64 "
                         f"methods cannot meet less), got {nb.describe(rtol)}")  # fmt: skip
    return float(rtol)


def _rounded(st: Any, dps: int) -> Any:
    with mpmath.workdps(dps):
        rnd = np.vectorize(lambda z: +z, otypes=[object])
        fields = {}
        for k, v in vars(st).items():
            if isinstance(v, np.ndarray):
                fields[k] = rnd(v) if v.dtype == object else v
            elif isinstance(v, mpmath.mpf):
                fields[k] = +v
            else:
                fields[k] = v
        return type(st)(**fields)


@functools.cache
def _program(flow: _flows.GradientFlow) -> mp.TaylorProgram:
    """The compiled Taylor program of a flow (flows are frozen, hashable and cached)."""
    return mp.compile_polynomial(flow.state, flow.params, flow.rhs)


def __dir__() -> list[str]:
    """The public names and the submodules (not the imports: ``np``, ``math``, ``Any``)."""
    return sorted({*__all__, *_SUBMODULES})
