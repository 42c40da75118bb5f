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
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as xz
from solvable.models.linear_node_scaling import trajectory as lns_trajectory
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


# ---------------------------------------------------------------------------- the seed-17 sample
def test_xu_ziyin_a_saddle_start_with_a_rounding_residue_stays_at_the_saddle():
    """``xu_ziyin/_arithmetic.py:72`` (``|`` made ``^``, seed-17 sample): a unit whose p_i
    and q_i are both near 0 (u_i = 0 and w_i . x = 0 exactly, but the float64 dot product
    leaves 2^-53: 2^-53 + 1 rounds to 1) is tested in rationals like one near a single
    manifold.  The start is the saddle P = Q = 0 exactly, so f stays 0 at every time; with
    the residue, P = Q = 4.6e-33 and the float64 state left the saddle (f(10) = y)."""
    e = 2.0**-53
    setup = xz.Setup(6.0, 2.0, 1.0, (1.0, 1.0, 1.0, 1.0), 1.5)
    for dps in (None, 30):
        traj = xz.closed_form(setup, [0.0], [[e, 1.0, -1.0, -e]], dps=dps)
        assert traj.P == 0 and traj.Q == 0
        assert all(v == 0 for v in traj.sample([0.0, 10.0, 100.0]).f)


def test_kunin_an_x_without_columns_is_refused_on_the_vectorised_path_too():
    """``kunin/setups.py:47`` (the vectorised check of X tested ``X.shape[0] >= 1`` for
    ``X.shape[1] >= 1``, seed-17 sample): an (n, 0) float array is refused like the same
    rows as lists, naming X and its shape; an (n, 1) array is accepted."""
    for X in (np.zeros((2, 0)), [[], []]):
        with pytest.raises(ValueError, match=r"X must have shape \(n, m\), got \(2, 0\)"):
            kunin.Setup(1, 1, X, (1, 0.5))
    assert kunin.Setup(1, 1, np.ones((2, 1)), (1, 0.5)).X == ((1.0,), (1.0,))


def _lns_setup(n, d, m, seed, y_scale=1.0):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, d)), y_scale * rng.standard_normal(n)
    lam = ns.node_scaling_numeric(m, np.arange(1, m + 1), 0.5, ns.zipf(0.5))
    a = np.where(rng.random(m) < 0.5, -1.0, 1.0)
    return ns.Setup(X, y, lam, "linear", 0.5), a, rng.standard_normal((m, d))


def test_lns_a_node_from_zero_keeps_its_digits_where_the_modes_underflow():
    """``linear_node_scaling/trajectory.py:437`` (the boost of rows whose modes are below
    2^-960 taken for ``t > 1`` only, seed-17 sample): at t = 1e-315 (rate t subnormal) a
    node starting at W_0 = 0 with targets of 1e150 is sqrt(lambda) a c(t) ~ 6e-167, which
    without the boost lost 8 digits (relative 1.5e-8).  Against dps = 40: 16 eps relative
    to the row's largest entry (measured 5 eps: a chain of ~6 rounded products)."""
    setup, a, W0 = _lns_setup(3, 4, 5, seed=3, y_scale=1e150)
    W0[2] = 0.0
    times = [1e-300, 1e-305, 1e-308, 1e-310, 1e-315, 0.5, 1.0]
    got = lns.closed_form(setup, a, W0).sample(np.array(times)).W[:, 2]
    ref = lns.closed_form(setup, a, W0, dps=40).sample([mpmath.mpf(t) for t in times]).W
    for row, ref_row in zip(got, ref, strict=True):
        ref_row = np.array([float(v) for v in ref_row[2]])
        assert np.max(np.abs(row - ref_row)) <= 16 * EPS * np.max(np.abs(ref_row)), (row, ref_row)


@pytest.mark.parametrize("T", [1000, 1024, 3000, 4096])
def test_lns_times_are_evaluated_in_chunks_of_1024(T, monkeypatch):
    """``linear_node_scaling/trajectory.py:47`` (``_CHUNK_BYTES = 1 >> 21``, seed-17 sample:
    chunks of W's block, 64 times here, the same values 64 times slower): for n, d <= 256
    the float64 sample evaluates c(t) once per part (y and W_0) per chunk of
    ``_CHUNK_TIMES`` = 1024 times, the halves of the two threads cut at a chunk's end."""
    setup, a, W0 = _lns_setup(8, 64, 64, seed=1)
    traj = lns.closed_form(setup, a, W0)
    calls = []
    fast = lns_trajectory._fast_evaluator

    def spy(name):
        fn = fast(name)

        def counted(*args):
            calls.append(name)
            return fn(*args)

        return counted

    monkeypatch.setattr(lns_trajectory, "_fast_evaluator", spy)
    traj.sample(np.linspace(0, 5, T))
    assert lns_trajectory._CHUNK_TIMES == 1024
    assert calls.count("c_t") == 2 * math.ceil(T / 1024), calls.count("c_t")
