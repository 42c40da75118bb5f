"""Fuzz entries, group a (see tests/test_fuzz_every_entry_point.py): kunin, mirror_flow and
numerics.simulate / numerics.systems."""

from __future__ import annotations

from typing import Any

import numpy as np
from fuzz_harness import Entry

import numerics
from solvable.models import kunin
from solvable.models import mirror_flow as mf
from solvable.verification import testing

# ---------------------------------------------------------------------------
# kunin, Part I: two data points in d = 2, isotropic (X^T X = I)
# ---------------------------------------------------------------------------
_X = [[1.0, 0.0], [0.0, 1.0]]
_KU = {"eta_a": 1.0, "eta_w": 2.0, "X": _X, "y": [1.0, 0.5]}
_SETUP = kunin.Setup(**_KU)
_TRAJ = kunin.closed_form(_SETUP, 0.5, [0.2, -0.1])
# inputs that are not whitened (issue 31): X^T X = 2 P of rank 2 in d = 3, any start
_AL_SETUP = kunin.Setup(1.0, 2.0, [[1.0, 1.0, 0.0], [1.0, -1.0, 0.0]], [1.0, 0.5])
_ATRAJ = kunin.closed_form(_AL_SETUP, 0.5, [0.2, -0.1, 0.3])
_WIDE = kunin.WideSetup(eta_a=1.0, eta_w=2.0, X=_X, Y=[[1.0], [0.5]])
_A0, _W0 = [[1.0]], [[0.2, 0.1]]  # h = c = 1, Delta = 2 - 0.05 > 0
_WTRAJ = kunin.wide_closed_form(_WIDE, _A0, _W0)
# X^T X = 4 P (rank 2): the wide net on inputs that are not whitened (W0's third entry on ker X)
_AWIDE = kunin.WideSetup(1, 1, [[2, 0, 0], [0, 2, 0], [0, 0, 0]], [[1, 0.5], [0.2, 0.3], [0, 0]])
_AWTRAJ = kunin.wide_closed_form(_AWIDE, [[0.3, 0.1]], [[0.2, -0.1, 0.4]])
_PL = kunin.PiecewiseLinearSetup(eta_a=1.0, eta_w=2.0, X=_X, y=[1.0, 0.5])
_DIAG = mf.DiagonalSetup(eta_a=1.0, eta_w=0.5, X=[[1.0, 0.5]], y=[1.0])


def _m(rows: list[list[float]]) -> list[list[float]]:
    return [list(r) for r in rows]


def _limit(s: Any) -> list[Any]:
    # t = inf is the limit state (Trajectory.at(inf)): every other number must be finite
    return [v for k, v in vars(s).items() if k != "t"]


_RATES = {"eta_a": "scalar", "eta_w": "scalar"}

