"""The activation constants of seed 000: ``C_1 = sup_{c in (0, 1]} E_z[sigma(c
z/sqrt(d))^2]`` of eq. (14) (:func:`c1_expression`, :func:`c1`) and the bounds ``(sup
|sigma'|, sup |sigma''|)`` of Assumption 3.2 (:func:`activation_bounds`)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from scipy.integrate import quad

from solvable._core import numbers as nb
from solvable._core.activations import Z, activation, check_activation
from solvable._core.activations import evaluator as activation_evaluator
from solvable._core.backends import generate
from solvable._core.numbers import check_dps as _check_dps
from solvable._core.numbers import check_int as _check_int
from solvable._core.numbers import to_expr
from solvable.models.global_convergence.symbols import _CSCALE, _GUARD, _ZQ, D


# ---------------------------------------------------------------------------
# eq. (14) and the activation constants
# ---------------------------------------------------------------------------
def c1_expression(activation: str, c: Any = None) -> sp.Expr:
    """``E_{z ~ N(0,1)}[sigma(c z/sqrt(d))^2]`` of eq. (14) as a sympy expression in ``c``
    (default: the symbol ``c``) and :data:`D`: a closed form for linear (``c^2/d``) and relu
    (``c^2/(2d)``), an unevaluated ``Integral`` for swish and tanh.  ``C_1`` is its
    supremum over ``c in (0, 1]``, attained at ``c = 1`` (claim ``c1_supremum_at_one``)."""
    name = check_activation(activation)
    cv = _CSCALE if c is None else to_expr("c", c)
    return _c1_integral(name, cv)


def _c1_integrand(name: str, c: sp.Expr) -> sp.Expr:
    """``sigma(c z/sqrt(d))^2`` times the standard normal density, in ``z`` = ``_ZQ``."""
    sigma = activation(name).subs(Z, c * _ZQ / sp.sqrt(D))
    return sigma**2 * sp.exp(-(_ZQ**2) / 2) / sp.sqrt(2 * sp.pi)


@functools.cache
def _c1_integral(name: str, c: sp.Expr) -> sp.Expr:
    integrand = _c1_integrand(name, c)
    if name in ("linear", "relu"):
        # relu: Max(0, c z/sqrt d) is c z/sqrt d for z > 0 and 0 for z < 0 (c > 0), checked
        # on the sympy expression; the z-free factor is pulled out (sympy integrates faster)
        if name == "relu":
            zp, zn = sp.Symbol("zp", positive=True), sp.Symbol("zn", negative=True)
            sig = activation("relu")
            lin = c * _ZQ / sp.sqrt(D)
            if (
                sig.subs(Z, lin.subs(_ZQ, zp)) != lin.subs(_ZQ, zp)
                or sig.subs(Z, lin.subs(_ZQ, zn)) != 0
            ):  # pragma: no cover - needs c > 0
                raise ValueError(f"c must be a positive number or symbol, got {c!r}")
            integrand = _c1_integrand("linear", c)
        coefficient, term = integrand.as_independent(_ZQ, as_Add=False)
        lower = -sp.oo if name == "linear" else 0
        return coefficient * sp.integrate(term, (_ZQ, lower, sp.oo))
    return sp.Integral(integrand, (_ZQ, -sp.oo, sp.oo))


@functools.cache
def _c1_fn(name: str, backend: str) -> Callable[..., Any]:
    if backend == "mpmath":  # closed form, or mpmath.quad of the Integral
        return generate((_CSCALE, D), _c1_integral(name, _CSCALE), "mpmath")
    if name in ("linear", "relu"):
        return generate((_CSCALE, D), _c1_integral(name, _CSCALE), "numpy")

    f = generate((_ZQ, _CSCALE, D), _c1_integrand(name, _CSCALE), "numpy")

    def integral(c: float, d: int) -> float:
        # exp(-c z/sqrt d) overflows to inf for z << 0, where the swish integrand is 0
        with np.errstate(over="ignore"):
            parts = [quad(f, a, b, args=(c, d), epsabs=0, epsrel=1e-13, limit=200)[0]
                     for a, b in ((-np.inf, 0.0), (0.0, np.inf))]  # fmt: skip
        return float(sum(parts))

    return integral


@nb.mpmath_in_mpmath_out
def c1(activation: str, d: int, *, c: Any = 1, dps: int | None = None) -> Any:
    """``E[sigma(c z/sqrt(d))^2]`` from the generated evaluators of :func:`c1_expression`
    (its closed form for linear/relu; for swish/tanh the lambdified integrand by
    ``scipy.integrate.quad`` in float64, ``dps=None``, or the lambdified ``Integral`` by
    ``mpmath.quad`` at ``dps`` digits); at the default ``c = 1`` this is ``C_1`` of (14)."""
    name = check_activation(activation)
    d = _check_int("d", d)
    dps = _check_dps(dps)
    c = nb.check_number("c", c)
    with mpmath.workdps((15 if dps is None else dps) + _GUARD):
        cv = nb.exact_to_mpf(c)
        if not (0 < cv <= 1):
            raise ValueError(f"c must be in (0, 1], got {c!r}")
        if dps is not None:
            value = _c1_fn(name, "mpmath")(cv, d)
    if dps is None:
        return float(_c1_fn(name, "numpy")(float(cv), d))
    with mpmath.workdps(dps):
        return +value


@functools.cache
def _swish_second_derivative_identity() -> tuple[sp.Expr, sp.Expr]:
    """``(sigma'', S (1 - S)(2 - u (2 S - 1)))`` for swish, ``S`` the logistic function
    (``2 S(u) - 1 = tanh(u/2)``)."""
    z = Z
    s2 = sp.diff(activation("swish"), z, 2)
    S = 1 / (1 + sp.exp(-z))
    return s2, S * (1 - S) * (2 - z * (2 * S - 1))


@nb.mpmath_in_mpmath_out
def activation_bounds(activation: str, *, dps: int | None = None) -> tuple[Any, Any]:
    """``(sup |sigma'|, sup |sigma''|)`` for the activations with a bounded second derivative
    (Assumption 3.2): tanh ``(1, 4 sqrt(3)/9)`` exactly; swish ``(sigma'(u*), 1/2)`` with
    ``u* tanh(u*/2) = 2`` (``sigma''(u*) = 0``, found by ``mpmath.findroot``), i.e.
    ``sup sigma' = 1.09984 > 1`` (see :func:`errata`); ``sup |sigma''| = sigma''(0) = 1/2`` is
    checked by claim ``activation_derivative_bounds``.  float64 or mpmath at ``dps``.
    Linear (a polynomial) and relu (not differentiable) are outside Assumption 3.2."""
    name = check_activation(activation)
    dps = _check_dps(dps)
    if name in ("linear", "relu"):
        raise ValueError(
            f"activation must satisfy Assumption 3.2 (analytic, not a polynomial, bounded "
            f"sigma''): swish or tanh, got {activation!r}"
        )
    work = (15 if dps is None else dps) + _GUARD
    with mpmath.workdps(work):
        if name == "tanh":
            b1, b2 = mpmath.mpf(1), 4 * mpmath.sqrt(3) / 9
        else:
            u_star = mpmath.findroot(lambda u: u * mpmath.tanh(u / 2) - 2, mpmath.mpf(2.4))
            s1 = activation_evaluator("swish", "mpmath", 1)
            b1, b2 = s1(u_star), mpmath.mpf(1) / 2
    if dps is None:
        return float(b1), float(b2)
    with mpmath.workdps(dps):
        return +b1, +b2
