"""Seed 000 Section 8.2 (Figure 4, pruning and transfer) on scikit-learn's digits (issue 32,
item 3): the loader (:func:`numerics.datasets.load_digits`), the experiment
(:func:`numerics.node_scaling_experiment.section_8_2_digits`) and the verdicts
(:mod:`solvable.verification.section_8_2`), each from both sides."""

from __future__ import annotations

import copy
import itertools
import math
import sys

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.datasets import N_DIGITS, load_digits
from numerics.node_scaling_experiment import nested_parameters, node_scalings, section_8_2_digits
from numerics.node_scaling_experiment.network import _model
from numerics.node_scaling_experiment.section_8_2 import _kept, _readout_risk
from numerics.torch_flow import gradient_descent
from solvable.verification.confirmations import global_convergence as gc_conf
from solvable.verification.section_8_2 import (
    pruning_figure,
    section_8_2_verdict,
    transfer_figure,
)

SMALL = {"n_train": 60, "n_test": 50, "n_transfer": 40, "width": 10, "steps": 5,
         "repeats": 2, "keep": (1.0, 0.5, 0.1), "features": (1, 3), "threads": 1}  # fmt: skip


# --------------------------------------------------------------------------- the loader
def test_digits_split_sizes_norms_targets_and_determinism():
    d = load_digits(n_train=300, n_test=200, seed=3, positive=(1, 7))
    assert d["X_train"].shape == (300, 64) and d["X_test"].shape == (200, 64)
    for part in ("train", "test"):
        np.testing.assert_allclose(np.linalg.norm(d[f"X_{part}"], axis=1), 1.0, rtol=4e-16)
        want = np.where(np.isin(d[f"labels_{part}"], (1, 7)), 1.0, -1.0)
        np.testing.assert_array_equal(d[f"y_{part}"], want)
    assert set(np.unique(d["labels_train"])) <= set(range(10))
    again = load_digits(n_train=300, n_test=200, seed=3, positive=(1, 7))
    for k, v in d.items():
        np.testing.assert_array_equal(v, again[k])
    other = load_digits(n_train=300, n_test=200, seed=4, positive=(1, 7))
    assert not np.array_equal(other["X_train"], d["X_train"])


def test_digits_rows_are_the_images_centred_on_the_training_mean_and_scaled():
    import sklearn.datasets

    raw = sklearn.datasets.load_digits()
    d = load_digits(n_train=1000, n_test=N_DIGITS - 1000, seed=2)
    tr, te = d["index_train"], d["index_test"]
    assert len(set(tr) | set(te)) == N_DIGITS  # disjoint, and together the whole set
    np.testing.assert_array_equal(d["labels_test"], raw.target[te])
    centre = raw.data[tr].mean(axis=0)
    for part, rows in (("train", tr), ("test", te)):
        Z = raw.data[rows] - centre
        # each row is Z_i / |Z_i|: parallel to Z_i with a positive factor
        np.testing.assert_allclose(d[f"X_{part}"] * np.linalg.norm(Z, axis=1, keepdims=True),
                                   Z, rtol=0, atol=1e-12 * np.abs(Z).max())  # fmt: skip


@pytest.mark.parametrize(
    "kw, match",
    [({"n_train": 0}, "n_train"), ({"n_train": N_DIGITS}, "n_train"),
     ({"n_train": 1000, "n_test": N_DIGITS - 999}, "n_test"), ({"n_test": 0}, "n_test"),
     ({"seed": -1}, "seed"), ({"positive": ()}, "positive"), ({"positive": (1, 1)}, "positive"),
     ({"positive": tuple(range(10))}, "positive"), ({"positive": (10,)}, "positive"),
     ({"positive": (-1,)}, "positive")],
)  # fmt: skip
def test_digits_refusals_name_the_argument(kw, match):
    with pytest.raises(ValueError, match=match):
        load_digits(**kw)


