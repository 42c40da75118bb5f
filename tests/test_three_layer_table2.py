"""Seed 004, Table 2's printed slopes against the measured ones: the judge of the claim
``three_layer.table_2_slopes`` (solvable/verification/confirmations/_three_layer_table2.py)
on measurements built with :func:`numerics.phase_diagram.point_from_rd` (RD = c m^S with
seed noise), and the registration of the claim."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

from numerics import phase_diagram as pdg
from solvable.verification.confirmations import _three_layer_table2 as t2
from solvable.verification.confirmations import claims_of

WIDTHS = (32, 64, 128)
SEEDS = (0, 1, 2)


def _point(s1: float, s2: float, noise: float, seed: int) -> pdg.PhasePoint:
    """RD(W) = m^S times a per-seed factor exp(noise * z m-slope): the per-seed slopes are
    S + noise * z_seed (z_seed fixed, mean 0)."""
    rng = np.random.default_rng(seed)
    z = rng.standard_normal(len(SEEDS))
    z -= z.mean()
    logm = np.log(np.array(WIDTHS, dtype=float))[:, None]
    rd1 = np.exp((s1 + noise * z[None, :]) * logm)
    rd2 = np.exp((s2 + noise * z[None, :]) * logm) * 0.5
    return pdg.point_from_rd(0, 1, WIDTHS, SEEDS, rd1, rd2)


def _groups(no2: tuple[float, float], noise: float = 0.01) -> list[pdg.Table2Group]:
    """Both groups, rows at the printed means (No. 1) and at ``no2`` (No. 2)."""
    out = []
    for k, (group, rows) in enumerate(pdg.table_2_groups()):
        names = tuple(r[0] for r in rows)
        if group == "No. 1":
            s = tuple(float(np.mean([t2.PRINTED_SLOPES[n][i] for n in names])) for i in (0, 1))
        else:
            s = no2
        pts = tuple(_point(*s, noise, 10 * k + j) for j in range(len(rows)))
        out.append(pdg.Table2Group(group, names, tuple(r[1] for r in rows), rows[0][2],
                                   rows[0][3], pts))  # fmt: skip
    return out


def test_printed_std_is_the_spread_of_the_printed_rows():
    # Table 2's Std columns are the ddof = 0 deviations of the three printed rows, to the
    # printed digits (three significant figures)
    for group, stds in t2.PRINTED_STD.items():
        for layer, printed in zip(("W1", "W2"), stds, strict=True):
            assert t2.printed_std(group, layer) == pytest.approx(printed, rel=6e-3)


def test_printed_std_refuses_a_bad_group_or_layer():
    with pytest.raises(ValueError, match="layer must be"):
        t2.printed_std("No. 1", "W3")
    with pytest.raises(ValueError, match="group must be one of"):
        t2.printed_std("No. 3", "W1")


def test_group_slope_is_the_mean_and_its_paired_standard_error():
    g = _groups((-0.14, 0.064), noise=0.02)[1]
    value, se, seeds = t2.group_slope(g, "W1")
    per_seed = np.array([p.fits["W1"].seed_slopes for p in g.points]).mean(0)
    assert seeds == 3
    assert value == pytest.approx(np.mean([p.slope("W1") for p in g.points]), abs=1e-12)
    assert value == pytest.approx(-0.14, abs=1e-9)  # the noise has mean 0 over the seeds
    assert se == pytest.approx(np.std(per_seed, ddof=1) / math.sqrt(3), rel=1e-12)
    assert se > 0


@pytest.mark.parametrize("seeds", [(0,), (0, 1)])
def test_group_slope_needs_three_seeds(seeds):
    rd1 = [[1.0 + j for j in seeds], [2.0, 2.5][: len(seeds)], [3.0, 4.5][: len(seeds)]]
    rd2 = [[1.0] * len(seeds), [0.5, 0.4][: len(seeds)], [0.2, 0.1][: len(seeds)]]
    pt = pdg.point_from_rd(0, 1, WIDTHS, seeds, rd1, rd2)
    g = pdg.Table2Group("No. 1", ("No. 1b",), (0,), 0, 1, (pt,))
    with pytest.raises(ValueError, match=r">= 3 seeds for W1 \(with 2 the 95% interval"):
        t2.group_slope(g, "W1")


def test_judge_confirms_the_recorded_caveats_and_agreement():
    v = t2.judge_table_2_slopes(_groups((-0.14, 0.064)), t2.CAVEATS)
    assert v.status == "confirmed", v.detail
    assert "No. 2 S_W1" in v.detail and "recorded caveat" in v.detail


def test_judge_fails_a_stale_caveat():
    # No. 2 measured at the printed values: the caveats no longer hold
    printed = tuple(float(np.mean([t2.PRINTED_SLOPES[f"No. 2{c}"][i] for c in "abc"]))
                    for i in (0, 1))  # fmt: skip
    g = _groups(printed)
    assert t2.judge_table_2_slopes(g, t2.CAVEATS).status == "failed"
    assert t2.judge_table_2_slopes(g, {}).status == "confirmed"  # with no caveat recorded


def test_judge_fails_an_unrecorded_disagreement_from_both_sides():
    for no2 in ((-0.14, 0.024), (-0.50, 0.024), (-0.318, 0.10), (-0.318, -0.05)):
        assert t2.judge_table_2_slopes(_groups(no2), {}).status == "failed", no2


def test_judge_tolerance_boundary():
    # one cell moved to just inside and just outside t * se_combined
    base = _groups((-0.318, 0.024), noise=0.01)
    value, se, n = t2.group_slope(base[1], "W1")
    se_paper = t2.PRINTED_STD["No. 2"][0] / math.sqrt(3)
    tol = float(stats.t.ppf(0.975, n - 1)) * math.hypot(se, se_paper)
    printed = float(np.mean([t2.PRINTED_SLOPES[f"No. 2{c}"][0] for c in "abc"]))
    shift = printed - value
    inside = _groups((-0.318 + shift + 0.95 * tol, 0.024), noise=0.01)
    outside = _groups((-0.318 + shift + 1.05 * tol, 0.024), noise=0.01)
    assert t2.judge_table_2_slopes(inside, {}).status == "confirmed"
    assert t2.judge_table_2_slopes(outside, {}).status == "failed"


def test_judge_fails_a_caveat_for_an_unmeasured_cell():
    v = t2.judge_table_2_slopes(_groups((-0.14, 0.064)), {**t2.CAVEATS, ("No. 3", "W1"): "x"})
    assert v.status == "failed" and "names no measured cell" in v.detail


def test_claim_registered_with_the_three_layer_claims():
    (c,) = [c for c in claims_of("three_layer") if c.id == "three_layer.table_2_slopes"]
    assert c.kind == "numeric" and "Table 2" in c.source


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scale=st.floats(1e-3, 1e3), shift=st.floats(-0.3, 0.3), noise=st.floats(1e-3, 0.05))
def test_judge_ignores_the_scale_of_rd(scale, shift, noise):
    # eq. (11) is a slope of log RD: a constant factor on RD (every width, seed and row)
    # changes no slope, so neither the verdict nor its error
    groups = _groups((-0.318 + shift, 0.024), noise=noise)
    scaled = [
        dataclasses.replace(
            g,
            points=tuple(
                pdg.point_from_rd(0, 1, WIDTHS, SEEDS, p.rd["W1"] * scale, p.rd["W2"] * scale)
                for p in g.points
            ),
        )
        for g in groups
    ]
    a, b = t2.judge_table_2_slopes(groups, {}), t2.judge_table_2_slopes(scaled, {})
    assert a.status == b.status
    assert b.max_error == pytest.approx(a.max_error, rel=1e-9, abs=1e-12)
