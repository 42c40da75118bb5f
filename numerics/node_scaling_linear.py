"""Seed 000, Section 7.2: simulations of the linear-activation node-scaled network.

The raw parameter-space gradient flow / gradient descent of eq. (5) (model
:class:`numerics.models.NodeScaled` with ``activation="linear"``, torch, float64, batched over
initialisations, widths (padded) and scalings) is compared with the closed form of Theorem 7.4
(:func:`solvable.linear_node_scaling.closed_form`); Monte Carlo over initialisations checks
Theorem 7.5, Definitions 7.1 / 7.3 at ``t = oo`` and Proposition 7.6.

Convergence: the flow is linear in ``W``; in the data coordinates ``V^T beta`` its error decays
like ``exp(-eta S D_i^2 t / d)`` (``S = sum lambda = 1`` under eq. (1)).  The data made by
:func:`linear_data` have ``D_i in [sqrt(d), 2 sqrt(d)]``, so the slowest rate is ``eta S = 1``
and at ``t = 40`` the residual is ``e^-40 = 4e-18`` of the initial gap (far below the
integrator's error).  Gradient descent at step ``0.9 d/(D_max^2 S)`` (footnote 3's bound times
0.9) contracts by at most ``1 - 0.9/4 = 0.775`` per step: ``0.775^200 = 6e-23`` after 200 steps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import stats

from numerics.models import NodeScaled, node_scaled_parameters
from numerics.torch_flow import gradient_descent, gradient_flow
from solvable import linear_node_scaling as lns
from solvable import node_scaling as ns
from solvable._core.tolerance import Tolerance, error_in_units, monte_carlo

__all__ = [
    "LinearRun",
    "Report",
    "closed_form_agreement",
    "contribution_monte_carlo",
    "feature_learning_sweep",
    "linear_data",
    "pruning_monte_carlo",
    "run_linear",
    "sample_limits",
    "scalings",
]

T_FINAL = 40.0  # e^-40 = 4e-18: residual of the slowest data mode (rate 1) at the end
GD_STEPS = 200  # 0.775^200 = 6e-23 (slowest GD contraction factor at 0.9 x footnote 3)
GD_FRACTION = 0.9  # step = 0.9 x footnote 3's bound d/(D_max^2 S)


@dataclass(frozen=True)
class Report:
    """A comparison: ``max_error`` in units of ``tolerance`` (pass <= 1), the ``detail`` text
    and the raw numbers in ``data``."""

    max_error: float
    detail: str
    tolerance: Tolerance
    data: dict[str, Any] = field(default_factory=dict)


def linear_data(n: int, d: int, *, rank: int | None = None, seed: int = 0, spread: float = 2.0,
                probes: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """Data ``X = U diag(D) V^T`` (n, d) of rank ``k = rank`` (default ``min(n, d)``) with
    ``D`` evenly spaced in ``[sqrt(d), spread sqrt(d)]`` (the flow's data-space rates
    ``S D_i^2 / d`` lie in ``[1, spread^2]``), ``y`` (n,) standard normal, and ``probes``
    inputs (p, d) of norm 1 (Assumption 3.1 (a))."""
    for name, v in (("n", n), ("d", d), ("probes", probes)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
    k = min(n, d) if rank is None else rank
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= min(n, d):
        raise ValueError(f"rank must be an integer in 1..min(n, d) = {min(n, d)}, got {rank!r}")
    if not (isinstance(spread, (int, float)) and spread >= 1):
        raise ValueError(f"spread must be >= 1, got {spread!r}")
    rng = np.random.default_rng(seed)
    U = np.linalg.qr(rng.normal(size=(n, n)))[0][:, :k]
    V = np.linalg.qr(rng.normal(size=(d, d)))[0][:, :k]
    D = math.sqrt(d) * np.linspace(spread, 1.0, k)
    X = U @ np.diag(D) @ V.T
    y = rng.normal(size=n)
    P = rng.normal(size=(probes, d))
    return X, y, P / np.linalg.norm(P, axis=1, keepdims=True)


def scalings(m: int, gamma: Any, weights: ns.Weights) -> np.ndarray:
    """``lambda_{m,j}``, ``j = 1..m`` (eq. (1)), from the generated float64 evaluator."""
    j = np.arange(1, int(m) + 1)
    return np.asarray(ns.node_scaling_numeric(np.full_like(j, m), j, gamma, weights), float)


@dataclass(frozen=True)
class LinearRun:
    """A batch of simulated networks: ``W0``, ``W`` (final), ``a``, ``lam`` (B, m_max[, d])
    as numpy arrays (padded nodes have ``lam = 0``), ``widths`` (B,), ``labels`` (B,)."""

    W0: np.ndarray
    W: np.ndarray
    a: np.ndarray
    lam: np.ndarray
    widths: np.ndarray
    labels: list[str]
    steps: Any


def run_linear(
    X: Any, y: Any, configs: list[tuple[str, np.ndarray]], *, batch: int = 2,
    method: str = "flow", seed: int = 0, device: Any = "cpu", rtol: float = 1e-10,
) -> LinearRun:  # fmt: skip
    """Simulate ``batch`` networks per ``(label, lam)`` config (widths padded to the largest)
    from ``W0 ~ N(0, I)``, ``a = +-1``: gradient flow to ``T_FINAL`` (``method="flow"``,
    DOP853 at ``rtol``) or ``GD_STEPS`` gradient-descent steps of size ``GD_FRACTION`` x
    footnote 3's bound (``method="gd"``), on ``device`` in float64."""
    import torch

    if method not in ("flow", "gd"):
        raise ValueError(f"method must be 'flow' or 'gd', got {method!r}")
    if isinstance(batch, bool) or not isinstance(batch, int) or batch < 1:
        raise ValueError(f"batch must be an integer >= 1, got {batch!r}")
    if not configs:
        raise ValueError("configs must not be empty")
    X = np.asarray(X, float)
    m_max = max(len(lam) for _, lam in configs)
    lam = np.zeros((len(configs) * batch, m_max))
    labels, widths = [], []
    for i, (label, lam_i) in enumerate(configs):
        lam[i * batch : (i + 1) * batch, : len(lam_i)] = lam_i
        labels += [label] * batch
        widths += [len(lam_i)] * batch
    B, d = len(lam), X.shape[1]
    params = node_scaled_parameters(lam, d, B, seed=seed, device=device, dtype=torch.float64)
    model = NodeScaled(X, y, activation="linear", eta=1.0)
    # these tensors are tiny: on CPU, torch's intra-op threads cost more than they give (a
    # (10, 100, 4) batched product took 20 ms with 2 threads on a loaded 2-core machine, 0.3 ms
    # with 1), so one thread for the run, restored afterwards
    threads = torch.get_num_threads()
    if str(device).startswith("cpu"):
        torch.set_num_threads(1)
    try:
        return _integrate(model, params, lam, X, method, rtol, device, labels, widths)
    finally:
        torch.set_num_threads(threads)


