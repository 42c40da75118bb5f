"""Seed 000 Theorem 5.1(d) (the NTG-change bound) derived from (c): the symbolic claim
``global_convergence.ntg_bound_from_weight_bound``, the numeric chain
``global_convergence.ntg_bound_chain_numeric``, the step-2 and step-3 evaluators, and the
simulation claim ``global_convergence.theorem_5_1_d_step_2`` with its judge."""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable.models import global_convergence as gc
from solvable.models import ntg
from solvable.models.global_convergence import numeric_checks as gc_numeric
from solvable.models.global_convergence import symbolic_checks as gc_symbolic
from solvable.verification import theorems
from solvable.verification.confirmations import _global_convergence_theorem_5_1_d as d51

_M_TANH = float(gc.activation_bounds("tanh")[1])


def _consts(**kw):
    base = {"n": 4, "d": 3, "kappa_n": 0.01, "gamma": 0.5, "delta": 0.1, "C": 1.25,
            "C1": 0.2, "M": 0.5}  # fmt: skip
    base.update(kw)
    return gc.Constants(**base)


# ---------------------------------------------------------------------------
# the symbolic derivation: residual exactly 0, and wrong versions fail
# ---------------------------------------------------------------------------
def test_derivation_residuals_are_exactly_zero():
    (claim,) = theorems.select("global_convergence.ntg_bound_from_weight_bound")
    verdict = claim.verify()
    assert verdict.status == "proved", verdict.detail
    assert verdict.residuals and all(r == 0 for r in verdict.residuals)
    assert claim.kind == "symbolic"


def test_printed_d_is_first_derived_term_plus_sqrt2_times_the_second():
    # the relation the claim proves, read off the two expressions (not retyped)
    t5, steps = gc.theorem_5_1(), gc.ntg_change_steps()
    s = sp.Symbol("s", positive=True)
    printed = sp.expand(t5.ntg_change.subs(gc.SUM_SQ, s**2))
    derived = sp.expand(steps.derived.subs(gc.SUM_SQ, s**2))
    assert sp.simplify(printed.coeff(s, 2) - derived.coeff(s, 2)) == 0
    assert sp.simplify(printed.coeff(s, 1) / derived.coeff(s, 1) - sp.sqrt(2)) == 0
    assert sp.diff(steps.derived, gc.LAM) == 0  # (c)'s radius is free of lambda


def _replace_ntg_change(monkeypatch, expr):
    real = gc_symbolic.theorem_5_1()
    wrong = dataclasses.replace(real, ntg_change=expr)
    monkeypatch.setattr(gc_symbolic, "theorem_5_1", lambda: wrong)


def _terms():
    t5 = gc.theorem_5_1()
    s = sp.Symbol("s", positive=True)
    e = sp.expand(t5.ntg_change.subs(gc.SUM_SQ, s**2))
    return e.coeff(s, 2), e.coeff(s, 1)


_SLOW = pytest.mark.slow  # 0.3 CPU s each: two per step stay in the default run


@pytest.mark.parametrize("which", [
    "second term halved (2^4)",
    pytest.param("first term doubled (2^8)", marks=_SLOW),
    "second term at the derived 2^(9/2)",
    pytest.param("S_2 for sqrt(S_2) in the second term", marks=_SLOW),
])  # fmt: skip
def test_a_wrong_printed_d_gives_a_nonzero_residual(monkeypatch, which):
    A, B = _terms()
    S = gc.SUM_SQ
    wrong = {
        "second term halved (2^4)": A * S + B / 2 * sp.sqrt(S),
        "first term doubled (2^8)": 2 * A * S + B * sp.sqrt(S),
        "second term at the derived 2^(9/2)": A * S + B / sp.sqrt(2) * sp.sqrt(S),
        "S_2 for sqrt(S_2) in the second term": A * S + B * S,
    }[which]
    _replace_ntg_change(monkeypatch, wrong)
    verdict = gc_symbolic._ntg_bound_derivation()
    assert verdict.status == "failed", verdict.detail
    assert any(r != 0 for r in verdict.residuals)


