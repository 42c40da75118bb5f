"""Seed 000, Section 7.2: simulations of the linear-activation node-scaled network.

The raw parameter-space gradient flow / gradient descent of eq. (5) (model
:class:`numerics.models.NodeScaled` with ``activation="linear"``, torch, float64, batched over
initialisations, widths (padded) and scalings): :func:`run_linear`, :func:`flow_runs`.  Monte
Carlo over initialisations samples the limit (19)-(20) of Theorem 7.4
(:func:`solvable.models.linear_node_scaling.limit`, confirmed against the flow): the contributions
of
Theorem 7.5 (:func:`contribution_samples`), the feature-learning ratios of Definitions 7.1 /
7.3 at ``t = oo`` (:func:`feature_learning_sweep`) and the pruning error of Proposition 7.6
(:func:`pruning_samples`).  Everything here returns numbers (arrays, samples, fitted slopes);
the comparisons with the theory, their tolerances and verdicts are in
:mod:`solvable.verification.confirmations.linear_node_scaling`.

Convergence: the flow is linear in ``W``; in the data coordinates ``V^T beta`` its error decays
like ``exp(-eta S D_i^2 t / d)`` (``S = sum lambda = 1`` under eq. (1)).  The data made by
:func:`linear_data` have ``D_i in [sqrt(d), 2 sqrt(d)]``, so the slowest rate is ``eta S = 1``
and at ``t = 40`` the residual is ``e^-40 = 4e-18`` of the initial gap.  Gradient descent at
step ``0.9 d/(D_max^2 S)`` (footnote 3's bound times 0.9) contracts by at most ``1 - 0.9/4 =
0.775`` per step: ``0.775^200 = 6e-23`` after 200 steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from numerics.models import NodeScaled, node_scaled_parameters
from numerics.torch_flow import gradient_descent, gradient_flow
from solvable._core import numbers as nb
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns

__all__ = [
    "DATA_SETS",
    "FAMILIES_FAST",
    "FAMILIES_FULL",
    "GD_FRACTION",
    "GD_STEPS",
    "T_FINAL",
    "FeatureLearningSweep",
    "LinearRun",
    "configs",
    "contribution_samples",
    "feature_learning_sweep",
    "flow_runs",
    "linear_data",
    "pruning_samples",
    "run_linear",
    "sample_limits",
    "scalings",
]

MAX_SAMPLES = 10**7
"""The most initialisations :func:`sample_limits` draws: each solves the limit (19)-(20) of
an ``m x d`` network (>= 1 us), so 10**7 are >= 10 s at the smallest sizes, 500 times the
full runs' 20000; a larger count is refused, not run for ever."""


def _int(name: str, value: Any, low: int = 1, high: int = nb.INT64_MAX) -> int:
    """An int in ``[low, high]``; ``high`` defaults to 2**63 - 1 (torch's and numpy's sizes
    are int64: a larger size has no array)."""
    return nb.check_int(name, value, low, high)


def _seq(name: str, values: Any) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple, np.ndarray)):
        raise TypeError(f"{name} must be a sequence, got {nb.describe(values)}")
    return list(values)


T_FINAL = 40.0  # e^-40 = 4e-18: residual of the slowest data mode (rate 1) at the end
GD_STEPS = 200  # 0.775^200 = 6e-23 (slowest GD contraction factor at 0.9 x footnote 3)
GD_FRACTION = 0.9  # step = 0.9 x footnote 3's bound d/(D_max^2 S)


