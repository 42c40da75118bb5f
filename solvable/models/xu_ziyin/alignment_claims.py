"""The symbolic claims of seed 001 on the data reduction (eqs. (2)-(4)) and on what sets the
change of the alignment (Sections 2.2, 2.4), each proved from the model's sympy source.

Xu & Ziyin (seed ``001_070589003213e0cf.txt``):

* :func:`_eq3_4`: data on a line ``x~ = a n`` (eq. (2)) give the loss (3), which is the
  one-point loss (4) at ``x = sqrt(E a^2) n``, ``y = E[a y]/sqrt(E a^2)`` plus a constant.
* :func:`_equal_rates`: with ``eta_u = eta_w = eta``, ``alpha_+``, ``zeta`` at a given
  ``alpha`` and ``alpha`` at ``t = T/eta`` do not depend on ``eta`` (Section 2.2, after (24)).
* :func:`_small_eta_w`: for ``eta_w << eta_u``, ``alpha_+ - 1`` is linear in
  ``sqrt(eta_w/eta_u)`` (not in ``eta_w`` as printed), slope ``2 rho (y - f0)/(gamma
  ||W x||^2)``.
* :func:`_alignment_vs_scale`: ``alpha_+ - 1`` has the sign of ``y - f(0)`` (Section 2.4:
  a small initialisation aligns, a large one with ``f(0)`` beyond ``y`` disaligns).

The ``*_measured`` twins, on simulated nets and the float64 closed form, are in
:mod:`solvable.verification.xu_ziyin_alignment`.
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from solvable._core.claims import Verdict, prove_zero
from solvable.models.xu_ziyin.expressions import symbolic
from solvable.models.xu_ziyin.network import loss, network_output

_D_UNITS = 2  # units of the per-unit sums below: P, Q, sum p q over two units


def _eq3_4(samples: int = 3, d: int = 2, d0: int = 2) -> Verdict:
    """Eqs. (2)-(4) on ``samples`` points ``a_k n`` with targets ``y_k`` (the empirical
    average is ``E``): (2) expands to (3); (3) minus (4) at the equivalent point is
    ``E[y^2] - E[a y]^2/E[a^2]``, free of ``u`` and ``W`` (every gradient of (2) equals that
    of (4): the same flow (5)).  The losses come from :func:`loss` (eq. (4)'s one
    definition)."""
    gamma = symbolic().gamma
    a = sp.symbols(f"a0:{samples}", positive=True)
    ys = sp.symbols(f"y0:{samples}", real=True)
    n = np.array(sp.symbols(f"n0:{d0}", real=True), dtype=object)
    u = np.array(sp.symbols(f"u0:{d}", real=True), dtype=object)
    W = np.array([[sp.Symbol(f"W{i}{j}", real=True) for j in range(d0)] for i in range(d)],
                 dtype=object)  # fmt: skip
    X = np.array([[ak * nj for nj in n] for ak in a], dtype=object)
    eq2 = sum(loss(u, W, X, np.array(ys, dtype=object), gamma)) / samples
    Ea2 = sum(ak**2 for ak in a) / samples
    Eay = sum(ak * yk for ak, yk in zip(a, ys, strict=True)) / samples
    Ey2 = sum(yk**2 for yk in ys) / samples
    F = network_output(u, W, n, gamma)
    eq3 = Ea2 * F**2 - 2 * Eay * F + Ey2
    x_eq = np.array([sp.sqrt(Ea2) * nj for nj in n], dtype=object)
    eq4 = loss(u, W, x_eq, Eay / sp.sqrt(Ea2), gamma)
    params = [*u, *W.ravel()]
    return _screened(
        eq2 - eq3,
        eq3 - eq4 - (Ey2 - Eay**2 / Ea2),
        *(sp.diff(eq2 - eq4, p) for p in params),
    )


def _units_sums(eta_u: sp.Expr, eta_w: sp.Expr) -> tuple[dict, sp.Expr, sp.Expr]:
    """``P``, ``Q``, ``sum p q`` (eq. (7)) of :data:`_D_UNITS` units with weights ``u_i``,
    ``v_i = (W x)_i`` at the rates given (eq. (6), ``paper["p"]``, ``["q"]``), as a
    substitution; and the symbols ``u``, ``v`` (tuples) and the initial output ``f0``."""
    S = symbolic()
    us = sp.symbols(f"u0:{_D_UNITS}", real=True)
    vs = sp.symbols(f"v0:{_D_UNITS}", real=True)
    rates = {S.eta_u: eta_u, S.eta_w: eta_w}
    p = [S.paper["p"].subs({S.u: ui, S.v: vi, **rates}) for ui, vi in zip(us, vs, strict=True)]
    q = [S.paper["q"].subs({S.u: ui, S.v: vi, **rates}) for ui, vi in zip(us, vs, strict=True)]
    sub = {
        S.d: _D_UNITS,
        S.P: sum(pi**2 for pi in p) / _D_UNITS,
        S.Q: sum(qi**2 for qi in q) / _D_UNITS,
        S.Spq: sum(pi * qi for pi, qi in zip(p, q, strict=True)),
        **rates,
    }
    f0 = network_output(np.array(us, dtype=object), np.array([[v / S.rho] for v in vs],
                        dtype=object), np.array([S.rho], dtype=object), S.gamma)  # fmt: skip
    return sub, (us, vs), f0


def _alpha_plus(sub: dict) -> sp.Expr:
    """``alpha_+`` (eq. (12), corrected) at the substitution ``sub`` of :func:`_units_sums`."""
    S = symbolic()
    co = S.coefficients
    ap = S.paper["alpha_plus"].subs(S.D, co["D"]).subs({S.A: co["A"], S.B: co["B"], S.C: co["C"]})
    return ap.subs(sub)


def _screened(*residuals: sp.Expr) -> Verdict:
    """:func:`prove_zero` of ``residuals`` after a screen: a residual that is not 0 at one
    point (every free symbol a distinct small rational, 40 digits) is no identity, and is
    reported at once (sympy's simplification of a non-zero radical expression can take
    minutes)."""
    for k, r in enumerate(residuals):
        free = sorted(r.free_symbols, key=sp.default_sort_key)
        at = {s: sp.Rational(3 + 2 * i, 7 + i) for i, s in enumerate(free)}
        value = sp.N(r.subs(at), 40)
        if value.is_number and abs(value) > sp.Float(10) ** -30:
            return Verdict("failed", f"residual {k} is {sp.N(value, 6)} at {at}",
                           residuals=tuple(residuals))  # fmt: skip
    return prove_zero(*residuals)


def _root_factored(expr: sp.Expr) -> sp.Expr:
    """``expr`` with the radicand of every square root factored (``sqrt((a + b)^2) = a + b``
    for ``a + b >= 0``: sympy then cancels the sums of squares of the unit weights)."""
    return expr.replace(lambda e: e.is_Pow and e.exp == sp.Rational(1, 2),
                        lambda e: sp.sqrt(sp.factor(e.base)))  # fmt: skip


def _equal_rates(eta_u: sp.Expr | None = None, eta_w: sp.Expr | None = None) -> Verdict:
    """Section 2.2, after (24): at equal rates ``eta_u = eta_w = eta`` (the defaults)
    ``alpha_+`` (the end point of ``alpha``), ``zeta`` (eq. (21)) at every ``alpha``, and
    ``alpha(T/eta)`` (eqs. (8)-(12)) equal their values at ``eta = 1``: the path of ``zeta``
    against ``eta t`` is the same for every ``eta``.  Rates that do not scale together
    (arguments, in the symbol ``eta``) make the claim fail."""
    S = symbolic()
    eta = sp.Symbol("eta", positive=True)
    rates = (eta if eta_u is None else eta_u, eta if eta_w is None else eta_w)
    co = S.coefficients
    T = sp.Symbol("T", positive=True)
    alpha = S.paper["alpha"].subs(S.D, co["D"]).subs({S.A: co["A"], S.B: co["B"], S.C: co["C"]})
    res = []
    for expr in (S.paper["alpha_plus"].subs(S.D, co["D"]).subs(
                     {S.A: co["A"], S.B: co["B"], S.C: co["C"]}),
                 S.paper["zeta"], alpha.subs(S.t, T / eta)):  # fmt: skip
        sub, _, _ = _units_sums(*rates)
        at = expr.subs(sub)
        res.append(_root_factored(at - at.subs(eta, 1)))
    return _screened(*res)


def small_eta_w_terms() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """With ``eta_w = s^2 eta_u``: ``alpha_+`` at ``s = 0``, the coefficient of ``s`` in
    ``alpha_+`` (its series at ``s = 0``, square roots of the sums of squares cancelled) and
    the slope ``2 rho (y - f0)/(gamma ||W x||^2)`` it is claimed to be (two units)."""
    S = symbolic()
    s = sp.Symbol("s", positive=True)
    sub, (_us, vs), f0 = _units_sums(S.eta_u, s**2 * S.eta_u)
    series = _root_factored(sp.series(_alpha_plus(sub), s, 0, 2).removeO())
    slope = 2 * S.rho * (S.y - f0) / (S.gamma * sum(v**2 for v in vs))
    return series.subs(s, 0), sp.diff(series, s), slope


def _small_eta_w() -> Verdict:
    """Section 2.2, after (24), corrected: with ``eta_w = s^2 eta_u``, ``alpha_+ - 1 =
    s 2 rho (y - f0)/(gamma ||W x||^2) + O(s^2)`` (``f0`` the initial output): as
    ``eta_w/eta_u -> 0`` the condition (24) moves linearly in ``sqrt(eta_w)``, monotone with
    the sign of ``y - f0``; the paper's "linearly on eta_w" is the power 1/2 of ``eta_w``
    (an erratum)."""
    at0, coef, slope = small_eta_w_terms()
    return _screened(at0 - 1, coef - slope)


def _alignment_vs_scale() -> Verdict:
    """Section 2.4, made exact: ``alpha_+`` is the positive root of ``g(a) = A a^2 - B a - C``
    (eqs. (12), (39); ``g(0) = -C <= 0``), so ``alpha_+ > 1`` (alignment, eq. (24)) iff
    ``g(1) < 0``, and ``g(1) = A - B - C = gamma rho sqrt(eta_u eta_w) (f0 - y)``.  With the
    initial weights scaled by ``c``, ``f0 = c^2 f0(1)``: for ``f0(1) y > 0`` a small scale
    aligns and a scale beyond ``c* = sqrt(y/f0(1))`` disaligns."""
    S = symbolic()
    sub, _, f0 = _units_sums(S.eta_u, S.eta_w)
    co = S.coefficients
    g1 = (co["A"] - co["B"] - co["C"]).subs(sub)
    ap = _alpha_plus(sub)
    g = co["A"] * ap**2 - co["B"] * ap - co["C"]
    return _screened(
        g1 - S.gamma * S.rho * sp.sqrt(S.eta_u * S.eta_w) * (f0 - S.y),
        g.subs(sub),
    )
