"""Edges of the integrators (numerics.mp's Taylor integrator, numerics.torch_flow's batched
DOP853) pinned by survivors of the seed-2 mutation run: refusals, the documented layout of
the DOP853 stage buffer, and a step that overflows."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

import numerics
from numerics import mp
from solvable import kunin

torch = pytest.importorskip("torch")
from numerics import torch_flow  # noqa: E402  (needs torch)

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
    slots = [torch_flow._STAGE_SLOT[k] for k in range(torch_flow._STAGES) if row[k] != 0]
    return min(slots), max(slots) + 1


def test_each_dop853_combination_reads_only_the_run_of_its_nonzero_stages():
    """The layout comment of numerics/torch_flow.py: with the stages in the slot order
    (2, 1, 0, 3, ...), every combination (the stage states, the new state and the error
    estimate) reads one run of consecutive slots, 72 stage reads per step instead of 90.
    Each run is the shortest one covering its row's nonzero coefficients of scipy's DOP853
    tableau (the error estimate: stages where E3 or E5 is nonzero), and the coefficients it
    holds are the tableau's.  Written against
    numerics/torch_flow.py:136:core/ReplaceBinaryOperator_Add_Mod:1 (``|E3| + |E5|`` ->
    ``|E3| % |E5|``: the error run then covers the zero stages 1 and 2 as well)."""
    from scipy.integrate._ivp.rk import DOP853

    S = DOP853.n_stages  # 12; stage 12 (FSAL) is not in the buffer
    order = torch_flow._SLOT_STAGE
    runs = []
    for s in range(1, S):
        lo, hi, coef = torch_flow._STAGE_RUNS[s - 1]
        assert (lo, hi) == _minimal_run(DOP853.A[s, :S]), s
        assert np.array_equal(coef, [DOP853.A[s, k] for k in order[lo:hi]]), s
        runs.append(hi - lo)
    lo, hi, coef = torch_flow._B_RUN
    assert (lo, hi) == _minimal_run(DOP853.B[:S])
    assert np.array_equal(coef, [DOP853.B[k] for k in order[lo:hi]])
    runs.append(hi - lo)
    either = (DOP853.E3[:S] != 0) | (DOP853.E5[:S] != 0)
    lo, hi = torch_flow._E_LO, torch_flow._E_HI
    assert (lo, hi) == _minimal_run(either.astype(float))
    for row, E in zip(torch_flow._E_ROWS, (DOP853.E5, DOP853.E3), strict=True):
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
    """numerics/torch_flow.py: "a step that overflows (or meets NaN) is rejected like a
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
    assert float(states["torch"][-1].a) == pytest.approx(float(states["scipy"][-1].a), rel=1e-12)


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
    from numerics import scipy_ode

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
