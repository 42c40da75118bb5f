"""Seed 000 Section 7 by gradient descent (Theorems 7.9, 7.10, the mean-field bullet of 7.5)
and Theorem 6.1 monitored along GD: the symbolic claims, the generated first-step evaluators,
and for every simulation-backed claim a broken measurement that makes it fail."""

from __future__ import annotations

import copy
import itertools
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import node_scaling_gd as gd
from numerics import node_scaling_linear as nsl
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.verification import theorems
from solvable.verification.confirmations import global_convergence as gcc
from solvable.verification.confirmations import node_scaling as nsc

NEW_SYMBOLIC = ["node_scaling.theorem_7_9_first_step", "node_scaling.theorem_7_10_gradient_norm",
                "linear_node_scaling.mean_field_bullet",
                "global_convergence.gd_weight_bound_from_rate"]  # fmt: skip


@pytest.mark.parametrize("cid", NEW_SYMBOLIC)
def test_new_symbolic_claims_proved(cid):
    (claim,) = [t for t in theorems.registry() if t.id == cid]
    verdict = claim.verify()
    assert verdict.status == "proved", verdict.detail
    assert verdict.residuals and all(r == 0 for r in verdict.residuals)


def test_zeroed_model_vanishes_at_initialisation():
    rng = np.random.default_rng(0)
    X, W0 = rng.normal(size=(3, 2)), rng.normal(size=(4, 2))
    a, s = np.array([1.0, -1, 1, -1]), np.full(4, 0.5)
    sig = np.tanh
    assert np.all(ns.zeroed_output(W0, W0, a, s, X, sig, math.sqrt(2)) == 0)
    y = rng.normal(size=3)
    assert ns.zeroed_loss(W0, W0, a, s, X, y, sig, math.sqrt(2)) == pytest.approx(y @ y / 2)


