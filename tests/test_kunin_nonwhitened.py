"""kunin.closed_form on inputs that are not whitened (issue 31, item 3): the aligned condition
from both sides (rank-deficient ``X^T X = s P`` from any start; ``X^T y`` and ``w0`` outside
``ker X`` in one eigenspace; refusals naming the condition and pointing to numerics.simulate),
float64 against dps = 40 of the same closed form and both against the raw flow (hypothesis),
t = inf, zero components, ``X^T y = 0``, ``X = 0``, the NTK, ``out=``, the claims and the
testing oracle on the new setups."""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import numerics
from solvable import kunin, testing
from solvable.models.kunin import aligned_proofs
from solvable.verification.confirmations import kunin as kunin_confirmations

# An orthogonal frame of integer rows, each of norm 3: X = diag(sigma) U has X^T X = sum_i
# sigma_i^2 U_i U_i^T, the eigenvalue 9 sigma_i^2 on U_i (exact in float64 for dyadic sigma)
U = np.array([[1, 2, 2], [2, 1, -2], [2, -2, 1]])


def _data(sigma: tuple[float, float, float]) -> tuple[tuple[float, ...], ...]:
    """``X = diag(sigma) U`` (rows ``sigma_i U_i``), with a zero fourth row."""
    rows = [tuple(float(sigma[i] * U[i, j]) for j in range(3)) for i in range(3)]
    return (*rows, (0.0, 0.0, 0.0))


def _mp(values, digits: int = 40):
    with mpmath.workdps(digits):
        return [mpmath.mpf(v) for v in np.ravel(values)]


def _normwise(got, ref, digits: int = 40) -> float:
    """``max|got - ref| / max(max|ref|, tiny)`` evaluated at ``digits`` digits."""
    with mpmath.workdps(digits):
        g, r = _mp(got, digits), _mp(ref, digits)
        top = max((abs(v) for v in r), default=mpmath.mpf(0))
        diff = max((abs(a - b) for a, b in zip(g, r, strict=True)), default=mpmath.mpf(0))
        return float(diff / top) if top else float(diff)


# ---------------------------------------------------------------------------
# the condition, both sides
# ---------------------------------------------------------------------------
def test_rank_deficient_inputs_accept_any_start():
    setup = kunin.Setup(0.5, 1.5, _data((1.0, 1.0, 0.0)), (0.7, -0.2, 0.5, 0.3))
    traj = kunin.closed_form(setup, 0.3, (0.2, -0.1, 0.4))
    assert isinstance(traj, kunin.AlignedTrajectory)
    assert traj.s == 9.0
    # w's part on ker X = span(U_2) is the start's, and it stays there
    st_ = traj.sample([0.0, 1.0, 10.0, math.inf])
    on_kernel = st_.w @ U[2] / 9.0
    assert np.allclose(on_kernel, (np.array([0.2, -0.1, 0.4]) @ U[2]) / 9.0, rtol=0, atol=1e-15)


def test_isotropic_inputs_keep_the_isotropic_trajectory():
    setup = kunin.Setup(1, 1, (("0.6", "0.8"), ("-0.8", "0.6")), ("1", "2"))
    assert type(kunin.closed_form(setup, 1, (1, 1))) is kunin.Trajectory


def test_a_start_on_two_eigenvalues_is_refused():
    setup = kunin.Setup(1, 1, _data((2.0, 1.0, 0.0)), (0.3, 0.0, 0.0, 0.1))  # X^T y on U_0
    w_ok = tuple(float(v) for v in 0.1 * U[0] + 0.2 * U[2])
    assert isinstance(kunin.closed_form(setup, 0.5, w_ok), kunin.AlignedTrajectory)
    w_bad = tuple(float(v) for v in 0.1 * U[0] + 0.01 * U[1])
    with pytest.raises(ValueError, match=r"(?s)isotropic columns.*w0 must lie in ker X plus the "
                       r"eigenspace of X\^T y.*numerics\.simulate"):  # fmt: skip
        kunin.closed_form(setup, 0.5, w_bad)


def test_targets_on_two_eigenvalues_are_refused():
    setup = kunin.Setup(1, 1, _data((2.0, 1.0, 0.0)), (0.3, 0.2, 0.0, 0.1))
    with pytest.raises(ValueError, match=r"(?s)X\^T y must be an eigenvector.*numerics\.simulate"):
        kunin.closed_form(setup, 0.5, (0.1, 0.1, 0.1))


