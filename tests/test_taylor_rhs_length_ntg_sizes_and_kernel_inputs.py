"""The Taylor compiler's refusal of a right-hand side of the wrong length, the NTG autograd
confirmation's stated sizes, and the documented Monte Carlo inputs of the kernel
confirmations.

Written in the mutation-testing triage of the seed-5 run.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import sympy as sp

from numerics import mp
from solvable.verification.confirmations import kernels as kernel_confirmations
from solvable.verification.confirmations import ntg as ntg_confirmations


@pytest.mark.parametrize("n_rhs", [1, 3])
def test_compile_polynomial_refuses_a_rhs_not_one_per_state_symbol(n_rhs):
    """Fewer or more right-hand sides than state symbols: a ValueError (the docstring's
    "one entry per state symbol"), not a program with missing or extra rows."""
    # mutant numerics/mp.py:120:core/ReplaceComparisonOperator_NotEq_Gt:0 (lets fewer through)
    x, z = sp.symbols("x z")
    with pytest.raises(ValueError, match=f"one entry per state symbol, got {n_rhs} vs 2"):
        mp.compile_polynomial([x, z], [], [-x, -z, x * z][:n_rhs])


def test_ntg_autograd_claim_compares_the_sizes_its_detail_states(monkeypatch):
    """The verdict's detail ("B=.. networks, m=.., n=..") names the sizes actually compared."""
    # mutant solvable/verification/confirmations/ntg.py:47:core/NumberReplacer:14 (B = 5 networks,
    # detail 4)
    seen = []
    real = ntg_confirmations.node_scaled_parameters

    def recorded(lam, d, batch, **kw):
        p = real(lam, d, batch, **kw)
        seen.append(tuple(p["W"].shape))  # (B, m, d)
        return p

    monkeypatch.setattr(ntg_confirmations, "node_scaled_parameters", recorded)
    real_ntk = ntg_confirmations.ntk_autograd
    inputs = []

    def ntk(model, p, X):
        inputs.append(np.shape(X)[0])
        return real_ntk(model, p, X)

    monkeypatch.setattr(ntg_confirmations, "ntk_autograd", ntk)
    v = ntg_confirmations._claim_autograd()
    assert v.status == "confirmed", v.detail
    m = re.search(r"(\d+) activations, B=(\d+) networks, m=(\d+), n=(\d+)", v.detail)
    assert m, v.detail
    acts, B, width, n = map(int, m.groups())
    assert len(seen) == acts and len(inputs) == acts, (seen, v.detail)
    assert {s[:2] for s in seen} == {(B, width)}, (seen, v.detail)
    assert set(inputs) == {n}, (inputs, v.detail)


def test_kernel_monte_carlo_inputs_are_as_documented():
    """_MC_X's docstring: d = 3, norms from 1 to 2.3, an antipodal pair at rows 0 and 4."""
    # mutant solvable/verification/confirmations/kernels.py:42:core/NumberReplacer:18 (a row of norm
    # 3.2)
    X = kernel_confirmations._MC_X
    assert X.shape[1] == 3
    norms = np.linalg.norm(X, axis=1)
    # "1 to 2.3": the extremes, to the docstring's 2 significant digits (0.05 = half a unit
    # of its last digit)
    assert abs(norms.min() - 1.0) <= 0.05, norms
    assert abs(norms.max() - 2.3) <= 0.05, norms
    # antipodal: x4 = -|x4|/|x0| x0 (exact: the rows are small decimals, parallel and opposite)
    assert np.array_equal(X[4] / norms[4], -X[0] / norms[0]), X[[0, 4]]
