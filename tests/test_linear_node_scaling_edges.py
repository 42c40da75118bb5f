"""Edges of seed 000 Theorem 7.4's closed form (issue 14, items 1-2): every t in [0, oo] and
every scale float64 holds, float64 against the mpmath evaluation (itself checked at dps = 30
against dps = 60), and sampled cases against the raw-flow simulation."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import numerics
from solvable._core.tolerance import Tolerance, error_in_units
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns

EPS = float(np.finfo(float).eps)
MAX_COND = 30.0  # data drawn with cond(X) <= 30 (conditioning enters the tolerances below)
SUB = 20 * 4.9e-324  # 20 subnormal spacings (see _errors)
BIG = 1e290  # a refused state must have a reference quantity this close to float64's 1.8e308


def _need(ok):
    assert ok, "the fixed test data must have cond(X) <= MAX_COND"


def _setup(seed, n, d, m, sx, sy, sl, sw, eta, check=_need):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    s = np.linalg.svd(X, compute_uv=False)
    check(s[-1] > 0 and s[0] / s[-1] <= MAX_COND)
    y = rng.normal(size=n) * sy
    lam = rng.uniform(0.1, 1.0, m) * sl
    a = rng.choice([-1.0, 1.0], m)
    W0 = rng.normal(size=(m, d)) * sw
    setup = ns.Setup((X * sx).tolist(), y.tolist(), lam.tolist(), "linear", eta)
    return setup, a.tolist(), W0.tolist(), s[0] / s[-1]


def _mp(v):
    return np.array(np.asarray(v, dtype=object).tolist(), dtype=object)


def _scales(st_ref, W0, y):
    """The natural scales of W(t) and f(t) (the reference's, at 60 digits): the output and the
    weights are sums of terms of these sizes, so their rounding error is relative to them."""
    with mpmath.workdps(60):
        amax = lambda v: max((abs(mpmath.mpf(x)) for x in np.ravel(v)), default=mpmath.mpf(0))  # noqa: E731
        sW = amax(W0) + amax(st_ref.W)
        sf = amax(y) + amax(st_ref.f)
    return sW, sf


def _y_term(setup, a):
    """The size of the terms of W's y-part sqrt(lam) a (sqrt(d) V D^-1 U^T y)^T / S: each
    entry of U^T y is a sum whose rounding is relative to |U|^T |y| <= |y|_1, not to the sum
    (y nearly orthogonal to the range of X cancels), so W's error scale includes
    sqrt(d) max_j sqrt(lam_j) |a_j| |y|_1 / (D_min S)."""
    with mpmath.workdps(60):
        X = mpmath.matrix(_mp(setup.X).tolist())
        D = mpmath.svd_r(X, compute_uv=False)
        dmin = min(D[i] for i in range(len(D)))
        S = mpmath.fsum(
            mpmath.mpf(lv) * mpmath.mpf(av) ** 2 for lv, av in zip(setup.lam, a, strict=True)
        )
        top = max(
            mpmath.sqrt(lv) * abs(mpmath.mpf(av)) for lv, av in zip(setup.lam, a, strict=True)
        )
        y1 = mpmath.fsum(abs(mpmath.mpf(v)) for v in setup.y)
        return mpmath.sqrt(setup.d) * top * y1 / (dmin * S)


def _errors(got, ref, W0, y, f0max, rtol, y_term=0):
    """Errors of state ``got`` against ``ref`` in units of ``rtol`` times the scales: W
    relative to |W0| + |W| + the size of its y-terms (:func:`_y_term`), f relative to |y| + |f| +
    |f_0| (the data modes mix f_0 and y), the loss (1/2 |r|^2) to first order in the residual's
    error: rtol (L + |r| s_f) + (rtol s_f)^2."""
    sW, sf = _scales(ref, W0, y)
    sW = sW + y_term
    sf = sf + f0max
    with mpmath.workdps(60):
        dW = max(
            abs(mpmath.mpf(a) - b) for a, b in zip(np.ravel(got.W), np.ravel(ref.W), strict=True)
        )
        df = max(
            abs(mpmath.mpf(a) - b) for a, b in zip(np.ravel(got.f), np.ravel(ref.f), strict=True)
        )
        L = mpmath.mpf(ref.loss)
        dL = abs(mpmath.mpf(got.loss) - L)
        rnorm = mpmath.sqrt(2 * L)
        # + SUB: float64 values below 2.2e-308 are subnormal (absolute spacing 4.9e-324); the
        # float64 result is one rounding of each entry there, 20 spacings leave a margin
        units = [dW / (rtol * sW + SUB), df / (rtol * sf + SUB),
                 dL / (rtol * (L + rnorm * sf) + (rtol * sf) ** 2 + SUB)]  # fmt: skip
        return float(max(units))


def _f0max(setup, a, W0):
    """The natural scale of f_0 = X beta_0/sqrt(d), beta_0 = sum_j sqrt(lam_j) a_j w_j: the
    size of its terms, |X| sum_j |sqrt(lam_j) a_j w_j| (float64 rounds the terms; where they
    cancel, e.g. seed 150 of the slow run with beta_0 ~ 1e-3 of its terms ~ 84, the error is
    eps times the terms, not times f_0)."""
    with mpmath.workdps(60):
        X = mpmath.matrix(_mp(setup.X).tolist())
        absX = mpmath.matrix([[abs(X[i, k]) for k in range(X.cols)] for i in range(X.rows)])
        b = [mpmath.fsum(abs(mpmath.sqrt(setup.lam[j]) * a[j] * W0[j][i]) for j in range(setup.m))
             for i in range(setup.d)]  # fmt: skip
        f0 = absX * mpmath.matrix(b) / mpmath.sqrt(setup.d)
        return max(abs(v) for v in f0)


_exp = st.floats(-300, 300)
_times = st.one_of(st.just(0.0), st.just(math.inf), st.floats(-300, 300).map(lambda e: 10.0**e))


def _check(seed, n, d, m, ex, ey, el, ew, ee, t, check=_need):
    scale = lambda e: 10.0**e  # noqa: E731
    setup, a, W0, cond = _setup(seed, n, d, m, scale(ex), scale(ey), scale(el), scale(ew),
                                scale(ee), check)  # fmt: skip
    ref30 = lns.closed_form(setup, a, W0, dps=30).at(t)
    ref60 = lns.closed_form(setup, a, W0, dps=60).at(t)
    f0max = _f0max(setup, a, W0)
    # the reference: 30 digits against 60 agree to 30 - 6 digits (the SVD's backward error
    # amplified by cond(X)^2 <= 900 and O(10) terms; mpmath works at dps + 10 guard digits)
    y_term = _y_term(setup, a)
    err_ref = _errors(ref30, ref60, W0, setup.y, f0max, 1e-24, y_term)
    assert err_ref <= 1, f"dps 30 vs 60: {err_ref:.3g} tolerances"
    # float64: backward error eps of the SVD of the mantissas, amplified by cond(X)^2 (beta_inf
    # and the projector V V^T), 16 for the sums over n, d, m <= 4 and the products of U, D, V
    rtol = 16 * EPS * cond**2
    try:
        got = lns.closed_form(setup, a, W0).at(t)
    except ValueError as exc:
        assert "float64 range" in str(exc), str(exc)
        sW, sf = _scales(ref60, W0, setup.y)
        big = max(sW, sf + f0max, mpmath.mpf(ref60.loss), (EPS * (sf + f0max)) ** 2)
        assert big > BIG, f"refused although every reference value is {big} < {BIG}"
        return 0.0
    assert np.all(np.isfinite(got.W)) and np.all(np.isfinite(got.f)) and np.isfinite(got.loss)
    err = _errors(got, ref60, W0, setup.y, f0max, rtol, y_term)
    assert err <= 1, f"float64 vs dps 60: {err:.3g} tolerances (rtol {rtol:.2g})"
    _check_reported(setup, a, W0, rtol)
    return err


def _check_reported(setup, a, W0, rtol):
    """The reported constants of the float64 path (computed from power-of-two-scaled
    mantissas and scaled back: ``beta_inf`` by ``2^(e_y - e_X)``, ``beta0``, ``S``, the
    rates) against the 60-digit path, normwise relative at the states' ``rtol`` (the same
    SVD and sums produce them); a constant outside the float64 range is refused above."""
    try:
        traj = lns.closed_form(setup, a, W0)
    except ValueError as exc:
        assert "float64 range" in str(exc), str(exc)
        return
    ref = lns.closed_form(setup, a, W0, dps=60)
    top = mpmath.mpf(np.finfo(float).max)
    for name in ("beta_inf", "beta0", "rates", "S"):
        got = np.atleast_1d(np.asarray(getattr(traj, name), dtype=float))
        with mpmath.workdps(60):
            want = [mpmath.mpf(v) for v in np.atleast_1d(getattr(ref, name))]
            # beyond the largest float64 the correctly rounded value is +-inf (a rate of a
            # flow on data near the top of the range); it must be that, and only there
            over = [abs(v) > top * (1 + EPS) for v in want]
            for g, v, o in zip(got, want, over, strict=True):
                assert (g == math.copysign(math.inf, v)) if o else math.isfinite(g), (name, g, v)
            pairs = [(g, v) for g, v, o in zip(got, want, over, strict=True) if not o]
            scale = max((abs(v) for _, v in pairs), default=mpmath.mpf(0))
            if name == "beta0":
                # beta0 = W0^T (s a) is a sum over the m nodes: float64 computes it to eps
                # times the sum of the magnitudes of its terms, not of beta0 itself (the
                # terms cancel: seed 11953965 has terms of 8 summing to 0.036)
                sa = [mpmath.sqrt(mpmath.mpf(lam)) * mpmath.mpf(aj)
                      for lam, aj in zip(setup.lam, a, strict=True)]  # fmt: skip
                scale = max(scale, max(mpmath.fsum(abs(c * mpmath.mpf(row[k]))
                                                   for c, row in zip(sa, W0, strict=True))
                                       for k in range(len(W0[0]))))  # fmt: skip
            diff = max((abs(mpmath.mpf(float(g)) - v) for g, v in pairs), default=mpmath.mpf(0))
        # + one float64 rounding of each entry (2^-53 of the scale) and a subnormal's spacing
        assert diff <= (rtol + EPS) * scale + 5e-324, f"{name}: {diff} vs scale {scale}"


_CASE = dict(
    seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4), d=st.integers(1, 4),
    m=st.integers(1, 3), ex=_exp, ey=_exp, el=_exp, ew=_exp, ee=st.floats(-6, 6), t=_times,
)  # fmt: skip
_WORST = [0.0]


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(**_CASE)
def test_float64_matches_mpmath_at_every_scale(seed, n, d, m, ex, ey, el, ew, ee, t):
    _check(seed, n, d, m, ex, ey, el, ew, ee, t, assume)


@pytest.mark.slow
@settings(
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(**_CASE)
def test_float64_matches_mpmath_at_every_scale_slow(seed, n, d, m, ex, ey, el, ew, ee, t):
    _WORST[0] = max(_WORST[0], _check(seed, n, d, m, ex, ey, el, ew, ee, t, assume))
    print(f"worst so far {_WORST[0]:.3g}")


@pytest.mark.parametrize("t", [0.0, 1e-300, 1.0, 1e8, 1e15, 1e300, math.inf])
@pytest.mark.parametrize("scale", [1e-300, 1e-160, 1.0, 1e150])
def test_pinned_edges(t, scale):
    # each scale on each argument at once (X and W0 small / large, lam and y alike), eta = 1
    for which in ("X", "y", "lam", "W0"):
        s = {k: (scale if k == which else 1.0) for k in ("X", "y", "lam", "W0")}
        ex, ey, el, ew = (math.log10(s[k]) for k in ("X", "y", "lam", "W0"))
        _check(7, 3, 4, 3, ex, ey, el, ew, 0.0, t)


def test_limit_is_t_infinity_and_has_no_nan():
    setup, a, W0, _ = _setup(3, 3, 4, 2, 1.0, 1.0, 1.0, 1.0, 1.0)
    tr = lns.closed_form(setup, a, W0)
    lim = lns.limit(np.array(setup.X), np.array(setup.y), np.array(setup.lam), a, W0)
    # t = inf and t = 1e300 are the limit (19) to float64 rounding of the O(1) entries
    tol = Tolerance(rtol=1e-13, reason="(19) via limit() vs the trajectory: two float64 "
                    "evaluations of O(1) entries, cond(X) < 30")  # fmt: skip
    for t in (math.inf, 1e300):
        assert error_in_units(tr.at(t).W, lim.W_inf, tol) <= 1
    # the rates underflow (X 1e-300) and overflow (eta 1e6, X 1e200): no NaN, log_rates exact
    small = ns.Setup((np.array(setup.X) * 1e-300).tolist(), setup.y, setup.lam, "linear", 1)
    st_inf = lns.closed_form(small, a, W0).at(math.inf)
    assert np.all(np.isfinite(st_inf.W)) and np.isfinite(st_inf.loss)
    assert np.all(np.abs(st_inf.W) > 1e250)  # W moves by ~ y / X to fit the data


def test_overflow_is_refused_with_a_clear_message():
    setup, a, W0, _ = _setup(3, 3, 4, 2, 1.0, 1e300, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="float64 range"):
        lns.closed_form(setup, a, W0).at(1.0)
    big = ns.Setup(setup.X, setup.y, setup.lam, "linear", 1)
    # the same setup at dps = 20 has no exponent limit
    assert mpmath.mpf(lns.closed_form(big, a, W0, dps=20).at(1.0).loss) > mpmath.mpf("1e500")


@pytest.mark.parametrize("seed", [1, 2])
def test_edge_case_matches_raw_flow(seed):
    # X at 1e-3 (slow rates), W0 at 1e3, lam at 1e-2: the raw flow by the Taylor method at 30
    # digits (error-controlled to 1e-50 per step) against the closed form at dps = 30
    setup, a, W0, _ = _setup(seed, 3, 2, 2, 1e-3, 1.0, 1e-2, 1e3, 1e6)
    times = [0.0, 0.5, 2.0]
    sim = numerics.simulate(setup, a, W0, times, method="mpmath", dps=30)
    tr = lns.closed_form(setup, a, W0, dps=30).sample(times)
    tol = Tolerance.digits(
        20,
        "Taylor flow at 30 digits vs the closed form at 30 digits: "
        "10 digits margin for cond(X)^2 <= 900 and the 1e6 range of scales",
    )
    for k in range(len(times)):
        assert error_in_units(sim.W[k], tr.W[k], tol) <= 1
        assert error_in_units(sim.f[k], tr.f[k], tol) <= 1


def test_a_valid_time_array_skips_the_per_time_checks(monkeypatch):
    """A float64 sample of a numeric array of times >= 0 (or +inf) is taken as it is, without
    one Python check per time (mutant trajectory.py:198 ``times >= 0`` made ``== 0``: every
    array but all zeros went through the per-time checks, the same numbers, slowly); an array
    with a bad time, or a list, goes through them and a bad time is refused by name."""
    from solvable.models.linear_node_scaling import float64_sample as lns_f64

    calls = []
    real = lns_f64._check_times
    monkeypatch.setattr(lns_f64, "_check_times",
                        lambda times, *a: calls.append(len(times)) or real(times, *a))  # fmt: skip
    setup, a, W0, _ = _setup(0, 5, 3, 4, 1.0, 1.0, 1.0, 1.0, 0.5)
    traj = lns.closed_form(setup, a, W0)
    times = np.array([0.0, 0.5, 3.0, np.inf])
    fast = traj.sample(times)
    assert calls == []
    for t, W in zip(times, fast.W, strict=True):  # the same states as one time at a time
        np.testing.assert_array_equal(W, traj.sample([t]).W[0])
    assert calls == [1, 1, 1, 1]
    for bad in (np.array([0.5, -1.0]), np.array([np.nan]), np.array([0.5, -np.inf])):
        with pytest.raises(ValueError, match=r"times\[\d\]|must be"):
            traj.sample(bad)
    assert calls == [1, 1, 1, 1, 2, 1, 2]


@pytest.mark.parametrize(
    "X",
    [((1, 1, 1), (1, -1, 1), (1, 1, -1), (1, -1, -1)),  # full column rank, 4 x 3
     ((1, 1, 2), (1, -1, 0), (1, 1, 2), (2, -1, 1)),  # rank 2: column 3 = column 1 + 2
     ((1, 2, 0), (0, 1, 1))],  # n = 2 < d: X maps onto every y (numerical rank n)
)  # fmt: skip
def test_loss_to_zero_when_y_is_exactly_in_the_range_of_x(X):
    """y = X (-1, 2, 3) exactly (least loss 0; found by an outside reviewer): the part of y
    off the range of X is exactly 0, not the rounding of y - U U^T y (~1e-16 |y|), which was
    a floor under the loss (2.2e-30 in float64 where it falls to 9.5e-231 at t = 100; dps =
    30 off by 6e-6 relative at t = 30).  float64 and dps = 30 against dps = 200: float64 a
    few roundings per e-fold (1e-12 relative over these ~500 e-folds), dps = 30 to 1e-25.
    The other side: y 1e-12 off the range keeps its least loss |y_perp|^2 / 2 at t = oo
    (where there is an "off": not for n = 2 < d, whose X maps onto every y)."""
    y = [sum(x * c for x, c in zip(row, (-1, 2, 3), strict=True)) for row in X]
    setup = ns.Setup(X, y, [1, 1], "linear", 1)
    a0, W0 = [1, -1], [[0.5, 0.25, -0.5], [0.25, 1.0, 0.5]]
    ref = lns.closed_form(setup, a0, W0, dps=200)
    f64, hi = lns.closed_form(setup, a0, W0), lns.closed_form(setup, a0, W0, dps=30)
    times = [1.0, 10.0, 30.0, 100.0]
    want = ref.sample(times).loss
    assert float(want[-1]) < 1e-40  # the loss really falls far below eps^2 |y|^2 (~1e-30)
    for t, g, h, w in zip(times, f64.sample(times).loss, hi.sample(times).loss, want,
                          strict=True):  # fmt: skip
        assert abs(g - float(w)) <= 1e-12 * float(w), t
        assert abs(h - w) <= 1e-25 * w, t
    if len(X) <= len(X[0]):
        return
    off = [*y[:-1], y[-1] + 1e-12]
    near = lns.closed_form(ns.Setup(X, off, [1, 1], "linear", 1), a0, W0)
    with mpmath.workdps(60):  # |y_perp|^2 / 2 of the exact data, by least squares at 60 digits
        Xm = mpmath.matrix([[mpmath.mpf(v) for v in row] for row in X])
        ym = mpmath.matrix([mpmath.mpf(v) for v in off])
        U, S, _ = mpmath.svd_r(Xm)
        basis = [U[:, i] for i in range(len(S)) if S[i] > mpmath.mpf(10) ** -40]
        perp = ym - sum((b * (b.T * ym)[0] for b in basis), mpmath.matrix(len(off), 1))
        floor = float(mpmath.fsum(v * v for v in perp) / 2)
        size = float(mpmath.sqrt(mpmath.fsum(v * v for v in ym)))
    # float64's y - U U^T y is known to a few roundings of |y| absolute (an SVD's U, two
    # products: 8 eps |y|), so the floor |y_perp|^2 / 2 to twice that relative to |y_perp|
    rel = 2 * 8 * EPS * size / math.sqrt(2 * floor)
    assert 0 < floor and rel < 0.1  # a floor float64 can see: not 0, not rounding noise
    for t in (100.0, math.inf):
        assert abs(near.at(t).loss - floor) <= rel * floor, t


def test_the_exact_range_test_runs_only_where_rounding_cannot_tell(monkeypatch):
    """The rational test of y in the range of X (work ~ n d min(n, d) rational products, 0.4
    s at n = 28, d = 108) runs only for a y within rounding of the range: not where X has
    numerical rank n (it maps onto every y), nor for a y visibly off it; a spy counts it."""
    from solvable.models.linear_node_scaling import trajectory as lns_trajectory

    calls = []
    real = lns_trajectory._in_range_exactly
    monkeypatch.setattr(lns_trajectory, "_in_range_exactly",
                        lambda setup: calls.append(setup.n) or real(setup))  # fmt: skip
    a0, W0 = [1, -1], [[0.5, 0.25, -0.5], [0.25, 1.0, 0.5]]
    wide = ns.Setup(((1, 2, 0), (0, 1, 1)), (1, -1), [1, 1], "linear", 1)  # rank n = 2
    tall = ((1, 1, 1), (1, -1, 1), (1, 1, -1), (1, -1, -1))
    off = ns.Setup(tall, (1, 0, 0, 0), [1, 1], "linear", 1)  # |y_perp| = 1/2
    on = ns.Setup(tall, (4, 0, -2, -6), [1, 1], "linear", 1)  # X (-1, 2, 3)
    for setup in (wide, off):
        lns.closed_form(setup, a0, W0)
    assert calls == []
    assert lns.closed_form(on, a0, W0).at(math.inf).loss == 0.0
    assert calls == [4]
