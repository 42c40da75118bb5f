"""The bookkeeping around the closed forms of seeds 000, 001 and 003: the boundaries of
their argument checks (both sides), the times they refuse, the index arithmetic of their
refusal messages, and the early returns of their helpers.

Each test answers a bug written by an outside reviewer who had not read the tests
(``benchmarks/mutants/closed_form_bookkeeping.py``, named in each docstring) that survived
the tests selected for it; the values are the documented ones, or computed independently
here (numpy's own rank rule, the sums in another order).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import xu_ziyin as xz
from solvable.models.kunin import numeric_checks as kunin_checks
from solvable.models.xu_ziyin import trajectory as xz_trajectory

EPS = float(np.finfo(float).eps)
SINGLE = (kunin.Setup(1, 1, ((1, 0), (0, 1)), (1, 0.5)), 0.3, (0.2, -0.1))


def accepted(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` of a valid input: a refusal is a failed check, not an error."""
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        raise AssertionError(f"a valid input was refused: {exc}") from exc


@pytest.mark.parametrize("times", [[1.0, -math.inf], np.array([-np.inf]), [-math.inf]])
def test_kunin_minus_inf_is_refused_plus_inf_is_the_limit(times):
    """``kunin_minus_inf_is_the_limit``: -inf is not a time (it was taken for the limit);
    +inf is the limit, the same state as ``at(inf)``."""
    traj = kunin.closed_form(*SINGLE)
    with pytest.raises(ValueError, match=r"t\[\d\] must be finite, got .*-inf"):
        traj.sample(times)
    limit = traj.sample([1.0, math.inf])
    assert limit.t[1] == math.inf and limit.a[1] == traj.at(math.inf).a
    assert limit.a[1] != limit.a[0]


def test_kunin_wide_start_takes_h_up_to_the_other_layers_width():
    """``kunin_wide_start_h_equal_refused``: h equal to the other layer's width is allowed
    (the message says h <= width), one more is refused; the start it builds is balanced
    (Delta = delta I_h)."""
    setup = kunin.WideSetup(1, 1, [[1.0], [0.0]], [[1.0], [0.5]])  # d = c = 1
    A, W = accepted(kunin.wide_start, setup, 0.5, A=[[2.0]])
    assert A.shape == (1, 1) and W.shape == (1, 1)
    # Delta = eta_w A A^T - eta_a W W^T = 0.5: W = sqrt(4 - 0.5) (two roundings)
    np.testing.assert_allclose(kunin.wide_balance(A, W, 1, 1), [[0.5]], rtol=4e-16)
    with pytest.raises(ValueError, match=r"A has h = 2 rows but the other layer has only 1"):
        kunin.wide_start(setup, 0.5, A=[[2.0], [1.0]])


def test_kunin_wide_time_beyond_float64_with_a_zero_rate_is_the_limit():
    """``kunin_wide_zero_rate_counted``: t * t_scale beyond float64 is the limit when every
    nonzero rate is large; a rate that is exactly 0 (delta = 0, c != d) has no time scale
    and must not count (it made t = 1e306 refused).  The limit is beta* = (1, 0.5), loss 0
    (y = X beta* exactly)."""
    setup = kunin.WideSetup(1, 1, [[100.0, 0.0], [0.0, 100.0]], [[100.0], [50.0]])
    traj = kunin.wide_closed_form(setup, [[5.0]], [[3.0, 4.0]])  # delta = 25 - 25 = 0
    state = accepted(traj.at, 1e306)
    # beta(inf) from the normalised data: a few roundings (measured 4.4e-16)
    np.testing.assert_allclose(state.beta, [[1.0], [0.5]], rtol=4 * EPS)
    assert state.loss <= 1e-28  # (s/2) |beta - beta*|^2 at that rounding: 1e4 * 2e-31
    np.testing.assert_array_equal(state.beta, traj.at(math.inf).beta)


