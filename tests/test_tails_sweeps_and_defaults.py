"""The torch flow's linearised tail (the state change it predicts is the exact flow of a
quadratic loss, whatever the per-block rates), the data sets the linear network's flow and
GD runs use (as ``numerics.node_scaling_linear.flow_runs`` documents them), and the
verdict on the linearisation error's width slope at and beyond its bound, including a
slope with zero standard error.

Written in the mutation-testing triage of the seed-4 run.
"""

from __future__ import annotations

import math
import types

import numpy as np
import pytest
import scipy.linalg

from numerics import node_scaling_linear as nl
from numerics.sweeps import ExponentFit
from solvable._core.claims import Verdict
from solvable.verification.confirmations import linearisation as clin

torch = pytest.importorskip("torch")
from numerics import torch_flow  # noqa: E402
from numerics.torch_flow import field as tf_field  # noqa: E402
from numerics.torch_flow import fixed_point as tf_fixed_point  # noqa: E402
from numerics.torch_flow import layout as tf_layout  # noqa: E402


# ---------------------------------------------------------------------------
# numerics.torch_flow: the linearised tail of the fixed-point test
# ---------------------------------------------------------------------------
class _Quadratic:
    """``L(theta) = theta^T H theta / 2`` with blocks ``a`` (2 entries) and ``b`` (2
    entries) trained at different rates: the gradient flow is linear, ``theta(s) =
    expm(-eta H s) theta_0``."""

    blocks = ("a", "b")

    def __init__(self, H: np.ndarray) -> None:
        self.rates = {"a": 0.5, "b": 2.0}
        self.H = torch.as_tensor(H, dtype=torch.float64)

    def loss(self, p):
        theta = torch.cat([p["a"], p["b"]], 1)
        return 0.5 * torch.einsum("bi,ij,bj->b", theta, self.H, theta)


def test_torch_linear_tail_is_the_exact_flow_of_a_quadratic_loss_at_any_rates():
    """Mutant key: numerics/torch_flow.py:894:core/ReplaceBinaryOperator_Div_Add:1.

    The torch fixed-point test builds the linearised flow (numerics.scipy_ode.LinearTail)
    in ``z = theta / sqrt(eta)``: for a quadratic loss that flow is the exact one, so the
    predicted change ``theta(t + s) - theta(t)`` is ``expm(-diag(eta) H s) theta -
    theta`` (scipy.linalg.expm, independent of the eigen-decomposition) for every ``s``, at
    rates 1/2 and 2 (``sqrt(eta) != 1``), for every batch element."""
    rng = np.random.default_rng(4)
    Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
    H = Q @ np.diag([0.2, 0.7, 1.5, 3.0]) @ Q.T  # stable: every mode decays
    model = _Quadratic(H)
    theta = rng.standard_normal((3, 4))
    params = {"a": torch.as_tensor(theta[:, :2]), "b": torch.as_tensor(theta[:, 2:])}
    packing = tf_layout._Packing(model, params)
    y = packing.pack(params)
    f = tf_field._field(model, packing)
    B = y.shape[0]
    t = torch.zeros(B, dtype=torch.float64)
    atol_b = torch.full((B, 1), 1e-13, dtype=torch.float64)
    due = torch.ones(B, dtype=torch.bool)
    _, tail = tf_fixed_point._fixed_point(model, packing, f, y, f(y), due, t,
                                      torch.tensor(1e6, dtype=torch.float64), 1e-10,
                                      atol_b)  # fmt: skip
    eta = np.array([0.5, 0.5, 2.0, 2.0])
    for s in (0.3, 2.0, 50.0):
        exact = np.stack([scipy.linalg.expm(-np.diag(eta) @ H * s) @ th - th for th in theta])
        # a 4 x 4 eigen-decomposition and expm of norm <= 6: both accurate to ~1e-14 of
        # |theta| ~ 1; 1e-12 leaves 100 x margin (a wrong velocity scale is O(1) off)
        np.testing.assert_allclose(tail.change(s), exact, rtol=1e-12, atol=1e-12,
                                   err_msg=f"s = {s}")  # fmt: skip
    # the end state of a stable quadratic flow is the minimum theta = 0: change -theta
    np.testing.assert_allclose(tail.end(), -theta, rtol=0, atol=1e-12)


