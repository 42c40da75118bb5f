"""Simulation-backed confirmations of seed 000 Section 7.2 (linear activation): Theorem 7.4's
trajectory against :func:`numerics.simulate` (mpmath Taylor and scipy), its limit against the
batched torch flow and gradient descent (:mod:`numerics.node_scaling_linear`), Theorem 7.5,
Definitions 7.1 / 7.3 and Proposition 7.6 by Monte Carlo.  The simulations return numbers;
every tolerance, criterion and verdict is here.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import stats

import numerics
from numerics import node_scaling_linear as nl
from solvable._core.activations import elementwise
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import (
    MC_CONFIDENCE,
    NOTHING_COMPARED,
    Tolerance,
    error_in_units,
    monte_carlo,
    worst_of,
)
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models.linear_node_scaling import SEED

_TOL_REASON = ("DOP853 at rtol 1e-10 on a contractive linear flow: global error ~ 1e-8 of the "
               "state scale max|W0| (atol) plus 1e-8 relative; residual e^-40 (flow) or "
               "0.775^200 (GD) and float64 rounding far below")  # fmt: skip


def _limit_f(X: Any, y: Any, lam: Any, a: Any, W0: Any, probes: Any) -> np.ndarray:
    """The learnt function on the probes, eq. (20) (second form, generated)."""
    return lns.limit(X, y, lam, a, W0, probes=probes).f


def _network_f(W: Any, a: Any, lam: Any, probes: Any) -> np.ndarray:
    """The network (2) with sigma = id at weights ``W`` on the probes (the one definition)."""
    return ns.network_output(W, a, np.sqrt(lam), probes, elementwise("linear", "numpy"),
                             math.sqrt(probes.shape[1]))  # fmt: skip


def closed_form_errors(runs: list[dict[str, Any]]) -> dict[tuple[str, str, int], float]:
    """For each simulated network of :func:`numerics.node_scaling_linear.flow_runs`: the
    largest error, in units of the tolerance, of the simulated ``W`` at the recorded times
    (flow: ``t = 1, T_FINAL``; GD: the end, against ``t = oo``) against
    :func:`solvable.models.linear_node_scaling.closed_form`, and of the simulated ``f`` on the
    probes
    against eq. (20); padded nodes must not move (else ``inf``)."""
    out = {}
    for data in runs:
        run, X, y, probes = data["run"], data["X"], data["y"], data["probes"]
        scale = float(np.abs(run.W0).max())
        tol = Tolerance(rtol=1e-8, atol=1e-8 * scale, reason=_TOL_REASON)
        gd = data["method"] == "gd"
        for b in range(len(run.lam)):
            m = run.widths[b]
            lam, a, W0 = run.lam[b, :m], run.a[b, :m], run.W0[b, :m]
            traj = lns.closed_form(ns.Setup(X, y, lam, "linear", 1), a, W0)
            # GD converges to the flow's limit (19); the flow is compared at its times
            W_ref = traj.at(math.inf).W[None] if gd else traj.sample(list(run.times)).W
            W_sim = run.W[b, :m][None] if gd else run.W_t[:, b, :m]
            f_sim = _network_f(run.W[b, :m], a, lam, probes)
            f_ref = _limit_f(X, y, lam, a, W0, probes)
            err = error_in_units(np.concatenate([W_sim.ravel(), f_sim]),
                                 np.concatenate([W_ref.ravel(), f_ref]), tol)  # fmt: skip
            moved = not np.array_equal(run.W[b, m:], run.W0[b, m:])  # padded nodes stay
            out[(data["name"], run.labels[b], b)] = math.inf if moved else err
    return out


def _flow_claim(method: str) -> Callable[..., Verdict]:
    def check(full: bool = False) -> Verdict:
        t0 = time.perf_counter()
        runs = nl.flow_runs(method=method, full=full)
        errors = closed_form_errors(runs)
        lines = []
        for data in runs:
            errs = [v for (name, _, _), v in errors.items() if name == data["name"]]
            lines.append(f"{data['name']}: {len(errs)} networks, worst {worst_of(*errs):.2g} tol")
        what = ("gradient flow (DOP853 rtol 1e-10) at t = 1, 40 vs W(t)" if method == "flow"
                else f"gradient descent ({nl.GD_STEPS} steps, lr = {nl.GD_FRACTION} x d/(D_max^2 "
                "S)) vs W(oo)")  # fmt: skip
        detail = (f"{what} and f on probes vs (20), widths {runs[0]['widths']}, gamma (1, 0.5, "
                  f"0), {runs[0]['families']}: " + "; ".join(lines) + " (tolerance 1e-8 rel + "
                  f"1e-8 max|W0|) [{time.perf_counter() - t0:.1f} s]")  # fmt: skip
        return Verdict.from_error(worst_of(*errors.values()), detail,
                                  Tolerance(rtol=1e-8, reason=_TOL_REASON))  # fmt: skip

    return check


def _state_error(a: ns.State, b: ns.State, tol: Tolerance) -> float:
    """The largest error of ``W``, ``f`` and the loss of two states, in units of ``tol``."""
    return worst_of(error_in_units(a.W, b.W, tol), error_in_units(a.f, b.f, tol),
               error_in_units([a.loss], [b.loss], tol))  # fmt: skip


def _trajectory_vs_simulate(dps: int | None = None) -> Verdict:
    # Theorem 7.4's trajectory (closed_form, float64 and mpmath at dps) against the raw flow of
    # the package's loss integrated by numerics.simulate (mpmath Taylor at dps; scipy DOP853
    # at rtol 1e-13) on one node-scaled linear network (n = 3 < d = 4, m = 3, eta = 2), at
    # absolute times 0, 0.3, 1, 3 and a late time against t = oo: W, f and the loss
    dps = 30 if dps is None else dps
    X = (("0.6", "-0.3", "0.5", "0.1"), ("0.2", "0.7", "-0.4", "0.3"),
         ("-0.5", "0.1", "0.2", "0.8"))  # fmt: skip
    setup = ns.Setup(X, ("0.9", "-0.4", "0.3"), ("0.5", "0.3", "0.2"), "linear", "2")
    a0 = ("1", "-1", "1")
    W0 = (("0.5", "-1", "0.25", "0.1"), ("2", "-0.3", "1", "-0.7"), ("-0.4", "0.9", "0.3", "1.2"))
    times = ["0", "0.3", "1", "3"]
    tol_mp = Tolerance.digits(dps - 5, "Taylor steps controlled to 10^-(dps + 20) and the closed "
                              "form at dps + 10 digits: 5 digits for rounding")  # fmt: skip
    tol_f = Tolerance(rtol=1e-10, atol=1e-12, reason="DOP853 at rtol 1e-13 (scipy's norm): "
                      "global error below 1e-11 on this contractive flow; float64 SVD")  # fmt: skip
    errs: dict[str, float] = {}
    sim = numerics.simulate(setup, a0, W0, times, method="mpmath", dps=dps)
    ref = lns.closed_form(setup, a0, W0, dps=dps).sample(times)
    for k, t in enumerate(times):
        errs[f"mpmath t={t}"] = _state_error(list(sim)[k], list(ref)[k], tol_mp)
    traj = lns.closed_form(setup, a0, W0)
    slowest = float(min(traj.rates))
    late = 45.0 / slowest  # exp(-45) = 3e-20 of the initial gap: below the float64 tolerance
    sim = numerics.simulate(setup, a0, W0, [*times, late], method="scipy")
    ref = traj.sample([*times, math.inf])
    for k, t in enumerate([*times, "oo"]):
        errs[f"scipy t={t}"] = _state_error(list(sim)[k], list(ref)[k], tol_f)
    worst = worst_of(*errs.values())
    return Verdict.from_error(
        worst,
        f"closed_form vs numerics.simulate (W, f, loss), rates {np.round(traj.rates, 4)}, "
        f"t = oo vs the flow at t = {late:.4g}; errors in tolerances (mpmath dps = {dps}, "
        "scipy rtol 1e-13): " + ", ".join(f"{k} {v:.2g}" for k, v in errs.items()),
        tol_f,
    )


def _contribution_mc(full: bool = False) -> Verdict:
    # Theorem 7.5: MC mean and covariance of c_j vs N(lambda_j/S beta_inf, lambda_j (I -
    # lambda_j/S V V^T)) at finite m (exact for Gaussian W0) and vs eq. (21) where the exact
    # finite-m distance to the limit is below 0.1 half-widths (else reported), plus a KS test
    # of one standardised coordinate at level 1e-3
    smp = nl.contribution_samples(full=full)
    X, y, N = smp["X"], smp["y"], smp["samples"]
    svd = lns.reduced_svd(X)
    beta_inf = lns.limit(X, y, [1.0], [1.0], np.zeros((1, X.shape[1]))).beta_inf
    iu = np.triu_indices(X.shape[1])
    tol = Tolerance(rtol=0.0, atol=1.0, reason="99.9% simultaneous normal CI (Bonferroni over "
                    "the mean and covariance entries); units = error / half-width")  # fmt: skip
    worst, lines = NOTHING_COMPARED, []
    for case in smp["cases"]:
        lam, c = case["lam"], case["c"]
        feats, exact, limit = [], [], []
        for i, j in enumerate(smp["nodes"]):
            mean, cov = lns.group_moments(lam[j], lam.sum(), beta_inf, svd.V)
            lmean, lcov = lns.contribution_limit_moments(j + 1, case["gamma"], case["weights"],
                                                         beta_inf, svd.V)  # fmt: skip
            cj = c[:, i]
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
        z = (c[:, 0, 0] - exact[0][0]) / math.sqrt(exact[0][3])
        ks = stats.kstest(z, "norm")
        crit = float(stats.kstwo.ppf(1 - 1e-3, N))
        # eq. (21) is an m -> oo statement: the MC tests it only where the exact finite-m
        # moments are within 0.1 half-widths of the limit (a deterministic, known distance);
        # elsewhere that distance (-> 0 with m) is reported
        tested = bias < 0.1
        worst = worst_of(worst, e_exact, ks.statistic / crit, e_lim if tested else 0.0)
        lim_txt = (f"eq. (21) {e_lim:.2f} (tested; exact distance {bias:.2f})" if tested else
                   f"eq. (21) not tested (exact finite-m distance {bias:.2f})")  # fmt: skip
        lines.append(f"m={case['m']} gamma={case['gamma']} {case['name']}: finite-m "
                     f"{e_exact:.2f}, {lim_txt} half-widths; KS {ks.statistic:.4f} vs "
                     f"{crit:.4f}")  # fmt: skip
    detail = (f"c_j for j = 1, 2, d = 3, rank 2, N = {N} samples each (limit (19) sampled, "
              "confirmed vs the flow by gradient_flow_limit): " + "; ".join(lines))  # fmt: skip
    return Verdict.from_error(worst, detail, tol)


PREDICTED_SLOPES = {(1, "sum"): -1.0, (1, "max"): -2.0}
"""Log-log slopes of the ratios (17), (18) against m at t = oo (Theorem 7.5): -1 and -2 for
gamma = 1 (lambda = 1/m), 0 for gamma < 1 (the limits are > 0)."""


def feature_learning_errors(sweep: nl.FeatureLearningSweep) -> dict[tuple[float, str], float]:
    """``|slope - predicted| / (0.2 + 3 s.e.)`` per ``(gamma, kind)`` (pass: ``<= 1``)."""
    return {key: abs(slope - PREDICTED_SLOPES.get((key[0], key[1]), 0.0))
            / (_SLOPE_TOL.atol + 3 * se) for key, (_, slope, se) in sweep.data.items()}  # fmt: skip


_SLOPE_TOL = Tolerance(
    rtol=0.0,
    atol=0.2,
    reason="slope allowance 0.2: the ratio is lambda^2 times an O(1) random factor whose median "
    "drifts by O(m^-1/2) over the fitted widths, plus the fit's sampling error (3 standard "
    "errors added)",
)


def _feature_learning(full: bool = False) -> Verdict:
    sweep = nl.feature_learning_sweep(full=full)
    errs = feature_learning_errors(sweep)
    lines = []
    for (g, kind), (med, slope, se) in sweep.data.items():
        vals = ", ".join(f"{v:.3g}" for v in med)
        lines.append(f"gamma={g} {kind}: medians [{vals}], slope {slope:.3f} +- {se:.3f} "
                     f"(predicted {PREDICTED_SLOPES.get((g, kind), 0.0):g}; "
                     f"{errs[(g, kind)]:.2f} tol)")  # fmt: skip
    detail = (f"Zipf(0.5), m in {sweep.widths}, N = {sweep.samples} initialisations per point "
              "(limit (19) sampled): " + "; ".join(lines)
              + "; slopes fitted over m >= 100")  # fmt: skip
    return Verdict.from_error(worst_of(*errs.values()), detail, _SLOPE_TOL)


def _clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:
    alpha = 1 - confidence
    lo = 0.0 if k == 0 else float(stats.beta.ppf(alpha / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - alpha / 2, k + 1, n - k))
    return lo, hi


def _pruning(full: bool = False) -> Verdict:
    # Proposition 7.6: the empirical Pr(|f~ - f| > eps) with a Clopper-Pearson interval
    # (99.9%, Bonferroni over the cases) vs the exact normal probability (coverage, in units
    # of the interval's half-width on that side) and the printed bound (never exceeded
    # beyond the interval)
    smp = nl.pruning_samples(full=full)
    X, y, x, eps, N = smp["X"], smp["y"], smp["x"], smp["eps"], smp["samples"]
    cases = smp["cases"]
    conf = 1 - (1 - MC_CONFIDENCE) / len(cases)
    svd = lns.reduced_svd(X)
    beta_inf = lns.limit(X, y, [1.0], [1.0], np.zeros((1, X.shape[1]))).beta_inf
    tol = Tolerance(rtol=0.0, atol=1.0, reason="Clopper-Pearson 99.9% simultaneous intervals "
                    "(Bonferroni over the cases); units = |p_hat - p| / (distance from p_hat to "
                    "the interval end on p's side)")  # fmt: skip
    worst, lines, violations = NOTHING_COMPARED, [], []
    for c in cases:
        p_hat = c["exceed"] / N
        lo, hi = _clopper_pearson(c["exceed"], N, conf)
        p = lns.pruning_exceedance(x, eps, c["mass"], c["total"], beta_inf, svd.V)
        bound = lns.pruning_bound(x, eps, c["mass"], beta_inf)
        side = (hi - p_hat) if p >= p_hat else (p_hat - lo)
        units = abs(p_hat - p) / side if side > 0 else (0.0 if p == p_hat else math.inf)
        worst = worst_of(worst, units)
        if lo > bound:
            violations.append((c["m"], c["gamma"], c["rho"]))
        lines.append(f"m={c['m']} gamma={c['gamma']} rho={c['rho']}: mass {c['mass']:.3f}, "
                     f"MC {p_hat:.4f} [{lo:.4f}, {hi:.4f}], exact {p:.4f}, "
                     f"bound {bound:.3g}")  # fmt: skip
    if violations:
        worst = math.inf
    detail = (f"x = probe |x| = 1, eps = {eps}, d = 3, n = 2, Zipf(0.5), N = {N} per case "
              f"(limit (19) sampled): " + "; ".join(lines)
              + f"; bound exceeded beyond the CI in {violations or 'no case'}")  # fmt: skip
    return Verdict.from_error(worst, detail, tol)


def claims() -> list[Theorem]:
    """The simulation-backed claims of :mod:`solvable.models.linear_node_scaling`."""

    def T(name, where, statement, fn, kind="numeric"):
        return Theorem(f"linear_node_scaling.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("trajectory_matches_simulation", "Theorem 7.4",
          "closed_form(setup, a0, W0).sample(times) (float64 and mpmath) equals the raw flow "
          "of eq. (5) integrated by numerics.simulate (mpmath Taylor at dps, scipy DOP853) at "
          "absolute times, and its t = oo state the flow at a late time (W, f, loss).",
          _trajectory_vs_simulate),
        T("gradient_flow_limit", "Theorem 7.4, eqs. (19), (20)",
          "The simulated gradient flow of eq. (5) (torch DOP853, float64, batched) follows W(t) "
          "at t = 1, 40 and its f on probes is (20) (n > d and n < d data, gamma in "
          "{1, 0.5, 0}, Zipf and finite K).", _flow_claim("flow")),
        T("gradient_descent_limit", "Theorem 7.4, footnote 3",
          "Gradient descent with step 0.9 d/(D_max^2 sum lambda) (below footnote 3) converges "
          "to the same W(oo) = (19) and f = (20).", _flow_claim("gd")),
        T("contribution_distribution", "Theorem 7.5, eq. (21)",
          "Monte Carlo over (W0, a): sqrt(lambda_j) a_j w_inf_j ~ N(lambda_j/S beta_inf, "
          "lambda_j (I - lambda_j/S V V^T)) at finite m, close to eq. (21) at large m; KS test "
          "of one coordinate.", _contribution_mc),
        T("feature_learning_iff", "Theorem 7.5, Definitions 7.1, 7.3",
          "Linear activation at t = oo: the sum- and max-ratios of eqs. (17)-(18) stay "
          "positive as m grows for gamma < 1 and vanish (like 1/m, 1/m^2) for gamma = 1.",
          _feature_learning),
        T("pruning_probability", "Proposition 7.6",
          "Monte Carlo Pr(|f~_{m,rho}(x) - f_m(x)| > eps) (Clopper-Pearson) matches the exact "
          "normal probability and lies below the printed bound.", _pruning),
    ]  # fmt: skip
