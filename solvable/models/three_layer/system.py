"""Seed 004, the gradient flow (4) of the risk (3) (every block at rate 1) for
:func:`numerics.simulate`: :class:`Setup`, :class:`State`, the sympy flow that
``numerics.simulate`` integrates and the symbolic claims differentiate, and
:class:`ThreeLayerSystem` (:data:`SYSTEM`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.activations import elementwise
from solvable._core.backends import torch_module
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import System
from solvable._core.numbers import Number
from solvable.models.three_layer.network import network_output, risk
from solvable.models.three_layer.symbolic import _sympy_activation


@dataclass(frozen=True)
class Setup:
    """The three-layer ReLU network (1) on data ``X`` (n, d), targets ``y`` (n,), output
    scale ``alpha > 0``, with biases when ``bias``; every block trains at rate 1 (eq. (4))."""

    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]
    alpha: Number = 1
    bias: bool = False

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        y = nb.check_vector("y", self.y)
        set_(self, "X", nb.check_rows("X", self.X, len(y), "y"))
        set_(self, "y", y)
        set_(self, "alpha", nb.check_number("alpha", self.alpha, positive=True))
        if not isinstance(self.bias, bool):
            raise TypeError(f"bias must be a bool, got {self.bias!r}")

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])


@dataclass(frozen=True)
class State:
    """The weights (``params``, by block), the outputs ``f`` (n,) and the risk at ``t``,
    measured from the weights."""

    t: Any
    params: dict[str, np.ndarray]
    f: np.ndarray
    risk: Any

    loss_field: ClassVar[str] = "risk"  # (the loss every model's states have, by its name)

    @property
    def loss(self) -> Any:
        """The ``risk``: the loss of :meth:`System.loss` (every model's state has a
        ``loss``)."""
        return self.risk


def _blocks(params: Mapping[str, Any]) -> tuple[Any, ...]:
    return (params["a"], params["W2"], params["W1"], params.get("b2"), params.get("b1"))


@functools.cache
def _flow(n: int, d: int, m: int, bias: bool, activation: str = "relu") -> GradientFlow:
    """The sympy gradient flow (4) of :func:`risk` (rate 1): what :func:`numerics.simulate`
    integrates (ReLU) and what the symbolic claims differentiate (``activation="generic"``:
    the undefined :class:`sigma`, whose derivative is :class:`sigma_prime`)."""
    X = symbol_array("X", (n, d), real=True)
    y = symbol_array("y", (n,), real=True)
    alpha = sp.Symbol("alpha", positive=True)
    relu = _sympy_activation(activation)
    blocks: dict[str, Any] = {"a": ((m,), 1), "W2": ((m, m), 1), "W1": ((m, d), 1)}
    if bias:
        blocks.update({"b2": ((m,), 1), "b1": ((m,), 1)})

    def objective(a: Any, W2: Any, W1: Any, b2: Any = None, b1: Any = None) -> Any:
        return risk(a, W2, W1, X, y, relu, alpha, b2, b1)

    return gradient_flow(objective, blocks, (alpha, *X.ravel(), *y))


class ThreeLayerSystem(System):
    """Eqs. (1), (3), (4) for :func:`numerics.simulate`: ``out0 = a`` (m,), ``in0 = (W2,
    W1)`` ((m, m), (m, d)), or ``(W2, W1, b2, b1)`` with biases; ReLU (not polynomial)."""

    setup_type = Setup
    blocks = ("a", "W2", "W1", "b2", "b1")

    def polynomial(self, setup: Setup) -> bool:
        return False

    def example(self) -> tuple[Setup, Any, Any]:
        setup = Setup((("-1",), ("-0.5",), ("0.5",), ("1",)), ("0.2", "0.6", "0.3", "0.8"))
        W2 = (("0.5", "-0.2"), ("0.3", "0.8"))
        return setup, ("0.7", "-0.4"), (W2, (("0.9",), ("-0.6",)))

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0 = nb.check_vector("a0", out0)
        m = len(a0)
        want = 4 if setup.bias else 2
        if not isinstance(in0, (tuple, list)) or len(in0) != want:
            names = "(W2, W1, b2, b1)" if setup.bias else "(W2, W1)"
            raise ValueError(f"in0 must be a tuple {names}, got {nb.describe(in0)}")
        out = {
            "a": np.array(a0, dtype=object),
            "W2": np.array(nb.check_matrix("W2", in0[0], (m, m)), dtype=object),
            "W1": np.array(nb.check_matrix("W1", in0[1], (m, setup.d)), dtype=object),
        }
        if setup.bias:
            out["b2"] = np.array(nb.check_vector("b2", in0[2], m), dtype=object)
            out["b1"] = np.array(nb.check_vector("b1", in0[3], m), dtype=object)
        return out

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return _flow(setup.n, setup.d, shapes["a"][0], setup.bias)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        X = [convert(v) for row in setup.X for v in row]
        return [convert(setup.alpha), *X, *(convert(v) for v in setup.y)]

    def rates(self, setup: Setup) -> dict[str, float]:
        names = self.blocks if setup.bias else self.blocks[:3]
        return {b: 1.0 for b in names}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        X, y = np.array(setup.X, dtype=float), np.array(setup.y, dtype=float)
        if backend == "torch":
            torch = torch_module()
            X = torch.as_tensor(X, dtype=like.dtype, device=like.device)
            y = torch.as_tensor(y, dtype=like.dtype, device=like.device)
        return {"X": X, "y": y, "relu": elementwise("relu", backend), "alpha": float(setup.alpha)}

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        a, W2, W1, b2, b1 = _blocks(params)
        return risk(a, W2, W1, data["X"], data["y"], data["relu"], data["alpha"], b2, b1)

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        conv, dt = nb.converter(dps), nb.dtype(dps)
        with nb.Precision(dps):
            X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
            y = np.array([conv(v) for v in setup.y], dtype=dt)
            p = {k: np.array(v, dtype=dt) for k, v in params.items()}
            relu = elementwise("relu", "numpy" if dps is None else "mpmath")
            alpha = conv(setup.alpha)
            a, W2, W1, b2, b1 = _blocks(p)
            return State(
                t=t,
                params=p,
                f=network_output(a, W2, W1, X, relu, alpha, b2, b1),
                risk=risk(a, W2, W1, X, y, relu, alpha, b2, b1),
            )


SYSTEM = ThreeLayerSystem()
