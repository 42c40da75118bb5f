"""Seed 003 (Kunin et al., "Get rich quick", NeurIPS 2024): the three models, each loss and
each conserved quantity defined once, as array code (sympy / mpmath object arrays, float64
arrays and batched torch tensors).

Part I, the single hidden neuron ``f(x) = a w^T x``: :func:`output`, :func:`loss` (``L = 1/2
sum_i (a w^T x_i - y_i)^2``), the conserved :func:`balance` (``delta = eta_w a^2 - eta_a
||w||^2``), :func:`weight_preconditioner` (``M = eta_w a^2 I + eta_a w w^T``, ``d beta/dt = -M
grad_beta L``) and :func:`ntk` (``K = X M X^T``).  Part II: the wide linear net ``f(x) = A^T W
x`` (:func:`wide_output`, :func:`wide_loss`, :func:`wide_balance`: ``Delta = eta_w A A^T -
eta_a W W^T``) and the piecewise-linear net ``f(x) = a^T sigma(W x)``
(:func:`piecewise_linear_loss`).  The public functions check their arguments; the package's
own code calls the unchecked forms (``_loss``, ...).  Also ``SEED`` (the poster's source,
seed ``003_cfd8c5fad4b6665d.txt``) and ``GUARD_DIGITS``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.arrays import ArrayArgs, shape_of

SEED = "003_cfd8c5fad4b6665d.txt"
GUARD_DIGITS = nb.GUARD_DIGITS


# ---------------------------------------------------------------------------
# The models: each loss and each conserved quantity defined once (array code that runs
# on sympy / mpmath object arrays, float64 arrays and batched torch tensors)
# ---------------------------------------------------------------------------
def _output(a: Any, w: Any, X: Any) -> Any:
    return a[..., None] * (w @ X.swapaxes(-1, -2))


def _loss(a: Any, w: Any, X: Any, y: Any) -> Any:
    return ((_output(a, w, X) - y) ** 2).sum(-1) / 2


def _balance(a: Any, w: Any, eta_a: Any, eta_w: Any) -> Any:
    return eta_w * a**2 - eta_a * (w * w).sum(-1)


def _wide_output(A: Any, W: Any, X: Any) -> Any:
    return X @ W.swapaxes(-1, -2) @ A


def _wide_loss(A: Any, W: Any, X: Any, Y: Any) -> Any:
    return ((_wide_output(A, W, X) - Y) ** 2).sum((-1, -2)) / 2


def _wide_balance(A: Any, W: Any, eta_a: Any, eta_w: Any, matmul: Any = operator.matmul) -> Any:
    # (matmul: exact_matmul for the closed form's 50-digit check, each Gram exact, rounded once)
    return eta_w * matmul(A, A.swapaxes(-1, -2)) - eta_a * matmul(W, W.swapaxes(-1, -2))


def _piecewise_linear_loss(a: Any, W: Any, X: Any, y: Any, sigma: Callable[[Any], Any]) -> Any:
    f = (sigma(X @ W.swapaxes(-1, -2)) * a[..., None, :]).sum(-1)
    return ((f - y) ** 2).sum(-1) / 2


def _weight_preconditioner(a: Any, w: Any, eta_a: Any, eta_w: Any) -> Any:
    a, w = np.asarray(a), np.asarray(w)
    eye = np.eye(w.shape[-1], dtype=int)
    return eta_w * a[..., None, None] ** 2 * eye + eta_a * w[..., :, None] * w[..., None, :]


def _ntk_array(a: Any, w: Any, X: Any, eta_a: Any, eta_w: Any) -> Any:
    return X @ _weight_preconditioner(a, w, eta_a, eta_w) @ X.swapaxes(-1, -2)


# The public functions check their arguments (_core.arrays.ArrayArgs: float64 arrays, mpmath
# / sympy object arrays, lists, numbers and, for the torch code, tensors; a TypeError /
# ValueError names the argument, and a result beyond float64 is refused); the module's own
# code calls the unchecked forms above.
_NO_X = object()  # no data matrix (balance, weight_preconditioner)


def _single(fn: str, a: Any, w: Any, X: Any = _NO_X, *, torch: bool = True) -> Any:
    """``a`` (...), ``w`` (..., d) and ``X`` (n, d) of a single-neuron function, checked."""
    v = ArrayArgs(fn, torch=torch)
    a, w = v.array("a", a, wrap=True), v.array("w", w, min_ndim=1)
    v.batch = v.broadcast(("a", a.shape), ("w without its last axis", w.shape[:-1]))
    if X is not _NO_X:
        X = v.array("X", X, ndim=2)
        v.same("the input dimension d (last axis of w, columns of X)",
               ("w", w.shape[-1]), ("X", X.shape[1]))  # fmt: skip
    return v, a, w, X


def _wide(fn: str, A: Any, W: Any, X: Any = _NO_X) -> Any:
    """``A`` (..., h, c), ``W`` (..., h, d) and ``X`` (n, d) of a wide-net function, checked."""
    v = ArrayArgs(fn, torch=True)
    A, W = v.array("A", A, min_ndim=2), v.array("W", W, min_ndim=2)
    v.same("the width h (rows of A and W)", ("A", A.shape[-2]), ("W", W.shape[-2]))
    v.batch = v.broadcast(("A", A.shape[:-2]), ("W", W.shape[:-2]))
    if X is not _NO_X:
        X = v.array("X", X, ndim=2)
        v.same("the input dimension d (columns of W and X)", ("W", W.shape[-1]), ("X", X.shape[1]))
    return v, A, W, X


def _targets(v: ArrayArgs, name: str, value: Any, n: int, batch: tuple[int, ...],
             ndim: int) -> Any:  # fmt: skip
    """The targets (..., n) (``ndim`` 1) or (..., n, c) (``ndim`` 2) for ``n`` data points."""
    T = v.array(name, value, min_ndim=ndim)
    v.same("the number of data points n (rows of X, of the targets)",
           ("X", n), (name, T.shape[-ndim]))  # fmt: skip
    v.broadcast(("the weights", batch), (name, T.shape[:-ndim]))
    return T


def output(a: Any, w: Any, X: Any) -> Any:
    """``f(x_i) = a w^T x_i`` on the rows of ``X`` (n, d): ``a`` (...), ``w`` (..., d) give
    (..., n).  Array code (float64, mpmath / sympy object arrays, torch tensors), checked."""
    v, a, w, X = _single("output", a, w, X)
    return v(_output, a, w, X)


def loss(a: Any, w: Any, X: Any, y: Any) -> Any:
    """``L = 1/2 sum_i (a w^T x_i - y_i)^2``: ``a`` (...), ``w`` (..., d), ``X`` (n, d),
    ``y`` (n,).  Array code, checked (as :func:`output`)."""
    v, a, w, X = _single("loss", a, w, X)
    y = _targets(v, "y", y, X.shape[0], v.batch, 1)
    return v(_loss, a, w, X, y)


def balance(a: Any, w: Any, eta_a: Any, eta_w: Any) -> Any:
    """The conserved ``delta = eta_w a^2 - eta_a |w|^2`` (``a`` (...), ``w`` (..., d)); for a
    piecewise-linear network ``a`` (..., h), ``W`` (..., h, d) it gives every ``delta_k``.
    Array code, checked (a number ``a`` gives a number)."""
    v = ArrayArgs("balance", torch=True)
    a, w = v.array("a", a), v.array("w", w, min_ndim=1)
    v.broadcast(("a", shape_of(a)), ("w without its last axis", w.shape[:-1]))
    eta_a, eta_w = v.scalar("eta_a", eta_a), v.scalar("eta_w", eta_w)
    return v(_balance, a, w, eta_a, eta_w)


def wide_output(A: Any, W: Any, X: Any) -> Any:
    """Wide two-layer linear net ``f(x) = A^T W x`` on the rows of ``X`` (n, d): ``A``
    (..., h, c), ``W`` (..., h, d) give (..., n, c).  Array code, checked."""
    v, A, W, X = _wide("wide_output", A, W, X)
    return v(_wide_output, A, W, X)


def wide_loss(A: Any, W: Any, X: Any, Y: Any) -> Any:
    """``L = 1/2 sum_i ||A^T W x_i - y_i||^2`` (X: n x d, Y: n x c).  Array code, checked."""
    v, A, W, X = _wide("wide_loss", A, W, X)
    Y = _targets(v, "Y", Y, X.shape[0], v.batch, 2)
    v.same("the outputs c (columns of A and Y)", ("A", A.shape[-1]), ("Y", Y.shape[-1]))
    return v(_wide_loss, A, W, X, Y)


def wide_balance(A: Any, W: Any, eta_a: Any, eta_w: Any) -> Any:
    """The conserved ``Delta = eta_w A A^T - eta_a W W^T`` (h x h).  Array code, checked."""
    v, A, W, _ = _wide("wide_balance", A, W)
    eta_a, eta_w = v.scalar("eta_a", eta_a), v.scalar("eta_w", eta_w)
    return v(_wide_balance, A, W, eta_a, eta_w)


def piecewise_linear_loss(a: Any, W: Any, X: Any, y: Any, sigma: Callable[[Any], Any]) -> Any:
    """``f(x_i) = sum_k a_k sigma(w_k . x_i)``, ``L = 1/2 sum_i (f(x_i) - y_i)^2``; ``a``
    (..., h), ``W`` (..., h, d); ``sigma`` elementwise on the pre-activations (..., n, h)
    (ReLU, or inside one activation region ``z -> s z`` with fixed slopes ``s``).  Array
    code, checked."""
    v = ArrayArgs("piecewise_linear_loss", torch=True)
    a, W, X = v.array("a", a, min_ndim=1), v.array("W", W, min_ndim=2), v.array("X", X, ndim=2)
    v.same("the width h (last axis of a, rows of W)", ("a", a.shape[-1]), ("W", W.shape[-2]))
    v.same("the input dimension d (columns of W and X)", ("W", W.shape[-1]), ("X", X.shape[1]))
    batch = v.broadcast(("a", a.shape[:-1]), ("W", W.shape[:-2]))
    y = _targets(v, "y", y, X.shape[0], batch, 1)
    if not callable(sigma):
        raise TypeError(f"sigma must be a callable (the activation, elementwise), got "
                        f"{type(sigma).__name__} {nb.describe(sigma)}")  # fmt: skip

    def activation(Z: Any) -> Any:
        try:
            return sigma(Z)
        except (TypeError, ValueError) as exc:  # the user's sigma cannot take these arrays
            got = f"{type(Z).__name__}, dtype {Z.dtype}, shape {tuple(Z.shape)}"
            hint = ("; mpmath.mpf inputs make object arrays: pass a sigma that takes them, "
                    "e.g. np.vectorize(mpmath.tanh)") if Z.dtype == object else ""  # fmt: skip
            raise type(exc)(f"sigma failed on the pre-activations X W^T ({got}): {exc}{hint}"
                            ) from exc  # fmt: skip

    return v(_piecewise_linear_loss, a, W, X, y, activation)


def weight_preconditioner(a: Any, w: Any, eta_a: Any, eta_w: Any) -> Any:
    """``M = eta_w a^2 I + eta_a w w^T`` (..., d, d) from the weights (``a`` (...), ``w``
    (..., d)): ``d beta/dt = -M grad_beta L`` (Part I, the self-consistent flow; claim
    ``kunin.beta_flow``).  Runs on sympy / mpmath object arrays and float64 arrays
    (checked)."""
    v, a, w, _ = _single("weight_preconditioner", a, w, torch=False)
    eta_a, eta_w = v.scalar("eta_a", eta_a), v.scalar("eta_w", eta_w)
    return v(_weight_preconditioner, a, w, eta_a, eta_w)


def ntk(a: Any, w: Any, X: Any, eta_a: Any, eta_w: Any) -> Any:
    """The NTK on the data, ``K = X M X^T`` (n, n) with ``M`` of :func:`weight_preconditioner`
    (Part I): ``d f/dt = -K (f - y)`` (claim ``kunin.ntk``).  Checked array code."""
    v, a, w, X = _single("ntk", a, w, X, torch=False)
    eta_a, eta_w = v.scalar("eta_a", eta_a), v.scalar("eta_w", eta_w)
    return v(_ntk_array, a, w, X, eta_a, eta_w)