def test_kunin_wide_balance_tolerance_is_relative_to_deltas_terms():
    """``kunin_wide_balance_tiny_unscaled``: delta = -1e-10 against terms of 2e8 (A0 = 1e4,
    W0 = (1e4, 1e-5)) is delta = 0 to rounding, so h = c = 1 is Theorem 4.2's setting (it
    was refused by the sign of the residue); delta = -1e-6 there is a real imbalance (h = 1
    < d = 2: since issue 31 a shape the echelon form solves, with that delta)."""
    setup = kunin.WideSetup(1, 1, [[1.0, 0.0], [0.0, 1.0]], [[1.0], [0.5]])
    traj = accepted(kunin.wide_closed_form, setup, [["10000"]], [["10000", "0.00001"]])
    # beta(inf) = beta*, a few roundings of the normalised data (measured 3.3e-16)
    np.testing.assert_allclose(traj.at(math.inf).beta, [[1.0], [0.5]], rtol=4 * EPS)
    # delta = -1e-6 is a real imbalance: h = 1 < d = 2, solved by the echelon form (issue
    # 31; refused before), its delta read as it is
    far = kunin.wide_closed_form(setup, [["10000"]], [["10000", "0.001"]])
    assert far.delta == pytest.approx(-1e-6, rel=1e-6)


def test_xu_ziyin_overflow_names_the_first_time_that_overflows():
    """``xu_ziyin_overflow_message_flat_index_time``: the refusal names the time of the
    first state beyond float64 (the index of a (T, d) array's entry turned into its time
    index, not read as one)."""
    traj = xz.closed_form(xz.Setup(1, 1, 1, (1, 0), "1e700"), [1, 2], [[1, 0], [0.5, 0]])
    with pytest.raises(ValueError, match=r"the state's u at t = 1\.0e-600 is 6\.24695e\+349"):
        traj.sample(["0", "1e-600", "1e-500"])


def test_xu_ziyin_states_empty_quotes_the_entries_of_w():
    """``xu_ziyin_empty_message_count``: the refusal of an allocation too large quotes W's
    n_times d d0 entries."""
    with pytest.raises(ValueError, match=r"n_times d d0 = 1e\+21 entries of W"):
        xz.States.empty(10**9, 10**6, 10**6)


def test_xu_ziyin_manifold_condition_on_the_manifolds_and_at_the_saddle():
    """``xu_ziyin_manifold_condition_either_zero``: the early return is for the saddle P = Q
    = 0 only (condition 1); on the invariant manifolds P = 0 or Q = 0 the condition is the
    documented amplification (alpha for P = 0, 1/alpha for Q = 0), the largest there is."""
    assert xz.manifold_condition(0, 0, 5) == 1.0
    assert xz.manifold_condition(0, 1, 100) == 100.0
    assert xz.manifold_condition(1, 0, 1e-3) == 1000.0
    assert 1 < xz.manifold_condition(1, 2, 3) < 3


def test_xu_ziyin_constants_take_p_or_q_zero():
    """``xu_ziyin_constants_P_Q_positive``: P = 0 and Q = 0 (Proposition 1's invariant
    manifolds) are valid: alpha_+ = inf for P = 0, alpha_- = 0 for Q = 0; a negative P is
    refused."""
    on_p = accepted(xz.constants, 1, 0.5, 0.7, 2.2, 1.5, 3, 0, 1)
    on_q = accepted(xz.constants, 1, 0.5, 0.7, 2.2, 1.5, 3, 1, 0)
    assert on_p["alpha_plus"] == math.inf and 0 < on_p["alpha_minus"] < math.inf
    assert on_q["alpha_minus"] == 0.0 and 0 < on_q["alpha_plus"] < math.inf
    assert on_p["t_c"] == on_q["t_c"] > 0
    with pytest.raises(ValueError, match=r"P must be >= 0"):
        xz.constants(1, 0.5, 0.7, 2.2, 1.5, 3, -1, 1)


