"""Speed of the closed form against the baselines a user would otherwise run.

Run:  python benchmarks/bench_xu_ziyin.py

1. float64 trajectory sampled at 1000 times: ``closed_form(...).sample`` vs
   ``scipy.integrate.solve_ivp`` (DOP853, rtol 1e-10, dense t_eval) on the raw flow
   (this package's ``numerics.simulate(method="scipy")`` at the same rtol).
2. 30-digit values at 4 times: ``closed_form(..., dps=30)`` vs the Taylor
   integrator ``numerics.simulate(method="mpmath", dps=30)`` vs ``mpmath.odefun``
   (mpmath's own Taylor method) on a horizon it can finish, t_c / 10.
Ratios are printed; times are the best of 3 (wall clock, this machine).
"""

from __future__ import annotations

import time

import mpmath
import numpy as np

import numerics
from solvable._core import numbers as _numbers
from solvable.models import xu_ziyin as xz


def best(fn, repeat=3):
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return min(out)


def main() -> None:
    case = xz.case("generic")
    traj = xz.closed_form(case.setup, case.u0, case.W0)
    times = np.linspace(0, 10 * traj.t_c, 1000)

    t_cf = best(lambda: xz.closed_form(case.setup, case.u0, case.W0).sample(times))
    t_ivp = best(
        lambda: numerics.simulate(case.setup, case.u0, case.W0, times, method="scipy", rtol=1e-10)
    )
    print(
        f"[1] float64, 1000 times: closed form {t_cf * 1e3:.2f} ms, solve_ivp DOP853 "
        f"{t_ivp * 1e3:.1f} ms  -> closed form {t_ivp / t_cf:.0f}x faster"
    )

    exact = xz.closed_form(case.setup, case.u0, case.W0, dps=30)
    with mpmath.workdps(40):
        ts = [mpmath.mpf(0), exact.t_c / 10, exact.t_c, 10 * exact.t_c]
    t_cf30 = best(lambda: xz.closed_form(case.setup, case.u0, case.W0, dps=30).sample(ts))
    t_taylor = best(
        lambda: numerics.simulate(case.setup, case.u0, case.W0, ts, method="mpmath", dps=30), 1
    )
    print(
        f"[2] 30 digits, 4 times up to 10 t_c: closed form {t_cf30 * 1e3:.1f} ms, "
        f"Taylor integrator {t_taylor:.2f} s  -> {t_taylor / t_cf30:.0f}x"
    )

    flow = xz.flow(3, 2)
    import sympy as sp

    f = sp.lambdify((flow.state, flow.params), list(flow.rhs), "mpmath")
    with mpmath.workdps(30):
        params = xz.SYSTEM.flow_parameters(case.setup, _numbers.to_mpf)
        y0 = flow.pack(
            [_numbers.to_mpf(v) for v in case.u0],
            [[_numbers.to_mpf(v) for v in r] for r in case.W0],
        )
        horizon = exact.t_c / 10

        def odefun():
            sol = mpmath.odefun(lambda t, y: f(y, params), 0, y0)
            return sol(horizon)

        t_ode = best(odefun, 1)
    t_short = best(
        lambda: numerics.simulate(case.setup, case.u0, case.W0, [horizon], method="mpmath", dps=30),
        1,
    )
    print(
        f"[3] 30 digits to t_c/10: mpmath.odefun {t_ode:.2f} s, Taylor integrator "
        f"{t_short:.3f} s  -> {t_ode / t_short:.0f}x faster"
    )


if __name__ == "__main__":
    main()
