"""Gradient flows in parameter space, derived from a loss by sympy.

A :class:`GradientFlow` is built by differentiating a model's loss (written once, in its
model module, as array code that runs on numpy object arrays of sympy symbols as well as on
float64, mpmath and torch arrays) with sympy: ``d theta/dt = -eta(theta) dL/dtheta`` for
every parameter ``theta``, with the learning rate of the block ``theta`` belongs to.  It is
the symbolic object that conservation laws are proved along
(:mod:`solvable._core.conservation`) and that :mod:`numerics` integrates; nothing here uses
a closed-form solution.

The derivation (issue 17) is sympy's own differentiation, ``sp.diff(L, theta)``, rule for rule
(:func:`gradient`): the same Leibniz, sum and power rules on the same expression tree, hence the
same expressions, without ``sp.diff``'s cost per parameter of walking the whole loss (its test
``theta in L.free_symbols`` on every subexpression it meets is quadratic in the size of the
loss: 11-13 s for seed 001's flow with d = 50, d0 = 10).  The parameters under each
subexpression are found once, and each derivative descends only into the subexpressions that
hold its parameter.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

__all__ = ["GradientFlow", "gradient", "gradient_flow", "symbol_array"]


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


def gradient(expr: sp.Expr, wrt: Sequence[sp.Symbol]) -> list[sp.Expr]:
    """``[sp.diff(expr, s) for s in wrt]``, the same expressions, derived by sympy's rules.

    Parameters
    ----------
    expr : sympy.Expr
        The expression to differentiate (e.g. a loss).
    wrt : sequence of sympy.Symbol
        The symbols to differentiate by.

    Returns
    -------
    list of sympy.Expr
        ``d expr / d s`` for each ``s`` of ``wrt``.

    Notes
    -----
    Sums, products and powers with an exponent free of ``s`` are differentiated here by the
    rules of sympy 1.14 (``Add._eval_derivative``: the sum of the terms' derivatives;
    ``Mul._eval_derivative_n_times`` with ``n = 1``: the sum over factors of the product with
    that factor replaced by its derivative; ``Pow._eval_derivative``: ``b^e (b' e / b)``);
    any other subexpression holding ``s`` (a function such as ``tanh`` or ``Max``, a power
    with ``s`` in its exponent) is handed to ``sp.diff`` whole.  The set of ``wrt`` symbols
    under every subexpression is computed once (bottom-up, shared subexpressions once), and
    the derivative by ``s`` visits only the subexpressions holding ``s``, each once.
    ``tests/test_flow_derivation.py`` checks the result is ``==`` ``sp.diff``'s for every
    model's flow.
    """
    expr = sp.sympify(expr, strict=True)
    targets = frozenset(wrt)
    if not all(isinstance(s, sp.Symbol) for s in targets):
        raise TypeError(f"wrt must hold sympy Symbols, got {list(wrt)!r}")
    under: dict[sp.Basic, frozenset[sp.Symbol]] = {}
    empty: frozenset[sp.Symbol] = frozenset()
    stack: list[tuple[sp.Basic, bool]] = [(expr, False)]
    while stack:  # post-order without recursion (a sum of many terms is a deep tree)
        node, done = stack.pop()
        if node in under:
            continue
        if done:
            if node.is_Symbol:
                under[node] = frozenset((node,)) & targets
            else:
                kids = [under[a] for a in node.args]
                under[node] = frozenset().union(*kids) if kids else empty
            continue
        stack.append((node, True))
        stack.extend((a, False) for a in node.args if a not in under)

    def derivative(node: sp.Basic, s: sp.Symbol, memo: dict[sp.Basic, sp.Expr]) -> sp.Expr:
        if s not in under[node]:
            return sp.S.Zero
        if node in memo:
            return memo[node]
        if node is s or node == s:
            out: sp.Expr = sp.S.One
        elif node.is_Add:
            out = sp.Add(*[derivative(a, s, memo) for a in node.args])
        elif node.is_Mul:
            args = list(node.args)
            terms = []
            for i, a in enumerate(args):
                da = derivative(a, s, memo)
                if da != 0:
                    terms.append(sp.Mul(*args[:i], da, *args[i + 1 :]))
            out = sp.Add(*terms)
        elif node.is_Pow and s not in under[node.exp]:
            out = node * (derivative(node.base, s, memo) * node.exp / node.base)
        else:
            out = sp.diff(node, s)
        memo[node] = out
        return out

    return [derivative(expr, s, {}) if s in under[expr] else sp.S.Zero for s in wrt]


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
        rates.extend([sp.sympify(rate, strict=True)] * len(flat))
    L = sp.sympify(loss(**arrays), strict=True)
    trained = [s for s, rate in zip(state, rates, strict=True) if rate != 0]
    grad = dict(zip(trained, gradient(L, trained), strict=True))
    rhs = tuple(
        sp.Integer(0) if rate == 0 else -rate * grad[s]
        for s, rate in zip(state, rates, strict=True)
    )
    shapes = tuple((name, tuple(shape)) for name, (shape, _rate) in blocks.items())
    return GradientFlow(tuple(state), tuple(params), rhs, shapes, L)
