"""Seed 003 Part III: the measured curve of test error and kernel distance against alpha.

Run:  python benchmarks/alpha_scaling.py [--full] [--device cpu|cuda] [--dtype float64|float32]
                                         [--seeds S] [--steps N] [--json FILE]

Default: the registered claim's grid (alpha in 1/8, 1/4, 1, 4, 16) with 4 seeds; ``--full``:
1/8 .. 16 by factors of 2 with 8 seeds.  Two-layer ReLU students (width 64, W divided by
alpha, symmetric initialisation) trained by full-batch GD on a single-index ReLU teacher
(n = 200, d = 10, 1000 test points); see :mod:`numerics.alpha_scaling`.  Prints a markdown
table (seed mean ± standard error), the verdict of the claim ``kunin.alpha_scaling`` on the
curve, and writes the numbers as JSON (default ``alpha_scaling.json``).
"""

from __future__ import annotations

import argparse
import json
import sys

import torch

from numerics import alpha_scaling
from solvable.verification.confirmations import kunin as kunin_claims

COLUMNS = ("test_error", "train_error", "kernel_distance", "activation_change", "rel_change_W",
           "rel_change_a", "edge")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="alpha 1/8..16 (x2), 8 seeds")
    parser.add_argument("--device", default="cpu", help="cpu (default), cuda or cuda:k")
    parser.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    parser.add_argument("--seeds", type=int, default=None, help="default 4 (--full: 8)")
    parser.add_argument("--steps", type=int, default=2000, help="GD steps (default 2000)")
    parser.add_argument("--json", default="alpha_scaling.json", help="output file")
    args = parser.parse_args(argv)
    grid = alpha_scaling.ALPHAS if args.full else alpha_scaling.ALPHAS_SMALL
    seeds = args.seeds if args.seeds is not None else (8 if args.full else 4)
    curve = alpha_scaling.alpha_curve(grid, seeds=seeds, steps=args.steps, device=args.device,
                                      dtype=getattr(torch, args.dtype))  # fmt: skip
    print(f"{len(grid)} alphas x {seeds} seeds, {args.steps} steps on {curve.device} "
          f"({curve.dtype}): {curve.seconds:.1f} s\n")  # fmt: skip
    print(curve.table(COLUMNS))
    verdict = kunin_claims._alpha_scaling(curve=curve)
    print(f"\nkunin.alpha_scaling on this curve: {verdict.status} (worst {verdict.max_error:.3g})")
    print(verdict.detail)
    out = curve.to_dict()
    out["verdict"] = {"status": verdict.status, "max_error": verdict.max_error,
                      "detail": verdict.detail}  # fmt: skip
    with open(args.json, "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"\nwrote {args.json}")
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())
