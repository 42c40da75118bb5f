"""Seed 000 Section 8.2.1 (Figure 3) on scikit-learn's diabetes set: the loader
(numerics.datasets.load_diabetes), the experiment
(numerics.node_scaling_experiment.section_8_2_1_regression) and the verdict
(solvable.verification.section_8_2.section_8_2_1_verdict), each from both sides."""

from __future__ import annotations

import copy
import functools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics.datasets import N_DIABETES, load_diabetes
from numerics.node_scaling_experiment import section_8_2_1_regression
from solvable.verification import section_8_2 as s82

pytest.importorskip("sklearn")


# ---------------------------------------------------------------------------
# the loader
# ---------------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), train=st.floats(0.05, 0.8), test=st.floats(0.05, 0.5),
       unit_rows=st.booleans())  # fmt: skip
def test_load_diabetes_splits_and_standardises(seed, train, test, unit_rows):
    if train + test >= 0.99:
        with pytest.raises(ValueError, match="train"):
            load_diabetes(seed=seed, train=train, test=test, unit_rows=unit_rows)
        return
    d = load_diabetes(seed=seed, train=train, test=test, unit_rows=unit_rows)
    idx = [d[f"index_{p}"] for p in ("train", "test", "valid")]
    assert len(idx[0]) == int(train * N_DIABETES) and len(idx[1]) == int(test * N_DIABETES)
    assert sorted(np.concatenate(idx).tolist()) == list(range(N_DIABETES))  # a partition
    assert d["y_train"].mean() == pytest.approx(0, abs=1e-12)
    assert d["y_train"].std() == pytest.approx(1, rel=1e-12)
    if unit_rows:
        for p in ("train", "test", "valid"):
            np.testing.assert_allclose(np.linalg.norm(d[f"X_{p}"], axis=1), 1, rtol=1e-12)
    else:
        np.testing.assert_allclose(d["X_train"].mean(0), 0, atol=1e-12)
        np.testing.assert_allclose(d["X_train"].std(0), 1, rtol=1e-12)
    # the same seed gives the same split, another seed another one
    again = load_diabetes(seed=seed, train=train, test=test, unit_rows=unit_rows)
    np.testing.assert_array_equal(again["index_test"], d["index_test"])
    other = load_diabetes(seed=(seed + 1) % 2**32, train=train, test=test)
    assert not np.array_equal(other["index_train"], d["index_train"])


def test_load_diabetes_default_is_the_papers_40_20_40_split():
    d = load_diabetes()
    assert [len(d[f"y_{p}"]) for p in ("train", "test", "valid")] == [176, 88, 178]
    assert d["X_train"].shape == (176, 10)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"train": 0.0}, "train"),
        ({"train": 1.0}, "train"),
        ({"test": -0.1}, "test"),
        ({"train": 0.7, "test": 0.3}, "train + test"),
        ({"train": 0.002}, "train"),  # 0 rows
        ({"train": 0.5, "test": 0.4985}, "train + test"),  # 1 validation row
        ({"seed": -1}, "seed"),
        ({"train": math.nan}, "train"),
    ],
)
def test_load_diabetes_refuses_naming_the_argument(kwargs, name):
    with pytest.raises(ValueError, match=name.replace("+", r"\+")):
        load_diabetes(**kwargs)


@pytest.mark.parametrize("kwargs, name", [({"train": "0.4x"}, "train"),
                                          ({"unit_rows": 1}, "unit_rows"),
                                          ({"seed": 1.5}, "seed")])  # fmt: skip
def test_load_diabetes_refuses_wrong_types(kwargs, name):
    with pytest.raises((TypeError, ValueError), match=name):
        load_diabetes(**kwargs)


# ---------------------------------------------------------------------------
# the experiment
# ---------------------------------------------------------------------------
@functools.cache
def _small() -> dict:
    return section_8_2_1_regression(width=20, steps=60, repeats=2, features=[1, 2, 20],
                                    threads=1)  # fmt: skip


def test_experiment_trains_and_measures():
    r = _small()
    assert [run["gamma"] for run in r["runs"]] == [1.0, 0.5, 0.2, 0.0]
    assert (r["n_train"], r["n_test"], r["n_valid"]) == (176, 88, 178)
    for run in r["runs"]:
        assert all(0 < v < 1 for v in run["train_risk"])  # fit below the zero predictor's 1
        # the held-out mean squared error: positive, and below the zero predictor's (the
        # target standardised by the training rows: about 1 on the test rows; ~0.5 here)
        assert all(0 < v < 1 for v in run["test_risk"])
        assert all(v > 0 for v in run["max_moved"]) and all(v > 0 for v in run["ntg_change"])
        assert len(run["transfer_risk"]) == 3 and all(len(t) == 2 for t in run["transfer_risk"])
        # the readout of all 20 features beats the zero predictor (the standardised
        # target's variance is about 1)
        assert np.mean(run["transfer_risk"][2]) < 1


def test_experiment_without_steps_moves_less():
    few = section_8_2_1_regression(width=20, steps=1, repeats=2, features=[1], threads=1)
    many = _small()
    for a, b in zip(few["runs"], many["runs"], strict=True):
        assert max(a["max_moved"]) < min(b["max_moved"])
        assert np.mean(a["train_risk"]) > np.mean(b["train_risk"])


def test_experiment_diverging_rate_is_refused_naming_lr():
    with pytest.raises(ValueError, match="lr"):
        section_8_2_1_regression(width=20, steps=200, repeats=1, features=[1], lr=50.0,
                                 threads=1)  # fmt: skip


