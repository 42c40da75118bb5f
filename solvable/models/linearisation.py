r"""Wide two-layer networks close to and away from initialisation (seed 002, Sections 2.2, 2.3).

Source: seed ``002_938675732d5dff93.txt``, B. Loureiro, "Mathematics of Deep Learning,
Lecture 3: Neural networks close to initialisation" (Liu, Zhu & Belkin 2020; Du et al. 2019).

Network, eq. (2.19) / (2.28): ``f(x; theta) = (1/sqrt(p)) sum_{j<=p} a_j sigma(<w_j, x>)``,
empirical risk ``R = 1/(2n) sum_i (y_i - f(x_i))^2`` (eq. (2.22)).

Hessian in ``W`` for fixed ``a`` (eqs. (2.12)-(2.17), corrected indices)::

    H_jk = delta_jk (1/sqrt(p)) a_j sigma''(<w_j, x>) x x^T          (printed: delta_ij)
    ||H||_op = max_j ||H_j||_op = max_j |a_j sigma''(<w_j, x>)| |x|^2 / sqrt(p)
                                                                  (printed: sup_j ||H||_op)

and with ``|a_j| <= m``, ``|sigma''| <= M`` (tanh: ``M = 4 sqrt(3)/9``, proved here)
``||H||_op <= m M |x|^2 / sqrt(p)`` (2.18) for *every* ``W``.  ``H`` is not positive
semi-definite (``a_j sigma''`` takes both signs), so (2.9)-(2.10) need absolute values:
``sup_{|v|<=1} |<v, H v>| = ||H||_op`` while ``sup <v, H v> = max(max_j c_j, 0) |x|^2``.  And
(2.9) is not an equality beyond second order; the exact statement is Taylor's formula with
integral remainder, ``f - f_lin = int_0^1 (1 - s) <delta, H(theta0 + s delta) delta> ds``, so
``sup_{B(theta0, R)} |f - f_lin| <= (R^2/2) sup_{B(theta0, R)} ||H||_op <= R^2 m M |x|^2 /
(2 sqrt(p))`` (Proposition 1).

Function-space flow, eqs. (2.22)-(2.27) with the learning-rate weighted NTK ``K``: the
residual ``r = y - f`` obeys ``dr/dt = -(1/n) K r``, i.e. ``df/dt = +(1/n) K (y - f)`` (the
printed (2.24), (2.26), (2.27), (2.41) carry a minus sign, which makes the residual grow).
With constant ``K``: ``||r(t)|| <= exp(-lambda_min(K) t / n) ||r(0)||`` (printed (2.42):
``exp(-lambda_min t)``).  Du et al.'s Theorem 1 (2.43) in this normalisation reads
``||r(t)|| <= exp(-lambda_0 t / (2n)) ||r(0)||`` (their squared-norm statement; the factor 2
pays for ``lambda_min(K_t) >= lambda_0/2`` along the finite-width flow).

Every formula is a sympy expression here; the numeric evaluators (numpy / torch) are
generated from them (:func:`hessian_opnorm_formula`, :func:`relaxation_envelope`).  The
simulations that test them live in :mod:`numerics.lazy_width`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from sympy.calculus.util import maximum, minimum

from solvable._core import activations as act
from solvable._core import numbers as nb
from solvable._core.arrays import ArrayArgs
from solvable._core.backends import generate, torch_module
from solvable._core.claims import Erratum, Theorem, Verdict, decide, prove_nonzero, prove_zero
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import Model, System
from solvable._core.numbers import Number

SEED = "002_938675732d5dff93.txt"

__all__ = [
    "ACTIVATIONS",
    "EA2",
    "ES1",
    "F_OUT",
    "G2",
    "MODEL",
    "SEED",
    "SYSTEM",
    "P",
    "Setup",
    "State",
    "TwoLayerSystem",
    "Z",
    "activation",
    "block_opnorm",
    "claims",
    "composed_hessian_terms",
    "composed_output",
    "errata",
    "gradient_norm_sq",
    "gronwall_bound",
    "hessian_opnorm_bound",
    "hessian_opnorm_formula",
    "network_output",
    "relaxation_envelope",
    "relaxation_exponent",
    "risk",
    "second_derivative",
    "second_derivative_sup",
]

Z = act.Z  # one symbol and one definition of each activation (solvable._core.activations)
"""A pre-activation ``<w_j, x>``."""
P = sp.Symbol("p", positive=True)
"""The width."""
N = sp.Symbol("n", positive=True)
"""The number of training points."""
T = sp.Symbol("t", nonnegative=True)
"""Time along the gradient flow."""
LAM = sp.Symbol("lambda", positive=True)
"""An eigenvalue of the NTK Gram matrix (``lambda_min`` / ``lambda_0``)."""
_AJ = sp.Symbol("a_j", real=True)
_S2 = sp.Symbol("sigma2", real=True)  # sigma''(<w_j, x>)
_S1 = sp.Symbol("sigma1", real=True)  # sigma'(<w_j, x>)
_X2 = sp.Symbol("x2", nonnegative=True)  # |x|^2
_M_A = sp.Symbol("m", positive=True)  # sup |a_j|
_M_S = sp.Symbol("M", nonnegative=True)  # sup |sigma''|

ACTIVATIONS = ("linear", "tanh", "swish")
"""Twice-differentiable activations of :class:`numerics.models.WideTwoLayer` (ReLU has no
second derivative, so eqs. (2.13)-(2.18) do not apply to it)."""

_SIGMA = sp.Function("sigma")


# ---------------------------------------------------------------------------
# formulas
# ---------------------------------------------------------------------------
def _check_activation(name: Any, arg: str = "name (the activation)") -> str:
    """One of :data:`ACTIVATIONS` (the twice-differentiable ones: no ReLU); ``arg``: the
    argument's name in the messages."""
    return act.check_activation(name, ACTIVATIONS, "twice differentiable", arg=arg)


def check_flag(name: str, value: Any) -> bool:
    """A boolean switch ``value`` (``bool`` or ``numpy.bool_``), as a ``bool``; anything else
    is a ``TypeError`` naming ``name`` (a truthy ``"no"`` or tensor must not pass)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool (True or False), got {type(value).__name__} "
                        f"{nb.describe(value)}")  # fmt: skip
    return bool(value)


def activation(name: str) -> sp.Expr:
    """``sigma(z)`` as a sympy expression in :data:`Z`
    (:func:`solvable._core.activations.activation`), restricted to the twice-differentiable
    activations (no ReLU)."""
    return act.activation(_check_activation(name))


def second_derivative(name: str) -> sp.Expr:
    """``sigma''(z)`` (sympy differentiation of :func:`activation`)."""
    return sp.diff(activation(name), Z, 2)


def second_derivative_sup(name: str) -> sp.Expr:
    """``M = sup_z |sigma''(z)|`` (eq. (2.18)), exact: 0 for linear, ``4 sqrt(3)/9`` for tanh
    (claim ``tanh_second_derivative_bound``).  Swish is not covered (``ValueError``)."""
    name = _check_activation(name)
    if name == "linear":
        return sp.S.Zero
    if name == "tanh":
        return 4 * sp.sqrt(3) / 9
    raise ValueError(f"sup |sigma''| is derived here for 'linear' and 'tanh' only, got {name!r}")


def block_opnorm(name: str | None = None) -> sp.Expr:
    """Eq. (2.16): ``||H_j||_op = |a_j| |sigma''(z_j)| |x|^2 / sqrt(p)`` in the symbols
    ``a_j``, ``sigma2`` (or :data:`Z` when ``name`` gives the activation), ``x2 = |x|^2`` and
    :data:`P`."""
    s2 = _S2 if name is None else second_derivative(name)
    return sp.Abs(_AJ) * sp.Abs(s2) * _X2 / sp.sqrt(P)


def hessian_opnorm_bound() -> sp.Expr:
    """Eq. (2.18) with ``|a_j| <= m``: ``m M |x|^2 / sqrt(p)`` (the lecture has ``m = 1``)."""
    return _M_A * _M_S * _X2 / sp.sqrt(P)


def relaxation_exponent(printed: bool = False, du: bool = False) -> sp.Expr:
    """Exponent of the residual envelope ``||r(t)|| <= exp(e) ||r(0)||``: corrected (2.42)
    ``-lambda t / n`` (constant kernel, risk ``1/(2n) sum``); ``du=True``: Theorem 1 (2.43)
    in this normalisation, ``-lambda t / (2n)``; ``printed=True``: ``-lambda t``."""
    printed, du = check_flag("printed", printed), check_flag("du", du)
    if printed and du:
        raise ValueError("choose printed=True or du=True, not both")
    if printed:
        return -LAM * T
    return -LAM * T / (2 * N) if du else -LAM * T / N


def gronwall_bound(sharp: bool = False) -> sp.Expr:
    """Eq. (2.40): ``E(t) <= R V c t / sqrt(p)`` on ``[0, R/V]``; ``sharp=True``: integrating
    (2.39) with ``||theta(s) - theta0|| <= V s`` gives ``c V^2 t^2 / (2 sqrt(p))``."""
    R, V, c = sp.symbols("R V c", positive=True)
    if check_flag("sharp", sharp):
        return c * V**2 * T**2 / (2 * sp.sqrt(P))
    return R * V * c * T / sp.sqrt(P)


# ---------------------------------------------------------------------------
# Exercise 2: an output nonlinearity g = phi(f)
# ---------------------------------------------------------------------------
F_OUT = sp.Symbol("f", real=True)
"""The network's value ``f(x; theta)`` (the argument of ``phi`` in Exercise 2)."""
G2 = sp.Symbol("G2", nonnegative=True)
"""``||grad_w f(x; theta)||^2`` (eq. (2.21))."""
EA2 = sp.Symbol("E_a2", positive=True)
"""``E[a_j^2]`` of the second-layer weights."""
ES1 = sp.Symbol("E_ds2", positive=True)
"""``E[sigma'(<w_j, x>)^2]`` over the first-layer weights."""
_PHI = sp.Function("phi")