def test_xu_ziyin_zero_float_inputs_stay_on_the_float64_path():
    """``xu_ziyin_safe_range_zero_not_exempt``: an input that is exactly 0.0 is in the
    float64-safe range (only a nonzero input must lie in [1/SAFE_INPUT, SAFE_INPUT]); a
    tiny nonzero one is not, and takes the 17-digit evaluation."""
    setup = xz.Setup(1.0, 0.5, 0.7, (1.0, 2.0), 1.5)
    zero = xz.closed_form(setup, [0.3, -0.2], [[0.1, 0.0], [0.4, -0.3]])
    assert zero._data["work_dps"] is None
    tiny = xz.closed_form(setup, [0.3, -0.2], [[0.1, 1e-300], [0.4, -0.3]])
    assert tiny._data["work_dps"] == xz_trajectory.EXTENDED_DPS
    # the float64 path and the extended one agree on the zero start (a few roundings)
    ext = zero._extended().at(1.0)
    np.testing.assert_allclose(zero.at(1.0).u, [float(v) for v in ext.u], rtol=1e-14)


def test_linear_node_scaling_reduced_svd_takes_the_full_rank():
    """``linear_node_scaling_full_rank_refused``: rank = min(n, d) is valid (the singular
    values numpy gives), rank = min(n, d) + 1 is refused."""
    X = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]])
    full = accepted(lns.reduced_svd, X, rank=2)
    # numpy's SVD of the same matrix (the same LAPACK call: a few ulps)
    np.testing.assert_allclose(full.D, np.linalg.svd(X, compute_uv=False), rtol=1e-15)
    assert lns.reduced_svd(X, rank=1).D.shape == (1,)
    with pytest.raises(ValueError, match=r"rank must be in 1\.\.min\(n, d\) = 2, got 3"):
        lns.reduced_svd(X, rank=3)


def test_linear_node_scaling_rank_rule_is_numpys():
    """``linear_node_scaling_rank_rule_min_dimension``: the numerical rank is numpy's
    ``matrix_rank`` rule (singular values above max(n, d) eps D_max): a second singular
    value 5e-15 D_max of a 100 x 2 matrix is below 100 eps (2.2e-14) and not counted, but
    above 2 eps; 5e-13 is counted."""
    rng = np.random.default_rng(1)
    U, _ = np.linalg.qr(rng.normal(size=(100, 2)))
    R, _ = np.linalg.qr(rng.normal(size=(2, 2)))
    for second, rank in ((5e-15, 1), (5e-13, 2)):
        X = U @ np.diag([1.0, second]) @ R
        assert np.linalg.matrix_rank(X) == rank
        assert lns.reduced_svd(X).rank == rank, second


def test_linear_node_scaling_group_moments_mass_bound_allows_rounding():
    """``linear_node_scaling_mass_bound_no_rounding_slack``: a pruned mass lam_T equal to the
    total up to the rounding of its sum (the same four numbers added in another order) is
    the whole mass (the group's moments are those of the nodes); one visibly above the
    total is refused."""
    parts = (0.1, 0.2, 0.3, 0.4)
    lam_T = ((parts[0] + parts[1]) + parts[2]) + parts[3]
    total = ((parts[3] + parts[2]) + parts[1]) + parts[0]
    assert lam_T > total  # 1.0 against 0.9999999999999999
    mean, cov = accepted(lns.group_moments, lam_T, total, [1.0, 0.5], np.eye(2))
    np.testing.assert_allclose(mean, [1.0, 0.5], rtol=1e-15)
    np.testing.assert_allclose(cov, np.zeros((2, 2)), atol=1e-15)
    with pytest.raises(ValueError, match=r"lam_T must be in \(0, total"):
        lns.group_moments(1.01 * total, total, [1.0, 0.5], np.eye(2))