# ---------------------------------------------------------------------------
# the verdict, on hand-made results (both sides) and on the small run
# ---------------------------------------------------------------------------
def _made(moved, ntg, transfer, spread=0.01):
    """A result with the given per-setting means (gamma 1, 0.5, 0.2, 0) over 4 repeats."""
    jitter = np.array([-1.5, -0.5, 0.5, 1.5]) * spread
    runs = []
    for g, al, mv, nt, tr in zip((1.0, 0.5, 0.2, 0.0), (None, 0.7, 0.5, 0.4), moved, ntg,
                                 transfer, strict=True):  # fmt: skip
        runs.append({"gamma": g, "alpha": al, "max_moved": (mv + jitter).tolist(),
                     "ntg_change": (nt + jitter).tolist(),
                     "transfer_risk": [(t + jitter).tolist() for t in tr]})  # fmt: skip
    return {"features": [1, 2], "runs": runs, "width": 10, "steps": 5}


_GOOD = _made([1, 2, 3, 4], [0.1, 0.2, 0.3, 0.4], [[0.9, 0.8], [0.8, 0.7], [0.7, 0.6],
                                                     [0.6, 0.5]])  # fmt: skip


def test_verdict_confirms_every_ordering_when_ordered():
    v = s82.section_8_2_1_verdict(_GOOD, caveats={})
    assert v.status == "confirmed" and 0 < v.max_error <= 1
    orders = s82.regression_orderings(_GOOD)
    assert set(orders) == {"weight_change 1 -> 0.5", "weight_change 0.5 -> 0.2",
                           "weight_change 0.2 -> 0", "ntg_change 1 -> 0.5",
                           "ntg_change 0.5 -> 0.2", "ntg_change 0.2 -> 0", "transfer k=1",
                           "transfer k=2"}  # fmt: skip
    assert all(0 < f <= 1 for f, _ in orders.values())


@pytest.mark.parametrize(
    "broken",
    [
        _made([1, 2, 4, 3], [0.1, 0.2, 0.3, 0.4], [[0.9, 0.8]] * 3 + [[0.6, 0.5]]),  # reversed
        _made([1, 2, 3, 4], [0.4, 0.3, 0.2, 0.1], [[0.9, 0.8]] * 3 + [[0.6, 0.5]]),  # reversed
        _made([1, 2, 3, 3], [0.1, 0.2, 0.3, 0.4], [[0.9, 0.8]] * 3 + [[0.6, 0.5]]),  # a tie
        _made([1, 2, 3, 4], [0.1, 0.2, 0.3, 0.4], [[0.6, 0.5]] * 3 + [[0.9, 0.8]]),  # transfer
        _made([1, 2, 3, 4], [0.1, 0.2, 0.3, 0.4], [[0.9, 0.8]] * 4),  # transfer tie
        _made([1, 2, 3, 4], [0.1, 0.2, 0.3, 0.4], [[0.9, 0.8]] * 3 + [[0.6, 0.5]], spread=1.0),
        _made([1, 2, math.nan, 4], [0.1, 0.2, 0.3, 0.4], [[0.9, 0.8]] * 3 + [[0.6, 0.5]]),
    ],
)
def test_verdict_fails_a_broken_ordering(broken):
    assert s82.section_8_2_1_verdict(broken, caveats={}).status == "failed"


def test_a_caveat_is_reported_not_judged():
    broken = _made([1, 2, 4, 3], [0.1, 0.2, 0.3, 0.4], [[0.9, 0.8]] * 3 + [[0.6, 0.5]])
    v = s82.section_8_2_1_verdict(broken, caveats={"weight_change 0.2 -> 0": "why"})
    assert v.status == "confirmed"
    assert "weight_change 0.2 -> 0: not reproduced" in v.detail and "why" in v.detail
    # the default caveats are the reduced run's; on a fully ordered result they "hold here"
    cav = {k: v for k, v in s82.CAVEATS_8_2_1.items() if k != "transfer k=5"}  # k <= 2 here
    v = s82.section_8_2_1_verdict(_GOOD, caveats=cav)
    assert v.status == "confirmed" and "holds here" in v.detail


def test_verdict_refusals():
    with pytest.raises(ValueError, match="caveats"):
        s82.section_8_2_1_verdict(_GOOD, caveats={"no such ordering": "x"})
    every = {k: "x" for k in s82.regression_orderings(_GOOD)}
    with pytest.raises(ValueError, match="nothing is asserted"):
        s82.section_8_2_1_verdict(_GOOD, caveats=every)
    with pytest.raises(ValueError, match="few"):
        s82.regression_orderings(_GOOD, few=0)
    with pytest.raises(TypeError, match="result"):
        s82.regression_orderings({"runs": []})
    one_repeat = copy.deepcopy(_GOOD)
    for run in one_repeat["runs"]:
        run["max_moved"] = run["max_moved"][:1]
    with pytest.raises(ValueError, match="two repeats"):
        s82.regression_orderings(one_repeat)


def test_verdict_reads_the_small_run():
    orders = s82.regression_orderings(_small(), few=2)
    assert len(orders) == 8
    v = s82.section_8_2_1_verdict(_small(), caveats={}, few=2)
    worst = max(f for f, _ in orders.values())
    assert v.max_error == pytest.approx(min(worst, 1e300))
    assert v.status == ("confirmed" if worst <= 1 else "failed") and "diabetes" in v.detail
