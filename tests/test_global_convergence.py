"""Tests for solvable.models.global_convergence (seed 000 Theorems 5.1, 6.1, eq. (14)) and
numerics.node_scaling_experiment (monitoring, feature-learning ratios, Section 8.1.1)."""

from __future__ import annotations

import dataclasses
import json
import math
import time

import mpmath
import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given
from hypothesis import strategies as st

from numerics import node_scaling_experiment as ex
from numerics.node_scaling_experiment import network as ex_network
from solvable.models import global_convergence as gc
from solvable.models.global_convergence import numeric_checks as gc_numeric
from solvable.models.global_convergence import symbolic_checks as gc_symbolic
from solvable.models.global_convergence import symbols as gc_symbols
from solvable.verification import theorems
from solvable.verification.confirmations import global_convergence as gcc

CLAIMS = theorems.select("global_convergence.*")
SYMBOLIC = [c for c in CLAIMS if c.kind == "symbolic"]
ERRATA = gc.errata()


def _consts(**kw):
    base = {"n": 10, "d": 5, "kappa_n": 0.005, "gamma": 0.5, "delta": 0.1, "C": 2.0,
            "C1": 0.06, "M": 0.5}  # fmt: skip
    base.update(kw)
    return gc.Constants(**base)


# ---------------------------------------------------------------------------
# claims and errata
# ---------------------------------------------------------------------------
def test_ids_and_sources():
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)
    assert all(c.id.startswith("global_convergence.") for c in CLAIMS)
    assert all(c.source.startswith(gc.SEED) for c in CLAIMS)


@pytest.mark.parametrize("claim", SYMBOLIC, ids=[c.id for c in SYMBOLIC])
def test_symbolic_claim_proved(claim):
    verdict = claim.verify()
    assert verdict.status == "proved", verdict.detail
    assert verdict.residuals and all(r == 0 for r in verdict.residuals)


@pytest.mark.parametrize("erratum", ERRATA, ids=[e.equation for e in ERRATA])
def test_erratum_printed_false_corrected_true(erratum):
    printed, corrected = erratum.residuals()
    assert corrected == 0 and printed != 0
    assert erratum.check()
    assert erratum.source == gc.SEED


# ---------------------------------------------------------------------------
# expressions and generated evaluators
# ---------------------------------------------------------------------------
def test_theorem_records():
    t5, t6 = gc.theorem_5_1(), gc.theorem_6_1()
    assert t5.eig_min == gc.GAMMA * gc.KAPPA / 4
    assert sp.simplify(t5.width - sp.Max(*t5.width_terms)) == 0
    assert sp.simplify(t6.beta**2 - t6.rate) == 0
    assert len(t6.step_size_terms) == 3 and len(t6.width_terms) == 3


def test_numeric_evaluators_match_the_expressions():
    c = _consts()
    sub = c.values()
    t5 = gc.theorem_5_1()
    assert gc.eig_min_bound_numeric(c) == pytest.approx(0.5 * 0.005 / 4, rel=1e-15)
    terms = gc.width_terms_numeric(c)
    for got, expr in zip(terms, t5.width_terms, strict=True):
        assert got == pytest.approx(float(expr.subs(sub)), rel=1e-13)
    assert gc.width_condition_numeric(c) == max(terms)
    assert gc.loss_bound_numeric(c, 100.0, 3.0) == pytest.approx(3 * math.exp(-0.5 * 0.005 * 50))
    lam = np.array([0.01, 0.04])
    w = gc.weight_bound_numeric(c, lam)
    assert w[1] / w[0] == pytest.approx(2.0, rel=1e-14)  # (c) is proportional to sqrt(lambda)
    assert float(gc.ntg_change_bound_numeric(c, 0.01)) == pytest.approx(
        float(t5.ntg_change.subs({**sub, gc.SUM_SQ: sp.Rational(1, 100)})), rel=1e-13
    )
    assert float(gc.weight_bound_given_loss_numeric(c, 2.0, 0.01)) == pytest.approx(
        4 * math.sqrt(2 * 10 * 2.0 * 0.01 / 5) / (0.5 * 0.005), rel=1e-14
    )


