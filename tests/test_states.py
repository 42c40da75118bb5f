"""One result type (issue 30): ``numerics.simulate``, ``closed_form(...).sample`` and
``FlowResult.states`` return the model's ``States`` (arrays with a leading time axis,
``.at(k)`` / iteration for single states); the old list indexing warns."""

from __future__ import annotations

import dataclasses
import math
import warnings

import mpmath
import numpy as np
import pytest
import torch

import numerics
from numerics import models, torch_flow
from solvable._core.states import DEPRECATED_INDEXING, SequenceOfStates, StackedStates
from solvable.models import kunin, linear_node_scaling, node_scaling, three_layer
from solvable.models import xu_ziyin as xz

TIMES = [0.0, 0.4, 1.5]


def _fields(obj):
    return {f.name for f in dataclasses.fields(obj)}


@pytest.mark.parametrize("setup_type", list(numerics.systems()), ids=lambda t: t.__qualname__)
def test_simulate_returns_states_of_the_models_state(setup_type):
    """Every system: one record, its length the number of times, ``at(k)`` and iteration
    the ``State`` the system measures at each time, in the order of the times given."""
    system = numerics.systems()[setup_type]
    setup, out0, in0 = system.example()
    times = [1.5, 0.0, 0.4]
    sim = numerics.simulate(setup, out0, in0, times, method="scipy")
    assert isinstance(sim, SequenceOfStates) and len(sim) == 3
    states = list(sim)
    assert [s.t for s in states] == times
    assert all(type(s) is type(states[0]) for s in states)
    assert sim.at(-1).t == 0.4 and sim.at(1).t == 0.0
    for k, s in enumerate(states):
        for f in dataclasses.fields(s):
            got, ref = getattr(sim.at(k), f.name), getattr(s, f.name)
            if isinstance(ref, dict):
                assert ref.keys() == got.keys()
                assert all(np.array_equal(got[b], ref[b]) for b in ref)
            else:
                np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize(
    ("module", "case"),
    [(xz, xz.case("generic")), (kunin, kunin.CASES[0])],
    ids=["xu_ziyin", "kunin"],
)
def test_simulate_has_the_closed_forms_type_and_fields(module, case):
    """simulate returns the type closed_form(...).sample returns, with the same fields, and
    at 30 digits the same values (the raw flow against the exact solution)."""
    out0, in0 = (case.u0, case.W0) if module is xz else (case.a0, case.w0)
    exact = module.closed_form(case.setup, out0, in0, dps=30).sample(TIMES)
    sim = numerics.simulate(case.setup, out0, in0, TIMES, method="mpmath", dps=30)
    assert type(sim) is type(exact)
    assert _fields(sim) == _fields(exact)
    assert "loss" in _fields(sim)
    with mpmath.workdps(30):
        for name in _fields(exact):
            a = np.asarray(getattr(sim, name), dtype=object).ravel()
            b = np.broadcast_to(np.asarray(getattr(exact, name), dtype=object), np.shape(getattr(
                sim, name))).ravel()  # fmt: skip
            # both are right to 30 digits: 1e-25 relative leaves 5 digits for the Taylor
            # integrator's and the closed form's rounding
            for x, y in zip(a, b, strict=True):
                assert abs(x - y) <= 1e-25 * max(1, abs(y)), (name, x, y)


def test_xu_ziyin_loss_is_the_squared_residual_in_every_path():
    """The new ``loss`` of xu_ziyin's State / States: (f - y)^2 of eq. (4), the same from
    the weights, from the closed form's fast and reference engines and at 30 digits."""
    case = xz.case("generic")
    s = case.setup
    traj = xz.closed_form(s, case.u0, case.W0)
    times = [0.0, 0.3, 2.0, 3.0, math.inf]
    fast, ref = traj.sample(times), traj.sample(times, engine="reference")
    exact = xz.closed_form(s, case.u0, case.W0, dps=40).sample(times)
    for k in range(len(times)):
        st = xz.State.from_weights(s, times[k], fast.u[k], fast.W[k])
        with mpmath.workdps(40):
            want = float((exact.f[k] - mpmath.mpf(s.y)) ** 2)
        # the closed form's loss comes from its residual (no cancellation as f -> y):
        # 1e-13 relative at every time (the residual's own float64 error on this case is
        # about 30 ulps), where a loss taken from f - y would be off by eps |y| / |f - y|,
        # about 1e-5 relative at t = 3 (loss 2e-33)
        for got in (fast.loss[k], ref.loss[k], exact.loss[k], fast.at(k).loss):
            assert abs(float(got) - want) <= 1e-13 * abs(want)
        # the weights' loss cancels in f - y: with f right to delta = 8 eps (|y| + 1)
        # (float64 weights), (f - y)^2 is right to delta (2 |f - y| + delta)
        delta = 8 * np.finfo(float).eps * (abs(float(s.y)) + 1)
        assert abs(st.loss - want) <= delta * (2 * math.sqrt(want) + delta)
    assert 0 < fast.loss[-2] < 1e-30  # the case converges: the check above is at a tiny loss


