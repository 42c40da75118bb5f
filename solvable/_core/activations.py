"""Activation functions: one sympy definition each, every evaluator generated from it.

``sigma(z)`` (:func:`activation`) is the single source; its derivatives are
``sympy.diff`` of it (:func:`derivative`), and the numeric evaluators for numpy, mpmath and
torch are generated from those expressions (:func:`evaluator`).  Where the differentiated
form overflows in float64 (swish: ``exp(-z)`` for ``z << 0``), the evaluated form is an
equal, overflow-free expression (:func:`stable_derivative`), proved equal by the claim
``ntg.swish_derivative_stable_form``.  The ReLU derivative is ``Heaviside(z, 0)``: ``sigma'(0)
= 0``, the autograd convention.

Used by the models of seeds 000 (node-scaled networks), 002 (the lecture's two-layer
network), 003 (piecewise-linear networks) and 004 (three-layer ReLU networks), and by the
batched torch losses of :mod:`numerics.models`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.backends import check_backend, generate
from solvable._core.numbers import check_int

__all__ = [
    "ACTIVATIONS",
    "Z",
    "activation",
    "check_activation",
    "derivative",
    "elementwise",
    "evaluated_form",
    "evaluator",
    "stable_derivative",
]

ACTIVATIONS = ("linear", "relu", "swish", "tanh")
Z = sp.Symbol("z", real=True)
"""The pre-activation variable of :func:`activation`."""


def check_activation(
    name: Any, allowed: tuple[str, ...] = ACTIVATIONS, why: str = "", *, arg: str = "activation"
) -> str:
    """``name`` if it is one of ``allowed`` (``TypeError`` for a non-string); ``why`` says
    what restricts the choice (e.g. ``"twice differentiable"``); ``arg`` is the argument's
    name in the messages."""
    need = f" ({why})" if why else ""
    if not isinstance(name, str):
        raise TypeError(f"{arg} must be a str, one of {allowed}{need}, got {name!r}")
    if name not in allowed:
        raise ValueError(f"{arg} must be one of {allowed}{need}, got {name!r}")
    return name


MAX_ORDER = 64
"""The highest derivative order :func:`derivative` takes: the papers use orders 1 and 2, and
sympy's ``diff`` of order ``10**30`` would never return."""


def check_order(order: Any) -> int:
    """A derivative order ``0 <= order <= MAX_ORDER`` as an int (never a string: sympy
    would parse it as code)."""
    order = check_int("order", order, low=0)
    if order > MAX_ORDER:
        raise ValueError(f"order must be an integer in [0, {MAX_ORDER}], got {order}")
    return order


def activation(name: str) -> sp.Expr:
    """``sigma(z)`` as a sympy expression in :data:`Z`: linear ``z``, relu ``max(0, z)``,
    swish ``z/(1 + exp(-z))`` (seed 000 Section 8), tanh ``tanh(z)``."""
    name = check_activation(name, arg="name")
    return {
        "linear": Z,
        "relu": sp.Max(0, Z),
        "swish": Z / (1 + sp.exp(-Z)),
        "tanh": sp.tanh(Z),
    }[name]


def derivative(name: str, order: int = 1) -> sp.Expr:
    """``sympy.diff(activation(name), z, order)``; the ReLU derivative is ``Heaviside(z, 0)``
    (``sigma'(0) = 0``, a null set under the papers' Gaussian initialisations)."""
    name = check_activation(name, arg="name")
    d = sp.diff(activation(name), Z, check_order(order))
    return d.subs(sp.Heaviside(Z), sp.Heaviside(Z, 0))


def stable_derivative(name: str, order: int = 1) -> sp.Expr:
    """The form of ``sigma^(order)`` that is evaluated in float64 and torch: for swish
    (order 1) ``(1 + tanh(z/2))/2 + z/(4 cosh(z/2)^2)`` (no ``exp(-z)`` overflow for
    ``z << 0``), for tanh (order 2) ``-2 tanh(z)/cosh(z)^2`` (no cancellation in
    ``1 - tanh(z)^2`` for large ``|z|``); each equal to :func:`derivative` (claims
    ``ntg.swish_derivative_stable_form``, ``linearisation.tanh_second_derivative_stable_form``),
    else :func:`derivative` itself."""
    name = check_activation(name, arg="name")
    order = check_order(order)
    if name == "swish" and order == 1:
        return (1 + sp.tanh(Z / 2)) / 2 + Z / (4 * sp.cosh(Z / 2) ** 2)
    if name == "tanh" and order == 2:
        return -2 * sp.tanh(Z) / sp.cosh(Z) ** 2
    return derivative(name, order)


def evaluated_form(name: str) -> sp.Expr:
    """The form of ``sigma`` that is evaluated and differentiated: :func:`activation`, with
    ReLU's ``max(0, z)`` rewritten as ``Piecewise((0, z <= 0), (z, True))`` so that sympy's
    derivative and torch's autograd both give ``sigma'(0) = 0``, the convention of
    :func:`derivative` (``diff(max(0, z))`` is ``Heaviside(z)``, 1/2 at 0; autograd of
    ``maximum`` splits the gradient 1/2 : 1/2 at the tie)."""
    expr = activation(name)
    return expr.rewrite(sp.Piecewise) if expr.has(sp.Max) else expr


@functools.cache
def evaluator(name: str, backend: str, order: int = 0, power: int = 1) -> Callable[[Any], Any]:
    """``z -> sigma^(order)(z) ** power`` for ``backend`` (numpy float64 arrays, one mpmath
    number, torch tensors), generated from :func:`activation` / :func:`derivative` (the
    cancellation- and overflow-free :func:`stable_derivative` outside mpmath)."""
    name, backend = check_activation(name), check_backend(backend)
    if order == 0:
        expr = evaluated_form(name)
    elif backend != "mpmath":
        expr = stable_derivative(name, order)
    else:
        expr = derivative(name, order)
    fn = generate((Z,), expr**power, backend, cse=backend == "numpy")
    if backend != "numpy":
        return fn

    def quiet(z: Any) -> Any:  # swish: cosh(z/2)^2 -> inf for |z| > ~1420 is intended: z/inf = 0
        with np.errstate(over="ignore"):
            return fn(np.asarray(z, dtype=np.float64))

    return quiet


@functools.cache
def elementwise(name: str, backend: str) -> Callable[[Any], Any]:
    """``sigma`` applied entrywise to an array of ``backend``: ``"sympy"`` (numpy object
    arrays of sympy expressions, for deriving a flow), ``"mpmath"`` (object arrays of
    ``mpf``), ``"numpy"`` (float64) or ``"torch"`` (tensors); from :func:`activation`."""
    if backend == "sympy":
        expr = evaluated_form(name)
        return np.vectorize(lambda z: expr.subs(Z, z), otypes=[object])
    fn = evaluator(name, backend)
    return np.vectorize(fn, otypes=[object]) if backend == "mpmath" else fn