def _phi_derivatives(phi: str | None) -> tuple[sp.Expr, sp.Expr]:
    """``(phi'(f), phi''(f))`` in :data:`F_OUT`: of the activation named ``phi`` (one of
    :data:`ACTIVATIONS`, twice differentiable), or of an undefined ``phi`` (``None``)."""
    expr = _PHI(F_OUT) if phi is None else activation(phi).subs(Z, F_OUT)
    return sp.diff(expr, F_OUT), sp.diff(expr, F_OUT, 2)


def composed_hessian_terms(phi: str | None = None) -> tuple[sp.Expr, sp.Expr]:
    """Exercise 2(b): operator norms of the two terms of eq. (4.6),
    ``H_g = phi'(f) H + phi''(f) grad_w f grad_w f^T``:

    * ``||phi'(f) H||_op <= |phi'(f)| m M |x|^2 / sqrt(p)`` (eq. (2.18) with ``|a_j| <= m``,
      ``|sigma''| <= M``): ``O(p^(-1/2))``;
    * ``||phi''(f) grad_w f grad_w f^T||_op = |phi''(f)| G2`` exactly (rank one, claim
      ``exercise_2_scalings``), ``G2 = ||grad_w f||^2`` of mean ``E[a^2] E[sigma'^2] |x|^2``
      at every width (:func:`gradient_norm_sq`): ``Theta(1)``.

    ``phi``: the name of a twice-differentiable activation, or ``None`` (generic ``phi``).
    Symbols :data:`F_OUT`, :data:`G2`, ``m``, ``M``, ``x2``, :data:`P`."""
    d1, d2 = _phi_derivatives(None if phi is None else _check_activation(phi, "phi"))
    return sp.Abs(d1) * hessian_opnorm_bound(), sp.Abs(d2) * G2


def gradient_norm_sq(mean: bool = False) -> sp.Expr:
    """Eq. (2.21) for one unit's share: ``||grad_w f||^2 = (1/p) sum_j a_j^2 sigma'(z_j)^2
    |x|^2``; ``mean=True``: its expectation over i.i.d. units, ``E[a^2] E[sigma'^2] |x|^2``
    (:data:`EA2`, :data:`ES1`, ``x2``), the same at every width ``p``."""
    return EA2 * ES1 * _X2 if check_flag("mean", mean) else _AJ**2 * _S1**2 * _X2 / P


# ---------------------------------------------------------------------------
# generated evaluators
# ---------------------------------------------------------------------------
@functools.cache
def _block_fn(name: str, backend: str) -> Callable[..., Any]:
    # (2.16) with sigma'' in its cancellation-free form (equal: tanh_second_derivative_stable_form)
    expr = block_opnorm().subs(_S2, act.stable_derivative(name, 2))
    return generate((_AJ, Z, _X2, P), expr, backend)


@functools.cache
def _envelope_fn(printed: bool, du: bool) -> Callable[..., Any]:
    return generate((LAM, T, N), sp.exp(relaxation_exponent(printed, du)), "numpy")


def hessian_opnorm_formula(a: Any, W: Any, x: Any, *, activation: str = "tanh") -> Any:
    """Eq. (2.17), corrected: ``max_j |a_j sigma''(<w_j, x>)| |x|^2 / sqrt(p)`` per network.

    ``a``: (B, p), ``W``: (B, p, d), ``x``: (d,); numpy arrays or torch tensors (the result
    has the type and device of ``W``), shape (B,).  Generated from :func:`block_opnorm`."""
    name = _check_activation(activation, "activation")
    v = ArrayArgs("hessian_opnorm_formula", torch=True)
    W_, a_, xt = v.array("W", W), v.array("a", a), v.array("x", x)
    torch_in = "W" in v.tensors
    if torch_in:  # a and x may be numpy / lists: on W's device, in its dtype
        torch = torch_module()
        a_, xt = (val if label in v.tensors else torch.as_tensor(_float_values(label, val))
                  for label, val in (("a", a_), ("x", xt)))  # fmt: skip
        a_, xt = (val.to(dtype=W_.dtype, device=W_.device) for val in (a_, xt))
        fn, xp = _block_fn(name, "torch"), torch
    else:
        for label in ("a", "x"):
            if label in v.tensors:
                raise TypeError(f"{label} is a torch tensor but W is not: pass W as a tensor too")
        W_, a_, xt = _float_values("W", W_), _float_values("a", a), _float_values("x", x)
        fn, xp = _block_fn(name, "numpy"), np
    for label, arr, ndim in (("a", a_, 2), ("W", W_, 3), ("x", xt, 1)):
        if arr.ndim != ndim:
            raise ValueError(f"{label} must have {ndim} axes (a (B, p), W (B, p, d), x (d,)), "
                             f"got shape {tuple(arr.shape)}")  # fmt: skip
    if a_.shape != W_.shape[:2] or xt.shape != (W_.shape[2],):
        raise ValueError(
            f"need a (B, p), W (B, p, d), x (d,); got a {tuple(a_.shape)}, W {tuple(W_.shape)}, "
            f"x {tuple(xt.shape)}"
        )
    if not (
        bool(xp.isfinite(W_).all()) and bool(xp.isfinite(a_).all()) and bool(xp.isfinite(xt).all())
    ):
        raise ValueError("a, W and x must be finite")
    p = W_.shape[1]
    with np.errstate(all="ignore"):  # a value beyond float64 is refused below
        z = W_ @ xt
        x2 = (xt * xt).sum()
        pp = xp.full_like(z, float(p))
        blocks = fn(a_, z, x2 * xp.ones_like(z), pp) + xp.zeros_like(z)  # constant for linear
        out = blocks.amax(-1) if torch_in else blocks.max(-1)
    if not bool(xp.isfinite(out).all()):
        raise nb.Float64RangeError(f"the bound exceeds the largest {out.dtype} for these "
                                   f"a, W and x: rescale them")  # fmt: skip
    return out


