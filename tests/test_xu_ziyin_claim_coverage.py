"""What two of seed 001's claims cover, read off their verdicts (survivors of the seed-27
mutation sample, ``docs/mutation_testing.md``): a claim that checks fewer rows, or names
precisions it did not use, still passes its own test, so the coverage is asserted here."""

from __future__ import annotations

from solvable.models.xu_ziyin import numeric_claims, symbolic_claims


def test_orthogonal_directions_claim_checks_every_row_of_W():
    """Section 2.1's ``d/dt (W m) = -2 eta_w gamma (f - y) (x.m) u`` on the claim's flow of
    d = 2 hidden units: one residual per row of W, each exactly 0 (``range(1)`` for
    ``range(2)`` proved the first row only and still passed)."""
    v = symbolic_claims._orthogonal()
    assert v.status == "proved"
    assert v.residuals == (0, 0) and v.detail.startswith("2 residuals")


def test_reported_constants_claim_names_the_precisions_it_checked():
    """The verdict names the two mpmath precisions it compared at, dps and 2 dps (a
    message with ``2 % dps`` for ``2 * dps`` named 2 instead of 60)."""
    for dps in (30, 34):
        v = numeric_claims._reported_constants(dps)
        assert v.status == "confirmed"
        assert f"dps={dps}, {2 * dps})" in v.detail, v.detail
