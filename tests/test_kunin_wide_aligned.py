"""kunin.wide_closed_form on inputs that are not whitened (issue 31, item 3a): the aligned
condition and the reduced balance from both sides (rank-deficient ``X^T X = s P`` from any
start; ``X^T Y`` and ``X^T X W0^T`` in one eigenspace; ``Delta_E = Delta + eta_a W_N W_N^T``
isotropic), float64 against dps = 40 of the same closed form (hypothesis) and against the raw
flow, t = inf against t = 1e30, ``X = 0``, exact and float entries, ``alignment_rtol``, the
mode-decoupled case that ``deep_linear.closed_form`` solves, the claims and the testing oracle
(a wrong trajectory fails)."""

from __future__ import annotations

import math
from fractions import Fraction as Fr

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, example, given, settings, target
from hypothesis import strategies as st

import numerics
from solvable import deep_linear, kunin, testing
from solvable._core.exact_gram import to_fraction
from solvable._core.tolerance import Tolerance, error_in_units
from solvable.models.kunin import wide_aligned_proofs
from solvable.verification.confirmations import kunin as kunin_confirmations
from solvable.verification.wide_aligned_oracle import wide_aligned_oracle

EPS = 2.0**-52
# an orthogonal frame of R^4, each row of norm 2, off every axis: a, b span the range of X
FRAME = np.array([[1, 1, 1, 1], [1, -1, 1, -1], [1, 1, -1, -1], [1, -1, -1, 1]])


def _X(sigma: tuple[float, float, float, float]) -> tuple[tuple[float, ...], ...]:
    """``X = diag(sigma) FRAME``: ``X^T X`` has the eigenvalue ``4 sigma_i^2`` on row ``i``."""
    return tuple(tuple(float(sigma[i] * FRAME[i, j]) for j in range(4)) for i in range(4))


def _row(*coef: float) -> tuple[float, ...]:
    """``sum_i coef_i FRAME_i`` (exact for dyadic coefficients)."""
    return tuple(float(v) for v in np.array(coef, dtype=float) @ FRAME)


def _decoupled(pair0, pair1, m, scale=1.0):
    """h = 2, rates (eta_a, eta_w) = (2, 1/2), data with X^T Y / s = [u_0 y_0, u_1 y_1]: unit
    i on mode i (A_i = alpha_i e_i, W_E,i = w_i FRAME_i / 2), W_N = m [FRAME_2; FRAME_3] / 2
    (W_N W_N^T = m^2 I); Delta_E = (alpha^2 / 2 - 2 w^2) I for Pythagorean pairs."""
    A = ((pair0[0] * scale, 0.0), (0.0, pair1[0] * scale))
    W = (_row(pair0[1] * scale / 2, 0, m / 2, 0), _row(0, pair1[1] * scale / 2, 0, m / 2))
    return A, W


RANK2 = _X((1.0, 1.0, 0.0, 0.0))  # X^T X = 4 P, ker X = span(FRAME_2, FRAME_3)
Y_DEC = ((1.2, 0.0), (0.0, 0.8), (0.4, 0.1), (-0.2, 0.3))
DEC = kunin.WideSetup(2.0, 0.5, RANK2, Y_DEC)
# (alpha, w) = (2 p, q) of the dyadic Pythagorean pairs p^2 - q^2 = 1 (5/4, 3/4), (17/8,
# 15/8): Delta_E = 2 sign I exactly in float64 (a start balanced only to rounding has a
# trajectory of its own, ~1e-17 away from the balanced closed form)
PAIRS = {1: ((2.5, 0.75), (4.25, 1.875)), -1: ((1.5, 1.25), (3.75, 2.125)),
         0: ((1.0, 0.5), (1.5, 0.75))}  # fmt: skip


