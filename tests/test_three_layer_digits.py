"""Seed 004 Figure 6 on the digits: the judge of the claim ``three_layer.figure_6_digits``
(solvable/verification/confirmations/_three_layer_digits.py) on given RD measurements (both
sides: the measured-like slopes pass; a wrong regime, a stale caveat, a slope that does not
grow, a NaN, an excluded run or nothing measured fail), its regime units against the model's
reading, the data and the registration.  The measured verdict runs in
``tests/test_registry.py::test_numeric_claim_is_confirmed``."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import phase_diagram as pdg
from solvable.models import three_layer as tl
from solvable.verification.confirmations import _three_layer_digits as dg
from solvable.verification.confirmations import claims_of

F = Fraction
WIDTHS, SEEDS = (32, 64, 128), (0, 1)
# slopes (S_W1, S_W2) of the shape the digits give at the default size (docs/real_data.md)
GOOD = {
    (F(0), F(11, 10)): (-0.44, -0.87),
    (F(0), F(3, 2)): (-0.13, -0.58),
    (F(0), F(21, 10)): (0.18, -0.28),
    (F(1, 2), F(14, 5)): (0.03, 0.12),
}


def _point(key, s1, s2, spread=0.02, hole=False):
    """A PhasePoint whose RDs follow m^S with the two seeds' slopes S -+ spread/2."""
    m = np.array(WIDTHS, dtype=float)[:, None]
    dev = spread * (np.array(SEEDS) - 0.5)[None, :]
    rd1, rd2 = 0.3 * m ** (s1 + dev), 0.2 * m ** (s2 + dev)
    if hole:
        rd1[1, 0] = math.nan  # one run excluded (not converged)
    return pdg.point_from_rd(key[0], key[1], WIDTHS, SEEDS, rd1, rd2)


def _points(**changes):
    out = {k: _point(k, *v) for k, v in GOOD.items()}
    for k, v in changes.items():
        out[k] = v
    return out


def test_judge_confirms_the_measured_shape():
    v = dg.judge_figure_6(_points())
    assert v.status == "confirmed", v.detail
    assert 0 <= v.max_error <= 1
    assert "(0, 1.5) S_W1 = -0.130" in v.detail and "caveat" in v.detail


@pytest.mark.parametrize(("key", "slopes", "where"), [
    ((F(0), F(21, 10)), (-0.18, -0.28), "(0, 2.1) W1 condensed"),  # W1 sign reversed
    ((F(0), F(21, 10)), (0.18, 0.28), "(0, 2.1) W2 linear"),  # W2 sign reversed
    ((F(1, 2), F(14, 5)), (0.03, 0.05), "(0.5, 2.8) W2 condensed"),  # inside the band
    ((F(0), F(11, 10)), (-0.44, -0.05), "(0, 1.1) W2 linear"),
    # the caveat stops holding: Xavier's point reads critical on the digits too
    ((F(0), F(3, 2)), (-0.02, -0.58), "(0, 1.5) W1 linear"),
])  # fmt: skip
def test_judge_fails_on_a_wrong_regime(key, slopes, where):
    v = dg.judge_figure_6(_points(**{}) | {key: _point(key, *slopes)})
    assert v.status == "failed" and where in v.detail.split("; worst")[-1], v.detail


def test_judge_fails_when_s_w1_does_not_grow():
    # (0, 1.1) and (0, 1.5) both linear, but S_W1 falls between them
    key = (F(0), F(11, 10))
    v = dg.judge_figure_6(_points() | {key: _point(key, -0.12, -0.87)})
    assert v.status == "failed" and "(0, 1.1)->(0, 1.5)" in v.detail.split("; worst")[-1]


def test_judge_fails_on_a_tie_in_the_growth():
    key = (F(0), F(11, 10))
    pts = _points() | {key: _point(key, -0.13, -0.87, spread=0.0)}
    pts[(F(0), F(3, 2))] = _point((F(0), F(3, 2)), -0.13, -0.58, spread=0.0)
    v = dg.judge_figure_6(pts)
    assert v.status == "failed" and v.max_error == math.inf


def test_judge_fails_on_a_nan_slope():
    key = (F(0), F(21, 10))
    nan = np.full((len(WIDTHS), len(SEEDS)), math.nan)
    p = pdg.point_from_rd(key[0], key[1], WIDTHS, SEEDS, nan, nan)
    assert dg.judge_figure_6(_points() | {key: p}).status == "failed"