def test_mpmath_evaluators_agree_with_float64():
    c = _consts()
    for fn, args in ((gc.eig_min_bound_numeric, ()), (gc.width_condition_numeric, ()),
                     (gc.loss_bound_numeric, (10.0, 1.0)), (gc.weight_bound_numeric, (0.3,)),
                     (gc.ntg_change_bound_numeric, (0.2,)), (gc.step_size_limit_numeric, ()),
                     ):  # fmt: skip
        hi = fn(c, *args, dps=40)
        assert isinstance(hi, mpmath.mpf)
        assert float(hi) == pytest.approx(float(fn(c, *args)), rel=1e-13)


def test_gradient_descent_quantities():
    c = _consts()
    limit = float(gc.step_size_limit_numeric(c))
    # term 2 binds here: gamma kappa d^2/(8 n^2) vs term 3 with delta, M, C, C_1 above
    term2 = 0.5 * 0.005 * 25 / 800
    term3 = 0.5 * 0.005 * 25 * math.sqrt(0.1) / (2**4.5 * 100 * 0.5 * math.sqrt(4.06))
    assert limit == pytest.approx(min(term2, term3), rel=1e-13)
    eta = 0.5 * limit
    rate = float(gc.gd_rate_numeric(c, eta))
    assert rate == pytest.approx(1 - eta * 0.5 * 0.005 / 2, rel=1e-15) and 0 < rate < 1
    assert gc.gd_width_condition_numeric(c, eta) > 0
    with pytest.raises(ValueError, match="eta must be in"):
        gc.gd_rate_numeric(c, 2 * limit)
    # Theorem 6.1 needs eta < limit (strict): the limit itself is refused, one ulp below is
    # accepted, by each function that takes eta
    below = math.nextafter(limit, 0)
    for fn, args in ((gc.gd_rate_numeric, ()), (gc.gd_residual_bound_numeric, (3, 1.0)),
                     (gc.gd_width_condition_numeric, ())):  # fmt: skip
        with pytest.raises(ValueError, match="eta must be in"):
            fn(c, limit, *args)
        assert np.all(np.isfinite(np.asarray(fn(c, below, *args), dtype=float)))


def test_third_step_size_term_binds_at_large_M():
    # Theorem 6.1: eta < min(2/(gamma kappa_n), gamma kappa_n d^2/(8 n^2), gamma kappa_n d^2
    # sqrt(delta)/(2^(9/2) n^2 M sqrt(C^2 + C_1))); at M = 3 the third term (~1.45e-6) is below
    # the second (~7.8e-5), so the limit is the third term as printed
    c = _consts(M=3.0)
    term3 = 0.5 * 0.005 * 25 * math.sqrt(0.1) / (2**4.5 * 100 * 3.0 * math.sqrt(4.06))
    assert term3 < 0.5 * 0.005 * 25 / 800
    # rel 1e-13: a few float64 roundings of the generated evaluator vs this formula
    assert float(gc.step_size_limit_numeric(c)) == pytest.approx(term3, rel=1e-13)
    n, d, k, g, dl = gc.N, gc.D, gc.KAPPA, gc.GAMMA, gc.DELTA
    printed = g * k * d**2 * sp.sqrt(dl) / (2 ** sp.Rational(9, 2) * n**2 * gc.MS
                                            * sp.sqrt(gc.CS**2 + gc.C1))  # fmt: skip
    assert sp.simplify(gc.theorem_6_1().step_size_terms[2] - printed) == 0


def test_activation_bounds_report_the_swish_tail_bound():
    # |sigma''(u)| <= (2 + |u|) e^{-|u|} beyond the grid |u| <= 60: the claim reports the
    # bound at |u| = 60, 62 e^{-60} = 5.43e-25 (3 digits), below M = 1/2
    verdict = theorems.select("global_convergence.activation_derivative_bounds")[0].verify()
    assert verdict.status == "confirmed", verdict.detail
    assert "(tail < 5.43e-25)" in verdict.detail


def test_gd_width_condition_is_accurate_in_float64():
    # eta gamma kappa_n ~ 1e-8: 1 - beta cancels 8 digits in the printed form; the evaluated
    # stable form keeps full precision (reference: mpmath at 40 digits)
    c = _consts()
    eta = 0.5 * float(gc.step_size_limit_numeric(c))
    hi = gc.gd_width_condition_numeric(c, eta, dps=40)
    assert float(gc.gd_width_condition_numeric(c, eta)) == pytest.approx(float(hi), rel=1e-13)


