"""Simulators that never hang (issue 14, item 3): rtol checked against the dtype, the
fixed-point test of the scipy and torch paths (t = 1e6 costs what reaching the fixed point
costs, with the right answer), ``max_steps`` and ``progress`` on every path, and messages
that name simulate's own arguments.  Costs are asserted as step counts, never wall-clock."""

from __future__ import annotations

import math

import numpy as np
import pytest
import scipy.linalg
import torch

import numerics
from numerics import models, scipy_ode, torch_flow
from numerics.torch_flow import field as tf_field
from numerics.torch_flow import layout as tf_layout
from solvable._core.tolerance import relative_error
from solvable.models import xu_ziyin as xz

# the README's example
SETUP = xz.Setup(eta_u=1, eta_w="0.5", gamma="0.7", x=["1", "2"], y="1.5")
U0, W0 = ["0.8", "-0.3", "1.1"], [["0.2", "-0.5"], ["1.3", "0.4"], ["-0.7", "0.9"]]


def _model():
    return models.TwoLayerLinear([1.0, 2.0], 1.5, 0.7, 1.0, 0.5)


def _params(dtype=torch.float64):
    return {"u": torch.tensor([[0.8, -0.3, 1.1]], dtype=dtype),
            "W": torch.tensor([[[0.2, -0.5], [1.3, 0.4], [-0.7, 0.9]]], dtype=dtype)}  # fmt: skip


def _scipy_run(times, **kw):
    system = numerics.systems()[xz.Setup]
    weights = system.initial(SETUP, U0, W0)
    flow = system.flow(SETUP, {b: w.shape for b, w in weights.items()})
    rates = system.rates(SETUP)
    eta = [rates[b] for b, shape in flow.blocks for _ in range(math.prod(shape))]
    y0 = [float(v) for v in flow.pack(weights)]
    return scipy_ode.integrate(flow, system.flow_parameters(SETUP, float), y0, times,
                               rates=eta, **kw)  # fmt: skip


# ---------------------------------------------------------------------------
# rtol against the dtype
# ---------------------------------------------------------------------------
def test_torch_step_control_is_scipys_dop853():
    """The torch integrator's controller is scipy's DOP853 (same tableau, error norm,
    exponent -1/8, safety and limits): on the README's flow it accepts the same steps as
    ``solve_ivp(method="DOP853")`` (the fixed-point test off, so both step to the end)."""
    from scipy.integrate import solve_ivp

    model, p = _model(), _params()
    packing = tf_layout._Packing(model, p)
    field = tf_field._field(model, packing)
    y0 = packing.pack(p)[0].numpy()
    for T in (1.0, 3.0):
        sol = solve_ivp(lambda _t, y: field(torch.tensor(y)[None])[0].numpy(), (0.0, T), y0,
                        method="DOP853", rtol=1e-10, atol=1e-13)  # fmt: skip
        n = len(sol.t) - 1
        # max_steps counts accepted and rejected steps: scipy's accepted steps plus as many
        # rejections is ample for the same controller; a broken tableau or controller takes
        # many more (and would otherwise run to the default 100000 steps)
        try:
            res = torch_flow.gradient_flow(model, p, [T], rtol=1e-10, atol=1e-13,
                                           fixed_point=False, max_steps=2 * n + 10)  # fmt: skip
        except ArithmeticError as exc:
            raise AssertionError(f"more than 2 x scipy's {n} DOP853 steps to t = {T}") from exc
        assert int(res.steps[0]) == n, T


def test_float32_rtol_below_its_precision_is_refused_by_name():
    floor = torch_flow.min_rtol(torch.float32)
    assert floor == 100 * torch.finfo(torch.float32).eps
    with pytest.raises(ValueError, match=r"rtol=1e-10 .*torch\.float32.*rtol must be >= 1\.19e-05"):
        torch_flow.gradient_flow(_model(), _params(torch.float32), [1.0], rtol=1e-10)
    with pytest.raises(ValueError, match="rtol"):
        torch_flow.gradient_flow(_model(), _params(torch.float32), [1.0], rtol=floor / 2)
    with pytest.raises(ValueError, match=r"rtol=1e-15 .*torch\.float64"):
        torch_flow.gradient_flow(_model(), _params(), [1.0], rtol=1e-15)
    with pytest.raises(TypeError, match="rtol"):
        torch_flow.gradient_flow(_model(), _params(), [1.0], rtol=True)


