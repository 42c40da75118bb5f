"""Gradient flows in parameter space, derived from a loss by sympy.

A :class:`GradientFlow` is built by differentiating a model's loss (written once, in its
model module, as array code that runs on numpy object arrays of sympy symbols as well as on
float64, mpmath and torch arrays) with sympy: ``d theta/dt = -eta(theta) dL/dtheta`` for
every parameter ``theta``, with the learning rate of the block ``theta`` belongs to.  It is
the symbolic object that conservation laws are proved along
(:mod:`solvable._core.conservation`) and that :mod:`numerics` integrates; nothing here uses
a closed-form solution.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

__all__ = ["GradientFlow", "gradient_flow", "symbol_array"]


def symbol_array(name: str, shape: tuple[int, ...], **assumptions: Any) -> np.ndarray:
    """A numpy object array of sympy symbols ``name_i`` / ``name_i_j`` (row-major)."""
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape):
        label = "_".join(str(i) for i in idx)
        out[idx] = sp.Symbol(f"{name}_{label}" if label else name, **assumptions)
    return out


@dataclass(frozen=True)
class GradientFlow:
    """``dy/dt = rhs(y; params)`` with ``y`` the parameter blocks flattened in order.

    ``blocks`` gives each block's name and shape (row-major packing); ``params``
    are the model's hyper-parameters and data, symbols whose values are supplied
    at integration time.
    """

    state: tuple[sp.Symbol, ...]
    params: tuple[sp.Symbol, ...]
    rhs: tuple[sp.Expr, ...]
    blocks: tuple[tuple[str, tuple[int, ...]], ...]
    loss: sp.Expr

    def pack(self, arrays: Mapping[str, Any]) -> list[Any]:
        """Concatenate the block arrays (row-major, in block order) into one state list."""
        out: list[Any] = []
        for name, shape in self.blocks:
            arr = np.asarray(arrays[name], dtype=object)
            if arr.shape != tuple(shape):
                raise ValueError(f"block {name!r} must have shape {shape}, got {arr.shape}")
            out.extend(arr.ravel().tolist())
        return out

    def unpack(self, y: Any, dtype: Any = object) -> dict[str, np.ndarray]:
        """Split a state vector into arrays shaped like the blocks."""
        out, start = {}, 0
        for name, shape in self.blocks:
            size = math.prod(shape)
            out[name] = np.array(list(y[start : start + size]), dtype=dtype).reshape(shape)
            start += size
        return out

    def spans(self) -> list[tuple[int, int]]:
        """``[start, stop)`` of each block in the flat state."""
        out, start = [], 0
        for _name, shape in self.blocks:
            out.append((start, start + math.prod(shape)))
            start = out[-1][1]
        return out

    def block(self, name: str) -> np.ndarray:
        """The state symbols of one block, shaped like it."""
        return self.unpack(self.state)[name]

    def ddt(self, expr: sp.Expr) -> sp.Expr:
        """Time derivative of ``expr`` (a function of the state) along the flow."""
        return sum(
            (sp.diff(expr, s) * f for s, f in zip(self.state, self.rhs, strict=True)),
            sp.Integer(0),
        )


def gradient_flow(
    loss: Callable[..., sp.Expr],
    blocks: Mapping[str, tuple[tuple[int, ...], sp.Expr]],
    params: tuple[sp.Symbol, ...],
) -> GradientFlow:
    """Differentiate ``loss(**block_arrays)`` into its gradient flow.

    ``blocks`` maps a block name to ``(shape, learning rate)`` (a symbol, or 0 for a block
    that does not train); the loss is called with one numpy object array of real symbols
    per block, by name.  ``params`` are the symbols of the hyper-parameters and data the
    loss uses, in the order their values are supplied at integration time.
    """
    arrays, state, rates = {}, [], []
    for name, (shape, rate) in blocks.items():
        if len(shape) not in (0, 1, 2, 3):
            raise ValueError(f"blocks must have at most 3 axes, got shape {shape} for {name!r}")
        syms = symbol_array(name, tuple(shape), real=True)
        arrays[name] = syms
        flat = syms.ravel().tolist()
        state.extend(flat)
        rates.extend([sp.sympify(rate)] * len(flat))
    L = sp.sympify(loss(**arrays))
    rhs = tuple(
        sp.Integer(0) if rate == 0 else -rate * sp.diff(L, s)
        for s, rate in zip(state, rates, strict=True)
    )
    shapes = tuple((name, tuple(shape)) for name, (shape, _rate) in blocks.items())
    return GradientFlow(tuple(state), tuple(params), rhs, shapes, L)
