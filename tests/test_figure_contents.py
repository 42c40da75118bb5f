"""What the figures draw, read from their matplotlib artists: where seed 004's Figures 1
and 5 put the stars of the measured zero crossings of S_W (both kinds: along gamma_3 and
along gamma_2), and which part of seed 001's ReLU theory curves (Figure 1(c), (d)) is drawn
solid ("exact while no w_i changes sign") and which dashed.

Written in the mutation-testing triage of the seed-4 run.  The expensive parts (phase
measurements, closed forms, simulations) are replaced by small fakes whose output the test
knows exactly; what is checked is what the figure does with it.
"""

from __future__ import annotations

import math

import matplotlib.colors as mcolors
import numpy as np
import pytest
from test_figure_details import FAKE_ERR
from test_figure_details import _FakePoint as _LinearPoint

from solvable.verification.confirmations import _three_layer_plane as plane
from solvable.verification.figures import seed_001, seed_004
from solvable.verification.figures._common import new_figure

# ---------------------------------------------------------------------------
# seed 004, Figures 1 and 5: the stars sit at the zero crossings of S_W
# ---------------------------------------------------------------------------
ERR = FAKE_ERR  # the fake points' standard error of S_W (_LinearPoint: its zeros are exact)


def _expected_stars(layer):
    """The zeros of the linear S_W on the figure's grid, as (gamma_2, gamma_3) points, per
    kind: along gamma_3 at each fixed gamma_2 (S_W1 = 0 at gamma_3 = 2 gamma_2 + 3/2, S_W2 =
    0 at gamma_3 = 2), along gamma_2 at each fixed gamma_3 (S_W1 = 0 at gamma_2 = (gamma_3 -
    3/2)/2; S_W2 does not depend on gamma_2 and is 0 at no grid gamma_3: no crossing)."""
    g2s, g3s = ([float(v) for v in vs] for vs in seed_004.GRID_FAST)
    assert 2.0 not in g3s  # else S_W2 would be 0 along a whole row
    along3, along2 = [], []
    for a in g2s:
        at = 2 * a + 1.5 if layer == "W1" else 2.0
        if min(g3s) <= at <= max(g3s):
            along3.append((a, at))
    if layer == "W1":
        for b in g3s:
            at = (b - 1.5) / 2
            if min(g2s) <= at <= max(g2s):
                along2.append((at, b))
    return {"gold": sorted(along3), "violet": sorted(along2)}


def _stars(ax):
    """``{colour: [(x, y, bar segment)]}`` of the error-bar stars in ``ax``."""
    out = {}
    for c in ax.containers:
        line, _caps, bars = c.lines
        if line is None or line.get_marker() != "*":
            continue
        (x,), (y,) = line.get_xdata(), line.get_ydata()
        (segment,) = bars[0].get_segments()
        colour = next(k for k in ("gold", "violet") if mcolors.same_color(line.get_color(), k))
        out.setdefault(colour, []).append((float(x), float(y), np.asarray(segment)))
    return {k: sorted(v, key=lambda s: s[:2]) for k, v in out.items()}


