"""The batched torch gradient flow against its peers: torchdiffeq's ``dopri8``
and diffrax's ``Dopri8`` under ``jax.vmap``, on the seed 001 net of ``bench_torch.py --only
gf`` (width 256, d0 = 10, to T = 5 at rtol 1e-10, atol rtol 1e-3 max|theta_0|).

Run (from the repository root)::

    python benchmarks/torch_flow_peers.py              # B = 256, about 1-2 min on 2 cores
    python benchmarks/torch_flow_peers.py --batch 128 --threads 1
    python benchmarks/torch_flow_peers.py --baseline /tmp/torch_flow_head.py  # + an old version

The peers are optional benchmark dependencies (``pip install torchdiffeq``, ``pip install
jax diffrax``), imported here only; a missing one is skipped with a message.  torchdiffeq
integrates the batch as one system (one step for all, atol the smallest of the batch);
diffrax's ``vmap`` gives every element its own step.  Each is timed best of ``--repeat``
after a warm-up (diffrax: the jit compile is excluded and printed apart).  Printed: a
markdown table of wall time, ratio to ``numerics.torch_flow.gradient_flow`` and the
largest normwise relative difference of the final states from it; ``--baseline FILE``
adds a row for a one-file version of ``numerics/torch_flow.py`` (from before it became
a package; see ``bench_torch.py``).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np
import torch
from bench_torch import load_baseline

from numerics import models, torch_flow
from numerics.torch_flow import field as tf_field
from numerics.torch_flow import layout as tf_layout

RTOL, T, D, D0 = 1e-10, 5.0, 256, 10


def best(fn: Any, repeat: int) -> tuple[float, Any]:
    out, times = None, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--baseline", default=None,
                        help="another numerics/torch_flow.py (a file) timed as a row")  # fmt: skip
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    B = args.batch
    x = np.random.default_rng(0).standard_normal(D0)
    x /= np.linalg.norm(x)
    model = models.TwoLayerLinear(x, 1.0, gamma=1.0, eta_u=1.0, eta_w=1.0)
    p0 = torch_flow.initialise({"u": (D,), "W": (D, D0)}, B, scale=1 / np.sqrt(D), seed=0,
                               device="cpu")  # fmt: skip
    z0 = torch.cat([p0["u"], p0["W"].reshape(B, -1)], 1)
    atol = RTOL * 1e-3 * z0.abs().amax(1)  # per element, as torch_flow's default
    load = os.getloadavg()[0]
    print(f"torch_flow_peers: B = {B}, width {D}, d0 = {D0}, T = {T:g}, rtol {RTOL:g}; torch "
          f"{torch.__version__}, {args.threads} thread(s); load {load:.2f}")  # fmt: skip

    def ours() -> Any:
        r = torch_flow.gradient_flow(model, p0, [T], rtol=RTOL, threads=args.threads)
        return torch.cat([r.params["u"][-1], r.params["W"][-1].reshape(B, -1)], 1).numpy()

    ours()
    t_ours, z_ours = best(ours, args.repeat)
    rows = [("numerics.torch_flow (batched DOP853)", t_ours, "", 0.0)]

    def rel(z: np.ndarray) -> float:
        return float((np.abs(z - z_ours).max(1) / np.abs(z_ours).max(1)).max())

    baseline = load_baseline(args.baseline)
    if baseline is not None:

        def base() -> Any:
            r = baseline.gradient_flow(model, p0, [T], rtol=RTOL, threads=args.threads)
            return torch.cat([r.params["u"][-1], r.params["W"][-1].reshape(B, -1)], 1).numpy()

        base()
        t_base, z_base = best(base, args.repeat)
        rows.append((f"baseline {args.baseline}", t_base, "", rel(z_base)))

    try:
        import torchdiffeq
    except ImportError:
        print("     torchdiffeq: not installed (pip install torchdiffeq), skipped")
    else:
        f = tf_field._field(model, tf_layout._Packing(model, p0))  # the same field

        def tde() -> Any:
            ts = torch.tensor([0.0, T], dtype=torch.float64)
            sol = torchdiffeq.odeint(lambda _t, z: f(z), z0, ts, method="dopri8", rtol=RTOL,
                                     atol=float(atol.min()))  # fmt: skip
            return sol[-1].numpy()

        tde()
        t_tde, z_tde = best(tde, args.repeat)
        rows.append((f"torchdiffeq {torchdiffeq.__version__} dopri8", t_tde, "", rel(z_tde)))

    try:
        import diffrax
        import jax
        import jax.numpy as jnp
    except ImportError:
        print("     diffrax: not installed (pip install jax diffrax), skipped")
    else:
        jax.config.update("jax_enable_x64", True)
        xj = jnp.asarray(x)

        def field(_t: Any, z: Any, _args: Any) -> Any:
            # seed 001 eqs. (4)-(5), as bench_torch.numpy_field
            u, W = z[:D], z[D:].reshape(D, D0)
            v = W @ xj
            g = 2.0 * (u @ v - 1.0)
            return jnp.concatenate([-g * v, (-g * jnp.outer(u, xj)).ravel()])

        def one(z: Any, a: Any) -> Any:
            sol = diffrax.diffeqsolve(diffrax.ODETerm(field), diffrax.Dopri8(), 0.0, T, None,
                                      z, stepsize_controller=diffrax.PIDController(
                                          rtol=RTOL, atol=a), max_steps=100_000)  # fmt: skip
            return sol.ys[-1]

        solve = jax.jit(jax.vmap(one))
        zj, aj = jnp.asarray(z0.numpy()), jnp.asarray(atol.numpy())
        t0 = time.perf_counter()
        solve(zj, aj).block_until_ready()
        compile_s = time.perf_counter() - t0
        t_dfx, z_dfx = best(lambda: np.asarray(solve(zj, aj).block_until_ready()), args.repeat)
        rows.append((f"diffrax {diffrax.__version__} Dopri8 + vmap (jax {jax.__version__})",
                     t_dfx, f"compile + first run {compile_s:.1f} s", rel(z_dfx)))  # fmt: skip

    print()
    print("| solver | wall (s) | torch_flow faster by | diff. from torch_flow | note |")
    print("| --- | --- | --- | --- | --- |")
    for name, t, note, d in rows:
        print(f"| {name} | {t:.2f} | {t / t_ours:.2f}x | {d:.1e} | {note} |")
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
