"""Documented constants and boundaries of the three integrators (``numerics.mp``,
``numerics.scipy_ode``, ``numerics.torch_flow``) that no other test reads: each is checked
through behaviour, from both sides of its boundary where it has one, against a value
written here from the documentation (not read back from the module), so that a mutated
constant, comparison or counter fails.

Every run here is small (one to 65 state components, at most a few hundred steps)."""

from __future__ import annotations

import math
import threading
import warnings

import mpmath
import numpy as np
import pytest
import sympy as sp

from numerics import mp, scipy_ode
from solvable._core.flows import GradientFlow

torch = pytest.importorskip("torch")
from numerics import torch_flow  # noqa: E402  (needs torch)
from numerics.torch_flow import checks as tf_checks  # noqa: E402
from numerics.torch_flow import dop853 as tf_dop853  # noqa: E402

F64 = torch.float64


# ---------------------------------------------------------------------------
# numerics.mp.integrate
# ---------------------------------------------------------------------------
_X = sp.Symbol("x")
_DECAY = mp.compile_polynomial([_X], [], [-_X])  # x' = -x


def _jorba_zou(digits: int) -> int:
    """The documented order ``ceil(ln(1/eps) / 2) + 1`` for ``eps = 10^-digits``."""
    return math.ceil(digits * math.log(10) / 2) + 1


@pytest.mark.parametrize("dps", [15, 30])
def test_mp_default_guard_is_twenty_digits(dps):
    """numerics.mp: "20 guard digits"; work is done at ``dps + GUARD_DIGITS`` digits with
    ``eps = 10^-(dps + guard)``, and the order is Jorba-Zou's for that ``eps``.  The order a
    run reports (``stats["order"]``) is that of ``dps + 20`` digits (the literal 20, not the
    module's constant), and a run with ``guard=20`` passed explicitly is the default run, bit
    for bit; ``guard=21`` changes the order (``ceil(1.15 d)`` grows by 1 or 2 a digit), so
    the comparison has teeth.  Exact comparisons: the same arithmetic on the same input."""
    ys, stats = mp.integrate(_DECAY, [], [], [1], [0.5, 2], dps)
    assert stats["order"] == _jorba_zou(dps + 20)
    again, stats20 = mp.integrate(_DECAY, [], [], [1], [0.5, 2], dps, guard=20)
    assert stats20 == stats and again == ys
    _, stats21 = mp.integrate(_DECAY, [], [], [1], [0.5, 2], dps, guard=21)
    assert stats21["order"] == _jorba_zou(dps + 21) != stats["order"]


def test_mp_default_safety_factor_is_0_9():
    """numerics.mp: the step is ``h = SAFETY * min_k (...)`` with the measured choice
    ``SAFETY = 0.9``.  The default run of ``x' = -x`` to t = 40 (the reference engine, whose
    step is the rule's alone) is the run with ``safety=0.9`` bit for bit (states and step
    count), and ``safety=0.8`` / ``1.0`` take other step counts (the test has teeth: the
    step count moves with the factor).  Exact comparisons: the same arithmetic."""
    kw = {"engine": "reference"}
    ys, stats = mp.integrate(_DECAY, [], [], [1], [1, 40], 30, **kw)
    same, stats09 = mp.integrate(_DECAY, [], [], [1], [1, 40], 30, safety=0.9, **kw)
    assert same == ys and stats09 == stats
    for other in (0.8, 1.0):
        _, s = mp.integrate(_DECAY, [], [], [1], [1, 40], 30, safety=other, **kw)
        assert s["steps"] != stats["steps"], other


@pytest.mark.parametrize("engine", mp.ENGINES)
def test_mp_taylor_order_two_is_the_smallest_accepted(engine):
    """``taylor_order`` must be ``>= 2`` (the refusal's message): 2 is accepted, 1 refused.
    The state is stationary (``x' = -x`` at ``x = 0``: every coefficient is 0), which
    "stays put" in any number of steps, so order 2 costs nothing; its result is exactly 0."""
    ys, stats = mp.integrate(_DECAY, [], [], [0], [1, 3], 15, taylor_order=2, engine=engine)
    assert stats["order"] == 2 and ys == [[0], [0]]
    with pytest.raises(ValueError, match="taylor_order must be >= 2, got 1"):
        mp.integrate(_DECAY, [], [], [0], [1], 15, taylor_order=1, engine=engine)


@pytest.mark.parametrize("engine", mp.ENGINES)
def test_mp_max_steps_one_is_the_smallest_accepted(engine):
    """``max_steps`` must be "an integer >= 1": a run of one step (stationary state, one
    time) is accepted with ``max_steps=1``; 0 is refused naming it."""
    ys, stats = mp.integrate(_DECAY, [], [], [0], [2], 15, max_steps=1, engine=engine)
    assert ys == [[0]] and stats["steps"] == 1
    with pytest.raises(ValueError, match="max_steps must be an integer >= 1, got 0"):
        mp.integrate(_DECAY, [], [], [0], [2], 15, max_steps=0, engine=engine)


def _chain(m: int) -> mp.TaylorProgram:
    """``x_1' = 1, x_j' = x_(j-1)``: from ``x = (0, ..., 0, D)``, ``x_m = D + t^m / m!`` is a
    polynomial of degree ``m``; at any time, the highest nonzero Taylor order of the state
    is ``m``, with coefficient ``1/m!`` (in ``x_m``), and order ``m - 1`` has ``1/(m-1)!``
    (in ``x_(m-1)``) plus ``t/(m-1)!`` (in ``x_m``)."""
    xs = sp.symbols(f"c1:{m + 1}")
    rhs = [sp.Integer(1) + 0 * xs[0]] + [xs[i - 1] for i in range(1, m)]
    return mp.compile_polynomial(list(xs), [], rhs)