def test_xu_ziyin_out_buffer_gets_the_loss():
    case = xz.case("generic")
    traj = xz.closed_form(case.setup, case.u0, case.W0)
    out = xz.States.empty(3, *np.shape(case.W0))
    out.loss[:] = np.nan
    got = traj.sample(TIMES, out=out)
    assert got is out and np.array_equal(out.loss, traj.sample(TIMES).loss)


@pytest.mark.parametrize("name", [c.name for c in xz.CASES])
def test_xu_ziyin_measured_alpha_matches_the_closed_form(name):
    """alpha(t) measured from the simulated weights (sum p^2 / sum p0^2, or sum q0^2 / sum
    q^2 where P = 0) is the closed form's; undefined (nan) where p = q = 0 throughout."""
    case = xz.case(name)
    times = [0.0, 0.05, 0.2]
    sim = numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=30)
    exact = xz.closed_form(case.setup, case.u0, case.W0, dps=30).sample(times)
    P, Q = xz.closed_form(case.setup, case.u0, case.W0).P, xz.closed_form(
        case.setup, case.u0, case.W0).Q  # fmt: skip
    # mpmath in, mpmath out: every alpha an mpf at dps 30, the undefined one mpmath's nan
    assert all(isinstance(a, mpmath.mpf) for a in sim.alpha)
    for a, b in zip(sim.alpha, exact.alpha, strict=True):
        if P == 0 and Q == 0:
            assert mpmath.isnan(a)
        else:
            # 30 digits each; the ratio of sums of squares loses at most the cancellation
            # of a near-manifold case (P or Q ~ 1e-9 of the other: 10 digits)
            assert abs(a - b) <= 1e-18 * abs(b), (a, b)


def test_at_and_iteration_and_the_deprecated_index():
    case = kunin.CASES[0]
    sim = numerics.simulate(case.setup, case.a0, case.w0, TIMES, method="scipy")
    assert [s.t for s in sim] == TIMES
    assert sim.at(-3).t == sim.at(0).t == 0.0
    for bad in (3, -4):
        with pytest.raises(IndexError, match=r"k = -?\d is out of range for 3 times"):
            sim.at(bad)
    for bad in (1.0, True, "0", None):
        with pytest.raises(TypeError, match="k must be an integer index"):
            sim.at(bad)
    assert sim.at(np.int64(2)).t == 1.5
    with pytest.warns(DeprecationWarning, match=r"states\[k\].*states\.at\(k\)"):
        old = sim[2]
    assert old.t == 1.5 and np.array_equal(old.w, sim.w[2])
    with pytest.warns(DeprecationWarning):
        part = sim[1:]
    assert isinstance(part, list) and [s.t for s in part] == TIMES[1:]
    # the filter of pyproject.toml: the package's own code never indexes
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        with pytest.raises(DeprecationWarning, match=r"is deprecated: use states\.at"):
            sim[0]
    assert "states.at(k)" in DEPRECATED_INDEXING


def test_kunin_delta_constant_in_the_closed_form_measured_in_simulate():
    case = kunin.CASES[0]
    exact = kunin.closed_form(case.setup, case.a0, case.w0).sample(TIMES)
    sim = numerics.simulate(case.setup, case.a0, case.w0, TIMES, method="scipy")
    assert np.ndim(exact.delta) == 0 and np.shape(sim.delta) == (3,)
    assert all(exact.at(k).delta == exact.delta for k in range(3))
    assert [sim.at(k).delta for k in range(3)] == list(sim.delta)
    # delta is conserved: the measured one is the closed form's to the integrator's rtol
    np.testing.assert_allclose(sim.delta, exact.delta, rtol=1e-11)


