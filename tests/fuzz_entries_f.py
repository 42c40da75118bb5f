"""Fuzz entries, group f (see tests/test_fuzz_every_entry_point.py): the numerics experiment
modules of seeds 001-003, ``numerics.alpha_scaling`` (Part III's alpha sweep),
``numerics.kernel_sampling`` (empirical kernels at initialisation), ``numerics.ntg_sampling``
(Monte Carlo of the NTG), ``numerics.lazy_width`` (Hessians and the linearisation error) and
``numerics.node_scaling_gd`` (the node-scaled network under gradient descent).

Every good call is the smallest its parameters allow (width 2, one or two data points, one
or two steps), so that a bad value that is accepted runs in well under a second."""

from __future__ import annotations

from typing import Any

import torch
from fuzz_harness import Entry

from numerics import alpha_scaling as al
from numerics import kernel_sampling as ks
from numerics import lazy_width as lw
from numerics import node_scaling_gd as gd
from numerics import ntg_sampling as ntgs
from numerics.models import WideTwoLayer
from solvable.models import kernels as kn
from solvable.models import node_scaling as ns

_X2 = [[1.0, 0.5], [0.2, -1.0]]
_W = [[[0.5, -0.2], [0.1, 0.7]]]  # (B, h, d) = (1, 2, 2)

# ---------------------------------------------------------------------------
# numerics.alpha_scaling: d = 2, two training and two test points, width 2, two steps
# ---------------------------------------------------------------------------
_SETUP = {"d": 2, "n_train": 2, "n_test": 2, "width": 2, "steps": 2}
_SEEDS = ("data_seed", "init_seed")


def _alpha_numbers(curve: Any) -> Any:
    # the standard errors are over 2 seeds (finite); the values, rates and means must be
    return [curve.values, curve.lrs, curve.means, curve.stderrs, curve.alphas]


ALPHA_SCALING = [
    Entry(
        "alpha_scaling.AlphaSetup",
        al.AlphaSetup,
        lambda: dict(_SETUP),
        {
            **{k: "int" for k in ("d", "n_train", "n_test", "width", "steps")},
            "lr_factor": "scalar",
            **{k: "int" for k in _SEEDS},
        },
    ),
    Entry(
        "alpha_scaling.teacher_data",
        al.teacher_data,
        lambda: {"setup": al.AlphaSetup(**_SETUP)},
        {"setup": "object"},
    ),
    Entry(
        "alpha_scaling.initial_parameters",
        al.initial_parameters,
        lambda: {"alpha": 2.0, "width": 2, "d": 2, "seeds": 1, "device": "cpu"},
        {
            "alpha": "scalar",
            "width": "int",
            "d": "int",
            "seeds": "int",
            "seed": "int",
            "device": "name",
            "dtype": "object",
        },
    ),
    Entry(
        "alpha_scaling.kernel_distance",
        al.kernel_distance,
        lambda: {"K0": [[2.0, 1.0], [1.0, 3.0]], "K": [[2.0, 0.5], [0.5, 3.0]]},
        {"K0": "matrix", "K": "matrix"},
    ),
    Entry(
        "alpha_scaling.activation_change",
        al.activation_change,
        lambda: {
            "W0": torch.tensor(_W, dtype=torch.float64),
            "W": torch.tensor(_W, dtype=torch.float64) * -1,
            "X": _X2,
        },
        {"W0": "matrix", "W": "matrix", "X": "matrix"},
    ),
    Entry(
        "alpha_scaling.alpha_curve",
        al.alpha_curve,
        lambda: {"alphas": [0.5, 2.0], "seeds": 2, **_SETUP, "device": "cpu"},
        {
            "alphas": "vector",
            "seeds": "int",
            **{k: "int" for k in ("width", "d", "n_train", "n_test", "steps")},
            "lr_factor": "scalar",
            **{k: "int" for k in _SEEDS},
            "device": "name",
            "dtype": "object",
            "batched": "flag",
        },
        numbers=_alpha_numbers,
    ),
]

# ---------------------------------------------------------------------------
# numerics.kernel_sampling: the lecture's initialisation in d = 2, width 2, two draws
# ---------------------------------------------------------------------------
_INIT = kn.lecture_initialisation(2)
_DEFAULT = kn.default_initialisation("kaiming")
_SAMPLE = {"d": "int", "p": "int", "batch": "int", "seed": "int", "device": "name"}

