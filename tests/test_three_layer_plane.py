"""Seed 004's plane claims (``_three_layer_plane``: Figure 1's four regions, Figure 5(b)'s
crossings along gamma_2, Figure 7's W1 condensation, Figure 8's zeta map): the critical
lines and regions, and each judge fed hand-made measurements from both sides (a passing
input, a failing one per condition, the boundary), the refusals, and the claims' wiring
(the caveats only at the default size, ``scale_out`` handed on)."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from numerics import phase_diagram as pdg
from numerics import scale_out as so
from solvable.models import three_layer as tl
from solvable.verification.confirmations import _three_layer_plane as plane
from solvable.verification.confirmations import claims_of

F = Fraction
WIDTHS = (32, 64, 128)
SEEDS = (0, 1, 2)
BAND = pdg.BAND


def _pt(g2, g3, s1, s2):
    """A noiseless point with slopes ``s1``, ``s2`` (RD = c m^S on every seed: err 0)."""
    m = np.array(WIDTHS, dtype=float)[:, None] * np.ones((1, len(SEEDS)))
    return pdg.point_from_rd(g2, g3, WIDTHS, SEEDS, 0.3 * m**s1, 0.2 * m**s2)


def _signed(layer, g2, g3):
    """gamma_3 minus the layer's line: > 0 above (condensed side)."""
    c, k = plane.CRITICAL_LINES[layer]
    return float(g3 - c - k * g2)


def _plane(grid, scale=1.0, shift=None):
    """Points whose S_W is ``scale`` times the signed distance to the line (plus ``shift``
    per (point, layer)): the measurement the lines describe."""
    shift = shift or {}
    return {(a, b): _pt(a, b, scale * _signed("W1", a, b) + shift.get(((a, b), "W1"), 0.0),
                        scale * _signed("W2", a, b) + shift.get(((a, b), "W2"), 0.0))
            for a, b in grid}  # fmt: skip


# ---------------------------------------------------------------------------
# lines and regions
# ---------------------------------------------------------------------------
def test_lines_pass_through_the_papers_stated_critical_points():
    """W1 through Xavier's (0, 3/2), W2 through Table 2 No. 2's (7/10, 5/2) (PAPER_POINTS)."""
    for layer, col in (("W1", 0), ("W2", 1)):
        crit = [k for k, v in tl.PAPER_POINTS.items() if v[col] == "critical"]
        assert len(crit) == 1
        assert plane.critical_gamma_3(layer, crit[0][0]) == crit[0][1]


def test_side_and_pair_at_the_margin():
    m = plane.MARGIN
    line = plane.critical_gamma_3("W1", F(1, 2))  # 5/2
    assert plane.side("W1", F(1, 2), line - m) == "linear"  # exactly the margin: judged
    assert plane.side("W1", F(1, 2), line + m) == "condensed"
    assert plane.side("W1", F(1, 2), line - m + F(1, 100)) is None
    assert plane.side("W1", F(1, 2), line + m - F(1, 100)) is None
    assert plane.side("W1", F(1, 2), line, margin=0) is None  # on the line: never a side
    assert plane.paper_pair(F(0), F(1)) == ("linear", "linear")
    assert plane.paper_pair(F(0), F(2)) == ("condensed", "linear")
    assert plane.paper_pair(F(1, 2), F(3)) == ("condensed", "condensed")
    assert plane.paper_pair(F(1), F(3)) == ("linear", "condensed")
    assert plane.paper_pair(F(0), F(5, 2)) is None


@given(st.fractions(-2, 3, max_denominator=20), st.fractions(0, 5, max_denominator=20),
       st.fractions(0, 1, max_denominator=10))  # fmt: skip
def test_side_is_the_sign_of_the_distance_beyond_the_margin(g2, g3, margin):
    for layer in ("W1", "W2"):
        d = g3 - plane.critical_gamma_3(layer, g2)
        got = plane.side(layer, g2, g3, margin)
        if d != 0 and abs(d) >= margin:
            assert got == ("condensed" if d > 0 else "linear")
        else:
            assert got is None


@pytest.mark.parametrize("full", [False, True])
def test_each_grid_has_a_judged_point_in_every_region(full):
    pairs = {plane.paper_pair(*k) for k in plane.grid(full)} - {None}
    assert len(pairs) == 4


