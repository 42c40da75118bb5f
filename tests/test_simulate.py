"""numerics.simulate (the raw gradient flow of seed 001, Xu & Ziyin eqs. (4)-(5)/(31))
against the closed form, the Taylor-program compiler on toy ODEs, and input errors."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

import numerics
from numerics import mp
from solvable._core.tolerance import digits, relative_error
from solvable.models import xu_ziyin as xz

# d = 3, d0 = 2, eta_u != eta_w in all cases (suite setups: eta_u = 1, eta_w = 0.5 or 4, 1)
_TINY = (
    xz.Setup(eta_u="1", eta_w="0.5", gamma="0.7", x=("1", "2"), y="1"),
    ("1e-4", "-2e-4", "0.5e-4"),
    (("1e-4", "0"), ("0", "1e-4"), ("-1e-4", "1e-4")),
)


def _case(name: str):
    if name == "tiny_1e-4":  # near-saddle initialisation, escapes after ~ t_c log(1e4)
        return _TINY
    c = xz.case(name)
    return c.setup, c.u0, c.W0


CASES = ["generic", "y_negative", "near_antiparallel", "tiny_1e-4"]


def _times(traj, dps):
    with mpmath.workdps(dps + 10):
        return [mpmath.mpf(0), traj.t_c / 10, traj.t_c, 10 * traj.t_c]


def _digits(sim, exact):
    """Worst normwise digits (-log10(max|a - b| / max|b|)) over u, W, f and the times."""
    return min(
        min(digits(s.u, exact.u[k]), digits(s.W, exact.W[k]), digits([s.f], [exact.f[k]]))
        for k, s in enumerate(sim)
    )


def test_taylor_coefficients_are_the_series_of_the_solution():
    """The integrator's Taylor coefficients (Cauchy products of the compiled program) at
    t = 0 are those of the exact solutions: x' = x^2, x(0) = 1 is 1/(1 - t) and
    x' = x y, y' = -x y, (x, y)(0) = (1, 1) is x = 2/(1 + e^{-2t}), y = 2 - x (a product of
    two different series); coefficients from mpmath.taylor at 40 digits."""
    x, y = sp.symbols("x y")
    order_ = 12
    with mpmath.workdps(40):
        square = mp.compile_polynomial([x], [], [x**2])
        cvals = mp._const_values(square, [], [])
        (got,) = mp._taylor(square, mp._plan(square, cvals), cvals, [mpmath.mpf(1)], order_)
        want = mpmath.taylor(lambda t: 1 / (1 - t), 0, order_)
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= mpmath.mpf(10) ** -35
        pair = mp.compile_polynomial([x, y], [], [x * y, -x * y])
        cvals = mp._const_values(pair, [], [])
        gx, gy = mp._taylor(pair, mp._plan(pair, cvals), cvals, [mpmath.mpf(1)] * 2, order_)
        wx = mpmath.taylor(lambda t: 2 / (1 + mpmath.exp(-2 * t)), 0, order_)
        wy = mpmath.taylor(lambda t: 2 - 2 / (1 + mpmath.exp(-2 * t)), 0, order_)
        # mpmath.taylor differentiates numerically: ~10^-30 at order 12 with 40 digits
        for g, w in ((gx, wx), (gy, wy)):
            assert max(abs(a - b) for a, b in zip(g, w, strict=True)) <= mpmath.mpf(10) ** -25


@pytest.mark.parametrize("scale", ["1e-40", "1", "1e40"])
def test_error_control_is_relative_to_the_state(scale):
    """x' = -x from x(0) = scale: x(t) = scale e^{-t} to 28 relative digits at dps 30,
    whatever the scale (the step rule is relative to each block's size; an absolute rule
    would leave ~10 digits at scale 1e-40)."""
    x = sp.Symbol("x")
    prog = mp.compile_polynomial([x], [], [-x])
    times = [mpmath.mpf(1) / 3, 5, 40]
    with mpmath.workdps(40):
        x0 = mpmath.mpf(scale)  # the same 40-digit number for both sides
    ys, _ = mp.integrate(prog, [], [], [x0], times, dps=30)
    with mpmath.workdps(40):
        for t, (xt,) in zip(times, ys, strict=True):
            exact = x0 * mpmath.exp(-t)
            # dps - 2, as in test_compiler_on_a_known_ode
            assert abs(xt - exact) <= mpmath.mpf(10) ** -28 * abs(exact)


@pytest.mark.parametrize("name", CASES)
def test_taylor_matches_closed_form_at_30_digits(name):
    setup, u0, W0 = _case(name)
    traj = xz.closed_form(setup, u0, W0, dps=30)
    times = _times(traj, 30)
    sim = numerics.simulate(setup, u0, W0, times, method="mpmath", dps=30)
    # dps - 5: per-step error 1e-50 relative per block over <= 63 steps, 20 guard digits
    # absorb the conditioning (measured: all 30 digits agree after rounding, i.e. inf)
    assert _digits(sim, traj.sample(times)) >= 25
    # against a 60-digit closed form the rounded 30-digit result is off by its rounding
    # only: <= 0.5 ulp of 30 digits normwise, i.e. >= 29.3 digits; 29 allows for that
    ref = xz.closed_form(setup, u0, W0, dps=60)
    assert _digits(sim, ref.sample(times)) >= 29


def test_compiler_on_a_known_ode():
    """x' = -x^2, x(0) = 1: x(t) = 1/(1 + t), 28 digits at dps = 30."""
    x = sp.Symbol("x")
    prog = mp.compile_polynomial([x], [], [-(x**2)])
    times = [0, mpmath.mpf(1) / 3, 1, 10, 100]
    ys, stats = mp.integrate(prog, [], [], [1], times, dps=30)
    with mpmath.workdps(40):
        for t, (y,) in zip(times, ys, strict=True):
            # 28 = dps - 2: each step's error is ~1e-50 relative, the result is kept at 50
            assert abs(y - 1 / (1 + mpmath.mpf(t))) <= mpmath.mpf(10) ** -28 / (1 + t)
    assert stats["order"] == mp.order(30 + mp.GUARD_DIGITS) and stats["steps"] > 0


