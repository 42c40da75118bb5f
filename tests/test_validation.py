"""Bad input raises a clear error naming the argument and the valid range."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from solvable._core import numbers as nb
from solvable.models import xu_ziyin as xz

GOOD = dict(eta_u=1.0, eta_w=0.5, gamma=0.7, x=[1.0, 2.0], y=1.5)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("eta_u", 0.0, "eta_u must be > 0"),
        ("eta_u", -1, "eta_u must be > 0"),
        ("eta_w", -0.5, "eta_w must be > 0"),
        ("gamma", 0, "gamma must be > 0"),
        ("eta_u", math.nan, "eta_u must be finite"),
        ("y", math.inf, "y must be finite"),
        ("y", "nan", "y must be finite"),
        ("eta_w", "abc", "eta_w must be a decimal number"),
        ("x", [0.0, 0.0], "x must be non-zero"),
        ("x", [], "x must not be empty"),
        ("x", [[1.0, 2.0]], "x must be one-dimensional"),
        ("x", [1.0, math.nan], r"x\[1\] must be finite"),
    ],
)
def test_setup_value_errors(field, value, message):
    with pytest.raises(ValueError, match=message):
        xz.Setup(**{**GOOD, field: value})


@pytest.mark.parametrize(
    ("field", "value"),
    [("eta_u", [1.0]), ("y", 1 + 2j), ("gamma", True), ("x", "12"), ("y", None)],
)
def test_setup_type_errors(field, value):
    with pytest.raises(TypeError, match=field):
        xz.Setup(**{**GOOD, field: value})


def test_setup_accepts_every_number_kind():
    s = xz.Setup(
        eta_u=1, eta_w="0.5", gamma=mpmath.mpf("0.7"), x=np.array([1.0, 2]), y=np.float64(1.5)
    )
    assert s.d0 == 2
    with pytest.raises(AttributeError):  # frozen
        s.eta_u = 2  # type: ignore[misc]


@pytest.fixture
def setup():
    return xz.Setup(**GOOD)


@pytest.mark.parametrize(
    ("u0", "W0", "message"),
    [
        ([1.0, 2.0], [[1.0, 2.0]], r"W0 must have shape \(2, 2\)"),
        ([1.0], [[1.0, 2.0, 3.0]], r"W0 must have shape \(1, 2\)"),
        ([[1.0]], [[1.0, 2.0]], "u0 must be one-dimensional"),
        ([1.0, math.inf], [[1.0, 2.0], [1.0, 2.0]], r"u0\[1\] must be finite"),
        ([1.0], [[1.0, math.nan]], r"W0\[0,1\] must be finite"),
    ],
)
def test_closed_form_shape_and_value_errors(setup, u0, W0, message):
    with pytest.raises(ValueError, match=message):
        xz.closed_form(setup, u0, W0)


def test_closed_form_type_errors(setup):
    with pytest.raises(TypeError, match="setup"):
        xz.closed_form(GOOD, [1.0], [[1.0, 2.0]])
    with pytest.raises(TypeError, match="dps"):
        xz.closed_form(setup, [1.0], [[1.0, 2.0]], dps=3.5)
    with pytest.raises(ValueError, match=r"dps must be None \(float64\) or an int >= 1"):
        xz.closed_form(setup, [1.0], [[1.0, 2.0]], dps=0)


@pytest.mark.parametrize("t", [-1.0, -1e-300, math.nan, -math.inf, "-0.1"])
def test_negative_or_nonfinite_time(setup, t):
    """Negative times and nan are refused; +inf is the limit state (test_xu_ziyin_edges)."""
    traj = xz.closed_form(setup, [1.0], [[1.0, 2.0]])
    with pytest.raises(ValueError, match="t"):
        traj.at(t)
    with pytest.raises(ValueError, match="t"):
        traj.sample([0.0, t])


def test_time_type_error(setup):
    traj = xz.closed_form(setup, [1.0], [[1.0, 2.0]])
    with pytest.raises(TypeError, match="t"):
        traj.at(None)


_ARRAYS = st.one_of(
    hnp.arrays(st.sampled_from([np.float64, np.float32, np.int64, np.uint8]),
               hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4)),
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=4),
               elements=st.floats(allow_nan=True, allow_infinity=True)),
)  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(value=_ARRAYS, rows=st.sampled_from([None, 1, 2, 3]), cols=st.sampled_from([None, 1, 3]))
def test_check_matrix_fast_path_is_the_generic_one(value, rows, cols):
    """``nb.check_matrix`` on a numeric ndarray (its vectorised path) returns what the
    generic per-entry path returns for the same array as dtype object (the same Python
    numbers, types included), and raises the same error with the same message for every
    bad shape, empty array or non-finite entry."""

    def outcome(v):
        try:
            got = nb.check_matrix("X", v, (rows, cols))
        except (TypeError, ValueError) as exc:
            return type(exc), str(exc)
        return got, [[type(e) for e in r] for r in got]

    assert outcome(value) == outcome(value.astype(object))
