"""Two kunin checks a sampled mutation run (seed 28) found untested: the claim
``kunin.limit_at_infinity`` on its Omega = 0 branch (delta = Y = 0), and the work budget
beyond which a wide start is not compared with beta* in rationals."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy as sp

from solvable import kunin
from solvable.models.kunin import proofs as kunin_proofs
from solvable.models.kunin import wide as kunin_wide


def test_limit_at_infinity_checks_the_omega_zero_branch(monkeypatch):
    """A z_a_inf wrong only where Omega = 0 (1 more there, the same elsewhere: the other
    branches substitute Omega = D/2 + q > 0) fails the claim: its last loop takes the limits
    delta -> 0, Omega -> 0 first (a loop over no name passed it)."""
    real = kunin_proofs.symbolic()
    wrong = real.exprs["z_a_inf"] + sp.Piecewise((1, sp.Eq(real.Omega, 0)), (0, True))
    planted = dataclasses.replace(real, exprs={**real.exprs, "z_a_inf": wrong})
    monkeypatch.setattr(kunin_proofs, "symbolic", lambda: planted)
    assert kunin_proofs._limit_at_infinity().status == "failed"


@pytest.mark.parametrize("n, computed", [(256, True), (257, False)])
def test_a_wide_start_is_compared_with_beta_star_only_within_the_budget(monkeypatch, n,
                                                                         computed):  # fmt: skip
    """``n d c + h d c`` at the budget (2^17 = 256 * 256 + 256 * 256, c = 1) is compared in
    rationals; one row more is not (``False`` without the work, as documented), both for a
    start that is exactly beta*."""
    d, h = 256, 256
    assert n * d + h * d - kunin_wide._NULL_MODES_WORK == (0 if computed else d)
    calls = []
    real = kunin_wide._exact_moments

    def spy(setup):
        calls.append(setup)
        return real(setup)

    monkeypatch.setattr(kunin_wide, "_exact_moments", spy)
    X = np.zeros((n, d))
    X[:d] = np.eye(d)  # X^T X = I exactly
    Y = np.zeros((n, 1))
    Y[0, 0] = 1.0  # beta* = X^T Y = e_1
    setup = kunin.WideSetup(1.0, 1.0, X, Y)
    A0 = [[1.0]] + [[0.0]] * (h - 1)
    W0 = [[1.0] + [0.0] * (d - 1)] + [[0.0] * d] * (h - 1)  # W0^T A0 = e_1 = beta*
    assert kunin_wide._starts_at_beta_star(setup, A0, W0) is computed
    assert bool(calls) is computed
