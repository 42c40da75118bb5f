"""Simulation-backed claims of seed 000 Theorems 5.1, 6.1 and Definitions 7.1 / 7.3:
the bounds monitored along simulated gradient flow (:mod:`numerics.node_scaling_experiment`)
and gradient descent (:mod:`numerics.node_scaling_gd`), which return numbers (monitors: the
simulated widths are far below the width conditions, so their verdicts are ``"observed"``,
not counted), Theorem 5.1's mechanism (the split (15): the lazy part of the NTG settles with
the width, the Zipf part moves) as fitted slopes that can fail, the step of (d)'s proof
before the width condition (:mod:`._global_convergence_theorem_5_1_d`), the
feature-learning ratios against the width; the orderings Section 8.1.1 states and Figure 2's
comparisons are judged in :mod:`solvable.verification.seed_000_experiments` (registered here).
Every criterion and tolerance is here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.models import NodeScaled
from numerics.node_scaling_experiment import (
    feature_learning_sweep,
    monitor_theorem_5_1,
    nested_parameters,
    node_scalings,
    sphere_data,
)
from numerics.node_scaling_experiment.section_8_2 import section_8_2_digits
from numerics.node_scaling_experiment.section_8_2_1 import section_8_2_1_regression
from numerics.node_scaling_experiment.section_8_2_2 import section_8_2_2_classification
from numerics.node_scaling_gd import monitor_theorem_6_1
from numerics.torch_flow import gradient_flow, threads
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, monte_carlo, worst_of
from solvable.models import global_convergence as gcv
from solvable.models import ntg
from solvable.models.global_convergence import SEED
from solvable.verification.confirmations._global_convergence_remark_5_2 import (
    remark_5_2_numeric,
)
from solvable.verification.confirmations._global_convergence_theorem_5_1_d import (
    theorem_5_1_d_step_2,
)
from solvable.verification.section_8_2 import (
    section_8_2_1_verdict,
    section_8_2_2_verdict,
    section_8_2_verdict,
)
from solvable.verification.seed_000_experiments import global_convergence_claims
from solvable.verification.seed_000_experiments import (
    section_8_1_1_orderings as section_8_1_1_orderings,
)


def monitor_verdict(result: dict[str, Any]) -> tuple[float, str]:
    """``(worst, detail)`` on :func:`numerics.node_scaling_experiment.monitor_theorem_5_1`:
    ``worst`` is the largest observed/bound ratio over the cases, seeds and (a)-(d) (for (a)
    the inverse ``(gamma kappa_n/4)/min_t eig_min``): the bounds hold in the simulation iff
    ``worst <= 1``; ``detail`` lists every case."""
    parts, worst = [], NOTHING_COMPARED
    for c in result["cases"]:
        a = float(np.min(c["eig_min_over_bound_min"]))  # np.min/np.max keep a NaN
        b = float(np.max(c["loss_over_bound_max"]))
        cc = float(np.max(c["move_over_bound_max"]))
        cl = float(np.max(c["move_over_bound_given_loss_max"]))
        dd = float(np.max(c["ntg_change_over_bound_max"]))
        worst = worst_of(worst, 1 / a if a > 0 else math.inf, b, cc, dd)
        met = c["width"] >= c["width_condition"]
        parts.append(
            f"gamma={c['gamma']:g} m={c['width']}: min_t eig_min/(a) = {a:.3g}, max_t L/(b) = "
            f"{b:.3g}, max ||dw_j||/(c) = {cc:.2e} (/pre-Markov step {cl:.3g}), max "
            f"||dTheta||_2/(d) = {dd:.2e}; width condition m >= {c['width_condition']:.2e} "
            f"{'met' if met else 'NOT met'}"
        )
    head = (
        f"n={result['n']}, d={result['d']}, swish, kappa_n={result['kappa_n']:.4g}, "
        f"C={result['C']:.3g}, C_1={result['C1']:.4g}, M={result['M']:g}, delta="
        f"{result['delta']:g}, Zipf alpha={result['alpha']:g}, seeds "
        f"{result['cases'][0]['seeds']}, GF to t = {result['horizon']:g}/(gamma kappa_n): "
    )
    return worst, head + "; ".join(parts) + f"; worst ratio {worst:.3g} (<= 1: bounds held)"


def gd_monitor_verdict(result: dict[str, Any]) -> tuple[float, str]:
    """``(worst, detail)`` on :func:`numerics.node_scaling_gd.monitor_theorem_6_1`: ``worst``
    is the largest observed/bound ratio over the cases, seeds and recorded steps of (i)
    ``||y - u_s||^2`` against the corrected (16), ``(1 - eta gamma kappa_n/2)^s ||y -
    u_0||^2``, and (ii) ``max_j ||w_sj - w_0j||/sqrt(lambda_j)`` against the weights' distance
    bound ``eta sqrt(n/d) ||y - u_0|| (1 - beta^s)/(1 - beta)`` (both from the generated
    evaluators of :mod:`solvable.models.global_convergence`); the run passes iff ``worst <= 1``.
    ``min_s eig_min/(gamma kappa_n/4)`` (Theorem 5.1(a)'s bound, used by the proof) and the
    width condition at ``eta`` are reported."""
    steps = np.array(result["record_steps"], dtype=float)
    parts, worst = [], NOTHING_COMPARED
    for c in result["cases"]:
        consts = gcv.Constants(result["n"], result["d"], result["kappa_n"], c["gamma"],
                               result["delta"], result["C"], result["C1"], result["M"])  # fmt: skip
        eta = result["eta"]
        r2 = np.array(c["residual_sq"])  # (seeds, T)
        move = np.array(c["move_scaled"])
        eig = np.array(c["eig_min"])
        bound16 = np.asarray(gcv.gd_residual_bound_numeric(consts, eta, steps[None, :],
                                                           r2[:, :1]))  # fmt: skip
        pos = steps > 0
        wb = np.asarray(gcv.gd_weight_bound_given_residual_numeric(
            consts, eta, np.sqrt(r2[:, :1]), 1.0, steps[None, pos]))  # fmt: skip
        rate_ratio = float(np.max(r2[:, pos] / bound16[:, pos]))
        move_ratio = float(np.max(move[:, pos] / wb))
        eig_ratio = float(np.min(eig) / float(gcv.eig_min_bound_numeric(consts)))
        decay = float(np.max(r2[:, -1] / r2[:, 0]))
        worst = worst_of(worst, rate_ratio, move_ratio)
        met = result["width"] >= c["width_condition"]
        parts.append(
            f"gamma={c['gamma']:g}: max_s ||y - u_s||^2/(16) = {rate_ratio:.3g} (residual^2 "
            f"fell to {decay:.2e} of its start; bound to {float(bound16[0, -1] / r2[0, 0]):.3g}"
            f"), max_s ||dw_j||/bound = {move_ratio:.3g}, min_s eig_min/(gamma kappa_n/4) = "
            f"{eig_ratio:.3g}; eta/limit = {eta / c['step_size_limit']:.3g}; width condition "
            f"m >= {c['width_condition']:.2e} {'met' if met else 'NOT met'}"
        )
    head = (
        f"GD, n={result['n']}, d={result['d']}, {result['activation']} (Assumption 3.2: "
        f"|sigma'| <= 1, M={result['M']:.4g}), kappa_n={result['kappa_n']:.4g}, C="
        f"{result['C']:.3g}, C_1={result['C1']:.4g}, delta={result['delta']:g}, Zipf alpha="
        f"{result['alpha']:g}, m={result['width']}, seeds {result['seeds']}, eta="
        f"{result['eta']:.4g}, {result['steps']} steps: "
    )
    return worst, head + "; ".join(parts) + f"; worst ratio {worst:.3g} (<= 1: bounds held)"


def feature_learning_criteria(result: dict[str, Any]) -> tuple[bool, str]:
    """The criteria on :func:`numerics.node_scaling_experiment.feature_learning_sweep` (MC
    intervals from :func:`solvable.monte_carlo` over the per-seed log-log slopes): ``gamma =
    1``: the slope intervals of both ratios lie below 0 (decay with ``m``); ``gamma < 1``: the
    max-ratio's slope interval reaches 0 or above (no significant decay: bounded away from 0
    along the widths) AND that slope exceeds the ``gamma = 1`` one by more than the combined
    half-width (so a sweep too small to tell the regimes apart fails instead of passing on
    wide intervals).  Returns ``(all criteria hold, detail)``."""
    ok, parts = True, []
    lazy = [g for g in result["gammas"] if g["gamma"] == 1]
    if len(lazy) != 1:
        raise ValueError("the sweep must include gamma = 1 exactly once (the reference)")
    ref = monte_carlo(lazy[0]["max_slopes"])
    for g in result["gammas"]:
        s_mc = monte_carlo(g["sum_slopes"])
        m_mc = monte_carlo(g["max_slopes"])
        top = monte_carlo(np.array(g["max_ratio"])[-1])
        low_ratio = np.array(g["max_ratio"]).mean(1)
        if g["gamma"] == 1:
            good = bool(s_mc.high < 0 and m_mc.high < 0)
        else:
            gap = float(m_mc.mean - ref.mean)
            good = bool(m_mc.high >= 0 and gap > float(np.hypot(m_mc.half_width, ref.half_width)))
        ok &= good
        parts.append(
            f"gamma={g['gamma']:g}: slope (17) {float(s_mc.mean):.3f} +- "
            f"{float(s_mc.half_width):.3f}, slope (18) {float(m_mc.mean):.3f} +- "
            f"{float(m_mc.half_width):.3f} ({len(g['max_slopes'])} seeds); mean (18) over widths "
            f"{', '.join(f'{v:.3g}' for v in low_ratio)}; (18) at m={result['widths'][-1]}: "
            f"{top.summary()}; final loss max {np.max(g['loss_end']):.2e} "
            f"[{'ok' if good else 'FAILS'}]"
        )
    head = (
        f"n={result['n']}, d={result['d']}, swish, Zipf alpha={result['alpha']:g}, widths "
        f"{result['widths']}, {len(result['seeds'])} seeds (nested nodes), x = X[0], GF to "
        f"t = {result['horizon']:g}/(gamma kappa_n); MC 99.9% intervals over seeds: "
    )
    return ok, head + "; ".join(parts)


# Why the two monitors cannot fail (Theorem.reason: solvable verify prints it and does not
# count them).  Measured at the fast defaults: Theorem 5.1's width condition is 1.7e12 and
# 6.9e12 (m = 100 simulated), its ratios (c) 2.8e-3 and (d) 3.6e-7; Theorem 6.1's is 1.4e8
# and 5.5e8 (m = 200).  (b) and (16) are ~0.999 only because both sides start equal at t = 0.
_MONITOR_5_1_REASON = (
    "Theorem 5.1's width condition (1e12 to 1e13 here) is not met at the simulated widths "
    "(m <= 4000), so the theorem says nothing about these runs; its bounds (c), (d) sit 1e-3 "
    "to 1e-7 above what is measured: no outcome could confirm or contradict it.  The "
    "checkable parts, the proof's split (15) and (d)'s step before the width condition, are "
    "global_convergence.theorem_5_1_ntg_split and global_convergence.theorem_5_1_d_step_2"
)
_MONITOR_6_1_REASON = (
    "Theorem 6.1's width condition (1e8 to 6e8 here) is not met at the simulated widths "
    "(m <= 2000), so the theorem says nothing about these runs: the bounds are monitored "
    "(their numbers reported), no outcome could confirm or contradict it"
)


def _monitored(full: bool = False) -> Verdict:
    # Theorem 5.1 along simulated gradient flow (numerics.node_scaling_experiment).  The
    # simulated widths are far below the width condition: a monitor (kind "monitor", verdict
    # "observed", not counted); the figure is the largest observed/bound ratio over (a)-(d)
    # and t, reported; a crash or a non-finite ratio still fails.
    result = monitor_theorem_5_1(**_monitor_setup(full))
    worst, detail = monitor_verdict(result)
    return Verdict.observe(worst, detail)


def _monitor_setup(full: bool) -> dict[str, Any]:
    if full:
        return {"n": 10, "d": 5, "data_seed": 1, "gammas": (1.0, 0.5, 0.2), "alpha": 0.5,
                "widths": (100, 1000, 4000), "seeds": (0, 1), "delta": 0.1,
                "threads": 1}  # fmt: skip
    return {"n": 4, "d": 3, "data_seed": 0, "gammas": (1.0, 0.5), "alpha": 0.5,
            "widths": (100,), "seeds": (0,), "delta": 0.1, "horizon": 4.0, "n_times": 40,
            "rtol": 1e-8, "threads": 1}  # fmt: skip


def _gd_monitored(full: bool = False) -> Verdict:
    # Theorem 6.1 along simulated gradient descent (numerics.node_scaling_gd) at a step size
    # 0.9 x the theorem's limit.  The width condition (~1e8 here, ~n^4/(kappa_n^4 ...) in
    # general) is far above the simulated widths: an empirical check of the bound's form
    # outside the regime the theorem covers, not a check that its hypotheses hold.
    # Default horizon 0.5 (6491 steps; 1.0 took twice the CPU): measured at horizon 1.0 every
    # maximum the verdict reads (residual/(16) 0.999, ||dw_j||/bound 0.658 and 0.727) is
    # attained in the first half, identical to 3 digits at 0.5; the residual still falls to
    # 1.4e-2 (gamma = 1) and 3.0e-2 (gamma = 1/2) of its start, two decades of the linear
    # rate, and min eig_min/(gamma kappa_n/4) is 4.04 and 5.62 (5.54 at 1.0), far above 1.
    # The full run goes to horizon 3 at width 2000, two seeds.
    setup = ({"widths": 2000, "seeds": (0, 1), "horizon": 3.0} if full else
             {"widths": 200, "seeds": (0,), "horizon": 0.5})  # fmt: skip
    with threads(1):
        result = monitor_theorem_6_1(width=setup["widths"], seeds=setup["seeds"],
                                     horizon=setup["horizon"])  # fmt: skip
    worst, detail = gd_monitor_verdict(result)
    return Verdict.observe(worst, detail)  # a monitor: reported, not judged (_MONITOR_6_1_REASON)


def _feature_learning(full: bool = False) -> Verdict:
    # Definitions 7.1 / 7.3 at t large vs width: gamma = 1 ratios decay (per-seed log-log
    # slopes, MC mean and 99.9% CI: high end < 0); gamma < 1 max-ratio stays bounded away from
    # 0 (slope CI high end >= 0, i.e. no significant decay with m) and its slope exceeds
    # gamma = 1's by more than the combined CI half-width (the regimes are told apart).
    if full:
        setup = {"n": 10, "d": 5, "data_seed": 1, "gammas": (1.0, 0.5, 0.2), "alpha": 0.5,
                 "widths": (100, 400, 1600, 6400), "seeds": (0, 1, 2, 3, 4),
                 "threads": 1}  # fmt: skip
    else:
        setup = {"n": 4, "d": 3, "data_seed": 0, "gammas": (1.0, 0.5), "alpha": 0.5,
                 "widths": (25, 100, 400), "seeds": (0, 1, 2, 3), "horizon": 4.0,
                 "rtol": 1e-7, "threads": 1}  # fmt: skip
    result = feature_learning_sweep(**setup)
    ok, detail = feature_learning_criteria(result)
    tol = Tolerance(
        rtol=1.0,
        reason="sign tests on MC intervals (monte_carlo, 99.9% simultaneous) of per-seed "
        "log-log slopes; max_error 0 pass, 1 fail",
    )
    return Verdict("confirmed" if ok else "failed", detail, max_error=0.0 if ok else 1.0,
                   tolerance=tol)  # fmt: skip


# ---------------------------------------------------------------------------
# Theorem 5.1's mechanism, the split (15), at simulated widths
# ---------------------------------------------------------------------------
def ntg_split_sweep(
    *,
    n: int = 4,
    d: int = 3,
    data_seed: int = 0,
    gammas: tuple[float, ...] = (0.5,),
    alpha: float = 0.5,
    widths: tuple[int, ...] = (25, 100, 400),
    seeds: tuple[int, ...] = (0, 1, 2, 3),
    horizon: float = 4.0,
    n_times: int = 9,
    rtol: float = 1e-8,
    activation: str = "swish",
) -> dict[str, Any]:
    """The two parts of the NTG split (15) of seed 000 (proof sketch of Theorem 5.1) along
    gradient flow: ``Theta^(1)`` (node scalings ``lambda^(1)_{m,j} = gamma/m``, the lazy part)
    and ``Theta^(2)`` (``lambda^(2)_{m,j} = lambda_{m,j} - gamma/m``, the Zipf part), eq. (7)
    with those scalings at the simulated weights ``W_t`` (:func:`solvable.models.ntg.ntg`).

    Gradient flow of eq. (2) (:class:`numerics.models.NodeScaled`, DOP853 at ``rtol``) to
    ``t_end = horizon/(gamma kappa_n)`` on :func:`numerics.node_scaling_experiment.sphere_data`,
    nested widths per seed (Definition 7.1).  Returns per ``gamma``: ``move_1``, ``move_2``
    (widths, seeds) ``max_t ||Theta^(k)_t - Theta^(k)_0||_2`` on ``n_times`` equally spaced
    times, and the per-seed log-log slopes ``slopes_1``, ``slopes_2`` against ``m``."""
    if len(widths) < 2 or list(widths) != sorted(set(widths)):
        raise ValueError(f"widths must be >= 2 increasing widths, got {widths!r}")
    X, y = sphere_data(n, d, seed=data_seed)
    kappa = float(ntg.kappa_n(X, activation))
    model = NodeScaled(X, y, activation=activation, eta=1.0)
    out: dict[str, Any] = {"n": n, "d": d, "alpha": alpha, "kappa_n": kappa, "horizon": horizon,
                           "widths": list(widths), "seeds": list(seeds), "gammas": []}  # fmt: skip
    logw = np.log(np.asarray(widths, dtype=float))
    for gamma in gammas:
        t_end = horizon / (gamma * kappa)
        times = np.linspace(0.0, t_end, n_times)
        move_1, move_2 = [], []
        for m in widths:
            lam = node_scalings(m, gamma, alpha)
            p0 = nested_parameters([lam] * len(seeds), d, seeds, max_width=max(widths))
            with threads(1):
                res = gradient_flow(model, p0, times, rtol=rtol, max_steps=400_000)
            W = res.params["W"].detach().cpu().numpy()  # (T, B, m, d)
            a = p0["a"].cpu().numpy()
            lam_1 = np.full(m, gamma / m)
            lam_2 = np.clip(lam - gamma / m, 0.0, None)  # >= 0 up to one rounding
            for lam_k, store in ((lam_1, move_1), (lam_2, move_2)):
                lam_b = np.broadcast_to(lam_k, a.shape)
                theta = np.array([ntg.ntg(X, W[t], a, lam_b, activation) for t in range(len(W))])
                change = np.linalg.norm(theta - theta[:1], ord=2, axis=(-2, -1))  # (T, B)
                store.append(change.max(0))
        M1, M2 = np.array(move_1), np.array(move_2)  # (widths, seeds)
        slopes_1, slopes_2 = (np.polyfit(logw, np.log(M), 1)[0].tolist() for M in (M1, M2))
        out["gammas"].append({"gamma": gamma, "t_end": t_end, "move_1": M1.tolist(),
                              "move_2": M2.tolist(), "slopes_1": slopes_1,
                              "slopes_2": slopes_2})  # fmt: skip
    return out


def ntg_split_verdict(result: dict[str, Any]) -> Verdict:
    """The checkable mechanism of Theorem 5.1 (seed 000, split (15) and proof points (ii)-(iii))
    at simulated widths, on :func:`ntg_split_sweep`: for every ``gamma < 1``, (i) the lazy part
    ``Theta^(1)`` settles with width: the MC interval (:func:`solvable.monte_carlo`, 99.9%
    simultaneous, over the per-seed log-log slopes of ``max_t ||Theta^(1)_t - Theta^(1)_0||_2``)
    lies below 0; (ii) the Zipf part ``Theta^(2)`` does not: its slope exceeds the lazy part's
    by more than the combined half-width.  ``max_error``: the worse of ``half-width_1 /
    (-slope_1)`` and ``hypot(half-widths) / (slope_2 - slope_1)`` (each < 1 exactly when its
    criterion holds; ``inf`` when a slope has the wrong sign)."""
    worst, parts = NOTHING_COMPARED, []
    for g in result["gammas"]:
        if not 0 < g["gamma"] < 1:
            raise ValueError(f"the split (15) is a gamma < 1 statement, got gamma={g['gamma']}")
        s1, s2 = monte_carlo(g["slopes_1"]), monte_carlo(g["slopes_2"])
        m1, h1 = float(s1.mean), float(s1.half_width)
        m2, h2 = float(s2.mean), float(s2.half_width)
        settle = h1 / -m1 if m1 < 0 else math.inf
        apart = float(np.hypot(h1, h2)) / (m2 - m1) if m2 > m1 else math.inf
        worst = worst_of(worst, settle, apart)
        M1, M2 = np.array(g["move_1"]).mean(1), np.array(g["move_2"]).mean(1)
        parts.append(
            f"gamma={g['gamma']:g}: mean max_t ||dTheta^(1)||_2 over widths "
            f"{', '.join(f'{v:.3g}' for v in M1)}, slope {m1:.3f} +- {h1:.3f} (settles: "
            f"{settle:.2f}); mean max_t ||dTheta^(2)||_2 {', '.join(f'{v:.3g}' for v in M2)}, "
            f"slope {m2:.3f} +- {h2:.3f} (apart from Theta^(1): {apart:.2f})"
        )
    if not math.isfinite(worst) and worst != math.inf:
        worst = math.inf  # a NaN slope fails
    head = (
        f"n={result['n']}, d={result['d']}, swish, Zipf alpha={result['alpha']:g}, widths "
        f"{result['widths']}, {len(result['seeds'])} seeds (nested nodes), GF to t = "
        f"{result['horizon']:g}/(gamma kappa_n); MC 99.9% intervals over seeds: "
    )
    tol = Tolerance(rtol=1.0, reason="MC 99.9% simultaneous intervals (monte_carlo) over the "
                    "per-seed slopes: max_error is an interval half-width over the margin it "
                    "must stay within (pass <= 1)")  # fmt: skip
    return Verdict.from_error(worst, head + "; ".join(parts), tol)


def _ntg_split(full: bool = False) -> Verdict:
    # fast: gamma = 1/2 at m in {25, 100, 400}, 4 seeds (the feature-learning claim's sizes);
    # full: gamma in {1/2, 1/5}, m up to 1600, 6 seeds, the monitor's n = 10, d = 5
    if full:
        setup = {"n": 10, "d": 5, "data_seed": 1, "gammas": (0.5, 0.2),
                 "widths": (100, 400, 1600), "seeds": tuple(range(6)),
                 "horizon": 10.0}  # fmt: skip
    else:
        setup = {}
    return ntg_split_verdict(ntg_split_sweep(**setup))


def _section_8_2_digits(full: bool = False) -> Verdict:
    # Section 8.2 (Figure 4: pruning, transfer) on scikit-learn's digits (even vs odd;
    # issue 32's stand-in for MNIST).  fast: width 100, 200 GD steps, 4 repeats; full: the
    # paper's width 2000 and 2000 steps (its MNIST runs: 5000 images, 10 outputs), 5
    # repeats, all 1797 images (1000 / 397 / 400).  Measured at width 500 (1000 steps, 5
    # repeats): the middle pair gamma = 0.5 / 0.2 is within 2 SE (figure 1.92, failed), so
    # full=True is expected to fail there (docs/real_data.md); the default passes (0.75).
    setup = ({"width": 2000, "steps": 2000, "repeats": 5, "n_train": 1000, "n_test": 397,
              "n_transfer": 400} if full else {})  # fmt: skip
    return section_8_2_verdict(section_8_2_digits(threads=1, **setup))


def _section_8_2_1_regression(full: bool = False) -> Verdict:
    # Section 8.2.1 (Figure 3: weight and NTG change, transfer) on scikit-learn's diabetes
    # set (the UCI sets need a download).  fast: width 100, 200 GD steps at rate 0.5, 4
    # repeats (about 7 CPU s); the orderings it does not show beyond 2 SE are the caveats
    # of section_8_2.CAVEATS_8_2_1, reported with their numbers.  full: the paper's width
    # 2000 and 100 000 steps, 5 repeats, every ordering asserted (not run: hours on a CPU).
    if full:
        result = section_8_2_1_regression(width=2000, steps=100_000, repeats=5, threads=1)
        return section_8_2_1_verdict(result, caveats={})
    return section_8_2_1_verdict(section_8_2_1_regression(threads=1))


def _section_8_2_2_digits(full: bool = False) -> Verdict:
    # Section 8.2.2's CIFAR experiment (Figure 5: SGD at batch 64, cross-entropy, both layers
    # trained, rate 5; pruning) on the digits with ten classes, in place of frozen ResNet-18
    # CIFAR features.  fast: width 100, 400 steps, 500 training images, 4 repeats (about 3
    # CPU s); the orderings it does not show beyond 2 SE are section_8_2.CAVEATS_8_2_2.
    # full: the paper's width 2000, 20 000 steps (about 900 epochs of 1397 images), 5
    # repeats, every ordering asserted (not run).
    if full:
        result = section_8_2_2_classification(width=2000, steps=20_000, repeats=5,
                                              n_train=1397, n_test=400, threads=1)  # fmt: skip
        return section_8_2_2_verdict(result, caveats={})
    return section_8_2_2_verdict(section_8_2_2_classification(threads=1))


def claims() -> list[Theorem]:
    """The simulation-backed claims of :mod:`solvable.models.global_convergence`."""

    def T_(name, where, statement, fn, kind="numeric", reason=""):
        return Theorem(f"global_convergence.{name}", f"{SEED} {where}", statement, kind, fn,
                       reason)  # fmt: skip

    return [
        T_("theorem_5_1_monitored", "Theorem 5.1 (a)-(d)",
           "Monitor (observed, not counted): along simulated gradient flow (swish, gamma in "
           "{1, 0.5[, 0.2]}, Zipf alpha = 1/2) the ratios of (a)-(d) to their bounds, at "
           "widths far below the width condition (full=True: n = 10, d = 5, m in {100, 1000, "
           "4000}).", _monitored, "monitor", _MONITOR_5_1_REASON),
        T_("theorem_5_1_ntg_split", "Theorem 5.1, eq. (15) and the proof sketch's (ii)-(iii)",
           "Along gradient flow with gamma < 1 (swish, Zipf alpha = 1/2), the lazy part "
           "Theta^(1) of the split (15) settles with the width (the slope of max_t ||Theta^(1)_t "
           "- Theta^(1)_0||_2 against m, MC 99.9% interval, lies below 0) while the Zipf part "
           "Theta^(2) moves: its slope exceeds Theta^(1)'s beyond both intervals (full=True: "
           "gamma in {1/2, 1/5}, m up to 1600, 6 seeds).", _ntg_split),
        T_("theorem_5_1_d_step_2", "Theorem 5.1 (d), eq. (7) (the proof's step before (c) "
           "and the width condition; claim ntg_bound_from_weight_bound)",
           "Along gradient flow of tanh networks (Assumption 3.2) the measured ||Theta_m(W_t) - "
           "Theta_m(W_0)||_2 stays below sum_j (n/d) lambda_j (M^2 Delta_j^2/d + 2 M Delta_j/"
           "sqrt d) at the measured Delta_j = ||w_tj - w_0j|| (ntg_change_given_moves_numeric): "
           "n = 4, d = 3, m = 50, gamma in {1, 1/2}, Zipf alpha = 1/2, 2 seeds, and one node "
           "fitting one input (4 seeds), where the step is nearly attained (full=True: m = "
           "200, 4 seeds, 4x longer; 8 one-node seeds).", theorem_5_1_d_step_2),
        T_("theorem_6_1_monitored", "Theorem 6.1, eq. (16) (corrected); proof (Appendix H)",
           "Monitor (observed, not counted): along simulated gradient descent (tanh, which "
           "satisfies Assumption 3.2; gamma in {1, 0.5}, Zipf alpha = 1/2, eta = 0.9 x the "
           "step-size limit) the ratios of ||y - u_s||^2 to (1 - eta gamma kappa_n/2)^s ||y - "
           "u_0||^2 and of ||w_sj - w_0j|| to eta sqrt(n lambda_j/d) ||y - u_0|| (1 - beta^s)/"
           "(1 - beta) at every step, at widths far below the width condition (full=True: m = "
           "2000, 2 seeds, 3x longer).", _gd_monitored, "monitor", _MONITOR_6_1_REASON),
        T_("feature_learning_width_scaling", "Definitions 7.1, 7.3; Theorems 7.5, 7.9",
           "At the end of gradient-flow training, ratios (17), (18) decay with m for gamma = 1 "
           "and the max-ratio (18) stays away from 0 for gamma < 1 (full=True: m in {100, 400, "
           "1600, 6400}, 5 seeds).", _feature_learning, "numeric"),
        T_("section_8_2_digits", "Section 8.2, Figure 4 (pruning, transfer; MNIST replaced "
           "by scikit-learn's digits, issue 32)",
           "Node-scaled swish networks trained by GD (learning rate 1) on the digits (even vs "
           "odd, one output) from Section 8.1.1's four (gamma, alpha) pairs: pruned to the "
           "nodes of largest importance lambda_j ||w_tj||^2, at 10%, 5% and 2% of the nodes "
           "kept the mean test risk falls strictly from gamma = 1 to 0.5 to 0.2 to 0; and the "
           "linear readout of the top 1, 2 or 5 features of held-out images transfers with a "
           "lower risk at gamma = 0 than at gamma = 1; each gap more than 2 standard errors "
           "over 4 initialisations (full=True: width 2000, 2000 steps, 5 repeats).",
           _section_8_2_digits),
        T_("section_8_2_1_regression", "Section 8.2.1, Figure 3 (UCI regression replaced "
           "by scikit-learn's diabetes set)",
           "Node-scaled swish networks trained by GD (rate 0.5) on the diabetes set (split "
           "40/20/40) from Section 8.1.1's four (gamma, alpha) pairs: the mean largest weight "
           "change max_j ||w_tj - w_0j|| and the mean relative NTG change grow from gamma = 1 "
           "to 0.5 to 0.2, each step by more than 2 standard errors over 4 initialisations; "
           "0.2 -> 0 and the transfer (the least-squares readout of the top 1, 2, 5 features "
           "of the validation rows, lower risk at gamma = 0 than at 1) are caveats reported "
           "with their numbers (full=True: width 2000, 100 000 steps, 5 repeats, all "
           "asserted).", _section_8_2_1_regression),
        T_("section_8_2_2_digits", "Section 8.2.2, CIFAR, Figure 5 (frozen ResNet-18 CIFAR "
           "features replaced by scikit-learn's raw digits, ten classes)",
           "Ten-output node-scaled swish networks, both layers trained by SGD (batch 64, rate "
           "5) on the cross-entropy of the digits' ten labels, from Section 8.1.1's four "
           "(gamma, alpha) pairs, then pruned to the nodes of largest lambda_j ||w_tj||^2: "
           "each adjacent ordering not in section_8_2.CAVEATS_8_2_2 holds beyond 2 standard "
           "errors over 4 initialisations (asserted, as they hold at data seeds 0-2: the "
           "weight change grows 1 -> 0.5; the pruned test cross-entropy falls 1 -> 0.5 -> 0.2 "
           "at 10%, 5% and 2% kept; the pruned accuracy rises 1 -> 0.5 at 2%); the 13 others "
           "are caveats reported with their numbers (full=True: width 2000, 20 000 steps, 5 "
           "repeats, all asserted).", _section_8_2_2_digits),
        T_("remark_5_2_numeric", "Remark 5.2 (eqs. (7), (10))",
           "The NTG (7) of ntg.ntg at unit-norm X equals the autograd Jacobian Gram of the "
           "network without the 1/sqrt(d) scaling at X/sqrt(d) (relative 1e-12), and "
           "ntg.mean_ntg at sqrt(d) X (eq. (10) with d = 1) agrees within 5 SE with a Monte "
           "Carlo of the unscaled network's mean NTG on X over 20 000 nodes, while the scaled "
           "mean NTG (at X) is more than 5 SE from it (swish, n = 6, d = 5; full=True: 200 000 "
           "nodes).", remark_5_2_numeric),
        *global_convergence_claims(),  # Section 8.1 (solvable.verification.seed_000_experiments)
    ]  # fmt: skip
