"""Timing of the integrators of :mod:`numerics` on seed 001 (Xu & Ziyin, eqs. (4)-(5)/(31)).

Run (from the repository root)::

    python benchmarks/bench_integrators.py            # (i) and (ii), ~1 minute
    python benchmarks/bench_integrators.py --orders   # also the order/safety sweep, ~2 min

(i)  float64, one trajectory sampled at 1000 times in [0, 10 t_c]: the closed form
     ``closed_form(...).sample`` vs ``scipy.integrate.solve_ivp`` (DOP853, rtol 1e-10,
     dense ``t_eval``) on the raw flow (:mod:`numerics.scipy_ode`).
(ii) 30 digits: the Taylor integrator (:mod:`numerics.mp`) vs ``mpmath.odefun`` to
     ``t_c / 10`` and ``10 t_c`` (``generic``, t_c = 0.31) and to ``t_c`` on the same
     case with learning rates / 100 (t_c = 31), and the Taylor integrator's steps and
     time to ``10 t_c`` at dps 30 and 50 on five cases.
(--orders) the Taylor integrator at 0.5x ... 1.5x the Jorba-Zou order and with
     smaller step safety factors: steps, time and digits against the closed form.

Times are wall clock, best of 3 unless noted (single runs for the slow ones).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from numerics import _program, mp, scipy_ode
from solvable._core import numbers as _numbers
from solvable._core.tolerance import digits, relative_error
from solvable.models import xu_ziyin as xz


def best(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Best wall-clock time of ``repeat`` calls, and the last result."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def _y0(case: Any) -> list[Any]:
    return [*case.u0, *[v for row in case.W0 for v in row]]


def float64_trajectory(case: Any) -> None:
    """(i) closed form vs DOP853 at 1000 output times."""
    traj = xz.closed_form(case.setup, case.u0, case.W0)
    times = np.linspace(0.0, 10 * traj.t_c, 1000)
    t_cf, exact = best(lambda: xz.closed_form(case.setup, case.u0, case.W0).sample(times))
    flow = xz.flow(len(case.u0), case.setup.d0)
    params = xz.SYSTEM.flow_parameters(case.setup, _numbers.to_float)
    y0 = [_numbers.to_float(v) for v in _y0(case)]
    t_ivp, (ys, info) = best(lambda: scipy_ode.integrate(flow, params, y0, times, rtol=1e-10))
    d = len(case.u0)
    err = max(relative_error(ys[k, :d], exact.u[k]) for k in range(len(times)))
    print(
        f"(i)  float64, 1000 times to 10 t_c: closed form {t_cf * 1e3:.2f} ms; "
        f"solve_ivp DOP853 rtol 1e-10 {t_ivp * 1e3:.1f} ms ({info['nfev']} f-evals, "
        f"max rel. error in u {err:.1e})  -> closed form {t_ivp / t_cf:.0f}x faster"
    )


def taylor(case: Any, dps: int, times: list[Any], **kw: Any) -> tuple[float, Any, Any]:
    """Time one call of :func:`numerics.mp.integrate`; returns (seconds, states, stats)."""
    d, d0 = len(case.u0), case.setup.d0
    flow = xz.flow(d, d0)
    prog = _program(flow)
    with mpmath.workdps(dps + kw.get("guard", mp.GUARD_DIGITS)):
        params = xz.SYSTEM.flow_parameters(case.setup, _numbers.to_mpf)
        y0 = [_numbers.to_mpf(v) for v in _y0(case)]
        ts = [+mpmath.mpf(t) for t in times]
    blocks = [(0, d), (d, d + d * d0)]
    t0 = time.perf_counter()
    ys, stats = mp.integrate(prog, params, flow.params, y0, ts, dps, blocks, **kw)
    return time.perf_counter() - t0, ys, stats


def _digits(ys: Any, exact: Any, d: int) -> float:
    """Worst normwise digits in u and W over the sampled times."""
    return min(
        min(digits(ys[k][:d], exact.u[k]), digits(ys[k][d:], exact.W[k].ravel()))
        for k in range(len(ys))
    )


def odefun_vs_taylor(case: Any, factor: int | float) -> None:
    """(ii) 30 digits: mpmath.odefun vs the Taylor integrator to ``factor * t_c``.

    The Taylor integrator runs twice: as ``numerics.simulate`` uses it (20 guard
    digits) and at nearly odefun's working precision (2 guard digits)."""
    d = len(case.u0)
    ref = xz.closed_form(case.setup, case.u0, case.W0, dps=60)
    with mpmath.workdps(70):
        horizon = factor * ref.t_c
    exact = ref.sample([horizon])
    flow = xz.flow(d, case.setup.d0)
    rhs = sp.lambdify((flow.state, flow.params), list(flow.rhs), "mpmath", cse=True)
    with mpmath.workdps(30):
        params = xz.SYSTEM.flow_parameters(case.setup, _numbers.to_mpf)
        y0 = [_numbers.to_mpf(v) for v in _y0(case)]
        t_h = +horizon
        t0 = time.perf_counter()
        sol = mpmath.odefun(lambda _t, y: rhs(y, params), 0, y0)
        y_ode = sol(t_h)
        t_ode = time.perf_counter() - t0
    dig_ode = _digits([list(y_ode)], exact, d)
    t_tay, ys, st = taylor(case, 30, [horizon])
    t_eq, ys_eq, st_eq = taylor(case, 30, [horizon], guard=2)
    print(
        f"(ii) {case.name}, dps=30 to {factor} t_c = {mpmath.nstr(horizon, 4)}: "
        f"mpmath.odefun {t_ode:.2f} s ({dig_ode:.1f} digits); Taylor {t_tay:.3f} s "
        f"({st['steps']} steps of order {st['order']}, {_digits(ys, exact, d):.1f} digits), "
        f"with 2 guard digits {t_eq:.3f} s ({st_eq['steps']} steps, "
        f"{_digits(ys_eq, exact, d):.1f} digits)  -> Taylor {t_ode / t_tay:.0f}x / "
        f"{t_ode / t_eq:.0f}x faster"
    )


