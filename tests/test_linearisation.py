"""Tests for solvable.linearisation and numerics.lazy_width (seed 002, Sections 2.2-2.3).

The registry runs every claim once (tests/test_registry.py); here the functions are tested:
the closed-form Hessian (2.13)-(2.17) against autograd, Lanczos against the dense Hessian,
the linearisation error along gradient flow, the Theorem 1 ratios, and validation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given
from hypothesis import strategies as st

from numerics import lazy_width as lw
from numerics.models import WideTwoLayer
from solvable import linearisation as lin
from solvable import theorems
from solvable._core.activations import evaluator
from solvable.confirmations import linearisation as confirm_lin

# float64 eigvalsh / ARPACK on matrices of size N = p d <= 256: errors ~ N eps ~ 6e-14;
# 1e-11 leaves two orders of margin
RTOL = 1e-11


def _net(p: int, d: int, batch: int = 2, seed: int = 0, activation: str = "tanh"):
    x = lw.sphere(1, d, seed=seed + 100)[0]
    model = WideTwoLayer(X=x[None], y=[0.0], activation=activation, eta_a=0.0)
    return model, lw.initial_parameters(p, d, batch, seed=seed), x


# ---------------------------------------------------------------------------
# claims and errata records
# ---------------------------------------------------------------------------
def test_claim_ids_sources_and_kinds():
    cl = theorems.select("linearisation.*")
    assert len({c.id for c in cl}) == len(cl)
    assert all(c.id.startswith("linearisation.") and c.source.startswith(lin.SEED) for c in cl)
    assert {c.kind for c in cl} == {"symbolic", "numeric"}


@pytest.mark.parametrize("erratum", lin.errata(), ids=[e.equation for e in lin.errata()])
def test_erratum_printed_false_corrected_true(erratum):
    _, corrected = erratum.residuals()
    assert corrected == 0
    assert erratum.check()
    assert erratum.source == lin.SEED


def test_errata_do_not_duplicate_lazy_training():
    from solvable import lazy_training

    theirs = {e.equation for e in lazy_training.errata()}
    assert not theirs & {e.equation for e in lin.errata()}


# ---------------------------------------------------------------------------
# formulas
# ---------------------------------------------------------------------------
def test_tanh_second_derivative_sup_numerically():
    z = np.linspace(-6, 6, 200_001)
    s2 = sp.lambdify(lin.Z, lin.second_derivative("tanh"), "numpy")(z)
    M = float(lin.second_derivative_sup("tanh"))
    assert np.max(np.abs(s2)) <= M
    assert np.max(np.abs(s2)) == pytest.approx(M, rel=1e-9)  # grid step 6e-5 near the peak


def test_second_derivative_sup_linear_and_unsupported():
    assert lin.second_derivative_sup("linear") == 0
    with pytest.raises(ValueError, match="swish"):
        lin.second_derivative_sup("swish")


@pytest.mark.parametrize("bad", ["relu", "sigmoid"])
def test_activation_must_be_twice_differentiable(bad):
    with pytest.raises(ValueError, match="twice differentiable"):
        lin.activation(bad)
    with pytest.raises(TypeError, match="activation"):
        lin.activation(3)


def test_relaxation_exponents():
    assert lin.relaxation_exponent() == -lin.LAM * lin.T / lin.N
    assert lin.relaxation_exponent(du=True) == -lin.LAM * lin.T / (2 * lin.N)
    assert lin.relaxation_exponent(printed=True) == -lin.LAM * lin.T
    with pytest.raises(ValueError, match="not both"):
        lin.relaxation_exponent(printed=True, du=True)
    env = lin.relaxation_envelope([0.5, 1.0], 2.0, 4)
    np.testing.assert_allclose(env, np.exp(-np.array([0.5, 1.0]) * 2 / 4), rtol=1e-15)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"lam": 1.0, "t": 1.0, "n": 0}, "n must"),
        ({"lam": -1.0, "t": 1.0, "n": 2}, "lam must"),
        ({"lam": 1.0, "t": -1.0, "n": 2}, "t must"),
        ({"lam": 1.0, "t": 1.0, "n": True}, "n must"),
    ],
)
def test_relaxation_envelope_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        lin.relaxation_envelope(**kwargs)


def test_formula_numpy_and_torch_agree_and_validate():
    _, params, x = _net(8, 3)
    a, W = params["a"], params["W"]
    t = lin.hessian_opnorm_formula(a, W, x)
    n = lin.hessian_opnorm_formula(a.numpy(), W.numpy(), x)
    np.testing.assert_allclose(t.numpy(), n, rtol=1e-15)
    with pytest.raises(ValueError, match="need a"):
        lin.hessian_opnorm_formula(a, W, np.ones(4))
    with pytest.raises(ValueError, match="finite"):
        lin.hessian_opnorm_formula(a.numpy(), W.numpy(), np.array([np.nan, 0, 0]))
    with pytest.raises(ValueError, match="twice"):
        lin.hessian_opnorm_formula(a, W, x, activation="relu")


def test_formula_below_bound_2_18():
    # |a| <= 1 and |tanh''| <= M: ||H|| <= M |x|^2 / sqrt(p) for every W, even large ones
    _, params, x = _net(64, 3, batch=4)
    W = params["W"] * 10
    bound = sp.lambdify(
        sorted(lin.hessian_opnorm_bound().free_symbols, key=lambda s: s.name),
        lin.hessian_opnorm_bound(),
    )(float(lin.second_derivative_sup("tanh")), 1.0, 64.0, float(x @ x))
    assert np.all(lin.hessian_opnorm_formula(params["a"], W, x).numpy() <= bound)


# ---------------------------------------------------------------------------
# Hessian: closed form vs autograd
# ---------------------------------------------------------------------------
@given(
    p=st.integers(1, 6),
    d=st.integers(1, 4),
    seed=st.integers(0, 10_000),
    activation=st.sampled_from(["tanh", "swish", "linear"]),
    scale=st.floats(0.1, 3.0),
)
def test_hessian_is_block_diagonal_rank_one(p, d, seed, activation, scale):
    # (2.13)-(2.15): H = blockdiag((1/sqrt p) a_j sigma''(<w_j, x>) x x^T), autograd vs the
    # generated sigma'' (entries compared to a few roundings of the largest entry)
    model, params, x = _net(p, d, batch=1, seed=seed, activation=activation)
    params = {"W": params["W"] * scale, "a": params["a"]}
    H = lw.hessian_dense(model, params, x)[0].numpy()
    s2 = evaluator(activation, "numpy", 2)  # the package's sigma'' (cancellation-free form)
    z = params["W"][0].numpy() @ x
    expected = np.zeros((p * d, p * d))
    for j in range(p):
        c = params["a"][0, j].item() * s2(z[j]) / math.sqrt(p)
        expected[j * d : (j + 1) * d, j * d : (j + 1) * d] = c * np.outer(x, x)
    scale_H = max(np.abs(expected).max(), 1.0)
    assert np.abs(H - expected).max() <= 1e-13 * scale_H
    opn = lw.hessian_opnorm_closed_form(model, params, x)[0]
    assert opn == pytest.approx(np.abs(np.linalg.eigvalsh(expected)).max(), rel=RTOL, abs=1e-300)


@pytest.mark.parametrize("p", [3, 8, 32])
def test_lanczos_dense_and_formula_agree(p):
    model, params, x = _net(p, 4, batch=2, seed=p)
    dense = lw.hessian_opnorm_dense(model, params, x)
    lanc = lw.hessian_opnorm_lanczos(model, params, x)
    form = lw.hessian_opnorm_closed_form(model, params, x)
    np.testing.assert_allclose(dense, form, rtol=RTOL)
    np.testing.assert_allclose(lanc, dense, rtol=RTOL)


def test_lanczos_tiny_dimension_uses_dense_path():
    model, params, x = _net(1, 2, batch=1)  # N = 2 < k + 1
    np.testing.assert_allclose(
        lw.hessian_opnorm_lanczos(model, params, x),
        lw.hessian_opnorm_closed_form(model, params, x),
        rtol=RTOL,
    )


def test_hessian_validation():
    model, params, x = _net(4, 3)
    with pytest.raises(TypeError, match="WideTwoLayer"):
        lw.hessian_dense(object(), params, x)
    with pytest.raises(ValueError, match="blocks"):
        lw.hessian_dense(model, {"W": params["W"]}, x)
    with pytest.raises(ValueError, match="x must"):
        lw.hessian_opnorm_lanczos(model, params, np.ones(5))
    with pytest.raises(ValueError, match="tol"):
        lw.hessian_opnorm_lanczos(model, params, x, tol=-1.0)
    big = lw.initial_parameters(2000, 3, 1)
    with pytest.raises(ValueError, match="p d must be"):
        lw.hessian_dense(model, big, x)
    scaled = WideTwoLayer(X=x[None], y=[0.0], eta_a=0.0, scale=0.5)
    with pytest.raises(ValueError, match="1/sqrt"):
        lw.hessian_opnorm_closed_form(scaled, params, x)


def test_initialisation_and_sphere():
    p = lw.initial_parameters(4000, 5, 2, seed=3)
    assert p["W"].dtype == torch.float64
    assert float(p["W"].var()) == pytest.approx(1 / 5, rel=0.05)  # 40000 draws: sd 0.7%
    assert float(p["a"].abs().max()) <= 1 and float(p["a"].min()) < 0
    assert float(lw.initial_parameters(10, 2, 1, a_init="positive")["a"].min()) >= 0
    X = lw.sphere(7, 3)
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), math.sqrt(3), rtol=1e-15)
    with pytest.raises(ValueError, match="a_init"):
        lw.initial_parameters(2, 2, 1, a_init="gaussian")
    with pytest.raises(ValueError, match="radius"):
        lw.sphere(2, 2, radius=-1.0)
    with pytest.raises(ValueError, match="n must"):
        lw.sphere(0, 2)


# ---------------------------------------------------------------------------
# linearisation error and Theorem 1 along gradient flow
# ---------------------------------------------------------------------------
def _run(p: int, seeds: int = 2, eta_a: float = 1.0, horizon: float = 5.0):
    X = lw.sphere(4, 8, seed=1)
    y = np.random.default_rng(2).standard_normal(4)
    model = WideTwoLayer(X=X, y=y, eta_a=eta_a)
    params = lw.initial_parameters(p, 8, seeds, seed=p)
    return lw.linearisation_run(model, params, np.linspace(0, horizon, 6), lw.sphere(8, 8, seed=3))


@pytest.mark.parametrize("eta_a", [1.0, 0.0])
def test_linearisation_error_zero_at_start_and_small_when_wide(eta_a):
    narrow, wide = _run(16, eta_a=eta_a), _run(256, eta_a=eta_a)
    assert np.all(narrow.E[0] == 0) and np.all(wide.E[0] == 0)  # f_lin(theta0) = f(theta0)
    assert np.all(narrow.E[1:] > 0)
    # O(1/sqrt p) at least: 16x the width, at least 2x smaller (observed ~16x, slope -1)
    assert wide.E.max(0).mean() < narrow.E.max(0).mean() / 2
    assert wide.E.max() < 0.05


def test_theorem_1_ratios_wide_network():
    run = _run(512, horizon=10.0)
    lazy, du, printed = (run.ratios(k) for k in ("lazy", "du", "printed"))
    np.testing.assert_array_equal(lazy[0], 1.0)
    assert np.all(du <= lazy + 1e-15)  # the Theorem 1 envelope decays slower
    assert du.max() <= 1 + 1e-6
    assert printed.max() > 1  # n = 4: the printed e^(-lambda_0 t) is violated
    with pytest.raises(ValueError, match="envelope"):
        run.ratios("other")


def test_fixed_a_does_not_move_a():
    from numerics.torch_flow import gradient_flow

    X = lw.sphere(4, 8, seed=1)
    model = WideTwoLayer(X=X, y=np.ones(4), eta_a=0.0)
    p0 = lw.initial_parameters(32, 8, 1)
    with lw._one_thread():  # small problem: one torch thread (shared 2-core machine)
        res = gradient_flow(model, p0, [0.0, 3.0])
    assert torch.equal(res.params["a"][-1], p0["a"])


def test_linearisation_validation():
    X = lw.sphere(4, 8, seed=1)
    model = WideTwoLayer(X=X, y=np.ones(4))
    params = lw.initial_parameters(8, 8, 2)
    with pytest.raises(ValueError, match="probe"):
        lw.linearisation_run(model, params, [0.0, 1.0], np.ones((3, 5)))
    with pytest.raises(TypeError, match="WideTwoLayer"):
        lw.linearisation_run(object(), params, [0.0, 1.0], np.ones((3, 8)))
    with pytest.raises(ValueError, match="widths"):
        lw.linearisation_sweep([64, 32])
    with pytest.raises(ValueError, match="horizon"):
        lw.linearisation_sweep([8, 16], horizon=-1.0)
    with pytest.raises(ValueError, match="seeds"):
        lw.linearisation_sweep([8, 16], seeds=1)
    with pytest.raises(ValueError, match="widths"):
        lw.hessian_sweep([64])


# ---------------------------------------------------------------------------
# slope verdicts (synthetic data: the decision logic) and small real sweeps
# ---------------------------------------------------------------------------
def _fake_hessian_sweep(exponent: float) -> lw.HessianSweep:
    from numerics.sweeps import fit_exponent

    widths = (64, 256, 1024)
    rng = np.random.default_rng(0)
    values = np.array(
        [[2.9 * w**exponent * (1 + 0.01 * rng.standard_normal()) for _ in range(4)] for w in widths]
    )
    bound = 3.08 / np.sqrt(widths)
    return lw.HessianSweep(widths, values, bound, 1e-15, fit_exponent(widths, list(values)))


def test_hessian_verdict_accepts_half_and_rejects_quarter():
    assert confirm_lin._hessian_verdict(_fake_hessian_sweep(-0.5)).status == "confirmed"
    assert confirm_lin._hessian_verdict(_fake_hessian_sweep(-0.25)).status == "failed"


def test_hessian_sweep_small():
    sweep = lw.hessian_sweep((16, 64, 256), seeds=3)
    assert np.all(sweep.values <= sweep.bound[:, None])
    assert sweep.formula_error < 1e-12
    assert abs(sweep.fit.exponent + 0.5) < 0.1


def test_error_sweep_small_slope():
    sweep = lw.linearisation_sweep((16, 64), seeds=2, n=4, d=8, horizon=5.0, n_times=6)
    assert sweep.sup_E.shape == (2, 2)
    assert sweep.fit.exponent < -0.5
    assert confirm_lin._error_verdict(sweep).status == "confirmed"


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "hessian_opnorm_autograd",
        "hessian_opnorm_width_scaling",
        "linearisation_error_width_scaling",
        "theorem_1_monitored",
    ],
)
def test_numeric_claims_full(name):
    claim = next(c for c in theorems.select("linearisation.*") if c.id == f"linearisation.{name}")
    verdict = claim.verify(full=True)
    assert verdict.status == "confirmed", verdict.detail
