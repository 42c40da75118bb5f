"""The size cap of every symbolic flow counts exactly its data and weight entries; gradient
descent names every batch element that diverged at the same step; the full run of the
Gaussian-limit check draws at least as many samples as its fast default; the Hessian verdict
fails when Lanczos misses (2.17) by more than machine precision.

Mutation-testing triage (seed-3 run)."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
import torch

from numerics import kernel_sampling as ks
from numerics import lazy_width as lw
from numerics import torch_flow
from numerics.sweeps import fit_exponent
from solvable._core import arrays
from solvable.models import kernels as kn
from solvable.models import kunin, mirror_flow, node_scaling, xu_ziyin
from solvable.verification.confirmations import kernels as confirm_kn
from solvable.verification.confirmations import linearisation as confirm_lin

F64 = torch.float64


# ---------------------------------------------------------------------------
# MAX_SYMBOLIC_ENTRIES: the entries (data and weights together) of each symbolic flow
# ---------------------------------------------------------------------------
_FLOWS = [
    (mirror_flow.diagonal_flow, {"n": 2, "d": 3}),
    (kunin.flow, {"n": 2, "d": 3}),
    (kunin.wide_flow, {"n": 2, "d": 2, "h": 2, "c": 1}),
    (kunin.piecewise_linear_flow, {"n": 2, "d": 2, "h": 2}),
    (xu_ziyin.flow, {"d": 2, "d0": 3}),
    (node_scaling.flow_symbolic, {"n": 2, "d": 2, "m": 2, "activation": "tanh"}),
]


def _entries(flow) -> int:
    """Weights (the state) plus data entries: the parameters that are entries of a symbol
    array (``X_0_1``, ``y_0``, ``s_1_0``, ``x_2``); scalar hyper-parameters (rates, ``gamma``,
    a scalar target ``y``) are not counted, as MAX_SYMBOLIC_ENTRIES's docstring says."""
    data = [p for p in flow.params if re.search(r"_\d+$", p.name)]
    return len(flow.state) + len(data)


@pytest.mark.parametrize(("build", "sizes"), _FLOWS, ids=lambda v: getattr(v, "__qualname__", ""))
def test_symbolic_flow_cap_counts_exactly_its_data_and_weight_entries(build, sizes, monkeypatch):
    """Mutant solvable/models/mirror_flow.py:346:core/ReplaceBinaryOperator_Mul_BitOr:30 (``2 * d``
    -> ``2 | d`` in diagonal_flow's entry count): a flow of exactly MAX_SYMBOLIC_ENTRIES
    entries is built, one entry over it is refused with a ValueError naming every size."""
    count = _entries(build(**sizes))  # built under the real cap (small sizes), then cached
    monkeypatch.setattr(arrays, "MAX_SYMBOLIC_ENTRIES", count)
    build(**sizes)  # at the cap: allowed
    monkeypatch.setattr(arrays, "MAX_SYMBOLIC_ENTRIES", count - 1)
    named = ", ".join(f"{k}={v}" for k, v in sizes.items() if k != "activation")
    with pytest.raises(ValueError, match=rf"\({re.escape(named)}\) has {count} symbolic entries"):
        build(**sizes)


# ---------------------------------------------------------------------------
# gradient descent: every batch element that diverged at the first bad step is named
# ---------------------------------------------------------------------------
class _Quadratic:
    """``L = z^2 / 2``: gradient descent ``z <- (1 - lr) z`` (rate 1)."""

    blocks, rates = ("z",), {"z": 1.0}

    def loss(self, p):
        return (p["z"] ** 2).sum(-1) / 2


def _first_bad_step(z0: float, lr: float) -> int:
    """The first step at which plain-float gradient descent on z^2/2 leaves the finite range."""
    z, k = z0, 0
    while math.isfinite(z):
        z, k = z - lr * z, k + 1
    return k