def test_linear_node_scaling_states_sequence():
    X = (("0.6", "-0.3", "0.5", "0.1"), ("0.2", "0.7", "-0.4", "0.3"),
         ("-0.5", "0.1", "0.2", "0.8"))  # fmt: skip
    setup = node_scaling.Setup(X, ("0.9", "-0.4", "0.3"), ("0.5", "0.3", "0.2"), "linear", "1")
    a0 = ("1", "-1", "1")
    W0 = (("0.5", "-1", "0.25", "0.1"), ("2", "-0.3", "1", "-0.7"), ("-0.4", "0.9", "0.3", "1.2"))
    states = linear_node_scaling.closed_form(setup, a0, W0).sample(TIMES)
    assert [s.t for s in states] == TIMES
    assert np.array_equal(states.at(1).a, states.a)  # a does not train
    assert np.array_equal(states.at(-1).W, states.W[2])
    assert states.at(0).loss == states.loss[0]
    sim = numerics.simulate(setup, a0, W0, TIMES, method="scipy")
    assert set(sim.field_names) == _fields(states)
    # DOP853 at rtol 1e-13 on this contractive flow against the closed form: 1e-10
    np.testing.assert_allclose(sim.loss, states.loss, rtol=1e-10)


def test_stacked_states_fields_dicts_and_refusals():
    system = three_layer.MODEL.systems[0]
    setup, out0, in0 = system.example()
    sim = numerics.simulate(setup, out0, in0, TIMES, method="scipy")
    assert isinstance(sim, StackedStates)
    assert sim.field_names == tuple(f.name for f in dataclasses.fields(sim.state_type))
    assert isinstance(sim.params, dict)
    for b, arr in sim.params.items():
        assert arr.shape[0] == 3
        assert np.array_equal(arr[1], sim.at(1).params[b])
    # loss everywhere: three_layer's State calls it the risk (loss_field), read both ways
    assert sim.loss is sim.risk and sim.at(2).loss == sim.risk[2]
    with pytest.raises(AttributeError, match="no field 'beta'; fields: t, params, f, risk"):
        sim.beta  # noqa: B018
    with pytest.raises(dataclasses.FrozenInstanceError):
        sim.risk = 0
    assert "risk" in dir(sim) and "3 times" in repr(sim)
    assert sim.arrays()["risk"] is sim.risk
    with pytest.raises(ValueError, match="at least one State"):
        StackedStates.stack([])
    with pytest.raises(TypeError, match="one State dataclass"):
        StackedStates.stack([sim.at(0), kunin.State(0, 1, np.ones(1), np.ones(1), 0, 0)])
    with pytest.raises(TypeError, match="one State dataclass"):
        StackedStates.stack([(0, 1)])


def test_stacked_mpmath_fields_keep_their_digits():
    system = numerics.systems()[kunin.WideSetup]
    setup, out0, in0 = system.example()
    sim = numerics.simulate(setup, out0, in0, [0.0, 0.5], method="mpmath", dps=40)
    assert sim.A.dtype == object and isinstance(sim.A[1, 0, 0], mpmath.mpf)
    assert sim.at(1).A[0, 0] is sim.A[1, 0, 0]


def _two_layer_run(case, keep=True, batch=2):
    s = case.setup
    m = models.TwoLayerLinear(x=[float(v) for v in s.x], y=float(s.y), gamma=float(s.gamma),
                              eta_u=float(s.eta_u), eta_w=float(s.eta_w))  # fmt: skip
    u0 = torch.tensor([[float(v) for v in case.u0]] * batch, dtype=torch.float64)
    W0 = torch.tensor([[[float(v) for v in r] for r in case.W0]] * batch, dtype=torch.float64)
    u0[0] *= 2  # element 0 differs: the element index must pick the right one
    p = {"u": u0, "W": W0}
    return p, torch_flow.gradient_flow(m, p, TIMES, keep_params=keep, rtol=1e-12)


