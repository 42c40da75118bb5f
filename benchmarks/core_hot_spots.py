"""Two hot spots of the generated evaluators (the evaluator speed target), fast path vs the
reference path in one process, best of N: prints a markdown table.

* numpy ``select`` (sympy's Piecewise) with scalar branches, as a scipy right-hand side
  calls it one entry at a time: the first true branch taken directly
  (``backends._np_select``) vs broadcasting + ``numpy.select``
  (``backends._np_select_arrays``);
* the torch ReLU of the batched losses, float64 at (20, 200, 64) (``kunin.alpha_scaling``'s
  training step): ``torch.threshold`` (the lowering of ``Piecewise((0, z <= 0), (z, True))``
  that the package's printer emits) vs ``where(le(z, 0), 0, z)`` (sympy's own
  ``TorchPrinter``), forward and forward + backward, one torch thread.

    python benchmarks/core_hot_spots.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import timeit

import numpy as np
import torch
from sympy.printing.pytorch import TorchPrinter

from solvable._core import activations as act
from solvable._core import backends as bk


def _best(fn, number: int, repeat: int) -> float:
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def _stock_relu():
    names = tuple(sorted(bk.namespace("torch")[0]))
    printer = TorchPrinter({"fully_qualified_modules": False, "inline": True,
                            "allow_unknown_functions": True,
                            "user_functions": {n: n for n in names}})  # fmt: skip
    return bk.generate((act.Z,), act.evaluated_form("relu"), "torch", printer=printer)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    torch.set_num_threads(1)
    rows = []
    conds = [np.float64(0.3) < 0, np.float64(0.3) <= 1, True]
    choices = [np.float64(1.5), np.float64(-2.0), 0.0]
    fast = _best(lambda: bk._np_select(conds, choices), 20000, args.repeat)
    ref = _best(lambda: bk._np_select_arrays(conds, choices), 20000, args.repeat)
    rows.append(("numpy select, 3 scalar branches (per call)", fast, ref))
    z = torch.randn(20, 200, 64, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    relu, where = act.evaluator("relu", "torch"), _stock_relu()
    fast = _best(lambda: relu(z), 50, args.repeat)
    ref = _best(lambda: where(z), 50, args.repeat)
    rows.append(("torch ReLU forward, (20, 200, 64) float64", fast, ref))
    zr = z.clone().requires_grad_(True)
    ones = torch.ones_like(z)

    def step(fn):
        return lambda: fn(zr).backward(ones)

    fast = _best(step(relu), 20, args.repeat)
    ref = _best(step(where), 20, args.repeat)
    rows.append(("torch ReLU forward + backward, (20, 200, 64) float64", fast, ref))
    print(f"load average {os.getloadavg()[0]:.1f} (best of {args.repeat})\n")
    print("| hot spot | fast (us) | reference (us) | ratio |")
    print("| --- | --- | --- | --- |")
    for name, f, r in rows:
        print(f"| {name} | {f * 1e6:.1f} | {r * 1e6:.1f} | {r / f:.1f}x |")


if __name__ == "__main__":
    main()
