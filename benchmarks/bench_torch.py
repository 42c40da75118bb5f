"""Speed of the batched torch gradient flow, of the float64 closed form at scale, and of
the mpmath oracle, each against the baseline a user would otherwise run (seed 001,
Xu & Ziyin: ``f = gamma u^T W x``, ``L = (f - y)^2``).

Run (from the repository root)::

    python benchmarks/bench_torch.py                  # all three, ~1-2 min on 2 CPU cores
    python benchmarks/bench_torch.py --quick          # smaller sizes, a smoke run (seconds)
    python benchmarks/bench_torch.py --device cuda    # torch part on the GPU
    python benchmarks/bench_torch.py --only gf        # the batched-flow speed table (about 5 min)
    python benchmarks/bench_torch.py --only gf --threads 1          # 1 and 2 workers
    python benchmarks/bench_torch.py --only gf --threads 1 --busy   # next to a busy core
    git show 1c946aa:numerics/torch_flow.py > /tmp/torch_flow_one_file.py
    python benchmarks/bench_torch.py --only gf --threads 1 --baseline /tmp/torch_flow_one_file.py

(gf)     the batched-flow target: B = 128, 256, 512, 1024 initialisations (entries N(0, 1/d),
         ``torch_flow.initialise(seed=0)`` of the largest batch, of which a batch of B is
         the first B) of the width d = 256 net (d0 = 10, a fixed random x with |x| = 1,
         y = gamma = eta_u = eta_w = 1) integrated to T = 5 (about 7 t_c) at rtol 1e-10,
         state kept at T only: ``numerics.torch_flow.gradient_flow`` (batched DOP853,
         ``threads=1`` and ``threads=2`` torch threads, each with ``workers=1`` and
         ``workers=2`` (``--workers``), one warm-up, best of ``--repeat``) vs a Python
         loop of ``scipy.integrate.solve_ivp(DOP853)`` on a hand-written numpy vector
         field over the same initialisations, with the same atol rule (``rtol * 1e-3 *
         max|theta_0|`` per trajectory).  The loop runs trajectory after trajectory for
         30 s and its time per trajectory is scaled to each B.  Printed: a markdown table
         (scipy loop, torch, ratio, microseconds per (B x width): constant if the cost is
         linear, load average when the row ran) and the largest normwise relative
         difference of the final states.  ``--baseline FILE``: a one-file version of
         ``numerics/torch_flow.py`` (from before it became the package
         ``numerics/torch_flow/``, at or before commit ``1c946aa``, as above; the package's
         files import each other, so another version of the package cannot be loaded
         beside the current one) timed in the same run, alternating with the current
         one, with its speed-up column and the largest difference of its final states
         from the current ones.  The torchdiffeq and
         diffrax peers: ``benchmarks/torch_flow_peers.py``.
(closed) ``closed_form(setup, u0, W0).sample(times)`` in float64 at 10^4 times in
         [0, 10 t_c] for d = 1000, d0 = 10 (u and W at every time: 880 MB) vs
         (a) ``solve_ivp(DOP853, rtol 1e-10, t_eval=times)`` on the hand-written numpy
         field -- not ``numerics.simulate(method="scipy")``, whose sympy-built field
         (``numerics.scipy_ode``) takes O(d^2) time to construct (about 40 s at d = 100,
         roughly an hour at d = 1000) and builds one State per time -- and (b) the
         memory floor: allocating and filling one float64 array of the same total size.
(oracle) ``numerics.simulate(method="mpmath", dps=k)`` on the suite case "generic" to
         [t_c, 10 t_c] for dps 30 and 50: wall time, and the digits reached in u and W
         (worst over the times) against ``closed_form(dps=k + 20)``.

Times are wall clock on this machine, best of 3 unless noted; the torch runs are timed
after ``torch.cuda.synchronize()`` on CUDA.  The header prints the device, the torch
version, torch's thread count and the load average: on a shared CPU, torch's default of
one thread per core can be slowed tens of times by another busy process (threads spin
at barriers), so compare with ``--threads 1`` when the load is high.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import scipy
import torch
from scipy.integrate import solve_ivp

import numerics
from numerics import models, torch_flow
from solvable._core.tolerance import digits
from solvable.models import xu_ziyin as xz

RTOL = 1e-10
SCIPY_BUDGET_S = 30.0  # the scipy loop is timed this long, then scaled to each B


def load_baseline(path: str | None) -> Any:
    """Another version of ``numerics/torch_flow.py`` (a file), imported as its own module
    (it uses the current ``numerics`` and ``solvable`` for everything else); None: none."""
    if path is None:
        return None
    spec = importlib.util.spec_from_file_location("torch_flow_baseline", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"--baseline {path!r}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve annotations through sys.modules
    spec.loader.exec_module(module)
    return module


def best(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, float, Any]:
    """Best and worst wall-clock time of ``repeat`` calls, and the last result (the
    previous result is dropped before each call, so large outputs are not held twice)."""
    times, out = [], None
    for _ in range(repeat):
        out = None
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), max(times), out


def secs(t: float) -> str:
    return f"{t * 1e3:.1f} ms" if t < 1 else f"{t:.2f} s"


def cpu_name() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def device_name(dev: torch.device) -> str:
    if dev.type == "cuda":
        return torch.cuda.get_device_name(dev)
    return f"{cpu_name()}, {os.cpu_count()} cores"


def sync(dev: torch.device) -> None:
    if dev.type == "cuda":
        torch.cuda.synchronize(dev)


def numpy_field(x: np.ndarray, y: float, gamma: float, eta_u: float, eta_w: float, d: int):
    """Seed 001 eqs. (4)-(5) by hand: du/dt = -eta_u 2 (f - y) gamma W x,
    dW/dt = -eta_w 2 (f - y) gamma u x^T, state (u, W.ravel())."""
    d0 = len(x)

    def rhs(_t: float, z: np.ndarray) -> np.ndarray:
        u, W = z[:d], z[d:].reshape(d, d0)
        v = W @ x
        g = 2.0 * (gamma * (u @ v) - y) * gamma
        return np.concatenate([(-eta_u * g) * v, ((-eta_w * g) * np.outer(u, x)).ravel()])

    return rhs


def atol_of(z0: np.ndarray) -> float:
    """torch_flow's and numerics.scipy_ode's default: rtol * 1e-3 * max|theta_0|."""
    scale = float(np.max(np.abs(z0)))
    return RTOL * 1e-3 * (scale if scale > 0 else 1.0)


def unit_vector(d0: int, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal(d0)
    return x / np.linalg.norm(x)


def rel_max(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """max|a - b| / max|b| along the last axis (the project's normwise measure)."""
    return np.abs(a - b).max(-1) / np.abs(b).max(-1)


# ---------------------------------------------------------------------------
# (gf) batched torch gradient flow vs a loop of solve_ivp
# ---------------------------------------------------------------------------
def bench_gf(dev: torch.device, quick: bool, threads: int | None, repeat: int = 2,
             baseline: Any = None, workers: tuple[int, ...] = (1, 2)) -> None:  # fmt: skip
    """The batched-flow target: the batched torch flow against a loop of ``solve_ivp`` at
    B = 128..1024 (quick: 16, 32), width 256 (quick: 64), d0 = 10, as a markdown table;
    ``baseline``: another ``torch_flow`` module timed alongside.  One column per
    (torch threads, workers) pair: ``threads`` (default 1 and 2) times ``workers``."""
    sizes, d, d0, T = ((16, 32), 64, 10, 5.0) if quick else ((128, 256, 512, 1024), 256, 10, 5.0)
    budget = 10.0 if quick else SCIPY_BUDGET_S
    counts = [(n, w) for n in ((1, 2) if threads is None else (threads,)) for w in workers]
    if dev.type == "cuda":
        counts = [(None, 1)]
    x = unit_vector(d0, 0)
    model = models.TwoLayerLinear(x, 1.0, gamma=1.0, eta_u=1.0, eta_w=1.0)
    top = max(sizes)
    # one draw of the largest batch; a batch of B is its first B elements
    p_all = torch_flow.initialise({"u": (d,), "W": (d, d0)}, top, scale=1 / np.sqrt(d),
                                  seed=0, device=dev)  # fmt: skip
    z_all = np.concatenate([p_all["u"].cpu().numpy(), p_all["W"].cpu().numpy().reshape(top, -1)], 1)
    setup = xz.Setup(1.0, 1.0, 1.0, tuple(x.tolist()), 1.0)
    traj0 = xz.closed_form(setup, z_all[0, :d], z_all[0, d:].reshape(d, d0))
    print(
        f"[gf] B in {sizes} initialisations, width d = {d}, d0 = {d0} (|x| = 1, y = gamma = "
        f"eta = 1, entries N(0, 1/d)), to T = {T:g} = {T / traj0.t_c:.1f} t_c (element 0), "
        f"rtol {RTOL:g}, atol rtol 1e-3 max|theta_0|; torch best of {repeat} after a warm-up"
    )
    print(f"     model hook gradient_into: {'yes' if hasattr(model, 'gradient_into') else 'no'}"
          + (f"; baseline {baseline.__file__}" if baseline is not None else ""))  # fmt: skip
    # the scipy loop: per trajectory, so measured once on the first trajectories (up to
    # the budget) and scaled to each B (a loop is linear in B by construction)
    rhs = numpy_field(x, 1.0, 1.0, 1.0, 1.0, d)
    zs, nfev = [], []
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    for b in range(top):
        sol = solve_ivp(rhs, (0.0, T), z_all[b], method="DOP853", t_eval=[T], rtol=RTOL,
                        atol=atol_of(z_all[b]))  # fmt: skip
        if not sol.success:
            raise RuntimeError(f"solve_ivp failed on element {b}: {sol.message}")
        zs.append(sol.y[:, -1])
        nfev.append(sol.nfev)
        if time.perf_counter() - t0 > budget:
            break
    per_traj = (time.perf_counter() - t0) / len(zs)
    zs_arr = np.array(zs)
    print(f"     scipy solve_ivp DOP853 (numpy field): {secs(per_traj)} per trajectory over "
          f"{len(zs)} trajectories (mean nfev {np.mean(nfev):.0f}; load "
          f"{load0:.2f}), scaled to each B")  # fmt: skip

    def run(p: dict[str, Any], nw: tuple[int | None, int], flow: Any = torch_flow) -> Any:
        n, w = nw
        kw = {} if flow is not torch_flow else {"workers": w}  # a baseline may predate it
        res = flow.gradient_flow(model, p, [T], rtol=RTOL, threads=n, **kw)
        sync(dev)
        return res

    def final(res: Any, B: int) -> np.ndarray:
        u_T, W_T = res.params["u"][-1], res.params["W"][-1]
        return np.concatenate([u_T.cpu().numpy(), W_T.cpu().numpy().reshape(B, -1)], 1)

    run({k: v[:8] for k, v in p_all.items()}, counts[0])  # warm-up
    if baseline is not None:
        run({k: v[:8] for k, v in p_all.items()}, counts[0], baseline)
    rows: list[list[str]] = []
    diff, diff_base = math.nan, 0.0
    for B in sizes:
        p = {k: v[:B] for k, v in p_all.items()}
        row = [f"{B}", f"{secs(per_traj * B)}"]
        for n in counts:
            load = os.getloadavg()[0]
            if baseline is None:
                t_torch, _, res = best(lambda p=p, n=n: run(p, n), repeat)
            else:  # alternate the two versions, best of repeat each
                t_torch = t_base = math.inf
                for _ in range(repeat):
                    tb, _, res_b = best(lambda p=p, n=n: run(p, n, baseline), 1)
                    tn, _, res = best(lambda p=p, n=n: run(p, n), 1)
                    t_base, t_torch = min(t_base, tb), min(t_torch, tn)
                diff_base = max(diff_base, float(rel_max(final(res_b, B), final(res, B)).max()))
                res_b = None
            ratio = per_traj * B / t_torch
            row += [f"{secs(t_torch)}", f"{ratio:.2f}x",
                    f"{t_torch / (B * d) * 1e6:.1f}"]  # fmt: skip
            if baseline is not None:
                row += [f"{secs(t_base)}", f"{t_base / t_torch:.2f}x"]
            row.append(f"{load:.1f}")
            if B == top:
                diff = float(rel_max(final(res, B)[: len(zs)], zs_arr).max())
                steps = res.steps.cpu().numpy()
            res = None
        rows.append(row)
        print("     " + " | ".join(row), flush=True)
    head = ["B", "scipy loop"]
    for n, w in counts:
        label = "cuda" if n is None else (f"{n} thread{'s' if n > 1 else ''} x {w} "
                                          f"worker{'s' if w > 1 else ''}")  # fmt: skip
        head += [f"torch {label}", "ratio", "us per (B x width)"]
        if baseline is not None:
            head += ["baseline", "speed-up vs baseline"]
        head.append("load")
    print()
    print("| " + " | ".join(head) + " |")
    print("| " + " | ".join("---" for _ in head) + " |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()
    print(f"     torch vs scipy, final states of the first {len(zs)} trajectories: max "
          f"relative difference {diff:.1e} (max-norm per trajectory); accepted steps per "
          f"element mean {steps.mean():.1f}")  # fmt: skip
    if baseline is not None:
        print(f"     current vs baseline, final states: max relative difference {diff_base:.1e}")
    ex = traj0.sample([T])
    z_ex = np.concatenate([ex.u[0], ex.W[0].ravel()])
    print(f"     element 0 against the closed form: scipy {rel_max(zs_arr[0], z_ex):.1e}")


# ---------------------------------------------------------------------------
# (closed) float64 closed form at scale vs solve_ivp and the memory floor
# ---------------------------------------------------------------------------
def bench_closed(quick: bool) -> None:
    d, d0, n_t = (100, 10, 1000) if quick else (1000, 10, 10_000)
    x = unit_vector(d0, 0)
    rng = np.random.default_rng(1)
    u0 = rng.standard_normal(d) / np.sqrt(d)
    W0 = rng.standard_normal((d, d0)) / np.sqrt(d)
    setup = xz.Setup(1.0, 1.0, 1.0, tuple(x.tolist()), 1.0)
    traj = xz.closed_form(setup, u0, W0)  # also builds the cached numpy evaluators
    times = np.linspace(0.0, 10 * traj.t_c, n_t)
    size = n_t * (d + d * d0)
    print(
        f"[closed] d = {d}, d0 = {d0}, {n_t} times in [0, 10 t_c] (t_c = {traj.t_c:.3f}); "
        f"u and W at every time: {size * 8 / 1e6:.0f} MB of float64"
    )

    t_build, _, _ = best(lambda: xz.closed_form(setup, u0, W0))
    t_sample, w_sample, _ = best(lambda: traj.sample(times))
    t_cf, w_cf, s = best(lambda: xz.closed_form(setup, u0, W0).sample(times))
    u_cf, W_end = s.u.copy(), s.W[-1].copy()
    del s

    rhs = numpy_field(x, 1.0, 1.0, 1.0, 1.0, d)
    z0 = np.concatenate([u0, W0.ravel()])

    def ivp() -> Any:
        sol = solve_ivp(rhs, (0.0, times[-1]), z0, method="DOP853", t_eval=times, rtol=RTOL,
                        atol=atol_of(z0))  # fmt: skip
        if not sol.success:
            raise RuntimeError(f"solve_ivp failed: {sol.message}")
        return sol

    t_ivp, w_ivp, sol = best(ivp)
    err_u = float(rel_max(sol.y[:d].T, u_cf).max())
    err_W = float(rel_max(sol.y[d:, -1], W_end.ravel()))
    nfev = sol.nfev
    del sol

    def floor() -> None:
        a = np.empty(size)
        a.fill(1.0)

    t_floor, w_floor, _ = best(floor)
    print(
        f"         closed_form(...).sample(times): {secs(t_cf)} (slowest of 3: {secs(w_cf)}; "
        f"constructor alone {secs(t_build)}, sample alone {secs(t_sample)}, slowest "
        f"{secs(w_sample)})"
    )
    print(
        f"     (a) solve_ivp DOP853 rtol {RTOL:g}, t_eval = the {n_t} times, numpy field: "
        f"{secs(t_ivp)} (slowest {secs(w_ivp)}; {nfev} f-evals; max rel. difference from "
        f"the closed form: u over all times {err_u:.1e}, W at 10 t_c {err_W:.1e})"
    )
    print(
        f"     (b) memory floor, np.empty + fill of {size * 8 / 1e6:.0f} MB: {secs(t_floor)} "
        f"(slowest {secs(w_floor)})"
    )
    print(
        f"     -> solve_ivp / closed form = {t_ivp / t_cf:.2f}; closed form / memory floor = "
        f"{t_cf / t_floor:.1f}"
    )


# ---------------------------------------------------------------------------
# (oracle) the mpmath Taylor oracle through numerics.simulate
# ---------------------------------------------------------------------------
def bench_oracle(quick: bool) -> None:
    case = xz.case("generic")
    print(
        "[oracle] numerics.simulate(method='mpmath') on 'generic' (d = 3, d0 = 2) to "
        "[t_c, 10 t_c]; digits in u and W (worst over the times) vs closed_form(dps + 20)"
    )
    print("     dps   seconds   digits")
    for dps in (30,) if quick else (30, 50):
        ref = xz.closed_form(case.setup, case.u0, case.W0, dps=dps + 20)
        with mpmath.workdps(dps + 20):
            times = [ref.t_c, 10 * ref.t_c]
        t0 = time.perf_counter()
        sim = numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=dps)
        t_sim = time.perf_counter() - t0
        exact = ref.sample(times)
        dig = min(
            min(digits(st.u, exact.u[k]), digits(st.W, exact.W[k])) for k, st in enumerate(sim)
        )
        print(f"     {dps:3d}   {t_sim:7.2f}   {dig:6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--device", default=None, help="cpu, cuda or cuda:k (default: cuda "
                        "if available, else cpu); the torch part only")  # fmt: skip
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    parser.add_argument("--only", choices=("gf", "closed", "oracle"), help="run one benchmark")
    parser.add_argument("--threads", type=int, default=None,
                        help="torch.set_num_threads (default: torch's own); gf: only this "
                        "count (default: 1 and 2)")  # fmt: skip
    parser.add_argument("--workers", default="1,2", help="gf: numerics.torch_flow workers, "
                        "comma-separated (default 1,2)")  # fmt: skip
    parser.add_argument("--busy", action="store_true", help="run a busy-looping process "
                        "next to the benchmark (a loaded machine: one core taken)")  # fmt: skip
    parser.add_argument("--repeat", type=int, default=2, help="gf: best of this many torch "
                        "runs (default 2)")  # fmt: skip
    parser.add_argument("--baseline", default=None, help="gf: another numerics/torch_flow.py "
                        "(a file) timed in the same run")  # fmt: skip
    args = parser.parse_args()
    dev = torch_flow.resolve_device(args.device)
    if args.threads is not None:
        torch.set_num_threads(args.threads)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"bench_torch{' --quick' if args.quick else ''}: device {dev} ({device_name(dev)}); "
        f"torch {torch.__version__} (CPU threads: {torch.get_num_threads()}), numpy "
        f"{np.__version__}, scipy {scipy.__version__}; load average {load:.2f}"
    )
    t0 = time.perf_counter()
    workers = tuple(int(w) for w in args.workers.split(","))
    busy = None
    if args.busy:
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        print(f"     --busy: a busy-looping process (pid {busy.pid}) runs next to every timing")
    try:
        if args.only in (None, "gf"):
            bench_gf(dev, args.quick, args.threads, args.repeat, load_baseline(args.baseline),
                     workers)  # fmt: skip
        if args.only in (None, "closed"):
            bench_closed(args.quick)
        if args.only in (None, "oracle"):
            bench_oracle(args.quick)
    finally:
        if busy is not None:
            busy.kill()
    print(f"total {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