@pytest.mark.parametrize("which", ["fig5"])
def test_seed_004_crossing_stars_sit_at_the_zeros_of_s_along_both_axes(monkeypatch, which):
    """Figure 5 (caption: "Stars: the zero crossings by linear interpolation of S_W
    along gamma_3 at fixed gamma_2 (yellow) and along gamma_2 at fixed gamma_3 (violet), ± 1
    s.e.") on axes x = gamma_2, y = gamma_3: with S_W linear in (gamma_2, gamma_3) the
    interpolation is exact, so every star lies at a zero of S_W, at the fixed coordinate of
    its kind, with its error bar along the axis it was found along (vertical for gamma_3,
    horizontal for gamma_2) and centred on it.
    Mutant key: solvable/verification/figures/seed_004.py:124:core/AddNot:2 (x and y swapped)."""

    def measure(g2, g3, full, progress, widths=None):
        return _LinearPoint(g2, g3)

    monkeypatch.setattr(seed_004, "_measure", measure)
    fig = new_figure(13.0, 5.0)
    getattr(seed_004, f"_draw_{which}")(fig, False, False)
    panels = [ax for ax in fig.axes if ax.get_xlabel() == r"$\gamma_2$"]
    assert len(panels) == 2
    assert panels[0].get_ylabel() == r"$\gamma_3$"
    for ax, layer in zip(panels, ("W1", "W2"), strict=True):
        want = _expected_stars(layer)
        got = _stars(ax)
        assert sorted(got) == sorted(k for k, v in want.items() if v), (layer, sorted(got))
        for colour, points in want.items():
            drawn = got.get(colour, [])
            # interpolating a linear S between grid values of one decimal: a few roundings
            # of numbers ~3, far below 1e-12
            xy = np.array([(x, y) for x, y, _ in drawn]).reshape(-1, 2)
            assert xy.shape == (len(points), 2), (layer, colour, xy, points)
            np.testing.assert_allclose(xy, np.array(points).reshape(-1, 2), rtol=0, atol=1e-12,
                                       err_msg=f"{layer} {colour} stars")  # fmt: skip
            for x, y, seg in drawn:
                (x0, y0), (x1, y1) = seg
                vertical = colour == "gold"  # along gamma_3: the error is in gamma_3
                fixed, spread = ((x0, x1), (y0, y1)) if vertical else ((y0, y1), (x0, x1))
                centre, other = (y, x) if vertical else (x, y)
                assert fixed == (other, other), (layer, colour, seg)
                assert spread[0] < centre < spread[1], (layer, colour, seg)
                # the bar is +- one s.e., symmetric about the star (rounding of ~3: 1e-12)
                assert centre - spread[0] == pytest.approx(spread[1] - centre, abs=1e-12)


# ---------------------------------------------------------------------------
# seed 004, Figure 1: one plane, each cell the measured regime pair, the critical lines
# ---------------------------------------------------------------------------
def test_seed_004_fig1_is_one_plane_of_measured_pairs_with_the_critical_lines(monkeypatch):
    """Figure 1 (caption: "One plane ... Each cell: the regime pair (W1, W2) measured at its
    grid point (dot) ... grey: a layer reads critical. Lines: the critical lines of the
    claim three_layer.figure_1_plane"): one panel over the claim's grid; every dot lies in
    its own cell, whose colour is its measured pair's (grey for a critical reading); the two
    lines are gamma_3 = c + k gamma_2 of ``CRITICAL_LINES``.  The measurement is the linear
    estimate (fake points, S_W1 = gamma_3 - 2 gamma_2 - 3/2, S_W2 = gamma_3 - 2, s.e. 0.05:
    every pair and a critical reading occur on the grid)."""

    def measure(g2, g3, full, progress, widths=None, **kw):
        return _LinearPoint(g2, g3)

    monkeypatch.setattr(seed_004, "_measure", measure)
    fig = new_figure(10.0, 6.0)
    seed_004._draw_fig1(fig, False, False)
    panels = [ax for ax in fig.axes if ax.get_xlabel() == r"$\gamma_2$"]
    assert len(panels) == 1
    (ax,) = panels
    assert ax.get_ylabel() == r"$\gamma_3$"
    (mesh,) = [c for c in ax.collections if type(c).__name__ == "QuadMesh"]
    coords = np.asarray(mesh.get_coordinates())
    x_edges, y_edges = coords[0, :, 0], coords[:, 0, 1]
    assert np.all(np.diff(x_edges) > 0) and np.all(np.diff(y_edges) > 0)
    values = np.asarray(mesh.get_array()).reshape(len(y_edges) - 1, len(x_edges) - 1)
    colours = {pair: c for pair, c in seed_004._PAIRS}
    seen = set()
    g2s, g3s = plane.GRID_FAST
    assert values.shape == (len(g3s), len(g2s))
    for i, a in enumerate(g2s):
        for j, b in enumerate(g3s):
            p = _LinearPoint(a, b)
            pair = (p.regime("W1"), p.regime("W2"))
            seen.add(pair)
            assert x_edges[i] < float(a) < x_edges[i + 1] and y_edges[j] < float(b) < y_edges[j + 1]
            drawn = mesh.cmap(mesh.norm(values[j, i]))
            want = colours.get(pair, seed_004._OTHER)
            assert mcolors.same_color(drawn, want), (a, b, pair, drawn, want)
    assert len(seen & set(colours)) >= 3 and any(p not in colours for p in seen), seen
    for layer, style in (("W1", "-"), ("W2", "--")):
        c, k = plane.CRITICAL_LINES[layer]
        (line,) = [ln for ln in ax.get_lines() if ln.get_label().startswith(f"{layer} critical")]
        assert line.get_linestyle() == style
        x, y = (np.asarray(v, dtype=float) for v in line.get_data())
        np.testing.assert_allclose(y, float(c) + float(k) * x, rtol=0, atol=1e-12)
        assert x.min() <= float(g2s[0]) and x.max() >= float(g2s[-1])


