"""Seed 000, model (2) trained on loss (5) for :func:`numerics.simulate`: :class:`Setup`,
:class:`State`, the sympy gradient flow differentiated from :func:`loss`
(:func:`flow_symbolic`) and :class:`NodeScaledSystem` (:data:`SYSTEM`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.activations import check_activation, elementwise
from solvable._core.arrays import symbolic_sizes
from solvable._core.backends import torch_module
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import System
from solvable._core.numbers import Number
from solvable.models.node_scaling.network import _loss, loss, network_output


@dataclass(frozen=True)
class Setup:
    """Model (2) trained on loss (5): data ``X`` (n, d), targets ``y`` (n,), node scalings
    ``lam`` (m,) (``lambda_{m,j} >= 0``, e.g. from :func:`node_scaling_numeric`), the
    activation (``"linear"``, ``"relu"``, ``"swish"``, ``"tanh"``) and the rate ``eta`` of
    ``W``; the output weights ``a`` (+-1, eq. (3)) do not train."""

    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]
    lam: tuple[Number, ...]
    activation: str = "relu"
    eta: Number = 1

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        y = nb.check_vector("y", self.y)
        set_(self, "X", nb.check_rows("X", self.X, len(y), "y"))
        set_(self, "y", y)
        lam = nb.check_vector("lam", self.lam)
        for j, v in enumerate(lam):
            nb.check_number(f"lam[{j}]", v, nonnegative=True)
        set_(self, "lam", lam)
        set_(self, "activation", check_activation(self.activation))
        set_(self, "eta", nb.check_number("eta", self.eta, positive=True))

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])

    @property
    def m(self) -> int:
        return len(self.lam)


@dataclass(frozen=True)
class State:
    """``W`` (m, d), ``a`` (m,), the outputs ``f`` (n,) on the data and the ``loss`` at
    ``t``, measured from the weights."""

    t: Any
    W: np.ndarray
    a: np.ndarray
    f: np.ndarray
    loss: Any


def flow_symbolic(n: int, d: int, m: int, activation: str) -> GradientFlow:
    """The sympy gradient flow of loss (5) for ``n`` inputs in R^d and width ``m`` (ints
    >= 1, at most :data:`solvable._core.arrays.MAX_SYMBOLIC_ENTRIES` symbols in all): state
    blocks ``a`` (m,) (rate 0, eq. (3)) and ``W`` (m, d) (rate ``eta``), parameters
    ``(eta, X, y, s)`` with ``s_j = sqrt(lambda_{m,j})``; differentiated from :func:`loss`
    (the one definition), so the claims that need the network's gradient use this."""
    sizes = symbolic_sizes("flow_symbolic", lambda n, d, m: n * d + n + 2 * m + m * d,
                            n=n, d=d, m=m)  # fmt: skip
    return _flow_symbolic(sizes["n"], sizes["d"], sizes["m"], check_activation(activation))


@functools.cache
def _flow_symbolic(n: int, d: int, m: int, activation: str) -> GradientFlow:
    eta = sp.Symbol("eta", positive=True)
    X = symbol_array("X", (n, d), real=True)
    y = symbol_array("y", (n,), real=True)
    s = symbol_array("s", (m,), nonnegative=True)
    sigma = elementwise(activation, "sympy")
    return gradient_flow(
        lambda a, W: _loss(W, a, s, X, y, sigma, sp.sqrt(d)),
        {"a": ((m,), 0), "W": ((m, d), eta)},
        (eta, *X.ravel(), *y, *s),
    )


class NodeScaledSystem(System):
    """Eqs. (2), (5) for :func:`numerics.simulate`: ``out0 = a`` (m,) (fixed), ``in0 = W``
    (m, d), trained at rate ``eta``."""

    setup_type = Setup
    blocks = ("a", "W")

    def polynomial(self, setup: Setup) -> bool:
        return setup.activation == "linear"

    def example(self) -> tuple[Setup, Any, Any]:
        X = (("1", "0.5"), ("-0.5", "1"), ("0.3", "-1"))
        setup = Setup(X, ("0.8", "0.3", "-0.2"), ("0.5", "0.3", "0.2"), "swish", "1")
        return setup, ("1", "-1", "1"), (("0.6", "0.2"), ("-0.3", "0.9"), ("0.1", "-0.4"))

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0 = nb.check_vector("a0", out0, setup.m)
        W0 = nb.check_matrix("W0", in0, (setup.m, setup.d))
        return {"a": np.array(a0, dtype=object), "W": np.array(W0, dtype=object)}

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return flow_symbolic(setup.n, setup.d, setup.m, setup.activation)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        X = [convert(v) for row in setup.X for v in row]
        return [convert(setup.eta), *X, *(convert(v) for v in setup.y),
                *(convert(v) ** 0.5 for v in setup.lam)]  # fmt: skip

    def rates(self, setup: Setup) -> dict[str, float]:
        return {"a": 0.0, "W": float(setup.eta)}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        arrays = {
            "X": np.array(setup.X, dtype=float),
            "y": np.array(setup.y, dtype=float),
            "s": np.sqrt(np.array(setup.lam, dtype=float)),
        }
        if backend == "torch":
            torch = torch_module()
            arrays = {k: torch.as_tensor(v, dtype=like.dtype, device=like.device)
                      for k, v in arrays.items()}  # fmt: skip
        return {**arrays, "sigma": elementwise(setup.activation, backend),
                "root_d": float(np.sqrt(setup.d))}  # fmt: skip

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return _loss(params["W"], params["a"], data["s"], data["X"], data["y"], data["sigma"],
                     data["root_d"])  # fmt: skip

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        conv, dt = nb.converter(dps), nb.dtype(dps)
        backend = "numpy" if dps is None else "mpmath"
        with nb.Precision(dps):
            X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
            y = np.array([conv(v) for v in setup.y], dtype=dt)
            s = np.array([conv(v) ** 0.5 for v in setup.lam], dtype=dt)
            W = np.array(params["W"], dtype=dt)
            a = np.array(params["a"], dtype=dt)
            root_d = np.sqrt(setup.d) if dps is None else mpmath.sqrt(setup.d)
            sigma = elementwise(setup.activation, backend)
            return State(
                t=t,
                W=W,
                a=a,
                f=network_output(W, a, s, X, sigma, root_d),
                loss=loss(W, a, s, X, y, sigma, root_d),
            )


SYSTEM = NodeScaledSystem()