def test_refusals():
    with pytest.raises(ValueError, match="layer must be 'W1' or 'W2'"):
        plane.critical_gamma_3("W3", 0)
    with pytest.raises(ValueError, match="margin must be >= 0"):
        plane.side("W1", 0, 1, F(-1, 10))
    with pytest.raises(TypeError, match="gamma_2 must be an int or a Fraction"):
        plane.critical_gamma_3("W1", 0.5)
    with pytest.raises(TypeError, match="gamma_3 must be an int or a Fraction"):
        plane.side("W1", 0, "1")
    with pytest.raises(ValueError, match="want must be"):
        plane.regime_units(_pt(0, 1, -1, -1), "W1", "lazy")


# ---------------------------------------------------------------------------
# judge_plane (Figure 1)
# ---------------------------------------------------------------------------
def test_judge_plane_confirms_the_regions_and_fails_a_wrong_reading():
    pts = _plane(plane.grid(False))
    v = plane.judge_plane(pts)
    assert v.status == "confirmed", v.detail
    # W2 at (1, 3) (the W1-linear / W2-condensed region) reading linear fails
    bad = _plane(plane.grid(False), shift={((F(1), F(3)), "W2"): -1.0})
    v = plane.judge_plane(bad)
    assert v.status == "failed" and "(1, 3) W2" in v.detail
    # a wrong reading at a point near a line is not judged
    near = dict(pts)
    near[F(1, 2), F(2)] = _pt(F(1, 2), F(2), 1.0, 1.0)  # 1/2 from both lines: judged
    assert plane.judge_plane(near).status == "failed"
    near = _plane(((F(0), F(1)), (F(0), F(2)), (F(1, 2), F(3)), (F(1), F(3)), (F(0), F(5, 2))))
    near[F(0), F(5, 2)] = _pt(F(0), F(5, 2), -1.0, 1.0)  # on the W2 line: not judged
    assert plane.judge_plane(near).status == "confirmed"


def test_judge_plane_at_the_band():
    """W1 at (1, 3) (linear) reads linear exactly at S = -B and critical just above it."""
    for s, status in ((-BAND - 1e-9, "confirmed"), (-BAND + 1e-3, "failed")):
        pts = _plane(plane.grid(False))
        pts[F(1), F(3)] = _pt(F(1), F(3), s, 1.0)
        assert plane.judge_plane(pts).status == status, s


def test_judge_plane_needs_every_region():
    pts = {k: p for k, p in _plane(plane.grid(False)).items() if k != (F(1), F(3))}
    v = plane.judge_plane(pts)
    assert v.status == "failed" and "1 of the four regions hold no judged point" in v.detail


def test_judge_plane_caveats_are_asserted_as_disagreements():
    key = ((F(0), F(3)), "W2")
    reads_critical = _plane(plane.grid(False), shift={key: -_signed("W2", F(0), F(3))})
    assert plane.judge_plane(reads_critical).status == "failed"  # no caveat: a failure
    v = plane.judge_plane(reads_critical, {key: "recorded"})
    assert v.status == "confirmed" and "[caveat" in v.detail
    # the disagreement gone (W2 reads condensed there): the caveat is stale, a failure
    assert plane.judge_plane(_plane(plane.grid(False)), {key: "recorded"}).status == "failed"
    # a caveat at a point that is not judged (or not measured) fails
    v = plane.judge_plane(reads_critical, {key: "x", ((F(0), F(5, 2)), "W2"): "y"})
    assert v.status == "failed" and "caveats at points not judged" in v.detail


def test_judge_plane_a_slope_that_is_not_finite_fails_even_as_a_caveat():
    pts = _plane(plane.grid(False))
    nan = np.full((len(WIDTHS), len(SEEDS)), np.nan)
    good = pts[F(0), F(3)]
    pts[F(0), F(3)] = pdg.point_from_rd(F(0), F(3), WIDTHS, SEEDS, good.rd["W1"], nan)
    assert plane.judge_plane(pts, {((F(0), F(3)), "W2"): "x"}).status == "failed"
    assert plane.judge_plane(pts).status == "failed"