KERNEL_SAMPLING = [
    Entry(
        "kernel_sampling.sample_parameters",
        ks.sample_parameters,
        lambda: {"init": _INIT, "d": 2, "p": 2, "batch": 2},
        {"init": "object", **_SAMPLE, "dtype": "object"},
    ),
    Entry(
        "kernel_sampling.sample_table_1",
        ks.sample_table_1,
        lambda: {"init": _DEFAULT, "d": 2, "p": 2, "batch": 2},
        {"init": "object", **_SAMPLE, "dtype": "object"},
    ),
    Entry(
        "kernel_sampling.empirical_kernels",
        ks.empirical_kernels,
        lambda: {"init": _INIT, "X": _X2, "p": 2, "batch": 2},
        {
            "init": "object",
            "X": "matrix",
            "p": "int",
            "batch": "int",
            "seed": "int",
            "device": "name",
            "kernels": "name",
        },
    ),
    Entry("kernel_sampling.upper", ks.upper, lambda: {"K": _X2}, {"K": "matrix"}),
    Entry(
        "kernel_sampling.kernel_estimates",
        ks.kernel_estimates,
        lambda: {"init": _INIT, "X": _X2, "p": 2, "batch": 2},
        {
            "init": "object",
            "X": "matrix",
            "p": "int",
            "batch": "int",
            "seed": "int",
            "device": "name",
        },
    ),
    Entry(
        "kernel_sampling.width_convergence",
        ks.width_convergence,
        lambda: {"init": _INIT, "X": _X2, "widths": [2, 4], "replicates": 2, "batch": 2},
        {
            "init": "object",
            "X": "matrix",
            "widths": "vector",
            "replicates": "int",
            "batch": "int",
            "seed": "int",
            "device": "name",
            "kernel": "name",
        },
    ),
    Entry(
        "kernel_sampling.output_samples",
        ks.output_samples,
        lambda: {"init": _INIT, "X": _X2, "p": 2, "batch": 2},
        {
            "init": "object",
            "X": "matrix",
            "p": "int",
            "batch": "int",
            "seed": "int",
            "device": "name",
        },
    ),
]

# ---------------------------------------------------------------------------
# numerics.ntg_sampling: two inputs in d = 2, relu, width 2, two draws
# ---------------------------------------------------------------------------
_ZIPF = ns.zipf("0.5")

NTG_SAMPLING = [
    Entry(
        "ntg_sampling.node_scalings",
        ntgs.node_scalings,
        lambda: {"m": 2, "gamma": 0.5, "weights": _ZIPF},
        {"m": "int", "gamma": "scalar", "weights": "object"},
    ),
    Entry(
        "ntg_sampling.sample_ntg",
        ntgs.sample_ntg,
        lambda: {"X": _X2, "activation": "relu", "lam": [0.5, 0.25], "draws": 2, "device": "cpu"},
        {
            "X": "matrix",
            "activation": "name",
            "lam": "vector",
            "draws": "int",
            "seed": "int",
            "device": "name",
        },
    ),
    Entry(
        "ntg_sampling.proposition_4_3",
        ntgs.proposition_4_3,
        lambda: {
            "X": _X2,
            "activation": "relu",
            "m": 2,
            "gamma": 0.5,
            "weights": _ZIPF,
            "draws": 2,
            "device": "cpu",
        },
        {
            "X": "matrix",
            "activation": "name",
            "m": "int",
            "gamma": "scalar",
            "weights": "object",
            "draws": "int",
            "seed": "int",
            "device": "name",
            "confidence": "scalar",
        },
    ),
    Entry(
        "ntg_sampling.nested_widths",
        ntgs.nested_widths,
        lambda: {
            "X": _X2,
            "activation": "relu",
            "gamma": 0.5,
            "weights": _ZIPF,
            "widths": [1, 2],
            "tail_nodes": 4,
            "device": "cpu",
        },
        {
            "X": "matrix",
            "activation": "name",
            "gamma": "scalar",
            "weights": "object",
            "widths": "vector",
            "tail_nodes": "int",
            "seed": "int",
            "device": "name",
        },
    ),
]


