"""Seed 000, Section 7.3: the zeroed model (Assumption 7.7, :func:`zeroed_output`,
:func:`zeroed_loss`) and its first gradient-descent step (8) from ``W_0``, eqs. (24), (27) of
Theorems 7.9 / 7.10: derived by ``sympy.diff`` with a generic activation :data:`SIGMA`
(:class:`FirstStep`, :func:`first_step_symbolic`), their expectations over the targets
(Assumption 7.8, :func:`first_step_expectations`) and the generated float64 evaluator
(:func:`first_step_numeric`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.activations import Z, activation, check_activation
from solvable._core.arrays import as_array, symbolic_sizes
from solvable._core.backends import generate
from solvable._core.flows import symbol_array
from solvable.models.node_scaling.network import (
    _net_args,
    _preactivations,
    _zeroed_loss,
    _zeroed_output,
)


# ---------------------------------------------------------------------------
# Section 7.3: the zeroed model (Assumption 7.7) and its first gradient-descent step
# ---------------------------------------------------------------------------
def zeroed_output(W: Any, W0: Any, a: Any, s: Any, X: Any, sigma: Callable[[Any], Any],
                  root_d: Any) -> Any:  # fmt: skip
    """Assumption 7.7: ``f(x; W) - f(x; W_0)``, the network (2) minus a frozen copy at the
    initialisation ``W0`` (so it is 0 at ``W = W0``: "zeroed initialisation" is this
    subtraction, no layer is set to zero); shapes as :func:`network_output`, checked."""
    v, k = _net_args("zeroed_output", W, X, root_d, W0=W0, a=a, s=s, sigma=sigma)
    return v(_zeroed_output, k["W"], k["W0"], k["a"], k["s"], k["X"], k["sigma"], k["root_d"])


def zeroed_loss(W: Any, W0: Any, a: Any, s: Any, X: Any, y: Any, sigma: Callable[[Any], Any],
                root_d: Any) -> Any:  # fmt: skip
    """Eq. (5) for the zeroed model of Assumption 7.7: ``1/2 sum_i (y_i - f(x_i; W) +
    f(x_i; W_0))^2``; checked as :func:`network_output`."""
    v, k = _net_args("zeroed_loss", W, X, root_d, W0=W0, a=a, s=s, y=y, sigma=sigma)
    return v(_zeroed_loss, k["W"], k["W0"], k["a"], k["s"], k["X"], k["y"], k["sigma"],
             k["root_d"])  # fmt: skip


SIGMA = sp.Function("sigma")
"""A generic activation (any differentiable ``sigma``) for the Section 7.3 derivations."""
_ZS = sp.Symbol("zeta", real=True)


def _sigma_prime(z: sp.Expr) -> sp.Expr:
    """``sigma'(z)`` of the generic :data:`SIGMA` (sympy's ``Subs(Derivative(...))``)."""
    return SIGMA(_ZS).diff(_ZS).subs(_ZS, z)


@dataclass(frozen=True)
class FirstStep:
    """The first gradient-descent step (8) of the zeroed model (Assumption 7.7) from ``W_0``,
    derived by ``sympy.diff`` of :func:`zeroed_loss` with a generic activation :data:`SIGMA`,
    next to the paper's forms.  Symbols: ``eta``, ``X`` (n, d), ``y`` (n,), ``W0`` (m, d),
    ``a`` (m,), ``s`` (m,) (``s_j = sqrt(lambda_{m,j})``).  Derived: ``output0`` (n,) the
    zeroed output at ``W_0``; ``gradient`` (m, d) ``grad_{w_j} L(W_0)``; ``dZ`` (n, m)
    ``Z_j(x_i; W_1) - Z_j(x_i; W_0)``; ``grad_norm_sq`` (m,).  Printed: ``eq24`` (n, m) the
    right side of eq. (24) for node ``j`` (``lambda_{m,1}`` read as ``s_j^2``); ``g`` (n, m)
    the sum inside it; ``eq27_sum`` (m,) the double sum inside ``|.|`` of eq. (27);
    ``gradient_vector`` (m, d) ``sum_i y_i sigma'(Z_j(x_i)) x_i``."""

    eta: sp.Symbol
    X: np.ndarray
    y: np.ndarray
    W0: np.ndarray
    a: np.ndarray
    s: np.ndarray
    output0: np.ndarray
    gradient: np.ndarray
    dZ: np.ndarray  # noqa: N815 (the paper's Z)
    grad_norm_sq: np.ndarray
    eq24: np.ndarray
    g: np.ndarray
    eq27_sum: np.ndarray
    gradient_vector: np.ndarray

    @property
    def shape(self) -> tuple[int, int, int]:
        """``(n, d, m)``."""
        return (*self.X.shape, self.W0.shape[0])