# ---------------------------------------------------------------------------
# judge_crossings (Figure 5(b))
# ---------------------------------------------------------------------------
def test_judge_crossings_confirms_the_lines_crossings():
    v = plane.judge_crossings(_plane(plane.grid(False)))
    assert v.status == "confirmed", v.detail
    # W1 crosses at gamma_2 = (gamma_3 - 3/2)/2 in the rows 2 and 3; W2 nowhere
    assert "S_W1 at gamma_3 = 2: crosses at gamma_2 = 0.250" in v.detail
    assert "S_W1 at gamma_3 = 3: crosses at gamma_2 = 0.750" in v.detail
    assert "S_W2 at gamma_3 = 3: no crossing, as the line" in v.detail


@pytest.mark.parametrize(("shift", "status"), [(0.09, "confirmed"), (0.11, "failed")])
def test_judge_crossings_at_the_allowance(shift, status):
    """S_W1 = (gamma_3 - 3/2 - 2 gamma_2) + shift moves every crossing by shift/2 along
    gamma_2; the allowance is band/|dS/dgamma_2| = 0.1/2 = 0.05 (noiseless: err 0)."""
    sh = {(k, "W1"): shift for k in plane.grid(False)}
    v = plane.judge_crossings(_plane(plane.grid(False), shift=sh))
    assert v.status == status, v.detail


def test_judge_crossings_counts_crossings():
    # S_W2 below 0 at gamma_2 = 0 and above elsewhere in the row gamma_3 = 3: one crossing
    # where the flat line has none
    bad = _plane(plane.grid(False), shift={((F(0), F(3)), "W2"): -1.0})
    v = plane.judge_crossings(bad)
    assert v.status == "failed" and "S_W2 at gamma_3 = 3: 1 crossings, the line gives 0" in v.detail
    # S_W1 positive along the whole row gamma_3 = 2: the line's crossing is missing
    sh = {((a, F(2)), "W1"): 2.0 for a in plane.GRID_FAST[0]}
    v = plane.judge_crossings(_plane(plane.grid(False), shift=sh))
    assert v.status == "failed" and "S_W1 at gamma_3 = 2: 0 crossings, the line gives 1" in v.detail


def test_judge_crossings_where_the_line_meets_the_rows_end():
    """At gamma_3 = 3/2 the W1 line meets the row at gamma_2 = 0 (Xavier's point; the
    --full grid's row, measured at widths 100, 1000: a crossing at gamma_2 ~ 0.03).  A
    crossing just inside that end is judged by its distance; none is right too; one far
    from the end, or two, fail."""
    g = [(a, b) for a in (F(0), F(1, 4), F(1, 2)) for b in (F(1), F(3, 2), F(2))]
    exact = plane.judge_crossings(_plane(g))  # S_W1 = 0 at the end: the zero is there
    assert exact.status == "confirmed", exact.detail
    assert "S_W1 at gamma_3 = 1.5: crosses at gamma_2 = 0.000" in exact.detail
    for shift, status in ((0.04, "confirmed"), (0.12, "failed"), (-0.04, "confirmed")):
        # S_W1 + shift on the row: a crossing at shift/2 inside the end (allowed 0.05), or
        # (shift < 0) none inside; and S_W1 beyond the end by more than allowed fails
        sh = {((a, F(3, 2)), "W1"): shift for a in (F(0), F(1, 4), F(1, 2))}
        v = plane.judge_crossings(_plane(g, shift=sh))
        assert v.status == status, (shift, v.detail)
    sh = {((F(1, 4), F(3, 2)), "W1"): 1.0}  # up and down again: two crossings
    v = plane.judge_crossings(_plane(g, shift=sh))
    assert v.status == "failed" and "the line gives 0 or 1 (it meets the row's end)" in v.detail


def test_judge_crossings_skips_a_row_on_a_flat_line_and_refuses_a_ragged_grid():
    g = [(a, b) for a in (F(0), F(1)) for b in (F(1), F(5, 2))]
    pts = _plane(g)
    pts[F(0), F(5, 2)] = _pt(F(0), F(5, 2), 1.0, -0.5)  # the row on W2's line: any sign
    pts[F(1), F(5, 2)] = _pt(F(1), F(5, 2), -0.5, 0.5)
    v = plane.judge_crossings(pts)
    assert "S_W2 at gamma_3 = 2.5" not in v.detail
    del pts[F(1), F(1)]
    with pytest.raises(ValueError, match="points must form a full grid"):
        plane.judge_crossings(pts)