def relaxation_envelope(
    lam: Any, t: Any, n: int, *, printed: bool = False, du: bool = False
) -> np.ndarray:
    """``exp(e)`` for the exponent of :func:`relaxation_exponent` (numpy, broadcasting):
    the factor by which ``||y - f(t)|| / ||y - f(0)||`` is bounded."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be an integer >= 1, got {nb.describe(n)}")
    printed, du = check_flag("printed", printed), check_flag("du", du)
    lam_, t_ = _float_values("lam", lam), _float_values("t", t)
    if not np.all(lam_ >= 0):
        raise ValueError(f"lam must be finite and >= 0, got {nb.describe(lam)}")
    if not np.all(t_ >= 0):
        raise ValueError(f"t must be finite and >= 0, got {nb.describe(t)}")
    try:
        np.broadcast_shapes(lam_.shape, t_.shape)
    except ValueError:
        raise ValueError(f"lam and t must broadcast together, got shapes {lam_.shape}, "
                         f"{t_.shape}") from None  # fmt: skip
    return np.asarray(_envelope_fn(printed, du)(lam_, t_, float(n)), dtype=float)


def _float_values(name: str, value: Any) -> np.ndarray:
    """A number or an array of numbers (any shape, not a tensor) as a float64 array, each
    entry finite and within the float64 range (``TypeError`` / ``ValueError`` naming
    ``name``)."""
    arr = np.asarray(ArrayArgs(name).array(name, value))
    if arr.dtype.kind == "O":

        def one(v: Any) -> float:
            if isinstance(v, sp.Basic):
                if v.free_symbols:
                    raise TypeError(f"{name} must hold numbers, got the expression {v}")
                v = nb.exact_to_mpf(v)
            return nb.to_float(v, name)

        arr = np.vectorize(one, otypes=[float])(arr) if arr.size else arr
    return arr.astype(np.float64)


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


@dataclass(frozen=True)
class Setup:
    """The lecture's two-layer network (2.19) on data ``X`` (n, d), targets ``y`` (n,), with
    ``activation`` (any of ``solvable._core.activations.ACTIVATIONS``; the Hessian formulas
    of this module need a twice-differentiable one), rates ``eta_w`` (of ``W``) and
    ``eta_a`` (of ``a``; 0 keeps the second layer fixed, Proposition 1) and the output
    ``scale`` (``None``: ``1/sqrt(p)``, the width ``p`` taken from the weights)."""

    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]
    activation: str = "tanh"
    eta_w: Number = 1
    eta_a: Number = 1
    scale: Number | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        y = nb.check_vector("y", self.y)
        set_(self, "X", nb.check_rows("X", self.X, len(y), "y"))
        set_(self, "y", y)
        set_(self, "activation", act.check_activation(self.activation))
        set_(self, "eta_w", nb.check_number("eta_w", self.eta_w, positive=True))
        set_(self, "eta_a", nb.check_number("eta_a", self.eta_a, nonnegative=True))
        if self.scale is not None:
            set_(self, "scale", nb.check_number("scale", self.scale, positive=True))

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])


@dataclass(frozen=True)
class State:
    """``W`` (p, d), ``a`` (p,), the outputs ``f`` (n,) and the risk ``R`` at ``t``,
    measured from the weights."""

    t: Any
    W: np.ndarray
    a: np.ndarray
    f: np.ndarray
    risk: Any


def _scale(setup: Setup, p: int, convert: Callable[[Any], Any], exact: bool = False) -> Any:
    if setup.scale is not None:
        return convert(setup.scale)
    return 1 / sp.sqrt(p) if exact else convert(1) / convert(p) ** 0.5


def _sympy_sigma(activation: str) -> Callable[[Any], Any]:
    """``sigma`` entrywise on sympy object arrays: a named activation, or ``"generic"``, the
    undefined smooth function ``sigma`` of the symbolic claims."""
    if activation == "generic":
        return np.vectorize(_SIGMA, otypes=[object])
    return act.elementwise(activation, "sympy")


@functools.cache
def _flow(n: int, d: int, p: int, activation: str, fixed_scale: bool) -> GradientFlow:
    """The sympy gradient flow of :func:`risk` (what :func:`numerics.simulate` integrates and
    what the symbolic claims differentiate: ``activation="generic"`` for an undefined
    ``sigma``)."""
    eta_w, eta_a = sp.symbols("eta_w eta_a", nonnegative=True)
    X = symbol_array("X", (n, d), real=True)
    y = symbol_array("y", (n,), real=True)
    scale = sp.Symbol("scale", positive=True) if fixed_scale else 1 / sp.sqrt(p)
    params = (eta_w, eta_a, *X.ravel(), *y, *((scale,) if fixed_scale else ()))
    sigma = _sympy_sigma(activation)
    return gradient_flow(lambda a, W: risk(W, a, X, y, sigma, scale),
                         {"a": ((p,), eta_a), "W": ((p, d), eta_w)}, params)  # fmt: skip


class TwoLayerSystem(System):
    """Eqs. (2.19), (2.22) for :func:`numerics.simulate`: ``out0 = a`` (p,), ``in0 = W``
    (p, d)."""

    setup_type = Setup
    blocks = ("a", "W")

    def polynomial(self, setup: Setup) -> bool:
        return setup.activation == "linear"

    def example(self) -> tuple[Setup, Any, Any]:
        X = (("1", "0.5"), ("-0.5", "1"), ("0.3", "-1"))
        setup = Setup(X, ("0.8", "0.3", "-0.2"), "tanh", "1", "0.5")
        return setup, ("0.5", "-0.7", "0.2"), (("0.6", "0.2"), ("-0.3", "0.9"), ("0.1", "-0.4"))

    def initial(self, setup: Setup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0 = nb.check_vector("a0", out0)
        W0 = nb.check_matrix("W0", in0, (len(a0), setup.d))
        return {"a": np.array(a0, dtype=object), "W": np.array(W0, dtype=object)}

    def flow(self, setup: Setup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return _flow(setup.n, setup.d, shapes["a"][0], setup.activation, setup.scale is not None)

    def flow_parameters(self, setup: Setup, convert: Callable[[Any], Any]) -> list[Any]:
        X = [convert(v) for row in setup.X for v in row]
        out = [convert(setup.eta_w), convert(setup.eta_a), *X, *(convert(v) for v in setup.y)]
        return out + ([convert(setup.scale)] if setup.scale is not None else [])

    def rates(self, setup: Setup) -> dict[str, float]:
        return {"a": float(setup.eta_a), "W": float(setup.eta_w)}

    def data(self, setup: Setup, backend: str, like: Any = None) -> dict[str, Any]:
        X, y = np.array(setup.X, dtype=float), np.array(setup.y, dtype=float)
        if backend == "torch":
            torch = torch_module()
            X = torch.as_tensor(X, dtype=like.dtype, device=like.device)
            y = torch.as_tensor(y, dtype=like.dtype, device=like.device)
        scale = None if setup.scale is None else float(setup.scale)
        return {"X": X, "y": y, "sigma": act.elementwise(setup.activation, backend),
                "scale": scale}  # fmt: skip

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        p = params["W"].shape[-2]
        scale = data["scale"] if data["scale"] is not None else p**-0.5
        return risk(params["W"], params["a"], data["X"], data["y"], data["sigma"], scale)

    def state(self, setup: Setup, t: Any, params: Mapping[str, Any], dps: int | None) -> State:
        conv, dt = nb.converter(dps), nb.dtype(dps)
        with nb.Precision(dps):
            X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
            y = np.array([conv(v) for v in setup.y], dtype=dt)
            W, a = np.array(params["W"], dtype=dt), np.array(params["a"], dtype=dt)
            scale = _scale(setup, W.shape[0], conv)
            sigma = act.elementwise(setup.activation, "numpy" if dps is None else "mpmath")
            return State(
                t=t,
                W=W,
                a=a,
                f=network_output(W, a, X, sigma, scale),
                risk=risk(W, a, X, y, sigma, scale),
            )


SYSTEM = TwoLayerSystem()


# ---------------------------------------------------------------------------
# symbolic claims
# ---------------------------------------------------------------------------
@functools.cache
def _network(p: int, d: int, sigma: Any = None):
    """The package's network :func:`network_output` at width ``p`` on one input ``x``
    (``1/sqrt(p)`` scaling) with a generic smooth ``sigma`` (or a given one-argument
    callable), on sympy symbols; returns (f, a, w (list of rows), x, z) with ``z_j =
    <w_j, x>`` the pre-activations in the paper's notation."""
    sig = _SIGMA if sigma is None else sigma
    x = sp.symbols(f"x0:{d}", real=True)
    a = sp.symbols(f"a0:{p}", real=True)
    w = [sp.symbols(f"w{j}_0:{d}", real=True) for j in range(p)]
    W = np.array([list(row) for row in w], dtype=object).reshape(p, d)
    X = np.array([list(x)], dtype=object)
    f = network_output(W, np.array(a, dtype=object), X, np.vectorize(sig, otypes=[object]),
                       1 / sp.sqrt(p))[0]  # fmt: skip
    z = [sum(wj[k] * x[k] for k in range(d)) for wj in w]
    return sp.sympify(f, strict=True), a, w, x, z


def _deriv(k: int, at: sp.Expr) -> sp.Expr:
    u = sp.Dummy("u")
    return _SIGMA(u).diff(u, k).subs(u, at)


def _hessian_block_diagonal() -> Verdict:
    # p = 3, d = 2, generic sigma, a fixed: (2.12) and H_jk = delta_jk c_j x x^T (2.13)-(2.15)
    p, d = 3, 2
    f, a, w, x, z = _network(p, d)
    X = sp.Matrix(x)
    res = []
    for j in range(p):
        g = sp.Matrix([sp.diff(f, v) for v in w[j]])
        res.extend(g - a[j] * _deriv(1, z[j]) * X / sp.sqrt(p))
        for k in range(p):
            Hjk = sp.Matrix(d, d, lambda r, s, j=j, k=k: sp.diff(f, w[j][r], w[k][s]))
            target = (a[j] * _deriv(2, z[j]) / sp.sqrt(p)) * X * X.T if j == k else sp.zeros(d)
            res.extend(Hjk - target)
    return prove_zero(*res)


