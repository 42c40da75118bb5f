"""Section 8.1.1, reduced (Figure 1): :func:`section_8_1_1` and its summary and drawing.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 8.1.1: GD at
learning rate 1 on the simulated data, scaled down (fewer steps and repeats);
:func:`section_8_1_1_summary` (the numbers the paper's orderings are about),
:func:`draw_section_8_1_1` (the 4 panels of Figure 1 with the theory) and
:func:`plot_section_8_1_1`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from numerics.measures import min_eigenvalue, relative_change
from numerics.node_scaling_experiment.checks import (
    MAX_RECORDS,
    MAX_REPEATS,
    MAX_STEPS,
    _int,
    _ints,
    _real,
    _record_steps,
    _result,
    _settings,
)
from numerics.node_scaling_experiment.data import nested_parameters, node_scalings, sphere_data
from numerics.node_scaling_experiment.kernel import kernel_gd
from numerics.node_scaling_experiment.network import _finite, _model, _ntg
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.torch_flow import gradient_descent
from solvable._core import numbers as nb
from solvable.models import global_convergence as gcv
from solvable.models import ntg

SETTINGS_8_1_1: tuple[tuple[float, float | None], ...] = ((1.0, None), (0.5, 0.7), (0.2, 0.5),
                                                          (0.0, 0.4))  # fmt: skip
"""The ``(gamma, alpha)`` pairs of Section 8.1.1 (``alpha`` unused at ``gamma = 1``)."""


@_scoped_threads
def section_8_1_1(
    *,
    n: int = 100,
    d: int = 50,
    widths: Sequence[int] = (2000,),
    steps: int = 2000,
    repeats: int = 1,
    settings: Sequence[tuple[float, float | None]] = SETTINGS_8_1_1,
    lr: float = 1.0,
    n_records: int = 60,
    top_neurons: int = 5,
    data_seed: int = 0,
    activation: str = "swish",
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """GD (learning rate ``lr``) for ``steps`` steps on Section 8.1.1's data (``n`` points
    uniform on the sphere of R^d, ``y = (5/d) sum_j sin(pi x_ij) + N(0, 1)``), for every
    ``(gamma, alpha)`` of ``settings``, width and repeat (a fresh initialisation per repeat,
    one data set).  Recorded at step 0 and at most ``n_records - 1`` log-spaced steps (the
    rounded steps, duplicates dropped: fewer when ``steps`` is not far above ``n_records``):
    the training risk ``(1/n) sum_i r_i^2``, ``||w_tj - w_0j||`` of the ``top_neurons``
    nodes with the largest change at the end, the relative Frobenius change of the NTG and
    its minimum eigenvalue.  Plain numbers.  Work caps: ``steps`` at most
    :data:`MAX_STEPS`, ``repeats`` at most :data:`MAX_REPEATS`, ``n_records`` at most
    :data:`MAX_RECORDS`; an ``lr`` at which GD leaves the finite numbers is a
    ``ValueError``."""
    import torch

    widths = _ints("widths", widths)
    steps = _int("steps", steps, 1, MAX_STEPS)
    repeats = _int("repeats", repeats, 1, MAX_REPEATS)
    n_records = _int("n_records", n_records, 2, MAX_RECORDS)
    top_neurons = _int("top_neurons", top_neurons)
    lr = _real("lr", lr, 0.0, math.inf, open_low=True, open_high=True)
    settings = _settings(settings)
    _int("data_seed", data_seed, 0)
    nb.check_flag("progress", progress)
    X, y = sphere_data(n, d, seed=data_seed, noise=1.0)
    theta_star = ntg.mean_ntg(X, activation)  # eq. (10), also the gamma = 1 limit below
    kappa = float(np.linalg.eigvalsh(theta_star)[0])  # = ntg.kappa_n(X, activation), reused
    model = _model(X, y, activation)
    record = _record_steps(steps, n_records)
    out: dict[str, Any] = {"n": n, "d": d, "lr": lr, "steps": steps, "repeats": repeats,
                           "data_seed": data_seed, "activation": activation, "kappa_n": kappa,
                           "record_steps": record.tolist(), "runs": []}  # fmt: skip
    for m in widths:
        lams, seeds, labels = [], [], []
        for k, (g, a) in enumerate(settings):
            lam = node_scalings(m, g, a)
            for r in range(repeats):
                lams.append(lam)
                seeds.append(1000 * r + k)
                labels.append((k, r))
        p0 = nested_parameters(lams, d, seeds, device=device)
        K0 = _ntg(model, p0)
        W0 = p0["W"]
        Xt, yt = (torch.as_tensor(v, dtype=W0.dtype, device=W0.device) for v in (X, y))
        with torch.no_grad():
            r0 = (yt - model.output(p0, Xt)).cpu().numpy()  # (B, n), for the kernel limit
        measures = {
            "loss": lambda p, rows: _finite(model.loss(p)),
            "eig_min": lambda p, rows: min_eigenvalue(_finite(_ntg(model, p))),
            "ntg_change": lambda p, rows, K0=K0: relative_change(
                _finite(_ntg(model, p)), K0[rows]),
            "moved": lambda p, rows, W0=W0: torch.linalg.vector_norm(p["W"] - W0[rows], dim=-1),
        }  # fmt: skip
        start = time.perf_counter()
        try:
            res = gradient_descent(model, p0, lr, record, measures=measures, keep_params=False,
                                   device=device)  # fmt: skip
        except ArithmeticError as exc:
            raise ValueError(
                f"GD at lr = {lr!r} left the finite numbers at width {m} "
                f"(diverged; lower lr): {exc}"
            ) from exc
        seconds = time.perf_counter() - start
        _say(progress, f"8.1.1 m={m}: {steps} GD steps in {seconds:.1f} s")
        meas = {k: v.detach().cpu().numpy() for k, v in res.measures.items()}
        for k, (g, a) in enumerate(settings):
            rows = [b for b, (kk, _) in enumerate(labels) if kk == k]
            moved = meas["moved"][:, rows, :]  # (T, R, m)
            top = np.argsort(moved[-1], axis=-1)[:, ::-1][:, :top_neurons]  # (R, top)
            top_traj = np.stack([moved[:, r, top[r]] for r in range(len(rows))], 1)  # (T,R,top)
            out["runs"].append({
                "gamma": g, "alpha": a, "width": m, "seconds": seconds,
                "risk": (2 * meas["loss"][:, rows] / n).tolist(),
                "eig_min": meas["eig_min"][:, rows].tolist(),
                "ntg_change": meas["ntg_change"][:, rows].tolist(),
                "top_neurons": top.tolist(),
                "top_moved": top_traj.tolist(),
                "max_moved_end": moved[-1].max(-1).tolist(),
                "residual0": r0[rows].tolist(),
            })  # fmt: skip
    # the gamma = 1 infinite-width limit (Proposition 4.3: NTG = the mean NTG Theta*), the
    # linear model stepped by the same GD from each gamma = 1 network's own initial residual
    for run in out["runs"]:
        if run["gamma"] == 1:
            run["kernel_limit_risk"] = kernel_gd(theta_star, np.array(run["residual0"]), lr,
                                                 record)["risk"].tolist()  # fmt: skip
    out["summary"] = section_8_1_1_summary(out)
    return out


def section_8_1_1_summary(result: dict[str, Any]) -> dict[str, Any]:
    """The numbers behind the qualitative claims of Section 8.1.1, from :func:`section_8_1_1`'s
    output (repeat means at the largest width; settings ordered by decreasing gamma, as
    ``(1, -), (0.5, 0.7), (0.2, 0.5), (0, 0.4)``): ``eig_min`` at the start, the end and its
    median over the record steps, the fraction of record steps at which ``eig_min`` decreases
    along the settings, the final risk and its late log-rate (second half of the run), the
    largest weight change and the relative NTG change at the end, and ``eig_min/kappa_n`` at
    the start and the end for gamma = 0 and gamma = 1.  The orderings the paper states are
    judged in :mod:`solvable.verification.confirmations.global_convergence`."""
    _section_result(result)
    m = max(r["width"] for r in result["runs"])
    runs = sorted((r for r in result["runs"] if r["width"] == m), key=lambda r: -r["gamma"])
    mean = {key: [np.mean(np.array(r[key]), axis=1) for r in runs]
            for key in ("risk", "eig_min", "ntg_change")}  # fmt: skip
    label = [f"({r['gamma']:g}, {'-' if r['alpha'] is None else r['alpha']:})" for r in runs]
    steps = np.array(result["record_steps"], dtype=float)
    half = int(np.searchsorted(steps, steps[-1] / 2))  # late rate: second half of the run
    # at least one record before the last (a coarse grid, e.g. steps 0, 1, 4, has none in
    # the second half: the rate from the last two records, not 0/0)
    half = max(0, min(half, len(steps) - 2))
    eig = np.array(mean["eig_min"])  # (settings, steps), gamma decreasing
    out = {
        "width": m,
        "settings": label,
        "gammas": [r["gamma"] for r in runs],
        "eig_min_init": [float(v[0]) for v in mean["eig_min"]],
        "eig_min_end": [float(v[-1]) for v in mean["eig_min"]],
        "eig_min_median_over_steps": [float(np.median(v)) for v in mean["eig_min"]],
        "eig_min_ordered_fraction_of_steps": float(np.mean(np.all(eig[:-1] >= eig[1:], axis=0))),
        "risk_end": [float(v[-1]) for v in mean["risk"]],
        "risk_log_slope_second_half": [
            float((np.log(v[-1]) - np.log(v[half])) / (steps[-1] - steps[half]))
            for v in mean["risk"]
        ],
        "max_moved_end": [float(np.mean(r["max_moved_end"])) for r in runs],
        "ntg_change_end": [float(v[-1]) for v in mean["ntg_change"]],
        "kappa_n": result["kappa_n"],
    }
    for g, key in ((0, "gamma0_eig_min_over_kappa_init_end"),
                   (1, "gamma1_eig_min_over_kappa_init_end")):  # fmt: skip
        k = next((k for k, r in enumerate(runs) if r["gamma"] == g), None)
        if k is not None:
            e = mean["eig_min"][k]
            out[key] = [float(e[0] / result["kappa_n"]), float(e[-1] / result["kappa_n"])]
    return out


def _section_result(result: Any) -> dict[str, Any]:
    return _result(result, ("record_steps", "kappa_n", "n", "d", "data_seed", "activation",
                            "lr", "steps", "repeats"), "runs",
                   ("width", "gamma", "alpha", "risk", "eig_min", "ntg_change", "top_moved",
                    "max_moved_end"), "section_8_1_1")  # fmt: skip


THEOREM_5_1_DELTA = 0.5
"""The probability level ``delta`` the Theorem 5.1 constants are built with for drawing:
bounds (a) and (b) do not depend on it (only the width condition and (c), (d) do)."""


def draw_section_8_1_1(fig: Any, result: dict[str, Any]) -> dict[str, float]:
    """Draw Figure 1 of seed 000 from :func:`section_8_1_1`'s ``result`` into the matplotlib
    figure ``fig`` (4 panels, GD step on log axes, repeat means at the largest width): the
    simulation as markers, and the theory as lines: the ``gamma = 1`` infinite-width limit
    (``kernel_limit_risk``, the linear model with the mean NTG, Proposition 4.3) on the
    risk; Theorem 5.1(b)'s envelope ``exp(-gamma kappa_n t/2) R_0`` at ``t = step * lr``
    for each ``gamma > 0`` (:func:`solvable.models.global_convergence.loss_bound_numeric`; the
    flow's bound, drawn as a reference for GD) on the risk; ``kappa_n`` (the ``gamma = 1``
    limit) and Theorem 5.1(a)'s ``gamma kappa_n/4`` on ``eig_min``.  The one drawing path
    of both :func:`plot_section_8_1_1` and ``solvable figures`` (``000-fig1``).  Returns
    ``{"risk_vs_kernel_limit": max |risk - kernel limit| at gamma = 1 (relative to the
    initial risk)}``."""
    _section_result(result)
    if not callable(getattr(fig, "subplots", None)):
        raise TypeError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    steps = np.array(result["record_steps"], dtype=float)
    x = np.maximum(steps, 1)
    m = max(r["width"] for r in result["runs"])
    runs = [r for r in result["runs"] if r["width"] == m]
    X, y = sphere_data(result["n"], result["d"], seed=result["data_seed"], noise=1.0)
    kappa = result["kappa_n"]
    axes = fig.subplots(1, 4)
    err = math.nan
    for k, r in enumerate(runs):
        col = f"C{k}"
        lab = f"γ={r['gamma']:g}" + ("" if r["alpha"] is None else f", α={r['alpha']:g}")
        risk = np.mean(r["risk"], 1)
        axes[0].plot(x, risk, col + "o-", ms=2.5, lw=0.6)
        axes[1].plot(x, np.mean(np.array(r["top_moved"])[:, :, 0], 1), col + "o-", ms=2.5,
                     lw=0.6, label=lab)  # fmt: skip
        axes[2].plot(x, np.mean(r["ntg_change"], 1), col + "o-", ms=2.5, lw=0.6, label=lab)
        axes[3].plot(x, np.mean(r["eig_min"], 1), col + "o-", ms=2.5, lw=0.6)
        if r["gamma"] > 0:
            consts = gcv.Constants.from_data(X, y, result["activation"], r["gamma"],
                                             THEOREM_5_1_DELTA, kappa_n=kappa)  # fmt: skip
            bound = np.asarray(gcv.loss_bound_numeric(consts, steps * result["lr"], risk[0]))
            axes[0].plot(x, bound, col, ls=":", lw=1.2)
            axes[3].axhline(float(gcv.eig_min_bound_numeric(consts)), color=col, ls=":", lw=1.2)
        if "kernel_limit_risk" in r:
            limit = np.mean(r["kernel_limit_risk"], 1)
            axes[0].plot(x, limit, "k-", lw=1.2, label="γ=1 limit: linear model, Θ*")
            err = float(np.max(np.abs(risk - limit)) / risk[0])
    axes[0].plot([], [], "k:", lw=1.2, label="Thm 5.1(b) exp(-γκ_n t/2) R_0")
    axes[3].axhline(kappa, color="k", ls="-", lw=1.2, label="κ_n = eig_min Θ* (γ=1 limit)")
    axes[3].plot([], [], "k:", lw=1.2, label="Thm 5.1(a) γκ_n/4")
    titles = ["training risk" + (f"\nmax |γ=1 - limit|/R_0 = {err:.1e}" if err == err else ""),
              "||w_tj - w_0j|| (j: max at end)", "||NTG_t - NTG_0||_F / ||NTG_0||_F",
              "eig_min(NTG)"]  # fmt: skip
    for ax, title in zip(axes, titles, strict=True):
        ax.set_xscale("log")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("GD step")
    axes[0].set_yscale("log")
    axes[0].set_ylim(bottom=max(1e-6, 0.3 * min(np.min(np.mean(r["risk"], 1)) for r in runs)))
    axes[3].set_yscale("log")
    low = min(float(np.min(np.mean(r["eig_min"], 1))) for r in runs)
    axes[3].set_ylim(bottom=min(low, kappa * min(r["gamma"] or 1 for r in runs) / 4) / 8)
    axes[0].legend(fontsize=6, loc="lower left")
    axes[1].legend(fontsize=6, loc="upper left", title="simulated (GD)", title_fontsize=6)
    axes[3].legend(fontsize=6, loc="lower right")
    return {"risk_vs_kernel_limit": err}


def plot_section_8_1_1(result: dict[str, Any], path: str | Path) -> Path:
    """Figure 1 of seed 000, reduced, drawn by :func:`draw_section_8_1_1` and saved as a PNG
    at ``path`` (matplotlib's object API on an Agg canvas: no pyplot state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    _section_result(result)
    path = Path(path)
    fig = Figure(figsize=(17, 4.2))
    FigureCanvasAgg(fig)
    draw_section_8_1_1(fig, result)
    m = max(r["width"] for r in result["runs"])
    fig.suptitle(f"Seed 000 Section 8.1.1 (reduced): n={result['n']}, d={result['d']}, m={m}, "
                 f"lr={result['lr']:g}, {result['steps']} steps, {result['repeats']} repeat(s)",
                 fontsize=10)  # fmt: skip
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    return path
