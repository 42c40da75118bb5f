"""Fuzz entries, group g (see tests/test_fuzz_every_entry_point.py): the numerics experiment
modules of seeds 000 and 004, ``numerics.node_scaling_linear`` (the linear node-scaled
network, flow and limit), ``numerics.sweep_three_layer`` (one three-layer run and its
slopes), ``numerics.phase_diagram`` (the phase diagram, Table 2, condensation and the
normalised flow) and ``numerics.node_scaling_experiment`` (Sections 5 and 8 of seed 000, and
its command line).

Every good call is the smallest its parameters allow (width 2, one or two data points, a
few steps); the paper-size runs (``full=True``) are the one exception where ``True`` is a
valid value (see ``_FULL``)."""

from __future__ import annotations

import functools
import tempfile
from fractions import Fraction
from typing import Any

import numpy as np
from fuzz_harness import Entry

from numerics import node_scaling_experiment as ex
from numerics import node_scaling_linear as nsl
from numerics import phase_diagram as pd
from numerics import sweep_three_layer as stl
from numerics.models import ThreeLayerReLU
from numerics.torch_flow import initialise
from solvable.models import node_scaling as ns

_X2 = [[1.0, 0.5], [0.2, -1.0]]

# ---------------------------------------------------------------------------
# numerics.node_scaling_linear: two inputs in d = 2, widths 2 and 3
# ---------------------------------------------------------------------------
_ZIPF = ns.zipf("0.5")
_FAMILIES = [("Zipf(0.5)", _ZIPF)]


def _configs() -> list[tuple[str, np.ndarray]]:
    return nsl.configs([2], [1, 0.5], _FAMILIES)


_FULL = (
    "True is valid: the paper-size run (tens of thousands of draws at widths up to 10**4, "
    "minutes: beyond the fuzz's budget); every non-bool is refused, tested in "
    "tests/test_experiment_refusals.py"
)

NODE_SCALING_LINEAR = [
    Entry(
        "node_scaling_linear.linear_data",
        nsl.linear_data,
        lambda: {"n": 2, "d": 2, "probes": 1},
        {"n": "int", "d": "int", "rank": "int", "seed": "int", "spread": "scalar", "probes": "int"},
    ),
    Entry(
        "node_scaling_linear.scalings",
        nsl.scalings,
        lambda: {"m": 2, "gamma": 0.5, "weights": _ZIPF},
        {"m": "int", "gamma": "scalar", "weights": "object"},
    ),
    Entry(
        "node_scaling_linear.configs",
        nsl.configs,
        lambda: {"widths": [2], "gammas": [1, 0.5], "families": list(_FAMILIES)},
        {"widths": "vector", "gammas": "vector", "families": "object"},
        numbers=lambda cs: [lam for _, lam in cs],
    ),
    Entry(
        "node_scaling_linear.run_linear",
        nsl.run_linear,
        lambda: {
            "X": _X2,
            "y": [0.1, -0.2],
            "configs": _configs(),
            "batch": 1,
            "times": [0.0, 0.5],
        },
        {
            "X": "matrix",
            "y": "vector",
            "configs": "object",
            "batch": "int",
            "method": "name",
            "seed": "int",
            "device": "name",
            "rtol": "scalar",
            "times": "times",
        },
    ),
    Entry(
        "node_scaling_linear.sample_limits",
        nsl.sample_limits,
        lambda: {
            "X": _X2,
            "y": [0.1, -0.2],
            "lam": [0.5, 0.25],
            "samples": 2,
            "probes": [[1.0, 0.0]],
        },
        {
            "X": "matrix",
            "y": "vector",
            "lam": "vector",
            "samples": "int",
            "seed": "int",
            "chunk": "int",
            "nodes": "vector",
            "probes": "matrix",
        },
    ),
    Entry(
        "node_scaling_linear.flow_runs",
        nsl.flow_runs,
        lambda: {"method": "gd"},
        {"method": "name", "full": "flag", "device": "name", "seed": "int"},
        numbers=lambda runs: [r["run"].W_t for r in runs],
    ),
    Entry(
        "node_scaling_linear.contribution_samples",
        nsl.contribution_samples,
        lambda: {},
        {"seed": "int"},
        exempt={"full": _FULL},
    ),
    Entry(
        "node_scaling_linear.feature_learning_sweep",
        nsl.feature_learning_sweep,
        lambda: {},
        {"seed": "int"},
        exempt={"full": _FULL},
    ),
    Entry(
        "node_scaling_linear.pruning_samples",
        nsl.pruning_samples,
        lambda: {},
        {"seed": "int", "eps": "scalar"},
        exempt={"full": _FULL},
    ),
]

