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
SEED_KUNIN = "003_cfd8c5fad4b6665d.txt"


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
    return sp.expand(sp.radsimp(expr))


def _at_rational_point(expr: sp.Expr) -> sp.Expr:
    free = sorted(expr.free_symbols, key=lambda s: s.name)
    point = {sym: sp.Rational(k + 2, k + 3) for k, sym in enumerate(free)}
    return sp.radsimp(sp.simplify(expr.subs(point)))


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


def _pq_product() -> tuple[sp.Expr, sp.Expr]:
    # text after (21), x = 1 (rho = 1, w_i = v_i): 4 p_i q_i = eta_u w_i^2 - eta_w u_i^2
    S = xu_ziyin.symbolic()
    sub = {S.rho: 1}
    four_pq = 4 * (S.paper["p"] * S.paper["q"]).subs(sub)
    return four_pq - (S.u**2 - S.v**2), four_pq - (S.eta_u * S.v**2 - S.eta_w * S.u**2)


def _eq22_power() -> tuple[sp.Expr, sp.Expr]:
    # p_i = C q_i: P = C^2 Q and (2/d) sum p_i q_i = 2 C Q; zeta^2 - 1 with each form
    a, Cc = sp.symbols("alpha C", positive=True)

    def zeta2_minus_1(k: sp.Expr) -> sp.Expr:
        return (a * k - 1 / a) ** 2 / ((a * k + 1 / a) ** 2 - 4 * Cc**2) - 1

    return zeta2_minus_1(Cc), zeta2_minus_1(Cc**2)


def _units_d1() -> tuple[sp.Expr, ...]:
    # one unit (d = 1), x = 1: u = (p - q)/sqrt(eta_w), w = (p + q)/sqrt(eta_u) at time t
    S = xu_ziyin.symbolic()
    p0, q0 = sp.symbols("p0 q0", real=True)
    g = sp.sqrt(S.alpha)
    p, q = p0 * g, q0 / g
    u = (p - q) / sp.sqrt(S.eta_w)
    w = (p + q) / sp.sqrt(S.eta_u)
    return u, w, p0**2, q0**2, p0 * q0  # d = 1: P, Q, sum p q


def _eq25_rates() -> tuple[sp.Expr, sp.Expr]:
    S = xu_ziyin.symbolic()
    u, _w, P, Q, spq = _units_d1()
    a = S.alpha
    printed = (P * a + Q / a) - 2 * spq
    corrected = ((P * a + Q / a) - 2 * spq) / S.eta_w
    return u**2 - printed, u**2 - corrected


def _eq26_equal() -> tuple[sp.Expr, sp.Expr]:
    S = xu_ziyin.symbolic()
    u, w, *_ = _units_d1()
    du, dw = sp.diff(u**2, S.alpha), sp.diff(w**2, S.alpha)
    return du - dw, S.eta_w * du - S.eta_u * dw


def _a2_convention() -> tuple[sp.Expr, sp.Expr]:
    # Appendix A.2 writes alpha(t) = (alpha_+ - xi alpha_-)/(1 - xi); with xi of (10) and the
    # alpha_- >= 0 of (8)-(10), alpha(0) must be 1.  Residual alpha(0) - 1 at (1, 1/2, 1/3).
    S = xu_ziyin.symbolic()
    A, B, C, D = S.A, S.B, S.C, S.D
    point = {A: 1, B: sp.Rational(1, 2), C: sp.Rational(1, 3)}
    point[D] = sp.sqrt(B**2 + 4 * A * C).subs(point)
    ap, am = ((B + D) / (2 * A)).subs(point), ((D - B) / (2 * A)).subs(point)
    xi0 = (1 - ap) / (1 + am)
    return _exact((ap - xi0 * am) / (1 - xi0) - 1), _exact((ap + xi0 * am) / (1 - xi0) - 1)