def test_flow_result_states_is_the_closed_form():
    case = xz.case("generic")
    p, res = _two_layer_run(case)
    got = res.states(case.setup, p, element=1)
    exact = xz.closed_form(case.setup, case.u0, case.W0).sample(TIMES)
    assert type(got) is xz.States and len(got) == 3
    for name in _fields(exact):
        # torch DOP853 at rtol 1e-12 over t <= 1.5 on a well-conditioned case: 1e-10
        np.testing.assert_allclose(getattr(got, name), getattr(exact, name), rtol=1e-10,
                                   atol=1e-12, err_msg=name)  # fmt: skip
    other = res.states(case.setup, p, element=0)
    assert not np.allclose(other.u, got.u)  # element 0 started elsewhere
    assert np.array_equal(res.states(case.setup, p, -1).u, got.u)


def test_flow_result_states_refusals():
    case = xz.case("generic")
    p, res = _two_layer_run(case, keep=False)
    with pytest.raises(ValueError, match="keep_params=True"):
        res.states(case.setup, p)
    p, res = _two_layer_run(case)
    with pytest.raises(TypeError, match="setup must be one of"):
        res.states(object(), p)
    with pytest.raises(TypeError, match="params0 must be the dict"):
        res.states(case.setup, [p["u"], p["W"]])
    with pytest.raises(IndexError, match="element = 2 is out of range for 2 batch elements"):
        res.states(case.setup, p, element=2)
    with pytest.raises(TypeError, match="element must be an integer index"):
        res.states(case.setup, p, element=0.0)


@pytest.mark.parametrize("setup_type", list(numerics.systems()), ids=lambda t: t.__qualname__)
def test_flow_result_states_of_every_system_is_simulates(setup_type):
    """FlowResult.states on a run of the system's own torch model is what
    ``simulate(method="torch")`` returns (the same integrator, the same measures)."""
    system = numerics.systems()[setup_type]
    setup, out0, in0 = system.example()
    weights = system.initial(setup, out0, in0)
    params = {b: torch.tensor(np.asarray(w, dtype=float))[None] for b, w in weights.items()}
    res = torch_flow.gradient_flow(models.SystemModel(system, setup), params, TIMES,
                                   keep_params=True, device="cpu", rtol=1e-12)  # fmt: skip
    got = res.states(setup, params)
    ref = numerics.simulate(setup, out0, in0, TIMES, method="torch", device="cpu")
    assert type(got) is type(ref)
    for a, b in zip(got, ref, strict=True):
        for f in dataclasses.fields(b):
            x, y = getattr(a, f.name), getattr(b, f.name)
            if isinstance(y, dict):
                assert all(np.allclose(x[k], y[k], rtol=1e-12, atol=0) for k in y), f.name
            else:
                # the same run: equal up to the float64 of the measures' own arithmetic
                np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-300, err_msg=f.name)


def test_flow_result_states_reads_a_block_it_did_not_keep_from_params0():
    """A block that is not in the run's params (it does not train) comes from params0."""
    system = numerics.systems()[node_scaling.Setup]
    setup, out0, in0 = system.example()
    weights = system.initial(setup, out0, in0)
    assert system.rates(setup)["a"] == 0  # a does not train in this model
    params = {b: torch.tensor(np.asarray(w, dtype=float))[None] for b, w in weights.items()}
    res = torch_flow.gradient_flow(models.SystemModel(system, setup), params, TIMES,
                                   keep_params=True, device="cpu", rtol=1e-12)  # fmt: skip
    full = res.states(setup, params)
    without_a = dataclasses.replace(res, params={k: v for k, v in res.params.items() if k != "a"})
    got = without_a.states(setup, params)
    np.testing.assert_array_equal(got.a, full.a)
    np.testing.assert_array_equal(got.loss, full.loss)
    with pytest.raises(ValueError, match="params0 has no block 'a'"):
        without_a.states(setup, {k: v for k, v in params.items() if k != "a"})


