"""The network of seed 002, eqs. (2.19) / (2.28), ``f(x; theta) = (1/sqrt(p)) sum_{j<=p}
a_j sigma(<w_j, x>)``, its risk ``R = 1/(2n) sum_i (y_i - f(x_i))^2`` (eq. (2.22)) and
Exercise 2's ``g = phi(f)`` (eq. (4.5)): one definition for every backend (sympy / mpmath
object arrays, float64, batched torch tensors), with checked arguments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvable._core import numbers as nb
from solvable._core.arrays import ArrayArgs


# ---------------------------------------------------------------------------
# The network (2.19) / (2.28) and its risk (2.22): one definition for every backend
# ---------------------------------------------------------------------------
def _network_output(W: Any, a: Any, X: Any, sigma: Callable[[Any], Any], scale: Any) -> Any:
    return scale * (sigma(X @ W.swapaxes(-1, -2)) * a[..., None, :]).sum(-1)


def _composed_output(W: Any, a: Any, X: Any, sigma: Callable[[Any], Any], scale: Any,
                     phi: Callable[[Any], Any]) -> Any:  # fmt: skip
    return phi(_network_output(W, a, X, sigma, scale))


def _risk(W: Any, a: Any, X: Any, y: Any, sigma: Callable[[Any], Any], scale: Any,
          phi: Callable[[Any], Any] | None = None) -> Any:  # fmt: skip
    out = (_network_output(W, a, X, sigma, scale) if phi is None
           else _composed_output(W, a, X, sigma, scale, phi))  # fmt: skip
    return ((y - out) ** 2).sum(-1) / (2 * X.shape[-2])


def checked_callable(name: str, fn: Any, what: str, sources: str) -> Callable[[Any], Any]:
    """``fn`` (an entrywise function of the array code: an activation) if callable, else
    ``TypeError`` naming ``name``; a ``TypeError`` / ``ValueError`` it raises on the
    arrays it is given (``what``, computed from the arguments ``sources``) is re-raised
    naming ``name`` and those arguments."""
    if not callable(fn):
        raise TypeError(f"{name} must be a callable (entrywise, e.g. solvable._core."
                        f"activations.elementwise), got {type(fn).__name__} "
                        f"{nb.describe(fn)}")  # fmt: skip

    def call(Z: Any) -> Any:
        try:
            return fn(Z)
        except (TypeError, ValueError) as exc:
            got = f"{type(Z).__name__}, dtype {Z.dtype}" if hasattr(Z, "dtype") else type(Z)
            raise type(exc)(f"{name} failed on {what} (from {sources}; {got}): {exc}") from exc

    return call


_NO_Y = object()  # network_output, composed_output: no targets


def _network_args(fn: str, W: Any, a: Any, X: Any, scale: Any,
                  y: Any = _NO_Y) -> tuple[Any, ...]:  # fmt: skip
    """The checked arguments of the network (2.19): ``W`` (..., p, d), ``a`` (..., p), ``X``
    (n, d), ``scale`` (a number or an array broadcasting with the outputs (..., n)) and the
    targets ``y`` (..., n) (``TypeError`` / ``ValueError`` naming the argument)."""
    v = ArrayArgs(fn, torch=True)
    W, a = v.array("W", W, min_ndim=2), v.array("a", a, min_ndim=1)
    X = v.array("X", X, ndim=2)
    v.same("the width p (rows of W, last axis of a)", ("W", W.shape[-2]), ("a", a.shape[-1]))
    v.same("the input dimension d (columns of W and X)", ("W", W.shape[-1]), ("X", X.shape[1]))
    out = (*v.broadcast(("W", W.shape[:-2]), ("a", a.shape[:-1])), X.shape[0])
    scale = v.array("scale", scale)
    v.broadcast(("the outputs (..., n)", out), ("scale", tuple(getattr(scale, "shape", ()))))
    if y is not _NO_Y:
        y = v.array("y", y, min_ndim=1)
        v.same("the number of data points n (rows of X, last axis of y)",
               ("X", X.shape[0]), ("y", y.shape[-1]))  # fmt: skip
        v.broadcast(("the outputs (..., n)", out), ("y", y.shape))
    return v, W, a, X, scale, y


def network_output(W: Any, a: Any, X: Any, sigma: Callable[[Any], Any], scale: Any) -> Any:
    """Eqs. (2.19), (2.28): ``f(x_i) = scale * sum_j a_j sigma(<w_j, x_i>)`` (``scale =
    1/sqrt(p)``: NTK scaling; eq. (3.8)'s ``alpha(p)`` otherwise); ``W`` (..., p, d), ``a``
    (..., p), ``X`` (n, d) give (..., n).  Array code for sympy / mpmath object arrays,
    float64 and batched torch tensors (lists are read as arrays); ``sigma`` entrywise
    (:func:`solvable._core.activations.elementwise`).  Every argument is checked
    (``TypeError`` / ``ValueError`` naming it), as is the result (float64 range)."""
    v, W, a, X, scale, _ = _network_args("network_output", W, a, X, scale)
    sigma = checked_callable("sigma", sigma, "the pre-activations", "X, W")
    return v(_network_output, W, a, X, sigma, scale)


def composed_output(W: Any, a: Any, X: Any, sigma: Callable[[Any], Any], scale: Any,
                    phi: Callable[[Any], Any]) -> Any:  # fmt: skip
    """Exercise 2: ``g(x; theta) = phi(f(x; theta))``, an output nonlinearity ``phi``
    (entrywise, e.g. :func:`solvable._core.activations.elementwise`) after the network
    :func:`network_output` (eq. (4.5)); same shapes and backends, checked as there."""
    v, W, a, X, scale, _ = _network_args("composed_output", W, a, X, scale)
    sigma = checked_callable("sigma", sigma, "the pre-activations", "X, W")
    phi = checked_callable("phi", phi, "the network outputs", "W, a, X, scale, sigma")
    return v(_composed_output, W, a, X, sigma, scale, phi)


def risk(W: Any, a: Any, X: Any, y: Any, sigma: Callable[[Any], Any], scale: Any,
         phi: Callable[[Any], Any] | None = None) -> Any:  # fmt: skip
    """Eq. (2.22): ``R = 1/(2n) sum_i (y_i - f(x_i))^2``; with ``phi`` the risk of
    Exercise 2's ``g = phi(f)`` (:func:`composed_output`) in place of ``f``; the targets
    ``y`` (n,) (or (..., n)); checked as :func:`network_output`."""
    v, W, a, X, scale, y = _network_args("risk", W, a, X, scale, y)
    sigma = checked_callable("sigma", sigma, "the pre-activations", "X, W")
    if phi is not None:
        phi = checked_callable("phi", phi, "the network outputs", "W, a, X, scale, sigma")
    return v(_risk, W, a, X, y, sigma, scale, phi)
