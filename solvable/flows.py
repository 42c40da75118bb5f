"""Gradient flows in parameter space, derived from each model's loss by sympy.

A :class:`GradientFlow` is built by differentiating a model's loss (written once,
in its model module) with sympy: ``d theta/dt = -eta(theta) dL/dtheta`` for every
parameter ``theta``, with the learning rate of the block ``theta`` belongs to.
It is the symbolic object that conservation laws are proved along
(:mod:`solvable.conservation`) and that :mod:`numerics` integrates; nothing here
uses a closed-form solution.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sympy as sp

from solvable import xu_ziyin

__all__ = ["GradientFlow", "gradient_flow", "xu_ziyin_flow", "xu_ziyin_parameters"]


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

    def pack(self, *arrays: Any) -> list[Any]:
        """Concatenate block arrays (row-major) into one state list."""
        out: list[Any] = []
        for (_name, _shape), arr in zip(self.blocks, arrays, strict=True):
            out.extend(_ravel(arr))
        return out

    def ddt(self, expr: sp.Expr) -> sp.Expr:
        """Time derivative of ``expr`` (a function of the state) along the flow."""
        return sum(
            (sp.diff(expr, s) * f for s, f in zip(self.state, self.rhs, strict=True)),
            sp.Integer(0),
        )

    def block(self, name: str) -> list[Any]:
        """The state symbols of one block, shaped like it (nested lists for 2-d)."""
        return self.unpack(self.state)[[n for n, _ in self.blocks].index(name)]

    def unpack(self, y: Any) -> list[list[Any]]:
        """Split a state vector into nested lists shaped like the blocks."""
        out, start = [], 0
        for _name, shape in self.blocks:
            size = 1
            for n in shape:
                size *= n
            flat = list(y[start : start + size])
            start += size
            if len(shape) == 2:
                flat = [flat[i * shape[1] : (i + 1) * shape[1]] for i in range(shape[0])]
            out.append(flat)
        return out


def _ravel(arr: Any) -> list[Any]:
    if isinstance(arr, (list, tuple)) and arr and isinstance(arr[0], (list, tuple)):
        return [v for row in arr for v in row]
    try:
        import numpy as np

        return list(np.asarray(arr, dtype=object).ravel())
    except Exception:  # pragma: no cover - defensive
        return list(arr)


def gradient_flow(
    loss: Callable[..., sp.Expr],
    blocks: dict[str, tuple[tuple[int, ...], sp.Symbol]],
    params: tuple[sp.Symbol, ...],
    **loss_kwargs: Any,
) -> GradientFlow:
    """Differentiate ``loss(*block_arrays, **loss_kwargs)`` into its gradient flow.

    ``blocks`` maps a block name to ``(shape, learning_rate_symbol)``; the loss is
    called with one sympy array (nested lists) per block, in order.
    """
    arrays, state, rates = [], [], []
    for name, (shape, rate) in blocks.items():
        if len(shape) == 1:
            syms = [sp.Symbol(f"{name}_{i}", real=True) for i in range(shape[0])]
            flat = syms
        elif len(shape) == 2:
            syms = [
                [sp.Symbol(f"{name}_{i}_{j}", real=True) for j in range(shape[1])]
                for i in range(shape[0])
            ]
            flat = [s for row in syms for s in row]
        else:
            raise ValueError(f"blocks must be 1-d or 2-d, got shape {shape} for {name!r}")
        arrays.append(syms)
        state.extend(flat)
        rates.extend([rate] * len(flat))
    L = loss(*arrays, **loss_kwargs)
    rhs = tuple(-rate * sp.diff(L, s) for s, rate in zip(state, rates, strict=True))
    shapes = tuple((name, shape) for name, (shape, _rate) in blocks.items())
    return GradientFlow(tuple(state), params, rhs, shapes, L)


@functools.cache
def xu_ziyin_flow(d: int, d0: int) -> GradientFlow:
    """Eqs. (4)-(5) of seed 001: ``L = (gamma u^T W x - y)^2``, rates eta_u, eta_w."""
    S = xu_ziyin.symbolic()
    x = [sp.Symbol(f"x_{j}", real=True) for j in range(d0)]
    params = (S.eta_u, S.eta_w, S.gamma, S.y, *x)
    return gradient_flow(
        xu_ziyin.loss,
        {"u": ((d,), S.eta_u), "W": ((d, d0), S.eta_w)},
        params,
        x=x,
        y=S.y,
        gamma=S.gamma,
    )


def xu_ziyin_parameters(setup: xu_ziyin.Setup, convert: Callable[[Any], Any]) -> list[Any]:
    """Values of :func:`xu_ziyin_flow`'s ``params`` for ``setup``."""
    return [convert(v) for v in (setup.eta_u, setup.eta_w, setup.gamma, setup.y, *setup.x)]


