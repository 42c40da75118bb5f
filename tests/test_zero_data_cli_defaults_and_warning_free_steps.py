"""Refusal of all-zero data by the exact solution, the node-scaling CLI's defaults, the
sensitivity of piecewise_linear's evaluator-agreement claim, and warning-free torch DOP853
steps.

Written in the mutation-testing triage of the seed-5 run.
"""

from __future__ import annotations

import functools
import inspect
import warnings

import mpmath
import numpy as np
import pytest
import torch
from test_tails_sweeps_and_defaults import _Quadratic  # L = theta^T H theta / 2, rates 1/2, 2

from numerics import node_scaling_experiment as nse
from numerics import torch_flow
from numerics.node_scaling_experiment import cli as nse_cli
from solvable.models import kunin
from solvable.models import piecewise_linear as pl


@pytest.mark.parametrize("zero", [0, 0.0, "0"])
def test_closed_form_refuses_all_zero_data_whose_s_is_zero(zero):
    """closed_form's docstring: the exact solution exists only for ``X^T X = s I`` with
    ``s > 0``; all-zero X has ``s = 0`` (and no defect), so it is a ValueError for exact
    (int, str) and float entries alike."""
    # mutant key: solvable/models/kunin.py:2293:core/ReplaceComparisonOperator_Gt_GtE:12
    setup = kunin.Setup(1, 1, ((zero, zero), (zero, zero)), (1, 0))
    with pytest.raises(ValueError, match="isotropic"):
        kunin.closed_form(setup, 1, [1, 0])


def test_node_scaling_cli_defaults_are_section_8_1_1_defaults():
    """The command line's defaults (steps, widths, repeats, lr) run section_8_1_1 at its own
    documented defaults (the reduced Section 8.1.1 run)."""
    # mutant key: numerics/node_scaling_experiment.py:870:core/NumberReplacer:563
    args = nse_cli._parser().parse_args(["--out", "unused"])
    defaults = inspect.signature(nse.section_8_1_1).parameters
    assert args.steps == defaults["steps"].default
    assert tuple(args.widths) == tuple(defaults["widths"].default)
    assert args.repeats == defaults["repeats"].default
    assert args.lr == defaults["lr"].default


def test_piecewise_linear_evaluators_agree_detects_an_mpmath_error_beyond_dps_digits(
    monkeypatch,
):
    """The claim states the dps-digit evaluators agree with 2 dps digits to about dps
    digits: an mpmath angular_rate wrong in its 25th significant digit (at dps = 30) must
    refute it."""
    # mutant key: solvable/models/piecewise_linear.py:591:core/ReplaceBinaryOperator_Sub_Add:26
    true_rate = pl.angular_rate

    @functools.wraps(true_rate)
    def off_by_1e_25(*args, dps=None, **kw):
        v = true_rate(*args, dps=dps, **kw)
        if dps != 30 or not mpmath.isfinite(v) or v == 0:
            return v
        # 1e-25 relative: 1e4 times the claim's 30-digit tolerance, far below float64's
        return v * (1 + mpmath.mpf("1e-25"))

    monkeypatch.setattr(pl, "angular_rate", off_by_1e_25)
    assert pl._evaluators_agree().status == "failed"
    monkeypatch.undo()
    assert pl._evaluators_agree().status == "confirmed"


def test_torch_gradient_flow_steps_without_warnings_and_match_expm():
    """gradient_flow on a quadratic loss (batch 3 in one tile, 4 parameters) raises no
    warning (its work buffers have the tile's shape: no resized outputs) and gives
    expm(-diag(eta) H t) theta_0."""
    # mutant key: numerics/torch_flow.py:997:core/ReplaceBinaryOperator_Mul_BitOr:35
    import scipy.linalg

    rng = np.random.default_rng(11)
    Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
    H = Q @ np.diag([0.5, 1.0, 1.5, 2.5]) @ Q.T
    theta = rng.standard_normal((3, 4))
    params = {"a": torch.as_tensor(theta[:, :2]), "b": torch.as_tensor(theta[:, 2:])}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = torch_flow.gradient_flow(
            _Quadratic(H), params, [0.7], rtol=1e-10, threads=1, workers=1,
            fixed_point=False,
        )  # fmt: skip
    eta = np.diag([0.5, 0.5, 2.0, 2.0])
    want = theta @ scipy.linalg.expm(-eta @ H * 0.7).T
    got = np.concatenate([res.params["a"][0].numpy(), res.params["b"][0].numpy()], 1)
    # rtol 1e-10 of DOP853 per step on an O(1) linear flow over t = 0.7: 1e-8 is 100x slack
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-8)
