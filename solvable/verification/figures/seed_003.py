"""Seed 003 (Kunin et al., "Get rich quick", poster): the single neuron's regimes, the wide
linear network, the delayed-rich plateau and Part III's alpha curve.

Theory: :func:`solvable.models.kunin.closed_form`, :func:`solvable.models.kunin.wide_closed_form`,
:mod:`solvable.models.delayed_rich` (plateau time, exact half time); simulation:
:func:`numerics.simulate` (the raw flow sympy derives from the loss, scipy DOP853) and
:func:`numerics.alpha_scaling.alpha_curve` (torch GD).  The poster states no sizes: the
defaults are the notebook's (``notebooks/03_kunin_lazy_rich.ipynb``); ``full`` samples more
times, a longer delta sweep and, for Part III, the 9-point alpha grid with 8 seeds.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import numerics
from numerics import alpha_scaling
from solvable._core import kernel_measures as km
from solvable._core.tolerance import worst_of
from solvable.models import delayed_rich, kunin
from solvable.verification.figures._common import Figure, figure

__all__ = ["FIGURES", "SEED"]

SEED = kunin.SEED

_REG_X = [[1, 0], [0, 1], [0, 0]]  # X^T X = I (whitened)
_REG_Y = [1.0, 0.5, 0.3]
_REG_DIRECTION = np.array([0.6, -0.8])  # w0's direction, off beta*
_BETA0 = 0.05  # |beta_0|: a small initial output


def _neuron_start(delta: float, beta0: float = _BETA0) -> tuple[float, np.ndarray]:
    """``(a0, w0)`` with ``a0 w0 = beta0`` (``|beta0| = 0.05`` unless given) and ``a0^2 -
    |w0|^2 = delta`` (equal rates): ``a0^2 = (r + delta)/2``, ``|w0|^2 = (r - delta)/2``, ``r
    = sqrt(delta^2 + 4 |beta0|^2)``."""
    r = math.sqrt(delta**2 + 4 * beta0**2)
    return math.sqrt((r + delta) / 2), _REG_DIRECTION * math.sqrt((r - delta) / 2)


def _draw_regimes(fig: Any, full: bool, progress: bool) -> None:
    setup = kunin.Setup(1, 1, _REG_X, _REG_Y)
    times = np.linspace(0, 8, 161)
    every = 4 if full else 10
    marks = times[::every]
    axes = fig.subplots(1, 3, sharey=True)
    for ax, delta in zip(axes, (-4.0, 0.0, 4.0), strict=True):
        a0, w0 = _neuron_start(delta)
        exact = kunin.closed_form(setup, a0, w0).sample(times)
        sim = numerics.simulate(setup, a0, w0, list(marks), method="scipy")
        for i, c in enumerate(("C0", "C1")):
            ax.plot(times, exact.beta[:, i], c, label=rf"$\beta_{i + 1}$ exact")
            ax.plot(marks, [s.beta[i] for s in sim], c + "o", ms=3,
                    label=rf"$\beta_{i + 1}$ simulated")  # fmt: skip
        err = max(float(np.max(np.abs(np.asarray(s.beta, dtype=float) - e)))
                  for s, e in zip(sim, exact.beta[::every], strict=True))  # fmt: skip
        kind = "downstream" if delta < 0 else "balanced" if delta == 0 else "upstream"
        ax.set_title(rf"$\delta = {delta:g}$ ({kind})" + f"\nmax |exact - sim| = {err:.1e}",
                     fontsize=9)  # fmt: skip
        ax.set_xlabel("t")
    axes[0].legend(fontsize=7)


def _sv(beta: Any) -> np.ndarray:
    return np.linalg.svd(np.asarray(beta, dtype=float), compute_uv=False)


def _draw_wide(fig: Any, full: bool, progress: bool) -> None:
    rng = np.random.default_rng(3)
    n, d, c = 5, 3, 2
    X = np.linalg.qr(rng.normal(size=(n, d)))[0]  # X^T X = I
    Y = rng.normal(size=(n, c))
    wide = kunin.WideSetup(1, 1, X.tolist(), Y.tolist())
    times = np.linspace(0, 12, 121)
    every = 3 if full else 6
    axes = fig.subplots(1, 3, sharey=True)
    for ax, delta in zip(axes, (-2.0, 0.0, 2.0), strict=True):
        if delta < 0:  # Theorem 4.2: h = d, the given layer is A (h x c)
            A0, W0 = kunin.wide_start(wide, delta, A=0.05 * rng.normal(size=(d, c)))
        else:  # h = c, the given layer is W (h x d)
            W_given = 0.05 * rng.normal(size=(c, d)) + (0.3 if delta == 0 else 0)
            A0, W0 = kunin.wide_start(wide, delta, W=W_given)
        traj = kunin.wide_closed_form(wide, A0, W0)
        exact = np.array([_sv(traj.at(t).beta) for t in times])
        sim = numerics.simulate(wide, A0, W0, list(times[::every]), method="scipy")
        ax.plot(times, exact, "k-", lw=1)
        ax.plot(times[::every], np.array([_sv(s.beta) for s in sim]), "o", ms=3)
        err = max(float(np.max(np.abs(np.asarray(s.beta - traj.at(t).beta, dtype=float))))
                  for s, t in zip(sim, times[::every], strict=True))  # fmt: skip
        ax.set_title(rf"$\delta = {delta:g}$, h = {traj.h}"
                     + f"\nmax |exact - sim| = {err:.1e}", fontsize=9)  # fmt: skip
        ax.set_xlabel("t")
    axes[0].set_ylabel(r"singular values of $\beta$")


def _first_half(t: np.ndarray, frac: np.ndarray) -> float:
    """The first ``t`` with ``frac = 1/2``, linear interpolation on the grid."""
    k = int(np.argmax(frac >= 0.5))
    if k == 0 or frac[k] < 0.5:
        return math.nan
    return float(t[k - 1] + (0.5 - frac[k - 1]) * (t[k] - t[k - 1]) / (frac[k] - frac[k - 1]))


def _draw_plateau(fig: Any, full: bool, progress: bool) -> None:
    deltas = [-(4.0 * 2**k) for k in range(6 if full else 4)]
    ax_curve, ax_time = fig.subplots(1, 2)
    rows = []
    worst = 0.0
    for j, delta in enumerate(deltas):
        setup, a0, w0 = delayed_rich.example(str(delta))
        T_p = float(delayed_rich.plateau_time(setup, a0, w0))
        T_half = float(delayed_rich.half_time(setup, a0, w0))
        traj = kunin.closed_form(setup, a0, w0)
        grid = np.linspace(0, 3 * T_p, 121)  # 40 points per T_p
        rest = traj.at(math.inf)
        exact = traj.sample(grid)
        states = list(exact)
        frac = np.asarray(delayed_rich.ntk_change(setup, states, states[0], rest), float)
        sim = numerics.simulate(setup, a0, w0, list(grid), method="scipy", max_steps=10**6)
        sims = list(sim)
        frac_sim = np.asarray(delayed_rich.ntk_change(setup, sims, sims[0], rest), float)
        worst = worst_of(worst, float(np.max(np.abs(frac_sim - frac))))
        col = f"C{j}"
        ax_curve.plot(grid / T_p, frac, col, lw=1, label=rf"$\delta = {delta:g}$")
        ax_curve.plot(grid[::4] / T_p, frac_sim[::4], col + "o", ms=2.5)
        rows.append((abs(delta), T_p, T_half, _first_half(grid, frac_sim)))
    d, T_p, T_half, T_sim = map(np.array, zip(*rows, strict=True))
    ax_curve.axhline(0.5, color="k", ls=":", lw=0.8)
    ax_curve.set_xlabel(r"$t/T_p$")
    ax_curve.set_ylabel("fraction of the total NTK change")
    ax_curve.set_title(f"exact (lines) vs simulated (dots); max diff {worst:.1e}", fontsize=9)
    ax_curve.legend(fontsize=7)
    ax_time.loglog(d, T_p, "k-", label=r"$T_p = 1/(\Omega + \delta'/2)$")
    ax_time.loglog(d, T_half, "C0-", label=r"$T_{1/2}$ exact (closed form)")
    ax_time.loglog(d, T_sim, "C1o", label=r"$T_{1/2}$ simulated (grid interpolation)")
    ax_time.set_xlabel(r"$|\delta|$")
    ax_time.set_title(f"the lazy plateau; max rel. diff of $T_{{1/2}}$ "
                      f"{np.max(np.abs(T_sim / T_half - 1)):.1e}", fontsize=9)  # fmt: skip
    ax_time.legend(fontsize=7)


def _upstream_fraction(
    alphas: np.ndarray, setup: alpha_scaling.AlphaSetup, seeds: int
) -> np.ndarray:
    """The fraction of neurons with ``delta_k = a_k^2 - |w_k|^2 > 0`` (:func:`kunin.balance`,
    unit rates) in the initial draws of :func:`alpha_scaling.initial_parameters`."""
    out = []
    for alpha in alphas:
        p = alpha_scaling.initial_parameters(float(alpha), setup.width, setup.d, seeds,
                                             seed=setup.init_seed, device="cpu")  # fmt: skip
        delta = kunin.balance(p["a"].numpy(), p["W"].numpy(), 1.0, 1.0)
        out.append(float(np.mean(delta > 0)))
    return np.array(out)


def _draw_alpha(fig: Any, full: bool, progress: bool) -> None:
    if full:
        grid, seeds, device = alpha_scaling.ALPHAS, 8, None  # CUDA where available
    else:
        grid, seeds, device = alpha_scaling.ALPHAS_SMALL, 4, "cpu"
    curve = alpha_scaling.alpha_curve(grid, seeds=seeds, device=device)
    alphas = np.array(curve.alphas)
    fine = np.geomspace(alphas[0] / 1.5, alphas[-1] * 1.5, 97)
    upstream = _upstream_fraction(fine, curve.setup, seeds)
    k = int(np.argmax(upstream >= 0.5))  # the predicted boundary: half the neurons upstream
    boundary = float(fine[k]) if upstream[k] >= 0.5 else math.inf
    panels = (("test_error", "relative test MSE"), ("kernel_distance", "kernel distance"),
              ("activation_change", "activation patterns changed"))  # fmt: skip
    axes = fig.subplots(1, len(panels) + 1)
    for ax, (key, name) in zip(axes[:-1], panels, strict=True):
        ax.errorbar(alphas, curve.means[key], yerr=curve.stderrs[key], fmt="o-", ms=4,
                    capsize=2, label="simulated (seed mean ± s.e.)")  # fmt: skip
        ax.set_title(name, fontsize=9)
    axes[-1].plot(fine, upstream, "k-", label=r"fraction with $\delta_k > 0$ at init")
    axes[-1].set_title(r"theory: sign of $\delta_k$ (Part II)", fontsize=9)
    for ax in axes:
        ax.set_xscale("log")
        ax.axvline(1.0, color="k", ls=":", lw=1, label=r"$\alpha = 1$ (standard)")
        ax.axvspan(fine[0], min(boundary, fine[-1]), color="C3", alpha=0.07,
                   label=r"mostly downstream ($\delta_k < 0$)")  # fmt: skip
        if boundary < fine[-1]:
            ax.axvspan(boundary, fine[-1], color="C2", alpha=0.07,
                       label=r"mostly upstream ($\delta_k > 0$)")  # fmt: skip
        ax.set_xlabel(r"$\alpha$ (first layer $W/\alpha$)")
    axes[0].legend(fontsize=6)
    axes[-1].legend(fontsize=6)


_KD_POINTS = ((-2.0, 0.01), (-2.0, 1.0), (0.0, 0.01), (0.0, 1.0), (2.0, 0.01), (2.0, 1.0))
"""(delta, |beta_0|) of the simulated points of the kernel-distance figure."""
KD_T = 200.0
"""The simulated time standing for t = oo: the slowest decay rate over :data:`_KD_POINTS` is
Omega - |delta|/2 >= 0.13 (delta = -2, |beta*| = 1.16), so the distance from the limit has
decayed by > e^-25."""


def _draw_kernel_distance(fig: Any, full: bool, progress: bool) -> None:
    setup = kunin.Setup(1, 1, _REG_X, _REG_Y)
    deltas = np.linspace(-4, 4, 49 if full else 21)
    scales = np.logspace(-3, 1, 41 if full else 17)
    grid = np.array([[kunin.limit_kernel_distance(kunin.closed_form(setup, *_neuron_start(d, b)))
                      for d in deltas] for b in scales])  # fmt: skip
    sims = []
    for d, b in _KD_POINTS:
        a0, w0 = _neuron_start(d, b)
        end = numerics.simulate(setup, a0, w0, [0.0, KD_T], method="scipy")
        kernel = kunin.neuron_kernel(setup)
        sims.append(km.kernel_distance(kernel(end.at(0)), kernel(end.at(1))))
    exact = [kunin.limit_kernel_distance(kunin.closed_form(setup, *_neuron_start(d, b)))
             for d, b in _KD_POINTS]  # fmt: skip
    err = max(abs(s - e) for s, e in zip(sims, exact, strict=True))
    ax, ax2 = fig.subplots(1, 2)
    mesh = ax.pcolormesh(deltas, scales, grid, shading="nearest", cmap="viridis", vmin=0,
                         vmax=max(1e-12, float(grid.max())))  # fmt: skip
    ax.scatter([d for d, _ in _KD_POINTS], [b for _, b in _KD_POINTS], c=sims, cmap="viridis",
               vmin=0, vmax=max(1e-12, float(grid.max())), edgecolors="w", s=60,
               label=f"simulated (t = {KD_T:g})")  # fmt: skip
    ax.set_yscale("log")
    ax.set_xlabel(r"$\delta = a_0^2 - |w_0|^2$")
    ax.set_ylabel(r"initial scale $|\beta_0|$")
    ax.legend(fontsize=7, loc="lower left")
    fig.colorbar(mesh, ax=ax, label=r"$S(0, \infty)$")
    fine = np.linspace(-4, 4, 161 if full else 81)
    for k, b in enumerate(sorted({b for _, b in _KD_POINTS})):
        line = [kunin.limit_kernel_distance(kunin.closed_form(setup, *_neuron_start(d, b)))
                for d in fine]  # fmt: skip
        ax2.plot(fine, line, f"C{k}-", label=rf"exact, $|\beta_0| = {b:g}$")
        pts = [(d, s) for (d, bb), s in zip(_KD_POINTS, sims, strict=True) if bb == b]
        ax2.plot(*zip(*pts, strict=True), f"C{k}o", label="simulated")
    ax2.set_xlabel(r"$\delta$")
    ax2.set_ylabel(r"$S(0, \infty)$")
    ax2.set_title(f"max |exact - simulated| = {err:.1e}", fontsize=9)
    ax2.legend(fontsize=7)


_DATA = "whitened X (3 x 2), y = (1, 0.5, 0.3)"

FIGURES: tuple[Figure, ...] = (
    figure(
        "003-fig-regimes",
        SEED,
        "Part I",
        "single neuron: downstream, balanced, upstream",
        "f(x) = a w^T x, eta_a = eta_w = 1, " + _DATA + ", |beta_0| = 0.05 with w_0 off "
        "beta*, delta = a^2 - |w|^2 in {-4, 0, 4}. Lines: the exact solution "
        "(kunin.closed_form, Riccati + Bernoulli); dots: the raw gradient flow of (a, w) "
        "integrated by numerics.simulate (scipy DOP853, rtol 1e-13). The poster draws these "
        "regimes schematically and states no sizes: nothing is reduced; --full samples the "
        "simulation 2.5x more densely.",
        _draw_regimes,
    ),
    figure(
        "003-fig-wide",
        SEED,
        "Theorem 4.2",
        "wide linear net: singular values of beta",
        "f(x) = A^T W x, n = 5, d = 3, c = 2, X^T X = I, Gaussian Y, Delta(0) = delta I_h "
        "(h = d for delta < 0, h = c for delta >= 0; kunin.wide_start), small random given "
        "layer. Lines: the exact matrix-Riccati solution (kunin.wide_closed_form); dots: the "
        "simulated raw flow of (A, W) (numerics.simulate, scipy DOP853). The poster states no "
        "sizes: nothing is reduced; --full samples the simulation twice as densely.",
        _draw_wide,
    ),
    figure(
        "003-fig-plateau",
        SEED,
        "Part I, regime 3",
        "delayed rich: the lazy plateau against delta",
        "Single neuron of delayed_rich.example: whitened X (a rotation), y = (1, 0.5), eta_a "
        "= 1, eta_w = 1/2, a_0 = 0, w_0 at atan(4/3) to beta*, delta < 0. Left: fraction of "
        "the total NTK change ||K(t) - K(0)||_F / ||K(oo) - K(0)||_F against t/T_p, exact "
        "(closed form) and simulated (scipy DOP853). Right: the plateau time T_p (exact rate) "
        "and T_1/2 (exact root of the closed form; simulated: linear interpolation on a grid "
        "of T_p/40) against |delta|. Default |delta| = 4..32; --full 4..128.",
        _draw_plateau,
        size=(11.0, 3.8),
    ),
    figure(
        "003-fig-alpha",
        SEED,
        "Part III",
        "first layer divided by alpha: lazy to rich",
        "Two-layer ReLU net (width 64, standard parameterisation, symmetric init so f_0 = 0) "
        "on a single-index ReLU teacher in d = 10 (200 train / 1000 test points), first layer "
        "initialised as W/alpha, full-batch GD (numerics.alpha_scaling.alpha_curve) for 2000 "
        "steps at lr = n/(2 lambda_max(K_0)). Theory (Part II): a neuron is upstream (rapid "
        "feature learning) when delta_k = a_k^2 - |w_k|^2 > 0; right panel: the fraction of "
        "upstream neurons in the same initial draws (kunin.balance), the shading splits at "
        "half (with a_k ~ N(0, 1/64) and |w_k| ~ 1/alpha that is near alpha = 8-16, not the "
        "poster's schematic alpha = 1). The poster's experiment uses other data and widths: "
        "a reduced analogue. Default alpha in {1/8, 1/4, 1, 4, 16} with 4 seeds on the CPU; "
        "--full 1/8..16 by factors of 2 with 8 seeds (CUDA where available).",
        _draw_alpha,
    ),
    figure(
        "003-kernel-distance",
        SEED,
        "Part I (kernel distance; issue 31)",
        "single neuron: kernel distance S(0, oo) over delta and the initial scale",
        "f(x) = a w^T x, eta_a = eta_w = 1, " + _DATA + ", w_0 along (0.6, -0.8) (off beta*), "
        "a_0 w_0 = beta_0, a_0^2 - |w_0|^2 = delta. The kernel distance S(0, oo) = 1 - <K_0, "
        "K_oo>/(|K_0| |K_oo|) of the NTK K = X M X^T, exact (kunin.limit_kernel_distance, "
        "claim kunin.kernel_distance_limit) over delta in [-4, 4] and |beta_0| in [1e-3, 10]: "
        "lazy (S ~ 0) for large delta > 0, rich for delta <= 0 and small scales (the poster's "
        "'Get rich quick' plot). Dots: the raw flow of (a, w) simulated to t = 200 "
        "(numerics.simulate, scipy DOP853) at six points, S from its NTK. Default grid 21 x "
        "17; --full 49 x 41.",
        _draw_kernel_distance,
        size=(11.0, 4.0),
    ),
)