def _hessian_opnorm() -> Verdict:
    # (2.16): det(lambda I - c x x^T) = lambda^(d-1) (lambda - c |x|^2), d = 3, and x is the
    # eigenvector; (2.17): det(lambda I - H) = prod_j lambda (lambda - c_j |x|^2) for the
    # network's own Hessian (p = 2, d = 2), so spec(H) = {c_j |x|^2} u {0} and, H being
    # symmetric, ||H||_op = max_j |c_j| |x|^2 = max_j ||H_j||_op.
    lam, c = sp.symbols("lambda c", real=True)
    x3 = sp.Matrix(sp.symbols("x0:3", real=True))
    Hj = c * x3 * x3.T
    x2 = (x3.T * x3)[0]
    res = [sp.expand((lam * sp.eye(3) - Hj).det() - lam**2 * (lam - c * x2))]
    res.extend(Hj * x3 - c * x2 * x3)
    p, d = 2, 2
    f, a, w, x, z = _network(p, d)
    flat = [v for row in w for v in row]
    H = sp.hessian(f, flat)
    X2 = sum(v**2 for v in x)
    cs = [a[j] * _deriv(2, z[j]) / sp.sqrt(p) for j in range(p)]
    target = sp.Mul(*[lam ** (d - 1) * (lam - cj * X2) for cj in cs])
    res.append(sp.expand((lam * sp.eye(p * d) - H).det() - target))
    res.append((H - H.T).norm() ** 2)
    res.append(
        block_opnorm().subs({_AJ: a[0], _S2: _deriv(2, z[0]), _X2: X2, P: p}) - sp.Abs(cs[0]) * X2
    )
    return prove_zero(*res)


def _tanh_stable_form() -> Verdict:
    # the evaluated -2 tanh(z)/cosh(z)^2 is sympy's diff(tanh(z), z, 2) = -2 tanh(z)(1 - tanh^2 z)
    stable, textbook = act.stable_derivative("tanh", 2), second_derivative("tanh")
    return prove_zero((stable - textbook).rewrite(sp.exp))


def _tanh_bound() -> Verdict:
    # sigma'' = -2 t (1 - t^2), t = tanh z; with u = t^2 in [0, 1):
    # M^2 - sigma''^2 = 16/27 - 4 u (1 - u)^2 = 4 (u - 1/3)^2 (4/3 - u) >= 0, = 0 at u = 1/3
    tt, u = sp.Symbol("t", real=True), sp.Symbol("u", nonnegative=True)
    s2 = second_derivative("tanh")
    M = second_derivative_sup("tanh")
    res = [
        sp.simplify(s2.rewrite(sp.exp) - (-2 * sp.tanh(Z) * (1 - sp.tanh(Z) ** 2)).rewrite(sp.exp)),
        sp.expand(
            M**2 - 4 * u * (1 - u) ** 2 - 4 * (u - sp.Rational(1, 3)) ** 2 * (sp.Rational(4, 3) - u)
        ),
        (4 * u * (1 - u) ** 2).subs(u, sp.Rational(1, 3)) - M**2,
        sp.limit(sp.tanh(tt) ** 2, tt, sp.oo) - 1,  # sup tanh^2 = 1 < 4/3
    ]
    v = prove_zero(*res)
    if v.status != "proved":
        return v
    # 4/3 - q/(1+q) with q >= 0 (u = q/(1+q) covers [0, 1)): sympy decides it via the sign
    q = sp.Symbol("q", nonnegative=True)
    margin = sp.together(sp.Rational(4, 3) - q / (1 + q))
    ok = bool(margin.is_positive)
    sign = decide([("4/3 - u > 0 on u in [0, 1)", ok)], "sign")
    if sign.status != "proved":
        return sign
    return Verdict(
        "proved",
        f"sup|tanh''| = 4 sqrt(3)/9 ~ {float(M):.6f} (attained at tanh^2 z = 1/3); "
        "16/27 - tanh''^2 = 4 (u - 1/3)^2 (4/3 - u) >= 0; so (2.18) holds with M = 4 sqrt(3)/9",
        residuals=v.residuals + sign.residuals,
    )


def _quadratic_form_sup() -> Verdict:
    # H = blockdiag(c_j x x^T), p = 2, d = 2, v = (v_1, v_2): with C >= |c_j| (C = max |c_j|)
    # C |x|^2 |v|^2 -+ <v, H v> = sum_j (C -+ c_j)(x.v_j)^2 + C sum_j [x, v_j]^2 >= 0
    # (Lagrange: |x|^2 |v_j|^2 - (x.v_j)^2 = (x0 v_j1 - x1 v_j0)^2); equality at v = x/|x| in
    # the block j* of max |c_j|.  Without |.|: sup <v, H v> = max(max_j c_j, 0) |x|^2.
    C = sp.Symbol("C", nonnegative=True)
    c = sp.symbols("c0:2", real=True)
    x = sp.Matrix(sp.symbols("x0:2", real=True))
    v = [sp.Matrix(sp.symbols(f"v{j}_0:2", real=True)) for j in range(2)]
    x2 = (x.T * x)[0]
    quad = sum(c[j] * (x.T * v[j])[0] ** 2 for j in range(2))
    v2 = sum((vj.T * vj)[0] for vj in v)
    lag = [(x[0] * vj[1] - x[1] * vj[0]) ** 2 for vj in v]
    res = []
    for s in (1, -1):
        rhs = sum((C - s * c[j]) * (x.T * v[j])[0] ** 2 for j in range(2)) + C * sum(lag)
        res.append(sp.expand(C * x2 * v2 - s * quad - rhs))
    xn = x / sp.sqrt(x2)
    res.append(
        sp.simplify(
            quad.subs(dict(zip(v[0], xn, strict=True)) | {vi: 0 for vi in v[1]}) - c[0] * x2
        )
    )
    return prove_zero(*res)


def _taylor_remainder() -> Verdict:
    # g(s) = f(W0 + s Delta): g'' = <Delta, H(W0 + s Delta) Delta> (network p = 2, d = 1,
    # generic sigma, a fixed); d/ds[(1 - s) g'(s) + g(s)] = (1 - s) g''(s) (generic g), so
    # g(1) - g(0) - g'(0) = int_0^1 (1 - s) g'' ds, and int_0^1 (1 - s) ds = 1/2.
    p, d = 2, 1
    f, _a, w, _x, _z = _network(p, d)
    s = sp.Symbol("s", real=True)
    flat = [v for row in w for v in row]
    w0 = sp.symbols(f"W0_0:{len(flat)}", real=True)
    dl = sp.symbols(f"D0:{len(flat)}", real=True)
    path = {v: w0[k] + s * dl[k] for k, v in enumerate(flat)}
    g = f.subs(path, simultaneous=True)
    H = sp.hessian(f, flat).subs(path, simultaneous=True)
    D = sp.Matrix(dl)
    res = [sp.simplify(sp.diff(g, s, 2) - (D.T * H * D)[0])]
    G = sp.Function("g")
    res.append(sp.diff((1 - s) * sp.diff(G(s), s) + G(s), s) - (1 - s) * sp.diff(G(s), s, 2))
    res.append(sp.integrate(1 - s, (s, 0, 1)) - sp.Rational(1, 2))
    return prove_zero(*res)


