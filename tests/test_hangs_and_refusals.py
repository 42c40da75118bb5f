"""No hang, no silent low precision, a clear error for an empty batch (issue 28, items 4-6).

* The isotropy check of ``kunin.closed_form`` on exact data (ints, decimal strings) or
  floats outside 2^+-400 ran ``O(n d^2)`` high-precision products (25 s at n = d = 240, days
  at 5000); it is now exact integer arithmetic on BLAS (:mod:`solvable._core.exact_gram`),
  checked here against ``Fraction`` arithmetic, and too-wide data is refused before work.
* ``torch_flow.gradient_descent`` stepped on inf / NaN to the last requested step; it now
  stops within :data:`numerics.torch_flow.CHECK_EVERY` steps and names the first step that
  is non-finite, checked here against a step-by-step loop.
* ``gradient_flow`` accepted float16 / bfloat16 with rtol 0.1 / 0.8 (errors of 0.34); a
  batch of size 0 was an ``IndexError`` from inside the memory splitter.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import scipy.linalg
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import models, torch_flow
from solvable._core import exact_gram
from solvable.models import kunin
from solvable.models import xu_ziyin as xz

# ---------------------------------------------------------------------------
# exact Gram
# ---------------------------------------------------------------------------
entry = st.one_of(
    st.integers(-(10**30), 10**30),
    st.fractions(max_denominator=10**6),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e30, max_value=1e30),
    st.decimals(allow_nan=False, allow_infinity=False, places=12,
                min_value=-(10**6), max_value=10**6).map(str),
    st.floats(-1e10, 1e10).map(lambda v: mpmath.mpf(v) / 3),
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(data=st.integers(1, 6).flatmap(lambda d: st.lists(st.lists(entry, min_size=d,
                                                                    max_size=d),
                                                           min_size=1, max_size=7)))  # fmt: skip
def test_exact_gram_is_exact(data):
    G, D2 = exact_gram.exact_gram(data)
    F = [[exact_gram.to_fraction(v) for v in row] for row in data]
    d = len(F[0])
    for p in range(d):
        for q in range(d):
            assert Fraction(int(G[p, q]), D2) == sum(row[p] * row[q] for row in F)
    s, dev = exact_gram.isotropy_defect(data)
    trace = sum(sum(row[p] ** 2 for row in F) for p in range(d))
    assert s == trace / d
    assert dev == max(abs(sum(row[p] * row[q] for row in F) - (s if p == q else 0))
                      for p in range(d) for q in range(d))  # fmt: skip


def test_exact_gram_limbs_carry_across_the_split():
    # entries of exactly 2^b - 1 and 2^b (the limb boundary for n = 3) and a sign change
    b = exact_gram._limb_bits(3)
    rows = [[2**b - 1, -(2**b)], [2 ** (3 * b) + 1, 7], [-(2 ** (2 * b)), 2**b + 1]]
    G, D2 = exact_gram.exact_gram(rows)
    assert D2 == 1
    assert [[int(v) for v in r] for r in G] == [
        [sum(r[p] * r[q] for r in rows) for q in range(2)] for p in range(2)
    ]


def test_too_wide_data_is_refused_before_any_work(monkeypatch):
    monkeypatch.setattr(exact_gram, "MAX_WORK", 10**4)
    rows = [[2.0**-1000, 2.0**900], [1.0, 3.0]]  # one denominator: 1900-bit integers
    with pytest.raises(ValueError, match=r"X: the exact isotropy check .* limbs"):
        exact_gram.exact_gram(rows, "X")


def test_kunin_isotropy_of_exact_data_is_decided_exactly_and_quickly():
    """Exact Hadamard data (n = d = 128, isotropic: accepted) and the same data with one
    entry changed by 1 (refused, the deviation quoted exactly); the old mpmath loop took
    about 4 s for each of these, the exact check a fraction of a second."""
    H = scipy.linalg.hadamard(128).tolist()
    setup = kunin.Setup(1, 2, H, [1] * 128)
    s, dev = kunin.isotropy(setup)
    assert s == 128 and dev == 0
    kunin.closed_form(setup, "0.5", ["0.01"] * 128)
    H[5][7] += 1  # column 7 gains 2 H_5,7 + 1 in its norm; 1 in 127 inner products
    bad = kunin.Setup(1, 2, H, [1] * 128)
    s, dev = kunin.isotropy(bad)
    assert dev == max(abs(2 * H[5][7] - 1 - 0) - (s - 128), s - 128, 1)  # exact arithmetic
    with pytest.raises(ValueError, match="isotropic columns"):
        kunin.closed_form(bad, "0.5", ["0.01"] * 128)


def test_kunin_isotropy_of_extreme_floats_uses_the_exact_check():
    # floats beyond 2^+-400 (outside the float64 fast path): orthogonal columns scaled by
    # 2^-900 are isotropic exactly
    X = (np.array(scipy.linalg.hadamard(16), dtype=float) * 2.0**-900).tolist()
    s, dev = kunin.isotropy(kunin.Setup(1, 1, X, [0.0] * 16))
    assert s == mpmath.ldexp(16, -1800) and dev == 0


# ---------------------------------------------------------------------------
# gradient descent: the first non-finite step
# ---------------------------------------------------------------------------
def _xz(case_name: str = "generic"):
    case = xz.case(case_name)
    s = case.setup
    model = models.TwoLayerLinear(np.array(s.x, dtype=float), float(s.y), float(s.gamma),
                                  float(s.eta_u), float(s.eta_w))  # fmt: skip
    u0 = np.array([float(v) for v in case.u0])
    W0 = np.array([[float(v) for v in r] for r in case.W0])
    params = {"u": torch.tensor(np.stack([u0, 0.01 * u0])),
              "W": torch.tensor(np.stack([W0, 0.01 * W0]))}  # fmt: skip
    return model, params


def _first_nonfinite_step(model, params, lr, limit):
    """Independent: plain gradient descent in a Python loop, one step at a time."""
    p = {k: v.clone().requires_grad_(True) for k, v in params.items()}
    rates = model.rates
    for step in range(1, limit + 1):
        loss = model.loss(p).sum()
        grads = torch.autograd.grad(loss, list(p.values()))
        with torch.no_grad():
            p = {k: (v - lr * rates[k] * g).requires_grad_(True)
                 for (k, v), g in zip(p.items(), grads, strict=True)}  # fmt: skip
        finite = [all(bool(torch.isfinite(v[b]).all()) for v in p.values())
                  for b in range(params["u"].shape[0])]  # fmt: skip
        if not all(finite):
            return step, [b for b, ok in enumerate(finite) if not ok]
    return None, []


@pytest.mark.parametrize("lr", [50.0, 8.0])
def test_gradient_descent_names_the_first_non_finite_step(lr):
    model, params = _xz()
    step, rows = _first_nonfinite_step(model, params, lr, 2000)
    assert step is not None
    with pytest.raises(ArithmeticError) as info:
        torch_flow.gradient_descent(model, params, lr, [10**9])  # stops, does not run 1e9
    text = str(info.value)
    assert f"after step {step} " in text and f"element(s) {rows[0]}" in text
    if step > 1:  # one step earlier is still finite, and recorded
        out = torch_flow.gradient_descent(model, params, lr, [step - 1])
        assert all(bool(torch.isfinite(v).all()) for v in out.params.values())


# ---------------------------------------------------------------------------
# empty batch, low precision
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("call", ["flow", "descent"])
def test_an_empty_batch_is_a_value_error_naming_params(call):
    model, params = _xz()
    empty = {k: v[:0] for k, v in params.items()}
    with pytest.raises(ValueError, match=r"params must hold at least one batch element"):
        if call == "flow":
            torch_flow.gradient_flow(model, empty, [1.0])
        else:
            torch_flow.gradient_descent(model, empty, 0.01, [3])


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision_flow_is_refused_naming_the_dtype(dtype):
    model, params = _xz()
    with pytest.raises(ValueError, match=rf"{dtype}.*float32 or float64"):
        torch_flow.gradient_flow(model, params, [1.0], dtype=dtype)
    with pytest.raises(ValueError, match=rf"{dtype}"):  # given as half tensors too
        torch_flow.gradient_flow(model, {k: v.to(dtype) for k, v in params.items()}, [1.0])


def test_float32_flow_is_accepted_and_accurate_to_its_rtol():
    model, params = _xz()
    ref = torch_flow.gradient_flow(model, params, [1.0])
    f32 = torch_flow.gradient_flow(model, params, [1.0], dtype=torch.float32)
    assert f32.params["u"].dtype == torch.float32
    err = (f32.params["u"].double() - ref.params["u"]).abs().max().item()
    # float32's default rtol is min_rtol (100 eps_32 = 1.2e-5); over t = 1 the global error
    # stays within a few rtol of max |u| (about 1 here)
    assert err <= 10 * torch_flow.min_rtol(torch.float32)


# ---------------------------------------------------------------------------
# one dps range for the mpmath oracles; mpmath in, mpmath out
# ---------------------------------------------------------------------------
def test_the_dps_ranges_of_simulate_and_verify_are_stated_and_enforced(capsys):
    """simulate's mpmath method takes dps >= 15 (float64's digits; below, use scipy) and
    verify --dps takes >= 30, where the claims' tolerances are validated (at 15 digits four
    claims failed falsely); both edges are valid, one below each is refused naming it."""
    import numerics
    from solvable._core.numbers import MIN_ORACLE_DPS, VERIFY_MIN_DPS
    from solvable.verification import cli

    case = xz.case("generic")
    args = (case.setup, case.u0, case.W0, [0.5])
    below = MIN_ORACLE_DPS - 1
    with pytest.raises(ValueError, match=rf"dps must be >= {MIN_ORACLE_DPS}.*got {below}"):
        numerics.simulate(*args, dps=MIN_ORACLE_DPS - 1)
    (state,) = numerics.simulate(*args, dps=MIN_ORACLE_DPS)  # the edge itself is valid
    assert isinstance(state.u[0], mpmath.mpf)
    with pytest.raises(SystemExit):
        cli.main(["verify", "--dps", str(VERIFY_MIN_DPS - 1)])
    assert f">= {VERIFY_MIN_DPS}" in capsys.readouterr().err
    assert cli.main(["verify", "--only", "xu_ziyin.eq_33", "--dps", str(VERIFY_MIN_DPS),
                     "--no-cache"]) == 0  # fmt: skip


def test_hyperbolic_entropy_mpmath_in_mpmath_out():
    from solvable.models import mirror_flow

    with mpmath.workdps(40):
        value = mirror_flow.hyperbolic_entropy(mpmath.mpf(2), 1, 1, 1)
        exact = mirror_flow.hyperbolic_entropy(2, 1, 1, 1, dps=40)
    assert isinstance(value, mpmath.mpf) and value == exact
    assert isinstance(mirror_flow.hyperbolic_entropy(2.0, 1, 1, 1), float)


@pytest.mark.parametrize("y_scale", [2.0**-300, 1.0])
def test_wide_closed_form_at_extreme_data_scales_is_right_in_float64(y_scale):
    """X = H_4 2^-300 (s = 2^-598: kappa^2 underflows), Y of the same scale (beta* = O(1);
    on main: LinAlgError from inside, then a refusal) or of order 1 (beta* ~ 1e90; before the
    normalisation float64 returned the start state at every t up to 1e150, silently).  The
    float64 trajectory now runs on (c X, c Y), c = 2^299 exact, at time t / c^2: it agrees
    with dps = 30 at the scale's own times, at t = 1e300 and at t = inf."""
    H = (scipy.linalg.hadamard(4) * 2.0**-300).tolist()
    Y = [[v * y_scale] for v in (1.0, 0.5, -0.3, 0.2)]
    setup = kunin.WideSetup(1.0, 1.0, H, Y)
    A0, W0 = [[0.5]], [[0.1, 0.2, -0.1, 0.05]]
    f64 = kunin.wide_closed_form(setup, A0, W0)
    ref = kunin.wide_closed_form(setup, A0, W0, dps=30)
    rate = 2 * float(max(abs(ref.rates)))
    assert rate / (2 * float(max(abs(f64.rates)))) == pytest.approx(1, rel=1e-14)
    for t in (0.0, 0.3 / rate, 3 / rate, 30 / rate, 1e300, math.inf):
        got, want = f64.at(t), ref.at(mpmath.inf if t == math.inf else t)
        b = np.asarray(got.beta, dtype=float)
        w = np.array([[float(v) for v in row] for row in want.beta])
        # float64 closed form of an orthogonal start (condition ~ 1): ~1e-15 of |beta|; a
        # lost nonlinearity or an underflowed limit is O(1) off
        assert np.max(np.abs(b - w)) <= 1e-12 * np.max(np.abs(w)), (t, b, w)
    far, limit = ref.at(1e300), ref.at(mpmath.inf)
    assert mpmath.almosteq(far.beta[0][0], limit.beta[0][0], rel_eps=mpmath.mpf(10) ** -28)