def test_compiler_dense_output_and_parameters():
    """Harmonic oscillator x' = w v, v' = -w x (w = sqrt(k), a non-polynomial function
    of the parameter only): cos/sin to 28 digits at many times inside single steps."""
    x, v, k = sp.symbols("x v k")
    prog = mp.compile_polynomial([x, v], [k], [sp.sqrt(k) * v, -sp.sqrt(k) * x])
    times = [mpmath.mpf(j) / 7 for j in range(50)]
    ys, stats = mp.integrate(prog, [4], [k], [1, 0], times, dps=30)
    assert stats["steps"] < len(times)  # several times per step: dense output is used
    with mpmath.workdps(40):
        for t, (xt, vt) in zip(times, ys, strict=True):
            # |x|, |v| <= 1: 28 digits absolute (dps - 2, as above)
            assert abs(xt - mpmath.cos(2 * t)) <= mpmath.mpf(10) ** -28
            assert abs(vt + mpmath.sin(2 * t)) <= mpmath.mpf(10) ** -28


def test_compiler_constant_and_stationary_fields():
    t, z = sp.symbols("t z")
    prog = mp.compile_polynomial([t, z], [], [sp.Integer(1), sp.Integer(0)])
    ys, stats = mp.integrate(prog, [], [], [0, 5], [0, 1, "2.5"], dps=30)
    assert [list(map(float, y)) for y in ys] == [[0, 5], [1, 5], [2.5, 5]]  # exact
    assert stats["steps"] == 1