@pytest.mark.parametrize("which", ["lambda for lambda^2", "no factor 2",
                                   pytest.param("M for M^2", marks=_SLOW)])  # fmt: skip
def test_a_wrong_step_gives_a_nonzero_residual(monkeypatch, which):
    real = gc.ntg_change_steps()
    lam, mv, e = gc.LAM, gc.MOVE, gc.MS * gc.MOVE / sp.sqrt(gc.D)
    per_node = {
        "lambda for lambda^2": gc.N / gc.D * sp.sqrt(lam) * (e**2 + 2 * e),
        "no factor 2": gc.N / gc.D * lam * (e**2 + e),
        "M for M^2": gc.N / gc.D * lam * (gc.MS * mv**2 / gc.D + 2 * e),
    }[which]
    wrong = dataclasses.replace(real, per_node=per_node)
    monkeypatch.setattr(gc_symbolic, "ntg_change_steps", lambda: wrong)
    verdict = gc_symbolic._ntg_bound_derivation()
    assert verdict.status == "failed", verdict.detail
    assert any(r != 0 for r in verdict.residuals)


@_SLOW
def test_a_wrong_radius_step_gives_a_nonzero_residual(monkeypatch):
    real = gc.ntg_change_steps()
    wrong = dataclasses.replace(real, given_radius=real.given_radius.subs(gc.SUM_SQ, gc.SUM_SQ**2))
    monkeypatch.setattr(gc_symbolic, "ntg_change_steps", lambda: wrong)
    verdict = gc_symbolic._ntg_bound_derivation()
    assert verdict.status == "failed" and any(r != 0 for r in verdict.residuals)


# ---------------------------------------------------------------------------
# the numeric chain at two precisions
# ---------------------------------------------------------------------------
def test_numeric_chain_claim_confirmed():
    (claim,) = theorems.select("global_convergence.ntg_bound_chain_numeric")
    verdict = claim.verify()
    assert verdict.status == "confirmed", verdict.detail
    assert "float64" in verdict.detail and "dps=50" in verdict.detail


def test_numeric_chain_fails_on_a_wrong_evaluator(monkeypatch):
    real = gc_numeric.ntg_change_given_radius_numeric
    monkeypatch.setattr(gc_numeric, "ntg_change_given_radius_numeric",
                        lambda c, r, s, dps=None: real(c, r, s, dps=dps) * (1 + 1e-9))  # fmt: skip
    assert gc_numeric._ntg_bound_chain().status == "failed"


def test_numeric_chain_fails_on_a_wrong_printed_d(monkeypatch):
    real = gc_numeric.ntg_change_bound_numeric
    monkeypatch.setattr(gc_numeric, "ntg_change_bound_numeric",
                        lambda c, s, dps=None: real(c, s * 4, dps=dps) / 4)  # fmt: skip
    assert gc_numeric._ntg_bound_chain().status == "failed"


_CONSTS = st.builds(
    gc.Constants,
    n=st.integers(1, 60),
    d=st.integers(1, 30),
    kappa_n=st.floats(1e-5, 1.0),
    gamma=st.floats(0.01, 1.0),
    delta=st.floats(0.01, 0.99),
    C=st.floats(0.01, 10.0),
    C1=st.floats(1e-3, 1.0),
    M=st.floats(0.01, 2.0),
)


@settings(max_examples=25, deadline=None)
@given(c=_CONSTS, s2=st.floats(1e-3, 1.0))
def test_derived_d_below_printed_and_printed_is_first_plus_sqrt2_second(c, s2):
    # first and second terms from the step-3 evaluator by homogeneity in the radius R
    # (first ~ R^2, second ~ R), at 40 digits (no cancellation)
    with mpmath.workdps(40):
        R = gc.weight_bound_numeric(c, 1, dps=40)
        g1 = gc.ntg_change_given_radius_numeric(c, R, s2, dps=40)
        g2 = gc.ntg_change_given_radius_numeric(c, 2 * R, s2, dps=40)
        first, second = (g2 - 2 * g1) / 2, (4 * g1 - g2) / 2
        printed = gc.ntg_change_bound_numeric(c, s2, dps=40)
        assert first > 0 and second > 0
        assert abs(printed - (first + mpmath.sqrt(2) * second)) <= mpmath.mpf(10) ** -30 * printed
        assert g1 < printed
    g64 = gc.ntg_change_given_radius_numeric(c, float(R), s2)
    assert g64 == pytest.approx(float(g1), rel=1e-13)


