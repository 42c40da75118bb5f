"""Speed of the seed 000 / 002 closed forms against what a user would otherwise run.

Run:  python benchmarks/bench_node_scaling.py

1. Theorem 7.4 (linear activation): the learnt weights ``W_inf`` of one network (n = 20,
   d = 10, m = 200, Zipf alpha = 1/2, gamma = 1/2) from ``linear_node_scaling.closed_form``
   (``at(inf)``) vs integrating the raw gradient flow with ``scipy.integrate.solve_ivp``
   (DOP853, rtol 1e-10, atol 1e-12) until ``|r| <= 1e-10 |r_0|``, and the weights at ``t = 1``
   (``at(1)`` vs ``solve_ivp`` to ``t = 1``); the error of each against the closed form at 60
   digits is printed.
2. The mean NTG (eq. (10)) of swish on n = 8 inputs: ``ntg.mean_ntg`` (Gauss-Hermite, float64)
   vs ``scipy.integrate.dblquad`` of the same Gaussian expectation entry by entry (epsabs
   1e-12).
3. The ReLU NTK Gram (seed 002, eq. (2.31)) on n = 32 inputs: ``kernels.gram`` (closed form)
   vs a Monte Carlo estimate over 2000 initialisations at p = 64 (autograd), whose 99.9%
   interval is printed: the closed form is exact, the estimate is not.
Times are the best of 3 (wall clock, this machine); ratios are printed.
"""

from __future__ import annotations

import math
import time

import numpy as np
from scipy.integrate import dblquad, solve_ivp

from numerics import kernel_sampling
from numerics.node_scaling_linear import linear_data, scalings
from solvable.models import kernels, ntg
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns


def best(fn, repeat=3):
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        value = fn()
        out.append(time.perf_counter() - t0)
    return min(out), value


def theorem_7_4() -> None:
    n, d, m = 20, 10, 200
    X, y, _ = linear_data(n, d, seed=0)
    lam = scalings(m, 0.5, ns.zipf("0.5"))
    rng = np.random.default_rng(0)
    a = rng.choice([-1.0, 1.0], size=m)
    W0 = rng.normal(size=(m, d))
    coef = np.sqrt(lam) * a

    def rhs(t, w):
        W = w.reshape(m, d)
        r = y - X @ (coef @ W) / np.sqrt(d)
        return (coef[:, None] * (X.T @ r)[None, :] / np.sqrt(d)).ravel()

    def converged(t, w):
        W = w.reshape(m, d)
        return np.linalg.norm(y - X @ (coef @ W) / np.sqrt(d)) - 1e-10 * np.linalg.norm(y)

    converged.terminal = True

    def scipy_run():
        sol = solve_ivp(rhs, (0, 1e4), W0.ravel(), method="DOP853", rtol=1e-10, atol=1e-12,
                        events=converged)  # fmt: skip
        return sol.y[:, -1].reshape(m, d)

    def scipy_at_one():
        sol = solve_ivp(rhs, (0, 1), W0.ravel(), method="DOP853", rtol=1e-10, atol=1e-12)
        return sol.y[:, -1].reshape(m, d)

    setup = ns.Setup(X, y, lam, "linear")
    t_cf, cf = best(lambda: lns.closed_form(setup, a, W0).at(math.inf).W)
    t_ivp, W_ivp = best(scipy_run)
    exact_traj = lns.closed_form(setup, a, W0, dps=60)
    exact = np.array(exact_traj.at(math.inf).W, dtype=float)
    scale = np.abs(exact).max()
    print(f"1. Theorem 7.4, m = {m}: closed form {t_cf * 1e3:.2f} ms (error "
          f"{np.abs(cf - exact).max() / scale:.1e}) vs solve_ivp to |r| <= 1e-10 |y| "
          f"{t_ivp * 1e3:.0f} ms (error {np.abs(W_ivp - exact).max() / scale:.1e}): "
          f"{t_ivp / t_cf:.0f}x")  # fmt: skip
    traj = lns.closed_form(setup, a, W0)
    t_cf1, cf1 = best(lambda: traj.at(1.0).W)
    t_ivp1, W_ivp1 = best(scipy_at_one)
    exact1 = np.array(exact_traj.at(1).W, dtype=float)
    err_cf, err_ivp = (np.abs(v - exact1).max() / scale for v in (cf1, W_ivp1))
    print(f"   W(t = 1): Trajectory.at {t_cf1 * 1e3:.2f} ms (after closed_form's setup: "
          f"validation, SVD; error {err_cf:.1e}) vs solve_ivp to t = 1 {t_ivp1 * 1e3:.1f} ms "
          f"(error {err_ivp:.1e})")  # fmt: skip


def mean_ntg_swish() -> None:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(8, 5))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    d = X.shape[1]
    ds = lambda z: ntg.derivative_numeric("swish", z)  # noqa: E731

    def by_dblquad():
        K = np.empty((8, 8))
        for i in range(8):
            for k in range(i, 8):
                s1 = np.linalg.norm(X[i]) / np.sqrt(d)
                s2 = np.linalg.norm(X[k]) / np.sqrt(d)
                c = np.clip(X[i] @ X[k] / (np.linalg.norm(X[i]) * np.linalg.norm(X[k])), -1, 1)
                sn = np.sqrt(1 - c * c)

                def f(z2, z1, s1=s1, s2=s2, c=c, sn=sn):
                    w = np.exp(-(z1 * z1 + z2 * z2) / 2) / (2 * np.pi)
                    return w * ds(s1 * z1) * ds(s2 * (c * z1 + sn * z2))

                e, _ = dblquad(f, -12, 12, -12, 12, epsabs=1e-12)
                K[i, k] = K[k, i] = X[i] @ X[k] / d * e
        return K

    t_gh, K_gh = best(lambda: ntg.mean_ntg(X, "swish"))
    t_dq, K_dq = best(by_dblquad, repeat=1)
    print(f"2. mean NTG, swish, n = 8: Gauss-Hermite {t_gh * 1e3:.1f} ms vs dblquad "
          f"{t_dq * 1e3:.0f} ms: {t_dq / t_gh:.0f}x (max difference "
          f"{np.abs(K_gh - K_dq).max():.1e})")  # fmt: skip


def relu_ntk_gram() -> None:
    rng = np.random.default_rng(2)
    X = rng.normal(size=(32, 3))
    init = kernels.exercise_initialisation()
    t_cf, K = best(lambda: kernels.gram("ntk_first_layer", init, X))
    t_mc, est = best(
        lambda: kernel_sampling.kernel_estimates(init, X, 64, 2000)["ntk_first_layer"],
        repeat=1,
    )
    print(f"3. ReLU K_NTK Gram, n = 32: closed form {t_cf * 1e3:.2f} ms vs Monte Carlo "
          f"(2000 networks, p = 64) {t_mc:.1f} s: {t_mc / t_cf:.0f}x; the estimate is "
          f"{est.summary()}, worst {est.error_in_units(kernel_sampling.upper(K)):.2f} "
          "half-widths from the closed form")  # fmt: skip


if __name__ == "__main__":
    theorem_7_4()
    mean_ntg_swish()
    relu_ntk_gram()