@pytest.mark.parametrize(
    ("m", "D", "T", "k"),
    [
        (2, "1e40", "1000", None),  # highest order 2 < p/2 = 3: a polynomial, one step
        (3, "1e40", "100", 3),  # highest order 3 = p/2: bounds the step
        (4, "1e30", "0.2", 4),  # highest order 4 = p - 2: bounds it, not order 3 below it
    ],
)
def test_mp_vanishing_top_orders_fall_back_to_the_highest_order_from_p_over_2(m, D, T, k):
    """integrate's rule where the orders ``p - 1`` and ``p`` of a block both vanish: "the
    highest nonzero order >= p/2 bounds the step (none: ... its series ends below p/2, a
    polynomial exact at any step)", with no safety factor: ``h = (eps ref / |y_k|)^(1/k)``.
    With ``taylor_order=6`` (``p/2 = 3``, candidate orders 4 and 3) on :func:`_chain`:

    * ``m = 2``: nothing from order 3 up, the whole horizon T in one step;
    * ``m = 3``: order 3 bounds the step, ``h = (eps D 3!)^(1/3)``;
    * ``m = 4``: order 4 (the highest), ``h = (eps D 4!)^(1/4)`` = 0.1245, though order 3
      alone would give 0.039 (a rule that went on to lower orders would take 6 steps).

    ``ref`` is ``max |x| = D (1 + O(1e-26))`` and ``|y_k| = 1/k!`` over the whole run
    (t <= T < 1 keeps ``t/3!`` below ``1/3!`` for m = 4), so the reference engine (no cap
    beyond the rule) takes exactly ``ceil(T / h)`` steps: 1, 2, 2 here (``T/h`` = 1.19 and
    1.61, far from an integer).  The series are exact polynomials, so every step is exact."""
    dps, work = 15, 15 + 20
    prog = _chain(m)
    y0 = [0] * (m - 1) + [D]
    ys, stats = mp.integrate(prog, [], [], y0, [T], dps, taylor_order=6, engine="reference")
    with mpmath.workdps(work + 10):
        if k is None:
            want = 1
        else:
            h = (mpmath.mpf(10) ** -work * mpmath.mpf(D) * mpmath.factorial(k)) ** (
                mpmath.mpf(1) / k
            )
            want = int(mpmath.ceil(mpmath.mpf(T) / h))
        assert stats["steps"] == want, (stats, want)
        # x_m(T) = D + T^m / m!, to the working precision (relative 10^-work, 10x room)
        exact = mpmath.mpf(D) + mpmath.mpf(T) ** m / mpmath.factorial(m)
        assert abs(ys[0][-1] - exact) <= 10 * mpmath.mpf(10) ** -work * exact


# ---------------------------------------------------------------------------
# numerics.scipy_ode.integrate
# ---------------------------------------------------------------------------
def _growth(n: int) -> GradientFlow:
    """``L = -|x|^2 / 2``, ``x' = x`` in ``n`` components: unstable, so the fixed-point test
    (where it runs) never succeeds and the run takes its full number of steps."""
    xs = sp.symbols(f"x0:{n}")
    return GradientFlow(tuple(xs), (), tuple(xs), (("x", (n,)),), -sum(x**2 for x in xs) / 2)


def _expected_checks(steps: int, n: int) -> int:
    """The documented schedule: from the 64th step on, every ``check_interval(n)`` steps,
    while a requested time is still ahead (so not at the last step, which reaches it)."""
    every = max(16, math.ceil((n + 2) / 3))
    return sum(1 for s in range(64, steps) if s % every == 0)


@pytest.mark.parametrize("n", [1, 61, 64, 65])
def test_scipy_fixed_point_checks_follow_the_documented_schedule(n):
    """integrate's docstring: with ``rates``, and at most FIXED_POINT_MAX_STATE = 64
    components, the fixed-point test runs "every check_interval steps after the first 64";
    ``stats["checks"]`` counts them.  On ``x' = x`` (never a fixed point) to t = 30 (221
    steps) the count is the schedule's, computed here from the documented numbers: with
    ``n = 1`` (every 16 steps) the first test is at step 64 itself, with ``n = 61`` (every
    21) at 84, not at 63; ``n = 64`` is tested, ``n = 65`` (one component too many) never.
    Without ``rates`` there is no test."""
    flow = _growth(n)
    _, stats = scipy_ode.integrate(flow, [], [1.0] * n, [30.0], rates=[1.0] * n)
    want = _expected_checks(stats["steps"], n) if n <= 64 else 0
    assert stats["steps"] > 64 and stats["checks"] == want
    assert (want > 0) is (n <= 64)
    _, plain = scipy_ode.integrate(flow, [], [1.0] * n, [30.0])
    assert plain["checks"] == 0 and plain["steps"] == stats["steps"]


