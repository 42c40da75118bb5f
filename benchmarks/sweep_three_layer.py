"""Seed 004, Figure 5 / Table 2: measured slopes S_W1, S_W2 (eq. (11)) at five phase points.

Each point is trained (``numerics.sweep_three_layer.rd_point``: the 1-d four-point
problem, gradient descent to R_S <= 1e-6) at every width and seed; S_Wi is the least-
squares slope of log RD(W^[i]) on log m (``slopes``).  Run (from the repository root)::

    # CPU, m = 128..1024, seed 0: ~3 min on the shared 2-core machine
    python benchmarks/sweep_three_layer.py --threads 1
    # the reported table: H100, m = 256..8192, seeds 0-2 (it ran 290 s under `timeout
    # 290`, which stopped it during m = 8192: seed 0 for all points, seed 1 for two)
    PYTHONPATH=. timeout 290 python benchmarks/sweep_three_layer.py --device cuda \
        --widths 256,512,1024,2048,4096,8192 --seeds 3 --json-out results.json
    python benchmarks/sweep_three_layer.py --from-json results.json   # re-print a saved run

Loops run widths outermost and the JSON is rewritten after every run, so a run cut
short keeps every point at the smaller widths.  ``--threads 1`` matters on a shared
CPU: two torch threads spinning at barriers against another busy process ran up to
20 times slower here.

Columns: the point; the regime the paper gives for W1 / W2 there and where it says so
(``solvable.models.three_layer.PAPER_POINTS``; the text prints no boundary curves; "n/s": not
stated); widths and
seeds; S_W1 and S_W2 with the pooled least-squares standard error (and, with >= 2
seeds, the standard deviation of the per-seed slopes); "lin. est.", our estimate of
the slopes of a network that stays linear (``linear_estimate``, not the paper's);
the regime measured (``solvable.models.three_layer.regime_from_slope`` with the band
``max(0.1, 2 err)``, a reporting choice for finite widths); paper vs measured.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from fractions import Fraction
from typing import Any

import torch

from numerics.phase_diagram import RD_VERSION
from numerics.sweep_three_layer import linear_estimate, rd_sweep_point, slopes
from numerics.sweeps import run_sweep
from solvable.models.three_layer import PAPER_POINTS, regime_from_slope

BAND = 0.1
"""Slopes within max(BAND, 2 err) of 0 read as critical: the widths are finite (the paper's
own three parametrisations of one point differ by up to 0.025 in Table 2)."""


def measured_regime(s: float, err: float) -> str:
    """The regime of a measured slope with standard error ``err`` (``nan``: no error)."""
    band = max(BAND, 2 * err) if math.isfinite(err) else BAND
    return regime_from_slope(s, band)


def agreement(paper: str, measured: str) -> str:
    """Paper vs measured: "agrees" / "DISAGREES" / "n/s" (the paper states no regime)."""
    return "n/s" if paper == "n/s" else "agrees" if paper == measured else "DISAGREES"


def _fmt(fit: dict[str, Any], name: str) -> str:
    text = f"{fit[name]:+.3f}+-{fit[f'{name}_err']:.3f}"
    if f"{name}_seed_std" in fit:
        text += f" (sd {fit[f'{name}_seed_std']:.3f})"
    return text


def table(results: list[dict[str, Any]]) -> str:
    rows = []
    head = (f"{'(g2, g3)':<11} {'paper W1/W2':<20} {'widths':<28} {'seeds':<5} "
            f"{'S_W1':<24} {'S_W2':<24} {'lin. est.':<12} {'measured W1/W2':<20} "
            "paper vs measured W1/W2")  # fmt: skip
    rows.append(head)
    rows.append("-" * len(head))
    notes = []
    by_point: dict[tuple[float, float], list[dict[str, Any]]] = {}
    for r in results:
        by_point.setdefault((r["gamma_2"], r["gamma_3"]), []).append(r)
    for (g2f, g3f), rs in by_point.items():
        g2, g3 = Fraction(repr(g2f)), Fraction(repr(g3f))
        p1, p2, where = PAPER_POINTS.get((g2, g3), ("n/s", "n/s", "not one of the paper's points"))
        fit = slopes(rs)
        m1 = measured_regime(fit["S_W1"], max(fit["S_W1_err"], fit.get("S_W1_seed_sem", 0)))
        m2 = measured_regime(fit["S_W2"], max(fit["S_W2_err"], fit.get("S_W2_seed_sem", 0)))
        l1, l2 = linear_estimate(g2, g3)
        widths = ",".join(str(m) for m in fit["widths"])
        rows.append(
            f"{f'({g2f:g}, {g3f:g})':<11} {f'{p1}/{p2}':<20} {widths:<28} "
            f"{len(fit['seeds']):<5} {_fmt(fit, 'S_W1'):<24} {_fmt(fit, 'S_W2'):<24} "
            f"{f'{float(l1):+.2f}/{float(l2):+.2f}':<12} {f'{m1}/{m2}':<20} "
            f"{agreement(p1, m1)}/{agreement(p2, m2)}"
        )
        notes.append(f"  ({g2f:g}, {g3f:g}): {where}; runs {fit['n_runs']}, "
                     f"excluded (not converged) {fit['excluded']}")  # fmt: skip
    return "\n".join([*rows, "", "paper's evidence per point:", *notes])


def _save(path: str, header: str, results: list[dict[str, Any]], seconds: float) -> None:
    with open(path, "w") as fh:
        json.dump({"header": header + f", total {seconds:.0f} s", "results": results}, fh)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--widths", default="128,256,512,1024")
    ap.add_argument("--seeds", type=int, default=1, help="seeds 0 .. n-1 at every width")
    ap.add_argument("--points", default="all",
                    help="'all' or 'g2:g3;g2:g3' (e.g. '0:1.1;0.7:2.5')")  # fmt: skip
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--dtype", default="float64")
    ap.add_argument("--threads", type=int, default=None, help="torch.set_num_threads")
    ap.add_argument("--json-out", default=None)
    ap.add_argument("--cache-dir", default=None, help="per-point cache: a rerun resumes")
    ap.add_argument(
        "--executor",
        default=None,
        help="None: in process; 'local': dask LocalCluster; or a scheduler address",
    )
    ap.add_argument("--from-json", default=None, help="print the table of a saved run")
    args = ap.parse_args(argv)

    if args.from_json:
        with open(args.from_json) as fh:
            saved = json.load(fh)
        print(saved.get("header", ""))
        print(table(saved["results"]))
        return
    if args.threads:
        torch.set_num_threads(args.threads)
    widths = [int(w) for w in args.widths.split(",")]
    if args.points == "all":
        points = list(PAPER_POINTS)
    else:
        points = [tuple(Fraction(v) for v in pt.split(":")) for pt in args.points.split(";")]
    header = (f"device {args.device} ({torch.cuda.get_device_name() if args.device.startswith('cuda') else 'cpu'}), "  # noqa: E501
              f"torch {torch.__version__}, threads {torch.get_num_threads()}, "
              f"load {os.getloadavg()[0]:.1f}, dtype {args.dtype}, widths {widths}, "
              f"seeds {args.seeds}")  # fmt: skip
    print(header, flush=True)
    t_all = time.perf_counter()
    # widths outermost, so a run cut short has every point at the smaller widths cached
    grid = [
        {"gamma_2": str(Fraction(g2)), "gamma_3": str(Fraction(g3)), "m": m, "seed": seed,
         "device": args.device, "dtype": args.dtype}
        for m in widths for seed in range(args.seeds) for g2, g3 in points
    ]  # fmt: skip
    results = run_sweep(rd_sweep_point, grid, cache_dir=args.cache_dir, version=RD_VERSION,
                        executor=args.executor, progress=True)  # fmt: skip
    total = time.perf_counter() - t_all
    print(table(results))
    print(f"\ntotal {total:.0f} s")
    if args.json_out:
        _save(args.json_out, header, results, total)


if __name__ == "__main__":
    main()
