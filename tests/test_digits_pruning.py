"""Seed 000 Section 8.2 (Figure 4, pruning) on scikit-learn's digits (issue 32, item 3): the
loader (:func:`numerics.datasets.load_digits`), the experiment
(:func:`numerics.node_scaling_experiment.digits_pruning`) and the verdict
(:mod:`solvable.verification.pruning`), each from both sides."""

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
from numerics.node_scaling_experiment import digits_pruning
from numerics.node_scaling_experiment.pruning import _kept
from solvable.verification.confirmations import global_convergence as gc_conf
from solvable.verification.pruning import pruning_figure, pruning_verdict

SMALL = {"n_train": 60, "n_test": 50, "width": 10, "steps": 5, "repeats": 2,
         "keep": (1.0, 0.5, 0.1), "threads": 1}  # fmt: skip


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
    r = digits_pruning(**SMALL)
    assert r["keep"] == [1.0, 0.5, 0.1] and r["width"] == 10 and len(r["runs"]) == 4
    for run in r["runs"]:
        assert len(run["test_risk"]) == 3 and all(len(v) == 2 for v in run["test_risk"])
        for risk, acc in zip(run["test_risk"], run["test_accuracy"], strict=True):
            assert all(v >= 0 and math.isfinite(v) for v in risk)
            assert all(0 <= a <= 1 for a in acc)
        assert all(v > 0 for v in run["max_moved"])  # GD moved the first layer
    # more steps lower the training risk (GD at a stable rate)
    longer = digits_pruning(**{**SMALL, "steps": 40})
    for a, b in zip(r["runs"], longer["runs"], strict=True):
        assert np.mean(b["train_risk"]) < np.mean(a["train_risk"])


def test_digits_pruning_the_mask_changes_the_scores():
    # keeping 1 node of 10 (fraction 0.01) is not the unpruned network: the mask is applied
    r = digits_pruning(**{**SMALL, "keep": (1.0, 0.01)})
    for run in r["runs"]:
        assert run["test_risk"][0] != run["test_risk"][1]


@pytest.mark.parametrize(
    "kw, err, match",
    [({"steps": 0}, ValueError, "steps"), ({"repeats": 0}, ValueError, "repeats"),
     ({"keep": (0.0,)}, ValueError, "keep"), ({"keep": (1.5,)}, ValueError, "keep"),
     ({"keep": ()}, TypeError, "keep"), ({"width": 0}, ValueError, "width"),
     ({"lr": -1.0}, ValueError, "lr"), ({"settings": ((2.0, 0.5),)}, ValueError, "gamma"),
     ({"n_train": 0}, ValueError, "n_train"), ({"progress": "yes"}, TypeError, "progress")],
)  # fmt: skip
def test_digits_pruning_refusals(kw, err, match):
    with pytest.raises(err, match=match):
        digits_pruning(**{**SMALL, **kw})


def test_digits_pruning_divergent_rate_is_a_value_error_naming_lr():
    with pytest.raises(ValueError, match="lr"):
        digits_pruning(**{**SMALL, "lr": 1e6, "steps": 50})


# --------------------------------------------------------------------------- the verdict
def _result(means: list[float], spread: float, keep=(1.0, 0.1, 0.05)) -> dict:
    gammas = [(1.0, None), (0.5, 0.7), (0.2, 0.5), (0.0, 0.4)]
    runs = []
    for (g, a), m in zip(gammas, means, strict=True):
        risk = [[m - spread, m + spread] for _ in keep]  # SE = spread * sqrt(2) / sqrt(2)
        runs.append({"gamma": g, "alpha": a, "test_risk": risk})
    return {"keep": list(keep), "runs": runs, "width": 10, "steps": 5}


def test_verdict_confirms_a_clear_ordering_and_reports_the_figure():
    v = pruning_verdict(_result([0.8, 0.5, 0.3, 0.2], 0.01))
    assert v.status == "confirmed"
    # SE of [m - s, m + s] is s (std ddof=1 = s sqrt 2, over sqrt 2); worst gap 0.1
    assert v.max_error == pytest.approx(2 * 0.01 / 0.1, rel=1e-12)
    assert "gamma=1: 0.800" in v.detail and "unpruned" in v.detail