def test_float32_default_rtol_is_one_it_can_meet():
    """The default rtol of float32 parameters is 100 eps (1.2e-5): the run takes as many
    steps as float64 at that rtol (before: rtol 1e-10, minutes of rejected steps), and its
    answer is float64's at that tolerance."""
    lo = torch_flow.gradient_flow(_model(), _params(torch.float32), [3.0], fixed_point=False)
    ref = torch_flow.gradient_flow(_model(), _params(), [3.0], rtol=1e-13)
    assert lo.params["u"].dtype == torch.float32
    assert int(lo.steps.max()) + int(lo.rejected.max()) <= 60  # ~20 accepted at rtol 1.2e-5
    err = relative_error(lo.params["W"][0, 0].double().numpy(), ref.params["W"][0, 0].numpy())
    # DOP853 at rtol 1.2e-5 accumulates ~rtol per e-folding (~10 here), plus float32 rounding
    assert err <= 1e-4, err


# ---------------------------------------------------------------------------
# fixed points: t = 1e6 costs what reaching the fixed point costs
# ---------------------------------------------------------------------------
def test_scipy_fixed_point_makes_long_times_cost_what_t_100_costs():
    _, short = _scipy_run([100.0])
    _ys, long = _scipy_run([100.0, 1e6])
    assert long["fixed_point_t"] is not None and long["fixed_point_t"] < 100
    # the same steps and evaluations to t = 1e6 as to t = 100 (explicitly: ~1e6 lambda_max)
    assert long["steps"] == short["steps"] and long["nfev"] == short["nfev"]
    assert long["steps"] <= 200
    _, off = _scipy_run([100.0])  # without rates there is no test: the stepping goes on
    assert off["steps"] == short["steps"]


@pytest.mark.parametrize("method", ["scipy", "torch"])
def test_simulate_to_1e6_is_right_and_bounded(method):
    """max_steps=400 would raise long before t = 1e6 without the fixed-point test (DOP853
    is stability-bound at h ~ 3.3 / lambda_max); the states agree with the closed form."""
    kw = {"device": "cpu"} if method == "torch" else {}
    times = [100.0, 1e6]
    sim = numerics.simulate(SETUP, U0, W0, times, method=method, max_steps=400, **kw)
    exact = xz.closed_form(SETUP, U0, W0, dps=30).sample(times)
    for k, s in enumerate(sim):
        w = np.concatenate([s.u, s.W.ravel()])
        ref = np.concatenate([exact.u[k], exact.W[k].ravel()]).astype(float)
        # DOP853 at rtol 1e-13 (scipy) / 1e-12 (torch) over ~20 e-foldings, then the
        # linearised tail (second order in a change below 100 tolerances): 1e-10 normwise
        assert relative_error(w, ref) <= 1e-10, (method, times[k])
        assert abs(float(s.f) - float(exact.f[k])) <= 1e-12 * 1.5  # f -> y = 1.5