def test_compiler_matches_the_sympy_vector_field():
    """The first Taylor coefficient of the compiled seed-001 flow is the lambdified rhs."""
    flow = xz.flow(3, 2)
    prog = mp.compile_polynomial(flow.state, flow.params, flow.rhs)
    rng = np.random.default_rng(0)
    f = sp.lambdify((flow.state, flow.params), list(flow.rhs), "mpmath")
    with mpmath.workdps(30):
        y = [mpmath.mpf(float(v)) for v in rng.normal(size=len(flow.state))]
        p = [mpmath.mpf(v) for v in ("1", "0.5", "0.7", "1.5", "1", "2")]
        rhs = f(y, p)
        cvals = mp._const_values(prog, p, flow.params)
        Y = mp._taylor(prog, mp._plan(prog, cvals), cvals, y, 2)
        for i, r in enumerate(rhs):
            # the same products in another order: rounding at 30 digits only
            assert abs(Y[i][1] - r) <= mpmath.mpf(10) ** -27 * (1 + abs(r))


@pytest.mark.parametrize(
    "rhs", [lambda x: sp.sin(x), lambda x: 1 / x, lambda x: sp.sqrt(x), lambda x: 2**x]
)
def test_compiler_rejects_non_polynomial_fields(rhs):
    x = sp.Symbol("x")
    with pytest.raises(ValueError, match="not polynomial"):
        mp.compile_polynomial([x], [], [rhs(x)])


def test_compiler_detects_blow_up():
    x = sp.Symbol("x")
    prog = mp.compile_polynomial([x], [], [x**2])  # x = 1/(1 - t) blows up at t = 1
    with pytest.raises(ArithmeticError, match="blow-up"):
        mp.integrate(prog, [], [], [1], [2], dps=15)


def test_stationary_state_stays_put():
    """y = 0 with u = 0, W = 0: every derivative vanishes; one step to the end."""
    setup = xz.Setup(eta_u=1, eta_w=2, gamma=1, x=(1, 2), y=0)
    sim = numerics.simulate(setup, [0, 0], [[0, 0], [0, 0]], [0, 5, 1e6], dps=20)
    assert all(np.all(s.u == 0) and np.all(s.W == 0) and s.f == 0 for s in sim)


@pytest.mark.parametrize("method", ["mpmath", "scipy"])
def test_times_in_any_order(method):
    setup, u0, W0 = _case("generic")
    times = [0.5, 0.0, 0.25, 0.5]
    kw = {"dps": 20} if method == "mpmath" else {}
    sim = numerics.simulate(setup, u0, W0, times, method=method, **kw)
    ref = numerics.simulate(setup, u0, W0, sorted(set(times)), method=method, **kw)
    by_t = {float(s.t): s for s in ref}
    assert [float(s.t) for s in sim] == times
    for s in sim:
        # same integrator, same sorted grid up to 0.5: only the dense-output point differs
        assert relative_error(s.W, by_t[float(s.t)].W) <= (1e-18 if kw else 1e-12)
    assert all(isinstance(s, xz.State) for s in sim)