def test_wide_closed_form_refuses_float64_beyond_its_range():
    """beta* = X^T Y / s beyond the float64 range (X = H_4 2^-600, Y of order 2^500): a
    ValueError saying to pass dps, never an inf, a NaN or an OverflowError from inside."""
    H = (scipy.linalg.hadamard(4) * 2.0**-500).tolist()
    Y = [[v * 2.0**500] for v in (1.0, 0.5, -0.3, 0.2)]
    with pytest.raises(ValueError, match=r"pass dps"):
        kunin.wide_closed_form(kunin.WideSetup(1.0, 1.0, H, Y), [[0.5]],
                               [[0.1, 0.2, -0.1, 0.05]])  # fmt: skip


@pytest.mark.parametrize("dps", [None, 50])
def test_kunin_delta_is_exact_from_exact_inputs(dps):
    """eta_w a0^2 - eta_a |w0|^2 with a0^2 = 1 + 2e-31 + 1e-62: formed at working precision
    it kept dps - 31 digits (on main: 1.99999999999999999999999999999855e-31 at dps = 50);
    formed exactly and rounded once it is right to the last digit, and so is float64's."""
    setup = kunin.Setup("0.8", 1, [[1, 0], [0, 1]], [1, "0.5"])  # eta_a, eta_w
    a0, w0 = "1.0000000000000000000000000000001", ["1", "0.5"]
    exact = Fraction(a0) ** 2 - Fraction(4, 5) * (1 + Fraction(1, 4))  # 2e-31 + 1e-62
    traj = kunin.closed_form(setup, a0, w0, dps=dps)
    if dps is None:
        assert traj.delta == float(exact)  # correctly rounded
    else:
        with mpmath.workdps(dps):
            want = mpmath.mpf(exact.numerator) / exact.denominator
        assert traj.delta == want