@given(st.floats(1e-4, 1.0), st.floats(1e-6, 1.0), st.floats(0.0, 1e4), st.floats(0.0, 1e3))
def test_loss_bound_properties(gamma, kd, t, dt):
    # (b) decreases in t, equals L_0 at t = 0; term 3 of the width >= term 2 when kappa d <= 1
    c = _consts(gamma=gamma, kappa_n=kd / 5)
    b0, b1, b2 = (float(gc.loss_bound_numeric(c, s, 2.0)) for s in (0.0, t, t + dt))
    assert b0 == 2.0 and b2 <= b1 <= b0
    w = gc.width_terms_numeric(c)
    assert w[2] >= 32 * w[1] * (1 - 1e-12)


@given(st.floats(0.01, 1.0), st.integers(1, 6))
def test_c1_increases_in_c(c, d):
    for name in ("swish", "tanh"):
        assert gc.c1(name, d, c=c) <= gc.c1(name, d) * (1 + 1e-14)


def test_c1_values():
    assert gc.c1("linear", 4) == pytest.approx(0.25, rel=1e-15)
    assert gc.c1("relu", 4) == pytest.approx(0.125, rel=1e-15)
    assert gc.c1("linear", 4, c=0.5) == pytest.approx(0.0625, rel=1e-15)
    assert gc.c1_expression("relu") == gc_symbols._CSCALE**2 / (2 * gc.D)
    assert isinstance(gc.c1_expression("swish"), sp.Integral)
    hi = gc.c1("swish", 5, dps=30)
    assert isinstance(hi, mpmath.mpf) and float(hi) == pytest.approx(gc.c1("swish", 5), rel=1e-14)


def test_activation_bounds():
    b1, b2 = gc.activation_bounds("swish")
    assert b1 == pytest.approx(1.0998393201288669, rel=1e-12) and b2 == 0.5
    t1, t2 = gc.activation_bounds("tanh")
    assert t1 == 1.0 and t2 == pytest.approx(4 * math.sqrt(3) / 9, rel=1e-15)
    hi = gc.activation_bounds("swish", dps=40)[0]
    assert mpmath.almosteq(hi, mpmath.mpf("1.09983932012886692"), rel_eps=mpmath.mpf(10) ** -16)


def test_constants_from_data():
    from numerics.node_scaling_experiment import sphere_data

    X, y = sphere_data(4, 3, seed=0)
    c = gc.Constants.from_data(X, y, "swish", 0.5, 0.1)
    assert c.n == 4 and c.d == 3 and c.C == pytest.approx(np.max(np.abs(y)))
    assert c.M == 0.5 and c.C1 == pytest.approx(gc.c1("swish", 3))
    assert c.kappa_n > 0


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kw", "exc", "match"),
    [
        ({"n": 0}, ValueError, "n must be an integer >= 1"),
        ({"n": 2.0}, TypeError, "n must be an int"),
        ({"d": True}, TypeError, "d must be an int"),
        ({"gamma": 0.0}, ValueError, "gamma must be finite and > 0"),
        ({"gamma": 1.5}, ValueError, r"gamma must be in \(0, 1\]"),
        ({"delta": 1.0}, ValueError, r"delta must be in \(0, 1\)"),
        ({"kappa_n": -1.0}, ValueError, "kappa_n must be finite and > 0"),
        ({"C": math.nan}, ValueError, "C must be finite"),
        ({"M": "0.5"}, TypeError, "M must be a real number"),
    ],
)
def test_constants_validation(kw, exc, match):
    with pytest.raises(exc, match=match):
        _consts(**kw)


def test_function_validation():
    c = _consts()
    with pytest.raises(ValueError, match="activation must be one of"):
        gc.c1("gelu", 3)
    with pytest.raises(TypeError, match="activation must be a str"):
        gc.c1(None, 3)
    with pytest.raises(ValueError, match="d must be an integer >= 1"):
        gc.c1("swish", 0)
    with pytest.raises(ValueError, match=r"c must be in \(0, 1\]"):
        gc.c1("swish", 3, c=1.5)
    with pytest.raises(ValueError, match="dps must be None"):
        gc.c1("swish", 3, dps=0)
    with pytest.raises(ValueError, match=r"Assumption 3\.2"):
        gc.activation_bounds("relu")
    with pytest.raises(ValueError, match="t must be finite and >= 0"):
        gc.loss_bound_numeric(c, -1.0, 1.0)
    with pytest.raises(ValueError, match="lam must be finite and >= 0"):
        gc.weight_bound_numeric(c, [-0.1])
    with pytest.raises(TypeError, match="consts must be a Constants"):
        gc.eig_min_bound_numeric({"n": 1})
    with pytest.raises(ValueError, match="eta must be finite and > 0"):
        gc.gd_rate_numeric(c, 0.0)
    with pytest.raises(ValueError, match=r"y must have shape \(2,\)"):
        gc.Constants.from_data(np.eye(2), [1.0], "swish", 0.5, 0.1)


