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
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core.claims import Verdict
from solvable.models import kunin
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as xz
from solvable.models.kunin import numeric_checks as kunin_checks
from solvable.models.kunin import proofs as kunin_proofs
from solvable.models.kunin import wide_proofs as kunin_wide_proofs
from solvable.models.linear_node_scaling import checks as lns_checks
from solvable.models.linear_node_scaling import float64_sample as lns_f64
from solvable.models.xu_ziyin import numeric_claims as xz_claims
from solvable.models.xu_ziyin import symbolic_claims as xz_symbolic
from solvable.verification.confirmations import xu_ziyin as xz_confirm

EPS = 2.0**-52


def accepted(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` of a valid input: a refusal is a failed check, not an error."""
    try:
        return fn(*args, **kwargs)
    except (ValueError, np.linalg.LinAlgError) as exc:
        raise AssertionError(f"a valid input was refused: {exc!r}") from exc


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


def _count_fast_evaluations(monkeypatch) -> list[str]:
    """The names of the generated float64 evaluators ``linear_node_scaling``'s sample calls,
    one entry per call (a spy on ``_fast_evaluator``)."""
    calls: list[str] = []
    fast = lns_f64._fast_evaluator

    def spy(name):
        fn = fast(name)

        def counted(*args):
            calls.append(name)
            return fn(*args)

        return counted

    monkeypatch.setattr(lns_f64, "_fast_evaluator", spy)
    return calls


@pytest.mark.parametrize("T", [1000, 1024, 3000, 4096])
def test_lns_times_are_evaluated_in_chunks_of_1024(T, monkeypatch):
    """``linear_node_scaling/trajectory.py:47`` (``_CHUNK_BYTES = 1 >> 21``, seed-17 sample:
    chunks of W's block, 64 times here, the same values 64 times slower): for n, d <= 256
    the float64 sample evaluates c(t) once per chunk of ``_CHUNK_TIMES`` = 1024 times (both
    parts' mode coefficients added first, each part's once per sample; no time here needs
    the parts apart), the halves of the two threads cut at a chunk's end."""
    setup, a, W0 = _lns_setup(8, 64, 64, seed=1)
    traj = lns.closed_form(setup, a, W0)
    calls = _count_fast_evaluations(monkeypatch)
    traj.sample(np.linspace(0, 5, T))
    assert lns_f64._CHUNK_TIMES == 1024
    assert calls.count("c_of_modes") == math.ceil(T / 1024), calls
    assert (calls.count("c_modes"), calls.count("c_t")) == (2, 0), calls


@pytest.mark.parametrize("T", [872, 1800])
def test_lns_chunks_keep_to_their_byte_budget_for_wide_inputs(T, monkeypatch):
    """For d = 300 > 256 the chunk is bound by ``_CHUNK_BYTES`` (2 MiB) of times x d float64
    (873 times), rounded down to whole blocks of W (436 times of 2 MiB for m = 2): 872 times a
    chunk, so c(t) is evaluated ceil(T / 872) times (7-byte floats in the budget, 981
    times a chunk, passed the narrower tests: a seed-20 survivor)."""
    setup, a, W0 = _lns_setup(8, 300, 2, seed=2)
    traj = lns.closed_form(setup, a, W0)
    calls = _count_fast_evaluations(monkeypatch)
    traj.sample(np.linspace(0, 5, T))
    step = lns_f64._BLOCK_BYTES // (8 * 2 * 300)
    budget = lns_f64._CHUNK_BYTES // (8 * 300)
    chunk = budget - budget % step
    assert (step, chunk) == (436, 872)
    assert calls.count("c_of_modes") == math.ceil(T / chunk), calls


# ---------------------------------------------- each block of a claim can fail (outsider batch)
def _balanced_cases():
    """The kunin cases with delta = 0 exactly (Theorem 4.2's h = d = 2 holds for delta >= 0)."""

    def delta(c):
        w = np.array([Fraction(str(v)) for v in c.w0])
        rates = Fraction(str(c.setup.eta_a)), Fraction(str(c.setup.eta_w))
        return kunin.balance(Fraction(str(c.a0)), w, *rates)

    out = [c for c in kunin_checks.CASES if delta(c) == 0]
    assert out, "the suite has a balanced case"
    return out


class _Off:
    """A trajectory whose states' beta (and A) are off by ``rel`` (relative)."""

    def __init__(self, traj, rel):
        self.traj, self.rel = traj, rel

    def at(self, t):
        s = self.traj.at(t)
        return dataclasses.replace(s, beta=s.beta * (1 + self.rel))


@pytest.mark.parametrize("where", ["balanced d = 2", "dps 30 only"])
def test_kunin_wide_single_neuron_can_fail_in_every_block(where, monkeypatch):
    """``kunin_wide_single_neuron_skips_balanced`` (delta = 0 at d = 2 skipped) and
    ``kunin_wide_single_neuron_float64_only`` (the mpmath comparison dropped): a wide beta
    off by 1e-6 (float64) or 1e-20 (dps 30) relative in one block only, the balanced cases at
    d = 2 or the mpmath evaluations, fails the claim (it is confirmed as it stands)."""
    assert kunin_checks._wide_single_neuron().status == "confirmed"
    targets = {tuple(map(str, c.w0)) for c in _balanced_cases()}
    wide = kunin_checks.wide_closed_form

    def wrong(setup, A0, W0, dps=None):
        traj = wide(setup, A0, W0, dps=dps)
        hit = (tuple(map(str, W0[0])) in targets) if where == "balanced d = 2" else dps
        return _Off(traj, 1e-6 if dps is None else mpmath.mpf("1e-20")) if hit else traj

    monkeypatch.setattr(kunin_checks, "wide_closed_form", wrong)
    verdict = kunin_checks._wide_single_neuron()
    assert verdict.status == "failed", verdict.detail


def test_kunin_wide_preconditioner_single_compares_the_balanced_cases_at_d_2(monkeypatch):
    """``kunin_wide_preconditioner_single_skips_balanced``: Theorem 4.2's h = d holds for
    delta >= 0, so the balanced cases (delta = 0) at d = 2 are compared; M_L off by 1e-6
    relative there only (every precision) fails the claim."""
    assert kunin_checks._wide_preconditioner_single().status == "confirmed"
    pre = kunin_checks.wide_preconditioner

    def wrong(beta, delta, eta_a, eta_w, dps=None):
        left, right = pre(beta, delta, eta_a, eta_w, dps=dps)
        return (left * (1 + 1e-6) if delta == 0 and len(beta) == 2 else left), right

    monkeypatch.setattr(kunin_checks, "wide_preconditioner", wrong)
    verdict = kunin_checks._wide_preconditioner_single()
    assert verdict.status == "failed", verdict.detail


def test_kunin_loss_in_frame_checks_the_full_frame_from_two_rows(monkeypatch):
    """``kunin_loss_in_frame_full_from_three_rows``: the generic ("full") frame is checked
    for n = 2 rows as well as 3 (one row has parallel columns): a frame whose g is doubled
    for the full kind at n = 2 only fails the claim."""
    assert kunin_proofs._loss_in_frame().status == "proved"
    frame, gram_values, rows = kunin_proofs._frame, kunin_proofs._gram_values, []

    def values(B, *args):
        rows.append(len(B))  # the frame's B has n rows
        return gram_values(B, *args)

    def wrong(values, kind, swap):
        R, g = frame(values, kind, swap)
        return (R, 2 * g) if kind == "full" and rows[-1] == 2 else (R, g)

    monkeypatch.setattr(kunin_proofs, "_gram_values", values)
    monkeypatch.setattr(kunin_proofs, "_frame", wrong)
    assert kunin_proofs._loss_in_frame().status == "failed"


def test_xu_ziyin_stable_limits_fails_when_an_infinite_limit_is_wrong(monkeypatch):
    """``xu_ziyin_stable_limits_ignores_infinite_limits``: the claim is proved only when its
    residuals are 0 *and* every infinite limit is decided true; a failed decision of the
    limits fails it (its residuals still 0)."""
    assert xz_symbolic._stable_limits().status == "proved"
    monkeypatch.setattr(xz_symbolic, "decide",
                        lambda cases, what: Verdict("failed", f"{what}: made to fail"))  # fmt: skip
    verdict = xz_symbolic._stable_limits()
    assert verdict.status == "failed" and "made to fail" in verdict.detail


def test_xu_ziyin_stable_alpha_checks_every_piece_of_ell_but_g_zero(monkeypatch):
    """``xu_ziyin_stable_alpha_skips_n_zero_piece``: every piece of the evaluated ell but
    the first (G = 0: ell = 0, alpha = 1) is checked against log alpha; each piece doubled
    in turn fails the claim."""
    st = xz.symbolic().stable
    ell = st["ell"]
    pieces = ell.args
    assert len(pieces) >= 3
    for i in range(1, len(pieces)):
        wrong = [(2 * e if j == i else e, c) for j, (e, c) in enumerate(pieces)]
        monkeypatch.setitem(st, "ell", sp.Piecewise(*wrong, evaluate=False))
        assert xz_symbolic._stable_alpha().status == "failed", i
    monkeypatch.setitem(st, "ell", ell)
    assert xz_symbolic._stable_alpha().status == "proved"


def test_xu_ziyin_reported_constants_are_in_units_of_the_documented_tolerance():
    """``xu_ziyin_reported_constants_float_rtol``: the claim's figure is the worst error of
    every reported constant against its exact value in units of the documented tolerance:
    64 eps (1 + cond) relative in float64, 10^(1 - dps) + 4 cond 10^-(dps + 10) at dps (the
    comment above ``_pq_condition``); recounted here from ``closed_form`` and
    ``paper_constants``, to 1e-9 relative (both are float64 ratios of 80-digit numbers)."""
    dps, worst, n = 30, 0.0, 0
    for c in xz_claims.CASES:
        exact = xz_claims.paper_constants(c.setup, c.u0, c.W0)
        cond = xz_claims._pq_condition(c)
        for prec in (None, dps, 2 * dps):
            traj = xz.closed_form(c.setup, c.u0, c.W0, dps=prec)
            rtol = (64 * EPS * (1 + cond) if prec is None
                    else 10.0 ** (1 - prec) + 4 * cond * 10.0 ** -(prec + 10))  # fmt: skip
            for key, value in exact.items():
                got = getattr(traj, key.split(" ")[0])
                n += 1
                if value is None or value.is_infinite or value == 0:
                    assert got == (None if value is None else math.inf if value.is_infinite
                                   else 0), (c.name, key, got)  # fmt: skip
                    continue
                with mpmath.workdps(80):
                    e = mpmath.mpf(sp.N(value, 90))
                    worst = max(worst, float(abs(mpmath.mpf(got) - e) / (rtol * abs(e))))
    verdict = xz_claims._reported_constants(dps)
    assert verdict.status == "confirmed" and verdict.detail.startswith(f"{n} comparisons")
    assert abs(verdict.max_error - worst) <= 1e-9 * worst, (verdict.max_error, worst)


def test_xu_ziyin_a_subnormal_constant_keeps_17_digits():
    """``xu_ziyin_report_subnormal_as_float``: a constant below 2^-1022 (P ~ 1.6e-311 from
    weights of 1e-155) is reported from the 17-digit evaluation, not as a subnormal float
    (which kept 4 digits fewer): P and Q to 1e-16 relative of their exact values."""
    setup = xz.Setup("1", "2", "0.5", ["1", "-0.5"], "0.3")
    u0, W0 = ["1e-155", "2e-155"], [["1e-155", "3e-155"], ["-2e-155", "1e-155"]]
    traj = xz.closed_form(setup, u0, W0)
    exact = xz_claims.paper_constants(setup, u0, W0)
    for key in ("P", "Q"):
        with mpmath.workdps(40):
            e = mpmath.mpf(sp.N(exact[key], 50))
            assert 0 < e < 2.0**-1022
            assert abs(mpmath.mpf(getattr(traj, key)) - e) <= 1e-16 * e, (key, getattr(traj, key))


def test_kunin_huge_times_keep_their_digits_where_phi_overflows_float64():
    """``kunin_sample_max_t_or``: the vectorised float64-safe test of ``sample`` needs both
    t <= its bound *and* the exponent test; a balanced start with zero targets (delta = 0,
    Omega = 0: phi grows like t) at t = 1e50 .. 1.7e308 takes the 17-digit fallback where
    phi overflows float64 (it gave a = 0.0 for 5.4e-155 at 1.7e308).  Against dps = 30, to
    4 eps relative (one rounding of a 17-digit result, plus the float64 inputs' own)."""
    setup = kunin.Setup(1, 1, ((1, 0), (0, 1)), (0, 0))
    times = [1e50, 1e150, 1e300, 1.7e308]
    got = kunin.closed_form(setup, 5, (3, 4)).sample(times).a
    ref = kunin.closed_form(setup, 5, (3, 4), dps=30).sample(times).a
    for g, r in zip(got, ref, strict=True):
        assert abs(g - float(r)) <= 4 * EPS * abs(float(r)), (g, r)


@pytest.mark.parametrize("y", [("0.6", "0.7", "0"), ("0", "0.7", "0"), ("0.6", "0.7", "0.2")])
def test_kunin_start_on_the_line_of_beta_star_with_a_zero_component(y):
    """``kunin_exact_cperp_needs_every_component``: the exact |w_perp| of a start on the
    line of beta* is taken when *any* component of X^T y is nonzero (zeros in the others
    are common: a target orthogonal to a feature); the late loss then falls to the exact
    value (float64 against dps = 40 to 1e-12 relative: the loss is E^4 times O(1) terms
    each to a few eps; the rounding of w_perp gave 5.3e-82 for 2.9e-96 at t = 60)."""
    setup = kunin.Setup(1, 1, ((1, 0, 0), (0, 1, 0), (0, 0, 1)), y)
    w0 = tuple(str(float(Fraction(v) / 2)) for v in y)  # y / 2 exactly: on the line of beta*
    for t in (30.0, 60.0):
        got = kunin.closed_form(setup, "0.5", w0).at(t).loss
        ref = kunin.closed_form(setup, "0.5", w0, dps=40).at(t).loss
        assert abs(got - float(ref)) <= 1e-12 * float(ref), (t, got, ref)


def test_kunin_default_isotropy_rtol_takes_float_whitening_with_an_integer_row():
    """``kunin_default_rtol_needs_all_floats``: the default isotropy_rtol allows float64
    whitening (4 n eps) when *any* entry of X is a Python float; float data whitened to
    ~1e-14 with one row of integer zeros (X^T X unchanged) is accepted, as without it."""
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((200, 3)))
    Q = Q * (1 + 2e-14 * rng.standard_normal(Q.shape))
    y = tuple(float(v) for v in rng.standard_normal(201))
    rows = [tuple(float(v) for v in r) for r in Q] + [(0, 0, 0)]
    for X in (rows, [*rows[:-1], (0.0, 0.0, 0.0)]):
        traj = accepted(kunin.closed_form, kunin.Setup(1, 1, X, y), 0.3, (0.2, -0.1, 0.4))
        assert math.isfinite(traj.at(1.0).a)


def test_kunin_wide_stable_form_checks_both_signs_of_c_plus(monkeypatch):
    """``kunin_wide_stable_form_positive_c_plus_only``: the h = 1 form sign(p) core^{-1/2}
    [1, M] is checked for p < 0 as well as p > 0 (wide.py takes k["sign"] = -1 for c_+ < 0):
    a core four times too large for p < 0 only fails the claim."""
    assert kunin_wide_proofs._wide_stable_form().status == "proved"
    core = kunin_wide_proofs.riccati_core

    def wrong(Z, *args):
        out, M = core(Z, *args)
        return (4 * out if Z.shape == (1, 1) and Z[0, 0].is_negative else out), M

    monkeypatch.setattr(kunin_wide_proofs, "riccati_core", wrong)
    assert kunin_wide_proofs._wide_stable_form().status == "failed"


def test_kunin_wide_at_times_where_2_rates_t_overflows_is_the_limit():
    """``kunin_wide_converged_r_overflow_test``: where 2 k t overflows float64 (t = 1e308 with
    k ~ 1) the converged r is taken, not evaluated: the state is the limit's, as at
    1.7e308 and inf (the mutant's test of k t raised 'Singular matrix' at 1e308)."""
    setup = kunin.WideSetup(1, 1, ((1, 0), (0, 1)), ((1, 0.2), (0.5, -0.3)))
    A0, W0 = kunin.wide_start(setup, 0.1, A=((1, -0.2), (0.1, 0.8)))
    traj = kunin.wide_closed_form(setup, A0, W0)
    limit = traj.at(math.inf)
    for t in (1e308, 1.7e308):
        state = accepted(traj.at, t)
        assert np.allclose(state.beta, limit.beta, rtol=4 * EPS, atol=0), (t, state.beta)
        assert state.loss == limit.loss


def test_lns_evaluators_claim_fails_for_a_wrong_float64_limit(monkeypatch):
    """``lns_evaluators_limit_f_float64_compares_mpmath``: the float64 evaluator of (20) is
    compared (not the mpmath one twice): its f off by 1e-9 relative (1000 float64
    tolerances, far inside the mpmath result's) fails the claim."""
    assert lns_checks._evaluators_mpmath().status == "confirmed"
    limit = lns_checks.limit

    def wrong(*args, dps=None, **kwargs):
        res = limit(*args, dps=dps, **kwargs)
        return res if dps is not None else dataclasses.replace(res, f=res.f * (1 + 1e-9))

    monkeypatch.setattr(lns_checks, "limit", wrong)
    verdict = lns_checks._evaluators_mpmath()
    assert verdict.status == "failed" and "limit f float64" in verdict.detail


def test_lns_evaluators_claim_measures_mpmath_in_its_own_tolerance(monkeypatch):
    """``lns_evaluators_trajectory_mpmath_float_tolerance``: the mpmath trajectory is
    measured in the mpmath tolerance (dps - 3 digits), not the float64 one (1e-12): W off by
    1e-20 relative at dps = 30 fails the claim."""
    closed = lns_checks.closed_form

    class Off:
        def __init__(self, traj):
            self.traj = traj

        def sample(self, times):
            s = self.traj.sample(times)
            return dataclasses.replace(s, W=[w * (1 + mpmath.mpf("1e-20")) for w in s.W])

    def wrong(*args, dps=None, **kwargs):
        traj = closed(*args, dps=dps, **kwargs)
        return traj if dps is None else Off(traj)

    monkeypatch.setattr(lns_checks, "closed_form", wrong)
    assert lns_checks._evaluators_mpmath().status == "failed"


def test_lns_a_nan_time_in_an_array_is_refused_as_a_time():
    """``lns_sample_nan_time_through_fast_check``: the vectorised check of a float array of
    times lets no NaN through: refused naming times[1] as not finite (not as a state beyond
    the float64 range), as for a list."""
    setup, a, W0 = _lns_setup(3, 4, 2, seed=0)
    traj = lns.closed_form(setup, a, W0)
    for times in (np.array([1.0, math.nan]), [1.0, math.nan]):
        with pytest.raises(ValueError, match=r"times\[1\] must be finite"):
            traj.sample(times)


@pytest.mark.parametrize("scale", [2.0**-20, 1 / 8, 1.0, 8.0, 2.0**30])
def test_lns_reported_step_bound_and_beta0_at_every_scale(scale):
    """``lns_step_bound_degree_of_D`` and ``lns_beta0_lam_exponent_not_halved``: the reported
    step_bound is footnote 3's d / (D_max^2 sum lambda) (``gd_step_bounds``) for X scaled
    by powers of 2 (D scales with X: degree 2), and beta0 = sum_j sqrt(lambda_j) a_j W0_j
    for lambda of any size.  beta0 to 8 eps relative (a few roundings); step_bound to 64 eps:
    two float64 evaluations of D_max^2 (the closed form's SVD, gd_step_bounds' own), each
    with a backward error of a few n eps (measured up to 13 eps at X scaled by 2^30)."""
    rng = np.random.default_rng(7)
    X, y = scale * rng.standard_normal((3, 4)), rng.standard_normal(3)
    for lam in ([0.5, 0.25], [3.0, 1.0], [40.0, 9.0], [2.0**-40, 2.0**-50]):
        a, W0 = np.array([1.0, -1.0]), rng.standard_normal((2, 4))
        traj = lns.closed_form(ns.Setup(X, y, lam, "linear", 0.5), a, W0)
        fn, _sharp = lns.gd_step_bounds(X, np.array(lam))
        assert abs(traj.step_bound - fn) <= 64 * EPS * fn, (lam, traj.step_bound, fn)
        beta0 = (np.sqrt(lam) * a) @ W0
        assert np.allclose(traj.beta0, beta0, rtol=8 * EPS, atol=0), (lam, traj.beta0, beta0)


def test_lns_a_node_with_lambda_zero_does_not_stop_the_fused_assembly(fusable_verdicts):
    """``lns_fusable_counts_zero_nodes``: the smallest |u| = sqrt(lambda) |a| of the fusion
    test is over the nodes that move (u > 0); a node with lambda = 0 (W stays W_0) must not
    send every time to the slower two-part path (6 times: 6 fused, the mutant fused 1)."""
    rng = np.random.default_rng(2)
    X, y = rng.standard_normal((3, 4)), rng.standard_normal(3)
    traj = lns.closed_form(ns.Setup(X, y, [0.5, 0.0, 0.25], "linear", 0.5),
                           [1.0, -1.0, 1.0], rng.standard_normal((3, 4)))  # fmt: skip
    seen = fusable_verdicts
    traj.sample(np.array([0.0, 0.1, 0.5, 1.0, 3.0, 10.0]))
    assert int(np.concatenate(seen).sum()) == 6, seen


@pytest.mark.parametrize("m", [2, 3, 4, 5, 9])
@pytest.mark.parametrize("rho", ["1/2", "1/3", "0.7"])
def test_lns_pruned_mass_is_the_sum_over_the_pruned_nodes(m, rho):
    """``lns_pruned_mass_r_equals_one``: the exact pruned mass equals the float64 sum of
    lambda_{m,j} over the nodes j > floor(rho m) (r = 1 included: m = 2, rho = 1/2 is 7/20);
    the float64 sum of <= 9 positive terms to 4 m eps."""
    weights = ns.zipf("1/2")
    exact = lns.pruned_mass(m, sp.Rational(rho) if "/" in rho else rho, "1/2", weights)
    num = lns.pruned_mass_numeric(m, float(sp.Rational(rho)), 0.5, weights)
    assert abs(float(exact) - num) <= 4 * m * EPS * num, (exact, num)
    if (m, rho) == (2, "1/2"):
        assert exact == sp.Rational(7, 20)


@pytest.mark.parametrize(("block", "per_block"), [(None, 300), (22, 7)])
def test_the_fast_sample_fills_blocks_of_sample_block_elements(monkeypatch, block, per_block):
    """``SAMPLE_BLOCK`` elements per block of the (times, d) arrays (here d = 3): 300 times
    fit in one block of the default 2^17, and a block of 22 elements holds 7 times (the
    last block the 6 left). The blocks do not change a value (the small-block tests), so a
    spy on the per-block combination of u and v (two calls per block and index set of units
    and piece) reads them: a block size computed wrongly (e.g. ``2^17 % d``, 2 times per
    block) passed every value test (a seed-19 survivor)."""
    from solvable.models.xu_ziyin import float64_sample as xz_f64

    if block is not None:
        monkeypatch.setattr(xz_f64, "SAMPLE_BLOCK", block)
    real = xz_f64._two_terms
    rows: list[int] = []

    def spy(*args):
        rows.append(len(args[-2]))  # dst: the block's rows
        return real(*args)

    monkeypatch.setattr(xz_f64, "_two_terms", spy)
    c = xz.case("generic")
    traj = xz.closed_form(c.setup, c.u0, c.W0)
    assert len(c.u0) == 3
    times = np.linspace(0.0, 5.0, 300)
    got = traj.sample(times)
    expected = [per_block] * (300 // per_block) + ([300 % per_block] if 300 % per_block else [])
    sets = len(rows) // len(expected)  # u and v per index set of units, per block
    assert sets >= 1 and sorted(rows) == sorted(expected * sets), rows
    # and the values are the reference engine's
    ref = traj.sample(times, engine="reference")
    assert np.array_equal(got.u, ref.u) and np.array_equal(got.W, ref.W)