# ---------------------------------------------------------------------------
# max_steps: a horizon out of reach stops after a few windows, not after max_steps steps
# ---------------------------------------------------------------------------
def test_the_pace_projection_from_both_sides():
    from numerics import scipy_ode

    W, M = scipy_ode.PACE_WINDOW, scipy_ode.PACE_MARGIN
    # steady pace 1.0 per step, from t = 2W after 2W steps: t_end = 2W + M * 1000 needs
    # M * 1000 more steps; refused only beyond M times what max_steps leaves (inclusive)
    last = (float(W), 1.0)
    t_end = 2.0 * W + M * 1000
    assert scipy_ode.projected_pace(last, 2.0 * W, 2 * W, t_end, 2 * W + 1000)
    with pytest.raises(ArithmeticError, match=rf"max_steps={2 * W + 999} cannot reach"):
        scipy_ode.projected_pace(last, 2.0 * W, 2 * W, t_end, 2 * W + 999)
    # a pace still growing (beyond PACE_GROWTH) is never projected, however far t_end is
    grown = (float(W), 1.0 / (scipy_ode.PACE_GROWTH + 0.01))
    assert scipy_ode.projected_pace(grown, 2.0 * W, 2 * W, 1e300, 2 * W + 1)
    # the first window has nothing to compare with: no projection
    assert scipy_ode.projected_pace(None, float(W), W, 1e300, W + 1) == (float(W), 1.0)

    # the blow-up wording from both sides of its threshold: the mean step (1.0 here) below
    # half the previous window's says the steps shrink; at exactly half it does not
    for previous, shrinking in ((2.0 + 1e-9, True), (2.0, False)):
        with pytest.raises(ArithmeticError, match="cannot reach") as info:
            scipy_ode.projected_pace((float(W), previous), 2.0 * W, 2 * W, 1e300, 2 * W + 1)
        assert ("the steps shrink: a finite-time blow-up" in str(info.value)) is shrinking