def test_digits_one_training_image_is_its_own_mean_and_refused():
    with pytest.raises(ValueError, match="n_train = 1"):
        load_digits(n_train=1, n_test=10)


@pytest.mark.parametrize("bad", ["02468", 3, None, 2.0])
def test_digits_positive_must_be_a_sequence_of_ints(bad):
    with pytest.raises(TypeError, match="positive"):
        load_digits(positive=bad)


def test_digits_boundaries_accepted():
    d = load_digits(n_train=2, n_test=N_DIGITS - 2, positive=tuple(range(9)))
    assert len(d["y_train"]) == 2 and len(d["y_test"]) == N_DIGITS - 2
    assert set(np.unique(d["y_test"])) == {-1.0, 1.0}


def test_digits_without_scikit_learn_is_a_clear_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "sklearn.datasets", None)
    with pytest.raises(ImportError, match="scikit-learn"):
        load_digits()


# --------------------------------------------------------------------------- the experiment
def test_kept_mask_keeps_the_largest_importances():
    imp = torch.tensor([[0.1, 5.0, 3.0, 0.2], [9.0, 0.0, 1.0, 2.0]], dtype=torch.float64)
    np.testing.assert_array_equal(_kept(imp, 0.5).numpy(), [[0, 1, 1, 0], [1, 0, 0, 1]])
    np.testing.assert_array_equal(_kept(imp, 0.01).numpy(), [[0, 1, 0, 0], [1, 0, 0, 0]])
    np.testing.assert_array_equal(_kept(imp, 1.0).numpy(), np.ones((2, 4)))
    np.testing.assert_array_equal(_kept(imp, 0.74).sum(-1).numpy(), [2, 2])  # floor(2.96)


def test_digits_pruning_result_shape_and_the_unpruned_network():
    r = section_8_2_digits(**SMALL)
    assert r["keep"] == [1.0, 0.5, 0.1] and r["width"] == 10 and len(r["runs"]) == 4
    assert r["features"] == [1, 3] and r["n_transfer"] == 40
    for run in r["runs"]:
        assert len(run["test_risk"]) == 3 and all(len(v) == 2 for v in run["test_risk"])
        for risk, acc in zip(run["test_risk"], run["test_accuracy"], strict=True):
            assert all(v >= 0 and math.isfinite(v) for v in risk)
            assert all(0 <= a <= 1 for a in acc)
        assert all(v > 0 for v in run["max_moved"])  # GD moved the first layer
    # more steps lower the training risk (GD at a stable rate)
    longer = section_8_2_digits(**{**SMALL, "steps": 40})
    for a, b in zip(r["runs"], longer["runs"], strict=True):
        assert np.mean(b["train_risk"]) < np.mean(a["train_risk"])


def test_readout_risk_is_zero_for_targets_the_features_span_and_scores_held_out_data():
    g = torch.Generator().manual_seed(0)
    F = torch.randn(3, 30, 4, generator=g, dtype=torch.float64)
    coef = torch.tensor([0.5, -2.0, 1.0, 0.25], dtype=torch.float64)
    y = F[0] @ coef + 0.7  # linear in network 0's features, with an intercept
    risk = _readout_risk(F[:, :20], y[:20], F[:, 20:], y[20:])
    assert risk.shape == (3,)
    assert float(risk[0]) < 1e-25  # exact fit: rounding only
    assert float(risk[1]) > 1e-3 and float(risk[2]) > 1e-3  # other features: no fit
    # scored on the second set, not the first: a target off on the scored rows only
    y_off = y.clone()
    y_off[20:] += 1.0
    assert float(_readout_risk(F[:, :20], y_off[:20], F[:, 20:], y_off[20:])[0]) == (
        pytest.approx(1.0, rel=1e-9)
    )


def test_digits_transfer_risks_one_per_number_of_features_finite():
    r = section_8_2_digits(**{**SMALL, "features": (1, 10), "steps": 40})
    for run in r["runs"]:
        assert len(run["transfer_risk"]) == 2
        assert all(v >= 0 and math.isfinite(v) for k in (0, 1) for v in run["transfer_risk"][k])
        assert run["transfer_risk"][0] != run["transfer_risk"][1]  # k is applied