# ---------------------------------------------------------------------------
# numerics.lazy_width: width 2 in d = 2, one input; flows to t = 0.5
# ---------------------------------------------------------------------------
def _lw_model() -> Any:
    return WideTwoLayer(X=[[0.6, 0.8]], y=[0.0], activation="tanh", eta_a=0.0)


def _lw_params() -> dict[str, Any]:
    return lw.initial_parameters(2, 2, 1, device="cpu")


_HESSIAN = {"model": "object", "params": "object", "x": "vector"}


def _hessian_good() -> dict[str, Any]:
    return {"model": _lw_model(), "params": _lw_params(), "x": [0.6, 0.8]}


def _composed_numbers(model: Any) -> Any:
    return [model.X, model.y, model.eta_w, model.eta_a]


def _sweep_numbers(s: Any) -> Any:
    # fit is None with one width; its se is NaN by definition with two (no residual)
    return [s.sup_E, s.max_ratio, s.lambda0, s.final_residual, s.kernel_floor]


LAZY_WIDTH = [
    Entry(
        "lazy_width.sphere",
        lw.sphere,
        lambda: {"n": 2, "d": 2},
        {"n": "int", "d": "int", "radius": "scalar", "seed": "int"},
    ),
    Entry(
        "lazy_width.ComposedTwoLayer",
        lw.ComposedTwoLayer,
        lambda: {"X": _X2, "y": [0.1, -0.2]},
        {
            "X": "matrix",
            "y": "vector",
            "activation": "name",
            "eta_w": "scalar",
            "eta_a": "scalar",
            "scale": "scalar",
            "phi": "name",
        },
        numbers=_composed_numbers,
    ),
    Entry(
        "lazy_width.initial_parameters",
        lw.initial_parameters,
        lambda: {"p": 2, "d": 2, "batch": 1, "device": "cpu"},
        {
            "p": "int",
            "d": "int",
            "batch": "int",
            "seed": "int",
            "a_init": "name",
            "device": "name",
            "dtype": "object",
        },
    ),
    Entry("lazy_width.hessian_dense", lw.hessian_dense, _hessian_good, _HESSIAN),
    Entry("lazy_width.hessian_opnorm_dense", lw.hessian_opnorm_dense, _hessian_good, _HESSIAN),
    Entry(
        "lazy_width.hessian_opnorm_lanczos",
        lw.hessian_opnorm_lanczos,
        _hessian_good,
        {**_HESSIAN, "tol": "scalar", "seed": "int"},
    ),
    Entry(
        "lazy_width.hessian_opnorm_closed_form",
        lw.hessian_opnorm_closed_form,
        _hessian_good,
        _HESSIAN,
    ),
    Entry(
        "lazy_width.hessian_agreement",
        lw.hessian_agreement,
        lambda: {"widths": [2], "seeds": 1, "d": 2, "device": "cpu"},
        {"widths": "vector", "seeds": "int", "d": "int", "activation": "name", "device": "name"},
    ),
    Entry(
        "lazy_width.hessian_sweep",
        lw.hessian_sweep,
        lambda: {"widths": [2, 3], "seeds": 2, "d": 2, "device": "cpu"},
        {"widths": "vector", "seeds": "int", "d": "int", "activation": "name", "device": "name"},
        # the fit's standard errors are NaN by definition with two widths
        numbers=lambda s: [s.values, s.bound, s.formula_error, s.fit.exponent],
    ),
    Entry(
        "lazy_width.linearisation_run",
        lw.linearisation_run,
        lambda: {
            "model": _lw_model(),
            "params0": _lw_params(),
            "times": [0.0, 0.5],
            "probe": [[1.0, 0.0]],
            "device": "cpu",
        },
        {
            "model": "object",
            "params0": "object",
            "times": "times",
            "probe": "matrix",
            "rtol": "scalar",
            "device": "name",
        },
    ),
    Entry(
        "lazy_width.linearisation_sweep",
        lw.linearisation_sweep,
        lambda: {
            "widths": [2],
            "seeds": 2,
            "n": 1,
            "d": 2,
            "probes": 1,
            "horizon": 0.5,
            "n_times": 2,
            "device": "cpu",
        },
        {
            "widths": "vector",
            "seeds": "int",
            "n": "int",
            "d": "int",
            "probes": "int",
            "horizon": "scalar",
            "n_times": "int",
            "eta_a": "scalar",
            "a_init": "name",
            "activation": "name",
            "rtol": "scalar",
            "device": "name",
            "output": "name",
        },
        numbers=_sweep_numbers,
    ),
]

