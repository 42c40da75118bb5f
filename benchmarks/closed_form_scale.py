"""Closed forms at scale against the memory floor (issue 17, target 1), one table of cases.

Run (from the repository root)::

    python benchmarks/closed_form_scale.py              # every case, best and worst of 5
    python benchmarks/closed_form_scale.py --quick      # small sizes, a smoke run (seconds)
    python benchmarks/closed_form_scale.py --only xu_ziyin --repeat 3

For each case (a row group of the printed markdown table), all in one process, each timed
``--repeat`` times back to back (the previous result dropped before each call, so a large
output is never held twice):

(a) the memory floor: ``np.empty`` + ``fill`` of one float64 array as large as the whole
    output (fresh pages every time, as a fresh output has);
(b) construction + sample into a fresh output: ``closed_form(...).sample(times)``;
(c) sample into a reused output: ``traj.sample(times, out=states)``;
(d) the reference path of the same closed form (``engine="reference"``: the whole arrays
    at once, every piece of every Piecewise evaluated everywhere; the path before issue 17);
(e) ``scipy.integrate.solve_ivp(DOP853, rtol=1e-10, t_eval=times)`` on a hand-written
    numpy vector field of the same gradient flow (the baseline a user would otherwise run).

Printed: best and worst wall-clock seconds and both as ratios to the floor's best, the
load average before and after (this machine is shared: ratios within one run are what
compare), and the largest difference between (b) and (d) (0: the same arithmetic) and
between (e) and (b) (relative, normwise).  Issue 17's target: (b) <= 3x (a).

A case is an entry of :data:`CASES` (a name and a function of ``quick`` returning a
:class:`Bench`); seed 001 (``xu_ziyin``) is the first; kunin and linear_node_scaling add
theirs the same way.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

from solvable import xu_ziyin as xz

RTOL = 1e-10  # solve_ivp's relative tolerance, as in benchmarks/bench_torch.py


@dataclass(frozen=True)
class Bench:
    """One sized problem of a case: the callables (b)-(e) of the module docstring."""

    size: str  # the problem in words (the table's first column)
    n_floats: int  # float64 numbers in the whole output: the floor's array
    fresh: Callable[[], Any]  # (b) construction + sample into a fresh output
    reuse: Callable[[], Any]  # (c) sample into a preallocated output
    reference: Callable[[], Any] | None  # (d) the reference path (None: none kept)
    ivp: Callable[[], Any] | None  # (e) solve_ivp with t_eval (None: no baseline)
    differences: Callable[[Any, Any, Any], tuple[float, float]]  # (b, d, e) -> (|b-d|, rel)


@dataclass(frozen=True)
class Case:
    name: str
    seed: str
    build: Callable[[bool], Bench]  # quick -> the problem


# ---------------------------------------------------------------------------
# seed 001: Xu & Ziyin, f = gamma u^T W x, L = (f - y)^2
# ---------------------------------------------------------------------------
def _xz_field(x: np.ndarray, y: float, gamma: float, eta_u: float, eta_w: float, d: int):
    """Seed 001 eqs. (4)-(5) by hand (the baseline's field, as in bench_torch.py):
    du/dt = -eta_u 2 (f - y) gamma W x, dW/dt = -eta_w 2 (f - y) gamma u x^T."""
    d0 = len(x)

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        u, W = z[:d], z[d:].reshape(d, d0)
        v = W @ x
        g = 2.0 * (gamma * (u @ v) - y) * gamma
        return np.concatenate([(-eta_u * g) * v, ((-eta_w * g) * np.outer(u, x)).ravel()])

    return rhs


def _xu_ziyin(quick: bool) -> Bench:
    d, d0, n_t = (100, 10, 1000) if quick else (1000, 10, 10_000)
    x = np.random.default_rng(0).standard_normal(d0)
    x /= np.linalg.norm(x)
    rng = np.random.default_rng(1)
    u0 = rng.standard_normal(d) / np.sqrt(d)
    W0 = rng.standard_normal((d, d0)) / np.sqrt(d)
    setup = xz.Setup(1.0, 1.0, 1.0, tuple(x.tolist()), 1.0)
    traj = xz.closed_form(setup, u0, W0)
    times = np.linspace(0.0, 10 * traj.t_c, n_t)
    traj.sample(times[:2])  # the generated evaluators, once per process, outside the timing
    traj.sample(times[:2], engine="reference")
    states = xz.States.empty(n_t, d, d0)
    rhs = _xz_field(x, 1.0, 1.0, 1.0, 1.0, d)
    z0 = np.concatenate([u0, W0.ravel()])
    atol = RTOL * 1e-3 * float(np.max(np.abs(z0)))  # torch_flow's and scipy_ode's rule

    def ivp() -> Any:
        sol = solve_ivp(rhs, (0.0, times[-1]), z0, method="DOP853", t_eval=times,
                        rtol=RTOL, atol=atol)  # fmt: skip
        if not sol.success:
            raise RuntimeError(f"solve_ivp failed: {sol.message}")
        return sol.y

    def differences(b: Any, ref: Any, ode: Any) -> tuple[float, float]:
        exact = max(
            float(np.max(np.abs(getattr(b, k) - getattr(ref, k))))
            for k in ("u", "W", "f", "alignment", "ntk", "alpha")
        )
        rel = float("nan")
        if ode is not None:
            z = np.concatenate([b.u, b.W.reshape(n_t, d * d0)], axis=1)
            rel = float(np.max(np.abs(ode.T - z)) / np.max(np.abs(z)))
        return exact, rel

    return Bench(
        size=f"d = {d}, d0 = {d0}, {n_t} times in [0, 10 t_c]",
        n_floats=n_t * (d + d * d0 + 5),
        fresh=lambda: xz.closed_form(setup, u0, W0).sample(times),
        reuse=lambda: traj.sample(times, out=states),
        reference=lambda: xz.closed_form(setup, u0, W0).sample(times, engine="reference"),
        ivp=ivp,
        differences=differences,
    )


CASES: list[Case] = [Case("xu_ziyin", "001", _xu_ziyin)]


# ---------------------------------------------------------------------------
# timing and the table
# ---------------------------------------------------------------------------
def timed(fn: Callable[[], Any], repeat: int, keep: bool = False) -> tuple[float, float, Any]:
    """Best and worst wall-clock seconds of ``repeat`` calls; the last result if ``keep``
    (else dropped before the next call, so that no two large outputs coexist)."""
    times, out = [], None
    for _ in range(repeat):
        out = None
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if not keep:
            out = None
    return min(times), max(times), out


def floor(n: int) -> Callable[[], None]:
    def fill() -> None:
        a = np.empty(n)
        a.fill(1.0)

    return fill


def run_case(case: Case, quick: bool, repeat: int) -> list[list[str]]:
    """The table rows of one case."""
    bench = case.build(quick)
    mb = bench.n_floats * 8 / 1e6
    f_best, f_worst, _ = timed(floor(bench.n_floats), repeat)
    rows = [("(a) floor: np.empty + fill", f_best, f_worst)]
    b_best, b_worst, b = timed(bench.fresh, repeat, keep=True)
    rows.append(("(b) construction + sample", b_best, b_worst))
    c_best, c_worst, _ = timed(bench.reuse, repeat)
    rows.append(("(c) sample, out= reused", c_best, c_worst))
    ref = ode = None
    if bench.reference is not None:
        r_best, r_worst, ref = timed(bench.reference, repeat, keep=True)
        rows.append(('(d) reference path (engine="reference")', r_best, r_worst))
    if bench.ivp is not None:
        e_best, e_worst, ode = timed(bench.ivp, repeat, keep=True)
        rows.append((f"(e) solve_ivp DOP853 rtol {RTOL:g}, t_eval", e_best, e_worst))
    exact, rel = bench.differences(b, ref, ode)
    out = []
    for label, best, worst in rows:
        out.append([
            f"{case.name} ({case.seed})", f"{bench.size}, {mb:.0f} MB", label,
            f"{best:.3f}", f"{worst:.3f}", f"{best / f_best:.2f}x", f"{worst / f_best:.2f}x",
        ])  # fmt: skip
    out.append([
        f"{case.name} ({case.seed})", "", f"max abs((b) - (d)) = {exact:.1e}; (e) vs (b): "
        f"{rel:.1e} (max abs / max abs)", "", "", "", "",
    ])  # fmt: skip
    return out


HEADER = ["case", "size", "path", "best (s)", "worst (s)", "best / floor", "worst / floor"]


def markdown(rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "| " + " | ".join("---" for _ in HEADER) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> list[list[str]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--repeat", type=int, default=5, help="calls per path (default 5)")
    parser.add_argument("--only", choices=[c.name for c in CASES], help="one case")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error(f"--repeat must be >= 1, got {args.repeat}")
    load0 = os.getloadavg()
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, numpy "
          f"{np.__version__}; load average {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}; "
          f"best and worst of {args.repeat}; ratios to the floor's best")  # fmt: skip
    rows: list[list[str]] = []
    for case in CASES:
        if args.only in (None, case.name):
            rows += run_case(case, args.quick, args.repeat)
    print(markdown(rows))
    load1 = os.getloadavg()
    print(f"# load average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    return rows


if __name__ == "__main__":
    main()
