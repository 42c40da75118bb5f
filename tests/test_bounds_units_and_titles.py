"""The Monte Carlo limit check's units, the exact Gram's work refusal, the Theorem 6.1
residual bound at ``dps`` digits and the delayed-rich plateau figure's T_1/2 title.

- ``Proposition43.limit_error_in_units`` is ``|MC variance - limit| / (half-width + gap)``
  (pass: ``<= 1``), also when one of half-width and gap is zero;
- ``exact_gram`` refuses exactly the data whose work ``K^2 n d^2`` (``K`` limbs of ``b``
  bits, ``n 2^(2b) <= 2^53``) exceeds ``MAX_WORK``;
- ``gd_residual_bound_numeric(..., dps=k)`` is ``(1 - eta gamma kappa_n/2)^s R0_sq`` to ``k``
  digits for any ``R0_sq`` (not only perfect squares);
- the title of the plateau figure's T_1/2 panel prints ``max |T_sim/T_half - 1|`` of the
  drawn points.

Written in the mutation-testing triage of the seed-4 run.
"""

from __future__ import annotations

import math
import re

import matplotlib
import mpmath
import numpy as np
import pytest

from numerics.ntg_sampling import Proposition43
from solvable._core import exact_gram
from solvable._core.tolerance import MonteCarlo
from solvable.models import global_convergence as gc
from solvable.models import kunin
from solvable.verification.figures import seed_003
from solvable.verification.figures._common import new_figure

matplotlib.use("Agg")


# ---------------------------------------------------------------------------
# Proposition43.limit_error_in_units: |MC variance - limit| / (half-width + gap)
# ---------------------------------------------------------------------------
def _record(mc_mean: float, half_width: float, exact: float, limit: float) -> Proposition43:
    # z = 1: half_width = stderr (a scalar MonteCarlo like monte_carlo's of the variances)
    variance = MonteCarlo(np.float64(mc_mean), np.float64(half_width), 100, 0.99, 1.0)
    mean = MonteCarlo(np.zeros((2, 2)), np.ones((2, 2)), 100, 0.99, 1.0)
    return Proposition43("relu", 4, 0.5, "uniform", mean, np.zeros((2, 2)), variance, exact,
                         limit)  # fmt: skip


# (half-width, gap): both positive, zero half-width (constant draws), zero gap (m = oo like)
@pytest.mark.parametrize("hw, gap", [(0.25, 0.5), (0.0, 0.5), (0.5, 0.0)])
def test_limit_error_is_distance_over_half_width_plus_gap_on_both_sides_of_one(hw, gap):
    """Mutant numerics/ntg_sampling.py:101:core/ReplaceBinaryOperator_Add_Div:3."""
    limit = 2.0
    exact = limit + gap  # gap = |variance_exact - variance_limit|
    unit = hw + gap
    for factor in (0.75, 1.25):  # inside / outside the widened interval
        for sign in (1, -1):
            rec = _record(limit + sign * factor * unit, hw, exact, limit)
            assert rec.gap == gap
            got = rec.limit_error_in_units()
            # binary fractions: every operation here is exact in float64
            assert got == factor, (hw, gap, sign, got)
            assert (got <= 1) == (factor < 1)
            assert f"{factor:.2f} units)" in rec.summary()
    # zero spread and zero gap: 0 where the limit is hit, inf elsewhere (documented pass <= 1)
    assert _record(limit, 0.0, limit, limit).limit_error_in_units() == 0.0
    assert _record(limit + 0.5, 0.0, limit, limit).limit_error_in_units() == math.inf