def _gronwall() -> Verdict:
    # (2.39)-(2.40): int_0^t R V c / sqrt(p) ds = R V c t / sqrt(p); with ||theta(s) - theta0||
    # <= V s (2.37): int_0^t (V c/sqrt(p)) V s ds = c V^2 t^2 / (2 sqrt(p)) and
    # R V c t/sqrt(p) - c V^2 t^2/(2 sqrt(p)) = (V c t/(2 sqrt(p))) (2R - V t) >= 0 on [0, R/V]
    R, V, c = sp.symbols("R V c", positive=True)
    s = sp.Symbol("s", nonnegative=True)
    tau = sp.Symbol("tau", nonnegative=True)
    res = [
        sp.integrate(R * V * c / sp.sqrt(P), (s, 0, T)) - gronwall_bound(),
        sp.integrate(V * c / sp.sqrt(P) * V * s, (s, 0, T)) - gronwall_bound(sharp=True),
        sp.expand(
            gronwall_bound()
            - gronwall_bound(sharp=True)
            - V * c * T / (2 * sp.sqrt(P)) * (2 * R - V * T)
        ),
    ]
    v = prove_zero(*res)
    # on t = tau R / V with tau in [0, 1]: 2R - V t = R (2 - tau) >= R > 0
    gap = sp.expand((2 * R - V * T).subs(T, tau * R / V) - R * (2 - tau))
    ok = gap == 0 and bool((2 - tau).subs(tau, 1).is_positive)  # 2 - tau >= 1 on [0, 1]
    cases = decide([("2R - V t >= R > 0 on [0, R/V]", ok)], "sign")
    if v.status != "proved" or cases.status != "proved":
        return Verdict("failed", v.detail + "; " + cases.detail, residuals=v.residuals)
    return Verdict(
        "proved",
        "E(t) <= c V^2 t^2/(2 sqrt(p)) <= R V c t/sqrt(p) on [0, R/V]; " + v.detail,
        residuals=v.residuals + cases.residuals,
    )


@functools.cache
def _flow_setup():
    """The flow that :func:`numerics.simulate` integrates (:func:`_flow`, the gradient flow
    of :func:`risk`) for p = 2 units, d = 1, n = 2 points, both layers trained at rates
    eta_w, eta_a, with a generic sigma: returns (f as a function of an input (the package's
    :func:`network_output`), theta, dtheta/dt, xs, ys, rates)."""
    p, d, n = 2, 1, 2
    flow = _flow(n, d, p, "generic", False)
    eta_w, eta_a = flow.params[:2]
    a, W = flow.block("a"), flow.block("W")
    xs = tuple(flow.params[2 : 2 + n * d])
    ys = tuple(flow.params[2 + n * d : 2 + n * d + n])
    sigma = _sympy_sigma("generic")

    def f(x: sp.Expr) -> sp.Expr:
        return sp.sympify(network_output(W, a, np.array([[x]], dtype=object), sigma,
                                         1 / sp.sqrt(p))[0], strict=True)  # fmt: skip

    theta = (*W.ravel(), *a)
    rate = {**dict.fromkeys(W.ravel(), eta_w), **dict.fromkeys(a, eta_a)}
    velocity = dict(zip(flow.state, flow.rhs, strict=True))
    return f, theta, velocity, xs, ys, rate


def _ntk(f, theta, rate, x: sp.Expr, xp: sp.Expr) -> sp.Expr:
    return sum(rate[v] * sp.diff(f(x), v) * sp.diff(f(xp), v) for v in theta)


def _function_space_flow() -> Verdict:
    # (2.22): -grad R = (1/n) sum_i (y_i - f_i) grad f_i; (2.23)-(2.27) corrected:
    # df(x)/dt = +(1/n) sum_i K(x, x_i)(y_i - f_i), K the rate-weighted NTK; dr/dt = -(1/n) K r;
    # (2.29): at eta = 1, K = (1/p) sum_j sigma_j sigma_j' + (x x'/p) sum_j a_j^2 sigma'_j sigma'_j
    f, theta, vel, xs, ys, rate = _flow_setup()
    n = len(xs)
    x, xp = sp.symbols("x xp", real=True)
    res = []
    for v in theta:
        g = sum((ys[i] - f(xs[i])) * sp.diff(f(xs[i]), v) for i in range(n)) / n
        res.append(vel[v] - rate[v] * g)
    dfdt = sum(sp.diff(f(x), v) * vel[v] for v in theta)
    K = lambda u, uu: _ntk(f, theta, rate, u, uu)  # noqa: E731
    res.append(dfdt - sum(K(x, xs[i]) * (ys[i] - f(xs[i])) for i in range(n)) / n)
    for i in range(n):
        dri = -sum(sp.diff(f(xs[i]), v) * vel[v] for v in theta)
        res.append(dri + sum(K(xs[i], xs[k]) * (ys[k] - f(xs[k])) for k in range(n)) / n)
    a, w = theta[2:], theta[:2]
    p = 2
    K1 = K(x, xp).subs({rate[w[0]]: 1, rate[a[0]]: 1})
    eq229 = sum(_SIGMA(w[j] * x) * _SIGMA(w[j] * xp) for j in range(p)) / p + x * xp / p * sum(
        a[j] ** 2 * _deriv(1, w[j] * x) * _deriv(1, w[j] * xp) for j in range(p)
    )
    res.append(K1 - eq229)
    return prove_zero(*(sp.expand(r) for r in res))


def _lazy_relaxation() -> Verdict:
    # constant symmetric K (3 x 3 generic), r' = -(1/n) K r:
    # d/dt (e^{2 lam t/n} |r|^2) = -(2/n) e^{2 lam t/n} r^T (K - lam I) r  (<= 0 at lam =
    # lambda_min(K), K - lam I >= 0), so |r(t)| <= e^{-lambda_min t/n} |r(0)|; equality along
    # the eigenvector of lambda_min (r = e^{-lam t/n} u, K u = lam u solves the flow);
    # relaxation rate -lim log|r(t)|/t = lambda_min/n (K = diag(1, 2), n = 2, r0 = (1, 1)).
    k = sp.symbols("k0:6", real=True)
    K = sp.Matrix([[k[0], k[1], k[2]], [k[1], k[3], k[4]], [k[2], k[4], k[5]]])
    r = sp.Matrix([sp.Function(f"r{i}")(T) for i in range(3)])
    flow = {sp.diff(r[i], T): (-K * r / N)[i] for i in range(3)}
    energy = sp.exp(2 * LAM * T / N) * (r.T * r)[0]
    lhs = sp.diff(energy, T).subs(flow)
    rhs = -2 / N * sp.exp(2 * LAM * T / N) * (r.T * (K - LAM * sp.eye(3)) * r)[0]
    u = sp.Matrix(sp.symbols("u0:3", real=True))
    eig = {k[0]: LAM, k[1]: 0, k[2]: 0}  # K e_0 = lam e_0 (first column lam e_0)
    r_slow = sp.exp(-LAM * T / N) * sp.Matrix([u[0], 0, 0])
    res = [
        sp.expand(lhs - rhs),
        sp.simplify(sp.diff(r_slow, T) + K.subs(eig) * r_slow / N).norm() ** 2,
    ]
    t = sp.Symbol("t", positive=True)
    norm = sp.sqrt(sp.exp(-t) + sp.exp(-2 * t))  # |e^{-K t/n} r0|, K = diag(1, 2), n = 2
    res.append(sp.limit(-sp.log(norm) / t, t, sp.oo) - sp.Rational(1, 2))
    return prove_zero(*res)


def _phi_at(k: int, at: sp.Expr) -> sp.Expr:
    u = sp.Dummy("u")
    return _PHI(u).diff(u, k).subs(u, at) if k else _PHI(at)


def _exercise_2_hessian() -> Verdict:
    # (4.6) on the package's network (p = 2, d = 2, generic sigma and phi, a fixed):
    # Hess_W phi(f) = phi'(f) Hess_W f + phi''(f) grad_W f grad_W f^T (chain rule twice)
    f, _a, w, _x, _z = _network(2, 2)
    flat = [v for row in w for v in row]
    grad = sp.Matrix([sp.diff(f, v) for v in flat])
    Hg = sp.hessian(_PHI(f), flat)
    target = _phi_at(1, f) * sp.hessian(f, flat) + _phi_at(2, f) * grad * grad.T
    return prove_zero(*(Hg - target))


def _exercise_2_scalings() -> Verdict:
    # (b) the rank-one term: det(lambda - c g g^T) = lambda^3 (lambda - c |g|^2) and
    # (g g^T) g = |g|^2 g (n = 4), so ||phi'' grad f grad f^T||_op = |phi''| |grad_W f|^2;
    # (2.21) on the network (p = 3, d = 2, generic sigma): |grad_W f|^2 = sum_j a_j^2
    # sigma'(z_j)^2 |x|^2 / p, whose mean over i.i.d. units, E[a^2] E[sigma'^2] |x|^2, is free
    # of p; the other term's bound (2.18) -> 0 as p -> oo (phi = tanh and generic phi).
    lam, c = sp.symbols("lambda c", real=True)
    g = sp.Matrix(sp.symbols("g0:4", real=True))
    g2 = (g.T * g)[0]
    R = c * g * g.T
    res = [sp.expand((lam * sp.eye(4) - R).det() - lam**3 * (lam - c * g2))]
    res.extend(R * g - c * g2 * g)
    p = 3
    f, a, w, x, z = _network(p, 2)
    X2 = sum(v**2 for v in x)
    grad2 = sum(sp.diff(f, v) ** 2 for row in w for v in row)
    per_unit = [gradient_norm_sq().subs({_AJ: a[j], _S1: _deriv(1, z[j]), _X2: X2, P: p})
                for j in range(p)]  # fmt: skip
    res.append(sp.expand(grad2 - sum(per_unit)))
    res.append(P * gradient_norm_sq().subs({_AJ**2: EA2, _S1**2: ES1}) - gradient_norm_sq(True))
    for phi in (None, "tanh"):
        first, second = composed_hessian_terms(phi)
        res.append(sp.limit(first, P, sp.oo))
        res.append(sp.diff(second.subs(G2, gradient_norm_sq(True)), P))
    return prove_zero(*res)