KUNIN = [
    Entry("kunin.Setup", kunin.Setup, lambda: dict(_KU), {**_RATES, "X": "matrix", "y": "vector"}),
    Entry(
        "kunin.WideSetup",
        kunin.WideSetup,
        lambda: {"eta_a": 1.0, "eta_w": 2.0, "X": _m(_X), "Y": [[1.0], [0.5]]},
        {**_RATES, "X": "matrix", "Y": "matrix"},
    ),
    Entry(
        "kunin.PiecewiseLinearSetup",
        kunin.PiecewiseLinearSetup,
        lambda: dict(_KU),
        {**_RATES, "X": "matrix", "y": "vector"},
    ),
    Entry(
        "kunin.closed_form",
        kunin.closed_form,
        lambda: {"setup": _SETUP, "a0": 0.5, "w0": [0.2, -0.1]},
        {
            "setup": "object",
            "a0": "scalar",
            "w0": "vector",
            "dps": "dps",
            "isotropy_rtol": "scalar",
            "alignment_rtol": "scalar",
        },
        numbers=lambda tr: [tr.delta, tr.s, tr.beta_star, tr.Omega, tr.at(1.0)],
    ),
    Entry(
        "kunin.AlignedTrajectory.at", _ATRAJ.at, lambda: {"t": 1.0}, {"t": "scalar"}, numbers=_limit
    ),
    Entry(
        "kunin.AlignedTrajectory.sample",
        _ATRAJ.sample,
        lambda: {"times": [0.5, 1.0]},
        {"times": "times", "out": "object"},
        numbers=lambda s: [s.a, s.w, s.beta, s.delta, s.loss],  # t = inf is the limit
    ),
    Entry("kunin.AlignedTrajectory.ntk", _ATRAJ.ntk, lambda: {"t": 1.0}, {"t": "scalar"}),
    Entry("kunin.Trajectory.at", _TRAJ.at, lambda: {"t": 1.0}, {"t": "scalar"}, numbers=_limit),
    Entry(
        "kunin.Trajectory.sample",
        _TRAJ.sample,
        lambda: {"times": [0.5, 1.0]},
        {"times": "times", "out": "object"},
        numbers=lambda s: [s.a, s.w, s.beta, s.delta, s.loss],  # t = inf is the limit
    ),
    Entry(
        "kunin.State.from_weights",
        kunin.State.from_weights,
        lambda: {"setup": _SETUP, "t": 0.5, "a": 0.5, "w": [0.2, -0.1]},
        {"setup": "object", "t": "scalar", "a": "scalar", "w": "vector", "dps": "dps"},
    ),
    Entry(
        "kunin.wide_closed_form",
        kunin.wide_closed_form,
        lambda: {"setup": _WIDE, "A0": _m(_A0), "W0": _m(_W0)},
        {
            "setup": "object",
            "A0": "matrix",
            "W0": "matrix",
            "dps": "dps",
            "isotropy_rtol": "scalar",
            "balance_rtol": "scalar",
            "alignment_rtol": "scalar",
        },
        numbers=lambda tr: [tr.delta, tr.s, tr.beta_star, tr.rates, tr.condition, tr.at(1.0)],
    ),
    Entry(
        "testing.kunin_wide",
        testing.kunin_wide,
        lambda: {"setup": _WIDE, "A0": _m(_A0), "W0": _m(_W0)},
        {"setup": "object", "A0": "matrix", "W0": "matrix"},
        numbers=lambda o: [o.exact([0.0, 1.0])["beta"]],
    ),
    Entry(
        "kunin.WideTrajectory.at", _WTRAJ.at, lambda: {"t": 1.0}, {"t": "scalar"}, numbers=_limit
    ),
    Entry(
        "kunin.WideTrajectory.sample",
        _WTRAJ.sample,
        lambda: {"times": [0.5, 1.0]},
        {"times": "times"},
        numbers=lambda out: [_limit(s) for s in out],
    ),
    Entry(
        "kunin.AlignedWideTrajectory.at",
        _AWTRAJ.at,
        lambda: {"t": 1.0},
        {"t": "scalar"},
        numbers=_limit,
    ),
    Entry(
        "kunin.AlignedWideTrajectory.sample",
        _AWTRAJ.sample,
        lambda: {"times": [0.5, 1.0]},
        {"times": "times"},
        numbers=lambda out: [_limit(s) for s in out],
    ),
    Entry(
        "kunin.WideState.from_weights",
        kunin.WideState.from_weights,
        lambda: {"setup": _WIDE, "t": 0.5, "A": _m(_A0), "W": _m(_W0)},
        {"setup": "object", "t": "scalar", "A": "matrix", "W": "matrix", "dps": "dps"},
    ),
    Entry(
        "kunin.PiecewiseLinearState.from_weights",
        kunin.PiecewiseLinearState.from_weights,
        lambda: {"setup": _PL, "t": 0.5, "a": [0.5, -0.3], "W": [[0.2, -0.1], [0.4, 0.3]]},
        {"setup": "object", "t": "scalar", "a": "vector", "W": "matrix", "dps": "dps"},
    ),
    Entry(
        "kunin.wide_start",
        kunin.wide_start,
        lambda: {"setup": _WIDE, "delta": 0.5, "A": _m(_A0)},
        {"setup": "object", "delta": "scalar", "A": "matrix", "W": "matrix", "dps": "dps"},
    ),
    Entry(  # the other branch: W given, A made
        "kunin.wide_start(W=...)",
        kunin.wide_start,
        lambda: {"setup": _WIDE, "delta": 0.5, "W": [[0.2, 0.1]]},
        {"setup": "object", "delta": "scalar", "W": "matrix", "dps": "dps"},
    ),
    Entry(
        "kunin.isotropy",
        kunin.isotropy,
        lambda: {"setup": _SETUP, "digits": 30},
        {"setup": "object", "digits": "dps"},
    ),
    Entry(
        "kunin.whitening_rtol",
        kunin.whitening_rtol,
        lambda: {"n": 2, "condition": 3.0},
        {"n": "int", "condition": "scalar"},
    ),
    Entry(
        "kunin.regime",
        kunin.regime,
        lambda: {"delta": 0.5, "eta_a": 1.0, "eta_w": 1.0, "beta_norm": 1.0, "ratio": 10.0},
        {k: "scalar" for k in ("delta", "eta_a", "eta_w", "beta_norm", "ratio")},
    ),
    Entry(
        "kunin.preconditioner",
        kunin.preconditioner,
        lambda: {"beta": [1.0, 0.5], "delta": 0.5, "eta_a": 1.0, "eta_w": 2.0},
        {"beta": "vector", "delta": "scalar", **_RATES, "dps": "dps"},
    ),
    Entry(
        "kunin.wide_preconditioner",
        kunin.wide_preconditioner,
        lambda: {"beta": [[1.0], [0.5]], "delta": 0.5, "eta_a": 1.0, "eta_w": 2.0},
        {"beta": "matrix", "delta": "scalar", **_RATES, "dps": "dps"},
    ),
    Entry(
        "kunin.hyperbolic_entropy",
        kunin.hyperbolic_entropy,
        lambda: {"s": 0.5, "delta": 0.3, "eta_a": 1.0, "eta_w": 2.0},
        {"s": "scalar", "delta": "scalar", **_RATES, "derivative": "int", "dps": "dps"},
    ),
    # the model's definitions (array code: float64, mpmath / sympy object arrays, tensors)
    Entry(
        "kunin.output",
        kunin.output,
        lambda: {"a": 0.5, "w": [0.2, -0.1], "X": _m(_X)},
        {"a": "scalar", "w": "vector", "X": "matrix"},
    ),
    Entry(
        "kunin.loss",
        kunin.loss,
        lambda: {"a": 0.5, "w": [0.2, -0.1], "X": _m(_X), "y": [1.0, 0.5]},
        {"a": "scalar", "w": "vector", "X": "matrix", "y": "vector"},
    ),
    Entry(
        "kunin.balance",
        kunin.balance,
        lambda: {"a": 0.5, "w": [0.2, -0.1], "eta_a": 1.0, "eta_w": 2.0},
        {"a": "scalar", "w": "vector", **_RATES},
    ),
    Entry(
        "kunin.weight_preconditioner",
        kunin.weight_preconditioner,
        lambda: {"a": 0.5, "w": [0.2, -0.1], "eta_a": 1.0, "eta_w": 2.0},
        {"a": "scalar", "w": "vector", **_RATES},
    ),
    Entry(
        "kunin.ntk",
        kunin.ntk,
        lambda: {"a": 0.5, "w": [0.2, -0.1], "X": _m(_X), "eta_a": 1.0, "eta_w": 2.0},
        {"a": "scalar", "w": "vector", "X": "matrix", **_RATES},
    ),
    Entry(
        "kunin.wide_output",
        kunin.wide_output,
        lambda: {"A": _m(_A0), "W": _m(_W0), "X": _m(_X)},
        {"A": "matrix", "W": "matrix", "X": "matrix"},
    ),
    Entry(
        "kunin.wide_loss",
        kunin.wide_loss,
        lambda: {"A": _m(_A0), "W": _m(_W0), "X": _m(_X), "Y": [[1.0], [0.5]]},
        {"A": "matrix", "W": "matrix", "X": "matrix", "Y": "matrix"},
    ),
    Entry(
        "kunin.wide_balance",
        kunin.wide_balance,
        lambda: {"A": _m(_A0), "W": _m(_W0), "eta_a": 1.0, "eta_w": 2.0},
        {"A": "matrix", "W": "matrix", **_RATES},
    ),
    Entry(
        "kunin.piecewise_linear_loss",
        kunin.piecewise_linear_loss,
        lambda: {
            "a": [0.5, -0.3],
            "W": [[0.2, -0.1], [0.4, 0.3]],
            "X": _m(_X),
            "y": [1.0, 0.5],
            "sigma": np.tanh,
        },
        {"a": "vector", "W": "matrix", "X": "matrix", "y": "vector", "sigma": "object"},
    ),
    Entry(
        "kunin.generator",
        kunin.generator,
        lambda: {"delta_p": 0.5, "kappa": 1.0, "beta_star": [1.0, 0.5]},
        {"delta_p": "scalar", "kappa": "scalar", "beta_star": "vector"},
    ),
    Entry(
        "kunin.reduced_field",
        kunin.reduced_field,
        lambda: {"z": [0.3, 0.2, 0.1], "G": np.eye(3) * 0.5, "kappa": 1.0},
        {"z": "vector", "G": "matrix", "kappa": "scalar"},
    ),
    Entry(
        "kunin.wide_generator",
        kunin.wide_generator,
        lambda: {"delta_p": 0.5, "kappa": 1.0, "beta_star": [[1.0], [0.5]]},
        {"delta_p": "scalar", "kappa": "scalar", "beta_star": "matrix"},
    ),
    Entry(
        "kunin.wide_field",
        kunin.wide_field,
        lambda: {"Q": [[0.3, 0.2, 0.1]], "K": np.eye(3) * 0.5, "kappa": 1.0},
        {"Q": "matrix", "K": "matrix", "kappa": "scalar"},
    ),
    Entry(
        "kunin.wide_ntk",
        kunin.wide_ntk,
        lambda: {"gram_A": [[1.0]], "gram_W": _m(_X), "X": _m(_X), "eta_a": 1.0, "eta_w": 2.0},
        {"gram_A": "matrix", "gram_W": "matrix", "X": "matrix", **_RATES},
    ),
    Entry(
        "kunin.riccati_core",
        kunin.riccati_core,
        lambda: {
            "Z": [[1.0]],
            "H": [[0.5]],
            "e_plus": [0.9],
            "e_minus": [0.8],
            "g_plus": [0.1],
            "g_minus": [0.2],
            "kappa": 1.0,
        },
        {
            "Z": "matrix",
            "H": "matrix",
            "e_plus": "vector",
            "e_minus": "vector",
            "g_plus": "vector",
            "g_minus": "vector",
            "kappa": "scalar",
        },
    ),
    Entry(
        "kunin.riccati_factor",
        kunin.riccati_factor,
        lambda: {
            "Z": [[1.0]],
            "H": [[0.5]],
            "e_plus": [0.9],
            "r_plus": [0.3],
            "r_minus": [0.4],
            "kappa": 1.0,
        },
        {
            "Z": "matrix",
            "H": "matrix",
            "e_plus": "vector",
            "r_plus": "vector",
            "r_minus": "vector",
            "kappa": "scalar",
        },
    ),
    Entry(
        "kunin.riccati_direct",
        kunin.riccati_direct,
        lambda: {"C": [[1.0, 0.5]], "lam": [1.1, 0.9], "r": [0.3, 0.4], "kappa": 1.0},
        {"C": "matrix", "lam": "vector", "r": "vector", "kappa": "scalar"},
    ),
    Entry(
        "kunin.riccati_gram",
        kunin.riccati_gram,
        lambda: {"core_inv": [[2.0]], "M": [[0.5]]},
        {"core_inv": "matrix", "M": "matrix"},
    ),
    # the symbolic flows (sympy, cached by size)
    Entry("kunin.flow", kunin.flow, lambda: {"n": 1, "d": 1}, {"n": "int", "d": "int"}),
    Entry(
        "kunin.wide_flow",
        kunin.wide_flow,
        lambda: {"n": 1, "d": 1, "h": 1, "c": 1},
        {"n": "int", "d": "int", "h": "int", "c": "int"},
    ),
    Entry(
        "kunin.piecewise_linear_flow",
        kunin.piecewise_linear_flow,
        lambda: {"n": 1, "d": 1, "h": 1},
        {"n": "int", "d": "int", "h": "int", "region": "flag"},
    ),
    Entry(
        "kunin.beta_gradient",
        kunin.beta_gradient,
        lambda: {"n": 1, "d": 1},
        {"n": "int", "d": "int", "c": "int"},
    ),
    Entry("kunin.evaluators", kunin.evaluators, lambda: {"backend": "numpy"}, {"backend": "name"}),
    Entry(
        "kunin.wide_evaluators",
        kunin.wide_evaluators,
        lambda: {"backend": "numpy"},
        {"backend": "name"},
    ),
]

