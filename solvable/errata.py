"""Every disagreement found with the printed papers, each with a check.

``Erratum.check()`` returns True when the check shows the printed version
false and the corrected version true.  Each check computes a *residual* for
both versions (``Erratum.residuals()``): an expression that vanishes exactly
when the version is right, simplified by sympy (or, where stated, evaluated in
exact rational arithmetic).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from solvable import xu_ziyin

__all__ = ["ERRATA", "Erratum"]

SEED_XU_ZIYIN = "001_070589003213e0cf.txt"


@dataclass(frozen=True)
class Erratum:
    """One disagreement with a paper: where, as printed, as corrected, and why."""

    source: str
    equation: str
    paper: str
    corrected: str
    explanation: str
    _residuals: Callable[[], tuple[sp.Expr, sp.Expr]] = field(repr=False)
    changes_math: bool = True

    def residuals(self) -> tuple[sp.Expr, sp.Expr]:
        """(residual of the printed version, residual of the corrected version).

        The corrected residual is simplified symbolically (it must be exactly 0).
        The printed one is evaluated exactly at a rational point (each free symbol
        set to a distinct positive rational), so a non-zero value is a proof that
        the printed version is false, not a failure of ``simplify``.
        """
        paper, corrected = self._residuals()
        return _at_rational_point(paper), sp.simplify(corrected)

    def check(self) -> bool:
        """True when the printed version is shown false and the corrected one true."""
        paper, corrected = self.residuals()
        # the printed residual is a closed number: non-zero to 50 digits is a proof
        return bool(abs(sp.N(paper, 50)) > sp.Float("1e-40", 50)) and corrected == 0


def _exact(expr: sp.Expr) -> sp.Expr:
    """Exact value of a closed (symbol-free) algebraic expression, radicals expanded."""
    return sp.nsimplify(sp.expand(sp.radsimp(expr)))


def _at_rational_point(expr: sp.Expr) -> sp.Expr:
    free = sorted(expr.free_symbols, key=lambda s: s.name)
    point = {sym: sp.Rational(k + 2, k + 3) for k, sym in enumerate(free)}
    return sp.nsimplify(sp.simplify(expr.subs(point)))


# ---------------------------------------------------------------------------
# residual builders (seed 001)
# ---------------------------------------------------------------------------
def _flow_d0(d0: int) -> tuple[xu_ziyin.UnitFlow, sp.Expr, sp.Expr]:
    F = xu_ziyin.unit_flow(d0)
    v = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    norm = sp.sqrt(sum(xj**2 for xj in F.x))
    return F, v, norm


def _rho_normalisation() -> tuple[sp.Expr, sp.Expr]:
    # With d0 = 2, eq. (37) needs dp_i/dt to be a multiple of p_i.  Both are linear
    # in (u_i, w_i0, w_i1); the 2x2 minor of their coefficients vanishes iff parallel.
    S = xu_ziyin.symbolic()
    F, v, norm = _flow_d0(2)
    printed = sp.sqrt((F.x[0] ** 2 + F.x[1] ** 2) / 2)

    def minor(rho: sp.Expr) -> sp.Expr:
        p = S.paper["p"].subs({S.rho: rho, S.u: F.u, S.v: v})
        dp = F.ddt(p)
        return sp.diff(dp, F.u) * sp.diff(p, F.w[0]) - sp.diff(dp, F.w[0]) * sp.diff(p, F.u)

    return minor(printed), minor(norm)


def _alpha_minus_sign() -> tuple[sp.Expr, sp.Expr]:
    # alpha(t) of eqs. (8)-(10) must solve the reduced flow (39): dalpha/dt = -4(A a^2 - B a - C)
    # with alpha(0) = 1.  Residual: the ODE residual at t = 0 plus alpha(0) - 1 at a
    # rational point (A, B, C) = (1, 1/2, 1/3).
    S = xu_ziyin.symbolic()
    A, B, C, D = S.A, S.B, S.C, S.D

    point = {A: 1, B: sp.Rational(1, 2), C: sp.Rational(1, 3)}
    point[D] = sp.sqrt(B**2 + 4 * A * C).subs(point)

    def residual(am: sp.Expr) -> sp.Expr:
        ap = ((B + D) / (2 * A)).subs(point)
        am = am.subs(point)
        xi = (1 - ap) / (1 + am) * sp.exp(-4 * point[D] * S.t)
        alpha = (ap + xi * am) / (1 - xi)
        ode = sp.diff(alpha, S.t) - S.riccati_rhs(alpha).subs(point)
        return _exact((ode + (alpha - 1) ** 2).subs(S.t, 0))

    return residual((B - D) / (2 * A)), residual((D - B) / (2 * A))


def _eq14_factor() -> tuple[sp.Expr, sp.Expr]:
    # W(t) x must equal v(t) = rho (p + q) / sqrt(eta_u) (inverse of eq. (6)).
    S = xu_ziyin.symbolic()
    dp, dq = sp.symbols("Delta_p Delta_q", real=True)
    F, _v, norm = _flow_d0(2)
    target = norm * (dp + dq) / sp.sqrt(S.eta_u)

    def change_of_wx(factor: sp.Expr) -> sp.Expr:
        return sum((dp + dq) * xj * factor * xj for xj in F.x) - target

    printed = change_of_wx(1 / sp.sqrt(S.eta_u * norm))
    corrected = change_of_wx(1 / (sp.sqrt(S.eta_u) * norm))
    return printed, corrected


def _df_dt() -> tuple[xu_ziyin.UnitFlow, sp.Expr, sp.Expr, sp.Expr]:
    # one unit suffices: f is a sum over units and each term's derivative is a
    # per-unit expression; here d = 1, d0 = 2.
    S = xu_ziyin.symbolic()
    F, v, norm = _flow_d0(2)
    f = S.gamma * F.u * v
    return F, F.ddt(f), v, norm


def _ntk_rates() -> tuple[sp.Expr, sp.Expr]:
    S = xu_ziyin.symbolic()
    F, dfdt, v, norm = _df_dt()
    x2 = norm**2
    printed = S.gamma**2 * (S.eta_w * v**2 + S.eta_u * F.u**2 * x2)
    corrected = S.gamma**2 * (S.eta_u * v**2 + S.eta_w * F.u**2 * x2)
    return dfdt + 2 * printed * F.r, dfdt + 2 * corrected * F.r


def _ntk_sign() -> tuple[sp.Expr, sp.Expr]:
    S = xu_ziyin.symbolic()
    F, dfdt, v, norm = _df_dt()
    K = S.gamma**2 * (S.eta_u * v**2 + S.eta_w * F.u**2 * norm**2)
    return dfdt - 2 * K * F.r, dfdt + 2 * K * F.r


def _eq41_x() -> tuple[sp.Expr, sp.Expr]:
    # d0 = 1 with x = -2 (rho = 2): zeta = alpha_+ p0^2 must be a root of the quadratic
    # in the denominator of (41).  Rational point: gamma = eta = d = P = Q = y = p0 = 1.
    S = xu_ziyin.symbolic()
    z = sp.Symbol("zeta")
    vals = {S.gamma: 1, S.eta_u: 1, S.eta_w: 1, S.d: 1, S.P: 1, S.Q: 1, S.y: 1}
    rho, x = 2, -2
    A = S.coefficients["A"].subs(S.rho, rho).subs(vals)
    C = S.coefficients["C"].subs(S.rho, rho).subs(vals)
    B = S.coefficients["B"].subs(S.rho, rho).subs(vals)
    root = (B + sp.sqrt(B**2 + 4 * A * C)) / (2 * A)  # alpha_plus, p0 = 1

    def quad(first_order: sp.Expr) -> sp.Expr:
        return (A * z**2 - first_order * z - C).subs(z, root)

    s = sp.sqrt(vals[S.eta_u] * vals[S.eta_w])
    return quad(vals[S.gamma] * x * vals[S.y] * s), quad(vals[S.gamma] * rho * vals[S.y] * s)


def _eq43_convention() -> tuple[sp.Expr, sp.Expr]:
    # With alpha_minus >= 0 (the convention that makes (8)-(10) and alpha_+ alpha_- = Q/P
    # true), alpha(t) solved from (43) must satisfy the reduced flow (39).  Residual: the
    # ODE residual at t = 0 at (A, B, C) = (1, 1/2, 1/3).
    S = xu_ziyin.symbolic()
    A, B, C, D, t = S.A, S.B, S.C, S.D, S.t
    point = {A: 1, B: sp.Rational(1, 2), C: sp.Rational(1, 3)}
    point[D] = sp.sqrt(B**2 + 4 * A * C).subs(point)
    ap, am = ((B + D) / (2 * A)).subs(point), ((D - B) / (2 * A)).subs(point)

    def residual(second_root: sp.Expr) -> sp.Expr:
        # (alpha - ap)/(alpha - second_root) = (1 - ap)/(1 - second_root) exp(-4 D t)
        e = (1 - ap) / (1 - second_root) * sp.exp(-4 * point[D] * t)
        alpha = (ap - e * second_root) / (1 - e)
        ode = (sp.diff(alpha, t) - S.riccati_rhs(alpha).subs(point)).subs(t, 0)
        return _exact(ode)

    return residual(am), residual(-am)


def _alpha_plus_positive() -> tuple[sp.Expr, sp.Expr]:
    # Footnote 4 claims alpha_+ > 0 for every P != 0.  At Q = 0, y < 0 (rational point)
    # alpha_+ = 0, and f(infinity) = c * P * alpha_+ = 0 != y.  Residuals: the printed
    # claim "alpha_+ > 0" as (alpha_+ > 0) - 1, the corrected claim "alpha_+ = 0 when
    # Q = 0 and y <= 0" as alpha_+ itself.
    S = xu_ziyin.symbolic()
    vals = {S.A: 1, S.B: -1, S.C: 0}
    ap = ((S.B + sp.sqrt(S.B**2 + 4 * S.A * S.C)) / (2 * S.A)).subs(vals)
    printed = sp.Integer(1) - sp.Integer(int(bool(ap > 0)))
    return printed, ap


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    s = SEED_XU_ZIYIN
    return (
        Erratum(
            s, "(6), (7): rho",
            "rho := sqrt((1/d0) * sum_{i=0}^{d0} x_i^2)",
            "rho := ||x|| = sqrt(sum_{j=1}^{d0} x_j^2)",
            "Eq. (37) needs dp_i/dt proportional to p_i, which holds iff rho^2 = ||x||^2; the "
            "printed 1/d0 normalisation breaks Theorem 1 for every d0 > 1 (the index i = 0 is "
            "a typo on top). Residual: the 2x2 minor of the coefficients of dp_i/dt and p_i, "
            "d0 = 2.",
            _rho_normalisation,
        ),
        Erratum(
            s, "(12)",
            "alpha_(+/-) = (B +/- D) / (2 A)",
            "alpha_(+/-) = (D +/- B) / (2 A),  A = gamma^2 d rho^2 P, B = sqrt(eta_u eta_w) gamma "
            "rho y, D = 1/t_c",
            "With the printed alpha_- (< 0), eqs. (8)-(10) do not solve the reduced flow (39) "
            "and alpha_+ alpha_- = -Q/P, not Q/P as the text says. alpha_- must be the "
            "magnitude of the negative root. Residual: ODE residual + (alpha(0) - 1)^2 at t = 0, "
            "(A, B, C) = (1, 1/2, 1/3).",
            _alpha_minus_sign,
        ),
        Erratum(
            s, "(42), (43)",
            "log((alpha - alpha_+)/(alpha - alpha_-)),  (1 - alpha_+)/(1 - alpha_-)",
            "log((alpha - alpha_+)/(alpha + alpha_-)),  (1 - alpha_+)/(1 + alpha_-)",
            "The appendix uses the printed (negative) alpha_- of (12) while (8)-(10) use its "
            "magnitude; with one alpha_- only one can be right. In the convention of (8)-(10) "
            "the constant of (43) must have 1 + alpha_-, else alpha(0) != 1. Residual: "
            "alpha(0) - 1 at (A, B, C) = (1, 1/2, 1/3).",
            _eq43_convention,
        ),
        Erratum(
            s, "(14)",
            "w_ij(t) = w_ij(0) + (p_i(t) - p_i(0) + q_i(t) - q_i(0)) x_j / sqrt(eta_u rho)",
            "w_ij(t) = w_ij(0) + (p_i(t) - p_i(0) + q_i(t) - q_i(0)) x_j / (sqrt(eta_u) rho)",
            "W(t) x must change by rho (Delta p + Delta q)/sqrt(eta_u) (inverse of eq. (6)); "
            "rho belongs outside the square root. Residual: (W(t) - W(0)) x minus that, d0 = 2.",
            _eq14_factor,
        ),
        Erratum(
            s, "(18)",
            "K(x, x') = gamma^2 x^T (eta_w W^T W + eta_u ||u||^2 I) x'",
            "K(x, x') = gamma^2 x^T (eta_u W^T W + eta_w ||u||^2 I) x'",
            "df/dt = (df/du) du/dt + (df/dW) dW/dt puts eta_u on ||W x||^2 (the u-gradient) "
            "and eta_w on ||u||^2 ||x||^2 (the W-gradient); the printed rates are swapped "
            "(harmless only when eta_u = eta_w). Residual: df/dt + 2 K (f - y) along eq. (31).",
            _ntk_rates,
        ),
        Erratum(
            s, "text before (18)",
            "df(x)/dt = 2 K(x, x') (f(x') - y)",
            "df(x)/dt = -2 K(x, x') (f(x') - y)",
            "Gradient flow decreases the loss: the sign is minus. Residual: df/dt -/+ 2 K (f - y).",
            _ntk_sign,
        ),
        Erratum(
            s, "(41)",
            "... - gamma x y sqrt(eta_u eta_w) zeta ...",
            "... - gamma rho y sqrt(eta_u eta_w) zeta ...",
            "The linear coefficient comes from (39), where it is gamma rho y sqrt(eta_u eta_w); "
            "x is a vector for d0 > 1, and for d0 = 1 it differs from rho = |x| when x < 0. "
            "Residual: the quadratic at zeta = alpha_+ p0^2, d0 = 1, x = -2.",
            _eq41_x,
        ),
        Erratum(
            s, "footnote 4, text after (19)",
            "alpha_+ > 0 (so lim f = y) for every P != 0",
            "alpha_+ > 0 iff Q > 0 or y > 0; for Q = 0, y < 0 alpha_+ = 0 and f -> 0 != y",
            "With Q = 0 every unit has q_i = 0, so f = c P alpha(t) >= 0 can never reach y < 0; "
            "the flow runs into the saddle (the mirror image of Proposition 1 with y > 0). "
            "Residual: [alpha_+ > 0] - 1 vs alpha_+ at A = 1, B = -1, C = 0.",
            _alpha_plus_positive,
        ),
    )  # fmt: skip


ERRATA: tuple[Erratum, ...] = _errata()
