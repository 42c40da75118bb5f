"""Seed 001 (Xu & Ziyin) Table 1, measured: the phase of each scaling from simulated
two-layer linear nets, against the phase of Theorem 2 (``solvable.models.phases``).

Run (from the repository root)::

    python benchmarks/sweep_xu_ziyin.py                      # 11 cells, kappa 64..4096, 16 seeds
    python benchmarks/sweep_xu_ziyin.py --seeds 32 --kappas 64 256 1024 4096 16384
    python benchmarks/sweep_xu_ziyin.py --executor local     # dask LocalCluster, 1 worker/core
    python benchmarks/sweep_xu_ziyin.py --executor tcp://host:8786 --cache-dir sweep-cache
    python benchmarks/sweep_xu_ziyin.py --quick              # 2 cells, 3 kappas, 4 seeds

Each (cell, kappa) is one grid point of :func:`numerics.sweeps.xu_ziyin_point`: a batch
of ``--seeds`` nets of width ``d = kappa`` (``c_d = 1``; the lazy column keeps d = 16),
d0 = 4, x = (1, -1, 1, 1)/2 (|x| = 1), y = 2, Gaussian initialisation (the lazy column
of the table: mirrored neurons, zero initial output; "lazy (gaussian)" is the same
scaling from a plain Gaussian start), gradient flow (DOP853, float64, rtol 1e-8) to 3
t_c.  Measured per net: ``t_c`` (4 x the e-folding time of |f - y|) and the relative
NTK change ``|K(T) - K(0)|/K(0)``; exponents fitted on log-log of the seed means with
errors (regression and paired bootstrap over seeds); see ``numerics/sweeps.py`` for the
definitions, the derivation of the predicted exponents and the classification rule.

Printed: the 24 predicted cells (paper's printed phase, Theorem 2, exponents derived
here), then the measured table, then timings (the sweep, and one point at the largest
width alone, without the cache).
"""

from __future__ import annotations

import argparse
import os
import time

import torch

from numerics import sweeps

FULL = [
    "NTK, c_eta", "mean field, c_eta", "Kaiming, c_eta", "mean field, c_eta*",
    "Kaiming, c_eta*", "Kaiming, +", "Xavier, c_eta", "Xavier, -", "NTK, +",
    "lazy, c_eta*", "lazy (gaussian), c_eta*",
]  # fmt: skip
QUICK = ["NTK, c_eta", "mean field, c_eta*"]


def _exps(case: sweeps.PhaseCase) -> str:
    s = case.scaling
    return (f"{s.c_d},{s.c_gamma},{s.c_u},{s.c_w},{s.c_eta_u}"
            + (" z" if s.zero_initial_output else ""))  # fmt: skip


def predicted_table(cases: dict[str, sweeps.PhaseCase]) -> str:
    head = (f"{'cell':26} {'c_d,c_g,c_u,c_w,c_eta':22} {'printed':9} {'Theorem 2':17} "
            f"{'t_c exp':>7} {'dK exp':>6}  {'from exponents':17}")  # fmt: skip
    lines = [head, "-" * len(head)]
    for name, c in cases.items():
        p = c.predicted()
        lines.append(f"{name:26} {_exps(c):22} {c.printed or '-':9} {c.paper_phase():17} "
                     f"{p.t_c!s:>7} {p.ntk_change!s:>6}  {p.phase:17}")  # fmt: skip
    return "\n".join(lines)


def measured_table(ms: list[sweeps.PhaseMeasurement]) -> str:
    head = (f"{'cell':24} {'Theorem 2':16} {'pred t_c':>8} {'meas t_c':>15} {'pred dK':>7} "
            f"{'meas dK':>15} {'widths':17} {'seeds':>5}  {'measured':16} verdict")  # fmt: skip
    lines = [head, "-" * len(head)]
    for m in ms:
        p = m.predicted
        w = f"{m.widths[0]}..{m.widths[-1]}" if len(set(m.widths)) > 1 else f"{m.widths[0]}"
        verdict = "agree" if m.agrees else "DISAGREE"
        lines.append(
            f"{m.case.name:24} {m.paper_phase:16} {p.t_c!s:>8} "
            f"{m.t_c.exponent:+7.3f}+-{m.t_c.error:<5.2g} {p.ntk_change!s:>7} "
            f"{m.ntk_change.exponent:+7.3f}+-{m.ntk_change.error:<5.2g} {w:17} {m.seeds:5}  "
            f"{m.phase:16} {verdict}"
        )
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kappas", type=int, nargs="+", default=[64, 256, 1024, 4096])
    ap.add_argument("--seeds", type=int, default=16)
    ap.add_argument("--cells", nargs="+", default=None, help="cell names (default: 11)")
    ap.add_argument("--executor", default=None, help="'local' or a scheduler address")
    ap.add_argument("--cache-dir", default=None)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--progress", action="store_true")
    args = ap.parse_args()
    cells = args.cells or (QUICK if args.quick else FULL)
    kappas = [64, 256, 1024] if args.quick else args.kappas
    seeds = 4 if args.quick else args.seeds
    cases = sweeps.table_1_cases()
    unknown = [c for c in cells if c not in cases]
    if unknown:
        ap.error(f"unknown cells {unknown}; known: {sorted(cases)}")

    print(f"torch {torch.__version__}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; "
          f"executor {args.executor or 'in-process'}, cache {args.cache_dir}")  # fmt: skip
    print("\nPredicted (all cells; 'z': zero initial output; exponents of kappa)\n")
    print(predicted_table(cases))
    start = time.perf_counter()
    ms = sweeps.measure_phases([cases[c] for c in cells], kappas, seeds=seeds,
                               executor=args.executor, cache_dir=args.cache_dir,
                               progress=args.progress)  # fmt: skip
    wall = time.perf_counter() - start
    print(f"\nMeasured (t_c and relative NTK change dK = |K(T)-K(0)|/K(0) ~ kappa^exp; "
          f"+- the larger of the regression and bootstrap errors; kappa = "
          f"{', '.join(map(str, kappas))})\n")  # fmt: skip
    print(measured_table(ms))
    n_agree = sum(m.agrees for m in ms)
    print(f"\n{n_agree}/{len(ms)} cells: measured phase = Theorem 2 = derived exponents")
    big = cases[cells[0]].point(max(kappas), seeds=seeds)
    t0 = time.perf_counter()
    r = sweeps.xu_ziyin_point(big)
    one = time.perf_counter() - t0
    print(
        f"sweep: {len(cells) * len(kappas)} points in {wall:.1f} s; one point at width "
        f"{r['d']} ({seeds} nets, {r['steps']} DOP853 steps), uncached: {one:.2f} s"
    )


if __name__ == "__main__":
    main()
