"""Details of the simulation-backed confirmations that the registry runs only pass or fail:
the interval a Monte Carlo claim prints for each case, and which phase point a claim
measures as the one its statement names.

Mutation-testing triage (batch D): each test pins a behaviour stated by a claim's statement,
its tolerance text or the paper's table, derived independently of the code under test.
"""

from __future__ import annotations

import re
from fractions import Fraction

from scipy import optimize, stats

from solvable.models import three_layer
from solvable.verification.confirmations import linear_node_scaling as conf_lns
from solvable.verification.confirmations import three_layer as conf_3l


def _claim(claims, claim_id):
    (theorem,) = [t for t in claims if t.id == claim_id]
    return theorem


# ---------------------------------------------------------------------------
# linear_node_scaling.pruning_probability: the printed Clopper-Pearson intervals
# ---------------------------------------------------------------------------
def _clopper_pearson_by_inversion(k: int, n: int, confidence: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) interval from its definition, by root finding on the
    binomial distribution: the upper end p solves P(X <= k; n, p) = alpha / 2 (1 at k = n),
    the lower end P(X >= k; n, p) = alpha / 2 (0 at k = 0)."""
    half = (1 - confidence) / 2

    def root(f):
        return optimize.brentq(f, 1e-15, 1 - 1e-15, xtol=1e-14)

    lo = 0.0 if k == 0 else root(lambda p: stats.binom.sf(k - 1, n, p) - half)
    hi = 1.0 if k == n else root(lambda p: stats.binom.cdf(k, n, p) - half)
    return lo, hi


def test_pruning_detail_prints_the_exact_clopper_pearson_interval_of_every_case():
    """Proposition 7.6's claim prints, per case, ``MC p_hat [lo, hi]``: the 99.9 %
    simultaneous (Bonferroni over the cases) Clopper-Pearson interval of ``k = p_hat N``
    exceedances in ``N`` samples, as its tolerance says.  Each printed interval is checked
    against the interval recomputed from the binomial definition (root finding on the
    binomial CDF, not the beta quantiles the claim uses), at every case, including those
    with an odd count (an upper end of the wrong beta shape moves by ~1/N there)."""
    verdict = conf_lns._pruning()
    assert "Clopper-Pearson 99.9% simultaneous" in verdict.tolerance.reason
    assert "Bonferroni over the cases" in verdict.tolerance.reason
    N = int(re.search(r"N = (\d+) per case", verdict.detail).group(1))
    cases = re.findall(r"MC ([0-9.]+) \[([0-9.]+), ([0-9.]+)\]", verdict.detail)
    assert len(cases) == 12  # m in {10, 100} x gamma in {0, 0.5, 1} x rho in {0.25, 0.5}
    confidence = 1 - (1 - 0.999) / len(cases)
    odd = 0
    for p_text, lo_text, hi_text in cases:
        k = round(float(p_text) * N)
        # p_hat is printed to 4 decimals: N * 5e-5 = 0.15 < 1/2, so k is recovered exactly
        assert abs(float(p_text) * N - k) <= N * 5e-5 + 1e-9
        odd += k % 2
        lo, hi = _clopper_pearson_by_inversion(k, N, confidence)
        # the ends are printed to 4 decimals (half a unit: 5e-5), the inversion is exact
        # to 1e-14
        assert abs(float(lo_text) - lo) <= 5e-5 + 1e-9, (k, lo_text, lo)
        assert abs(float(hi_text) - hi) <= 5e-5 + 1e-9, (k, hi_text, hi)
    assert odd >= 1  # an odd count is among the cases (k + 1 and k | 1 differ there)


# ---------------------------------------------------------------------------
# three_layer.condensation_w2: the linear point measured is the one the statement names
# ---------------------------------------------------------------------------
def test_condensation_claim_measures_zeta_at_the_linear_point_of_its_statement(monkeypatch):
    """The claim ``three_layer.condensation_w2`` says zeta(W2) "moves by <= 5 % at the
    linear point (0, 1.1)" (and doubles at the condensed point (1/2, 2.8)); (0, 1.1) is
    Table 2 No. 1, linear for both layers in the paper (``PAPER_POINTS``).  With the
    training replaced by fixed zetas, the claim must ask for exactly these two points and
    name them in its detail (the NTK point (0, 1) is another linear point, but not the one
    stated)."""
    theorem = _claim(conf_3l.claims(), "three_layer.condensation_w2")
    match = re.search(r"at the linear point \(([^,]+), ([^)]+)\)", theorem.statement)
    linear = (Fraction(match.group(1)), Fraction(match.group(2)))
    match = re.search(r"at the\s+condensed point \(([^,]+), ([^)]+)\)", theorem.statement)
    condensed = (Fraction(match.group(1)), Fraction(match.group(2)))
    assert linear == (0, Fraction(11, 10)) and condensed == (Fraction(1, 2), Fraction(14, 5))
    assert three_layer.PAPER_POINTS[linear][:2] == ("linear", "linear")
    assert three_layer.PAPER_POINTS[condensed][1] == "condensed"

    asked = []

    def fake_zetas(point, full):
        asked.append(tuple(point))
        # condensed: zeta x 3 (passes the doubling); linear: unchanged (passes 5 %)
        return ((0.1, 0.3), (0.1, 0.3)) if tuple(point) == condensed else ((0.1, 0.1),) * 2

    monkeypatch.setattr(conf_3l, "_zetas", fake_zetas)
    verdict = theorem.verify()
    assert sorted(asked) == sorted([condensed, linear])
    assert verdict.status == "confirmed", verdict.detail
    assert f"linear {linear[0]}, {linear[1]}:" in verdict.detail
    assert f"condensed {condensed[0]}, {condensed[1]};" in verdict.detail
