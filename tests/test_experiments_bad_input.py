"""Edge inputs of the numerics experiment modules (found by a trial fuzz of their public
callables): a coarse record grid gives finite numbers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numerics import node_scaling_experiment as ex


def test_section_8_1_1_summary_late_rate_on_a_coarse_record_grid():
    # records at steps 0, 1, 2, 4: no record strictly inside the second half before the
    # last one; the late rate was 0/0 = nan, now the rate over the last two records
    res = ex.section_8_1_1(n=2, d=2, widths=(4,), steps=4, n_records=3, threads=1,
                           settings=((1.0, None), (0.5, 0.7)))  # fmt: skip
    steps = res["record_steps"]
    slopes = res["summary"]["risk_log_slope_second_half"]
    assert all(math.isfinite(s) for s in slopes), (steps, slopes)
    # a finer grid (a record between the middle and the end) keeps its rate from the middle
    fine = ex.section_8_1_1(n=2, d=2, widths=(4,), steps=40, n_records=8, threads=1,
                            settings=((1.0, None),))  # fmt: skip
    assert all(math.isfinite(s) for s in fine["summary"]["risk_log_slope_second_half"])


def test_section_8_1_1_summary_late_rate_is_over_the_second_half():
    """The late log-rate is (log R(S) - log R(s_h)) / (S - s_h) from the first record s_h at
    or after S/2 to the last, S: with log R(s) = -(s/10)^2 (a rate that grows, so every
    pair of records gives another slope) it is -(S + s_h)/100, not the rate of the last
    two records (a search for 2 S, past the end, clipped to them: a seed-21 survivor)."""
    res = ex.section_8_1_1(n=2, d=2, widths=(4,), steps=40, n_records=30, threads=1,
                           settings=((1.0, None),))  # fmt: skip
    steps = np.array(res["record_steps"], dtype=float)
    S = steps[-1]
    (h,) = np.flatnonzero(steps >= S / 2)[:1]
    assert 0 < h < len(steps) - 2  # records between the middle and the last one
    for run in res["runs"]:
        reps = np.shape(run["risk"])[1]
        run["risk"] = [[math.exp(-((s / 10) ** 2))] * reps for s in steps]
    (slope,) = ex.section_8_1_1_summary(res)["risk_log_slope_second_half"]
    assert slope == pytest.approx(-(S + steps[h]) / 100, rel=1e-12)