def _exercise_2_no_linearisation() -> Verdict:
    # (c) sigma linear (p = 3, d = 2, generic phi): f is linear in W, so along the unit
    # gradient direction u = grad_W f / G (G = |grad_W f|) f(W + t u) = f + t G exactly and
    # f - f_lin = 0, while g = phi(f) has g(W + t u) - g_lin = phi(f + t G) - phi(f) - t G
    # phi'(f) at every width: with G^2 -> E[a^2] |x|^2 > 0 (LLN) this stays O(1).  Example:
    # phi = tanh, f = 0, a ~ Unif[-1, 1] (E[a^2] = 1/3), |x|^2 = 3, t = 1: tanh(1) - 1 != 0.
    f, _a, w, _x, _z = _network(3, 2, sp.Id)
    flat = [v for row in w for v in row]
    grad = [sp.diff(f, v) for v in flat]
    G = sp.sqrt(sum(gk**2 for gk in grad))
    t = sp.Symbol("t", real=True)
    moved = f.subs({v: v + t * gk / G for v, gk in zip(flat, grad, strict=True)},
                   simultaneous=True)  # fmt: skip
    step = sum(gk * t * gk / G for gk in grad)  # <grad f, t u>: f_lin - f and g_lin's step
    proof = prove_zero(moved - (f + t * G), step - t * G)
    if proof.status != "proved":
        return proof
    tanh = activation("tanh")
    G_inf = sp.sqrt(sp.Rational(1, 3) * 3)
    gap = tanh.subs(Z, G_inf) - tanh.subs(Z, 0) - G_inf * sp.diff(tanh, Z).subs(Z, 0)
    nonzero = prove_nonzero(gap, what="tanh(f + G) - tanh(f) - G tanh'(f) at f = 0, G = 1")
    ok = nonzero.status == "proved"
    return Verdict(
        "proved" if ok else "failed",
        f"f(W + t u) = f + t G and <grad f, t u> = t G ({proof.detail}): f - f_lin = 0, g - "
        f"g_lin = phi(f + t G) - phi(f) - t G phi'(f) at every p; {nonzero.detail} "
        f"(~ {float(gap):.4f})",
        residuals=proof.residuals + nonzero.residuals,
    )


# ---------------------------------------------------------------------------
# numeric claims (simulations in numerics.lazy_width)
# ---------------------------------------------------------------------------


def claims() -> list[Theorem]:
    """Every claim of seed 002, Sections 2.2-2.3, checked here."""

    def T_(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"linearisation.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T_(
            "hessian_block_diagonal",
            "eqs. (2.12)-(2.15) (delta_jk corrected)",
            "For fixed a, grad_{w_j} f = a_j sigma'(<w_j,x>) x / sqrt(p) and the W-Hessian is "
            "block diagonal, H_jk = delta_jk a_j sigma''(<w_j,x>) x x^T / sqrt(p) (p = 3, d = 2, "
            "generic sigma).",
            _hessian_block_diagonal,
        ),
        T_(
            "hessian_opnorm",
            "eqs. (2.16), (2.17) (||H_j|| corrected)",
            "Each block c_j x x^T has spectrum {c_j |x|^2, 0, ..., 0}; det(lambda - H) = "
            "prod_j lambda^(d-1)(lambda - c_j |x|^2) (p = 2, d = 2), so ||H||_op = max_j "
            "|a_j sigma''_j| |x|^2/sqrt(p).",
            _hessian_opnorm,
        ),
        T_(
            "tanh_second_derivative_stable_form",
            "eq. (2.18) (evaluation form)",
            "The evaluated tanh''(z) = -2 tanh(z)/cosh(z)^2 (no cancellation in 1 - tanh^2 z at "
            "large |z|) equals sympy's second derivative of tanh.",
            _tanh_stable_form,
        ),
        T_(
            "tanh_second_derivative_bound",
            "eq. (2.18)",
            "sup_z |tanh''(z)| = 4 sqrt(3)/9 (16/27 - tanh''^2 = 4(u - 1/3)^2(4/3 - u), "
            "u = tanh^2), so for a in [-1, 1]: ||H||_op <= 4 sqrt(3) |x|^2/(9 sqrt(p)) for "
            "every W.",
            _tanh_bound,
        ),
        T_(
            "quadratic_form_sup",
            "eqs. (2.9), (2.10) (corrected)",
            "For H = blockdiag(c_j x x^T): |<v, H v>| <= max_j |c_j| |x|^2 |v|^2 (sum-of-squares "
            "identities), attained at v = x/|x| in the block of max |c_j|: sup_{|v|<=1} "
            "|<v,Hv>| = ||H||_op although H is not PSD.",
            _quadratic_form_sup,
        ),
        T_(
            "taylor_remainder",
            "eq. (2.9) (corrected), Proposition 1",
            "f(theta0 + D) - f_lin = int_0^1 (1 - s) <D, H(theta0 + s D) D> ds (chain rule on "
            "the network, p = 2, d = 1; integration by parts), so sup_{B(theta0,R)} |f - f_lin| "
            "<= (R^2/2) sup_{B(theta0,R)} ||H||_op.",
            _taylor_remainder,
        ),
        T_(
            "gronwall",
            "eqs. (2.37)-(2.40)",
            "With ||theta dot|| <= V and dE/dt <= (V c/sqrt(p)) ||theta - theta0||: E(t) <= "
            "c V^2 t^2/(2 sqrt(p)) <= R V c t/sqrt(p) on [0, R/V].",
            _gronwall,
        ),
        T_(
            "function_space_flow",
            "eqs. (2.22)-(2.29) (sign corrected)",
            "Along theta dot = -eta grad R, R = 1/(2n) sum (y - f)^2: df(x)/dt = +(1/n) sum_i "
            "K(x, x_i)(y_i - f_i) with the rate-weighted NTK, dr/dt = -(1/n) K r, and (2.29) at "
            "eta = 1 (p = 2, d = 1, n = 2, both layers, generic sigma).",
            _function_space_flow,
        ),
        T_(
            "lazy_relaxation",
            "eqs. (2.27), (2.42) (corrected), Remark 2",
            "Constant K: d/dt(e^{2 lam t/n}|r|^2) = -(2/n) e^{2 lam t/n} r^T(K - lam)r, so "
            "||r(t)|| <= e^{-lambda_min(K) t/n} ||r(0)||, with equality on the slowest "
            "eigenvector; the relaxation rate is lambda_min/n.",
            _lazy_relaxation,
        ),
        T_(
            "exercise_2_hessian",
            "Exercise 2(a), eq. (4.6)",
            "For g = phi(f) and fixed a: H_g = phi'(f) H + phi''(f) grad_w f grad_w f^T "
            "(p = 2, d = 2, generic sigma and phi).",
            _exercise_2_hessian,
        ),
        T_(
            "exercise_2_scalings",
            "Exercise 2(b), eqs. (2.18), (2.21), (4.6)",
            "||phi'(f) H||_op <= |phi'(f)| m M |x|^2/sqrt(p) -> 0, while the rank-one term has "
            "||phi''(f) grad_w f grad_w f^T||_op = |phi''(f)| ||grad_w f||^2 with "
            "||grad_w f||^2 = (1/p) sum_j a_j^2 sigma'(z_j)^2 |x|^2, of mean E[a^2] "
            "E[sigma'^2] |x|^2 at every p: Theta(1).",
            _exercise_2_scalings,
        ),
        T_(
            "exercise_2_no_linearisation",
            "Exercise 2(c), Remark 1 (third item)",
            "For linear sigma, along the unit gradient direction u: f(W + t u) - f_lin = 0 but "
            "g(W + t u) - g_lin = phi(f + t G) - phi(f) - t G phi'(f) (G = ||grad_w f||, "
            "G^2 -> E[a^2]|x|^2) at every width; for phi = tanh it is tanh(1) - 1 != 0 at "
            "f = 0, G = 1: g does not linearise as p -> oo.",
            _exercise_2_no_linearisation,
        ),
    ]


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _eq29_equality() -> tuple[sp.Expr, sp.Expr]:
    # The package's network (2.19) at p = 1, d = 1, sigma = tanh, a = x = 1, w0 = 0:
    # f = tanh(w), f_lin = f(w0) + f'(w0) w = w, H(w0) = tanh''(0) = 0.
    # Printed: sup_{|w|<=1} |f - f_lin| = |f(1) - f_lin(1)| = 1 - tanh 1 (f - f_lin is odd and
    # monotone) equals 1/2 sup <D, H D> = 0.
    # Corrected: f(w) - f_lin(w) = int_0^1 (1 - s) w^2 f''(s w) ds, via the antiderivative
    # (1 - s) g'(s) + g(s) of (1 - s) g''(s), g(s) = f(s w).
    s = sp.Symbol("s", real=True)
    net, a, wrow, x, _ = _network(1, 1, sp.tanh)
    w = wrow[0][0]
    f = net.subs({a[0]: 1, x[0]: 1})
    f_lin = f.subs(w, 0) + sp.diff(f, w).subs(w, 0) * w
    printed = sp.Abs((f - f_lin).subs(w, 1)) - sp.Rational(1, 2) * sp.diff(f, w, 2).subs(w, 0)
    g = f.subs(w, s * w)
    anti = (1 - s) * sp.diff(g, s) + g
    corrected = (sp.diff(anti, s) - (1 - s) * sp.diff(g, s, 2)) ** 2 + (
        anti.subs(s, 1) - anti.subs(s, 0) - (f - f_lin)
    ) ** 2
    return printed, corrected