@settings(max_examples=25, deadline=None)
@given(c=_CONSTS, w=st.lists(st.floats(0.01, 1.0), min_size=1, max_size=12),
       R=st.floats(1e-3, 1e3))  # fmt: skip
def test_step_2_at_radius_moves_is_below_step_3(c, w, R):
    # Delta_j = sqrt(lambda_j) R with sum lambda = 1: step 2 <= step 3 (Cauchy-Schwarz),
    # equal at uniform lambda
    lam = np.array(w) / np.sum(w)
    s2 = float(np.sum(lam**2))
    step2 = gc.ntg_change_given_moves_numeric(c, lam, np.sqrt(lam) * R)
    step3 = gc.ntg_change_given_radius_numeric(c, R, s2)
    assert step2 <= step3 * (1 + 1e-12)
    uniform = np.full(len(w), 1 / len(w))
    eq2 = gc.ntg_change_given_moves_numeric(c, uniform, np.sqrt(uniform) * R)
    assert eq2 == pytest.approx(float(gc.ntg_change_given_radius_numeric(c, R, 1 / len(w))),
                                rel=1e-12)  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(1, 5), d=st.integers(1, 4),
       m=st.integers(1, 6), scale=st.floats(0.01, 3.0))  # fmt: skip
def test_step_2_bounds_the_ntg_change_of_any_two_weight_matrices(seed, n, d, m, scale):
    # the inequality step 2 states, for tanh (|sigma'| <= 1, M = 4 sqrt(3)/9), unit inputs
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    W0 = rng.normal(size=(m, d))
    W1 = W0 + scale * rng.normal(size=(m, d))
    a = rng.choice([-1.0, 1.0], size=m)
    lam = rng.random(m) + 0.01
    lam /= lam.sum()
    change = np.linalg.norm(ntg.ntg(X, W1, a, lam, "tanh") - ntg.ntg(X, W0, a, lam, "tanh"), 2)
    c = _consts(n=n, d=d, M=_M_TANH)
    bound = gc.ntg_change_given_moves_numeric(c, lam, np.linalg.norm(W1 - W0, axis=1))
    assert change <= bound * (1 + 1e-12)


def test_step_2_evaluator_float64_and_mpmath_agree():
    c = _consts()
    lam, moves = [0.5, 0.25, 0.25], [1.0, 0.0, 3.5]
    f = gc.ntg_change_given_moves_numeric(c, lam, moves)
    m = gc.ntg_change_given_moves_numeric(c, lam, moves, dps=50)
    assert isinstance(m, mpmath.mpf)
    assert float(m) == pytest.approx(float(f), rel=1e-14)
    # batches: the last axis is the nodes
    batch = gc.ntg_change_given_moves_numeric(c, lam, np.array([moves, [0.0] * 3]))
    assert batch.shape == (2,) and batch[1] == 0 and batch[0] == pytest.approx(float(f))
    # one node per number
    assert gc.ntg_change_given_moves_numeric(c, 0.5, 1.0) == pytest.approx(
        float(gc.ntg_change_given_moves_numeric(c, [0.5], [1.0])))  # fmt: skip