def test_judge_fails_on_an_excluded_run():
    key = (F(1, 2), F(14, 5))
    p = _point(key, *GOOD[key], hole=True)
    assert math.isfinite(p.slope("W2")) and p.excluded == 1
    v = dg.judge_figure_6(_points() | {key: p})
    assert v.status == "failed" and "(0.5, 2.8) runs" in v.detail


@pytest.mark.parametrize("drop", [None, *GOOD])
def test_judge_fails_on_missing_points(drop):
    pts = {} if drop is None else {k: v for k, v in _points().items() if k != drop}
    assert dg.judge_figure_6(pts).status == "failed"


def test_judge_without_caveats_fails_at_xavier():
    """The caveat is what lets (0, 1.5) read linear: with none it is a failure (W1 is
    stated critical there)."""
    assert dg.judge_figure_6(_points(), caveats={}).status == "failed"


@pytest.mark.parametrize("full", [False, True])
def test_the_caveat_holds_at_the_default_size_only(monkeypatch, full):
    """At the default size the claim asserts the caveat (W1 linear at (0, 1.5)); under
    ``full`` the stated regime (critical), which the digits already read at n = 64 and
    widths up to 256: each measured shape passes at its size and fails at the other."""
    key = (F(0), F(3, 2))
    default = _points()
    larger = _points() | {key: _point(key, -0.02, -0.55)}
    for pts, at in ((default, False), (larger, True)):
        monkeypatch.setattr(dg, "_measure", lambda full, pts=pts: pts)
        want = "confirmed" if at == full else "failed"
        assert dg._check(full=full).status == want


@settings(max_examples=25, deadline=None)  # the model reads through sympy: ~0.1 s each
@given(slope=st.floats(-2, 2), err=st.floats(0, 0.3),
       want=st.sampled_from(["linear", "critical", "condensed"]))  # fmt: skip
def test_regime_units_agree_with_the_models_reading(slope, err, want):
    """Units <= 1 exactly when the model reads ``want`` with the band max(0.1, 2 err)."""
    u = dg.regime_units(slope, err, want)
    reads = tl.regime_from_slope(slope, max(pdg.BAND, 2 * err)) == want
    assert (u <= 1) == reads


@pytest.mark.parametrize(("slope", "err", "want", "ok"), [
    (-0.3, 0.01, "linear", True), (0.3, 0.01, "linear", False),
    (0.3, 0.01, "condensed", True), (-0.3, 0.01, "condensed", False),
    (0.05, 0.01, "critical", True), (0.3, 0.01, "critical", False),
    (-0.1, 0.01, "linear", False),  # a tie on the band's edge reads critical
    (-0.15, 0.1, "linear", False),  # 2 err = 0.2 widens the band
    (math.nan, 0.01, "linear", False), (math.nan, 0.01, "condensed", False),
    (-0.3, math.nan, "linear", True),  # no error: the band 0.1 alone
])  # fmt: skip
def test_regime_units_cases(slope, err, want, ok):
    assert (dg.regime_units(slope, err, want) <= 1) == ok


def test_regime_units_rejects_an_unknown_regime():
    with pytest.raises(ValueError, match="want must be 'linear', 'critical' or 'condensed'"):
        dg.regime_units(0.0, 0.0, "n/s")


def test_expected_regimes_are_the_synthetic_claims():
    for key in dg.POINTS:
        for mine, paper in zip(dg.EXPECTED[key], tl.PAPER_POINTS[key][:2], strict=True):
            assert paper == "n/s" or mine == paper
    # W2 at (0, 2.1): the synthetic claim three_layer.layers_differ's "linear"
    assert dg.EXPECTED[(F(0), F(21, 10))] == ("condensed", "linear")
    for (key, layer), (read, evidence) in dg.CAVEATS.items():
        want = dg.EXPECTED[key][pdg.LAYERS.index(layer)]
        assert want != "n/s" and read != want and evidence


def test_digits_data_is_the_loaders_split():
    X, y = dg.digits_data(12)
    assert X.shape == (12, 64) and set(np.unique(y)) <= {-1.0, 1.0}
    np.testing.assert_allclose(np.linalg.norm(X, axis=1), 1.0, rtol=1e-12)


def test_claim_registered_with_the_three_layer_claims():
    (c,) = [c for c in claims_of("three_layer") if c.id == "three_layer.figure_6_digits"]
    assert c.kind == "numeric" and "Figure 6" in c.source