def linear_data(n: int, d: int, *, rank: int | None = None, seed: int = 0, spread: float = 2.0,
                probes: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Data ``X = U diag(D) V^T`` (n, d) of rank ``k = rank`` (default ``min(n, d)``) with
    ``D`` evenly spaced in ``[sqrt(d), spread sqrt(d)]`` (the flow's data-space rates
    ``S D_i^2 / d`` lie in ``[1, spread^2]``), ``y`` (n,) standard normal, and ``probes``
    inputs (p, d) of norm 1 (Assumption 3.1 (a)).  Sizes at most ``2**63 - 1`` entries per
    array; ``spread`` finite, ``>= 1`` and small enough that ``X`` is finite."""
    for name, v in (("n", n), ("d", d), ("probes", probes)):
        _int(name, v)
    _int("n * n", n * n)  # the square factors U (n, n) and V (d, d) and P (probes, d)
    _int("d * d", d * d)
    _int("probes * d", probes * d)
    k = min(n, d) if rank is None else rank
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= min(n, d):
        raise ValueError(f"rank must be an integer in 1..min(n, d) = {min(n, d)}, got {rank!r}")
    if not (isinstance(spread, (int, float)) and not isinstance(spread, bool)
            and math.isfinite(spread) and spread >= 1):  # fmt: skip
        raise ValueError(f"spread must be a finite number >= 1, got {nb.describe(spread)}")
    seed = _int("seed", seed, 0)
    rng = np.random.default_rng(seed)
    U = np.linalg.qr(rng.normal(size=(n, n)))[0][:, :k]
    V = np.linalg.qr(rng.normal(size=(d, d)))[0][:, :k]
    D = math.sqrt(d) * np.linspace(spread, 1.0, k)
    X = U @ np.diag(D) @ V.T
    if not np.all(np.isfinite(X)):
        raise ValueError(f"spread = {spread!r} is too large: X = U diag(D) V^T overflows "
                         f"float64 (D up to spread sqrt(d))")  # fmt: skip
    y = rng.normal(size=n)
    P = rng.normal(size=(probes, d))
    return X, y, P / np.linalg.norm(P, axis=1, keepdims=True)


def scalings(m: int, gamma: Any, weights: ns.Weights) -> np.ndarray:
    """``lambda_{m,j}``, ``j = 1..m`` (eq. (1)), from the generated float64 evaluator;
    ``1 <= m <= 2**31 - 1`` (an array of ``m`` float64)."""
    m = _int("m", m, 1, 2**31 - 1)
    j = np.arange(1, m + 1)
    # float64 only: an mpmath.mpf gamma is read as its float64 value (it would otherwise
    # switch the generated evaluator to mpmath, which takes no integer arrays)
    gamma = nb.to_float(nb.check_number("gamma", gamma), "gamma")
    return np.asarray(ns.node_scaling_numeric(np.full_like(j, m), j, gamma, weights), float)


@dataclass(frozen=True)
class LinearRun:
    """A batch of simulated networks: ``W0``, ``W`` (at the end), ``a``, ``lam`` (B, m_max[,
    d]) as numpy arrays (padded nodes have ``lam = 0``), ``widths`` (B,), ``labels`` (B,),
    the flow's accepted ``steps`` (or the GD step count), the recorded ``times`` (T,) (GD:
    ``step x lr``) and ``W_t`` (T, B, m_max, d), the weights at those times."""

    W0: np.ndarray
    W: np.ndarray
    a: np.ndarray
    lam: np.ndarray
    widths: np.ndarray
    labels: list[str]
    steps: Any
    times: np.ndarray
    W_t: np.ndarray


def run_linear(
    X: Any, y: Any, configs: list[tuple[str, np.ndarray]], *, batch: int = 2,
    method: str = "flow", seed: int = 0, device: Any = "cpu", rtol: float = 1e-10,
    times: Any = None,
) -> LinearRun:  # fmt: skip
    """Simulate ``batch`` networks per ``(label, lam)`` config (widths padded to the largest)
    from ``W0 ~ N(0, I)``, ``a = +-1``: gradient flow (``method="flow"``, DOP853 at ``rtol``,
    recorded at ``times``, default ``(0, T_FINAL)``) or ``GD_STEPS`` gradient-descent steps of
    size ``GD_FRACTION`` x footnote 3's bound (``method="gd"``), on ``device`` in float64."""
    import torch

    if not isinstance(method, str) or method not in ("flow", "gd"):
        raise ValueError(f"method must be 'flow' or 'gd', got {nb.describe(method)}")
    batch = _int("batch", batch)
    configs = _seq("configs", configs)
    if not configs:
        raise ValueError("configs must not be empty")
    for k, c in enumerate(configs):
        if not isinstance(c, (list, tuple)) or len(c) != 2:
            raise TypeError(f"configs[{k}] must be a (label, lam) pair, got {nb.describe(c)}")
    configs = [(label, nb.check_float_array(f"configs[{k}] (lam)", lam, ndim=1))
               for k, (label, lam) in enumerate(configs)]  # fmt: skip
    X = nb.check_float_array("X", X, ndim=2)
    m_max = max(len(lam) for _, lam in configs)
    _int("configs x batch x m_max x d", len(configs) * batch * m_max * X.shape[1])
    lam = np.zeros((len(configs) * batch, m_max))
    labels, widths = [], []
    for i, (label, lam_i) in enumerate(configs):
        lam[i * batch : (i + 1) * batch, : len(lam_i)] = lam_i
        labels += [label] * batch
        widths += [len(lam_i)] * batch
    B, d = len(lam), X.shape[1]
    params = node_scaled_parameters(lam, d, B, seed=seed, device=device, dtype=torch.float64)
    model = NodeScaled(X, y, activation="linear", eta=1.0)
    ts = (
        [0.0, T_FINAL]
        if times is None
        else [nb.to_float(t, "times") for t in nb.check_times(times, "times")]
    )
    # these tensors are tiny: on CPU, torch's intra-op threads cost more than they give (a
    # (10, 100, 4) batched product took 20 ms with 2 threads on a loaded 2-core machine, 0.3 ms
    # with 1), so one thread for the run, restored afterwards
    threads = torch.get_num_threads()
    if str(device).startswith("cpu"):
        torch.set_num_threads(1)
    try:
        return _integrate(model, params, lam, X, method, rtol, device, labels, widths, ts)
    except ArithmeticError as exc:  # the state left the finite numbers
        raise ValueError(
            f"the {method} of these networks left the float64 range (X, y of "
            f"too large a scale for rtol = {rtol!r}?): {exc}"
        ) from exc
    finally:
        torch.set_num_threads(threads)