@pytest.mark.parametrize(
    ("kwargs", "exc", "message"),
    [
        (dict(in0=[[1.0, 2.0]]), ValueError, r"W0 must have shape \(3, 2\)"),
        (dict(in0=[[1.0, 2.0, 3.0]] * 3), ValueError, r"W0 must have shape \(3, 2\)"),
        (dict(out0=[[1.0]]), ValueError, "u0 must be one-dimensional"),
        (dict(times=[0.0, -1.0]), ValueError, "times must be >= 0"),
        (dict(times=[math.nan]), ValueError, r"times\[0\] must be finite"),
        (dict(times=[math.inf]), ValueError, r"times\[0\] must be finite"),
        (dict(times=[]), ValueError, "times must not be empty"),
        (dict(times=1.0), TypeError, "times must be a sequence"),
        (dict(method="euler"), ValueError, r"method must be one of \('mpmath', 'scipy', 'torch'\)"),
        (dict(method="torch", device="tpu"), ValueError, "device must be"),
        (dict(method="torch", dps=30), ValueError, "dps is for method='mpmath'"),
        (dict(method="scipy", dps=30), ValueError, "dps is for method='mpmath'"),
        (dict(method="mpmath", dps=0), ValueError, "dps must be"),
        (dict(method="mpmath", rtol=1e-8), ValueError, "rtol is for method='scipy'"),
        (dict(method="scipy", rtol=0.0), ValueError, "rtol must be in"),
        (dict(engine="fast"), ValueError, r"engine must be one of \('vector', 'reference'\)"),
        (dict(method="scipy", engine="vector"), ValueError, "engine is for method='mpmath'"),
        (dict(device="cuda"), ValueError, "device"),
        (dict(setup=object()), TypeError, "setup must be"),
    ],
)
def test_bad_input(kwargs, exc, message):
    setup, u0, W0 = _case("generic")
    args = dict(setup=setup, out0=u0, in0=W0, times=[0.0, 1.0])
    args.update(kwargs)
    with pytest.raises(exc, match=message):
        numerics.simulate(
            args.pop("setup"), args.pop("out0"), args.pop("in0"), args.pop("times"), **args
        )


# ---------------------------------------------------------------------------
# The vector engine (issue 17 target 3) against the reference engine (its coefficients
# against the reference engine's: tests/test_taylor_engine.py)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("dps", [30, 50])
@pytest.mark.parametrize("name", ["generic", "near_antiparallel", "P_zero_y_positive"])
def test_engines_agree_through_simulate(name, dps):
    """``engine="vector"`` (default) and ``engine="reference"`` through ``simulate``: the
    same order and error control, so the same states to the precision both certify.  Both
    keep each step to 10^-(dps + 20) relative per block; rounded to dps digits they may
    differ by the rounding of a last digit: ``dps - 1`` digits asked (measured: all, inf);
    the closed form (``dps + 20`` digits) is met to the ``dps - 5`` of the other tests."""
    case = xz.case(name)
    traj = xz.closed_form(case.setup, case.u0, case.W0, dps=dps + 20)
    times = _times(traj, dps)
    runs = {
        engine: numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=dps,
                                  engine=engine)
        for engine in mp.ENGINES
    }  # fmt: skip
    exact = traj.sample(times)
    for k, (vec, ref) in enumerate(zip(runs["vector"], runs["reference"], strict=True)):
        assert digits(vec.u, ref.u) >= dps - 1 and digits(vec.W, ref.W) >= dps - 1
        assert digits(vec.u, exact.u[k]) >= dps - 5 and digits(vec.W, exact.W[k]) >= dps - 5


@pytest.mark.parametrize("engine", mp.ENGINES)
def test_both_engines_on_the_toy_odes(engine):
    """The edge cases of the tests above, for each engine: relative error control at
    scales 1e-40 and 1e40 (x' = -x), a constant and a zero field (exact), a stationary
    state (one step), dense output with a parameter (harmonic oscillator), blow-up."""
    x, v, kk = sp.symbols("x v k")
    decay = mp.compile_polynomial([x], [], [-x])
    for scale in ("1e-40", "1e40"):
        with mpmath.workdps(40):
            x0 = mpmath.mpf(scale)
        ys, _ = mp.integrate(decay, [], [], [x0], [5], dps=30, engine=engine)
        with mpmath.workdps(40):  # dps - 2, as in test_error_control_is_relative_to_the_state
            assert abs(ys[0][0] - x0 * mpmath.exp(-5)) <= mpmath.mpf(10) ** -28 * abs(x0)
    const = mp.compile_polynomial([x, v], [], [sp.Integer(1), sp.Integer(0)])
    ys, stats = mp.integrate(const, [], [], [0, 5], [0, 1, "2.5"], dps=30, engine=engine)
    assert [list(map(float, y)) for y in ys] == [[0, 5], [1, 5], [2.5, 5]] and stats["steps"] == 1
    osc = mp.compile_polynomial([x, v], [kk], [sp.sqrt(kk) * v, -sp.sqrt(kk) * x])
    times = [mpmath.mpf(j) / 7 for j in range(20)]
    ys, _ = mp.integrate(osc, [4], [kk], [1, 0], times, dps=30, engine=engine)
    with mpmath.workdps(40):  # 28 digits absolute, as in test_compiler_dense_output_...
        assert max(abs(y[0] - mpmath.cos(2 * t)) for t, y in zip(times, ys, strict=True)) <= (
            mpmath.mpf(10) ** -28
        )
    square = mp.compile_polynomial([x], [], [x**2])
    with pytest.raises(ArithmeticError, match="blow-up"):
        mp.integrate(square, [], [], [1], [2], dps=15, engine=engine)


