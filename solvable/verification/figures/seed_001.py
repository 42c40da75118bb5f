"""Seed 001 (Xu & Ziyin, "When does feature learning happen?"): Figure 1, the alignment
``zeta(t)`` between the two layers of a two-layer linear (a, b) and ReLU (c, d) network;
Figure 5, the same with the Xavier+ and Kaiming+ initialisations under GD and Adam; and
Table 1 measured on simulated nets (:func:`numerics.sweeps.measure_phases`).

Appendix B's setup: (a), (b) one data point ``x = 1``, ``y = 2``, ``L = (f - y)^2``,
``f = gamma u^T W x``; ``gamma = 1/sqrt(d)`` in the kernel phase and ``1/d`` otherwise;
(a) i.i.d. ``N(0, 1)`` weights, (b) ``u ~ N(0, 10 I)``, ``w ~ u + N(0, 0.1 I)``; (c), (d)
the ReLU net ``f(x) = gamma u^T relu(w x)`` on 100 points, ``y = 2x + noise``, initialised
as (a) and (b).  The paper uses ``d = 10000``; the default here is ``d = 1000``.

Theory: :func:`solvable.models.xu_ziyin.closed_form` (Theorem 1, the paper's eq. (21) for zeta).
For the ReLU net with scalar inputs it is exact as well, as long as no hidden weight ``w_i``
changes sign: a unit with ``w_i > 0`` is linear on the points ``x_n > 0`` and silent on the
others (and the reverse for ``w_i < 0``), so the loss splits into two independent linear
nets of Theorem 1, one per sign, each on the single equivalent point ``x' = |x_+|``,
``y' = <x_+, y_+>/|x_+|`` (``sum_n (c x_n - y_n)^2 = (c x' - y')^2 + const``).  The figures
draw the theory solid while no ``w_i`` has changed sign (read off the closed form) and
dashed after.  Simulation: :func:`numerics.simulate` (linear, torch DOP853) and
:func:`numerics.torch_flow.gradient_descent` on :class:`numerics.models.WideTwoLayer` (ReLU)
and :class:`numerics.models.TwoLayerLinear` (Figure 5; Adam from ``torch.optim``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import numerics
from numerics import sweeps
from numerics.models import WideTwoLayer
from numerics.torch_flow import gradient_descent, resolve_device
from solvable.models import phases
from solvable.models import xu_ziyin as xz
from solvable.models.phases import table as phases_table
from solvable.verification import xu_ziyin_figure_1 as fig1
from solvable.verification import xu_ziyin_figure_5 as fig5
from solvable.verification.figures._common import Figure, figure

__all__ = ["FIGURES", "SEED"]

SEED = xz.SEED

D_FAST, D_FULL = 1000, 10000  # hidden width: reduced default, the paper's
N_POINTS = 100  # ReLU panels: data points (Appendix B)
NOISE = 0.1  # ReLU panels: std of the label noise (the paper does not state it)
HORIZON = 5.0  # plotted span in units of t_c (eq. (11))
GRID = 201  # closed-form samples per curve
EVERY = 10  # a simulated marker every EVERY samples
GD_FAST, GD_FULL = 4000, 40000  # ReLU panels: GD steps over the plotted span 5 t_c


def _width(full: bool) -> int:
    return D_FULL if full else D_FAST


def _device(full: bool) -> Any:
    return resolve_device(None) if full else "cpu"  # --full: CUDA where available


def _gammas(d: int) -> dict[str, float]:
    return {"1/d": 1.0 / d, "1/sqrt(d)": 1.0 / math.sqrt(d)}


def _draw_linear(fig: Any, full: bool, kind: str) -> None:
    d = _width(full)
    u0, w0 = fig1.initial_weights(kind, d, seed=0)
    ax_z, ax_f = fig.subplots(1, 2)
    for j, (name, gamma) in enumerate(_gammas(d).items()):
        setup = xz.Setup(1, 1, gamma, [1.0], 2.0)
        traj = xz.closed_form(setup, u0, w0[:, None])
        ts = np.linspace(0.0, HORIZON * float(traj.t_c), GRID)
        exact = traj.sample(ts)
        sim = numerics.simulate(setup, u0, w0[:, None], list(ts[::EVERY]), method="torch",
                                device=_device(full))  # fmt: skip
        z_sim = np.array([float(s.alignment) for s in sim])
        f_sim = np.array([float(s.f) for s in sim])
        err = float(np.max(np.abs(z_sim - exact.alignment[::EVERY])))
        col = f"C{j}"
        x = ts / float(traj.t_c)
        ax_z.plot(x, exact.alignment, col, label=f"γ = {name}: Theorem 1")
        ax_z.plot(x[::EVERY], z_sim, col + "o", ms=3, label=f"simulated, max |Δζ| = {err:.0e}")
        ax_f.plot(x, exact.f, col, label=f"γ = {name}")
        ax_f.plot(x[::EVERY], f_sim, col + "o", ms=3)
    ax_z.set_ylabel("ζ(t) = cos(u, w)")
    ax_f.set_ylabel("f(t)")
    ax_f.axhline(2.0, color="k", ls=":", lw=0.8)
    for ax in (ax_z, ax_f):
        ax.set_xlabel("t / t_c")
        ax.legend(fontsize=7)


def _relu_data(seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(N_POINTS)
    return x, 2.0 * x + NOISE * rng.standard_normal(N_POINTS)


def _relu_theory(x: np.ndarray, y: np.ndarray, gamma: float, u0: np.ndarray, w0: np.ndarray,
                 ts: np.ndarray) -> tuple[np.ndarray, float, int, float]:  # fmt: skip
    """The linear theory of the ReLU net (module docstring): ``zeta`` at ``ts``, the first
    time a hidden weight changes sign (``inf``: none on ``ts``), how many have changed sign
    at ``ts[-1]``, and the largest ``t_c`` of the two sign groups."""
    u = np.empty((len(ts), len(u0)))
    w = np.empty((len(ts), len(w0)))
    t_c = 0.0
    for sign in (1.0, -1.0):
        units, points = sign * w0 > 0, sign * x > 0
        if not units.any():
            continue
        xs, ys = x[points], y[points]
        norm = float(np.linalg.norm(xs))
        if norm == 0:  # no data on this side: the group never moves
            u[:, units], w[:, units] = u0[units], w0[units]
            continue
        setup = xz.Setup(1, 1, gamma, [norm], float(xs @ ys) / norm)
        traj = xz.closed_form(setup, u0[units], w0[units][:, None])
        states = traj.sample(ts)
        u[:, units], w[:, units] = states.u, states.W[:, :, 0]
        t_c = max(t_c, float(traj.t_c))
    flipped = np.sign(w) != np.sign(w0)
    t_flip = float(ts[np.argmax(flipped.any(1))]) if flipped.any() else math.inf
    n_flipped = int(flipped[-1].sum())
    probe = xz.Setup(1, 1, gamma, [1.0], 0.0)  # zeta = cos(u, W x/|x|) with x = 1
    zeta = np.array([float(xz.State.from_weights(probe, t, uu, ww[:, None]).alignment)
                     for t, uu, ww in zip(ts, u, w, strict=True)])  # fmt: skip
    return zeta, t_flip, n_flipped, t_c


def _relu_simulation(x: np.ndarray, y: np.ndarray, gamma: float, u0: np.ndarray,
                     w0: np.ndarray, ts: np.ndarray, full: bool) -> np.ndarray:  # fmt: skip
    """``zeta`` of the simulated ReLU net at ``ts`` (multiples of the step ``lr``):
    full-batch gradient descent on :class:`WideTwoLayer` with ``scale = gamma`` and risk
    ``1/(2n) sum (f - y)^2`` at rates ``2n``, i.e. on ``L = sum_n (f(x_n) - y_n)^2``.
    Gradient descent, not DOP853: every sign change of a ``w_i`` is a kink of the field,
    and an adaptive integrator spends minutes resolving the hundreds of them."""
    import torch

    n = len(x)
    model = WideTwoLayer(X=x[:, None], y=y, activation="relu", eta_w=2.0 * n, eta_a=2.0 * n,
                         scale=gamma)  # fmt: skip
    params = {"W": torch.tensor(w0[None, :, None]), "a": torch.tensor(u0[None, :])}
    lr = float(ts[-1]) / (GD_FULL if full else GD_FAST)
    record = np.rint(ts / lr).astype(int)
    res = gradient_descent(model, params, lr, record, device=_device(full))
    W = res.params["W"][:, 0, :, 0].cpu().numpy()
    a = res.params["a"][:, 0, :].cpu().numpy()
    probe = xz.Setup(1, 1, gamma, [1.0], 0.0)
    return np.array([float(xz.State.from_weights(probe, t, aa, ww[:, None]).alignment)
                     for t, aa, ww in zip(ts, a, W, strict=True)])  # fmt: skip


def _draw_relu(fig: Any, full: bool,
               cases: dict[str, tuple[str, Callable[[int], float]]]) -> None:  # fmt: skip
    d = _width(full)
    x, y = _relu_data()
    ax = fig.subplots(1, 1)
    for j, (name, (kind, gamma)) in enumerate(cases.items()):
        g = gamma(d)
        u0, w0 = fig1.initial_weights(kind, d, seed=0)
        *_, t_c = _relu_theory(x, y, g, u0, w0, np.array([0.0]))
        ts = np.linspace(0.0, HORIZON * t_c, GRID)
        zeta, t_flip, n_flipped, _ = _relu_theory(x, y, g, u0, w0, ts)
        z_sim = _relu_simulation(x, y, g, u0, w0, ts[::EVERY], full)
        err = float(np.max(np.abs(z_sim - zeta[::EVERY])))
        exact = ts < t_flip
        col = f"C{j}"
        xs = ts / t_c
        ax.plot(xs[exact], zeta[exact], col, label=f"{name}: linear theory (exact)")
        if not exact.all():
            ax.plot(
                xs[~exact],
                zeta[~exact],
                col + "--",
                lw=1,
                label=f"after the first w_i sign change ({n_flipped}/{d} by the end)",
            )
            ax.axvline(t_flip / t_c, color=col, ls=":", lw=0.8)
        ax.plot(xs[::EVERY], z_sim, col + "o", ms=3,
                label=f"simulated ReLU net (GD), max |Δζ| = {err:.0e}")  # fmt: skip
    ax.set_xlabel("t / t_c (largest t_c of the two sign groups)")
    ax.set_ylabel("ζ(t) = cos(u, w)")
    ax.legend(fontsize=7)


# ---------------------------------------------------------------------------
# Figure 5: Xavier+ and Kaiming+ (Appendix B.1), GD against Theorem 1, and Adam
# ---------------------------------------------------------------------------
FIG5_STEPS = fig5.STEPS_FULL  # GD and Adam steps over the plotted span (lr = 5 t_c/2000)
FIG5_RECORDS = 41  # recorded steps per run


def _draw_fig5(fig: Any, full: bool, progress: bool) -> None:
    d = _width(full)
    geo = np.unique(np.round(np.geomspace(1, FIG5_STEPS, FIG5_RECORDS)).astype(int))
    record = np.concatenate([[0], geo])
    axes = fig.subplots(1, 2, sharey=True)
    inits = (("xavier", "Xavier+ (γ = 1)"), ("kaiming", "Kaiming+ (γ = 1/d)"))
    for ax, (kind, name) in zip(axes, inits, strict=True):
        u0, w0, gamma = fig5.initial_weights(kind, d, seed=0)
        setup = xz.Setup(1, 1, gamma, [1.0], 2.0)
        traj = xz.closed_form(setup, u0, w0[:, None])
        lr = HORIZON * float(traj.t_c) / FIG5_STEPS
        fine = np.concatenate([[0.0], np.geomspace(0.1, FIG5_STEPS, GRID)])
        exact = traj.sample(fine * lr).alignment
        z_gd = fig5.gd_alignment(setup, u0, w0, lr, record, device=_device(full))
        err = float(np.max(np.abs(z_gd - traj.sample(record * lr).alignment)))
        scale = math.sqrt(abs(setup.y) / (gamma * d))  # |u_i| = |w_i| at f = y, balanced
        z_adam, loss_adam = fig5.adam_alignment(setup, u0, w0, fig5.ADAM_REACH * scale / FIG5_STEPS,
                                                record)  # fmt: skip
        ax.plot(fine + 1, exact, "C0-", lw=1.2, label="gradient flow: Theorem 1 (t = k lr)")
        ax.plot(record + 1, z_gd, "C0o", ms=3, label=f"GD (lr = {HORIZON:g} t_c/{FIG5_STEPS}), "
                f"max |Δζ| = {err:.0e}")  # fmt: skip
        ax.plot(record + 1, z_adam, "C3s", ms=3,
                label=f"Adam (simulation only), final L = {loss_adam:.0e}")  # fmt: skip
        ax.set_xscale("log")
        ax.set_title(f"{name}, |u|/|w| = {np.linalg.norm(u0) / np.linalg.norm(w0):.2g} at "
                     f"init", fontsize=9)  # fmt: skip
        ax.set_xlabel("step k + 1")
        ax.legend(fontsize=7, loc="lower right")
    axes[0].set_ylabel("ζ = cos(u, w)")


# ---------------------------------------------------------------------------
# Table 1 measured (numerics.sweeps): one panel per cell
# ---------------------------------------------------------------------------
KAPPAS_FAST, KAPPAS_FULL = (64, 256, 1024), (64, 256, 1024, 4096)
SEEDS_FAST, SEEDS_FULL = 8, 16  # networks per (cell, kappa): the benchmark's 16 with --full


def _draw_table1(fig: Any, full: bool, progress: bool) -> tuple[float, float]:
    rows = phases.table_1()
    cases = sweeps.table_1_cases()
    names = [f"{r['column']}, {sweeps._SHORT_BLOCKS[r['block']]}" for r in rows]
    kappas = KAPPAS_FULL if full else KAPPAS_FAST
    ms = sweeps.measure_phases([cases[n] for n in names], list(kappas),
                               seeds=SEEDS_FULL if full else SEEDS_FAST, progress=progress,
                               n_boot=300)  # fmt: skip
    columns = [c.name for c in phases.TABLE_1_COLUMNS]
    blocks = list(phases.BLOCKS)
    axes = fig.subplots(len(blocks), len(columns), sharex=True)
    k = np.array(kappas, dtype=float)
    for row, m in zip(rows, ms, strict=True):
        ax = axes[blocks.index(row["block"]), columns.index(row["column"])]
        pairs = (("t_c", "C0", m.t_c, m.predicted.t_c),
                 ("ntk_change", "C1", m.ntk_change, m.predicted.ntk_change))  # fmt: skip
        for key, col, fit, pred in pairs:
            mean = np.array([np.mean(r[key]) for r in m.results])
            y = mean / mean[0]
            line = k ** float(pred)
            line *= math.exp(float(np.mean(np.log(y) - np.log(line))))  # through the data
            ax.loglog(k, line, col + "-", lw=1.1)
            ax.loglog(k, y, col + "o", ms=3.5,
                      label=f"{'t_c' if key == 't_c' else 'ΔK/K'}: {fit.exponent:+.2f} "
                            f"({pred})")  # fmt: skip
        lo, hi = ax.get_ylim()
        ax.set_ylim(min(lo, 0.5), max(hi, 2.0))  # flat cells: no zoom into seed noise
        printed = row["printed"]
        ok = m.phase == m.paper_phase and (not printed or phases_table._short(m.phase) == printed)
        ax.set_title(f"{row['column']}, {row['block']}\nmeasured {phases_table._short(m.phase)}"
                     f" | paper {printed or '-'}", fontsize=7,
                     color="k" if ok else "C3")  # fmt: skip
        ax.legend(fontsize=6, loc="lower left", handlelength=1)
        ax.tick_params(labelsize=6)
    for ax in axes[-1]:
        ax.set_xlabel("κ", fontsize=8)
    return (3.2 * len(columns), 2.3 * len(blocks) + 0.6)


def _inv(d: int) -> float:
    return 1.0 / d


def _inv_sqrt(d: int) -> float:
    return 1.0 / math.sqrt(d)


_SETUP_LIN = ("Two-layer linear net f = γ u^T W x, one point x = 1, y = 2, L = (f - y)^2, "
              "η_u = η_w = 1 (Appendix B). ")  # fmt: skip
_SETUP_RELU = (f"ReLU net f(x) = γ u^T relu(w x), {N_POINTS} points x ~ N(0, 1), y = 2x + "
               f"N(0, {NOISE}^2) (the paper does not state x's law or the noise), L = "
               "sum_n (f(x_n) - y_n)^2, η = 1. ")  # fmt: skip
_THEORY_RELU = ("Theory: with scalar x the net is two independent linear nets of Theorem 1 "
                "(units with w_i > 0 on the points x > 0, w_i < 0 on x < 0), exact while no "
                "w_i changes sign (solid; dashed after; a unit whose w_i crosses 0 switches to "
                "the other half of the data). Dots: full-batch gradient descent on (u, w) "
                f"(torch; lr = {HORIZON:g} t_c/{GD_FAST}, --full /{GD_FULL}: the flow to "
                "O(lr)). ")  # fmt: skip
_REDUCED = f"Default d = {D_FAST}; --full d = {D_FULL} (the paper's)."

FIGURES: tuple[Figure, ...] = (
    figure(
        "001-fig1a",
        SEED,
        "Figure 1(a)",
        "linear net, i.i.d. N(0, 1) init: learning by alignment",
        _SETUP_LIN + "Init u, w ~ N(0, 1) i.i.d.; γ = 1/d (feature learning) and 1/sqrt(d) "
        "(kernel). Lines: Theorem 1 (xu_ziyin.closed_form); dots: the raw gradient flow of "
        "(u, W) simulated by numerics.simulate (torch DOP853, rtol 1e-12). " + _REDUCED,
        lambda fig, full, progress: _draw_linear(fig, full, "iid"),
        size=(11.0, 3.6),
    ),
    figure(
        "001-fig1b",
        SEED,
        "Figure 1(b)",
        "linear net, near-parallel large init: disalignment",
        _SETUP_LIN + "Init u ~ N(0, 10 I), w = u + N(0, 0.1 I); γ = 1/d (feature learning) "
        "and 1/sqrt(d) (kernel). Lines: Theorem 1 (xu_ziyin.closed_form); dots: the raw "
        "gradient flow simulated by numerics.simulate (torch DOP853, rtol 1e-12). " + _REDUCED,
        lambda fig, full, progress: _draw_linear(fig, full, "near"),
        size=(11.0, 3.6),
    ),
    figure(
        "001-fig1c",
        SEED,
        "Figure 1(c)",
        "ReLU net, i.i.d. N(0, 1) init",
        _SETUP_RELU + "Init u, w ~ N(0, 1); γ = 1/d (feature learning) and 1/sqrt(d) "
        "(kernel). " + _THEORY_RELU + _REDUCED,
        lambda fig, full, progress: _draw_relu(
            fig, full, {"γ = 1/d": ("iid", _inv), "γ = 1/sqrt(d)": ("iid", _inv_sqrt)}
        ),
        size=(7.5, 4.2),
    ),
    figure(
        "001-fig1d",
        SEED,
        "Figure 1(d)",
        "ReLU net, parallel and near-parallel large init",
        _SETUP_RELU + "Init u ~ N(0, 10 I) and w = u (parallel: ζ = 1 stays) or w = u + "
        "N(0, 0.1 I); γ = 1/d. " + _THEORY_RELU + _REDUCED,
        lambda fig, full, progress: _draw_relu(
            fig, full, {"w = u": ("parallel", _inv), "w = u + noise": ("near", _inv)}
        ),
        size=(7.5, 4.2),
    ),
    figure(
        "001-fig5",
        SEED,
        "Figure 5",
        "linear net, Xavier+ and Kaiming+ init: GD and Adam",
        _SETUP_LIN + "Xavier+: u, w ~ N(0, 1/d), γ = 1; Kaiming+: u ~ N(0, 1), w ~ N(0, "
        "1/d), γ = 1/d (Table 1's c_γ^+; its c_η^+ only rescales time for equal rates, so η "
        "= 1). Line: Theorem 1 (xu_ziyin.closed_form), the gradient flow, at t = k lr. "
        f"Circles: full-batch GD on (u, w) (numerics.torch_flow.gradient_descent, {FIG5_STEPS} "
        f"steps, lr = {HORIZON:g} t_c/{FIG5_STEPS}: the flow to O(lr)). Squares: Adam "
        f"(torch.optim.Adam, betas (0.9, 0.999), eps 1e-8, no weight decay, float64, lr = 10 "
        f"s/{FIG5_STEPS}, s = sqrt(|y|/(γ d)) the balanced weight scale at f = y; the paper "
        "gives no optimiser settings), seed 0, plotted against its own "
        "step count: Theorem 1 covers the flow, not Adam. The paper's 'SGD' is full-batch "
        "GD here (one data point). Claim xu_ziyin.figure_5 checks GD against Theorem 1 "
        "(error halving with lr) and, with --full, GD's larger change of ζ than Adam's from "
        "Kaiming+. " + _REDUCED,
        _draw_fig5,
        size=(11.0, 4.0),
    ),
    figure(
        "001-table1",
        SEED,
        "Table 1",
        "phases of Table 1 measured on simulated linear nets",
        "Every cell of Table 1 (rows: the blocks c_η, c_η*, (c_η^+, c_γ^+), (c_η^-, c_γ^-); "
        "columns: the scalings; equal rates), simulated by numerics.sweeps.measure_phases: "
        "for each κ a batch of two-layer linear nets f = γ u^T W x (d = κ^c_d, d = 16 for "
        "the lazy column, which starts from a zero output; d0 = 4, |x| = 1, y = 2, Gaussian "
        "init with variances κ^c_u, κ^c_w, rates κ^c_η) integrated by DOP853 to 3 t_c. "
        "Dots: seed means of t_c (4 x the e-folding time of |f - y|) and of the relative NTK "
        "change |K(T) - K(0)|/K(0), each divided by its value at the smallest κ; lines: "
        "κ^e with the exponent e derived from eqs. (11), (27), (28) (numerics.sweeps."
        "predicted_exponents; in the legend: fitted (predicted)), through the dots. Title: "
        "the phase read off the fitted exponents (numerics.sweeps.classify) and the paper's "
        "printed phase (red where they differ or Theorem 2 differs). Default κ = "
        f"{', '.join(map(str, KAPPAS_FAST))} with {SEEDS_FAST} nets; --full κ up to "
        f"{KAPPAS_FULL[-1]} with {SEEDS_FULL} (benchmarks/sweep_xu_ziyin.py's sizes).",
        _draw_table1,
        size=(16.0, 10.0),
    ),
)
