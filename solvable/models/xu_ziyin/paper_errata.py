"""The errata of seed 001: each disagreement with the printed paper (Xu & Ziyin,
``001_070589003213e0cf.txt``: eqs. (6), (7), (12), (14), (18), (19), (21), (22), (24)-(26),
(41)-(43), footnote 4, Appendix A.2), with the residual of both versions
(:func:`errata`).  The printed side is typed as printed (data); the corrected side is this
package's code.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.claims import Erratum
from solvable.models.xu_ziyin.alignment_claims import small_eta_w_terms
from solvable.models.xu_ziyin.expressions import symbolic
from solvable.models.xu_ziyin.network import SEED, network_output, ntk
from solvable.models.xu_ziyin.raw_flow import UnitFlow, unit_flow
from solvable.models.xu_ziyin.symbolic_claims import _D, _abc, _at_units, _units


# ---------------------------------------------------------------------------
# Errata: each disagreement with the printed paper, with the residual of both versions.
# The printed side is typed as printed (data); the corrected side is this module's code.
# ---------------------------------------------------------------------------
def _exact(expr: sp.Expr) -> sp.Expr:
    """Exact value of a closed (symbol-free) algebraic expression, radicals expanded."""
    return sp.expand(sp.radsimp(expr))


def _flow_d0(d0: int) -> tuple[UnitFlow, sp.Expr, sp.Expr]:
    F = unit_flow(d0)
    v = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    norm = sp.sqrt(sum(xj**2 for xj in F.x))
    return F, v, norm


def _rho_normalisation() -> tuple[sp.Expr, sp.Expr]:
    # With d0 = 2, eq. (37) needs dp_i/dt to be a multiple of p_i.  Both are linear
    # in (u_i, w_i0, w_i1); the 2x2 minor of their coefficients vanishes iff parallel.
    S = symbolic()
    F, v, norm = _flow_d0(2)
    printed = sp.sqrt((F.x[0] ** 2 + F.x[1] ** 2) / 2)

    def minor(rho: sp.Expr) -> sp.Expr:
        p = S.paper["p"].subs({S.rho: rho, S.u: F.u, S.v: v})
        dp = F.ddt(p)
        return sp.diff(dp, F.u) * sp.diff(p, F.w[0]) - sp.diff(dp, F.w[0]) * sp.diff(p, F.u)

    return minor(printed), minor(norm)


_POINT = (1, sp.Rational(1, 2), sp.Rational(1, 3))  # (A, B, C) of the rational checks


def _point() -> dict[sp.Symbol, sp.Expr]:
    S = symbolic()
    point = dict(zip((S.A, S.B, S.C), _POINT, strict=True))
    point[S.D] = _D().subs(point)
    return point


def _printed_alpha_minus() -> sp.Expr:
    """alpha_- as eq. (12) prints it, ``(B - D) / (2 A)``: the negative root of ``A alpha^2 -
    B alpha - C`` (the stationary points of the reduced flow (39)), where (8)-(10) need its
    magnitude."""
    S = symbolic()
    return (S.B - S.D) / (2 * S.A)


def _alpha_minus_sign() -> tuple[sp.Expr, sp.Expr]:
    # alpha(t) of eqs. (8)-(10) (paper["alpha_roots"]) must solve the reduced flow (39) with
    # alpha(0) = 1.  Residual: the ODE residual at t = 0 plus (alpha(0) - 1)^2 at the rational
    # point (A, B, C) = (1, 1/2, 1/3), with the printed alpha_- and with paper["alpha_minus"].
    S = symbolic()
    point = _point()

    def residual(am: sp.Expr) -> sp.Expr:
        roots = {S.ap: S.paper["alpha_plus"], S.am: am}
        alpha = S.paper["alpha_roots"].subs(roots, simultaneous=True).subs(point)
        ode = sp.diff(alpha, S.t) - S.riccati_rhs(alpha).subs(point)
        return _exact((ode + (alpha - 1) ** 2).subs(S.t, 0))

    return residual(_printed_alpha_minus()), residual(S.paper["alpha_minus"])


def _eq14_factor() -> tuple[sp.Expr, sp.Expr]:
    # W(t) x - W(0) x must equal v(Delta p, Delta q) = rho (Delta p + Delta q)/sqrt(eta_u)
    # (eq. (13), paper["v"]); with the printed factor of (14), and with paper["w_t"].
    S = symbolic()
    dp, dq = sp.symbols("Delta_p Delta_q", real=True)
    F, _v, norm = _flow_d0(2)
    target = S.paper["v"].subs({S.p0: dp, S.q0: dq, S.rho: norm}, simultaneous=True)
    change = {S.pt: S.p0 + dp, S.qt: S.q0 + dq, S.rho: norm}
    printed = sum((dp + dq) * xj / sp.sqrt(S.eta_u * norm) * xj for xj in F.x)
    corrected = sum((S.paper["w_t"].subs({**change, S.xj: xj}) - S.w0) * xj for xj in F.x)
    return printed - target, corrected - target


def _df_dt() -> tuple[UnitFlow, sp.Expr, Any, Any]:
    # one unit suffices: f is a sum over units and each term's derivative is a
    # per-unit expression; here d = 1, d0 = 2.
    S = symbolic()
    F, _v, _norm = _flow_d0(2)
    u, W, x = np.array([F.u]), np.array([list(F.w)]), np.array(list(F.x))
    f = network_output(u, W, x, S.gamma)
    return F, F.ddt(f), (u, W, x)


def _ntk_rates() -> tuple[sp.Expr, sp.Expr]:
    S = symbolic()
    F, dfdt, (u, W, x) = _df_dt()
    v, x2 = (W @ x)[0], (x * x).sum()
    printed = S.gamma**2 * (S.eta_w * v**2 + S.eta_u * F.u**2 * x2)
    corrected = ntk(u, W, x, S.eta_u, S.eta_w, S.gamma)
    return dfdt + 2 * printed * F.r, dfdt + 2 * corrected * F.r


def _ntk_sign() -> tuple[sp.Expr, sp.Expr]:
    # printed: df/dt = +2 K (f - y); corrected: -2 K (f - y), K = ntk()
    S = symbolic()
    F, dfdt, (u, W, x) = _df_dt()
    K = ntk(u, W, x, S.eta_u, S.eta_w, S.gamma)
    return dfdt - 2 * K * F.r, dfdt + 2 * K * F.r


def _eq41_x() -> tuple[sp.Expr, sp.Expr]:
    # d0 = 1 with x = -2 (rho = 2): zeta = alpha_+ p0^2 must be a root of the quadratic
    # in the denominator of (41) (-riccati_rhs/4, p0 = 1).  Rational point: gamma = eta = d =
    # P = Q = y = p0 = 1.  Printed: gamma x y sqrt(eta_u eta_w) as the linear coefficient;
    # corrected: coefficients["B"].
    S = symbolic()
    z = sp.Symbol("zeta")
    vals = {S.gamma: 1, S.eta_u: 1, S.eta_w: 1, S.d: 1, S.P: 1, S.Q: 1, S.y: 1, S.rho: 2}
    x = -2
    abc = {k: v.subs(vals) for k, v in _abc().items()}
    root = S.paper["alpha_plus"].subs(S.D, _D()).subs(abc)
    quad = S.riccati_rhs(z)

    def residual(b: sp.Expr) -> sp.Expr:
        return quad.subs({**abc, S.B: b}).subs(z, root)

    printed_b = (S.gamma * x * S.y * sp.sqrt(S.eta_u * S.eta_w)).subs(vals)
    return residual(printed_b), residual(abc[S.B])


def _eq43_convention() -> tuple[sp.Expr, sp.Expr]:
    # With alpha_minus >= 0 (the convention that makes (8)-(10) and alpha_+ alpha_- = Q/P
    # true), alpha(t) solved from (43) as printed, and paper["alpha"], must satisfy the
    # reduced flow (39).  Residual: the ODE residual at t = 0 at (A, B, C) = (1, 1/2, 1/3).
    S = symbolic()
    point = _point()
    t = S.t
    ap, am = S.paper["alpha_plus"].subs(point), S.paper["alpha_minus"].subs(point)

    def residual(alpha: sp.Expr) -> sp.Expr:
        ode = (sp.diff(alpha, t) - S.riccati_rhs(alpha).subs(point)).subs(t, 0)
        return _exact(ode)

    printed = _eq43_printed_alpha(ap, am, point[S.D], t)
    return residual(printed), residual(S.paper["alpha"].subs(point))


def _eq43_printed_alpha(ap: sp.Expr, am: sp.Expr, D: sp.Expr, t: sp.Symbol) -> sp.Expr:
    """alpha(t) solved from eq. (43) as printed, ``(alpha - ap)/(alpha - am) = (1 - ap)/(1 -
    am) exp(-4 D t)`` (alpha(0) = 1)."""
    e = (1 - ap) / (1 - am) * sp.exp(-4 * D * t)
    return (ap - e * am) / (1 - e)


def _alpha_plus_positive() -> tuple[sp.Expr, sp.Expr]:
    # Footnote 4 claims alpha_+ > 0 for every P != 0.  At Q = 0, y < 0 (rational point)
    # alpha_+ = 0, and f(infinity) = c * P * alpha_+ = 0 != y.  Residuals: the printed
    # claim "alpha_+ > 0" as (alpha_+ > 0) - 1, the corrected claim "alpha_+ = 0 when
    # Q = 0 and y <= 0" as alpha_+ itself (paper["alpha_plus"]).
    S = symbolic()
    vals = {S.A: 1, S.B: -1, S.C: 0}
    ap = S.paper["alpha_plus"].subs(S.D, _D()).subs(vals)
    printed = sp.Integer(1) - sp.Integer(int(bool(ap > 0)))
    return printed, ap


def _pq_product() -> tuple[sp.Expr, sp.Expr]:
    # text after (21), x = 1 (rho = 1, w_i = v_i): 4 p_i q_i against the printed
    # u_i^2 - w_i^2 and against paper["four_pq"] (eq. (35))
    S = symbolic()
    sub = {S.rho: 1}
    four_pq = 4 * (S.paper["p"] * S.paper["q"]).subs(sub)
    return four_pq - (S.u**2 - S.v**2), four_pq - S.paper["four_pq"].subs(sub)


def _eq22_power() -> tuple[sp.Expr, sp.Expr]:
    # p_i = C q_i: zeta^2 - 1 with the printed (22) and with paper["zeta"] at P = C^2 Q,
    # sum p_i q_i = C d Q
    S = symbolic()
    a, Cc = S.alpha, sp.Symbol("C", positive=True)
    printed = (a * Cc - 1 / a) ** 2 / ((a * Cc + 1 / a) ** 2 - 4 * Cc**2) - 1
    zeta = S.paper["zeta"].subs({S.P: Cc**2 * S.Q, S.Spq: Cc * S.d * S.Q})
    return printed, zeta**2 - 1


def _eq25_rates() -> tuple[sp.Expr, sp.Expr]:
    # ||u||^2 of one unit (d = 1, eq. (13)) against the printed (25) and paper["norm_u2"]
    S = symbolic()
    _p0, _q0, u, _w, P, Q, spq = _units(1)
    a = S.alpha
    printed = (P * a + Q / a) - 2 * spq
    corrected = _at_units(S.paper["norm_u2"], 1, P, Q, spq)
    return u[0] ** 2 - printed, u[0] ** 2 - corrected


def _eq26_equal() -> tuple[sp.Expr, sp.Expr]:
    # d||u||^2/d alpha vs d||w||^2/d alpha for one unit (d = 1, eq. (13) with (8), (9)):
    # printed equal; corrected eta_w d||u||^2/d alpha = eta_u d||w||^2/d alpha
    S = symbolic()
    _p0, _q0, u, w, *_ = _units(1)
    du, dw = sp.diff(u[0] ** 2, S.alpha), sp.diff(w[0] ** 2, S.alpha)
    return du - dw, S.eta_w * du - S.eta_u * dw


def _a2_convention() -> tuple[sp.Expr, sp.Expr]:
    # Appendix A.2 writes alpha(t) = (alpha_+ - xi alpha_-)/(1 - xi); with xi of (10) and the
    # alpha_- >= 0 of (8)-(10), alpha(0) must be 1.  Residual alpha(0) - 1 at (1, 1/2, 1/3),
    # printed and paper["alpha"].
    S = symbolic()
    point = _point()
    ap, am = S.paper["alpha_plus"].subs(point), S.paper["alpha_minus"].subs(point)
    xi0 = S.paper["xi"].subs(point).subs(S.t, 0)
    printed = (ap - xi0 * am) / (1 - xi0)
    corrected = S.paper["alpha"].subs(point).subs(S.t, 0)
    return _exact(printed - 1), _exact(corrected - 1)


def _q_ge_p_strict() -> tuple[sp.Expr, sp.Expr]:
    # d = 2, x = 1, eta = 1: u = (1, 0), w = (0, 1) has P = Q (u.w = 0).  The printed
    # equivalence "Q >= P <=> u.w < 0" fails there; "Q >= P <=> u.w <= 0" holds.
    S = symbolic()
    u, w = (1, 0), (0, 1)
    one = {S.eta_u: 1, S.eta_w: 1, S.rho: 1}
    p = [S.paper["p"].subs({**one, S.u: ui, S.v: wi}) for ui, wi in zip(u, w, strict=True)]
    q = [S.paper["q"].subs({**one, S.u: ui, S.v: wi}) for ui, wi in zip(u, w, strict=True)]
    P = sum(v**2 for v in p)
    Q = sum(v**2 for v in q)
    uw = sum(a * b for a, b in zip(u, w, strict=True))
    lhs = int(bool(Q >= P))
    return sp.Integer(lhs - int(uw < 0)), sp.Integer(lhs - int(uw <= 0))


def _eq19_rho() -> tuple[sp.Expr, sp.Expr]:
    # f = network_output (d = 2, d0 = 2, explicit weights) at t = 0 (alpha = 1), with P, Q of
    # eq. (7) from p, q of eq. (6), rho = ||x||: minus the printed gamma d/sqrt(eta_u eta_w)
    # (P - Q), and minus paper["f"] (coefficient c = gamma rho d/sqrt(eta_u eta_w))
    S = symbolic()
    d = 2
    u = np.array(sp.symbols(f"u0:{d}", real=True), dtype=object)
    W = np.array(sp.symbols(f"w0:{2 * d}", real=True), dtype=object).reshape(d, 2)
    x = np.array(sp.symbols("x0:2", real=True), dtype=object)
    rho = sp.sqrt((x * x).sum())
    at = [{S.u: u[i], S.v: (W @ x)[i], S.rho: rho} for i in range(d)]
    P = sum(S.paper["p"].subs(a) ** 2 for a in at) / d
    Q = sum(S.paper["q"].subs(a) ** 2 for a in at) / d
    f = network_output(u, W, x, S.gamma)
    printed = S.gamma * d / sp.sqrt(S.eta_u * S.eta_w) * (P - Q)
    corrected = S.paper["f"].subs({S.P: P, S.Q: Q, S.alpha: 1, S.d: d, S.rho: rho},
                                  simultaneous=True)  # fmt: skip
    return f - printed, f - corrected


def _small_eta_w_power() -> tuple[sp.Expr, sp.Expr]:
    # eta_w = s^2 eta_u: "linear in eta_w" needs no term in s; the term in s is the slope
    _at0, coef, slope = small_eta_w_terms()
    return coef, coef - slope


def _eq21_sign() -> tuple[sp.Expr, sp.Expr]:
    # d = 2, d0 = 1, x = -rho < 0 (rho = |x|, both conventions of rho agree for d0 = 1):
    # cos(u, w) (eq. (20)) minus paper["zeta"] (eq. (21) as printed, at the current p, q:
    # alpha = 1) and minus sign(x) paper["zeta"]
    S = symbolic()
    d = 2
    u = sp.symbols(f"u0:{d}", real=True)
    w = sp.symbols(f"w0:{d}", real=True)
    x = -S.rho
    at = [{S.u: ui, S.v: wi * x} for ui, wi in zip(u, w, strict=True)]
    p = [S.paper["p"].subs(a) for a in at]
    q = [S.paper["q"].subs(a) for a in at]
    P, Q = sum(v**2 for v in p) / d, sum(v**2 for v in q) / d
    spq = sum(a * b for a, b in zip(p, q, strict=True))
    zeta = S.paper["zeta"].subs({S.alpha: 1, S.P: P, S.Q: Q, S.Spq: spq, S.d: d},
                                simultaneous=True)  # fmt: skip
    uw = sum(a * b for a, b in zip(u, w, strict=True))
    cos = uw / sp.sqrt(sp.expand(sum(a * a for a in u) * sum(b * b for b in w)))
    return cos - zeta, cos - sp.sign(x) * zeta


@functools.cache
def errata() -> tuple[Erratum, ...]:
    """Every disagreement of this module with the printed paper, each with its check."""
    s = SEED
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
            "the constant of (43) must have 1 + alpha_-, else alpha(0) != 1. Residual: the "
            "ODE residual of (39) at t = 0 of alpha(t) solved from (42)-(43) as printed "
            "(alpha(0) = 1 there, but no solution), (A, B, C) = (1, 1/2, 1/3).",
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
            s, "(19) and the limit after it",
            "f(x) = gamma d / sqrt(eta_u eta_w) (P alpha - Q/alpha),  lim f = gamma d / "
            "sqrt(eta_u eta_w) (alpha_+ P - Q/alpha_+)",
            "f(x) = gamma rho d / sqrt(eta_u eta_w) (P alpha - Q/alpha)  (paper['f'], "
            "coefficient c)",
            "From eq. (6), p_i^2 - q_i^2 = sqrt(eta_u eta_w) u_i (W x)_i / rho, so f = gamma "
            "sum_i u_i (W x)_i carries the factor rho (right as printed only for rho = 1). "
            "Residual: network_output minus each form at alpha = 1, d = 2, d0 = 2.",
            _eq19_rho,
        ),
        Erratum(
            s, "(21) (x < 0)",
            "zeta(t) = (alpha P - Q/alpha) / sqrt((alpha P + Q/alpha)^2 - (2/d sum p_i q_i)^2) "
            "(stated for x = 1, 'without loss of generality')",
            "zeta(t) = sign(x) (alpha P - Q/alpha) / sqrt(...)  (d0 = 1, rho = |x|); the "
            "unsigned form is the cosine between u and W x/||x|| (State.alignment)",
            "With rho = |x| > 0, p_i^2 - q_i^2 = sqrt(eta_u eta_w) u_i w_i x / rho has the sign "
            "of x u_i w_i, while the denominator is positive: for x < 0 the printed form is "
            "-cos(u, w). Residual: cos(u, w) minus each form, d = 2, d0 = 1, x = -rho.",
            _eq21_sign,
        ),
        Erratum(
            s, "text after (24) (eta_u >> eta_w)",
            "when eta_u >> eta_w, this condition depends monotonically and (essentially) "
            "linearly on eta_w",
            "alpha_+ - 1 = sqrt(eta_w/eta_u) 2 rho (y - f0)/(gamma ||W x||^2) + O(eta_w/eta_u): "
            "linear in sqrt(eta_w)",
            "With eta_u >> eta_w, P and Q are both eta_u ||W x||^2/(4 rho^2 d) to leading order "
            "and differ by P - Q = sqrt(eta_u eta_w) u.Wx/(rho d), so the left side of (24) "
            "moves from 1 by a term of order sqrt(eta_w/eta_u) (claims xu_ziyin.zeta_small_eta_w"
            " and its measured twin: fitted exponent 1/2). Residual: the coefficient of s = "
            "sqrt(eta_w/eta_u) in alpha_+ (zero if linear in eta_w) and its difference from "
            "the slope, d = 2.",
            _small_eta_w_power,
        ),
    )  # fmt: skip
