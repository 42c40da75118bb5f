"""Deep linear networks: the exact solution from balanced, task-aligned starts
(solvable.deep_linear.closed_form) against the raw flow (numerics.simulate) at 30 digits and
in float64, float64 against dps=40 (hypothesis), every condition from both sides, t = inf,
zero and degenerate modes."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
from solvable import deep_linear as dl
from solvable import testing
from solvable.models.deep_linear import expressions, proofs
from solvable.models.deep_linear.strength import ModeFlow, strength
from solvable.verification.confirmations import deep_linear as conf

X_WHITE, Y = conf.X_WHITE, conf.Y


def _float_case(rates, strengths, widths, X=X_WHITE, Yd=Y):
    setup = dl.Setup(rates, X, Yd)
    return setup, dl.spectral_start(setup, strengths, widths)


def _max_diff(a, b):
    return max(float(np.max(np.abs(np.asarray(x, dtype=float) - np.asarray(y, dtype=float))))
               for x, y in zip(a, b, strict=True))  # fmt: skip


def test_closed_form_equals_the_raw_flow_at_30_digits():
    v = conf.spectral_vs_flow(30)
    assert v.status == "confirmed", v.detail
    assert 0 <= v.max_error <= 1


@pytest.mark.parametrize(
    ("rates", "strengths", "widths"),
    [(("1", "0.5"), (0.05, 0.02), (3,)), (("1", "0.5", "2"), (0.4, -0.1), (2, 4)),
     (("2", "0.5", "1", "0.8"), (0.03, 0.03), (2, 2, 3))],
)  # fmt: skip
def test_float64_closed_form_equals_scipy(rates, strengths, widths):
    setup, Ws = _float_case(rates, strengths, widths)
    tr = dl.closed_form(setup, Ws)
    times = [0.0, 0.7, 3.0, 9.0]
    sim = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), times, method="scipy")
    for k, t in enumerate(times):
        # DOP853 at rtol 1e-13 on O(1) weights: ~1e-12 globally; the closed form to ~1e-15
        assert _max_diff(tr.at(t).weights, sim.at(k).weights) < 1e-11
    states = tr.sample(times)
    assert states.loss.shape == (4,) and states.params["W1"].shape[0] == 4
    # the stacked engine sums each layer's terms in another order than at(): the same state to
    # the rounding of an (m + 1)-term sum (tests/test_deep_linear_sample_f64.py), ~1e-15 here
    assert math.isclose(states.at(2).loss, tr.at(3.0).loss, rel_tol=1e-13)


_flows = st.builds(
    lambda L, s, lam, u0, eta: (L, s, lam, u0, eta),
    st.integers(2, 8), st.one_of(st.floats(1e-3, 10), st.floats(-10, -1e-3), st.just(0.0)),
    st.floats(0.1, 10),
    st.one_of(st.floats(1e-8, 1e3), st.floats(-1e3, -1e-8)), st.floats(0.1, 10),
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(_flows, st.floats(0, 50))
def test_float64_strength_matches_dps_40(flow, t):
    L, s, lam, u0, eta = flow
    got = strength(ModeFlow(L, eta, s, lam, u0), t)
    with mpmath.workdps(40):
        f = ModeFlow(L, *(mpmath.mpf(v) for v in (eta, s, lam, u0)))
        ref = strength(f, mpmath.mpf(t))
    # relative 1e-12: root finding to ~1e-15 relative in w; the map w -> u and the closed-form
    # T (logs, arctangents of O(1 + log|z|) size) lose at most a few hundred ulps; values
    # below 1e-290 (a decayed mode near float64's underflow) compared absolutely
    assert abs(got - float(ref)) <= 1e-12 * abs(float(ref)) + 1e-290
    assert math.copysign(1, got) == math.copysign(1, u0) or got == 0  # never changes sign


@settings(max_examples=8, deadline=None)
@given(st.integers(2, 4), st.floats(0.01, 1.0), st.floats(-1.0, 1.0), st.floats(0.2, 3.0))
def test_float64_closed_form_matches_the_raw_flow(L, u1, u2, t):
    rates = ("1", "0.5", "2", "0.8")[:L]
    setup, Ws = _float_case(rates, (u1, u2), (2,) * (L - 1))
    sim = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), [t], method="scipy")
    # DOP853 at rtol 1e-13 (as above)
    assert _max_diff(dl.closed_form(setup, Ws).at(t).weights, sim.at(0).weights) < 1e-10


def test_a_nearly_tight_bound_rounded_to_the_wrong_side_is_widened():
    """Decay from |z0| ~ 2e-8 at L = 6: the proved lower bound is tight to ~1e-10 of |T| ~
    1e5, so rounding gave it the wrong sign (found by a random search; it raised)."""
    args = (6, 8.152906749859085, 0.16960028206209485, 0.14703486046097403, -2.3937213552808257e-08)
    got = strength(ModeFlow(*args), 2.3077615702977394)
    with mpmath.workdps(40):
        ref = strength(
            ModeFlow(6, *(mpmath.mpf(v) for v in args[1:])), mpmath.mpf(2.3077615702977394)
        )
    assert abs(got - float(ref)) <= 1e-12 * abs(float(ref))  # as the hypothesis test


def test_float64_refuses_a_rate_it_cannot_hold_and_mpmath_does_not():
    f = ModeFlow(4, 0.8, 8.5e-224, 1.0, 1.0)  # kappa ~ s^(3/2) underflows
    with pytest.raises(ValueError, match=r"float64's range.*dps"):
        strength(f, 1.0)
    with mpmath.workdps(40):
        u = strength(ModeFlow(4, *(mpmath.mpf(v) for v in (0.8, 8.5e-224, 1.0, 1.0))), 1)
        u_s0 = strength(ModeFlow(4, *(mpmath.mpf(v) for v in (0.8, 0, 1.0, 1.0))), 1)
        # s ~ 1e-223: the s = 0 branch (explicit) to O(s), through the series branch
        assert abs(u - u_s0) < mpmath.mpf("1e-35") and u < 1


def test_t_inf_and_the_sign_rules():
    setup, Ws = _float_case(("1", "0.5", "2"), (0.4, -0.1), (2, 2))
    tr = dl.closed_form(setup, Ws)
    s_lam = [float(m.s / m.lam) for m in tr.modes]
    got = tr.strengths("inf")
    for m, u in zip(tr.modes, got, strict=True):
        assert u == (float(m.s / m.lam) if m.s > 0 else 0.0)
    assert any(x < 0 for x in s_lam) and any(x > 0 for x in s_lam)  # both rules exercised
    inf, late = tr.at(math.inf), tr.at(1e8)
    assert inf.t == math.inf
    # the growing mode has converged to rounding by t = 1e8; the decaying one (L = 3:
    # algebraically, ~1/t) is ~1e-8 there: both states within 1e-7
    assert _max_diff(inf.weights, late.weights) < 1e-7
    assert tr.at("inf").loss <= tr.at(50.0).loss


def test_t_inf_sign_rules_at_30_digits():
    # (the mpmath path has its own limit rule: a mode opposite to its task decays to 0)
    setup = dl.Setup(("1", "0.5", "2"), X_WHITE, Y)
    Ws = dl.spectral_start(setup, ("0.4", "-0.1"), (2, 2), dps=30)
    tr = dl.closed_form(setup, Ws, dps=30)
    got = tr.strengths("inf")
    assert {m.s > 0 for m in tr.modes} == {True, False}  # both rules exercised
    with mpmath.workdps(40):  # (the modes hold more digits than the default 15)
        for m, u in zip(tr.modes, got, strict=True):
            assert isinstance(u, mpmath.mpf)
            assert abs(u - (m.s / m.lam if m.s > 0 else 0)) < 1e-28


def test_zero_modes_stay_zero_and_the_zero_start_is_static():
    setup, Ws = _float_case(("1", "0.5"), (0.05, 0.0), (2,))
    tr = dl.closed_form(setup, Ws)
    assert len(tr.modes) == 1
    sim = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), [2.0], method="scipy")
    assert _max_diff(tr.at(2.0).weights, sim.at(0).weights) < 1e-11
    zero = [np.zeros((2, 3)), np.zeros((2, 2))]
    z = dl.closed_form(setup, zero)
    assert z.modes == () and _max_diff(z.at(5.0).weights, zero) == 0


def test_unbalanced_starts_are_refused_from_both_sides():
    setup = dl.Setup(("1", "0.5", "2"), X_WHITE, Y)
    Ws = dl.spectral_start(setup, ("0.05", "0.02"), (2, 2), dps=30)
    dl.closed_form(setup, Ws, dps=30)  # balanced: accepted
    bad = [W.copy() for W in Ws]
    bad[1][0, 0] *= mpmath.mpf("1.000001")
    with pytest.raises(ValueError, match=r"balanced.*D_\d.*numerics\.simulate"):
        dl.closed_form(setup, bad, dps=30)


def test_unaligned_starts_and_data_are_refused_from_both_sides():
    setup, Ws = _float_case(("1", "0.5"), (0.05, 0.02), (2,))
    dl.closed_form(setup, Ws)
    c, s = math.cos(0.3), math.sin(0.3)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])  # rotates the input vectors: still balanced
    with pytest.raises(ValueError, match=r"task-aligned.*numerics\.simulate"):
        dl.closed_form(setup, [Ws[0] @ R, Ws[1]])
    X = np.array([[1.0, 0.3, 0.0], [0.2, 1.0, 0.5], [0.0, 0.1, 1.0], [0.4, 0.0, 0.2]])
    other = dl.Setup(("1", "0.5"), X, Y)  # X^T X shares no eigenvectors with Y^T X
    with pytest.raises(ValueError, match="eigenvector"):
        dl.spectral_start(other, (0.05,))
    with pytest.raises(ValueError, match=r"task-aligned|X\^T X b"):
        dl.closed_form(other, Ws)


def test_argument_refusals():
    setup, Ws = _float_case(("1", "0.5"), (0.05,), (1,))
    tr = dl.closed_form(setup, Ws)
    with pytest.raises(ValueError, match="t must be >= 0"):
        tr.at(-1.0)
    with pytest.raises(ValueError, match="rtol"):
        dl.closed_form(setup, Ws, rtol=2)
    with pytest.raises(TypeError, match="setup"):
        dl.closed_form(object(), Ws)
    with pytest.raises(ValueError, match="at most"):
        dl.spectral_start(setup, (0.1, 0.2, 0.3))
    with pytest.raises(ValueError, match="widths"):
        dl.spectral_start(setup, (0.1, 0.2), (1,))


def test_the_proofs_can_fail(monkeypatch):
    assert proofs.antiderivative().status == "proved"
    assert proofs.mode_reduction().status == "proved"
    monkeypatch.setattr(expressions, "_power_part", lambda L: expressions.V ** (2 - L))
    expressions.antiderivative.cache_clear()
    try:
        assert proofs.antiderivative().status == "failed"
    finally:
        expressions.antiderivative.cache_clear()
    monkeypatch.setattr(expressions, "kappa", lambda L: L * expressions.ETA)
    assert proofs.mode_reduction().status == "failed"


def test_the_testing_oracle_passes_the_flow_and_gradient_descent_and_fails_a_perturbation():
    setup, Ws = _float_case(("1", "0.5", "2"), (0.05, 0.02), (3, 2))
    oracle = testing.deep_linear(setup, Ws)
    times = [0.0, 1.0, 3.0]
    sim = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), times, method="scipy")
    blocks = [sim.params[f"W{l}"] for l in (1, 2, 3)]
    assert oracle.check(times, *blocks).passed
    with pytest.raises(AssertionError, match="leaves the exact solution"):
        oracle.check(times, blocks[0] * 1.001, *blocks[1:])
    lr, steps = 1e-3, 600  # gradient descent in flow time t = k lr, the system's own loss
    W = [np.array(w) for w in Ws]
    data = dl.SYSTEM.data(setup, "numpy")
    X, Yd, rates = data["X"], data["Y"], [float(r) for r in setup.rates]
    record = {0: [w.copy() for w in W]}
    for k in range(1, steps + 1):
        G = dl.outputs(W, X) - Yd  # dL/dF; dL/dW_l = (above)^T G^T (below X^T)^T
        grads = []
        for l in range(3):
            above = dl.product(W[l + 1 :]) if l < 2 else np.eye(W[2].shape[0])
            below = dl.product(W[:l]) if l > 0 else np.eye(W[0].shape[1])
            grads.append(above.T @ G.T @ X @ below.T)
        W = [w - lr * r * g for w, r, g in zip(W, rates, grads, strict=True)]
        if k % 300 == 0:
            record[k] = [w.copy() for w in W]
    ks = sorted(record)
    arrays = [np.array([record[k][l] for k in ks]) for l in range(3)]
    assert oracle.check([k * lr for k in ks], *arrays, lr=lr).passed


def test_unbalanced_two_layer_modes_equal_the_raw_flow_at_30_digits():
    v = conf.two_layer_unbalanced_vs_flow(30)
    assert v.status == "confirmed", v.detail


def test_unbalanced_two_layer_float64_inf_and_refusals():
    setup = dl.Setup(("1", "0.5"), X_WHITE, Y)
    Ws = [np.array(W, dtype=float) for W in conf.unbalanced(setup, ("0.05", "0.02"),
                                                             ("3", "0.4"), 20)]  # fmt: skip
    tr = dl.closed_form(setup, Ws)
    assert isinstance(tr, dl.TwoLayerTrajectory) and len(tr.modes) == 2
    times = [0.5, 3.0, 40.0]
    sim = numerics.simulate(setup, Ws[1], (Ws[0],), times, method="scipy")
    for k, t in enumerate(times):
        assert _max_diff(tr.at(t).weights, sim.at(k).weights) < 1e-11  # DOP853 at 1e-13
    # t = inf: both modes converge (s > 0); the loss is the least-squares minimum over the
    # two modes, reached by the simulation at t = 40 to ~1e-12
    assert abs(tr.at("inf").loss - sim.loss[-1]) < 1e-10
    # one mode's input weight zero (w_k = 0, a_k != 0): still a single neuron, from w = 0
    W1 = Ws[0].copy()
    W1[1, :] = 0
    tr0 = dl.closed_form(setup, [W1, Ws[1]])
    sim0 = numerics.simulate(setup, Ws[1], (W1,), [2.0], method="scipy")
    assert _max_diff(tr0.at(2.0).weights, sim0.at(0).weights) < 1e-11
    # hidden bases that do not agree (W1 rotated in the hidden space): refused
    c, s = math.cos(0.4), math.sin(0.4)
    R = np.array([[c, -s], [s, c]])  # (hidden width 2)
    with pytest.raises(ValueError, match=r"commute.*numerics\.simulate"):
        dl.closed_form(setup, [R @ Ws[0], Ws[1]])
    # deeper unbalanced networks are not solved: the balance refusal
    deep = dl.Setup(("1", "0.5", "2"), X_WHITE, Y)
    Wd = dl.spectral_start(deep, (0.05, 0.02), (2, 2))
    with pytest.raises(ValueError, match=r"balanced.*numerics\.simulate"):
        dl.closed_form(deep, [2 * Wd[0], Wd[1] / 2, Wd[2]])


@pytest.mark.parametrize("L", [2, 3, 5, 8])
def test_the_generated_evaluators_agree_across_backends(L):
    """numpy and torch (batched) against mpmath at 30 digits, for T_+ and T_-."""
    import torch

    v = np.array([0.05, 0.3, 0.8, 1.4, 3.0])
    for sign in (1, -1):
        args = (v, np.log(v), np.log(np.abs(1 - v)))[: 3 if sign == 1 else 2]
        f64 = np.asarray(expressions.evaluator(L, sign, "numpy")(*args), dtype=float)
        tt = expressions.evaluator(L, sign, "torch")(*(torch.tensor(a) for a in args))
        with mpmath.workdps(30):
            ref = [float(expressions.evaluator(L, sign, "mpmath")(
                *(mpmath.mpf(x) for x in (vi, mpmath.log(vi), mpmath.log(abs(1 - vi)))[
                    : 3 if sign == 1 else 2]))) for vi in v]  # fmt: skip
        # a few float64 roundings of O(10) terms
        assert np.max(np.abs(f64 - ref)) < 1e-13 * max(1, np.max(np.abs(ref)))
        assert np.max(np.abs(tt.numpy() - ref)) < 1e-13 * max(1, np.max(np.abs(ref)))
