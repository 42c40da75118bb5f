"""``to_fraction`` of an ``mpmath.mpf`` keeps its sign (``mpf.man_exp`` gives an unsigned
mantissa: negative mpf entries were read as positive, so ``exact_gram`` of mpf data was the
Gram of ``|X|``: kunin's exact isotropy check refused whitened mpf data with negative entries
and the deep_linear balance check saw unbalanced starts)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable import kunin
from solvable._core.exact_gram import exact_gram, to_fraction
from solvable.models.kunin.numeric_checks import _rational as kunin_rational
from solvable.models.xu_ziyin.numeric_claims import _rational as xz_rational

_finite = st.floats(-1e300, 1e300, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(_finite)
def test_an_mpf_is_the_same_rational_as_its_float(x):
    assert to_fraction(mpmath.mpf(x)) == Fraction(x)


def test_a_40_digit_negative_mpf_is_exact_and_negative():
    with mpmath.workdps(40):
        x = mpmath.mpf(-1) / 3
        f = to_fraction(x)
        assert f < 0 and mpmath.mpf(f.numerator) / f.denominator == x


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.floats(-10, 10), min_size=3, max_size=3), min_size=1, max_size=4))
def test_exact_gram_of_mpf_rows_is_the_rational_gram(rows):
    G, D2 = exact_gram([[mpmath.mpf(v) for v in r] for r in rows])
    F = [[Fraction(v) for v in r] for r in rows]  # (each float is that rational exactly)
    want = [[sum((r[p] * r[q] for r in F), Fraction(0)) for q in range(3)] for p in range(3)]
    assert [[Fraction(int(G[p, q]), D2) for q in range(3)] for p in range(3)] == want


def test_whitened_mpf_data_with_negative_entries_is_accepted_as_floats_are():
    X = [[1, 1], [1, -1]]  # X^T X = 2 I; |X|^T |X| is not isotropic
    y = [1, 0.5]
    a_float = kunin.closed_form(kunin.Setup(1, 1, np.array(X, float), y), 0.1, [0.2, -0.1])
    Xm = [[mpmath.mpf(v) for v in r] for r in X]
    a_mpf = kunin.closed_form(kunin.Setup(1, 1, Xm, y), 0.1, [0.2, -0.1])
    assert a_mpf.s == a_float.s == 2
    # (mpf data gives an mpmath trajectory at 15 digits: the same state to ~1e-15)
    w_mpf = np.array([float(v) for v in a_mpf.at(1.0).w])
    assert np.allclose(w_mpf, a_float.at(1.0).w, rtol=1e-13, atol=0)


def test_the_claims_read_a_negative_mpf_as_negative():
    # (the exact constants of the kunin and xu_ziyin numeric claims read stored numbers
    # with the same rule)
    for read in (kunin_rational, xz_rational):
        assert read(mpmath.mpf(-0.375)) == Fraction(-3, 8)
        assert read("-0.1") == Fraction(-1, 10) and read(-2) == -2