# ---------------------------------------------------------------------------
# numerics.node_scaling_experiment
# ---------------------------------------------------------------------------


def test_sphere_data_and_node_scalings():
    X, y = ex.sphere_data(7, 4, seed=3, noise=0.0)
    assert np.allclose(np.linalg.norm(X, axis=1), 1.0)
    assert np.allclose(y, 5 / 4 * np.sin(np.pi * X).sum(1))
    for g, a in ex.SETTINGS_8_1_1:
        lam = ex.node_scalings(50, g, a)
        assert lam.shape == (50,) and lam.sum() == pytest.approx(1.0, rel=1e-13)
        assert np.all(np.diff(lam) <= 1e-18)  # non-increasing in j
    assert np.allclose(ex.node_scalings(8, 1.0, None), 1 / 8)
    with pytest.raises(ValueError, match="alpha must be given"):
        ex.node_scalings(8, 0.5, None)
    with pytest.raises(ValueError, match=r"alpha must be in \(0.0, 1.0\)"):
        ex.node_scalings(8, 0.5, 1.0)
    with pytest.raises(TypeError, match="n must be an int"):
        ex.sphere_data(2.5, 3)


def test_nested_parameters_share_first_nodes():
    small = ex.nested_parameters([np.full(5, 0.2)], 3, [7], max_width=20)
    large = ex.nested_parameters([np.full(20, 0.05)], 3, [7], max_width=20)
    assert torch.equal(small["W"][0], large["W"][0, :5])
    assert torch.equal(small["a"][0], large["a"][0, :5])
    assert set(torch.unique(large["a"]).tolist()) <= {-1.0, 1.0}
    with pytest.raises(ValueError, match="one entry per network"):
        ex.nested_parameters([np.ones(3)], 2, [0, 1])
    with pytest.raises(ValueError, match="max_width must be >= the width"):
        ex.nested_parameters([np.ones(3)], 2, [0], max_width=2)


def test_hand_written_gradient_matches_autograd():
    from numerics.torch_flow.field import _field
    from numerics.torch_flow.layout import _Packing

    X, y = ex.sphere_data(5, 3, seed=1)
    model = ex_network._model(X, y, "swish")
    lam = ex.node_scalings(30, 0.2, 0.5)
    p = ex.nested_parameters([lam, lam], 3, [0, 1])
    packing = _Packing(model, p)
    flat = packing.pack(p)
    hand = _field(model, packing)(flat)
    auto = _field(model, packing, autograd=True)(flat)
    assert torch.allclose(hand, auto, rtol=0, atol=1e-14 * float(auto.abs().max()))


def test_monitored_bounds_small_case():
    # Theorem 5.1 along gradient flow at m = 60 (far below the width condition): the bounds
    # hold in this run; (b) is implied by (a) along the flow (Gronwall), so when (a) holds
    # the loss ratio must be <= 1 up to integration error.
    start = time.perf_counter()
    res = ex.monitor_theorem_5_1(n=4, d=3, data_seed=0, gammas=(1.0, 0.3), widths=(60,),
                                 seeds=(0, 1), horizon=3.0, n_times=20, rtol=1e-8,
                                 threads=1)  # fmt: skip
    wall = time.perf_counter() - start
    # each case's integration seconds: a part of the call's (a product of two clock
    # readings for their difference survived the seed-20 sample)
    assert all(0 < c["seconds"] <= wall for c in res["cases"])
    assert sum(c["seconds"] for c in res["cases"]) <= wall
    worst, detail = gcc.monitor_verdict(res)
    assert worst <= 1, detail
    assert "gamma=1 m=60" in ex.monitor_table(res)
    for case in res["cases"]:
        assert case["width"] < case["width_condition"] and case["width_condition"] > 1e9
        if case["gamma"] == 1.0:  # lambda_j = 1/m: the scaled move is sqrt(m) times the move
            # (1 - sqrt(lambda) for 1/sqrt(lambda) survived the seed-21 sample; float64
            # products and maxima: 1e-12 relative)
            scaled = np.array(case["move_over_bound_max"]) * case["weight_bound_unit"]
            np.testing.assert_allclose(scaled, np.sqrt(60) * np.array(case["move_max"]),
                                       rtol=1e-12)  # fmt: skip
        assert min(case["eig_min_over_bound_min"]) >= 1
        assert max(case["loss_over_bound_max"]) <= 1
        assert all(e < s for e, s in zip(case["L_end"], case["L0"], strict=True))
    json.dumps(res)  # plain numbers