def test_zero_inputs_are_refused():
    setup = kunin.Setup(1, 1, ((0, 0), (0, 0)), (1, 0))
    with pytest.raises(ValueError, match=r"(?s)isotropic.*X must have a nonzero entry"):
        kunin.closed_form(setup, 1, (1, 0))


def test_the_tolerance_accepts_rounded_alignment_and_zero_refuses_it():
    # two orthonormal rows from a float64 QR (X^T X = 4 P to ~eps, not exactly) and a zero row
    Q, _ = np.linalg.qr(np.random.default_rng(3).standard_normal((3, 3)))
    X = tuple(map(tuple, np.vstack([2 * Q[:, :2].T, np.zeros((1, 3))]).tolist()))
    setup = kunin.Setup(1, 1, X, (0.3, -0.4, 0.2))
    assert isinstance(kunin.closed_form(setup, 0.5, (0.1, 0.2, 0.3)), kunin.AlignedTrajectory)
    with pytest.raises(ValueError, match="Nor is the start aligned"):
        kunin.closed_form(setup, 0.5, (0.1, 0.2, 0.3), alignment_rtol=0)


# ---------------------------------------------------------------------------
# values: against the raw flow and across precisions
# ---------------------------------------------------------------------------
@st.composite
def aligned_problems(draw):
    """Dyadic data X = diag(sigma) U (sigma_0 = sigma_1 on E = span(U_0, U_1), or sigma_1 on
    a second eigenvalue), targets in E plus a part outside range X, starts in E + ker X."""
    dy = st.integers(-8, 8).map(lambda k: k / 8)
    s0 = draw(st.sampled_from([0.5, 1.0, 1.5]))
    s1 = draw(st.sampled_from([s0, 0.25, 2.0]))
    X = _data((s0, s1, 0.0))
    c = [draw(dy) for _ in range(3)]
    if s1 != s0:  # E = span(U_0): no target or weight on U_1
        c[1] = 0.0
    y = (draw(dy), draw(dy) if s1 == s0 else 0.0, 0.0, draw(dy))
    w0 = tuple(float(v) for v in (c[0] * U[0] + c[1] * U[1] + c[2] * U[2]) / 4)
    a0 = draw(dy)
    rates = draw(st.sampled_from([(0.5, 0.5), (0.25, 1.0), (1.0, 0.125)]))
    return kunin.Setup(rates[0], rates[1], X, y), a0, w0


TIMES = [0.0, 0.25, 1.0, 4.0, 20.0]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aligned_problems())
@example(
    (
        kunin.Setup(0.25, 1.0, _data((1.5, 1.5, 0.0)), (-0.375, 0.0, 0.0, 0.0)),
        -1.0,
        (-0.84375, 0.0, -0.28125),
    )
)  # the loss subnormal at t = 20 (found by a search)
def test_float64_against_dps40(problem):
    setup, a0, w0 = problem
    f = kunin.closed_form(setup, a0, w0).sample([*TIMES, math.inf])
    traj = kunin.closed_form(setup, a0, w0, dps=40)
    m = traj.sample([*TIMES, math.inf])
    # normwise over the whole sample: float64 rounding of the reduced trajectory (a few
    # units; the decaying terms that carry the exponents' error are small against the norm)
    # and of w_E + w_N (one unit); measured <= 2.4e-15 over 300 draws
    for got, ref in ((f.a, m.a), (f.w, m.w), (f.beta, m.beta)):
        assert _normwise(got, ref) < 1e-13
    # the loss, relative at each time: a decayed loss ~ e^{-rate t} (rate <= 2 (2 Omega + s
    # |delta_E|)) carries the relative error of its exponent, a few units of the rates (s eta
    # rounded once, Omega) times rate t; measured 2.9e-14 at rate t ~ 200 (t = 20)
    u = 2.0**-53
    rate = 2 * (2 * float(traj.Omega) + float(traj.s) * abs(float(traj.delta_reduced)))
    for k, t in enumerate([*TIMES, 0.0]):  # (t = inf: the limit, no exponent)
        # down to float64's normal range: a loss decayed below 2.2e-308 is subnormal, held to
        # absolute units of 4.9e-324 only (e.g. 3.103e-321 for 3.146e-321 at t = 20)
        with mpmath.workdps(40):
            err = abs(mpmath.mpf(f.loss[k]) - m.loss[k])
            assert err <= (1e-13 + 16 * u * rate * t) * abs(m.loss[k]) + 1e-300


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(aligned_problems())
def test_against_the_raw_flow(problem):
    setup, a0, w0 = problem
    times = ["0", "0.5", "2", "6"]
    exact = kunin.closed_form(setup, a0, w0, dps=25).sample(times)
    sim = numerics.simulate(setup, a0, w0, times, method="mpmath", dps=25)
    # both at 25 digits (the Taylor integrator at dps + 20, the closed form at dps + 10)
    scale = max(abs(a0), max(map(abs, w0)), 1.0)
    for k in range(len(times)):
        e, s = exact.at(k), sim.at(k)
        assert _normwise([s.a, *s.w], [e.a, *e.w]) < 1e-20 * scale
        assert _normwise([s.loss], [e.loss]) < 1e-20
        assert _normwise([s.delta], [exact.delta]) < 1e-20 * scale**2


