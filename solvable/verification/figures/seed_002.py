"""Seed 002 (Loureiro, lecture 3: networks close to initialisation): the empirical kernels
converging to the arc-cosine kernels with the width, and the linearisation error against
the width.

Network (2.19) / (2.28), ``f(x) = p^(-1/2) sum_j a_j sigma(<w_j, x>)``
(:class:`numerics.models.WideTwoLayer`).  Theory: the closed-form kernels of
:mod:`solvable.models.kernels` (Sections 2.1, 2.3), the Hessian bound (2.17)-(2.18), Proposition
1's ``O(1/sqrt(p))`` rate and the residual envelopes of :mod:`solvable.models.linearisation`
(through :mod:`numerics.lazy_width`, which uses its generated evaluators).  Simulation:
autograd NTKs over fresh initialisations (:mod:`numerics.kernel_sampling`), Lanczos
Hessian norms and gradient flows (:mod:`numerics.lazy_width`).  The lecture states no
sizes: the defaults are small (seconds), ``full=True`` extends the width range.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics import kernel_sampling as ks
from numerics import lazy_width as lw
from numerics.torch_flow import resolve_device
from solvable.models import kernels
from solvable.verification.figures._common import Figure, figure

__all__ = ["FIGURES", "SEED"]

SEED = kernels.SEED

D_KERNEL = 3  # input dimension of the kernel figure (any d: the kernels depend on norms, angle)
N_KERNEL = 6  # points of the Frobenius-error Gram matrix
WIDTHS_FAST, WIDTHS_FULL = (16, 64, 256, 1024), (16, 64, 256, 1024, 4096, 16384)
REPLICATES_FAST, REPLICATES_FULL = 4, 8  # independent slope fits
BATCH_FAST, BATCH_FULL = 16, 64  # initialisations per replicate and width
CURVE_WIDTHS = (16, 256, 4096)  # K(rho) panel: one initialisation per width
N_ANGLES = 25  # K(rho) panel: points x_theta, theta in [0, pi]

LIN_FAST, LIN_FULL = (16, 64, 256), (16, 64, 256, 1024, 4096)  # E(t) sweep widths
LIN_SEEDS_FAST, LIN_SEEDS_FULL = 2, 4
HESS_SEEDS_FAST, HESS_SEEDS_FULL = 4, 8


def _device(full: bool) -> Any:
    return resolve_device(None) if full else "cpu"  # --full: CUDA where available


def _sphere(n: int, d: int, seed: int) -> np.ndarray:
    """``n`` points on the sphere of radius ``sqrt(d)`` (the lecture's ``<w, x> ~ N(0, 1)``
    at initialisation, ``w ~ N(0, I/d)``)."""
    return lw.sphere(n, d, seed=seed)


def _rate_line(widths: np.ndarray, values: np.ndarray, slope: float) -> np.ndarray:
    """``C p^slope`` through the geometric mean of ``values`` (least squares in log space
    with the slope fixed): the rate drawn as a line, its constant not a prediction."""
    logc = float(np.mean(np.log(values) - slope * np.log(widths)))
    return np.exp(logc) * widths**slope


def _draw_kernel_width(fig: Any, full: bool, progress: bool) -> None:
    init = kernels.lecture_initialisation(D_KERNEL)
    widths = WIDTHS_FULL if full else WIDTHS_FAST
    X = _sphere(N_KERNEL, D_KERNEL, seed=5)
    fit = ks.width_convergence(init, X, widths,
                               replicates=REPLICATES_FULL if full else REPLICATES_FAST,
                               batch=BATCH_FULL if full else BATCH_FAST,
                               device=_device(full))  # fmt: skip
    ax_err, ax_k = fig.subplots(1, 2)
    p = np.array(fit.widths, dtype=float)
    rms = np.array(fit.rms)
    ax_err.loglog(p, rms, "C0o", ms=5, label="simulated: r.m.s. ||K_p - K||_F")
    ax_err.loglog(p, _rate_line(p, rms, -0.5), "k-", lw=1.2,
                  label="theory: ∝ p^(-1/2) (E||K_p - K||² = V/p)")  # fmt: skip
    ax_err.set_xlabel("width p")
    ax_err.set_ylabel("Frobenius error of the NTK Gram (6 points)")
    ax_err.set_title(f"fitted slope {float(fit.slope.mean):+.3f} ± "
                     f"{float(fit.slope.stderr):.3f} (theory -1/2)", fontsize=9)  # fmt: skip
    ax_err.legend(fontsize=7)

    r = math.sqrt(D_KERNEL)
    theta = np.linspace(0.0, math.pi, N_ANGLES)
    pts = np.zeros((N_ANGLES + 1, D_KERNEL))
    pts[0, 0] = r  # x_0 = sqrt(d) e_1; x_theta at angle theta from it, same norm
    pts[1:, 0], pts[1:, 1] = r * np.cos(theta), r * np.sin(theta)
    rho_fine = np.linspace(-1.0, 1.0, 201)
    exact_fine = kernels.kernel_numeric("ntk", init, r, r, rho_fine)
    exact = kernels.kernel_numeric("ntk", init, r, r, np.cos(theta))
    ax_k.plot(rho_fine, exact_fine, "k-", lw=1.2, label="arc-cosine NTK (solvable.models.kernels)")
    for j, width in enumerate(CURVE_WIDTHS):
        K = ks.empirical_kernels(init, pts, width, 1, seed=11 + j, device=_device(full),
                                 kernels=("ntk",))["ntk"][0]  # fmt: skip
        emp = K[0, 1:]
        err = float(np.max(np.abs(emp - exact)))
        ax_k.plot(np.cos(theta), emp, f"C{j + 1}o", ms=3.5,
                  label=f"p = {width}: one draw, max |Δ| = {err:.2g}")  # fmt: skip
    ax_k.set_xlabel("ρ = cos(x_0, x)  (|x_0| = |x| = sqrt(d))")
    ax_k.set_ylabel("K(x_0, x)")
    ax_k.set_title("empirical NTK at initialisation vs the infinite-width kernel", fontsize=9)
    ax_k.legend(fontsize=7)


def _draw_linearisation(fig: Any, full: bool, progress: bool) -> None:
    device = _device(full)
    hs = lw.hessian_sweep(WIDTHS_FULL if full else WIDTHS_FAST,
                          seeds=HESS_SEEDS_FULL if full else HESS_SEEDS_FAST,
                          device=device)  # fmt: skip
    sw = lw.linearisation_sweep(LIN_FULL if full else LIN_FAST,
                                seeds=LIN_SEEDS_FULL if full else LIN_SEEDS_FAST,
                                n_times=41 if full else 21, device=device)  # fmt: skip
    ax_h, ax_e, ax_r = fig.subplots(1, 3)
    p = np.array(hs.widths, dtype=float)
    for s in range(hs.values.shape[1]):
        ax_h.loglog(p, hs.values[:, s], "C0o", ms=3, alpha=0.6,
                    label="simulated: Lanczos on autograd HVPs" if s == 0 else None)  # fmt: skip
    ax_h.loglog(p, hs.bound, "k-", lw=1.2, label="bound (2.18): M |x|² / sqrt(p)")
    ax_h.set_title(f"||H||_op at init: slope {hs.fit.exponent:+.3f} ± {hs.fit.error:.2g}\n"
                   f"(2.17) vs Lanczos: max rel. diff {hs.formula_error:.1e}",
                   fontsize=9)  # fmt: skip
    ax_h.set_xlabel("width p")
    ax_h.legend(fontsize=7)

    q = np.array(sw.widths, dtype=float)
    for s in range(sw.sup_E.shape[1]):
        ax_e.loglog(q, sw.sup_E[:, s], "C1o", ms=3, alpha=0.6,
                    label="simulated: sup_t E(t), per init" if s == 0 else None)  # fmt: skip
    mean = sw.sup_E.mean(1)
    ax_e.loglog(q, _rate_line(q, mean, -0.5), "k-", lw=1.2,
                label="Proposition 1 rate ∝ p^(-1/2)")  # fmt: skip
    ax_e.set_title(f"linearisation error (2.32) on t in [0, {sw.horizon:g}]\n"
                   f"fitted slope {sw.fit.exponent:+.3f} ± {sw.fit.error:.2g} "
                   "(bound's rate -1/2)", fontsize=9)  # fmt: skip
    ax_e.set_xlabel("width p")
    ax_e.legend(fontsize=7)

    names = {"lazy": "e^(-λ0 t/n): (2.42) corrected", "du": "e^(-λ0 t/(2n)): Theorem 1"}
    for k, (key, name) in enumerate(names.items()):
        worst = sw.max_ratio[key].max(1)
        ax_r.semilogx(q, worst, f"C{k + 2}o-", ms=4, lw=0.8, label=name)
    ax_r.axhline(1.0, color="k", lw=1.2, label="envelope holds below 1")
    printed = float(sw.max_ratio["printed"].max())
    ax_r.set_title("max_t ||y - f(t)|| / (env(t) ||y - f(0)||), worst init\n"
                   f"(2.42) as printed, e^(-λ0 t): up to {printed:.1e}", fontsize=9)  # fmt: skip
    ax_r.set_ylim(0.0, 1.15)
    ax_r.legend(fontsize=7, loc="lower left")
    for ax, ws in ((ax_h, p), (ax_e, q), (ax_r, q)):
        ax.set_xlabel("width p")
        ax.set_xticks(ws, [f"{w:g}" for w in ws])
        ax.minorticks_off()


FIGURES: tuple[Figure, ...] = (
    figure(
        "002-kernel-width",
        SEED,
        "Sections 2.1, 2.3",
        "empirical NTK converging to the arc-cosine kernel",
        "Two-layer ReLU net (2.28), f = p^(-1/2) Σ a_j relu(<w_j, x>), a_j ~ U[-1, 1], w_j ~ "
        f"N(0, I/d), d = {D_KERNEL}. Left: r.m.s. over fresh initialisations of the Frobenius "
        f"distance between the empirical NTK Gram (both layers, autograd Jacobians; "
        f"numerics.kernel_sampling.width_convergence) on {N_KERNEL} points of the sphere of "
        "radius sqrt(d) and the closed form (solvable.models.kernels.gram), with the p^(-1/2) line "
        "(the empirical kernel is a mean of p i.i.d. unit terms, so its mean square error is "
        "V/p exactly; the constant V is fitted) and the fitted slope ± its standard error "
        "over replicates. Right: K(x_0, x) against the cosine ρ for one draw at three widths "
        "(dots) and the closed form (line). The lecture gives no sizes: default p = "
        f"{WIDTHS_FAST[0]}..{WIDTHS_FAST[-1]}, {REPLICATES_FAST} replicates x {BATCH_FAST} "
        f"initialisations; --full p up to {WIDTHS_FULL[-1]}, {REPLICATES_FULL} x {BATCH_FULL}.",
        _draw_kernel_width,
        size=(11.0, 4.0),
    ),
    figure(
        "002-linearisation-width",
        SEED,
        "Section 2.2, Prop. 1",
        "linearisation error and Hessian norm against the width",
        "Network (2.19) with tanh, a_j ~ U[-1, 1] (|a_j| <= 1), w_j ~ N(0, I/d), inputs on "
        "the sphere of radius sqrt(d) (numerics.lazy_width). Left: ||H||_op of the Hessian of "
        "f(x; .) in W at initialisation (d = 4; Lanczos on autograd Hessian-vector products, "
        "dots per initialisation) with the bound (2.18) M |x|²/sqrt(p), M = sup|tanh''| = "
        "4 sqrt(3)/9 (line). Middle: E(t) = sup_x |f - f_lin| (2.32) along the gradient flow "
        "(DOP853, n = 8 points in d = 16, y ~ N(0, 1), 32 probe inputs), its maximum over "
        "t in [0, 40], with Proposition 1's p^(-1/2) rate (an upper rate: its constant is "
        "fitted, and the measured error may fall faster). Right: the worst ratio of the "
        "training residual to the envelopes of (2.42) corrected and of Theorem 1 "
        "(solvable.linearisation.relaxation_envelope); below 1 the envelope holds (the title "
        "gives the ratio for (2.42) as printed, which fails). The lecture gives no sizes: "
        "default p = "
        f"{WIDTHS_FAST[0]}..{WIDTHS_FAST[-1]} (Hessian), {LIN_FAST[0]}..{LIN_FAST[-1]} with "
        f"{LIN_SEEDS_FAST} initialisations (flow); --full up to {WIDTHS_FULL[-1]} and "
        f"{LIN_FULL[-1]} with {LIN_SEEDS_FULL}.",
        _draw_linearisation,
        size=(14.0, 4.0),
    ),
)