def _normwise(got, ref) -> float:
    with mpmath.workdps(40):
        g = [mpmath.mpf(v) for v in np.ravel(np.asarray(got, dtype=object))]
        r = [mpmath.mpf(v) for v in np.ravel(np.asarray(ref, dtype=object))]
        top = max((abs(v) for v in r), default=mpmath.mpf(0))
        diff = max((abs(a - b) for a, b in zip(g, r, strict=True)), default=mpmath.mpf(0))
        return float(diff / top) if top else float(diff)


# ---------------------------------------------------------------------------
# the conditions, both sides
# ---------------------------------------------------------------------------
def test_rank_deficient_inputs_from_any_h1_start():
    setup = kunin.WideSetup(1.0, 0.5, RANK2, ((0.6, -0.2), (0.3, 0.5), (0.4, 0.1), (0.2, 0.3)))
    W0 = (_row(0.25, -0.125, 0.5, 0.375),)
    traj = kunin.wide_closed_form(setup, ((1.0, 0.5),), W0)
    assert isinstance(traj, kunin.AlignedWideTrajectory)
    assert traj.s == 4.0
    assert np.array_equal(traj.w_kernel, np.array([_row(0, 0, 0.5, 0.375)]))
    # the loss floor from its definition (|Y|^2 - |X^T Y|^2 / s) / 2, in rationals
    X = np.array([[Fr(v) for v in r] for r in RANK2])
    Y = np.array([[Fr(v) for v in r] for r in setup.Y])
    q = X.T @ Y
    assert traj.loss_floor == float(((Y * Y).sum() - (q * q).sum() / 4) / 2)
    assert np.array_equal(traj.beta_star, np.array(q / 4, dtype=float))
    # W's part on ker X stays the start's at every time, t = inf included
    states = traj.sample([0.0, 1.0, 10.0, math.inf])
    on_kernel = states.W @ FRAME[2:].T / 4
    assert np.allclose(on_kernel, [[[0.5, 0.375]]] * 4, rtol=0, atol=1e-15)


def test_isotropic_inputs_keep_the_whitened_trajectory():
    setup = kunin.WideSetup(1, 1, (("0.6", "0.8"), ("-0.8", "0.6")), (("1",), ("2",)))
    assert type(kunin.wide_closed_form(setup, [["1"]], [["0.5", "0.5"]])) is kunin.WideTrajectory


def test_weights_on_two_eigenvalues_are_refused():
    setup = kunin.WideSetup(1, 1, _X((2.0, 1.0, 0.0, 0.0)), ((0.3,), (0.0,), (0.0,), (0.1,)))
    ok = (_row(0.25, 0, 0.5, 0),)
    assert isinstance(kunin.wide_closed_form(setup, ((0.5,),), ok), kunin.AlignedWideTrajectory)
    bad = (_row(0.25, 0.0625, 0, 0),)
    with pytest.raises(ValueError, match=r"(?s)isotropic columns.*Nor is the start aligned.*"
                       r"rows of W0 must lie in ker X plus the eigenspace of X\^T Y.*"
                       r"deep_linear\.closed_form.*numerics\.simulate"):  # fmt: skip
        kunin.wide_closed_form(setup, ((0.5,),), bad)


def test_targets_on_two_eigenvalues_are_refused():
    setup = kunin.WideSetup(1, 1, _X((2.0, 1.0, 0.0, 0.0)), ((0.3, 0), (0, 0.2), (0, 0), (0, 0)))
    with pytest.raises(ValueError, match=r"(?s)isotropic columns.*columns of X\^T Y must lie in "
                       r"one eigenspace.*numerics\.simulate"):  # fmt: skip
        kunin.wide_closed_form(setup, ((0.5, 0.1),), (_row(0.25, 0, 0, 0),))


def test_zero_inputs_are_refused():
    setup = kunin.WideSetup(1, 1, ((0, 0), (0, 0)), ((1,), (2,)))
    with pytest.raises(ValueError, match=r"(?s)isotropic columns.*X = 0.*numerics\.simulate"):
        kunin.wide_closed_form(setup, ((1,),), ((0.5, 0.5),))


