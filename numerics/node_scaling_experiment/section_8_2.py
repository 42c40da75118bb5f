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


_ABSENT: Any = object()
"""Marks an argument that a run of this section does not take (``None`` is a value to refuse)."""


def _checked(width: Any, steps: Any, repeats: Any, settings: Any, lr: Any, progress: Any,
             data_seed: Any, *, max_steps: int = MAX_STEPS, keep: Any = _ABSENT,
             features: Any = _ABSENT) -> tuple[Any, ...]:  # fmt: skip
    """The arguments the Section 8.2 runs share, checked in one order (the first bad one is
    the error): ``(width, steps, repeats, settings, keep, features, lr)``, ``keep`` and
    ``features`` only where the run takes them (else :data:`_ABSENT`, returned as given)."""
    width = _int("width", width)
    steps = _int("steps", steps, 1, max_steps)
    repeats = _int("repeats", repeats, 1, MAX_REPEATS)
    settings = _settings(settings)
    if keep is not _ABSENT:
        keep = _reals("keep", keep, 0.0, 1.0, open_low=True)
    if features is not _ABSENT:
        features = _ints("features", features, 1, width)
    lr = _real("lr", lr, 0.0, math.inf, open_low=True, open_high=True)
    nb.check_flag("progress", progress)
    _int("data_seed", data_seed, 0, 2**32 - 1)  # (the data loaders would name it "seed")
    return width, steps, repeats, settings, keep, features, lr


def _train(X: np.ndarray, y: np.ndarray, *, width: int, settings: Sequence[Any], repeats: int,
           lr: float, steps: int, activation: str, device: Any, progress: bool,
           label: str) -> tuple[Any, Any, dict[str, Any]]:  # fmt: skip
    """GD (rate ``lr``, ``steps`` steps) of the node-scaled network of eq. (2) on ``(X, y)``,
    ``repeats`` initialisations (seed ``1000 r + k``) of every setting ``k`` in one batch:
    ``(model, result, end)``, the result keeping the parameters and the ``loss``, ``end`` the
    final ``W``, ``a``, ``s``.  GD that leaves
    the finite numbers is a ``ValueError`` naming ``lr``; ``progress`` reports the time under
    ``label``."""
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
    _say(progress, f"{label}: {steps} GD steps in {time.perf_counter() - start:.1f} s")
    return model, res, {k: res.params[k][-1] for k in ("W", "a", "s")}


def _like(v: np.ndarray, ref: Any) -> Any:
    """``v`` as a tensor of the dtype and on the device of ``ref``."""
    import torch

    return torch.as_tensor(v, dtype=ref.dtype, device=ref.device)


def _transfer(model: Any, p_end: dict[str, Any], order: Any, features: Sequence[int],
              X_held: np.ndarray, y_held: np.ndarray) -> list[Any]:  # fmt: skip
    """Per ``k`` of ``features``: the risk (B,) of the readout (:func:`_readout_risk`) of the
    ``k`` features first in ``order`` (B, m), fitted on the first half of the held-out rows
    ``(X_held, y_held)`` and scored on the second (Section 8.2's transfer)."""
    import torch

    half, W = len(y_held) // 2, p_end["W"]
    F_fit = _finite(model.features(p_end, _like(X_held[:half], W)))  # (B, half, m)
    F_score = _finite(model.features(p_end, _like(X_held[half:], W)))
    transfer = []
    for k in features:
        top = order[:, :k]
        pick = [torch.gather(F, 2, top[:, None, :].expand(-1, F.shape[1], -1))
                for F in (F_fit, F_score)]  # fmt: skip
        transfer.append(_finite(_readout_risk(pick[0], _like(y_held[:half], W), pick[1],
                                              _like(y_held[half:], W))))  # fmt: skip
    return transfer


def _per_setting(settings: Sequence[Any], repeats: int, columns: dict[str, Any]) -> list[Any]:
    """One run per setting: its ``gamma``, ``alpha`` and, per column (a (B,) tensor or a list
    of them), the rows of its ``repeats`` networks as lists."""
    runs = []
    for k, (g, al) in enumerate(settings):
        rows = slice(k * repeats, (k + 1) * repeats)
        run = {"gamma": g, "alpha": al}
        for name, col in columns.items():
            run[name] = ([c[rows].cpu().tolist() for c in col] if isinstance(col, list)
                         else col[rows].cpu().tolist())  # fmt: skip
        runs.append(run)
    return runs


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

    width, steps, repeats, settings, keep, features, lr = _checked(
        width, steps, repeats, settings, lr, progress, data_seed, keep=keep, features=features
    )
    n_train = _int("n_train", n_train, 1, N_DIGITS - 3)
    n_test = _int("n_test", n_test, 1, N_DIGITS - 2 - n_train)
    n_transfer = _int("n_transfer", n_transfer, 2, N_DIGITS - n_train - n_test)
    data = load_digits(n_train=n_train, n_test=n_test + n_transfer, seed=data_seed)
    held_out, y_held = data["X_test"][n_test:], data["y_test"][n_test:]
    X, y = data["X_train"], data["y_train"]
    model, res, p_end = _train(X, y, width=width, settings=settings, repeats=repeats, lr=lr,
                               steps=steps, activation=activation, device=device,
                               progress=progress, label="digits pruning")  # fmt: skip
    W, s = p_end["W"], p_end["s"]
    Xte, yte = _like(data["X_test"][:n_test], W), _like(data["y_test"][:n_test], W)
    importance = s**2 * (W**2).sum(-1)  # lambda_j ||w_tj||^2 (Section 8.2)
    with torch.no_grad():
        scores = []
        for fraction in keep:
            out = model.output({**p_end, "s": s * _kept(importance, fraction)}, Xte)
            _finite(out)
            scores.append((((out - yte) ** 2).mean(-1), (torch.sign(out) == yte).double().mean(-1)))
        order = torch.argsort(importance, dim=-1, descending=True)
        transfer = _transfer(model, p_end, order, features, held_out, y_held)
        moved = torch.linalg.vector_norm(W - res.params["W"][0], dim=-1).amax(-1)
        train_risk = 2 * res.measures["loss"][-1] / len(y)
    runs = _per_setting(settings, repeats, {
        "train_risk": train_risk,
        "test_risk": [sc[0] for sc in scores],
        "test_accuracy": [sc[1] for sc in scores],
        "transfer_risk": transfer,
        "max_moved": moved,
    })  # fmt: skip
    return {"settings": [list(p) for p in settings], "keep": list(keep),
            "features": list(features), "width": width, "steps": steps, "n_train": n_train,
            "n_test": n_test, "n_transfer": n_transfer, "lr": lr,
            "activation": activation, "data_seed": data_seed, "runs": runs}  # fmt: skip
