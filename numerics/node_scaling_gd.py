r"""Seed 000 by gradient descent: the first GD step of the zeroed model (Theorems 7.9, 7.10),
Theorem 6.1 monitored step by step, and the mean-field linear network (Theorem 7.5, second
bullet).

Source: seed ``000_f57230b12d385b63.txt``, Sections 3.2 (eq. (8)), 6, 7.2, 7.3.  Every
gradient here comes from the package's losses (:func:`solvable.models.node_scaling.zeroed_loss`,
:func:`solvable.models.node_scaling.loss`) by torch autograd, or from the hand-written gradient of
:class:`NodeScaledGD` (tested against autograd); no closed form produces a trajectory.

* :func:`first_step_runs`: one GD step (8) of the zeroed model (Assumption 7.7) from
  ``W_0`` with random targets (Assumption 7.8: ``y_i`` i.i.d. uniform on ``[-1, 1]``,
  independent of ``W_0``), nested widths per seed (the first ``m`` nodes of one sequence,
  as in Definition 7.1): ``(Z_j(x_i; W_1) - Z_j(x_i; W_0))^2``, ``||grad_{w_j} L(W_0)||^2``
  and the ratios (17), (18) at every ``x_i`` after the step.
* :func:`first_step_target_samples`: the same step for one initialisation and many target
  draws (Monte Carlo over Assumption 7.8).
* :func:`monitor_theorem_6_1`: GD at a step size below Theorem 6.1's limit; records
  ``||y - u_s||^2``, ``max_j ||w_sj - w_0j|| / sqrt(lambda_j)`` and ``eig_min`` of the NTG.
* :func:`mean_field_linear`: GD of the linear network (``sigma = id``) under the mean-field
  scaling ``lambda_{m,j} = 1/m^2`` with learning rate ``eta_0 m`` (Section 7, Yang & Hu).

Everything returns numbers (JSON-serialisable dicts); the verdicts are in
:mod:`solvable.verification.confirmations.node_scaling` and
:mod:`solvable.verification.confirmations.global_convergence`.
float64 throughout; ``device`` (default ``"cpu"``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.measures import feature_learning_ratios, min_eigenvalue, ntk_node_scaled
from numerics.models import NodeScaled
from numerics.node_scaling_experiment import nested_parameters, node_scalings, sphere_data
from numerics.node_scaling_experiment.checks import MAX_RECORDS, MAX_STEPS, _int, _real
from numerics.node_scaling_linear import linear_data
from numerics.torch_flow import gradient_descent, resolve_device
from solvable._core.activations import check_activation, elementwise, evaluator
from solvable.models import global_convergence as gcv
from solvable.models import node_scaling as ns

__all__ = [
    "NodeScaledGD",
    "first_step_runs",
    "first_step_target_samples",
    "mean_field_linear",
    "monitor_theorem_6_1",
]


def _ints(name: str, values: Any, low: int = 1, high: int = 2**63 - 1) -> tuple[int, ...]:
    """A non-empty sequence of ints in ``[low, high]`` (default: int64's sizes)."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise TypeError(f"{name} must be a non-empty sequence of ints, got {values!r:.80}")
    for k, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise ValueError(f"{name}[{k}] must be an integer >= {low}, got {v!r:.80}")
        if v > high:
            raise ValueError(f"{name}[{k}] must be an integer in [{low}, {high}], got {v!r}")
    return tuple(int(v) for v in values)


def _seeds(values: Any) -> tuple[int, ...]:
    """Distinct ints in [0, 2**64 - 1] (torch's generator): a repeated seed is the same
    network counted twice."""
    seeds = _ints("seeds", values, 0, 2**64 - 1)
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"seeds must be distinct (one independent draw each), got {seeds}")
    return seeds


