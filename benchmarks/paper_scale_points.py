"""Seconds per point of seed 004's paper-scale confirmation, and the plan it implies.

Run:  python benchmarks/paper_scale_points.py [--widths 100 1000] [--device cpu|cuda]
                                              [--cores 32] [--probe 2500 5000 10000]
                                              [--probe-steps 10]

One point of ``solvable verify --full --only 'three_layer.*'`` is one ``rd_point`` run
(:func:`numerics.sweep_three_layer.rd_point`: a three-layer ReLU net of width m trained by
gradient descent to ``R_S <= 1e-6``, one torch thread).  Times one run at a linear phase
point (0, 1) and at a condensed one (1/2, 2.8) (the condensed runs take ~3 times the steps)
at each width, then prints the plan for the paper's widths
(:data:`numerics.phase_diagram.FULL_WIDTHS`) and seeds (``FULL_SEEDS``) over the claims'
phase points: the time per run at each width (the per-step cost measured: by full runs
at ``--widths``, and at the ``--probe`` widths from the condensed point's run stopped
after 2 and after 2 + ``--probe-steps`` steps (``max_steps``; the difference leaves out
the set-up: the initialisation and the NTK's eigenvalue for the rate; a full run at
m = 10000 would take hours on a CPU; a difference that is not positive, the set-up's noise
on a loaded machine, is reported as not measured); a width measured neither way is extrapolated as
m^2 from the largest measured one; steps: the mean of the full runs at the largest of
``--widths``), the CPU hours, the wall time on ``--cores`` single-threaded workers, and
the memory of one run (weights, their copy at initialisation, the gradient and two
temporaries: ~5 copies of the m^2 float64 entries of W2).
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import torch

from numerics import phase_diagram as pdg
from numerics.sweep_three_layer import rd_point
from solvable.verification.confirmations import three_layer

POINTS = ((Fraction(0), Fraction(1)), (Fraction(1, 2), Fraction(14, 5)))  # linear, condensed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--widths", type=int, nargs="+", default=[100, 1000])
    parser.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--cores", type=int, default=32)
    parser.add_argument("--probe", type=int, nargs="*", default=[],
                        help="widths timed over --probe-steps steps only")  # fmt: skip
    parser.add_argument("--probe-steps", type=int, default=10)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    print(f"device {args.device}, one torch thread\n")
    print("| m | phase point | seconds | steps | ms / step |")
    print("|---|---|---|---|---|")
    per_step: dict[int, float] = {}
    steps: dict[int, list[int]] = {}
    for m in args.widths:
        for g2, g3 in POINTS:
            t0 = time.perf_counter()
            r = rd_point(g2, g3, m, 0, device=args.device)
            dt = time.perf_counter() - t0
            ms = 1e3 * dt / max(r["steps"], 1)
            per_step[m] = max(per_step.get(m, 0.0), ms)
            steps.setdefault(m, []).append(r["steps"])
            print(f"| {m} | ({float(g2):g}, {float(g3):g}) | {dt:.2f} | {r['steps']} | {ms:.3f} |")
    for m in args.probe:  # per-step cost only: the condensed point, stopped early, timed
        g2, g3 = POINTS[1]  # at 2 and 2 + probe_steps steps (the difference: no set-up)
        dts = []
        for n in (2, 2 + args.probe_steps):
            t0 = time.perf_counter()
            rd_point(g2, g3, m, 0, device=args.device, max_steps=n)
            dts.append(time.perf_counter() - t0)
        if dts[1] <= dts[0]:  # the set-up's noise (a loaded machine) exceeds the steps
            print(f"| {m} | ({float(g2):g}, {float(g3):g}), not measured: {2 + args.probe_steps}"
                  f" steps took {dts[1]:.1f} s, 2 steps {dts[0]:.1f} s (set-up noise; raise "
                  f"--probe-steps or run on a quiet machine) | | | |")  # fmt: skip
            continue
        per_step[m] = 1e3 * (dts[1] - dts[0]) / args.probe_steps
        setup = dts[0] - 2 * per_step[m] / 1e3
        print(f"| {m} | ({float(g2):g}, {float(g3):g}), {args.probe_steps} steps (set-up "
              f"{setup:.1f} s apart) | {dts[1] - dts[0]:.2f} | {args.probe_steps} | "
              f"{per_step[m]:.3f} |")  # fmt: skip
    top = max(args.widths)
    mean_steps = sum(steps[top]) / len(steps[top])
    keys = len(three_layer._keys(True))  # the points the --full claims measure (shared runs)
    seeds, widths = len(pdg.FULL_SEEDS), len(pdg.FULL_WIDTHS)
    print(f"\nplan: {keys} phase points x {widths} widths x {seeds} seeds = "
          f"{keys * widths * seeds} runs; steps per run ~{mean_steps:.0f}\n")  # fmt: skip
    print("| m | s / run (est.) | runs | CPU hours | memory / run (GB) |")
    print("|---|---|---|---|---|")
    total = 0.0
    for m in pdg.FULL_WIDTHS:
        big = max(per_step)
        ms = per_step[m] if m in per_step else per_step[big] * (m / big) ** 2
        run_s = ms * mean_steps / 1e3
        runs = keys * seeds
        total += run_s * runs
        gb = 5 * 8 * m * m / 1e9
        print(f"| {m} | {run_s:.1f} | {runs} | {run_s * runs / 3600:.1f} | {gb:.2f} |")
    print(f"\ntotal {total / 3600:.0f} CPU hours; on {args.cores} single-threaded workers "
          f"{total / 3600 / args.cores:.1f} h (if memory allows the largest width on every "
          f"worker)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