def first_step_symbolic(n: int, d: int, m: int) -> FirstStep:
    """:class:`FirstStep` for ``n`` inputs in R^d and width ``m`` (ints >= 1, at most
    :data:`solvable._core.arrays.MAX_SYMBOLIC_ENTRIES` symbols in all): the gradient of
    :func:`zeroed_loss` at ``W = W_0`` by ``sympy.diff``, ``W_1 = W_0 - eta grad`` (eq. (8))
    and the printed right sides of eqs. (24) and (27)."""
    sizes = symbolic_sizes("first_step_symbolic", _first_step_entries, n=n, d=d, m=m)
    return _first_step_symbolic(sizes["n"], sizes["d"], sizes["m"])


def _first_step_entries(n: int, d: int, m: int) -> int:
    return n * d + n + 2 * m * d + 2 * m


@functools.cache
def _first_step_symbolic(n: int, d: int, m: int) -> FirstStep:
    eta = sp.Symbol("eta", positive=True)
    X = symbol_array("x", (n, d), real=True)
    y = symbol_array("y", (n,), real=True)
    W = symbol_array("w", (m, d), real=True)
    W0 = symbol_array("w0", (m, d), real=True)
    a = symbol_array("a", (m,), real=True)
    s = symbol_array("s", (m,), nonnegative=True)
    sigma = np.vectorize(SIGMA, otypes=[object])
    root_d = sp.sqrt(d)
    L = _zeroed_loss(W, W0, a, s, X, y, sigma, root_d)
    at0 = dict(zip(W.ravel(), W0.ravel(), strict=True))
    grad = np.array([[sp.diff(L, W[j, k]).subs(at0) for k in range(d)] for j in range(m)],
                    dtype=object)  # fmt: skip
    W1 = W0 - eta * grad
    dZ = _preactivations(W1, X, root_d) - _preactivations(W0, X, root_d)
    Z0 = _preactivations(W0, X, root_d)  # (n, m)
    sp0 = np.vectorize(_sigma_prime, otypes=[object])(Z0)
    gram = X @ X.T  # x_i^T x_i'
    g = np.array([[sum(y[k] * sp0[k, j] * gram[k, i] for k in range(n)) for j in range(m)]
                  for i in range(n)], dtype=object)  # fmt: skip
    eq24 = np.array([[eta**2 * s[j] ** 2 / d**2 * g[i, j] ** 2 for j in range(m)]
                     for i in range(n)], dtype=object)  # fmt: skip
    eq27 = np.array([sum(y[i] * y[k] * gram[i, k] * sp0[i, j] * sp0[k, j]
                         for i in range(n) for k in range(n)) for j in range(m)],
                    dtype=object)  # fmt: skip
    vec = np.array([[sum(y[i] * sp0[i, j] * X[i, k] for i in range(n)) for k in range(d)]
                    for j in range(m)], dtype=object)  # fmt: skip
    return FirstStep(
        eta=eta, X=X, y=y, W0=W0, a=a, s=s,
        output0=_zeroed_output(W0, W0, a, s, X, sigma, root_d),
        gradient=grad, dZ=dZ, grad_norm_sq=(grad**2).sum(-1),
        eq24=eq24, g=g, eq27_sum=eq27, gradient_vector=vec,
    )  # fmt: skip