# ---------------------------------------------------------------------------
# judge_w1_condensation (Figure 7) and judge_zeta_map (Figure 8)
# ---------------------------------------------------------------------------
LEFT, RIGHT = (F(1), F(1)), (F(0), F(2))  # below / above W1's line by >= the margin


def test_judge_w1_condensation_from_both_sides():
    ok = {LEFT: ((0.65, 0.66),), RIGHT: ((0.65, 0.75),)}
    assert plane.judge_w1_condensation(ok).status == "confirmed"
    # left moves 6 %: fails; right grows 4 %: fails; right shrinks: fails
    assert plane.judge_w1_condensation({**ok, LEFT: ((0.6, 0.636),)}).status == "failed"
    assert plane.judge_w1_condensation({**ok, RIGHT: ((0.6, 0.624),)}).status == "failed"
    assert plane.judge_w1_condensation({**ok, RIGHT: ((0.6, 0.5),)}).status == "failed"
    # the boundary: exactly 5 % on both sides (binary fractions: exact)
    edge = {LEFT: ((0.5, 0.5 * 1.05),), RIGHT: ((0.5, 0.5 * 1.05),)}
    v = plane.judge_w1_condensation(edge, still=0.05 + 1e-12)
    assert v.status == "failed"  # right must grow by MORE than still
    assert plane.judge_w1_condensation(edge, still=0.05 - 1e-12).status == "failed"
    # a point near the line is not judged; one side only fails
    near = {**ok, (F(0), F(3, 2)): ((0.6, 0.9),)}
    assert plane.judge_w1_condensation(near).status == "confirmed"
    v = plane.judge_w1_condensation({LEFT: ok[LEFT]})
    assert v.status == "failed" and "sides only" in v.detail


def _regime_points(pairs):
    s = {"linear": -1.0, "condensed": 1.0, "critical": 0.0}
    return {k: _pt(k[0], k[1], s[a], s[b]) for k, (a, b) in pairs.items()}


def test_judge_zeta_map_from_both_sides():
    pts = _regime_points({(F(0), F(1)): ("linear", "linear"),
                          (F(1), F(3)): ("linear", "condensed"),
                          (F(0), F(5, 2)): ("condensed", "critical")})  # fmt: skip
    ok = {(F(0), F(1)): ((0.13, 0.131),), (F(1), F(3)): ((0.13, 0.4),),
          (F(0), F(5, 2)): ((0.13, 0.9),)}  # fmt: skip
    assert plane.judge_zeta_map(pts, ok).status == "confirmed"
    # condensed grows 1.9x: fails (2x at the boundary passes)
    assert plane.judge_zeta_map(pts, {**ok, (F(1), F(3)): ((0.125, 0.2375),)}).status == "failed"
    assert plane.judge_zeta_map(pts, {**ok, (F(1), F(3)): ((0.125, 0.25),)}).status == "confirmed"
    # linear moves 10 %: fails with still, passes the ordering (10 % < 2x) without it
    moved = {**ok, (F(0), F(1)): ((0.125, 0.1375),)}
    assert plane.judge_zeta_map(pts, moved).status == "failed"
    assert plane.judge_zeta_map(pts, moved, still=False).status == "confirmed"
    # without still: a linear point growing as much as (or more than) a condensed one fails
    for z in (0.4, 0.45):
        grown = {**ok, (F(0), F(1)): ((0.13, z),)}
        assert plane.judge_zeta_map(pts, grown, still=False).status == "failed"
    assert plane.judge_zeta_map(pts, {**ok, (F(0), F(1)): ((0.13, 0.39),)},
                                still=False).status == "confirmed"  # fmt: skip
    # a critical W2 reading is in neither set; both sets are needed
    v = plane.judge_zeta_map(pts, {(F(0), F(1)): ok[F(0), F(1)]})
    assert v.status == "failed" and "needs W2-condensed and both-linear points" in v.detail


# ---------------------------------------------------------------------------
# the claims: registered, the caveats at the default size only, scale_out handed on
# ---------------------------------------------------------------------------
IDS = ("three_layer.figure_1_plane", "three_layer.figure_5b_crossings",
       "three_layer.figure_7_w1_condensation", "three_layer.figure_8_zeta_map")  # fmt: skip