# ---------------------------------------------------------------------------
# numerics.node_scaling_gd: two inputs in d = 2, width 2, one seed, a few steps
# ---------------------------------------------------------------------------
_DATA = {"n": 2, "d": 2, "data_seed": 0}
_DATA_KINDS = {"n": "int", "d": "int", "data_seed": "int"}

NODE_SCALING_GD = [
    Entry(
        "node_scaling_gd.NodeScaledGD",
        gd.NodeScaledGD,
        lambda: {"X": _X2, "y": [0.1, -0.2]},
        {"X": "matrix", "y": "vector", "activation": "name", "eta": "scalar"},
        numbers=lambda model: [model.X, model.y, model.eta],
    ),
    Entry(
        "node_scaling_gd.first_step_runs",
        gd.first_step_runs,
        lambda: {**_DATA, "gammas": [1.0, 0.5], "widths": [2], "seeds": [0]},
        {
            **_DATA_KINDS,
            "gammas": "vector",
            "alpha": "scalar",
            "widths": "vector",
            "seeds": "vector",
            "eta": "scalar",
            "activation": "name",
            "device": "name",
        },
    ),
    Entry(
        "node_scaling_gd.first_step_target_samples",
        gd.first_step_target_samples,
        lambda: {**_DATA, "width": 2, "samples": 2},
        {
            **_DATA_KINDS,
            "gamma": "scalar",
            "alpha": "scalar",
            "width": "int",
            "seed": "int",
            "samples": "int",
            "eta": "scalar",
            "activation": "name",
            "device": "name",
        },
    ),
    Entry(
        "node_scaling_gd.mean_field_linear",
        gd.mean_field_linear,
        lambda: {**_DATA, "widths": [2], "samples": 2, "steps": 2},
        {
            **_DATA_KINDS,
            "widths": "vector",
            "samples": "vector",
            "eta0_fraction": "scalar",
            "steps": "int",
            "device": "name",
        },
    ),
    Entry(
        "node_scaling_gd.monitor_theorem_6_1",
        gd.monitor_theorem_6_1,
        lambda: {**_DATA, "width": 2, "horizon": 0.01, "n_records": 3},
        {
            **_DATA_KINDS,
            "amplitude": "scalar",
            "gammas": "vector",
            "alpha": "scalar",
            "width": "int",
            "seeds": "vector",
            "delta": "scalar",
            "step_fraction": "scalar",
            "horizon": "scalar",
            "n_records": "int",
            "activation": "name",
            "device": "name",
        },
    ),
]

ENTRIES: list[Entry] = [
    *ALPHA_SCALING,
    *KERNEL_SAMPLING,
    *NTG_SAMPLING,
    *LAZY_WIDTH,
    *NODE_SCALING_GD,
]

_RECORD = "output record: built by the package, users do not construct it"
EXEMPT: dict[str, str] = {
    "alpha_scaling.AlphaCurve": f"{_RECORD} (returned by alpha_curve, which is fuzzed)",
    "kernel_sampling.WidthFit": f"{_RECORD} (returned by width_convergence, which is fuzzed)",
    "ntg_sampling.NestedWidths": f"{_RECORD} (returned by nested_widths, which is fuzzed)",
    "ntg_sampling.Proposition43": f"{_RECORD} (returned by proposition_4_3, which is fuzzed)",
    "lazy_width.HessianAgreement": f"{_RECORD} (returned by hessian_agreement, fuzzed)",
    "lazy_width.HessianSweep": f"{_RECORD} (returned by hessian_sweep, which is fuzzed)",
    "lazy_width.LinearisationRun": f"{_RECORD} (returned by linearisation_run, fuzzed)",
    "lazy_width.LinearisationSweep": f"{_RECORD} (returned by linearisation_sweep, fuzzed)",
}
