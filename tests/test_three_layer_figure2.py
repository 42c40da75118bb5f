"""Seed 004 Figure 2, first row: the shape statistics and the judge of the claim
``three_layer.figure_2_functions``
(solvable/verification/confirmations/_three_layer_figure2.py), both sides: a linear spline
and bumps of known size, then runs ordered as measured (pass) and broken ones (reversed, tied,
NaN, not interpolating, missing: fail).  The measured verdict runs in
``tests/test_registry.py::test_numeric_claim_is_confirmed``."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from matplotlib.figure import Figure

from numerics.sweep_three_layer import DATA_X, DATA_Y
from solvable.verification.confirmations import _three_layer_figure2 as f2
from solvable.verification.confirmations import claims_of
from solvable.verification.figures import seed_004

F = Fraction
SPLINE = np.interp(f2.GRID, DATA_X, DATA_Y)
# vanishes at the four data points (-1, -1/3, 1/3, 1); |.| = 1 at x = -2/3, a grid point
BUMP = np.sin(1.5 * np.pi * (f2.GRID + 1))


def test_grid_holds_the_data_points_exactly():
    assert [f2.GRID[k] for k in f2.KNOTS] == list(DATA_X)
    assert f2.GRID[0] == -1 and f2.GRID[-1] == 1 and np.all(np.diff(f2.GRID) > 0)


def test_the_linear_spline_has_no_gap_and_the_least_curvature():
    s = f2.shape(SPLINE)
    assert s["spline_gap"] <= 1e-15 and s["curvature"] == pytest.approx(1, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(eps=st.floats(1e-3, 0.3), shift=st.floats(-2, 2))
def test_a_bump_between_the_data_is_its_size_and_adds_curvature(eps, shift):
    """``SPLINE + shift + eps BUMP`` has the values ``DATA_Y + shift`` at the data: its gap
    is ``eps`` (the bump's top is a grid point) and it changes slope more than the spline,
    the more the larger ``eps``."""
    small, big = (f2.shape(SPLINE + shift + e * BUMP) for e in (eps, 2 * eps))
    assert small["spline_gap"] == pytest.approx(eps, rel=1e-9)
    assert 1 < small["curvature"] < big["curvature"]


@settings(max_examples=30, deadline=None)
@given(f=hnp.arrays(np.float64, f2.GRID.shape, elements=st.floats(-10, 10)))
def test_curvature_is_at_least_the_splines(f):
    """Any values on the grid change slope at least as much as the spline through their
    values at the data (mean value theorem on the grid), when that spline bends at all."""
    s = f2.shape(f)
    assert s["spline_gap"] >= 0
    assert math.isnan(s["curvature"]) or s["curvature"] >= 1 - 1e-9


@pytest.mark.parametrize(("bad", "match"), [
    (np.zeros(5), "f must hold 601 finite values"),
    (np.full(f2.GRID.shape, math.nan), "f must be finite"),
])  # fmt: skip
def test_shape_rejects_values_off_the_grid_or_not_finite(bad, match):
    with pytest.raises(ValueError, match=match):
        f2.shape(bad)


# runs as measured (m = 128): gaps falling by about 10 and 4, curvature 2.7 -> 1.02 -> 1.0
GOOD = {(g3, s): {"loss": 8e-7, "spline_gap": gap * (1 + 0.1 * s), "curvature": c}
        for s in (0, 1, 2)
        for g3, gap, c in zip(f2.GAMMA_3, (0.05, 0.005, 0.001), (2.7, 1.02, 1.002),
                              strict=True)}  # fmt: skip


def _with(key, **changes):
    return {**GOOD, key: {**GOOD[key], **changes}}


def test_judge_confirms_the_measured_order():
    v = f2.judge_figure_2(GOOD)
    assert v.status == "confirmed", v.detail
    assert v.max_error == pytest.approx(0.8)  # the largest R_S / tol


@pytest.mark.parametrize(("key", "changes", "where"), [
    ((F(2), 1), {"spline_gap": 0.01}, "seed 1 gap 1.5->2"),  # reversed
    ((F(2), 1), {"spline_gap": GOOD[F(3, 2), 1]["spline_gap"]}, "seed 1 gap 1.5->2"),  # a tie
    ((F(3, 2), 0), {"spline_gap": math.nan}, "seed 0 gap 1->1.5"),
    ((F(3, 2), 2), {"curvature": 2.8}, "seed 2 curvature 1->1.5"),  # reversed
    ((F(1), 2), {"curvature": 1.02}, "seed 2 curvature 1->1.5"),  # a tie
    ((F(1), 0), {"curvature": math.nan}, "seed 0 curvature 1->1.5"),
    ((F(1), 1), {"loss": 2e-6}, "seed 1 gamma_3 = 1 R_S"),  # did not interpolate
    ((F(1), 1), {"loss": None}, "seed 1 gamma_3 = 1 R_S"),  # diverged
    ((F(1), 1), {"loss": math.nan}, "seed 1 gamma_3 = 1 R_S"),
])  # fmt: skip
def test_judge_fails_on_a_broken_measurement(key, changes, where):
    v = f2.judge_figure_2(_with(key, **changes))
    assert v.status == "failed" and f"({where})" in v.detail, v.detail


def test_judge_fails_on_a_seed_missing_a_gamma_3_and_on_nothing():
    missing = {k: v for k, v in GOOD.items() if k != (F(3, 2), 2)}
    assert f2.judge_figure_2(missing).status == "failed"
    assert f2.judge_figure_2({}).status == "failed"


def test_claim_registered_with_the_three_layer_claims():
    (c,) = [c for c in claims_of("three_layer") if c.id == "three_layer.figure_2_functions"]
    assert c.kind == "numeric" and "Figure 2" in c.source


def test_figure_draws_every_seeds_function_with_the_data_and_the_spline(monkeypatch):
    """``004-fig2`` (solvable/verification/figures/seed_004.py) draws, per gamma_3, the
    measured values of every seed on the grid, the linear spline and the data points."""
    runs = {key: {**r, "f": tuple(SPLINE + 0.01 * (key[1] + 1) * float(key[0]) * BUMP)}
            for key, r in GOOD.items()}  # fmt: skip
    monkeypatch.setattr(f2, "measure", lambda full: runs)
    fig = Figure()
    seed_004._draw_fig2_functions(fig, False, False)
    assert len(fig.axes) == len(f2.GAMMA_3)
    for ax, g3 in zip(fig.axes, f2.GAMMA_3, strict=True):
        lines = ax.get_lines()
        for k, seed in enumerate((0, 1, 2)):
            np.testing.assert_array_equal(lines[k].get_ydata(), runs[g3, seed]["f"])
            assert f"seed {seed}" in lines[k].get_label()
        np.testing.assert_allclose(lines[3].get_ydata(), SPLINE, rtol=0, atol=1e-15)
        assert list(lines[4].get_xdata()) == list(DATA_X)