def _expect_over_targets(expr: sp.Expr, y: np.ndarray, var: sp.Symbol) -> sp.Expr:
    """``E_y[expr]`` for a polynomial of degree <= 2 in independent zero-mean targets ``y``
    of variance ``var`` (Assumption 7.8 with ``E y_i = 0``): ``y_i^2 -> var``, every other
    monomial of positive degree -> 0, i.e. ``expr(y = 0) + var/2 sum_i d^2 expr/d y_i^2``
    (Taylor's formula, exact for a quadratic).  The degree is checked on the derivatives:
    every second derivative free of ``y``.  (Derivatives instead of expanding into a
    ``Poly``: the same expectation, 0.3 CPU s instead of 1.4 for the five of
    :func:`first_step_expectations` at n = 4, d = 3.)"""
    first = [sp.diff(expr, yi) for yi in y]
    hessian = [sp.diff(g, yk) for i, g in enumerate(first) for yk in y[i:]]
    if any(h.has(*y) for h in hessian):  # pragma: no cover - internal
        raise ValueError("only quadratic forms in y are handled")
    curvature = sum((sp.diff(g, yi) for g, yi in zip(first, y, strict=True)), sp.S.Zero)
    return expr.subs(dict.fromkeys(y, 0)) + var * curvature / 2


_VAR_Y = sp.Symbol("v_y", positive=True)  # Var(y_i)


def first_step_expectations(n: int, d: int) -> tuple[sp.Expr, ...]:
    """For one node (``m = 1``): ``E_y`` of eq. (24)'s right side at each input ``i`` and of
    ``||grad_{w_1} L(W_0)||^2`` (derived), over independent zero-mean targets of variance
    ``v_y`` (Assumption 7.8 with ``E y_i = 0``): ``eta^2 lambda/d^2 v_y sum_i' sigma'(Z(x_i'))^2
    (x_i'^T x_i)^2`` and ``lambda/d v_y sum_i sigma'(Z(x_i))^2 |x_i|^2`` (sympy, generic
    ``sigma``)."""
    sizes = symbolic_sizes("first_step_expectations", _first_step_entries, n=n, d=d, m=1)
    fs = _first_step_symbolic(sizes["n"], sizes["d"], 1)
    sub = {fs.a[0]: 1}  # a_1^2 = 1 (eq. (3)); the expressions depend on a_1 only through a_1^2
    return (*(_expect_over_targets(e, fs.y, _VAR_Y) for e in fs.eq24[:, 0]),
            _expect_over_targets(fs.grad_norm_sq[0].subs(sub), fs.y, _VAR_Y))  # fmt: skip


@functools.cache
def _first_step_fn(n: int, d: int, name: str) -> Callable[..., Any]:
    """float64 evaluator of one node's eq. (24) (n values), ``||grad||^2`` and their
    ``E_y`` (n + 1 values), generated from :func:`first_step_symbolic` /
    :func:`first_step_expectations` with ``sigma`` = the activation ``name``."""
    fs = first_step_symbolic(n, d, 1)
    exprs = (*fs.eq24[:, 0], fs.grad_norm_sq[0].subs(fs.a[0], 1), *first_step_expectations(n, d))
    concrete = sp.Lambda(Z, activation(name))
    exprs = tuple(sp.sympify(e, strict=True).subs(SIGMA, concrete).doit() for e in exprs)
    args = (fs.eta, _VAR_Y, fs.s[0], *fs.X.ravel(), *fs.y, *fs.W0[0])
    return generate(args, exprs, "numpy", cse=True)


def _float_array(name: str, value: Any, *, ndim: int | None = None,
                 min_ndim: int = 0) -> np.ndarray:  # fmt: skip
    """``value`` as a float64 array (a numpy array or nested sequence of finite real
    numbers; ``ndim`` axes, or at least ``min_ndim``), else ``TypeError`` / ``ValueError``
    naming ``name`` (mirror_flow's entry checks: no bool, complex, string or tensor)."""
    try:
        arr = as_array(name, value, False)
    except TypeError as exc:
        raise TypeError(f"{name} must be an array of real numbers: {exc}") from None
    if not isinstance(arr, np.ndarray):
        arr = np.asarray(arr, dtype=object)
    if arr.dtype.kind == "O":
        try:
            arr = np.array([nb.to_float(v, name) for v in arr.flat], dtype=float).reshape(arr.shape)
        except TypeError:  # a symbolic entry: it has no float64 value
            raise TypeError(f"{name} must hold real numbers (float64 here), got "
                            f"{nb.describe(value)}") from None  # fmt: skip
    arr = np.asarray(arr, dtype=float)
    if (ndim is not None and arr.ndim != ndim) or arr.ndim < min_ndim:
        want = f"{ndim}" if ndim is not None else f"at least {min_ndim}"
        raise ValueError(f"{name} must have {want} axes, got shape {arr.shape}")
    return arr