@pytest.mark.parametrize("sign", [1, -1, 0])
def test_reduced_balance_both_sides(sign):
    A0, W0 = _decoupled(*PAIRS[sign], 0.25)  # (dyadic: every sum exact in float64)
    traj = kunin.wide_closed_form(DEC, A0, W0)
    assert traj.delta_reduced == 2.0 * sign
    assert traj.delta == 2.0 * sign - 2.0 * 0.25**2  # - eta_a m^2
    # balanced as given (Delta(0) = delta I, wide_start on the whole W0): accepted where W_N
    # W_N^T = m^2 I, refused where it is not (then Delta_E = Delta + eta_a W_N W_N^T is not)
    A1, W1 = kunin.wide_start(DEC, 0.5 * sign, W=W0)
    assert math.isclose(kunin.wide_closed_form(DEC, A1, W1).delta, 0.5 * sign, abs_tol=1e-14)
    W_bad = (W0[0], tuple(v + 0.5 * k for v, k in zip(W0[1], FRAME[2] / 2, strict=True)))
    A_bad, W_bad = kunin.wide_start(DEC, 0.5 * sign, W=W_bad)
    with pytest.raises(
        ValueError,
        match=r"(?s)reduced balance Delta_E = .* = Delta\(0\) \+ "
        r"eta_a W_N W_N\^T = delta_E I_h.*W_N W_N\^T - mu I.*numerics\.simulate",
    ):
        kunin.wide_closed_form(DEC, A_bad, W_bad)


def test_undetermined_rotation_with_a_kernel_part_is_refused():
    # h = 2, a start that does not decouple by modes: with W_N = 0 the grams are returned (A,
    # W None); with W_N W_N^T = m^2 I added, beta depends on the rotation: refused
    W_E = (_row(0.2, -0.1, 0, 0), _row(0.05, 0.15, 0, 0))
    A0, W0 = kunin.wide_start(DEC, 0.6, W=W_E)
    traj = kunin.wide_closed_form(DEC, A0, W0)
    assert traj.at(1.0).A is None and traj.at(1.0).gram_w.shape == (4, 4)
    A1, W1 = kunin.wide_start(DEC, 0.6 - 2.0 * 0.01, W=W_E)  # Delta_E = 0.6 I after W_N
    W1 = W1 + np.array([_row(0, 0, 0.05, 0), _row(0, 0, 0, 0.05)])
    with pytest.raises(ValueError, match=r"does not determine A and W.*W_N != 0.*simulate"):
        kunin.wide_closed_form(DEC, A1, W1)


def test_exact_entries_decided_exactly_float_entries_to_the_tolerance():
    # X = 2 Q^T rows from a float64 QR: X^T X = 4 P only to ~eps
    Q, _ = np.linalg.qr(np.random.default_rng(3).standard_normal((3, 3)))
    X = tuple(map(tuple, np.vstack([2 * Q[:, :2].T, np.zeros((1, 3))]).tolist()))
    setup = kunin.WideSetup(1, 1, X, ((0.3, 0.1), (-0.4, 0.2), (0.2, 0.0)))
    traj = kunin.wide_closed_form(setup, ((0.5, 0.2),), ((0.1, 0.2, 0.3),))
    assert isinstance(traj, kunin.AlignedWideTrajectory)
    with pytest.raises(ValueError, match="Nor is the start aligned"):
        kunin.wide_closed_form(setup, ((0.5, 0.2),), ((0.1, 0.2, 0.3),), alignment_rtol=0)
    # exact entries: the same data as fractions of the float64 values, decided exactly
    exact = kunin.WideSetup(1, 1, tuple(tuple(Fr(v) for v in r) for r in X), setup.Y)
    with pytest.raises(ValueError, match="Nor is the start aligned"):
        kunin.wide_closed_form(exact, ((0.5, 0.2),), ((0.1, 0.2, 0.3),))
    assert isinstance(kunin.wide_closed_form(exact, ((0.5, 0.2),), ((0.1, 0.2, 0.3),),
                                             alignment_rtol=1e-12),
                      kunin.AlignedWideTrajectory)  # fmt: skip