def test_scipy_default_tolerances_are_the_documented_ones(monkeypatch):
    """integrate's docstring: DOP853 "at rtol = 1e-13 by default", and ``atol = rtol *
    1e-3 * (max|y0| or 1)``.  The solver integrate builds is given exactly these (recorded
    by replacing scipy's DOP853 by a recorder): rtol 1e-13, atol 1e-16 * 5 for ``y0 = (3,
    -5)`` (the largest magnitude, not the first entry nor a signed maximum), 1e-16 for ``y0 =
    0``, and an rtol passed explicitly scales both.  The numbers are computed as the
    docstring writes them, so they are compared exactly."""
    seen = []

    class BuiltError(Exception):
        """Stops integrate once the solver is configured (a wrong atol of 0 at y0 = 0 would
        make scipy's step loop on a 0/0 error norm instead of failing)."""

    def recording(*_args, **kw):
        seen.append((kw["rtol"], kw["atol"]))
        raise BuiltError

    monkeypatch.setattr(scipy_ode, "DOP853", recording)
    flow = _growth(2)
    for y0, rtol in (([3.0, -5.0], None), ([0.0, 0.0], None), ([3.0, -5.0], 1e-8)):
        with pytest.raises(BuiltError):
            if rtol is None:
                scipy_ode.integrate(flow, [], y0, [0.1])
            else:
                scipy_ode.integrate(flow, [], y0, [0.1], rtol)
    assert seen == [(1e-13, 1e-13 * 1e-3 * 5.0), (1e-13, 1e-13 * 1e-3 * 1.0),
                    (1e-8, 1e-8 * 1e-3 * 5.0)]  # fmt: skip


def test_scipy_max_steps_one_is_the_smallest_accepted_and_caps_exactly():
    """``max_steps`` ("an integer >= 1") caps the accepted steps: a run of ``n`` steps passes
    with ``max_steps = n`` (the same states) and is refused, naming it, with ``n - 1``; a
    one-step run (t = 1e-6 of ``x' = x``) passes with 1, and 0 is refused."""
    flow = _growth(1)
    ys, stats = scipy_ode.integrate(flow, [], [1.0], [2.0])
    n = stats["steps"]
    assert n >= 3
    again, st = scipy_ode.integrate(flow, [], [1.0], [2.0], max_steps=n)
    assert st["steps"] == n and np.array_equal(again, ys)
    with pytest.raises(ArithmeticError, match=f"max_steps={n - 1} steps taken"):
        scipy_ode.integrate(flow, [], [1.0], [2.0], max_steps=n - 1)
    one, st1 = scipy_ode.integrate(flow, [], [1.0], [1e-6], max_steps=1)
    assert st1["steps"] == 1
    # x(1e-6) = e^(1e-6): rtol 1e-13 asked, 1e-12 allows for the one step's rounding
    assert one[0, 0] == pytest.approx(math.exp(1e-6), rel=1e-12)
    with pytest.raises(ValueError, match="max_steps must be an integer >= 1, got 0"):
        scipy_ode.integrate(flow, [], [1.0], [1e-6], max_steps=0)


def _one_mode(S, zdot, t_left=1e3, rtol=1e-10):
    """A LinearTail of one batch element, scale 1, rates 1 (so bounds are in units of the
    tolerance directly)."""
    S = np.asarray(S, dtype=float)[None]
    N = S.shape[1]
    return scipy_ode.LinearTail(S, np.asarray(zdot, dtype=float)[None], np.ones((1, N)),
                                np.ones((1, N)), np.array([t_left]), 2.0**-52, rtol)  # fmt: skip


def test_linear_tail_criterion_thresholds_are_inclusive_at_100_and_1():
    """LinearTail's criterion 1: the remaining change is "``<= 100`` over the others" (the
    non-flat modes) and "``<= 1`` over the flat modes"; criterion 2: at the predicted end
    the bound over all modes is "``<= 1``".  With ``t_left = 1000`` the factor ``phi =
    (1 - e^{-lam s}) / lam`` is exactly 1 for ``lam = 1`` (``e^{-1000}`` underflows) and the
    flat horizon ``min(t_left, 1/lam_+)`` is exactly 1, so each bound is the velocity
    itself, exactly: at 100 (resp. 1) accepted, one ulp above refused.  ``converged`` uses
    both the flat and the non-flat modes (the defaults of ``bound``)."""
    up = math.nextafter
    # criterion 1, non-flat: S = (1), z' = c
    assert _one_mode([[1.0]], [100.0]).candidate()[0]
    assert not _one_mode([[1.0]], [up(100.0, math.inf)]).candidate()[0]
    # criterion 1, flat: S = diag(0, 1), z' = (c, 0): the flat mode drifts by c * 1
    assert _one_mode(np.diag([0.0, 1.0]), [1.0, 0.0]).candidate()[0]
    assert not _one_mode(np.diag([0.0, 1.0]), [up(1.0, math.inf), 0.0]).candidate()[0]
    # criterion 2: the velocity at the predicted end, along the flat and the stable mode
    tail = _one_mode(np.diag([0.0, 1.0]), [0.0, 0.0])
    assert tail.candidate()[0]
    for end in ([1.0, 0.0], [0.0, 1.0]):
        assert tail.converged(np.array([end]))[0], end
        over = [up(v, math.inf) if v else 0.0 for v in end]
        assert not tail.converged(np.array([over]))[0], over