def test_feature_learning_sweep_small():
    res = ex.feature_learning_sweep(n=4, d=3, data_seed=0, gammas=(1.0,), widths=(20, 80),
                                    seeds=(0, 1), horizon=2.0, rtol=1e-7, threads=1)  # fmt: skip
    g = res["gammas"][0]
    assert np.array(g["sum_ratio"]).shape == (2, 2)
    assert np.all(np.array(g["max_ratio"]) <= np.array(g["sum_ratio"]) + 1e-15)
    ok, detail = gcc.feature_learning_criteria(res)
    assert "slope (17)" in detail and isinstance(ok, bool)
    with pytest.raises(ValueError, match="at least 2 widths"):
        ex.feature_learning_sweep(widths=(10,))
    with pytest.raises(ValueError, match="input_index must be in"):
        ex.feature_learning_sweep(n=3, d=2, widths=(5, 10), input_index=3)


def _sweep_result(slopes_by_gamma):
    widths = (10, 100)
    gammas = []
    for gamma, slopes in slopes_by_gamma.items():
        ratio = [[10.0 ** (s * k) for s in slopes] for k in range(len(widths))]
        gammas.append({"gamma": gamma, "sum_slopes": list(slopes), "max_slopes": list(slopes),
                       "max_ratio": ratio, "loss_end": [0.0]})  # fmt: skip
    return {"n": 4, "d": 3, "alpha": 0.5, "widths": widths, "seeds": (0, 1, 2, 3),
            "horizon": 1.0, "gammas": gammas}  # fmt: skip


@pytest.mark.parametrize(
    ("rich_slopes", "expected"),
    [((0.1, -0.1, 0.05, -0.02), True),  # flat, far from the lazy decay: pass
     ((-1.9, -1.7, -1.4, -1.2), False),  # significant decay: fail
     ((-1.9, -1.7, 0.4, -1.5), False)],  # CI reaches 0 but indistinguishable from lazy: fail
)  # fmt: skip
def test_feature_learning_criterion_tells_the_regimes_apart(rich_slopes, expected):
    lazy = (-2.0, -1.9, -2.1, -1.95)
    ok, detail = gcc.feature_learning_criteria(_sweep_result({1.0: lazy, 0.5: rich_slopes}))
    assert ok is expected, detail
    with pytest.raises(ValueError, match="gamma = 1"):
        gcc.feature_learning_criteria(_sweep_result({0.5: rich_slopes}))


def test_quick_experiment_writes_figure_and_json(tmp_path, capsys):
    assert ex.main(["--out", str(tmp_path), "--quick", "--device", "cpu"]) == 0
    data = json.loads((tmp_path / "section_8_1_1.json").read_text())
    png = tmp_path / "section_8_1_1.png"
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"
    assert len(data["runs"]) == 4 and data["kappa_n"] > 0
    run = data["runs"][0]
    assert len(run["risk"]) == len(data["record_steps"])
    summary = data["summary"]
    assert summary["settings"][0] == "(1, -)" and summary["gammas"] == [1.0, 0.5, 0.2, 0.0]
    assert all(isinstance(v, (int, float, str, list)) for v in summary.values())  # numbers
    orderings = gcc.section_8_1_1_orderings(summary)
    assert set(orderings.values()) <= {True, False}
    assert "weight_change_increases_as_gamma_alpha_down" in orderings
    assert "kappa_n" in capsys.readouterr().out