# ---------------------------------------------------------------------------
# numerics.sweep_three_layer: width 3, at most 4 steps (the rule checks every 2) to a risk
# of 0.12 (from about 0.24: seed 0 at widths 3 and 4 gets there; at width 2 its ReLUs are
# dead, and the run is excluded)
# ---------------------------------------------------------------------------
_FEW = {"max_steps": 4, "check_every": 2, "tol": 0.12}
_POINT = {"gamma_2": 0, "gamma_3": 2.1, "m": 3, "seed": 0}
_GAMMAS = {"gamma_2": "scalar", "gamma_3": "scalar"}
_RUN = {**_GAMMAS, "m": "int", "seed": "int"}


@functools.cache
def _rd_results() -> tuple[dict, ...]:
    return tuple(stl.rd_point(0, 2.1, m, 0, **_FEW) for m in (3, 4))


def _three_layer() -> tuple[Any, dict[str, Any]]:
    model = ThreeLayerReLU(np.array(stl.DATA_X)[:, None], np.array(stl.DATA_Y), alpha=1.0)
    p = initialise({"a": (2,), "W2": (2, 2), "W1": (2, 1)}, 1, scale=0.5, seed=0, device="cpu")
    return model, p


SWEEP_THREE_LAYER = [
    Entry(
        "sweep_three_layer.fit_slope",
        stl.fit_slope,
        lambda: {"m": [2.0, 4.0, 8.0], "rd": [1.0, 0.6, 0.3]},
        {"m": "vector", "rd": "vector"},
    ),
    Entry(
        "sweep_three_layer.scale_exponents",
        stl.scale_exponents,
        lambda: {"gamma_2": 0.5, "gamma_3": 2.5},
        {**_GAMMAS, "alpha_exponent": "scalar"},
    ),
    Entry(
        "sweep_three_layer.initial_scales",
        stl.initial_scales,
        lambda: {"gamma_2": 0.5, "gamma_3": 2.5, "m": 4},
        {**_GAMMAS, "m": "int", "alpha_exponent": "scalar", "B": "scalar"},
    ),
    Entry(
        "sweep_three_layer.linear_estimate",
        stl.linear_estimate,
        lambda: {"gamma_2": 0.5, "gamma_3": 2.5},
        _GAMMAS,
    ),
    Entry(
        "sweep_three_layer.ntk_gram",
        stl.ntk_gram,
        lambda: dict(zip(("model", "p"), _three_layer(), strict=True)),
        {"model": "object", "p": "object"},
    ),
    Entry(
        "sweep_three_layer.rd_point",
        lambda **kw: stl.rd_point(**kw, **_FEW),
        lambda: dict(_POINT),
        _RUN,
    ),
    Entry(
        "sweep_three_layer.train_run",
        lambda **kw: stl.train_run(**kw, **_FEW),
        lambda: dict(_POINT),
        _RUN,
    ),
    Entry(
        "sweep_three_layer.train_runs",
        stl.train_runs,
        lambda: {"runs": [{**_POINT, **_FEW}]},
        {"runs": "object", "batch_entries": "int"},
    ),
    Entry(
        "sweep_three_layer.rd_points",
        stl.rd_points,
        lambda: {"points": [{**_POINT, **_FEW}], "extra": {"two": lambda r: 2}},
        {"points": "object", "batch_entries": "int", "extra": "object"},
    ),
    Entry(
        "sweep_three_layer.rd_sweep_point",
        stl.rd_sweep_point,
        lambda: {"point": {**_POINT, "gamma_3": "21/10", **_FEW}},
        {"point": "object"},
    ),
    Entry(
        "sweep_three_layer.slopes",
        stl.slopes,
        lambda: {"results": list(_rd_results())},
        {"results": "object"},
        # the standard error is NaN by definition with two runs (no residual)
        numbers=lambda s: [s["S_W1"], s["S_W2"], s["widths"]],
    ),
]

# ---------------------------------------------------------------------------
# numerics.phase_diagram: widths 3 and 4, one seed, at most 4 steps (as above)
# ---------------------------------------------------------------------------
_WS = {"widths": [3, 4], "seeds": [0]}
_RD = [[1.0], [0.5]]


def _fit_numbers(fit: Any) -> Any:
    # se_fit and se_seeds are NaN by definition with two widths and one seed
    return [fit.slope, fit.seed_slopes]


