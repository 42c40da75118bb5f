"""deep_linear's NTK (issue 31, item 4): ``network.ntk`` against torch autograd's Jacobians
(an independent computation), against the single neuron's ``kunin.ntk`` at L = 2 with one
output (another model's code), and ``kernel_path`` along the exact solution at 30 digits
against the same measures on the simulated raw flow."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

import numerics
import solvable
from solvable import deep_linear as dl
from solvable import kunin
from solvable.verification.confirmations import deep_linear as conf


def _autograd_ntk(Ws, X, rates):
    """``sum_l eta_l J_l J_l^T`` with ``J_l = d vec(F) / d vec(W_l)`` from torch autograd."""
    Wt = [torch.tensor(W, dtype=torch.float64) for W in Ws]
    Xt = torch.tensor(X, dtype=torch.float64)

    def outputs(*weights):
        return dl.outputs(list(weights), Xt).reshape(-1)  # rows (i, a)

    jac = torch.autograd.functional.jacobian(outputs, tuple(Wt))
    K = sum(e * J.reshape(J.shape[0], -1) @ J.reshape(J.shape[0], -1).T
            for e, J in zip(rates, jac, strict=True))  # fmt: skip
    return K.numpy()


@settings(max_examples=40, deadline=None)
@given(L=st.integers(2, 5), n=st.integers(1, 4), d0=st.integers(1, 3), dL=st.integers(1, 3),
       hidden=st.integers(1, 4), seed=st.integers(0, 10**6))  # fmt: skip
def test_ntk_is_autograd_s(L, n, d0, dL, hidden, seed):
    rng = np.random.default_rng(seed)
    widths = [d0, *([hidden] * (L - 1)), dL]
    Ws = [rng.standard_normal((widths[l + 1], widths[l])) for l in range(L)]
    X = rng.standard_normal((n, d0))
    rates = list(rng.uniform(0.1, 3.0, L))
    got = dl.ntk(Ws, X, rates)
    want = _autograd_ntk(Ws, X, rates)
    assert got.shape == (n, dL, n, dL)
    got = got.reshape(n * dL, n * dL)  # (rows (i, a), as the Jacobian's)
    # both are sums of a few products of O(1) entries: agreement to ~1e-15 of the largest
    assert np.max(np.abs(got - want)) <= 1e-12 * max(1.0, np.max(np.abs(want)))


def test_ntk_sees_a_wrong_rate_and_a_missing_layer():
    rng = np.random.default_rng(1)
    Ws = [rng.standard_normal((3, 2)), rng.standard_normal((2, 3))]
    X = rng.standard_normal((4, 2))
    want = _autograd_ntk(Ws, X, [1.0, 2.0]).reshape(4, 2, 4, 2)
    assert np.allclose(dl.ntk(Ws, X, [1.0, 2.0]), want, rtol=1e-12, atol=1e-12)
    assert not np.allclose(dl.ntk(Ws, X, [2.0, 1.0]), want, rtol=1e-6)
    assert not np.allclose(dl.ntk(Ws, X, [1.0, 0.0]), want, rtol=1e-6)  # (a layer left out)


def test_two_layers_one_output_is_the_single_neuron():
    rng = np.random.default_rng(2)
    w, a = rng.standard_normal(3), 0.7
    X = rng.standard_normal((5, 3))
    got = dl.ntk([w[None, :], np.array([[a]])], X, [0.3, 1.9])[:, 0, :, 0]  # (eta_w, eta_a)
    want = kunin.ntk(a, w, X, 1.9, 0.3)  # kunin.ntk(a, w, X, eta_a, eta_w)
    assert np.allclose(got, want, rtol=1e-14, atol=1e-14)


def test_ntk_runs_on_mpmath_objects_and_torch():
    rng = np.random.default_rng(3)
    Ws = [rng.standard_normal((2, 2)), rng.standard_normal((1, 2))]
    X = rng.standard_normal((3, 2))
    ref = dl.ntk(Ws, X, [1.0, 0.5])
    with mpmath.workdps(30):
        obj = dl.ntk([W.astype(object) * mpmath.mpf(1) for W in Ws], X.astype(object),
                     [mpmath.mpf(1), mpmath.mpf("0.5")])  # fmt: skip
        assert obj.dtype == object and isinstance(obj[0, 0, 0, 0], mpmath.mpf)
    assert np.allclose(obj.astype(float), ref, rtol=1e-14, atol=0)
    tt = dl.ntk([torch.tensor(W) for W in Ws], torch.tensor(X), [1.0, 0.5])
    assert isinstance(tt, torch.Tensor) and np.allclose(tt.numpy(), ref, rtol=1e-14, atol=0)


def test_kernel_path_along_the_exact_solution_is_the_simulated_flow_s_at_30_digits():
    setup = dl.Setup(("1", "0.5", "2"), conf.X_WHITE, conf.Y)
    Ws = dl.spectral_start(setup, ("0.05", "-0.02"), (3, 2), dps=30)
    traj = dl.closed_form(setup, Ws, dps=30)
    times = ["0", "0.5", "3"]
    kernel = dl.network_kernel(setup)
    exact = solvable.kernel_path(traj, times, kernel=kernel)
    sim = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), times, method="mpmath", dps=30)
    with mpmath.workdps(30):
        K0 = kernel(sim.at(0))
        for k in range(len(times)):
            Kt = kernel(sim.at(k))
            # the Taylor integrator at 50 digits and the closed form at 40: 1e-25 absolute on
            # measures of size O(1) (the confirmations' 30-digit tolerance, dps - 5)
            assert abs(solvable.kernel_distance(K0, Kt) - exact.distance[k]) < 1e-25
            assert abs(solvable.kernel_norm_change(K0, Kt) - exact.norm_change[k]) < 1e-25
    assert exact.distance[0] == 0 and exact.distance[2] > exact.distance[1] > 0
    limit = solvable.kernel_path(traj, [math.inf], kernel=kernel)
    assert limit.distance[0] > exact.distance[2]  # (the kernel keeps moving to the limit)


def test_network_kernel_refuses_another_model_s_setup():
    with pytest.raises(TypeError, match=r"deep_linear\.Setup"):
        dl.network_kernel(kunin.Setup(1, 1, [[1.0]], [1.0]))


def test_network_kernel_reads_the_data_at_the_state_s_precision():
    # decimal entries (not binary fractions): read at 30 digits, not through float64
    setup = dl.Setup(("1", "0.5"), [["0.1", "0.3"], ["0.7", "-0.2"], ["0.3", "0.1"]],
                     [["0.2"], ["0.1"], ["-0.4"]])  # fmt: skip
    with mpmath.workdps(30):
        Ws = [np.array([[mpmath.mpf("0.3"), mpmath.mpf("-0.1")],
                        [mpmath.mpf("0.2"), mpmath.mpf("0.4")]], dtype=object),
              np.array([[mpmath.mpf("0.5"), mpmath.mpf("0.1")]], dtype=object)]  # fmt: skip
        X = np.array([[mpmath.mpf(v) for v in row] for row in setup.X], dtype=object)
        want = dl.ntk(Ws, X, [mpmath.mpf(1), mpmath.mpf("0.5")])
        got = dl.network_kernel(setup)(dl.state_of(setup, 0, Ws, 30))
        assert max(abs(g - w) for g, w in zip(got.ravel(), want.ravel(), strict=True)) < 1e-28
