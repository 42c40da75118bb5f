"""Fuzz entries, group c (see tests/test_fuzz_every_entry_point.py): seed 000 (node_scaling,
ntg, global_convergence, linear_node_scaling), numerics.torch_flow / numerics.models and the
top-level ``solvable.monte_carlo`` / ``solvable.Tolerance``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import sympy as sp
import torch
from fuzz_harness import Entry

import solvable
from numerics import models, torch_flow
from solvable._core.activations import elementwise
from solvable.models import global_convergence as gc
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models import ntg

# ---------------------------------------------------------------------------
# good arguments (tiny: two data points in R^2, width 2)
# ---------------------------------------------------------------------------
_X = [[1.0, 0.5], [0.2, -1.0]]
_Y = [1.0, -0.5]
_LAM = [0.6, 0.4]
_W0 = [[0.3, -0.2], [0.1, 0.4]]
_ZIPF = ns.zipf(0.5)
_FK = ns.finite_k(2)
_NS = {"X": _X, "y": _Y, "lam": _LAM, "eta": 1.0}
_NS_LINEAR = ns.Setup(**_NS, activation="linear")
_TRAJ = lns.closed_form(_NS_LINEAR, [1.0, -1.0], _W0)
_LIMIT = lns.limit(_X, _Y, _LAM, [1.0, -1.0], _W0)
_BETA, _V = list(_LIMIT.beta_inf), _LIMIT.svd.V.tolist()
_CONSTS = gc.Constants(2, 2, 0.1, 0.5, 0.1, 1.0, 0.5, 0.5)
_ETA_GD = 1e-4  # below step_size_limit_numeric(_CONSTS) = 1.1e-3


def _arrays() -> dict[str, Any]:
    """W, a, s, X of the network (2), as float64 arrays."""
    return {
        "W": np.array(_W0),
        "a": np.array([1.0, -1.0]),
        "s": np.sqrt(np.array(_LAM)),
        "X": np.array(_X),
    }


def _net(*, y: bool = False, w0: bool = False) -> dict[str, Any]:
    kw = {**_arrays(), "sigma": elementwise("tanh", "numpy"), "root_d": math.sqrt(2)}
    if w0:
        kw["W0"] = np.array(_W0) * 0.5
    if y:
        kw["y"] = np.array(_Y)
    return kw


_NET_KINDS = {"W": "matrix", "a": "vector", "s": "vector", "X": "matrix",
              "sigma": "object", "root_d": "scalar"}  # fmt: skip


def _xz_model() -> Any:
    return models.TwoLayerLinear(np.array([1.0, 2.0]), 1.5, 0.7, 1.0, 0.5)


def _xz_params() -> dict[str, Any]:
    return {
        "u": torch.tensor([[0.3, -0.2]], dtype=torch.float64),
        "W": torch.tensor([[[0.1, 0.2], [-0.3, 0.1]]], dtype=torch.float64),
    }


def _flow_numbers(res: Any) -> list[Any]:
    # fixed_point_t is NaN by definition where the fixed-point test did not succeed
    return [res.times, *res.params.values(), *res.measures.values(), res.steps, res.rejected]


def _measures() -> dict[str, Any]:
    return {"f": lambda p, rows: (p["u"] * p["W"].sum(-1)).sum(-1)}


E = Entry
_GX = sp.Symbol("x")  # solvable.generate's argument
ENTRIES: list[Entry] = [
    # -- solvable (top level) ---------------------------------------------------------------
    E("solvable.monte_carlo", solvable.monte_carlo,
      lambda: {"samples": [[1.0, 2.0], [1.5, 2.5], [0.5, 1.0]], "confidence": 0.99, "axis": 0},
      {"samples": "matrix", "confidence": "scalar", "axis": "int"}),
    E("solvable.generate", solvable.generate,
      lambda: {"args": (_GX,), "expr": _GX**2 + 1, "backend": "numpy"},
      {"args": "object", "expr": "object", "backend": "name"}, lambda f: f(2.0),
      exempt={name: "a code-generation option of the package's own evaluators (printing "
              "only), passed to sympy.lambdify" for name in
              ("cse", "hoist_calls", "elementwise", "printer", "extra")}),
    E("solvable.Tolerance", solvable.Tolerance,
      lambda: {"rtol": 1e-8, "atol": 1e-12, "reason": "fuzz"},
      {"rtol": "scalar", "atol": "scalar", "reason": "name"}),
    # -- node_scaling -----------------------------------------------------------------------
    E("node_scaling.Setup", ns.Setup, lambda: {**_NS, "activation": "tanh"},
      {"X": "matrix", "y": "vector", "lam": "vector", "eta": "scalar", "activation": "name"}),
    E("node_scaling.Zipf", ns.Zipf, lambda: {"alpha": 0.5}, {"alpha": "scalar"}),
    E("node_scaling.zipf", ns.zipf, lambda: {"alpha": "0.25"}, {"alpha": "scalar"}),
    E("node_scaling.FiniteK", ns.FiniteK, lambda: {"K": 2}, {"K": "int"}),
    E("node_scaling.finite_k", ns.finite_k, lambda: {"K": 3}, {"K": "int"}),
    E("node_scaling.Zipf.weight", _ZIPF.weight, lambda: {"j": 2}, {"j": "int"}),
    E("node_scaling.FiniteK.partial_sum", _FK.partial_sum, lambda: {"m": 3}, {"m": "int"}),
    E("node_scaling.node_scaling", ns.node_scaling,
      lambda: {"m": 3, "j": 2, "gamma": 0.5, "weights": _ZIPF},
      {"m": "int", "j": "int", "gamma": "scalar", "weights": "object"}),
    E("node_scaling.node_scaling_numeric", ns.node_scaling_numeric,
      lambda: {"m": 3, "j": 2, "gamma": 0.5, "weights": _ZIPF},
      {"m": "int", "j": "int", "gamma": "scalar", "weights": "object", "dps": "dps"}),
    E("node_scaling.node_scaling_limit", ns.node_scaling_limit,
      lambda: {"j": 2, "gamma": 0.5, "weights": _FK},
      {"j": "int", "gamma": "scalar", "weights": "object"}),
    E("node_scaling.max_node_scaling_limit", ns.max_node_scaling_limit,
      lambda: {"gamma": 0.5, "weights": _ZIPF}, {"gamma": "scalar", "weights": "object"}),
    E("node_scaling.sum_of_scalings", ns.sum_of_scalings,
      lambda: {"m": 3, "gamma": 0.5, "weights": _FK},
      {"m": "int", "gamma": "scalar", "weights": "object"}),
    E("node_scaling.sum_of_squares", ns.sum_of_squares,
      lambda: {"m": 3, "gamma": 0.5, "weights": _ZIPF},
      {"m": "int", "gamma": "scalar", "weights": "object"}),
    E("node_scaling.sum_of_squares_numeric", ns.sum_of_squares_numeric,
      lambda: {"m": 3, "gamma": 0.5, "weights": _ZIPF},
      {"m": "int", "gamma": "scalar", "weights": "object", "dps": "dps"}),
    E("node_scaling.sum_of_squares_limit", ns.sum_of_squares_limit,
      lambda: {"gamma": 0.5, "weights": _FK}, {"gamma": "scalar", "weights": "object"}),
    E("node_scaling.sum_of_squares_limit_numeric", ns.sum_of_squares_limit_numeric,
      lambda: {"gamma": 0.5, "weights": _ZIPF},
      {"gamma": "scalar", "weights": "object", "dps": "dps"}),
    E("node_scaling.weight_numeric", ns.weight_numeric, lambda: {"j": 2, "weights": _ZIPF},
      {"j": "int", "weights": "object", "dps": "dps"}),
    E("node_scaling.preactivations", ns.preactivations,
      lambda: {"W": np.array(_W0), "X": np.array(_X), "root_d": math.sqrt(2)},
      {"W": "matrix", "X": "matrix", "root_d": "scalar"}),
    E("node_scaling.network_output", ns.network_output, _net, _NET_KINDS),
    E("node_scaling.loss", ns.loss, lambda: _net(y=True), {**_NET_KINDS, "y": "vector"}),
    E("node_scaling.zeroed_output", ns.zeroed_output, lambda: _net(w0=True),
      {**_NET_KINDS, "W0": "matrix"}),
    E("node_scaling.zeroed_loss", ns.zeroed_loss, lambda: _net(y=True, w0=True),
      {**_NET_KINDS, "W0": "matrix", "y": "vector"}),
    E("node_scaling.first_step_symbolic", ns.first_step_symbolic,
      lambda: {"n": 1, "d": 1, "m": 1}, {"n": "int", "d": "int", "m": "int"}),
    E("node_scaling.first_step_expectations", ns.first_step_expectations,
      lambda: {"n": 1, "d": 1}, {"n": "int", "d": "int"}),
    E("node_scaling.first_step_numeric", ns.first_step_numeric,
      lambda: {"X": _X, "y": _Y, "W0": _W0, "lam": _LAM, "eta": 0.5, "activation": "tanh",
               "var_y": 1.0},
      {"X": "matrix", "y": "vector", "W0": "matrix", "lam": "vector", "eta": "scalar",
       "activation": "name", "var_y": "scalar"}),
    E("node_scaling.flow_symbolic", ns.flow_symbolic,
      lambda: {"n": 1, "d": 1, "m": 1, "activation": "linear"},
      {"n": "int", "d": "int", "m": "int", "activation": "name"}),
    # -- ntg ---------------------------------------------------------------------------------
    E("ntg.activation", ntg.activation, lambda: {"name": "tanh"}, {"name": "name"}),
    E("ntg.activation_derivative", ntg.activation_derivative,
      lambda: {"name": "swish", "order": 2}, {"name": "name", "order": "int"}),
    E("ntg.node_gradient_factor", ntg.node_gradient_factor, lambda: {"name": "relu"},
      {"name": "name"}),
    E("ntg.derivative_numeric", ntg.derivative_numeric,
      lambda: {"name": "tanh", "z": [0.5, -1.0], "backend": "numpy"},
      {"name": "name", "z": "vector", "backend": "name"}),
    E("ntg.mean_ntg", ntg.mean_ntg, lambda: {"X": _X, "activation": "relu"},
      {"X": "matrix", "activation": "name", "dps": "dps"}),
    E("ntg.kappa_n", ntg.kappa_n, lambda: {"X": _X, "activation": "linear"},
      {"X": "matrix", "activation": "name", "dps": "dps"}),
    E("ntg.derivative_product_variance", ntg.derivative_product_variance,
      lambda: {"X": _X, "activation": "relu"},
      {"X": "matrix", "activation": "name", "dps": "dps"}),
    E("ntg.frobenius_constant", ntg.frobenius_constant, lambda: {"X": _X, "activation": "relu"},
      {"X": "matrix", "activation": "name", "dps": "dps"}),
    E("ntg.frobenius_variance", ntg.frobenius_variance,
      lambda: {"X": _X, "activation": "relu", "m": 3, "gamma": 0.5, "weights": _ZIPF},
      {"X": "matrix", "activation": "name", "m": "int", "gamma": "scalar",
       "weights": "object", "dps": "dps"}),
    E("ntg.frobenius_variance_limit", ntg.frobenius_variance_limit,
      lambda: {"X": _X, "activation": "relu", "gamma": 0.5, "weights": _FK},
      {"X": "matrix", "activation": "name", "gamma": "scalar", "weights": "object",
       "dps": "dps"}),
    E("ntg.ntg", ntg.ntg,
      lambda: {"X": _X, "W": _W0, "a": [1.0, -1.0], "lam": _LAM, "activation": "tanh"},
      {"X": "matrix", "W": "matrix", "a": "vector", "lam": "vector", "activation": "name"}),
    E("ntg.ntg_symbolic", ntg.ntg_symbolic, lambda: {"n": 1, "m": 1, "d": 1},
      {"n": "int", "m": "int", "d": "int"}),
    # -- global_convergence ------------------------------------------------------------------
    E("global_convergence.Constants", gc.Constants,
      lambda: {"n": 2, "d": 2, "kappa_n": 0.1, "gamma": 0.5, "delta": 0.1, "C": 1.0,
               "C1": 0.5, "M": 0.5},
      {"n": "int", "d": "int", **dict.fromkeys(("kappa_n", "gamma", "delta", "C", "C1", "M"),
                                             "scalar")}),
    E("global_convergence.Constants.from_data", gc.Constants.from_data,
      lambda: {"X": _X, "y": _Y, "activation": "tanh", "gamma": 0.5, "delta": 0.1,
               "kappa_n": 0.1},
      {"X": "matrix", "y": "vector", "activation": "name", "gamma": "scalar",
       "delta": "scalar", "kappa_n": "scalar"}),
    E("global_convergence.activation_bounds", gc.activation_bounds,
      lambda: {"activation": "swish"}, {"activation": "name", "dps": "dps"}),
    E("global_convergence.c1", gc.c1, lambda: {"activation": "relu", "d": 2, "c": 0.5},
      {"activation": "name", "d": "int", "c": "scalar", "dps": "dps"}),
    E("global_convergence.c1_expression", gc.c1_expression,
      lambda: {"activation": "linear", "c": "0.5"}, {"activation": "name", "c": "scalar"}),
    E("global_convergence.gd_width_stable", gc.gd_width_stable,
      lambda: {"expr": gc.theorem_6_1().width_terms[1]}, {"expr": "object"}),
    *(E(f"global_convergence.{name}", getattr(gc, name), lambda: {"consts": _CONSTS},
        {"consts": "object", "dps": "dps"})
      for name in ("eig_min_bound_numeric", "step_size_limit_numeric",
                   "width_condition_numeric", "width_terms_numeric")),
    E("global_convergence.loss_bound_numeric", gc.loss_bound_numeric,
      lambda: {"consts": _CONSTS, "t": 2.0, "L0": 0.5},
      {"consts": "object", "t": "scalar", "L0": "scalar", "dps": "dps"}),
    E("global_convergence.weight_bound_numeric", gc.weight_bound_numeric,
      lambda: {"consts": _CONSTS, "lam": 0.25}, {"consts": "object", "lam": "scalar",
                                                 "dps": "dps"}),
    E("global_convergence.weight_bound_given_loss_numeric", gc.weight_bound_given_loss_numeric,
      lambda: {"consts": _CONSTS, "L0": 0.5, "lam": 0.25},
      {"consts": "object", "L0": "scalar", "lam": "scalar", "dps": "dps"}),
    E("global_convergence.ntg_change_bound_numeric", gc.ntg_change_bound_numeric,
      lambda: {"consts": _CONSTS, "sum_sq": 0.3},
      {"consts": "object", "sum_sq": "scalar", "dps": "dps"}),
    E("global_convergence.ntg_change_given_moves_numeric", gc.ntg_change_given_moves_numeric,
      lambda: {"consts": _CONSTS, "lam": [0.75, 0.25], "moves": [0.5, 2.0]},
      {"consts": "object", "lam": "vector", "moves": "vector", "dps": "dps"}),
    E("global_convergence.ntg_change_given_radius_numeric",
      gc.ntg_change_given_radius_numeric,
      lambda: {"consts": _CONSTS, "radius": 1.5, "sum_sq": 0.3},
      {"consts": "object", "radius": "scalar", "sum_sq": "scalar", "dps": "dps"}),
    E("global_convergence.gd_rate_numeric", gc.gd_rate_numeric,
      lambda: {"consts": _CONSTS, "eta": _ETA_GD},
      {"consts": "object", "eta": "scalar", "dps": "dps"}),
    E("global_convergence.gd_width_condition_numeric", gc.gd_width_condition_numeric,
      lambda: {"consts": _CONSTS, "eta": _ETA_GD},
      {"consts": "object", "eta": "scalar", "dps": "dps"}),
    E("global_convergence.gd_residual_bound_numeric", gc.gd_residual_bound_numeric,
      lambda: {"consts": _CONSTS, "eta": _ETA_GD, "steps": 10, "R0_sq": 2.0},
      {"consts": "object", "eta": "scalar", "steps": "int", "R0_sq": "scalar",
       "dps": "dps"}),
    E("global_convergence.gd_weight_bound_given_residual_numeric",
      gc.gd_weight_bound_given_residual_numeric,
      lambda: {"consts": _CONSTS, "eta": _ETA_GD, "R0": 1.5, "lam": 0.25, "steps": 10},
      {"consts": "object", "eta": "scalar", "R0": "scalar", "lam": "scalar", "steps": "int",
       "dps": "dps"}),
    # -- linear_node_scaling -----------------------------------------------------------------
    E("linear_node_scaling.closed_form", lns.closed_form,
      lambda: {"setup": _NS_LINEAR, "a0": [1.0, -1.0], "W0": _W0},
      {"setup": "object", "a0": "vector", "W0": "matrix", "dps": "dps"},
      lambda tr: [tr.at(1.0).W]),
    # the state's t is inf at t = inf (the limit state), by definition
    E("linear_node_scaling.Trajectory.at", _TRAJ.at, lambda: {"t": 1.0}, {"t": "scalar"},
      lambda st: [st.W, st.a, st.f, st.loss]),
    E("linear_node_scaling.Trajectory.sample", _TRAJ.sample,
      lambda: {"times": [0.0, 0.5, 2.0]}, {"times": "times", "out": "object"},
      lambda st: [st.W, st.a, st.f, st.loss]),
    E("linear_node_scaling.reduced_svd", lns.reduced_svd, lambda: {"X": _X},
      {"X": "matrix", "dps": "dps", "rank": "int"}),
    E("linear_node_scaling.limit", lns.limit,
      lambda: {"X": _X, "y": _Y, "lam": _LAM, "a": [1.0, -1.0], "W0": _W0,
               "probes": [[0.5, 0.5]]},
      {"X": "matrix", "y": "vector", "lam": "vector", "a": "vector", "W0": "matrix",
       "probes": "matrix", "dps": "dps", "rank": "int"}),
    E("linear_node_scaling.gd_step_bounds", lns.gd_step_bounds,
      lambda: {"X": _X, "lam": _LAM}, {"X": "matrix", "lam": "vector"}),
    E("linear_node_scaling.group_moments", lns.group_moments,
      lambda: {"lam_T": 0.4, "total": 1.0, "beta_inf": _BETA, "V": _V},
      {"lam_T": "scalar", "total": "scalar", "beta_inf": "vector", "V": "matrix"}),
    E("linear_node_scaling.contribution_limit_moments", lns.contribution_limit_moments,
      lambda: {"j": 1, "gamma": 0.5, "weights": _ZIPF, "beta_inf": _BETA, "V": _V},
      {"j": "int", "gamma": "scalar", "weights": "object", "beta_inf": "vector",
       "V": "matrix"}),
    E("linear_node_scaling.pruned_mass", lns.pruned_mass,
      lambda: {"m": 4, "rho": 0.5, "gamma": 0.5, "weights": _ZIPF},
      {"m": "int", "rho": "scalar", "gamma": "scalar", "weights": "object"}),
    E("linear_node_scaling.pruned_mass_numeric", lns.pruned_mass_numeric,
      lambda: {"m": 4, "rho": 0.5, "gamma": 0.5, "weights": _FK},
      {"m": "int", "rho": "scalar", "gamma": "scalar", "weights": "object"}),
    E("linear_node_scaling.pruning_error_moments", lns.pruning_error_moments,
      lambda: {"x": [0.5, 0.5], "lam_T": 0.4, "total": 1.0, "beta_inf": _BETA, "V": _V},
      {"x": "vector", "lam_T": "scalar", "total": "scalar", "beta_inf": "vector",
       "V": "matrix"}),
    E("linear_node_scaling.pruning_exceedance", lns.pruning_exceedance,
      lambda: {"x": [0.5, 0.5], "eps": 0.1, "lam_T": 0.4, "total": 1.0, "beta_inf": _BETA,
               "V": _V},
      {"x": "vector", "eps": "scalar", "lam_T": "scalar", "total": "scalar",
       "beta_inf": "vector", "V": "matrix"}),
    E("linear_node_scaling.pruning_bound", lns.pruning_bound,
      lambda: {"x": [0.5, 0.5], "eps": 0.1, "lam_T": 0.4, "beta_inf": _BETA},
      {"x": "vector", "eps": "scalar", "lam_T": "scalar", "beta_inf": "vector"}),
    E("linear_node_scaling.mean_field_moments", lns.mean_field_moments,
      lambda: {"X": _X, "y": _Y, "x": [0.5, 0.5], "m": 3},
      {"X": "matrix", "y": "vector", "x": "vector", "m": "int"}),
    # -- numerics.torch_flow -----------------------------------------------------------------
    E("torch_flow.resolve_device", torch_flow.resolve_device, lambda: {"device": "cpu"},
      {"device": "name"}),
    E("torch_flow.min_rtol", torch_flow.min_rtol, lambda: {"dtype": torch.float32},
      {"dtype": "object"}),
    E("torch_flow.initialise", torch_flow.initialise,
      lambda: {"shapes": {"u": (2,), "W": (2, 2)}, "batch": 1, "device": "cpu"},
      {"shapes": "object", "batch": "int", "scale": "scalar", "seed": "int",
       "device": "name", "dtype": "object"},
      lambda p: list(p.values())),
    E("torch_flow.gradient_flow", torch_flow.gradient_flow,
      lambda: {"model": _xz_model(), "params": _xz_params(), "times": [0.1],
               "measures": _measures(), "device": "cpu"},
      {"model": "object", "params": "object", "times": "times", "rtol": "scalar",
       "atol": "scalar", "measures": "object", "keep_params": "flag", "device": "name",
       "dtype": "object", "max_batch": "int", "max_steps": "int", "progress": "flag",
       "fixed_point": "flag", "threads": "int", "workers": "int"},
      _flow_numbers),
    E("torch_flow.gradient_descent", torch_flow.gradient_descent,
      lambda: {"model": _xz_model(), "params": _xz_params(), "lr": 0.01,
               "record_steps": [3], "measures": _measures(), "device": "cpu"},
      {"model": "object", "params": "object", "lr": "scalar", "record_steps": "times",
       "measures": "object", "keep_params": "flag", "device": "name", "dtype": "object",
       "max_batch": "int", "progress": "flag", "threads": "int"},
      _flow_numbers),
    # -- numerics.models ---------------------------------------------------------------------
    E("models.TwoLayerLinear", models.TwoLayerLinear,
      lambda: {"x": [1.0, 2.0], "y": 1.5, "gamma": 0.7, "eta_u": 1.0, "eta_w": 0.5},
      {"x": "vector", "y": "scalar", "gamma": "scalar", "eta_u": "scalar",
       "eta_w": "scalar"}),
    E("models.SingleNeuron", models.SingleNeuron,
      lambda: {"X": _X, "y": _Y, "eta_a": 1.0, "eta_w": 2.0},
      {"X": "matrix", "y": "vector", "eta_a": "scalar", "eta_w": "scalar"}),
    E("models.WideLinear", models.WideLinear,
      lambda: {"X": _X, "Y": [[1.0], [-0.5]], "eta_A": 1.0, "eta_W": 2.0},
      {"X": "matrix", "Y": "matrix", "eta_A": "scalar", "eta_W": "scalar"}),
    E("models.NodeScaled", models.NodeScaled,
      lambda: {"X": _X, "y": _Y, "activation": "tanh", "eta": 0.5},
      {"X": "matrix", "y": "vector", "activation": "name", "eta": "scalar"}),
    E("models.WideTwoLayer", models.WideTwoLayer,
      lambda: {"X": _X, "y": _Y, "activation": "tanh", "eta_w": 1.0, "eta_a": 0.5,
               "scale": 0.5},
      {"X": "matrix", "y": "vector", "activation": "name", "eta_w": "scalar",
       "eta_a": "scalar", "scale": "scalar"}),
    E("models.ThreeLayerReLU", models.ThreeLayerReLU,
      lambda: {"X": _X, "y": _Y, "alpha": 2.0, "bias": True},
      {"X": "matrix", "y": "vector", "alpha": "scalar", "bias": "flag"}),
    E("models.SystemModel", models.SystemModel,
      lambda: {"system": ns.SYSTEM, "setup": _NS_LINEAR}, {"system": "object",
                                                         "setup": "object"}),
    E("models.node_scaled_parameters", models.node_scaled_parameters,
      lambda: {"lam": _LAM, "d": 2, "batch": 2, "seed": 1, "device": "cpu"},
      {"lam": "vector", "d": "int", "batch": "int", "seed": "int", "device": "name",
       "dtype": "object"}),
]  # fmt: skip

_RECORD = "output record: built by the package, users do not construct it"
EXEMPT: dict[str, str] = {
    "solvable.Erratum": "claim record: built by each model module's errata() (texts and a "
    "residual callable), no user numbers",
    "solvable.Theorem": "claim record: built by each model module's claims() (texts and a "
    "verify callable), no user numbers",
    "solvable.Model": "registry record: one per model module (names and callables)",
    "solvable.Verdict": "result record: returned by the claims' checks",
    "solvable.MonteCarlo": f"{_RECORD} (returned by monte_carlo)",
    "linear_node_scaling.Setup": "the same class as node_scaling.Setup (re-exported under "
    "the name a user of this model looks for), fuzzed as node_scaling.Setup",
    "node_scaling.FirstStep": f"{_RECORD} (returned by first_step_symbolic)",
    "node_scaling.State": f"{_RECORD} (a state of a trajectory or simulation)",
    "ntg.NTGInstance": f"{_RECORD} (returned by ntg_symbolic)",
    "global_convergence.GradientFlowBounds": f"{_RECORD} (returned by theorem_5_1)",
    "global_convergence.GradientDescentBounds": f"{_RECORD} (returned by theorem_6_1)",
    "global_convergence.NtgChangeSteps": f"{_RECORD} (returned by ntg_change_steps)",
    "linear_node_scaling.LinearLimit": f"{_RECORD} (returned by limit)",
    "linear_node_scaling.ReducedSVD": f"{_RECORD} (returned by reduced_svd)",
    "linear_node_scaling.States": f"{_RECORD} (returned by Trajectory.sample)",
    "linear_node_scaling.Symbols": f"{_RECORD} (returned by symbolic)",
    "linear_node_scaling.Trajectory": f"{_RECORD} (returned by closed_form)",
    "torch_flow.FlowResult": f"{_RECORD} (returned by gradient_flow / gradient_descent)",
}
