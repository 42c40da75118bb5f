"""The one tolerance policy (``solvable._core.tolerance``): the normwise error in units of
``atol + rtol * max|b|``, on its float64 path (two float64 arrays) and its 60-digit path
(``mpmath.mpf`` or mixed inputs)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import (
    NOTHING_COMPARED,
    Tolerance,
    beats,
    digits,
    error_in_units,
    relative_error,
    worst_item,
)

_SCALES = st.floats(1e-150, 1e150, allow_nan=False, allow_infinity=False)


def _both_paths(a, b, tol):
    """The float64 path and the mpmath path on the same numbers."""
    fast = error_in_units(np.asarray(a, float), np.asarray(b, float), tol)
    slow = error_in_units([mpmath.mpf(v) for v in a], [mpmath.mpf(v) for v in b], tol)
    return fast, slow


def test_units_of_the_relative_allowance():
    # |a - b| = 1e-5 at max|b| = 1e6 is a relative error 1e-11: a tenth of rtol = 1e-10
    a, b = [1e6 + 1e-5, 3.0], [1e6, 3.0]
    fast, slow = _both_paths(a, b, Tolerance(rtol=1e-10))
    # the double nearest 1e6 + 1e-5 is off by up to half an ulp of 1e6 (5.8e-11), 5.8e-6 of
    # the difference 1e-5; both paths see the same doubles (and subtract them exactly)
    assert fast == pytest.approx(0.1, rel=6e-6)
    assert slow == pytest.approx(fast, rel=1e-15)


def test_absolute_floor_adds_to_the_allowance():
    fast, slow = _both_paths([1.0 + 1e-6], [1.0], Tolerance(rtol=1e-7, atol=9e-7))
    assert fast == pytest.approx(1.0, rel=1e-9) and slow == pytest.approx(1.0, rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(c=_SCALES, e=st.floats(-1e-3, 1e-3, allow_nan=False))
def test_relative_tolerance_is_scale_invariant(c, e):
    """With ``atol = 0`` scaling both sides by ``c`` changes nothing (up to the rounding of
    ``c * a`` in float64: a few ulp of the difference, relative 1e-6 at worst for e ~ 1e-10)."""
    a, b = [c * (1 + e), c * 2.0], [c, c * 2.0]
    ref = error_in_units([1 + e, 2.0], [1.0, 2.0], Tolerance(rtol=1e-3))
    fast, slow = _both_paths(a, b, Tolerance(rtol=1e-3))
    assert fast == pytest.approx(ref, rel=1e-6, abs=1e-9)
    assert slow == pytest.approx(ref, rel=1e-6, abs=1e-9)


def test_equal_and_zero_allowance():
    assert _both_paths([0.0, 1.0], [0.0, 1.0], Tolerance(rtol=1e-10)) == (0.0, 0.0)
    # b = 0 and atol = 0: no allowance, any difference is infinitely many units
    assert _both_paths([1e-300], [0.0], Tolerance(rtol=1e-10)) == (math.inf, math.inf)
    assert relative_error([1.0], [0.0]) == math.inf
    assert digits([1.0 + 1e-8], [1.0]) == pytest.approx(8, abs=1e-6)


def test_shape_mismatch_and_bad_tolerances_are_refused():
    with pytest.raises(ValueError, match="shapes differ"):
        error_in_units(np.zeros(2), np.zeros(3), Tolerance(rtol=1e-3))
    with pytest.raises(ValueError, match="rtol and atol"):
        Tolerance(rtol=0.0)
    with pytest.raises(ValueError, match=r"rtol must be >= 0, got -0\.001"):
        Tolerance(rtol=-1e-3)


def test_beats_keeps_a_nan_and_the_largest():
    """The running worst: a larger error replaces it, an equal or smaller one does not; a
    NaN (float, numpy or mpmath) replaces any number and is never replaced."""
    assert beats(2.0, 1.0) and not beats(1.0, 1.0) and not beats(0.5, 1.0)
    assert beats(0.0, NOTHING_COMPARED) and beats(-1e300, NOTHING_COMPARED)
    for nan in (math.nan, np.float64("nan"), mpmath.mpf("nan")):
        assert beats(nan, 1.0) and beats(nan, NOTHING_COMPARED)
        assert not beats(5.0, nan) and not beats(math.inf, nan) and not beats(nan, nan)
    assert beats(mpmath.mpf(3), 2.0) and beats(np.float64(3), mpmath.mpf(2))


@pytest.mark.parametrize(
    ("worst", "status"),
    [(0.0, "confirmed"), (1.0, "confirmed"), (1.0000001, "failed"), (math.inf, "failed"),
     (math.nan, "failed"), (NOTHING_COMPARED, "failed"), (-0.5, "failed")],
)  # fmt: skip
def test_from_error_confirms_only_errors_in_zero_to_one(worst, status):
    v = Verdict.from_error(worst, "d")
    assert v.status == status
    assert v.detail == ("nothing was compared: d" if worst == NOTHING_COMPARED else "d")


@pytest.mark.parametrize(
    ("value", "why"),
    [(math.nan, "a term failed to compute"), (NOTHING_COMPARED, "nothing was compared"),
     (1.5, "outside"), (-0.5, "outside")],
)  # fmt: skip
def test_a_confirmed_verdict_with_an_error_outside_zero_to_one_is_refused(value, why):
    """Claims that build their verdict directly (``"confirmed" if worst <= 1``) cannot
    confirm a NaN or an empty sweep: the record refuses it (``Theorem.verify`` reports the
    refusal as a failure)."""
    with pytest.raises(ValueError, match=rf"max_error in \[0, 1\].*{why}"):
        Verdict("confirmed", "d", max_error=value)
    assert Verdict("failed", "d", max_error=value).status == "failed"
    assert Verdict("confirmed", "d").max_error is None
    thm = Theorem("demo.x", "000_x.txt (1)", "s", "numeric",
                  lambda: Verdict("confirmed", "d", max_error=value))  # fmt: skip
    got = thm.verify()
    assert got.status == "failed" and why in got.detail


def test_worst_item_names_the_largest_error_and_keeps_a_nan():
    assert worst_item({"a": 0.5, "b": 2.0, "c": 1.0}) == ("b", 2.0)
    name, value = worst_item({"a": 0.5, "b": math.nan, "c": 9.0})
    assert name == "b" and math.isnan(value)  # max(..., key=) would have given "c"
    assert worst_item({}) == ("nothing compared", NOTHING_COMPARED)
    assert Verdict.from_error(worst_item({})[1], "d").status == "failed"