def test_simulate_without_the_fixed_point_test_stops_early_on_a_far_horizon(monkeypatch):
    import numerics
    from numerics import scipy_ode

    monkeypatch.setattr(scipy_ode, "FIXED_POINT_MAX_STATE", 0)  # as for a flow of > 64
    case = xz.case("generic")
    with pytest.raises(ArithmeticError, match="max_steps=100000 cannot reach the last of times"):
        numerics.simulate(case.setup, case.u0, case.W0, [1e15], method="scipy")


def test_torch_gradient_flow_without_the_fixed_point_test_stops_early_on_a_far_horizon():
    """The torch DOP853 has scipy's work budget, per batch element: a horizon its steps cannot
    reach within max_steps stops after a few windows (it ran all 100 000 attempts, about two
    minutes, before), naming the element; a reachable horizon is not refused."""
    import torch

    from numerics import models, torch_flow

    case = xz.case("generic")
    s = case.setup
    f = lambda a: np.vectorize(float, otypes=[float])(np.asarray(a, dtype=object))  # noqa: E731
    model = models.TwoLayerLinear(f(s.x), float(s.y), float(s.gamma), float(s.eta_u),
                                  float(s.eta_w))  # fmt: skip
    params = {k: torch.tensor(f(v), dtype=torch.float64)[None].repeat(2, *[1] * np.ndim(v))
              for k, v in (("u", case.u0), ("W", case.W0))}  # fmt: skip
    with pytest.raises(ArithmeticError, match=r"^batch element 0: max_steps=100000 cannot "
                       r"reach the last of times, t = 1e\+15") as info:  # fmt: skip
        torch_flow.gradient_flow(model, params, [1e15], fixed_point=False)
    assert isinstance(info.value, ValueError)  # a PaceError: also a ValueError of the times
    # the same flow to a horizon within reach runs, and the fixed-point test (on by
    # default) reaches the far one
    near = torch_flow.gradient_flow(model, params, [50.0], fixed_point=False)
    far = torch_flow.gradient_flow(model, params, [1e15])
    assert torch.isfinite(near.params["u"]).all() and torch.isfinite(far.params["u"]).all()


