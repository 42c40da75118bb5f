"""``kunin.WideTrajectory.sample`` (float64, batched over the times) against the per-time
loop over ``at`` it replaced (issue 31, item 5), over a seeded family of ordinary cases: the
worst and the median ratio, not one tuned case.

Run (from the repository root)::

    python benchmarks/wide_sample.py                      # 24 cases, seed 0, 48 times
    python benchmarks/wide_sample.py --cases 40 --seed 3 --times 100
    python benchmarks/wide_sample.py --quick              # 3 cases (a smoke run)
    python benchmarks/wide_sample.py --all-shapes         # h drawn from every allowed h

Each case is drawn by ``numpy.random.default_rng([seed, case index])``: c, d in [1, 4], the
sign of delta (+, -, 0; delta = 0 with h = c needs c <= d), |delta| log-uniform in [1e-2,
5], whitened data ``X = sqrt(s) Q`` (s log-uniform in [0.25, 9]), Y Gaussian, rates in [0.3,
3], h = c (delta >= 0) or d (delta < 0), or with ``--all-shapes`` any h the balance allows
(1 <= h <= c, d or min(c, d); the echelon form), the given layer with singular values in
[0.2, 2] (as ``tests/test_kunin_wide.py``);
times: 0, a geometric grid up to 10 / (the fastest rate) and +inf (``--times`` in all).

Timed (best of ``--repeat``, default 5): (a) ``[traj.at(t) for t in times]``, the per-time
loop (what ``sample`` did before), and (b) ``traj.sample(times)``; the construction is not
timed (the same for both).  The ratio (a)/(b) per case, then the worst and the median; the
target is a worst ratio >= 5.  Every field of (b) is also compared with (a): the largest
normwise difference in ulps is printed (the batched arithmetic is the per-time one).
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from solvable.models import kunin

FIELDS = ("beta", "outputs", "loss", "gram_a", "gram_w", "ntk", "A", "W")
EPS = float(np.finfo(float).eps)


def case(seed: int, index: int, n_times: int,
         all_shapes: bool = False) -> tuple[kunin.WideTrajectory, list[float]]:  # fmt: skip
    """The trajectory and times of the ``index``-th case of the family."""
    rng = np.random.default_rng([seed, index])
    c, d = int(rng.integers(1, 5)), int(rng.integers(1, 5))
    sign = int(rng.choice([1, -1, 0]))
    if sign == 0 and c > d:
        sign = 1
    n = d + int(rng.integers(0, 3))
    s = float(np.exp(rng.uniform(np.log(0.25), np.log(9.0))))
    Qx, _ = np.linalg.qr(rng.normal(size=(n, d)))
    X, Y = math.sqrt(s) * Qx, rng.normal(size=(n, c))
    setup = kunin.WideSetup(float(rng.uniform(0.3, 3)), float(rng.uniform(0.3, 3)), X.tolist(),
                            Y.tolist())  # fmt: skip
    delta = sign * float(np.exp(rng.uniform(np.log(1e-2), np.log(5.0))))
    h = c if sign >= 0 else d
    if all_shapes:
        h = int(rng.integers(1, (min(c, d) if sign == 0 else h) + 1))
    width = d if sign >= 0 else c
    U, _ = np.linalg.qr(rng.normal(size=(h, h)))
    V, _ = np.linalg.qr(rng.normal(size=(width, width)))
    r = min(h, width)
    G = (U[:, :r] * rng.uniform(0.2, 2.0, size=r)) @ V[:r]
    A0, W0 = kunin.wide_start(setup, delta, **({"W": G} if sign >= 0 else {"A": G}))
    traj = kunin.wide_closed_form(setup, A0, W0)
    fastest = 2 * float(np.max(np.abs(traj.rates)))
    times = [0.0, *np.geomspace(1e-3, 10.0, n_times - 2) / fastest, math.inf]
    return traj, [float(t) for t in times]


def best(fn, repeat: int) -> float:
    """The fastest of ``repeat`` runs of ``fn()``, seconds."""
    out = math.inf
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - start)
    return out


def ulps(loop: list, stacked) -> float:
    """The largest normwise difference of any field, in units of float64 eps."""
    worst = 0.0
    for k, one in enumerate(loop):
        other = stacked.at(k)
        for name in FIELDS:
            a, b = getattr(one, name), getattr(other, name)
            if a is None:
                continue
            a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
            scale = float(np.max(np.abs(a)))
            if scale > 0:
                worst = max(worst, float(np.max(np.abs(a - b))) / (scale * EPS))
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--times", type=int, default=48)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="3 cases, 2 repeats")
    parser.add_argument("--all-shapes", action="store_true", help="h from every allowed h")
    args = parser.parse_args()
    cases, repeat = (3, 2) if args.quick else (args.cases, args.repeat)
    ratios, worst_ulps = [], 0.0
    print(f"{'case':>4} {'(h,c,d)':>9} {'loop ms':>8} {'sample ms':>9} {'ratio':>6} {'ulps':>6}")
    for i in range(cases):
        traj, times = case(args.seed, i, args.times, args.all_shapes)
        loop = [traj.at(t) for t in times]
        stacked = traj.sample(times)
        u = ulps(loop, stacked)
        before = best(lambda traj=traj, times=times: [traj.at(t) for t in times], repeat)
        after = best(lambda traj=traj, times=times: traj.sample(times), repeat)
        ratios.append(before / after)
        worst_ulps = max(worst_ulps, u)
        shape = f"({traj.h},{traj.setup.c},{traj.setup.d})"
        print(f"{i:>4} {shape:>9} {1e3 * before:>8.2f} {1e3 * after:>9.3f} "
              f"{before / after:>6.1f} {u:>6.2f}")  # fmt: skip
    print(f"{cases} cases x {args.times} times: worst ratio {min(ratios):.1f}, median "
          f"{float(np.median(ratios)):.1f} (target >= 5); largest difference from at(t): "
          f"{worst_ulps:.2f} ulps (normwise per field)")  # fmt: skip


if __name__ == "__main__":
    main()