def first_step_numeric(X: Any, y: Any, W0: Any, lam: Any, eta: Any, activation: str = "tanh",
                       var_y: Any = 1.0) -> dict[str, np.ndarray]:  # fmt: skip
    """The first-step quantities of Theorems 7.9 / 7.10 in float64, from the generated
    evaluators of :func:`first_step_symbolic` (eqs. (24), (27)): ``X`` (n, d), ``y`` (..., n),
    ``W0`` (..., m, d), ``lam`` (..., m) (``lambda_{m,j} >= 0``), ``eta > 0``; returns
    ``"dz_sq"`` (..., n, m) eq. (24) for every node, ``"grad_norm_sq"`` (..., m) ``lambda_{m,j}
    /d`` times the double sum of (27) (= ``||grad_{w_j} L(W_0)||^2``), and their expectations
    over targets of variance ``var_y`` (``"dz_sq_mean"``, ``"grad_norm_sq_mean"``)."""
    name = check_activation(activation)
    Xa = _float_array("X", X, ndim=2)
    n, d = Xa.shape
    if n < 1 or d < 1:
        raise ValueError(f"X must have shape (n, d) with n, d >= 1, got {Xa.shape}")
    ya = _float_array("y", y, min_ndim=1)
    W0a = _float_array("W0", W0, min_ndim=2)
    lama = _float_array("lam", lam, min_ndim=1)
    if ya.shape[-1] != n:
        raise ValueError(f"y must have shape (..., n) with n = {n} (rows of X), got {ya.shape}")
    if W0a.shape[-1] != d:
        raise ValueError(f"W0 must have shape (..., m, d) with d = {d} (columns of X), got "
                         f"{W0a.shape}")  # fmt: skip
    if W0a.shape[-2] < 1 or lama.shape[-1] != W0a.shape[-2]:
        raise ValueError(f"lam must have shape (..., m) with m = {W0a.shape[-2]} >= 1 (rows of "
                         f"W0), got {lama.shape}")  # fmt: skip
    if np.any(lama < 0):
        raise ValueError(f"lam must be >= 0 (node scalings), got {nb.describe(lam)}")
    try:
        np.broadcast_shapes(ya.shape[:-1], W0a.shape[:-2], lama.shape[:-1])
    except ValueError:
        raise ValueError(f"the batch shapes of y {ya.shape[:-1]}, W0 {W0a.shape[:-2]} and lam "
                         f"{lama.shape[:-1]} must broadcast together") from None  # fmt: skip
    eta_f = np.float64(nb.to_float(nb.check_number("eta", eta, positive=True), "eta"))
    var_f = np.float64(nb.to_float(nb.check_number("var_y", var_y, positive=True), "var_y"))
    fn = _first_step_fn(n, d, name)
    ys = [ya[..., i, None] for i in range(n)]  # broadcast over the nodes
    ws = [W0a[..., k] for k in range(d)]
    with np.errstate(over="ignore", invalid="ignore"):  # overflow: refused below
        out = [np.asarray(v, dtype=float) for v in
               fn(eta_f, var_f, np.sqrt(lama), *Xa.ravel(), *ys, *ws)]  # fmt: skip
    if not all(np.isfinite(v).all() for v in out):
        raise ValueError(
            "first_step_numeric(X, y, W0, lam, eta, var_y): the result is outside the float64 "
            f"range (|value| <= {nb.FLOAT64_MAX:.4g}) for these values: rescale them"
        )
    shape = np.broadcast_shapes(*(v.shape for v in out))
    out = [np.broadcast_to(v, shape) for v in out]
    return {
        "dz_sq": np.stack(out[:n], -2),
        "grad_norm_sq": out[n],
        "dz_sq_mean": np.stack(out[n + 1 : 2 * n + 1], -2),
        "grad_norm_sq_mean": out[-1],
    }
