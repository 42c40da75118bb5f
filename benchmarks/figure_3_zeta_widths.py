"""Seed 004, Figure 3 beyond the default widths: ``zeta`` of W2 at (0.5, 2.2) and (0.5, 2.8).

Run:  python benchmarks/figure_3_zeta_widths.py [--widths 64 128 256 512] [--seeds 0 1 2]
                                               [--points 1/2,11/5 1/2,14/5]

A measurement, not a claim: it prints, per width and seed, Figure 8's condensation measure
``zeta`` (:func:`numerics.phase_diagram.zeta`, the mean ``|D(u, v)|`` of eq. (2) over the
half of W2's rows with the largest norm) at the random start and after training, at
Figure 3's two points, trained as every seed-004 claim trains
(:func:`numerics.phase_diagram.measure_points`, CPU, one torch thread), and the mean over
the seeds per width.  ``three_layer.figure_3_contrast`` asserts the contrast (more
condensed at 2.8) at widths 64, 128; this script shows how the absolute reading at 2.2
("hardly have a strong relationship with each other", the paper at m = 10000) moves with
the width, which the claim does not assert.  ``--points`` measures other phase points
``gamma_2,gamma_3`` the same way (e.g. Figure 8's grid: ``--widths 32 64 128 --points 0,1
0,2 0,3 1/2,1 1/2,2 1/2,3 1,1 1,2 1,3``); each row also gives the point's regimes read from
the slopes of RD over the widths (:meth:`numerics.phase_diagram.PhasePoint.regime`) and the
mean over the seeds of the per-seed slope of ``log zeta`` (trained) against ``log m`` with
its standard error.
"""

from __future__ import annotations

import argparse
import time
from fractions import Fraction

import numpy as np

from numerics import phase_diagram as pdg
from numerics.torch_flow import threads

POINTS = ((Fraction(1, 2), Fraction(11, 5)), (Fraction(1, 2), Fraction(14, 5)))


def _zeta_w2(run: dict) -> list[float] | None:
    """``[zeta at the start, zeta after training]`` of one trained run (``None``: diverged)."""
    if run["diverged"] or run["stalled"]:
        return None
    w = [pdg.input_weights({k: v[0].detach().cpu().double().numpy() for k, v in q.items()},
                           "W2") for q in (run["p0"], run["p"])]  # fmt: skip
    return [pdg.zeta(w[0]), pdg.zeta(w[1])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--widths", type=int, nargs="+", default=[64, 128, 256, 512])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument(
        "--points",
        nargs="+",
        metavar="G2,G3",
        default=None,
        help="phase points gamma_2,gamma_3 (fractions allowed; default Figure 3's)",
    )
    args = ap.parse_args(argv)
    points = POINTS if args.points is None else tuple(
        tuple(Fraction(v) for v in pt.split(",")) for pt in args.points)  # fmt: skip
    t0 = time.perf_counter()
    with threads(1):
        pts = pdg.measure_points(list(points), tuple(args.widths), tuple(args.seeds),
                                 normalised_lr=True, device="cpu",
                                 extra={"zeta_w2": _zeta_w2})  # fmt: skip
    print("| point | m | zeta at the start (mean) | zeta trained (mean) | per seed | RD(W2) |")
    print("|---|---|---|---|---|---|")
    trends = []
    for (g2, g3), p in zip(points, pts, strict=True):
        at = f"({g2}, {g3})"
        for m in args.widths:
            rs = [r for r in p.results if r["m"] == m]
            if any(r["zeta_w2"] is None for r in rs):
                print(f"| {at} | {m} | diverged | | | |")
                continue
            z0 = np.mean([r["zeta_w2"][0] for r in rs])
            z1 = [r["zeta_w2"][1] for r in rs]
            rd = np.mean([r["rd_w2"] for r in rs])
            print(
                f"| {at} | {m} | {z0:.3f} | {np.mean(z1):.3f} | "
                f"{', '.join(f'{z:.3f}' for z in z1)} | {rd:.3f} |"
            )
        slopes = []
        for s in args.seeds:
            z = [r["zeta_w2"] for m in args.widths for r in p.results
                 if r["m"] == m and r["seed"] == s]  # fmt: skip
            if len(args.widths) >= 2 and all(v is not None and v[1] > 0 for v in z):
                slopes.append(np.polyfit(np.log(args.widths), np.log([v[1] for v in z]), 1)[0])
        se = np.std(slopes, ddof=1) / np.sqrt(len(slopes)) if len(slopes) >= 2 else np.nan
        regimes = "/".join(p.regime(L) for L in pdg.LAYERS)
        trends.append(f"| {at} | {regimes} | {np.mean(slopes) if slopes else np.nan:+.3f} "
                      f"+- {se:.3f} |")  # fmt: skip
    print("\n| point | W1/W2 read from RD | slope of log zeta (trained) on log m |")
    print("|---|---|---|")
    print("\n".join(trends))
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