def test_linear_tail_flat_threshold_is_inclusive_and_lam_plus_is_above_it():
    """LinearTail: "a mode with ``|lam_k| <= tau`` is flat", ``tau = max|lam| (64 N eps +
    10 rtol)``, and ``lam_+`` is "the smallest eigenvalue above tau".  With ``rtol = 0``
    (the rounding term alone, ``tau = 128 eps`` for N = 2) and ``S = diag(lam, 1)`` (eigh
    returns a diagonal's entries exactly; tau computed here as documented, the same float
    operations): the mode at exactly tau is flat, and the flat horizon is ``min(t_left,
    1/lam_+) = 1`` (lam_+ = 1, not tau), so a flat velocity of 1 drifts by exactly 1 over
    t_left = 1000; a mode at 1.01 tau is not flat (1% above the threshold: well within a
    65 N eps threshold, 1.6% above, so the factor 64 is pinned)."""
    N, eps = 2, 2.0**-52
    tau = 1.0 * (64 * N * eps + 10 * 0.0)
    tail = _one_mode(np.diag([tau, 1.0]), [1.0, 0.0], rtol=0.0)
    assert tail.flat[0].tolist() == [True, False]
    assert tail.drift.tolist() == [1.0] and tail.remaining.tolist() == [0.0]
    above = _one_mode(np.diag([1.01 * tau, 1.0]), [1.0, 0.0], rtol=0.0)
    assert above.flat[0].tolist() == [False, False] and above.drift.tolist() == [0.0]


def test_scipy_tail_is_linear_tail_of_the_flow_in_scaled_coordinates():
    """``_tail`` builds LinearTail from the generated Jacobian: ``S = sqrt(eta) H
    sqrt(eta)``, ``z' = theta' / sqrt(eta)``, and the integrator's own error scale ``atol +
    rtol |theta|``.  For the quadratic ``L = (a x^2 + 2 b x y + c y^2) / 2`` at rates
    (4, 1/4) these are written here by hand; the tail's bounds and predicted end state are
    those of LinearTail on the hand-built inputs (1e-12 relative: the same eigenproblem up
    to the rounding of ``-J`` scaled by the rates, entries of size 1)."""
    x, y = sp.symbols("x y")
    a, b, c = 2.0, 0.5, 1.0
    L = (a * x**2 + 2 * b * x * y + c * y**2) / 2
    eta = np.array([4.0, 0.25])
    rhs = (-eta[0] * sp.diff(L, x), -eta[1] * sp.diff(L, y))
    flow = GradientFlow((x, y), (), rhs, (("x", (1,)), ("y", (1,))), L)
    theta = np.array([0.3, -2.0])
    rtol, atol, t_left = 1e-10, 1e-12, 5.0
    root = np.sqrt(eta)
    got = scipy_ode._tail(flow, [], theta, rtol, atol, root, t_left)
    H = np.array([[a, b], [b, c]])
    S = root[:, None] * H * root[None, :]
    zdot = -(H @ theta) * eta / root
    scale = atol + rtol * np.abs(theta)
    want = scipy_ode.LinearTail(S[None], zdot[None], scale[None], root[None],
                                np.array([t_left]), float(np.finfo(float).eps), rtol)  # fmt: skip
    np.testing.assert_allclose(got.remaining, want.remaining, rtol=1e-12)
    np.testing.assert_allclose(got.end(), want.end(), rtol=1e-12)
    np.testing.assert_allclose(got.bound(zdot[None] / 7), want.bound(zdot[None] / 7), rtol=1e-12)


def test_pace_projection_at_exactly_the_growth_limit_and_at_a_zero_mean():
    """projected_pace: the mean step is projected where it "has stopped growing (at most
    PACE_GROWTH = 1.1 times the previous window's)": at exactly 1.1 times (275 / 250 = 1.1
    and 1.1 * 1.0 are the same double) a far horizon is refused; a zero mean step (no
    progress over the window) is not projected (no division by zero)."""
    W = 250
    assert 275.0 / W == 1.1 * 1.0
    with pytest.raises(scipy_ode.PaceError, match="cannot reach"):
        scipy_ode.projected_pace((0.0, 1.0), 275.0, 2 * W, 1e300, 2 * W + 1)
    assert scipy_ode.projected_pace((5.0, 1.0), 5.0, 2 * W, 1e300, 2 * W + 1) == (5.0, 0.0)


@pytest.mark.parametrize("excess", [0.5, -0.5])
def test_pace_projection_refuses_just_beyond_its_margin_and_not_just_within(excess):
    """The documented margin, from both sides: a horizon is refused only where the steps
    left at the window's pace exceed PACE_MARGIN = 100 times what max_steps leaves.  With
    10 attempts left (a budget of 1000 steps at a mean step of 1), 1000.5 steps left is
    refused and 999.5 is not, by the scipy / mpmath rule and by the batched torch one
    (a margin of 101 accepted the first; seed-27 mutant)."""
    assert scipy_ode.PACE_MARGIN == 100
    W, steps, max_steps = scipy_ode.PACE_WINDOW, 500, 510
    t = float(W)  # the window's mean step: (t - 0) / W = 1, not above 1.1 times the last
    t_end = t + scipy_ode.PACE_MARGIN * (max_steps - steps) + excess
    one = {"dtype": F64}
    args = (torch.zeros(1, **one), torch.ones(1, **one), torch.full((1,), t, **one),
            torch.ones(1, dtype=torch.bool), torch.full((1,), steps), torch.tensor(t_end, **one),
            max_steps, torch.arange(1))  # fmt: skip
    if excess > 0:
        with pytest.raises(scipy_ode.PaceError, match="cannot reach"):
            scipy_ode.projected_pace((0.0, 1.0), t, steps, t_end, max_steps)
        with pytest.raises(scipy_ode.PaceError, match="batch element 0"):
            tf_dop853._projected_pace(*args)
    else:
        assert scipy_ode.projected_pace((0.0, 1.0), t, steps, t_end, max_steps) == (t, 1.0)
        t_new, mean = tf_dop853._projected_pace(*args)
        assert (float(t_new[0]), float(mean[0])) == (t, 1.0)