def test_section_8_1_1_orderings_criteria():
    summary = {"eig_min_init": [3, 2, 1], "eig_min_end": [3, 2, 1],
               "eig_min_median_over_steps": [3, 2, 2], "risk_end": [1, 2, 3],
               "risk_log_slope_second_half": [-3, -2, -1], "max_moved_end": [1, 2, 3],
               "ntg_change_end": [3, 2, 1]}  # fmt: skip
    got = gcc.section_8_1_1_orderings(summary)
    assert got["eig_min_init_decreases_as_gamma_down"] and got["risk_end_increases_as_gamma_down"]
    assert not got["eig_min_median_decreases_as_gamma_down"]  # a tie is not a decrease
    assert not got["ntg_change_increases_as_gamma_alpha_down"]


def test_numerics_returns_numbers_not_verdicts():
    # the experiments module holds no criteria (moved to solvable.verification.confirmations)
    for name in ("monitor_summary", "feature_learning_summary", "section_8_1_1_checks"):
        assert not hasattr(ex, name)


def test_section_8_1_1_validation():
    with pytest.raises(ValueError, match="steps must be an integer >= 1"):
        ex.section_8_1_1(steps=0)
    with pytest.raises(ValueError, match=r"lr must be in \(0.0, inf\)"):
        ex.section_8_1_1(lr=-1.0)


# ---------------------------------------------------------------------------
# slow: the full (moderate-width) numeric claims
# ---------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("name", ["theorem_5_1_ntg_split", "feature_learning_width_scaling",
                                  "theorem_5_1_monitored"])  # fmt: skip
def test_full_numeric_claims(name):
    claim = next(c for c in CLAIMS if c.id == f"global_convergence.{name}")
    verdict = claim.verify(full=True)
    print(verdict.detail)
    # the monitor (widths below the width condition) is observed, not confirmed
    expected = "observed" if claim.kind == "monitor" else "confirmed"
    assert verdict.status == expected, verdict.detail