def test_evaluators_refuse_bad_input():
    c = _consts()
    with pytest.raises(ValueError, match="lam and moves must broadcast"):
        gc.ntg_change_given_moves_numeric(c, [0.5, 0.5], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="lam and moves must have one length"):
        gc.ntg_change_given_moves_numeric(c, [0.5, 0.5], [1.0, 2.0, 3.0], dps=20)
    with pytest.raises(ValueError, match="moves must hold at least one node"):
        gc.ntg_change_given_moves_numeric(c, [0.5], [], dps=20)
    with pytest.raises(ValueError, match="moves must be finite and >= 0"):
        gc.ntg_change_given_moves_numeric(c, [0.5], [-1.0])
    with pytest.raises(ValueError, match="lam must be finite and >= 0"):
        gc.ntg_change_given_moves_numeric(c, [-0.5], [1.0], dps=20)
    with pytest.raises(TypeError, match="consts must be a Constants record"):
        gc.ntg_change_given_moves_numeric("c", [0.5], [1.0])
    with pytest.raises(ValueError, match="outside the float64 range"):
        gc.ntg_change_given_moves_numeric(c, [1.0, 1.0], [1e300, 1e300])
    with pytest.raises(ValueError, match="radius must be finite and >= 0"):
        gc.ntg_change_given_radius_numeric(c, -1.0, 0.5)
    with pytest.raises(ValueError, match="sum_sq must be finite"):
        gc.ntg_change_given_radius_numeric(c, 1.0, math.nan)


# ---------------------------------------------------------------------------
# the simulation claim: the judge from both sides, the claim, and a broken bound
# ---------------------------------------------------------------------------
def test_judge_passes_below_and_at_the_bound():
    v = d51.judge_ntg_change_given_moves([0.1, 0.5], [1.0, 1.0])
    assert v.status == "confirmed" and v.max_error == pytest.approx(0.5)
    at = d51.judge_ntg_change_given_moves([1.0, 0.2], [1.0, 2.0])  # boundary: equal
    assert at.status == "confirmed" and at.max_error == 1.0
    zero = d51.judge_ntg_change_given_moves([0.0], [0.0])  # nothing moved: 0/0
    assert zero.status == "confirmed" and zero.max_error == 0.0


def test_judge_fails_above_the_bound():
    v = d51.judge_ntg_change_given_moves([0.1, 1.0 + 1e-9], [1.0, 1.0])
    assert v.status == "failed" and v.max_error > 1
    moved = d51.judge_ntg_change_given_moves([1e-3], [0.0])  # a change with a zero bound
    assert moved.status == "failed" and moved.max_error == math.inf
    nan = d51.judge_ntg_change_given_moves([math.nan, 0.1], [1.0, 1.0])
    assert nan.status == "failed"
    empty = d51.judge_ntg_change_given_moves([], [])
    assert empty.status == "failed" and "nothing was compared" in empty.detail


def test_judge_refuses_bad_input():
    with pytest.raises(ValueError, match="change and bound must have one shape"):
        d51.judge_ntg_change_given_moves([0.1, 0.2], [1.0])
    with pytest.raises(ValueError, match="change must be >= 0"):
        d51.judge_ntg_change_given_moves([-0.1], [1.0])
    with pytest.raises(ValueError, match="bound must be >= 0"):
        d51.judge_ntg_change_given_moves([0.1], [-1.0])
    with pytest.raises(TypeError, match="change must be an array of real numbers"):
        d51.judge_ntg_change_given_moves("abc", [1.0])
    with pytest.raises(TypeError, match="bound must be an array of real numbers"):
        d51.judge_ntg_change_given_moves([1.0], [None])


@pytest.fixture(scope="module")
def sweep():
    return d51.ntg_change_given_moves_sweep()


def test_simulation_claim_confirmed_and_binding_on_one_node(sweep):
    verdict = d51.ntg_change_given_moves_verdict(sweep)
    assert verdict.status == "confirmed", verdict.detail
    (claim,) = theorems.select("global_convergence.theorem_5_1_d_step_2")
    assert claim.kind == "numeric"
    one = sweep[-1]
    ratio = float(np.max(one["change"][1:] / one["bound"][1:]))
    # the one-node case nearly attains the step: a bound half as large would be violated
    assert 0.5 < ratio <= 1
    for case in sweep:  # every run moved, and far below the printed (d)
        assert np.max(case["change"]) > 0 and np.max(case["change"]) < case["printed_d"]


@pytest.mark.parametrize("factor", [0.5, 0.6])
def test_simulation_claim_fails_when_the_bound_is_too_small(sweep, factor):
    broken = [{**case, "bound": case["bound"] * factor} for case in sweep]
    verdict = d51.ntg_change_given_moves_verdict(broken)
    assert verdict.status == "failed" and verdict.max_error > 1, verdict.detail