# ---------------------------------------------------------------------------
# numerics.torch_flow.gradient_flow
# ---------------------------------------------------------------------------
class _Grow:
    """``L = -|x|^2 / 2`` (``x' = x``, unstable: the fixed-point test never succeeds);
    records the threads that evaluate the field."""

    blocks, rates = ("x",), {"x": 1.0}

    def __init__(self):
        self.threads: set[str] = set()

    def loss(self, p):
        return -(p["x"] ** 2).sum(-1) / 2

    def gradient(self, p):
        self.threads.add(threading.current_thread().name)
        return {"x": -p["x"]}


@pytest.mark.parametrize("n", [1, 61, 64, 65])
def test_torch_nfev_counts_steps_and_fixed_point_tests_on_the_documented_schedule(n):
    """gradient_flow's docstring: the fixed-point test runs "from the 64th step on, every
    check_interval steps" (attempted steps), where ``N <= 64``; a test costs ``N + 2``
    evaluations (the Hessian's N backward passes, the field at the predicted limit: the
    accounting of check_interval's docstring), a DOP853 step 12 and the start 2 (the field
    and the initial step).  So ``nfev = 2 + 12 attempts + (N + 2) tests`` with the tests
    counted from the schedule (not at the last attempt, which reaches the last time): N = 1
    tests at 64 itself, N = 61 (every 21) first at 84, not 63; N = 65 never."""
    model = _Grow()
    res = torch_flow.gradient_flow(model, {"x": torch.ones(1, n, dtype=F64)}, [30.0],
                                   device="cpu")  # fmt: skip
    attempts = int(res.steps[0] + res.rejected[0])
    tests = _expected_checks(attempts, n) if n <= 64 else 0
    assert attempts > 64 and (tests > 0) is (n <= 64)
    assert res.nfev == 2 + 12 * attempts + (n + 2) * tests
    assert math.isnan(float(res.fixed_point_t[0]))


def test_torch_max_steps_caps_attempts_exactly():
    """``max_steps`` caps "the attempted steps of each element": a run of ``n`` attempts
    passes with ``max_steps = n`` (the same states) and is refused, naming it, with
    ``n - 1``."""
    p = {"x": torch.ones(1, 1, dtype=F64)}
    ref = torch_flow.gradient_flow(_Grow(), p, [3.0], device="cpu")
    n = int(ref.steps[0] + ref.rejected[0])
    assert n >= 3
    same = torch_flow.gradient_flow(_Grow(), p, [3.0], device="cpu", max_steps=n)
    assert torch.equal(same.params["x"], ref.params["x"])
    with pytest.raises(ArithmeticError, match=f"max_steps={n - 1} attempted"):
        torch_flow.gradient_flow(_Grow(), p, [3.0], device="cpu", max_steps=n - 1)


def test_torch_a_step_landing_exactly_on_a_time_grows_as_if_it_were_not_requested(monkeypatch):
    """Only a step *cut short* to land on a requested time keeps its uncut size for the
    next step; a step that lands on the time exactly, uncut, grows by its error factor as
    any other. So requesting the time where the first step ends changes nothing: the same
    steps and, bit for bit, the same final state as without it (seed-10 mutant ``reached &
    (h_eff < h)`` -> ``reached + (h_eff < h)``, a logical OR on torch bools: growth was
    suppressed after every landing). The first step is the initial step h0, read by
    wrapping the integrator's own ``_initial_step``."""
    seen = []
    real = tf_dop853._initial_step

    def spy(*args):
        h0 = real(*args)
        seen.append(h0.clone())
        return h0

    monkeypatch.setattr(tf_dop853, "_initial_step", spy)
    p = {"x": torch.ones(1, 1, dtype=F64)}
    plain = torch_flow.gradient_flow(_Grow(), p, [3.0], device="cpu", fixed_point=False)
    h0 = float(seen[0][0])
    assert 0 < h0 < 3.0
    landed = torch_flow.gradient_flow(_Grow(), p, [h0, 3.0], device="cpu", fixed_point=False)
    assert float(seen[1][0]) == h0  # the same first step (its span is the last time)
    assert int(landed.steps[0]) == int(plain.steps[0])  # the landing is the first step
    assert torch.equal(landed.params["x"][-1], plain.params["x"][-1])
    # the other side: a time inside the first step cuts it, and the next step is the uncut
    # h0 (not grown), so the step sequence does change
    cut = torch_flow.gradient_flow(_Grow(), p, [h0 / 2, 3.0], device="cpu", fixed_point=False)
    assert not torch.equal(cut.params["x"][-1], plain.params["x"][-1])