def _point_numbers(p: Any) -> Any:
    # NaN marks an excluded run in rd (documented), and then in the fits built on it
    rd = [np.nan_to_num(v, nan=0.0, posinf=np.inf, neginf=-np.inf) for v in p.rd.values()]
    fits = [_fit_numbers(f) for f in p.fits.values()] if not p.excluded else []
    return [rd, fits, p.widths, p.seeds, p.excluded]


@functools.cache
def _diagram() -> pd.PhaseDiagram:
    ps = [
        pd.point_from_rd(0, g3, [2, 4], [0], [[1.0], [r]], [[1.0], [r]])
        for g3, r in ((1, 0.5), (2, 2.0))
    ]
    return pd.PhaseDiagram((Fraction(0),), (Fraction(1), Fraction(2)), (2, 4), (0,), (tuple(ps),))


_W_ROWS = [[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [-1.0, 0.1]]
_SWEEP = {"executor": "object", "progress": "flag"}
_CACHE = (
    "a path: every string names a directory (relative to the working directory, "
    "which the fuzz would fill with them); run_sweep's, checked in test_sweeps.py"
)

PHASE_DIAGRAM = [
    Entry(
        "phase_diagram.fit_layer",
        pd.fit_layer,
        lambda: {"widths": [2, 4], "rd": _RD},
        {"widths": "vector", "rd": "matrix"},
        numbers=_fit_numbers,
    ),
    Entry(
        "phase_diagram.point_from_rd",
        pd.point_from_rd,
        lambda: {"gamma_2": 0, "gamma_3": 2.1, **_WS, "rd_w1": _RD, "rd_w2": _RD},
        {
            **_GAMMAS,
            "widths": "vector",
            "seeds": "vector",
            "rd_w1": "matrix",
            "rd_w2": "matrix",
            "alpha_exponent": "scalar",
        },
        numbers=_point_numbers,
    ),
    Entry(
        "phase_diagram.measure_points",
        lambda **kw: pd.measure_points(**kw, **_FEW),
        lambda: {"points": [(0, 2.1)], **_WS},
        {
            "points": "object",
            "widths": "vector",
            "seeds": "vector",
            **_SWEEP,
            "normalised_lr": "flag",
            "extra": "object",
        },
        numbers=lambda ps: [_point_numbers(p) for p in ps],
        exempt={"cache_dir": _CACHE},
    ),
    Entry(
        "phase_diagram.phase_grid",
        lambda **kw: pd.phase_grid(**kw, **_FEW),
        lambda: {"gamma_2s": [0], "gamma_3s": [2.1], **_WS},
        {
            "gamma_2s": "vector",
            "gamma_3s": "vector",
            "widths": "vector",
            "seeds": "vector",
            **_SWEEP,
        },
        numbers=lambda g: [_point_numbers(p) for row in g.points for p in row],
        exempt={"cache_dir": _CACHE},
    ),
    Entry(
        "phase_diagram.table_2_invariance",
        lambda **kw: pd.table_2_invariance(**kw, **_FEW),
        lambda: dict(_WS),
        {"widths": "vector", "seeds": "vector", **_SWEEP, "normalised_lr": "flag"},
        numbers=lambda gs: [_point_numbers(p) for g in gs for p in g.points],
        exempt={"cache_dir": _CACHE},
    ),
    Entry(
        "phase_diagram.boundaries",
        pd.boundaries,
        lambda: {"diagram": _diagram(), "layer": "W1"},
        {"diagram": "object", "layer": "name", "axis": "name"},
    ),
    Entry(
        "phase_diagram.interpolate_zero",
        pd.interpolate_zero,
        lambda: {"g": (1.0, 2.0), "s": (0.5, -0.5), "e": (0.1, 0.1)},
        {"g": "vector", "s": "vector", "e": "vector"},
    ),
    Entry(
        "phase_diagram.train",
        lambda **kw: pd.train(**kw, **_FEW),
        lambda: dict(_POINT),
        _RUN,
    ),
    Entry(
        "phase_diagram.input_weights",
        pd.input_weights,
        lambda: {"params": {"W1": np.ones((2, 1)), "b1": np.zeros(2)}, "layer": "W1"},
        {"params": "object", "layer": "name"},
    ),
    Entry(
        "phase_diagram.cosine_matrix",
        pd.cosine_matrix,
        lambda: {"W": _W_ROWS},
        {"W": "matrix", "top": "scalar", "order": "flag"},
        # NaN is the documented cosine of a row of norm 0 (no direction); inf still fails
        numbers=lambda D: np.nan_to_num(D, nan=0.0, posinf=np.inf, neginf=-np.inf),
    ),
    Entry("phase_diagram.zeta", pd.zeta, lambda: {"W": _W_ROWS}, {"W": "matrix", "top": "scalar"}),
    Entry(
        "phase_diagram.aligned_fraction",
        pd.aligned_fraction,
        lambda: {"W": _W_ROWS},
        {"W": "matrix", "top": "scalar", "threshold": "scalar"},
    ),
    Entry(
        "phase_diagram.NormalisedThreeLayer",
        pd.NormalisedThreeLayer,
        lambda: {"X": [[-1.0], [1.0]], "y": [0.2, 0.8], "kappas": (1.0, 2.0, 0.5)},
        {"X": "matrix", "y": "vector", "kappas": "vector", "bias": "flag"},
        numbers=lambda model: list(model.rates.values()),
    ),
    Entry(
        "phase_diagram.normalised_vs_raw",
        pd.normalised_vs_raw,
        lambda: {"m": 2, "times": (0.0, 0.25), "rtol": 1e-6},
        {
            **_GAMMAS,
            "m": "int",
            "seed": "int",
            "alpha_exponent": "scalar",
            "times": "times",
            "rtol": "scalar",
            "bias": "flag",
            "time_factor_fn": "object",
            "kappa_fn": "object",
        },
    ),
]

# ---------------------------------------------------------------------------
# numerics.node_scaling_experiment: two inputs in d = 2, width 2, a few steps
# ---------------------------------------------------------------------------
_THREADS = {"threads": "int", "progress": "flag"}
_SETTINGS = ((1.0, None), (0.5, 0.7))
_SMALL_8_1_1 = {
    "n": 2,
    "d": 2,
    "widths": [2],
    "steps": 4,
    "n_records": 3,
    "settings": _SETTINGS,
    "threads": 1,
}


@functools.cache
def _section() -> dict[str, Any]:
    return ex.section_8_1_1(**_SMALL_8_1_1)


@functools.cache
def _monitor() -> dict[str, Any]:
    return ex.monitor_theorem_5_1(
        n=2, d=2, gammas=[1.0], widths=[2], seeds=[0], horizon=0.1, n_times=2, threads=1
    )


def _figure() -> Any:
    from matplotlib.figure import Figure

    return Figure()


def _plot(**kw: Any) -> Any:
    with tempfile.TemporaryDirectory() as tmp:
        return ex.plot_section_8_1_1(**kw, path=f"{tmp}/fig.png").name


@functools.cache
def _out_dir() -> str:
    # one directory for every call of main (it writes its JSON there), made on first use
    return tempfile.mkdtemp(prefix="fuzz_main_")


def _main_good() -> dict[str, Any]:
    return {"argv": ["--out", _out_dir(), "--quick", "--part", "features"]}


_EXPERIMENT = {
    "n": "int",
    "d": "int",
    "data_seed": "int",
    "gammas": "vector",
    "alpha": "scalar",
    "widths": "vector",
    "seeds": "vector",
    "horizon": "scalar",
    "rtol": "scalar",
    "activation": "name",
    "device": "name",
    **_THREADS,
}
_SMALL_FLOW = {
    "n": 2,
    "d": 2,
    "gammas": [1.0],
    "widths": [2, 3],
    "seeds": [0],
    "horizon": 0.1,
    "threads": 1,
}

NODE_SCALING_EXPERIMENT = [
    Entry(
        "node_scaling_experiment.sphere_data",
        ex.sphere_data,
        lambda: {"n": 2, "d": 2},
        {"n": "int", "d": "int", "seed": "int", "noise": "scalar", "amplitude": "scalar"},
    ),
    Entry(
        "node_scaling_experiment.single_relu_data",
        ex.single_relu_data,
        lambda: {"n": 2, "d": 2},
        {"n": "int", "d": "int", "seed": "int"},
    ),
    Entry(
        "node_scaling_experiment.node_scalings",
        ex.node_scalings,
        lambda: {"m": 2, "gamma": 0.5, "alpha": 0.7},
        {"m": "int", "gamma": "scalar", "alpha": "scalar"},
    ),
    Entry(
        "node_scaling_experiment.nested_parameters",
        ex.nested_parameters,
        lambda: {"lams": [[0.5, 0.25]], "d": 2, "seeds": [0]},
        {"lams": "matrix", "d": "int", "seeds": "vector", "max_width": "int", "device": "name"},
    ),
    Entry(
        "node_scaling_experiment.kernel_gd",
        ex.kernel_gd,
        lambda: {
            "K": [[1.0, 0.2], [0.2, 0.5]],
            "r0": [[1.0, -0.5]],
            "lr": 0.5,
            "record_steps": [0, 2],
            "K_cross": [[0.3, 0.1]],
            "f0_cross": [[0.0]],
            "y_cross": [0.5],
        },
        {
            "K": "matrix",
            "r0": "matrix",
            "lr": "scalar",
            "record_steps": "vector",
            "K_cross": "matrix",
            "f0_cross": "matrix",
            "y_cross": "vector",
        },
    ),
    Entry(
        "node_scaling_experiment.monitor_theorem_5_1",
        ex.monitor_theorem_5_1,
        lambda: {**_SMALL_FLOW, "widths": [2], "n_times": 2},
        {**_EXPERIMENT, "delta": "scalar", "n_times": "int"},
    ),
    Entry(
        "node_scaling_experiment.monitor_table",
        ex.monitor_table,
        lambda: {"result": _monitor()},
        {"result": "object"},
    ),
    Entry(
        "node_scaling_experiment.feature_learning_sweep",
        ex.feature_learning_sweep,
        lambda: dict(_SMALL_FLOW),
        {**_EXPERIMENT, "input_index": "int"},
    ),
    Entry(
        "node_scaling_experiment.section_8_1_1",
        ex.section_8_1_1,
        lambda: dict(_SMALL_8_1_1),
        {
            "n": "int",
            "d": "int",
            "widths": "vector",
            "steps": "int",
            "repeats": "int",
            "settings": "matrix",
            "lr": "scalar",
            "n_records": "int",
            "top_neurons": "int",
            "data_seed": "int",
            "activation": "name",
            "device": "name",
            **_THREADS,
        },
    ),
    Entry(
        "node_scaling_experiment.section_8_1_1_summary",
        ex.section_8_1_1_summary,
        lambda: {"result": _section()},
        {"result": "object"},
    ),
    Entry(
        "node_scaling_experiment.draw_section_8_1_1",
        ex.draw_section_8_1_1,
        lambda: {"fig": _figure(), "result": _section()},
        {"fig": "object", "result": "object"},
    ),
    Entry(
        "node_scaling_experiment.plot_section_8_1_1",
        _plot,
        lambda: {"result": _section()},
        {"result": "object"},
        exempt={
            "path": "a path: every string names a file the fuzz would write into the "
            "working directory; the good call writes into a temporary directory"
        },
    ),
    Entry(
        "node_scaling_experiment.single_relu_experiment",
        ex.single_relu_experiment,
        lambda: {
            "n": 2,
            "d": 2,
            "width": 2,
            "n_test": 2,
            "steps": 2,
            "repeats": 1,
            "settings": _SETTINGS,
            "n_records": 2,
            "threads": 1,
        },
        {
            "n": "int",
            "d": "int",
            "width": "int",
            "n_test": "int",
            "steps": "int",
            "repeats": "int",
            "settings": "matrix",
            "pytorch_default": "flag",
            "activation": "name",
            "n_records": "int",
            "data_seed": "int",
            "device": "name",
            **_THREADS,
        },
    ),
    Entry(
        "node_scaling_experiment.main",
        ex.main,
        _main_good,
        {"argv": "vector"},
    ),
]

ENTRIES: list[Entry] = [
    *NODE_SCALING_LINEAR,
    *SWEEP_THREE_LAYER,
    *PHASE_DIAGRAM,
    *NODE_SCALING_EXPERIMENT,
]

_RECORD = "output record: built by the package, users do not construct it"
EXEMPT: dict[str, str] = {
    "node_scaling_linear.FeatureLearningSweep": f"{_RECORD} (returned by "
    "feature_learning_sweep, which is fuzzed)",
    "node_scaling_linear.LinearRun": f"{_RECORD} (returned by run_linear, which is fuzzed)",
    "phase_diagram.Crossing": f"{_RECORD} (returned by boundaries, which is fuzzed)",
    "phase_diagram.FlowComparison": f"{_RECORD} (returned by normalised_vs_raw, fuzzed)",
    "phase_diagram.PhaseDiagram": f"{_RECORD} (returned by phase_grid, which is fuzzed)",
    "phase_diagram.PhasePoint": f"{_RECORD} (returned by measure_points and point_from_rd, "
    "which are fuzzed)",
    "phase_diagram.SlopeFit": f"{_RECORD} (returned by fit_layer, which is fuzzed)",
    "phase_diagram.Table2Group": f"{_RECORD} (returned by table_2_invariance, fuzzed)",
}
