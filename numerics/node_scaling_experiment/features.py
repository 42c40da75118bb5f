"""Definitions 7.1 / 7.3 against the width: :func:`feature_learning_sweep`.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 7.1: the
feature-learning ratios (17)/(18) at a training input at the end of gradient-flow training,
for nested widths, and their per-seed log-log slopes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.measures import feature_learning_ratios
from numerics.node_scaling_experiment.checks import _int, _ints, _real, _reals
from numerics.node_scaling_experiment.data import nested_parameters, node_scalings, sphere_data
from numerics.node_scaling_experiment.network import _model
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.torch_flow import gradient_flow
from solvable._core import numbers as nb
from solvable.models import ntg


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
