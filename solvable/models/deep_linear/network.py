"""The deep linear network and its loss as array code (one definition): runs on numpy object
arrays (sympy symbols, mpmath numbers), float64 arrays and batched torch tensors (leading
batch axes on the weights)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from solvable._core.backends import torch_module


def product(weights: Sequence[Any]) -> Any:
    """``beta = W_L ... W_1`` (dL, d0), ``weights`` input layer first."""
    out = weights[0]
    for W in weights[1:]:
        out = W @ out
    return out


def outputs(weights: Sequence[Any], X: Any) -> Any:
    """The outputs ``F = X beta^T`` (..., n, dL), ``beta = W_L ... W_1``: row ``i`` is
    ``f(x_i)`` (the product first: the cheaper order when the data's and the output's
    dimensions are below the hidden widths)."""
    return outputs_of(product(weights), X)


def outputs_of(beta: Any, X: Any) -> Any:
    """The outputs ``F = X beta^T`` of the product ``beta`` (..., dL, d0)."""
    return X @ beta.swapaxes(-1, -2)


def loss(weights: Sequence[Any], X: Any, Y: Any) -> Any:
    """``L = 1/2 sum_i |f(x_i) - y_i|^2`` (batched over leading axes)."""
    return loss_of(outputs(weights, X), Y)


def loss_of(F: Any, Y: Any) -> Any:
    """``L = 1/2 |F - Y|_F^2`` of the outputs ``F`` (..., n, dL)."""
    return ((F - Y) ** 2).sum((-1, -2)) / 2


def balance(upper: Any, lower: Any, eta_upper: Any, eta_lower: Any) -> Any:
    """The conserved ``D_l = W_{l+1}^T W_{l+1} / eta_{l+1} - W_l W_l^T / eta_l`` (d_l, d_l)
    of the adjacent pair ``(W_l, W_{l+1}) = (lower, upper)``."""
    up = upper.swapaxes(-1, -2) @ upper
    return up / eta_upper - (lower @ lower.swapaxes(-1, -2)) / eta_lower


def ntk(weights: Sequence[Any], X: Any, rates: Sequence[Any]) -> Any:
    """The NTK on the data, ``K[i, a, j, b]`` (n, dL, n, dL): ``dF[i, a]/dt = -sum_{j, b}
    K[i, a, j, b] (F - Y)[j, b]`` under ``dW_l/dt = -eta_l dL/dW_l``.  With ``h_{l-1}(x) =
    W_{l-1} ... W_1 x`` and ``A_l = W_L ... W_{l+1}`` (``d f / d W_l[p, q] = A_l[:, p]
    h_{l-1}[q]``), ``K = sum_l eta_l (H_{l-1} H_{l-1}^T) (x) (A_l A_l^T)`` (``H_{l-1}`` the
    rows ``h_{l-1}(x_i)``, ``A_L = I``).  For ``L = 2`` and one output it is the single
    neuron.s ``X (eta_w a^2 I + eta_a w w^T) X^T`` (``kunin.ntk``).  One network (no batch
    axes)."""
    H = [X]  # H[l] = X W_1^T ... W_l^T: the inputs of layer l + 1, one row per sample
    for W in weights[:-1]:
        H.append(H[-1] @ W.swapaxes(-1, -2))
    last = weights[-1]
    A = _eye_like(last, last.shape[-2])  # W_L ... W_{l+1}
    out = None
    for l in range(len(weights) - 1, -1, -1):
        G, P = H[l] @ H[l].swapaxes(-1, -2), A @ A.swapaxes(-1, -2)  # (n, n), (dL, dL)
        term = G[:, None, :, None] * P[None, :, None, :] * rates[l]
        out = term if out is None else out + term
        A = A @ weights[l]
    return out


def _eye_like(W: Any, size: int) -> Any:
    """The ``(size, size)`` identity in the kind of ``W`` (numpy float / object, torch)."""
    if type(W).__module__.split(".", 1)[0] == "torch":
        return torch_module().eye(size, dtype=W.dtype, device=W.device)
    return np.eye(size, dtype=object if W.dtype == object else W.dtype)
