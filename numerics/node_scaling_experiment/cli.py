"""The command line of :mod:`numerics.node_scaling_experiment`: :func:`main`.

``python -m numerics.node_scaling_experiment --out DIR`` runs Section 8.1.1 (default), the
Theorem 5.1 monitoring and the feature-learning sweep, writes JSON and the figure and prints
the numbers; a command line it cannot parse is an :class:`ArgvError`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from numerics.node_scaling_experiment.features import feature_learning_sweep
from numerics.node_scaling_experiment.figure_1 import plot_section_8_1_1, section_8_1_1
from numerics.node_scaling_experiment.monitor import monitor_table, monitor_theorem_5_1
from solvable._core import numbers as nb


class ArgvError(ValueError):
    """A command line :func:`main` cannot parse (the message names ``argv``)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse exits; a caller of main gets this
        raise ArgvError(f"argv: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m numerics.node_scaling_experiment",
        description="Seed 000: Section 8.1.1 reduced (default), Theorem 5.1 monitoring, "
        "feature-learning ratios against the width.",
    )
    p.add_argument("--out", required=True, help="output directory (JSON + PNG)")
    p.add_argument("--steps", type=int, default=2000, help="GD steps (Section 8.1.1)")
    p.add_argument("--widths", type=int, nargs="+", default=[2000], help="widths (8.1.1)")
    p.add_argument("--repeats", type=int, default=1, help="initialisations per setting")
    p.add_argument("--lr", type=float, default=1.0, help="GD learning rate (paper: 1.0)")
    p.add_argument("--device", default="cpu", help="cpu, cuda or cuda:k")
    p.add_argument("--threads", type=int, default=1, help="torch threads (1: best on a busy CPU)")
    p.add_argument("--quick", action="store_true", help="seconds: n=20, d=10, m=100, 60 steps")
    p.add_argument("--part", choices=("8.1.1", "monitor", "features", "all"), default="8.1.1",
                   help="which experiment(s) to run")  # fmt: skip
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the experiments; write ``section_8_1_1.json`` / ``.png``, ``monitor.json``,
    ``feature_learning.json`` under ``--out``; print the summaries.  ``argv``: the
    arguments (strings; ``None``: ``sys.argv[1:]``); one it cannot parse is an
    :class:`ArgvError` (a ``ValueError`` naming ``argv``; the command line prints the usage
    and exits with status 2 instead)."""
    if argv is None:
        argv = sys.argv[1:]
    if (
        isinstance(argv, (str, bytes))
        or not isinstance(argv, Sequence)
        or not all(isinstance(a, str) for a in argv)
    ):
        raise TypeError(f"argv must be a sequence of strings, got {nb.describe(argv)}")
    args = _parser().parse_args(list(argv))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.part in ("8.1.1", "all"):
        if args.quick:
            kw = {"n": 20, "d": 10, "widths": (100,), "steps": 60, "repeats": 1,
                  "n_records": 12}  # fmt: skip
        else:
            kw = {"widths": tuple(args.widths), "steps": args.steps, "repeats": args.repeats}
        res = section_8_1_1(lr=args.lr, device=args.device, threads=args.threads,
                            progress=True, **kw)  # fmt: skip
        (out / "section_8_1_1.json").write_text(json.dumps(res))
        plot_section_8_1_1(res, out / "section_8_1_1.png")
        print(json.dumps(res["summary"], indent=1))
    if args.part in ("monitor", "all"):
        kw = ({"n": 6, "d": 3, "gammas": (1.0, 0.5), "widths": (100,), "seeds": (0,),
               "horizon": 4.0} if args.quick else {})  # fmt: skip
        res = monitor_theorem_5_1(device=args.device, threads=args.threads, progress=True, **kw)
        (out / "monitor.json").write_text(json.dumps(res))
        print(monitor_table(res))
    if args.part in ("features", "all"):
        kw = ({"n": 6, "d": 3, "gammas": (1.0, 0.5), "widths": (50, 200), "seeds": (0, 1),
               "horizon": 4.0} if args.quick else {})  # fmt: skip
        res = feature_learning_sweep(device=args.device, threads=args.threads, progress=True, **kw)
        (out / "feature_learning.json").write_text(json.dumps(res))
        for g in res["gammas"]:
            print(f"gamma={g['gamma']:g}: per-seed slopes of (17) {np.round(g['sum_slopes'], 3)}"
                  f", of (18) {np.round(g['max_slopes'], 3)}")  # fmt: skip
    return 0


def _cli() -> int:  # pragma: no cover
    """``python -m``: a bad command line prints the usage and exits with status 2."""
    try:
        return main()
    except ArgvError as exc:
        _parser().print_usage(sys.stderr)
        print(f"{_parser().prog}: error: {str(exc).removeprefix('argv: ')}", file=sys.stderr)
        return 2