def test_kunin_a_valid_time_array_skips_the_per_time_checks(monkeypatch):
    """A numeric array of times >= 0 (or +inf) is taken as float64 as it is, without one
    Python check per time (a fast path whose loss changes no number, only the speed: read by
    a spy on the per-time checks); an array with a bad time goes through them and the bad
    time is refused by name; a list goes through them."""
    from solvable.models.kunin import times as kunin_times

    calls = []
    real = kunin_times._times
    monkeypatch.setattr(kunin_times, "_times",
                        lambda times, *a: calls.append(len(times)) or real(times, *a))  # fmt: skip
    for arr in (np.array([0.0, 0.5, np.inf]), np.array([0, 3], dtype=np.int32),
                np.array([0.25, 2.0], dtype=np.float32)):  # fmt: skip
        tf, inf, given = kunin_times._float_times(arr)
        assert tf.dtype == np.float64 and tf.tolist() == arr.astype(float).tolist()
        assert inf.tolist() == [bool(np.isinf(v)) for v in arr] and given is tf
    assert calls == []
    with pytest.raises(ValueError, match=r"t must be >= 0, got -1.0"):
        kunin_times._float_times(np.array([0.5, -1.0]))
    assert calls == [2]
    tf, inf, given = kunin_times._float_times([0.5, math.inf])
    assert calls == [2, 2] and tf.tolist() == [0.5, math.inf] and inf.tolist() == [False, True]


def test_kunin_zero_data_refusal_quotes_a_zero_deviation():
    """X = 0 is not isotropic data (s = 0): refused, quoting the deviation max|X^T X - s I|
    and s as 0.0 (seed-15 survivor ``isotropic_data.py:158``: the quoted deviation made
    -1)."""
    setup = kunin.Setup(1, 1, ((0.0, 0.0), (0.0, 0.0)), (1.0, 0.5))
    with pytest.raises(ValueError, match=r"max\|X\^T X - s I\| = 0\.0 with s = 0\.0 "):
        kunin.closed_form(setup, 0.3, (0.2, -0.1))


def test_kunin_float64_isotropy_takes_the_error_free_sum(monkeypatch):
    """For float64 data the trace s comes from the error-free sum of squares, whose proved
    interval decides it (seed-15 survivor ``isotropic_data.py:149``: the interval's upper
    end made 1e-45 times too small, so every float64 setup fell back to the digit-by-digit
    trace: the same s, slowly); with dps = 30 the trace is taken at that precision."""
    from solvable.models.kunin import isotropic_data

    calls = []
    real = isotropic_data._trace
    monkeypatch.setattr(isotropic_data, "_trace",
                        lambda *a: calls.append(a[1:]) or real(*a))  # fmt: skip
    X = ((0.6, 0.8), (-0.8, 0.6), (0.0, 0.0))  # X^T X = I to rounding (1.0000000000000002)
    traj = kunin.closed_form(kunin.Setup(1, 1, X, (1.0, 0.5, 0.2)), 0.3, (0.2, -0.1))
    assert calls == [] and float(traj.s) == 1.0
    kunin.closed_form(kunin.Setup(1, 1, X, (1.0, 0.5, 0.2)), 0.3, (0.2, -0.1), dps=30)
    assert len(calls) == 1


def test_xu_ziyin_manifold_condition_switches_to_mpmath_below_2_to_minus_1000(monkeypatch):
    """kappa = sqrt((p + q) / den) in float64 while den >= 2^-1000 (a normal float, its
    quotient finite), exactly in mpmath below (seed-15 survivor ``system.py:95``: the
    threshold moved to 2^-999): P = 1, Q = 0 gives den = alpha^2, so alpha = 2^-500 is at
    the threshold (float64 path; kappa = 2^500 exactly) and the next float below it is not."""
    from solvable.models.xu_ziyin import system as xz_system

    used = []

    class Spy:
        def __getattr__(self, name):
            used.append(name)
            return getattr(mpmath_module, name)

    import mpmath as mpmath_module

    monkeypatch.setattr(xz_system, "mpmath", Spy())
    at = 2.0**-500
    assert xz.manifold_condition(1, 0, at) == 2.0**500 and used == []
    below = math.nextafter(at, 0)
    assert xz.manifold_condition(1, 0, below) == pytest.approx(1 / below, rel=4 * EPS)
    assert "workdps" in used