# ---------------------------------------------------------------------------
# mirror_flow: the potential, the mirror map and the diagonal network (n = 1, d = 2)
# ---------------------------------------------------------------------------
_MAP = {"delta": 0.3, "eta_a": 1.0, "eta_w": 2.0}
_MAP_KINDS = {"delta": "scalar", **_RATES, "dps": "dps"}

MIRROR_FLOW = [
    Entry(
        "mirror_flow.hyperbolic_entropy",
        mf.hyperbolic_entropy,
        lambda: {"s": 0.5, **_MAP},
        {"s": "scalar", "derivative": "int", **_MAP_KINDS},
    ),
    Entry(
        "mirror_flow.mirror_map",
        mf.mirror_map,
        lambda: {"beta": 0.5, **_MAP},
        {"beta": "scalar", **_MAP_KINDS},
    ),
    Entry(
        "mirror_flow.inverse_mirror_map",
        mf.inverse_mirror_map,
        lambda: {"theta": 0.5, **_MAP},
        {"theta": "scalar", **_MAP_KINDS},
    ),
    Entry(
        "mirror_flow.DiagonalSetup",
        mf.DiagonalSetup,
        lambda: {"eta_a": 1.0, "eta_w": 0.5, "X": [[1.0, 0.5]], "y": [1.0]},
        {**_RATES, "X": "matrix", "y": "vector"},
    ),
    Entry(
        "mirror_flow.DiagonalState.from_weights",
        mf.DiagonalState.from_weights,
        lambda: {"setup": _DIAG, "t": 0.5, "a": [0.5, 0.3], "w": [0.2, 0.1]},
        {"setup": "object", "t": "scalar", "a": "vector", "w": "vector", "dps": "dps"},
    ),
    Entry(
        "mirror_flow.bregman_interpolant",
        mf.bregman_interpolant,
        lambda: {"setup": _DIAG, "a0": [0.5, 0.3], "w0": [0.2, 0.1]},
        {"setup": "object", "a0": "vector", "w0": "vector", "dps": "dps"},
    ),
    Entry(
        "mirror_flow.diagonal_loss",
        mf.diagonal_loss,
        lambda: {"a": [0.5, 0.3], "w": [0.2, 0.1], "X": [[1.0, 0.5]], "y": [1.0]},
        {"a": "vector", "w": "vector", "X": "matrix", "y": "vector"},
    ),
    Entry(
        "mirror_flow.diagonal_balance",
        mf.diagonal_balance,
        lambda: {"a": [0.5, 0.3], "w": [0.2, 0.1], "eta_a": 1.0, "eta_w": 0.5},
        {"a": "vector", "w": "vector", **_RATES},
    ),
    Entry(
        "mirror_flow.diagonal_flow",
        mf.diagonal_flow,
        lambda: {"n": 1, "d": 1},
        {"n": "int", "d": "int"},
    ),
    Entry(
        "mirror_flow.evaluators", mf.evaluators, lambda: {"backend": "numpy"}, {"backend": "name"}
    ),
]

