"""Section 8.2.2's CIFAR experiment (Figure 5) on real data that needs no download: node-scaled
networks with ten outputs, both layers trained by mini-batch SGD on the cross-entropy loss,
then pruned (:func:`section_8_2_2_classification`), on scikit-learn's digits.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 8.2.2, CIFAR:
frozen ImageNet-pretrained ResNet-18 features (512 per image) of CIFAR-10/100 fed to the
shallow network of Section 3.1 (``m = 2000``, 10 or 100 outputs), which "differs from
previous cases as 1) we use stochastic GD with a mini-batch size of 64 instead of full batch
GD; 2) we use cross-entropy loss instead of MSE; and 3) both layers are trained", learning
rate 5.0, five runs, the four ``(gamma, alpha)`` pairs of Section 8.1.1; Figure 5 shows the
largest weight changes ``||w_tj - w_0j||`` and the test risk and accuracy after pruning the
nodes of small importance ``lambda_{m,j} ||w_tj||^2``.  "Similar conclusions as before hold
here, even though the theory does not apply directly."  The stand-in replaces the frozen
ResNet-18 CIFAR features by the raw 64 pixels of scikit-learn's digits
(:func:`numerics.datasets.load_digits`: centred, unit rows; its ten digit labels).  The
network: ``f_c(x) = sum_j sqrt(lambda_j) a_jc sigma(w_j^T x/sqrt(d))``, ``w_0j ~ N(0, I_d)``,
``a_0jc ~ N(0, 1)``, both ``W`` and ``A`` trained.  Plain numbers; the verdict is in
:mod:`solvable.verification.section_8_2`.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.datasets import N_DIGITS, load_digits
from numerics.models import _activation
from numerics.node_scaling_experiment.checks import _int
from numerics.node_scaling_experiment.data import node_scalings
from numerics.node_scaling_experiment.figure_1 import SETTINGS_8_1_1
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.node_scaling_experiment.section_8_2 import (
    KEEP_FRACTIONS,
    _checked,
    _kept,
    _per_setting,
)
from numerics.torch_flow import resolve_device

__all__ = ["MAX_SGD_STEPS", "section_8_2_2_classification"]

MAX_SGD_STEPS = 200_000
"""The most SGD steps one call takes (a work cap; the paper's CIFAR runs are 50 000 images
at batch 64 for an unstated number of epochs)."""

N_CLASSES = 10


def _forward(W: Any, A: Any, s: Any, X: Any, sigma: Any) -> Any:
    """The logits (B, N, C) of the ten-output node-scaled network."""
    Z = X @ W.transpose(-1, -2) / math.sqrt(X.shape[-1])  # (B, N, m)
    return (sigma(Z) * s[:, None, :]) @ A


@_scoped_threads
def section_8_2_2_classification(
    *,
    n_train: int = 500,
    n_test: int = 500,
    width: int = 100,
    steps: int = 400,
    batch: int = 64,
    repeats: int = 4,
    settings: Sequence[tuple[float, float | None]] = SETTINGS_8_1_1,
    keep: Sequence[float] = KEEP_FRACTIONS,
    lr: float = 5.0,
    data_seed: int = 0,
    activation: str = "swish",
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Mini-batch SGD (``batch`` rows per step, drawn without replacement per epoch from one
    seeded shuffle; rate ``lr``, ``steps`` steps) of the ten-output node-scaled network of
    width ``width`` on the mean cross-entropy of the ten digit labels of ``n_train`` images
    of :func:`numerics.datasets.load_digits` (split seed ``data_seed``), both layers trained,
    for every ``(gamma, alpha)`` of ``settings`` and ``repeats`` initialisations each; then,
    for every fraction of ``keep``, the ``max(1, floor(fraction width))`` nodes of largest
    importance ``lambda_j ||w_tj||^2`` kept (the others' ``sqrt(lambda_j)`` set to 0) and the
    ``n_test`` held-out images scored.

    Returns ``{"settings", "keep", "width", "steps", "batch", "n_train", "n_test", "runs",
    ...}``; one run per setting with, per repeat: ``train_risk`` (the mean cross-entropy on
    the training images at the end), ``test_risk`` (cross-entropy) and ``test_accuracy`` per
    kept fraction, and ``max_moved`` (``max_j ||w_tj - w_0j||``, Figure 5's second panel).
    ``batch`` at most ``n_train``; ``steps`` at most :data:`MAX_SGD_STEPS`; ``repeats`` at
    most :data:`~numerics.node_scaling_experiment.MAX_REPEATS`; SGD that leaves the finite
    numbers is a ``ValueError`` naming ``lr``."""
    import torch

    width, steps, repeats, settings, keep, _, lr = _checked(
        width, steps, repeats, settings, lr, progress, data_seed, max_steps=MAX_SGD_STEPS, keep=keep
    )
    n_train = _int("n_train", n_train, 2, N_DIGITS - 1)
    n_test = _int("n_test", n_test, 1, N_DIGITS - n_train)
    batch = _int("batch", batch, 1, n_train)
    dev = resolve_device(device)
    sigma, _ = _activation(activation)
    data = load_digits(n_train=n_train, n_test=n_test, seed=data_seed)

    def tensor(v: np.ndarray, dtype: Any = torch.float64) -> Any:
        return torch.as_tensor(v, dtype=dtype, device=dev)

    X, labels = tensor(data["X_train"]), tensor(data["labels_train"], torch.long)
    Xte, lte = tensor(data["X_test"]), tensor(data["labels_test"], torch.long)
    d = X.shape[1]
    Ws, As, ss = [], [], []
    for k, (g, a) in enumerate(settings):
        lam = node_scalings(width, g, a)
        for r in range(repeats):
            gen = torch.Generator().manual_seed(1000 * r + k)
            Ws.append(torch.randn((width, d), generator=gen, dtype=torch.float64))
            As.append(torch.randn((width, N_CLASSES), generator=gen, dtype=torch.float64))
            ss.append(torch.as_tensor(np.sqrt(lam), dtype=torch.float64))
    W0 = torch.stack(Ws).to(dev)
    W = W0.clone().requires_grad_(True)
    A = torch.stack(As).to(dev).requires_grad_(True)
    s = torch.stack(ss).to(dev)
    B = W.shape[0]
    shuffle = torch.Generator().manual_seed(data_seed)
    order, at = torch.randperm(n_train, generator=shuffle), 0
    start = time.perf_counter()
    for _ in range(steps):
        if at + batch > n_train:
            order, at = torch.randperm(n_train, generator=shuffle), 0
        rows = order[at : at + batch].to(dev)
        at += batch
        logits = _forward(W, A, s, X[rows], sigma)  # (B, batch, C)
        # the sum over the networks of each one's mean cross-entropy: independent gradients
        loss = (
            torch.nn.functional.cross_entropy(
                logits.reshape(-1, N_CLASSES), labels[rows].repeat(B), reduction="sum"
            )
            / batch
        )
        gW, gA = torch.autograd.grad(loss, (W, A))
        if not bool(torch.isfinite(loss)) or not bool(torch.isfinite(gW).all()):
            raise ValueError(f"SGD at lr = {lr!r} left the finite numbers (diverged; lower lr)")
        with torch.no_grad():
            W -= lr * gW
            A -= lr * gA
    _say(progress, f"digits SGD: {steps} steps in {time.perf_counter() - start:.1f} s")

    def scores(mask: Any, inputs: Any, targets: Any) -> tuple[Any, Any]:
        out = _forward(W, A, s * mask, inputs, sigma)
        if not bool(torch.isfinite(out).all()):
            raise ValueError(f"SGD at lr = {lr!r} left the finite numbers (diverged; lower lr)")
        ce = torch.nn.functional.cross_entropy(out.transpose(1, 2), targets.expand(B, -1),
                                               reduction="none").mean(-1)  # fmt: skip
        return ce, (out.argmax(-1) == targets).double().mean(-1)

    with torch.no_grad():
        train_risk = scores(torch.ones_like(s), X, labels)[0]
        importance = s**2 * (W**2).sum(-1)  # lambda_j ||w_tj||^2 (Section 8.2)
        pruned = [scores(_kept(importance, f), Xte, lte) for f in keep]
        moved = torch.linalg.vector_norm(W - W0, dim=-1).amax(-1)
    runs = _per_setting(settings, repeats, {
        "train_risk": train_risk,
        "test_risk": [p[0] for p in pruned],
        "test_accuracy": [p[1] for p in pruned],
        "max_moved": moved,
    })  # fmt: skip
    return {"settings": [list(p) for p in settings], "keep": list(keep), "width": width,
            "steps": steps, "batch": batch, "n_train": n_train, "n_test": n_test, "lr": lr,
            "activation": activation, "data_seed": data_seed, "runs": runs}  # fmt: skip