def test_xu_ziyin_constants_take_float64_where_it_is_safe(monkeypatch):
    """``xu_ziyin.constants`` evaluates in float64 where every input and A, B, C, D lie in
    the safe range, and at 17+ digits in mpmath only outside it (seed-16 survivor
    ``trajectory.py:626``: the range test's ``|`` made ``**``, a bool power that is 1 for
    two False, sent every input to mpmath: the same numbers, slowly; a spy)."""
    precisions = []
    real = xz_trajectory._constants_at

    def spy(checked, d, dps):
        precisions.append(dps)
        return real(checked, d, dps)

    monkeypatch.setattr(xz_trajectory, "_constants_at", spy)
    args = (1, 0.5, 0.7, 2.2, 1.5, 3, 1.0, 2.0)
    ordinary = xz.constants(*args)
    assert precisions == [None]
    tiny = xz.constants(*args[:6], 1e-300, 2.0)  # P = 1e-300: outside [2^-250, 2^250]
    # (float64 first, then the range test sends it to mpmath)
    assert precisions[1:] == [None, xz_trajectory.EXTENDED_DPS]
    assert ordinary["t_c"] > 0 and tiny["t_c"] > 0
    # inputs in range and A = gamma^2 d rho^2 P = 2^-256.1, inside [2^-500, 2^500] (the
    # square of the input range): float64 only (a bound of 2 * 2^-250 for the square sent
    # it to mpmath: a seed-20 survivor)
    del precisions[:]
    small = xz.constants(1, 0.5, 2.0**-10, 2.2, 1.5, 3, 2.0**-240, 2.0)
    A = (2.0**-10) ** 2 * 3 * 2.2**2 * 2.0**-240  # the case's A (eq. (8)), for the record
    assert 2.0**-257 < A < 2.0**-249 and precisions == [None] and small["t_c"] > 0


def test_kunin_delta_continuity_measures_the_linear_change():
    """The claim that the balanced solution is the limit of unbalanced ones measures
    |a(delta) - a(0)| against 2 C |delta| (C the slope from delta = 1e-12): a(delta) is
    smooth in delta, so the change is C |delta| to first order and the worst ratio is 1/2
    (measured 0.500000000001; seed-16 survivor ``numeric_checks.py:50``: the ratio made a
    power, change ** bound ~ 1, still "confirmed" at the edge)."""
    from solvable.models.kunin import numeric_checks as kunin_checks

    verdict = kunin_checks._delta_continuity()
    assert verdict.status == "confirmed"
    assert abs(verdict.max_error - 0.5) <= 1e-6  # second order in delta ~ 1e-12 relative


def test_xu_ziyin_reported_constants_count_their_comparisons():
    """The reported-constants claim says how many comparisons it made: every case's exact
    constants at float64, dps and 2 dps (an independent recount; seed-16 survivor
    ``numeric_claims.py:129``: the count started at 1)."""
    from solvable.models.xu_ziyin import numeric_claims

    want = sum(3 * len(numeric_claims.paper_constants(c.setup, c.u0, c.W0)) for c in xz.CASES)
    verdict = numeric_claims._reported_constants()
    assert verdict.status == "confirmed"
    assert verdict.detail.startswith(f"{want} comparisons ({len(xz.CASES)} cases")


def test_kunin_wide_preconditioner_single_counts_the_pairs_it_compares(monkeypatch):
    """The claim's detail starts with the number of (case, d) pairs compared; each pair
    calls ``preconditioner`` once per precision (float64, dps, 2 dps), so the count is a
    third of the calls (seed-22 survivor ``numeric_checks.py:198``: ``n += 2``)."""
    calls, real = [], kunin_checks.preconditioner

    def counted(*args, **kwargs):
        calls.append(kwargs.get("dps"))
        return real(*args, **kwargs)

    monkeypatch.setattr(kunin_checks, "preconditioner", counted)
    verdict = kunin_checks._wide_preconditioner_single()
    assert verdict.status == "confirmed" and len(calls) % 3 == 0 and calls, calls
    assert calls[:3] == [None, 30, 60]
    assert verdict.detail.startswith(f"{len(calls) // 3} (case, d) pairs x "), verdict.detail