def _integrate(model, params, lam, X, method, rtol, device, labels, widths, ts) -> LinearRun:
    if method == "flow":
        res = gradient_flow(model, params, ts, rtol=rtol, device=device)
        W_t, steps, times = res.params["W"], res.steps, np.asarray(ts)
    else:
        # the smallest footnote-3 bound over the batch (all equal under eq. (1), S = 1)
        lr = GD_FRACTION * min(lns.gd_step_bounds(X, row)[0] for row in lam)
        res = gradient_descent(model, params, lr, [0, GD_STEPS], device=device)
        W_t, steps, times = res.params["W"], GD_STEPS, np.array([0.0, GD_STEPS * lr])
    W_t = W_t.cpu().numpy()
    return LinearRun(
        W0=params["W"].cpu().numpy(), W=W_t[-1], a=params["a"].cpu().numpy(), lam=lam,
        widths=np.array(widths), labels=labels, steps=steps, times=times, W_t=W_t,
    )  # fmt: skip


def configs(widths: Any, gammas: Any, families: Any) -> list[tuple[str, np.ndarray]]:
    """``(label, lambda)`` for every width, gamma and weight family (gamma = 1 once: the
    family does not matter there).  ``families``: ``(name, weights)`` pairs."""
    widths, gammas, families = (_seq("widths", widths), _seq("gammas", gammas),
                                _seq("families", families))  # fmt: skip
    for k, f in enumerate(families):
        if not isinstance(f, (list, tuple)) or len(f) != 2 or not isinstance(f[0], str):
            raise TypeError(f"families[{k}] must be a (name, weights) pair, got "
                            f"{nb.describe(f)}")  # fmt: skip
    widths = [_int(f"widths[{k}]", m, 1, 2**31 - 1) for k, m in enumerate(widths)]
    for k, g in enumerate(gammas):
        if not 0 <= nb.to_float(nb.check_number(f"gammas[{k}]", g), f"gammas[{k}]") <= 1:
            raise ValueError(f"gammas[{k}] must be in [0, 1], got {nb.describe(g)}")
    out, seen = [], set()
    for m in widths:
        for g in gammas:
            for name, w in families:
                key = (m, g, "any" if g == 1 else name)
                if key in seen:
                    continue
                seen.add(key)
                out.append((f"m={m} gamma={g} {'NTK' if g == 1 else name}", scalings(m, g, w)))
    return out


