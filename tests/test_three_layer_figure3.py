"""Seed 004 Figure 3: the judge of the claim ``three_layer.figure_3_contrast``
(solvable/verification/confirmations/_three_layer_figure3.py) on given zetas, and its
registration.  The measured verdict is run by ``solvable verify`` (and the slow test of
every three_layer claim in tests/test_phase_diagram.py)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from solvable.verification.confirmations import _three_layer_figure3 as f3
from solvable.verification.confirmations import claims_of

GOOD = {(64, 0): ((0.13, 0.22), (0.13, 0.38)), (128, 1): ((0.08, 0.24), (0.08, 0.49))}


def test_judge_confirms_more_condensation_at_2_8():
    v = f3.judge_contrast(GOOD)
    assert v.status == "confirmed", v.detail
    assert v.max_error == pytest.approx(max(0.22 / 0.38, 0.24 / 0.49))


@pytest.mark.parametrize("high", [0.24, 0.20, 0.0])
def test_judge_fails_when_2_8_is_not_more_condensed(high):
    bad = {**GOOD, (128, 1): ((0.08, 0.24), (0.08, high))}
    assert f3.judge_contrast(bad).status == "failed"


def test_judge_fails_on_nothing_compared():
    assert f3.judge_contrast({}).status == "failed"


def test_points_are_figure_3s_columns():
    assert [(float(a), float(b)) for a, b in f3.POINTS] == [(0.5, 2.2), (0.5, 2.8)]


def test_claim_registered_with_the_three_layer_claims():
    (c,) = [c for c in claims_of("three_layer") if c.id == "three_layer.figure_3_contrast"]
    assert c.kind == "numeric" and "Figure 3" in c.source


# ---------------------------------------------------------------------------
# three_layer.figure_3_widths: zeta against the width at both points
# ---------------------------------------------------------------------------
WIDTHS = (128, 256, 512, 1000)


def _zetas(low: dict[int, list[float]], high: dict[int, list[float]]) -> dict:
    """``{(m, seed): ((z0, z at 2.2), (z0, z at 2.8))}`` from per-seed zeta lists over
    WIDTHS (the start zeta is not judged: 0.1 throughout)."""
    return {(m, s): ((0.1, low[s][i]), (0.1, high[s][i]))
            for s in low for i, m in enumerate(WIDTHS)}  # fmt: skip


def _power(c: float, slope: float) -> list[float]:
    return [c * m**slope for m in WIDTHS]


# the measured shape: 2.2 falls (slopes -0.108, -0.148, -0.205), 2.8 flat to rising
MEASURED = _zetas(
    {0: [0.221, 0.221, 0.207, 0.176], 1: [0.244, 0.240, 0.206, 0.183],
     2: [0.253, 0.229, 0.191, 0.168]},
    {0: [0.400, 0.499, 0.485, 0.535], 1: [0.489, 0.536, 0.477, 0.505],
     2: [0.436, 0.443, 0.477, 0.488]},
)  # fmt: skip


def test_widths_judge_confirms_the_measured_shape():
    v = f3.judge_widths(MEASURED)
    assert v.status == "confirmed", v.detail
    assert "2.2 falls: slope -0.154" in v.detail and "2.8 does not fall: slope +0.060" in v.detail
    assert "at 2.2: 0.239 0.230 0.201 0.176, at 2.8: 0.442 0.493 0.480 0.509" in v.detail


def test_widths_units_are_two_standard_errors_over_the_slope():
    # exact power laws: slopes -0.1, -0.2, -0.3 at 2.2 (mean -0.2, se 0.1/sqrt 3)
    low = {s: _power(1.0, -0.1 * (s + 1)) for s in range(3)}
    high = {s: _power(0.5, 0.0) for s in range(3)}
    v = f3.judge_widths(_zetas(low, high))
    se = 0.1 / 3**0.5
    assert v.status == "confirmed" and v.max_error == pytest.approx(2 * se / 0.2)
    # 2.8 falling just inside 2 se passes, just outside fails (both sides of the rule)
    for slope, ok in ((-2 * se * 0.9, True), (-2 * se * 1.1, False)):
        spread = {s: _power(0.5, slope + 0.1 * (s - 1)) for s in range(3)}  # se 0.1/sqrt 3
        assert (f3.judge_widths(_zetas(low, spread)).status == "confirmed") is ok, slope


@pytest.mark.parametrize(
    "low",
    [
        {s: _power(0.2, 0.0) for s in range(3)},  # flat at 2.2: related at every width
        {s: _power(0.2, 0.05) for s in range(3)},  # rising at 2.2
        {0: _power(0.2, -0.3), 1: _power(0.2, 0.2), 2: _power(0.2, -0.05)},  # within 2 se
    ],
)
def test_widths_judge_fails_unless_2_2_falls_beyond_two_se(low):
    high = {s: _power(0.5, 0.0) for s in range(3)}
    assert f3.judge_widths(_zetas(low, high)).status == "failed"


def test_widths_judge_fails_when_2_8_falls_too():
    low = {s: _power(1.0, -0.2 - 0.01 * s) for s in range(3)}
    high = {s: _power(1.0, -0.2 - 0.01 * s) for s in range(3)}  # the same fall at 2.8
    v = f3.judge_widths(_zetas(low, high))
    assert v.status == "failed" and "2.8 does not fall" in v.detail


@pytest.mark.parametrize("bad", [0.0, -0.1, float("nan")])
def test_widths_judge_fails_on_a_zeta_without_a_log(bad):
    low = {s: _power(1.0, -0.2 - 0.01 * s) for s in range(3)}
    high = {s: _power(0.5, 0.0) for s in range(3)}
    z = _zetas(low, high)
    z[(512, 1)] = (z[(512, 1)][0], (0.1, bad))
    assert f3.judge_widths(z).status == "failed"


def test_widths_judge_needs_two_seeds_and_two_widths():
    low = {0: _power(1.0, -0.5)}
    high = {0: _power(0.5, 0.0)}
    assert f3.judge_widths(_zetas(low, high)).status == "failed"  # one seed: no se
    one_width = {k: v for k, v in MEASURED.items() if k[0] == 128}
    assert f3.judge_widths(one_width).status == "failed"  # no slope
    assert f3.judge_widths({}).status == "failed"


def test_widths_claim_registered_with_its_sizes():
    (c,) = [c for c in claims_of("three_layer") if c.id == "three_layer.figure_3_widths"]
    assert c.kind == "numeric" and "Figure 3" in c.source
    assert f3.TREND_WIDTHS == (128, 256, 512, 1000) and f3.TREND_SEEDS == (0, 1, 2)
    assert "128, 256, 512, 1000" in c.statement


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-1.0, 1.0), min_size=2, max_size=5),
       st.lists(st.floats(-1.0, 1.0), min_size=2, max_size=5))  # fmt: skip
def test_widths_verdict_is_the_two_se_rule_on_the_seeds_slopes(low_slopes, high_slopes):
    """Exact power laws per seed: the verdict is the rule on the slopes, read back."""
    seeds = range(min(len(low_slopes), len(high_slopes)))
    low = {s: _power(0.3, low_slopes[s]) for s in seeds}
    high = {s: _power(0.3, high_slopes[s]) for s in seeds}

    def mean_se(v):
        v = [v[s] for s in seeds]
        mu = sum(v) / len(v)
        return mu, (sum((x - mu) ** 2 for x in v) / (len(v) - 1) / len(v)) ** 0.5

    (ml, sl), (mh, sh) = mean_se(low_slopes), mean_se(high_slopes)
    # margins of 1e-9 keep the float rounding of the fit off the rule's edge
    assume(abs(ml + 2 * sl) > 1e-9 and abs(mh + 2 * sh) > 1e-9)
    want = ml + 2 * sl < 0 and mh + 2 * sh >= 0
    assert (f3.judge_widths(_zetas(low, high)).status == "confirmed") is want


@pytest.mark.parametrize("flags", [(True, False), (False, True)])
def test_zeta_of_a_run_that_never_fitted_is_not_measured(flags):
    # a diverged or a stalled run (a dead second layer: its weights a fixed point, no fit)
    # gives no trained zeta, so neither claim reads one (the measurement refuses it)
    diverged, stalled = flags
    assert f3._zeta_w2({"diverged": diverged, "stalled": stalled}) is None