@pytest.mark.parametrize("factor, status", [(0.99, "confirmed"), (1.01, "failed")])
def test_verdict_at_the_two_standard_error_margin_from_both_sides(factor, status):
    # smallest gap 0.1; spread s gives 2 SE = 2 s: the border is s = 0.05
    v = pruning_verdict(_result([0.8, 0.5, 0.3, 0.2], 0.05 * factor))
    assert v.status == status
    assert v.max_error == pytest.approx(factor, rel=1e-9)


@pytest.mark.parametrize("means", [[0.8, 0.5, 0.5, 0.2], [0.8, 0.3, 0.5, 0.2],
                                   [0.2, 0.3, 0.5, 0.8]])  # fmt: skip
def test_verdict_fails_a_tie_or_a_reversed_pair(means):
    v = pruning_verdict(_result(means, 0.0 + 1e-6))
    assert v.status == "failed" and v.max_error > 1


def test_verdict_ignores_the_order_of_the_runs_and_the_unpruned_column():
    r = _result([0.8, 0.5, 0.3, 0.2], 0.01)
    shuffled = copy.deepcopy(r)
    shuffled["runs"] = shuffled["runs"][::-1]
    assert pruning_figure(shuffled) == pruning_figure(r)
    for run in r["runs"]:  # the unpruned column reversed: not judged
        run["test_risk"][0] = [1 - run["gamma"]] * 2
    assert pruning_verdict(r).status == "confirmed"


def test_verdict_judges_only_heavy_pruning():
    r = _result([0.8, 0.5, 0.3, 0.2], 0.01, keep=(1.0, 0.5, 0.1))
    r["runs"][2]["test_risk"][1] = [0.9, 0.9]  # reversed at keep 0.5 (not heavy)
    assert pruning_verdict(r).status == "confirmed"
    assert pruning_verdict(r, heavy=0.5).status == "failed"


@pytest.mark.parametrize(
    "mutate, err, match",
    [(lambda r: r["runs"].__setitem__(slice(None), r["runs"][:1]), ValueError, "two settings"),
     (lambda r: r.__setitem__("keep", [1.0, 0.5, 0.3]), ValueError, "heavy"),
     (lambda r: [run.__setitem__("test_risk", [[0.1]] * 3) for run in r["runs"]], ValueError,
      "two repeats"),
     (lambda r: r.pop("runs"), TypeError, "result"),
     (lambda r: r["runs"][0].pop("gamma"), TypeError, "result")],
)  # fmt: skip
def test_verdict_refusals(mutate, err, match):
    r = _result([0.8, 0.5, 0.3, 0.2], 0.01)
    mutate(r)
    with pytest.raises(err, match=match):
        pruning_verdict(r)


@pytest.mark.parametrize("heavy", [0.0, -0.1, 1.5, math.nan])
def test_verdict_heavy_out_of_range(heavy):
    with pytest.raises(ValueError, match="heavy"):
        pruning_figure(_result([0.8, 0.5, 0.3, 0.2], 0.01), heavy)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=4, max_size=4, unique=True),
       st.floats(1e-6, 0.2))  # fmt: skip
def test_verdict_confirms_exactly_when_sorted_with_gaps_above_two_se(means, spread):
    r = _result(means, spread)
    gaps = [a - b for a, b in itertools.pairwise(means)]  # runs by decreasing gamma
    expect = all(g > 2 * spread * (1 + 1e-9) for g in gaps)
    border = any(abs(g - 2 * spread) <= 1e-9 * max(g, 1e-300) for g in gaps)
    if not border:
        assert (pruning_verdict(r).status == "confirmed") == expect


def test_the_registered_claim_runs_the_verdict_on_the_experiment(monkeypatch):
    seen = {}

    def fake(**kw):
        seen.update(kw)
        return _result([0.8, 0.5, 0.3, 0.2], 0.01)

    monkeypatch.setattr(gc_conf, "digits_pruning", fake)
    assert gc_conf._digits_pruning().status == "confirmed"
    assert seen == {"threads": 1}
    gc_conf._digits_pruning(full=True)
    assert seen["width"] == 2000 and seen["steps"] == 2000 and seen["repeats"] == 5
    ids = [t.id for t in gc_conf.claims()]
    assert "global_convergence.section_8_2_pruning_digits" in ids