@functools.cache
def kunin_flow(n: int, d: int) -> GradientFlow:
    """Seed 003: ``L = 1/2 sum_i (a w^T x_i - y_i)^2``, rates eta_a, eta_w."""
    from solvable import kunin

    eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
    X = [[sp.Symbol(f"X_{i}_{j}", real=True) for j in range(d)] for i in range(n)]
    y = [sp.Symbol(f"y_{i}", real=True) for i in range(n)]
    params = (eta_a, eta_w, *[v for row in X for v in row], *y)

    def loss(a_block: list[Any], w: list[Any]) -> sp.Expr:
        return kunin.loss(a_block[0], w, X, y)

    return gradient_flow(loss, {"a": ((1,), eta_a), "w": ((d,), eta_w)}, params)


def kunin_parameters(setup: Any, convert: Callable[[Any], Any]) -> list[Any]:
    """Values of :func:`kunin_flow`'s ``params`` for a :class:`solvable.kunin.Setup`."""
    flat = [v for row in setup.X for v in row]
    return [convert(v) for v in (setup.eta_a, setup.eta_w, *flat, *setup.y)]


@functools.cache
def wide_flow(n: int, d: int, h: int, c: int) -> GradientFlow:
    """Seed 003 Part II: ``f = A^T W x``, ``L = 1/2 sum ||A^T W x_i - y_i||^2``, rates eta_A,
    eta_W; parameters ``(eta_A, eta_W, X entries, Y entries)``."""
    from solvable import kunin

    eta_A, eta_W = sp.symbols("eta_A eta_W", positive=True)
    X = [[sp.Symbol(f"X_{i}_{j}", real=True) for j in range(d)] for i in range(n)]
    Y = [[sp.Symbol(f"Y_{i}_{o}", real=True) for o in range(c)] for i in range(n)]
    params = (eta_A, eta_W, *[v for r in X for v in r], *[v for r in Y for v in r])
    return gradient_flow(
        lambda A, W: kunin.wide_loss(A, W, X, Y),
        {"A": ((h, c), eta_A), "W": ((h, d), eta_W)},
        params,
    )


@functools.cache
def piecewise_linear_flow(n: int, d: int, h: int) -> GradientFlow:
    """Seed 003 Part II: ``f = a^T sigma(W x)`` inside one activation region, slopes as
    parameters ``s_k_i``; parameters ``(eta_a, eta_w, X, y, slopes)``."""
    from solvable import kunin

    eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
    X = [[sp.Symbol(f"X_{i}_{j}", real=True) for j in range(d)] for i in range(n)]
    y = [sp.Symbol(f"y_{i}", real=True) for i in range(n)]
    slopes = [[sp.Symbol(f"s_{k}_{i}", real=True) for i in range(n)] for k in range(h)]
    params = (eta_a, eta_w, *[v for r in X for v in r], *y, *[v for r in slopes for v in r])
    return gradient_flow(
        lambda a, W: kunin.piecewise_linear_loss(a, W, X, y, slopes),
        {"a": ((h,), eta_a), "W": ((h, d), eta_w)},
        params,
    )
