"""Seed 001 Section 3.2 (Figure 4) on real data that needs no download: a two-layer ReLU
network of fixed width trained on scikit-learn's digits at initialisation scales
``sigma_w^2 = kappa^c_w`` (:func:`section_3_2_digits`).

Source: seed ``001_070589003213e0cf.txt`` (Xu & Ziyin), Section 3.2: "d is kept fixed,
while other variables scale with kappa -> oo ... We set c_u = max{0, c_w} and c_gamma =
min{-c_w/2, 0} ... the network is in the kernel phase if and only if c_w > 0"; Figure 4
(CIFAR-10, d = 2000, kappa = 10): "the weight matrices evolve significantly in the feature
learning phase but not the kernel phase".  The package corrects the section (errata
``Section 3.2 (initial output)`` and ``Section 3.2 (phase)``): the i.i.d. initial output
grows as ``kappa^(c_w/2)`` for ``c_w > 0``, and "kernel iff c_w > 0" holds for a zero
initial output (case 2 of eq. (29)).  The stand-in trains ``f(x) = gamma sum_j u_j
relu(w_j^T x)`` (:class:`numerics.models.WideTwoLayer` with ``scale = gamma``; both layers
at the fixed rate of the section, ``c_eta = 0``) on a binary digits task
(:func:`numerics.datasets.load_digits`), the exponents from
:func:`solvable.models.phases.section_3_2_scaling` (the one definition), and by default
from a zero initial output (the second half of the hidden units copies the first with
``u`` negated: ``f_0 = 0`` exactly).  Measured per ``(c_w, kappa)`` and repeat: the
relative distance ``RD(W) = |W_T - W_0|_F / |W_0|_F`` after ``steps`` GD steps, the
initial and final training risks and the test accuracy.  Plain numbers; the verdict is
:mod:`solvable.verification.section_3_2_digits`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.datasets import load_digits
from numerics.measures import relative_distance
from numerics.models import WideTwoLayer
from numerics.node_scaling_experiment.checks import MAX_REPEATS, MAX_STEPS, _int, _real, _reals
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.torch_flow import gradient_descent, initialise
from solvable._core import numbers as nb
from solvable.models import phases

__all__ = ["KAPPAS", "section_3_2_digits"]

KAPPAS: tuple[float, ...] = (1.0, 10.0, 100.0, 1000.0)
"""The scaling parameters ``kappa`` (three decades)."""


def _start(m: int, d: int, repeats: int, sigma_w: float, sigma_u: float, zero: bool,
           seed: int, device: Any) -> dict[str, Any]:  # fmt: skip
    """``W ~ N(0, sigma_w^2)`` (B, m, d), ``u ~ N(0, sigma_u^2)`` (B, m); with ``zero`` the
    second half of the units copies the first with ``u`` negated (``f_0 = 0``)."""
    half = m // 2 if zero else m
    p = initialise({"W": (half, d), "a": (half,)}, repeats,
                   scale={"W": sigma_w, "a": sigma_u}, seed=seed, device=device)  # fmt: skip
    if zero:
        import torch

        p = {"W": torch.cat([p["W"], p["W"]], 1), "a": torch.cat([p["a"], -p["a"]], 1)}
    return p


@_scoped_threads
def section_3_2_digits(
    *,
    c_ws: Sequence[float] = (-1.0, 1.0),
    kappas: Sequence[float] = KAPPAS,
    width: int = 100,
    n_train: int = 200,
    n_test: int = 400,
    steps: int = 1000,
    lr: float | None = None,
    repeats: int = 3,
    zero_initial_output: bool = True,
    data_seed: int = 0,
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """GD (rate ``lr``, default ``5/width``, ``steps`` steps, both layers) of ``f(x) = gamma
    sum_j u_j relu(w_j^T x)`` of width ``width`` (even with ``zero_initial_output``) on ``n_train``
    digits images (even vs odd), for every ``c_w`` of ``c_ws`` and ``kappa`` of ``kappas``:
    ``sigma_w^2 = kappa^c_w``, ``sigma_u^2 = kappa^c_u``, ``gamma = kappa^c_gamma`` with
    ``(c_u, c_gamma)`` of Section 3.2 (:func:`solvable.models.phases.section_3_2_scaling`),
    ``repeats`` initialisations each (the same normal draws at every ``kappa``: seed
    ``1000 k`` for the ``k``-th ``c_w``).

    Returns ``{"c_ws", "kappas", "width", "steps", "lr", "zero_initial_output", "runs"}``,
    one run per ``(c_w, kappa)`` with ``gamma``, ``sigma_w``, ``sigma_u`` and, per repeat,
    ``rd_w`` (``|W_T - W_0|_F / |W_0|_F``), ``risk_0``, ``risk_end`` (``1/(2n) sum_i
    r_i^2``) and ``test_accuracy``.  Work caps: ``steps`` at most
    :data:`~numerics.node_scaling_experiment.MAX_STEPS`, ``repeats`` at most
    :data:`~numerics.node_scaling_experiment.MAX_REPEATS`; ``ValueError`` naming ``lr``
    when GD leaves the finite numbers."""
    import torch

    c_ws = _reals("c_ws", c_ws, -8.0, 8.0)
    kappas = _reals("kappas", kappas, 1.0, 1e12)
    width = _int("width", width, 2)
    if zero_initial_output is not False and zero_initial_output is not True:
        raise TypeError(f"zero_initial_output must be a bool, got "
                        f"{nb.describe(zero_initial_output)}")  # fmt: skip
    if zero_initial_output and width % 2:
        raise ValueError(f"width must be even with zero_initial_output (pairs of units), "
                         f"got {width}")  # fmt: skip
    steps = _int("steps", steps, 1, MAX_STEPS)
    repeats = _int("repeats", repeats, 1, MAX_REPEATS)
    # default 5/width: at kappa = 1 the NTK grows like the width (gamma = sigma_u = 1), so the
    # largest stable rate falls like 1/width (measured: 0.05 trains width 100 in 1000 steps;
    # at width 500 it diverges in 14 steps); 5/width keeps the progress per step the same
    lr = 5.0 / width if lr is None else _real("lr", lr, 0.0, math.inf, open_low=True,
                                              open_high=True)  # fmt: skip
    _int("data_seed", data_seed, 0, 2**32 - 1)
    nb.check_flag("progress", progress)
    data = load_digits(n_train=n_train, n_test=n_test, seed=data_seed)
    X, y = data["X_train"], data["y_train"]
    runs = []
    for k, c_w in enumerate(c_ws):
        sc = phases.section_3_2_scaling(c_w)  # c_u = max{0, c_w}, c_gamma = min{-c_w/2, 0}
        c_u, c_gamma = float(sc.c_u), float(sc.c_gamma)
        for kappa in kappas:
            gamma = kappa**c_gamma
            sigma_w, sigma_u = math.sqrt(kappa**c_w), math.sqrt(kappa**c_u)
            model = WideTwoLayer(X, y, activation="relu", eta_w=1.0, eta_a=1.0, scale=gamma)
            p0 = _start(width, X.shape[1], repeats, sigma_w, sigma_u, zero_initial_output,
                        1000 * k, device)  # fmt: skip
            start = time.perf_counter()
            try:
                res = gradient_descent(model, p0, lr, [0, steps], keep_params=True,
                                       measures={"risk": lambda p, rows, mo=model: mo.loss(p)},
                                       device=device)  # fmt: skip
            except ArithmeticError as exc:
                raise ValueError(
                    f"GD at lr = {lr!r} left the finite numbers at c_w = {c_w}, "
                    f"kappa = {kappa} (diverged; lower lr): {exc}"
                ) from exc
            _say(progress, f"3.2 c_w={c_w:g} kappa={kappa:g}: {steps} steps in "
                           f"{time.perf_counter() - start:.1f} s")  # fmt: skip
            W0, W1 = res.params["W"][0], res.params["W"][-1]
            with torch.no_grad():
                rd = relative_distance(W1, W0)  # |W_T - W_0|_F / |W_0|_F per network
                Xte = torch.as_tensor(data["X_test"], dtype=W1.dtype, device=W1.device)
                out = model.output({"W": W1, "a": res.params["a"][-1]}, Xte)
                yte = torch.as_tensor(data["y_test"], dtype=W1.dtype, device=W1.device)
                acc = (torch.sign(out) == yte).double().mean(-1)
            risk = res.measures["risk"]
            runs.append({"c_w": c_w, "kappa": kappa, "gamma": gamma, "sigma_w": sigma_w,
                         "sigma_u": sigma_u, "rd_w": rd.cpu().tolist(),
                         "risk_0": risk[0].cpu().tolist(), "risk_end": risk[-1].cpu().tolist(),
                         "test_accuracy": acc.cpu().tolist()})  # fmt: skip
    for r in runs:
        if not all(np.isfinite(v) for key in ("rd_w", "risk_end") for v in r[key]):
            raise ValueError(f"lr = {lr!r}: a run at c_w = {r['c_w']}, kappa = {r['kappa']} "
                             f"ended outside the finite numbers")  # fmt: skip
    return {"c_ws": list(c_ws), "kappas": list(kappas), "width": width, "steps": steps,
            "lr": lr, "zero_initial_output": zero_initial_output, "n_train": n_train,
            "n_test": n_test, "data_seed": data_seed, "runs": runs}  # fmt: skip
