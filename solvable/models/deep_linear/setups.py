"""Deep linear networks ``f(x) = W_L ... W_1 x`` (Saxe et al. 2013, cited by seed 001 Sec. 2):
:class:`Setup` (a learning rate per layer, data ``X`` (n, d0), targets ``Y`` (n, dL)) and the
validation of weights.

Loss (the package's convention, as :class:`solvable.kunin.WideSetup`):
``L = 1/2 sum_i |W_L ... W_1 x_i - y_i|^2``; gradient flow ``dW_l/dt = -eta_l dL/dW_l``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solvable._core import numbers as nb
from solvable._core.numbers import Number

SEED = "001_070589003213e0cf.txt"
"""Seed 001 (Xu & Ziyin), Sec. 2: the exact solution of linear nets from aligned
("orthogonal") initialisations of Saxe et al. (2013), which this model extends to any depth."""

MAX_LAYERS = 12
"""The deepest network :mod:`numerics` simulates (the flow's blocks ``W1``..``W12``)."""


@dataclass(frozen=True)
class Setup:
    """The deep linear network ``f(x) = W_L ... W_1 x`` with ``L = len(rates) >= 2`` layers,
    ``W_l`` of shape ``(d_l, d_{l-1})`` trained at rate ``rates[l-1] > 0``; data ``X`` (n, d0),
    targets ``Y`` (n, dL); ``L = 1/2 sum_i |f(x_i) - y_i|^2``.  The hidden widths
    ``d_1..d_{L-1}`` are those of the weights (any)."""

    rates: tuple[Number, ...]
    X: tuple[tuple[Number, ...], ...]
    Y: tuple[tuple[Number, ...], ...]

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if isinstance(self.rates, (str, bytes)) or not isinstance(self.rates, (tuple, list)):
            raise TypeError(f"rates must be a tuple of learning rates (one per layer, input "
                            f"layer first), got {nb.describe(self.rates)}")  # fmt: skip
        if not 2 <= len(self.rates) <= MAX_LAYERS:
            raise ValueError(f"rates must have one rate per layer, 2 <= L <= {MAX_LAYERS} "
                             f"layers, got {len(self.rates)}")  # fmt: skip
        rates = tuple(nb.check_number(f"rates[{i}]", r, positive=True)
                      for i, r in enumerate(self.rates))  # fmt: skip
        Y = nb.check_matrix("Y", self.Y, (None, None))
        set_(self, "rates", rates)
        set_(self, "X", nb.check_rows("X", self.X, len(Y), "Y"))
        set_(self, "Y", Y)
        nb.remember_holds_mpf(self, {"rates": rates, "X": self.X, "Y": Y})

    @property
    def L(self) -> int:
        """The number of layers."""
        return len(self.rates)

    @property
    def n(self) -> int:
        return len(self.Y)

    @property
    def d0(self) -> int:
        return len(self.X[0])

    @property
    def dL(self) -> int:
        return len(self.Y[0])


def check_weights(setup: Setup, weights: Any, name: str = "weights",
                  names: Any = None) -> list[tuple]:  # fmt: skip
    """``weights = (W_1, ..., W_L)`` (input layer first) as checked matrices: ``W_1`` has
    ``d0`` columns, ``W_L`` has ``dL`` rows and each ``W_{l+1}`` has as many columns as
    ``W_l`` has rows; a bad one is a ``ValueError``/``TypeError`` naming it (``names``: the
    name of each matrix, default ``weights[l-1] (W_l)``)."""
    if isinstance(weights, (str, bytes)) or not isinstance(weights, (tuple, list)):
        raise TypeError(f"{name} must be a sequence (W_1, ..., W_L) of {setup.L} matrices, "
                        f"got {nb.describe(weights)}")  # fmt: skip
    if len(weights) != setup.L:
        raise ValueError(f"{name} must hold L = {setup.L} matrices (W_1, ..., W_L, one per "
                         f"rate), got {len(weights)}")  # fmt: skip
    out: list[tuple] = []
    cols = setup.d0
    for l, W in enumerate(weights, start=1):
        rows = setup.dL if l == setup.L else None
        label = names[l - 1] if names else f"{name}[{l - 1}] (W{l})"
        out.append(nb.check_matrix(label, W, (rows, cols)))
        cols = len(out[-1])
    return out
