"""Speed of the 30-digit oracle (issue 17, target 3): ``numerics.simulate(method="mpmath")``
with the vector Taylor engine (the default) against the reference engine (node by node,
``mpmath.fdot``), in one run, on the Xu-Ziyin flow (seed 001) with ``d`` hidden units and
``d0 = 10`` inputs, from ``t = 0`` to ``10 t_c``.

Run:  python benchmarks/oracle_speed.py                  # d = 10, 50; dps = 30, 50
      python benchmarks/oracle_speed.py --d 50 --dps 30  # one row

Columns: the flow's derivation from the loss and its compilation (paid once per process
and shape: ``xu_ziyin.flow`` and ``numerics._program`` are cached), the integration by each
engine (wall clock, one run each, flow cached), their ratio, the Taylor steps, the digits
the two engines agree to and the digits of each against the closed form at ``dps + 20``
(``inf``: equal after rounding to dps digits).  The initial weights are a fixed random draw
(seed 0) of exact 3-digit decimals, ``u ~ N(0, 1/d)``, ``W ~ N(0, 1/(d d0))``.
"""

from __future__ import annotations

import argparse
import time

import mpmath
import numpy as np

import numerics
from numerics import mp
from solvable import xu_ziyin as xz
from solvable._core.tolerance import digits


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


def row(d: int, d0: int, dps: int) -> dict[str, float]:
    setup, u0, W0 = instance(d, d0)
    exact = xz.closed_form(setup, u0, W0, dps=dps + 20)
    with mpmath.workdps(dps + 10):
        times = [mpmath.mpf(0), exact.t_c / 10, exact.t_c, 10 * exact.t_c]
    xz.flow.cache_clear()
    numerics._program.cache_clear()
    t0 = time.perf_counter()
    flow = xz.SYSTEM.flow(setup, {"u": (d,), "W": (d, d0)})
    numerics._program(flow)
    out: dict[str, float] = {"flow": time.perf_counter() - t0}
    sims = {}
    for engine in ("vector", "reference"):
        t0 = time.perf_counter()
        sims[engine] = numerics.simulate(setup, u0, W0, times, method="mpmath", dps=dps,
                                         engine=engine)  # fmt: skip
        out[engine] = time.perf_counter() - t0
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
    vec, old = sims["vector"], sims["reference"]
    out["steps"] = stats["steps"]
    out["agree"] = worst_digits(vec, [s.u for s in old], [s.W for s in old])
    out["vec_digits"] = worst_digits(vec, ref.u, ref.W)
    out["ref_digits"] = worst_digits(old, ref.u, ref.W)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--d", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--d0", type=int, default=10)
    parser.add_argument("--dps", type=int, nargs="+", default=[30, 50])
    args = parser.parse_args()
    print(
        "| d | d0 | dps | flow + compile (s) | vector (s) | reference (s) | ratio | steps "
        "| engines agree (digits) | vs closed form: vector / reference (digits) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in args.d:
        for dps in args.dps:
            r = row(d, args.d0, dps)
            print(f"| {d} | {args.d0} | {dps} | {r['flow']:.2f} | {r['vector']:.2f} | "
                  f"{r['reference']:.2f} | {r['reference'] / r['vector']:.1f}x | "
                  f"{r['steps']:.0f} | {r['agree']:.1f} | {r['vec_digits']:.1f} / "
                  f"{r['ref_digits']:.1f} |", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
