"""Tests for solvable.models.node_scaling (seed 000: lambda_{m,j}, Zipf / finite-K weights,
limits)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from solvable.models import node_scaling as ns
from solvable.models.node_scaling import checks as ns_checks
from solvable.verification import theorems

CLAIMS = theorems.select("node_scaling.*")
ERRATA = ns.errata()
EPS = np.finfo(np.float64).eps

gammas = st.builds(Fraction, st.integers(0, 20), st.just(20))  # gamma in [0, 1]
alphas = st.builds(Fraction, st.integers(1, 19), st.just(20))  # alpha in (0, 1)
Ks = st.integers(1, 8)
widths = st.integers(1, 9)


def _exact(f: Fraction) -> sp.Rational:
    return sp.Rational(f.numerator, f.denominator)


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim_verified(claim):
    verdict = claim.verify()
    assert verdict.ok, verdict.detail
    if claim.kind == "symbolic":
        assert verdict.status == "proved" and all(r == 0 for r in verdict.residuals)
    else:
        assert verdict.status == "confirmed" and verdict.max_error <= 1
        assert verdict.tolerance is not None and verdict.tolerance.reason


@pytest.mark.parametrize("erratum", ERRATA, ids=[e.equation for e in ERRATA])
def test_erratum_printed_false_corrected_true(erratum):
    printed, corrected = erratum.residuals()
    assert corrected == 0 and printed != 0
    assert erratum.check()
    assert erratum.source == ns.SEED


def test_ids_and_sources():
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)
    assert all(c.id.startswith("node_scaling.") and c.source.startswith(ns.SEED) for c in CLAIMS)


@pytest.mark.parametrize("dps", [30, 50])
def test_numeric_claim_at_other_precisions(dps):
    claim = next(c for c in CLAIMS if c.id == "node_scaling.zipf_sum_of_squares_mpmath")
    assert claim.verify(dps=dps).status == "confirmed"


def test_zipf_mpmath_claim_fails_on_a_closed_form_20_digits_off(monkeypatch):
    # a closed form wrong in the 20th digit is 1e5 tolerances (1e-25) off: the default alphas
    # must see it
    real = ns.sum_of_squares_limit_numeric

    def off(g, w, dps):
        return real(g, w, dps=dps) * (1 + mpmath.mpf(10) ** -20)

    monkeypatch.setattr(ns_checks, "sum_of_squares_limit_numeric", off)  # the claim's lookup
    claim = next(c for c in CLAIMS if c.id == "node_scaling.zipf_sum_of_squares_mpmath")
    verdict = claim.verify()
    assert verdict.status == "failed" and verdict.max_error > 1e4


@pytest.mark.slow
def test_zipf_mpmath_claim_full_adds_alpha_near_the_pole():
    claim = next(c for c in CLAIMS if c.id == "node_scaling.zipf_sum_of_squares_mpmath")
    verdict = claim.verify(full=True)
    assert verdict.status == "confirmed" and "'9/10'" in verdict.detail


def test_positivity_helper_trusts_hurwitz_zeta_only_for_positive_q():
    """The claims' positivity check replaces zeta(s, q) by a positive symbol only for s > 1
    and q > 0 (a sum of positive terms (k + q)^(-s)).  zeta(3, -1/10) = (-1/10)^(-3) +
    zeta(3, 9/10) = -1000 + (less than 1/0.9^3 + zeta(3) < 3) < 0 must not be shown
    positive, nor zeta(3, q) with q of unknown sign; zeta(3, 9/10), zeta(3) and the Zipf
    tail zeta(s, m + 1)/zeta(s) (s > 1, m >= 1: the lower-bound claim's) must."""
    s, m = sp.Symbol("s", positive=True), sp.Symbol("m", positive=True, integer=True)
    q = sp.Symbol("q", real=True)
    assert float(mpmath.zeta(3, -0.1)) < 0  # the bound above, numerically
    assert not ns_checks._positive(sp.zeta(3, -sp.Rational(1, 10)))
    assert not ns_checks._positive(sp.zeta(3, q))
    assert ns_checks._positive(sp.zeta(3, sp.Rational(9, 10))) and ns_checks._positive(sp.zeta(3))
    assert ns_checks._positive(sp.zeta(s + 1, m + 1) / sp.zeta(s + 1))


# --- exact identities at random parameters (50 digits: the Zipf values are irrational) ----
def _weights(draw_alpha: Fraction | None, K: int):
    return ns.zipf(draw_alpha) if draw_alpha is not None else ns.finite_k(K)


@given(gammas, st.one_of(st.none(), alphas), Ks, widths)
def test_scalings_sum_to_one_and_squares_closed_form(gamma, alpha, K, m):
    w = _weights(alpha, K)
    g = _exact(gamma)
    lam = [ns.node_scaling(m, j, g, w) for j in range(1, m + 1)]
    # 50-digit evaluation of exact expressions; 1e-45 leaves 5 digits for rounding
    assert abs(sp.N(sum(lam) - 1, 50)) < 1e-45
    closed = ns.sum_of_squares(m, g, w)
    assert abs(sp.N(closed - sum(v**2 for v in lam), 50)) < 1e-45
    assert ns.sum_of_scalings(m, g, w) == 1
    # non-increasing in j (so max_j is j = 1) and above (1 - gamma) lambda~_j (eq. (25))
    vals = [sp.N(v, 50) for v in lam]
    assert all(a >= b for a, b in itertools.pairwise(vals))
    for j, v in enumerate(vals, start=1):
        assert v >= sp.N((1 - g) * w.weight(j), 50) - sp.Float(1e-45, 50)


@given(gammas, st.one_of(st.none(), alphas), Ks, st.integers(1, 6))
def test_limits(gamma, alpha, K, j):
    w = _weights(alpha, K)
    g = _exact(gamma)
    assert sp.simplify(ns.node_scaling_limit(j, g, w) - (1 - g) * w.weight(j)) == 0
    lim_sq = ns.sum_of_squares_limit(g, w)
    assert sp.simplify(lim_sq - (1 - g) ** 2 * w.sum_of_squares()) == 0
    # "feature learning iff gamma < 1": the limits are > 0 exactly when gamma < 1
    assert bool(ns.max_node_scaling_limit(g, w) > 0) == (gamma < 1)
    assert bool(lim_sq > 0) == (gamma < 1)


@given(alphas)
def test_zipf_sum_of_squares_identity(alpha):
    w = ns.zipf(alpha)
    a = _exact(alpha)
    assert sp.simplify(w.sum_of_squares() - sp.zeta(2 / a) / sp.zeta(1 / a) ** 2) == 0
    # and against an independent 30-digit mpmath series (Euler-Maclaurin); 1e-25 relative
    # leaves 5 of the 30 digits for the extrapolation error
    with mpmath.workdps(30):
        s = mpmath.mpf(alpha.denominator) / alpha.numerator
        series = mpmath.nsum(lambda k: k ** (-2 * s), [1, mpmath.inf], method="e")
        series /= mpmath.zeta(s) ** 2
        value = ns.sum_of_squares_limit_numeric(0, w, dps=30)
        assert abs(series - value) <= 1e-25 * value


def test_paper_examples():
    # introduction (a): alpha = 1/2 is 6/(pi^2 j^2); finite K with gamma = 0 is width K
    w = ns.zipf(Fraction(1, 2))
    assert sp.simplify(w.weight(ns.J) - 6 / (sp.pi**2 * ns.J**2)) == 0
    assert w.sum_of_squares() == sp.Rational(2, 5)  # zeta(4)/zeta(2)^2 = (pi^4/90)/(pi^4/36)
    fk = ns.finite_k(4)
    assert [ns.node_scaling(10, j, 0, fk) for j in range(1, 11)] == [sp.Rational(1, 4)] * 4 + [
        0
    ] * 6
    assert [ns.node_scaling(3, j, 0, fk) for j in (1, 2, 3)] == [sp.Rational(1, 3)] * 3
    assert ns.node_scaling(7, 5, 1, ns.zipf(0.3)) == sp.Rational(1, 7)  # gamma = 1: NTK


# --- generated evaluators -------------------------------------------------------------
@given(gammas, alphas, st.integers(0, 12), st.floats(0, 1))
def test_float64_matches_mpmath_zipf(gamma, alpha, log_m, frac_j):
    m = max(1, int(10.0**log_m))
    j = max(1, min(m, int(m**frac_j)))
    w = ns.zipf(alpha)
    s = float(1 / _exact(alpha))
    ref = ns.node_scaling_numeric(m, j, gamma, w, dps=30)
    got = ns.node_scaling_numeric(m, j, float(gamma), w)
    # tolerance: the float64 parameter s = 1/alpha carries eps*s, which j^(-s) turns into
    # eps*s*ln(j); H_m(s) = zeta(s) - zeta(s, m + 1) cancels by c = zeta(s)/H_m(s); 16 ulps
    # of slack for the few roundings in between
    with mpmath.workdps(30):
        c = float(mpmath.zeta(s) / (mpmath.zeta(s) - mpmath.zeta(s, m + 1)))
    tol = 16 * EPS * (1 + s * np.log(j)) * c
    assert abs(got - ref) <= tol * abs(ref)
    ref2 = ns.sum_of_squares_numeric(m, gamma, w, dps=30)
    got2 = ns.sum_of_squares_numeric(m, float(gamma), w)
    tol2 = 16 * EPS * (1 + 2 * s) * c**2  # Q_m/S_m^2: the cancellation enters squared
    assert abs(got2 - ref2) <= tol2 * abs(ref2)


@given(gammas, Ks, st.integers(1, 40))
def test_float64_matches_mpmath_finite_k(gamma, K, m):
    w = ns.finite_k(K)
    js = np.arange(1, m + 1)
    got = ns.node_scaling_numeric(m, js, float(gamma), w)
    ref = [ns.node_scaling_numeric(m, int(j), gamma, w, dps=30) for j in js]
    # rational arithmetic in a handful of float operations: 8 ulps
    assert np.allclose(got, [float(r) for r in ref], rtol=8 * EPS, atol=0)
    exact = [ns.node_scaling(m, int(j), _exact(gamma), w) for j in js]
    with mpmath.workdps(40):  # compare 30-digit values with exact ones converted at 40 digits
        assert all(
            abs(r - mpmath.mpf(sp.N(e, 40))) <= 1e-29 * abs(r)
            for r, e in zip(ref, exact, strict=True)
        )


@pytest.mark.parametrize("dps", [15, 30, 60])
def test_mpmath_matches_exact(dps):
    # the mpmath evaluators reproduce the exact sympy values to dps digits (10 guard digits
    # inside; 10^(1-dps) relative allows the last digit); comparisons at dps + 10 digits
    with mpmath.workdps(dps + 10):
        _compare_with_exact(dps)


def _compare_with_exact(dps: int) -> None:
    for w in (ns.zipf(Fraction(2, 3)), ns.zipf(Fraction(1, 10)), ns.finite_k(5)):
        for m, j in ((1, 1), (7, 3), (50, 50)):
            exact = sp.N(ns.node_scaling(m, j, sp.Rational(3, 7), w), dps + 10)
            got = ns.node_scaling_numeric(m, j, Fraction(3, 7), w, dps=dps)
            assert abs(got - mpmath.mpf(exact)) <= mpmath.mpf(10) ** (1 - dps) * abs(got)
            exact_sq = sp.N(ns.sum_of_squares(m, sp.Rational(3, 7), w), dps + 10)
            got_sq = ns.sum_of_squares_numeric(m, Fraction(3, 7), w, dps=dps)
            assert abs(got_sq - mpmath.mpf(exact_sq)) <= mpmath.mpf(10) ** (1 - dps) * got_sq
        wexact = mpmath.mpf(sp.N(w.weight(3), dps + 10))
        tol = mpmath.mpf(10) ** (1 - dps) * abs(wexact)
        assert abs(ns.weight_numeric(3, w, dps=dps) - wexact) <= tol


def test_vectorised_float64():
    w = ns.zipf(0.5)
    js = np.arange(1, 6)
    got = ns.node_scaling_numeric(np.full(5, 10), js, 0.25, w)
    assert got.shape == (5,)
    one = [ns.node_scaling_numeric(10, int(j), 0.25, w) for j in js]
    assert np.array_equal(got, np.array(one))
    # 6/(pi^2 j^2) from the generated weight evaluator, 4 ulps
    assert np.allclose(ns.weight_numeric(js, w), 6 / (np.pi**2 * js**2), rtol=4 * EPS, atol=0)
    # large widths: sum of squares -> its limit (finite K exactly gamma(2 - gamma)/m away)
    fk = ns.finite_k(3)
    gap = ns.sum_of_squares_numeric(10**6, 0.5, fk) - ns.sum_of_squares_limit_numeric(0.5, fk)
    assert abs(gap - 0.75e-6) <= 1e-15


# --- validation -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "call, exc",
    [
        (lambda: ns.zipf(0), ValueError),
        (lambda: ns.zipf(1), ValueError),
        (lambda: ns.zipf(1.5), ValueError),
        (lambda: ns.zipf(-0.1), ValueError),
        (lambda: ns.zipf(float("nan")), ValueError),
        (lambda: ns.zipf("a"), ValueError),
        (lambda: ns.zipf([0.5]), TypeError),
        (lambda: ns.zipf(sp.Symbol("alpha", positive=True)), ValueError),
        (lambda: ns.finite_k(0), ValueError),
        (lambda: ns.finite_k(2.0), TypeError),
        (lambda: ns.finite_k(Fraction(1, 2)), TypeError),
        (lambda: ns.finite_k(True), TypeError),
        (lambda: ns.finite_k(sp.Symbol("K")), ValueError),
        (lambda: ns.node_scaling(0, 1, 0.5, ns.finite_k(2)), ValueError),
        (lambda: ns.node_scaling(3, 0, 0.5, ns.finite_k(2)), ValueError),
        (lambda: ns.node_scaling(3, 4, 0.5, ns.finite_k(2)), ValueError),
        (lambda: ns.node_scaling(3, 1, -0.1, ns.finite_k(2)), ValueError),
        (lambda: ns.node_scaling(3, 1, Fraction(11, 10), ns.finite_k(2)), ValueError),
        (lambda: ns.node_scaling(3, 1, -sp.Symbol("g", positive=True), ns.finite_k(2)), ValueError),
        (lambda: ns.node_scaling(3, 1, 0.5, "zipf"), TypeError),
        (lambda: ns.node_scaling_numeric(3, 1, 0.5, ns.finite_k(2), dps=0), ValueError),
        (lambda: ns.node_scaling_numeric(3, 1, 0.5, ns.zipf_symbolic()), ValueError),
        (lambda: ns.node_scaling_numeric(3, 1, ns.GAMMA, ns.finite_k(2)), ValueError),
        (lambda: ns.node_scaling_numeric(np.array([3]), np.array([4]), 0.5, ns.finite_k(2)),
         ValueError),
        (lambda: ns.node_scaling_numeric(np.array([2.5]), 1, 0.5, ns.finite_k(2)), ValueError),
        (lambda: ns.sum_of_squares_numeric(0, 0.5, ns.finite_k(2), dps=20), ValueError),
    ],
)  # fmt: skip
def test_bad_input(call, exc):
    with pytest.raises(exc) as info:
        call()
    assert str(info.value)  # the message names the argument and the range


