"""Fuzz entries, group e (see tests/test_fuzz_every_entry_point.py): the numerical building
blocks under the models, ``numerics.mp`` (the Taylor integrator), ``numerics.scipy_ode``
(DOP853 and the fixed-point test), ``numerics.measures`` (what the papers measure, in torch)
and ``numerics.sweeps`` (fits, phases and the sweep executor)."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
import torch
from fuzz_harness import Entry

from numerics import measures, models, mp, scipy_ode, sweeps
from solvable._core.flows import GradientFlow
from solvable.models.phases import Scaling

# ---------------------------------------------------------------------------
# numerics.mp: x' = -sqrt(a) x, y' = -b y (two states, two parameters, and a node that is a
# function of the parameters alone, so that param_symbols is used)
# ---------------------------------------------------------------------------
_XY = sp.symbols("x y")
_AB = sp.symbols("a b")
_RHS = [-sp.sqrt(_AB[0]) * _XY[0], -_AB[1] * _XY[1]]
_PROG = mp.compile_polynomial(list(_XY), list(_AB), _RHS)


def _mp_integrate() -> dict[str, Any]:
    return {
        "prog": _PROG,
        "params": [1, "0.5"],
        "param_symbols": list(_AB),
        "y0": [1, 0.5],
        "times": [0.5],
        "dps": 15,
    }


MP = [
    Entry(
        "mp.compile_polynomial",
        mp.compile_polynomial,
        lambda: {"state": list(_XY), "params": list(_AB), "rhs": list(_RHS)},
        {"state": "vector", "params": "vector", "rhs": "vector"},
    ),
    Entry("mp.order", mp.order, lambda: {"digits": 30}, {"digits": "int"}),
    Entry(
        "mp.integrate",
        mp.integrate,
        _mp_integrate,
        {
            "prog": "object",
            "params": "vector",
            "param_symbols": "vector",
            "y0": "vector",
            "times": "times",
            "dps": "dps",
            "blocks": "matrix",
            "guard": "int",
            "taylor_order": "int",
            "safety": "scalar",
            "max_steps": "int",
            "progress": "flag",
            "engine": "name",
        },
    ),
    Entry(
        "mp.integrate(engine='reference')",
        mp.integrate,
        lambda: {**_mp_integrate(), "engine": "reference"},
        {
            "params": "vector",
            "y0": "vector",
            "times": "times",
            "blocks": "matrix",
            "safety": "scalar",
        },
    ),
]

# ---------------------------------------------------------------------------
# numerics.scipy_ode: L = (a x^2 + b y^2) / 2, rates (1, 1)
# ---------------------------------------------------------------------------
_FLOW = GradientFlow(
    tuple(_XY),
    tuple(_AB),
    (-_AB[0] * _XY[0], -_AB[1] * _XY[1]),
    (("w", (2,)),),
    (_AB[0] * _XY[0] ** 2 + _AB[1] * _XY[1] ** 2) / 2,
)
_S = np.array([[[2.0, 0.0], [0.0, 1.0]], [[1.0, 0.5], [0.5, 1.0]]])  # two batch elements


def _tail() -> dict[str, Any]:
    return {
        "S": _S.copy(),
        "zdot": np.array([[1e-9, 0.0], [0.0, 1e-9]]),
        "scale": np.full((2, 2), 1e-6),
        "root_eta": np.ones((1, 2)),
        "t_left": np.array([1.0, 10.0]),
        "eps": 2.0**-52,
        "rtol": 1e-10,
    }


def _tail_numbers(tail: Any) -> list[Any]:
    # end() and the bounds are inf along an unstable mode by definition (the test fails
    # there); the decision and the spectrum must be finite
    return [tail.candidate(), tail.lam, tail.V, tail.tau, tail.flat]


def _progress_bar(total: Any, unit: Any = "t") -> Any:
    bar = scipy_ode.progress_bar(total, unit)
    bar.close()
    return bar.total


SCIPY_ODE = [
    Entry(
        "scipy_ode.integrate",
        scipy_ode.integrate,
        lambda: {
            "flow": _FLOW,
            "params": [1.0, 0.5],
            "y0": [1.0, 0.5],
            "times": [0.5],
            "rates": [1.0, 1.0],
        },
        {
            "flow": "object",
            "params": "vector",
            "y0": "vector",
            "times": "times",
            "rtol": "scalar",
            "rates": "vector",
            "max_steps": "int",
            "progress": "flag",
        },
    ),
    Entry(
        "scipy_ode.check_interval",
        scipy_ode.check_interval,
        lambda: {"n_state": 4},
        {"n_state": "int"},
    ),
    Entry(
        "scipy_ode.projected_pace",
        scipy_ode.projected_pace,
        lambda: {"last": (0.5, 0.002), "t": 1.0, "steps": 500, "t_end": 2.0, "max_steps": 100_000},
        {"last": "vector", "t": "scalar", "steps": "int", "t_end": "scalar", "max_steps": "int"},
    ),
    Entry(
        "scipy_ode.progress_bar",
        _progress_bar,
        lambda: {"total": 2.0, "unit": "t"},
        {"total": "scalar", "unit": "name"},
    ),
    Entry(
        "scipy_ode.LinearTail",
        scipy_ode.LinearTail,
        _tail,
        {
            "S": "matrix",
            "zdot": "matrix",
            "scale": "matrix",
            "root_eta": "matrix",
            "t_left": "vector",
            "eps": "scalar",
            "rtol": "scalar",
        },
        numbers=_tail_numbers,
    ),
]

# ---------------------------------------------------------------------------
# numerics.measures: seed 001's two-layer linear net and seed 000's node-scaled net, one
# batch element each (d = 2)
# ---------------------------------------------------------------------------
_X2 = [[1.0, 0.5], [0.2, -1.0]]


def _xz() -> Any:
    return models.TwoLayerLinear([1.0, 2.0], 1.5, 0.7, 1.0, 0.5)


def _xz_p() -> dict[str, Any]:
    return {
        "u": torch.tensor([[0.3, -0.2]], dtype=torch.float64),
        "W": torch.tensor([[[0.1, 0.2], [-0.3, 0.1]]], dtype=torch.float64),
    }


def _ns() -> Any:
    return models.NodeScaled(_X2, [1.0, -0.5], "tanh", 0.5)


def _ns_p(shift: float = 0.0) -> dict[str, Any]:
    p = models.node_scaled_parameters([0.6, 0.4], 2, 1, seed=1, device="cpu")
    return {**p, "W": p["W"] + shift}


def _record(factory: Any, later: Any) -> Any:
    """A recorder factory, and the recorder it makes evaluated as gradient_flow does: on the
    parameters at a later time (``later()``), for batch row 0."""

    def call(**kw: Any) -> Any:
        return factory(**kw)(later(), torch.tensor([0]))

    return call


_MODEL_P = {"model": "object", "p": "object"}


def _undefined_is_nan(out: Any) -> Any:
    # nan is the documented value where a ratio is 0/0 (initial features, or the initial
    # NTK, all zero: x = 0 or X = 0, or underflow); an inf still fails
    return [
        torch.nan_to_num(v, nan=0.0, posinf=np.inf, neginf=-np.inf)
        for v in (out if isinstance(out, tuple) else (out,))
    ]


MEASURES = [
    Entry(
        "measures.alignment",
        measures.alignment,
        lambda: {**_xz_p(), "x": [1.0, 2.0]},
        {"u": "matrix", "W": "object", "x": "vector"},
        # nan is the documented alignment where u or W x is the zero vector
        numbers=lambda a: torch.nan_to_num(a, nan=0.0),
    ),
    Entry(
        "measures.ntk_two_layer_linear",
        measures.ntk_two_layer_linear,
        lambda: {"model": _xz(), "p": _xz_p()},
        _MODEL_P,
    ),
    Entry(
        "measures.ntk",
        measures.ntk,
        lambda: {"model": _ns(), "p": _ns_p(), "X": _X2},
        {**_MODEL_P, "X": "matrix"},
    ),
    Entry(
        "measures.ntk_node_scaled",
        measures.ntk_node_scaled,
        lambda: {"model": _ns(), "p": _ns_p()},
        _MODEL_P,
    ),
    Entry(
        "measures.min_eigenvalue",
        measures.min_eigenvalue,
        lambda: {"K": torch.tensor([[[2.0, 1.0], [1.0, 3.0]]], dtype=torch.float64)},
        {"K": "matrix"},
    ),
    Entry(
        "measures.relative_change",
        measures.relative_change,
        lambda: {
            "new": torch.tensor([[1.0, 2.0]], dtype=torch.float64),
            "old": torch.tensor([[1.5, 2.0]], dtype=torch.float64),
        },
        {"new": "matrix", "old": "matrix"},
    ),
    Entry(
        "measures.relative_distance",
        measures.relative_distance,
        lambda: {
            "theta": torch.tensor([[1.0, 2.0]], dtype=torch.float64),
            "theta0": torch.tensor([[1.5, 2.0]], dtype=torch.float64),
        },
        {"theta": "matrix", "theta0": "matrix"},
    ),
    Entry(
        "measures.feature_learning_ratios",
        measures.feature_learning_ratios,
        lambda: {"model": _ns(), "p": _ns_p(0.1), "p0": _ns_p(), "x": [1.0, 0.5]},
        {**_MODEL_P, "p0": "object", "x": "vector"},
        numbers=_undefined_is_nan,
    ),
    Entry(
        "measures.record_loss",
        _record(measures.record_loss, _xz_p),
        lambda: {"model": _xz()},
        {"model": "object"},
    ),
    Entry(
        "measures.record_ntk",
        _record(measures.record_ntk, _ns_p),
        lambda: {"model": _ns()},
        {"model": "object", "X": "matrix"},
    ),
    Entry(
        "measures.record_ntk_change",
        _record(measures.record_ntk_change, lambda: _ns_p(0.1)),
        lambda: {"model": _ns(), "p0": _ns_p()},
        {"model": "object", "p0": "object", "X": "matrix"},
        numbers=_undefined_is_nan,
    ),
    Entry(
        "measures.kernel_distance",
        measures.kernel_distance,
        lambda: {
            "K": torch.tensor([[[2.0, 1.0], [1.0, 3.0]]], dtype=torch.float64),
            "K0": torch.tensor([[[2.0, 0.5], [0.5, 3.0]]], dtype=torch.float64),
        },
        {"K": "matrix", "K0": "matrix"},
    ),
    Entry(
        "measures.task_alignment",
        measures.task_alignment,
        lambda: {
            "K": torch.tensor([[[2.0, 1.0], [1.0, 3.0]]], dtype=torch.float64),
            "y": torch.tensor([1.0, -0.5], dtype=torch.float64),
        },
        {"K": "matrix", "y": "vector"},
    ),
    Entry(
        "measures.record_kernel_distance",
        _record(measures.record_kernel_distance, lambda: _ns_p(0.1)),
        lambda: {"model": _ns(), "p0": _ns_p()},
        {"model": "object", "p0": "object", "X": "matrix"},
        numbers=_undefined_is_nan,
    ),
    Entry(
        "measures.record_relative_distance",
        _record(measures.record_relative_distance, lambda: _ns_p(0.1)),
        lambda: {"block": "W", "p0": _ns_p()},
        {"block": "name", "p0": "object"},
    ),
    Entry(
        "measures.record_feature_learning",
        _record(measures.record_feature_learning, lambda: _ns_p(0.1)),
        lambda: {"model": _ns(), "p0": _ns_p(), "x": [1.0, 0.5]},
        {"model": "object", "p0": "object", "x": "vector"},
        numbers=_undefined_is_nan,
    ),
]

# ---------------------------------------------------------------------------
# numerics.sweeps: fits of three kappas, a kernel-regime case at width 2 (one input), and a
# sweep of a top-level function of this module, in-process
# ---------------------------------------------------------------------------
_KAPPAS = [1.0, 2.0, 4.0]
_SAMPLES = [[1.0, 1.1], [0.5, 0.6], [0.26, 0.3]]
_FIT = sweeps.fit_exponent(_KAPPAS, _SAMPLES, n_boot=20)
_CASE = sweeps.PhaseCase("flat", Scaling(0, 0, 0, 0, 0, 0), "", 2)
_POINT = {
    "c_d": 0,
    "c_gamma": 0,
    "c_u": 0,
    "c_w": 0,
    "c_eta_u": 0,
    "c_eta_w": 0,
    "kappa": 1.0,
    "d_scale": 2,
    "d0": 1,
    "x": [1.0],
    "seeds": 2,
    "n_times": 5,
}


def sweep_square(point: dict) -> dict:
    """A sweep's ``fn``: top level, so that run_sweep can key it by name."""
    return {"y": point["x"] ** 2}


