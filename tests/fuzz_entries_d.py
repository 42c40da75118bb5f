"""Fuzz entries, group d (see tests/test_fuzz_every_entry_point.py): xu_ziyin, phases,
delayed_rich and piecewise_linear."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from fuzz_harness import Entry

from solvable.models import delayed_rich as dr
from solvable.models import kunin, phases
from solvable.models import piecewise_linear as pl
from solvable.models import xu_ziyin as xz

# ---------------------------------------------------------------------------
# xu_ziyin: one data point in d0 = 2, width d = 2
# ---------------------------------------------------------------------------
_XZ = {"eta_u": 1.0, "eta_w": 0.5, "gamma": 0.7, "x": [1.0, 2.0], "y": 1.5}
_XZ_SETUP = xz.Setup(**_XZ)
_U0, _W0 = [0.3, -0.2], [[0.1, 0.2], [-0.3, 0.1]]
_XZ_TRAJ = xz.closed_form(_XZ_SETUP, _U0, _W0)


def _weights() -> dict[str, Any]:
    return {"u": np.array(_U0), "W": np.array(_W0), "x": np.array([1.0, 2.0])}


def _state(s: Any) -> list[Any]:
    # t may be inf (the limit state) and the alignment nan (undefined where u or W x is the
    # zero vector, a valid weight), by definition: the state's other numbers must be finite
    return [s.u, s.W, s.f, s.ntk]


def _states(s: Any) -> list[Any]:
    return [s.u, s.W, s.f, s.ntk, s.alpha]


_RATES = ("alpha_plus", "alpha_minus", "t_c")


def _constants(out: dict[str, Any]) -> list[Any]:
    # +inf is the documented value of alpha_+ (P = 0 <= y), alpha_- (P = 0 >= y) and t_c
    # (D = 0); nan and -inf still fail
    return [v for k, v in out.items() if v is not None and not (k in _RATES and v == math.inf)]


XU_ZIYIN = [
    Entry(
        "xu_ziyin.Setup",
        xz.Setup,
        lambda: dict(_XZ),
        {"eta_u": "scalar", "eta_w": "scalar", "gamma": "scalar", "x": "vector", "y": "scalar"},
    ),
    Entry(
        "xu_ziyin.closed_form",
        xz.closed_form,
        lambda: {"setup": _XZ_SETUP, "u0": list(_U0), "W0": [list(r) for r in _W0]},
        {"setup": "object", "u0": "vector", "W0": "matrix", "dps": "dps"},
        numbers=lambda tr: [tr.P, tr.Q, *_state(tr.at(1.0))],
    ),
    Entry(
        "xu_ziyin.Trajectory.at",
        _XZ_TRAJ.at,
        lambda: {"t": 1.0},
        {"t": "scalar"},
        numbers=lambda s: [*_state(s), s.alignment],
    ),
    Entry(
        "xu_ziyin.Trajectory.sample",
        _XZ_TRAJ.sample,
        lambda: {"times": [0.5, 1.0]},
        {"times": "times", "out": "object", "engine": "name"},
        numbers=_states,
    ),
    Entry(
        "xu_ziyin.State.from_weights",
        xz.State.from_weights,
        lambda: {"setup": _XZ_SETUP, "t": 0.5, "u": list(_U0), "W": [list(r) for r in _W0]},
        {"setup": "object", "t": "scalar", "u": "vector", "W": "matrix", "dps": "dps"},
        numbers=_state,
    ),
    Entry(
        "xu_ziyin.States.empty",
        xz.States.empty,
        lambda: {"n_times": 2, "d": 2, "d0": 1},
        {"n_times": "int", "d": "int", "d0": "int"},
        numbers=lambda s: [len(s)],  # contents undefined (np.empty)
    ),
    Entry("xu_ziyin.case", xz.case, lambda: {"name": "generic"}, {"name": "name"}),
    Entry(
        "xu_ziyin.constants",
        xz.constants,
        lambda: {
            "eta_u": 1.0,
            "eta_w": 0.5,
            "gamma": 0.7,
            "rho": 2.0,
            "y": 1.5,
            "d": 2,
            "P": 0.1,
            "Q": 0.2,
        },
        {
            **{k: "scalar" for k in ("eta_u", "eta_w", "gamma", "rho", "y", "P", "Q")},
            "d": "int",
            "dps": "dps",
        },
        numbers=_constants,
    ),
    Entry("xu_ziyin.flow", xz.flow, lambda: {"d": 1, "d0": 1}, {"d": "int", "d0": "int"}),
    Entry("xu_ziyin.unit_flow", xz.unit_flow, lambda: {"d0": 1}, {"d0": "int"}),
    Entry(
        "xu_ziyin.network_output",
        xz.network_output,
        lambda: {**_weights(), "gamma": 0.7},
        {"u": "vector", "W": "matrix", "x": "vector", "gamma": "scalar"},
    ),
    Entry(
        "xu_ziyin.loss",
        xz.loss,
        lambda: {**_weights(), "y": 1.5, "gamma": 0.7},
        {"u": "vector", "W": "matrix", "x": "vector", "y": "scalar", "gamma": "scalar"},
    ),
    Entry(
        "xu_ziyin.ntk",
        xz.ntk,
        lambda: {**_weights(), "eta_u": 1.0, "eta_w": 0.5, "gamma": 0.7},
        {
            "u": "vector",
            "W": "matrix",
            "x": "vector",
            "eta_u": "scalar",
            "eta_w": "scalar",
            "gamma": "scalar",
        },
    ),
    Entry(
        "xu_ziyin.manifold_condition",
        xz.manifold_condition,
        lambda: {"P": 0.1, "Q": 0.2, "alpha": 0.5},
        {"P": "scalar", "Q": "scalar", "alpha": "scalar"},
    ),
    Entry(
        "xu_ziyin.pq_coordinates",
        xz.pq_coordinates,
        lambda: {"setup": _XZ_SETUP, "u": list(_U0), "W": [list(r) for r in _W0]},
        {"setup": "object", "u": "vector", "W": "matrix", "dps": "dps"},
    ),
    Entry(
        "xu_ziyin.paper_constants",
        xz.paper_constants,
        lambda: {"setup": _XZ_SETUP, "u0": list(_U0), "W0": [list(r) for r in _W0]},
        {"setup": "object", "u0": "vector", "W0": "matrix"},
    ),
]

# ---------------------------------------------------------------------------
# phases: exponents of kappa (exact rationals)
# ---------------------------------------------------------------------------
_EXPONENTS = {"c_d": 1, "c_gamma": -0.5, "c_u": 0, "c_w": 0, "c_eta_u": 0, "c_eta_w": 0}
_EXPONENT_KINDS = {**{k: "scalar" for k in _EXPONENTS}, "zero_initial_output": "flag"}


def _scaling(s: Any) -> list[Any]:
    # output_exponent is -oo by definition for a zero initial output
    return [s, s.t_c_exponent, s.phase, s.p_over_q_case]


def _initialisation(p: Any) -> list[Any]:
    return [p.c_w, _scaling(p.scaling), p.eq_28, p.eq_30, p.phase, p.printed_phase]


PHASES = [
    Entry(
        "phases.Scaling",
        phases.Scaling,
        lambda: dict(_EXPONENTS),
        _EXPONENT_KINDS,
        numbers=_scaling,
    ),
    Entry(
        "phases.xu_ziyin_phase", phases.xu_ziyin_phase, lambda: dict(_EXPONENTS), _EXPONENT_KINDS
    ),
    Entry(
        "phases.section_3_2_scaling",
        phases.section_3_2_scaling,
        lambda: {"c_w": 0.5},
        {"c_w": "scalar", "zero_initial_output": "flag"},
        numbers=_scaling,
    ),
    Entry(
        "phases.initialisation_phase",
        phases.initialisation_phase,
        lambda: {"c_w": -0.5},
        {"c_w": "scalar", "zero_initial_output": "flag"},
        numbers=_initialisation,
    ),
    Entry(
        "phases.p_q_moments",
        phases.p_q_moments,
        lambda: {"rho_convention": "norm"},
        {"rho_convention": "name"},
    ),
]

# ---------------------------------------------------------------------------
# delayed_rich: the sweep's problem at delta = -4
# ---------------------------------------------------------------------------
_DR_SETUP, _DR_A0, _DR_W0 = dr.example("-4")
_DR_TRAJ = kunin.closed_form(_DR_SETUP, _DR_A0, _DR_W0)
_DR_START, _DR_LATE = _DR_TRAJ.at(0.0), _DR_TRAJ.at(1.0)
_DR = {"setup": _DR_SETUP, "a0": _DR_A0, "w0": list(_DR_W0)}
_DR_KINDS = {"setup": "object", "a0": "scalar", "w0": "vector", "dps": "dps"}

DELAYED_RICH = [
    Entry(
        "delayed_rich.example",
        dr.example,
        lambda: {"delta": "-4", "theta0": "0.5"},
        {"delta": "scalar", "theta0": "scalar"},
    ),
    Entry("delayed_rich.plateau_time", dr.plateau_time, lambda: dict(_DR), _DR_KINDS),
    Entry(
        "delayed_rich.half_time", dr.half_time, lambda: dict(_DR), {**_DR_KINDS, "leading": "flag"}
    ),
    Entry(
        "delayed_rich.ntk_change",
        dr.ntk_change,
        lambda: {"setup": _DR_SETUP, "states": [_DR_LATE], "start": _DR_START},
        {"setup": "object", "states": "object", "start": "object", "end": "object", "dps": "dps"},
    ),
    Entry(
        "delayed_rich.ntk_profile",
        dr.ntk_profile,
        lambda: {"tau": 1.0, "theta0": 0.5},
        {"tau": "scalar", "theta0": "scalar", "dps": "dps"},
    ),
    Entry(
        "delayed_rich.evaluators", dr.evaluators, lambda: {"backend": "numpy"}, {"backend": "name"}
    ),
]

# ---------------------------------------------------------------------------
# piecewise_linear: h = 2 neurons, d = 2, n = 2 points
# ---------------------------------------------------------------------------
_X = [[1.0, 0.5], [0.2, -1.0]]
_BETA = [[0.5, -0.2], [0.1, 0.3]]
_PL_SETUP = kunin.PiecewiseLinearSetup(1.0, 0.4, _X, [1.0, -0.5])
_RATE_KINDS = {k: "scalar" for k in ("delta", "beta_norm", "eta_a", "eta_w")}


def _rate(v: Any) -> Any:
    # angular_rate: +inf is the documented limit at |beta| = 0 < delta
    return 0.0 if v == math.inf else v


PIECEWISE_LINEAR = [
    Entry(
        "piecewise_linear.activation_pattern",
        pl.activation_pattern,
        lambda: {"beta": np.array(_BETA), "sign": np.array([1.0, -1.0]), "X": np.array(_X)},
        {"beta": "matrix", "sign": "vector", "X": "matrix"},
    ),
    Entry(
        "piecewise_linear.neuron_gradient",
        pl.neuron_gradient,
        lambda: {
            "beta": np.array(_BETA),
            "c": np.array([[1.0, 0.0], [1.0, 1.0]]),
            "X": np.array(_X),
            "y": np.array([1.0, -0.5]),
        },
        {"beta": "matrix", "c": "matrix", "X": "matrix", "y": "vector"},
    ),
    Entry(
        "piecewise_linear.ntk",
        pl.ntk,
        lambda: {
            "a": np.array([1.0, -0.5]),
            "W": np.array(_BETA),
            "X": np.array(_X),
            "eta_a": 1.0,
            "eta_w": 0.4,
        },
        {
            "a": "vector",
            "W": "matrix",
            "X": "matrix",
            "eta_a": "scalar",
            "eta_w": "scalar",
            "c": "matrix",
        },
    ),
    Entry(
        "piecewise_linear.radial_rate",
        pl.radial_rate,
        lambda: {"delta": 0.5, "beta_norm": 1.0},
        {**_RATE_KINDS, "dps": "dps"},
    ),
    Entry(
        "piecewise_linear.angular_rate",
        pl.angular_rate,
        lambda: {"delta": 0.5, "beta_norm": 1.0},
        {**_RATE_KINDS, "dps": "dps"},
        numbers=_rate,
    ),
    Entry(
        "piecewise_linear.neuron_start",
        pl.neuron_start,
        lambda: {"beta": _BETA, "delta": [0.5, -0.5], "sign": [1, -1]},
        {
            "beta": "matrix",
            "delta": "vector",
            "sign": "vector",
            "eta_a": "scalar",
            "eta_w": "scalar",
            "dps": "dps",
        },
    ),
    Entry(
        "piecewise_linear.self_consistent_field",
        pl.self_consistent_field,
        lambda: {"setup": _PL_SETUP, "beta": _BETA, "delta": [0.5, -0.5], "sign": [1, -1]},
        {"setup": "object", "beta": "matrix", "delta": "vector", "sign": "vector", "dps": "dps"},
    ),
    Entry("piecewise_linear.example", pl.example, lambda: {"seed": 14}, {"seed": "int"}),
]

ENTRIES: list[Entry] = [*XU_ZIYIN, *PHASES, *DELAYED_RICH, *PIECEWISE_LINEAR]

_RECORD = "output record: built by the package, users do not construct it"
EXEMPT: dict[str, str] = {
    "xu_ziyin.Case": "data record of the named cases (CASES); users look one up with case()",
    "xu_ziyin.State": _RECORD + " (State.from_weights is fuzzed)",
    "xu_ziyin.States": _RECORD + " (States.empty is fuzzed)",
    "xu_ziyin.Symbols": "output record of symbolic()",
    "xu_ziyin.Trajectory": "output record of closed_form (Trajectory.at / .sample are fuzzed)",
    "phases.InitialisationPhase": "output record of initialisation_phase",
    "delayed_rich.Symbols": "output record of symbolic()",
    "piecewise_linear.Symbols": "output record of symbolic()",
}