def _integrate(model, params, lam, X, method, rtol, device, labels, widths) -> LinearRun:
    if method == "flow":
        res = gradient_flow(model, params, [0.0, T_FINAL], rtol=rtol, device=device)
        W_end, steps = res.params["W"][-1], res.steps
    else:
        # the smallest footnote-3 bound over the batch (all equal under eq. (1), S = 1)
        lr = GD_FRACTION * min(lns.gd_step_bounds(X, row)[0] for row in lam)
        res = gradient_descent(model, params, lr, [0, GD_STEPS], device=device)
        W_end, steps = res.params["W"][-1], GD_STEPS
    return LinearRun(
        W0=params["W"].cpu().numpy(), W=W_end.cpu().numpy(), a=params["a"].cpu().numpy(),
        lam=lam, widths=np.array(widths), labels=labels, steps=steps,
    )  # fmt: skip


def _configs(widths, gammas, families) -> list[tuple[str, np.ndarray]]:
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


_FAMILIES_FAST = [("Zipf(0.5)", ns.zipf("0.5")), ("K=5", ns.finite_k(5))]
_FAMILIES_FULL = [("Zipf(0.5)", ns.zipf("0.5")), ("Zipf(0.7)", ns.zipf("0.7")),
                  ("K=5", ns.finite_k(5))]  # fmt: skip