@pytest.mark.parametrize(
    "bad, says",
    [
        (1.0, r"\[0, 1\)"),
        (-0.1, "alignment_rtol"),
        (math.nan, "alignment_rtol"),
        ("x", "alignment_rtol"),
    ],
)
def test_alignment_rtol_is_validated(bad, says):
    with pytest.raises((ValueError, TypeError), match=says):
        kunin.wide_closed_form(DEC, *_decoupled(*PAIRS[1], 0.3), alignment_rtol=bad)


def test_mode_decoupled_start_points_to_deep_linear_which_solves_it():
    # X^T X with eigenvalues 16, 4 on FRAME_0, FRAME_1; targets on both: refused here, and the
    # message's deep_linear.closed_form (L = 2) solves it, against the raw flow
    X = _X((2.0, 1.0, 0.0, 0.0))
    Y = ((0.8, 0.0), (0.0, 0.5), (0.0, 0.0), (0.0, 0.0))
    setup = kunin.WideSetup(1.0, 1.0, X, Y)
    A0, W0 = ((0.5, 0.0), (0.0, 0.3)), (_row(0.125, 0, 0, 0), _row(0, 0.1875, 0, 0))
    with pytest.raises(ValueError, match=r"deep_linear\.closed_form\(deep_linear\.Setup\("
                       r"\(eta_w, eta_a\), X, Y\), \(W0, A0\^T\)\)"):  # fmt: skip
        kunin.wide_closed_form(setup, A0, W0)
    dl = deep_linear.closed_form(deep_linear.Setup((1.0, 1.0), X, Y),
                                 (np.array(W0), np.array(A0).T), dps=30)  # fmt: skip
    times = ["0", "1", "4"]
    sim = numerics.simulate(setup, A0, W0, times, method="mpmath", dps=30)
    for k, t in enumerate(times):
        state = dl.at(t)
        assert _normwise(state.params["W1"], sim.at(k).W) < 1e-25
        assert _normwise(state.params["W2"], sim.at(k).A.T) < 1e-25


# ---------------------------------------------------------------------------
# values
# ---------------------------------------------------------------------------
TIMES = [0.0, 0.3, 1.0, 4.0, 12.0]


def _check(setup, A0, W0, times=TIMES):
    """float64 against 40 digits of the same closed form, as tests/test_kunin_wide.py measures
    the whitened one: the grams and beta normwise over P = Q^T Q (a block may pass near 0:
    beta(0) = 0 for W0 in ker X is ~eps |P| in float64, ~1e-64 at 40 digits), to 64 eps
    max(1, condition) (the reduced trajectory's 32 eps bound, doubled for the sums with the
    kernel part W_N, exact rationals rounded once); the NTK normwise, the outputs relative to
    |X| |P|, the loss relative to its terms |Y|^2 + L(0); A, W (where returned) normwise."""
    try:
        f64 = kunin.wide_closed_form(setup, A0, W0)
    except ValueError as exc:  # delta_E = 0: a start on a saddle's stable manifold
        assume("stable manifold" not in str(exc))
        raise
    ref = kunin.wide_closed_form(setup, A0, W0, dps=40)
    assert type(f64) is kunin.AlignedWideTrajectory
    tol = Tolerance(64 * EPS * max(1.0, f64.condition), reason="float64, cond(C_+), W_N")
    ea, ew, sc = float(setup.eta_a), float(setup.eta_w), float(f64.s)

    def stacked(state):
        blocks = (state.gram_a / (sc * ea), state.gram_w / (sc * ew),
                  state.beta / (sc * math.sqrt(ea * ew)))  # fmt: skip
        return np.concatenate([np.ravel(np.asarray(b, dtype=object)) for b in blocks])

    worst = 0.0
    yy = float(np.sum(np.asarray(setup.Y, dtype=float) ** 2))
    a, b = f64.sample([*times, math.inf]), ref.sample([*times, math.inf])
    for k in range(len(times) + 1):
        fa, fb = a.at(k), b.at(k)
        worst = max(worst, error_in_units(stacked(fa), stacked(fb), tol))
        worst = max(worst, error_in_units(fa.ntk, fb.ntk, tol))
        pscale = float(np.max(np.abs(stacked(fb).astype(float)))) * sc * math.sqrt(ea * ew)
        ot = Tolerance(tol.rtol, tol.rtol * pscale * math.sqrt(sc), "outputs")
        worst = max(worst, error_in_units(fa.outputs, fb.outputs, ot))
        lt = Tolerance(tol.rtol, tol.rtol * (yy + float(b.loss[0])), "loss")
        worst = max(worst, error_in_units([fa.loss], [fb.loss], lt))
        if fb.A is not None:
            qa = np.concatenate([(fa.A / math.sqrt(ea)).ravel(), (fa.W / math.sqrt(ew)).ravel()])
            qb = np.concatenate([(fb.A / math.sqrt(ea)).ravel(), (fb.W / math.sqrt(ew)).ravel()])
            worst = max(worst, error_in_units(qa, qb, tol))
    target(worst, label="float64 error in tolerance units")
    assert worst <= 1, worst
    return worst


