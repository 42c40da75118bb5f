"""The Part II systems of seed 003 (Kunin et al.) through ``numerics.simulate``: the wide
linear net ``f = A^T W x`` (:class:`kunin.WideSetup`; mpmath, scipy, torch) and the ReLU net
``f = a^T relu(W x)`` (:class:`kunin.PiecewiseLinearSetup`; scipy, torch; mpmath refused).

Along the simulated flows ``Delta`` (:func:`kunin.wide_balance`) and every ``delta_k``
(:func:`kunin.balance`) stay constant to the integrator's accuracy and the loss decreases;
with one hidden unit both nets are the single neuron (its closed form); the ReLU flow uses
``sigma'(0) = 0``; bad inputs are refused by name.  Property tests (hypothesis, small sizes)
check the conservation on random wide nets and on the ReLU vector field at random weights.
"""

from __future__ import annotations

import functools
import itertools

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
from numerics.models import SystemModel
from solvable._core.backends import generate
from solvable._core.tolerance import relative_error
from solvable.models import kunin

WIDE = kunin.WideLinearSystem().example()  # (setup, A0, W0): h = c = d = 2, n = 3
# a ReLU net whose activation pattern changes 4 times in t <= 4 (found by search; no
# sliding along a kink), on the PiecewiseLinearSystem example's data
_PL_SETUP = kunin.PiecewiseLinearSystem().example()[0]
RELU = (_PL_SETUP, ("0.8", "-0.5"), (("-0.8", "-0.4"), ("0.2", "0.1")))
TIMES = [0.0, 0.25, 1.0, 2.0, 4.0]

# Conservation, in units of the size of the conserved quantity's terms:
# mpmath: Taylor integrator at dps + 20 = 50 digits, states rounded to 30 digits;
# scipy: DOP853 at rtol 1e-13 (global error ~1e-12 of the weights over t <= 4; measured
# <= 2e-14 on these nets); torch: DOP853 at rtol 1e-12 (measured <= 1e-15 here).
CONSERVATION = {"mpmath": 1e-25, "scipy": 1e-10, "torch": 1e-9}


def _kwargs(method: str) -> dict:
    return {"mpmath": {"dps": 30}, "scipy": {}, "torch": {"device": "cpu"}}[method]


def _f64(a) -> np.ndarray:
    return np.vectorize(float, otypes=[float])(np.asarray(a, dtype=object))


def _wide_scale(setup, A, W) -> float:
    """Largest entry of ``eta_w |A A^T| + eta_a |W W^T|``: the size of Delta's terms."""
    A, W = _f64(A), _f64(W)
    ea, ew = float(setup.eta_a), float(setup.eta_w)
    return float(np.max(ew * np.abs(A @ A.T) + ea * np.abs(W @ W.T)))


def _relu_scale(setup, a, W) -> float:
    a, W = _f64(a), _f64(W)
    return float(np.max(float(setup.eta_w) * a**2 + float(setup.eta_a) * np.sum(W**2, 1)))


def _non_increasing(losses) -> bool:
    # a gradient flow decreases the loss; 1e-12 relative absorbs the float64 rounding of L
    return all(b <= a * (1 + 1e-12) for a, b in itertools.pairwise(losses))


# ---------------------------------------------------------------------------
# the wide linear net
# ---------------------------------------------------------------------------
def _wide_Delta0(setup, A0, W0) -> np.ndarray:
    """Delta of the initial weights at 50 digits (exact decimal inputs)."""
    with mpmath.workdps(50):
        mp = np.vectorize(mpmath.mpf, otypes=[object])
        return kunin.wide_balance(mp(np.array(A0)), mp(np.array(W0)), mpmath.mpf(setup.eta_a),
                                  mpmath.mpf(setup.eta_w))  # fmt: skip


