"""Section 8.1.2, reduced (Figure 2): a single ReLU unit, :func:`single_relu_experiment`.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 8.1.2:
:func:`single_relu_data` and GD on networks of PyTorch's default initialisation, with the
training and test errors recorded.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from numerics.measures import ntk
from numerics.models import WideTwoLayer
from numerics.node_scaling_experiment.checks import (
    MAX_RECORDS,
    MAX_REPEATS,
    MAX_STEPS,
    _int,
    _record_steps,
    _settings,
)
from numerics.node_scaling_experiment.data import nested_parameters, node_scalings
from numerics.node_scaling_experiment.figure_1 import SETTINGS_8_1_1
from numerics.node_scaling_experiment.kernel import kernel_gd
from numerics.node_scaling_experiment.network import _model
from numerics.node_scaling_experiment.running import _say, _scoped_threads
from numerics.torch_flow import gradient_descent, resolve_device
from solvable._core import numbers as nb
from solvable.models import ntg


def single_relu_data(n: int, d: int, *, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Section 8.1.2's data: ``x ~ N(0, I_d)``, ``y = relu(w_0^T x)``, ``w_0 = (1, ..., 1)``
    (as printed: no ``1/sqrt(d)``), ``n`` points from ``seed``."""
    n, d = _int("n", n), _int("d", d)
    _int("seed", seed, 0)
    X = np.random.default_rng(seed).normal(size=(n, d))
    return X, np.maximum(X.sum(1), 0.0)


def _pytorch_default(m: int, d: int, seed: int, device: Any) -> dict[str, Any]:
    """``nn.Linear``'s default initialisation (Kaiming-uniform with ``a = sqrt(5)``, i.e.
    ``U(-1/sqrt(fan_in), 1/sqrt(fan_in))``) of both layers, without biases: ``W`` (1, m, d),
    ``a`` (1, m)."""
    import torch

    gen = torch.Generator().manual_seed(seed)
    W = (2 * torch.rand((1, m, d), generator=gen, dtype=torch.float64) - 1) / math.sqrt(d)
    a = (2 * torch.rand((1, m), generator=gen, dtype=torch.float64) - 1) / math.sqrt(m)
    dev = resolve_device(device)
    return {"W": W.to(dev), "a": a.to(dev)}


def _error_measures(model: Any, to_risk: float, X_test: Any, y_test: Any) -> dict[str, Any]:
    """Measures for :func:`gradient_descent`: ``"train"`` = ``to_risk * loss`` (the mean
    squared training residual) and ``"test"`` = the mean squared error on ``X_test``."""

    def train(p: Any, rows: Any) -> Any:
        return to_risk * model.loss(p)

    def test(p: Any, rows: Any) -> Any:
        return ((model.output(p, X_test) - y_test) ** 2).mean(-1)

    return {"train": train, "test": test}


