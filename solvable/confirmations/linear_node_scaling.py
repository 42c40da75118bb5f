"""Simulation-backed confirmations of seed 000 Section 7.2 (linear activation): Theorem 7.4
against simulated gradient flow and descent, Theorem 7.5, Definitions 7.1 / 7.3 and
Proposition 7.6 by Monte Carlo (:mod:`numerics.node_scaling_linear`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from numerics import node_scaling_linear as nl
from solvable._core.claims import Theorem, Verdict
from solvable.linear_node_scaling import SEED


def _flow_claim(method: str) -> Callable[..., Verdict]:
    def run(full: bool = False) -> Verdict:
        t0 = time.perf_counter()
        report = nl.closed_form_agreement(method=method, full=full)
        worst = report.max_error
        return Verdict(
            "confirmed" if worst <= 1 else "failed",
            report.detail + f" [{time.perf_counter() - t0:.1f} s]",
            max_error=worst,
            tolerance=report.tolerance,
        )

    return run


def _contribution_mc(full: bool = False) -> Verdict:
    rep = nl.contribution_monte_carlo(full=full)
    return Verdict("confirmed" if rep.max_error <= 1 else "failed", rep.detail,
                   max_error=rep.max_error, tolerance=rep.tolerance)  # fmt: skip


def _feature_learning(full: bool = False) -> Verdict:
    rep = nl.feature_learning_sweep(full=full)
    return Verdict("confirmed" if rep.max_error <= 1 else "failed", rep.detail,
                   max_error=rep.max_error, tolerance=rep.tolerance)  # fmt: skip


def _pruning(full: bool = False) -> Verdict:
    rep = nl.pruning_monte_carlo(full=full)
    return Verdict("confirmed" if rep.max_error <= 1 else "failed", rep.detail,
                   max_error=rep.max_error, tolerance=rep.tolerance)  # fmt: skip


def claims() -> list[Theorem]:
    """The simulation-backed claims of :mod:`solvable.linear_node_scaling`."""

    def T(name, where, statement, fn, kind="numeric"):
        return Theorem(f"linear_node_scaling.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("gradient_flow_limit", "Theorem 7.4, eqs. (19), (20)",
          "The simulated gradient flow of eq. (5) (torch DOP853, float64, batched) converges "
          "to (19) and to f of (20) on probes (n > d and n < d data, gamma in {1, 0.5, 0}, "
          "Zipf and finite K).", _flow_claim("flow"), "numeric"),
        T("gradient_descent_limit", "Theorem 7.4, footnote 3",
          "Gradient descent with step 0.9 d/(D_max^2 sum lambda) (below footnote 3) converges "
          "to the same (19)-(20).", _flow_claim("gd"), "numeric"),
        T("contribution_distribution", "Theorem 7.5, eq. (21)",
          "Monte Carlo over (W0, a): sqrt(lambda_j) a_j w_inf_j ~ N(lambda_j/S beta_inf, "
          "lambda_j (I - lambda_j/S V V^T)) at finite m, close to eq. (21) at large m; KS test "
          "of one coordinate.", _contribution_mc, "numeric"),
        T("feature_learning_iff", "Theorem 7.5, Definitions 7.1, 7.3",
          "Linear activation at t = oo: the sum- and max-ratios of eqs. (17)-(18) stay "
          "positive as m grows for gamma < 1 and vanish (like 1/m, 1/m^2) for gamma = 1.",
          _feature_learning, "numeric"),
        T("pruning_probability", "Proposition 7.6",
          "Monte Carlo Pr(|f~_{m,rho}(x) - f_m(x)| > eps) (Clopper-Pearson) matches the exact "
          "normal probability and lies below the printed bound.", _pruning, "numeric"),
    ]  # fmt: skip