def test_digits_pruning_the_mask_changes_the_scores():
    # keeping 1 node of 10 (fraction 0.01) is not the unpruned network: the mask is applied
    r = section_8_2_digits(**{**SMALL, "keep": (1.0, 0.01)})
    for run in r["runs"]:
        assert run["test_risk"][0] != run["test_risk"][1]


@pytest.mark.parametrize(
    "kw, err, match",
    [({"steps": 0}, ValueError, "steps"), ({"repeats": 0}, ValueError, "repeats"),
     ({"keep": (0.0,)}, ValueError, "keep"), ({"keep": (1.5,)}, ValueError, "keep"),
     ({"keep": ()}, TypeError, "keep"), ({"width": 0}, ValueError, "width"),
     ({"lr": -1.0}, ValueError, "lr"), ({"settings": ((2.0, 0.5),)}, ValueError, "gamma"),
     ({"n_train": 0}, ValueError, "n_train"), ({"progress": "yes"}, TypeError, "progress"),
     ({"features": (0,)}, ValueError, "features"), ({"features": (11,)}, ValueError, "features"),
     ({"n_transfer": 1}, ValueError, "n_transfer"),
     ({"n_train": 1000, "n_test": 700, "n_transfer": 98}, ValueError, "n_transfer"),
     ({"n_train": 1000, "n_test": 796}, ValueError, "n_test"),
     ({"data_seed": -1}, ValueError, "data_seed")],
)  # fmt: skip
def test_digits_pruning_refusals(kw, err, match):
    with pytest.raises(err, match=match):
        section_8_2_digits(**{**SMALL, **kw})


def test_digits_pruning_divergent_rate_is_a_value_error_naming_lr():
    with pytest.raises(ValueError, match="lr"):
        section_8_2_digits(**{**SMALL, "lr": 1e6, "steps": 50})


# --------------------------------------------------------------------------- the verdicts
GAMMAS = [(1.0, None), (0.5, 0.7), (0.2, 0.5), (0.0, 0.4)]
CLEAR = [0.8, 0.5, 0.3, 0.2]  # smallest gap 0.1


def _result(means=CLEAR, spread=0.01, keep=(1.0, 0.1, 0.05), transfer=CLEAR, t_spread=0.01,
            features=(1, 5, 20)) -> dict:  # fmt: skip
    """A result of the experiment's shape: two repeats ``m - s``, ``m + s`` per entry (their
    standard error is ``s``: std (ddof 1) ``s sqrt 2`` over ``sqrt 2``)."""
    runs = []
    for (g, a), m, mt in zip(GAMMAS, means, transfer, strict=True):
        runs.append(
            {
                "gamma": g,
                "alpha": a,
                "test_risk": [[m - spread, m + spread] for _ in keep],
                "transfer_risk": [[mt - t_spread, mt + t_spread] for _ in features],
            }
        )
    return {"keep": list(keep), "features": list(features), "runs": runs, "width": 10,
            "steps": 5}  # fmt: skip


def test_verdict_confirms_clear_orderings_and_reports_the_larger_figure():
    v = section_8_2_verdict(_result(spread=0.01, t_spread=0.05))
    assert v.status == "confirmed"
    assert v.max_error == pytest.approx(max(2 * 0.01 / 0.1, 2 * 0.05 / 0.6), rel=1e-12)
    assert "gamma=1: 0.800" in v.detail and "unpruned" in v.detail and "transfer" in v.detail


@pytest.mark.parametrize("factor, status", [(0.99, "confirmed"), (1.01, "failed")])
def test_pruning_at_the_two_standard_error_margin_from_both_sides(factor, status):
    # smallest adjacent gap 0.1; spread s gives 2 SE = 2 s: the border is s = 0.05
    r = _result(spread=0.05 * factor)
    assert pruning_figure(r)[0] == pytest.approx(factor, rel=1e-9)
    assert section_8_2_verdict(r).status == status