def test_the_plane_claims_are_registered():
    ids = {c.id for c in claims_of("three_layer")}
    assert set(IDS) <= ids


def test_the_claims_read_the_grid_and_caveats_only_at_the_default_size():
    asked = []

    def point(g2, g3, full=False, scale_out=None):
        asked.append(("point", full, scale_out))
        p = _plane([(g2, g3)])[g2, g3]
        if (g2, g3) == (F(0), F(3)) and not full:  # the recorded caveat reads critical
            p = _pt(g2, g3, 1.0, 0.05)
        return p

    def zetas(key_point, key, full, scale_out=None):
        asked.append((key, full, scale_out))
        s = plane.side("W1" if key == "zeta_w1" else "W2", *key_point, margin=0)
        return ((0.5, 0.5),) if s != "condensed" else ((0.2, 0.9),)

    claims = {c.id: c for c in plane.plane_claims(point, zetas, lambda full: 64)}
    assert tuple(claims) == IDS
    caveats = dict(plane.CAVEATS)
    plane.CAVEATS.clear()
    plane.CAVEATS[(F(0), F(3)), "W2"] = "test"
    try:
        v = claims[IDS[0]].verify()
        assert v.status == "confirmed", v.detail
        s = so.ScaleOut(device="cpu")
        assert claims[IDS[0]].verify(full=False, scale_out=s).status == "confirmed"
        assert ("point", False, s) in asked
        # full: (0, 3) reads the line's condensed W2; a caveat applied there would be stale
        assert claims[IDS[0]].verify(full=True).status == "confirmed"
        # full: no caveat; the same grid reading as the lines there passes
        assert claims[IDS[1]].verify().status == "confirmed"
        v = claims[IDS[2]].verify(full=True, scale_out=s)
        assert v.status == "confirmed" and v.detail.startswith("m = 64:"), v.detail
        assert ("zeta_w1", True, s) in asked
        v = claims[IDS[3]].verify()
        assert "5 % stillness is asserted under --full only" in v.detail
    finally:
        plane.CAVEATS.clear()
        plane.CAVEATS.update(caveats)
    assert not math.isnan(v.max_error)


def _with_fit(slope, err):
    """A point whose W1 fit is set to ``slope`` +- ``err`` (W2 as :func:`_pt` makes it)."""
    p = _pt(0, 1, -0.5, -0.5)
    fit = dataclasses.replace(p.fits["W1"], slope=slope, err=err)
    return dataclasses.replace(p, fits={**p.fits, "W1": fit})


def test_regime_units_widen_the_band_to_two_standard_errors():
    """B = max(band, 2 err): with err = 0.1 a slope of 0.15 is critical (0.75 units), with
    err = 0.05 (B = band = 0.1) it is not (1.5 units); a slope of -0.3 with err = 0.2 (B =
    0.4) is critical, not linear (outside mutant stop56.band_one_err: B = max(band, err))."""
    assert plane.regime_units(_with_fit(0.15, 0.1), "W1", "critical") == pytest.approx(0.75)
    assert plane.regime_units(_with_fit(0.15, 0.05), "W1", "critical") == pytest.approx(1.5)
    assert plane.regime_units(_with_fit(-0.3, 0.2), "W1", "linear") == pytest.approx(1.25)
    assert plane.regime_units(_with_fit(-0.3, 0.2), "W1", "critical") == pytest.approx(0.75)
    assert plane.regime_units(_with_fit(-0.3, 0.1), "W1", "linear") == pytest.approx(0.5)


@given(st.floats(-1, 1), st.floats(0, 0.5), st.sampled_from(["linear", "critical", "condensed"]))
def test_regime_units_at_most_one_exactly_when_the_fit_reads_that_regime(slope, err, want):
    """The docstring's promise: units <= 1 iff the fit's own regime (SlopeFit.regime, the
    same band max(BAND, 2 err)) is ``want``; the boundary |S| = B itself is left out (the
    units there are exactly 1 for both neighbours)."""
    assume(abs(abs(slope) - max(BAND, 2 * err)) > 1e-9)
    p = _with_fit(slope, err)
    assert (plane.regime_units(p, "W1", want) <= 1) == (p.regime("W1") == want)