FAMILIES_FAST = [("Zipf(0.5)", ns.zipf("0.5")), ("K=5", ns.finite_k(5))]
FAMILIES_FULL = [("Zipf(0.5)", ns.zipf("0.5")), ("Zipf(0.7)", ns.zipf("0.7")),
                 ("K=5", ns.finite_k(5))]  # fmt: skip
DATA_SETS = {"n>d (8x4, full column rank)": (8, 4, None), "n<d (3x6, V V^T != I)": (3, 6, None),
             "rank 2 < min(n, d) (5x4)": (5, 4, 2)}  # fmt: skip
"""The data shapes ``(n, d, rank)`` the flow is run on (:func:`flow_runs`)."""


def flow_runs(*, method: str = "flow", full: bool = False, device: Any = "cpu",
              seed: int = 0) -> list[dict[str, Any]]:  # fmt: skip
    """The simulated networks behind Theorem 7.4's confirmation: for each data set (full: n >
    d, n < d and rank < min(n, d); fast: n < d for the flow (the (I - V V^T) beta_0 part of
    (20) is exercised), n > d and n < d for GD) a dict ``name``, ``X``, ``y``, ``probes`` and
    ``run`` (:class:`LinearRun`) over widths ``(10, 100[, 1000])``, gamma in ``{1, 0.5, 0}`` and
    the weight families; the flow is recorded at ``t = 1, T_FINAL``.  ``seed`` in ``[0,
    2**64 - 1 - 14]`` (data set ``(n, d)`` draws from ``seed + n + d``)."""
    nb.check_flag("full", full)
    seed = _int("seed", seed, 0, 2**64 - 1 - 14)  # torch's generator; n + d <= 14
    if not isinstance(method, str) or method not in ("flow", "gd"):
        raise ValueError(f"method must be 'flow' or 'gd', got {nb.describe(method)}")
    widths = (10, 100, 1000) if full else (10, 100)
    families = FAMILIES_FULL if full else FAMILIES_FAST
    keys = list(DATA_SETS) if full else (list(DATA_SETS)[:2] if method == "gd"
                                         else [list(DATA_SETS)[1]])  # fmt: skip
    out = []
    for name in keys:
        n, d, rank = DATA_SETS[name]
        X, y, probes = linear_data(n, d, rank=rank, seed=seed + n + d)
        run = run_linear(X, y, configs(widths, (1, 0.5, 0), families), batch=3 if full else 1,
                         method=method, seed=seed, device=device,
                         times=(1.0, T_FINAL))  # fmt: skip
        out.append({"name": name, "method": method, "X": X, "y": y, "probes": probes, "run": run,
                    "widths": widths, "families": [f for f, _ in families]})  # fmt: skip
    return out


