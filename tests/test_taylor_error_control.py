"""Step-size and error control of the Taylor integrator ``numerics.mp.integrate``, on flows
where a weaker rule gives a different answer, against independent references.

The rule (``numerics/mp.py``): order ``p = ceil(ln(1/eps)/2) + 1`` and step ``h = SAFETY
min_k (eps ||y||_B / ||y_k||_B)^(1/k)`` over ``k = p - 1, p`` and over the blocks ``B``
(``||.||_B``: a block's max norm; where both vanish, the highest nonzero order >= p/2), with
``eps = 10^-(dps + GUARD_DIGITS)``.  Errors are measured in units of that ``eps`` (the
tolerance each step is held to), relative to the exact solution's norm on each block, the
references being closed forms evaluated by mpmath at ``dps + GUARD_DIGITS + 20`` digits.

Weaker rules these tests catch (each checked on a mutated copy of ``numerics/mp.py``):
only the last order (its coefficient vanishes for even ``p`` on tanh: one step across the
radius of convergence), only ``p - 1`` (odd ``p``), no fallback below ``p - 1`` (the period-3
series of ``y' = 1 - y^3``), the whole state's norm instead of each block's (a block 1e-25
smaller loses ~20 digits), and a step of the wrong order (order-1 coefficients: tiny steps,
caught by the step counts and ``max_steps``).
"""

from __future__ import annotations

import functools
import math

import mpmath
import pytest
import sympy as sp

from numerics import mp

DPS_ALL = range(15, 101)
# every residue of p mod 2, 3 and 4 several times, for the costlier tests
DPS_SOME = (15, 16, 17, 18, 30, 31, 32, 33, 64, 65, 66, 67, 97, 98, 99, 100)
_Y, _X, _V, _U, _W = sp.symbols("y x v u w")
_TANH = mp.compile_polynomial([_Y], [], [1 - _Y**2])  # tanh(t) from 0: odd series
_CUBIC = mp.compile_polynomial([_Y], [], [1 - _Y**3])  # from 0: orders 1 mod 3 only
_SQUARE = mp.compile_polynomial([_Y], [], [_Y**2])  # y0 / (1 - y0 t): y_k = y^(k + 1)
_FREQ = 4  # the tiny oscillator's angular frequency (the big one's is 1)
_OSC = mp.compile_polynomial([_X, _V, _U, _W], [], [_V, -_X, _FREQ * _W, -_FREQ * _U])
_BLOCKS = [(0, 2), (2, 4)]


def _order(dps: int) -> int:
    """The documented Jorba-Zou order ``ceil(ln(1/eps)/2) + 1`` for ``eps = 10^-work``."""
    return math.ceil((dps + mp.GUARD_DIGITS) * math.log(10) / 2) + 1


def _eps(dps: int):
    return mpmath.mpf(10) ** -(dps + mp.GUARD_DIGITS)


def _cubic_time(y):
    """``t(y) = int_0^y ds / (1 - s^3)`` in closed form (differentiate: ``1/(1 - y^3)``)."""
    r3 = mpmath.sqrt(3)
    return (
        mpmath.log((1 + y + y * y) / (1 - y) ** 2) / 6
        + (mpmath.atan((2 * y + 1) / r3) - mpmath.pi / 6) / r3
    )