def test_the_torch_pace_projection_from_both_sides():
    """torch_flow.dop853._projected_pace: the rule of scipy_ode.projected_pace per element (test
    above it), from both sides of its budget, its growth test and its first window."""
    import torch

    from numerics import scipy_ode
    from numerics.torch_flow import dop853 as tf_dop853

    W, M = scipy_ode.PACE_WINDOW, scipy_ode.PACE_MARGIN
    f64 = lambda *v: torch.tensor(v, dtype=torch.float64)  # noqa: E731
    rows, due = torch.arange(2), torch.tensor([True, True])
    t_end = 2.0 * W + M * 1000
    used = torch.tensor([2 * W, 2 * W])
    # element 1 is never projected: its pace (1e6 per step) grew from 1e-300
    prev_t, prev_mean, t = f64(W, -1e6 * W), f64(1.0, 1e-300), f64(2.0 * W, 2.0 * W)
    t_new, mean = tf_dop853._projected_pace(prev_t, prev_mean, t, due, used, t_end,
                                             2 * W + 1000, rows)  # fmt: skip
    assert t_new.tolist() == t.tolist() and mean[0] == 1.0
    with pytest.raises(ArithmeticError, match=rf"^batch element 0: max_steps={2 * W + 999} "):
        tf_dop853._projected_pace(prev_t, prev_mean, t, due, used, t_end, 2 * W + 999, rows)
    # an element that is done is never projected, however far t_end is; and the error
    # names the element's row, not its position among those due
    tf_dop853._projected_pace(prev_t, prev_mean, t, torch.tensor([False, True]), used,
                               1e300, 2 * W + 1, rows)  # fmt: skip
    with pytest.raises(ArithmeticError, match=r"^batch element 7: "):
        tf_dop853._projected_pace(prev_t, prev_mean, t, due, used, 1e300, 2 * W + 1,
                                   torch.tensor([7, 8]))  # fmt: skip
    # a pace still growing is not projected; the first window (mean 0) neither
    grown = f64(1.0 / (scipy_ode.PACE_GROWTH + 0.01), 1e-300)
    tf_dop853._projected_pace(prev_t, grown, t, due, used, 1e300, 2 * W + 1, rows)
    tf_dop853._projected_pace(prev_t, f64(0.0, 0.0), t, due, used, 1e300, 2 * W + 1, rows)
    # the blow-up wording from both sides: below half the previous mean, and at half
    for previous, shrinking in ((2.0 + 1e-9, True), (2.0, False)):
        with pytest.raises(ArithmeticError, match="cannot reach") as info:
            tf_dop853._projected_pace(prev_t, f64(previous, 1e-300), t, due, used, 1e300,
                                       2 * W + 1, rows)  # fmt: skip
        assert ("the steps shrink: a finite-time blow-up" in str(info.value)) is shrinking
    # max_steps at int64's top: the budget is a float, no overflow
    tf_dop853._projected_pace(prev_t, prev_mean, t, due, used, t_end, 2**63 - 1, rows)


