"""Seed 004, eqs. (3)-(5): ``-grad R_S`` of the package's risk (3) (the flow
:func:`numerics.simulate` integrates) at symbolic weights, the right-hand sides of (5) and
(7) as printed (the paper's form, data), and :func:`gradient_flow_residuals` (eq. (5) as
printed minus the package's flow)."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable.models.three_layer.coordinates import ALPHA, _size
from solvable.models.three_layer.network import network_output
from solvable.models.three_layer.symbolic import (
    _Params,
    _params,
    _sympy_activation,
    _vec,
    sigma,
    sigma_prime,
)
from solvable.models.three_layer.system import _flow


def _arrays(p: _Params) -> tuple[np.ndarray, ...]:
    """``(a, W2, W1, X, y)`` of ``p`` as numpy object arrays, for the array code of
    :func:`network_output` and :func:`risk`."""
    m, d = p.W1.shape
    return (
        np.array(list(p.a), dtype=object),
        np.array(list(p.W2), dtype=object).reshape(m, m),
        np.array(list(p.W1), dtype=object).reshape(m, d),
        np.array([v for x in p.X for v in x], dtype=object).reshape(len(p.X), d),
        np.array(list(p.y), dtype=object),
    )


def _network(p: _Params, c: sp.Expr, x: sp.Matrix, act: Any = "generic") -> sp.Expr:
    """The package's :func:`network_output` on ``x``: ``c a^T act(W2 act(W1 x))``, eq. (1)
    with ``c = 1/alpha``, eq. (7)'s network with ``c = kappa_3``."""
    a, W2, W1, _, _ = _arrays(p)
    X = np.array([list(x)], dtype=object)
    return sp.sympify(network_output(a, W2, W1, X, _sympy_activation(act), 1 / c)[0], strict=True)


def _gradient_field(p: _Params, alpha: sp.Expr, act: str = "generic") -> tuple[sp.Matrix, ...]:
    """``-grad R_S`` (eqs. (3)-(4)) at the weights and data of ``p``: the right-hand side of
    :func:`_flow` (the sympy gradient of the package's :func:`risk`: the flow that
    :func:`numerics.simulate` integrates), blocks ``a``, ``W2``, ``W1`` as matrices shaped
    like those of ``p``.  Biases folded in as in :func:`_printed_hidden` (``W2`` with one
    more column than rows: ``[W2 | b2]``, ``[W1 | b1]``, inputs with a trailing 1) are taken
    apart into the package's blocks ``b2``, ``b1`` and put back."""
    m = p.W2.rows
    bias = p.W2.cols == m + 1
    d = p.W1.cols - bias
    blocks = {"a": p.a, "W2": p.W2[:, :m], "W1": p.W1[:, :d]}
    if bias:
        blocks.update(b2=p.W2[:, m], b1=p.W1[:, d])
    X = [list(x)[:d] for x in p.X]
    flow = _flow(len(p.X), d, m, bias, act)
    sub = {
        sym: v
        for name, blk in blocks.items()
        for sym, v in zip(flow.block(name).ravel(), list(blk), strict=True)
    }
    data = (alpha, *(v for row in X for v in row), *p.y)
    sub.update(zip(flow.params, data, strict=True))  # fmt: skip
    rhs = flow.unpack(flow.rhs)
    out = {name: sp.Matrix(*blk.shape, [e.xreplace(sub) for e in rhs[name].ravel()])
           for name, blk in blocks.items()}  # fmt: skip
    if bias:
        return out["a"], out["W2"].row_join(out["b2"]), out["W1"].row_join(out["b1"])
    return out["a"], out["W2"], out["W1"]


def _printed_hidden(
    p: _Params, x: sp.Matrix, act: Any, appended: sp.Expr = sp.S.One
) -> tuple[sp.Matrix, ...]:
    """``z1 = W1 x``, ``h1 = act(z1)``, ``z2 = W2 h1``, as printed in (5) and (7).  With the
    biases folded into the weights (Section 3: the input weight of a neuron includes its
    bias), ``W2`` has one more column than rows and ``h1`` carries the constant
    ``appended`` (Section 3: 1; see :func:`rescaling_residuals` for the normalised model's
    ``1/beta_1``) and ``x`` its trailing 1, supplied by the caller."""
    z1 = p.W1 * x
    h1 = _vec(act, z1)
    if p.W2.cols == p.W2.rows + 1:
        h1 = h1.col_join(sp.Matrix([[appended]]))
    return z1, h1, p.W2 * h1


def _printed_network(
    p: _Params, c: sp.Expr, x: sp.Matrix, act: Any, appended: sp.Expr = sp.S.One
) -> sp.Expr:
    """Eq. (1) as printed inside (5) and (7): ``c a^T act(W2 act(W1 x))`` (the paper's form,
    data for :func:`_field`)."""
    return c * (p.a.T * _vec(act, _printed_hidden(p, x, act, appended)[2]))[0, 0]


def _field(
    p: _Params, c: sp.Expr, act=sigma, dact=sigma_prime, appended: sp.Expr = sp.S.One
) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix]:
    """The right-hand sides of (5) (c = 1/alpha) or the bracket of (7) (c = kappa_3) as
    printed, the paper's form (data): ``-(1/n) sum_i c (...) e_i`` for a, W2, W1, with
    ``e_i = c a^T act(...) - y_i`` (biases folded in: see :func:`_printed_hidden`)."""
    n, m = len(p.X), p.W2.rows
    da = sp.zeros(*p.a.shape)
    dW2 = sp.zeros(*p.W2.shape)
    dW1 = sp.zeros(*p.W1.shape)
    for x, yi in zip(p.X, p.y, strict=True):
        z1, h1, z2 = _printed_hidden(p, x, act, appended)
        e = _printed_network(p, c, x, act, appended) - yi
        back2 = p.a.multiply_elementwise(_vec(dact, z2))  # a ⊙ sigma'(z2)
        da += c * _vec(act, z2) * e
        dW2 += c * back2 * h1.T * e
        dW1 += c * (p.W2[:, :m].T * back2).multiply_elementwise(_vec(dact, z1)) * x.T * e
    return -da / n, -dW2 / n, -dW1 / n


def gradient_flow_residuals(
    m: int = 2, d: int = 2, n: int = 2, *, bias: bool = False
) -> list[sp.Expr]:
    """Eq. (5) as printed (:func:`_field`, the paper's form) minus ``-grad R_S`` of the
    package's :func:`risk` (eq. (3), differentiated by sympy in :func:`_flow`, the flow
    that :func:`numerics.simulate` integrates) for every parameter, generic differentiable
    activation; all residuals simplify to 0.  ``bias``: the network with biases, which (5)
    covers with the biases folded into ``W1``, ``W2`` (Section 3)."""
    m, d, n = _size("m", m), _size("d", d), _size("n", n)
    if not isinstance(bias, bool):
        raise TypeError(f"bias must be a bool, got {bias!r}")
    p = _params(m, d, n, bar=False)
    if bias:  # [W1 | b1], [W2 | b2], inputs (x, 1)
        b1 = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b1_{i}", real=True))
        b2 = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b2_{i}", real=True))
        p = _Params(p.a, p.W2.row_join(b2), p.W1.row_join(b1),
                    [x.col_join(sp.Matrix([[1]])) for x in p.X], p.y)  # fmt: skip
    printed = _field(p, 1 / ALPHA)
    package = _gradient_field(p, ALPHA)
    return [sp.expand(pr - pk) for P, K in zip(printed, package, strict=True)
            for pr, pk in zip(P, K, strict=True)]  # fmt: skip
