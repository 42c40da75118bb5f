"""Deep linear networks (solvable.deep_linear): the setup and its refusals, the conservation
laws (proved for general matrices, conserved by the simulated flow at 30 digits) and the
system for numerics.simulate (every method, every depth)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import torch

import numerics
from numerics.models import SystemModel
from solvable import deep_linear as dl
from solvable.models.deep_linear import proofs


def _random_weights(widths, seed):
    rng = np.random.default_rng(seed)
    return [rng.normal(size=(widths[i + 1], widths[i])) * 0.6 for i in range(len(widths) - 1)]


def _setup(widths, n=4, seed=0, rates=None):
    rng = np.random.default_rng(seed + 100)
    rates = rates or tuple(["1", "0.5", "2", "1.5", "0.7"][: len(widths) - 1])
    return dl.Setup(rates, rng.normal(size=(n, widths[0])), rng.normal(size=(n, widths[-1])))


def test_setup_validates_and_names_arguments():
    s = _setup((2, 3, 1))
    assert (s.L, s.n, s.d0, s.dL) == (2, 4, 2, 1)
    with pytest.raises(ValueError, match="rates"):
        dl.Setup(("1",), ((1.0,),), ((1.0,),))
    with pytest.raises(ValueError, match=r"rates\[1\]"):
        dl.Setup(("1", "0"), ((1.0,),), ((1.0,),))
    with pytest.raises(TypeError, match="rates"):
        dl.Setup("12", ((1.0,),), ((1.0,),))
    with pytest.raises(ValueError, match="Y has length 1 but X has 2 rows"):
        dl.Setup(("1", "1"), ((1.0,), (2.0,)), ((1.0,),))
    with pytest.raises(ValueError, match="W2"):
        dl.check_weights(s, [np.ones((3, 2)), np.ones((2, 3))])
    with pytest.raises(ValueError, match="L = 2"):
        dl.check_weights(s, [np.ones((3, 2))])


def test_general_law_is_proved_and_every_law_of_the_instance():
    v = proofs.balance_general()
    assert v.status == "proved" and all(r == 0 for r in v.residuals)
    for law in dl.laws():
        assert law.residual() == 0, law.id


def test_general_proof_fails_for_the_wrong_scaling(monkeypatch):
    """The proof can fail: D with eta_l and eta_{l+1} swapped is not conserved."""

    def wrong(A, Wu, Wl, B, X, Y, eu, el):
        L, du, dl_, _ = original(A, Wu, Wl, B, X, Y, eu, el)
        return L, du, dl_, Wu.T * Wu / el - Wl * Wl.T / eu

    original = proofs._calculus
    monkeypatch.setattr(proofs, "_calculus", wrong)
    assert proofs.balance_general().status == "failed"


@pytest.mark.parametrize("widths", [(2, 3, 1), (3, 2, 4, 2), (2, 3, 1, 2, 2)])
def test_laws_are_conserved_by_the_simulated_flow_at_30_digits(widths):
    setup = _setup(widths, seed=len(widths))
    Ws = _random_weights(widths, len(widths))
    sim = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), [0, "0.7", "1.5"], method="mpmath",
                            dps=30)  # fmt: skip
    worst = 0
    with mpmath.workdps(30):
        eta = [mpmath.mpf(r) for r in setup.rates]
        D0 = None
        for k in range(3):
            W = sim.at(k).weights
            D = [dl.balance(W[l + 1], W[l], eta[l + 1], eta[l]) for l in range(setup.L - 1)]
            if D0 is None:
                D0 = D
            for a, b in zip(D, D0, strict=True):
                worst = max(worst, max(abs(x) for x in (a - b).ravel()))
    assert sim.loss[-1] < sim.loss[0]  # it trains
    # the Taylor integrator works at 30 + 20 digits; states rounded to 30: 1e-27 of O(1)
    assert worst < mpmath.mpf("1e-27")


def test_system_agrees_across_methods_and_the_batched_torch_model():
    setup = _setup((2, 3, 2, 2))
    Ws = _random_weights((2, 3, 2, 2), 5)
    a = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), [0.0, 1.0], method="scipy")
    b = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), [0.0, 1.0], method="torch",
                          device="cpu")  # fmt: skip
    c = numerics.simulate(setup, Ws[-1], tuple(Ws[:-1]), [0.0, 1.0], method="mpmath", dps=20)
    for k in range(2):
        for x, y, z in zip(a.at(k).weights, b.at(k).weights, c.at(k).weights, strict=True):
            # DOP853 at rtol 1e-13 / 1e-12 on O(1) weights over t = 1
            assert np.max(np.abs(x - y)) < 1e-9
            assert np.max(np.abs(x - np.asarray(z, dtype=float))) < 1e-10
    # the batched torch model: two networks at once, the loss of each is the system's
    model = SystemModel(dl.SYSTEM, setup)
    params = {f"W{l}": torch.tensor(np.stack([Ws[l - 1], 2 * Ws[l - 1]])) for l in (1, 2, 3)}
    batch = model.loss(params)
    data = dl.SYSTEM.data(setup, "numpy")
    for i, scale in enumerate((1, 2)):
        own = dl.loss([scale * W for W in Ws], data["X"], data["Y"])
        assert abs(float(batch[i]) - own) <= 1e-12 * own


def test_simulate_refuses_bad_weights_by_name():
    setup = _setup((2, 3, 1))
    W1, W2 = _random_weights((2, 3, 1), 1)
    with pytest.raises(ValueError, match="in0 must be a tuple"):
        numerics.simulate(setup, W2, W1, [0.0], method="scipy")
    with pytest.raises(ValueError, match="W2"):
        numerics.simulate(setup, W1, (W1,), [0.0], method="scipy")
    with pytest.raises(ValueError, match="W1"):
        numerics.simulate(setup, W2, (W1.T,), [0.0], method="scipy")


def test_state_measures_the_weights():
    setup = _setup((2, 2, 1))
    Ws = _random_weights((2, 2, 1), 3)
    st = dl.state_of(setup, 0.0, Ws, None)
    X, Y = np.array(setup.X), np.array(setup.Y)
    beta = Ws[1] @ Ws[0]
    assert np.allclose(st.beta, beta, rtol=0, atol=1e-15)
    assert np.allclose(st.f, X @ beta.T, rtol=0, atol=1e-14)
    assert abs(st.loss - 0.5 * np.sum((X @ beta.T - Y) ** 2)) < 1e-13
