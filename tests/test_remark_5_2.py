"""Seed 000 Remark 5.2: ``global_convergence.remark_5_2_input_scaling`` (sympy, the network
with the 1/s input scaling is the unscaled one on X/s) and ``remark_5_2_numeric`` (its
numbers), each from both sides."""

from __future__ import annotations

import copy
import functools
import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable.models.global_convergence import input_scaling as isc
from solvable.verification.confirmations import _global_convergence_remark_5_2 as r52


def _nonzero_somewhere(residuals: list[sp.Expr]) -> bool:
    """Whether some residual is non-zero at random values with sigma = exp (a witness)."""
    rng = np.random.default_rng(0)
    for r in residuals:
        if r == 0:
            continue
        e = r.replace(sp.Function("sigma"), sp.exp).doit()
        val = e.subs({s: sp.Float(rng.uniform(0.5, 1.5)) for s in e.free_symbols})
        if abs(complex(sp.N(val))) > 1e-9:
            return True
    return False


def test_symbolic_identity_is_proved():
    v = isc._remark_5_2_input_scaling()
    assert v.status == "proved"
    assert v.residuals and all(r == 0 for r in v.residuals)


@pytest.mark.parametrize("shrink", [sp.Integer(1), 1 / isc._S**2, isc._S])
def test_symbolic_identity_fails_for_another_rescaling(shrink):
    # the unscaled network at X (no rescaling), at X/s^2 or at s X is not the scaled one
    res = isc._rescaling_residuals(1, 1, 2, shrink=shrink)
    assert _nonzero_somewhere(res)


def test_symbolic_residuals_vanish_at_the_remarks_rescaling():
    res = isc._rescaling_residuals(1, 2, 3)
    assert res and all(r == 0 for r in res)


@functools.cache
def _measured() -> dict:
    return r52.remark_5_2_measure(m_mc=4000)


def test_judge_passes_the_real_measurement():
    v = r52.judge_remark_5_2(_measured())
    assert v.status == "confirmed" and 0 <= v.max_error <= 1


def _broken(key: str, value) -> dict:
    r = copy.deepcopy(_measured())
    r[key] = value(r) if callable(value) else value
    return r


@pytest.mark.parametrize(
    "key, value",
    [
        # the NTG compared with a Gram of the unscaled net at X instead of X/sqrt(d)
        ("ntg_unscaled", lambda r: r["ntg_unscaled"] * r["d"]),
        ("ntg_scaled", lambda r: r["ntg_scaled"] + 1e-9),
        # the scaled mean NTG (with its d) in place of the d = 1 one: far from the MC
        ("mean_d1", lambda r: r["mean_scaled"]),
        # the d = 1 mean NTG in place of the scaled one: d would not enter
        ("mean_scaled", lambda r: r["mean_d1"]),
        ("mc", lambda r: r["mc"] * math.nan),
        ("mc_se", lambda r: r["mc_se"] * 0.0),
        ("ntg_scaled", lambda r: np.zeros((0, 0))),
        ("mc", lambda r: np.zeros((0, 0))),
    ],
)
def test_judge_fails_a_broken_measurement(key, value):
    v = r52.judge_remark_5_2(_broken(key, value))
    assert v.status == "failed"


def test_judge_figure_reads_each_part():
    r = _measured()
    v = r52.judge_remark_5_2(r)
    z = np.abs(r["mean_d1"] - r["mc"]) / r["mc_se"]
    zs = np.abs(r["mean_scaled"] - r["mc"]) / r["mc_se"]
    rel = np.max(np.abs(r["ntg_scaled"] - r["ntg_unscaled"])) / np.max(np.abs(r["ntg_unscaled"]))
    assert v.max_error == pytest.approx(max(z.max() / 5, 5 / zs.max(), rel / 1e-12))


@settings(max_examples=8, deadline=None)
@given(n=st.integers(2, 5), d=st.integers(1, 8), m=st.integers(1, 12), seed=st.integers(0, 99))
def test_ntg_identity_on_random_networks(n, d, m, seed):
    r = r52.remark_5_2_measure(n=n, d=d, m_ntg=m, m_mc=2, seed=seed)
    A, B = r["ntg_scaled"], r["ntg_unscaled"]
    assert np.max(np.abs(A - B)) <= 1e-12 * np.max(np.abs(B))
    # and the d = 1 mean NTG is the scaled one with X X^T/d replaced by X X^T: at d > 1 the
    # two differ (d enters), at d = 1 they coincide
    if d == 1:
        np.testing.assert_allclose(r["mean_d1"], r["mean_scaled"], rtol=1e-12)
    else:
        assert not np.allclose(r["mean_d1"], r["mean_scaled"], rtol=1e-3)