def test_torch_fixed_point_test_accepts_the_rest_of_a_converged_quadratic_flow():
    """Mutant key: numerics/torch_flow.py:894:core/ReplaceBinaryOperator_Div_Add:1.

    gradient_flow's docstring: an element whose remaining trajectory is its linearised flow
    to within the tolerance stops stepping (``fixed_point_t`` finite) and its later times
    come from the linearised flow.  A quadratic loss at rates 1/2 and 2 run to t = 1e4:
    every element's fixed-point test succeeds, and the recorded states at t = 3 and t = 1e4
    are the exact flow expm(-diag(eta) H t) theta_0."""
    rng = np.random.default_rng(5)
    Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
    H = Q @ np.diag([0.5, 1.0, 1.5, 2.5]) @ Q.T
    model = _Quadratic(H)
    theta = rng.standard_normal((2, 4))
    params = {"a": torch.as_tensor(theta[:, :2]), "b": torch.as_tensor(theta[:, 2:])}
    times = [3.0, 1e4]
    res = torch_flow.gradient_flow(model, params, times, rtol=1e-10, threads=1, workers=1)
    assert bool(torch.isfinite(res.fixed_point_t).all()), res.fixed_point_t
    eta = np.diag([0.5, 0.5, 2.0, 2.0])
    for k, s in enumerate(times):
        got = np.concatenate([res.params["a"][k].numpy(), res.params["b"][k].numpy()], 1)
        exact = np.stack([scipy.linalg.expm(-eta @ H * s) @ th for th in theta])
        # DOP853 at rtol 1e-10 (default atol 1e-13 x max|theta_0|): the global error over a
        # few hundred steps stays below 1e-8 of |theta_0| ~ 1
        np.testing.assert_allclose(got, exact, rtol=0, atol=1e-8, err_msg=f"t = {s}")


# ---------------------------------------------------------------------------
# numerics.node_scaling_linear.flow_runs: the documented data sets
# ---------------------------------------------------------------------------
_N_GT_D, _N_LT_D, _RANK2 = list(nl.DATA_SETS)


@pytest.mark.parametrize(
    ("method", "full", "expected"),
    [
        ("flow", False, [_N_LT_D]),
        ("gd", False, [_N_GT_D, _N_LT_D]),
        ("flow", True, [_N_GT_D, _N_LT_D, _RANK2]),
        ("gd", True, [_N_GT_D, _N_LT_D, _RANK2]),
    ],
)
def test_flow_runs_use_the_documented_data_sets(monkeypatch, method, full, expected):
    """Mutant key: numerics/node_scaling_linear.py:197:core/AddNot:16.

    flow_runs' docstring: "for each data set (full: n > d, n < d and rank < min(n, d);
    fast: n < d for the flow ..., n > d and n < d for GD)".  With a stand-in for the
    simulation (run_linear records what it is given), every mode runs exactly those data
    sets, with the method asked for, on data of the stated shape and rank."""
    seen = []

    def run_linear(X, y, configs, **kw):
        seen.append((np.shape(X), int(np.linalg.matrix_rank(X)), kw["method"]))
        return "run"

    monkeypatch.setattr(nl, "run_linear", run_linear)
    out = nl.flow_runs(method=method, full=full)
    assert [o["name"] for o in out] == expected
    shapes = {_N_GT_D: ((8, 4), 4), _N_LT_D: ((3, 6), 3), _RANK2: ((5, 4), 2)}
    assert seen == [(*shapes[name], method) for name in expected]


# ---------------------------------------------------------------------------
# confirmations.linearisation: the error-slope verdict at its bound
# ---------------------------------------------------------------------------
def _error_sweep(exponent: float, se: float):
    """A stand-in sweep whose fitted slope of sup_t E is ``exponent +- se`` (an
    :class:`numerics.sweeps.ExponentFit`; ``se`` NaN: no finite standard error)."""
    widths = (16, 64, 256)
    sup = np.array([[p**exponent] * 2 for p in widths])
    fit = ExponentFit(exponent=exponent, se_ols=se, se_boot=se)
    return types.SimpleNamespace(widths=widths, horizon=5.0, eta_a=1.0, a_init="uniform",
                                 activation="tanh", sup_E=sup, fit=fit)  # fmt: skip