def taylor_table(names: list[str]) -> None:
    """Steps and time of the Taylor integrator to 10 t_c at dps 30 and 50."""
    for name in names:
        case = xz.case(name)
        for dps in (30, 50):
            ref = xz.closed_form(case.setup, case.u0, case.W0, dps=dps + 40)
            with mpmath.workdps(dps + 50):
                times = [ref.t_c / 10, ref.t_c, 10 * ref.t_c]
            secs, ys, st = taylor(case, dps, times)
            dig = _digits(ys, ref.sample(times), len(case.u0))
            print(
                f"     {name:18s} dps={dps}: {st['steps']:3d} steps, order {st['order']}, "
                f"{secs:.2f} s to 10 t_c; {dig:.1f} digits at the working precision "
                f"{dps + mp.GUARD_DIGITS}"
            )


def order_sweep(name: str) -> None:
    """Order and safety factor of the Taylor step, by measurement."""
    case = xz.case(name)
    for dps in (30, 50):
        ref = xz.closed_form(case.setup, case.u0, case.W0, dps=dps + 40)
        with mpmath.workdps(dps + 50):
            times = [ref.t_c / 10, ref.t_c, 10 * ref.t_c]
        exact = ref.sample(times)
        base = mp.order(dps + mp.GUARD_DIGITS)
        runs: list[tuple[str, dict[str, Any]]] = [
            (f"order {f}x", {"taylor_order": round(f * base)}) for f in (0.5, 0.75, 1.0, 1.5)
        ]
        runs += [(f"safety {s:.3f}", {"safety": s}) for s in (0.5, float(mpmath.e**-2))]
        for label, kw in runs:
            secs, ys, st = taylor(case, dps, times, **kw)
            print(
                f"     {name} dps={dps} {label:13s}: order {st['order']:3d}, "
                f"{st['steps']:3d} steps, {secs:.2f} s, {_digits(ys, exact, len(case.u0)):.1f} "
                f"digits (working precision {dps + mp.GUARD_DIGITS})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--orders", action="store_true", help="also sweep order and safety")
    args = parser.parse_args()
    case = xz.case("generic")
    float64_trajectory(case)
    odefun_vs_taylor(case, 0.1)
    odefun_vs_taylor(case, 10)
    # a slow flow (learning rates / 100, t_c ~ 31): odefun's step cap of 1/2 binds
    slow = xz.Setup(eta_u="0.01", eta_w="0.005", gamma="0.7", x=("1", "2"), y="1.5")
    odefun_vs_taylor(xz.Case("generic_slow", slow, case.u0, case.W0, "eta / 100"), 1)
    print("     Taylor integrator (numerics.mp), u and W against closed_form(dps + 40):")
    taylor_table(["generic", "y_negative", "tiny_init", "near_antiparallel", "P_zero_y_positive"])
    if args.orders:
        order_sweep("generic")


if __name__ == "__main__":
    main()
