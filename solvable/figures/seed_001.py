"""Seed 001 (Xu & Ziyin, "When does feature learning happen?"): Figure 1, the alignment
``zeta(t)`` between the two layers of a two-layer linear (a, b) and ReLU (c, d) network.

Appendix B's setup: (a), (b) one data point ``x = 1``, ``y = 2``, ``L = (f - y)^2``,
``f = gamma u^T W x``; ``gamma = 1/sqrt(d)`` in the kernel phase and ``1/d`` otherwise;
(a) i.i.d. ``N(0, 1)`` weights, (b) ``u ~ N(0, 10 I)``, ``w ~ u + N(0, 0.1 I)``; (c), (d)
the ReLU net ``f(x) = gamma u^T relu(w x)`` on 100 points, ``y = 2x + noise``, initialised
as (a) and (b).  The paper uses ``d = 10000``; the default here is ``d = 1000``.

Theory: :func:`solvable.xu_ziyin.closed_form` (Theorem 1, the paper's eq. (21) for zeta).
For the ReLU net with scalar inputs it is exact as well, as long as no hidden weight ``w_i``
changes sign: a unit with ``w_i > 0`` is linear on the points ``x_n > 0`` and silent on the
others (and the reverse for ``w_i < 0``), so the loss splits into two independent linear
nets of Theorem 1, one per sign, each on the single equivalent point ``x' = |x_+|``,
``y' = <x_+, y_+>/|x_+|`` (``sum_n (c x_n - y_n)^2 = (c x' - y')^2 + const``).  The figures
draw the theory solid while no ``w_i`` has changed sign (read off the closed form) and
dashed after.  Simulation: :func:`numerics.simulate` (linear, torch DOP853) and
:func:`numerics.torch_flow.gradient_flow` on :class:`numerics.models.WideTwoLayer` (ReLU).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

import numerics
from numerics.models import WideTwoLayer
from numerics.torch_flow import gradient_descent, resolve_device
from solvable import xu_ziyin as xz
from solvable.figures._common import Figure, figure

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


def _init(kind: str, d: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(u0, w0)``: ``"iid"`` (Figure 1(a)/(c): N(0, 1)), ``"near"`` (1(b)/(d): u ~ N(0, 10),
    w = u + N(0, 0.1)) or ``"parallel"`` (1(d): w = u)."""
    rng = np.random.default_rng(seed)
    if kind == "iid":
        return rng.standard_normal(d), rng.standard_normal(d)
    u = math.sqrt(10.0) * rng.standard_normal(d)
    if kind == "parallel":
        return u, u.copy()
    return u, u + math.sqrt(0.1) * rng.standard_normal(d)


def _gammas(d: int) -> dict[str, float]:
    return {"1/d": 1.0 / d, "1/sqrt(d)": 1.0 / math.sqrt(d)}


def _draw_linear(fig: Any, full: bool, kind: str) -> None:
    d = _width(full)
    u0, w0 = _init(kind, d, seed=0)
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
        u0, w0 = _init(kind, d, seed=0)
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
)
