"""``solvable._core.scaled.scaled_sum`` in float64 has two paths (issue 30: the kernels'
Gram matrices spent most of their time in the frexp / ldexp passes): the plain products and
sum where no partial product can leave the normal range, and the mantissa / exponent path
elsewhere.  They give the same bits where both apply, and the dispatch sits exactly at its
documented bounds (every non-zero factor within 2^+-96, at most 10 factors per term)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core import scaled


def _factor(draw, shape):
    mant = draw(st.lists(st.floats(0.5, 1.0, exclude_max=True), min_size=1, max_size=1))[0]
    exps = np.array(draw(st.lists(st.integers(-96, 95), min_size=int(np.prod(shape)),
                                  max_size=int(np.prod(shape)))))  # fmt: skip
    signs = np.array(draw(st.lists(st.sampled_from([-1.0, 0.0, 1.0, 1.0]),
                                   min_size=exps.size, max_size=exps.size)))  # fmt: skip
    values = signs * np.ldexp(mant * (1 + exps % 7 / 16) / 1.5, exps)
    return values.reshape(shape)


@st.composite
def _terms(draw):
    shapes = [(3, 1), (1, 4), (3, 4), ()]
    terms = []
    for _ in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 4))
        powers = [draw(st.integers(1, 3)) for _ in range(n)]
        while sum(powers) > 10:
            powers[powers.index(max(powers))] -= 1
        factors = []
        for p in powers:
            shape = draw(st.sampled_from(shapes))
            value = _factor(draw, shape)
            factors.append((float(value) if shape == () else value, p))
        terms.append(factors)
    return terms


@settings(max_examples=200, deadline=None)
@given(terms=_terms())
def test_the_plain_path_gives_the_scaled_paths_bits_where_both_apply(terms):
    plain, plain_inf = scaled._numpy_plain(terms)
    ref, ref_inf = scaled._numpy_scaled(terms)
    np.testing.assert_array_equal(plain, ref)
    np.testing.assert_array_equal(plain_inf, ref_inf)
    got, _ = scaled.scaled_sum(terms, "numpy")
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("value, plain", [
    (2.0**96, True), (math.nextafter(2.0**96, math.inf), False),
    (2.0**-96, True), (math.nextafter(2.0**-96, 0.0), False),
    (0.0, True), (-(2.0**96), True), (math.inf, False), (math.nan, False),
])  # fmt: skip
def test_the_plain_range_is_exactly_2_to_the_96_both_ways(value, plain):
    assert scaled._plain(np.array([1.0, value])) is plain


@pytest.mark.parametrize("powers, plain", [(10, True), (11, False)])
def test_at_most_ten_factors_per_term_take_the_plain_path(monkeypatch, powers, plain):
    taken = []
    monkeypatch.setattr(scaled, "_numpy_plain", lambda t: taken.append("plain") or (0, 0))
    monkeypatch.setattr(scaled, "_numpy_scaled", lambda t: taken.append("scaled") or (0, 0))
    scaled.scaled_sum([[(np.full(3, 2.0**90), powers)]], "numpy")
    assert taken == ["plain" if plain else "scaled"]


def test_beyond_the_plain_range_the_value_is_still_right():
    """``n1 n2 s^2`` with norms 1e160 and ``s^2 = 1e-20``: a plain product overflows to inf
    where the value is 1e300 (the module's example); the scaled path gives it, within the
    roundings of its four products (4 ulps)."""
    n = np.array([1e160, 3e159])
    value, inf = scaled.scaled_sum([[(n, 1), (n[::-1], 1), (1e-20, 1)]], "numpy")
    with mpmath.workdps(40):
        want = [mpmath.mpf(1e160) * mpmath.mpf(3e159) * mpmath.mpf(1e-20)] * 2
    assert not inf.any()
    for got, w in zip(value, want, strict=True):
        assert abs(mpmath.mpf(got) - w) <= 4 * abs(w) * 2.0**-53
    _, inf = scaled.scaled_sum([[(np.array([1e300]), 2)]], "numpy")
    assert inf.all()  # 1e600: beyond float64, reported


def test_a_first_factor_out_of_range_alone_sends_the_term_to_the_scaled_path():
    """1e300 * 1e20 * 1e-20: only the first factor is beyond 2^96; a plain product would
    overflow at the first multiplication (inf), the scaled path gives 1e300."""
    value, inf = scaled.scaled_sum([[(np.array([1e300]), 1), (1e20, 1), (1e-20, 1)]], "numpy")
    assert not inf.any() and abs(value[0] - 1e300) <= 4 * 1e300 * 2.0**-53


@pytest.mark.parametrize("path", ["_numpy_plain", "_numpy_scaled"])
def test_scalar_factors_give_a_numpy_scalar_on_both_paths(path):
    """A kernel of two scalar points is a float (numpy's float64), not a 0-d array, on either
    path (a 0-d array from the plain path broke kernels.kernel_numeric's return type)."""
    value, inf = getattr(scaled, path)([[(2.0, 1), (3.0, 2)], [(0.5, 1)]])
    assert type(value) is np.float64 and value == 18.5
    assert type(inf) is np.bool_ and not inf
    array, _ = getattr(scaled, path)([[(np.array([2.0]), 1), (3.0, 2)]])
    assert isinstance(array, np.ndarray) and array.shape == (1,)