@pytest.mark.parametrize("method", ["mpmath", "scipy", "torch"])
def test_wide_Delta_is_conserved_and_the_loss_decreases(method):
    setup, A0, W0 = WIDE
    states = numerics.simulate(setup, A0, W0, TIMES, method=method, **_kwargs(method))
    assert all(isinstance(s, kunin.WideState) for s in states)
    ref = _wide_Delta0(setup, A0, W0)
    scale = _wide_scale(setup, A0, W0)
    for s in states:
        with mpmath.workdps(50):
            drift = float(np.max(np.abs(np.asarray(s.Delta, dtype=object) - ref)))
        assert drift <= CONSERVATION[method] * scale, (s.t, drift)
    losses = [float(s.loss) for s in states]
    assert _non_increasing(losses) and losses[-1] < 0.9 * losses[0]
    # the weights move: the conservation is not that of a constant
    assert relative_error(_f64(states.at(-1).W), _f64(W0)) > 0.05


def test_wide_methods_agree():
    setup, A0, W0 = WIDE
    hi = numerics.simulate(setup, A0, W0, TIMES, method="mpmath", dps=30)
    for method in ("scipy", "torch"):
        lo = numerics.simulate(setup, A0, W0, TIMES, method=method, **_kwargs(method))
        for a, b in zip(hi, lo, strict=True):
            # DOP853 (rtol 1e-13 / 1e-12) over t <= 4: 1e-9 normwise, as in test_systems
            assert relative_error(_f64(b.beta), _f64(a.beta)) <= 1e-9
            assert abs(float(b.loss) - float(a.loss)) <= 1e-9 * float(a.loss)


def test_wide_net_with_one_hidden_unit_is_the_single_neuron():
    """h = c = 1: ``f = A^T W x = a w^T x``; the simulated wide net follows the single
    neuron's closed form (30 digits) and its loss is the single neuron's loss."""
    case = kunin.case("downstream")
    s1 = case.setup
    setup = kunin.WideSetup(s1.eta_a, s1.eta_w, s1.X, tuple((v,) for v in s1.y))
    times = [0.0, 0.5, 2.0, 8.0]
    exact = kunin.closed_form(s1, case.a0, case.w0, dps=30).sample(times)
    sim = numerics.simulate(setup, [[case.a0]], [list(case.w0)], times, method="mpmath", dps=30)
    for k, s in enumerate(sim):
        # Taylor integrator at 50 digits vs the closed form at 40: 25 digits (dps - 5)
        assert relative_error([s.A[0, 0], *s.W[0]], [exact.a[k], *exact.w[k]]) <= 1e-25
        assert relative_error([s.loss], [exact.loss[k]]) <= 1e-25
        assert relative_error(s.beta[:, 0], exact.beta[k]) <= 1e-25


@settings(max_examples=12, deadline=None)
@given(
    h=st.integers(1, 2), c=st.integers(1, 2), d=st.integers(1, 2), n=st.integers(1, 3),
    eta=st.tuples(st.sampled_from(["0.5", "1", "2"]), st.sampled_from(["0.5", "1", "2"])),
    data=st.data(),
)  # fmt: skip
def test_wide_Delta_is_conserved_on_random_small_nets(h, c, d, n, eta, data):
    def entries(rows, cols):
        return data.draw(st.lists(st.lists(st.integers(-9, 9).map(lambda k: f"{k / 10}"),
                                           min_size=cols, max_size=cols),
                                  min_size=rows, max_size=rows))  # fmt: skip

    setup = kunin.WideSetup(eta[0], eta[1], entries(n, d), entries(n, c))
    A0, W0 = entries(h, c), entries(h, d)
    states = numerics.simulate(setup, A0, W0, [0.0, 0.5, 1.0], method="scipy")
    scale = _wide_scale(setup, A0, W0)
    ref = kunin.wide_balance(_f64(A0), _f64(W0), float(eta[0]), float(eta[1]))
    for s in states:
        # floor 1e-3: zero initial weights stay at the origin (Delta = 0 throughout)
        assert np.max(np.abs(s.Delta - ref)) <= CONSERVATION["scipy"] * max(scale, 1e-3)
    assert _non_increasing([s.loss for s in states])


