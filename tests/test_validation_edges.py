"""The boundaries of the package's input checks, each from both sides: written against the
realistic mutants of ``benchmarks/mutants/validation_edges.py`` (by a reviewer who had not
read the tests) that the suite let through.  Each test names the mutant it kills."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import numerics
from solvable._core import activations
from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.tolerance import worst_of
from solvable.models import kernels, kunin
from solvable.models import xu_ziyin as xz
from solvable.verification import testing


# ---------------------------------------------------------------------------
# mpmath in, mpmath out: one mpf among the values is enough
# ---------------------------------------------------------------------------
def test_one_mpf_among_floats_keeps_the_callers_precision():
    """validation.dps_or_context_all_mpf (``any`` made ``all``)."""
    with mpmath.workdps(40):
        assert nb.dps_or_context(None, mpmath.mpf("0.1"), 2.0) == 40
        assert nb.dps_or_context(None, 2.0, [1.0, mpmath.mpf(3)]) == 40
        assert nb.dps_or_context(None, 2.0, [1.0, 3.0]) is None  # no mpf: float64
        assert nb.dps_or_context(25, mpmath.mpf("0.1"), 2.0) == 25  # an explicit dps wins


# ---------------------------------------------------------------------------
# sizes, orders: ints, never truncated floats
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("n", "exc"),
    [
        (2.5, TypeError),
        (2.0, TypeError),
        (True, TypeError),
        ("3", TypeError),
        (0, ValueError),
        (-1, ValueError),
    ],
)
def test_a_symbolic_size_is_an_int_at_least_one(n, exc):
    """validation.symbolic_sizes_int_cast (``int(v)`` for ``check_int``: 2.5 became 2)."""
    with pytest.raises(exc, match=r"^n must be an int"):
        kunin.flow(n, 2)


def test_the_smallest_symbolic_size_is_accepted():
    assert kunin.flow(1, 1).state  # n = d = 1: the other side of the boundary


@pytest.mark.parametrize(
    ("order", "exc"),
    [
        (1.5, TypeError),
        (1.0, TypeError),
        (True, TypeError),
        ("1", TypeError),
        (-1, ValueError),
        (activations.MAX_ORDER + 1, ValueError),
    ],
)
def test_a_derivative_order_is_an_int_in_range(order, exc):
    """validation.check_order_int_cast (``int(order)``: 1.5 gave the first derivative)."""
    with pytest.raises(exc, match=r"^order must be an int"):
        activations.derivative("tanh", order)


def test_derivative_orders_at_the_ends_of_the_range():
    """The accepted side: order 0 is the activation itself, MAX_ORDER is accepted (for the
    linear activation, whose derivatives are cheap: tanh's 64th takes sympy minutes)."""
    tanh = activations.activation("tanh")
    assert activations.derivative("tanh", 0) == tanh
    assert (activations.derivative("tanh", 1) - (1 - tanh**2)).equals(0)
    assert activations.derivative("linear", activations.MAX_ORDER) == 0


# ---------------------------------------------------------------------------
# a cosine in [-1, 1], on both ends
# ---------------------------------------------------------------------------
_SLACK = 8 * np.finfo(float).eps  # kernels' documented clip: a computed cosine may exceed 1


@pytest.mark.parametrize("rho", [-2.0, -1.0 - 1e-12, 2.0, 1.0 + 1e-12])
def test_a_cosine_outside_minus_one_to_one_is_refused_on_both_sides(rho):
    """validation.kernels_rho_upper_bound_only (only ``rho > 1`` refused: -2 was clipped)."""
    init = kernels.lecture_initialisation(2)
    with pytest.raises(ValueError, match=r"^rho must be in \[-1, 1\]"):
        kernels.kernel_numeric("ntk_first_layer", init, 1.0, 1.0, rho)


def test_a_cosine_a_few_ulps_outside_is_clipped_on_both_sides():
    """The accepted side: within the 8-ulp slack a cosine is clipped to +-1 (the value at
    +-1 exactly), at either end."""
    init = kernels.lecture_initialisation(2)
    for end in (-1.0, 1.0):
        got = kernels.kernel_numeric("ntk_first_layer", init, 1.0, 1.0, end * (1 + _SLACK / 2))
        assert got == kernels.kernel_numeric("ntk_first_layer", init, 1.0, 1.0, end)


# ---------------------------------------------------------------------------
# a verdict from an error in units: NaN is a failure
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("worst", "status"),
    [
        (0.0, "confirmed"),
        (1.0, "confirmed"),
        (math.nextafter(1.0, 2.0), "failed"),
        (math.inf, "failed"),
        (math.nan, "failed"),
    ],
)
def test_from_error_confirms_exactly_up_to_one_unit_and_never_nan(worst, status):
    """validation.from_error_nan_confirmed (the two outcomes of ``worst <= 1`` swapped
    around a ``not``: NaN, which compares false, was confirmed)."""
    assert Verdict.from_error(worst, "d").status == status