_DATA = {"n>d (8x4, full column rank)": (8, 4, None), "n<d (3x6, V V^T != I)": (3, 6, None),
         "rank 2 < min(n, d) (5x4)": (5, 4, 2)}  # fmt: skip


def closed_form_agreement(*, method: str = "flow", full: bool = False, device: Any = "cpu",
                          seed: int = 0) -> Report:  # fmt: skip
    """Simulated ``W_inf - W_0`` and ``f`` on probes vs eqs. (19)-(20) over data sets (n > d,
    n < d, rank < min(n, d)), widths, scalings gamma in {1, 0.5, 0} and weight families.

    Tolerance: DOP853 at rtol 1e-10 with scipy's error norm; the flow contracts in the data
    space and is constant elsewhere, so the global error stays at the few-steps-of-local-error
    level: 1e-8 relative to the state's scale ``max|W_0|`` (atol) plus 1e-8 relative; the
    exponential residual at ``T_FINAL`` (4e-18) and float64 rounding (1e-16 x O(m) sums) are
    far below it.  GD: the same tolerance covers the 6e-23 residual and rounding."""
    widths = (10, 100, 1000) if full else (10, 100)
    gammas = (1, 0.5, 0)
    families = _FAMILIES_FULL if full else _FAMILIES_FAST
    # fast default: the rank-deficient n < d data for the flow (V V^T != I: the (I - V V^T)
    # beta_0 part of (20) is exercised), both kinds for GD (cheap)
    keys = list(_DATA) if full else (list(_DATA)[:2] if method == "gd" else [list(_DATA)[1]])
    data_sets = {k: _DATA[k] for k in keys}
    batch = 3 if full else 1
    worst, lines, per = 0.0, [], {}
    for dname, (n, d, rank) in data_sets.items():
        X, y, probes = linear_data(n, d, rank=rank, seed=seed + n + d)
        run = run_linear(X, y, _configs(widths, gammas, families), batch=batch, method=method,
                         seed=seed, device=device)  # fmt: skip
        scale = float(np.abs(run.W0).max())
        tol = Tolerance(rtol=1e-8, atol=1e-8 * scale, reason=_TOL_REASON)
        errs = []
        for b in range(len(run.lam)):
            m = run.widths[b]
            cf = lns.closed_form(X, y, run.lam[b, :m], run.a[b, :m], run.W0[b, :m],
                                 probes=probes)  # fmt: skip
            dW = run.W[b, :m] - run.W0[b, :m]
            beta = (np.sqrt(run.lam[b, :m]) * run.a[b, :m]) @ run.W[b, :m]
            f_sim = probes @ beta / math.sqrt(d)
            e = max(error_in_units(dW, cf.delta_W, tol), error_in_units(f_sim, cf.f, tol))
            errs.append(e)
            per[(dname, run.labels[b], b)] = e
        worst = max(worst, max(errs))
        lines.append(f"{dname}: {len(errs)} networks, worst {max(errs):.2g} tol")
    what = "gradient flow (DOP853 rtol 1e-10, t = 40)" if method == "flow" else (
        f"gradient descent ({GD_STEPS} steps, lr = {GD_FRACTION} x d/(D_max^2 S))")  # fmt: skip
    detail = (f"{what}, widths {widths}, gamma {gammas}, {[f for f, _ in families]}: "
              + "; ".join(lines) + " (tolerance 1e-8 rel + 1e-8 max|W0|; residual of the "
              "slowest mode at the end: flow e^-40 = 4e-18, GD 0.775^200 = 6e-23)")  # fmt: skip
    return Report(worst, detail, Tolerance(rtol=1e-8, reason=_TOL_REASON), {"errors": per})