# ---------------------------------------------------------------------------
# exact_gram: refused iff K^2 n d^2 > MAX_WORK
# ---------------------------------------------------------------------------
def _documented_work(rows: list[list[int]]) -> int:
    """``K^2 n d^2`` (MAX_WORK's docstring) with ``b`` the largest limb width with
    ``n 2^(2b) <= 2^53`` (the module docstring) and ``K = ceil(bits / b)`` limbs."""
    n, d = len(rows), len(rows[0])
    b = max(k for k in range(1, 27) if n * 2 ** (2 * k) <= 2**53)
    bits = max(abs(v) for r in rows for v in r).bit_length()
    limbs = max(1, -(-bits // b))
    return limbs * limbs * n * d * d


# integer data (common denominator 1): one limb, and 3 limbs (61-bit entries, b = 26 at n = 2)
@pytest.mark.parametrize("rows", [
    [[1, 2], [3, -1], [0, 5]],
    [[1, 2, 3], [-4, 5, 6]],
    [[1, 0, 2, 1], [2, 1, 0, 3], [1, 1, 1, -1], [0, 2, 5, 7], [3, 0, 1, 1]],
    [[2**60 + 1, 3], [-5, 2**59]],
])  # fmt: skip
def test_exact_gram_refuses_exactly_above_the_documented_work(monkeypatch, rows):
    """Mutant solvable/_core/exact_gram.py:64:core/ReplaceBinaryOperator_Mul_BitXor:6."""
    work = _documented_work(rows)
    monkeypatch.setattr(exact_gram, "MAX_WORK", work)  # at the limit: computed, exactly
    G, D2 = exact_gram.exact_gram(rows, "X")
    d = len(rows[0])
    assert D2 == 1
    assert [[int(v) for v in r] for r in G] == [
        [sum(r[p] * r[q] for r in rows) for q in range(d)] for p in range(d)
    ]
    monkeypatch.setattr(exact_gram, "MAX_WORK", work - 1)  # one below: refused, naming X
    with pytest.raises(ValueError, match=r"^X: the exact isotropy check") as info:
        exact_gram.exact_gram(rows, "X")
    assert f"({work:.1e} multiply-adds" in str(info.value)


# ---------------------------------------------------------------------------
# gd_residual_bound_numeric at dps: (1 - eta gamma kappa_n/2)^s R0_sq to dps digits
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("R0_sq", [2, "0.3", 7.25])
def test_gd_residual_bound_at_dps_is_the_theorem_6_1_formula_to_dps_digits(R0_sq):
    """Mutant solvable/models/global_convergence.py:627:core/ReplaceBinaryOperator_Add_Div:9."""
    # binary fractions: the constants and eta are the same numbers in float64 and mpmath
    c = gc.Constants(n=4, d=2, kappa_n=0.5, gamma=0.5, delta=0.25, C=1.0, C1=1.0, M=1.0)
    eta = 2.0 ** -math.ceil(-math.log2(float(gc.step_size_limit_numeric(c))) + 1)
    assert eta < float(gc.step_size_limit_numeric(c))
    steps, dps = 7, 40
    got = gc.gd_residual_bound_numeric(c, eta, steps, R0_sq, dps=dps)
    with mpmath.workdps(80):  # the docstring's formula, independently, at twice the digits
        want = (1 - mpmath.mpf(eta) * mpmath.mpf(0.5) * mpmath.mpf(0.5) / 2) ** steps \
            * mpmath.mpf(R0_sq)  # fmt: skip
        # dps = 40 digits: a few roundings of the last digit at most
        assert abs(mpmath.mpf(got) / want - 1) < mpmath.mpf(10) ** (2 - dps), (got, want)
    # and the float64 path agrees to float64's precision (a few roundings: 1e-14)
    f64 = float(gc.gd_residual_bound_numeric(c, eta, steps, float(mpmath.mpf(R0_sq))))
    assert f64 == pytest.approx(float(want), rel=1e-14)


# ---------------------------------------------------------------------------
# seed 003, plateau figure: the T_1/2 panel's title number is max |T_sim/T_half - 1|
# ---------------------------------------------------------------------------
def test_seed_003_plateau_title_prints_max_relative_difference_of_drawn_half_times(
    monkeypatch,
):
    """Mutant
    solvable/verification/figures/seed_003.py:138:core/ReplaceBinaryOperator_Sub_Add:11."""

    # stand-in for the scipy flow (the slow part): the closed form at the grid times, so the
    # "simulated" T_1/2 is the grid interpolation of the exact curve (still != T_half)
    def exact_flow(setup, a0, w0, times, **_kw):
        return list(kunin.closed_form(setup, a0, w0).sample(np.asarray(times, dtype=float)))

    monkeypatch.setattr(seed_003.numerics, "simulate", exact_flow)
    fig = new_figure(10.0, 4.0)
    seed_003._draw_plateau(fig, False, False)
    (ax_time,) = [ax for ax in fig.axes if "T_{1/2}" in ax.get_title()]
    lines = {ln.get_label(): ln for ln in ax_time.get_lines()}
    exact = lines[r"$T_{1/2}$ exact (closed form)"].get_xydata()
    sim = lines[r"$T_{1/2}$ simulated (grid interpolation)"].get_xydata()
    np.testing.assert_array_equal(exact[:, 0], sim[:, 0])  # the same |delta| per point
    want = float(np.max(np.abs(sim[:, 1] / exact[:, 1] - 1)))
    assert 0 < want < 0.05  # the interpolation's relative error on a 40-per-T_p grid
    m = re.search(r"max rel\. diff of \$T_\{1/2\}\$ (\S+)$", ax_time.get_title())
    assert m is not None, ax_time.get_title()
    # printed with 2 significant digits (.1e): relative rounding <= 0.05 / 1.0
    assert float(m.group(1)) == pytest.approx(want, rel=0.05), (ax_time.get_title(), want)