def test_vector_engine_bad_input():
    x = sp.Symbol("x")
    prog = mp.compile_polynomial([x], [], [-x])
    with pytest.raises(ValueError, match=r"engine must be one of \('vector', 'reference'\)"):
        mp.integrate(prog, [], [], [1], [1], dps=30, engine="fast")
    with pytest.raises(ValueError, match="y0 must be finite"):
        mp.integrate(prog, [], [], [mpmath.inf], [1], dps=30)
    for y0 in ([], [1, 2]):  # one state entry: too few and too many are both refused
        with pytest.raises(ValueError, match=f"y0 must have 1 entries, got {len(y0)}"):
            mp.integrate(prog, [], [], y0, [1], dps=30)
    with pytest.raises(ValueError, match="params must have 0 entries, got 1"):
        mp.integrate(prog, [1], [], [1], [1], dps=30)


@pytest.mark.parametrize("name", ["generic", "P_zero_y_positive"])
def test_compiled_engine_is_as_accurate_at_the_working_precision(name):
    """The compiled engine's fixed point changes the number format, not the accuracy: at
    the working precision (dps + 20 = 50 digits, unrounded, per block) both engines are as
    close to the closed form at 90 digits, within one digit, and agree with each other to
    that; the cap ``h <= H`` costs at most two steps.  Measured (dps 30): generic 50.9 / 50.4
    digits (vector / reference), agreeing to 50.4, 28 / 27 steps; on the unstable P = 0
    manifold (rounding errors grow ~1e9 over 10 t_c) 33.8 / 33.5, agreeing to 33.6, 42 / 42."""
    case = xz.case(name)
    d, d0 = len(case.u0), len(case.W0[0])
    flow = xz.SYSTEM.flow(case.setup, {"u": (d,), "W": (d, d0)})
    traj = xz.closed_form(case.setup, case.u0, case.W0, dps=90)
    with mpmath.workdps(50):
        times = _times(traj, 40)
        weights = {
            "u": np.array([mpmath.mpf(v) for v in case.u0], dtype=object),
            "W": np.array([[mpmath.mpf(v) for v in r] for r in case.W0], dtype=object),
        }
        y0 = list(flow.pack(weights))
        params = xz.SYSTEM.flow_parameters(case.setup, mpmath.mpf)
    runs = {engine: mp.integrate(numerics._program(flow), params, flow.params, y0, times, 30,
                                 flow.spans(), engine=engine)
            for engine in mp.ENGINES}  # fmt: skip
    exact = traj.sample(times)
    with mpmath.workdps(90):
        close = {
            engine: min(min(digits(flow.unpack(y)["u"], exact.u[k]),
                            digits(flow.unpack(y)["W"], exact.W[k]))
                        for k, y in enumerate(ys))
            for engine, (ys, _stats) in runs.items()
        }  # fmt: skip
        agree = min(digits(a[start:stop], b[start:stop])
                    for a, b in zip(runs["vector"][0], runs["reference"][0], strict=True)
                    for start, stop in flow.spans())  # fmt: skip
    assert close["vector"] >= close["reference"] - 1
    assert agree >= min(close.values()) - 1
    assert runs["vector"][1]["steps"] <= runs["reference"][1]["steps"] + 2