_TOL_REASON = ("DOP853 at rtol 1e-10 on a contractive linear flow: global error ~ 1e-8 of the "
               "state scale max|W0| (atol) plus 1e-8 relative; residual e^-40 and float64 "
               "rounding far below")  # fmt: skip


# ---------------------------------------------------------------------------
# Monte Carlo over initialisations, from the closed form (confirmed above against the flow)
# ---------------------------------------------------------------------------
def sample_limits(
    X: Any, y: Any, lam: np.ndarray, samples: int, *, seed: int = 0, chunk: int = 256,
    nodes: Any = None, probes: Any = None,
) -> dict[str, Any]:  # fmt: skip
    """Draw ``W0 ~ N(0, I)``, ``a = +-1`` and evaluate the closed form (19)-(20): returns the
    contributions ``c_j = sqrt(lambda_j) a_j w_inf_j`` for ``nodes`` (0-based, (N, len, d)),
    ``f`` on probes (N, p), and the per-node changes ``x^T (w_inf_j - w_0j)`` and
    ``x^T w_0j`` at the first probe (N, m) for the feature-learning ratios."""
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 2:
        raise ValueError(f"samples must be an integer >= 2, got {samples!r}")
    rng = np.random.default_rng(seed)
    lam = np.asarray(lam, float)
    m, d = len(lam), np.shape(X)[1]
    nodes = [0] if nodes is None else list(nodes)
    out: dict[str, list[Any]] = {"c": [], "f": [], "dz": [], "z0": [], "pruned": []}
    s = np.sqrt(lam)
    done = 0
    while done < samples:
        b = min(chunk, samples - done)
        W0 = rng.standard_normal((b, m, d))
        a = rng.integers(0, 2, (b, m)) * 2.0 - 1
        cf = lns.closed_form(X, y, lam, a, W0, probes=probes)
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


def contribution_monte_carlo(*, full: bool = False, seed: int = 1) -> Report:
    """Theorem 7.5: MC mean and covariance of ``c_j`` vs ``N(lambda_j/S beta_inf, lambda_j (I -
    lambda_j/S V V^T))`` at finite m (exact for Gaussian W0) and vs eq. (21) at the largest m
    where the exact finite-m distance to the limit is below 0.1 half-widths (else reported),
    plus a KS test of one standardised coordinate at level 1e-3."""

    X, y, _ = linear_data(2, 3, seed=seed)  # rank 2 < d = 3: V V^T != I
    N = 20000 if full else 2000
    cases = [(10, 0.5, "Zipf(0.5)", ns.zipf("0.5")), (100, 0, "K=5", ns.finite_k(5)),
             (1000, 0.5, "Zipf(0.5)", ns.zipf("0.5"))]  # fmt: skip
    if full:
        cases += [(1000, 0.5, "Zipf(0.7)", ns.zipf("0.7")), (10000, 0.5, "Zipf(0.7)",
                  ns.zipf("0.7")), (10000, 0.5, "Zipf(0.5)", ns.zipf("0.5")),
                  (1000, 1, "NTK", ns.zipf("0.5"))]  # fmt: skip
    nodes = [0, 1]
    svd = lns.reduced_svd(X)
    beta_inf = lns.closed_form(X, y, [1.0], [1.0], np.zeros((1, 3))).beta_inf
    iu = np.triu_indices(3)
    worst, lines, data = 0.0, [], {}
    tol = Tolerance(
        rtol=0.0,
        atol=1.0,
        reason="99.9% simultaneous normal CI (Bonferroni over "
        "the mean and covariance entries compared); units = error / half-width",
    )
    for m, g, name, w in cases:
        lam = scalings(m, g, w)
        smp = sample_limits(X, y, lam, N, seed=seed + m, nodes=nodes)["c"]
        feats, exact, limit = [], [], []
        for i, j in enumerate(nodes):
            mean, cov = lns.group_moments(lam[j], lam.sum(), beta_inf, svd.V)
            lmean, lcov = lns.contribution_limit_moments(j + 1, g, w, beta_inf, svd.V)
            cj = smp[:, i]
            dev = cj - mean
            feats.append(np.concatenate([cj, (dev[:, :, None] * dev[:, None, :])[:, iu[0], iu[1]]],
                                        1))  # fmt: skip
            exact.append(np.concatenate([mean, cov[iu]]))
            limit.append(np.concatenate([lmean, lcov[iu]]))
        mc = monte_carlo(np.concatenate(feats, 1))
        e_exact = mc.error_in_units(np.concatenate(exact))
        e_lim = mc.error_in_units(np.concatenate(limit))
        bias = float(np.max(np.abs(np.concatenate(exact) - np.concatenate(limit))
                            / mc.half_width))  # fmt: skip
        z = (smp[:, 0, 0] - exact[0][0]) / math.sqrt(exact[0][3])
        ks = stats.kstest(z, "norm")
        crit = float(stats.kstwo.ppf(1 - 1e-3, N))
        # eq. (21) is an m -> oo statement: the MC tests it only where the exact finite-m
        # moments are within 0.1 half-widths of the limit (a deterministic, known distance);
        # elsewhere that distance (-> 0 with m) is reported
        tested = bias < 0.1
        worst = max(worst, e_exact, ks.statistic / crit, e_lim if tested else 0.0)
        data[(m, g, name)] = (e_exact, e_lim, bias, ks.statistic, crit)
        lim_txt = (f"eq. (21) {e_lim:.2f} (tested; exact distance {bias:.2f})" if tested else
                   f"eq. (21) not tested (exact finite-m distance {bias:.2f})")  # fmt: skip
        lines.append(f"m={m} gamma={g} {name}: finite-m {e_exact:.2f}, {lim_txt} half-widths; "
                     f"KS {ks.statistic:.4f} vs {crit:.4f}")  # fmt: skip
    detail = (f"c_j for j = 1, 2, d = 3, rank 2, N = {N} samples each (last case: {mc.summary()}; "
              "closed form (19) sampled, confirmed vs the flow by gradient_flow_limit): "
              + "; ".join(lines))  # fmt: skip
    return Report(worst, detail, tol, data)


