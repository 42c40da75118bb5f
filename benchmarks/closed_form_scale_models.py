"""Issue 17, target 1 for seeds 003 and 000: the float64 closed forms of ``kunin`` (single
neuron) and ``linear_node_scaling`` (Theorem 7.4) at scale, against the memory floor.

Run (from the repository root)::

    python benchmarks/closed_form_scale_models.py            # the sizes below, best of 5
    python benchmarks/closed_form_scale_models.py --quick    # tiny sizes, 1 repeat (a smoke test)
    python benchmarks/closed_form_scale_models.py --repeats 3 --markdown table.md

For each model, at a size whose output is about 0.8 GB, the columns are (seconds, best /
worst of the repeats, one process, one run, so the ratios compare like with like):

(a) floor: ``np.empty`` + ``fill`` of fresh arrays of the output's total size;
(b) construction (``Setup`` + ``closed_form``) + ``sample(times)`` into fresh outputs;
(c) ``sample(times, out=...)`` into a reused output;
(d) the path before issue 17 (``Trajectory._sample_reference``, kept for this and the tests);
(e) the benchmark's own baseline: ``scipy.integrate.solve_ivp(DOP853, rtol=1e-10,
    atol=1e-12, t_eval=times)`` on a hand-written numpy vector field of the same gradient flow
    (it returns the weights only: ``a``, ``w`` for kunin, ``W`` for linear_node_scaling).

The issue's target: (b) <= 3 (a).  The load average (``os.getloadavg``) is printed with the
table: on a shared machine every column is inflated, the ratios less so.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

from solvable import kunin
from solvable import linear_node_scaling as lns
from solvable import node_scaling as ns

RTOL, ATOL = 1e-10, 1e-12  # the baseline's tolerances (issue 17)


def _timed(fn: Callable[[], Any], repeats: int) -> tuple[float, float]:
    """(best, worst) wall seconds of ``repeats`` calls; each result is dropped before the
    next call so that every call starts from the same memory state."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        del out
    return min(times), max(times)


def _floor(shapes: list[tuple[int, ...]]) -> Callable[[], Any]:
    def run() -> Any:
        arrays = [np.empty(s) for s in shapes]
        for a in arrays:
            a.fill(1.0)
        return arrays

    return run