@st.composite
def aligned_wide_problems(draw):
    """Rank-deficient X (X^T X = 4 sigma^2 P) or three eigenvalues (E, a second one, the
    kernel); h = 1 from any start in E + ker X, or h = 2 decoupled (Pythagorean pairs, W_N
    W_N^T = m^2 I, on rank-deficient X)."""
    dy = st.integers(-8, 8).map(lambda k: k / 8)
    sigma = draw(st.sampled_from([0.5, 1.0, 1.5]))
    if draw(st.booleans()):  # h = 2 decoupled
        sign = draw(st.sampled_from([1, -1, 0]))
        scale = draw(st.sampled_from([0.5, 1.0, 2.0]))
        m = draw(st.sampled_from([0.0, 0.25, 0.5]))
        y1 = draw(dy) - 1.0  # (a mode whose target opposes a balanced start: a saddle)
        setup = kunin.WideSetup(2.0, 0.5, _X((sigma, sigma, 0, 0)),
                                ((draw(dy) + 1.0, 0.0), (0.0, -y1 if sign == 0 else y1),
                                 (draw(dy), draw(dy)), (draw(dy), draw(dy))))  # fmt: skip
        return (setup, *_decoupled(*PAIRS[sign], m, scale))
    # second == sigma: X^T X = 4 sigma^2 P (rank 3); else the eigenvalues 4 sigma^2 (on E),
    # 4 second^2 (on FRAME_2) and 0 (on FRAME_3)
    second = draw(st.sampled_from([sigma, 0.25, 2.0]))
    X = _X((sigma, sigma, second, 0.0))
    Y = tuple((draw(dy), draw(dy)) for _ in range(4))
    if second != sigma:  # X^T Y in E: no target on FRAME_2's row
        Y = (*Y[:2], (0.0, 0.0), Y[3])
    c = [draw(dy) for _ in range(4)]
    if second != sigma:  # the start in E + ker X: nothing on FRAME_2
        c[2] = 0.0
    rates = draw(st.sampled_from([(0.5, 0.5), (0.25, 1.0), (1.0, 0.125)]))
    A0 = ((draw(dy), draw(dy)),)
    return kunin.WideSetup(*rates, X, Y), A0, (_row(c[0] / 4, c[1] / 4, c[2] / 4, c[3] / 4),)