def _ratios(lam: np.ndarray, dz: np.ndarray, z0: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eqs. (17), (18) at t = oo for sigma = id: ``sum_j lambda_j dZ_j^2 / sum_k lambda_k
    Z_k0^2`` and the same with max_j."""
    den = (lam * z0**2).sum(1)
    num = lam * dz**2
    return num.sum(1) / den, num.max(1) / den


def feature_learning_sweep(*, full: bool = False, seed: int = 2) -> Report:
    """Definitions 7.1 / 7.3 at t = oo vs m for gamma in {0, 0.5, 1} (Zipf(0.5)): medians of
    the sum- and max-ratios over initialisations and the fitted log-log slopes over the
    widths (predicted: 0 for gamma < 1, -1 (sum) and -2 (max) for gamma = 1)."""
    X, y, probes = linear_data(3, 4, seed=seed)
    widths = (10, 100, 1000, 10000) if full else (10, 100, 1000)
    N = 2000 if full else 400
    w = ns.zipf("0.5")
    tol = Tolerance(
        rtol=0.0,
        atol=0.2,
        reason="slope allowance 0.2: the ratio is lambda^2 "
        "times an O(1) random factor whose median drifts by O(m^-1/2) over the "
        "fitted widths, plus the fit's sampling error (3 standard errors added)",
    )
    worst, lines, data = 0.0, [], {}
    for g in (0, 0.5, 1):
        med = {"sum": [], "max": []}
        for m in widths:
            lam = scalings(m, g, w)
            smp = sample_limits(X, y, lam, N, seed=seed + m, probes=probes[:1], chunk=64)
            r_sum, r_max = _ratios(lam, smp["dz"], smp["z0"])
            med["sum"].append(np.median(r_sum))
            med["max"].append(np.median(r_max))
        for kind, pred in (("sum", -1.0 if g == 1 else 0.0), ("max", -2.0 if g == 1 else 0.0)):
            lx, ly = np.log10(widths[1:]), np.log10(med[kind][1:])
            if len(lx) > 2:  # least squares with the standard error of the slope
                coef, cov = np.polyfit(lx, ly, 1, cov=True)
                slope, se = float(coef[0]), float(np.sqrt(cov[0, 0]))
            else:  # two widths: the slope between them (no standard error)
                slope, se = float((ly[1] - ly[0]) / (lx[1] - lx[0])), 0.0
            err = abs(slope - pred) / (tol.atol + 3 * se)
            worst = max(worst, err)
            data[(g, kind)] = (med[kind], slope, se)
            vals = ", ".join(f"{v:.3g}" for v in med[kind])
            lines.append(f"gamma={g} {kind}: medians [{vals}], slope {slope:.3f} +- {se:.3f} "
                         f"(predicted {pred:g})")  # fmt: skip
    detail = (f"Zipf(0.5), m in {widths}, N = {N} initialisations per point (closed form): "
              + "; ".join(lines) + "; slopes fitted over m >= 100")  # fmt: skip
    return Report(worst, detail, tol, data)


def _clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:

    alpha = 1 - confidence
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def pruning_monte_carlo(*, full: bool = False, seed: int = 3, eps: float = 0.5) -> Report:
    """Proposition 7.6: the empirical ``Pr(|f~_{m,rho}(x) - f_m(x)| > eps)`` over (W0, a) with
    a Clopper-Pearson interval (99.9%, Bonferroni over the cases) vs the exact normal
    probability (coverage, in units of the interval's half-width on that side) and the printed
    bound (never exceeded beyond the interval)."""
    X, y, probes = linear_data(2, 3, seed=seed)
    x = probes[0]
    widths = (10, 100, 1000) if full else (10, 100)
    N = 20000 if full else 3000
    w = ns.zipf("0.5")
    cases = [(m, g, rho) for m in widths for g in (0, 0.5, 1) for rho in (0.25, 0.5)]
    conf = 1 - 1e-3 / len(cases)
    svd = lns.reduced_svd(X)
    beta_inf = lns.closed_form(X, y, [1.0], [1.0], np.zeros((1, 3))).beta_inf
    tol = Tolerance(
        rtol=0.0,
        atol=1.0,
        reason="Clopper-Pearson 99.9% simultaneous intervals "
        "(Bonferroni over the cases); units = |p_hat - p| / (distance from p_hat to "
        "the interval end on p's side)",
    )
    worst, lines, data, violations = 0.0, [], {}, []
    for m, g, rho in cases:
        lam = scalings(m, g, w)
        r = math.floor(rho * m)
        mass = float(lam[r:].sum())
        smp = sample_limits(X, y, lam, N, seed=seed + m, probes=probes[:1], chunk=128)
        err = -smp["pruned"][:, r]  # f~ - f = -(pruned nodes' part of f)
        k = int(np.sum(np.abs(err) > eps))
        p_hat = k / N
        lo, hi = _clopper_pearson(k, N, conf)
        p = lns.pruning_exceedance(x, eps, mass, lam.sum(), beta_inf, svd.V)
        bound = lns.pruning_bound(x, eps, mass, beta_inf)
        side = (hi - p_hat) if p >= p_hat else (p_hat - lo)
        units = abs(p_hat - p) / side if side > 0 else (0.0 if p == p_hat else math.inf)
        worst = max(worst, units)
        if lo > bound:
            violations.append((m, g, rho))
        data[(m, g, rho)] = (mass, p_hat, lo, hi, p, bound)
        lines.append(f"m={m} gamma={g} rho={rho}: mass {mass:.3f}, MC {p_hat:.4f} "
                     f"[{lo:.4f}, {hi:.4f}], exact {p:.4f}, bound {bound:.3g}")  # fmt: skip
    if violations:
        worst = max(worst, math.inf)
    detail = (f"x = probe |x| = 1, eps = {eps}, d = 3, n = 2, Zipf(0.5), N = {N} per case "
              f"(closed form sampled): " + "; ".join(lines)
              + f"; bound exceeded beyond the CI in {violations or 'no case'}")  # fmt: skip
    return Report(worst, detail, tol, data)
