"""Seed 000, the network of eq. (2), ``f(x) = sum_j sqrt(lambda_{m,j}) a_j sigma(w_j^T x /
sqrt(d))``, and its loss (5): one definition for every backend (sympy / mpmath object arrays,
float64, batched torch tensors).  The public functions (:func:`preactivations`,
:func:`network_output`, :func:`loss`) check their arguments; the package's own code calls the
unchecked forms.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import sympy as sp

from solvable._core import numbers as nb
from solvable._core.arrays import ArrayArgs


# ---------------------------------------------------------------------------
# The network of eq. (2) and its loss (5): one definition for every backend
# ---------------------------------------------------------------------------
def _preactivations(W: Any, X: Any, root_d: Any) -> Any:
    return X @ W.swapaxes(-1, -2) / root_d


def _network_output(W: Any, a: Any, s: Any, X: Any, sigma: Callable[[Any], Any],
                    root_d: Any) -> Any:  # fmt: skip
    return (sigma(_preactivations(W, X, root_d)) * (s * a)[..., None, :]).sum(-1)


def _loss(W: Any, a: Any, s: Any, X: Any, y: Any, sigma: Callable[[Any], Any],
          root_d: Any) -> Any:  # fmt: skip
    return ((y - _network_output(W, a, s, X, sigma, root_d)) ** 2).sum(-1) / 2


def _zeroed_output(W: Any, W0: Any, a: Any, s: Any, X: Any, sigma: Callable[[Any], Any],
                   root_d: Any) -> Any:  # fmt: skip
    return _network_output(W, a, s, X, sigma, root_d) - _network_output(W0, a, s, X, sigma,
                                                                        root_d)  # fmt: skip


def _zeroed_loss(W: Any, W0: Any, a: Any, s: Any, X: Any, y: Any,
                 sigma: Callable[[Any], Any], root_d: Any) -> Any:  # fmt: skip
    return ((y - _zeroed_output(W, W0, a, s, X, sigma, root_d)) ** 2).sum(-1) / 2


# The public functions check their arguments (_core.arrays.ArrayArgs, as the other models'
# array code: float64 arrays, mpmath / sympy object arrays, lists and batched torch tensors;
# a TypeError / ValueError names the argument, a result beyond float64 is refused); the
# package's own code (the flows, numerics.models) calls the unchecked forms above.
_UNSET = object()


def _net_args(fn: str, W: Any, X: Any, root_d: Any, *, W0: Any = _UNSET, a: Any = _UNSET,
              s: Any = _UNSET, y: Any = _UNSET, sigma: Any = _UNSET) -> Any:  # fmt: skip
    """The arguments of the array code ``fn`` of eq. (2), checked: ``W`` (and ``W0``)
    (..., m, d), ``X`` (n, d), ``a``, ``s`` (..., m), ``y`` (..., n), ``sigma`` a callable
    and ``root_d = sqrt(d) > 0``."""
    v = ArrayArgs(fn, torch=True)
    out: dict[str, Any] = {"W": v.array("W", W, min_ndim=2)}
    W = out["W"]
    batch = [("W without its last two axes", W.shape[:-2])]
    if W0 is not _UNSET:
        out["W0"] = W0 = v.array("W0", W0, min_ndim=2)
        v.same("the width m (rows of W and W0)", ("W", W.shape[-2]), ("W0", W0.shape[-2]))
        v.same("the input dimension d (columns of W and W0)", ("W", W.shape[-1]),
               ("W0", W0.shape[-1]))  # fmt: skip
        batch.append(("W0 without its last two axes", W0.shape[:-2]))
    out["X"] = X = v.array("X", X, ndim=2)
    v.same("the input dimension d (columns of W and X)", ("W", W.shape[-1]), ("X", X.shape[1]))
    for name, value in (("a", a), ("s", s)):
        if value is not _UNSET:
            out[name] = arr = v.array(name, value, min_ndim=1)
            v.same(f"the width m (last axis of {name}, rows of W)", (name, arr.shape[-1]),
                   ("W", W.shape[-2]))  # fmt: skip
            batch.append((f"{name} without its last axis", arr.shape[:-1]))
    if y is not _UNSET:
        out["y"] = y = v.array("y", y, min_ndim=1)
        v.same("the number of data points n (rows of X, last axis of y)", ("X", X.shape[0]),
               ("y", y.shape[-1]))  # fmt: skip
        batch.append(("y without its last axis", y.shape[:-1]))
    v.broadcast(*batch)
    if sigma is not _UNSET:
        if not callable(sigma):
            raise TypeError(f"sigma must be a callable (the activation, entrywise), got "
                            f"{type(sigma).__name__} {nb.describe(sigma)}")  # fmt: skip
        out["sigma"] = _guarded_sigma(sigma)
    out["root_d"] = root_d = v.scalar("root_d", root_d)
    positive = root_d.is_positive if isinstance(root_d, sp.Basic) else bool(root_d > 0)
    if positive is False:
        raise ValueError(f"root_d must be sqrt(d) > 0 (d = {X.shape[1]} columns of X), got "
                         f"{nb.describe(root_d)}")  # fmt: skip
    return v, out


def _guarded_sigma(sigma: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def activation(Z: Any) -> Any:
        try:
            return sigma(Z)
        except (TypeError, ValueError) as exc:  # the user's sigma cannot take these arrays
            got = f"{type(Z).__name__}, dtype {Z.dtype}, shape {tuple(Z.shape)}"
            raise type(exc)(
                f"sigma failed on the pre-activations X W^T / root_d ({got}): {exc}"
            ) from exc

    return activation


def preactivations(W: Any, X: Any, root_d: Any) -> Any:
    """``Z_j(x_i) = w_j^T x_i / sqrt(d)`` (eq. (2)): ``W`` (..., m, d), ``X`` (n, d) give
    (..., n, m); ``root_d = sqrt(d)`` (exact for sympy, a float otherwise).  Array code,
    checked (see :func:`network_output`)."""
    v, k = _net_args("preactivations", W, X, root_d)
    return v(_preactivations, k["W"], k["X"], k["root_d"])


def network_output(W: Any, a: Any, s: Any, X: Any, sigma: Callable[[Any], Any],
                   root_d: Any) -> Any:  # fmt: skip
    """Eq. (2): ``f(x_i) = sum_j s_j a_j sigma(Z_j(x_i))`` with ``s_j = sqrt(lambda_{m,j})``;
    ``a``, ``s`` (..., m); returns (..., n).  Array code for sympy / mpmath object arrays,
    float64 and batched torch tensors; ``sigma`` entrywise
    (:func:`solvable._core.activations.elementwise`).  Every argument is checked
    (``TypeError`` / ``ValueError`` naming it), as is the result (beyond float64: refused)."""
    v, k = _net_args("network_output", W, X, root_d, a=a, s=s, sigma=sigma)
    return v(_network_output, k["W"], k["a"], k["s"], k["X"], k["sigma"], k["root_d"])


def loss(W: Any, a: Any, s: Any, X: Any, y: Any, sigma: Callable[[Any], Any],
         root_d: Any) -> Any:  # fmt: skip
    """Eq. (5): ``L = 1/2 sum_i (y_i - f(x_i))^2`` (``y`` (..., n)); checked as
    :func:`network_output`."""
    v, k = _net_args("loss", W, X, root_d, a=a, s=s, y=y, sigma=sigma)
    return v(_loss, k["W"], k["a"], k["s"], k["X"], k["y"], k["sigma"], k["root_d"])