@settings(max_examples=25, deadline=None)
@given(ex=st.integers(-620, 620), ey=st.integers(-620, 620))
def test_wide_closed_form_float64_is_right_or_refused_at_every_scale(ex, ey):
    """X = H_4 2^ex, Y = y 2^ey (beta* ~ 2^(ey - ex)): float64 gives beta within 1e-12 of
    dps = 30's at the flow's own times, t = 1e300 and t = inf, or refuses with a ValueError
    saying to pass dps (measured over the 32 x 32 grid of ex, ey in steps of 40: 4032 states
    right, 334 refusals, none wrong)."""
    H = (scipy.linalg.hadamard(4) * 2.0**ex).tolist()
    Y = [[v * 2.0**ey] for v in (1.0, 0.5, -0.3, 0.2)]
    setup = kunin.WideSetup(1.0, 1.0, H, Y)
    A0, W0 = [[0.5]], [[0.1, 0.2, -0.1, 0.05]]
    try:
        f64 = kunin.wide_closed_form(setup, A0, W0)
    except ValueError as e:
        assert "pass dps" in str(e)
        return
    ref = kunin.wide_closed_form(setup, A0, W0, dps=30)
    rate = 2 * float(max(abs(ref.rates)))
    for t in (0.3 / rate, 30 / rate, 1e300, math.inf):
        if not math.isfinite(t) and t != math.inf:
            continue
        try:
            got = np.asarray(f64.at(t).beta, dtype=float)
        except ValueError as e:  # a state beyond float64 at that time
            assert "pass dps" in str(e)
            continue
        want = np.array([[float(v) for v in row]
                         for row in ref.at(mpmath.inf if t == math.inf else t).beta])  # fmt: skip
        # orthogonal start (condition ~ 1): float64 keeps ~1e-15 of |beta|
        assert np.max(np.abs(got - want)) <= 1e-12 * np.max(np.abs(want)), (t, got, want)
