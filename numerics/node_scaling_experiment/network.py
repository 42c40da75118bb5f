"""The network the experiments of :mod:`numerics.node_scaling_experiment` train.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling), Section 3.2:
:class:`numerics.models.NodeScaled` (eq. (2)) with the hand-written gradient of its loss
(``_model``), its NTG ``Theta_m`` (``_ntg``) and the finiteness check of a run
(``_finite``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.measures import ntk_node_scaled
from numerics.models import NodeScaled, _activation


def _finite(t: Any) -> Any:
    """``t`` if finite; else ``ArithmeticError`` (GD diverged: the loss or the NTG left the
    float64 range), before a measure meets the non-finite numbers."""
    import torch

    if not bool(torch.isfinite(t).all()):
        raise ArithmeticError("the loss or the NTG left the finite numbers")
    return t


def _ntg(model: Any, p: Any) -> Any:
    return ntk_node_scaled(model, p)


def _model(X: np.ndarray, y: np.ndarray, activation: str) -> Any:
    """:class:`numerics.models.NodeScaled` (rate 1) with the hand-written gradient of its
    loss, ``dL/dw_j = -sqrt(lambda_j) a_j / sqrt(d) sum_i r_i sigma'(Z_j(x_i)) x_i``
    (Section 3.2; tested against autograd of the same loss), which the integrators use
    instead of autograd (about half the cost per evaluation on small networks)."""

    class NodeScaledGradient(NodeScaled):
        def gradient(self, p: dict[str, Any]) -> dict[str, Any]:
            import torch

            X, y = self._t("X", p["W"]), self._t("y", p["W"])
            sigma, dsigma = _activation(self.activation)
            Z = self.preactivations(p, X)  # (B, n, m)
            sa = (p["s"] * p["a"])[:, None, :]
            r = y - (sigma(Z) * sa).sum(-1)  # (B, n)
            coef = r[:, :, None] * dsigma(Z) * sa / math.sqrt(X.shape[-1])
            return {"W": -coef.transpose(1, 2) @ X, "a": torch.zeros_like(p["a"]),
                    "s": torch.zeros_like(p["s"])}  # fmt: skip

    return NodeScaledGradient(X, y, activation=activation, eta=1.0)