@pytest.mark.parametrize("factor, status", [(0.99, "confirmed"), (1.01, "failed")])
def test_transfer_at_the_two_standard_error_margin_from_both_sides(factor, status):
    # gamma = 1 against gamma = 0: gap 0.6, border spread 0.3
    r = _result(t_spread=0.3 * factor)
    assert transfer_figure(r)[0] == pytest.approx(factor, rel=1e-9)
    assert section_8_2_verdict(r).status == status


@pytest.mark.parametrize("means", [[0.8, 0.5, 0.5, 0.2], [0.8, 0.3, 0.5, 0.2],
                                   [0.2, 0.3, 0.5, 0.8]])  # fmt: skip
def test_pruning_fails_a_tie_or_a_reversed_pair(means):
    v = section_8_2_verdict(_result(means, 1e-6))
    assert v.status == "failed" and v.max_error > 1


@pytest.mark.parametrize("transfer, status", [([0.8, 0.9, 0.95, 0.2], "confirmed"),
                                              ([0.5, 0.3, 0.2, 0.5], "failed"),
                                              ([0.2, 0.3, 0.5, 0.8], "failed")])  # fmt: skip
def test_transfer_judges_the_extremes_only(transfer, status):
    # the settings in between are reported, not judged; a tie or a reversal of the
    # extremes fails
    assert section_8_2_verdict(_result(transfer=transfer)).status == status


def test_verdict_ignores_the_order_of_the_runs_and_the_unpruned_column():
    r = _result()
    shuffled = copy.deepcopy(r)
    shuffled["runs"] = shuffled["runs"][::-1]
    assert pruning_figure(shuffled) == pruning_figure(r)
    assert transfer_figure(shuffled) == transfer_figure(r)
    for run in r["runs"]:  # the unpruned column reversed: not judged
        run["test_risk"][0] = [1 - run["gamma"]] * 2
    assert section_8_2_verdict(r).status == "confirmed"


def test_verdict_judges_only_heavy_pruning_and_few_features():
    r = _result(keep=(1.0, 0.5, 0.1))
    r["runs"][2]["test_risk"][1] = [0.9, 0.9]  # reversed at keep 0.5 (not heavy)
    r["runs"][3]["transfer_risk"][2] = [0.9, 0.9]  # reversed at 20 features (not few)
    assert section_8_2_verdict(r).status == "confirmed"
    assert section_8_2_verdict(r, heavy=0.5).status == "failed"
    assert section_8_2_verdict(r, few=20).status == "failed"


@pytest.mark.parametrize(
    "mutate, err, match",
    [(lambda r: r["runs"].__setitem__(slice(None), r["runs"][:1]), ValueError, "two settings"),
     (lambda r: r.__setitem__("keep", [1.0, 0.5, 0.3]), ValueError, "heavy"),
     (lambda r: r.__setitem__("features", [10, 20, 30]), ValueError, "few"),
     (lambda r: [run.__setitem__("test_risk", [[0.1]] * 3) for run in r["runs"]], ValueError,
      "two repeats"),
     (lambda r: [run.__setitem__("transfer_risk", [[0.1]] * 3) for run in r["runs"]],
      ValueError, "two repeats"),
     (lambda r: r.pop("runs"), TypeError, "result"),
     (lambda r: r["runs"][0].pop("gamma"), TypeError, "result"),
     (lambda r: r["runs"][0]["transfer_risk"].pop(), TypeError, "result")],
)  # fmt: skip
def test_verdict_refusals(mutate, err, match):
    r = _result()
    mutate(r)
    with pytest.raises(err, match=match):
        section_8_2_verdict(r)


@pytest.mark.parametrize("heavy", [0.0, -0.1, 1.5, math.nan])
def test_heavy_out_of_range(heavy):
    with pytest.raises(ValueError, match="heavy"):
        pruning_figure(_result(), heavy)