def _q_ge_p_strict() -> tuple[sp.Expr, sp.Expr]:
    # d = 2, x = 1, eta = 1: u = (1, 0), w = (0, 1) has P = Q (u.w = 0).  The printed
    # equivalence "Q >= P <=> u.w < 0" fails there; "Q >= P <=> u.w <= 0" holds.
    u, w = (1, 0), (0, 1)
    p = [(wi + ui) / 2 for ui, wi in zip(u, w, strict=True)]
    q = [(wi - ui) / 2 for ui, wi in zip(u, w, strict=True)]
    P = sum(sp.Rational(v) ** 2 for v in p)
    Q = sum(sp.Rational(v) ** 2 for v in q)
    uw = sum(a * b for a, b in zip(u, w, strict=True))
    lhs = int(bool(Q >= P))
    return sp.Integer(lhs - int(uw < 0)), sp.Integer(lhs - int(uw <= 0))


def _kunin_balanced_m() -> tuple[sp.Expr, sp.Expr]:
    # at delta = 0, M = lambda I + lambda bb^T/|b|^2 with lambda = lambda_1 = lambda_2 of
    # sigma = sqrt(4 eta_a eta_w |beta|^2); point eta_a = 2, eta_w = 3, |beta|^2 = 5
    from solvable import kunin

    S = kunin.symbolic()
    point = {S.eta_a: 2, S.eta_w: 3, S.beta2: 5}
    lam = S.exprs["lambda_1"].subs(S.delta, 0)
    printed = S.eta_a * S.eta_w * sp.sqrt(S.beta2)
    corrected = sp.sqrt(S.eta_a * S.eta_w) * sp.sqrt(S.beta2)
    return _exact((lam - printed).subs(point)), sp.simplify(lam - corrected)