def test_torch_default_workers_is_two(monkeypatch):
    """gradient_flow's ``workers`` defaults to DEFAULT_WORKERS = 2 Python threads stepping
    the tiles: with four tiles and a batch large enough to share (the per-worker minimum
    lowered to 1 entry), the run starts a pool of exactly two threads (recorded by wrapping
    ``concurrent.futures.ThreadPoolExecutor``: counting thread names would not do, as a pool
    may reuse an idle thread), and the field is evaluated off the caller's thread; with
    ``workers=1`` no pool is started and every evaluation is on the caller's thread."""
    import concurrent.futures

    pools = []
    real = concurrent.futures.ThreadPoolExecutor

    class Recording(real):
        def __init__(self, max_workers=None, *args, **kw):
            pools.append(max_workers)
            super().__init__(max_workers, *args, **kw)

    monkeypatch.setattr(concurrent.futures, "ThreadPoolExecutor", Recording)
    monkeypatch.setattr(tf_dop853, "MIN_WORKER_ENTRIES", 1)
    monkeypatch.setattr(tf_dop853, "_tile_spans", lambda *_a: [(0, 1), (1, 2), (2, 3), (3, 4)])
    p = {"x": torch.linspace(0.5, 1.0, 4, dtype=F64)[:, None]}
    me = threading.current_thread().name
    model = _Grow()
    torch_flow.gradient_flow(model, p, [0.5], device="cpu")
    assert pools == [2] and model.threads - {me}, (pools, model.threads)
    pools.clear()
    alone = _Grow()
    torch_flow.gradient_flow(alone, p, [0.5], device="cpu", workers=1)
    assert pools == [] and alone.threads == {me}


def test_torch_default_rtol_and_the_floor_are_the_documented_numbers():
    """``rtol`` defaults to 1e-10 in float64 (the run equals ``rtol=1e-10`` bit for bit and
    differs from 1e-11); the smallest accepted is ``100 eps`` of the dtype ("float64:
    2.2e-14; float32: 1.2e-5"): accepted there, refused one ulp below, in both dtypes
    (written as 100 * 2^-52 and 100 * 2^-23, not read from the module)."""
    p = {"x": torch.ones(1, 1, dtype=F64)}
    default = torch_flow.gradient_flow(_Grow(), p, [2.0], device="cpu")
    explicit = torch_flow.gradient_flow(_Grow(), p, [2.0], device="cpu", rtol=1e-10)
    other = torch_flow.gradient_flow(_Grow(), p, [2.0], device="cpu", rtol=1e-11)
    assert torch.equal(default.params["x"], explicit.params["x"])
    assert not torch.equal(default.params["x"], other.params["x"])
    for dtype, eps in ((F64, 2.0**-52), (torch.float32, 2.0**-23)):
        q = {"x": torch.ones(1, 1, dtype=dtype)}
        floor = 100 * eps
        torch_flow.gradient_flow(_Grow(), q, [1e-3], device="cpu", rtol=floor)
        with pytest.raises(ValueError, match="rtol must be >= "):
            torch_flow.gradient_flow(_Grow(), q, [1e-3], device="cpu",
                                     rtol=math.nextafter(floor, 0))  # fmt: skip


def test_torch_initial_step_is_scipys_select_initial_step():
    """``_initial_step``: "Hairer, Norsett & Wanner II.4 (as scipy's select_initial_step),
    per element".  With ``d0 = |y|``, ``d1 = |f|``, ``d2 = |f(y + h0 f) - f| / h0`` in units
    of the scale ``atol + rtol |y|`` (rms norms), one batch of a linear field ``f_b = g_b A
    y`` covers each branch and each constant of the formula (the bound that decides, per
    element, in the comments):

    0. a fast field (``g = 1e4``): ``h0 = 0.01 d0 / d1``, and ``100 h0`` binds;
    1. ``d0 = 1e-6 < 1e-5`` with ``d1`` large: ``h0 = 1e-6`` (not ``0.01 d0 / d1``);
    2. ``1e-5 < d1 ~ 0.1 < 1``: ``h0 = 0.01 d0 / d1`` (cut to the span); ``h1`` binds;
    3. ``1e-15 < d1 ~ 1e-6 < 1e-5``, ``d2 ~ 1e-22``: ``h0 = 1e-6``, ``h1`` from ``d1``;
    4. ``d1 ~ 1e-16 <= 1e-15 < d2 ~ 1e-10``: ``h1 = (0.01 / d2)^(1/8)``, not the flat rule;
    5. a zero field (``d1 = d2 = 0``): ``h1 = max(1e-6, h0 / 1000)``;
    6. a span of 1e-7, shorter than every estimate.

    Each element equals scipy's value (``direction = 1``, error order 7, no max_step) to
    1e-12 relative: the same formula, the norms summed in another order.  A wrong branch or
    constant changes the step by a factor 1.01 (``101 h0``) or far more."""
    from scipy.integrate._ivp.common import select_initial_step

    A = np.array([[-1.0, 0.3], [0.2, -2.0]])
    ys = np.array([[1.0, -0.5], [1e-22, 2e-22], [1.0, 1.0], [0.7, -0.2], [1e-38, 2e-38],
                   [1.0, 2.0], [1.0, 2.0]])  # fmt: skip
    gain = np.array([1e4, 1e12, 1e-11, 1e-16, 1e6, 0.0, 1.0])
    spans = np.array([10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 1e-7])
    rtol = 1e-10
    atol = np.array([1e-13, 1e-16, 1e-13, 1e-13, 1e-16, 1e-13, 1e-13])

    def f(y):
        return torch.as_tensor(gain)[:, None] * (y @ torch.as_tensor(A).T)

    y = torch.as_tensor(ys)
    got = tf_dop853._initial_step(f, y, f(y), rtol, torch.as_tensor(atol)[:, None],
                                   torch.as_tensor(spans))  # fmt: skip
    for b in range(len(ys)):
        fun = lambda _t, v, g=gain[b]: g * (A @ v)  # noqa: E731
        want = select_initial_step(fun, 0.0, ys[b], spans[b], np.inf, fun(0.0, ys[b]), 1, 7,
                                   rtol, atol[b])  # fmt: skip
        assert float(got[b]) == pytest.approx(want, rel=1e-12), (b, float(got[b]), want)