def test_torch_fixed_point_per_element_and_steps_bounded():
    """A batch: each element stops at its own fixed point; to 1e6 the same steps as to 100."""
    p = torch_flow.initialise({"u": (3,), "W": (3, 2)}, 4, scale=0.7, seed=3, device="cpu")
    try:  # (the bound below as max_steps: a broken step fails here in a second, not at
        # the default 100000 steps)
        a = torch_flow.gradient_flow(_model(), p, [100.0], rtol=1e-12, max_steps=400)
        b = torch_flow.gradient_flow(_model(), p, [100.0, 1e6], rtol=1e-12, max_steps=400)
    except ArithmeticError as exc:
        raise AssertionError("more than 400 DOP853 steps to the fixed point") from exc
    assert torch.equal(a.steps, b.steps) and bool(torch.isfinite(b.fixed_point_t).all())
    assert int(b.steps.max()) <= 400
    torch.testing.assert_close(b.params["W"][0], a.params["W"][0], rtol=0, atol=0)
    # the fixed point reached: 1e6 and 100 differ by what the linear tail still moves
    torch.testing.assert_close(b.params["W"][1], b.params["W"][0], rtol=1e-11, atol=1e-14)
    off = torch_flow.gradient_flow(_model(), p, [100.0], rtol=1e-12, fixed_point=False)
    assert bool(torch.isnan(off.fixed_point_t).all())
    assert int(off.steps.max()) > int(a.steps.max())  # it stepped on to t = 100


def test_a_saddle_plateau_is_not_taken_for_the_fixed_point():
    """Small initialisation: a long plateau near the saddle u = W = 0 (gradient ~ 1e-8)
    before f jumps to y.  Neither path stops on the plateau (the Hessian has an unstable
    direction there and the stable modes still move): at t = 1e6 f = y, and the result is
    the closed form's.  (In float64 the escape and the decay of the stable modes overlap;
    the unstable-mode criterion alone is pinned in the LinearTail test below.)"""
    u0 = ["1e-4", "-3e-5", "1.1e-4"]
    w0 = [["2e-5", "-5e-5"], ["1.3e-4", "4e-5"], ["-7e-5", "9e-5"]]
    exact = xz.closed_form(SETUP, u0, w0, dps=30).sample([1e6])
    for method in ("scipy", "torch"):
        kw = {"device": "cpu"} if method == "torch" else {}
        (s,) = numerics.simulate(SETUP, u0, w0, [1e6], method=method, max_steps=3000, **kw)
        assert abs(float(s.f) - 1.5) <= 1e-12, method
        # the plateau amplifies the rounding of the initial state by ~1/scale^2 along the
        # conserved direction: 1e-6 normwise (1e-13 rtol times ~1e7)
        w = np.concatenate([s.u, s.W.ravel()])
        ref = np.concatenate([exact.u[0], exact.W[0].ravel()]).astype(float)
        assert relative_error(w, ref) <= 1e-6, method


def test_linear_tail_is_the_exact_flow_of_a_quadratic_loss():
    """For L = theta^T H theta / 2 the flow is linear: theta(s) = expm(-eta H s) theta0
    (scipy.linalg.expm, independent of the eigen-decomposition), with an unstable H the
    remaining-change bound overflows (never a fixed point), and a stable H with rates
    that do not match the field is refused (S not symmetric)."""
    rng = np.random.default_rng(1)
    Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
    H = Q @ np.diag([0.0, 0.3, 1.0, 2.5]) @ Q.T  # one flat direction
    eta = np.array([1.0, 0.5, 0.5, 2.0])
    theta = rng.standard_normal(4)
    root = np.sqrt(eta)
    S = root[:, None] * H * root[None, :]
    zdot = -(eta * (H @ theta)) / root
    scale = np.full(4, 1e-12)
    tail = scipy_ode.LinearTail(S[None], zdot[None], scale[None], root[None], np.array([1e6]),
                                2.2e-16, 1e-13)  # fmt: skip
    for s in (0.0, 0.7, 5.0, 40.0):
        exact = scipy.linalg.expm(-np.diag(eta) @ H * s) @ theta - theta
        np.testing.assert_allclose(tail.change(s)[0], exact, rtol=1e-12, atol=1e-13)
    assert tail.admissible[0] and tail.remaining[0] > 1e9  # far from the fixed point
    bad = scipy_ode.LinearTail(-S[None], zdot[None], scale[None], root[None], np.array([1e6]),
                               2.2e-16, 1e-13)  # fmt: skip
    assert np.isinf(bad.remaining[0]) and not bad.candidate()[0]
    # a saddle: converged along the stable modes, a velocity of 1e-30 along the unstable
    # one, which exp(0.5 * 1e6) makes leave: not a fixed point
    saddle = Q @ np.diag([-0.5, 0.3, 1.0, 2.5]) @ Q.T
    tiny = (1e-30 * Q[:, 0])[None]
    sad = scipy_ode.LinearTail(saddle[None], tiny, scale[None], np.ones((1, 4)), np.array([1e6]),
                                2.2e-16, 1e-13)  # fmt: skip
    assert not sad.candidate()[0] and sad.remaining[0] > 1e6
    wrong = scipy_ode.LinearTail((S * [1, 1, 1, 4])[None], zdot[None], scale[None], root[None],
                                 np.array([1e6]), 2.2e-16, 1e-13)  # fmt: skip
    assert not wrong.admissible[0]