# --- seed 003: kunin, single neuron -------------------------------------------------------
def kunin_case(n: int, d: int, T: int, seed: int = 0) -> dict[str, Any]:
    """Whitened data (``X = 2 Q``, ``Q`` with orthonormal columns: ``X^T X = 4 I``), an
    upstream start, ``T`` times in ``[0, 20]``."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((n, d)))
    X, y = 2.0 * Q, rng.standard_normal(n)
    w0 = 0.1 * rng.standard_normal(d)
    times = np.linspace(0.0, 20.0, T)
    eta_a, eta_w, a0 = 1.0, 0.5, 0.3

    def construct() -> kunin.Trajectory:
        return kunin.closed_form(kunin.Setup(eta_a, eta_w, X, y), a0, w0)

    def baseline() -> Any:
        def field(_t: float, z: np.ndarray) -> np.ndarray:
            a, w = z[0], z[1:]
            g = X.T @ (X @ (a * w) - y)  # grad_beta L, L = 1/2 |X beta - y|^2
            return np.concatenate(([-eta_a * (w @ g)], -eta_w * a * g))

        return solve_ivp(field, (0.0, times[-1]), np.concatenate(([a0], w0)), method="DOP853",
                         rtol=RTOL, atol=ATOL, t_eval=times).y  # fmt: skip

    shapes = [(T,), (T,), (T, d), (T, d), (T,)]  # t, a, w, beta, loss
    return dict(name="kunin", size=f"n = d = {d}, T = {T}", times=times, construct=construct,
                baseline=baseline, shapes=shapes)  # fmt: skip


# --- seed 000: linear_node_scaling, Theorem 7.4 ---------------------------------------------
def lns_case(n: int, d: int, m: int, T: int, seed: int = 0) -> dict[str, Any]:
    """Gaussian data and weights, node scalings in [0.1, 1], ``a = +-1``, eta = 0.5, ``T``
    times in ``[0, 20]``."""
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    lam = rng.uniform(0.1, 1.0, m)
    a = rng.choice([-1.0, 1.0], m)
    W0 = rng.standard_normal((m, d))
    eta = 0.5
    times = np.linspace(0.0, 20.0, T)

    def construct() -> lns.Trajectory:
        return lns.closed_form(ns.Setup(X, y, lam, "linear", eta), a, W0)

    sa = np.sqrt(lam) * a

    def baseline() -> Any:
        def field(_t: float, z: np.ndarray) -> np.ndarray:
            W = z.reshape(m, d)
            r = y - X @ (W.T @ sa) / math.sqrt(d)  # eqs. (2), (5): r = y - f
            return (eta * np.outer(sa, X.T @ r) / math.sqrt(d)).ravel()

        return solve_ivp(field, (0.0, times[-1]), W0.ravel(), method="DOP853", rtol=RTOL,
                         atol=ATOL, t_eval=times).y  # fmt: skip

    shapes = [(T,), (T, m, d), (T, n), (T,)]  # t, W, f, loss
    return dict(name="linear_node_scaling", size=f"n = {n}, d = {d}, m = {m}, T = {T}",
                times=times, construct=construct, baseline=baseline, shapes=shapes)  # fmt: skip


def measure(case: dict[str, Any], repeats: int, reference: bool, scipy: bool) -> dict[str, Any]:
    times = case["times"]
    traj = case["construct"]()
    reused = traj.sample(times)
    nbytes = sum(int(np.prod(s)) * 8 for s in case["shapes"])
    row: dict[str, Any] = dict(model=case["name"], size=case["size"], mb=nbytes / 1e6)
    row["floor"] = _timed(_floor(case["shapes"]), repeats)
    row["fresh"] = _timed(lambda: case["construct"]().sample(times), repeats)
    row["reused"] = _timed(lambda: traj.sample(times, out=reused), repeats)
    row["before"] = _timed(lambda: traj._sample_reference(times), repeats) if reference else None
    row["scipy"] = _timed(case["baseline"], repeats) if scipy else None
    return row


def _cell(v: tuple[float, float] | None) -> str:
    return "-" if v is None else f"{v[0]:.3g} / {v[1]:.3g}"


def _ratio(num: tuple[float, float] | None, den: tuple[float, float] | None) -> str:
    return "-" if num is None or den is None else f"{num[0] / den[0]:.2g}x"


def markdown(rows: list[dict[str, Any]], repeats: int) -> str:
    head = ("| model | size | output (MB) | (a) floor (s) | (b) construct + sample (s) | "
            "(c) sample, out= (s) | (d) before (s) | (e) scipy DOP853 (s) | (b)/(a) | "
            "(c)/(a) | (d)/(b) | (e)/(b) |")  # fmt: skip
    lines = [head, "|" + " --- |" * 12]
    for r in rows:
        lines.append(
            f"| {r['model']} | {r['size']} | {r['mb']:.0f} | {_cell(r['floor'])} | "
            f"{_cell(r['fresh'])} | {_cell(r['reused'])} | {_cell(r['before'])} | "
            f"{_cell(r['scipy'])} | {_ratio(r['fresh'], r['floor'])} | "
            f"{_ratio(r['reused'], r['floor'])} | {_ratio(r['before'], r['fresh'])} | "
            f"{_ratio(r['scipy'], r['fresh'])} |"
        )
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    lines.append("")
    lines.append(f"(best / worst of {repeats}; ratios of the best; load average {load} on "
                 f"{os.cpu_count()} CPUs)")  # fmt: skip
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="tiny sizes, 1 repeat (smoke test)")
    p.add_argument("--repeats", type=int, default=None, help="repeats per column (default 5)")
    p.add_argument("--no-before", action="store_true", help="skip column (d)")
    p.add_argument("--no-scipy", action="store_true", help="skip column (e)")
    p.add_argument("--markdown", default=None, help="also write the table to this file")
    args = p.parse_args(argv)
    if args.quick:
        cases = [kunin_case(4, 3, 50), lns_case(5, 4, 3, 20)]
        repeats = args.repeats or 1
    else:
        # about 0.8 GB of output each: kunin 1.5e6 times x (w, beta) of d = 32, and (the
        # issue's scale; construction decides X^T X = s I in float64 with proved bounds)
        # 5e4 times of d = n = 1000; linear_node_scaling 1e4 times x W of 100 x 100
        cases = [kunin_case(32, 32, 1_500_000), kunin_case(1000, 1000, 50_000),
                 lns_case(50, 100, 100, 10_000)]  # fmt: skip
        repeats = args.repeats or 5
    rows = []
    for case in cases:
        rows.append(measure(case, repeats, not args.no_before, not args.no_scipy))
        print(f"{case['name']} done", file=sys.stderr, flush=True)
    table = markdown(rows, repeats)
    print(table)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(table + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