def _cubic(t):
    """``y(t)`` of ``y' = 1 - y^3``, ``y(0) = 0``: Newton on the closed form of ``t(y)``
    (``dt/dy = 1/(1 - y^3)``) from ``tanh(t)``; once a step is below ``10^-(dps/2)`` the
    next is quadratically at the rounding level, ~20 digits below what the tests resolve."""
    y = mpmath.tanh(t)
    for _ in range(60):
        step = (_cubic_time(y) - t) * (1 - y**3)
        y -= step
        if abs(step) <= mpmath.mpf(10) ** -(mpmath.mp.dps // 2):
            return y - (_cubic_time(y) - t) * (1 - y**3)
    raise AssertionError(f"Newton did not converge for t = {t}")


_FLOWS = {"tanh": (_TANH, mpmath.tanh), "cubic": (_CUBIC, _cubic)}
_TIMES = ("0.25", "0.5", "1", "1.5")
_REF_DPS = max(DPS_ALL) + mp.GUARD_DIGITS + 20  # 20 digits beyond any working precision


@functools.cache
def _exact(name, t):
    """The closed form of flow ``name`` at ``t`` (a string), at :data:`_REF_DPS` digits."""
    with mpmath.workdps(_REF_DPS):
        return _FLOWS[name][1](mpmath.mpf(t))


def test_the_dps_range_covers_every_order_residue():
    """The orders of dps 15..100 (and of :data:`DPS_SOME`) are the documented rule's and
    take every residue mod 2, 3 and 4: even and odd ``p`` (the last coefficient of tanh's
    series at 0 is zero for even ``p``, the second last for odd ``p``) and ``p = 0 mod 3``
    (both top coefficients of the period-3 series vanish)."""
    for dpss in (DPS_ALL, DPS_SOME):
        orders = {_order(d) for d in dpss}
        assert all(mp.order(d + mp.GUARD_DIGITS) == _order(d) for d in dpss)
        for m in (2, 3, 4):
            assert {p % m for p in orders} == set(range(m))


def _max_steps(dps, taylor_order=None):
    """A bound on the steps to t = 3/2 on :data:`_FLOWS`: the rule's step is ``~ SAFETY rho
    eps^(1/k)`` (``k = p - 1``, the smaller root) for the radius of convergence ``rho``, up
    to the ``k``-th root of the series' prefactor (``|y_k| rho^k / ||y||``), which a factor
    ``e`` covers; ``rho >= 1/2`` along both paths (tanh: ``pi/2`` and more; the cubic's
    nearest singularities, ``1.209 e^(+-i pi/3)`` and their images, stay ~1 away).  The
    bound is 5-20x the measured count, and 10^20 times below the steps of a rule with the
    wrong order (order-1 coefficients: ``h ~ eps``)."""
    p = _order(dps) if taylor_order is None else taylor_order
    root = float(_eps(dps) ** (mpmath.mpf(1) / (p - 1)))
    return math.ceil(1.5 * math.e / (mp.SAFETY * 0.5 * root))


def _series_error(name, dps, engine, taylor_order=None):
    """Worst error of ``name`` from ``y(0) = 0`` over :data:`_TIMES`, in units of ``eps``
    relative to ``|y(t)|``, and the run's statistics (``max_steps``: :func:`_max_steps`, so
    a step far too small fails at once instead of crawling)."""
    prog = _FLOWS[name][0]
    bound = _max_steps(dps, taylor_order)
    ys, stats = mp.integrate(prog, [], [], [0], list(_TIMES), dps, engine=engine,
                             taylor_order=taylor_order, max_steps=bound)  # fmt: skip
    assert 1 <= stats["steps"] <= bound
    with mpmath.workdps(dps + mp.GUARD_DIGITS + 20):
        worst = max(abs(y - _exact(name, t)) / abs(_exact(name, t))
                    for t, (y,) in zip(_TIMES, ys, strict=True))  # fmt: skip
        return worst / _eps(dps), stats


@pytest.mark.parametrize("engine", mp.ENGINES)
@pytest.mark.parametrize("name", list(_FLOWS))
@pytest.mark.parametrize("dps", DPS_ALL)
def test_vanishing_coefficients_every_dps(dps, name, engine):
    """``y' = 1 - y^2`` (tanh: every even order 0 at t = 0) and ``y' = 1 - y^3`` (orders
    1 mod 3 only) from ``y = 0``, to t = 1/4, 1/2, 1, 3/2, at every dps 15..100 (orders
    42..140, all residues mod 2 and 3), both engines: within ``4 steps`` units of the
    closed form, in at most :func:`_max_steps` steps.  At ``y = 0`` the state is zero, so
    that step is absolute (ref 1).

    Tolerance: each step's truncation is below ``eps ||y||`` by the rule (by ``SAFETY^p``
    more), its rounding a few ulps of the working precision; both flows contract toward
    y = 1 (``d(1 - y^m)/dy <= 0``), so errors add up at most: 4 units a step.  Measured:
    <= 0.3 units over <= 8 steps.  A rule blind to the vanishing top orders takes one step of
    ``H`` or the whole horizon (>= 2/3 of the radius of convergence): >= 10^5 units lost at
    dps 15, >= 10^27 at dps 31 (measured, before the fallback below ``p - 1``)."""
    err, stats = _series_error(name, dps, engine)
    assert stats["order"] == _order(dps)
    assert err <= 4 * stats["steps"]


@pytest.mark.parametrize("engine", mp.ENGINES)
@pytest.mark.parametrize("name", list(_FLOWS))
@pytest.mark.parametrize("taylor_order", [18, 19, 20, 21, 24, 27])
def test_vanishing_coefficients_explicit_orders(taylor_order, name, engine):
    """The same flows at dps 15 with the order passed explicitly, even and odd, every
    residue mod 3 and 4, below the default 42 (smaller steps, 20-160 of them): the error
    control holds for any order, within 4 units a step as above, in at most
    :func:`_max_steps` steps."""
    err, stats = _series_error(name, 15, engine, taylor_order)
    assert stats["order"] == taylor_order
    assert err <= 4 * stats["steps"]


def _oscillators(dps, blocks, engine):
    """Two harmonic oscillators, ``(x, v)`` of frequency 1 and amplitude 1 and ``(u, w)``
    of frequency 4 and amplitude 1e-25, from phase 0.3, to t = 1/2 and 3: each block's
    worst error in units of ``eps`` relative to its exact max norm, and the statistics."""
    work = dps + mp.GUARD_DIGITS + 20
    with mpmath.workdps(work):
        a, ph = mpmath.mpf("1e-25"), mpmath.mpf("0.3")

        def exact(t):
            return [mpmath.cos(t + ph), -mpmath.sin(t + ph),
                    a * mpmath.cos(_FREQ * t + ph), -a * mpmath.sin(_FREQ * t + ph)]  # fmt: skip

        times = [mpmath.mpf("0.5"), mpmath.mpf(3)]
        y0 = exact(0)
    ys, stats = mp.integrate(_OSC, [], [], y0, times, dps, blocks, engine=engine, max_steps=50)
    with mpmath.workdps(work):
        errs = []
        for start, stop in _BLOCKS:
            worst = 0
            for t, y in zip(times, ys, strict=True):
                want = exact(t)[start:stop]
                diff = max(abs(g - e) for g, e in zip(y[start:stop], want, strict=True))
                worst = max(worst, diff / max(abs(e) for e in want))
            errs.append(worst / _eps(dps))
    return errs, stats


def _oscillator_step(dps):
    """The rule's step on :func:`_oscillators` (constant; the tiny block's, frequency 4):
    ``(u, w)_k = 4^k / k! R^k (u, w)`` with ``R`` a quarter turn, which permutes ``|u|,
    |w|``, so ``||y||_B / ||y_k||_B = k! / 4^k`` exactly, at any phase."""
    p = _order(dps)
    with mpmath.workdps(dps + mp.GUARD_DIGITS + 20):
        return mp.SAFETY * min(
            (_eps(dps) * mpmath.factorial(k) / mpmath.mpf(_FREQ) ** k) ** (mpmath.mpf(1) / k)
            for k in (p - 1, p)
        )


@pytest.mark.parametrize("engine", mp.ENGINES)
@pytest.mark.parametrize("dps", DPS_SOME)
def test_each_block_accurate_to_its_own_scale(dps, engine):
    """A state with a block 1e-25 times smaller than the other and 4x faster (two
    oscillators, :func:`_oscillators`), with one block each: each block is accurate
    relative to its own norm (the promise of ``integrate``'s ``blocks``: per block, not per
    component), within ``steps * (2 + e^(4 h))`` units; and the same run with the whole
    state as one block (``blocks=None``, the default) misses the tiny block by more than
    10^10 units, so the comparison tells the two rules apart.

    Tolerance: per step, truncation <= 1 unit (the rule) and rounding of a few ulps of the
    largest term of the series, ``e^(4 h)`` times the block's norm for the tiny block's
    Taylor sum (``sum (4 h)^k / k!``, cancelling to ``cos``); the oscillators keep their
    norm, so errors add at most.  Measured <= 15 units (reference engine, dps 99, where
    ``e^(4 h) = 640``), <= 2 elsewhere.  A whole-state rule sets the step by the big block
    (the tiny block's top coefficients are 1e-25 its) while the tiny block's own terms are
    ``4^p`` (>= 10^25 for ``p >= 42``) larger relative to it: 10^16-10^22 units lost
    (measured)."""
    h = _oscillator_step(dps)
    errs, stats = _oscillators(dps, _BLOCKS, engine)
    tol = stats["steps"] * (2 + math.exp(_FREQ * float(h)))
    assert errs[0] <= tol and errs[1] <= tol
    whole, _ = _oscillators(dps, None, engine)
    assert whole[0] <= tol  # the big block alone is the whole state's scale
    assert whole[1] > 1e10


@pytest.mark.parametrize("engine", mp.ENGINES)
@pytest.mark.parametrize("dps", DPS_SOME)
def test_step_count_of_the_rule_on_oscillators(dps, engine):
    """On :func:`_oscillators` to t = 3 the rule's step is a constant ``h``
    (:func:`_oscillator_step`), so the step count is ``N = ceil(3 / h)``: at least that
    (no step exceeds the rule) and at most one more in the compiled engine, whose first
    cap ``H = 1`` (``~4 |y| / |y'|`` rounded to a power of two, for frequency 4) may bind
    once before it doubles past ``h <= 1.62``; the reference engine has no cap: exactly N
    (up to the float rounding of ``3 / h`` at an integer, allowed for by ``1e-9``).
    ``N`` is 2-6 here; a step of the wrong order (order-1 coefficients) hits ``max_steps``
    (50), only the last order (``eps^(1/p)`` not ``eps^(1/(p - 1))``) takes fewer steps."""
    h = _oscillator_step(dps)
    with mpmath.workdps(dps + mp.GUARD_DIGITS + 20):
        lo = int(mpmath.ceil(3 / h * (1 - mpmath.mpf("1e-9"))))
        hi = int(mpmath.ceil(3 / h * (1 + mpmath.mpf("1e-9"))))
    _errs, stats = _oscillators(dps, _BLOCKS, engine)
    extra = 1 if engine == "vector" and h > 1 else 0
    assert lo <= stats["steps"] <= hi + extra


@pytest.mark.parametrize("engine", mp.ENGINES)
@pytest.mark.parametrize("dps", DPS_SOME)
def test_geometric_steps_toward_blow_up(dps, engine):
    """``y' = y^2``, ``y(0) = 1``, to ``T = 1 - 2^-7`` (``y = 128``, blow-up at 1; both
    exact binary numbers, so T is the same at every precision): the
    Taylor coefficients are ``y_k = y^(k + 1)``, so the rule's step is ``h = c / y`` with
    ``c = SAFETY eps^(1/(p - 1))`` (the smaller of the two orders' ``eps^(1/k)``) and the
    distance to the blow-up shrinks by ``1 - c`` a step: exactly ``N = ceil(ln(2^-7) /
    ln(1 - c))`` steps (37-38 here; the compiled engine's cap, ``1-2x`` the previous step,
    never binds on shrinking steps, its first ``H = 2 > c``).  The error is within ``2 K``
    units with ``K = sum_n (1 - c)^n / 2^-7`` (~1000): a relative error made at step ``n``
    grows by ``(1 - t_n) / (1 - T) = (1 - c)^n / 2^-7`` to T, and each step makes <= 1 unit
    of truncation and <= 1 of rounding.  Measured <= 63 units.  ``max_steps = N + 5``:
    order-1 coefficients (steps ~eps) stop there at once."""
    p = _order(dps)
    with mpmath.workdps(dps + mp.GUARD_DIGITS + 20):
        gap = mpmath.mpf(2) ** -7
        c = mp.SAFETY * _eps(dps) ** (mpmath.mpf(1) / (p - 1))
        n = mpmath.log(gap) / mpmath.log(1 - c)
        lo, hi = int(mpmath.ceil(n - mpmath.mpf("1e-9"))), int(mpmath.ceil(n + mpmath.mpf("1e-9")))
        K = sum((1 - c) ** j for j in range(hi)) / gap
        T = 1 - gap
    ys, stats = mp.integrate(_SQUARE, [], [], [1], [T], dps, engine=engine, max_steps=hi + 5)
    assert lo <= stats["steps"] <= hi
    with mpmath.workdps(dps + mp.GUARD_DIGITS + 20):
        exact = 1 / gap
        assert abs(ys[0][0] - exact) / exact <= 2 * K * _eps(dps)


def test_a_block_that_crosses_zero_at_a_step_start():
    """``y' = -1`` next to ``z' = z^2`` (separate blocks): the steps are set by ``z``, and
    for some ``z0`` a step starts where ``|y|`` is far below ``H |y'|``. There the compiled
    engine's fixed-point weights must be refined (the state's exponent is finer than the
    product's; ``z0 = 0.238`` is such a case at dps 20). ``y(2) = -1`` and ``z(2) = z0 / (1 -
    2 z0)`` exactly; the tolerance is the requested 20 digits of each block's scale."""
    y, z = sp.symbols("y z")
    prog = mp.compile_polynomial([y, z], [], [sp.Integer(-1) + 0 * y, z**2])
    for k in range(30, 46):
        z0 = f"0.{200 + k}"
        (state,), _ = mp.integrate(prog, [], [], [1, z0], [2], 20, [(0, 1), (1, 2)])
        with mpmath.workdps(40):  # the references, exact to far beyond 20 digits
            z_exact = mpmath.mpf(z0) / (1 - 2 * mpmath.mpf(z0))
            assert abs(state[0] + 1) < mpmath.mpf(10) ** -20, (z0, state[0])
            assert abs(state[1] / z_exact - 1) < mpmath.mpf(10) ** -20, (z0, state[1])


@pytest.mark.parametrize("dps", [15, 30, 60])
@pytest.mark.parametrize("engine", ["vector", "reference"])
def test_a_tiny_weight_with_a_full_mantissa_keeps_every_digit(dps, engine):
    """y' = c y with c = -3/10^300 (an exact rational: a full mantissa at the working
    precision and an exponent near -1000) to t = 10^299: y = exp(-3/10), to 10^-(dps - 1)
    relative (the work precision is dps + guard digits).  The output weight c/(k + 1) is
    scaled by 2^-Ew with Ew from c's exponent plus its bit length (seed-23 survivor
    ``mp.py:730``: the exponent floor-divided by the bit length instead, which shifts such a
    weight by a negative count)."""
    y = sp.Symbol("y")
    prog = mp.compile_polynomial([y], [], [sp.Rational(-3, 10**300) * y])
    with mpmath.workdps(dps + 40):  # t = 10^299 to more digits than the run works at
        ys, _ = mp.integrate(prog, [], [], [1], [mpmath.mpf(10) ** 299], dps, engine=engine)
        exact = mpmath.exp(mpmath.mpf(-3) / 10)
        assert abs(ys[-1][0] - exact) <= exact * mpmath.mpf(10) ** -(dps - 1)
