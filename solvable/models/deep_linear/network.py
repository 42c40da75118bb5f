"""The deep linear network and its loss as array code (one definition): runs on numpy object
arrays (sympy symbols, mpmath numbers), float64 arrays and batched torch tensors (leading
batch axes on the weights)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def product(weights: Sequence[Any]) -> Any:
    """``beta = W_L ... W_1`` (dL, d0), ``weights`` input layer first."""
    out = weights[0]
    for W in weights[1:]:
        out = W @ out
    return out


def outputs(weights: Sequence[Any], X: Any) -> Any:
    """The outputs ``F = X W_1^T ... W_L^T`` (..., n, dL): row ``i`` is ``f(x_i)``."""
    H = X
    for W in weights:
        H = H @ W.swapaxes(-1, -2)
    return H


def loss(weights: Sequence[Any], X: Any, Y: Any) -> Any:
    """``L = 1/2 sum_i |f(x_i) - y_i|^2`` (batched over leading axes)."""
    return ((outputs(weights, X) - Y) ** 2).sum((-1, -2)) / 2


def balance(upper: Any, lower: Any, eta_upper: Any, eta_lower: Any) -> Any:
    """The conserved ``D_l = W_{l+1}^T W_{l+1} / eta_{l+1} - W_l W_l^T / eta_l`` (d_l, d_l)
    of the adjacent pair ``(W_l, W_{l+1}) = (lower, upper)``."""
    up = upper.swapaxes(-1, -2) @ upper
    return up / eta_upper - (lower @ lower.swapaxes(-1, -2)) / eta_lower