def _gammas(values: Any, low_open: bool) -> tuple[float, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
        raise TypeError(f"gammas must be a non-empty sequence of numbers, got {values!r}")
    out = []
    for g in values:
        if isinstance(g, bool) or not isinstance(g, (int, float)):
            raise TypeError(f"gammas must hold real numbers, got {g!r}")
        if not (0 < g <= 1 if low_open else 0 <= g <= 1):
            raise ValueError(f"gammas must be in {'(0' if low_open else '[0'}, 1], got {g!r}")
        out.append(float(g))
    return tuple(out)


def _finite_step(eta: float, *values: Any) -> None:
    """Refuse a step whose outcome left the float64 range (an ``eta`` far too large)."""
    import torch

    if not all(bool(torch.isfinite(v).all()) for v in values):
        raise ValueError(f"eta = {eta!r} is too large: the first step leaves the float64 range")


def _targets(n: int, shape: tuple[int, ...], seed: int) -> np.ndarray:
    """Assumption 7.8: i.i.d. uniform targets on [-1, 1] (continuous, independent of W_0,
    bounded as Assumption 3.1(c) asks, C = 1), variance 1/3."""
    return np.random.default_rng(10_000 + seed).uniform(-1.0, 1.0, size=(*shape, n))


def _zeroed_first_step(X: np.ndarray, y: Any, p0: dict[str, Any], eta: float,
                       activation: str) -> tuple[Any, Any]:  # fmt: skip
    """``(W_1, grad L(W_0))`` of the zeroed loss by autograd; ``y`` (B, n) tensor."""
    import torch

    W0 = p0["W"]
    Xt = torch.as_tensor(X, dtype=W0.dtype, device=W0.device)
    W = W0.clone().requires_grad_(True)
    sigma = elementwise(activation, "torch")
    L = ns.zeroed_loss(W, W0, p0["a"], p0["s"], Xt, y, sigma, math.sqrt(X.shape[1]))
    (grad,) = torch.autograd.grad(L.sum(), W)  # the networks of the batch are independent
    return (W0 - eta * grad).detach(), grad.detach()


def first_step_runs(
    *,
    n: int = 4,
    d: int = 3,
    data_seed: int = 0,
    gammas: Sequence[float] = (1.0, 0.5),
    alpha: float = 0.5,
    widths: Sequence[int] = (10, 100, 1000, 10000),
    seeds: Sequence[int] = (0, 1, 2, 3, 4, 5, 6, 7),
    eta: float = 1.0,
    activation: str = "tanh",
    device: Any = "cpu",
) -> dict[str, Any]:
    """One GD step (8) of the zeroed model at each ``gamma``, width (nested nodes per seed)
    and seed, targets drawn once per seed (Assumption 7.8).  Per case: ``dz_sq`` (seeds, n,
    m), ``grad_norm_sq`` (seeds, m), ``lam`` (m,), ``W0`` (seeds, m, d), ``y`` (seeds, n), and
    the ratios (17), (18) after the step at every ``x_i``: ``sum_ratio``, ``max_ratio`` (seeds,
    n).  Data: :func:`numerics.node_scaling_experiment.sphere_data` inputs (unit norm)."""
    import torch

    gammas = _gammas(gammas, low_open=False)
    widths = _ints("widths", widths)
    seeds = _seeds(seeds)
    if isinstance(eta, bool) or not isinstance(eta, (int, float)) or not (0 < eta < math.inf):
        raise ValueError(f"eta must be a finite number > 0, got {eta!r:.80}")
    _int("data_seed", data_seed, 0)
    X, _ = sphere_data(n, d, seed=data_seed)
    y = np.stack([_targets(n, (), s) for s in seeds])
    model = NodeScaled(X, np.zeros(n), activation=activation)
    top = max(widths)
    dev = resolve_device(device)
    yt = torch.as_tensor(y, dtype=torch.float64, device=dev)
    out: dict[str, Any] = {"n": n, "d": d, "data_seed": data_seed, "alpha": alpha, "eta": eta,
                           "activation": activation, "widths": list(widths),
                           "seeds": list(seeds), "X": X.tolist(), "cases": []}  # fmt: skip
    for gamma in gammas:
        for m in widths:
            lam = node_scalings(m, gamma, None if gamma == 1 else alpha)
            p0 = nested_parameters([lam] * len(seeds), d, seeds, max_width=top, device=dev)
            W1, grad = _zeroed_first_step(X, yt, p0, eta, activation)
            p1 = {**p0, "W": W1}
            Z0 = model.preactivations(p0, torch.as_tensor(X, dtype=W1.dtype, device=dev))
            Z1 = model.preactivations(p1, torch.as_tensor(X, dtype=W1.dtype, device=dev))
            _finite_step(eta, (Z1 - Z0) ** 2)
            ratios = [feature_learning_ratios(model, p1, p0, X[i]) for i in range(n)]
            out["cases"].append({
                "gamma": gamma, "width": m, "lam": lam.tolist(),
                "W0": p0["W"].cpu().numpy().tolist(), "a": p0["a"].cpu().numpy().tolist(),
                "y": y.tolist(),
                "dz_sq": ((Z1 - Z0) ** 2).cpu().numpy().tolist(),
                "grad_norm_sq": (grad**2).sum(-1).cpu().numpy().tolist(),
                "sum_ratio": torch.stack([r[0] for r in ratios], 1).cpu().numpy().tolist(),
                "max_ratio": torch.stack([r[1] for r in ratios], 1).cpu().numpy().tolist(),
            })  # fmt: skip
    return out


def first_step_target_samples(
    *,
    n: int = 4,
    d: int = 3,
    data_seed: int = 0,
    gamma: float = 0.5,
    alpha: float = 0.5,
    width: int = 50,
    seed: int = 0,
    samples: int = 4000,
    eta: float = 1.0,
    activation: str = "tanh",
    device: Any = "cpu",
) -> dict[str, Any]:
    """One initialisation (``seed``), ``samples`` independent target vectors (Assumption 7.8,
    uniform on [-1, 1]): the simulated first step's ``dz_sq`` (samples, n, m) and
    ``grad_norm_sq`` (samples, m), with ``W0`` (m, d), ``lam`` (m,), ``X``."""
    import torch

    samples = _int("samples", samples, 2)
    gamma = _real("gamma", gamma, 0.0, 1.0)
    width = _int("width", width)
    seed = _int("seed", seed, 0, 2**64 - 1)
    eta = _real("eta", eta, 0.0, math.inf, open_low=True, open_high=True)
    check_activation(activation)
    _int("data_seed", data_seed, 0)
    _int("samples * width * d", samples * width * _int("d", d))  # the batch of weights
    X, _ = sphere_data(n, d, seed=data_seed)
    lam = node_scalings(width, gamma, None if gamma == 1 else alpha)
    dev = resolve_device(device)
    p1 = nested_parameters([lam], d, (seed,), device=dev)
    p0 = {k: v.expand(samples, *v.shape[1:]).contiguous() for k, v in p1.items()}
    y = _targets(n, (samples,), seed)
    yt = torch.as_tensor(y, dtype=torch.float64, device=dev)
    W1, grad = _zeroed_first_step(X, yt, p0, eta, activation)
    Xt = torch.as_tensor(X, dtype=W1.dtype, device=dev)
    dZ = ns.preactivations(W1, Xt, math.sqrt(d)) - ns.preactivations(p0["W"], Xt, math.sqrt(d))
    _finite_step(eta, dZ**2)
    return {"n": n, "d": d, "gamma": gamma, "alpha": alpha, "width": width, "seed": seed,
            "eta": eta, "activation": activation, "X": X, "lam": lam,
            "W0": p1["W"][0].cpu().numpy(), "y": y, "target_variance": 1 / 3,
            "dz_sq": (dZ**2).cpu().numpy(),
            "grad_norm_sq": (grad**2).sum(-1).cpu().numpy()}  # fmt: skip


class NodeScaledGD(NodeScaled):
    """:class:`numerics.models.NodeScaled` with the hand-written gradient of its loss (5),
    ``dL/dw_j = -sqrt(lambda_j) a_j / sqrt(d) sum_i r_i sigma'(Z_j(x_i)) x_i`` (Section 3.2;
    tested against autograd of the same loss); about half the cost of autograd per step."""

    def gradient(self, p: dict[str, Any]) -> dict[str, Any]:
        import torch

        X, y = self._t("X", p["W"]), self._t("y", p["W"])
        Z = self.preactivations(p, X)  # (B, n, m)
        sa = (p["s"] * p["a"])[:, None, :]
        r = y - (elementwise(self.activation, "torch")(Z) * sa).sum(-1)  # (B, n)
        coef = r[:, :, None] * evaluator(self.activation, "torch", 1)(Z) * sa
        return {"W": -(coef / math.sqrt(X.shape[-1])).transpose(1, 2) @ X,
                "a": torch.zeros_like(p["a"]), "s": torch.zeros_like(p["s"])}  # fmt: skip


def monitor_theorem_6_1(
    *,
    n: int = 2,
    d: int = 2,
    data_seed: int = 0,
    amplitude: float = 0.5,
    gammas: Sequence[float] = (1.0, 0.5),
    alpha: float = 0.5,
    width: int = 200,
    seeds: Sequence[int] = (0,),
    delta: float = 0.1,
    step_fraction: float = 0.9,
    horizon: float = 1.0,
    n_records: int = 60,
    activation: str = "tanh",
    device: Any = "cpu",
) -> dict[str, Any]:
    """GD (8) on :func:`numerics.node_scaling_experiment.sphere_data` (no noise, targets scaled
    by ``amplitude``, ``C = max |y_i|``; small ``n`` and targets keep Theorem 6.1's step-size
    limit, ``O(gamma kappa_n d^2/n^2)``, large enough for a run of seconds) with one step
    size ``eta = step_fraction`` times the smallest of Theorem 6.1's limits over ``gammas``
    (so every case satisfies the step-size condition), for ``S = ceil(2 horizon/(eta
    min(gammas) kappa_n))`` steps (the rate bound falls by about
    ``exp(-horizon)`` for the smallest gamma).  Records at step 0 and at most ``n_records -
    1`` log-spaced steps (rounded, duplicates dropped): ``||y -
    u_s||^2`` (= ``2 L``), ``max_j ||w_sj - w_0j||/sqrt(lambda_j)`` and ``eig_min`` of the
    NTG (7).  Returns the constants, ``eta``, Theorem 6.1's width condition at ``eta`` and
    per case the recorded series (plain numbers).  ``S`` at most
    :data:`~numerics.node_scaling_experiment.MAX_STEPS` (a work cap: a tiny ``horizon``-
    to-step ratio, ``min(gammas)``, ``step_fraction`` or ``delta`` asks for more steps than
    a run can take), ``n_records`` in ``[2, MAX_RECORDS]``."""
    import torch

    gammas = _gammas(gammas, low_open=True)
    seeds = _seeds(seeds)
    width = _int("width", width)
    if not (isinstance(step_fraction, float) and 0 < step_fraction < 1):
        raise ValueError(f"step_fraction must be a float in (0, 1), got {step_fraction!r:.80}")
    _int("data_seed", data_seed, 0)
    amplitude = _real("amplitude", amplitude, 0.0, math.inf, open_low=True, open_high=True)
    horizon = _real("horizon", horizon, 0.0, math.inf, open_low=True, open_high=True)
    n_records = _int("n_records", n_records, 2, MAX_RECORDS)
    X, y = sphere_data(n, d, seed=data_seed, amplitude=amplitude)
    if not np.any(y):
        raise ValueError(f"amplitude = {amplitude!r} is too small: the targets underflow to 0 "
                         f"(Assumption 3.1(c) needs C = max |y_i| > 0)")  # fmt: skip
    consts = {g: gcv.Constants.from_data(X, y, activation, g, delta) for g in gammas}
    kappa = consts[gammas[0]].kappa_n
    eta = step_fraction * min(float(gcv.step_size_limit_numeric(c)) for c in consts.values())
    work = 2 * horizon / (eta * min(gammas) * kappa) if eta > 0 else math.inf
    if not work <= MAX_STEPS:
        raise ValueError(f"the run needs S = 2 horizon / (eta min(gammas) kappa_n) = {work:.4g} "
                         f"GD steps (horizon = {horizon!r}, min(gammas) = {min(gammas)!r}, "
                         f"amplitude = {amplitude!r} (C), "
                         f"eta = step_fraction x Theorem 6.1's limit = {eta:.4g} with "
                         f"step_fraction = {step_fraction!r}, delta = {delta!r}), more than "
                         f"MAX_STEPS = {MAX_STEPS}")  # fmt: skip
    steps = math.ceil(work)
    record = np.unique(np.concatenate([[0], np.round(np.geomspace(1, steps, n_records - 1))]))
    record = record.astype(int)
    model = NodeScaledGD(X, y, activation=activation)
    lams = [node_scalings(width, g, None if g == 1 else alpha) for g in gammas for _ in seeds]
    p0 = nested_parameters(lams, d, [s for _ in gammas for s in seeds], device=device)
    W0 = p0["W"]
    inv = 1 / p0["s"]
    measures = {
        "residual_sq": lambda p, rows: 2 * model.loss(p),
        "move_scaled": lambda p, rows: (torch.linalg.vector_norm(p["W"] - W0[rows], dim=-1)
                                        * inv[rows]).amax(-1),
        "eig_min": lambda p, rows: min_eigenvalue(ntk_node_scaled(model, p)),
    }  # fmt: skip
    res = gradient_descent(model, p0, eta, record, measures=measures, keep_params=False,
                           device=device)  # fmt: skip
    meas = {k: v.detach().cpu().numpy() for k, v in res.measures.items()}  # (T, B)
    out: dict[str, Any] = {
        "n": n, "d": d, "data_seed": data_seed, "amplitude": amplitude, "alpha": alpha,
        "delta": delta,
        "activation": activation, "width": width, "seeds": list(seeds), "eta": eta,
        "steps": steps, "record_steps": record.tolist(), "kappa_n": kappa,
        "C": consts[gammas[0]].C, "C1": consts[gammas[0]].C1, "M": consts[gammas[0]].M,
        "cases": [],
    }  # fmt: skip
    for k, g in enumerate(gammas):
        cols = list(range(k * len(seeds), (k + 1) * len(seeds)))
        out["cases"].append({
            "gamma": g,
            "step_size_limit": float(gcv.step_size_limit_numeric(consts[g])),
            "width_condition": float(gcv.gd_width_condition_numeric(consts[g], eta)),
            "residual_sq": meas["residual_sq"][:, cols].T.tolist(),  # (seeds, T)
            "move_scaled": meas["move_scaled"][:, cols].T.tolist(),
            "eig_min": meas["eig_min"][:, cols].T.tolist(),
        })  # fmt: skip
    return out


def mean_field_linear(
    *,
    n: int = 2,
    d: int = 3,
    data_seed: int = 0,
    widths: Sequence[int] = (10, 100, 1000),
    samples: int | Sequence[int] = 400,
    eta0_fraction: float = 0.9,
    steps: int = 120,
    device: Any = "cpu",
) -> dict[str, Any]:
    """GD of the linear network (``sigma = id``) with the mean-field scaling ``lambda_{m,j} =
    1/m^2`` and learning rate ``eta = eta_0 m``, ``eta_0 = eta0_fraction d/D_max^2`` (below
    footnote 3's ``d/(D_max^2 sum lambda)`` since ``sum lambda = 1/m``), for ``steps`` steps,
    on :func:`numerics.node_scaling_linear.linear_data` (``n`` < ``d``, so the projector
    ``V V^T`` is not the identity), ``samples`` initialisations per width (Assumption 3.3,
    eq. (3)).  GD contracts each data mode by ``1 - eta_0 D_i^2/d`` in ``[0.1, 0.775]`` per
    step: ``0.775^120 = 5e-14`` of the initial gap is left after the default 120 steps.
    ``samples``: one count for every width, or one per width (the first ``k`` initialisations
    of a width are the same for every count ``>= k``).  Returns per width (arrays): ``W0``,
    ``a``, ``W_end`` (samples, m, d), the ratios (17),
    (18) at ``x = x_1/|x_1|`` (``sum_ratio``, ``max_ratio``), ``beta0``
    (samples, d) and the denominator of (17) ``den`` (samples,)."""
    widths = _ints("widths", widths)
    _int("data_seed", data_seed, 0)
    # GD contracts each data mode by 1 - eta0_fraction D_i^2 / D_max^2: stable in (0, 2)
    eta0_fraction = _real("eta0_fraction", eta0_fraction, 0.0, 2.0, open_low=True,
                          open_high=True)  # fmt: skip
    steps = _int("steps", steps, 1, MAX_STEPS)
    if isinstance(samples, Sequence) and not isinstance(samples, (str, bytes)):
        counts = _ints("samples", samples, 2)
        if len(counts) != len(widths):
            raise ValueError(f"samples must be one int or one per width ({len(widths)}), got "
                             f"{samples!r}")  # fmt: skip
    else:
        counts = _ints("samples", (samples,), 2) * len(widths)
    X, y, _ = linear_data(n, d, seed=data_seed)
    D_max = float(np.linalg.svd(X, compute_uv=False)[0])
    eta0 = eta0_fraction * d / D_max**2
    if not eta0 * min(widths) > 0:  # a subnormal fraction: the step underflows to 0
        raise ValueError(f"eta0_fraction = {eta0_fraction!r} is too small: the step eta_0 m "
                         f"underflows to 0")  # fmt: skip
    x = X[0] / np.linalg.norm(X[0])  # a training input direction (unit norm)
    model = NodeScaledGD(X, y, activation="linear")
    out: dict[str, Any] = {"n": n, "d": d, "X": X, "y": y, "x": x, "eta0": eta0,
                           "steps": steps, "samples": list(counts), "widths": list(widths),
                           "cases": []}  # fmt: skip
    for m, count in zip(widths, counts, strict=True):
        lam = np.full(m, 1.0 / m**2)
        p0 = nested_parameters([lam] * count, d, list(range(count)), device=device)
        res = gradient_descent(model, p0, eta0 * m, [steps], keep_params=True, device=device)
        p_end = {k: v[-1] for k, v in res.params.items()}
        r_sum, r_max = feature_learning_ratios(model, p_end, p0, x)
        beta0 = (p0["W"] * (p0["s"] * p0["a"])[..., None]).sum(1)
        out["cases"].append({
            "width": m, "eta": eta0 * m,
            "W0": p0["W"].cpu().numpy(), "a": p0["a"].cpu().numpy(),
            "W_end": p_end["W"].cpu().numpy(),
            "sum_ratio": r_sum.cpu().numpy(), "max_ratio": r_max.cpu().numpy(),
            "beta0": beta0.cpu().numpy(),
            "den": (lam * (p0["W"].cpu().numpy() @ x) ** 2 / d).sum(-1),
        })  # fmt: skip
    return out
