"""Seed 001 Section 3.1 (Figure 3) and Section 2.3 (Figure 2) on a synthetic teacher: the
teacher and the experiments (:mod:`numerics.teacher_task`) and the verdicts
(:mod:`solvable.verification.figure_3_teacher`, :mod:`solvable.verification.figure_2_teacher`),
each from both sides."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import sweeps
from numerics.measures import relative_distance
from numerics.models import WideTwoLayer
from numerics.teacher_task import (
    MODELS,
    figure_2_teacher,
    figure_3_teacher,
    model_scaling,
    teacher_data,
)
from numerics.torch_flow import gradient_descent, initialise
from solvable._core.tolerance import NOTHING_COMPARED
from solvable.models.phases import appendix_b3
from solvable.verification.confirmations import phases as phases_conf
from solvable.verification.figure_2_teacher import MEASURES as MEASURES2
from solvable.verification.figure_2_teacher import figure_2_teacher_verdict, ordering_figure
from solvable.verification.figure_3_teacher import (
    GAP,
    SLACK,
    figure_3_teacher_verdict,
    generalisation_figure,
    phase_figure,
    rd_exponent,
)

SMALL = {"models": ["NTK", "mean field"], "kappas": (4, 16), "d0": 5, "n_train": 20,
         "n_test": 30, "steps": 20, "repeats": 2, "threads": 1}  # fmt: skip
KERNEL = [m for m in MODELS if model_scaling(m).phase == "kernel"]
FEATURE = [m for m in MODELS if model_scaling(m).phase == "feature learning"]


# --------------------------------------------------------------------------- the teacher
@settings(max_examples=30, deadline=None)
@given(d0=st.integers(1, 40), n_train=st.integers(1, 60), n_test=st.integers(1, 60),
       seed=st.integers(0, 2**32 - 1))  # fmt: skip
def test_teacher_is_a_relu_of_one_direction_on_the_sphere(d0, n_train, n_test, seed):
    d = teacher_data(d0=d0, n_train=n_train, n_test=n_test, seed=seed)
    assert d["X_train"].shape == (n_train, d0) and d["X_test"].shape == (n_test, d0)
    assert np.allclose(np.linalg.norm(d["X_train"], axis=1), 1.0, rtol=1e-12)
    assert np.allclose(np.linalg.norm(d["X_test"], axis=1), 1.0, rtol=1e-12)
    assert np.linalg.norm(d["v"]) == pytest.approx(1.0, rel=1e-12)
    for name in ("train", "test"):
        proj = d[f"X_{name}"] @ d["v"]
        # one constant offset: the targets minus their minimum are relu of the projection,
        # so the off side is flat and the on side is proportional to the projection
        y = d[f"y_{name}"]
        off, on = proj <= 0, proj > 0
        if off.any():
            assert np.ptp(y[off]) == 0.0
        if on.sum() >= 2:
            ratio = (y[on] - y[on].min()) - (proj[on] - proj[on].min()) * math.sqrt(d0)
            if off.any():
                assert np.all(y[on] > y[off][0])
            assert np.allclose(ratio, 0.0, atol=1e-12)
    again = teacher_data(d0=d0, n_train=n_train, n_test=n_test, seed=seed)
    assert all(np.array_equal(d[k], again[k]) for k in d)


def test_teacher_targets_are_centred_and_seeds_differ():
    # y = relu(z) - E relu(z) with z about N(0, 1): mean about 0 over 20000 points
    # (standard error sqrt((1/2 - 1/(2 pi)) / 20000) = 0.004; 0.02 is five of them)
    d = teacher_data(d0=10, n_train=20_000, n_test=1, seed=3)
    assert abs(d["y_train"].mean()) < 0.02
    assert not np.array_equal(d["v"], teacher_data(seed=4)["v"])


@pytest.mark.parametrize(
    "kw, err, match",
    [({"d0": 0}, ValueError, "d0"), ({"d0": 1.5}, TypeError, "d0"),
     ({"n_train": 0}, ValueError, "n_train"), ({"n_test": 10**9}, ValueError, "n_test"),
     ({"seed": -1}, ValueError, "seed"), ({"seed": "1"}, TypeError, "seed")],
)  # fmt: skip
def test_teacher_refusals_name_the_argument(kw, err, match):
    with pytest.raises(err, match=match):
        teacher_data(**kw)


# --------------------------------------------------------------------------- the models
def test_each_model_is_its_table_1_cell_in_the_sweeps_keys():
    # an independent path to the same cell: numerics.sweeps.table_1_cases keys "<column>,
    # <short block>"; the phase the table prints (kernel for the solid lines of Figure 3,
    # learning for the dashed ones) is the cell's Theorem 2 phase
    cases = sweeps.table_1_cases()
    for m, (column, block) in appendix_b3.CELLS.items():
        case = cases[f"{column}, {sweeps._SHORT_BLOCKS[block]}"]
        assert model_scaling(m) == case.scaling
        assert case.paper_phase() == model_scaling(m).phase
        printed = {"kernel": "kernel", "feature learning": "learning"}
        assert case.printed == printed[model_scaling(m).phase]
    assert sorted(KERNEL) == ["Kaiming-", "NTK", "Xavier-"]
    assert sorted(FEATURE) == ["Kaiming+", "Xavier+", "mean field"]


@pytest.mark.parametrize("bad", ["ntk", "", None, 3, ["NTK"]])
def test_model_scaling_refuses_other_names(bad):
    with pytest.raises(ValueError, match="model"):
        model_scaling(bad)


# --------------------------------------------------------------------------- the experiment
def test_scales_and_rates_follow_the_cells_exponents():
    r = figure_3_teacher(**{**SMALL, "models": list(MODELS), "steps": 2})
    assert [x["model"] for x in r["runs"]] == [m for m in MODELS for _ in SMALL["kappas"]]
    for run in r["runs"]:
        s, k = model_scaling(run["model"]), run["kappa"]
        assert run["width"] == k  # c_d = 1
        assert run["sigma_w"] == pytest.approx(k ** (float(s.c_w) / 2), rel=1e-15)
        assert run["sigma_u"] == pytest.approx(k ** (float(s.c_u) / 2), rel=1e-15)
        assert run["gamma"] == pytest.approx(k ** float(s.c_gamma), rel=1e-15)
        assert run["eta_w"] == pytest.approx(k ** float(s.c_eta_w), rel=1e-15)
        assert run["eta_u"] == pytest.approx(k ** float(s.c_eta_u), rel=1e-15)
        assert run["exponents"]["c_gamma"] == str(s.c_gamma)


def test_each_pair_of_appendix_b3_coincides_at_kappa_1():
    # the paper makes each pair equal at d = 100; with pure powers of kappa they are equal
    # at kappa = 1 (every factor 1): the same draws, the same numbers
    r = figure_3_teacher(**{**SMALL, "models": list(MODELS), "kappas": (1, 4)})
    at1 = {x["model"]: x for x in r["runs"] if x["kappa"] == 1}
    for a, b in appendix_b3.PAIRS:
        for key in ("rd_w", "risk_end", "test_risk"):
            assert at1[a][key] == at1[b][key]
    at4 = {x["model"]: x for x in r["runs"] if x["kappa"] == 4}
    assert at4["NTK"]["rd_w"] != pytest.approx(at4["mean field"]["rd_w"], rel=1e-3)


def test_mean_field_and_xavier_plus_are_one_network_by_relu_homogeneity():
    # u, w -> u / sqrt(d), w / sqrt(d) with gamma 1/d -> 1 and rates d -> 1 maps mean-field
    # GD onto Xavier+ GD step for step (relu is 1-homogeneous): equal up to rounding at every
    # kappa, a check of every exponent of both cells at once
    r = figure_3_teacher(**{**SMALL, "models": ["mean field", "Xavier+"], "kappas": (4, 64)})
    by = {(x["model"], x["kappa"]): x for x in r["runs"]}
    for k in (4, 64):
        for key in ("rd_w", "risk_end", "test_risk"):
            assert by[("mean field", k)][key] == pytest.approx(by[("Xavier+", k)][key],
                                                               rel=1e-9)  # fmt: skip


def test_training_lowers_the_risk_in_every_cell():
    r = figure_3_teacher(**{**SMALL, "models": list(MODELS), "steps": 60})
    for run in r["runs"]:
        assert max(np.array(run["risk_end"]) / np.array(run["risk_0"])) < 0.5, run["model"]


def test_rd_and_test_risk_reproduced_outside_the_experiment():
    kw = {**SMALL, "models": ["Kaiming+"], "kappas": (16,), "steps": 15}
    r = figure_3_teacher(**kw)
    d = teacher_data(d0=5, n_train=20, n_test=30, seed=0)
    s, k = model_scaling("Kaiming+"), 16.0
    model = WideTwoLayer(d["X_train"], d["y_train"], activation="relu",
                         eta_w=k ** float(s.c_eta_w), eta_a=k ** float(s.c_eta_u),
                         scale=k ** float(s.c_gamma))  # fmt: skip
    p0 = initialise({"W": (16, 5), "a": (16,)}, 2,
                    scale={"W": k ** (float(s.c_w) / 2), "a": k ** (float(s.c_u) / 2)})  # fmt: skip
    res = gradient_descent(model, p0, r["lr"], [0, 15], keep_params=True)
    W0, W1 = res.params["W"][0], res.params["W"][-1]
    assert r["runs"][0]["rd_w"] == pytest.approx(relative_distance(W1, W0).tolist(), rel=1e-12)
    test_model = WideTwoLayer(d["X_test"], d["y_test"], activation="relu",
                              scale=k ** float(s.c_gamma))  # fmt: skip
    want = test_model.loss({"W": W1, "a": res.params["a"][-1]}).tolist()
    assert r["runs"][0]["test_risk"] == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize(
    "kw, err, match",
    [({"models": []}, TypeError, "models"), ({"models": ["ntk"]}, ValueError, "models"),
     ({"models": ["NTK", "NTK"]}, ValueError, "models"), ({"models": "NTK"}, TypeError, "models"),
     ({"kappas": (0,)}, ValueError, "kappas"), ({"kappas": (4.5,)}, TypeError, "kappas"),
     ({"kappas": (4, 4)}, ValueError, "kappas"), ({"steps": 0}, ValueError, "steps"),
     ({"repeats": 0}, ValueError, "repeats"), ({"lr": 0.0}, ValueError, "lr"),
     ({"lr": math.nan}, ValueError, "lr"), ({"d0": 0}, ValueError, "d0"),
     ({"n_train": 0}, ValueError, "n_train"), ({"data_seed": -1}, ValueError, "data_seed"),
     ({"seed": -1}, ValueError, "seed"), ({"progress": "no"}, TypeError, "progress")],
)  # fmt: skip
def test_refusals_name_the_argument(kw, err, match):
    with pytest.raises(err, match=match):
        figure_3_teacher(**{**SMALL, **kw})


@pytest.mark.parametrize("name", ["seed", "data_seed"])
def test_seeds_take_every_32_bit_value_and_no_more(name):
    """Both seeds are integers in [0, 2**32 - 1] (numpy's seed range): the top value runs,
    one more is refused naming the argument (both runs share the check)."""
    top = {**SMALL2, "sigmas": (1.0,), "steps": 1, "repeats": 1, name: 2**32 - 1}
    assert figure_2_teacher(**top)["runs"]
    with pytest.raises(ValueError, match=name):
        figure_2_teacher(**{**top, name: 2**32})
    with pytest.raises(ValueError, match=name):
        figure_3_teacher(**{**SMALL, name: 2**32})


def test_data_seed_draws_the_data_and_seed_the_nets():
    """``data_seed`` alone changes the data (same nets: the initial norm is the same, the
    risks are not), ``seed`` alone the nets (outside mutant stop56.teacher_data_run_seed:
    the data drawn with ``seed`` made ``data_seed`` a no-op)."""
    kw = {**SMALL2, "sigmas": (1.0,), "steps": 1, "repeats": 1}
    base = figure_2_teacher(**kw)["runs"][0]
    data = figure_2_teacher(**{**kw, "data_seed": 1})["runs"][0]
    nets = figure_2_teacher(**{**kw, "seed": 1})["runs"][0]
    assert data["norm_0"] == base["norm_0"] and data["risk_0"] != base["risk_0"]
    assert data["test_risk"] != base["test_risk"]
    assert nets["norm_0"] != base["norm_0"]


def test_divergent_rate_is_a_value_error_naming_lr():
    with pytest.raises(ValueError, match="lr"):
        figure_3_teacher(**{**SMALL, "lr": 1e4})


# --------------------------------------------------------------------------- the verdict
def test_rd_exponent_is_negative_exactly_in_the_kernel_cells():
    # the leading-order exponent (module docstring): -1/2 in each kernel cell, 0 or +1/2
    # in each feature-learning cell (NTK: 0 - 1/2 + 0 + 0; Kaiming+: 1 - 1 + 1/2 + 0)
    for m in MODELS:
        assert (rd_exponent(m) < 0) == (model_scaling(m).phase == "kernel")
    assert rd_exponent("NTK") == -0.5 and rd_exponent("Kaiming+") == 0.5
    assert rd_exponent("Xavier-") == -0.5  # its initial output grows: f0 = 1/2


def _result(slopes: dict[str, list[float]], risks: dict[str, float] | None = None,
            kappas=(16, 64, 256)) -> dict:  # fmt: skip
    runs = []
    for m, per_repeat in slopes.items():
        for k in kappas:
            runs.append({"model": m, "kappa": k, "rd_w": [0.3 * k**s for s in per_repeat],
                         "test_risk": [(risks or {}).get(m, 0.1)] * len(per_repeat)})  # fmt: skip
    return {"models": list(slopes), "kappas": list(kappas), "runs": runs}


def _ideal(**over: list[float]) -> dict[str, list[float]]:
    return {m: over.get(m, [rd_exponent(m)] * 3) for m in MODELS}


RISKS = {**{m: 0.1 for m in KERNEL}, **{m: 0.01 for m in FEATURE}}


def test_verdict_confirms_the_leading_order_and_a_clear_gain():
    v = figure_3_teacher_verdict(_result(_ideal(), RISKS))
    # phase errors 0 (slopes -1/2 and >= 0, SE 0); test-risk ratio 0.1 -> 0.1 / GAP
    assert v.status == "confirmed" and v.max_error == pytest.approx(0.1 / GAP, rel=1e-9)


def test_verdict_fails_swapped_phases():
    swapped = {m: [0.0] * 3 if m in KERNEL else [-0.5] * 3 for m in MODELS}
    v = figure_3_teacher_verdict(_result(swapped, RISKS))
    # each cell 1/4 past its border (slope 0 vs -1/4, -1/2 vs -1/4): error 1 + 1
    assert v.status == "failed" and v.max_error == pytest.approx(2.0, rel=1e-9)


def test_verdict_fails_a_kernel_cell_whose_rd_grows():
    f, lines = phase_figure(_result(_ideal(NTK=[0.3] * 3), RISKS))
    assert f == pytest.approx(1 + (0.3 + SLACK) / SLACK, rel=1e-9)
    assert any(line.startswith("NTK (kernel)") for line in lines)


@pytest.mark.parametrize("off, status", [(0.99, "confirmed"), (1.01, "failed")])
def test_phase_border_at_the_slack_from_both_sides(off, status):
    # no spread over the repeats (SE 0): a kernel cell passes iff slope <= -SLACK, a
    # feature cell iff slope >= -SLACK
    kern = _result({"NTK": [-SLACK * (2 - off)] * 3}, kappas=(16, 256))
    feat = _result({"mean field": [-SLACK * off] * 3}, kappas=(16, 256))
    for r in (kern, feat):
        f, _ = phase_figure(r)
        assert (f <= 1) == (status == "confirmed")
        assert f == pytest.approx(off, rel=1e-9)


def test_phase_widens_by_two_standard_errors():
    # slopes -0.6, -0.4 (mean -0.5, SE 0.1): -0.5 + 0.2 = -0.3 <= -0.25: error 1 - 0.05/0.25
    f, _ = phase_figure(_result({"NTK": [-0.6, -0.4]}))
    assert f == pytest.approx(1 - 0.05 / SLACK, rel=1e-9)
    # slopes -0.7, -0.1 (mean -0.4, SE 0.3): -0.4 + 0.6 = 0.2 > -0.25: fails
    f, _ = phase_figure(_result({"NTK": [-0.7, -0.1]}))
    assert f > 1


@pytest.mark.parametrize("value", [math.nan, 0.0, -1.0, math.inf])
def test_a_bad_distance_fails(value):
    r = _result(_ideal(), RISKS)
    r["runs"][0]["rd_w"][1] = value
    v = figure_3_teacher_verdict(r)
    assert v.status == "failed" and math.isnan(v.max_error)


@pytest.mark.parametrize("value", [math.nan, math.inf])
@pytest.mark.parametrize("model", ["NTK", "mean field"])
def test_a_bad_test_risk_fails(value, model):
    # in the kernel member (an infinite risk there would make the ratio 0) or the feature one
    r = _result(_ideal(), RISKS)
    next(x for x in r["runs"] if x["model"] == model)["test_risk"][0] = value
    v = figure_3_teacher_verdict(r)
    assert v.status == "failed" and math.isnan(v.max_error)


def test_an_empty_run_list_fails():
    v = figure_3_teacher_verdict({"models": [], "runs": []})
    assert v.status == "failed" and v.max_error == NOTHING_COMPARED
    # the models named, but no run: no slope can be fitted
    v = figure_3_teacher_verdict({"models": list(MODELS), "runs": []})
    assert v.status == "failed"


def test_a_phase_reading_without_a_pair_fails():
    # the phases read right but no pair measured: Figure 3 left compared nothing
    r = _result({"NTK": [-0.5] * 3, "Kaiming+": [0.5] * 3})
    assert phase_figure(r)[0] == pytest.approx(0.0, abs=1e-12)
    assert generalisation_figure(r)[0] == NOTHING_COMPARED
    assert figure_3_teacher_verdict(r).status == "failed"


@pytest.mark.parametrize("kappas, repeats", [((64,), 3), ((16, 64), 1)])
def test_one_kappa_or_one_repeat_fails(kappas, repeats):
    r = _result({"NTK": [-0.5] * repeats}, kappas=kappas)
    f, lines = phase_figure(r)
    assert math.isnan(f) and "two" in lines[0]


@pytest.mark.parametrize(
    "ratio, status",
    [(1.0, "failed"), (2.0, "failed"), (0.99 * GAP, "confirmed"), (1.01 * GAP, "failed")],
)
def test_test_risk_tie_reversal_and_border(ratio, status):
    risks = {**{m: 0.1 for m in KERNEL}, **{m: 0.1 * ratio for m in FEATURE}}
    v = figure_3_teacher_verdict(_result(_ideal(), risks))
    assert v.status == status and v.max_error == pytest.approx(ratio / GAP, rel=1e-9)


def test_a_zero_kernel_test_risk_fails():
    risks = {**RISKS, "NTK": 0.0}
    assert math.isnan(generalisation_figure(_result(_ideal(), risks))[0])


@pytest.mark.parametrize(
    "result",
    [None, {"models": ["NTK"]}, {"models": ["ntk"], "runs": []},
     {"models": "NTK", "runs": []}, {"models": ["NTK"], "runs": [{"model": "NTK"}]}],
)  # fmt: skip
def test_verdict_refuses_a_result_of_another_shape(result):
    with pytest.raises(TypeError, match="result"):
        figure_3_teacher_verdict(result)


def test_a_real_pair_passes():
    # a real measurement of one pair at the claim's kappas (about 2 s): NTK's RD vanishes,
    # mean field's does not, and mean field generalises better
    r = figure_3_teacher(models=["NTK", "mean field"], repeats=4, threads=1)
    v = figure_3_teacher_verdict(r)
    assert v.status == "confirmed", v.detail


def test_the_registered_claim_runs_the_verdict_on_the_experiment(monkeypatch):
    seen = {}

    def fake(**kw):
        seen.clear()
        seen.update(kw)
        return _result(_ideal(), RISKS)

    monkeypatch.setattr(phases_conf, "figure_3_teacher", fake)
    assert phases_conf._figure_3_teacher().status == "confirmed"
    assert seen == {"threads": 1}
    phases_conf._figure_3_teacher(full=True)
    assert seen["kappas"][-1] == 4096 and seen["repeats"] == 16
    assert "phases.figure_3_teacher" in [t.id for t in phases_conf.claims()]


# --------------------------------------------------------------------------- Figure 2
SMALL2 = {"sigmas": (0.5, 2.0), "width": 16, "d0": 5, "n_train": 20, "n_test": 30,
          "steps": 20, "repeats": 2, "threads": 1}  # fmt: skip


def test_figure_2_starts_from_one_draw_scaled_by_sigma():
    r = figure_2_teacher(**{**SMALL2, "sigmas": (0.5, 1.0, 3.0)})
    base = np.array(r["runs"][1]["norm_0"])
    for run in r["runs"]:
        assert np.array(run["norm_0"]) == pytest.approx(run["sigma"] * base, rel=1e-12)


def test_figure_2_rate_is_the_step_in_units_of_the_initial_kernel():
    # the rate times the mean NTK diagonal |grad_theta f(x)|^2 at the start, computed by
    # autograd on a wide net, is lr (the diagonal's expectation is k(sigma); 4096 units
    # and 200 inputs: a sampling error of about 1%, 5% is five of it)
    import torch

    r = figure_2_teacher(**{**SMALL2, "sigmas": (0.7,), "width": 4096, "steps": 1,
                            "repeats": 1, "n_train": 200})  # fmt: skip
    d = teacher_data(d0=5, n_train=200, n_test=30, seed=0)
    s = 0.7
    p = initialise({"W": (4096, 5), "a": (4096,)}, 1,
                   scale={"W": s * math.sqrt(2 / 5), "a": s / math.sqrt(4096)})  # fmt: skip
    model = WideTwoLayer(d["X_train"], d["y_train"], activation="relu", scale=1.0)
    W = p["W"].clone().requires_grad_(True)
    a = p["a"].clone().requires_grad_(True)
    X = torch.as_tensor(d["X_train"], dtype=W.dtype)
    out = model.output({"W": W, "a": a}, X)[0]
    diag = []
    for i in range(0, 200, 10):
        gW, ga = torch.autograd.grad(out[i], (W, a), retain_graph=True)
        diag.append(float((gW**2).sum() + (ga**2).sum()))
    assert r["runs"][0]["rate"] * np.mean(diag) == pytest.approx(r["lr"], rel=0.05)


def test_figure_2_reproduced_outside_the_experiment():
    r = figure_2_teacher(**{**SMALL2, "sigmas": (2.0,)})
    d = teacher_data(d0=5, n_train=20, n_test=30, seed=0)
    p0 = initialise({"W": (16, 5), "a": (16,)}, 2,
                    scale={"W": 2.0 * math.sqrt(2 / 5), "a": 2.0 / 4})  # fmt: skip
    model = WideTwoLayer(d["X_train"], d["y_train"], activation="relu", scale=1.0)
    res = gradient_descent(model, p0, r["runs"][0]["rate"], [0, 20], keep_params=True)
    W1, a1 = res.params["W"][-1], res.params["a"][-1]
    norm = ((W1**2).sum((1, 2)) + (a1**2).sum(1)).sqrt().tolist()
    assert r["runs"][0]["norm_end"] == pytest.approx(norm, rel=1e-12)
    test = WideTwoLayer(d["X_test"], d["y_test"], activation="relu", scale=1.0)
    assert r["runs"][0]["test_risk"] == pytest.approx(test.loss({"W": W1, "a": a1}).tolist(),
                                                      rel=1e-12)  # fmt: skip


@pytest.mark.parametrize(
    "kw, err, match",
    [({"sigmas": ()}, TypeError, "sigmas"), ({"sigmas": (0.0,)}, ValueError, "sigmas"),
     ({"sigmas": (-1.0,)}, ValueError, "sigmas"), ({"sigmas": (1.0, 1.0)}, ValueError, "sigmas"),
     ({"sigmas": (1e-4,)}, ValueError, "sigmas"),
     ({"width": 0}, ValueError, "width"), ({"steps": 0}, ValueError, "steps"),
     ({"repeats": 0}, ValueError, "repeats"), ({"lr": 0.0}, ValueError, "lr"),
     ({"d0": 0}, ValueError, "d0"), ({"data_seed": -1}, ValueError, "data_seed"),
     ({"seed": -1}, ValueError, "seed"), ({"progress": 1}, TypeError, "progress")],
)  # fmt: skip
def test_figure_2_refusals_name_the_argument(kw, err, match):
    with pytest.raises(err, match=match):
        figure_2_teacher(**{**SMALL2, **kw})


def test_figure_2_divergent_rate_is_a_value_error_naming_lr():
    with pytest.raises(ValueError, match="lr"):
        figure_2_teacher(**{**SMALL2, "lr": 1e4})


def _result2(means: dict[str, list[float]], spread: float = 0.0, repeats: int = 3) -> dict:
    # one run per sigma = 1, 2, ...; each measure's repeats are mean +- spread
    offsets = np.linspace(-spread, spread, repeats) if repeats > 1 else np.zeros(1)
    n = len(next(iter(means.values())))
    runs = [{"sigma": float(k + 1), "risk_0": [1.0] * repeats, "risk_end": [0.01] * repeats,
             **{key: list(means[key][k] + offsets) for key in means}}
            for k in range(n)]  # fmt: skip
    return {"sigmas": [r["sigma"] for r in runs], "runs": runs}


def test_figure_2_verdict_confirms_growing_measures():
    v = figure_2_teacher_verdict(_result2({"norm_end": [1, 2, 4], "test_risk": [0.1, 0.2, 0.3]},
                                          spread=0.01))  # fmt: skip
    # the SE of each mean from its repeats (-0.01, 0, 0.01); the worst pair is the
    # smallest gap, 0.1 in the test risk
    se = np.std([-0.01, 0.0, 0.01], ddof=1) / math.sqrt(3)
    assert v.status == "confirmed"
    assert v.max_error == pytest.approx(2 * math.hypot(se, se) / 0.1, rel=1e-6)
    assert "not judged" in v.detail


@pytest.mark.parametrize("key", MEASURES2)
@pytest.mark.parametrize("bad", ["tie", "reversed", "nan"])
def test_figure_2_verdict_fails_a_tie_a_reversal_and_a_nan(key, bad):
    means = {"norm_end": [1.0, 2.0, 4.0], "test_risk": [0.1, 0.2, 0.3]}
    if bad == "tie":
        means[key][2] = means[key][1]
    elif bad == "reversed":
        means[key] = means[key][::-1]
    else:
        means[key][0] = math.nan
    v = figure_2_teacher_verdict(_result2(means))
    assert v.status == "failed"


@pytest.mark.parametrize("ratio, status", [(0.99, "confirmed"), (1.01, "failed")])
def test_figure_2_border_at_two_standard_errors(ratio, status):
    # repeats at mean -+ 1 (SE 1 each, 2 SE of the difference 2 sqrt 2): a gap of
    # 2 sqrt(2) / ratio is the border from both sides
    gap = 2 * math.sqrt(2) / ratio
    means = {"norm_end": [0.0, 100.0], "test_risk": [0.0, gap]}
    f, _ = ordering_figure(_result2(means, spread=1.0, repeats=2))
    assert f == pytest.approx(ratio, rel=1e-9) and (f <= 1) == (status == "confirmed")


def test_figure_2_verdict_needs_two_sigmas_and_two_repeats():
    one_sigma = _result2({"norm_end": [1.0], "test_risk": [0.1]})
    v = figure_2_teacher_verdict(one_sigma)
    assert v.status == "failed" and v.max_error == NOTHING_COMPARED
    one_repeat = _result2({"norm_end": [1.0, 2.0], "test_risk": [0.1, 0.2]}, repeats=1)
    assert math.isnan(ordering_figure(one_repeat)[0])
    same = _result2({"norm_end": [1.0, 2.0], "test_risk": [0.1, 0.2]})
    same["runs"][1]["sigma"] = 1.0
    assert math.isnan(ordering_figure(same)[0])
    assert figure_2_teacher_verdict({"runs": []}).status == "failed"


@pytest.mark.parametrize("result", [None, {"sigmas": [1.0]}, {"runs": [{"sigma": 1.0}]},
                                    {"runs": "abc"}])  # fmt: skip
def test_figure_2_verdict_refuses_a_result_of_another_shape(result):
    with pytest.raises(TypeError, match="result"):
        figure_2_teacher_verdict(result)


def test_figure_2_real_measurement_passes():
    v = figure_2_teacher_verdict(figure_2_teacher(threads=1))
    assert v.status == "confirmed", v.detail


def test_the_registered_figure_2_claim_runs_the_verdict(monkeypatch):
    seen = {}

    def fake(**kw):
        seen.clear()
        seen.update(kw)
        return _result2({"norm_end": [1.0, 2.0], "test_risk": [0.1, 0.2]}, spread=0.01)

    monkeypatch.setattr(phases_conf, "figure_2_teacher", fake)
    assert phases_conf._figure_2_teacher().status == "confirmed"
    assert seen == {"threads": 1}
    phases_conf._figure_2_teacher(full=True)
    assert seen["width"] == 1024 and seen["repeats"] == 16
    assert "phases.figure_2_teacher" in [t.id for t in phases_conf.claims()]