# ---------------------------------------------------------------------------
# max_steps, progress, messages
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("method", ["scipy", "torch", "mpmath"])
def test_max_steps_is_a_clear_error(method):
    kw = {"device": "cpu"} if method == "torch" else {}
    with pytest.raises(ArithmeticError, match="max_steps=3"):
        numerics.simulate(SETUP, U0, W0, [50.0], method=method, max_steps=3, **kw)
    with pytest.raises(ValueError, match="max_steps must be an integer >= 1, got 0"):
        numerics.simulate(SETUP, U0, W0, [1.0], method=method, max_steps=0)
    with pytest.raises(TypeError, match="max_steps"):
        numerics.simulate(SETUP, U0, W0, [1.0], method=method, max_steps=2.5)


@pytest.mark.parametrize("method", ["scipy", "torch", "mpmath"])
def test_progress_bar_runs(method, capsys):
    kw = {"device": "cpu"} if method == "torch" else {}
    (s,) = numerics.simulate(SETUP, U0, W0, [1.0], method=method, progress=True, **kw)
    assert "t=1/1" in capsys.readouterr().err
    assert abs(float(s.f) - float(xz.closed_form(SETUP, U0, W0).at(1.0).f)) <= 1e-9
    with pytest.raises(TypeError, match="progress"):
        numerics.simulate(SETUP, U0, W0, [1.0], method=method, progress="yes")


def test_simulate_messages_name_its_own_arguments():
    with pytest.raises(ValueError, match=r"W0 must have shape.*simulate's out0 is Setup's u0, "
                                         r"in0 its W0"):  # fmt: skip
        numerics.simulate(SETUP, U0, [["1", "2"]], [1.0], method="scipy")
    with pytest.raises(TypeError, match=r"u0 .*simulate's out0"):
        numerics.simulate(SETUP, "u", W0, [1.0], method="scipy")
    with pytest.raises(ValueError, match=r"rtol must be in \[2\.22e-14, 1\).*got 1e-16"):
        numerics.simulate(SETUP, U0, W0, [1.0], method="scipy", rtol=1e-16)
    with pytest.raises(TypeError, match="rtol must be a real number"):
        numerics.simulate(SETUP, U0, W0, [1.0], method="scipy", rtol="1e-8")


def test_torch_flow_inputs_name_the_argument():
    with pytest.raises(TypeError, match="lr"):
        torch_flow.gradient_descent(_model(), _params(), True, [1])
    res = torch_flow.gradient_descent(_model(), _params(), np.float32(1e-3), [2])
    assert float(res.times[0]) == pytest.approx(2e-3, rel=1e-7)  # float32's 1e-3
    with pytest.raises(ValueError, match=r"scale must give one value per block.*missing \['W'\]"):
        torch_flow.initialise({"u": (3,), "W": (3, 2)}, 1, scale={"u": 1.0})
    with pytest.raises(ValueError, match="scale must be finite"):
        torch_flow.initialise({"u": (3,)}, 1, scale=math.nan)
    with pytest.raises(TypeError, match="fixed_point"):
        torch_flow.gradient_flow(_model(), _params(), [1.0], fixed_point=1)