# ---------------------------------------------------------------------------
# numerics.node_scaling_experiment: the kernel limit, Section 8.1.2 and the shared drawing
# ---------------------------------------------------------------------------
@given(st.integers(0, 2**31 - 1), st.integers(2, 6), st.floats(0.05, 0.99))
def test_kernel_gd_steps_the_linear_model(seed, n, frac):
    """``kernel_gd`` is GD on the linear model: against the eigen-solution ``r_s = V (1 -
    lr lambda)^s V^T r_0`` of a random PSD kernel, and monotone for ``lr < 1/lambda_max``."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, n))
    K = A @ A.T / n
    lam, V = np.linalg.eigh(K)
    lr = frac / lam[-1]
    r0 = rng.normal(size=(2, n))
    steps = [0, 1, 5, 20]
    Kc, f0c, yc = rng.normal(size=(3, n)), rng.normal(size=(2, 3)), rng.normal(size=3)
    got = ex.kernel_gd(K, r0, lr, steps, K_cross=Kc, f0_cross=f0c, y_cross=yc)
    for k, s in enumerate(steps):
        r_s = r0 @ V @ np.diag((1 - lr * lam) ** s) @ V.T
        # 1e-10: s <= 20 products of a contraction, float64 round-off only
        assert np.allclose(got["risk"][k], (r_s**2).mean(1), rtol=1e-10, atol=1e-14)
        # off-sample outputs accumulate lr K(x, X) r_j over j < s: (I - (1 - lr K)^s) K^-1
        acc = r0 @ V @ np.diag((1 - (1 - lr * lam) ** s) / lam) @ V.T @ Kc.T
        assert np.allclose(got["test"][k], ((f0c + acc - yc) ** 2).mean(1), rtol=1e-8,
                           atol=1e-12)  # fmt: skip
    assert np.all(np.diff(got["risk"], axis=0) <= 1e-15)


def test_kernel_gd_rejects_bad_input():
    with pytest.raises(ValueError, match=r"K must be \(n, n\) with n = r0.shape\[-1\] = 2"):
        ex.kernel_gd(np.eye(3), np.ones(2), 0.1, [0, 1])
    with pytest.raises(ValueError, match=r"lr must be in \(0.0, inf\), got -1"):
        ex.kernel_gd(np.eye(2), np.ones(2), -1.0, [0, 1])
    with pytest.raises(ValueError, match="record_steps must be sorted"):
        ex.kernel_gd(np.eye(2), np.ones(2), 0.1, [3, 1])


def test_kernel_gd_detects_a_wrong_kernel():
    """A broken input (the kernel scaled by 2) moves the curve: the comparison the figures
    draw is sensitive to the kernel."""
    K = np.diag([1.0, 0.5])
    good = ex.kernel_gd(K, np.ones(2), 0.5, [0, 4])["risk"]
    bad = ex.kernel_gd(2 * K, np.ones(2), 0.5, [0, 4])["risk"]
    assert bad[-1, 0] < 0.5 * good[-1, 0]  # 0.002 against 0.052: twice the decay rate


def test_section_8_1_1_records_the_kernel_limit():
    """gamma = 1 at a small width: the recorded kernel-limit risk starts at the network's
    own risk (the same initial residual), and every run stores its residuals."""
    res = ex.section_8_1_1(n=12, d=6, widths=(50,), steps=40, n_records=8, threads=1,
                           settings=((1.0, None), (0.5, 0.7)))  # fmt: skip
    one, half = res["runs"]
    assert "kernel_limit_risk" in one and "kernel_limit_risk" not in half
    assert np.allclose(np.array(one["kernel_limit_risk"])[0], np.array(one["risk"])[0])
    assert np.array(half["residual0"]).shape == (1, 12)


def test_single_relu_experiment_small():
    res = ex.single_relu_experiment(n=20, d=4, width=40, n_test=30, steps=30, repeats=2,
                                    n_records=5, threads=1)  # fmt: skip
    T = len(res["record_steps"])
    assert res["labels"][-1] == "pytorch default init" and len(res["labels"]) == 5
    for key in ("train", "test"):
        assert np.array(res[key]).shape == (5, 2, T)
        assert np.all(np.isfinite(res[key]))
    train = np.array(res["train"])
    assert np.all(train[:, :, -1] < train[:, :, 0])  # GD at the stable lr decreases the risk
    assert np.array(res["kernel_limit_test"]).shape == (2, T)
    # the kernel limit starts from the gamma = 1 network's own outputs
    assert np.allclose(np.array(res["kernel_limit_train"])[:, 0], train[0, :, 0])
    X, y = ex.single_relu_data(20, 4, seed=0)
    assert np.array_equal(y, np.maximum(X.sum(1), 0))


def test_single_relu_experiment_validation():
    with pytest.raises(ValueError, match="width must be an integer >= 1, got 0"):
        ex.single_relu_experiment(width=0)
    with pytest.raises(TypeError, match="n_test must be an int"):
        ex.single_relu_experiment(n_test=2.5)


@pytest.mark.parametrize("factor", [2, sp.Rational(1, 2), sp.Rational(3, 2)])
def test_weight_bound_derivation_fails_unless_printed_c_is_twice_the_derived(monkeypatch,
                                                                            factor):  # fmt: skip
    """``weight_bound_derivation`` proves the printed (c) is exactly 2 times the bound
    derived from (b) and Markov; a (c) scaled by 2, 1/2 or 3/2 (ratio 4, 1, 3) fails it
    (seed-22 survivor ``symbolic_checks.py:164``: ``ratio - 2`` made ``ratio % 2``, which
    proves ratio 4 too)."""
    assert gc_symbolic._weight_bound_derivation().status == "proved"
    real = gc_symbolic.theorem_5_1()
    wrong = dataclasses.replace(real, weight=real.weight * factor)
    monkeypatch.setattr(gc_symbolic, "theorem_5_1", lambda: wrong)
    verdict = gc_symbolic._weight_bound_derivation()
    assert verdict.status == "failed", verdict.detail


def test_c1_quadrature_default_fails_on_a_wrong_mpmath_c1(monkeypatch):
    # the default run checks the mpmath C_1 of swish / tanh (by quadrature) at d = 5 only: a
    # value off by 1e-10 (1e2 of the 1e-12 Gauss-Hermite tolerance) there must fail it
    real = gc.c1

    def off(name, d, *, c=1, dps=None):
        v = real(name, d, c=c, dps=dps)
        wrong = dps is not None and name in ("swish", "tanh")
        return v * (1 + mpmath.mpf("1e-10")) if wrong else v

    monkeypatch.setattr(gc_numeric, "c1", off)
    verdict = gc_numeric._c1_quadrature()
    assert verdict.status == "failed" and verdict.max_error > 10


@pytest.mark.slow
def test_c1_quadrature_full_adds_d_1():
    verdict = gc_numeric._c1_quadrature(full=True)
    assert verdict.status == "confirmed" and "(1, 5)" in verdict.detail


def test_c1_quadrature_reports_c1_at_c_equal_one():
    # eq. (14) at its supremum c = 1: C_1 = E[sigma(z/sqrt(d))^2], z ~ N(0, 1); the claim
    # reports the last point of its c-grid as C_1, so that point must be c = 1 of this
    # definition (tanh; reference: mpmath quadrature of the Gaussian integral at 30 digits)
    verdict = theorems.select("global_convergence.c1_quadrature")[0].verify()
    assert verdict.status == "confirmed", verdict.detail
    for d in (1, 5):
        with mpmath.workdps(30):
            ref = mpmath.quad(lambda z, d=d: mpmath.tanh(z / mpmath.sqrt(d)) ** 2
                              * mpmath.npdf(z), [-mpmath.inf, 0, mpmath.inf])  # fmt: skip
        reported = float(verdict.detail.split(f"tanh d={d}: C_1 = ")[1].split(";")[0])
        # rel 1e-9: the detail prints 10 significant digits (rounding <= 5e-10 relative)
        assert reported == pytest.approx(float(ref), rel=1e-9)


def test_printed_step_size_second_term_binds_at_small_M():
    # Theorem 6.1 as printed: eta < min(2/(gamma kappa_n), gamma kappa_n d^2/(8 n^2),
    # gamma kappa_n d^2 sqrt(delta)/(2^(9/2) n^2 M sqrt(C^2 + C_1))); at M = 0.01 the second
    # term 0.5 * 0.005 * 25/800 = 7.8125e-5 is below the third (~4.3e-4) and the first (800),
    # so the printed forms' step limit is the second term
    c = _consts(M=0.01)
    term2 = 0.5 * 0.005 * 5**2 / (8 * 10**2)
    term3 = 0.5 * 0.005 * 25 * math.sqrt(0.1) / (2**4.5 * 100 * 0.01 * math.sqrt(4.06))
    assert term2 < term3 < 800
    forms = gc_numeric._printed_forms(c, 1, 1, 1, 1, 1e-5)
    # rel 1e-13: a few float64 / 15-digit mpmath roundings of the same formula
    assert float(forms["step"]) == pytest.approx(term2, rel=1e-13)
    assert float(gc.step_size_limit_numeric(c)) == pytest.approx(term2, rel=1e-13)


@pytest.mark.parametrize(
    "consts, branch",
    [
        (gc.Constants(n=2, d=100, kappa_n=1.0, gamma=1.0, delta=0.1, C=1.0, C1=1.0, M=0.01), 0),
        (gc.Constants(n=4, d=3, kappa_n=0.1, gamma=0.5, delta=0.1, C=1.0, C1=1.0, M=0.01), 1),
        (gc.Constants(n=4, d=3, kappa_n=0.1, gamma=0.5, delta=0.1, C=1.0, C1=1.0, M=100.0), 2),
    ],
)
def test_step_size_limit_matches_the_printed_form_on_every_branch_of_its_min(consts, branch):
    """Theorem 6.1's step-size limit min(2/(gamma kappa), gamma kappa d^2/(8 n^2), gamma kappa
    d^2 sqrt(delta)/(2^4.5 n^2 M sqrt(C^2 + C_1))): the evaluator and the printed form
    (``_printed_forms``, the paper's side of ``global_convergence.reported_constants``)
    agree where each term is the smallest (the claim's data set reaches only the second:
    a printed 1/(gamma kappa) for 2/(gamma kappa) survived the seed-18 sample).  mpmath at
    30 digits against float64: 1e-13 relative, the claim's float64 tolerance."""
    one = mpmath.mpf(1)
    with mpmath.workdps(30):
        ref = gc_numeric._printed_forms(consts, one, one, one, one, mpmath.mpf("0.1"))["step"]
        g, k, n, d = consts.gamma, consts.kappa_n, consts.n, consts.d
        terms = [2 / (g * k), g * k * d**2 / (8 * n**2),
                 g * k * d**2 * math.sqrt(consts.delta)
                 / (2**4.5 * n**2 * consts.M * math.sqrt(consts.C**2 + consts.C1))]  # fmt: skip
        assert min(range(3), key=terms.__getitem__) == branch
        got = gc.step_size_limit_numeric(consts)
        assert abs(got - ref) <= 1e-13 * ref, (got, ref)
        assert abs(got - terms[branch]) <= 1e-13 * terms[branch]
