"""The wide net's exact solution for every shape the balance allows (issue 31, item 1;
``kunin.wide_shapes``): h < c (delta > 0), h < d (delta < 0), delta = 0 with any h
(starts of rank < h included).  float64 against the same closed form at 40 digits
(hypothesis, the tolerance of ``test_kunin_wide``), the batched sample against ``at``, the
limit against late times at 40 digits, the pivot rule on starts that miss the fastest mode,
and the refusal of the shapes the balance forbids.  The agreement with the simulated raw
flow at 30 digits is the claim ``kunin.wide_shapes_oracle``."""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_kunin_wide import _check
from test_kunin_wide_sample import _check_sample, times_lists

import numerics
from solvable._core.tolerance import Tolerance, error_in_units
from solvable.models import kunin
from solvable.models.kunin import wide_shapes_proofs


@st.composite
def shape_problems(draw):
    """A start with Delta = delta I_h of a shape other than h = c / h = d (mostly)."""
    c, d = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    sign = draw(st.sampled_from([1, -1, 0]))
    width_h = c if sign > 0 else d if sign < 0 else min(c, d)
    h = draw(st.integers(1, width_h))
    n = d + draw(st.integers(0, 2))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    s = draw(st.sampled_from([1.0, 0.25, 4.0]))
    Qx, _ = np.linalg.qr(rng.normal(size=(n, d)))
    eta_a, eta_w = draw(st.sampled_from([1.0, 0.3, 2.0])), draw(st.sampled_from([1.0, 0.5, 3.0]))
    X, Y = math.sqrt(s) * Qx, rng.normal(size=(n, c))
    setup = kunin.WideSetup(eta_a, eta_w, X.tolist(), Y.tolist())
    delta = sign * draw(st.sampled_from([1e-2, 0.1, 1.0, 5.0]))
    width = d if sign >= 0 else c
    U, _ = np.linalg.qr(rng.normal(size=(h, h)))
    V, _ = np.linalg.qr(rng.normal(size=(width, width)))
    r = min(h, width)
    G = (U[:, :r] * rng.uniform(0.2, 2.0, size=r)) @ V[:r]
    A0, W0 = kunin.wide_start(setup, delta, **({"W": G} if sign >= 0 else {"A": G}))
    return setup, A0, W0


def _rate_term(f64, t) -> float:
    """The float64 error the rates' own rounding causes (in eps): the echelon form's factors
    e^{(k_j - q) t} between two growing modes that compete carry the rates' error ~eps |k|
    times t; d/dg e^{-g t} = t e^{-g t} <= 1/(e g) bounds it by the smallest gap g between
    distinct rates (a float64 start's exact solution moves that much: its rates are exact
    to ~eps |k| only).  Measured 43 eps at t = 40 with |k| = 10, g = 0.04 (a slow-run draw
    that the h = c form's 32 eps * condition missed by 3%).  0 at t = inf."""
    if math.isinf(t):
        return 0.0
    rates = sorted({float(v) for v in f64.rates})
    kmax = max(abs(v) for v in rates)
    gaps = [b - a for a, b in itertools.pairwise(rates) if b - a > 1e-12 * kmax]
    return 8 * kmax * min(t, 1 / min(gaps, default=math.inf))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_problems())
def test_float64_matches_40_digits_every_shape(problem):
    _check(problem, extra=_rate_term)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_problems())
def test_float64_matches_40_digits_every_shape_slow(problem):
    _check(problem, extra=_rate_term)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_problems(), times_lists)
def test_sample_is_at_of_each_time_every_shape(problem, times):
    _check_sample(problem, times)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape_problems())
def test_limit_is_the_late_state(problem):
    """``at(inf)`` (the limit rule: pivots by rate, ties, a rate-0 pivot giving 0) equals
    the finite-time evaluation at t = 1e30 at 40 digits (every e^{-gap t} and 1/t below
    1e-29 there, for the rate gaps of these draws)."""
    setup, A0, W0 = problem
    try:
        traj = kunin.wide_closed_form(setup, A0, W0, dps=40)
    except ValueError as exc:  # delta = 0: a start on a saddle's stable manifold
        assert "stable manifold" in str(exc)
        return
    rates = sorted({float(v) for v in traj.rates})
    gaps = [b - a for a, b in itertools.pairwise(rates)]
    if gaps and min(gaps) * 1e30 < 200:  # (rates within 1e-28: equal for the limit's rule)
        return
    far, lim = traj.at(mpmath.mpf("1e30")), traj.at(math.inf)
    for name in ("beta", "gram_a", "gram_w"):
        err = error_in_units(getattr(lim, name), getattr(far, name), Tolerance(1e-25))
        assert err <= 1, (name, err)


