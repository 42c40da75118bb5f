"""The simulatable system of seed 002, eqs. (2.19), (2.22): the gradient flow of the risk
of the two-layer network in both layers (:class:`Setup`, :class:`State`,
:class:`TwoLayerSystem`, :data:`SYSTEM`), what :func:`numerics.simulate` integrates and what
the symbolic claims differentiate."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import sympy as sp

from solvable._core import activations as act
from solvable._core import numbers as nb
from solvable._core.backends import torch_module
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import System
from solvable._core.numbers import Number
from solvable.models.linearisation.formulas import _SIGMA
from solvable.models.linearisation.network import network_output, risk


@dataclass(frozen=True)
class Setup:
    """The lecture's two-layer network (2.19) on data ``X`` (n, d), targets ``y`` (n,), with
    ``activation`` (any of ``solvable._core.activations.ACTIVATIONS``; the Hessian formulas
    of this module need a twice-differentiable one), rates ``eta_w`` (of ``W``) and
    ``eta_a`` (of ``a``; 0 keeps the second layer fixed, Proposition 1) and the output
    ``scale`` (``None``: ``1/sqrt(p)``, the width ``p`` taken from the weights)."""

    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]
    activation: str = "tanh"
    eta_w: Number = 1
    eta_a: Number = 1
    scale: Number | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        y = nb.check_vector("y", self.y)
        set_(self, "X", nb.check_rows("X", self.X, len(y), "y"))
        set_(self, "y", y)
        set_(self, "activation", act.check_activation(self.activation))
        set_(self, "eta_w", nb.check_number("eta_w", self.eta_w, positive=True))
        set_(self, "eta_a", nb.check_number("eta_a", self.eta_a, nonnegative=True))
        if self.scale is not None:
            set_(self, "scale", nb.check_number("scale", self.scale, positive=True))

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])


@dataclass(frozen=True)
class State:
    """``W`` (p, d), ``a`` (p,), the outputs ``f`` (n,) and the risk ``R`` at ``t``,
    measured from the weights."""

    t: Any
    W: np.ndarray
    a: np.ndarray
    f: np.ndarray
    risk: Any

    loss_field: ClassVar[str] = "risk"  # (the loss every model's states have, by its name)

    @property
    def loss(self) -> Any:
        """The ``risk``: the loss of :meth:`System.loss` (every model's state has a
        ``loss``)."""
        return self.risk


def _scale(setup: Setup, p: int, convert: Callable[[Any], Any], exact: bool = False) -> Any:
    if setup.scale is not None:
        return convert(setup.scale)
    return 1 / sp.sqrt(p) if exact else convert(1) / convert(p) ** 0.5


def _sympy_sigma(activation: str) -> Callable[[Any], Any]:
    """``sigma`` entrywise on sympy object arrays: a named activation, or ``"generic"``, the
    undefined smooth function ``sigma`` of the symbolic claims."""
    if activation == "generic":
        return np.vectorize(_SIGMA, otypes=[object])
    return act.elementwise(activation, "sympy")


@functools.cache
def _flow(n: int, d: int, p: int, activation: str, fixed_scale: bool) -> GradientFlow:
    """The sympy gradient flow of :func:`risk` (what :func:`numerics.simulate` integrates and
    what the symbolic claims differentiate: ``activation="generic"`` for an undefined
    ``sigma``)."""
    eta_w, eta_a = sp.symbols("eta_w eta_a", nonnegative=True)
    X = symbol_array("X", (n, d), real=True)
    y = symbol_array("y", (n,), real=True)
    scale = sp.Symbol("scale", positive=True) if fixed_scale else 1 / sp.sqrt(p)
    params = (eta_w, eta_a, *X.ravel(), *y, *((scale,) if fixed_scale else ()))
    sigma = _sympy_sigma(activation)
    return gradient_flow(lambda a, W: risk(W, a, X, y, sigma, scale),
                         {"a": ((p,), eta_a), "W": ((p, d), eta_w)}, params)  # fmt: skip


class TwoLayerSystem(System):
    """Eqs. (2.19), (2.22) for :func:`numerics.simulate`: ``out0 = a`` (p,), ``in0 = W``
    (p, d)."""

    setup_type = Setup
    blocks = ("a", "W")

    def polynomial(self, setup: Setup) -> bool:
        return setup.activation == "linear"

    def example(self) -> tuple[Setup, Any, Any]:
        X = (("1", "0.5"), ("-0.5", "1"), ("0.3", "-1"))
        setup = Setup(X, ("0.8", "0.3", "-0.2"), "tanh", "1", "0.5")
        return setup, ("0.5", "-0.7", "0.2"), (("0.6", "0.2"), ("-0.3", "0.9"), ("0.1", "-0.4"))

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0 = nb.check_vector("a0", out0)
        W0 = nb.check_matrix("W0", in0, (len(a0), setup.d))
        return {"a": np.array(a0, dtype=object), "W": np.array(W0, dtype=object)}

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return _flow(setup.n, setup.d, shapes["a"][0], setup.activation, setup.scale is not None)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        X = [convert(v) for row in setup.X for v in row]
        out = [convert(setup.eta_w), convert(setup.eta_a), *X, *(convert(v) for v in setup.y)]
        return out + ([convert(setup.scale)] if setup.scale is not None else [])

    def rates(self, setup: Setup) -> dict[str, float]:
        return {"a": float(setup.eta_a), "W": float(setup.eta_w)}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        X, y = np.array(setup.X, dtype=float), np.array(setup.y, dtype=float)
        if backend == "torch":
            torch = torch_module()
            X = torch.as_tensor(X, dtype=like.dtype, device=like.device)
            y = torch.as_tensor(y, dtype=like.dtype, device=like.device)
        scale = None if setup.scale is None else float(setup.scale)
        return {"X": X, "y": y, "sigma": act.elementwise(setup.activation, backend),
                "scale": scale}  # fmt: skip

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        p = params["W"].shape[-2]
        scale = data["scale"] if data["scale"] is not None else p**-0.5
        return risk(params["W"], params["a"], data["X"], data["y"], data["sigma"], scale)

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        conv, dt = nb.converter(dps), nb.dtype(dps)
        with nb.Precision(dps):
            X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
            y = np.array([conv(v) for v in setup.y], dtype=dt)
            W, a = np.array(params["W"], dtype=dt), np.array(params["a"], dtype=dt)
            scale = _scale(setup, W.shape[0], conv)
            sigma = act.elementwise(setup.activation, "numpy" if dps is None else "mpmath")
            return State(
                t=t,
                W=W,
                a=a,
                f=network_output(W, a, X, sigma, scale),
                risk=risk(W, a, X, y, sigma, scale),
            )


SYSTEM = TwoLayerSystem()