def _local_cluster(**kw: Any) -> Any:
    """local_cluster with threads for workers (no processes to spawn), closed again."""
    with sweeps.local_cluster(**kw, processes=False) as cluster:
        return len(cluster.workers)


def _fit_numbers(fit: Any) -> list[Any]:
    # se_ols is NaN by definition with two kappas (no residual degree of freedom)
    return [fit.exponent, fit.se_boot, fit.error]


def _phases_numbers(ms: Any) -> list[Any]:
    return [[_fit_numbers(m.t_c), _fit_numbers(m.ntk_change), m.kappas, m.widths] for m in ms]


SWEEPS = [
    Entry(
        "sweeps.fit_exponent",
        sweeps.fit_exponent,
        lambda: {"kappas": list(_KAPPAS), "samples": [list(s) for s in _SAMPLES], "n_boot": 20},
        {"kappas": "vector", "samples": "matrix", "n_boot": "int", "seed": "int"},
        numbers=_fit_numbers,
    ),
    Entry(
        "sweeps.classify",
        sweeps.classify,
        lambda: {"t_c": _FIT, "ntk_change": _FIT},
        {"t_c": "object", "ntk_change": "object"},
    ),
    Entry(
        "sweeps.point_key",
        sweeps.point_key,
        lambda: {"fn": sweep_square, "point": {"x": 2.0}, "version": "1"},
        {"fn": "object", "point": "object", "version": "name"},
    ),
    Entry(
        "sweeps.run_sweep",
        sweeps.run_sweep,
        lambda: {"fn": sweep_square, "points": [{"x": 2.0}, {"x": 3}]},
        {
            "fn": "object",
            "points": "object",
            "version": "name",
            "executor": "object",
            "progress": "flag",
        },
        exempt={
            "cache_dir": "a path: every string names a directory (relative to the working "
            "directory, which the fuzz would fill with them); checked in test_sweeps.py"
        },
    ),
    Entry(
        "sweeps.predicted_exponents",
        sweeps.predicted_exponents,
        lambda: {"c_d": 1, "c_gamma": -0.5, "c_u": 0, "c_w": 0, "c_eta_u": 0, "c_eta_w": 0},
        {
            **{k: "scalar" for k in ("c_d", "c_gamma", "c_u", "c_w", "c_eta_u", "c_eta_w")},
            "zero_initial_output": "flag",
        },
    ),
    Entry(
        "sweeps.table_1_cases",
        sweeps.table_1_cases,
        lambda: {"lazy_width": 4},
        {"lazy_width": "int"},
        numbers=lambda cases: [c.d_scale for c in cases.values()],
    ),
    Entry(
        "sweeps.PhaseCase",
        sweeps.PhaseCase,
        lambda: {"name": "flat", "scaling": Scaling(0, 0, 0, 0, 0, 0), "d_scale": 2},
        {"name": "name", "scaling": "object", "printed": "name", "d_scale": "int"},
        numbers=lambda c: [c.d_scale],
    ),
    Entry(
        "sweeps.xu_ziyin_point",
        sweeps.xu_ziyin_point,
        lambda: {"point": dict(_POINT)},
        {"point": "object"},
    ),
    Entry(
        "sweeps.measure_phases",
        sweeps.measure_phases,
        lambda: {
            "cases": [_CASE],
            "kappas": [1.0, 2.0],
            "seeds": 2,
            "n_boot": 10,
            "n_times": 5,
            "d0": 1,
            "x": [1.0],
        },
        {
            "cases": "object",
            "kappas": "vector",
            "seeds": "int",
            "seed": "int",
            "executor": "object",
            "progress": "flag",
            "n_boot": "int",
        },
        numbers=_phases_numbers,
        exempt={
            "cache_dir": "a path: every string names a directory (relative to the working "
            "directory, which the fuzz would fill with them); run_sweep's, checked in "
            "test_sweeps.py"
        },
    ),
    Entry(
        "sweeps.local_cluster",
        _local_cluster,
        lambda: {"n_workers": 1},
        {"n_workers": "int"},
    ),
]

ENTRIES: list[Entry] = [*MP, *SCIPY_ODE, *MEASURES, *SWEEPS]

_RECORD = "output record: built by the package, users do not construct it"
EXEMPT: dict[str, str] = {
    "mp.TaylorProgram": "output record of compile_polynomial (its DAG of Taylor operations is "
    "the compiler's format, not a user's input); integrate refuses anything else as prog",
    "sweeps.ExponentFit": f"{_RECORD} (returned by fit_exponent, which is fuzzed)",
    "sweeps.PhaseMeasurement": f"{_RECORD} (returned by measure_phases, which is fuzzed)",
    "sweeps.PredictedExponents": f"{_RECORD} (returned by predicted_exponents, which is fuzzed)",
}
