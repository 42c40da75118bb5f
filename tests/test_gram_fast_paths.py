"""The float64 Gram matrix's fast parts (issue 30: 2000 x 2000 points in d = 10 went from
1.4-4 s to 0.2-0.3 s): the chords of unit vectors by blocks and ``einsum`` (with the rows
whose sums of squares may underflow taken again, scaled), and ``sinc3`` evaluating each of
its two forms only where it is taken.  Each is checked against 50-digit values and against
the form it replaced."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core import backends, geometry


def _units(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    X = rng.standard_normal((n, d))
    X[0] = 0.0  # a zero row: its unit vector is 0
    X[1] = X[2] * (1 + 1e-13)  # near parallel
    X[3] = -X[2]  # antiparallel
    nx = geometry.row_norms(X, "numpy")
    return X / np.where(nx > 0, nx, 1.0)[:, None]


def _exact_chords(U: np.ndarray, V: np.ndarray, sign: int) -> np.ndarray:
    out = np.empty((len(U), len(V)))
    with mpmath.workdps(50):
        for i, u in enumerate(U):
            for j, v in enumerate(V):
                pairs = zip(u, v, strict=True)
                s = mpmath.fsum((mpmath.mpf(a) + sign * mpmath.mpf(b)) ** 2 for a, b in pairs)
                out[i, j] = float(mpmath.sqrt(s))
    return out


def _ulps(got: np.ndarray, want: np.ndarray) -> float:
    return float(np.max(np.abs(got - want) / np.spacing(np.maximum(np.abs(want), 1e-300))))


@pytest.mark.parametrize("d", [1, 3, 10])
def test_the_chords_are_within_two_ulps_of_50_digits(d):
    """Two ulps: a sum of d squares (each rounded once, the sum d - 1 times in pairs) and a
    square root; the scaled row_norms it replaced was measured at 2 ulps too."""
    rng = np.random.default_rng(d)
    U, V = _units(rng, 9, d), _units(rng, 7, d)
    diff, summ = geometry._chords_float64(U, V)
    assert _ulps(diff, _exact_chords(U, V, -1)) <= 2
    assert _ulps(summ, _exact_chords(U, V, 1)) <= 2


@pytest.mark.parametrize("n, blocks", [(512, 1), (513, 2), (1024, 2)])
def test_a_block_holds_the_rows_that_fit_its_bytes(monkeypatch, n, blocks):
    """The documented block: as many rows as fit CHORD_BLOCK_BYTES = 1 MiB of (rows, m, d)
    scratch: m = 64, d = 4 gives 2^20 / (8 * 256) = 512 rows a block (two einsum calls per
    block, one per chord)."""
    assert geometry.CHORD_BLOCK_BYTES == 2**20
    calls = []
    real = np.einsum

    def counting(*args, **kwargs):
        calls.append(args[1].shape[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(geometry.np, "einsum", counting)
    rng = np.random.default_rng(n)
    geometry._chords_float64(_units(rng, n, 4), _units(rng, 64, 4))
    assert len(calls) == 2 * blocks and max(calls) == min(n, 512)


def test_blocks_of_any_size_give_the_same_bits(monkeypatch):
    rng = np.random.default_rng(4)
    U, V = _units(rng, 23, 5), _units(rng, 11, 5)
    whole = geometry._chords_float64(U, V)
    monkeypatch.setattr(geometry, "CHORD_BLOCK_BYTES", 8 * 11 * 5 * 3)  # 3 rows a block
    parts = geometry._chords_float64(U, V)
    for a, b in zip(whole, parts, strict=True):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("gap", [1e-150, 1e-200, 1e-300, 5e-324])
def test_chords_whose_squares_underflow_are_taken_again_scaled(gap):
    """u and v a gap apart: |u - v| = gap (to within rounding of the construction), whose
    square underflows below 1e-150: taken again by row_norms, not left 0."""
    U = np.array([[1.0, 0.0, 0.0]])
    V = np.array([[1.0, gap, 0.0]])  # |v| = 1 in float64 (gap^2 is far below eps)
    diff, summ = geometry._chords_float64(U, V)
    assert diff[0, 0] == gap and summ[0, 0] == 2.0


@settings(max_examples=60, deadline=None)
@given(z=st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=1, max_size=40))
def test_sinc3_takes_each_form_where_it_did(z):
    """The same values as evaluating both forms everywhere and choosing by |z| <= 1."""
    z = np.array([*z, 1.0, -1.0, math.nextafter(1.0, 2.0), 0.0, -0.0])
    with np.errstate(all="ignore"):
        series = backends._np_sinc3_series(z)
        direct = backends._np_sinc3_direct(z)
    want = np.where(np.abs(z) <= backends._SINC3_SERIES_UP_TO, series, direct)
    np.testing.assert_array_equal(backends._np_sinc3(z), want)


def test_sinc3_of_a_scalar_is_a_0d_array_at_both_forms():
    near, far = backends._np_sinc3(0.5), backends._np_sinc3(3.0)
    assert near.shape == () and far.shape == ()
    with mpmath.workdps(40):
        for z, got in ((0.5, near), (3.0, far)):
            w = (mpmath.sin(z) - z * mpmath.cos(z)) / mpmath.mpf(z) ** 3
            assert abs(float(got) - float(w)) <= 8 * abs(float(w)) * 2.0**-53


def test_underflowing_chords_land_on_their_own_pair():
    """One pair (0, 1) of a square Gram whose chord underflows, its mirror (1, 0) an
    ordinary one: the recomputed chord goes to (0, 1) (rows and columns not swapped), and
    (1, 0) keeps its own."""
    g = 1e-200
    U = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    V = np.array([[0.0, 0.0, 1.0], [1.0, g, 0.0]])  # |v| = 1 in float64
    diff, _ = geometry._chords_float64(U, V)
    assert diff[0, 1] == g and diff[1, 0] == math.sqrt(2.0)