# W0 = 0 on rank-3 data: beta(0) = 0 exactly, ~eps |P| in float64 (found by the slow run; a
# field-by-field relative comparison failed it by 1e60 units)
AT_ZERO = (kunin.WideSetup(0.5, 0.5, _X((0.5, 0.5, 0.5, 0.0)),
                           ((0.0, 0.0), (0.0, 0.0), (0.125, 0.0), (0.0, 0.0))),
           ((0.125, 0.0),), ((0.0, 0.0, 0.0, 0.0),))  # fmt: skip


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aligned_wide_problems())
@example(AT_ZERO)
def test_float64_against_dps40(problem):
    _check(*problem)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aligned_wide_problems())
def test_float64_against_dps40_slow(problem):
    _check(*problem)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aligned_wide_problems())
def test_against_the_raw_flow(problem):
    setup, A0, W0 = problem
    times = ["0", "0.5", "2", "6"]
    try:
        traj = kunin.wide_closed_form(setup, A0, W0, dps=25)
    except ValueError as exc:  # delta_E = 0: a start on a saddle's stable manifold
        assume("stable manifold" not in str(exc))
        raise
    exact = traj.sample(times)
    sim = numerics.simulate(setup, A0, W0, times, method="mpmath", dps=25)
    # both at 25 digits (the Taylor integrator at dps + 20, the closed form at dps + 10)
    for k in range(len(times)):
        e, s = exact.at(k), sim.at(k)
        scale = max(1.0, *(abs(float(v)) for v in (*s.A.ravel(), *s.W.ravel())))
        assert _normwise(e.beta, s.beta) < 1e-20 * scale
        assert _normwise([e.loss], [s.loss]) < 1e-20
        with mpmath.workdps(40):
            gram_w = s.W.T @ s.W
        assert _normwise(e.gram_w, gram_w) < 1e-20 * scale
        if e.A is not None:
            assert _normwise(e.W, s.W) < 1e-20 and _normwise(e.A, s.A) < 1e-20


def test_infinity_is_the_limit():
    A0, W0 = _decoupled(*PAIRS[1], 0.3)
    traj = kunin.wide_closed_form(DEC, A0, W0, dps=40)
    inf, far = traj.at(mpmath.inf), traj.at(mpmath.mpf("1e30"))
    for name in ("beta", "gram_a", "gram_w", "A", "W", "outputs"):
        assert _normwise(getattr(inf, name), getattr(far, name)) < 1e-35
    assert abs(inf.loss - far.loss) < mpmath.mpf(10) ** -35
    # the limit keeps the kernel part: beta(inf) = beta_E(inf) + W_N^T A(inf)
    with mpmath.workdps(40):
        W_N = np.array([[mpmath.mpf(v) for v in r] for r in traj.w_kernel], dtype=object)
        assert _normwise(inf.W - W_N, traj.reduced.at(mpmath.inf).W) < 1e-35
    assert kunin.wide_closed_form(DEC, A0, W0).at(math.inf).loss >= float(traj.loss_floor)


def test_at_rest_start():
    # X^T Y = 0 and W0 in ker X: nothing moves
    setup = kunin.WideSetup(1, 1, RANK2, ((0, 0), (0, 0), (1, 2), (0.5, 0)))
    A0, W0 = ((0.0, 0.0),), (_row(0, 0, 0.5, 0.25),)
    with pytest.raises(ValueError, match=r"stable manifold.*simulate"):
        kunin.wide_closed_form(setup, A0, W0)  # (A0 = 0: the reduced start is the origin)
    A1 = ((0.6, 0.8),)
    traj = kunin.wide_closed_form(setup, A1, W0)
    st_ = traj.sample([0.0, 3.0, math.inf])
    # (A, W through the reduced trajectory's evaluation: the start to a few ulps)
    assert np.allclose(st_.A, np.array([A1] * 3), rtol=4 * EPS, atol=0)
    assert np.allclose(st_.W, np.array([W0] * 3), rtol=4 * EPS, atol=0)
    assert np.all(st_.loss == float(traj.loss_floor))


