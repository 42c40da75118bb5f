"""The raw gradient flow of the deep linear network for :func:`numerics.simulate`: the
sympy flow (:func:`flow`) and
:class:`DeepLinearSystem` (:data:`SYSTEM`).  ``numerics.simulate(setup, out0, in0, ...)``
takes ``out0 = W_L`` and ``in0 = (W_1, ..., W_{L-1})`` (input layer first); the batched torch
model is :class:`numerics.models.SystemModel` of this system."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.arrays import symbolic_sizes
from solvable._core.backends import torch_module
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import System
from solvable.models.deep_linear.network import loss
from solvable.models.deep_linear.setups import MAX_LAYERS, Setup, check_weights
from solvable.models.deep_linear.spectral import SpectralTrajectory, closed_form
from solvable.models.deep_linear.states import State, state_of


def rate_symbols(L: int) -> tuple[sp.Symbol, ...]:
    """The learning rates ``eta_1..eta_L`` as positive symbols."""
    return tuple(sp.Symbol(f"eta_{l}", positive=True) for l in range(1, L + 1))


def flow(widths: tuple[int, ...], n: int) -> GradientFlow:
    """The gradient flow of :func:`~solvable.models.deep_linear.network.loss` for layer
    widths ``(d0, d1, ..., dL)`` and ``n`` data points, each ``W_l`` at rate ``eta_l``;
    parameters ``(eta_1..eta_L, X entries, Y entries)``; blocks ``W_L, W_1, ..., W_{L-1}``
    (output first).  Cached."""
    if not isinstance(widths, tuple) or not 3 <= len(widths) <= MAX_LAYERS + 1:
        raise ValueError(f"widths must be a tuple (d0, ..., dL) of 2 <= L <= {MAX_LAYERS} "
                         f"layers, got {widths!r}")  # fmt: skip
    sizes = symbolic_sizes("flow", lambda n, size: n * (widths[0] + widths[-1]) + size, n=n,
                           size=sum(a * b for a, b in itertools.pairwise(widths)))  # fmt: skip
    return _flow(tuple(nb.check_int("widths", w) for w in widths), sizes["n"])


@functools.cache
def _flow(widths: tuple[int, ...], n: int) -> GradientFlow:
    L = len(widths) - 1
    etas = rate_symbols(L)
    X = symbol_array("X", (n, widths[0]), real=True)
    Y = symbol_array("Y", (n, widths[-1]), real=True)
    order = [L, *range(1, L)]
    blocks = {f"W{l}": ((widths[l], widths[l - 1]), etas[l - 1]) for l in order}

    def objective(**W: Any) -> Any:
        return loss([W[f"W{l}"] for l in range(1, L + 1)], X, Y)

    return gradient_flow(objective, blocks, (*etas, *X.ravel(), *Y.ravel()))


def _layers(params: Mapping[str, Any]) -> list[Any]:
    return [params[f"W{l}"] for l in range(1, len(params) + 1)]


class DeepLinearSystem(System):
    """``f(x) = W_L ... W_1 x`` with a rate per layer: ``out0 = W_L``, ``in0 = (W_1, ...,
    W_{L-1})``; polynomial (the mpmath Taylor integrator applies)."""

    setup_type = Setup
    blocks = tuple(f"W{l}" for l in range(MAX_LAYERS, 0, -1))

    def example(self) -> tuple[Setup, Any, Any]:
        setup = Setup(("1", "0.5", "2"), (("1", "0"), ("0", "1"), ("0.5", "-0.5")),
                      (("0.8", "-0.2"), ("0.3", "0.9"), ("0.1", "-0.4")))  # fmt: skip
        W1 = (("0.4", "-0.3"), ("0.2", "0.5"), ("-0.6", "0.1"))
        W2 = (("0.3", "0.7", "-0.2"), ("0.5", "-0.4", "0.6"))
        return setup, (("0.6", "-0.3"), ("0.2", "0.8")), (W1, W2)

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        bad = isinstance(in0, (str, bytes)) or not isinstance(in0, (tuple, list))
        if bad or len(in0) != setup.L - 1:
            raise ValueError(f"in0 must be a tuple (W_1, ..., W_{setup.L - 1}) of the "
                             f"{setup.L - 1} layers below the output, got "
                             f"{nb.describe(in0)}")  # fmt: skip
        labels = [*(f"in0[{l}] (W{l + 1})" for l in range(setup.L - 1)), f"out0 (W{setup.L})"]
        Ws = check_weights(setup, (*in0, out0), names=labels)
        return {f"W{l}": np.array(W, dtype=object) for l, W in enumerate(Ws, start=1)}

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        widths = (setup.d0, *(shapes[f"W{l}"][0] for l in range(1, setup.L + 1)))
        return flow(widths, setup.n)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        data = [v for row in (*setup.X, *setup.Y) for v in row]
        return [convert(v) for v in (*setup.rates, *data)]

    def rates(self, setup: Setup) -> dict[str, float]:
        return {f"W{l}": float(r) for l, r in enumerate(setup.rates, start=1)}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        X, Y = np.array(setup.X, dtype=float), np.array(setup.Y, dtype=float)
        if backend == "torch":
            torch = torch_module()
            X = torch.as_tensor(X, dtype=like.dtype, device=like.device)
            Y = torch.as_tensor(Y, dtype=like.dtype, device=like.device)
        return {"X": X, "Y": Y}

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return loss(_layers(params), data["X"], data["Y"])

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        return state_of(setup, t, _layers(params), dps)

    @nb.mpmath_in_mpmath_out
    def closed_form(self, setup: Setup, out0: Any, in0: Any, *,
                    dps: int | None = None) -> SpectralTrajectory | None:  # fmt: skip
        """:func:`~solvable.models.deep_linear.spectral.closed_form` from ``(W_1, ..., W_L) =
        (*in0, out0)`` where the start is balanced and task-aligned, else None."""
        try:
            return closed_form(setup, (*in0, out0), dps=dps)
        except ValueError:
            return None


SYSTEM = DeepLinearSystem()
