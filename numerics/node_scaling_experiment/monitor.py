"""Theorem 5.1 monitored along gradient flow: :func:`monitor_theorem_5_1`, :func:`monitor_table`.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 5: ``L(t)``,
``eig_min Theta_m(X; W_t)``, ``max_j ||w_tj - w_0j||`` and
``||Theta_m(W_t) - Theta_m(W_0)||_2`` recorded along the flow and divided by the bounds (b),
(a), (c), (d) of :mod:`solvable.models.global_convergence`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.measures import min_eigenvalue
from numerics.node_scaling_experiment.checks import (
    MAX_HORIZON,
    MAX_RECORDS,
    _int,
    _ints,
    _real,
    _reals,
    _result,
)
from numerics.node_scaling_experiment.data import nested_parameters, node_scalings, sphere_data
from numerics.node_scaling_experiment.network import _model, _ntg
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.torch_flow import gradient_flow
from solvable._core import numbers as nb
from solvable.models import global_convergence as gcv
from solvable.models.node_scaling import sum_of_squares_numeric, zipf


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
