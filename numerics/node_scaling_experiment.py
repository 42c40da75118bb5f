r"""Seed 000 in simulation: Theorem 5.1 monitored along gradient flow, the feature-learning
ratios (17)/(18) against the width, and a reduced reproduction of Section 8.1.1.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Sections 5, 7.1, 8.1.1.
The network is :class:`numerics.models.NodeScaled` (eq. (2), output weights fixed, eq. (3));
its raw parameter-space flow ``dW/dt = -grad L_m`` is integrated by
:func:`numerics.torch_flow.gradient_flow` (DOP853, error control per network) or stepped by
:func:`numerics.torch_flow.gradient_descent`; the bounds come from
:mod:`solvable.models.global_convergence`, ``kappa_n`` from :func:`solvable.models.ntg.kappa_n` and
the node
scalings from :func:`solvable.models.node_scaling.node_scaling_numeric`.

* :func:`monitor_theorem_5_1`: gradient flow (not GD: Theorem 5.1 is a gradient-flow
  statement, and DOP853 at ``rtol = 1e-9`` integrates it without a step-size artefact) on
  small data satisfying Assumption 3.1 (rows uniform on the unit sphere, no noise, ``C =
  max |y_i|``); records ``L(t)``, ``eig_min Theta_m(X; W_t)``, ``max_j ||w_tj - w_0j||`` per
  node scaling and ``||Theta_m(W_t) - Theta_m(W_0)||_2`` and divides them by (b), (a), (c), (d).
* :func:`feature_learning_sweep`: ratios (17)/(18) at a training input at the end of
  gradient-flow training, for nested widths (the first ``m`` nodes of one sequence
  ``(w_0j, a_j)_{j>=1}`` per seed, as in Definition 7.1), and per-seed log-log slopes.
* :func:`section_8_1_1`: GD at learning rate 1 on the simulated data of Section 8.1.1,
  scaled down (fewer steps and repeats), with :func:`section_8_1_1_summary` (the numbers the
  paper's orderings are about); :func:`draw_section_8_1_1` draws the 4 panels of Figure 1
  with the theory (the one drawing path, used by :func:`plot_section_8_1_1` and by
  ``solvable figures``), and :func:`kernel_gd` steps the ``gamma = 1`` kernel limit.
* :func:`single_relu_experiment`: Section 8.1.2 (Figure 2), reduced by its arguments.
  Command line: ``python -m numerics.node_scaling_experiment --out DIR`` (writes JSON and the
  figure, prints the numbers).

Everything here returns numbers; the bounds, criteria and verdicts (Theorem 5.1 holding along
the flow, the feature-learning regimes told apart, the orderings of Section 8.1.1) are in
:mod:`solvable.verification.confirmations.global_convergence`.

The three experiments take ``device`` (default ``"cpu"``; ``"cuda"`` runs on a GPU), float64
throughout, ``threads`` (``torch.set_num_threads`` for the call only, restored after; ``None``
leaves it) and ``progress`` (one line per case on stderr).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from numerics.measures import (
    feature_learning_ratios,
    min_eigenvalue,
    ntk,
    ntk_node_scaled,
    relative_change,
)
from numerics.models import NodeScaled, WideTwoLayer, _activation
from numerics.torch_flow import (
    _check_threads,
    gradient_descent,
    gradient_flow,
    resolve_device,
)
from solvable._core import numbers as nb
from solvable.models import global_convergence as gcv
from solvable.models import ntg
from solvable.models.node_scaling import node_scaling_numeric, sum_of_squares_numeric, zipf

__all__ = [
    "SETTINGS_8_1_1",
    "draw_section_8_1_1",
    "feature_learning_sweep",
    "kernel_gd",
    "main",
    "monitor_table",
    "monitor_theorem_5_1",
    "nested_parameters",
    "node_scalings",
    "plot_section_8_1_1",
    "section_8_1_1",
    "section_8_1_1_summary",
    "single_relu_data",
    "single_relu_experiment",
    "sphere_data",
]

SETTINGS_8_1_1: tuple[tuple[float, float | None], ...] = ((1.0, None), (0.5, 0.7), (0.2, 0.5),
                                                          (0.0, 0.4))  # fmt: skip
"""The ``(gamma, alpha)`` pairs of Section 8.1.1 (``alpha`` unused at ``gamma = 1``)."""


MAX_STEPS = 10**7
"""The most GD steps (or kernel-GD steps, :func:`kernel_gd`) one run takes: at >= 10 us a
step (torch's small-op overhead; a kernel step is a numpy product of >= 1 us) 10**7 steps
are >= 100 s, 500 times the paper's 20000; a larger count is refused, not run for ever."""

MAX_REPEATS = 1000
"""The most repeats (fresh initialisations per setting; the paper: 5): each is one more
network per setting in the batch (Section 8.1.1) or one more full GD run (Section 8.1.2)."""

MAX_RECORDS = 10**6
"""The most record times (``n_records``, ``n_times``): each stores an NTG (and its
eigenvalues) per network; the figures use 40-120."""

MAX_HORIZON = 1400.0
"""The largest ``horizon`` of :func:`monitor_theorem_5_1`: Theorem 5.1(b)'s bound falls by
``exp(-horizon/2)``, below the float64 range (e^-745) past 1490; the ratio L / (b) is then
inf, not a number (1400 keeps a margin of e^45 for L0)."""


# ---------------------------------------------------------------------------
# validation and building blocks
# ---------------------------------------------------------------------------
def _int(name: str, value: Any, low: int = 1, high: int = nb.INT64_MAX) -> int:
    """An int in ``[low, high]``; ``high`` defaults to 2**63 - 1 (torch's and numpy's sizes
    and torch's seeds are 64-bit: a larger one has no array)."""
    return nb.check_int(name, value, low, high)


def _ints(name: str, values: Any, low: int = 1, high: int = nb.INT64_MAX) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise TypeError(f"{name} must be a non-empty sequence of ints, got "
                        f"{nb.describe(values)}")  # fmt: skip
    return tuple(_int(f"{name}[{k}]", v, low, high) for k, v in enumerate(values))


def _reals(name: str, values: Any, low: float, high: float, **kw: bool) -> tuple[float, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise TypeError(f"{name} must be a non-empty sequence of numbers, got "
                        f"{nb.describe(values)}")  # fmt: skip
    return tuple(_real(f"{name}[{k}]", v, low, high, **kw) for k, v in enumerate(values))


def _settings(settings: Any) -> tuple[tuple[float, float | None], ...]:
    """``(gamma, alpha)`` pairs: ``gamma`` in [0, 1], ``alpha`` a number or None."""
    if isinstance(settings, (str, bytes)) or not isinstance(settings, Sequence) or not settings:
        raise TypeError(f"settings must be a non-empty sequence of (gamma, alpha) pairs, got "
                        f"{nb.describe(settings)}")  # fmt: skip
    out = []
    for k, pair in enumerate(settings):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise TypeError(f"settings[{k}] must be a (gamma, alpha) pair, got "
                            f"{nb.describe(pair)}")  # fmt: skip
        g = _real(f"settings[{k}][0] (gamma)", pair[0], 0.0, 1.0)
        a = None if pair[1] is None else _real(f"settings[{k}][1] (alpha)", pair[1], 0.0, 1.0,
                                               open_low=True, open_high=True)  # fmt: skip
        out.append((g, a))
    return tuple(out)


def _record_steps(steps: int, n_records: int) -> np.ndarray:
    """Step 0 and at most ``n_records - 1`` log-spaced steps up to ``steps`` (rounded,
    duplicates dropped)."""
    record = np.unique(np.round(np.geomspace(1, steps, n_records - 1)).astype(int))
    return np.concatenate([[0], record])


def _result(result: Any, keys: tuple[str, ...], items: str, item_keys: tuple[str, ...],
            made_by: str) -> dict[str, Any]:  # fmt: skip
    """``result`` if it is a dict with ``keys`` and a non-empty list ``result[items]`` of
    dicts with ``item_keys`` (the output of ``made_by``); else a ``TypeError``."""
    want = f"result must be the dict {made_by} returns"
    if not isinstance(result, dict):
        raise TypeError(f"{want}, got {type(result).__name__} {nb.describe(result)}")
    missing = [k for k in (*keys, items) if k not in result]
    if missing:
        raise TypeError(f"{want}; it lacks {missing}")
    rows = result[items]
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        raise TypeError(f"{want}; result[{items!r}] must be a non-empty list of dicts")
    for k, r in enumerate(rows):
        lack = [key for key in item_keys if key not in r]
        if lack:
            raise TypeError(f"{want}; result[{items!r}][{k}] lacks {lack}")
    return result


def _real(name: str, value: Any, low: float, high: float, *, open_low: bool = False,
          open_high: bool = False) -> float:  # fmt: skip
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    v = float(value)
    bad_low = v <= low if open_low else v < low
    bad_high = v >= high if open_high else v > high
    if not math.isfinite(v) or bad_low or bad_high:
        lo, hi = "(" if open_low else "[", ")" if open_high else "]"
        raise ValueError(f"{name} must be in {lo}{low}, {high}{hi}, got {value!r}")
    return v


def sphere_data(n: int, d: int, *, seed: int = 0, noise: float = 0.0,
                amplitude: float = 5.0) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Section 8.1.1 data: ``x_i`` uniform on the unit sphere of R^d (normalised Gaussians),
    ``y_i = (amplitude/d) sum_j sin(pi x_ij) + noise * N(0, 1)`` (paper: amplitude 5, noise
    1).  Rows are non-zero, of norm 1 and a.s. pairwise non-parallel (Assumption 3.1)."""
    n, d = _int("n", n), _int("d", d)
    _int("n * d", n * d)  # one array of n d entries
    _int("seed", seed, 0)
    noise = _real("noise", noise, 0.0, math.inf, open_high=True)
    amplitude = _real("amplitude", amplitude, 0.0, math.inf, open_high=True)
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    X /= np.linalg.norm(X, axis=1, keepdims=True)
    y = amplitude / d * np.sin(np.pi * X).sum(1) + noise * rng.normal(size=n)
    return X, y


def node_scalings(m: int, gamma: float, alpha: float | None) -> np.ndarray:
    """``(lambda_{m,j})_{j<=m}`` of eq. (1) with Zipf weights (4) (``alpha in (0, 1)``;
    ``None`` only with ``gamma = 1``), from the generated evaluator of
    :mod:`solvable.models.node_scaling`."""
    m = _int("m", m)
    gamma = _real("gamma", gamma, 0.0, 1.0)
    if alpha is None:
        if gamma != 1:
            raise ValueError(f"alpha must be given (in (0, 1)) when gamma < 1, got gamma={gamma}")
        alpha = 0.5  # any Zipf law: its term has weight 1 - gamma = 0
    alpha = _real("alpha", alpha, 0.0, 1.0, open_low=True, open_high=True)
    j = np.arange(1, m + 1)
    lam = np.asarray(node_scaling_numeric(np.full(m, m), j, gamma, zipf(alpha)), dtype=float)
    if not np.all(np.isfinite(lam)):
        # Zipf(alpha) weights j^(-1/alpha): an alpha near 0 overflows their normalisation
        raise ValueError(f"alpha = {alpha!r} is too close to 0: the Zipf weights j^(-1/alpha) "
                         f"leave the float64 range (alpha must be in (0, 1))")  # fmt: skip
    return lam


def nested_parameters(
    lams: Sequence[np.ndarray],
    d: int,
    seeds: Sequence[int],
    *,
    max_width: int | None = None,
    device: Any = "cpu",
) -> dict[str, Any]:
    """Parameters of :class:`numerics.models.NodeScaled` for a batch of networks ``b`` with
    node scalings ``lams[b]`` (all of one width ``m``) and seeds ``seeds[b]``: the first
    ``m`` nodes of one sequence ``w_0j ~ N(0, I_d)``, ``a_j`` uniform on {-1, 1} (Assumption
    3.3, eq. (3)) drawn for ``max_width`` nodes from ``seeds[b]``, so that networks of
    different widths with one seed share their first nodes (Definition 7.1).  float64."""
    import torch

    d = _int("d", d)
    seeds = _ints("seeds", seeds, 0, 2**64 - 1)  # torch's generator: [0, 2**64 - 1]
    if isinstance(lams, (str, bytes)) or not isinstance(lams, (Sequence, np.ndarray)):
        raise TypeError(f"lams must be a sequence of node-scaling arrays, got "
                        f"{nb.describe(lams)}")  # fmt: skip
    if len(lams) != len(seeds):
        raise ValueError(f"lams and seeds must have one entry per network, got {len(lams)} "
                         f"and {len(seeds)}")  # fmt: skip
    lam = nb.check_float_array("lams", [np.asarray(v).tolist() for v in lams], ndim=2)
    if np.any(lam < 0):
        raise ValueError("lams must be equal-length arrays of finite node scalings >= 0")
    m = lam.shape[1]
    top = m if max_width is None else _int("max_width", max_width)
    if top < m:
        raise ValueError(f"max_width must be >= the width {m}, got {max_width}")
    _int("max_width * d", top * d)  # one draw of top x d weights per seed
    Ws, As = [], []
    for s in seeds:
        gen = torch.Generator().manual_seed(s)
        Ws.append(torch.randn((top, d), generator=gen, dtype=torch.float64)[:m])
        As.append((torch.randint(0, 2, (top,), generator=gen) * 2 - 1).to(torch.float64)[:m])
    dev = resolve_device(device)
    out = {"W": torch.stack(Ws), "a": torch.stack(As), "s": torch.as_tensor(np.sqrt(lam))}
    return {k: v.to(device=dev, dtype=torch.float64) for k, v in out.items()}


def _finite(t: Any) -> Any:
    """``t`` if finite; else ``ArithmeticError`` (GD diverged: the loss or the NTG left the
    float64 range), before a measure meets the non-finite numbers."""
    import torch

    if not bool(torch.isfinite(t).all()):
        raise ArithmeticError("the loss or the NTG left the finite numbers")
    return t


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, file=sys.stderr, flush=True)


def _ntg(model: Any, p: Any) -> Any:
    return ntk_node_scaled(model, p)


def _model(X: np.ndarray, y: np.ndarray, activation: str) -> Any:
    """:class:`numerics.models.NodeScaled` (rate 1) with the hand-written gradient of its
    loss, ``dL/dw_j = -sqrt(lambda_j) a_j / sqrt(d) sum_i r_i sigma'(Z_j(x_i)) x_i``
    (Section 3.2; tested against autograd of the same loss), which the integrators use
    instead of autograd (about half the cost per evaluation on small networks)."""

    class NodeScaledGradient(NodeScaled):
        def gradient(self, p: dict[str, Any]) -> dict[str, Any]:
            import torch

            X, y = self._t("X", p["W"]), self._t("y", p["W"])
            sigma, dsigma = _activation(self.activation)
            Z = self.preactivations(p, X)  # (B, n, m)
            sa = (p["s"] * p["a"])[:, None, :]
            r = y - (sigma(Z) * sa).sum(-1)  # (B, n)
            coef = r[:, :, None] * dsigma(Z) * sa / math.sqrt(X.shape[-1])
            return {"W": -coef.transpose(1, 2) @ X, "a": torch.zeros_like(p["a"]),
                    "s": torch.zeros_like(p["s"])}  # fmt: skip

    return NodeScaledGradient(X, y, activation=activation, eta=1.0)


class _Threads:
    """Scoped ``torch.set_num_threads`` (``None``: leave it); restored on exit."""

    def __init__(self, n: int | None):
        self.n = None if n is None else _check_threads("threads", n)

    def __enter__(self) -> None:
        import torch

        self.old = torch.get_num_threads()
        if self.n is not None:
            torch.set_num_threads(self.n)

    def __exit__(self, *exc: Any) -> None:
        import torch

        torch.set_num_threads(self.old)


def _scoped_threads(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run ``fn`` with its keyword ``threads`` applied by :class:`_Threads`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with _Threads(kwargs.get("threads")):
            return fn(*args, **kwargs)

    return wrapper


def kernel_gd(
    K: np.ndarray,
    r0: np.ndarray,
    lr: float,
    record_steps: Sequence[int],
    *,
    K_cross: np.ndarray | None = None,
    f0_cross: np.ndarray | None = None,
    y_cross: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """Gradient descent on the linear (kernel) model with a fixed NTG ``K`` (n, n): the
    infinite-width limit of eq. (2) at ``gamma = 1`` (Proposition 4.3: the NTG is the
    constant mean NTG), stepped exactly as the network is, ``f <- f + lr K (y - f)`` on the
    training inputs and ``f(x) <- f(x) + lr K(x, X) (y - f)`` at other inputs (eq. (8)
    with the linearised output).  Simulated, not a closed form: ``r <- (I - lr K) r``.

    ``r0`` (R, n): initial residuals ``y - f_0`` (one row per network); ``K_cross``
    (n_test, n), ``f0_cross`` (R, n_test), ``y_cross`` (n_test,): optional other inputs.
    Returns ``"risk"`` (T, R) ``|r|^2/n`` at ``record_steps`` and, with ``K_cross``,
    ``"test"`` (T, R), the mean squared error on the other inputs.  ``record_steps``: sorted
    ints in ``[0, MAX_STEPS]`` (a work cap: the steps run one by one).  An ``lr`` at which
    GD diverges (``lr >= 2 / lambda_max(K)``) so far that the residual leaves the float64
    range is a ``ValueError``."""
    K = nb.check_float_array("K", K, ndim=2)
    r = nb.check_float_array("r0", r0, ndim=(1, 2))
    r = r[None] if r.ndim == 1 else r
    if K.shape != (r.shape[1], r.shape[1]):
        raise ValueError(f"K must be (n, n) with n = r0.shape[-1] = {r.shape[1]}, got {K.shape}")
    lr = _real("lr", lr, 0.0, math.inf, open_low=True, open_high=True)
    if isinstance(record_steps, (str, bytes)) or not isinstance(
        record_steps, (Sequence, np.ndarray)
    ):
        raise TypeError(f"record_steps must be a sequence of sorted ints >= 0, got "
                        f"{nb.describe(record_steps)}")  # fmt: skip
    listed = record_steps.tolist() if isinstance(record_steps, np.ndarray) else record_steps
    steps = np.array(_ints("record_steps", listed, 0, MAX_STEPS), dtype=np.int64)
    if np.any(np.diff(steps) < 0):
        raise ValueError(f"record_steps must be sorted integers >= 0, got {record_steps!r:.80}")
    cross = K_cross is not None
    if cross:
        Kc = nb.check_float_array("K_cross", K_cross, ndim=2)
        f = nb.check_float_array("f0_cross", f0_cross, ndim=(1, 2))
        f = f[None] if f.ndim == 1 else f
        yc = nb.check_float_array("y_cross", y_cross, ndim=1)
        if Kc.shape != (yc.shape[0], K.shape[0]) or f.shape != (r.shape[0], yc.shape[0]):
            raise ValueError(f"K_cross (n_test, n), f0_cross (R, n_test), y_cross (n_test,) "
                             f"disagree (n, R from K and r0 {r.shape}): {Kc.shape}, "
                             f"{f.shape}, {yc.shape}")  # fmt: skip
    risk, test = [], []
    k = 0
    with np.errstate(over="ignore", invalid="ignore"):  # a divergence is refused below
        for target in steps:
            while k < target:
                if cross:
                    f += lr * r @ Kc.T
                r = r - lr * r @ K  # K symmetric
                k += 1
                # stop at the first step that leaves the float64 range (O(R n) against the
                # step's O(R n^2)), not after every requested step on inf and NaN
                if not np.isfinite(r).all() or (cross and not np.isfinite(f).all()):
                    break
            risk.append((r**2).mean(1))
            if cross:
                test.append(((f - yc) ** 2).mean(1))
            if not all(np.all(np.isfinite(v[-1])) for v in ([risk, test] if cross else [risk])):
                lam_max = float(np.max(np.abs(np.linalg.eigvalsh((K + K.T) / 2))))
                raise ValueError(
                    f"lr = {lr!r} makes GD diverge past the float64 range at step {k} (the "
                    f"residual grows by |1 - lr lambda| a step; stable for lr < 2 / "
                    f"lambda_max(K) = {2 / lam_max if lam_max else math.inf:.4g})")  # fmt: skip
    out = {"risk": np.array(risk)}
    if cross:
        out["test"] = np.array(test)
    return out


# ---------------------------------------------------------------------------
# Theorem 5.1 monitored along gradient flow
# ---------------------------------------------------------------------------
@_scoped_threads
def monitor_theorem_5_1(
    *,
    n: int = 10,
    d: int = 5,
    data_seed: int = 1,
    gammas: Sequence[float] = (1.0, 0.5, 0.2),
    alpha: float = 0.5,
    widths: Sequence[int] = (100, 1000, 4000),
    seeds: Sequence[int] = (0, 1),
    delta: float = 0.1,
    horizon: float = 10.0,
    n_times: int = 120,
    rtol: float = 1e-9,
    activation: str = "swish",
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Gradient flow of eq. (2) to ``t_end = horizon/(gamma kappa_n)`` (so the bound (b)
    falls by ``exp(-horizon/2)``) for each ``gamma``, width and seed, on
    :func:`sphere_data` (no noise); returns plain numbers (JSON-serialisable): the
    constants, Theorem 5.1's width condition, and per case the ratios ``max_t L/(b)``,
    ``min_t eig_min/(a)``, ``max_{t,j} ||w_tj - w_0j||/(c)`` (also against the pre-Markov
    step ``weight_given_loss``) and ``max_t ||Theta_t - Theta_0||_2/(d)``.  ``horizon`` in
    ``(0, MAX_HORIZON]``, ``n_times`` in ``[2, MAX_RECORDS]``."""
    import torch

    gammas = _reals("gammas", gammas, 0.0, 1.0, open_low=True)
    widths = _ints("widths", widths)
    seeds = _ints("seeds", seeds, 0, 2**64 - 1)
    horizon = _real("horizon", horizon, 0.0, MAX_HORIZON, open_low=True)
    n_times = _int("n_times", n_times, 2, MAX_RECORDS)
    _int("data_seed", data_seed, 0)
    nb.check_flag("progress", progress)
    X, y = sphere_data(n, d, seed=data_seed)
    model = _model(X, y, activation)
    out: dict[str, Any] = {"n": n, "d": d, "data_seed": data_seed, "alpha": alpha,
                           "delta": delta, "activation": activation, "rtol": rtol,
                           "horizon": horizon, "cases": []}  # fmt: skip
    kappa = None
    for gamma in gammas:
        consts = gcv.Constants.from_data(X, y, activation, gamma, delta, kappa_n=kappa)
        kappa = consts.kappa_n
        out.update(kappa_n=kappa, C=consts.C, C1=consts.C1, M=consts.M)
        try:
            width_terms = [float(v) for v in gcv.width_terms_numeric(consts)]
        except ValueError as exc:  # log(1/delta) / gamma terms beyond float64
            raise ValueError(
                f"delta = {delta!r} with gammas[k] = {gamma!r}: the width "
                f"condition leaves float64: {exc}"
            ) from exc
        t_end = horizon / (gamma * kappa)
        early = np.geomspace(1e-3, 1, 20) * t_end / n_times  # resolve the start
        times = np.unique(np.concatenate([np.linspace(0, t_end, n_times), early]))
        a_bound = float(gcv.eig_min_bound_numeric(consts))
        for m in widths:
            lam = node_scalings(m, gamma, alpha)
            p0 = nested_parameters([lam] * len(seeds), d, seeds, device=device)
            K0 = _ntg(model, p0)
            W0 = p0["W"]
            inv_sqrt_lam = torch.as_tensor(1 / np.sqrt(lam), dtype=W0.dtype, device=W0.device)

            def moved(p, rows, W0=W0):
                return torch.linalg.vector_norm(p["W"] - W0[rows], dim=-1)  # (k, m)

            measures = {
                "loss": lambda p, rows: model.loss(p),
                "eig_min": lambda p, rows: min_eigenvalue(_ntg(model, p)),
                "ntg_change": lambda p, rows, K0=K0: torch.linalg.matrix_norm(
                    _ntg(model, p) - K0[rows], ord=2),
                "move_scaled": lambda p, rows, f=moved, s=inv_sqrt_lam: (f(p, rows) * s).amax(-1),
                "move_max": lambda p, rows, f=moved: f(p, rows).amax(-1),
            }  # fmt: skip
            start = time.perf_counter()
            res = gradient_flow(model, p0, times, rtol=rtol, measures=measures,
                                keep_params=False, device=device, max_steps=400_000)  # fmt: skip
            seconds = time.perf_counter() - start
            meas = {k: v.detach().cpu().numpy() for k, v in res.measures.items()}  # (T, B)
            L = meas["loss"]
            L0 = L[0]
            b_bound = np.asarray(gcv.loss_bound_numeric(consts, times[:, None], L0[None, :]))
            c_unit = float(gcv.weight_bound_numeric(consts, 1.0))  # (c) = c_unit sqrt(lambda)
            c_loss_unit = np.asarray(gcv.weight_bound_given_loss_numeric(consts, L0, 1.0))
            d_bound = float(gcv.ntg_change_bound_numeric(
                consts, sum_of_squares_numeric(m, gamma, zipf(alpha))))  # fmt: skip
            pos = times > 0
            case = {
                "gamma": gamma, "width": m, "seeds": list(seeds), "t_end": t_end,
                "seconds": seconds, "steps": [int(s) for s in res.steps.cpu()],
                "L0": L0.tolist(), "L_end": L[-1].tolist(),
                "eig_min_bound": a_bound,
                "eig_min_min": meas["eig_min"].min(0).tolist(),
                "eig_min_over_bound_min": (meas["eig_min"].min(0) / a_bound).tolist(),
                "loss_over_bound_max": (L[pos] / b_bound[pos]).max(0).tolist(),
                "weight_bound_unit": c_unit,
                "move_max": meas["move_max"].max(0).tolist(),
                "move_over_bound_max": (meas["move_scaled"].max(0) / c_unit).tolist(),
                "move_over_bound_given_loss_max":
                    (meas["move_scaled"].max(0) / c_loss_unit).tolist(),
                "ntg_change_bound": d_bound,
                "ntg_change_max": meas["ntg_change"].max(0).tolist(),
                "ntg_change_over_bound_max": (meas["ntg_change"].max(0) / d_bound).tolist(),
                "width_terms": width_terms,
                "width_condition": max(width_terms),
            }  # fmt: skip
            out["cases"].append(case)
            _say(progress, f"monitor gamma={gamma:g} m={m}: {seconds:.1f} s")
    return out


def monitor_table(result: dict[str, Any]) -> str:
    """The measured ratios of :func:`monitor_theorem_5_1`, one line per case (numbers only:
    the bounds are judged in :mod:`solvable.verification.confirmations.global_convergence`): ``min_t
    eig_min/(a)``, ``max_t L/(b)``, ``max ||w_tj - w_0j||/(c)`` (and over the pre-Markov step),
    ``max ||Theta_t - Theta_0||_2/(d)`` and the width condition."""
    _result(result, (), "cases", ("gamma", "width", "eig_min_over_bound_min",
                                  "loss_over_bound_max", "move_over_bound_max",
                                  "move_over_bound_given_loss_max", "ntg_change_over_bound_max",
                                  "width_condition"), "monitor_theorem_5_1")  # fmt: skip
    lines = [
        f"gamma={c['gamma']:g} m={c['width']}: min_t eig_min/(a) = "
        f"{min(c['eig_min_over_bound_min']):.3g}, max_t L/(b) = {max(c['loss_over_bound_max']):.3g}"
        f", max ||dw_j||/(c) = {max(c['move_over_bound_max']):.2e} (/pre-Markov step "
        f"{max(c['move_over_bound_given_loss_max']):.3g}), max ||dTheta||_2/(d) = "
        f"{max(c['ntg_change_over_bound_max']):.2e}; width condition m >= "
        f"{c['width_condition']:.2e}"
        for c in result["cases"]
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Definitions 7.1 / 7.3 against the width
# ---------------------------------------------------------------------------
def _slope(widths: np.ndarray, values: np.ndarray) -> float:
    """Least-squares slope of log(values) on log(widths)."""
    return float(np.polyfit(np.log(widths), np.log(values), 1)[0])


@_scoped_threads
def feature_learning_sweep(
    *,
    n: int = 10,
    d: int = 5,
    data_seed: int = 1,
    gammas: Sequence[float] = (1.0, 0.5, 0.2),
    alpha: float = 0.5,
    widths: Sequence[int] = (100, 400, 1600, 6400),
    seeds: Sequence[int] = (0, 1, 2, 3, 4),
    horizon: float = 10.0,
    input_index: int = 0,
    rtol: float = 1e-8,
    activation: str = "swish",
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Ratios (17) and (18) at ``x = X[input_index]`` after gradient flow to ``t_end =
    horizon/(gamma kappa_n)``, for nested widths per seed; per gamma and seed the log-log
    slopes of both ratios against ``m`` (plain numbers, JSON-serialisable).  ``horizon``
    finite and > 0 (``t_end`` must be a finite time)."""
    gammas = _reals("gammas", gammas, 0.0, 1.0, open_low=True)
    widths = _ints("widths", widths)
    seeds = _ints("seeds", seeds, 0, 2**64 - 1)
    if len(widths) < 2:
        raise ValueError(f"widths must hold at least 2 widths for a slope, got {widths}")
    horizon = _real("horizon", horizon, 0.0, math.inf, open_low=True, open_high=True)
    _int("data_seed", data_seed, 0)
    nb.check_flag("progress", progress)
    X, y = sphere_data(n, d, seed=data_seed)
    _int("input_index", input_index, 0)
    if input_index >= n:
        raise ValueError(f"input_index must be in 0..{n - 1}, got {input_index}")
    x = X[input_index]
    kappa = float(ntg.kappa_n(X, activation))
    model = _model(X, y, activation)
    top = max(widths)
    out: dict[str, Any] = {"n": n, "d": d, "data_seed": data_seed, "alpha": alpha,
                           "kappa_n": kappa, "horizon": horizon, "input_index": input_index,
                           "widths": list(widths), "seeds": list(seeds), "gammas": []}  # fmt: skip
    for gamma in gammas:
        t_end = horizon / (gamma * kappa)
        if not math.isfinite(t_end):
            raise ValueError(f"horizon = {horizon!r} with gamma = {gamma!r}: t_end = horizon "
                             f"/ (gamma kappa_n) is not a finite time (kappa_n = "
                             f"{kappa:.4g})")  # fmt: skip
        sums, maxes, losses, losses0 = [], [], [], []
        for m in widths:
            lam = node_scalings(m, gamma, alpha)
            p0 = nested_parameters([lam] * len(seeds), d, seeds, max_width=top, device=device)
            res = gradient_flow(model, p0, [0.0, t_end], rtol=rtol, device=device,
                                max_steps=400_000)  # fmt: skip
            p_end = {k: v[-1] for k, v in res.params.items()}
            r_sum, r_max = feature_learning_ratios(model, p_end, p0, x)
            sums.append(r_sum.cpu().numpy())
            maxes.append(r_max.cpu().numpy())
            losses.append(model.loss(p_end).detach().cpu().numpy())
            losses0.append(model.loss(p0).detach().cpu().numpy())
        S, Mx = np.array(sums), np.array(maxes)  # (widths, seeds)
        if not (np.all(S > 0) and np.all(Mx > 0)):  # log 0: no slope
            raise ValueError(f"horizon = {horizon!r} is too short: some weights did not move "
                             f"in float64 by t_end = {t_end:.3g} (a ratio of 0 has no log-log "
                             f"slope)")  # fmt: skip
        w = np.array(widths, dtype=float)
        _say(progress, f"features gamma={gamma:g} done")
        out["gammas"].append({
            "gamma": gamma, "t_end": t_end,
            "sum_ratio": S.tolist(), "max_ratio": Mx.tolist(),
            "loss_0": np.array(losses0).tolist(), "loss_end": np.array(losses).tolist(),
            "sum_slopes": [_slope(w, S[:, k]) for k in range(len(seeds))],
            "max_slopes": [_slope(w, Mx[:, k]) for k in range(len(seeds))],
        })  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# Section 8.1.1, reduced
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# Section 8.1.2, reduced: a single ReLU unit
# ---------------------------------------------------------------------------
def single_relu_data(n: int, d: int, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Section 8.1.2's data: ``x ~ N(0, I_d)``, ``y = relu(w_0^T x)``, ``w_0 = (1, ..., 1)``
    (as printed: no ``1/sqrt(d)``), ``n`` points from ``seed``."""
    n, d = _int("n", n), _int("d", d)
    _int("seed", seed, 0)
    X = np.random.default_rng(seed).normal(size=(n, d))
    return X, np.maximum(X.sum(1), 0.0)


def _pytorch_default(m: int, d: int, seed: int, device: Any) -> dict[str, Any]:
    """``nn.Linear``'s default initialisation (Kaiming-uniform with ``a = sqrt(5)``, i.e.
    ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``) of both layers, without biases: ``W`` (1, m, d),
    ``a`` (1, m)."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    W = (2 * torch.rand((1, m, d), generator=gen, dtype=torch.float64) - 1) / math.sqrt(d)
    a = (2 * torch.rand((1, m), generator=gen, dtype=torch.float64) - 1) / math.sqrt(m)
    dev = resolve_device(device)
    return {"W": W.to(dev), "a": a.to(dev)}


def _error_measures(model: Any, to_risk: float, X_test: Any, y_test: Any) -> dict[str, Any]:
    """Measures for :func:`gradient_descent`: ``"train"`` = ``to_risk * loss`` (the mean
    squared training residual) and ``"test"`` = the mean squared error on ``X_test``."""

    def train(p: Any, rows: Any) -> Any:
        return to_risk * model.loss(p)

    def test(p: Any, rows: Any) -> Any:
        return ((model.output(p, X_test) - y_test) ** 2).mean(-1)

    return {"train": train, "test": test}


@_scoped_threads
def single_relu_experiment(
    *,
    n: int = 100,
    d: int = 10,
    width: int = 2000,
    n_test: int = 5000,
    steps: int = 20000,
    repeats: int = 5,
    settings: Sequence[tuple[float, float | None]] = SETTINGS_8_1_1,
    pytorch_default: bool = True,
    activation: str = "relu",
    n_records: int = 40,
    data_seed: int = 0,
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Section 8.1.2: full-batch GD on :func:`single_relu_data` (``n`` train, ``n_test``
    test points, resampled per repeat from ``data_seed + 1000 r``) for the node-scaled
    network (2) of width ``width`` with each ``(gamma, alpha)`` of ``settings`` (output
    weights fixed, eq. (3)), and with ``pytorch_default`` the standard two-layer network
    ``sum_j a_j sigma(w_j^T x)`` (:class:`numerics.models.WideTwoLayer`, ``scale = 1``)
    with ``nn.Linear``'s default initialisation, both layers trained.

    Learning rates (the paper states none): node-scaled nets ``lr = d/lambda_max(X X^T)``
    on ``L = 1/2 sum r^2``: with ``|sigma'| <= 1`` (relu) the NTG (7) is a convex
    combination of ``D X X^T D/d`` (``D`` diagonal in ``[0, 1]``), so ``lambda_max(lr NTG)
    <= 1 < 2`` at every ``W`` (GD stays stable).  The standard network: ``lr = n /
    lambda_max(K_0)`` on ``R = 1/(2n) sum r^2``, ``K_0`` its empirical NTK at
    initialisation (:func:`numerics.measures.ntk`).

    Recorded at step 0 and at most ``n_records - 1`` log-spaced steps (the rounded steps,
    duplicates dropped): the training risk ``(1/n) sum r_i^2`` and the test MSE; and, for
    ``gamma = 1``, the infinite-width limit of the same GD (:func:`kernel_gd` with the mean
    NTG :func:`solvable.models.ntg.mean_ntg`, Proposition 4.3) from each network's own initial
    outputs on train and test.  Plain numbers.  Work caps: ``steps`` at most
    :data:`MAX_STEPS`, ``repeats`` at most :data:`MAX_REPEATS`, ``n_records`` at most
    :data:`MAX_RECORDS`; repeat ``r`` draws its data from ``data_seed + 1000 r`` (an int
    ``<= 2**63 - 1``)."""
    import torch

    n, d, width = _int("n", n), _int("d", d), _int("width", width)
    n_test = _int("n_test", n_test)
    steps = _int("steps", steps, 1, MAX_STEPS)
    repeats = _int("repeats", repeats, 1, MAX_REPEATS)
    n_records = _int("n_records", n_records, 2, MAX_RECORDS)
    _int("data_seed", data_seed, 0, nb.INT64_MAX - 1000 * repeats)
    _int("n_test * d", n_test * d)
    settings = _settings(settings)
    nb.check_flag("pytorch_default", pytorch_default)
    nb.check_flag("progress", progress)
    record = _record_steps(steps, n_records)
    labels = [f"γ={g:g}" + ("" if a is None else f", α={a:g}") for g, a in settings]
    if pytorch_default:
        labels.append("pytorch default init")
    out: dict[str, Any] = {"n": n, "d": d, "width": width, "n_test": n_test, "steps": steps,
                           "repeats": repeats, "activation": activation,
                           "data_seed": data_seed, "record_steps": record.tolist(),
                           "labels": labels, "lr": [], "lr_pytorch": [],
                           "train": [[] for _ in labels], "test": [[] for _ in labels],
                           "kernel_limit_train": [], "kernel_limit_test": [],
                           "trivial_test": []}  # fmt: skip
    dev = resolve_device(device)
    for rep in range(repeats):
        start = time.perf_counter()
        X, y = single_relu_data(n, d, seed=data_seed + 1000 * rep)
        Xt, yt = single_relu_data(n_test, d, seed=data_seed + 1000 * rep + 1)
        Xt_t = torch.as_tensor(Xt, dtype=torch.float64, device=dev)
        yt_t = torch.as_tensor(yt, dtype=torch.float64, device=dev)
        X_t = torch.as_tensor(X, dtype=torch.float64, device=dev)
        out["trivial_test"].append(float(np.mean(yt**2)))  # the zero predictor

        model = _model(X, y, activation)
        lams = [node_scalings(width, g, a) for g, a in settings]
        p0 = nested_parameters(lams, d, [rep * 100 + k for k in range(len(settings))],
                               device=dev)  # fmt: skip
        lr = float(d / np.linalg.eigvalsh(X @ X.T)[-1])
        with torch.no_grad():
            f0 = model.output(p0, X_t).cpu().numpy()
            f0_test = model.output(p0, Xt_t).cpu().numpy()
        res = gradient_descent(model, p0, lr, record, keep_params=False, device=dev,
                               measures=_error_measures(model, 2 / n, Xt_t, yt_t))  # fmt: skip
        for k in range(len(settings)):
            out["train"][k].append(res.measures["train"][:, k].cpu().numpy().tolist())
            out["test"][k].append(res.measures["test"][:, k].cpu().numpy().tolist())
        out["lr"].append(lr)
        ones = [k for k, (g, _) in enumerate(settings) if g == 1]
        if ones:
            k = ones[0]
            Xall = np.vstack([X, Xt])
            theta = ntg.mean_ntg(Xall, activation)  # the limiting NTK (gamma = 1)
            lim = kernel_gd(theta[:n, :n], (y - f0[k])[None], lr, record, K_cross=theta[n:, :n],
                            f0_cross=f0_test[k][None], y_cross=yt)  # fmt: skip
            out["kernel_limit_train"].append(lim["risk"][:, 0].tolist())
            out["kernel_limit_test"].append(lim["test"][:, 0].tolist())
        if pytorch_default:
            std = WideTwoLayer(X, y, activation=activation, scale=1.0)
            q0 = _pytorch_default(width, d, 7919 + rep, dev)
            lam_pt = float(torch.linalg.eigvalsh(ntk(std, q0, X))[0, -1])
            if not lam_pt > 0:
                raise ValueError(f"pytorch_default: the standard network's NTK at "
                                 f"initialisation is zero in repeat {rep} (every ReLU unit "
                                 f"dead on the data: width = {width}, data_seed = "
                                 f"{data_seed}, repeats = {repeats}), so n / lambda_max(K_0) "
                                 f"is no step; take a larger width")  # fmt: skip
            lr_pt = n / lam_pt
            res = gradient_descent(std, q0, lr_pt, record, keep_params=False, device=dev,
                                   measures=_error_measures(std, 2.0, Xt_t, yt_t))  # fmt: skip
            out["train"][-1].append(res.measures["train"][:, 0].cpu().numpy().tolist())
            out["test"][-1].append(res.measures["test"][:, 0].cpu().numpy().tolist())
            out["lr_pytorch"].append(lr_pt)
        _say(progress, f"8.1.2 repeat {rep}: {time.perf_counter() - start:.1f} s")
    return out


# ---------------------------------------------------------------------------
# command line
# ---------------------------------------------------------------------------
class ArgvError(ValueError):
    """A command line :func:`main` cannot parse (the message names ``argv``)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse exits; a caller of main gets this
        raise ArgvError(f"argv: {message}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m numerics.node_scaling_experiment",
        description="Seed 000: Section 8.1.1 reduced (default), Theorem 5.1 monitoring, "
        "feature-learning ratios against the width.",
    )
    p.add_argument("--out", required=True, help="output directory (JSON + PNG)")
    p.add_argument("--steps", type=int, default=2000, help="GD steps (Section 8.1.1)")
    p.add_argument("--widths", type=int, nargs="+", default=[2000], help="widths (8.1.1)")
    p.add_argument("--repeats", type=int, default=1, help="initialisations per setting")
    p.add_argument("--lr", type=float, default=1.0, help="GD learning rate (paper: 1.0)")
    p.add_argument("--device", default="cpu", help="cpu, cuda or cuda:k")
    p.add_argument("--threads", type=int, default=1, help="torch threads (1: best on a busy CPU)")
    p.add_argument("--quick", action="store_true", help="seconds: n=20, d=10, m=100, 60 steps")
    p.add_argument("--part", choices=("8.1.1", "monitor", "features", "all"), default="8.1.1",
                   help="which experiment(s) to run")  # fmt: skip
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the experiments; write ``section_8_1_1.json`` / ``.png``, ``monitor.json``,
    ``feature_learning.json`` under ``--out``; print the summaries.  ``argv``: the
    arguments (strings; ``None``: ``sys.argv[1:]``); one it cannot parse is an
    :class:`ArgvError` (a ``ValueError`` naming ``argv``; the command line prints the usage
    and exits with status 2 instead)."""
    if argv is None:
        argv = sys.argv[1:]
    if (
        isinstance(argv, (str, bytes))
        or not isinstance(argv, Sequence)
        or not all(isinstance(a, str) for a in argv)
    ):
        raise TypeError(f"argv must be a sequence of strings, got {nb.describe(argv)}")
    args = _parser().parse_args(list(argv))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.part in ("8.1.1", "all"):
        if args.quick:
            kw = {"n": 20, "d": 10, "widths": (100,), "steps": 60, "repeats": 1,
                  "n_records": 12}  # fmt: skip
        else:
            kw = {"widths": tuple(args.widths), "steps": args.steps, "repeats": args.repeats}
        res = section_8_1_1(lr=args.lr, device=args.device, threads=args.threads,
                            progress=True, **kw)  # fmt: skip
        (out / "section_8_1_1.json").write_text(json.dumps(res))
        plot_section_8_1_1(res, out / "section_8_1_1.png")
        print(json.dumps(res["summary"], indent=1))
    if args.part in ("monitor", "all"):
        kw = ({"n": 6, "d": 3, "gammas": (1.0, 0.5), "widths": (100,), "seeds": (0,),
               "horizon": 4.0} if args.quick else {})  # fmt: skip
        res = monitor_theorem_5_1(device=args.device, threads=args.threads, progress=True, **kw)
        (out / "monitor.json").write_text(json.dumps(res))
        print(monitor_table(res))
    if args.part in ("features", "all"):
        kw = ({"n": 6, "d": 3, "gammas": (1.0, 0.5), "widths": (50, 200), "seeds": (0, 1),
               "horizon": 4.0} if args.quick else {})  # fmt: skip
        res = feature_learning_sweep(device=args.device, threads=args.threads, progress=True, **kw)
        (out / "feature_learning.json").write_text(json.dumps(res))
        for g in res["gammas"]:
            print(f"gamma={g['gamma']:g}: per-seed slopes of (17) {np.round(g['sum_slopes'], 3)}"
                  f", of (18) {np.round(g['max_slopes'], 3)}")  # fmt: skip
    return 0


def _cli() -> int:  # pragma: no cover
    """``python -m``: a bad command line prints the usage and exits with status 2."""
    try:
        return main()
    except ArgvError as exc:
        _parser().print_usage(sys.stderr)
        print(f"{_parser().prog}: error: {str(exc).removeprefix('argv: ')}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(_cli())