def _axis_setup():
    """X = I_2, Y (2 x 3) = [[2, 0, 0], [0, 1, 0]]: beta* = Y, singular planes along the
    axes (sigma = 2: A e1, W e1; sigma = 1: A e2, W e2), an A-null mode along A e3."""
    return kunin.WideSetup("1", "1", (("1", "0"), ("0", "1")), (("2", "0", "0"), ("0", "1", "0")))


def test_pivot_skips_a_mode_the_start_does_not_touch():
    """h = 1 < c = 3, delta = 1 > 0: a start with no part in the sigma = 2 plane grows along
    the sigma = 1 plane's + mode and tends to beta* there (e2 e2^T), not to the top
    singular pair; a start touching the top plane tends to 2 e1 e1^T (Eckart-Young).  At
    40 digits and in float64."""
    setup = _axis_setup()
    A0, W0 = [["0", "1", "0.5"]], [["0", "0.5"]]  # Delta = 1.25 - 0.25 = 1
    touch = [["0.001", "1", "0.5"]], [["0", "0.5"]]  # Delta = 1 + 1e-6
    for dps in (None, 40):
        tol = Tolerance(64 * 2.0**-52) if dps is None else Tolerance(1e-35)
        lim = kunin.wide_closed_form(setup, A0, W0, dps=dps).at(math.inf)
        assert error_in_units(lim.beta, [[0, 0, 0], [0, 1, 0]], tol) <= 1
        lim = kunin.wide_closed_form(setup, *touch, dps=dps).at(math.inf)
        assert error_in_units(lim.beta, [[2, 0, 0], [0, 0, 0]], tol) <= 1
        assert lim.A is not None and lim.W is not None


def test_tied_null_modes_share_the_limit():
    """h = 2 < c = 3, d = 1: beta* (1 x 3) has rank 1, so two A-null modes of one rate
    delta'/2 tie; the second row's limit is (delta'/kappa^2) times the projector onto the
    start's part in that null space.  Here eta' = kappa = 1, delta' = 1/2, sigma = 1:
    A^T A(oo) = P_AA has trace 2 Omega v_x^2 + delta' with v_x^2 = (1 + delta'/(2 Omega))/2
    (the single neuron's + eigenvector), i.e. Omega + delta'/2 + delta'; beta(oo) = beta*."""
    setup = kunin.WideSetup("1", "1", (("1",),), (("1", "0", "0"),))
    A0, W0 = kunin.wide_start(setup, "0.5", W=(("0.3",), ("-0.2",)), dps=50)
    traj = kunin.wide_closed_form(setup, A0, W0, dps=40)
    lim = traj.at(math.inf)
    with mpmath.workdps(40):
        omega = max(traj.rates)
        expected = omega + mpmath.mpf("0.25") + mpmath.mpf("0.5")
        got = sum(lim.gram_a[i, i] for i in range(3))
        assert abs(got - expected) < mpmath.mpf(10) ** -35
        assert error_in_units(lim.beta, [[1, 0, 0]], Tolerance(1e-35)) <= 1


def _forbidden(sign: int):
    """h = 2 > c = d = 1 with Delta = sign [[1.75, 0.75], [0.75, 0.25]]: its eigenvalues
    1 +- 1.06 (one of each sign: eta_w A A^T and eta_a W W^T of rank 1), max |Delta - delta
    I| = 0.75 with delta = sign 1."""
    lam, V = np.linalg.eigh(np.array([[1.75, 0.75], [0.75, 0.25]]))
    big, small = math.sqrt(lam[1]) * V[:, 1:], math.sqrt(-lam[0]) * V[:, :1]
    A, W = (big, small) if sign > 0 else (small, big)
    scale = max(float(A[i] @ A[i] + W[i] @ W[i]) for i in range(2))
    return kunin.WideSetup(1, 1, [[1.0]], [[1.0]]), A, W, scale


