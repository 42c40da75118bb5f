"""Section 8.2.1 (UCI regression, Figure 3) on real data that needs no download: the
node-scaled networks of seed 000 trained on scikit-learn's diabetes set
(:func:`section_8_2_1_regression`), their weight and NTG change, and the transfer of their
top features.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 8.2.1: four
UCI sets split 40% / 20% / 40% into training, test and validation, "the same parameters as
for the simulated data" (Section 8.1.1: swish, ``m = 2000``, GD at learning rate 1, the four
``(gamma, alpha)`` pairs) for 100 000 steps; "we observe a stronger presence of feature
learning, in terms of weight-norm changes and NTG changes, for smaller values of gamma and
alpha", and "models with smaller values of gamma have lower risks when a small number of
features are used for the transfer": the validation set halved, the hidden features of
its first half sorted by ``lambda_{m,j} ||w_tj||^2`` and the top ``k`` fed to an external
model scored on the second half.  The stand-in: :func:`numerics.datasets.load_diabetes`
(442 rows, 10 features; the UCI sets need a download).  The external model here is the
least-squares linear readout (with an intercept) of :mod:`numerics.node_scaling_experiment.
section_8_2` (the paper trains a 64-ReLU network for 5000 GD steps at rate 1: the readout has
no training settings of its own, so the comparison is about the features alone).  Plain
numbers; the verdicts are in :mod:`solvable.verification.section_8_2`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from numerics.datasets import load_diabetes
from numerics.measures import relative_change
from numerics.node_scaling_experiment.figure_1 import SETTINGS_8_1_1
from numerics.node_scaling_experiment.network import _finite, _ntg
from numerics.node_scaling_experiment.running import _scoped_threads
from numerics.node_scaling_experiment.section_8_2 import (
    TRANSFER_FEATURES,
    _checked,
    _like,
    _per_setting,
    _train,
    _transfer,
)

__all__ = ["section_8_2_1_regression"]


@_scoped_threads
def section_8_2_1_regression(
    *,
    width: int = 100,
    steps: int = 200,
    repeats: int = 4,
    settings: Sequence[tuple[float, float | None]] = SETTINGS_8_1_1,
    features: Sequence[int] = TRANSFER_FEATURES,
    lr: float = 0.5,
    data_seed: int = 0,
    activation: str = "swish",
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """GD (learning rate ``lr``, ``steps`` steps) of the node-scaled network of eq. (2)
    (width ``width``, output weights fixed, eq. (3)) on the training rows of
    :func:`numerics.datasets.load_diabetes` (split seed ``data_seed``, 40/20/40, unit rows),
    for every ``(gamma, alpha)`` of ``settings`` and ``repeats`` initialisations each.  The
    default rate is 0.5, not the paper's 1: under the summed loss (5) on 176 training rows
    the mean NTG's largest eigenvalue is 1.63 (rate limit 2/1.63 = 1.23 for gamma = 1), and
    GD at rate 1 diverged here for the gamma < 1 nets, whose NTG grows as the features move.

    Returns ``{"settings", "features", "width", "steps", "n_train", "n_test", "n_valid",
    "runs", ...}``; one run per setting with, per repeat: ``train_risk`` and ``test_risk``
    (mean squared error of the standardised target; the zero predictor's training risk is
    1), ``max_moved`` (``max_j ||w_tj - w_0j||``, Figure 3's second panel), ``ntg_change``
    (``||Theta_t - Theta_0||_F/||Theta_0||_F`` on the training rows, its third panel) and
    ``transfer_risk`` per ``k`` of ``features`` (the readout of the ``k`` most important
    hidden features ``sigma(w_tj^T x/sqrt(d))``, fitted on the first half of the validation
    rows and scored on the second; its fourth panel).  ``features``: each at least 1 and at
    most ``width``.  Work caps: ``steps`` at most
    :data:`~numerics.node_scaling_experiment.MAX_STEPS`, ``repeats`` at most
    :data:`~numerics.node_scaling_experiment.MAX_REPEATS`; GD that leaves the finite
    numbers is a ``ValueError`` naming ``lr``."""
    import torch

    width, steps, repeats, settings, _, features, lr = _checked(
        width, steps, repeats, settings, lr, progress, data_seed, features=features
    )
    data = load_diabetes(seed=data_seed)
    X, y = data["X_train"], data["y_train"]
    model, res, p_end = _train(X, y, width=width, settings=settings, repeats=repeats, lr=lr,
                               steps=steps, activation=activation, device=device,
                               progress=progress, label="regression")  # fmt: skip
    W, s = p_end["W"], p_end["s"]
    Xv, yv = data["X_valid"], data["y_valid"]
    with torch.no_grad():
        out = _finite(model.output(p_end, _like(data["X_test"], W)))
        test_risk = ((out - _like(data["y_test"], W)) ** 2).mean(-1)
        train_risk = 2 * res.measures["loss"][-1] / len(y)
        moved = torch.linalg.vector_norm(W - res.params["W"][0], dim=-1).amax(-1)
        p_start = {k: res.params[k][0] for k in ("W", "a", "s")}
        ntg_change = relative_change(_finite(_ntg(model, p_end)), _finite(_ntg(model, p_start)))
        order = torch.argsort(s**2 * (W**2).sum(-1), dim=-1, descending=True)
        transfer = _transfer(model, p_end, order, features, Xv, yv)
    runs = _per_setting(settings, repeats, {
        "train_risk": train_risk,
        "test_risk": test_risk,
        "max_moved": moved,
        "ntg_change": ntg_change,
        "transfer_risk": transfer,
    })  # fmt: skip
    return {"settings": [list(p) for p in settings], "features": list(features),
            "width": width, "steps": steps, "n_train": len(y), "n_test": len(data["y_test"]),
            "n_valid": len(yv), "lr": lr, "activation": activation, "data_seed": data_seed,
            "runs": runs}  # fmt: skip