# ---------------------------------------------------------------------------
# numerics.simulate: the kunin single neuron (scipy, mpmath, torch on the CPU), and the
# initial weights of the other seed-003 systems
# ---------------------------------------------------------------------------
_SIM = {"setup": _SETUP, "out0": 0.5, "in0": [0.2, -0.1], "times": [0.1]}
_SIM_KINDS = {"setup": "object", "out0": "scalar", "in0": "vector", "times": "times"}


def _simulate(method: str, **extra: Any) -> Any:
    return lambda: {**_SIM, "method": method, **extra}


SIMULATE = [
    Entry(
        "numerics.simulate",
        numerics.simulate,
        _simulate("scipy"),
        {
            **_SIM_KINDS,
            "method": "name",
            "dps": "dps",
            "rtol": "scalar",
            "device": "object",
            "max_steps": "int",
            "progress": "flag",
            "engine": "name",
        },
    ),
    Entry(
        "numerics.simulate(method='mpmath')",
        numerics.simulate,
        _simulate("mpmath", dps=15),
        {**_SIM_KINDS, "dps": "dps", "engine": "name", "max_steps": "int"},
    ),
    Entry(
        "numerics.simulate(method='torch')",
        numerics.simulate,
        _simulate("torch", device="cpu"),
        {**_SIM_KINDS, "device": "object", "rtol": "scalar"},
    ),
    Entry(
        "numerics.simulate(WideSetup)",
        numerics.simulate,
        lambda: {
            "setup": _WIDE,
            "out0": _m(_A0),
            "in0": _m(_W0),
            "times": [0.1],
            "method": "scipy",
        },
        {"out0": "matrix", "in0": "matrix"},
    ),
    Entry(
        "numerics.simulate(PiecewiseLinearSetup)",
        numerics.simulate,
        lambda: {
            "setup": _PL,
            "out0": [0.5, -0.3],
            "in0": [[0.2, -0.1], [0.4, 0.3]],
            "times": [0.1],
            "method": "scipy",
        },
        {"out0": "vector", "in0": "matrix"},
    ),
    Entry(
        "numerics.simulate(DiagonalSetup)",
        numerics.simulate,
        lambda: {
            "setup": _DIAG,
            "out0": [0.5, 0.3],
            "in0": [0.2, 0.1],
            "times": [0.1],
            "method": "scipy",
        },
        {"out0": "vector", "in0": "vector"},
    ),
]