@pytest.mark.parametrize("sign", [1, -1])
def test_forbidden_shapes_are_refused_naming_the_balance(sign):
    """delta > 0 with h > c, delta < 0 with h > d: the balance forbids them; a balance_rtol
    that reads this Delta as delta I_2 (0.76 of its terms' size, > 0.75) reaches the shape
    refusal, one below it (0.74) the balance refusal, both pointing to numerics.simulate."""
    setup, A, W, scale = _forbidden(sign)
    side = "delta > 0 needs h <= c" if sign > 0 else "delta < 0 needs h <= d"
    with pytest.raises(ValueError, match=rf"forbids h = 2.*{side}.*numerics.simulate"):
        kunin.wide_closed_form(setup, A, W, balance_rtol=0.76 / scale)
    with pytest.raises(ValueError, match=r"delta I_h.*allows delta > 0 only for h <= c = 1"):
        kunin.wide_closed_form(setup, A, W, balance_rtol=0.74 / scale)


def test_rank_deficient_start_at_delta_zero():
    """h = 3 > c = d = 2 at delta = 0: Q0 of rank 2 (a zero row rotated in); the state is
    that of the two independent rows (A W^T ... as numerics would give: here against the
    40-digit closed form of the unrotated start, whose third row is 0)."""
    setup = kunin.WideSetup("1", "1", (("0.6", "0.8"), ("-0.8", "0.6"), ("0", "0")),
                            (("1", "-0.5"), ("0.3", "0.8"), ("-0.7", "0.2")))  # fmt: skip
    with mpmath.workdps(50):
        Ar = mpmath.matrix([["0.5", "-0.2"], ["0.3", "0.7"]])
        U = mpmath.matrix([["0.6", "0.8"], ["-0.8", "0.6"]])
        O = mpmath.matrix([["0.6", "0", "0.8"], ["0", "1", "0"], ["-0.8", "0", "0.6"]])
        pad = mpmath.matrix(3, 2)
        for i in range(2):
            for j in range(2):
                pad[i, j] = Ar[i, j]
        A, W = O * pad, O * (pad * U)
        A0 = np.array(A.tolist(), dtype=object)
        W0 = np.array(W.tolist(), dtype=object)
        A2, W2 = Ar.tolist(), (Ar * U).tolist()
    two = kunin.wide_closed_form(setup, A2, W2, dps=40)
    three = kunin.wide_closed_form(setup, A0, W0, dps=40)
    assert three.h == 3
    for t in ("0", "0.5", "3", math.inf):
        a, b = three.at(t), two.at(t)
        for name in ("beta", "gram_a", "gram_w", "loss"):
            assert error_in_units(getattr(a, name), getattr(b, name), Tolerance(1e-35)) <= 1
    f64 = kunin.wide_closed_form(setup, A0.astype(float), W0.astype(float))
    assert np.all(np.isfinite(f64.sample([0.0, 1.0, 100.0, math.inf]).beta))


def test_h1_weights_are_a_consistent_factor():
    """h = 1 (here < c, d): A, W are returned and W^T A is beta, Delta = eta_w A A^T -
    eta_a W W^T stays delta, along the trajectory and at t = inf (float64, 40 digits)."""
    setup = kunin.WideSetup("1", "0.5", (("1", "0", "0"), ("0", "1", "0"), ("0", "0", "1")),
                            (("1", "0.3", "-0.2", "0.5"), ("0.2", "-0.7", "0.4", "0.1"),
                             ("-0.3", "0.6", "0.8", "-0.4")))  # fmt: skip
    A0, W0 = kunin.wide_start(setup, "-0.4", A=(("0.3", "0.2", "-0.1", "0.4"),), dps=50)
    for dps, tol in ((None, Tolerance(64 * 2.0**-52)), (40, Tolerance(1e-35))):
        traj = kunin.wide_closed_form(setup, A0, W0, dps=dps)
        for state in traj.sample([0, 0.5, 2, 30, math.inf]):
            with mpmath.workdps(50):  # (the products at more digits than the states)
                assert error_in_units(state.W.T @ state.A, state.beta, tol) <= 1
                bal = kunin.wide_balance(state.A, state.W, 1.0, 0.5)  # (the setup's rates)
                assert error_in_units(bal, [[traj.delta]], Tolerance(tol.rtol, tol.rtol)) <= 1


def test_h2_weights_are_none():
    """h = 2 < c: A, W are None (the hidden-layer rotation is not determined in closed
    form), the Gram matrices are returned."""
    setup = _axis_setup()
    A0, W0 = kunin.wide_start(setup, "1", W=(("0.3", "0.1"), ("-0.2", "0.4")), dps=30)
    state = kunin.wide_closed_form(setup, A0, W0).at(1.0)
    assert state.A is None and state.W is None and state.gram_a.shape == (3, 3)


def test_echelon_claims_are_proved():
    assert wide_shapes_proofs._wide_echelon_form().status == "proved"
    assert wide_shapes_proofs._wide_echelon_limit().status == "proved"