# ---------------------------------------------------------------------------
# Monte Carlo over initialisations, from the limit (19)-(20) (confirmed against the flow)
# ---------------------------------------------------------------------------
def sample_limits(
    X: Any, y: Any, lam: np.ndarray, samples: int, *, seed: int = 0, chunk: int = 256,
    nodes: Any = None, probes: Any = None,
) -> dict[str, Any]:  # fmt: skip
    """Draw ``W0 ~ N(0, I)``, ``a = +-1`` and evaluate (19)-(20)
    (:func:`solvable.models.linear_node_scaling.limit`): returns the contributions ``c_j =
    sqrt(lambda_j) a_j w_inf_j`` for ``nodes`` (0-based, (N, len, d)), ``f`` on probes (N,
    p), and the per-node changes ``x^T (w_inf_j - w_0j)`` and ``x^T w_0j`` at the first probe
    (N, m) for the feature-learning ratios.  ``samples`` in ``[2, MAX_SAMPLES]``."""
    samples = _int("samples", samples, 2, MAX_SAMPLES)
    chunk = _int("chunk", chunk)
    seed = _int("seed", seed, 0)
    X = nb.check_float_array("X", X, ndim=2)
    lam = nb.check_float_array("lam", lam, ndim=1)
    m, d = len(lam), X.shape[1]
    nodes = [0] if nodes is None else _seq("nodes", nodes)
    nodes = [_int(f"nodes[{k}]", v, 0, m - 1) for k, v in enumerate(nodes)]
    if probes is not None:
        probes = nb.check_float_array("probes", probes, ndim=2)
    _int("min(chunk, samples) x m x d", min(chunk, samples) * m * d)
    rng = np.random.default_rng(seed)
    out: dict[str, list[Any]] = {"c": [], "f": [], "dz": [], "z0": [], "pruned": []}
    s = np.sqrt(lam)
    done = 0
    while done < samples:
        b = min(chunk, samples - done)
        W0 = rng.standard_normal((b, m, d))
        a = rng.integers(0, 2, (b, m)) * 2.0 - 1
        cf = lns.limit(X, y, lam, a, W0, probes=probes)
        c = (s * a)[..., None] * cf.W_inf  # (b, m, d)
        out["c"].append(c[:, nodes])
        if probes is not None:
            x = np.asarray(probes, float)[0]
            out["f"].append(cf.f)
            out["dz"].append(cf.delta_W @ x / math.sqrt(d))
            out["z0"].append(W0 @ x / math.sqrt(d))
            out["pruned"].append(np.cumsum((c @ x)[:, ::-1], 1)[:, ::-1] / math.sqrt(d))
        done += b
    return {k: np.concatenate(v) for k, v in out.items() if v}


def contribution_samples(*, full: bool = False, seed: int = 1) -> dict[str, Any]:
    """Theorem 7.5: samples of ``c_j = sqrt(lambda_j) a_j w_inf_j`` (j = 1, 2) over ``(W0,
    a)``: ``X`` (2 x 3, rank 2 < d: ``V V^T != I``), ``y``, ``samples`` (N), and per case
    ``(m, gamma, name, weights)`` the scalings ``lam`` and the samples ``c`` (N, 2, 3)."""
    nb.check_flag("full", full)
    seed = _int("seed", seed, 0)
    X, y, _ = linear_data(2, 3, seed=seed)
    N = 20000 if full else 2000
    cases = [(10, 0.5, "Zipf(0.5)", ns.zipf("0.5")), (100, 0, "K=5", ns.finite_k(5)),
             (1000, 0.5, "Zipf(0.5)", ns.zipf("0.5"))]  # fmt: skip
    if full:
        cases += [(1000, 0.5, "Zipf(0.7)", ns.zipf("0.7")), (10000, 0.5, "Zipf(0.7)",
                  ns.zipf("0.7")), (10000, 0.5, "Zipf(0.5)", ns.zipf("0.5")),
                  (1000, 1, "NTK", ns.zipf("0.5"))]  # fmt: skip
    nodes = [0, 1]
    out = []
    for m, g, name, w in cases:
        lam = scalings(m, g, w)
        c = sample_limits(X, y, lam, N, seed=seed + m, nodes=nodes)["c"]
        out.append({"m": m, "gamma": g, "name": name, "weights": w, "lam": lam, "c": c})
    return {"X": X, "y": y, "samples": N, "nodes": nodes, "cases": out}


