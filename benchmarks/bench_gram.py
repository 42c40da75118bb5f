"""The float64 Gram matrix of the two-layer ReLU network's kernels (Loureiro 2025, eqs.
(2.4), (2.30), (2.31)) against neural-tangents' analytic kernel, side by side in one run.

Run (from the repository root)::

    python benchmarks/bench_gram.py                 # n = 2000 points in d = 10, best of 3
    python benchmarks/bench_gram.py --n 500 --d 50

neural-tangents is optional (``pip install neural-tangents``; it needs a jax it supports,
e.g. ``jax==0.5.3 jaxlib==0.5.3 tf2jax==0.3.6`` with neural-tangents 0.6.5): without it
only ``solvable`` is timed.  Printed: the time of ``kernels.gram(name, Initialisation(1,
1), X)`` for each kernel, neural-tangents' ``stax.serial(Dense(512, W_std=1), Relu(),
Dense(1, W_std=1))`` NTK under ``jax.jit`` (float64, after one warm-up call), their ratio,
and the largest relative difference between neural-tangents' NTK and ``ntk`` (which is 10x
it for this law: the package's ``ntk`` is ``K_0``, the full NTK summed over both layers; with
``W_std = 1`` for both layers neural-tangents' NTK is ``(1/d) (|x||x'|/(2 pi)) (J_1 + rho
J_0)``, and ``K_0`` of ``Initialisation(1, 1)`` is ``(|x||x'|/(2 pi)) (J_1 + rho J_0)``;
see the documentation's *Kernel names*).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from solvable import kernels


def best_of(fn, repeat: int) -> float:
    fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--d", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    X = np.random.default_rng(0).standard_normal((args.n, args.d))
    init = kernels.Initialisation(1, 1)
    print(f"# n = {args.n}, d = {args.d}; load average {os.getloadavg()[0]:.2f}")
    ours = {}
    for name in ("ntk_first_layer", "ntk", "nngp"):
        ours[name] = best_of(lambda name=name: kernels.gram(name, init, X), args.repeat)
    nt_time, nt_gap = None, None
    try:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import jax
        from neural_tangents import stax

        jax.config.update("jax_enable_x64", True)
        _, _, kernel_fn = stax.serial(stax.Dense(512, W_std=1.0, b_std=None), stax.Relu(),
                                      stax.Dense(1, W_std=1.0, b_std=None))  # fmt: skip
        jitted = jax.jit(kernel_fn, static_argnames="get")
        Xj = jax.numpy.asarray(X)
        nt_time = best_of(lambda: jitted(Xj, Xj, get="ntk").block_until_ready(), args.repeat)
        K = np.asarray(jitted(Xj, Xj, get="ntk"))
        nt_gap = float(np.max(np.abs(K / (0.1 * kernels.gram("ntk", init, X)) - 1)))
    except ImportError as exc:
        print(f"# neural-tangents not available ({exc}): solvable only")
    print("| kernel | solvable (s) | neural-tangents jit (s) | ratio |")
    print("| --- | --- | --- | --- |")
    for name, t in ours.items():
        ratio = f"{t / nt_time:.1f}x" if nt_time else "-"
        nt = f"{nt_time:.3f}" if nt_time else "-"
        print(f"| {name} | {t:.3f} | {nt} | {ratio} |")
    if nt_gap is not None:
        print(f"\nneural-tangents' NTK against ntk / 10: largest relative difference {nt_gap:.2e}")


if __name__ == "__main__":
    main()
