"""The NTK of a deep linear network along any of its states (issue 31, item 4): the kernel
for :func:`solvable._core.kernel_measures.kernel_path` (``S(0, t)``, the NTK's change in
norm and its task alignment along :func:`~solvable.models.deep_linear.closed_form` or a
simulation), from :func:`~solvable.models.deep_linear.network.ntk`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable.models.deep_linear.network import ntk
from solvable.models.deep_linear.setups import Setup

__all__ = ["network_kernel"]


def network_kernel(setup: Setup) -> Callable[[Any], Any]:
    """``kernel(state)``: the NTK on the data ``K[i, a, j, b]`` (n, dL, n, dL) of a state
    with ``weights`` (``deep_linear.closed_form(...).at(t)``, a state of
    ``numerics.simulate``), float64 or mpmath as the state's weights; pass it as
    ``kernel_path(traj, times, kernel=deep_linear.network_kernel(setup))``."""
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a deep_linear.Setup, got {nb.describe(setup)}")

    def kernel(state: Any) -> Any:
        Ws = [np.asarray(W) for W in state.weights]
        mp = any(W.dtype == object for W in Ws)
        conv, dt = (nb.to_mpf, object) if mp else (nb.to_float, float)
        X = np.vectorize(conv, otypes=[dt])(np.asarray(setup.X, dtype=object))
        return ntk([W.astype(dt) for W in Ws], X, [conv(e) for e in setup.rates])

    return kernel