def _ratios(lam: np.ndarray, dz: np.ndarray, z0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eqs. (17), (18) at t = oo for sigma = id: ``sum_j lambda_j dZ_j^2 / sum_k lambda_k
    Z_k0^2`` and the same with max_j."""
    den = (lam * z0**2).sum(1)
    num = lam * dz**2
    return num.sum(1) / den, num.max(1) / den


@dataclass(frozen=True)
class FeatureLearningSweep:
    """Definitions 7.1 / 7.3 at ``t = oo``: ``widths``, ``samples`` per point and ``data[(gamma,
    kind)] = (medians over the widths, slope, standard error)`` for ``kind`` in ``("sum",
    "max")`` (ratios (17), (18)); the slope is fitted over the widths ``>= 100`` (log10-log10;
    two widths: the slope between them, standard error 0)."""

    widths: tuple[int, ...]
    samples: int
    data: dict[tuple[float, str], tuple[list[float], float, float]]


def feature_learning_sweep(*, full: bool = False, seed: int = 2) -> FeatureLearningSweep:
    """The medians of the sum- and max-ratios (17), (18) at ``t = oo`` over initialisations,
    for gamma in {0, 0.5, 1} (Zipf(0.5)) and widths (10, 100, 1000[, 10000]), and their
    log-log slopes against ``m``."""
    nb.check_flag("full", full)
    seed = _int("seed", seed, 0)
    X, y, probes = linear_data(3, 4, seed=seed)
    widths = (10, 100, 1000, 10000) if full else (10, 100, 1000)
    N = 2000 if full else 400
    w = ns.zipf("0.5")
    data = {}
    for g in (0, 0.5, 1):
        med = {"sum": [], "max": []}
        for m in widths:
            lam = scalings(m, g, w)
            smp = sample_limits(X, y, lam, N, seed=seed + m, probes=probes[:1], chunk=64)
            r_sum, r_max = _ratios(lam, smp["dz"], smp["z0"])
            med["sum"].append(float(np.median(r_sum)))
            med["max"].append(float(np.median(r_max)))
        for kind in ("sum", "max"):
            lx, ly = np.log10(widths[1:]), np.log10(med[kind][1:])
            if len(lx) > 2:  # least squares with the standard error of the slope
                coef, cov = np.polyfit(lx, ly, 1, cov=True)
                slope, se = float(coef[0]), float(np.sqrt(cov[0, 0]))
            else:  # two widths: the slope between them (no standard error)
                slope, se = float((ly[1] - ly[0]) / (lx[1] - lx[0])), 0.0
            data[(g, kind)] = (med[kind], slope, se)
    return FeatureLearningSweep(tuple(widths), N, data)


def pruning_samples(*, full: bool = False, seed: int = 3, eps: float = 0.5) -> dict[str, Any]:
    """Proposition 7.6: over ``(W0, a)``, how often ``|f~_{m,rho}(x) - f_m(x)| > eps`` at the
    first probe ``x`` (``|x| = 1``; d = 3, n = 2, Zipf(0.5)): per case ``(m, gamma, rho)`` the
    pruned mass ``sum_{j > floor(rho m)} lambda_{m,j}``, the total ``sum_j lambda_{m,j}`` and
    the count of exceedances among ``samples`` draws; with ``x``, ``X``, ``y``, ``eps``."""
    nb.check_flag("full", full)
    seed = _int("seed", seed, 0)
    eps = nb.to_float(nb.check_number("eps", eps, positive=True), "eps")
    X, y, probes = linear_data(2, 3, seed=seed)
    widths = (10, 100, 1000) if full else (10, 100)
    N = 20000 if full else 3000
    w = ns.zipf("0.5")
    out = []
    for m in widths:
        for g in (0, 0.5, 1):
            for rho in (0.25, 0.5):
                lam = scalings(m, g, w)
                r = math.floor(rho * m)
                smp = sample_limits(X, y, lam, N, seed=seed + m, probes=probes[:1], chunk=128)
                err = -smp["pruned"][:, r]  # f~ - f = -(pruned nodes' part of f)
                out.append({"m": m, "gamma": g, "rho": rho, "mass": float(lam[r:].sum()),
                            "total": float(lam.sum()),
                            "exceed": int(np.sum(np.abs(err) > eps))})  # fmt: skip
    return {"X": X, "y": y, "x": probes[0], "eps": eps, "samples": N, "cases": out}