def _quadratic_flow():
    """L = theta^T H theta / 2 over one block of 4 at rate 1: the flow is linear,
    theta(t) = expm(-H t) theta_0, so the fixed-point test's linear tail is exact."""
    rng = np.random.default_rng(7)
    Q = np.linalg.qr(rng.standard_normal((4, 4)))[0]
    H = Q @ np.diag([0.05, 1.0, 1.5, 2.5]) @ Q.T

    class Quadratic:
        blocks = ("x",)

        def __init__(self):
            self.rates = {"x": 1.0}

        def loss(self, p):
            Ht = torch.as_tensor(H, dtype=F64)
            return 0.5 * torch.einsum("bi,ij,bj->b", p["x"], Ht, p["x"])

    theta = rng.standard_normal((1, 4))
    return Quadratic(), H, theta


def test_torch_fixed_point_tests_fall_on_the_64th_attempt_and_every_interval():
    """gradient_flow's docstring: the fixed-point test runs "from the 64th step on, every
    check_interval(N) steps" (attempted steps). An element stops stepping at the attempt
    whose test passed, so its attempts (steps + rejected) are 64 plus a whole number of
    intervals (320 = 64 + 16 k here). A loop counter started at 1 (seed-7 mutant) tested
    after 63, 79, ... attempts."""
    import scipy.linalg

    model, H, theta = _quadratic_flow()
    p = {"x": torch.as_tensor(theta)}
    res = torch_flow.gradient_flow(model, p, [1e4], device="cpu")
    t_fp = float(res.fixed_point_t[0])
    assert math.isfinite(t_fp) and 0 < t_fp < 1e4
    n, every = int(res.steps[0] + res.rejected[0]), scipy_ode.check_interval(4)
    assert n >= 64 and (n - 64) % every == 0, (n, every)
    # and the states the linear tail gives after the test are the exact flow's (the tail is
    # asked for the change over T - t_fp: a change over another interval, e.g. T / t_fp
    # (seed-7 mutant), is off by the whole remaining decay)
    times = [t_fp * f for f in (1.05, 1.1, 1.5, 3.0)]
    tail = torch_flow.gradient_flow(model, p, times, device="cpu")
    # this run's test may pass at another check (another horizon): the times after it
    t_tail = float(tail.fixed_point_t[0])
    after = [k for k, T in enumerate(times) if T > t_tail]
    assert len(after) >= 3 and times[after[0]] < 1.2 * t_tail, (t_tail, times)
    # the integrator's own absolute tolerance, rtol 1e-10 x 1e-3 x max|theta_0|: the state
    # there is ~1e-12 (the slow mode, e^{-0.05 t}); the tail of a linear flow is exact
    # (measured error 1e-24), a change over another interval is off by ~3e-12
    atol = 1e-10 * 1e-3 * np.abs(theta).max()
    for k in after:
        exact = scipy.linalg.expm(-H * times[k]) @ theta[0]
        got = tail.params["x"][k, 0].numpy()
        np.testing.assert_allclose(got, exact, rtol=1e-8, atol=atol, err_msg=f"T = {times[k]}")


def test_scipy_linear_tail_after_the_fixed_point_test_is_the_exact_flow():
    """scipy_ode.integrate's fixed-point test: the times after it come from the linear tail
    over ``T - t`` from the state where it passed. On the quadratic flow of
    :func:`_quadratic_flow` (a slow mode at 0.05: the state there is ~1e-12) they are the
    exact flow expm(-H T) theta_0 to the integrator's own atol (rtol 1e-10 x 1e-3 x
    max|theta_0|; measured error 8e-24); a change over another interval (T / t) is off by
    2.4e-12, 13 of those atols."""
    import scipy.linalg

    _, H, theta = _quadratic_flow()
    xs = sp.symbols("x0:4")
    Hs = sp.Matrix(H.tolist())
    v = sp.Matrix(xs)
    L = (v.T * Hs * v)[0, 0] / 2
    flow = GradientFlow(tuple(xs), (), tuple(-sp.diff(L, x) for x in xs), (("x", (4,)),), L)
    times = [50.0 * k for k in range(1, 41)]  # to t = 2000, past the test
    out, stats = scipy_ode.integrate(flow, [], theta[0].tolist(), times, 1e-10, rates=[1.0] * 4)
    t_fp = stats["fixed_point_t"]
    assert t_fp is not None and t_fp < times[-3], stats
    atol = 1e-10 * 1e-3 * np.abs(theta).max()
    after = [k for k, T in enumerate(times) if T > t_fp]
    for k in after:
        exact = scipy.linalg.expm(-H * times[k]) @ theta[0]
        np.testing.assert_allclose(out[k], exact, rtol=1e-8, atol=atol, err_msg=f"T = {times[k]}")


