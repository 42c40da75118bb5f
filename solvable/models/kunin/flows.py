"""Seed 003 (Kunin et al.), the raw gradient flows, derived by sympy from the losses
(:func:`flow`: Part I; :func:`wide_flow`, :func:`piecewise_linear_flow`: Part II), ``grad_beta
L`` (:func:`beta_gradient`) and the conservation laws proved along the flows (:func:`laws`:
delta, the entries of Delta, every delta_k).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.activations import elementwise
from solvable._core.arrays import symbolic_sizes
from solvable._core.conservation import ConservationLaw
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.losses import (
    SEED,
    _balance,
    _loss,
    _piecewise_linear_loss,
    _wide_balance,
    _wide_loss,
)


# ---------------------------------------------------------------------------
# Raw gradient flows (derived from the losses) and their conservation laws
# ---------------------------------------------------------------------------
def _data_symbols(n: int, d: int, targets: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    X = symbol_array("X", (n, d), real=True)
    y = symbol_array("Y" if targets else "y", (n, targets) if targets else (n,), real=True)
    return X, y


def flow(n: int, d: int) -> GradientFlow:
    """Part I: the gradient flow of :func:`loss` (rates eta_a, eta_w); parameters
    ``(eta_a, eta_w, X entries, y entries)``; blocks ``a`` (a scalar) and ``w`` (d,).
    Sizes: ints >= 1, with at most :data:`solvable._core.arrays.MAX_SYMBOLIC_ENTRIES`
    symbolic entries in all; cached."""
    return _flow(**symbolic_sizes("flow", lambda n, d: n * d + n + d + 1, n=n, d=d))


@functools.cache
def _flow(n: int, d: int) -> GradientFlow:
    S = symbolic()
    X, y = _data_symbols(n, d)
    return gradient_flow(lambda a, w: _loss(a, w, X, y), {"a": ((), S.eta_a), "w": ((d,), S.eta_w)},
                         (S.eta_a, S.eta_w, *X.ravel(), *y))  # fmt: skip


def wide_flow(n: int, d: int, h: int, c: int) -> GradientFlow:
    """Part II: the gradient flow of :func:`wide_loss`, ``A`` (h, c) at rate eta_a, ``W``
    (h, d) at rate eta_w; parameters ``(eta_a, eta_w, X entries, Y entries)``.  Sizes as
    :func:`flow`; cached."""
    sizes = symbolic_sizes("wide_flow", lambda n, d, h, c: (n + h) * (d + c), n=n, d=d, h=h, c=c)
    return _wide_flow(**sizes)


@functools.cache
def _wide_flow(n: int, d: int, h: int, c: int) -> GradientFlow:
    S = symbolic()
    X, Y = _data_symbols(n, d, c)
    return gradient_flow(lambda A, W: _wide_loss(A, W, X, Y),
                         {"A": ((h, c), S.eta_a), "W": ((h, d), S.eta_w)},
                         (S.eta_a, S.eta_w, *X.ravel(), *Y.ravel()))  # fmt: skip


def piecewise_linear_flow(n: int, d: int, h: int, *, region: bool = True) -> GradientFlow:
    """Part II: the gradient flow of :func:`piecewise_linear_loss`.  ``region=True``: inside
    one activation region, ``sigma(w_k . x_i) = s_k_i (w_k . x_i)`` with the slopes as
    parameters (a polynomial flow; parameters ``(eta_a, eta_w, X, y, slopes)``);
    ``region=False``: ReLU itself (parameters ``(eta_a, eta_w, X, y)``).  Sizes as
    :func:`flow`; cached."""
    sizes = symbolic_sizes("piecewise_linear_flow", lambda n, d, h: (n + h) * (d + 1) + h * n,
                            n=n, d=d, h=h)  # fmt: skip
    if not isinstance(region, (bool, np.bool_)):
        raise TypeError(f"region must be True or False, got {nb.describe(region)}")
    return _piecewise_linear_flow(**sizes, region=bool(region))


@functools.cache
def _piecewise_linear_flow(n: int, d: int, h: int, *, region: bool = True) -> GradientFlow:
    S = symbolic()
    X, y = _data_symbols(n, d)
    params: tuple[Any, ...] = (S.eta_a, S.eta_w, *X.ravel(), *y)
    if region:
        slopes = symbol_array("s", (h, n), real=True)
        params = (*params, *slopes.ravel())

        def sigma(Z: Any) -> Any:
            return slopes.T * Z
    else:
        sigma = elementwise("relu", "sympy")
    F = gradient_flow(lambda a, W: _piecewise_linear_loss(a, W, X, y, sigma),
                      {"a": ((h,), S.eta_a), "W": ((h, d), S.eta_w)}, params)  # fmt: skip
    return F


def beta_gradient(n: int, d: int, c: int | None = None) -> tuple[np.ndarray, ...]:
    """``(beta, X, targets, grad)``: sympy symbol arrays and ``grad_beta L`` (shaped like
    ``beta``), derived by sympy from :func:`loss` at ``a = 1, w = beta`` (``c`` None: beta
    (d,)) or from :func:`wide_loss` at ``A = beta, W = I_d`` (beta (d, c)); both losses depend
    on the weights only through ``beta = a w`` (``W^T A``).  ``X`` and the targets are the
    symbols of :func:`flow` / :func:`wide_flow`.  Sizes as :func:`flow`; cached."""
    if c is None:
        return _beta_gradient(**symbolic_sizes("beta_gradient", lambda n, d: n * d + n + d,
                                                n=n, d=d))  # fmt: skip
    sizes = symbolic_sizes("beta_gradient", lambda n, d, c: (n + d) * (d + c), n=n, d=d, c=c)
    return _beta_gradient(**sizes)


@functools.cache
def _beta_gradient(n: int, d: int, c: int | None = None) -> tuple[np.ndarray, ...]:
    X, T = _data_symbols(n, d, c)
    if c is None:
        B = symbol_array("beta", (d,), real=True)
        L = _loss(np.array(sp.Integer(1), dtype=object), B, X, T)
    else:
        B = symbol_array("beta", (d, c), real=True)
        eye = np.array([[sp.Integer(int(i == j)) for j in range(d)] for i in range(d)])
        L = _wide_loss(B, eye, X, T)
    L = sp.sympify(_scalar(L), strict=True)
    grad = np.vectorize(lambda b: sp.diff(L, b), otypes=[object])(B)
    return B, X, T, grad


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.ndarray) and value.ndim == 0 else value


def laws() -> tuple[ConservationLaw, ...]:
    """delta (single neuron, any X), the entries of Delta (wide net) and every delta_k
    (piecewise-linear net, inside an activation region), each proved along its flow."""
    S = symbolic()
    s = SEED
    single = flow(3, 2)
    out = [
        ConservationLaw(
            "kunin.delta", f"{s} Part I",
            "delta = eta_w a^2 - eta_a ||w||^2 is conserved (single neuron, any X, n = 3, d = 2).",
            _scalar(_balance(single.block("a"), single.block("w"), S.eta_a, S.eta_w)),
            single, "single neuron, n = 3, d = 2",
        )
    ]  # fmt: skip
    wide = wide_flow(2, 2, 2, 2)
    Delta = _wide_balance(wide.block("A"), wide.block("W"), S.eta_a, S.eta_w)
    for p, q in ((0, 0), (0, 1), (1, 1)):
        out.append(
            ConservationLaw(
                f"kunin.Delta_{p}{q}", f"{s} Part II",
                f"Entry ({p},{q}) of Delta = eta_w A A^T - eta_a W W^T is conserved "
                "(f = A^T W x, h = c = d = n = 2).",
                Delta[p, q], wide, "wide linear net, h = c = d = n = 2",
            )
        )  # fmt: skip
    pl = piecewise_linear_flow(2, 2, 2)
    deltas = _balance(pl.block("a"), pl.block("W"), S.eta_a, S.eta_w)
    for k in range(2):
        out.append(
            ConservationLaw(
                f"kunin.delta_k{k}", f"{s} Part II",
                f"delta_{k} = eta_w a_{k}^2 - eta_a ||w_{k}||^2 is conserved for a "
                "piecewise-linear f = a^T sigma(W x) (inside an activation region).",
                deltas[k], pl, "piecewise-linear net, h = 2, d = 2, n = 2",
            )
        )  # fmt: skip
    return tuple(out)
