"""Edges of the solvable.verification.testing oracles pinned by survivors of the seed-2 mutation
run:
refusals of what a user hands in, the gradient-descent allowance at t = 0, and Monte Carlo
kernels of an all-zero Gram matrix."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from solvable.models import kernels
from solvable.models import xu_ziyin as xz
from solvable.verification import testing


def _oracle():
    """Kunin's exact solution (blocks a (), w (d,)): the quickest oracle to build."""
    return testing.edge_case("kunin:balanced").oracle()


# ---------------------------------------------------------------------------
# what the user hands in
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("entry", "exc", "why"),
    [
        (Fraction(10**400), ValueError, "must be within the float64 range"),
        ("0.5", TypeError, "must be a real number"),
    ],
    ids=["beyond_float64", "string"],
)
def test_a_bad_entry_of_a_trajectory_array_is_refused_naming_the_array(entry, exc, why):
    """A trajectory block given as Python objects (here a list holding Fractions) is read
    entry by entry; a bad entry is refused with the block's name and the rule it breaks,
    "w (kunin block) must hold real numbers only: ...", the same for an entry beyond
    the float64 range (a ValueError) as for a non-number (a TypeError).  Written against
    solvable/verification/testing.py:161:core/ExceptionReplacer:2 (the ValueError left
    unwrapped)."""
    oracle = _oracle()
    times = [0.0, 0.5]
    ref = oracle.exact(times)
    w = [[Fraction(float(v)) for v in row] for row in ref["w"]]
    w[1][0] = entry
    with pytest.raises(exc, match=rf"^w \(kunin block\) must hold real numbers only: .*{why}"):
        oracle.compare(times, ref["a"], w)


def test_an_object_array_of_exact_numbers_is_read_as_their_values():
    """The accepted side of the refusal above: Fractions are read as their float64 values
    (the comparison of the exact trajectory with itself: 0 units)."""
    oracle = _oracle()
    times = [0.0, 0.5]
    ref = oracle.exact(times)
    w = [[Fraction(float(v)) for v in row] for row in ref["w"]]
    assert oracle.compare(times, ref["a"], w).worst == 0


@pytest.mark.parametrize(
    "times",
    [[Fraction(0), math.inf], [0, mpmath.inf], np.array([Fraction(1, 2), math.inf], dtype=object)],
    ids=["fraction_and_float_inf", "int_and_mpf_inf", "object_array"],
)
def test_exact_numbers_and_an_infinite_time_read_as_the_float_times(times):
    """``t = inf`` (the limit) is allowed in ``exact()``'s times; given with exact numbers
    beside it (an object array) it is the same as the float times: an infinity is an
    infinity, whatever holds it."""
    oracle = _oracle()
    floats = [float(t) for t in times]
    got, want = oracle.exact(times), oracle.exact(floats)
    assert got.keys() == want.keys()
    for name in want:
        np.testing.assert_array_equal(got[name], want[name])


@pytest.mark.parametrize(
    ("times", "exc", "why"),
    [
        ([0, 10**400], ValueError, "within the float64 range"),  # huge, not infinite
        ([Fraction(0), mpmath.mpf("1e400")], ValueError, "within the float64 range"),
        ([Fraction(0), mpmath.nan], ValueError, "finite"),
        ([Fraction(0), -math.inf], ValueError, ">= 0"),
    ],
    ids=["int", "mpf", "nan", "minus_inf"],
)
def test_an_exact_time_beyond_float64_is_refused_not_made_infinite(times, exc, why):
    """A finite time beyond the float64 range is refused; read as ``inf`` it would silently
    compare a trajectory with the limit ``t -> oo``."""
    with pytest.raises(exc, match=why):
        _oracle().exact(times)


def test_an_infinite_exact_entry_of_a_block_is_refused_as_not_finite():
    oracle = _oracle()
    times = [0.0, 0.5]
    ref = oracle.exact(times)
    w = [[Fraction(float(v)) for v in row] for row in ref["w"]]
    w[1][0] = mpmath.inf
    with pytest.raises(ValueError, match=r"w \(kunin block\) must be finite"):
        oracle.compare(times, ref["a"], w)


@pytest.mark.parametrize("times", [[], np.empty(0), ()], ids=["list", "array", "tuple"])
def test_empty_times_are_refused(times):
    """``times`` must be a non-empty 1-d sequence: an empty trajectory is refused (it would
    otherwise "pass" with nothing compared), by exact() and compare() alike.  Written
    against solvable/verification/testing.py:178:core/NumberReplacer:23 (``size == 0`` -> ``==
    -1``)."""
    oracle = _oracle()
    with pytest.raises(ValueError, match=r"times must be a non-empty 1-d sequence, got shape"):
        oracle.exact(times)
    empty = {b: np.empty((0, *shape)) for b, shape in oracle.blocks.items()}
    with pytest.raises(ValueError, match=r"times must be a non-empty 1-d sequence, got shape"):
        oracle.compare(times, **empty)


