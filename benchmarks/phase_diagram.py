"""Seed 004, Figure 5 and Table 2 measured: the (gamma_2, gamma_3) grid of S_W1, S_W2,
the regimes, the zero crossings along gamma_3 (Figure 5's stars) and Table 2's
within-group invariance (``numerics.phase_diagram``).  Run from the repository root::

    # fast: 3 x 4 grid, widths 32..128, 3 seeds, CPU, one thread (~2-4 min on the
    # shared 2-core machine)
    python benchmarks/phase_diagram.py --threads 1 --cache-dir /tmp/pd-cache
    # the paper's widths (Figure 5: m = 100..10000) and 8 seeds (Table 2), on CUDA
    python benchmarks/phase_diagram.py --device cuda --widths 100,1000,2500,5000,10000 \\
        --seeds 8 --cache-dir pd-cache
    # or on a dask cluster: --executor local | --executor tcp://scheduler:8786

The cache makes every run resumable (``numerics.sweeps.run_sweep``).  Regimes read with
the band max(0.1, 2 err) (``numerics.phase_diagram.BAND``).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import torch

from numerics import phase_diagram as pdg


def _fracs(text: str) -> list[Fraction]:
    return [Fraction(v) for v in text.split(",")]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--gamma2", default="0,1/2,7/10", help="comma-separated gamma_2 values")
    ap.add_argument("--gamma3", default="11/10,3/2,21/10,14/5", help="gamma_3 values")
    ap.add_argument("--widths", default="32,64,128")
    ap.add_argument("--seeds", type=int, default=3, help="seeds 0 .. n-1")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=None, help="torch.set_num_threads")
    ap.add_argument("--cache-dir", default=None)
    ap.add_argument("--executor", default=None, help="None | 'local' | scheduler address")
    ap.add_argument("--no-table-2", action="store_true", help="skip Table 2")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    widths = [int(w) for w in args.widths.split(",")]
    seeds = list(range(args.seeds))
    opts = {"executor": args.executor, "cache_dir": args.cache_dir, "progress": True,
            "device": args.device}  # fmt: skip
    t0 = time.perf_counter()
    d = pdg.phase_grid(_fracs(args.gamma2), _fracs(args.gamma3), widths, seeds, **opts)
    t_grid = time.perf_counter() - t0
    print(f"\nFigure 5 grid: widths {widths}, seeds {seeds}, device {args.device} "
          f"({t_grid:.0f} s)")  # fmt: skip
    print(d.table())
    print("\nzero crossings along gamma_3 (Figure 5's stars):")
    for layer in pdg.LAYERS:
        cs = pdg.boundaries(d, layer, "gamma_3")
        if not cs:
            print(f"  S_{layer}: none on this grid")
        for c in cs:
            print(f"  S_{layer} = 0 at gamma_2 = {c.fixed:g}: gamma_3 = {c.at:.3f} +- "
                  f"{c.err:.3f} (between {c.bracket[0]:g} and {c.bracket[1]:g}, "
                  f"dS/dgamma_3 = {c.dS:.2f})")  # fmt: skip
    if not args.no_table_2:
        t0 = time.perf_counter()
        groups = pdg.table_2_invariance(widths, seeds, **opts)
        print(f"\nTable 2 ({time.perf_counter() - t0:.0f} s): S_W per exponent s of "
              "alpha = m^s; spread in a group vs its seed noise (largest SE)")  # fmt: skip
        for g in groups:
            for name, s, p in zip(g.names, g.alpha_exponents, g.points, strict=True):
                print(f"  {name:<7} s={float(s):+5.2f} (g2, g3) = ({float(g.gamma_2):g}, "
                      f"{float(g.gamma_3):g}): S_W1 {p.slope('W1'):+.4f} +- {p.err('W1'):.4f}"
                      f"  S_W2 {p.slope('W2'):+.4f} +- {p.err('W2'):.4f}")  # fmt: skip
            print(f"  {g.group}: spread S_W1 {g.spread('W1'):.4f} (noise {g.noise('W1'):.4f}), "
                  f"S_W2 {g.spread('W2'):.4f} (noise {g.noise('W2'):.4f})")  # fmt: skip


if __name__ == "__main__":
    main()