@pytest.mark.parametrize("few", [0, -1])
def test_few_out_of_range(few):
    with pytest.raises(ValueError, match="few"):
        transfer_figure(_result(), few)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4, unique=True),
       st.floats(1e-6, 0.2))  # fmt: skip
def test_pruning_confirms_exactly_when_sorted_with_gaps_above_two_se(means, spread):
    gaps = [a - b for a, b in itertools.pairwise(means)]  # runs by decreasing gamma
    expect = all(g > 2 * spread for g in gaps)
    border = any(abs(g - 2 * spread) <= 1e-9 * max(abs(g), 1e-300) for g in gaps)
    if not border:
        assert (pruning_figure(_result(means, spread))[0] <= 1) == expect


def test_the_registered_claim_runs_the_verdict_on_the_experiment(monkeypatch):
    seen = {}

    def fake(**kw):
        seen.clear()
        seen.update(kw)
        return _result()

    monkeypatch.setattr(gc_conf, "section_8_2_digits", fake)
    assert gc_conf._section_8_2_digits().status == "confirmed"
    assert seen == {"threads": 1}
    gc_conf._section_8_2_digits(full=True)
    assert seen["width"] == 2000 and seen["steps"] == 2000 and seen["repeats"] == 5
    assert seen["n_train"] + seen["n_test"] + seen["n_transfer"] == N_DIGITS
    ids = [t.id for t in gc_conf.claims()]
    assert "global_convergence.section_8_2_digits" in ids


def test_pruning_keeps_the_nodes_of_largest_lambda_times_squared_norm():
    # the run reproduced outside the experiment (its data, start and GD), the importance
    # lambda_j |w_tj|^2 from the model's node scalings (Section 8.2), the pruned test risk
    # gamma = 0 (pure Zipf, alpha 0.5: lambda_j ~ j^-2) at width 40, 30% kept: near the
    # cut neighbouring lambdas differ by ~15% while the |w_tj|^2 (64-dim Gaussians) differ
    # by more, so ranking by lambda_j |w|^2 and by sqrt(lambda_j) |w|^2 keep different nodes
    kw = {**SMALL, "width": 40, "settings": ((0.0, 0.5),), "keep": (0.3,), "features": (1,),
          "steps": 30}  # fmt: skip
    r = section_8_2_digits(**kw)
    d = load_digits(n_train=kw["n_train"], n_test=kw["n_test"] + kw["n_transfer"], seed=0)
    lam = node_scalings(kw["width"], 0.0, 0.5)
    model = _model(d["X_train"], d["y_train"], "swish")
    p0 = nested_parameters([lam] * kw["repeats"], 64, [0, 1000])
    res = gradient_descent(model, p0, 1.0, np.array([0, 30]), keep_params=True)
    W, a, s = (res.params[k][-1] for k in ("W", "a", "s"))
    importance = torch.as_tensor(lam)[None, :] * (W**2).sum(-1)
    k = math.floor(0.3 * kw["width"])
    mask = torch.zeros_like(s)
    mask.scatter_(1, torch.argsort(importance, dim=-1, descending=True)[:, :k], 1.0)
    Xte = torch.as_tensor(d["X_test"][: kw["n_test"]])
    out = model.output({"W": W, "a": a, "s": s * mask}, Xte)
    want = ((out - torch.as_tensor(d["y_test"][: kw["n_test"]])) ** 2).mean(-1).tolist()
    assert r["runs"][0]["test_risk"][0] == pytest.approx(want, rel=1e-12)
    # the check can tell the two rankings apart here
    other = torch.as_tensor(np.sqrt(lam))[None, :] * (W**2).sum(-1)
    assert not torch.equal(
        torch.argsort(importance, dim=-1, descending=True)[:, :k].sort().values,
        torch.argsort(other, dim=-1, descending=True)[:, :k].sort().values,
    )
