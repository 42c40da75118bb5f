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

Speed: the runs of the seed-004 confirmations trained one at a time with
autograd (the earlier path), one at a time with the model's hand-written
gradient, and all at once batched per width (``numerics.sweep_three_layer.train_runs``,
what ``measure_points`` does in process); CPU seconds, best of ``--repeat``, ratios
against the first, and the largest RD difference from the first (and whether the
batched runs are the single runs bit for bit)::

    # 4 phase points x widths 32, 64, 128 x seeds 0-2 (36 runs): ~3 min here
    python benchmarks/phase_diagram.py --speed --threads 1
    # every point of the confirmations (13 points, 117 runs): ~8 min here
    python benchmarks/phase_diagram.py --speed --speed-all --threads 1 --repeat 1
"""

from __future__ import annotations

import argparse
import math
import os
import time
from fractions import Fraction
from typing import Any

import torch

import numerics.sweep_three_layer as stl
from numerics import phase_diagram as pdg
from numerics.models import ThreeLayerReLU
from solvable.verification.confirmations import three_layer as conf

SPEED_POINTS = ((Fraction(0), Fraction(11, 10)), (Fraction(0), Fraction(21, 10)),
                (Fraction(7, 10), Fraction(5, 2)), (Fraction(1, 2), Fraction(14, 5)))  # fmt: skip
"""Four of the confirmations' points: linear, W1 condensed, W2 critical, W2 condensed."""


class _AutogradReLU(ThreeLayerReLU):
    """The model without its hand-written gradient: ``torch_flow`` then differentiates
    the risk by autograd, as every run did before the hand-written gradients."""

    @property
    def gradient(self) -> Any:
        raise AttributeError("gradient")


def _runs(every: bool, widths: list[int], seeds: list[int]) -> list[dict[str, Any]]:
    """The runs of the confirmations' points (``every``) or of :data:`SPEED_POINTS`, with
    the settings ``measure_points(normalised_lr=True)`` gives them."""
    keys = conf._keys() if every else [(*k, Fraction(0)) for k in SPEED_POINTS]
    out = []
    for g2, g3, s in keys:
        for m in widths:
            cap = {"lr_max": 0.2 * m ** (2 * float(s) / 3)} if s else {}
            extra = {"alpha_exponent": s} if s else {}
            out += [{"gamma_2": g2, "gamma_3": g3, "m": m, "seed": sd, "device": "cpu",
                     **extra, **cap} for sd in seeds]  # fmt: skip
    return out


def _single(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    keys = ("gamma_2", "gamma_3", "m", "seed")
    return [stl.train_run(*(r[k] for k in keys), **{k: v for k, v in r.items() if k not in keys})
            for r in runs]  # fmt: skip


def _autograd(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    real = stl.ThreeLayerReLU
    stl.ThreeLayerReLU = _AutogradReLU
    try:
        return _single(runs)
    finally:
        stl.ThreeLayerReLU = real


def _rds(trained: list[dict[str, Any]]) -> list[tuple[float, float]]:
    return [(stl._rd(t["p"], t["p0"], "W1", "b1"), stl._rd(t["p"], t["p0"], "W2", "b2"))
            for t in trained]  # fmt: skip


def speed(every: bool, widths: list[int], seeds: list[int], repeat: int) -> None:
    """Print the markdown table of the module docstring's speed comparison."""
    runs = _runs(every, widths, seeds)
    variants = [("one run at a time, autograd (before)", _autograd),
                ("one run at a time, hand-written gradient", _single),
                ("batched per width (train_runs)", stl.train_runs)]  # fmt: skip
    load0 = os.getloadavg()
    rows, results = [], {}
    for name, fn in variants:
        best_cpu = best_wall = math.inf
        for _ in range(repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            out = fn(runs)
            best_cpu = min(best_cpu, time.process_time() - c0)
            best_wall = min(best_wall, time.perf_counter() - w0)
        results[name] = out
        rows.append((name, best_cpu, best_wall))
    base = _rds(results[variants[0][0]])
    single = results[variants[1][0]]
    print(
        f"\n{len(runs)} runs ({'every confirmation point' if every else 'SPEED_POINTS'}), "
        f"widths {widths}, seeds {seeds}, {torch.get_num_threads()} torch thread(s), best "
        f"of {repeat}; load average {load0[0]:.1f} before, {os.getloadavg()[0]:.1f} after\n"
    )
    print(
        "| path | CPU (s) | wall (s) | ratio (CPU) | max rel. RD diff vs before | steps "
        "equal | weights bit for bit vs single |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, cpu, wall in rows:
        out = results[name]
        rd = _rds(out)
        diff = max(abs(a - b) / abs(b) for x, y in zip(rd, base, strict=True)
                   for a, b in zip(x, y, strict=True))  # fmt: skip
        steps = all(a["steps"] == b["steps"] for a, b in zip(out, results[variants[0][0]],
                                                              strict=True))  # fmt: skip
        same = all(torch.equal(a["p"][k], b["p"][k]) for a, b in zip(out, single, strict=True)
                   for k in b["p"])  # fmt: skip
        print(
            f"| {name} | {cpu:.1f} | {wall:.1f} | {rows[0][1] / cpu:.1f}x | {diff:.1e} | "
            f"{'yes' if steps else 'no'} | {'yes' if same else 'no'} |"
        )


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
    ap.add_argument("--speed", action="store_true", help="the speed comparison instead")
    ap.add_argument("--speed-all", action="store_true", help="--speed on every claim's point")
    ap.add_argument("--repeat", type=int, default=2, help="--speed: best of this many")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    widths = [int(w) for w in args.widths.split(",")]
    seeds = list(range(args.seeds))
    if args.speed:
        speed(args.speed_all, widths, seeds, args.repeat)
        return
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
