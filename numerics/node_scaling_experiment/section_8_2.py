"""Section 8.2 (MNIST, Figure 4) on real data that needs no download: pruning the trained
node-scaled networks of seed 000, and transferring their features, on scikit-learn's digits
(:func:`section_8_2_digits`).

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 8.2: "We
gradually prune hidden nodes with small feature importance and measure risks after pruning",
feature importance ``lambda_{m,j} ||w_tj||^2``; "models with smaller gamma and/or alpha
values are likely to be more robust with respect to pruning, as long as gamma < 1"
(Figure 4, third panel); for transfer, the hidden features of held-out images, sorted by
the same importance, "use the top-k of these to train an external model ... models with
smaller values of gamma have lower risks when a small number of features are used for the
transfer" (Section 8.2, Figure 4, fourth panel).  The stand-in: a binary task on the digits
(:func:`numerics.datasets.load_digits`; the network of eq. (2) has one output), trained by GD
at learning rate 1 (as Section 8.1.1) from the four ``(gamma, alpha)`` pairs of Section
8.1.1, for ``repeats`` fresh initialisations each; the external model of the transfer is
the least-squares linear readout (with an intercept) of the top-k features, fitted on one
half of a held-out set and scored on the other (the paper trains a one-hidden-layer ReLU
network for 5000 GD steps: the readout has no training settings of its own, so the
comparison is about the features alone).  Plain numbers; the verdicts are in
:mod:`solvable.verification.section_8_2`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.datasets import N_DIGITS, load_digits
from numerics.node_scaling_experiment.checks import (
    MAX_REPEATS,
    MAX_STEPS,
    _int,
    _ints,
    _real,
    _reals,
    _settings,
)
from numerics.node_scaling_experiment.data import nested_parameters, node_scalings
from numerics.node_scaling_experiment.figure_1 import SETTINGS_8_1_1
from numerics.node_scaling_experiment.network import _finite, _model
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.torch_flow import gradient_descent
from solvable._core import numbers as nb

__all__ = ["KEEP_FRACTIONS", "TRANSFER_FEATURES", "section_8_2_digits"]

KEEP_FRACTIONS: tuple[float, ...] = (1.0, 0.5, 0.2, 0.1, 0.05, 0.02)
"""The fractions of hidden nodes kept (the paper's x axis: the nodes pruned)."""

TRANSFER_FEATURES: tuple[int, ...] = (1, 2, 5, 10, 20)
"""The numbers of top features the transfer's readout uses (the paper's x axis)."""


def _kept(importance: Any, fraction: float) -> Any:
    """A 0/1 mask (B, m) of the ``max(1, floor(fraction m))`` nodes of largest importance
    of each network."""
    import torch

    m = importance.shape[-1]
    k = max(1, math.floor(fraction * m))
    top = torch.argsort(importance, dim=-1, descending=True)[:, :k]
    mask = torch.zeros_like(importance)
    mask.scatter_(1, top, 1.0)
    return mask


def _readout_risk(F_fit: Any, y_fit: Any, F_score: Any, y_score: Any) -> Any:
    """The mean squared error on ``(F_score, y_score)`` of the least-squares linear readout
    with an intercept fitted on ``(F_fit, y_fit)``, per network (B,): ``torch.linalg.lstsq``
    (QR, minimum-norm for rank-deficient features)."""
    import torch

    ones = torch.ones_like(F_fit[..., :1])
    A = torch.cat([F_fit, ones], -1)
    Bm = torch.cat([F_score, torch.ones_like(F_score[..., :1])], -1)
    rhs = y_fit.expand(A.shape[0], -1)[..., None]
    coef = torch.linalg.lstsq(A, rhs, driver="gelsd" if A.device.type == "cpu" else None)
    return (((Bm @ coef.solution)[..., 0] - y_score) ** 2).mean(-1)


@_scoped_threads
def section_8_2_digits(
    *,
    n_train: int = 400,
    n_test: int = 600,
    n_transfer: int = 600,
    width: int = 100,
    steps: int = 200,
    repeats: int = 4,
    settings: Sequence[tuple[float, float | None]] = SETTINGS_8_1_1,
    keep: Sequence[float] = KEEP_FRACTIONS,
    features: Sequence[int] = TRANSFER_FEATURES,
    lr: float = 1.0,
    data_seed: int = 0,
    activation: str = "swish",
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """GD (learning rate ``lr``, ``steps`` steps) of the node-scaled network of eq. (2)
    (width ``width``, output weights fixed, eq. (3)) on ``n_train`` digits images
    (:func:`numerics.datasets.load_digits`, split seed ``data_seed``), for every ``(gamma,
    alpha)`` of ``settings`` and ``repeats`` initialisations each; then, for every fraction
    of ``keep``, the ``floor(fraction width)`` nodes (at least 1) of largest feature
    importance ``lambda_j ||w_tj||^2`` are kept (the others' ``sqrt(lambda_j)`` set to 0) and
    the ``n_test`` held-out images are scored.  Transfer: ``n_transfer`` further images
    (disjoint from both; ``n_train + n_test + n_transfer`` at most 1797), split in two
    halves; for every ``k`` of ``features`` the readout
    of the ``k`` most important hidden features ``sigma(w_tj^T x / sqrt(d))`` is fitted on
    the first half and scored on the second.

    Returns ``{"settings", "keep", "features", "width", "steps", "n_train", "n_test",
    "n_transfer", "runs", ...}``; one run per setting with, per repeat: ``train_risk``
    (``(1/n) sum_i r_i^2`` at the end), ``test_risk`` and ``test_accuracy`` (sign of the
    output against the +-1 target) per kept fraction, ``transfer_risk`` per ``k``, and
    ``max_moved`` (``max_j ||w_tj - w_0j||``, Figure 4's second panel).  ``features``:
    each at least 1 and at most ``width``.  Work
    caps: ``steps`` at most :data:`~numerics.node_scaling_experiment.MAX_STEPS`, ``repeats``
    at most :data:`~numerics.node_scaling_experiment.MAX_REPEATS`; GD that leaves the finite
    numbers is a ``ValueError`` naming ``lr``."""
    import torch

    width = _int("width", width)
    steps = _int("steps", steps, 1, MAX_STEPS)
    repeats = _int("repeats", repeats, 1, MAX_REPEATS)
    settings = _settings(settings)
    keep = _reals("keep", keep, 0.0, 1.0, open_low=True)
    features = _ints("features", features, 1, width)
    lr = _real("lr", lr, 0.0, math.inf, open_low=True, open_high=True)
    nb.check_flag("progress", progress)
    _int("data_seed", data_seed, 0, 2**32 - 1)  # (load_digits would name it "seed")
    n_train = _int("n_train", n_train, 1, N_DIGITS - 3)
    n_test = _int("n_test", n_test, 1, N_DIGITS - 2 - n_train)
    n_transfer = _int("n_transfer", n_transfer, 2, N_DIGITS - n_train - n_test)
    data = load_digits(n_train=n_train, n_test=n_test + n_transfer, seed=data_seed)
    held_out, y_held = data["X_test"][n_test:], data["y_test"][n_test:]
    half = n_transfer // 2
    X, y = data["X_train"], data["y_train"]
    model = _model(X, y, activation)
    lams, seeds = [], []
    for k, (g, a) in enumerate(settings):
        for r in range(repeats):
            lams.append(node_scalings(width, g, a))
            seeds.append(1000 * r + k)
    p0 = nested_parameters(lams, X.shape[1], seeds, device=device)
    start = time.perf_counter()
    try:
        res = gradient_descent(model, p0, lr, np.array([0, steps]),
                               measures={"loss": lambda p, rows: _finite(model.loss(p))},
                               keep_params=True, device=device)  # fmt: skip
    except ArithmeticError as exc:
        raise ValueError(f"GD at lr = {lr!r} left the finite numbers (diverged; lower lr): "
                         f"{exc}") from exc  # fmt: skip
    _say(progress, f"digits pruning: {steps} GD steps in {time.perf_counter() - start:.1f} s")
    W, a, s = (res.params[k][-1] for k in ("W", "a", "s"))

    def tensor(v: np.ndarray) -> Any:
        return torch.as_tensor(v, dtype=W.dtype, device=W.device)

    Xte, yte = tensor(data["X_test"][:n_test]), tensor(data["y_test"][:n_test])
    importance = s**2 * (W**2).sum(-1)  # lambda_j ||w_tj||^2 (Section 8.2)
    with torch.no_grad():
        scores = []
        for fraction in keep:
            out = model.output({"W": W, "a": a, "s": s * _kept(importance, fraction)}, Xte)
            _finite(out)
            scores.append((((out - yte) ** 2).mean(-1), (torch.sign(out) == yte).double().mean(-1)))
        order = torch.argsort(importance, dim=-1, descending=True)
        p_end = {"W": W, "a": a, "s": s}
        F_fit = _finite(model.features(p_end, tensor(held_out[:half])))  # (B, half, m)
        F_score = _finite(model.features(p_end, tensor(held_out[half:])))
        transfer = []
        for k in features:
            top = order[:, :k]
            pick = [torch.gather(F, 2, top[:, None, :].expand(-1, F.shape[1], -1))
                    for F in (F_fit, F_score)]  # fmt: skip
            transfer.append(_finite(_readout_risk(pick[0], tensor(y_held[:half]), pick[1],
                                                  tensor(y_held[half:]))))  # fmt: skip
        moved = torch.linalg.vector_norm(W - res.params["W"][0], dim=-1).amax(-1)
        train_risk = 2 * res.measures["loss"][-1] / len(y)
    runs = []
    for k, (g, al) in enumerate(settings):
        rows = slice(k * repeats, (k + 1) * repeats)
        runs.append({
            "gamma": g, "alpha": al,
            "train_risk": train_risk[rows].cpu().tolist(),
            "test_risk": [sc[0][rows].cpu().tolist() for sc in scores],
            "test_accuracy": [sc[1][rows].cpu().tolist() for sc in scores],
            "transfer_risk": [tr[rows].cpu().tolist() for tr in transfer],
            "max_moved": moved[rows].cpu().tolist(),
        })  # fmt: skip
    return {"settings": [list(p) for p in settings], "keep": list(keep),
            "features": list(features), "width": width, "steps": steps, "n_train": n_train,
            "n_test": n_test, "n_transfer": n_transfer, "lr": lr,
            "activation": activation, "data_seed": data_seed, "runs": runs}  # fmt: skip
