"""The claims of the closed forms of seeds 000, 001 and 003 and the fast paths of their
evaluation: the numbers a claim reports beside its verdict, a term that fails to compute
(NaN) in a running worst error, and the float64 / mpmath switches at the ends of the range.

Each test answers a bug written by an outside reviewer who had not read the tests
(``benchmarks/mutants/closed_form_claims_and_fast_paths.py``, named in each docstring) or a
defect of the unmutated code that reviewer reported; the references are computed
independently here (mpmath at 50 digits from the documented formula, counts from the
documented case lists).
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable.models import xu_ziyin as xz
from solvable.models.xu_ziyin import numeric_claims as xz_claims
from solvable.verification.confirmations import xu_ziyin as xz_confirm

EPS = 2.0**-52


def _nan_first(fn):
    """``fn`` that returns NaN on its first call (a term that failed to compute) and
    ``fn``'s value after."""
    calls = []

    def wrapped(*args, **kwargs):
        calls.append(1)
        return math.nan if len(calls) == 1 else fn(*args, **kwargs)

    return wrapped


def _nan_alpha_minus(monkeypatch):
    """``closed_form`` whose float64 trajectory of the first case reports alpha_- = NaN."""
    orig = xz_claims.closed_form

    def bad(setup, u0, W0, dps=None):
        traj = orig(setup, u0, W0, dps=dps)
        if dps is None and setup is xz_claims.CASES[0].setup:
            return dataclasses.replace(traj, alpha_minus=math.nan)
        return traj

    monkeypatch.setattr(xz_claims, "closed_form", bad)


@pytest.mark.parametrize("check", [xz_claims._reported_constants, xz_claims._reported_relations])
def test_a_nan_constant_fails_the_reported_constants_claims(check, monkeypatch):
    """Defect of the unmutated code (reported by the reviewer): the running worst was kept by
    ``if not err <= worst``, so a NaN error (a constant that failed to compute) was
    replaced by the next finite one and the claim stayed confirmed.  Both sides: confirmed
    as it stands, failed with one NaN alpha_- (of 3 precisions x every case)."""
    assert check().status == "confirmed"
    _nan_alpha_minus(monkeypatch)
    verdict = check()
    assert verdict.status == "failed" and math.isnan(verdict.max_error), verdict.detail


@pytest.mark.parametrize(
    "check, name, cases",
    [
        (xz_confirm.measured_constants, "_constant_units", ("generic",)),
        (xz_confirm._measured_vs_formula, "error_in_units", ("d0_1_negative_x",)),
    ],
)
def test_a_nan_error_fails_the_measured_constants(check, name, cases, monkeypatch):
    """The same running worst in the measured-constants claims of seed 001: a first error
    that is NaN (of many comparisons) fails the claim, which is confirmed without it."""
    assert check(cases=cases).status == "confirmed"
    monkeypatch.setattr(xz_confirm, name, _nan_first(getattr(xz_confirm, name)))
    verdict = check(cases=cases)
    assert verdict.status == "failed" and math.isnan(verdict.max_error), verdict.detail


def _kappa_reference(P: float, Q: float, alpha: float) -> mpmath.mpf:
    """``manifold_condition``'s documented formula at 50 digits from the exact inputs:
    sqrt((P + Q) max(alpha, 1/alpha) / (P alpha + Q / alpha))."""
    with mpmath.workdps(50):
        P, Q, a = mpmath.mpf(P), mpmath.mpf(Q), mpmath.mpf(alpha)
        return mpmath.sqrt((P + Q) * max(a, 1 / a) / (P * a + Q / a))


@pytest.mark.parametrize(
    "P, Q, alpha",
    [(2.0, 1.5e-323, 1e-200), (3.0, 1e-310, 1e-170), (3.0, 5e-324, 1e-160),
     (1e-310, 7.0, 1e170)],
)  # fmt: skip
def test_manifold_condition_keeps_its_digits_for_subnormal_p_or_q(P, Q, alpha):
    """Defect of the unmutated code (reported by the reviewer): the mpmath branch started
    from q = Q / max(P, Q), a quotient rounded to the few bits of a subnormal (13% off for
    Q = 1.5e-323); from the exact P, Q it is accurate to rounding: 2 eps (the float of a
    30-digit result)."""
    got = xz.manifold_condition(P, Q, alpha)
    ref = _kappa_reference(P, Q, alpha)
    assert abs(got - ref) <= 2 * EPS * ref, (got, ref)


_FLOATS = st.floats(min_value=0, max_value=1e300, allow_nan=False, allow_subnormal=True)


@settings(max_examples=200, deadline=None)
@given(P=_FLOATS, Q=_FLOATS, log_alpha=st.floats(min_value=-300, max_value=300))
def test_manifold_condition_property_against_the_formula(P, Q, log_alpha):
    """Over P, Q from 0 (and subnormals) to 1e300 and alpha from 1e-300 to 1e300: the
    documented formula to 8 eps (the float64 branch rounds about 6 operations, each half
    an ulp, plus the square root's), or a refusal naming the float64 range where kappa is
    beyond it; 1 at P = Q = 0."""
    alpha = 10.0**log_alpha
    if P + Q == 0:
        assert xz.manifold_condition(P, Q, alpha) == 1.0
        return
    ref = _kappa_reference(P, Q, alpha)
    if ref > 1.7e308:
        with pytest.raises(ValueError, match="beyond the float64 range"):
            xz.manifold_condition(P, Q, alpha)
        return
    got = xz.manifold_condition(P, Q, alpha)
    assert abs(got - ref) <= 8 * EPS * ref, (got, ref)