def _data(seed=0, n=3, d=2, m=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    return X, rng.uniform(-1, 1, size=n), rng.normal(size=(m, d)), rng.uniform(0.01, 1, size=m)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.floats(0.01, 3.0), st.floats(0.1, 10.0))
def test_first_step_numeric_properties(seed, eta, c):
    # (24) scales as eta^2 and lambda, is even in y; ||grad||^2 is >= 0, linear in lambda and
    # free of eta; the target expectations scale with the variance
    X, y, W0, lam = _data(seed)
    base = ns.first_step_numeric(X, y, W0, lam, eta)
    assert np.all(base["dz_sq"] >= 0) and np.all(base["grad_norm_sq"] >= 0)
    scaled = ns.first_step_numeric(X, y, W0, c * lam, math.sqrt(c) * eta)
    np.testing.assert_allclose(scaled["dz_sq"], c**2 * base["dz_sq"], rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(scaled["grad_norm_sq"], c * base["grad_norm_sq"], rtol=1e-12)
    flipped = ns.first_step_numeric(X, -y, W0, lam, eta)
    np.testing.assert_allclose(flipped["dz_sq"], base["dz_sq"], rtol=1e-12, atol=1e-300)
    var = ns.first_step_numeric(X, y, W0, lam, eta, var_y=c)
    np.testing.assert_allclose(var["grad_norm_sq_mean"], c * base["grad_norm_sq_mean"],
                               rtol=1e-12)  # fmt: skip


@pytest.mark.parametrize("seed", [0, 5])
def test_first_step_expectations_are_the_mean_over_symmetric_targets(seed):
    # E_y over independent zero-mean targets of variance v (Assumption 7.8): for a quadratic
    # form in y it is exactly the average over the 2^n sign patterns y in {-sqrt(v), sqrt(v)}^n
    # (E y_i = 0, E y_i^2 = v, E y_i y_k = 0): the cross terms y_i y_k must drop out
    X, _, W0, lam = _data(seed)
    n, v = X.shape[0], 0.37
    signs = np.array(list(itertools.product((-1.0, 1.0), repeat=n)))
    out = ns.first_step_numeric(X, math.sqrt(v) * signs, W0, lam, 0.8, var_y=v)
    np.testing.assert_allclose(out["dz_sq"].mean(0), out["dz_sq_mean"][0], rtol=1e-12)
    np.testing.assert_allclose(out["grad_norm_sq"].mean(0), out["grad_norm_sq_mean"][0],
                               rtol=1e-12)  # fmt: skip


def test_first_step_numeric_matches_autograd_of_the_zeroed_loss():
    X, y, W0, lam = _data(3)
    Wt = torch.tensor(W0, requires_grad=True)
    a = torch.tensor([1.0, -1, -1, 1], dtype=torch.float64)
    L = ns.zeroed_loss(Wt, torch.tensor(W0), a, torch.tensor(np.sqrt(lam)), torch.tensor(X),
                       torch.tensor(y), torch.tanh, math.sqrt(2))  # fmt: skip
    (g,) = torch.autograd.grad(L, Wt)
    ref = ns.first_step_numeric(X, y, W0, lam, 0.7)
    np.testing.assert_allclose((g**2).sum(-1).numpy(), ref["grad_norm_sq"], rtol=1e-12)
    dz = (-0.7 * g.numpy()) @ X.T / math.sqrt(2)  # (m, n): Z_j(x_i; W_1) - Z_j(x_i; W_0)
    np.testing.assert_allclose(dz.T**2, ref["dz_sq"], rtol=1e-11)


@pytest.mark.parametrize("bad", [
    {"eta": 0.0}, {"eta": -1.0}, {"lam": -np.ones(4)}, {"y": np.zeros(5)},
    {"W0": np.zeros((4, 3))}, {"X": np.full((3, 2), np.nan)}, {"var_y": 0.0},
])  # fmt: skip
def test_first_step_numeric_rejects_bad_input(bad):
    X, y, W0, lam = _data()
    kw = {"X": X, "y": y, "W0": W0, "lam": lam, "eta": 1.0, **bad}
    with pytest.raises((ValueError, TypeError)):
        ns.first_step_numeric(**kw)


def test_first_step_numeric_rejects_unknown_activation():
    X, y, W0, lam = _data()
    with pytest.raises(ValueError, match="activation"):
        ns.first_step_numeric(X, y, W0, lam, 1.0, "softsign")


def test_node_scaled_gd_gradient_matches_autograd():
    X, y, _, _ = _data(1)
    for act in ("tanh", "linear", "swish"):
        model = gd.NodeScaledGD(X, y, activation=act)
        gen = torch.Generator().manual_seed(0)
        p = {"W": torch.randn((2, 5, 2), generator=gen, dtype=torch.float64),
             "a": torch.tensor([[1.0, -1, 1, -1, 1]] * 2, dtype=torch.float64),
             "s": torch.rand((2, 5), generator=gen, dtype=torch.float64)}  # fmt: skip
        W = p["W"].clone().requires_grad_(True)
        (g,) = torch.autograd.grad(model.loss({**p, "W": W}).sum(), W)
        torch.testing.assert_close(model.gradient(p)["W"], g, rtol=1e-12, atol=1e-14)


# ---------------------------------------------------------------------------
# simulation-backed claims: small runs, and broken measurements that must fail
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def runs():
    return gd.first_step_runs(widths=(10, 100, 1000), seeds=(0, 1, 2, 3))


@pytest.fixture(scope="module")
def samples():
    return gd.first_step_target_samples(samples=1000)


def test_first_step_runs_pass(runs, samples):
    fe = nsc.first_step_errors(runs)
    assert max(fe.values()) <= 1, fe
    assert max(v[3] for v in nsc.slope_errors(runs).values()) <= 1
    assert nsc.target_mc_errors(samples)["error"] <= 1


def _scaled(runs, key, factor, gamma=None):
    bad = copy.deepcopy(runs)
    for c in bad["cases"]:
        if gamma is None or c["gamma"] == gamma:
            c[key] = (np.array(c[key]) * factor(c["width"])).tolist()
    return bad


def test_broken_dz_fails_eq24_and_bound25(runs):
    assert nsc.first_step_errors(_scaled(runs, "dz_sq", lambda m: 1 + 1e-9))["eq24"] > 1
    assert nsc.first_step_errors(_scaled(runs, "dz_sq", lambda m: 0.5))["bound25"] > 1


def test_broken_gradient_fails_eq27_and_bound27(runs):
    assert nsc.first_step_errors(_scaled(runs, "grad_norm_sq", lambda m: 1 + 1e-9))["eq27"] > 1
    assert nsc.first_step_errors(_scaled(runs, "grad_norm_sq", lambda m: 0.5))["bound27"] > 1


def test_decaying_ratio_fails_theorem_7_9(runs):
    # a max-ratio (18) that decays like 1/m at gamma < 1 (no feature learning) must fail
    bad = _scaled(runs, "max_ratio", lambda m: 1 / m, gamma=0.5)
    assert nsc.slope_errors(bad)[(0.5, "max")][3] > 1


def test_shifted_targets_mean_fails(samples):
    bad = dict(samples, dz_sq=samples["dz_sq"] * 1.2)
    assert nsc.target_mc_errors(bad)["error"] > 1
    bad = dict(samples, grad_norm_sq=samples["grad_norm_sq"] * 1.2)
    assert nsc.target_mc_errors(bad)["error"] > 1


@pytest.fixture(scope="module")
def mean_field():
    return gd.mean_field_linear(widths=(10, 100), samples=200)


def test_mean_field_pass_and_broken(mean_field):
    ok = nsc.mean_field_errors(mean_field)["cases"]
    assert max(max(e["W"], e["ratio"], e["mc"]) for e in ok) <= 1
    for key, factor in (("W_end", 1 + 1e-6), ("max_ratio", 1.5), ("den", 1.2)):
        bad = copy.deepcopy(mean_field)
        for c in bad["cases"]:
            c[key] = c[key] * factor
        errs = nsc.mean_field_errors(bad)["cases"]
        assert max(max(e["W"], e["ratio"], e["mc"]) for e in errs) > 1, key


def test_mean_field_samples_per_width_are_the_first_of_a_larger_run(mean_field):
    # the default confirmation runs fewer initialisations at its largest width: each width's
    # networks must be the first ones of the one-count run, bit for bit
    small = gd.mean_field_linear(widths=(10, 100), samples=(200, 30))
    assert small["samples"] == [200, 30]
    for full, part, k in zip(mean_field["cases"], small["cases"], (200, 30), strict=True):
        assert part["width"] == full["width"]
        for key in ("W0", "a", "W_end", "sum_ratio", "max_ratio", "beta0", "den"):
            np.testing.assert_array_equal(part[key], full[key][:k], err_msg=key)
    with pytest.raises(ValueError, match="one per width"):
        gd.mean_field_linear(widths=(10, 100), samples=(200,))
    with pytest.raises(ValueError, match="samples"):
        gd.mean_field_linear(widths=(10,), samples=(1,))


def test_mean_field_moments_limit():
    X, y = [[1.0, 0, 0], [0, 2, 0]], [1.0, 1.0]
    mean_N, mean_D, lim = lns.mean_field_moments(X, y, [0.6, 0.8, 0], 10**9)
    assert mean_D == 1.0 and mean_N == pytest.approx(lim, rel=1e-8) and lim > 0
    with pytest.raises(ValueError, match="x must have"):
        lns.mean_field_moments(X, y, [1.0, 0.0], 10)


@pytest.fixture(scope="module")
def gd_monitor():
    return gd.monitor_theorem_6_1(width=50, horizon=0.3, n_records=20)


def test_theorem_6_1_monitor_pass_and_broken(gd_monitor):
    worst, detail = gcc.gd_monitor_verdict(gd_monitor)
    assert worst <= 1, detail
    assert "NOT met" in detail  # the width condition (~1e8) is far above m = 50
    for key, factor in (("residual_sq", 2.0), ("move_scaled", 10.0)):
        bad = copy.deepcopy(gd_monitor)
        for c in bad["cases"]:
            arr = np.array(c[key])
            arr[:, 1:] *= factor  # the start stays (it sets the bound)
            c[key] = arr.tolist()
        assert gcc.gd_monitor_verdict(bad)[0] > 1, key


def test_monitor_rejects_bad_input():
    with pytest.raises(ValueError, match="step_fraction"):
        gd.monitor_theorem_6_1(step_fraction=1.5)
    with pytest.raises(ValueError, match="gammas"):
        gd.monitor_theorem_6_1(gammas=(0.0,))
    with pytest.raises(ValueError, match="widths"):
        gd.first_step_runs(widths=(0,))
    with pytest.raises(ValueError, match="eta"):
        gd.first_step_runs(eta=-1.0)


def test_theorem_6_1_detail_reports_the_bound_at_the_last_step(gd_monitor):
    """Each case's detail says how far the corrected (16) lets the residual^2 fall over the
    run: (1 - eta gamma kappa_n/2)^s at the last recorded step s, relative to ||y - u_0||^2
    (the formula of Theorem 6.1 as corrected, evaluated here by hand); it must differ from
    the bound after the first step, or the check would say nothing."""
    import re

    eta, kappa = gd_monitor["eta"], gd_monitor["kappa_n"]
    steps = gd_monitor["record_steps"]
    detail = gcc.gd_monitor_verdict(gd_monitor)[1]
    for c in gd_monitor["cases"]:
        rate = 1 - eta * c["gamma"] * kappa / 2
        expected, first = rate ** steps[-1], rate ** steps[1]
        # printed to 3 significant digits: rounding moves it by <= 5e-3 relative (half a
        # unit of the 3rd digit, leading digit >= 1), so 1e-2 apart is always told apart
        assert abs(first / expected - 1) > 1e-2  # the run is long enough for that
        found = re.search(rf"gamma={c['gamma']:g}: .*?bound to ([^)]+)\)", detail)
        assert found is not None, detail
        assert abs(float(found.group(1)) / expected - 1) <= 5e-3, (found.group(1), expected)


def test_full_sweep_extends_the_default_one_from_the_slope_fits_first_width():
    """``solvable verify --full`` runs the fast defaults' sweep made larger (README: "the full
    width / sample sweeps ... instead of their fast defaults"): every default width (the
    slope fit of (17) / (18) starts at m = 100, SLOPE_TOL's "m = 100..10^4", so 100 must be
    one of them) plus larger ones, more seeds and more target samples."""
    fast, full = nsc._setup(False), nsc._setup(True)
    assert 100 in fast["widths"] and 100 in full["widths"]
    assert set(fast["widths"]) < set(full["widths"])
    assert max(full["widths"]) > max(fast["widths"])
    assert set(fast["seeds"]) < set(full["seeds"])
    assert full["samples"] > fast["samples"]


def test_sample_limits_z0_and_dz_add_up_to_the_limit_contributions():
    """``sample_limits``' per-node ``z0 = x^T w_0j / sqrt(d)`` and ``dz = x^T (w_inf_j -
    w_0j) / sqrt(d)`` at the first probe add up to the contribution c_j = sqrt(lambda_j) a_j
    w_inf_j it reports (a = +-1): |x^T c_j| / sqrt(lambda_j d) = |z0_j + dz_j| (a ``*
    sqrt(d)`` for ``/ sqrt(d)`` in z0 survived the seed-18 sample); 1e-12 relative."""
    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((3, 4)), rng.standard_normal(3)
    lam = np.array([0.4, 0.3, 0.2, 0.1])
    x = rng.standard_normal(4)
    out = nsl.sample_limits(X, y, lam, 5, nodes=[0, 1, 2, 3], probes=[x])
    lhs = np.abs(np.einsum("snd,d->sn", out["c"], x)) / np.sqrt(lam * 4)
    rhs = np.abs(out["z0"] + out["dz"])
    assert np.allclose(lhs, rhs, rtol=1e-12, atol=0), (lhs, rhs)
