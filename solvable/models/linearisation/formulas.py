r"""The formulas of seed 002, Sections 2.2-2.3, as sympy expressions: the symbols, the
activations, the Hessian's blocks and operator-norm bound, the relaxation exponent, Gronwall's
bound and Exercise 2's output nonlinearity.

Source: seed ``002_938675732d5dff93.txt``, B. Loureiro, "Mathematics of Deep Learning,
Lecture 3: Neural networks close to initialisation" (Liu, Zhu & Belkin 2020; Du et al. 2019).

* eqs. (2.16)-(2.18): ``||H_j||_op = |a_j| |sigma''(z_j)| |x|^2 / sqrt(p)`` (:func:`block_opnorm`)
  and ``||H||_op <= m M |x|^2 / sqrt(p)`` (:func:`hessian_opnorm_bound`), with ``M = sup
  |sigma''|`` (:func:`second_derivative_sup`: ``4 sqrt(3)/9`` for tanh);
* eqs. (2.42), (2.43): the exponent of the residual envelope (:func:`relaxation_exponent`,
  corrected ``-lambda t / n``); eq. (2.40): :func:`gronwall_bound`;
* Exercise 2, eqs. (2.21), (4.6): :func:`composed_hessian_terms`, :func:`gradient_norm_sq`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable._core import activations as act
from solvable._core import numbers as nb

SEED = "002_938675732d5dff93.txt"


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
_M_1 = sp.Symbol("M_1", nonnegative=True)  # sup |sigma'|

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


def full_block_opnorm(name: str | None = None) -> sp.Expr:
    """Exercise 3 (second layer trained): the operator norm of unit ``j``'s block of the
    Hessian in ``(a_j, w_j)``, ``[[0, sigma' x^T], [sigma' x, a_j sigma'' x x^T]] / sqrt(p)``:
    ``(|a_j sigma''| |x|^2 + sqrt(a_j^2 sigma''^2 |x|^4 + 4 sigma'^2 |x|^2)) / (2 sqrt(p))``
    (claim ``exercise_3_full_hessian``), in ``a_j``, ``sigma1``, ``sigma2`` (or :data:`Z`
    when ``name`` gives the activation), ``x2 = |x|^2`` and :data:`P`."""
    s1 = _S1 if name is None else sp.diff(activation(name), Z)
    s2 = _S2 if name is None else second_derivative(name)
    b = _AJ * s2 * _X2
    return (sp.Abs(b) + sp.sqrt(b**2 + 4 * s1**2 * _X2)) / (2 * sp.sqrt(P))


def full_hessian_bound() -> sp.Expr:
    """Exercise 3: ``(m M |x|^2 + M_1 |x|) / sqrt(p)`` bounds :func:`full_block_opnorm` for
    ``|a_j| <= m``, ``|sigma''| <= M``, ``|sigma'| <= M_1``: still ``O(1/sqrt(p))``."""
    return (_M_A * _M_S * _X2 + _M_1 * sp.sqrt(_X2)) / sp.sqrt(P)


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