# ---------------------------------------------------------------------------
# gd_allowance at t = 0
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("times", [[0.0], [0, 0, 0], [-0.0]], ids=["one", "repeated", "neg0"])
def test_gd_allowance_at_the_start_is_zero_error_and_the_initial_jacobian(times):
    """At ``t = 0`` gradient descent has taken no step: the first-order error ``e(0) = 0``
    (gd_allowance's docstring: ``e(0) = 0``), so ``lr e`` is 0 at every time 0, and the
    step check is ``lr ||J(theta_0)||_2``, J the Jacobian of the model's flow at the start
    (here from sympy).  Written against solvable/verification/testing.py:251:core/
    ReplaceComparisonOperator_Gt_GtE:1 (``t_end > 0`` -> ``>= 0``: the error equation
    integrated over the empty span [0, 0])."""
    case = xz.case("generic")
    system = xz.SYSTEM
    weights = system.initial(case.setup, case.u0, case.W0)
    flow = system.flow(case.setup, {b: w.shape for b, w in weights.items()})
    params = system.flow_parameters(case.setup, float)
    y0 = [float(v) for v in flow.pack(weights)]
    lr = 0.01
    E, limit = testing.gd_allowance(flow, params, y0, times, lr)
    assert E.shape == (len(times), len(y0))
    assert np.all(E == 0)
    J = sp.Matrix(flow.rhs).jacobian(flow.state)
    values = dict(zip(flow.state, y0, strict=True)) | dict(zip(flow.params, params, strict=True))
    J0 = np.array(J.subs(values).evalf(30), dtype=float)
    # the code's Jacobian is central differences of the generated field: exact for these
    # cubic flows up to ~1e-10 relative (gd_allowance's _jvp note); 1e-8 is 100x that
    assert limit == pytest.approx(lr * np.linalg.norm(J0, 2), rel=1e-8)


# ---------------------------------------------------------------------------
# Monte Carlo kernels of an all-zero Gram matrix
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["nngp", "rf", "ntk_first_layer", "ntk"])
def test_kernel_samples_of_an_all_zero_gram_pass_when_they_are_zero(name):
    """Antipodal inputs x, -x: ``relu(w.x) relu(-w.x) = 0`` for every w, so the exact Gram
    ``K(x, -x)`` is 0 and so is every empirical kernel (compare_samples' docstring names
    this case: entries whose samples are all equal are compared at the kernels' float64
    accuracy).  S zero samples (half-width 0) must pass, at 0 units; a sample off by 1
    must fail.  Written against solvable/verification/testing.py:792:core/NumberReplacer:161 (the
    floor
    ``rtol (max|exact| or 1)`` -> ``or 0``: 0/0 units at an all-zero exact matrix)."""
    init = kernels.Initialisation(1, 1)
    x = [[0.6, 0.8]]
    oracle = testing.kernel(name, init, x, [[-0.6, -0.8]])
    assert np.all(oracle.exact == 0)
    for S in (2, 50):
        report = oracle.compare_samples(np.zeros((S, 1, 1)))
        assert report.passed and report.units == 0, report
    off = np.zeros((50, 1, 1))
    off[:, 0, 0] = 1.0  # all equal, mean 1: far from 0 whatever the scale
    report = oracle.compare_samples(off)
    assert not report.passed and report.units > 1, report


def test_an_allowance_that_is_not_a_number_at_least_zero_fails_closed():
    """The oracle's error in units: diff/allowance, 0 for no difference, inf where the
    allowance is 0, and inf where it is NaN or negative (no caller makes one today: a NaN
    allowance was divided by 1.0, so a wrong trajectory would have been judged by its raw
    difference; seed-3 triage, testing.py:407)."""
    from solvable.verification.testing import _units

    diff = np.array([0.0, 2.0, 2.0, 2.0, 2.0, 0.0])
    allow = np.array([1.0, 4.0, 0.0, np.nan, -1.0, np.nan])
    np.testing.assert_array_equal(_units(diff, allow), [0.0, 0.5, np.inf, np.inf, np.inf, 0.0])


def test_gd_allowance_from_the_origin_is_zero_error():
    """A start at the origin (a critical point of the linear net: theta stays 0, F = 0) has
    no gradient-descent error, e = 0 at every time, and the step check at the origin's
    Jacobian: the error equation is integrated with an absolute tolerance scaled by
    max(1, |theta_0|), never 0 (a zero atol on the zero solution leaves LSODA no error
    scale)."""
    case = xz.case("generic")
    system = xz.SYSTEM
    weights = system.initial(case.setup, case.u0, case.W0)
    flow = system.flow(case.setup, {b: w.shape for b, w in weights.items()})
    params = system.flow_parameters(case.setup, float)
    zero = [0.0] * len(flow.state)
    E, limit = testing.gd_allowance(flow, params, zero, [0.5, 2.0], 0.01)
    assert np.all(E == 0) and math.isfinite(limit) and limit >= 0
