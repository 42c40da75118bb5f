"""Edges of the integrators (numerics.mp's Taylor integrator, numerics.torch_flow's batched
DOP853) pinned by survivors of the seed-2 mutation run: refusals, the documented layout of
the DOP853 stage buffer, and a step that overflows."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

import numerics
from numerics import mp, scipy_ode
from solvable._core.flows import GradientFlow
from solvable.models import kunin

torch = pytest.importorskip("torch")
from numerics import torch_flow  # noqa: E402  (needs torch)
from numerics.models import SingleNeuron  # noqa: E402  (needs torch)
from numerics.torch_flow import tableau as tf_tableau  # noqa: E402

F64 = torch.float64


# ---------------------------------------------------------------------------
# numerics.mp.integrate
# ---------------------------------------------------------------------------
_X = sp.Symbol("x")
_DECAY = mp.compile_polynomial([_X], [], [-_X])  # x' = -x


@pytest.mark.parametrize("engine", mp.ENGINES)
@pytest.mark.parametrize("times", [[-0.5, 1], ["-1e-30"], [-1], [0, -0.25]])
def test_integrate_refuses_a_negative_time(engine, times):
    """The docstring: states at ``times`` (sorted, ``>= 0``) from ``y0`` at ``t = 0``: a
    time before the start is refused, however close to 0, not answered with ``y0``.
    Written against numerics/mp.py:342:core/NumberReplacer:105 (``< 0`` -> ``< -1``)."""
    with pytest.raises(ValueError, match="times must be sorted and >= 0"):
        mp.integrate(_DECAY, [], [], [1], times, 20, engine=engine)


def test_integrate_takes_time_zero_and_later_times():
    """The other side of the refusal above: ``t = 0`` is the start itself and later times
    are ``e^{-t}`` (30 digits asked, 28 checked: the step rule holds each step to
    ``10^-(dps + guard)``)."""
    (y0,), (y1,) = mp.integrate(_DECAY, [], [], [1], [0, 1], 30)[0]
    assert y0 == 1
    with mpmath.workdps(40):
        assert abs(y1 - mpmath.exp(-1)) < mpmath.mpf(10) ** -28


# ---------------------------------------------------------------------------
# numerics.torch_flow: the DOP853 stage buffer
# ---------------------------------------------------------------------------
def _minimal_run(row: np.ndarray) -> tuple[int, int]:
    """The shortest run of slots (in torch_flow's slot order) holding every stage of
    ``row`` with a nonzero coefficient."""
    slots = [tf_tableau._STAGE_SLOT[k] for k in range(tf_tableau._STAGES) if row[k] != 0]
    return min(slots), max(slots) + 1


def test_each_dop853_combination_reads_only_the_run_of_its_nonzero_stages():
    """The layout comment of numerics/torch_flow/tableau.py: with the stages in the slot order
    (2, 1, 0, 3, ...), every combination (the stage states, the new state and the error
    estimate) reads one run of consecutive slots, 72 stage reads per step instead of 90.
    Each run is the shortest one covering its row's nonzero coefficients of scipy's DOP853
    tableau (the error estimate: stages where E3 or E5 is nonzero), and the coefficients it
    holds are the tableau's.  Written against
    numerics/torch_flow.py:136:core/ReplaceBinaryOperator_Add_Mod:1 (``|E3| + |E5|`` ->
    ``|E3| % |E5|``: the error run then covers the zero stages 1 and 2 as well)."""
    from scipy.integrate._ivp.rk import DOP853

    S = DOP853.n_stages  # 12; stage 12 (FSAL) is not in the buffer
    order = tf_tableau._SLOT_STAGE
    runs = []
    for s in range(1, S):
        lo, hi, coef = tf_tableau._STAGE_RUNS[s - 1]
        assert (lo, hi) == _minimal_run(DOP853.A[s, :S]), s
        assert np.array_equal(coef, [DOP853.A[s, k] for k in order[lo:hi]]), s
        runs.append(hi - lo)
    lo, hi, coef = tf_tableau._B_RUN
    assert (lo, hi) == _minimal_run(DOP853.B[:S])
    assert np.array_equal(coef, [DOP853.B[k] for k in order[lo:hi]])
    runs.append(hi - lo)
    either = (DOP853.E3[:S] != 0) | (DOP853.E5[:S] != 0)
    lo, hi = tf_tableau._E_LO, tf_tableau._E_HI
    assert (lo, hi) == _minimal_run(either.astype(float))
    for row, E in zip(tf_tableau._E_ROWS, (DOP853.E5, DOP853.E3), strict=True):
        assert np.array_equal(row, [E[k] for k in order[lo:hi]])
    runs.append(hi - lo)
    assert sum(runs) == 72, runs


# ---------------------------------------------------------------------------
# numerics.torch_flow: a step that overflows
# ---------------------------------------------------------------------------
class _Relax:
    """``L = e^a - a``: ``a' = 1 - e^a``, ``a(t) = -log(1 + (e^{-a0} - 1) e^{-t})``: flat
    (``a' = 1`` to rounding) far below 0, so the step grows tenfold per step until a stage
    lands where ``e^a`` overflows; then relaxes to 0.  Counts the non-finite entries the
    field is evaluated at."""

    blocks, rates = ("a",), {"a": 1.0}

    def __init__(self):
        self.nonfinite = 0

    def loss(self, p):
        a = p["a"].sum(-1)
        return torch.exp(a) - a

    def gradient(self, p):
        self.nonfinite += int((~torch.isfinite(p["a"])).sum())
        return {"a": torch.exp(p["a"]) - 1}


def test_a_step_that_overflows_is_rejected_and_the_flow_recovers():
    """numerics/torch_flow/dop853.py: "a step that overflows (or meets NaN) is rejected like a
    too-large one" -- that step only, each batch element on its own: the flow goes on
    with a smaller step and reaches the exact solution.  From ``a0 = -100, -150, -200`` to
    ``t = 201, 300`` some attempted steps overflow (asserted, so the test exercises the
    rejection).  Written against numerics/torch_flow.py:960:core/NumberReplacer:267
    (``k == 0`` -> ``k == -1``: the per-element maximum of the scale then keeps the
    previous attempt's, so one non-finite attempt rejected every later step)."""
    a0 = [-100.0, -150.0, -200.0]
    ts = [201.0, 300.0]
    model = _Relax()
    res = torch_flow.gradient_flow(model, {"a": torch.tensor(a0, dtype=F64)[:, None]}, ts)
    assert model.nonfinite > 0  # some attempted step left the float64 range
    assert bool((res.rejected > 0).all())
    with mpmath.workdps(30):
        for i, t in enumerate(ts):
            for b, start in enumerate(a0):
                exact = -mpmath.log1p((mpmath.exp(-start) - 1) * mpmath.exp(-t))
                got = float(res.params["a"][i, b, 0])
                # default rtol 1e-10, atol 1e-13 |a0|, and the flow contracts (a' = 1 - e^a
                # has slope -e^a < 0), so errors do not grow: 1e-9 on |a| <= 0.32 is a 10x
                # margin over the measured 3e-11; a wrong step is off by far more
                assert abs(got - float(exact)) <= 1e-9, (t, start, got, exact)


# ---------------------------------------------------------------------------
# simulate's float64 methods at the edges of the float64 range
# ---------------------------------------------------------------------------
_KU_SETUP = kunin.Setup(1.0, 2.0, [[1.0, 0.0], [0.0, 1.0]], [1.0, 0.5])


@pytest.mark.parametrize("method", ["scipy", "torch"])
@pytest.mark.parametrize(("a0", "w0"), [(1e300, [0.2, -0.1]), (-1e300, [0.2, 0.1]),
                                        (0.5, [1e300, 0.1])])  # fmt: skip
def test_a_start_whose_flow_overflows_float64_is_refused_naming_out0_and_in0(method, a0, w0):
    """Weights of 1e300 make the gradient of the single neuron of order 1e600-1e900: not a
    float64 number.  The float64 methods refuse the start, naming simulate's arguments and
    the way out (mpmath), instead of a failed first step at t = 0."""
    with pytest.raises(ValueError, match=r"out0/in0: the gradient flow at the start is not "
                                         r"finite in float64.*method='mpmath'"):  # fmt: skip
        numerics.simulate(_KU_SETUP, a0, w0, [0.0, 1.0], method=method)


def test_a_stiff_but_finite_start_is_integrated_by_torch_as_by_scipy():
    """The other side: a0 = 1e100 gives a finite but huge field (|f| ~ 1e200).  The
    initial-step formula of Hairer-Norsett-Wanner then gives 0; scipy raises a step to ten
    spacings of t and goes on, and so must the torch DOP853 (it stopped with "step size
    underflow at t = 0").  The balance eta_w a^2 - eta_a |w|^2 is conserved, so a stays
    1e100 to within its float64 rounding."""
    times = [0.0, 0.5, 1.0]
    states = {m: numerics.simulate(_KU_SETUP, 1e100, [0.2, -0.1], times, method=m)
              for m in ("scipy", "torch")}  # fmt: skip
    for m, st in states.items():
        delta0 = 2.0 * 1e100**2 - 1.0 * (0.2**2 + 0.1**2)
        for s in st:
            # |w|^2 <= 0.05 is below the rounding of 2 a^2 = 2e200: a^2 is conserved to
            # rtol 1e-12 (the integrators' relative tolerance)
            assert 2.0 * float(s.a) ** 2 == pytest.approx(delta0, rel=1e-12), m
    assert float(states["torch"].at(-1).a) == pytest.approx(
        float(states["scipy"].at(-1).a), rel=1e-12
    )


def test_the_mpmath_pace_projection_sees_steps_below_the_float64_range():
    """a0 = 1e300 keeps a ~ 1e300 (eta_w a^2 - eta_a |w|^2 is conserved), so w relaxes at
    the rate ~ a^2 = 1e600 for ever and an explicit method needs steps of ~1e-600: 1e598 of
    them to t = 0.1.  The projection refuses that after a few windows, also when t itself
    is below the float64 range (it was read as float(t) = 0.0, so the run went on to
    max_steps = 100000 steps, minutes, before it said so)."""
    with pytest.raises(ArithmeticError, match=r"max_steps=100000 cannot reach the last of times, "
                                              r"t = 0\.1: .*mean step [0-9.]+e-600"):  # fmt: skip
        numerics.simulate(_KU_SETUP, 1e300, [0.2, -0.1], [0.0, 0.1], method="mpmath", dps=15)
    # the projection itself, on mpf times: 250 steps of 1e-600, 1e598 more needed

    W = scipy_ode.PACE_WINDOW
    last = (mpmath.mpf("1e-600") * W, mpmath.mpf("1e-600"))
    with pytest.raises(ArithmeticError, match=r"mean step 1\.0e-600.* about 1\.0e\+599 more"):
        scipy_ode.projected_pace(last, 2 * last[0], 2 * W, mpmath.mpf("0.1"), 10**5)


def test_mpmath_resolves_a_weight_far_below_the_largest_one():
    """The other side of the refusal above: a0 = 1e100, where the relaxation rate 1e200 is
    reachable.  w relaxes to y / a0 = (1e-100, 5e-101) (X = I): mpmath controls the error of
    each block, so w has its digits although a is 1e200 times larger."""
    (st,) = numerics.simulate(_KU_SETUP, 1e100, [0.2, -0.1], [0.1], method="mpmath", dps=15)
    # w(t) = y / a + O(e^{-2 a^2 t}) and a(t) = 1e100 (1 + O(1e-200)): 14 digits at dps 15
    assert [float(v) for v in st.w] == pytest.approx([1e-100, 5e-101], rel=1e-13)


@pytest.mark.parametrize("method", ["scipy", "torch"])
def test_a_start_beyond_float64_is_refused_naming_out0_and_in0(method):
    """'1e400' is a number (decimal strings are) with no float64 value: the float64 methods
    refuse it naming simulate's arguments (torch converted it without a name)."""
    with pytest.raises(ValueError, match=r"out0/in0.*outside the float64 range"):
        numerics.simulate(_KU_SETUP, "1e400", [0.2, -0.1], [0.0, 1.0], method=method)


# ---------------------------------------------------------------------------
# numerics.scipy_ode: the flat-mode threshold of LinearTail, the pace projection's windows
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("fraction", [0.95, 1.05])
def test_linear_tail_flat_modes_are_those_within_the_documented_tau(fraction):
    """LinearTail's docstring: eigenvalues are resolved only to ``tau = max|lam| (64 N eps
    + 10 rtol)``; a mode with ``|lam_k| <= tau`` is flat, and ``change(s)`` moves only along
    the non-flat modes, ``c_k (1 - exp(-lam_k s)) / lam_k``.  ``S = diag(1, lam)`` with
    ``lam`` 5% below tau (flat: no change along it) and 5% above (it relaxes like any
    mode).  Written against numerics/scipy_ode.py:125:core/NumberReplacer:49 (``10 rtol``
    -> ``9 rtol``: 0.95 tau is then above the threshold and moves by ~s)."""

    rtol, eps, s = 1e-6, 2.0**-52, 2.0
    tau = 1.0 * (64 * 2 * eps + 10 * rtol)  # max|lam| = 1
    lam = fraction * tau
    tail = scipy_ode.LinearTail(np.diag([1.0, lam])[None], np.ones((1, 2)), np.ones((1, 2)),
                                np.ones((1, 2)), np.array([1e6]), eps, rtol)  # fmt: skip
    flat = fraction < 1
    # eigh of a diagonal matrix returns its entries (ascending) exactly
    assert tail.flat[0].tolist() == [flat, False]
    got = tail.change(s)[0]
    # c_k = 1 on both modes (z' = (1, 1), V a signed permutation), eta = 1; 1e-12 relative
    # covers the rounding of eigh's exact eigenpairs and of expm1 (~1e-16)
    assert got[0] == pytest.approx(-math.expm1(-s), rel=1e-12)
    want = 0.0 if flat else -math.expm1(-lam * s) / lam  # ~ s = 2 for the slow mode
    assert got[1] == pytest.approx(want, rel=1e-12, abs=0)


def _third_flow():
    """``x' = 1/3 - x`` (``L = (x - 1/3)^2 / 2``): 1/3 is no float64 number, so the state
    keeps a rounding-level error and DOP853 stays at its stability limit (a step ~6)."""
    from solvable._core.flows import GradientFlow

    x = sp.Symbol("x")
    third = sp.Rational(1, 3)
    return GradientFlow((x,), (), (third - x,), (("x", (1,)),), (x - third) ** 2 / 2)


def _oscillator_flow():
    """``x' = y, y' = -x``: a centre, never at rest, so DOP853's step is fixed by accuracy
    (about 0.1 at the default rtol) and never grows, whatever the rounding of the state
    (a decaying flow such as ``x' = 1/3 - x`` can land on its float64 fixed point exactly,
    after which the error estimate is 0 and the step grows without bound: scipy 1.17 does)."""
    from solvable._core.flows import GradientFlow

    x, y = sp.symbols("x y")
    return GradientFlow((x, y), (), (y, -x), (("x", (1,)), ("y", (1,))), (x**2 + y**2) / 2)


def test_the_pace_projection_runs_every_window_on_the_last_window_mean_step():
    """integrate's docstring: ``max_steps`` "is projected every PACE_WINDOW steps
    (projected_pace)", on "the mean step of the last PACE_WINDOW steps"; the first window
    has nothing to compare with, and a run that cannot reach its horizon stops at the
    first window whose mean step no longer grows.  The steps and times are those of an
    independent scipy DOP853 run (the documented rtol and atol = rtol 1e-3 (max|y0| or 1))
    of the oscillator ``x' = y, y' = -x`` to t = 1e15: the PaceError must come at that
    first window, naming its step count (a multiple of PACE_WINDOW), its time and its mean
    step.  Written against numerics/scipy_ode.py:262:core/NumberReplacer:120 (``steps % W
    == 0`` -> ``== 1``: the projection then ran at steps 1, W + 1, ...)."""
    import re

    from scipy.integrate import DOP853

    W, t_end, max_steps = scipy_ode.PACE_WINDOW, 1e15, 100_000
    rtol = scipy_ode.DEFAULT_RTOL
    with pytest.raises(scipy_ode.PaceError) as info:
        scipy_ode.integrate(_oscillator_flow(), [], [1.0, 0.0], [t_end], max_steps=max_steps)
    m = re.search(r"mean step ([^,]+), no longer growing\) it needs about \S+ more steps "
                  r"after (\d+) \(t = ([^)]+)\)", str(info.value))  # fmt: skip
    assert m, str(info.value)
    mean_said, steps_said, t_said = float(m[1]), int(m[2]), float(m[3])

    solver = DOP853(lambda _t, y: np.array([y[1], -y[0]]), 0.0, np.array([1.0, 0.0]), t_end,
                    rtol=rtol, atol=rtol * 1e-3)  # fmt: skip
    ts = [0.0]
    first = None  # the first window (after the first) whose mean step stopped growing
    while first is None and len(ts) <= 40 * W:
        solver.step()
        ts.append(solver.t)
        k = len(ts) - 1
        if k % W == 0 and k >= 2 * W:
            mean, before = (ts[k] - ts[k - W]) / W, (ts[k - W] - ts[k - 2 * W]) / W
            if 0 < mean <= scipy_ode.PACE_GROWTH * before:
                assert (t_end - ts[k]) / mean > scipy_ode.PACE_MARGIN * (max_steps - k)
                first = k
    assert first is not None  # an accuracy-limited step: it stops growing at once
    assert steps_said == first, (steps_said, first)
    # the message prints t to 6 and the mean step to 3 significant digits
    assert t_said == pytest.approx(ts[first], rel=1e-5)
    assert mean_said == pytest.approx((ts[first] - ts[first - W]) / W, rel=1e-2)


def test_torch_flow_records_times_at_zero_without_a_step():
    """Times equal to 0 are the initial state, recorded before any step: a flow asked only
    for t = 0 (once or repeated) takes no step and returns the parameters as given, bit for
    bit; with a later time too, t = 0 is still the start (seed-4 mutant torch_flow.py:943
    ``j < len(ts)`` -> ``j == len(ts)`` skipped that record and took a step to reach it)."""
    model = SingleNeuron(X=[[1.0, 0.0], [0.0, 1.0]], y=[1.0, 0.5], eta_a=1.0, eta_w=2.0)
    a0 = torch.tensor([0.5, -0.3], dtype=torch.float64)
    w0 = torch.tensor([[0.2, -0.1], [0.4, 0.3]], dtype=torch.float64)
    for times in ([0.0], [0.0, 0.0]):
        r = torch_flow.gradient_flow(model, {"a": a0, "w": w0}, times, device="cpu")
        assert r.steps.tolist() == [0, 0] and r.rejected.tolist() == [0, 0]
        for k in range(len(times)):
            assert torch.equal(r.params["a"][k], a0) and torch.equal(r.params["w"][k], w0)
    r = torch_flow.gradient_flow(model, {"a": a0, "w": w0}, [0.0, 0.5], device="cpu")
    assert torch.equal(r.params["a"][0], a0) and torch.equal(r.params["w"][0], w0)
    assert bool((r.steps > 0).all())


def test_linear_tail_bounds_the_drift_along_a_flat_mode():
    """``numerics.scipy_ode.LinearTail``: a flat mode (an eigenvalue of ``S`` within
    ``tau`` of 0) drifts by at most ``|c_k| min(s, 1/lam_+)`` (its docstring), in units of
    the tolerance ``scale`` per unit of ``sqrt(eta)``.  S = diag(0, 2): lam_+ = 2, so with
    ``s = 10`` the flat drift of ``z' = (0.3, 0)`` is 0.3 * 1/2 = 0.15 (scale 1), 0.15 * 3/0.5
    = 0.9 with sqrt(eta) = 3 and scale 1/2; the stable mode does not move
    (``remaining`` 0); with ``s = 0.2`` < 1/lam_+ the drift is 0.3 * 0.2.  Seed-4 mutant
    scipy_ode.py:155 (``weight + flat horizon`` -> ``-``) made the drift negative."""
    from numerics.scipy_ode import LinearTail

    S = np.array([[[0.0, 0.0], [0.0, 2.0]]])
    zdot = np.array([[0.3, 0.0]])

    def tail(t_left, root_eta=1.0, scale=1.0):
        return LinearTail(S, zdot, np.full((1, 2), scale), np.full((1, 2), root_eta),
                          np.array([t_left]), eps=2.2e-16, rtol=1e-10)  # fmt: skip

    # 1e-15 relative: a product and a quotient of exact binary fractions and 0.3
    np.testing.assert_allclose(tail(10.0).drift, [0.15], rtol=1e-15)
    np.testing.assert_allclose(tail(10.0, 3.0, 0.5).drift, [0.9], rtol=1e-15)
    np.testing.assert_allclose(tail(0.2).drift, [0.3 * 0.2], rtol=1e-15)
    assert tail(10.0).remaining.tolist() == [0.0]


def test_scipy_integrate_counts_every_evaluation(monkeypatch):
    """stats["nfev"] is the number of vector-field evaluations: counted here by wrapping the
    compiled field (seed-6 mutant: the count started at -1)."""

    real = scipy_ode._compiled
    calls = []

    def counting(flow):
        f = real(flow)

        def g(y, params):
            calls.append(1)
            return f(y, params)

        return g

    monkeypatch.setattr(scipy_ode, "_compiled", counting)
    _, stats = scipy_ode.integrate(_third_flow(), [], [0.0], [0.5, 5.0])
    assert stats["nfev"] == len(calls) > 0


def test_mp_max_steps_caps_the_steps_from_both_sides():
    """mp.integrate's max_steps: a run that takes n steps passes with max_steps = n and is
    refused, naming max_steps, with max_steps = n - 1 (seed-6 mutant: steps > max_steps let
    one more step through; the step landing on the last time was not counted either, found
    by an outsider's audit: n steps passed with max_steps = n - 1, unlike scipy and torch)."""
    x = sp.Symbol("x")
    prog = mp.compile_polynomial([x], [], [-x])
    _, stats = mp.integrate(prog, [], [], [1], [0, 40], dps=30)
    n = stats["steps"]
    assert n >= 3
    _, again = mp.integrate(prog, [], [], [1], [0, 40], dps=30, max_steps=n)
    assert again["steps"] == n
    for fewer in (n - 1, n - 2):
        with pytest.raises(ArithmeticError, match=f"max_steps={fewer} steps taken"):
            mp.integrate(prog, [], [], [1], [0, 40], dps=30, max_steps=fewer)


@pytest.mark.parametrize("rates", [None, []])
def test_scipy_integrate_of_a_flow_with_no_state_is_an_empty_state_at_every_time(rates):
    """A flow whose blocks hold no entry does not move: ``(len(times), 0)`` states and no
    evaluation of the field (it was refused as "the field at the start is not finite", a
    wrong reason; found triaging a seed-24 survivor of ``scipy_ode.py``, whose fixed-point
    test ``0 < N`` is now reached only with ``N >= 1``)."""
    c = sp.Symbol("c")
    flow = GradientFlow(state=(), params=(c,), rhs=(), blocks=(("w", (0,)),), loss=c)
    ys, stats = scipy_ode.integrate(flow, [1.0], [], [0.0, 1.0, 2.0], rates=rates)
    assert ys.shape == (3, 0) and ys.dtype == float
    assert stats == {"nfev": 0, "steps": 0, "checks": 0, "fixed_point_t": None}