# ---------------------------------------------------------------------------
# the ReLU net
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["scipy", "torch"])
def test_relu_every_delta_k_is_conserved_through_activation_changes(method):
    setup, a0, W0 = RELU
    times = list(np.linspace(0.0, 4.0, 81))
    states = numerics.simulate(setup, a0, W0, times, method=method, **_kwargs(method))
    assert all(isinstance(s, kunin.PiecewiseLinearState) for s in states)
    ref = kunin.balance(_f64(a0), _f64(W0), float(setup.eta_a), float(setup.eta_w))
    scale = _relu_scale(setup, a0, W0)
    for s in states:
        assert np.max(np.abs(s.delta - ref)) <= CONSERVATION[method] * scale, s.t
    flips = sum(int(np.sum(b.active != a.active)) for a, b in itertools.pairwise(states))
    assert flips >= 2  # the check goes through activation changes
    losses = [s.loss for s in states]
    assert _non_increasing(losses) and losses[-1] < 0.9 * losses[0]


def test_relu_scipy_and_torch_agree():
    setup, a0, W0 = RELU
    times = [0.0, 1.0, 4.0]
    a = numerics.simulate(setup, a0, W0, times, method="scipy")
    b = numerics.simulate(setup, a0, W0, times, method="torch", device="cpu")
    for sa, sb in zip(a, b, strict=True):
        # DOP853 at rtol 1e-13 / 1e-12 through the kinks: 1e-8 normwise (measured 1e-13)
        assert relative_error(sb.W, sa.W) <= 1e-8 and relative_error(sb.a, sa.a) <= 1e-8


def test_relu_refuses_the_mpmath_taylor_integrator():
    setup, a0, W0 = RELU
    with pytest.raises(ValueError, match="polynomial"):
        numerics.simulate(setup, a0, W0, TIMES, method="mpmath", dps=20)


# neuron 1 sits on its kink for x_0 (w_1 . x_0 = 0 exactly in float64) and is dead for the
# other inputs; neuron 0 is live
KINK = (
    kunin.PiecewiseLinearSetup("1", "0.5", (("0.5", "0.5"), ("1", "0.2"), ("0.3", "-1")),
                               ("1", "-0.4", "0.7")),
    ("0.7", "0.9"),
    (("0.6", "0.3"), ("-0.5", "0.5")),
)  # fmt: skip


def test_relu_vector_fields_give_a_neuron_on_its_kink_no_velocity():
    """sigma'(0) = 0 (the package's ReLU derivative) in both vector fields that simulate
    integrates: sympy's derivative of the loss (scipy) and autograd of the torch loss.  With
    sigma'(0) = 1/2 (sympy's Heaviside(0), torch's maximum at a tie) neuron 1 would move."""
    setup, a0, W0 = KINK
    pre = _f64(setup.X) @ _f64(W0[1])
    assert pre[0] == 0 and np.all(pre[1:] < 0)
    system = kunin.PiecewiseLinearSystem()
    weights = system.initial(setup, a0, W0)
    flow = system.flow(setup, {b: w.shape for b, w in weights.items()})
    rhs = generate((flow.state, flow.params), list(flow.rhs), "numpy")
    y0 = [float(v) for v in flow.pack(weights)]
    dy = flow.unpack(np.asarray(rhs(y0, system.flow_parameters(setup, float)), float), float)
    assert dy["a"][1] == 0 and np.all(dy["W"][1] == 0)
    assert np.all(dy["W"][0] != 0)  # the live neuron moves
    model = SystemModel(system, setup)
    params = {b: torch.tensor(_f64(w), dtype=torch.float64)[None].requires_grad_()
              for b, w in weights.items()}  # fmt: skip
    model.loss(params).sum().backward()
    grad_a, grad_W = params["a"].grad[0].numpy(), params["W"].grad[0].numpy()
    assert grad_a[1] == 0 and np.all(grad_W[1] == 0)
    assert np.allclose(-model.rates["W"] * grad_W, dy["W"], rtol=1e-12, atol=0)


def test_relu_neuron_on_its_kink_with_no_active_input_never_moves():
    """Along the simulated flow (scipy and torch) the neuron on its kink stays put, exactly;
    the live neuron learns."""
    setup, a0, W0 = KINK
    for method in ("scipy", "torch"):
        states = numerics.simulate(setup, a0, W0, [0.0, 1.0, 3.0], method=method,
                                   **_kwargs(method))  # fmt: skip
        for s in states:
            assert s.a[1] == 0.9 and np.array_equal(s.W[1], [-0.5, 0.5]), (method, s.t)
        assert relative_error(states.at(-1).W[0], [0.6, 0.3]) > 1e-2


