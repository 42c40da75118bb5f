"""Fuzz entries, group b (see tests/test_fuzz_every_entry_point.py).

Modules ``three_layer``, ``kernels``, ``linearisation``, ``lazy_training`` and
``solvable.verification.testing`` (the pytest oracles: their good calls feed them the exact solution
itself, as a correct trainer would produce it).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp
from fuzz_harness import Entry

from solvable._core.activations import elementwise
from solvable._core.tolerance import Tolerance
from solvable.models import kernels, kunin, lazy_training, linearisation, three_layer
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as xz
from solvable.verification import testing

_RECORD = "output record: built by the package, users do not construct it"

# ---------------------------------------------------------------------------
# shared good values (tiny: n = 1..2 data points, width 2)
# ---------------------------------------------------------------------------
_X2 = [[1.0, 0.5], [0.2, -1.0]]
_LECTURE = kernels.lecture_initialisation(2)
_EXERCISE = kernels.exercise_initialisation()
_RELU = elementwise("relu", "numpy")
_TANH = elementwise("tanh", "numpy")
_ALPHA, _M = sp.symbols("alpha m", positive=True)


def _tl_arrays() -> dict[str, Any]:
    """Weights and data of the three-layer network (1): m = 2, d = 2, n = 2."""
    return {
        "a": np.array([0.7, -0.4]),
        "W2": np.array([[0.5, -0.2], [0.3, 0.8]]),
        "W1": np.array([[0.9, 0.1], [-0.6, 0.4]]),
        "X": np.array(_X2),
    }


def _lin_arrays() -> dict[str, Any]:
    """Weights and data of the two-layer network (2.19): p = 2, d = 2, n = 2."""
    return {
        "W": np.array([[0.6, 0.2], [-0.3, 0.9]]),
        "a": np.array([0.5, -0.7]),
        "X": np.array(_X2),
    }


# the oracles (seeds 001, 003, 000, 002) and trajectories a correct trainer would give
_XZ_SETUP = xz.Setup(eta_u=1.0, eta_w=0.5, gamma=0.7, x=[1.0, 2.0], y=1.5)
_XZ_U0, _XZ_W0 = [0.3, -0.2], [[0.1, 0.2], [-0.3, 0.1]]
_XZ_ORACLE = testing.xu_ziyin(_XZ_SETUP, _XZ_U0, _XZ_W0)
_TIMES = [0.0, 0.5]
_XZ_EXACT = _XZ_ORACLE.exact(_TIMES)
_KU_SETUP = kunin.Setup(eta_a=1.0, eta_w=2.0, X=[[1.0, 0.0], [0.0, 1.0]], y=[1.0, 0.5])
_NS_SETUP = ns.Setup(X=_X2, y=[1.0, -0.5], lam=[1.0, 0.5], eta=1.0, activation="linear")
_KERNEL_ORACLE = testing.kernel("ntk_first_layer", _LECTURE, _X2)
_XZ_SYSTEM = testing._system(_XZ_SETUP)
_XZ_TRAJ = xz.closed_form(_XZ_SETUP, _XZ_U0, _XZ_W0)
_DEFAULT_INIT = kernels.default_initialisation("kaiming")


def _check_kwargs() -> dict[str, Any]:
    return {"times": list(_TIMES), "u": _XZ_EXACT["u"].copy(), "W": _XZ_EXACT["W"].copy()}


def _gd_kwargs() -> dict[str, Any]:
    weights = _XZ_SYSTEM.initial(_XZ_SETUP, _XZ_U0, _XZ_W0)
    flow = _XZ_SYSTEM.flow(_XZ_SETUP, {b: w.shape for b, w in weights.items()})
    return {
        "flow": flow,
        "params": _XZ_SYSTEM.flow_parameters(_XZ_SETUP, float),
        "y0": [float(v) for v in flow.pack(weights)],
        "times": [0.0, 0.01],
        "lr": 0.01,
    }


def _verdict(fn: Any) -> Any:
    """``fn`` (an oracle's check), its verdict on a wrong trajectory or Gram matrix returned,
    not raised: the ``AssertionError`` with the oracle's report is what check is for."""

    def call(**kwargs: Any) -> Any:
        try:
            return fn(**kwargs)
        except AssertionError as exc:
            if str(exc).startswith(("xu_ziyin (Xu & Ziyin 2024, ", "kernel '")):
                return str(exc)
            raise

    return call


_MAY_BE_INF = ("errors", "got_f", "got_loss", "units")


def _report_numbers(report: Any) -> Any:
    """A report's numbers, with +-inf allowed where it is a value: the error in tolerances
    (inf by definition for a zero allowance, or beyond float64) and the output and loss of
    the user's (diverged) weights; NaN is still caught."""
    if isinstance(report, str):
        return []
    out = []
    for f in dataclasses.fields(report):
        value = getattr(report, f.name)
        if f.name in _MAY_BE_INF:
            values = value.values() if isinstance(value, dict) else [value]
            value = [np.where(np.isinf(v), 0.0, v) for v in values]
        out.append(value)
    return out


def _samples() -> np.ndarray:
    exact = _KERNEL_ORACLE.exact
    return np.stack([exact * 0.9, exact * 1.1, exact])


ENTRIES: list[Entry] = [
    # ---------------------------------------------------------------- three_layer
    Entry(
        "three_layer.InitScheme",
        three_layer.InitScheme,
        lambda: {"name": "s", "alpha": 1, "beta_3": _M**-1, "beta_2": 1, "beta_1": 0.5},
        {"name": "name", **{k: "scalar" for k in ("alpha", "beta_3", "beta_2", "beta_1")}},
    ),
    Entry(
        "three_layer.Setup",
        three_layer.Setup,
        lambda: {"X": _X2, "y": [1.0, -0.5], "alpha": 1.0, "bias": False},
        {"X": "matrix", "y": "vector", "alpha": "scalar", "bias": "flag"},
    ),
    Entry(
        "three_layer.condensation",
        three_layer.condensation,
        lambda: {"W": [[1.0, 0.0], [0.0, 2.0]]},
        {"W": "matrix"},
    ),
    Entry(
        "three_layer.cosine_similarity",
        three_layer.cosine_similarity,
        lambda: {"u": [1.0, 2.0], "v": [0.5, -1.0]},
        {"u": "vector", "v": "vector"},
    ),
    Entry(
        "three_layer.exponent",
        three_layer.exponent,
        lambda: {"kappa": _M**-2},
        {"kappa": "scalar"},
    ),
    *(
        Entry(
            f"three_layer.{fn.__name__}",
            fn,
            lambda: {"alpha": 1, "beta_1": _M**-1, "beta_2": 2, "beta_3": 0.5},
            {k: "scalar" for k in ("alpha", "beta_1", "beta_2", "beta_3")},
        )
        for fn in (three_layer.gamma_coordinates, three_layer.kappas, three_layer.time_factor)
    ),
    Entry(
        "three_layer.gradient_flow_residuals",
        three_layer.gradient_flow_residuals,
        lambda: {"m": 1, "d": 1, "n": 1, "bias": False},
        {"m": "int", "d": "int", "n": "int", "bias": "flag"},
    ),
    Entry(
        "three_layer.hidden",
        three_layer.hidden,
        lambda: (
            {k: v for k, v in _tl_arrays().items() if k != "a"}
            | {"relu": _RELU, "b2": None, "b1": None}
        ),
        {
            "W2": "matrix",
            "W1": "matrix",
            "X": "matrix",
            "relu": "object",
            "b2": "vector",
            "b1": "vector",
        },
    ),
    Entry(
        "three_layer.homogeneity",
        three_layer.homogeneity,
        lambda: {"expr": three_layer.sigma(2 * _ALPHA * _M)},
        {"expr": "scalar"},
    ),
    Entry(
        "three_layer.network_output",
        three_layer.network_output,
        lambda: {**_tl_arrays(), "relu": _RELU, "alpha": 2.0, "b2": None, "b1": None},
        {
            "a": "vector",
            "W2": "matrix",
            "W1": "matrix",
            "X": "matrix",
            "relu": "object",
            "alpha": "scalar",
            "b2": "vector",
            "b1": "vector",
        },
    ),
    Entry(
        "three_layer.power_law_scheme",
        three_layer.power_law_scheme,
        lambda: {"gamma_2": 0.5, "gamma_3": 1.5, "alpha_exponent": 0, "B": 1},
        {k: "scalar" for k in ("gamma_2", "gamma_3", "alpha_exponent", "B")},
    ),
    Entry(
        "three_layer.regime_from_slope",
        three_layer.regime_from_slope,
        lambda: {"slope": -0.3, "band": 0.05},
        {"slope": "scalar", "band": "scalar"},
    ),
    Entry(
        "three_layer.relative_distance",
        three_layer.relative_distance,
        lambda: {"final": [[1.0, 0.5], [0.2, 1.0]], "initial": [[1.0, 0.0], [0.0, 1.0]]},
        {"final": "matrix", "initial": "matrix"},
    ),
    Entry(
        "three_layer.relu_rescaling_residuals",
        three_layer.relu_rescaling_residuals,
        lambda: {
            "a_bar": [1.0],
            "W2_bar": [[1.0]],
            "W1_bar": [[0.5]],
            "X": [[1.0]],
            "y": [0.5],
            "alpha": 2,
            "betas": [1, 0.5, 2],
        },
        {
            "a_bar": "vector",
            "W2_bar": "matrix",
            "W1_bar": "matrix",
            "X": "matrix",
            "y": "vector",
            "alpha": "scalar",
            "betas": "vector",
        },
    ),
    Entry(
        "three_layer.rescaling_residuals",
        three_layer.rescaling_residuals,
        lambda: {
            "m": 1,
            "d": 1,
            "n": 1,
            "kappa_fn": three_layer.kappas,
            "time_fn": three_layer.time_factor,
            "homogeneous": True,
            "bias": "both",
            "appended": 1,
            "block": "a",
        },
        {
            "m": "int",
            "d": "int",
            "n": "int",
            "kappa_fn": "object",
            "time_fn": "object",
            "homogeneous": "flag",
            "bias": "name",
            "appended": "scalar",
            "block": "name",
        },
    ),
    Entry(
        "three_layer.risk",
        three_layer.risk,
        lambda: {
            **_tl_arrays(),
            "y": np.array([1.0, -0.5]),
            "relu": _RELU,
            "alpha": 2.0,
            "b2": np.array([0.1, 0.2]),
            "b1": np.array([-0.1, 0.3]),
        },
        {
            "a": "vector",
            "W2": "matrix",
            "W1": "matrix",
            "X": "matrix",
            "y": "vector",
            "relu": "object",
            "alpha": "scalar",
            "b2": "vector",
            "b1": "vector",
        },
    ),
    # ---------------------------------------------------------------- kernels
    Entry(
        "kernels.Initialisation",
        kernels.Initialisation,
        lambda: {
            "a_second_moment": 0.5,
            "w_variance": 2,
            "a_law": "gaussian",
            "label": "x",
            "d": 2,
        },
        {
            "a_second_moment": "scalar",
            "w_variance": "scalar",
            "a_law": "name",
            "label": "name",
            "d": "int",
        },
    ),
    Entry(
        "kernels.DefaultInitialisation.at",
        _DEFAULT_INIT.at,
        lambda: {"p": 2, "d": 2},
        {"p": "int", "d": "int"},
    ),
    Entry(
        "kernels.a_fourth_moment",
        kernels.a_fourth_moment,
        lambda: {"init": _EXERCISE},
        {"init": "object"},
    ),
    Entry(
        "kernels.arccos_expectation",
        kernels.arccos_expectation,
        lambda: {"order": 1, "rho": 0.5},
        {"order": "int", "rho": "scalar"},
    ),
    Entry(
        "kernels.default_initialisation",
        kernels.default_initialisation,
        lambda: {"name": "xavier"},
        {"name": "name"},
    ),
    Entry(
        "kernels.exercise_printed_ntk",
        kernels.exercise_printed_ntk,
        lambda: {"rho": 0.5},
        {"rho": "scalar"},
    ),
    Entry(
        "kernels.gram",
        kernels.gram,
        lambda: {
            "name": "ntk_first_layer",
            "init": _LECTURE,
            "X": _X2,
            "Y": [[0.3, 0.4]],
            "dps": 20,
        },
        {"name": "name", "init": "object", "X": "matrix", "Y": "matrix", "dps": "dps"},
    ),
    Entry(
        "kernels.gram_torch",
        kernels.gram_torch,
        lambda: {"name": "ntk", "init": _LECTURE, "X": _X2, "Y": [[0.3, 0.4]]},
        {"name": "name", "init": "object", "X": "matrix", "Y": "matrix"},
    ),
    Entry(
        "kernels.kernel",
        kernels.kernel,
        lambda: {"name": "ntk_first_layer", "init": _LECTURE, "n1": 1.0, "n2": 2.0, "rho": 0.5},
        {"name": "name", "init": "object", "n1": "scalar", "n2": "scalar", "rho": "scalar"},
    ),
    Entry(
        "kernels.kernel_numeric",
        kernels.kernel_numeric,
        lambda: {"name": "nngp", "init": _LECTURE, "n1": 1.0, "n2": 2.0, "rho": 0.5, "dps": None},
        {
            "name": "name",
            "init": "object",
            "n1": "scalar",
            "n2": "scalar",
            "rho": "scalar",
            "dps": "dps",
        },
    ),
    Entry(
        "kernels.kernel_of_vectors",
        kernels.kernel_of_vectors,
        lambda: {"name": "rf", "init": _LECTURE, "x": [1, 2], "xp": [Fraction(1, 2), -1]},
        {"name": "name", "init": "object", "x": "vector", "xp": "vector"},
    ),
    Entry(
        "kernels.kernel_theta",
        kernels.kernel_theta,
        lambda: {"name": "ntk", "init": _EXERCISE, "n1": 1.0, "n2": 2.0, "theta": 1.0},
        {"name": "name", "init": "object", "n1": "scalar", "n2": "scalar", "theta": "scalar"},
    ),
    Entry(
        "kernels.kernel_torch",
        kernels.kernel_torch,
        lambda: {"name": "ntk_first_layer", "init": _LECTURE, "n1": 1.0, "n2": 2.0, "rho": 0.5},
        {"name": "name", "init": "object", "n1": "scalar", "n2": "scalar", "rho": "scalar"},
    ),
    Entry(
        "kernels.lecture_initialisation",
        kernels.lecture_initialisation,
        lambda: {"d": 2},
        {"d": "int"},
    ),
    Entry(
        "kernels.output_cumulant",
        kernels.output_cumulant,
        lambda: {"order": 2, "init": _EXERCISE, "p": 4, "simplify": False},
        {"order": "int", "init": "object", "p": "scalar", "simplify": "flag"},
    ),
    Entry(
        "kernels.output_excess_kurtosis",
        kernels.output_excess_kurtosis,
        lambda: {"init": _EXERCISE, "p": 4, "c1": 1, "c2": 0},
        {"init": "object", "p": "scalar", "c1": "scalar", "c2": "scalar"},
    ),
    Entry(
        "kernels.relu_moment",
        kernels.relu_moment,
        lambda: {"k": 1, "m": 1, "simplify": False},
        {"k": "int", "m": "int", "simplify": "flag"},
    ),
    Entry(
        "kernels.table_1_covariance",
        kernels.table_1_covariance,
        lambda: {"name": "kaiming", "pair": "orthogonal_axes"},
        {"name": "name", "pair": "name"},
    ),
    Entry(
        "kernels.uniform_variance",
        kernels.uniform_variance,
        lambda: {"bound": 0.5},
        {"bound": "scalar"},
    ),
    # ---------------------------------------------------------------- linearisation
    Entry(
        "linearisation.Setup",
        linearisation.Setup,
        lambda: {
            "X": _X2,
            "y": [1.0, -0.5],
            "activation": "tanh",
            "eta_w": 1.0,
            "eta_a": 0.5,
            "scale": 0.7,
        },
        {
            "X": "matrix",
            "y": "vector",
            "activation": "name",
            "eta_w": "scalar",
            "eta_a": "scalar",
            "scale": "scalar",
        },
    ),
    *(
        Entry(f"linearisation.{fn.__name__}", fn, lambda: {"name": "tanh"}, {"name": "name"})
        for fn in (
            linearisation.activation,
            linearisation.block_opnorm,
            linearisation.second_derivative,
            linearisation.second_derivative_sup,
        )
    ),
    Entry(
        "linearisation.composed_hessian_terms",
        linearisation.composed_hessian_terms,
        lambda: {"phi": "tanh"},
        {"phi": "name"},
    ),
    Entry(
        "linearisation.composed_output",
        linearisation.composed_output,
        lambda: {**_lin_arrays(), "sigma": _TANH, "scale": 0.7, "phi": _TANH},
        {
            "W": "matrix",
            "a": "vector",
            "X": "matrix",
            "sigma": "object",
            "scale": "scalar",
            "phi": "object",
        },
    ),
    Entry(
        "linearisation.gradient_norm_sq",
        linearisation.gradient_norm_sq,
        lambda: {"mean": True},
        {"mean": "flag"},
    ),
    Entry(
        "linearisation.gronwall_bound",
        linearisation.gronwall_bound,
        lambda: {"sharp": True},
        {"sharp": "flag"},
    ),
    Entry(
        "linearisation.hessian_opnorm_formula",
        linearisation.hessian_opnorm_formula,
        lambda: {
            "a": np.array([[0.5, -0.7]]),
            "W": np.array([[[0.6, 0.2], [-0.3, 0.9]]]),
            "x": np.array([1.0, 0.5]),
            "activation": "tanh",
        },
        {"a": "matrix", "W": "matrix", "x": "vector", "activation": "name"},
    ),
    Entry(
        "linearisation.network_output",
        linearisation.network_output,
        lambda: {**_lin_arrays(), "sigma": _TANH, "scale": 0.7},
        {"W": "matrix", "a": "vector", "X": "matrix", "sigma": "object", "scale": "scalar"},
    ),
    Entry(
        "linearisation.relaxation_envelope",
        linearisation.relaxation_envelope,
        lambda: {"lam": 0.5, "t": [0.0, 1.0], "n": 2, "printed": False, "du": True},
        {"lam": "scalar", "t": "times", "n": "int", "printed": "flag", "du": "flag"},
    ),
    Entry(
        "linearisation.relaxation_exponent",
        linearisation.relaxation_exponent,
        lambda: {"printed": False, "du": True},
        {"printed": "flag", "du": "flag"},
    ),
    Entry(
        "linearisation.risk",
        linearisation.risk,
        lambda: {
            **_lin_arrays(),
            "y": np.array([1.0, -0.5]),
            "sigma": _TANH,
            "scale": 0.7,
            "phi": _TANH,
        },
        {
            "W": "matrix",
            "a": "vector",
            "X": "matrix",
            "y": "vector",
            "sigma": "object",
            "scale": "scalar",
            "phi": "object",
        },
    ),
    # ---------------------------------------------------------------- lazy_training
    Entry(
        "lazy_training.WidthScalings",
        lazy_training.WidthScalings,
        lambda: {"residual": sp.Integer(1), "hessian_opnorm": _M, "grad_norm_sq": _M**2},
        {"residual": "scalar", "hessian_opnorm": "scalar", "grad_norm_sq": "scalar"},
    ),
    *(
        Entry(f"lazy_training.{fn.__name__}", fn, lambda: {"a": Fraction(-1, 2)}, {"a": "scalar"})
        for fn in (
            lazy_training.is_lazy,
            lazy_training.kappa_leading_term,
            lazy_training.lazy_criterion_exponent,
        )
    ),
    Entry(
        "lazy_training.lazy_criterion",
        lazy_training.lazy_criterion,
        lambda: {"residual": 0.5, "hessian_opnorm": 2, "grad_norm_sq": 0.25},
        {"residual": "scalar", "hessian_opnorm": "scalar", "grad_norm_sq": "scalar"},
    ),
    *(
        Entry(f"lazy_training.{fn.__name__}", fn, lambda: {"alpha": 0.5}, {"alpha": "scalar"})
        for fn in (lazy_training.printed_kappa, lazy_training.two_layer_lazy_criterion)
    ),
    Entry(
        "lazy_training.sampled_kappa_slopes",
        lazy_training.sampled_kappa_slopes,
        lambda: {"exponents": (Fraction(0),), "draws": 1, "seed": 3},
        {"exponents": "vector", "draws": "int", "seed": "int"},
    ),
    Entry(
        "lazy_training.two_layer_scalings",
        lazy_training.two_layer_scalings,
        lambda: {"alpha": 0.5, "printed": True},
        {"alpha": "scalar", "printed": "flag"},
    ),
    # ---------------------------------------------------------------- testing
    *(
        Entry(f"testing.{name}", fn, good, {"setup": "object", out: "vector", inp: "matrix"})
        for name, fn, good, out, inp in (
            (
                "xu_ziyin",
                testing.xu_ziyin,
                lambda: {"setup": _XZ_SETUP, "u0": _XZ_U0, "W0": _XZ_W0},
                "u0",
                "W0",
            ),
            (
                "kunin",
                testing.kunin,
                lambda: {"setup": _KU_SETUP, "a0": 0.5, "w0": [0.2, -0.1]},
                "a0",
                "w0",
            ),
            (
                "linear_node_scaling",
                testing.linear_node_scaling,
                lambda: {"setup": _NS_SETUP, "a0": [1.0, -1.0], "W0": [[0.3, -0.2], [0.1, 0.4]]},
                "a0",
                "W0",
            ),
        )
    ),
    *(
        Entry(
            f"testing.TrajectoryOracle.{method}",
            call,
            lambda: {**_check_kwargs(), "lr": None, "rtol": 1e-6, "atol": 1e-9},
            {
                "times": "times",
                "u": "matrix",
                "W": "matrix",
                "lr": "scalar",
                "rtol": "scalar",
                "atol": "scalar",
            },
            _report_numbers,
        )
        for method, call in (("check", _verdict(_XZ_ORACLE.check)), ("compare", _XZ_ORACLE.compare))
    ),
    Entry(
        "testing.TrajectoryOracle.exact",
        _XZ_ORACLE.exact,
        lambda: {"times": [0.0, 0.5], "dps": None},
        {"times": "times", "dps": "dps"},
    ),
    Entry(
        "testing.assert_matches_closed_form",
        _verdict(testing.assert_matches_closed_form),
        lambda: {
            "setup": _XZ_SETUP,
            "u0": _XZ_U0,
            "W0": _XZ_W0,
            "times": list(_TIMES),
            "us": _XZ_EXACT["u"].copy(),
            "Ws": _XZ_EXACT["W"].copy(),
            "rtol": 1e-6,
            "atol": 0.0,
            "lr": None,
        },
        {
            "setup": "object",
            "u0": "vector",
            "W0": "matrix",
            "times": "times",
            "us": "matrix",
            "Ws": "matrix",
            "rtol": "scalar",
            "atol": "scalar",
            "lr": "scalar",
        },
        _report_numbers,
    ),
    Entry(
        "testing.edge_case",
        testing.edge_case,
        lambda: {"case_id": "kunin:balanced"},
        {"case_id": "name"},
    ),
    Entry(
        "testing.edge_cases",
        testing.edge_cases,
        lambda: {"model": "kunin"},
        {"model": "name"},
    ),
    Entry(
        "testing.gd_allowance",
        testing.gd_allowance,
        _gd_kwargs,
        {
            "flow": "object",
            "params": "vector",
            "y0": "vector",
            "times": "times",
            "lr": "scalar",
        },
    ),
    Entry(
        "testing.kernel",
        testing.kernel,
        lambda: {"name": "ntk_first_layer", "init": _LECTURE, "X": _X2, "Y": [[0.3, 0.4]]},
        {"name": "name", "init": "object", "X": "matrix", "Y": "matrix"},
    ),
    Entry(
        "testing.KernelOracle",
        testing.KernelOracle,
        lambda: {"name": "nngp", "init": _LECTURE, "X": _X2, "Y": None},
        {"name": "name", "init": "object", "X": "matrix", "Y": "matrix"},
    ),
    *(
        Entry(
            f"testing.KernelOracle.{method}",
            _verdict(getattr(_KERNEL_ORACLE, method)),
            lambda: {"K": _KERNEL_ORACLE.exact.copy(), "rtol": 1e-10, "atol": 0.0},
            {"K": "matrix", "rtol": "scalar", "atol": "scalar"},
            _report_numbers,
        )
        for method in ("check", "compare")
    ),
    *(
        Entry(
            f"testing.KernelOracle.{method}",
            _verdict(getattr(_KERNEL_ORACLE, method)),
            lambda: {"samples": _samples(), "confidence": 0.99},
            {"samples": "matrix", "confidence": "scalar"},
            _report_numbers,
        )
        for method in ("check_samples", "compare_samples")
    ),
    Entry(
        "testing.state_errors",
        testing.state_errors,
        lambda: {
            "got": _XZ_TRAJ.at(0.5),
            "ref": _XZ_TRAJ.at(0.5),
            "y": 1.5,
            "tol": Tolerance(1e-6),
            "f_floor": 0.1,
        },
        {"got": "object", "ref": "object", "y": "scalar", "tol": "object", "f_floor": "scalar"},
    ),
]

EXEMPT: dict[str, str] = {
    "three_layer.State": _RECORD,
    "three_layer.sigma": "sympy function class (undefined sigma of eq. (5)); sympy checks args",
    "three_layer.sigma_prime": "sympy function class (sigma' of eq. (5)); sympy checks args",
    "kernels.DefaultInitialisation": _RECORD + " (default_initialisation's Table 1 row)",
    "linearisation.State": _RECORD,
    "testing.EdgeCase": _RECORD + " (edge_case's named initial condition)",
    "testing.Report": _RECORD + " (TrajectoryOracle.compare's result)",
    "testing.TrajectoryOracle": "base class: built by testing.xu_ziyin / kunin / "
    "linear_node_scaling (fuzzed), its methods fuzzed through an instance",
    "testing.OracleWarning": "a warning category (UserWarning subclass)",
}