# ---------------------------------------------------------------------------
# seed 001, Figure 1(c), (d): solid before the first sign change, dashed from it on
# ---------------------------------------------------------------------------
T_C = 2.0  # the fake theory's t_c


def _fake_relu(monkeypatch, flip_at):
    """The ReLU theory replaced by one whose first sign change is at the sample
    ``flip_at[gamma]`` of the plotted grid (None: no sign change, t_flip = inf), and the
    simulation by zeros."""

    def theory(x, y, gamma, u0, w0, ts):
        zeta = np.linspace(0.2, 0.9, len(ts))
        k = flip_at[gamma] if len(ts) > 1 else None
        return zeta, (math.inf if k is None else float(ts[k])), 0 if k is None else 3, T_C

    monkeypatch.setattr(seed_001, "_relu_theory", theory)
    monkeypatch.setattr(seed_001, "_relu_simulation",
                        lambda x, y, gamma, u0, w0, ts, full: np.zeros(len(ts)))  # fmt: skip


@pytest.mark.parametrize("k", [1, 100, seed_001.GRID - 1])
def test_seed_001_relu_theory_is_solid_before_the_first_sign_change_and_dashed_after(
    monkeypatch, k
):
    """Figure 1(c)'s caption: the theory is "exact while no w_i changes sign (solid; dashed
    after)".  With the first sign change at the grid time t_k, the solid curve ("linear
    theory (exact)") holds exactly the samples t < t_k, the dashed one the samples t >= t_k,
    a dotted vertical line marks t_k; a curve without a sign change is solid throughout,
    with no dashed part.  Times are t / t_c.
    Mutant key:
    solvable/verification/figures/seed_001.py:178:core/ReplaceComparisonOperator_Lt_NotEq:0
    (solid everywhere but at t_k)."""
    d = seed_001.D_FAST
    flips = {seed_001._inv(d): k, seed_001._inv_sqrt(d): None}
    _fake_relu(monkeypatch, flips)
    fig = new_figure(7.5, 4.2)
    cases = {"γ = 1/d": ("iid", seed_001._inv), "γ = 1/sqrt(d)": ("iid", seed_001._inv_sqrt)}
    seed_001._draw_relu(fig, False, cases)
    (ax,) = fig.axes
    ts = np.linspace(0.0, seed_001.HORIZON * T_C, seed_001.GRID)
    xs = ts / T_C
    for j, (name, (_, gamma)) in enumerate(cases.items()):
        col = f"C{j}"
        mine = [ln for ln in ax.get_lines() if mcolors.same_color(ln.get_color(), col)]
        (solid,) = [ln for ln in mine if ln.get_label() == f"{name}: linear theory (exact)"]
        assert solid.get_linestyle() == "-"
        dashed = [ln for ln in mine if ln.get_linestyle() == "--"]
        vlines = [ln for ln in mine if ln.get_linestyle() == ":"]
        kf = flips[gamma(d)]
        if kf is None:
            np.testing.assert_array_equal(solid.get_xdata(), xs)
            assert dashed == [] and vlines == []
            continue
        # the same float operations on the same grid: exact equality
        np.testing.assert_array_equal(solid.get_xdata(), xs[:kf], err_msg="solid part")
        (dash,) = dashed
        assert dash.get_label().startswith("after the first w_i sign change")
        np.testing.assert_array_equal(dash.get_xdata(), xs[kf:], err_msg="dashed part")
        np.testing.assert_array_equal(
            np.concatenate([solid.get_ydata(), dash.get_ydata()]), np.linspace(0.2, 0.9, len(ts))
        )
        (vline,) = vlines
        assert list(vline.get_xdata()) == [ts[kf] / T_C] * 2