def test_mp_constant_sums_and_products_of_parameters():
    """A parameter-only sum or product in the field is a constant node of the Taylor program
    (``add`` / ``mul`` of ``param`` nodes, evaluated once): ``x' = -(a + b) c x`` integrates
    to ``exp(-(a + b) c t)`` at every engine (seed-7 mutant: ``kind <= "expr"`` sent a
    constant ``add`` node to the expression evaluator)."""
    x, a, b, c = sp.symbols("x a b c")
    prog = mp.compile_polynomial([x], [a, b, c], [-(a + b) * c * x])
    kinds = {op[0] for op, const in zip(prog.ops, prog.const, strict=True) if const}
    assert {"add", "mul"} <= kinds, kinds
    vals = ["0.25", "0.5", "2"]
    for engine in mp.ENGINES:
        ys, _ = mp.integrate(prog, vals, [a, b, c], [1], [0, 2], dps=30, engine=engine)
        with mpmath.workdps(40):
            want = mpmath.exp(-mpmath.mpf("1.5") * 2)
            # the engine's own tolerance: 10^-(dps + guard) per step, a few steps: 1e-28
            assert abs(ys[-1][0] - want) <= mpmath.mpf(10) ** -28 * want, engine


def test_torch_thread_counts_up_to_int32_are_accepted():
    """``threads`` (torch's intra-op threads, a C int): every int from 1 to 2**31 - 1 is
    valid, 2**31 is refused naming it (seed-8 survivor: the bound written 2*31 - 1 = 61
    refused 62 threads). Checked on the validator itself: asking torch for 2**31 - 1
    threads would start them."""
    assert tf_checks._check_threads("threads", 62) == 62
    assert tf_checks._check_threads("threads", 2**31 - 1) == 2**31 - 1
    with pytest.raises(ValueError, match=r"^threads must be an int in \[1, 2\*\*31 - 1\]"):
        tf_checks._check_threads("threads", 2**31)


def test_scipy_tail_with_a_frozen_block_warns_nothing():
    """A block that does not train (rate 0) is scaled by 0 in the fixed-point test's tail:
    ``1 / sqrt(eta)`` is taken only where eta > 0, so no numpy divide-by-zero warning reaches
    the user (seed-8 survivor: the placeholder 1.0 under the division written 0.0 gave the
    same numbers and a RuntimeWarning at every test). Warnings are errors here."""
    _, H, theta = _quadratic_flow()
    xs = sp.symbols("x0:4")
    v = sp.Matrix(xs)
    L = (v.T * sp.Matrix(H.tolist()) * v)[0, 0] / 2
    eta = [1.0, 1.0, 1.0, 0.0]
    rhs = tuple(-e * sp.diff(L, x) for e, x in zip(eta, xs, strict=True))
    flow = GradientFlow(tuple(xs), (), rhs, (("x", (4,)),), L)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out, stats = scipy_ode.integrate(flow, [], theta[0].tolist(), [500.0], 1e-10,
                                         rates=eta)  # fmt: skip
    assert stats["checks"] > 0 and np.isfinite(out).all()
    assert out[0, 3] == theta[0, 3]  # the frozen entry never moves


def test_mp_blocks_may_be_empty_but_not_reversed_or_past_the_state():
    """mp.integrate's ``blocks``: ``0 <= start <= stop <= n`` (its docstring). An empty block
    (``start == stop``, at the front, in the middle or at the end) is accepted and changes
    nothing: the same states as without it, to the last digit; a reversed block or one past
    the state's length is a ValueError naming it (seed-9 mutant ``start <= stop`` ->
    ``start < stop``: empty blocks refused)."""
    x, y = sp.symbols("x y")
    prog = mp.compile_polynomial([x, y], [], [-x, -2 * y])

    def run(blocks):
        states, _ = mp.integrate(prog, [], [], [1, 1], [1], dps=30, blocks=blocks)
        return [mpmath.nstr(v, 30) for v in states[0]]

    plain = run([(0, 1), (1, 2)])
    with mpmath.workdps(30):
        assert plain == [mpmath.nstr(mpmath.exp(-1), 30), mpmath.nstr(mpmath.exp(-2), 30)]
    for blocks in ([(0, 0), (0, 1), (1, 2)], [(0, 1), (1, 1), (1, 2)], [(0, 1), (1, 2), (2, 2)]):
        assert run(blocks) == plain, blocks
    for bad, at in (([(1, 0), (0, 2)], 0), ([(0, 1), (1, 3)], 1)):
        with pytest.raises(ValueError, match=rf"blocks\[{at}\] = .* must satisfy 0 <= start"):
            run(bad)


class _Decay:
    """``L = |x|^2 / 2`` (``x' = -x``, a stable fixed point at 0)."""

    blocks, rates = ("x",), {"x": 1.0}

    def loss(self, p):
        return (p["x"] ** 2).sum(-1) / 2

    def gradient(self, p):
        return {"x": p["x"]}


def test_torch_fixed_point_test_only_for_elements_with_times_ahead():
    """The fixed-point test looks only at elements with a requested time still ahead: an
    element that starts at rest (x = 0) reaches the last time in a few steps, before the
    first test (the 64th step); the other one (x = 1, to t = 100) is tested and found at its
    fixed point.  The first keeps fixed_point_t = nan (it reached its times by stepping),
    the second gets a time before 100 (a seed-25 survivor tested every element, and gave
    the first one fixed_point_t = 100)."""
    x = torch.tensor([[0.0], [1.0]], dtype=F64)
    res = torch_flow.gradient_flow(_Decay(), {"x": x}, [100.0], device="cpu")
    first, second = (float(v) for v in res.fixed_point_t)
    assert math.isnan(first) and int(res.steps[0] + res.rejected[0]) < 64
    assert 0 < second < 100
    # x(100) = e^-100 to the default atol (rtol 1e-3 |x0| = 1e-13): the tail's accuracy
    assert abs(float(res.params["x"][-1][1, 0])) < 1e-13 and float(res.params["x"][-1][0, 0]) == 0