def test_limit_is_a_least_squares_solution_plus_the_kernel_part():
    setup = kunin.Setup("0.5", "0.5", _data((1.0, 1.0, 0.0)), ("0.5", "-0.25", "0", "0.75"))
    w0 = tuple(str(v) for v in (0.125 * U[0] - 0.25 * U[2]))
    traj = kunin.closed_form(setup, "0.5", w0, dps=40)
    inf = traj.at(mpmath.inf)
    with mpmath.workdps(40):
        X = np.array([[mpmath.mpf(v) for v in r] for r in setup.X], dtype=object)
        y = np.array([mpmath.mpf(v) for v in setup.y], dtype=object)
        assert max(abs(v) for v in X.T @ (X @ inf.beta - y)) < mpmath.mpf(10) ** -38
        # beta(inf) - beta* = a(inf) w_N, the implicit bias of the start's kernel part
        dev = inf.beta - traj.beta_star - inf.a * traj.w_kernel
        assert max(abs(v) for v in dev) < mpmath.mpf(10) ** -38
        assert max(abs(v) for v in traj.w_kernel) > 0.1
        late = traj.at(200)
        assert max(abs(p - q) for p, q in zip(late.w, inf.w, strict=True)) < 1e-38
        assert inf.loss == traj.loss_floor  # the least loss, y's part outside range X
    assert abs(float(traj.loss_floor) - 0.75**2 / 2) < 1e-15


def test_delta_bookkeeping():
    setup = kunin.Setup("0.25", "2", _data((1.0, 1.0, 0.0)), ("0.5", "-0.25", "0", "0"))
    w0 = tuple(str(v) for v in (0.125 * U[0] + 0.5 * U[2]))
    traj = kunin.closed_form(setup, "0.5", w0, dps=30)
    with mpmath.workdps(30):
        w_N2 = sum(v * v for v in traj.w_kernel)
        assert abs(traj.delta_reduced - traj.delta - mpmath.mpf("0.25") * w_N2) < 1e-29
        assert traj.delta == kunin.balance(mpmath.mpf("0.5"), np.array(_mp(w0, 30)),
                                           mpmath.mpf("0.25"), mpmath.mpf(2))  # fmt: skip


# ---------------------------------------------------------------------------
# zero components, X^T y = 0
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("a0", "w0", "y"),
    [
        ("0.5", (0, 0, 0), ("0.5", "0.5", "0", "0.25")),  # w0 = 0: w grows along X^T y
        ("0", (0, 0, 0), ("0.5", "0.5", "0", "0.25")),  # the origin: at rest
        ("0.5", tuple(2 * U[2]), ("0.5", "0.5", "0", "0.25")),  # w0 in ker X only
        ("0.5", tuple(U[0]), ("0", "0", "0", "0.25")),  # X^T y = 0: shrinks to a fixed point
        ("0.5", tuple(U[2]), ("0", "0", "0", "0.25")),  # X^T y = 0, w0 in ker X: at rest
        ("0", tuple(U[0] - U[1]), ("0", "0", "0", "0")),  # y = 0, a0 = 0
    ],
)  # fmt: skip
def test_zero_components_against_the_raw_flow(a0, w0, y):
    setup = kunin.Setup("0.5", "0.25", _data((0.5, 0.5, 0.0)), y)
    times = ["0", "1", "5"]
    w0s = tuple(str(v) for v in w0)
    traj = kunin.closed_form(setup, a0, w0s, dps=30)
    exact = traj.sample([*times, mpmath.inf])
    sim = numerics.simulate(setup, a0, w0s, times, method="mpmath", dps=30)
    for k in range(len(times)):
        e, s = exact.at(k), sim.at(k)
        assert _normwise([s.a, *s.w, s.loss], [e.a, *e.w, e.loss]) < 1e-25
    f = kunin.closed_form(setup, a0, w0s).sample([*[float(t) for t in times], math.inf])
    assert np.all(np.isfinite(f.w)) and np.all(np.isfinite(f.loss))
    assert _normwise(f.w, exact.w) < 1e-14