def _decoupled_start(c: int):
    """h = 2 rows that decouple by modes (row 1 in the sigma = 2 plane, row 2 in the sigma
    = 1 plane and, for c = 3, the A-null mode), Delta = 0.75 I, rotated by a rational O:
    the given A0, W0 mix the rows."""
    if c == 3:
        setup = _axis_setup()
        Ar = [["1", "0", "0"], ["0", "0.6", "0.8"]]
    else:
        setup = kunin.WideSetup("1", "1", (("1", "0"), ("0", "1")), (("2", "0"), ("0", "1")))
        Ar = [["1", "0"], ["0", "1"]]
    with mpmath.workdps(50):
        O = mpmath.matrix([["0.6", "0.8"], ["-0.8", "0.6"]])
        A0 = np.array((O * mpmath.matrix(Ar)).tolist(), dtype=object)
        W0 = np.array((O * mpmath.matrix([["0.5", "0"], ["0", "0.5"]])).tolist(), dtype=object)
    return setup, A0, W0


@pytest.mark.parametrize("c", [3, 2])
def test_decoupled_rows_give_a_and_w(c):
    """h = 2 (< c = 3, and = c = d = 2): a start whose rate-group Gram matrices commute has
    A, W in closed form (Q = N^{-1/2} Y, claim kunin.wide_decoupled_weights): against the
    simulated raw flow at 30 digits (A and W themselves, not only their Gram matrices), the
    float64 ones against 40 digits, the float64 sample against at; a start perturbed off
    the decoupled set (1e-3 in one entry, Delta kept) has A = W = None."""
    setup, A0, W0 = _decoupled_start(c)
    times = ["0", "0.7", "3"]
    exact = kunin.wide_closed_form(setup, A0, W0, dps=30).sample(times)
    sim = numerics.simulate(setup, A0, W0, times, method="mpmath", dps=30)
    for k in range(len(times)):
        for name in ("A", "W"):
            got, ref = getattr(exact.at(k), name), getattr(sim.at(k), name)
            assert error_in_units(got, ref, Tolerance(1e-25)) <= 1, (name, times[k])
    f64 = kunin.wide_closed_form(setup, A0.astype(float), W0.astype(float))
    ref = kunin.wide_closed_form(setup, A0, W0, dps=40)
    ts = [0.0, 0.7, 3.0, 40.0, math.inf]
    stacked = f64.sample(ts)
    for k, t in enumerate(ts):
        for name in ("A", "W"):
            tol = Tolerance(64 * 2.0**-52 * f64.condition)
            assert error_in_units(getattr(f64.at(t), name), getattr(ref.at(t), name), tol) <= 1
            np.testing.assert_allclose(getattr(stacked, name)[k], getattr(f64.at(t), name),
                                       rtol=0, atol=8 * 2.0**-52 * 4)  # fmt: skip
    setup, A0, W0 = _decoupled_start(c)
    A1 = A0.copy()
    A1[0, 0] += mpmath.mpf("1e-3")
    with mpmath.workdps(50):  # W from wide_start: Delta = 0.75 I exactly (to 50 digits)
        A1, W1 = kunin.wide_start(setup, "0.75", A=A1.tolist(), dps=50)
    state = kunin.wide_closed_form(setup, A1, W1, dps=30).at(1)
    assert state.A is None and state.W is None


def test_echelon_claims_fail_for_wrong_forms(monkeypatch):
    """The claims exercise the package's own echelon_gram and limit_pieces: P off by 1 in
    every entry fails kunin.wide_echelon_form; the limit's weight off by sqrt 2 (1/sqrt(k)
    for 1/sqrt(2k)) fails kunin.wide_echelon_limit."""
    real_gram, real_limit = wide_shapes_proofs.echelon_gram, wide_shapes_proofs.limit_pieces

    def shifted(core_inv, Yh):
        return real_gram(core_inv, Yh) + 1

    def wrong_weight(E, rates, q, kappa, tie, sqrt):
        rows, gap, weight = real_limit(E, rates, q, kappa, tie, sqrt)
        return rows, gap, weight * sqrt(2)

    monkeypatch.setattr(wide_shapes_proofs, "limit_pieces", wrong_weight)
    assert wide_shapes_proofs._wide_echelon_limit().status == "failed"
    monkeypatch.setattr(wide_shapes_proofs, "echelon_gram", shifted)
    assert wide_shapes_proofs._wide_echelon_form().status == "failed"