@settings(max_examples=25, deadline=None)
@given(
    a=st.lists(st.integers(-4, 4), min_size=2, max_size=2),
    W=st.lists(st.integers(-4, 4), min_size=4, max_size=4),
)
def test_relu_vector_field_conserves_every_delta_k(a, W):
    """d delta_k/dt along the vector field that ``numerics.simulate`` integrates (sympy's
    derivative of :func:`kunin.balance` along it, evaluated in float64) vanishes at random
    weights on a grid, where pre-activations are often exactly 0: the law holds pointwise,
    kinks included."""
    y = [v / 4 for v in a] + [v / 4 for v in W]
    # rounding of O(|y|^3) products of O(1) data: 1e-13 (1 + |y|)^3
    assert abs(_delta_rates()(y)).max() <= 1e-13 * (1 + max(map(abs, y))) ** 3


@functools.cache
def _delta_rates():
    """y -> d delta_k/dt along the ReLU flow of the example data (float64, generated)."""
    setup, system = _PL_SETUP, kunin.PiecewiseLinearSystem()
    flow = system.flow(setup, {"a": (2,), "W": (2, 2)})
    S = kunin.symbolic()
    deltas = kunin.balance(flow.block("a"), flow.block("W"), S.eta_a, S.eta_w)
    rates = generate((flow.state, flow.params), [flow.ddt(dk) for dk in deltas], "numpy")
    params = system.flow_parameters(setup, float)
    return lambda y: np.asarray(rates(y, params), dtype=float)


# ---------------------------------------------------------------------------
# bad inputs, refused by name
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("which", "out0", "in0", "exc", "name"),
    [
        ("wide", [["1", "2", "3"]], [["1", "2"]], ValueError, "A0"),
        ("wide", [["1", "2"]], [["1", "2"], ["3", "4"]], ValueError, "W0"),
        ("wide", [["1", "2"]], [["1", "2", "3"]], ValueError, "W0"),
        ("wide", [["1", "nan"]], [["1", "2"]], ValueError, "A0"),
        ("wide", [["1", object()]], [["1", "2"]], TypeError, "A0"),
        ("wide", ["1", "2"], [["1", "2"]], ValueError, "A0"),
        ("relu", [["1", "2"]], [["1", "2"]], ValueError, "a0"),
        ("relu", ["1", "inf"], [["1", "2"], ["3", "4"]], ValueError, "a0"),
        ("relu", ["1", "2"], [["1", "2"]], ValueError, "W0"),
        ("relu", ["1", "2"], [["1", "2", "3"], ["4", "5", "6"]], ValueError, "W0"),
        ("relu", ["1", "2"], [["1", "2"], ["3", None]], TypeError, "W0"),
    ],
)  # fmt: skip
def test_bad_weights_are_refused_by_name(which, out0, in0, exc, name):
    setup = WIDE[0] if which == "wide" else RELU[0]
    with pytest.raises(exc, match=name):
        numerics.simulate(setup, out0, in0, [0.0, 1.0], method="scipy")


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: kunin.WideSetup(0, 1, (("1",),), (("1",),)), "eta_a must"),
        (lambda: kunin.WideSetup(1, 1, (("1",), ("2",)), (("1",),)), "X must"),
        (lambda: kunin.WideSetup(1, 1, (("1",),), ("1",)), "Y must"),
        (lambda: kunin.PiecewiseLinearSetup(1, -2, (("1",),), ("1",)), "eta_w must"),
        (lambda: kunin.PiecewiseLinearSetup(1, 1, (("1", "2"),), ("1", "2")), "X must"),
        (lambda: kunin.wide_preconditioner([1.0, 2.0], 0.5, 1, 1), "beta must"),
    ],
)  # fmt: skip
def test_bad_setups_are_refused_by_name(make, name):
    with pytest.raises(ValueError, match=name):
        make()