def test_x_transpose_y_zero_and_kernel_start_is_at_rest():
    setup = kunin.Setup(1, 1, _data((1.0, 0.5, 0.0)), (0, 0, 0, 0.5))
    traj = kunin.closed_form(setup, 0.7, tuple(float(v) for v in U[2]))
    out = traj.sample([0.0, 3.0, math.inf])
    assert np.all(out.a == 0.7) and np.all(out.w == U[2]) and np.all(out.loss == 0.125)


# ---------------------------------------------------------------------------
# the protocol: at, sample(out=), ntk, regime, mpmath context
# ---------------------------------------------------------------------------
def test_sample_into_out_and_at():
    setup = kunin.Setup(0.5, 1.5, _data((1.0, 1.0, 0.0)), (0.7, -0.2, 0.5, 0.3))
    traj = kunin.closed_form(setup, 0.3, (0.2, -0.1, 0.4))
    ref = traj.sample([0.0, 2.0])
    out = traj.sample([5.0, 6.0])
    got = traj.sample([0.0, 2.0], out=out)
    assert np.array_equal(got.w, ref.w) and np.array_equal(out.loss, ref.loss)
    assert traj.at(2.0).loss == ref.loss[1]
    with pytest.raises(ValueError, match="out must be None"):
        kunin.closed_form(setup, 0.3, (0.2, -0.1, 0.4), dps=20).sample([1], out=out)
    assert traj.regime() in ("lazy", "rich", "delayed rich", "intermediate")


def test_ntk_is_the_packages_on_the_simulated_weights():
    setup = kunin.Setup("0.5", "1", _data((1.0, 1.0, 0.0)), ("0.5", "-0.25", "0", "0.75"))
    w0 = ("0.25", "-0.5", "0.125")
    traj = kunin.closed_form(setup, "0.5", w0, dps=30)
    sim = numerics.simulate(setup, "0.5", w0, ["0", "2"], method="mpmath", dps=30).at(1)
    with mpmath.workdps(30):
        X = np.array([[mpmath.mpf(v) for v in r] for r in setup.X], dtype=object)
        K = kunin.ntk(sim.a, sim.w, X, mpmath.mpf("0.5"), mpmath.mpf(1))
    assert _normwise(traj.ntk(2), K, 30) < 1e-25
    assert traj.ntk(2).shape == (4, 4)


def test_fraction_and_mpf_inputs_and_context_precision():
    setup = kunin.Setup(Fraction(1, 2), 1, _data((1.0, 1.0, 0.0)), (Fraction(1, 3), 0, 0, 1))
    with mpmath.workdps(25):
        traj = kunin.closed_form(setup, mpmath.mpf("0.5"), (0.25, 0.5, 0.125))
    assert traj.dps == 25 and isinstance(traj.at(1).a, mpmath.mpf)


# ---------------------------------------------------------------------------
# claims and the oracle
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "check",
    [aligned_proofs._aligned_reduction, aligned_proofs._aligned_rescaling,
     aligned_proofs._aligned_coupling],
)  # fmt: skip
def test_claims_are_proved(check):
    assert check().status == "proved"


@pytest.mark.parametrize("off", [{"y2": sp.Symbol("e", positive=True)},
                                 {"c2": sp.Symbol("e", positive=True)}])  # fmt: skip
def test_the_reduction_proof_fails_off_the_condition(off):
    # a target or a weight on the second eigenvalue: the proof's residuals are not 0
    assert aligned_proofs._aligned_reduction(**off).status == "failed"


def test_claims_are_registered():
    ids = {c.id for c in kunin.claims()}
    assert {"kunin.aligned_reduction", "kunin.aligned_rescaling",
            "kunin.aligned_coupling"} <= ids  # fmt: skip
    assert "kunin.aligned_closed_form_oracle" in {c.id for c in kunin_confirmations.claims()}


def test_confirmation_at_30_digits():
    v = kunin_confirmations._aligned_oracle(dps=30)
    assert v.status == "confirmed", v.detail