def test_fraction_and_mpf_inputs():
    A0, W0 = _decoupled(*PAIRS[0], 0.25)  # (dyadic: balanced exactly in float64)
    ref = kunin.wide_closed_form(DEC, A0, W0, dps=30).at("2")
    Af = tuple(tuple(Fr(v) for v in r) for r in A0)
    Wm = tuple(tuple(mpmath.mpf(v) for v in r) for r in W0)
    got = kunin.wide_closed_form(DEC, Af, Wm, dps=30).at("2")
    assert _normwise(got.W, ref.W) == 0 and _normwise(got.beta, ref.beta) == 0
    assert to_fraction(mpmath.mpf(-0.25)) == Fr(-1, 4)  # (exact_gram.to_fraction's sign)


def _scaled(scale):
    setup = kunin.WideSetup(1.0, 1.0, _X((scale, scale, 0, 0)),
                            ((0.5, 0.1), (-0.3, 0.2), (0.4, 0.0), (0.2, 0.1)))  # fmt: skip
    return setup, ((0.8, 0.1),), (_row(0.05, -0.025, 0.075, 0),)


@pytest.mark.parametrize("scale", [1e-100, 1e-30, 1e30, 1e100])
def test_float64_at_extreme_scales(scale):
    # s = 4 scale^2 far from 1: the reduced setup is evaluated as X = 2^j I, rates (s/4^j)
    # eta, which float64 normalises exactly (measured <= 1.2e-15 relative against 30 digits)
    setup, A0, W0 = _scaled(scale)
    times = [0.0, 1.0 / scale**2, math.inf]
    f = kunin.wide_closed_form(setup, A0, W0).sample(times)
    m = kunin.wide_closed_form(setup, A0, W0, dps=30).sample(times)
    for name in ("W", "beta", "loss", "ntk", "outputs"):
        assert np.all(np.isfinite(getattr(f, name)))
        assert _normwise(getattr(f, name), getattr(m, name)) < 1e-14, name


@pytest.mark.parametrize("scale", [1e-160, 1e160])
def test_float64_refuses_s_beyond_its_range_and_dps_solves_it(scale):
    setup, A0, W0 = _scaled(scale)
    with pytest.raises(ValueError, match=r"(?s)reduced problem.*s = 4\.0e[-+]320.*pass dps"):
        kunin.wide_closed_form(setup, A0, W0)
    traj = kunin.wide_closed_form(setup, A0, W0, dps=20)
    assert traj.at(mpmath.inf).loss >= traj.loss_floor > 0


# ---------------------------------------------------------------------------
# claims, confirmation, testing oracle
# ---------------------------------------------------------------------------
def test_reduction_is_proved():
    v = wide_aligned_proofs._wide_aligned_reduction()
    assert v.status == "proved", v.detail


@pytest.mark.parametrize("off", [{"y2": sp.Symbol("e", positive=True)},
                                 {"c2": sp.Symbol("e", positive=True)}])  # fmt: skip
def test_the_reduction_proof_fails_off_the_condition(off):
    assert wide_aligned_proofs._wide_aligned_reduction(**off).status == "failed"


def test_claims_are_registered():
    assert "kunin.wide_aligned_reduction" in {c.id for c in kunin.claims()}
    assert "kunin.wide_aligned_oracle" in {c.id for c in kunin_confirmations.claims()}


def test_confirmation_at_30_digits():
    v = wide_aligned_oracle(dps=30)
    assert v.status == "confirmed", v.detail


def test_confirmation_fails_on_a_wrong_kernel_part(monkeypatch):
    real = kunin.AlignedWideTrajectory._map

    def shifted(self, red):
        out = real(self, red)
        fields = out.arrays()
        with mpmath.workdps(40):
            fields["beta"] = fields["beta"] + mpmath.mpf(10) ** -20
        return type(out)(out.state_type, fields)

    monkeypatch.setattr(kunin.AlignedWideTrajectory, "_map", shifted)
    name = "rank 2, h = 1, delta > 0, W_N != 0"
    assert wide_aligned_oracle(dps=30, cases=[name]).status == "failed"