@pytest.mark.parametrize("setup_type", list(numerics.systems()), ids=lambda t: t.__qualname__)
def test_every_systems_states_have_the_loss_of_its_system(setup_type):
    """Issue 30: ``loss`` everywhere; it is the system's own loss at each time's weights."""
    system = numerics.systems()[setup_type]
    setup, out0, in0 = system.example()
    sim = numerics.simulate(setup, out0, in0, TIMES, method="scipy")
    data = system.data(setup, "numpy")
    for k, state in enumerate(sim):
        if hasattr(state, "params"):  # three_layer keeps its blocks in a dict
            weights = {b: np.asarray(v, dtype=float) for b, v in state.params.items()}
        else:
            weights = {b: np.asarray(getattr(state, b), dtype=float) for b in system.blocks}
        want = float(system.loss(weights, data))
        # the same definition on the same float64 weights: only the order of the sums may
        # differ between the state's measure and the system's loss (a few ulps; 1e-12 leaves
        # room for a loss that is a difference of O(1) terms)
        assert float(sim.loss[k]) == pytest.approx(want, rel=1e-12, abs=1e-300)
        assert float(state.loss) == float(sim.loss[k])


def test_stacked_states_copy_and_pickle():
    """A StackedStates (frozen, with slots) survives copy, deepcopy and a pickle round trip
    (multiprocessing, caches): the outsider review's probe."""
    import copy
    import pickle

    system = three_layer.MODEL.systems[0]
    setup, out0, in0 = system.example()
    sim = numerics.simulate(setup, out0, in0, TIMES, method="scipy")
    for other in (copy.copy(sim), copy.deepcopy(sim), pickle.loads(pickle.dumps(sim))):
        assert type(other) is StackedStates and other.state_type is sim.state_type
        assert np.array_equal(other.risk, sim.risk)
        assert all(np.array_equal(other.params[b], sim.params[b]) for b in sim.params)


def test_reversed_and_slices_of_the_deprecated_index():
    """reversed() iterates without the deprecated index; every slice of the old list form
    is the list's slice; the warning points at the caller's line (stacklevel 2)."""
    case = kunin.CASES[0]
    times = [0.0, 0.2, 0.4, 0.8, 1.6]
    sim = numerics.simulate(case.setup, case.a0, case.w0, times, method="scipy")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [s.t for s in reversed(sim)] == times[::-1]
    for part in (slice(None, None, 2), slice(-2, None), slice(None, -1), slice(None, None, -1),
                 slice(0, 0), slice(3, 1, -1), slice(10, 20)):  # fmt: skip
        with pytest.warns(DeprecationWarning) as record:
            got = sim[part]
        assert [s.t for s in got] == times[part], part
        assert record[0].filename == __file__  # the user's line, not the package's


@pytest.mark.parametrize("method", ["scipy", "mpmath"])
def test_kunin_simulated_state_holds_one_delta(method):
    case = kunin.CASES[0]
    sim = numerics.simulate(case.setup, case.a0, case.w0, TIMES, method=method)
    for k, state in enumerate(sim):
        assert np.ndim(state.delta) == 0 and state.delta == sim.delta[k]


def test_xu_ziyin_loss_beyond_float64_rounds_to_inf_while_f_is_in_range():
    """Weights of scale 1e150: f(0) = 4e298 is a float64, its loss 1.8e597 is not: the loss
    rounds to inf (as float64 rounds an overflow), the state is not refused."""
    setup = xz.Setup(eta_u=1, eta_w=1, gamma=1, x=["1", "2"], y="1.5")
    u0, W0 = ["1e150", "2e150"], [["1e150", "0"], ["0", "1e150"]]
    for engine in ("fast", "reference"):
        try:
            st = xz.closed_form(setup, u0, W0).sample([0.0], engine=engine)
        except ValueError as exc:  # the regression this guards against: an assertion
            raise AssertionError(f"a state whose f is a float64 was refused: {exc}") from None
        assert np.isfinite(st.f[0]) and st.f[0] > 1e298
        assert st.loss[0] == math.inf
    exact = xz.closed_form(setup, u0, W0, dps=20).at(0)
    assert exact.loss > mpmath.mpf("1e597")  # mpmath has no exponent range


def test_flow_result_states_refuses_an_incomplete_params0():
    case = xz.case("generic")
    p, res = _two_layer_run(case)
    for params0, block in (({}, "u"), ({"u": p["u"]}, "W")):
        with pytest.raises(ValueError, match=f"params0 has no block '{block}' of the run"):
            res.states(case.setup, params0)