def _sup_on_circle(expr_in_phi: Any, phi: sp.Symbol, absolute: bool = False) -> sp.Expr:
    """sup over phi in [0, 2 pi] (of |expr| when ``absolute``: max(sup, -inf))."""

    dom = sp.Interval(0, 2 * sp.pi)
    top = maximum(expr_in_phi, phi, dom)
    return sp.Max(top, -minimum(expr_in_phi, phi, dom)) if absolute else top


def _eq210_quadratic_form() -> tuple[sp.Expr, sp.Expr]:
    # H = blockdiag(c_1 x x^T, c_2 x x^T), d = 1, x = 1, c = (1, -3) (a_j sigma'' of both
    # signs): ||H||_op = 3.  Printed: sup_{|v|=1} <v, H v> = 1/2 ||H||_op, i.e. 1 = 3/2.
    # Corrected: 1/2 sup_{|v|<=1} |<v, H v>| = 1/2 ||H||_op (v = (cos, sin): 3/2 = 3/2).
    phi = sp.Symbol("phi", real=True)
    quad = sp.cos(phi) ** 2 - 3 * sp.sin(phi) ** 2
    opnorm = 3
    printed = _sup_on_circle(quad, phi) - sp.Rational(1, 2) * opnorm
    corrected = (
        sp.Rational(1, 2) * _sup_on_circle(quad, phi, absolute=True) - sp.Rational(1, 2) * opnorm
    )
    return printed, corrected


def _eq213_delta() -> tuple[sp.Expr, sp.Expr]:
    # p = 2, d = 1, sigma = tanh: the off-diagonal block H_12 vanishes; the printed delta_ij
    # with i = 1 (= j) gives a_1 sigma''(w_1 x) x^2 / sqrt(2) there.
    f, a, w, x, z = _network(2, 1, sp.tanh)
    H12 = sp.diff(f, w[0][0], w[1][0])
    c1 = a[0] * sp.diff(sp.tanh(Z), Z, 2).subs(Z, z[0]) * x[0] ** 2 / sp.sqrt(2)
    return (H12 - c1) ** 2, H12**2


def _flow_sign() -> tuple[sp.Expr, sp.Expr]:
    # df(x)/dt along (2.22) against -/+ (1/n) sum_i K(x, x_i)(y_i - f_i) (p = 2, d = 1, n = 2,
    # sigma = tanh for the printed residual at a rational point, generic for the corrected)
    f, theta, vel, xs, ys, rate = _flow_setup()
    x = sp.Symbol("x", real=True)
    n = len(xs)
    dfdt = sum(sp.diff(f(x), v) * vel[v] for v in theta)
    drive = sum(_ntk(f, theta, rate, x, xs[i]) * (ys[i] - f(xs[i])) for i in range(n)) / n
    u = sp.Dummy("u")
    # the sign does not depend on sigma: the printed residual uses sigma(u) = u + u^2/2 at a
    # rational point (an exact rational, 2 df/dt != 0: the flow is not stationary there)
    to_poly = {_SIGMA: sp.Lambda(u, u + u**2 / 2)}
    free = sorted((dfdt + drive).free_symbols, key=lambda q: q.name)
    point = {q: sp.Rational(k + 2, k + 3) for k, q in enumerate(free)}
    printed = sp.nsimplify((dfdt + drive).subs(to_poly).doit().subs(point))
    return printed, sp.expand(dfdt - drive)


def _eq224_gradient() -> tuple[sp.Expr, sp.Expr]:
    # df(x)/dt along (2.22) at unit rates (as printed there; p = 2, d = 1, n = 2), sign as
    # corrected above, against (1/n) sum_i (y_i - f_i) <grad f(x), g_i> with g_i = f(x_i) 1
    # (the printed pairing, the scalar f(x_i) in every component) and g_i = grad f(x_i).
    # Printed: sigma(u) = u + u^2/2 at a rational point (exact); corrected: generic sigma.
    f, theta, vel, xs, ys, rate = _flow_setup()
    unit = {r: 1 for r in set(rate.values())}
    x = sp.Symbol("x", real=True)
    n = len(xs)
    dfdt = sum(sp.diff(f(x), v) * vel[v] for v in theta).subs(unit)

    def drive(pair: Callable[[Any, int], sp.Expr]) -> sp.Expr:
        return sum((ys[i] - f(xs[i])) * sum(sp.diff(f(x), v) * pair(v, i) for v in theta)
                   for i in range(n)) / n  # fmt: skip

    printed = dfdt - drive(lambda v, i: f(xs[i]))
    corrected = dfdt - drive(lambda v, i: sp.diff(f(xs[i]), v))
    u = sp.Dummy("u")
    to_poly = {_SIGMA: sp.Lambda(u, u + u**2 / 2)}
    free = sorted(printed.free_symbols, key=lambda q: q.name)
    point = {q: sp.Rational(k + 2, k + 3) for k, q in enumerate(free)}
    return sp.nsimplify(printed.subs(to_poly).doit().subs(point)), sp.expand(corrected)


def _eq242_exponent() -> tuple[sp.Expr, sp.Expr]:
    # Constant K = diag(1, 2), n = 2, r(0) = e_1 (slowest eigenvector), t = 1: the exact
    # r(t) = e^{-K t/n} r(0) has |r(1)| = e^{-1/2}; printed bound e^{-lambda_min t} = e^{-1}:
    # violation e^{-1/2} - e^{-1} > 0.  Corrected: violation of e^{-lambda_min t/n}, and the
    # exact solution's ODE residual.
    n, lam_min = 2, 1
    t = sp.Symbol("t", nonnegative=True)
    r = sp.exp(-lam_min * t / n)  # the only non-zero component of r(t)
    printed = sp.Max(
        0, r.subs(t, 1) - sp.exp(relaxation_exponent(printed=True)).subs({LAM: lam_min, T: 1})
    )
    corrected = sp.Max(0, r - sp.exp(relaxation_exponent()).subs({LAM: lam_min, N: n, T: t}))
    return printed, corrected + (sp.diff(r, t) + lam_min * r / n) ** 2


def _eq243_theorem() -> tuple[sp.Expr, sp.Expr]:
    # Printed: violated as p -> oo, where the flow becomes the constant-kernel flow and y - f(0)
    # has a.s. a component on the slowest eigenvector (same point as (2.42)).  Corrected
    # (Du et al., 1/n risk): with lambda_min(K_t) >= lambda_0/2,
    # d/dt(e^{lambda_0 t/n} |r|^2) = -(2/n) e^{lambda_0 t/n} r^T (K_t - lambda_0/2) r <= 0.
    printed, _ = _eq242_exponent()
    K = sp.Matrix(
        [[sp.Function("K0")(T), sp.Function("K1")(T)], [sp.Function("K1")(T), sp.Function("K2")(T)]]
    )
    r = sp.Matrix([sp.Function(f"r{i}")(T) for i in range(2)])
    flow = {sp.diff(r[i], T): (-K * r / N)[i] for i in range(2)}
    energy = sp.exp(LAM * T / N) * (r.T * r)[0]
    lhs = sp.diff(energy, T).subs(flow)
    rhs = -2 / N * sp.exp(LAM * T / N) * (r.T * (K - LAM / 2 * sp.eye(2)) * r)[0]
    return printed, sp.expand(lhs - rhs)