def test_flow_is_the_gradient_of_the_one_loss():
    # the sympy flow of eq. (5) for a tiny linear network: dW/dt = -eta dL/dW of loss()
    flow = ns.flow_symbolic(1, 1, 1, "linear")
    eta, x, y, s = flow.params
    a, w = flow.state
    assert flow.rhs[0] == 0  # a does not train (eq. (3))
    assert sp.simplify(flow.rhs[1] - eta * s * a * x * (y - s * a * w * x)) == 0
    with pytest.raises(ValueError, match="m must be"):
        ns.flow_symbolic(1, 1, 0, "linear")
    with pytest.raises(ValueError, match="activation must be one of"):
        ns.flow_symbolic(1, 1, 1, "gelu")


def test_symbolic_records():
    zs, fk = ns.zipf_symbolic(), ns.finite_k_symbolic()
    assert zs.s == 1 + sp.Symbol("b", positive=True)
    assert fk.sum_of_squares() == 1 / fk.K
    assert ns.sum_of_scalings(ns.M, ns.GAMMA, zs) == 1
    # frozen records
    with pytest.raises(AttributeError):
        zs.alpha = sp.Rational(1, 2)


def test_a_batch_of_weights_shares_unbatched_targets():
    """W batched (3, m, d) with y of one sample (n,) and a, s of one network: y's batch
    shape is y without its last axis, (), so it broadcasts over the 3 weights: each batch
    item's loss is the unbatched call's (y's first axis, n = 2, taken for a batch axis
    refused this: a seed-20 survivor)."""
    rng = np.random.default_rng(0)
    W, X = rng.standard_normal((3, 4, 2)), rng.standard_normal((2, 2))
    a, s, y = rng.standard_normal(4), np.abs(rng.standard_normal(4)), rng.standard_normal(2)
    got = ns.loss(W, a, s, X, y, np.tanh, np.sqrt(2.0))
    assert np.shape(got) == (3,)
    for b in range(3):
        # the same sums, perhaps in another order (batched BLAS): a few ulps
        assert got[b] == pytest.approx(ns.loss(W[b], a, s, X, y, np.tanh, np.sqrt(2.0)),
                                       rel=1e-14)  # fmt: skip
