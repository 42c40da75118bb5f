"""Seed 002, Exercise 3 (second layer trained) and Remark 2(a), (b): the claims
linearisation.exercise_3_full_hessian, linearisation.exercise_3_hessian_width_scaling and
linearisation.stationary_points_interpolate, linearisation.function_space_flow_any_depth,
each shown able to fail."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from solvable._core.backends import generate
from solvable.models import linearisation as lin
from solvable.models.linearisation import claim_checks as cc
from solvable.models.linearisation.formulas import _AJ, _X2, P, Z
from solvable.verification.confirmations import linearisation as cl


def test_symbolic_claims_are_proved() -> None:
    assert cc._exercise_3_full_hessian().status == "proved"
    assert cc._stationary_interpolates().status == "proved"


def test_exercise_3_fails_with_the_fixed_a_block_norm(monkeypatch: pytest.MonkeyPatch) -> None:
    # the W-only norm (2.16) is not the norm of the (a, w) block: the claim must fail
    monkeypatch.setattr(cc, "full_block_opnorm", lambda name=None: lin.block_opnorm(name))
    assert cc._exercise_3_full_hessian().status == "failed"


def test_remark_2_fails_with_a_kernel_without_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    def unweighted(f, theta, rate, x, xp):
        return sum(sp.diff(f(x), v) * sp.diff(f(xp), v) for v in theta)

    monkeypatch.setattr(cc, "_ntk", unweighted)
    assert cc._stationary_interpolates().status == "failed"


def test_full_block_opnorm_at_a_equals_zero_and_large_width() -> None:
    # a_j = 0: the block is [[0, s1 x^T], [s1 x, 0]]/sqrt(p), norm |s1| |x| / sqrt(p)
    fn = generate((_AJ, Z, _X2, P), lin.full_block_opnorm("tanh"), "numpy")
    z, x2, p = 0.3, 2.25, 1e12
    assert np.isclose(fn(0.0, z, x2, p), (1 - np.tanh(z) ** 2) * 1.5 / 1e6, rtol=1e-14)


def test_numeric_claim_confirms_and_fails_on_a_wrong_closed_form() -> None:
    assert cl._exercise_3_hessian().status == "confirmed"
    wrong = generate((_AJ, Z, _X2, P), lin.block_opnorm("tanh"), "numpy")

    def w_only(params, x):
        a, W = params["a"].numpy(), params["W"].numpy()
        return wrong(a, W @ x, float(x @ x), float(W.shape[1])).max(axis=1)

    assert cl._exercise_3_hessian(opnorm=w_only).status == "failed"


def test_remark_2a_any_depth_proved_and_fails_without_rates() -> None:
    # linearisation.function_space_flow_any_depth: the three-layer network's flow; a kernel
    # without the per-layer rates (or none at all) must fail
    assert cl._function_space_flow_any_depth().status == "proved"
    assert cl._function_space_flow_any_depth(ntk=lambda u, v: 0).status == "failed"
