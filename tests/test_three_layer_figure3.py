"""Seed 004 Figure 3: the judge of the claim ``three_layer.figure_3_contrast``
(solvable/verification/confirmations/_three_layer_figure3.py) on given zetas, and its
registration.  The measured verdict is run by ``solvable verify`` (and the slow test of
every three_layer claim in tests/test_phase_diagram.py)."""

from __future__ import annotations

import pytest

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