def _remark2_rate() -> tuple[sp.Expr, sp.Expr]:
    # K = diag(1, 2), n = 2, r(0) = (1, 1): -lim log|r(t)|/t = 1/2 = lambda_min/n, not
    # lambda_max/n = 1 (nor lambda_max = 2).
    t = sp.Symbol("t", positive=True)
    rate = sp.limit(-sp.log(sp.sqrt(sp.exp(-t) + sp.exp(-2 * t))) / t, t, sp.oo)
    return rate - sp.Rational(2, 2), rate - sp.Rational(1, 2)


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    s = SEED
    return (
        Erratum(
            s,
            "(2.9)",
            "sup_{B(theta0,1)} |f - f_lin| = 1/2 sup_{B(theta0,1)} <theta - theta0, H (theta - "
            "theta0)>,  H = Hessian at theta0",
            "f - f_lin = int_0^1 (1 - s) <D, H(theta0 + s D) D> ds (D = theta - theta0), so "
            "sup_{B(theta0,R)} |f - f_lin| <= (R^2/2) sup_{B(theta0,R)} ||H||_op",
            "Taylor's formula stops at second order only for quadratic f; in general the "
            "remainder involves the Hessian along the segment, and (2.9) is an inequality "
            "(Proposition 1 survives: the bound (2.18) holds for every W when a is fixed). "
            "Counterexample p = d = 1, a = x = 1, w0 = 0: f = tanh w, H(w0) = 0, but "
            "sup_{|w|<=1} |tanh w - w| = 1 - tanh 1. Residuals: that gap, and the "
            "integration-by-parts identity for g(s) = tanh(s w).",
            _eq29_equality,
        ),
        Erratum(
            s,
            "(2.10)",
            "sup_{||v||=1} <v, H v> := 1/2 ||H||_op  (using 'A >= 0')",
            "1/2 sup_{||v||<=1} |<v, H v>| = 1/2 ||H||_op  (H symmetric)",
            "The factor 1/2 belongs on both sides, and H = blockdiag(a_j sigma''_j x x^T/sqrt(p)) "
            "is not PSD (a_j sigma'' takes both signs), so the quadratic form needs |.|: "
            "sup <v, H v> = max(max_j c_j, 0)|x|^2 can be below ||H||_op. The chain's "
            "conclusion (||H||_op controls the second-order term) stands. Residuals at "
            "H = diag(1, -3): sup <v,Hv> - 3/2 = -1/2, and 1/2 sup |<v,Hv>| - 3/2 = 0.",
            _eq210_quadratic_form,
            changes_math=False,
        ),
        Erratum(
            s,
            "(2.13)",
            "H_jk = (1/sqrt(p)) a_j sigma''(<w_j, x>) delta_ij x x^T",
            "H_jk = (1/sqrt(p)) a_j sigma''(<w_j, x>) delta_jk x x^T",
            "A typo of the block indices (i is free); the text and (2.14) mean delta_jk "
            "(block diagonal). (2.17)'s middle term sup_j ||H||_op is likewise ||H_j||_op "
            "(harmless there). Residual: the off-diagonal block H_12 (p = 2, d = 1, tanh) "
            "minus each form with i = 1.",
            _eq213_delta,
            changes_math=False,
        ),
        Erratum(
            s,
            "(2.24), (2.26), (2.27), (2.41)",
            "df(x)/dt = -(1/n) sum_i K(x_i, x)(y_i - f(x_i)),  f dot = -(1/n) K (y - f)",
            "df(x)/dt = +(1/n) sum_i K(x_i, x)(y_i - f(x_i)),  i.e. r dot = -(1/n) K r for "
            "r = y - f",
            "Inserting (2.22), theta dot = +(1/n) sum_i (y_i - f_i) grad f_i, into (2.23) gives "
            "a plus sign; with the printed minus d|y - f|^2/dt = +(2/n) r^T K r >= 0 and the "
            "residual would grow. (2.24) also writes <grad f(x), f(x_i)> for <grad f(x), "
            "grad f(x_i)>. Residual: df/dt -/+ (1/n) sum_i K(x, x_i) r_i for p = 2, d = 1, "
            "n = 2, generic sigma (printed: sigma(u) = u + u^2/2 at a rational point).",
            _flow_sign,
        ),
        Erratum(
            s,
            "(2.24)",
            "df(x)/dt = ... sum_i (y_i - f(x_i)) <grad f(x; theta), f(x_i; theta)>",
            "df(x)/dt = ... sum_i (y_i - f(x_i)) <grad f(x; theta), grad f(x_i; theta)>  "
            "(= K(x, x_i) of (2.25), as (2.26) uses)",
            "Inserting theta dot of (2.22), a combination of the gradients grad f(x_i), into "
            "<grad f(x), theta dot> of (2.23) pairs grad f(x) with grad f(x_i); the printed "
            "f(x_i) is a scalar, not a vector of parameter space (the gradient is missing). "
            "Residual (sign as corrected by the (2.24), (2.26) erratum, unit rates as in "
            "(2.22)): df/dt minus each form, the printed pairing read as <grad f(x), f(x_i) 1>; "
            "p = 2, d = 1, n = 2, generic sigma (printed: sigma(u) = u + u^2/2 at a rational "
            "point).",
            _eq224_gradient,
        ),
        Erratum(
            s,
            "(2.42)",
            "||y - f(t)|| <= exp(-lambda_min(K_0) t) ||y - f(0)||",
            "||y - f(t)|| <= exp(-lambda_min(K_0) t / n) ||y - f(0)||  (constant K_0, "
            "R = 1/(2n) sum)",
            "With the 1/n-normalised risk of (2.22) the kernel flow is r dot = -(1/n) K r; "
            "the slowest mode decays at lambda_min/n, so the printed rate is n times too fast "
            "(right only for n = 1 or the un-normalised risk 1/2 sum). Residuals: K = "
            "diag(1, 2), n = 2, r(0) = e_1, t = 1: the violation e^{-1/2} - e^{-1}; corrected: "
            "the violation (0) and the exact solution's ODE residual.",
            _eq242_exponent,
        ),
        Erratum(
            s,
            "(2.43), Theorem 1",
            "||y - f(t)|| <= exp(-lambda_0 t) ||y - f(0)||",
            "||y - f(t)||^2 <= exp(-lambda_0 t / n) ||y - f(0)||^2, i.e. ||y - f(t)|| <= "
            "exp(-lambda_0 t / (2n)) ||y - f(0)||  (1/n-normalised risk)",
            "Du et al. state the squared norm for the un-normalised risk 1/2 sum; the proof "
            "keeps lambda_min(K_t) >= lambda_0/2. The printed form fails already in the "
            "p -> oo limit (constant kernel, y - f(0) a.s. not orthogonal to the slowest "
            "mode; same point as (2.42)). Corrected residual: the energy identity "
            "d/dt(e^{lambda_0 t/n}|r|^2) = -(2/n) e^{lambda_0 t/n} r^T (K_t - lambda_0/2) r for "
            "a time-dependent 2 x 2 kernel. The width condition (Du et al.: "
            "m = Omega(n^6/(lambda_0^4 delta^3))) is not checked here.",
            _eq243_theorem,
        ),
        Erratum(
            s,
            "Remark 2, third item",
            "exponential relaxation ... with the relaxation rate given by the largest "
            "eigenvalue of K",
            "... given by the smallest eigenvalue: rate lambda_min(K)/n",
            "For r dot = -(1/n) K r every mode decays at its own rate lambda_k/n; the slowest, "
            "lambda_min/n, sets the relaxation (as (2.42) itself uses). Residual: "
            "-lim log|r(t)|/t at K = diag(1, 2), n = 2, r(0) = (1, 1) minus lambda_max/n and "
            "minus lambda_min/n.",
            _remark2_rate,
        ),
    )


def errata() -> list[Erratum]:
    """Disagreements with seed 002, Sections 2.2-2.3, each with its check."""
    return list(_errata())


MODEL = Model(
    name="linearisation",
    seed=SEED,
    title="Seed 002 Sections 2.2-2.3: the Hessian, linearisation error and lazy relaxation",
    claims=claims,
    errata=errata,
    systems=(SYSTEM,),
)
