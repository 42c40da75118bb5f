"""The state of the deep linear network at one time, measured from its weights
(:class:`State`, what :func:`numerics.simulate` and the closed form return)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable.models.deep_linear.network import loss, outputs, product
from solvable.models.deep_linear.setups import Setup


@dataclass(frozen=True)
class State:
    """The weights ``params`` (``"W1"``..``"WL"``), the product ``beta = W_L ... W_1``
    (dL, d0), the outputs ``f`` (n, dL) and the loss at ``t``."""

    t: Any
    params: dict[str, np.ndarray]
    beta: np.ndarray
    f: np.ndarray
    loss: Any

    @property
    def weights(self) -> list[np.ndarray]:
        """``[W_1, ..., W_L]`` (input layer first)."""
        return [self.params[f"W{l}"] for l in range(1, len(self.params) + 1)]


def state_of(setup: Setup, t: Any, weights: list[Any], dps: int | None) -> State:
    """The :class:`State` measured from ``weights`` (input layer first) at ``dps`` digits
    (float64 when None)."""
    conv, dt = nb.converter(dps), nb.dtype(dps)
    with nb.Precision(dps, guard=0):
        X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
        Y = np.array([[conv(v) for v in row] for row in setup.Y], dtype=dt)
        Ws = [np.array(W, dtype=dt) for W in weights]
        return State(t=t, params={f"W{l}": W for l, W in enumerate(Ws, start=1)},
                     beta=product(Ws), f=outputs(Ws, X), loss=loss(Ws, X, Y))  # fmt: skip