ENTRIES: list[Entry] = [*KUNIN, *MIRROR_FLOW, *SIMULATE]

_RECORD = "output record: built by the package, users do not construct it"
EXEMPT: dict[str, str] = {
    "kunin.Case": "data record of the named cases (CASES); users look one up with case()",
    "kunin.State": _RECORD + " (State.from_weights is fuzzed)",
    "kunin.States": _RECORD + " (of Trajectory.sample, which is fuzzed)",
    "kunin.Symbols": "output record of symbolic()",
    "kunin.Trajectory": "output record of closed_form (Trajectory.at / .sample are fuzzed)",
    "kunin.AlignedTrajectory": "output record of closed_form on inputs that are not whitened "
    "(.at / .sample / .ntk are fuzzed)",
    "kunin.WideExactState": _RECORD + " (of WideTrajectory.at, which is fuzzed)",
    "kunin.WideState": _RECORD + " (WideState.from_weights is fuzzed)",
    "kunin.WideSymbols": "output record of wide_symbolic()",
    "kunin.WideTrajectory": "output record of wide_closed_form (.at / .sample are fuzzed)",
    "kunin.AlignedWideTrajectory": "output record of wide_closed_form on inputs that are not "
    "whitened (.at / .sample are fuzzed)",
    "kunin.PiecewiseLinearState": _RECORD + " (PiecewiseLinearState.from_weights is fuzzed)",
    "mirror_flow.DiagonalState": _RECORD + " (DiagonalState.from_weights is fuzzed)",
    "mirror_flow.Setup": "the same class as mirror_flow.DiagonalSetup (its name as every "
    "simulatable model's Setup, issue 30), which is fuzzed",
    "mirror_flow.Symbols": "output record of symbolic()",
}
