"""Seed 000 Section 8.2.2, CIFAR (Figure 5), on scikit-learn's digits with ten classes: the
experiment (numerics.node_scaling_experiment.section_8_2_2_classification: SGD, cross-entropy,
both layers trained, pruning) and the verdict (solvable.verification.section_8_2.
section_8_2_2_verdict), each from both sides."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from numerics.node_scaling_experiment import section_8_2_2_classification
from solvable.verification import section_8_2 as s82

pytest.importorskip("sklearn")

_SMALL = {"width": 12, "n_train": 120, "n_test": 100, "repeats": 2, "keep": [1.0, 0.1],
          "threads": 1}  # fmt: skip


@functools.cache
def _run(steps: int) -> dict:
    return section_8_2_2_classification(steps=steps, **_SMALL)


def test_experiment_trains_both_layers_and_prunes():
    short, long = _run(1), _run(80)
    for a, b in zip(short["runs"], long["runs"], strict=True):
        assert a["gamma"] == b["gamma"]
        # SGD lowers the training cross-entropy below the uniform guess log(10) and moves W
        assert np.mean(b["train_risk"]) < min(np.mean(a["train_risk"]), math.log(10))
        assert min(b["max_moved"]) > max(a["max_moved"]) > 0
        for risk, acc in zip(b["test_risk"], b["test_accuracy"], strict=True):
            assert all(r > 0 for r in risk) and all(0 <= x <= 1 for x in acc)
    # trained, the unpruned gamma = 1 nets classify the ten digits far above chance (0.1)
    assert np.mean(long["runs"][0]["test_accuracy"][0]) > 0.3


def test_experiment_refusals_name_the_argument():
    with pytest.raises(ValueError, match="batch"):
        section_8_2_2_classification(batch=200, **_SMALL)
    with pytest.raises(ValueError, match="lr"):
        section_8_2_2_classification(steps=50, lr=1e6, **_SMALL)
    with pytest.raises(ValueError, match="steps"):
        section_8_2_2_classification(steps=10**9, **_SMALL)


def _made(moved, risk, acc, spread=0.01):
    """A result with the given per-setting means (gamma 1, 0.5, 0.2, 0) over 4 repeats; keep
    fractions (1.0, 0.1): ``risk``, ``acc`` per setting as [unpruned, 10% kept]."""
    jitter = np.array([-1.5, -0.5, 0.5, 1.5]) * spread
    runs = []
    for g, al, mv, rk, ac in zip((1.0, 0.5, 0.2, 0.0), (None, 0.7, 0.5, 0.4), moved, risk, acc,
                                 strict=True):  # fmt: skip
        runs.append({"gamma": g, "alpha": al, "max_moved": (mv + jitter).tolist(),
                     "test_risk": [(v + jitter).tolist() for v in rk],
                     "test_accuracy": [(v + jitter).tolist() for v in ac]})  # fmt: skip
    return {"keep": [1.0, 0.1], "runs": runs, "width": 10, "steps": 5, "batch": 4}


_RISK = [[1.0, 2.0], [1.1, 1.6], [1.2, 1.4], [1.3, 1.2]]
_ACC = [[0.9, 0.3], [0.8, 0.4], [0.7, 0.5], [0.6, 0.6]]
_GOOD = _made([1, 2, 3, 4], _RISK, _ACC)


def test_verdict_confirms_when_every_ordering_holds():
    orders = s82.classification_orderings(_GOOD)
    assert len(orders) == 9 and all(0 < f <= 1 for f, _ in orders.values())
    v = s82.section_8_2_2_verdict(_GOOD, caveats={})
    assert v.status == "confirmed" and "unpruned test accuracy" in v.detail
    assert v.max_error == pytest.approx(max(f for f, _ in orders.values()))


@pytest.mark.parametrize(
    "broken",
    [
        _made([1, 2, 4, 3], _RISK, _ACC),  # weight change reversed
        _made([1, 2, 3, 4], [[1.0, 2.0], [1.1, 1.4], [1.2, 1.6], [1.3, 1.2]], _ACC),  # risk
        _made([1, 2, 3, 4], _RISK, [[0.9, 0.3], [0.8, 0.5], [0.7, 0.4], [0.6, 0.6]]),  # acc
        _made([1, 2, 3, 4], [[1.0, 2.0], [1.1, 1.6], [1.2, 1.6], [1.3, 1.2]], _ACC),  # tie
        _made([1, 2, 3, 4], _RISK, _ACC, spread=0.5),  # gaps within 2 SE
        _made([1, 2, 3, math.nan], _RISK, _ACC),
    ],
)
def test_verdict_fails_a_broken_ordering(broken):
    assert s82.section_8_2_2_verdict(broken, caveats={}).status == "failed"


def test_caveats_are_reported_not_judged():
    broken = _made([1, 2, 3, 4], _RISK, [[0.9, 0.3], [0.8, 0.5], [0.7, 0.4], [0.6, 0.6]])
    v = s82.section_8_2_2_verdict(broken, caveats={"accuracy at 0.1: 0.5 -> 0.2": "why"})
    assert v.status == "confirmed" and "not reproduced" in v.detail and "why" in v.detail
    # the default caveats name orderings at 5% and 2% kept too: this result has only 10%
    with pytest.raises(ValueError, match="caveats"):
        s82.section_8_2_2_verdict(_GOOD)


def test_verdict_refusals():
    with pytest.raises(ValueError, match="heavy"):
        s82.classification_orderings(_GOOD, heavy=0.05)
    with pytest.raises(ValueError, match="heavy"):
        s82.classification_orderings(_GOOD, heavy=0.0)
    with pytest.raises(TypeError, match="result"):
        s82.classification_orderings({"keep": [1.0], "runs": [{}], "width": 1, "steps": 1})
    with pytest.raises(ValueError, match="nothing is asserted"):
        s82.section_8_2_2_verdict(_GOOD, caveats=dict.fromkeys(
            s82.classification_orderings(_GOOD), "x"))  # fmt: skip


def test_the_default_caveats_name_measured_orderings():
    # the names in CAVEATS_8_2_2 are those classification_orderings gives at the default
    # keep fractions (a stale name would make the claim raise instead of judging)
    fake = _made([1, 2, 3, 4], _RISK, _ACC)
    fake["keep"] = [1.0, 0.5, 0.2, 0.1, 0.05, 0.02]
    for run in fake["runs"]:
        run["test_risk"] = [run["test_risk"][0]] * 3 + [run["test_risk"][1]] * 3
        run["test_accuracy"] = [run["test_accuracy"][0]] * 3 + [run["test_accuracy"][1]] * 3
    orders = s82.classification_orderings(fake)
    assert set(s82.CAVEATS_8_2_2) < set(orders)
    assert s82.section_8_2_2_verdict(fake).status == "confirmed"
