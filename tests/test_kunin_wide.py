"""The exact solution of the wide linear network (seed 003 Part II, Theorem 4.2's setting):
float64 against the same closed form at 40 digits over shapes, rates, delta of both signs
and 0, s != 1 and late times (hypothesis), plus pinned edges and bad input.  The agreement
with the simulated raw flow at 30 digits is the claim ``kunin.wide_closed_form_oracle``."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solvable._core.tolerance import Tolerance, error_in_units
from solvable.models import kunin

# float64 vs 40 digits: the closed form is an SVD, a (c + d)-eigenbasis, then either the
# textbook form (small t) or C_+^{-1} and a QR of an h x (2h + m - h) factor; the rounding
# errors of the start are amplified by C_+^{-1} (traj.condition = |Q0|_F / sigma_min(C_+):
# large only near delta = 0, for starts close to a saddle's stable manifold).  Tolerance 32
# eps times max(1, condition): measured worst 7.2 eps * condition over 2000 draws.
EPS = float(np.finfo(float).eps)
TIMES = (0.0, 0.37, 3.0, 40.0, 1e3, 1e6, math.inf)


@st.composite
def wide_problems(draw):
    c = draw(st.integers(1, 3))
    d = draw(st.integers(1, 3))
    sign = draw(st.sampled_from([1, -1, 0]))
    if sign == 0 and c > d:
        sign = 1  # delta = 0 with h = c needs c <= d (W W^T positive definite)
    n = d + draw(st.integers(0, 2))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    s = draw(st.sampled_from([1.0, 0.25, 4.0, 9.0]))
    eta_a = draw(st.sampled_from([1.0, 0.3, 2.0]))
    eta_w = draw(st.sampled_from([1.0, 0.5, 3.0]))
    Qx, _ = np.linalg.qr(rng.normal(size=(n, d)))
    X = math.sqrt(s) * Qx
    Y = rng.normal(size=(n, c))
    setup = kunin.WideSetup(eta_a, eta_w, X.tolist(), Y.tolist())
    delta = sign * draw(st.sampled_from([1e-3, 0.1, 1.0, 5.0]))
    h = c if sign >= 0 else d
    size = (h, d) if sign >= 0 else (h, c)
    # the given layer: singular values in [0.2, 2] (cond(C_+) bounded)
    U, _ = np.linalg.qr(rng.normal(size=(h, h)))
    V, _ = np.linalg.qr(rng.normal(size=(size[1], size[1])))
    r = min(h, size[1])
    G = (U[:, :r] * rng.uniform(0.2, 2.0, size=r)) @ V[:r]
    if sign >= 0:
        A0, W0 = kunin.wide_start(setup, delta, W=G)
    else:
        A0, W0 = kunin.wide_start(setup, delta, A=G)
    return setup, A0, W0


def _check(problem, times=None, extra=None):
    """float64 against 40 digits at ``TIMES`` (or ``times(f64)``), to 32 eps times
    max(1, condition), plus ``extra(f64, t)`` eps where given (the other shapes' rate
    term, tests/test_kunin_wide_shapes.py)."""
    setup, A0, W0 = problem
    try:
        f64 = kunin.wide_closed_form(setup, A0, W0)
    except ValueError as exc:  # delta = 0: C_+ singular on the saddles' stable manifolds
        assume("stable manifold" not in str(exc))
        raise
    ref = kunin.wide_closed_form(setup, A0, W0, dps=40)
    base = 32 * EPS * max(1.0, f64.condition)
    worst = 0.0
    ea, ew, sc = float(setup.eta_a), float(setup.eta_w), float(f64.s)

    def stacked(state):
        # P = Q^T Q of Q = [A/sqrt(eta_a'), W/sqrt(eta_w')] (eta' = s eta): a block may pass
        # near 0 (w crosses 0, beta near a saddle), so errors are normwise over all of P
        blocks = (state.gram_a / (sc * ea), state.gram_w / (sc * ew),
                  state.beta / (sc * math.sqrt(ea * ew)))  # fmt: skip
        return np.concatenate([np.ravel(np.asarray(b, dtype=object)) for b in blocks])

    for t in TIMES if times is None else times(f64):
        F64_TOL = Tolerance(base + (0.0 if extra is None else extra(f64, t) * EPS),
                            reason="float64, cond(C_+)")  # fmt: skip
        a, b = f64.at(t), ref.at(t)
        worst = max(worst, error_in_units(stacked(a), stacked(b), F64_TOL))
        worst = max(worst, error_in_units(a.ntk, b.ntk, F64_TOL))
        # outputs X beta: relative to |X| |P| (as P); the loss (1/2 |X beta - Y|^2, formed from
        # beta: its error is ~ eps |X beta| |X beta - Y|) relative to its terms, |Y|^2 + L(0)
        pscale = float(np.max(np.abs(stacked(b).astype(float)))) * sc * math.sqrt(ea * ew)
        ot = Tolerance(F64_TOL.rtol, F64_TOL.rtol * pscale * math.sqrt(sc), "outputs")
        worst = max(worst, error_in_units(a.outputs, b.outputs, ot))
        yy = float(np.sum(np.asarray(setup.Y, dtype=float) ** 2))
        lt = Tolerance(F64_TOL.rtol, F64_TOL.rtol * (yy + float(ref.at(0).loss)), "loss")
        worst = max(worst, error_in_units([a.loss], [b.loss], lt))
        if f64.h == 1:
            qa = np.concatenate([(a.A / math.sqrt(ea)).ravel(), (a.W / math.sqrt(ew)).ravel()])
            qb = np.concatenate([(b.A / math.sqrt(ea)).ravel(), (b.W / math.sqrt(ew)).ravel()])
            worst = max(worst, error_in_units(qa, qb, F64_TOL))
    assert worst <= 1, worst
    return worst


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wide_problems())
def test_float64_matches_40_digits(problem):
    _check(problem)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wide_problems())
def test_float64_matches_40_digits_slow(problem):
    _check(problem)


def test_high_condition_start_around_the_switch():
    # the textbook form loses log10(condition) digits per e-fold of e^{2 k t} until the
    # switch to the stable form at e^{2 k_max t} = condition (commit 080c032); a start of
    # condition ~8e3 (default_rng(0) draws, delta = 1e-3) on a dense grid around the switch
    # time: a switch placed later (at condition^2) loses ~4.5 tolerances there
    setup = kunin.WideSetup(1.0, 1.0, ((1.0, 0.0), (0.0, 1.0)), ((1.0, 0.5), (-0.3, 2.0)))
    W = ((0.7318, -1.4043), (-2.6569, -0.0945))
    A0, W0 = kunin.wide_start(setup, 1e-3, W=W)

    def around_switch(f):
        assert f.condition > 1e3  # the case this test is for
        t_switch = math.log(f.condition) / (2 * max(f.rates))
        return list(np.linspace(0.5 * t_switch, 2.5 * t_switch, 41))

    _check((setup, A0, W0), around_switch)


X3 = (("0.6", "0.8", "0"), ("-0.8", "0.6", "0"), ("0", "0", "1"), ("0", "0", "0"))
Y2 = (("1", "-0.5"), ("0.3", "0.8"), ("-0.7", "0.2"), ("0.4", "1.1"))
W2 = (("0.4", "0.1", "-0.3"), ("-0.2", "0.5", "0.2"))
SETUP = kunin.WideSetup("1", "0.5", X3, Y2)


@pytest.mark.parametrize("delta", ["0.6", "0", "-0.7"])
def test_limit_is_beta_star_and_large_t(delta):
    given_ = {"W": W2} if delta != "-0.7" else {"A": (("0.3", "-0.2"), ("0.5", "0.1"),
                                                      ("-0.4", "0.6"))}  # fmt: skip
    A0, W0 = kunin.wide_start(SETUP, delta, dps=50, **given_)
    for dps in (None, 30):
        traj = kunin.wide_closed_form(SETUP, A0, W0, dps=dps)
        # float64: condition <= 2 here, 32 eps * condition as the property test; mpmath: the
        # closed form at dps + 10 digits rounded to dps
        tol = Tolerance(64 * EPS) if dps is None else Tolerance.digits(dps - 2)
        for t in (math.inf, 1e8, 1e300 if dps is None else mpmath.mpf("1e1000")):
            assert error_in_units(traj.at(t).beta, traj.beta_star, tol) <= 1, t
        with mpmath.workdps(60):
            beta0 = np.asarray(W0).T @ np.asarray(A0)
        assert error_in_units(traj.at(0).beta, beta0, tol) <= 1


def test_continuous_through_delta_zero():
    out = {}
    for dl in ("1e-12", "1e-18", "0", "-1e-18", "-1e-12"):
        # h = c = d = 2 (both sides of delta = 0 are Theorem 4.2's setting)
        setup = kunin.WideSetup("1", "1", (("1", "0"), ("0", "1")), (("1", "0.5"), ("-0.3", "2")))
        A0, W0 = kunin.wide_start(setup, dl, W=(("0.4", "0.1"), ("-0.2", "0.5")), dps=50)
        out[dl] = kunin.wide_closed_form(setup, A0, W0, dps=40).at(1).beta
    slope = max(abs(v) for v in (out["1e-12"] - out["0"]).ravel()) / mpmath.mpf("1e-12")
    for dl in ("1e-18", "-1e-18", "-1e-12"):
        change = max(abs(v) for v in (out[dl] - out["0"]).ravel())
        assert change <= 2 * slope * abs(mpmath.mpf(dl)) + mpmath.mpf(10) ** -38


def test_refusals_name_the_condition():
    A0, W0 = kunin.wide_start(SETUP, "0.6", W=W2, dps=40)
    bad = np.array(A0, dtype=float) * 1.01
    with pytest.raises(ValueError, match=r"Delta.*numerics.simulate"):
        kunin.wide_closed_form(SETUP, bad, np.array(W0, dtype=float))
    # delta > 0 with h = 1 < c = 2: a shape the balance allows (wide_shapes), solved
    assert kunin.wide_closed_form(SETUP, [["1", "0"]], [["0.1", "0", "0"]]).h == 1
    with pytest.raises(ValueError, match="stable manifold"):
        kunin.wide_closed_form(SETUP, [["0", "0"], ["0", "0"]], [["0"] * 3, ["0"] * 3])
    with pytest.raises(ValueError, match="isotropic"):
        setup = kunin.WideSetup("1", "1", (("1", "0.5"), ("0", "1")), (("1",), ("0",)))
        kunin.wide_closed_form(setup, [["1"]], [["0", "0"]])
    with pytest.raises(ValueError, match=r"W0 must have shape"):
        kunin.wide_closed_form(SETUP, A0, W0[:, :2])
    with pytest.raises(TypeError, match=r"setup must be a kunin\.WideSetup"):
        kunin.wide_closed_form(kunin.case("upstream").setup, A0, W0)
    with pytest.raises(ValueError, match="exactly one of A"):
        kunin.wide_start(SETUP, "0.1")
    with pytest.raises(ValueError, match="not positive definite"):
        kunin.wide_start(SETUP, "5", A=(("0.1", "0"), ("0", "0.1")))


def test_wide_balance_of_a_batch_is_each_items_balance():
    """``wide_balance`` of batched A (B, h, c), W (B, h, d) is Delta of each item (the
    transpose of A's last two axes, not of axes 1 and -2: that is A itself for a batch, and
    it survived the seed-18 sample, as 2-d inputs were all it was given)."""
    rng = np.random.default_rng(1)
    A, W = rng.standard_normal((3, 2, 4)), rng.standard_normal((3, 2, 5))
    got = kunin.wide_balance(A, W, 0.7, 1.3)
    for b in range(3):
        ref = 1.3 * A[b] @ A[b].T - 0.7 * W[b] @ W[b].T
        assert np.allclose(got[b], ref, rtol=1e-14, atol=1e-14), b


@pytest.mark.parametrize(("d", "c"), [(2, 3), (2, 300), (300, 1)])
def test_wide_generator_is_its_block_matrix_at_every_size(d, c):
    """``wide_generator`` is the docstring's ``[[delta'/2 I_c, kappa B^T], [kappa B,
    -delta'/2 I_d]]``, also with more than 256 rows of a block (CPython shares the int
    objects up to 256 only: an index test by identity, ``i is j``, left the diagonal of
    the larger blocks 0 and passed every smaller case, a seed-20 survivor)."""
    B = np.random.default_rng(d + c).standard_normal((d, c))
    K = kunin.wide_generator(0.75, 1.5, B)
    want = np.block([[0.375 * np.eye(c), 1.5 * B.T], [1.5 * B, -0.375 * np.eye(d)]])
    assert K.shape == (c + d, c + d) and np.array_equal(K.astype(float), want)
