"""Speed of the 30-digit oracle (the oracle speed target): ``numerics.simulate(method="mpmath")``
on the Xu-Ziyin flow (seed 001) with ``d`` hidden units and ``d0 = 10`` inputs, from ``t = 0``
to ``10 t_c``: the whole call in a fresh process against the old path, in one run.

Run:  python benchmarks/oracle_speed.py                  # d = 10, 50; dps = 30, 50
      python benchmarks/oracle_speed.py --d 50 --dps 30  # one row

Columns (wall clock, one run each; the sympy cache cleared before each derivation):

- ``sp.diff`` / ``derive``: the flow's right-hand side from the loss, by ``sp.diff`` per
  parameter (the old derivation) and by :func:`solvable._core.flows.gradient_flow` (the same
  expressions, sympy's rules applied once per subexpression); ``compile``: the Taylor program
  (:func:`numerics.mp.compile_polynomial`); both are cached per process and shape;
- ``vector`` / ``reference``: the integration by each engine, flow and program cached, wall
  clock and CPU time (``time.process_time``: less inflated by a loaded machine) and their
  ratio ``ref / vec`` (CPU);
- ``cold call``: the whole ``simulate`` call in a fresh Python process (its imports, ``import
  (s)``, not counted: they are paid once by any use of the package);
- ``old path``: ``sp.diff + compile + reference``, the call before the compiled Taylor
  engine; ``speed-up``: ``old path / cold call``;
- ``steps``, and the digits the two engines agree to and each against the closed form at
  ``dps + 20`` (``inf``: equal after rounding to dps digits).

The initial weights are a fixed random draw (seed 0) of exact 3-digit decimals,
``u ~ N(0, 1/d)``, ``W ~ N(0, 1/(d d0))``.  The machine's load (``os.getloadavg``) is printed
under the table: timings on a shared machine are inflated by it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import mpmath
import numpy as np
import sympy as sp
from sympy.core.cache import clear_cache

import numerics
from numerics import mp
from solvable._core.tolerance import digits
from solvable.models import xu_ziyin as xz


def instance(d: int, d0: int) -> tuple[xz.Setup, list[str], list[list[str]]]:
    """A fixed random setup and initial weights (exact decimals)."""
    rng = np.random.default_rng(0)
    x = [f"{v:.3f}" for v in rng.normal(size=d0)]
    setup = xz.Setup(eta_u=1, eta_w="0.5", gamma="0.7", x=x, y="1.5")
    u0 = [f"{v:.3f}" for v in rng.normal(size=d) / np.sqrt(d)]
    W0 = [[f"{v:.3f}" for v in row] for row in rng.normal(size=(d, d0)) / np.sqrt(d * d0)]
    return setup, u0, W0


def worst_digits(sim: list[xz.State], ref_u: list, ref_W: list) -> float:
    return min(min(digits(s.u, u), digits(s.W, W)) for s, u, W in zip(sim, ref_u, ref_W,
                                                                          strict=True))  # fmt: skip


_COLD = """
import sys, time
t0 = time.perf_counter()
import numerics
from solvable.models import xu_ziyin as xz
sys.path.insert(0, {here!r})
from oracle_speed import instance
t1 = time.perf_counter()
setup, u0, W0 = instance({d}, {d0})
times = {times!r}  # exact decimals
t2 = time.perf_counter()
numerics.simulate(setup, u0, W0, times, method="mpmath", dps={dps})
print(t1 - t0, time.perf_counter() - t2)
"""


def cold_call(d: int, d0: int, dps: int, times: list) -> tuple[float, float]:
    """(imports, the whole ``simulate`` call) in a fresh process, in seconds."""
    code = _COLD.format(here=os.path.dirname(os.path.abspath(__file__)), d=d, d0=d0, dps=dps,
                        times=[mpmath.nstr(t, dps + 10) for t in times])  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)  # fmt: skip
    imports, call = map(float, done.stdout.split())
    return imports, call


def row(d: int, d0: int, dps: int) -> dict[str, float]:
    setup, u0, W0 = instance(d, d0)
    exact = xz.closed_form(setup, u0, W0, dps=dps + 20)
    with mpmath.workdps(dps + 10):
        times = [mpmath.mpf(0), exact.t_c / 10, exact.t_c, 10 * exact.t_c]
    out: dict[str, float] = {}
    out["imports"], out["cold"] = cold_call(d, d0, dps, times)
    xz.flow.cache_clear()
    numerics._program.cache_clear()
    clear_cache()
    t0 = time.perf_counter()
    flow = xz.SYSTEM.flow(setup, {"u": (d,), "W": (d, d0)})
    out["derive"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    numerics._program(flow)
    out["compile"] = time.perf_counter() - t0
    clear_cache()
    t0 = time.perf_counter()
    S = xz.symbolic()
    rates = {"u": S.eta_u, "W": S.eta_w}
    old = [-rates[str(s)[0]] * sp.diff(flow.loss, s) for s in flow.state]
    out["sp.diff"] = time.perf_counter() - t0
    out["same rhs"] = float(tuple(old) == flow.rhs)
    sims = {}
    for engine in ("vector", "reference"):
        t0, c0 = time.perf_counter(), time.process_time()
        sims[engine] = numerics.simulate(setup, u0, W0, times, method="mpmath", dps=dps,
                                         engine=engine)  # fmt: skip
        out[engine] = time.perf_counter() - t0
        out[engine + " cpu"] = time.process_time() - c0
    with mpmath.workdps(dps + mp.GUARD_DIGITS):
        y0 = flow.pack(
            {
                "u": np.array([mpmath.mpf(v) for v in u0], dtype=object),
                "W": np.array([[mpmath.mpf(v) for v in r] for r in W0], dtype=object),
            }
        )
        tm = [+t for t in times]  # fmt: skip
    _ys, stats = mp.integrate(numerics._program(flow), xz.SYSTEM.flow_parameters(setup, str),
                              flow.params, y0, tm, dps, flow.spans())  # fmt: skip
    ref = exact.sample(times)
    vec, old_sim = sims["vector"], sims["reference"]
    out["steps"] = stats["steps"]
    out["agree"] = worst_digits(vec, [s.u for s in old_sim], [s.W for s in old_sim])
    out["vec_digits"] = worst_digits(vec, ref.u, ref.W)
    out["ref_digits"] = worst_digits(old_sim, ref.u, ref.W)
    out["old"] = out["sp.diff"] + out["compile"] + out["reference"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--d", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--d0", type=int, default=10)
    parser.add_argument("--dps", type=int, nargs="+", default=[30, 50])
    args = parser.parse_args()
    print(
        "| d | d0 | dps | sp.diff (s) | derive (s) | compile (s) | vector (s) | reference (s) "
        "| vector CPU (s) | reference CPU (s) | ref / vec (CPU) "
        "| cold call (s) | import (s) | old path (s) | speed-up | steps | engines agree (digits) "
        "| vs closed form: vector / reference (digits) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for d in args.d:
        for dps in args.dps:
            r = row(d, args.d0, dps)
            assert r["same rhs"], "gradient_flow's rhs differs from sp.diff's"
            print(f"| {d} | {args.d0} | {dps} | {r['sp.diff']:.2f} | {r['derive']:.2f} | "
                  f"{r['compile']:.2f} | {r['vector']:.2f} | {r['reference']:.2f} | "
                  f"{r['vector cpu']:.2f} | {r['reference cpu']:.2f} | "
                  f"{r['reference cpu'] / r['vector cpu']:.1f}x | "
                  f"{r['cold']:.2f} | {r['imports']:.2f} | {r['old']:.2f} | "
                  f"{r['old'] / r['cold']:.1f}x | {r['steps']:.0f} | {r['agree']:.1f} | "
                  f"{r['vec_digits']:.1f} / {r['ref_digits']:.1f} |", flush=True)  # fmt: skip
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    print(f"\nload average (1, 5, 15 min): {load} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