@pytest.mark.parametrize(
    ("z0", "max_batch", "named"),
    [
        ([0.0, 0.0, 1.0, 2.0], None, "2, 3"),
        ([0.0, 0.0, 1.0, 2.0], 2, "2, 3"),  # the diverging pair is the second chunk
        # offset 3, local rows 0 and 1: the global rows 3 and 4 (seed-7 survivor: offset
        # joined with | instead of +, which agrees with + where the bits do not overlap)
        ([0.0, 0.0, 0.0, 1.0, 2.0, 0.0], 3, "3, 4"),
    ],
)
def test_divergence_names_every_batch_element_that_left_the_float_range(z0, max_batch, named):
    """Mutant numerics/torch_flow.py:1212:core/ReplaceUnaryOperator_USub_UAdd:22
    (``reshape(-1)`` -> ``reshape(+1)`` of the diverged rows): several elements diverging at
    the same step are a DivergedError naming each of them (global indices, also in a later
    chunk of ``max_batch``), not a RuntimeError."""
    lr = 1e100  # |1 - lr| ~ 1e100: z = 1, 2 overflow at the same step; z = 0 stays 0
    step = _first_bad_step(1.0, lr)
    assert step == _first_bad_step(2.0, lr) and step < torch_flow.CHECK_EVERY
    p = {"z": torch.tensor(z0, dtype=F64)[:, None]}
    with pytest.raises(torch_flow.DivergedError) as info:
        torch_flow.gradient_descent(
            _Quadratic(), p, lr, [10], max_batch=max_batch, device="cpu", dtype=F64
        )
    message = str(info.value)
    assert f"after step {step} in batch element(s) {named} (lr = {lr})" in message, message


# ---------------------------------------------------------------------------
# kernels.gaussian_limit: the full run is at least as thorough as the fast default
# ---------------------------------------------------------------------------
def _draws(full: bool, monkeypatch) -> tuple[list[tuple[int, int]], str]:
    """The (width, draws) of every output_samples call of the check, on cheap Gaussian
    stand-ins for the network outputs (the counts, not the statistics, are under test)."""
    calls: list[tuple[int, int]] = []
    rng = np.random.default_rng(0)

    def fake(init, X, p, batch, *, seed=0, device="cpu"):
        calls.append((p, batch))
        K = kn.gram("nngp", init, X)
        return rng.multivariate_normal(np.zeros(len(X)), K, size=batch)

    monkeypatch.setattr(ks, "output_samples", fake)
    monkeypatch.setattr(confirm_kn, "_kappa4_exact", lambda p: np.zeros(len(confirm_kn._G_C)))
    verdict = confirm_kn._gaussian_limit(full)
    return calls, verdict.detail


def test_gaussian_limit_full_run_draws_at_least_the_fast_defaults_samples(monkeypatch):
    """Mutant solvable/verification/confirmations/kernels.py:273:core/AddNot:29 (``40_000 if full``
    ->
    ``40_000 if not full``): ``full=True`` is 'the full sweep ... instead of its fast
    default' (Theorem.verify), so it covers every width of the default with at least as
    many draws, the final Kolmogorov-Smirnov sample included; the detail reports the draws
    the KS test used."""
    fast, fast_detail = _draws(False, monkeypatch)
    full, full_detail = _draws(True, monkeypatch)
    # the last call is the KS sample at the large width; the others the kappa_4 widths
    (ks_fast, n_fast), (ks_full, n_full) = fast[-1], full[-1]
    assert f"width {ks_fast}, {n_fast} draws" in fast_detail, fast_detail
    assert f"width {ks_full}, {n_full} draws" in full_detail, full_detail
    assert ks_full >= ks_fast and n_full >= n_fast, (fast[-1], full[-1])
    k4_full = dict(full[:-1])
    for p, n in fast[:-1]:
        assert p in k4_full and k4_full[p] >= n, (fast, full)


# ---------------------------------------------------------------------------
# linearisation: the Hessian verdict needs Lanczos to match (2.17) to machine precision
# ---------------------------------------------------------------------------
def _hessian_sweep(formula_error: float) -> lw.HessianSweep:
    """Values ~ p^-1/2 under the bound (2.18) with 1% noise: every other condition holds."""
    widths = (64, 256, 1024)
    rng = np.random.default_rng(0)
    bound = 3.08 / np.sqrt(widths)
    values = np.array([[0.9 * bound[0] * (w / 64) ** -0.5 * (1 + 0.01 * rng.standard_normal())
                        for _ in range(4)] for w in widths])  # fmt: skip
    return lw.HessianSweep(widths, values, bound, formula_error, fit_exponent(widths, list(values)))


@pytest.mark.parametrize("formula_error", [1e-8, 1e-4, 0.5])
def test_hessian_verdict_fails_when_lanczos_misses_the_formula(formula_error):
    """Mutant solvable/verification/confirmations/linearisation.py:46:core/NumberReplacer:26 (the
    Lanczos-vs-(2.17) threshold 1e-10 -> 1.0000000001): a relative difference far above
    float64 rounding (1e-8 and up; the comment says 'Lanczos to machine precision') fails
    the verdict with an infinite error, while 1e-15 on the same sweep is confirmed."""
    assert confirm_lin._hessian_verdict(_hessian_sweep(1e-15)).status == "confirmed"
    verdict = confirm_lin._hessian_verdict(_hessian_sweep(formula_error))
    assert verdict.status == "failed", verdict.detail
    assert verdict.max_error == math.inf
