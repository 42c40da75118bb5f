"""Seed 004, the network (1) ``f(x) = (1/alpha) a^T sigma(W2 sigma(W1 x))`` (with
biases) and its empirical risk (3), one definition for every backend (sympy and mpmath
object arrays, float64, batched torch): :func:`hidden`, :func:`network_output`,
:func:`risk`, every argument checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from solvable._core.arrays import ArrayArgs
from solvable.models.linearisation import checked_callable
from solvable.models.three_layer.coordinates import _describe


# ---------------------------------------------------------------------------
# The network (1) and its risk (3): one definition for every backend
# ---------------------------------------------------------------------------
def _hidden(W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], b2: Any = None,
            b1: Any = None) -> tuple[Any, Any]:  # fmt: skip
    z1 = X @ W1.swapaxes(-1, -2)
    if b1 is not None:
        z1 = z1 + b1[..., None, :]
    h1 = relu(z1)
    z2 = h1 @ W2.swapaxes(-1, -2)
    if b2 is not None:
        z2 = z2 + b2[..., None, :]
    return h1, relu(z2)


def _network_output(a: Any, W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], alpha: Any,
                    b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    return (_hidden(W2, W1, X, relu, b2, b1)[1] * a[..., None, :]).sum(-1) / alpha


def _risk(a: Any, W2: Any, W1: Any, X: Any, y: Any, relu: Callable[[Any], Any], alpha: Any,
          b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    # the public network_output (checked again): risk is defined through it, one definition
    # (a test replaces it and expects the flow of risk to change)
    f = network_output(a, W2, W1, X, relu, alpha, b2, b1)
    return ((f - y) ** 2).sum(-1) / (2 * X.shape[-2])


_ABSENT = object()  # an argument the function does not take


def _args(fn: str, W2: Any, W1: Any, X: Any, relu: Any, b2: Any, b1: Any, a: Any = _ABSENT,
          alpha: Any = _ABSENT, y: Any = _ABSENT) -> tuple[Any, ...]:  # fmt: skip
    """The checked arguments of the network (1) (``TypeError`` / ``ValueError`` naming each;
    shapes as in :func:`hidden`; ``a`` (..., m); ``alpha`` a number or an array broadcasting
    with the outputs (..., n); ``y`` (..., n))."""
    v = ArrayArgs(fn, torch=True)
    W2, W1 = v.array("W2", W2, min_ndim=2), v.array("W1", W1, min_ndim=2)
    X = v.array("X", X, ndim=2)
    v.same("the input dimension d (columns of W1 and X)", ("W1", W1.shape[-1]), ("X", X.shape[1]))
    widths = [("W1", W1.shape[-2]), ("W2 (rows)", W2.shape[-2]), ("W2 (columns)", W2.shape[-1])]
    batches = [("W1", W1.shape[:-2]), ("W2", W2.shape[:-2])]
    out = {}
    for name, value in (("b2", b2), ("b1", b1), ("a", a)):
        if (value is None and name != "a") or value is _ABSENT:
            out[name] = None if value is None else value
            continue
        out[name] = v.array(name, value, min_ndim=1)
        widths.append((name, out[name].shape[-1]))
        batches.append((name, out[name].shape[:-1]))
    v.same("the width m (of W1, W2, a, b1, b2)", *widths)
    v.broadcast(*batches)
    outputs = (*np.broadcast_shapes(*(tuple(s) for _, s in batches)), X.shape[0])
    if alpha is not _ABSENT:
        alpha = v.array("alpha", alpha)
        if "alpha" not in v.tensors and np.any(np.asarray(alpha, dtype=object) == 0):
            raise ValueError(f"alpha must not be 0 (eq. (1) divides by it), got {_describe(alpha)}")
        v.broadcast(
            ("the outputs (..., n)", outputs), ("alpha", tuple(getattr(alpha, "shape", ())))
        )
    if y is not _ABSENT:
        y = v.array("y", y, min_ndim=1)
        v.same("the number of data points n (rows of X, last axis of y)",
               ("X", X.shape[0]), ("y", y.shape[-1]))  # fmt: skip
        v.broadcast(("the outputs (..., n)", outputs), ("y", y.shape))
    relu = checked_callable("relu", relu, "the pre-activations", "X, W1, b1, W2, b2")
    return v, W2, W1, X, relu, out["b2"], out["b1"], out["a"], alpha, y


def hidden(W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], b2: Any = None,
           b1: Any = None) -> tuple[Any, Any]:  # fmt: skip
    """The post-activations of the two hidden layers, ``relu(W1 x + b1)`` and
    ``relu(W2 h1 + b2)``, each (..., n, m) for ``X`` (n, d), ``W1`` (..., m, d), ``W2``
    (..., m, m), ``b1``, ``b2`` (..., m); array code for sympy / mpmath object arrays,
    float64 and batched torch tensors (lists are read as arrays; ``relu`` entrywise,
    :func:`solvable._core.activations.elementwise`).  Every argument is checked
    (``TypeError`` / ``ValueError`` naming it), as is the result (float64 range)."""
    v, W2, W1, X, relu, b2, b1, *_ = _args("hidden", W2, W1, X, relu, b2, b1)
    return v(_hidden, W2, W1, X, relu, b2, b1)


def network_output(a: Any, W2: Any, W1: Any, X: Any, relu: Callable[[Any], Any], alpha: Any,
                   b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    """Eq. (1): ``f(x) = a^T relu(W2 relu(W1 x + b1) + b2) / alpha`` on the rows of ``X``;
    ``a`` (..., m), the rest as :func:`hidden`; gives (..., n).  Checked as there."""
    v, W2, W1, X, relu, b2, b1, a, alpha, _ = _args("network_output", W2, W1, X, relu, b2, b1,
                                                    a, alpha)  # fmt: skip
    return v(_network_output, a, W2, W1, X, relu, alpha, b2, b1)


def risk(a: Any, W2: Any, W1: Any, X: Any, y: Any, relu: Callable[[Any], Any], alpha: Any,
         b2: Any = None, b1: Any = None) -> Any:  # fmt: skip
    """Eq. (3): ``R_S = 1/(2n) sum_i (f(x_i) - y_i)^2``, targets ``y`` (n,) (or (..., n));
    checked as :func:`network_output`."""
    v, W2, W1, X, relu, b2, b1, a, alpha, y = _args("risk", W2, W1, X, relu, b2, b1, a, alpha,
                                                    y)  # fmt: skip
    return v(_risk, a, W2, W1, X, y, relu, alpha, b2, b1)