@_scoped_threads
def single_relu_experiment(
    *,
    n: int = 100,
    d: int = 10,
    width: int = 2000,
    n_test: int = 5000,
    steps: int = 20000,
    repeats: int = 5,
    settings: Sequence[tuple[float, float | None]] = SETTINGS_8_1_1,
    pytorch_default: bool = True,
    activation: str = "relu",
    n_records: int = 40,
    data_seed: int = 0,
    device: Any = "cpu",
    threads: int | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Section 8.1.2: full-batch GD on :func:`single_relu_data` (``n`` train, ``n_test``
    test points, resampled per repeat from ``data_seed + 1000 r``) for the node-scaled
    network (2) of width ``width`` with each ``(gamma, alpha)`` of ``settings`` (output
    weights fixed, eq. (3)), and with ``pytorch_default`` the standard two-layer network
    ``sum_j a_j sigma(w_j^T x)`` (:class:`numerics.models.WideTwoLayer`, ``scale = 1``)
    with ``nn.Linear``'s default initialisation, both layers trained.

    Learning rates (the paper states none): node-scaled nets ``lr = d/lambda_max(X X^T)``
    on ``L = 1/2 sum r^2``: with ``|sigma'| <= 1`` (relu) the NTG (7) is a convex
    combination of ``D X X^T D/d`` (``D`` diagonal in ``[0, 1]``), so ``lambda_max(lr NTG)
    <= 1 < 2`` at every ``W`` (GD stays stable).  The standard network: ``lr = n /
    lambda_max(K_0)`` on ``R = 1/(2n) sum r^2``, ``K_0`` its empirical NTK at
    initialisation (:func:`numerics.measures.ntk`).

    Recorded at step 0 and at most ``n_records - 1`` log-spaced steps (the rounded steps,
    duplicates dropped): the training risk ``(1/n) sum r_i^2`` and the test MSE; and, for
    ``gamma = 1``, the infinite-width limit of the same GD (:func:`kernel_gd` with the mean
    NTG :func:`solvable.models.ntg.mean_ntg`, Proposition 4.3) from each network's own initial
    outputs on train and test.  Plain numbers.  Work caps: ``steps`` at most
    :data:`MAX_STEPS`, ``repeats`` at most :data:`MAX_REPEATS`, ``n_records`` at most
    :data:`MAX_RECORDS`; repeat ``r`` draws its data from ``data_seed + 1000 r`` (an int
    ``<= 2**63 - 1``)."""
    import torch

    n, d, width = _int("n", n), _int("d", d), _int("width", width)
    n_test = _int("n_test", n_test)
    steps = _int("steps", steps, 1, MAX_STEPS)
    repeats = _int("repeats", repeats, 1, MAX_REPEATS)
    n_records = _int("n_records", n_records, 2, MAX_RECORDS)
    _int("data_seed", data_seed, 0, nb.INT64_MAX - 1000 * repeats)
    _int("n_test * d", n_test * d)
    settings = _settings(settings)
    nb.check_flag("pytorch_default", pytorch_default)
    nb.check_flag("progress", progress)
    record = _record_steps(steps, n_records)
    labels = [f"γ={g:g}" + ("" if a is None else f", α={a:g}") for g, a in settings]
    if pytorch_default:
        labels.append("pytorch default init")
    out: dict[str, Any] = {"n": n, "d": d, "width": width, "n_test": n_test, "steps": steps,
                           "repeats": repeats, "activation": activation,
                           "data_seed": data_seed, "record_steps": record.tolist(),
                           "labels": labels, "lr": [], "lr_pytorch": [],
                           "train": [[] for _ in labels], "test": [[] for _ in labels],
                           "kernel_limit_train": [], "kernel_limit_test": [],
                           "trivial_test": []}  # fmt: skip
    dev = resolve_device(device)
    for rep in range(repeats):
        start = time.perf_counter()
        X, y = single_relu_data(n, d, seed=data_seed + 1000 * rep)
        Xt, yt = single_relu_data(n_test, d, seed=data_seed + 1000 * rep + 1)
        Xt_t = torch.as_tensor(Xt, dtype=torch.float64, device=dev)
        yt_t = torch.as_tensor(yt, dtype=torch.float64, device=dev)
        X_t = torch.as_tensor(X, dtype=torch.float64, device=dev)
        out["trivial_test"].append(float(np.mean(yt**2)))  # the zero predictor

        model = _model(X, y, activation)
        lams = [node_scalings(width, g, a) for g, a in settings]
        p0 = nested_parameters(lams, d, [rep * 100 + k for k in range(len(settings))],
                               device=dev)  # fmt: skip
        lr = float(d / np.linalg.eigvalsh(X @ X.T)[-1])
        with torch.no_grad():
            f0 = model.output(p0, X_t).cpu().numpy()
            f0_test = model.output(p0, Xt_t).cpu().numpy()
        res = gradient_descent(model, p0, lr, record, keep_params=False, device=dev,
                               measures=_error_measures(model, 2 / n, Xt_t, yt_t))  # fmt: skip
        for k in range(len(settings)):
            out["train"][k].append(res.measures["train"][:, k].cpu().numpy().tolist())
            out["test"][k].append(res.measures["test"][:, k].cpu().numpy().tolist())
        out["lr"].append(lr)
        ones = [k for k, (g, _) in enumerate(settings) if g == 1]
        if ones:
            k = ones[0]
            Xall = np.vstack([X, Xt])
            theta = ntg.mean_ntg(Xall, activation)  # the limiting NTK (gamma = 1)
            lim = kernel_gd(theta[:n, :n], (y - f0[k])[None], lr, record, K_cross=theta[n:, :n],
                            f0_cross=f0_test[k][None], y_cross=yt)  # fmt: skip
            out["kernel_limit_train"].append(lim["risk"][:, 0].tolist())
            out["kernel_limit_test"].append(lim["test"][:, 0].tolist())
        if pytorch_default:
            std = WideTwoLayer(X, y, activation=activation, scale=1.0)
            q0 = _pytorch_default(width, d, 7919 + rep, dev)
            lam_pt = float(torch.linalg.eigvalsh(ntk(std, q0, X))[0, -1])
            if not lam_pt > 0:
                raise ValueError(f"pytorch_default: the standard network's NTK at "
                                 f"initialisation is zero in repeat {rep} (every ReLU unit "
                                 f"dead on the data: width = {width}, data_seed = "
                                 f"{data_seed}, repeats = {repeats}), so n / lambda_max(K_0) "
                                 f"is no step; take a larger width")  # fmt: skip
            lr_pt = n / lam_pt
            res = gradient_descent(std, q0, lr_pt, record, keep_params=False, device=dev,
                                   measures=_error_measures(std, 2.0, Xt_t, yt_t))  # fmt: skip
            out["train"][-1].append(res.measures["train"][:, 0].cpu().numpy().tolist())
            out["test"][-1].append(res.measures["test"][:, 0].cpu().numpy().tolist())
            out["lr_pytorch"].append(lr_pt)
        _say(progress, f"8.1.2 repeat {rep}: {time.perf_counter() - start:.1f} s")
    return out