@pytest.mark.parametrize("se", [math.nan, 0.05])
def test_linearisation_error_verdict_confirms_up_to_the_bound_and_fails_beyond(se):
    """Mutant key (the se == 0 / no-standard-error branch):
    solvable/verification/confirmations/linearisation.py:74:core/ReplaceComparisonOperator_Eq_NotEq:0.

    _error_verdict's docstring: confirmed when the slope of sup_t E is <= -1/2 + k se
    (k = 3).  A slope below or at -1/2 is under that bound for every se >= 0: confirmed
    with 0 units, also when the fit has no finite standard error (ExponentFit.error NaN);
    a slope above -1/2 + 3 se fails, and without a standard error any slope above -1/2
    fails (infinitely many units: nothing excuses the excess)."""
    for e in (-1.0, -0.5):
        v = clin._error_verdict(_error_sweep(e, se))
        assert v.status == "confirmed", (e, se, v.detail)
        assert v.max_error == 0.0, (e, se, v.max_error)
    over = -0.5 + 0.01 + (3 * se if se > 0 else 0.0)  # 0.01 above the admissible slope
    v = clin._error_verdict(_error_sweep(over, se))
    assert v.status == "failed", (over, se, v.detail)
    if se > 0:  # in units of 3 se: (3 se + 0.01) / (3 se)
        assert v.max_error == pytest.approx(1 + 0.01 / (3 * se), rel=1e-12)
    else:
        assert math.isinf(v.max_error), v.max_error


def test_linearisation_error_verdict_decides_an_exact_fit():
    """Mutant key (the se == 0 branch):
    solvable/verification/confirmations/linearisation.py:74:core/ReplaceComparisonOperator_Eq_NotEq:0.

    An exact fit (standard error 0) has its own branch in _error_verdict: no excess over
    -1/2 confirms (0 units), an excess fails (the detail string's ``(e + 1) / se`` raised
    ZeroDivisionError there before the triage found it), and a slope that failed to compute
    (NaN) fails whatever its standard error."""
    assert clin._error_verdict(_error_sweep(-1.0, 0.0)).status == "confirmed"
    assert clin._error_verdict(_error_sweep(-0.4, 0.0)).status == "failed"
    assert "se = 0" in clin._error_verdict(_error_sweep(-1.0, 0.0)).detail
    for se in (0.0, 0.05, math.nan):
        v = clin._error_verdict(_error_sweep(math.nan, se))
        assert v.status == "failed" and math.isnan(v.max_error), (se, v)


def test_linearisation_error_verdict_confirms_exactly_at_the_bound():
    """A slope exactly ``3 se`` above -1/2 is within the bound: ``max_error`` is exactly 1 and
    the verdict confirmed (``<= 1``, the one rule of every verdict); an outside reviewer's
    mutant (``err <= 1`` -> ``err < 1``) failed it.  Exact: 0.25 + 0.5 = 0.75 = 3 * 0.25."""
    v = clin._error_verdict(_error_sweep(0.25, 0.25))
    assert v.max_error == 1.0 and v.status == "confirmed", (v.max_error, v.status)


@pytest.mark.parametrize("claim, judge", [("_error_slope", "_error_verdict"),
                                          ("_theorem_1", "_theorem_1_verdict")])  # fmt: skip
def test_linearisation_sweeps_train_both_layers_and_the_full_run_also_a_fixed_one(
    monkeypatch, claim, judge
):
    """The error-slope claim and the Theorem 1 monitor simulate flows with both layers
    trained (eta_a = 1, the rate of W); the full run adds the fixed second layer (eta_a =
    0) (the code's statement: "both layers trained; full: also a fixed (eta_a = 0)").  The
    sweeps are stand-ins that record what they are asked.  Seed-4 mutant
    confirmations/linearisation.py:201 ran the fast monitor at eta_a = 2."""
    asked = []

    def sweep(full, eta_a, *args, **kwargs):
        asked.append((full, eta_a))
        return eta_a

    monkeypatch.setattr(clin, "_sweep", sweep)
    monkeypatch.setattr(clin, judge, lambda s, **_: Verdict("confirmed", f"eta_a {s}",
                                                            max_error=0.0))  # fmt: skip
    for full, etas in ((False, [1.0]), (True, [1.0, 0.0])):
        asked.clear()
        getattr(clin, claim)(full)
        assert asked == [(full, e) for e in etas], (claim, full, asked)