def test_testing_oracle_accepts_the_new_setups_and_fails_a_wrong_trajectory():
    A0, W0 = _decoupled(*PAIRS[1], 0.3)
    oracle = testing.kunin_wide(DEC, A0, W0)
    times = [0.0, 0.5, 2.0]
    sim = numerics.simulate(DEC, A0, W0, times, method="scipy")
    oracle.check(times, sim.A, sim.W, rtol=1e-6)
    with pytest.raises(AssertionError):
        oracle.check(times, sim.A, sim.W + 1e-3 * FRAME[2] / 2, rtol=1e-6)  # a moved W_N
    # h = 1 on rank-deficient data, A and W compared
    setup = kunin.WideSetup(1.0, 0.5, RANK2, ((0.6, -0.2), (0.3, 0.5), (0.4, 0.1), (0.2, 0.3)))
    A1, W1 = ((1.0, 0.5),), (_row(0.25, -0.125, 0.5, 0.375),)
    sim1 = numerics.simulate(setup, A1, W1, times, method="scipy")
    testing.kunin_wide(setup, A1, W1).check(times, sim1.A, sim1.W, rtol=1e-6)
    with pytest.raises(AssertionError):
        testing.kunin_wide(setup, A1, W1).check(times, sim1.A * 1.001, sim1.W, rtol=1e-6)


def test_testing_oracle_refuses_a_start_that_is_not_aligned():
    setup = kunin.WideSetup(1, 1, _X((2.0, 1.0, 0.0, 0.0)), ((0.3,), (0.0,), (0.0,), (0.1,)))
    with pytest.raises(ValueError, match=r"(?s)Nor is the start aligned.*numerics\.simulate"):
        testing.kunin_wide(setup, ((0.5,),), (_row(0.25, 0.0625, 0, 0),))


def test_a_start_in_ker_x_learns_when_the_targets_are_not_zero():
    # (the other side of test_at_rest_start: W0 in ker X, X^T Y != 0: the flow moves)
    setup = kunin.WideSetup(1, 1, RANK2, ((0.6, -0.2), (0.3, 0.5), (0.4, 0.1), (0.2, 0.3)))
    A0, W0 = ((0.5, 0.2),), (_row(0, 0, 0.3, 0.1),)
    traj = kunin.wide_closed_form(setup, A0, W0)
    assert float(traj.s) == 4.0  # (X^T X = 4 P)
    times = [0.0, 2.0]
    got = traj.sample(times)
    sim = numerics.simulate(setup, A0, W0, times, method="scipy")
    beta_sim = np.asarray(sim.at(1).W).T @ np.asarray(sim.at(1).A)
    # DOP853 at its default rtol in numerics.simulate (1e-10): 1e-8 on O(1) weights
    assert np.allclose(got.at(1).beta, beta_sim, rtol=0, atol=1e-8)
    assert got.at(1).loss < got.at(0).loss - 0.1  # (it learns: not at rest)


def test_a_diagonal_but_not_isotropic_balance_is_refused():
    # Delta(0) = eta_w A0 A0^T - eta_a W0 W0^T = diag(1, 4): no off-diagonal defect, yet not
    # delta I (the whitened check's other side, beside the off-diagonal ones)
    setup = kunin.WideSetup(1, 1, ((2.0, 0.0), (0.0, 2.0)), ((1.0, 0.0), (0.0, 1.0)))
    with pytest.raises(ValueError, match=r"delta I_h"):
        kunin.wide_closed_form(setup, ((1.0, 0.0), (0.0, 2.0)), ((0.0, 0.0), (0.0, 0.0)))
    balanced = kunin.wide_closed_form(setup, ((1.0, 0.0), (0.0, 1.0)), ((0.0, 0.0), (0.0, 0.0)))
    assert float(balanced.delta) == 1.0
