"""``kunin.wide_Delta_general`` (issue 31, item 2a): Delta = eta_w A A^T - eta_a W W^T is
conserved by the wide net's flow for every shape (sympy matrix calculus on MatrixSymbols of
symbolic sizes), tied to the package's loss, balance and flow on a non-square instance; the
claim fails on a wrong balance, a wrong flow, and a residual it cannot reduce to 0."""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

import numerics
from solvable._core.flows import gradient_flow
from solvable.models import kunin
from solvable.models.kunin import flows as kflows
from solvable.models.kunin import wide_proofs
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.losses import _wide_loss


def test_the_general_law_is_proved_and_tied_to_the_package():
    v = wide_proofs._wide_Delta_general()
    assert v.status == "proved", v.detail
    # 1 loss + 4 entries of Delta (2 x 2) + 8 of dA/dt (2 x 4) + 4 of dW/dt (2 x 2)
    assert "(17 residuals simplify to 0)" in v.detail


def test_a_balance_with_the_rates_swapped_fails(monkeypatch):
    def swapped(A, W, eta_a, eta_w):
        return eta_a * (A @ A.swapaxes(-1, -2)) - eta_w * (W @ W.swapaxes(-1, -2))

    monkeypatch.setattr(wide_proofs, "_wide_balance", swapped)
    v = wide_proofs._wide_Delta_general()
    assert v.status == "failed" and "differ from the package's" in v.detail


def test_a_flow_with_the_rates_swapped_fails(monkeypatch):
    """The instance's field is the package's wide_flow: one that trains A at eta_w and W at
    eta_a (the law's rates the other way round) is caught."""
    S = symbolic()

    def swapped_flow(n, d, h, c):
        X, Y = kflows._data_symbols(n, d, c)
        return gradient_flow(lambda A, W: _wide_loss(A, W, X, Y),
                             {"A": ((h, c), S.eta_w), "W": ((h, d), S.eta_a)},
                             (S.eta_a, S.eta_w, *X.ravel(), *Y.ravel()))  # fmt: skip

    monkeypatch.setattr(wide_proofs, "wide_flow", swapped_flow)
    v = wide_proofs._wide_Delta_general()
    assert v.status == "failed" and "differ from the package's" in v.detail


def test_a_flow_with_only_ws_rate_doubled_fails(monkeypatch):
    """Every entry of dW/dt is compared too: W at 2 eta_w (A as the law says) is caught."""
    S = symbolic()

    def doubled_w(n, d, h, c):
        X, Y = kflows._data_symbols(n, d, c)
        return gradient_flow(lambda A, W: _wide_loss(A, W, X, Y),
                             {"A": ((h, c), S.eta_a), "W": ((h, d), 2 * S.eta_w)},
                             (S.eta_a, S.eta_w, *X.ravel(), *Y.ravel()))  # fmt: skip

    monkeypatch.setattr(wide_proofs, "wide_flow", doubled_w)
    v = wide_proofs._wide_Delta_general()
    assert v.status == "failed" and "differ from the package's" in v.detail


def test_a_general_residual_that_does_not_reduce_fails(monkeypatch):
    """Without expand, d Delta/dt stays a sum of matrix products (not the ZeroMatrix): the
    claim is then failed, never proved on faith."""
    monkeypatch.setattr(sp, "expand", lambda e, *a, **k: e)
    v = wide_proofs._wide_Delta_general()
    assert v.status == "failed" and "for general shapes, not 0" in v.detail


def test_delta_is_conserved_by_the_simulated_raw_flow_of_a_non_square_net():
    """The law confirmed at two precisions on a shape no other check uses (n = 3, d = 2,
    h = 3, c = 4: h > d, h < c, Delta 3 x 3) along numerics.simulate's raw (A, W) flow."""
    X = [["0.6", "-0.3"], ["0.2", "0.7"], ["-0.5", "0.1"]]
    Y = [["0.9", "-0.4", "0.3", "0.1"], ["0.2", "0.5", "-0.6", "0.3"],
         ["0.1", "-0.2", "0.4", "0.8"]]  # fmt: skip
    setup = kunin.WideSetup("0.7", "1.3", X, Y)
    A0 = [["0.3", "-0.2", "0.5", "0.1"], ["0.4", "0.1", "-0.3", "0.2"],
          ["-0.1", "0.6", "0.2", "-0.4"]]  # fmt: skip
    W0 = [["0.5", "-0.1"], ["0.2", "0.3"], ["-0.4", "0.6"]]
    for dps in (30, 45):
        sim = numerics.simulate(setup, A0, W0, [0, 0.5, 2.0], method="mpmath", dps=dps)
        assert sim.Delta.shape == (3, 3, 3)
        moved = np.max(np.abs(np.asarray(sim.A[2] - sim.A[0], dtype=float)))
        assert moved > 1e-2  # the net trains: Delta's constancy is not that of a fixed point
        with mpmath.workdps(dps):
            first = sim.Delta[0].ravel()
            drift = max(abs(a - b) for k in (1, 2)
                        for a, b in zip(sim.Delta[k].ravel(), first, strict=True))  # fmt: skip
            # the integrator's error is 10^-(dps + 20) per step; each state is rounded to
            # dps digits, so Delta from rounded weights may differ in its last few digits
            assert drift <= mpmath.mpf(10) ** (3 - dps), (dps, drift)