def _kernel_condition_text() -> tuple[sp.Expr, sp.Expr]:
    # at the NTK column of Table 1 (c_d = 1, c_gamma = -1/2, c_u = c_w = c_eta = 0), which
    # the paper itself places in the kernel phase, the equality part must vanish
    c_d, c_gamma, m = sp.Integer(1), sp.Rational(-1, 2), sp.Integer(0)
    return c_gamma + c_d + m, 2 * c_gamma + c_d + m


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
        Erratum(
            s, "text after (21)",
            "4 p_i q_i = u_i^2 - w_i^2 = const",
            "4 p_i q_i = eta_u w_i^2 - eta_w u_i^2 = const  (x = 1)",
            "From eq. (35) with rho = 1, w_i = v_i: the sign is reversed and the learning "
            "rates are missing (the printed form is conserved only for eta_u = eta_w, and "
            "then with the opposite sign). Residual: 4 p q minus each form.",
            _pq_product,
        ),
        Erratum(
            s, "(22)",
            "zeta^2 = (alpha C - 1/alpha)^2 / ((alpha C + 1/alpha)^2 - 4 C^2) = 1",
            "zeta^2 = (alpha C^2 - 1/alpha)^2 / ((alpha C^2 + 1/alpha)^2 - 4 C^2) = 1",
            "With p_i = C q_i, P = C^2 Q (not C Q) in (21); the printed ratio equals 1 only "
            "for C = 1. Residual: zeta^2 - 1 with each form.",
            _eq22_power,
        ),
        Erratum(
            s, "(25)",
            "||u||^2 = d(alpha P + Q/alpha) - 2 sum p_i q_i,  ||w||^2 = ... + 2 sum p_i q_i",
            "||u||^2 = (d(alpha P + Q/alpha) - 2 sum p_i q_i)/eta_w,  ||w||^2 = (... + ...)/eta_u",
            "From eq. (13), u_i = (p_i - q_i)/sqrt(eta_w) and w_i = (p_i + q_i)/sqrt(eta_u) "
            "(x = 1): the learning rates are missing (the printed form is right only for "
            "eta_u = eta_w = 1). Residual: ||u||^2 minus each form, d = 1.",
            _eq25_rates,
        ),
        Erratum(
            s, "(26)",
            "d||u||^2/d alpha = d||w||^2/d alpha = d (P - Q/alpha^2)",
            "eta_w d||u||^2/d alpha = eta_u d||w||^2/d alpha = d (P - Q/alpha^2)",
            "Follows from (25) corrected; the two norms change at different rates when "
            "eta_u != eta_w (their signs, and so the case analysis of Section 2.3, are "
            "unaffected). Residual: the difference of the derivatives, each form, d = 1.",
            _eq26_equal,
        ),
        Erratum(
            s, "Appendix A.2, after (49)",
            "(alpha_+ - xi alpha_-)/(1 - xi) = (alpha_+ - alpha_-)/(1 - xi) + alpha_-",
            "(alpha_+ + xi alpha_-)/(1 - xi) = (alpha_+ + alpha_-)/(1 - xi) - alpha_-",
            "The appendix again uses the negative alpha_- of the printed (12); in the "
            "convention of (8)-(10) the sign is plus, else alpha(0) != 1 (the monotonicity "
            "argument is unaffected). Residual: alpha(0) - 1 at (A, B, C) = (1, 1/2, 1/3).",
            _a2_convention,
        ),
        Erratum(
            s, "text after (24)",
            "Q >= P, which is equivalent to u^T(0) w(0) < 0",
            "Q >= P is equivalent to u^T(0) w(0) <= 0 (Q = P iff u^T w = 0)",
            "P - Q = sqrt(eta_u eta_w) u.Wx/(d rho) (eqs. (6), (19)); the boundary case "
            "u.w = 0 has Q = P. Residual: [Q >= P] - [u.w < 0] vs [Q >= P] - [u.w <= 0] at "
            "u = (1, 0), w = (0, 1).",
            _q_ge_p_strict,
            changes_math=False,
        ),
        Erratum(
            s, "Section 3 conclusion and Section 3.1 (kernel condition)",
            "0 = c_gamma + c_d + max{c_eta_w + c_u, c_eta_u + c_w} > c_eta_u + c_eta_w",
            "0 = 2 c_gamma + c_d + max{c_eta_w + c_u, c_eta_u + c_w} > 2 c_gamma + c_eta_u + "
            "c_eta_w",
            "The two terms of eq. (28) both carry 2 c_gamma (gamma^2 in eq. (27)); eq. (30) "
            "drops it from both sides consistently, the prose keeps one c_gamma on one side "
            "only. With the printed text the NTK column of Table 1 would not be in the kernel "
            "phase. Residual: the equality part at the NTK column (c_d, c_gamma) = (1, -1/2).",
            _kernel_condition_text,
        ),
        Erratum(
            SEED_KUNIN, "Part I, regime 2 (delta = 0)",
            "M = eta_a eta_w ||beta|| (I_d + beta beta^T/||beta||^2)",
            "M = sqrt(eta_a eta_w) ||beta|| (I_d + beta beta^T/||beta||^2)",
            "With delta = 0, eta_w a^2 = eta_a ||w||^2 and ||beta||^2 = a^2 ||w||^2 give "
            "eta_w a^2 = eta_a ||w||^2 = sqrt(eta_a eta_w) ||beta||; the rates enter under a "
            "square root (the printed form is not even dimensionally consistent). Residual: "
            "lambda(delta = 0) minus each coefficient, printed at eta = (2, 3), |beta|^2 = 5.",
            _kunin_balanced_m,
        ),
    )  # fmt: skip


def _module_errata() -> tuple[Erratum, ...]:
    """Errata registered next to their claims (modules with an ``errata()`` function)."""
    import importlib

    out: list[Erratum] = []
    for name in _ERRATA_MODULES:
        out.extend(importlib.import_module(f"solvable.{name}").errata())
    return tuple(out)


_ERRATA_MODULES: tuple[str, ...] = (
    "three_layer",
    "lazy_training",
    "node_scaling",
    "kernels",
    "linear_node_scaling",
    "linearisation",
    "ntg",
    "global_convergence",
)

ERRATA: tuple[Erratum, ...] = (*_errata(), *_module_errata())
