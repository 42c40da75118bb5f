"""Seed 000 (asymmetrical node scaling): Figure 1 (Section 8.1.1, simulated data) and
Figure 2 (Section 8.1.2, a single ReLU unit), regenerated.

The network is eq. (2), ``f(x) = sum_j sqrt(lambda_{m,j}) a_j sigma(w_j^T x/sqrt(d))``
with the node scalings (1) and Zipf weights (4), output weights fixed (3), trained by
full-batch gradient descent on eq. (5) (:mod:`numerics.node_scaling_experiment`, torch).

Theory drawn over the simulation: the ``gamma = 1`` infinite-width limit (Proposition 4.3:
the NTG is the constant mean NTG ``Theta*`` of eq. (10), :func:`solvable.models.ntg.mean_ntg`),
i.e. the linear model with kernel ``Theta*`` stepped by the same GD from the network's own
initial outputs (:func:`numerics.node_scaling_experiment.kernel_gd`); Theorem 5.1(a),
(b) from :mod:`solvable.models.global_convergence`; ``kappa_n`` from
:func:`solvable.models.ntg.kappa_n`.
Defaults are reduced (seconds on a CPU); ``full=True`` runs the paper's sizes (CUDA
where torch finds one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from numerics import node_scaling_experiment as nse
from numerics.torch_flow import resolve_device
from solvable.models.global_convergence import SEED
from solvable.verification.figures._common import Figure, figure

__all__ = ["FIGURES", "SEED"]

# Figure 1 (Section 8.1.1): the paper's n = 100, d = 50, m = 2000, lr = 1, 50 000 steps, 5
# repeats; the default keeps the data and the learning rate, and cuts width, steps, repeats
FIG1_FAST = {"widths": (300,), "steps": 300, "repeats": 1, "n_records": 25}
FIG1_FULL = {"widths": (2000,), "steps": 50_000, "repeats": 5, "n_records": 80}
# Figure 2 (Section 8.1.2): the paper's n = 100, d = 10, P = 2000, 5000 test points, 5
# repeats; it states neither the activation, the learning rate nor the number of steps
FIG2_FAST = {"width": 150, "n_test": 400, "steps": 800, "repeats": 1, "n_records": 25}
FIG2_FULL = {"width": 2000, "n_test": 5000, "steps": 20_000, "repeats": 5, "n_records": 50}


def _device(full: bool) -> Any:
    return resolve_device(None) if full else "cpu"  # --full: CUDA where available


def _draw_fig1(fig: Any, full: bool, progress: bool) -> None:
    sizes = FIG1_FULL if full else FIG1_FAST
    result = nse.section_8_1_1(device=_device(full), threads=None if full else 1,
                               progress=progress, **sizes)  # fmt: skip
    nse.draw_section_8_1_1(fig, result)


def _draw_fig2(fig: Any, full: bool, progress: bool) -> None:
    sizes = FIG2_FULL if full else FIG2_FAST
    r = nse.single_relu_experiment(device=_device(full), threads=None if full else 1,
                                   progress=progress, **sizes)  # fmt: skip
    x = np.maximum(np.array(r["record_steps"], dtype=float), 1)
    ax_train, ax_test = fig.subplots(1, 2)
    for k, label in enumerate(r["labels"]):
        col = f"C{k}"
        for ax, key in ((ax_train, "train"), (ax_test, "test")):
            ax.plot(x, np.mean(r[key][k], 0), col + "o-", ms=2.5, lw=0.6, label=label)
    err = np.nan
    if r["kernel_limit_train"]:
        lim_train = np.mean(r["kernel_limit_train"], 0)
        lim_test = np.mean(r["kernel_limit_test"], 0)
        ax_train.plot(x, lim_train, "k-", lw=1.2, label="γ=1 limit: linear model, Θ*")
        ax_test.plot(x, lim_test, "k-", lw=1.2, label="γ=1 limit: linear model, Θ*")
        err = float(np.max(np.abs(np.mean(r["test"][0], 0) - lim_test)))
    trivial = float(np.mean(r["trivial_test"]))
    ax_test.axhline(trivial, color="k", ls=":", lw=1, label=f"zero predictor ({trivial:.2f})")
    ax_train.set_title("training error (1/n) Σ r_i²", fontsize=9)
    ax_test.set_title(f"test error ({r['n_test']} points); max |γ=1 - limit| = {err:.2g}",
                      fontsize=9)  # fmt: skip
    for ax in (ax_train, ax_test):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("GD step")
    ax_train.legend(fontsize=6)
    ax_test.legend(fontsize=6)


_F1, _F1F = FIG1_FAST, FIG1_FULL
_F2, _F2F = FIG2_FAST, FIG2_FULL

FIGURES: tuple[Figure, ...] = (
    figure(
        "000-fig1",
        SEED,
        "Figure 1",
        "simulated data: risk, weight change, NTG change, eig_min",
        "Section 8.1.1: n = 100 points uniform on the sphere of R^50, y = (5/d) Σ_j "
        "sin(π x_ij) + N(0, 1); eq. (2) with swish, Zipf node scalings (1), (4), "
        "(γ, α) in {(1, -), (0.5, 0.7), (0.2, 0.5), (0, 0.4)}, output weights ±1 fixed; "
        "full-batch GD at lr 1 on L = ½ Σ r² (numerics.node_scaling_experiment.section_8_1_1"
        "). Dots: repeat means of the simulation. Lines: the γ = 1 infinite-width limit "
        "(Proposition 4.3: NTG = the mean NTG Θ* of eq. (10), solvable.models.ntg.mean_ntg; the "
        "linear model stepped by the same GD from the γ = 1 net's own initial residual); "
        "κ_n = eig_min Θ*; dotted: Theorem 5.1(a) γκ_n/4 and (b) exp(-γκ_n t/2) R_0 at t = "
        "step × lr (solvable.global_convergence; gradient-flow statements drawn as references "
        "for GD: lr 1 is above Theorem 6.1's step-size limit, and neither theorem's width "
        "condition holds at these widths). Reduced: m = "
        f"{_F1['widths'][0]}, {_F1['steps']} steps, {_F1['repeats']} repeat; --full m = "
        f"{_F1F['widths'][0]}, {_F1F['steps']} steps, {_F1F['repeats']} repeats (the paper's).",
        _draw_fig1,
        size=(16.0, 4.0),
    ),
    figure(
        "000-fig2",
        SEED,
        "Figure 2",
        "single ReLU unit: training and test error",
        "Section 8.1.2: x ~ N(0, I_10), y = relu(w_0^T x), w_0 = (1, ..., 1) (as printed), "
        "n = 100 training points, test error on fresh points, data resampled per repeat. "
        "Eq. (2) with the four (γ, α) of Figure 1 and 'pytorch default init' (f = Σ a_j "
        "relu(w_j^T x), nn.Linear's U(±1/sqrt(fan_in)) for both layers, both trained, no "
        "biases). The paper states no activation, learning rate or step count: ReLU here (the "
        "target's; Appendix A covers it, and Θ* is then the closed-form arc-cosine kernel), "
        "lr = d/λ_max(X X^T) for eq. (2) (λ_max(lr NTG) <= 1 at every W) and n/λ_max(K_0) "
        "for the standard net. Dots: simulation (repeat means). Line: the γ = 1 "
        "infinite-width limit (linear model with the mean NTG Θ*, solvable.models.ntg.mean_ntg, "
        "same GD, from the γ = 1 net's own initial outputs); dotted: the zero predictor's "
        "test error (no closed form for the finite nets). Reduced: width "
        f"{_F2['width']}, {_F2['steps']} steps, {_F2['n_test']} test points, "
        f"{_F2['repeats']} repeat; --full width {_F2F['width']}, {_F2F['n_test']} test points, "
        f"{_F2F['repeats']} repeats (the paper's) and {_F2F['steps']} steps.",
        _draw_fig2,
        size=(11.0, 4.0),
    ),
)