# ---------------------------------------------------------------------------
# gradient descent: at most 2^53 steps (t = k lr must be a float64 number)
# ---------------------------------------------------------------------------
def _xz_flow() -> tuple:
    case = xz.case("generic")
    weights = xz.SYSTEM.initial(case.setup, case.u0, case.W0)
    flow = xz.SYSTEM.flow(case.setup, {b: w.shape for b, w in weights.items()})
    params = xz.SYSTEM.flow_parameters(case.setup, float)
    return flow, params, [float(v) for v in flow.pack(weights)]


def test_gd_allowance_refuses_more_than_two_to_the_53_steps():
    """validation.gd_steps_cap_raised (the cap raised to 2^63)."""
    flow, params, y0 = _xz_flow()
    with pytest.raises(ValueError, match=r"times and lr: .* more than 2\^53"):
        testing.gd_allowance(flow, params, y0, [1.0], 2.0**-54)  # 2^54 steps
    # at the cap exactly: accepted (the allowance of 2^53 tiny steps is tiny)
    E, _limit = testing.gd_allowance(flow, params, y0, [1.0], 2.0**-53)
    assert np.all(np.isfinite(E)) and np.all(np.abs(E) < 1e-10)


# ---------------------------------------------------------------------------
# simulate's rtol: [100 eps, 1)
# ---------------------------------------------------------------------------
_KU = kunin.Setup(1.0, 2.0, [[1.0, 0.0], [0.0, 1.0]], [1.0, 0.5])


@pytest.mark.parametrize("rtol", [1, 1.0, 2.0, 99 * np.finfo(float).eps])
def test_simulate_rtol_outside_its_range_is_refused(rtol):
    """validation.simulate_rtol_one_accepted (``< 1`` made ``<= 1``)."""
    with pytest.raises(ValueError, match=r"^rtol must be in \["):
        numerics.simulate(_KU, 0.5, [0.2, -0.1], [0.1], method="scipy", rtol=rtol)


def test_simulate_rtol_at_its_ends_is_accepted():
    for rtol in (100 * np.finfo(float).eps, math.nextafter(1.0, 0.0)):
        (st,) = numerics.simulate(_KU, 0.5, [0.2, -0.1], [0.1], method="scipy", rtol=rtol)
        assert math.isfinite(float(st.a))


# ---------------------------------------------------------------------------
# the worst of several errors: a NaN anywhere is a failure, never dropped
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "errors",
    [(0.5, math.nan), (math.nan, 0.5), (0.1, 0.2, np.float64("nan")), (0.5, mpmath.nan)],
)
def test_worst_of_keeps_a_nan_wherever_it_is(errors):
    """Python's max drops a NaN that is not first (max(0.5, nan) is 0.5): a confirmation whose
    critical value came out NaN (a mutant of the Theorem 7.5 Monte Carlo check) was
    confirmed.  worst_of returns NaN, which Verdict.from_error fails."""
    assert math.isnan(worst_of(*errors))
    assert Verdict.from_error(worst_of(*errors), "d").status == "failed"


def test_worst_of_is_the_largest_otherwise():
    assert worst_of(0.5, 2.0, 1.0) == 2.0
    assert worst_of(mpmath.mpf("0.25"), 0.125) == mpmath.mpf("0.25")
    assert worst_of(0.0, math.inf) == math.inf