def test_confirmation_fails_on_a_wrong_kernel_part(monkeypatch):
    # the oracle sees a trajectory whose w_N is off by 1e-20: it fails (the check has teeth)
    real = kunin.AlignedTrajectory._sample

    def shifted(self, times, out, name):
        st_ = real(self, times, out, name)
        with mpmath.workdps(40):
            w = st_.w + mpmath.mpf(10) ** -20
        return kunin.States(t=st_.t, a=st_.a, w=w, beta=st_.beta, delta=st_.delta,
                            loss=st_.loss)  # fmt: skip

    monkeypatch.setattr(kunin.AlignedTrajectory, "_sample", shifted)
    assert kunin_confirmations._aligned_oracle(dps=30, cases=["rank 2 of 3, upstream"]).status \
        == "failed"  # fmt: skip


def test_testing_oracle_accepts_the_new_setups():
    setup = kunin.Setup(0.5, 1.5, _data((1.0, 1.0, 0.0)), (0.7, -0.2, 0.5, 0.3))
    a0, w0 = 0.3, (0.2, -0.1, 0.4)
    oracle = testing.kunin(setup, a0, w0)
    times = [0.0, 0.5, 2.0]
    sim = numerics.simulate(setup, a0, w0, times, method="scipy")
    oracle.check(times, sim.a, sim.w, rtol=1e-6)
    with pytest.raises(AssertionError):
        oracle.check(times, sim.a, sim.w + 1e-3, rtol=1e-6)


@pytest.mark.parametrize("scale", [1e-200, 1e-100, 1e100])
def test_float64_at_extreme_scales_matches_dps30(scale):
    # s = 9 scale^2 far outside [1e-100, 1e100]: the float64 trajectory is the 17-digit one
    # rounded once (no overflow of s eta, |beta*|^2 or their products)
    setup = kunin.Setup(1.0, 1.0, _data((scale, scale, 0.0)), (0.5, -0.3, 0.4, 0.2))
    times = [0.0, 1.0, 1e3, math.inf]
    f = kunin.closed_form(setup, 0.8, (0.2, -0.1, 0.3)).sample(times)
    m = kunin.closed_form(setup, 0.8, (0.2, -0.1, 0.3), dps=30).sample(times)
    assert np.all(np.isfinite(f.w)) and np.all(np.isfinite(f.loss))
    assert _normwise(f.w, m.w) < 1e-14
    assert _normwise(f.loss, m.loss) < 1e-14


def test_float64_refuses_an_eigenvalue_beyond_its_range():
    setup = kunin.Setup(1.0, 1.0, _data((1e200, 1e200, 0.0)), (0.5, -0.3, 0.4, 0.2))
    with pytest.raises(ValueError, match=r"s exceeds the float64 range.*pass dps"):
        kunin.closed_form(setup, 0.8, (0.2, -0.1, 0.3))
    assert kunin.closed_form(setup, 0.8, (0.2, -0.1, 0.3), dps=20).at(math.inf).loss > 0


@pytest.mark.parametrize(("fraction", "status"), [(0.8, "confirmed"), (1.25, "failed")])
def test_the_kernel_part_is_held_to_its_allowance_from_both_sides(monkeypatch, fraction, status):
    """``w_kernel`` reported off along ker X by ``fraction`` of the confirmation's allowance
    (``rtol (sqrt(scale / eta_a) + |w_N|)``): within it confirmed, beyond it failed (the
    state is untouched: only the "w on ker X" check sees it).  0.8 and 1.25: the floor's
    part of the allowance matters (here sqrt(scale / eta_a) = 0.68, |w_N| = 0.3)."""
    name, dps = "rank 2 of 3, upstream", 30
    _, setup, a0, w0 = next(c for c in kunin_confirmations._aligned_cases() if c[0] == name)
    rtol = mpmath.mpf(10) ** -(dps - 5)
    traj = kunin.closed_form(setup, a0, w0, dps=dps)
    with mpmath.workdps(dps + 20):
        kern = [mpmath.mpf(2), mpmath.mpf(-2), mpmath.mpf(1)]  # ker X (|kern|^2 = 9)
        w_N = mpmath.fsum(p * q for p, q in zip(kern, traj.w_kernel, strict=True)) / 3
        floor = mpmath.sqrt(kunin_confirmations._scale(setup, a0, w0) / mpmath.mpf(setup.eta_a))
        eps = fraction * rtol * (floor + abs(w_N)) / 3  # w_N moves by 3 eps
        w_kernel = np.array([v + eps * p for v, p in zip(traj.w_kernel, kern, strict=True)],
                            dtype=object)  # fmt: skip
    shifted = dataclasses.replace(traj, w_kernel=w_kernel)
    monkeypatch.setattr(kunin, "closed_form", lambda *args, **kw: shifted)
    assert kunin_confirmations._aligned_oracle(dps=dps, cases=[name]).status == status
