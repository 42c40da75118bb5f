"""Every claim of Section 2 and Appendix A of seed 001 (Xu & Ziyin), with its check.

Symbolic claims return :func:`solvable.theorems.prove_zero` verdicts; numeric
ones compare with :func:`numerics.simulate`.  Conventions of
:mod:`solvable.xu_ziyin` (corrected where the paper is wrong; see
:mod:`solvable.errata`).  :func:`claims` lists the records; the registry in
:mod:`solvable.theorems` collects them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import mpmath
import sympy as sp

from solvable import xu_ziyin
from solvable.flows import xu_ziyin_flow
from solvable.theorems import Theorem, Verdict, conservation_claims, prove_zero
from solvable.tolerance import Tolerance, error_in_units

SEED = "001_070589003213e0cf.txt"

__all__ = ["claims"]


def _S() -> xu_ziyin.Symbols:
    return xu_ziyin.symbolic()


def _D() -> sp.Expr:
    S = _S()
    return sp.sqrt(S.B**2 + 4 * S.A * S.C)


def _abc() -> dict[sp.Symbol, sp.Expr]:
    S = _S()
    co = S.coefficients
    return {S.A: co["A"], S.B: co["B"], S.C: co["C"]}


def _unit(d0: int = 3):
    """Flow (31) for one unit, with v = w.x, rho = ||x||, and p, q of eq. (6)."""
    S = _S()
    F = xu_ziyin.unit_flow(d0)
    v = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    rho = sp.sqrt(sum(xj**2 for xj in F.x))
    sub = {S.rho: rho, S.u: F.u, S.v: v}
    return F, v, rho, S.paper["p"].subs(sub), S.paper["q"].subs(sub)


def _units(d: int):
    """d units at time t: p_i(t) = p_i(0) g, q_i(t) = q_i(0)/g (eqs. (8), (9), g = sqrt(alpha)),
    with u_i, w_i from eq. (13) and its partner for d0 = 1, x = rho > 0."""
    S = _S()
    p0 = sp.symbols(f"p0:{d}", real=True)
    q0 = sp.symbols(f"q0:{d}", real=True)
    g = sp.sqrt(S.alpha)
    p = [pi * g for pi in p0]
    q = [qi / g for qi in q0]
    u = [(pi - qi) / sp.sqrt(S.eta_w) for pi, qi in zip(p, q, strict=True)]
    w = [(pi + qi) / sp.sqrt(S.eta_u) for pi, qi in zip(p, q, strict=True)]  # v_i / rho
    P = sum(pi**2 for pi in p0) / d
    Q = sum(qi**2 for qi in q0) / d
    spq = sum(pi * qi for pi, qi in zip(p0, q0, strict=True))
    return p0, q0, u, w, P, Q, spq


# ---------------------------------------------------------------------------
# symbolic claims
# ---------------------------------------------------------------------------
def _eq31() -> Verdict:
    # -eta dL/dtheta of the loss (4), d = 2, d0 = 2, equals eq. (31) with r = f - y.
    S = _S()
    flow = xu_ziyin_flow(2, 2)
    u, W = flow.block("u"), flow.block("W")
    x = flow.params[4:6]
    r = xu_ziyin.network_output(u, W, x, S.gamma) - S.y
    rhs = dict(zip(flow.state, flow.rhs, strict=True))
    res = []
    for i in range(2):
        v_i = sum(W[i][j] * x[j] for j in range(2))
        res.append(rhs[u[i]] - (-2 * S.eta_u * S.gamma * v_i * r))
        for j in range(2):
            res.append(rhs[W[i][j]] - (-2 * S.eta_w * S.gamma * u[i] * x[j] * r))
    return prove_zero(*res)


def _eq37() -> Verdict:
    S = _S()
    F, _v, rho, p, q = _unit()
    k = S.coefficients["k"].subs(S.rho, rho)
    return prove_zero(F.ddt(p) + k * F.r * p, F.ddt(q) - k * F.r * q)


def _eq13() -> Verdict:
    # inverting eq. (6): u_i = (p_i - q_i)/sqrt(eta_w), (W x)_i = rho (p_i + q_i)/sqrt(eta_u)
    S = _S()
    p, q = S.paper["p"], S.paper["q"]
    return prove_zero((p - q) / sp.sqrt(S.eta_w) - S.u, S.rho * (p + q) / sp.sqrt(S.eta_u) - S.v)


def _eq19_unit() -> Verdict:
    S = _S()
    p, q = S.paper["p"], S.paper["q"]
    lhs = S.gamma * S.u * S.v
    rhs = S.gamma * S.rho * (p**2 - q**2) / sp.sqrt(S.eta_u * S.eta_w)
    return prove_zero(lhs - rhs)


def _eq19_limit() -> Verdict:
    # f(infinity) = c (alpha_+ P - Q/alpha_+) = y  (P, Q > 0)
    S = _S()
    ap = S.paper["alpha_plus"].subs(S.D, _D()).subs(_abc())
    f_inf = S.paper["f"].subs(S.alpha, ap)
    return prove_zero(f_inf - S.y)


def _eq39() -> Verdict:
    S = _S()
    co = S.coefficients
    a = S.alpha
    r = co["c"] * (S.P * a - S.Q / a) - S.y
    return prove_zero(-2 * co["k"] * a * r - S.riccati_rhs(a).subs(_abc()))


def _theorem_1() -> Verdict:
    S = _S()
    alpha = S.paper["alpha"]
    ode = sp.diff(alpha, S.t) - S.riccati_rhs(alpha)
    return prove_zero(ode, alpha.subs(S.t, 0) - 1, assumptions={S.D: _D()})


def _alpha_relations() -> Verdict:
    # text after (14): alpha_+ alpha_- = Q/P; also alpha_+ - alpha_- = B/A, alpha_+ + alpha_- = D/A
    S = _S()
    ap, am = S.paper["alpha_plus"], S.paper["alpha_minus"]
    return prove_zero(
        (ap * am - S.C / S.A).subs(S.D, _D()),
        (ap * am).subs(S.D, _D()).subs(_abc()) - S.Q / S.P,
        ap - am - S.B / S.A,
        ap + am - S.D / S.A,
    )


def _eq15_16() -> Verdict:
    # alpha(t) -> alpha_+ (xi -> 0 as exp(-4 D t) -> 0, D > 0): p_i(inf) = p_i(0) sqrt(alpha_+),
    # q_i(inf) = q_i(0)/sqrt(alpha_+); and alpha_+ is a root of (39)
    S = _S()
    alpha = S.paper["alpha"]
    at_inf = alpha.subs(sp.exp(-4 * S.D * S.t), 0)
    ap = S.paper["alpha_plus"]
    return prove_zero(
        at_inf - ap,
        S.paper["p_t"].subs(S.alpha, ap).subs(sp.exp(-4 * S.D * S.t), 0) - S.p0 * sp.sqrt(ap),
        S.riccati_rhs(ap).subs(S.D, _D()),
    )


def _eq17() -> Verdict:
    S = _S()
    lhs = (1 / S.paper["t_c"] ** 2).subs(S.D, _D()).subs(_abc())
    co = S.coefficients
    rhs = (
        S.eta_u * S.eta_w * S.gamma**2 * S.rho**2 * S.y**2
        + 4 * S.rho**4 * (S.gamma**2 * S.d) ** 2 * S.P * S.Q
    )
    del co
    return prove_zero(lhs - rhs)


def _eq18() -> Verdict:
    # df/dt = -2 K (f - y) along the full flow (d = 2, d0 = 2) with K of eq. (18) corrected
    S = _S()
    flow = xu_ziyin_flow(2, 2)
    u, W = flow.block("u"), flow.block("W")
    x = flow.params[4:6]
    f = xu_ziyin.network_output(u, W, x, S.gamma)
    K = xu_ziyin.ntk(u, W, x, S.eta_u, S.eta_w, S.gamma)
    return prove_zero(flow.ddt(f) + 2 * K * (f - S.y))


def _eq18_pq() -> Verdict:
    S = _S()
    p, q = S.paper["p"], S.paper["q"]
    lhs = S.gamma**2 * (S.eta_u * S.v**2 + S.eta_w * S.rho**2 * S.u**2)
    sums = {S.Sp: S.d * S.P * S.alpha, S.Sq: S.d * S.Q / S.alpha}
    f19 = S.paper["f"]
    res = [
        lhs - 2 * S.gamma**2 * S.rho**2 * (p**2 + q**2),
        S.stable["ntk"].subs(sums) - S.paper["ntk"],
    ]
    for expr, _cond in S.stable["f"].args:
        res.append(expr.subs(sums).subs(S.R, f19 - S.y) - f19)
    return prove_zero(*res)


def _eq14() -> Verdict:
    S = _S()
    F = xu_ziyin.unit_flow(2)
    rho2 = sum(xj**2 for xj in F.x)
    rho = sp.sqrt(rho2)
    p0, q0, p1, q1 = sp.symbols("p_0 q_0 p_t q_t", real=True)
    v0 = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    sub = {q0: sp.sqrt(S.eta_u) * v0 / rho - p0}
    v_t = rho * (p1 + q1) / sp.sqrt(S.eta_u)
    res = []
    for j, xj in enumerate(F.x):
        paper = F.w[j] + (p1 - p0 + q1 - q0) * xj / (sp.sqrt(S.eta_u) * rho)
        perp = F.w[j] - v0 * xj / rho2 + v_t * xj / rho2
        res.append((paper - perp).subs(sub))
    return prove_zero(*res)


def _orthogonal() -> Verdict:
    # Section 2.1: d/dt (W m) = -2 eta_w gamma (f - y) (x.m) u, zero for every m orthogonal to x
    S = _S()
    flow = xu_ziyin_flow(2, 3)
    u, W = flow.block("u"), flow.block("W")
    x = flow.params[4:7]
    m = sp.symbols("m0:3", real=True)
    r = xu_ziyin.network_output(u, W, x, S.gamma) - S.y
    xm = sum(a * b for a, b in zip(x, m, strict=True))
    res = [
        flow.ddt(sum(W[i][j] * m[j] for j in range(3))) + 2 * S.eta_w * S.gamma * r * xm * u[i]
        for i in range(2)
    ]
    return prove_zero(*res)


def _eq21() -> Verdict:
    # d = 2, d0 = 1 (x = rho > 0): cos(u, w)^2 from eq. (13) equals (21)^2 and the signs agree
    S = _S()
    _p0, _q0, u, w, P, Q, spq = _units(2)
    a = S.alpha
    uw = sum(ui * wi for ui, wi in zip(u, w, strict=True))
    uu = sum(ui**2 for ui in u)
    ww = sum(wi**2 for wi in w)
    num = a * P - Q / a
    den2 = (a * P + Q / a) ** 2 - (2 * spq / 2) ** 2
    return prove_zero(
        uw**2 * den2 - num**2 * uu * ww,  # squares agree
        sp.sqrt(S.eta_u * S.eta_w) * uw - 2 * num,  # u.w = d (alpha P - Q/alpha)/sqrt(eta eta)
    )


def _eq22() -> Verdict:
    # p_i = C q_i for all i: P = C^2 Q, (2/d) sum p q = 2 C Q, and (21)^2 = 1
    S = _S()
    Cc = sp.Symbol("C", positive=True)
    a = S.alpha
    P, S2 = Cc**2 * S.Q, 2 * Cc * S.Q
    zeta2 = (a * P - S.Q / a) ** 2 / ((a * P + S.Q / a) ** 2 - S2**2)
    return prove_zero(zeta2 - 1)


def _eq23() -> Verdict:
    # d zeta/d alpha of (21) is (23); 4PQ - S^2 = (4/d^2) sum_{i<j} (p_i q_j - p_j q_i)^2 >= 0
    S = _S()
    a = S.alpha
    Ssym = sp.Symbol("S_pq", real=True)  # (2/d) sum p_i q_i
    P, Q = S.P, S.Q
    zeta = (a * P - Q / a) / sp.sqrt((a * P + Q / a) ** 2 - Ssym**2)
    printed = (
        (P + Q / a**2)
        * (4 * P * Q - Ssym**2)
        / ((a * P + Q / a) ** 2 - Ssym**2) ** (sp.Rational(3, 2))
    )
    d = 3
    p = sp.symbols(f"p0:{d}", real=True)
    q = sp.symbols(f"q0:{d}", real=True)
    Pd = sum(v**2 for v in p) / d
    Qd = sum(v**2 for v in q) / d
    Sd = 2 * sum(a_ * b_ for a_, b_ in zip(p, q, strict=True)) / d
    lagrange = sp.Rational(4, d**2) * sum(
        (p[i] * q[j] - p[j] * q[i]) ** 2 for i, j in itertools.combinations(range(d), 2)
    )
    return prove_zero(sp.diff(zeta, a) - printed, 4 * Pd * Qd - Sd**2 - lagrange)


def _zeta_monotone() -> Verdict:
    # d alpha/dt = (alpha_+ - 1) * 4 D (alpha_+ + alpha_-) e^{-4Dt} / ((1 + alpha_-)(1 - xi)^2):
    # the factor after (alpha_+ - 1) is >= 0, so alpha moves monotonically from 1 to alpha_+,
    # and with d zeta/d alpha >= 0 (eq. (23)) zeta is monotone in t.
    S = _S()
    alpha, xi = S.paper["alpha"], S.paper["xi"]
    ap, am = S.paper["alpha_plus"], S.paper["alpha_minus"]
    positive = 4 * S.D * (ap + am) * sp.exp(-4 * S.D * S.t) / ((1 + am) * (1 - xi) ** 2)
    return prove_zero(sp.diff(alpha, S.t) - (ap - 1) * positive)


def _eq24() -> Verdict:
    # alpha_+ is the left side of (24), so (24) <=> alpha_+ > 1
    S = _S()
    ap = S.paper["alpha_plus"].subs(S.D, _D()).subs(_abc())
    b = sp.sqrt(S.eta_u * S.eta_w) * S.y / (2 * S.gamma * S.d * S.rho * S.P)
    printed = b + sp.sqrt(b**2 + S.Q / S.P)
    return prove_zero(ap - printed)


def _eq24_q_ge_p() -> Verdict:
    # y > 0, Q = (1 + s) P with s >= 0: alpha_+ - 1 = b + (b^2 + s)/(sqrt(b^2 + 1 + s) + 1),
    # a sum of positive terms (b > 0): (24) holds whenever Q >= P.
    b = sp.Symbol("b", positive=True)
    s = sp.Symbol("s", nonnegative=True)
    ap = b + sp.sqrt(b**2 + (1 + s))  # (24)'s left side with Q/P = 1 + s
    return prove_zero(ap - 1 - (b + (b**2 + s) / (sp.sqrt(b**2 + 1 + s) + 1)))


def _eq25_26() -> Verdict:
    # d = 2, d0 = 1 (x = rho): ||u||^2 = (d (alpha P + Q/alpha) - 2 sum p q)/eta_w,
    # ||w||^2 = (d (alpha P + Q/alpha) + 2 sum p q)/eta_u (eq. (25) corrected);
    # d||u||^2/d alpha = d (P - Q/alpha^2)/eta_w (eq. (26) corrected), of the sign of
    # alpha P - Q/alpha, i.e. of zeta.
    S = _S()
    d = 2
    _p0, _q0, u, w, P, Q, spq = _units(d)
    a = S.alpha
    uu = sum(ui**2 for ui in u)
    ww = sum(wi**2 for wi in w)
    nu = (d * (a * P + Q / a) - 2 * spq) / S.eta_w
    nw = (d * (a * P + Q / a) + 2 * spq) / S.eta_u
    return prove_zero(
        uu - nu,
        ww - nw,
        sp.diff(nu, a) - d * (P - Q / a**2) / S.eta_w,
        sp.diff(nw, a) - d * (P - Q / a**2) / S.eta_u,
        (P - Q / a**2) * a - (a * P - Q / a),
    )


def _rescaling_sign() -> Verdict:
    # d||u||^2/dt = (d/eta_w) (P - Q/alpha^2) d alpha/dt = (alpha_+ - 1)(alpha^2 P - Q) * pos:
    # the sign law behind the four cases of Section 2.3 (confirmed on trajectories by
    # xu_ziyin.rescaling_cases).
    S = _S()
    alpha, xi = S.paper["alpha"], S.paper["xi"]
    ap, am = S.paper["alpha_plus"], S.paper["alpha_minus"]
    positive = 4 * S.D * (ap + am) * sp.exp(-4 * S.D * S.t) / ((1 + am) * (1 - xi) ** 2)
    dnorm = S.d / S.eta_w * (S.P - S.Q / alpha**2) * sp.diff(alpha, S.t)
    law = (ap - 1) * (alpha**2 * S.P - S.Q) * positive * S.d / (S.eta_w * alpha**2)
    return prove_zero(dnorm - law)


def _proposition_1() -> Verdict:
    S = _S()
    B, C = S.coefficients["B"], S.coefficients["C"]
    beta = S.paper["beta"].subs({S.B: B, S.C: C})
    ode = sp.diff(beta, S.t) + 4 * beta * (C * beta + B)
    return prove_zero(ode, beta.subs(S.t, 0) - 1)


def _proposition_1_saddle() -> Verdict:
    # y > 0 (B > 0): xi' -> 0 as exp(-4 B t) -> 0, so beta = q_i^2/q_i(0)^2 -> 0 and p_i = 0:
    # the flow converges to the saddle p = q = 0.
    S = _S()
    beta = S.paper["beta"]
    return prove_zero(beta.subs(sp.exp(-4 * S.B * S.t), 0))


def _eq49() -> Verdict:
    # (49): when B = o(sqrt(AC)) (condition (30)), alpha_+ -> sqrt(C/A) = sqrt(Q/P), = 1 if P = Q
    S = _S()
    ap = S.paper["alpha_plus"].subs(S.D, _D())
    lim = sp.limit(ap, S.B, 0)
    return prove_zero(lim - sp.sqrt(S.C / S.A), lim.subs(S.C, S.A) - 1)


def _stable_alpha() -> Verdict:
    S = _S()
    st = S.stable
    A, B, C, t = S.A, S.B, S.C, S.t
    D = _D()
    N, M = D + B + 2 * C, D - B + 2 * A
    tau = sp.exp(st["lam"])
    from solvable._special import elementary

    textbook = S.paper["alpha"].subs(S.D, D)
    vals = {S.N: N, S.M: M, S.D: D, S.G: 2 * (B + C - A)}
    e4 = sp.exp(4 * D * t)
    res = [
        elementary(tau).subs(S.D, D) - (e4 - 1) / (2 * D),
        (1 + N * (e4 - 1) / (2 * D)) / (1 + M * (e4 - 1) / (2 * D)) - textbook,
    ]
    alpha_stable = (1 + N * tau) / (1 + M * tau)
    for expr, _cond in st["ell"].args:
        res.append(sp.exp(elementary(expr).subs(vals)) - elementary(alpha_stable).subs(vals))
    for key, exact in (("D_plus", D + B), ("D_minus", D - B)):
        for expr, _cond in st[key].args:
            res.append(expr.subs(S.D, D) - exact)
    return prove_zero(*res)


def _stable_residual() -> Verdict:
    from solvable._special import elementary

    S = _S()
    st = S.stable
    A, B, C, t = S.A, S.B, S.C, S.t
    D = _D()
    N, M = D + B + 2 * C, D - B + 2 * A
    k = sp.Symbol("k", positive=True)
    f0 = S.y - 2 * (B + C - A) / k
    vals = {S.N: N, S.M: M, S.D: D, S.f0: f0}
    tau = (sp.exp(4 * D * t) - 1) / (2 * D)
    alpha = (1 + N * tau) / (1 + M * tau)
    r = (elementary(st["residual"]).subs(vals) - S.y).subs(S.y, 0)
    return prove_zero(sp.diff(alpha, t) + 2 * k * alpha * r)


def _stable_units() -> Verdict:
    from solvable._special import elementary

    S = _S()
    st = S.stable
    p0 = S.paper["p"].subs({S.u: S.u0, S.v: S.v0})
    q0 = S.paper["q"].subs({S.u: S.u0, S.v: S.v0})
    e = sp.exp(S.ell / 2)
    exact = {
        "u_t": (p0 * e - q0 / e) / sp.sqrt(S.eta_w),
        "v_t": S.rho * (p0 * e + q0 / e) / sp.sqrt(S.eta_u),
    }
    res = []
    for key, target in exact.items():
        for expr, _cond in st[key].args:
            expr = elementary(expr).replace(
                lambda z: isinstance(z, sp.Piecewise), lambda z: z.args[-1][0]
            )
            res.append(expr.subs({S.p0: p0, S.q0: q0}) - target)
    return prove_zero(*(sp.expand(r.rewrite(sp.exp)) for r in res))


def _stable_alignment() -> Verdict:
    # the evaluated alignment: F / sqrt(F^2 + 4 Lambda) with F = sum(p^2 - q^2) and the
    # conserved Lambda = sum_{i<j}(p_i q_j - p_j q_i)^2 is (21) (d = 3, Lagrange's identity)
    S = _S()
    d = 3
    p = sp.symbols(f"p0:{d}", real=True)
    q = sp.symbols(f"q0:{d}", real=True)
    F = sum(v**2 for v in p) - sum(v**2 for v in q)
    lam = sum((p[i] * q[j] - p[j] * q[i]) ** 2 for i, j in itertools.combinations(range(d), 2))
    printed_den2 = (sum(v**2 for v in p) + sum(v**2 for v in q)) ** 2 - 4 * sum(
        a_ * b_ for a_, b_ in zip(p, q, strict=True)
    ) ** 2
    expr = S.stable["alignment"].args[-1][0]
    den = (expr.subs(S.F, F).subs(S.Lam, lam) / F) ** -2
    return prove_zero(den - printed_den2)


# ---------------------------------------------------------------------------
# numeric claims
# ---------------------------------------------------------------------------
def _measured_vs_formula(dps: int = 40, cases: Sequence[str] | None = None) -> Verdict:
    """(21) and (25) (corrected) against zeta, ||u||^2, ||w||^2 measured on simulated u, W
    (d0 = 1 suite cases), at t in {0, t_c/10, t_c, 10 t_c}; dps - 10 digits asked."""
    import numerics
    from solvable.suites import XU_ZIYIN_SUITE

    tol = Tolerance.digits(dps - 10, "simulation at dps + 20 digits vs closed-form alpha(t)")
    selected = [c for c in XU_ZIYIN_SUITE if c.setup.d0 == 1 and (cases is None or c.name in cases)]
    worst, where = 0.0, ""
    for case in selected:
        traj = xu_ziyin.closed_form(case.setup, case.u0, case.W0, dps=dps)
        k = traj._data
        with mpmath.workdps(dps + 10):
            times = [mpmath.mpf(0), traj.t_c / 10, traj.t_c, 10 * traj.t_c]
        states = numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=dps)
        alphas = traj.sample(times).alpha
        with mpmath.workdps(dps + 10):
            d = len(case.u0)
            x = mpmath.mpf(case.setup.x[0])
            P = mpmath.fsum(v * v for v in k["p0"]) / d
            Q = mpmath.fsum(v * v for v in k["q0"]) / d
            spq = mpmath.fsum(a * b for a, b in zip(k["p0"], k["q0"], strict=True))
            eu, ew = k["eta_u"], k["eta_w"]
            for s, a, t in zip(states, alphas, times, strict=True):
                u = list(s.u)
                w = [row[0] for row in s.W]
                # measured directly on the weights (w_i = W_i1; with x < 0 the sign of w
                # flips relative to W x, so compare cos(u, w) = sign(x) cos(u, W x))
                uu = mpmath.fsum(v * v for v in u)
                ww = mpmath.fsum(v * v for v in w)
                zeta_m = mpmath.fsum(a_ * b_ for a_, b_ in zip(u, w, strict=True)) / mpmath.sqrt(
                    uu * ww
                )
                zeta_f = (
                    mpmath.sign(x)
                    * (a * P - Q / a)
                    / mpmath.sqrt((a * P + Q / a) ** 2 - (2 * spq / d) ** 2)
                )
                nu = (d * (a * P + Q / a) - 2 * spq) / ew
                nw = (d * (a * P + Q / a) + 2 * spq) / eu / x**2 * (k["rho"] ** 2)
                for name, got, exact in (
                    ("zeta", zeta_m, zeta_f), ("||u||^2", uu, nu), ("||w||^2", ww, nw),
                ):  # fmt: skip
                    err = error_in_units([got], [exact], tol)
                    if err > worst:
                        worst, where = err, f"{case.name}: {name} at t={mpmath.nstr(t, 5)}"
    status = "confirmed" if worst <= 1 else "failed"
    return Verdict(
        status,
        f"{len(selected)} d0 = 1 cases x 4 times, measured on simulated weights; "
        f"worst {worst:.2g} tolerances{f' ({where})' if where else ''}",
        max_error=worst,
        tolerance=tol,
    )


_RESCALING_CASES = {
    # (eta, gamma, y, u0, W0) realising each branch of Section 2.3 (d = 2, d0 = 1, x = 1)
    "increase: P > Q, alpha_+ > 1": ("1", "1", "3", ("1", "0.5"), (("0.8",), ("0.6",))),
    "increase: P < Q, alpha_+ < 1": ("1", "1", "-3", ("1", "0.5"), (("-0.8",), ("-0.6",))),
    "decrease: P > Q, sqrt(Q/P) <= alpha_+ < 1": (
        "1", "1", "0.5", ("1", "0.5"), (("0.8",), ("0.6",))),
    "decrease: P < Q, 1 < alpha_+ <= sqrt(Q/P)": (
        "1", "1", "-0.5", ("1", "0.5"), (("-0.8",), ("-0.6",))),
    "decrease then increase: P > Q, alpha_+ < sqrt(Q/P)": (
        "1", "1", "-0.3", ("1", "0.5"), (("0.8",), ("0.6",))),
    "decrease then increase: P < Q, alpha_+ > sqrt(Q/P)": (
        "1", "1", "0.3", ("1", "0.5"), (("-0.8",), ("-0.6",))),
    "unchanged: alpha_+ = 1": ("1", "1", "1.1", ("1", "0.5"), (("0.8",), ("0.6",))),
}  # fmt: skip


def _rescaling_cases(dps: int = 30) -> Verdict:
    """Section 2.3's cases, on simulated trajectories: the pattern of ||u(t)||^2 (and
    ||w||^2) on a grid of 40 times up to 10 t_c matches the case's prediction, and the
    case's condition holds for the closed form's P, Q, alpha_+."""
    import numerics

    bad = []
    for label, (eta, gamma, y, u0, W0) in _RESCALING_CASES.items():
        setup = xu_ziyin.Setup(eta, eta, gamma, ("1",), y)
        traj = xu_ziyin.closed_form(setup, u0, W0, dps=dps)
        P, Q, ap = traj.P, traj.Q, traj.alpha_plus
        with mpmath.workdps(dps + 10):
            root = mpmath.sqrt(Q / P)
            ok_cond = {
                "increase: P > Q, alpha_+ > 1": P > Q and ap > 1,
                "increase: P < Q, alpha_+ < 1": P < Q and ap < 1,
                "decrease: P > Q, sqrt(Q/P) <= alpha_+ < 1": P > Q and root <= ap < 1,
                "decrease: P < Q, 1 < alpha_+ <= sqrt(Q/P)": P < Q and 1 < ap <= root,
                "decrease then increase: P > Q, alpha_+ < sqrt(Q/P)": P > Q and ap < root,
                "decrease then increase: P < Q, alpha_+ > sqrt(Q/P)": P < Q and ap > root,
                "unchanged: alpha_+ = 1": ap == 1,
            }[label]
            times = [traj.t_c * mpmath.mpf(j) / 4 for j in range(41)]
        states = numerics.simulate(setup, u0, W0, times, method="mpmath", dps=dps)
        with mpmath.workdps(dps + 10):
            norms = [mpmath.fsum(v * v for v in s.u) for s in states]
            diffs = [b - a for a, b in itertools.pairwise(norms)]
        signs = [1 if dlt > 0 else -1 for dlt in diffs]
        changes = sum(1 for a, b in itertools.pairwise(signs) if a != b)
        if label.startswith("unchanged"):
            ok = all(dlt == 0 for dlt in diffs)
        elif label.startswith("increase"):
            ok = all(sg > 0 for sg in signs)
        elif label.startswith("decrease then"):
            ok = signs[0] < 0 and signs[-1] > 0 and changes == 1
        else:
            ok = all(sg < 0 for sg in signs)
        if not (ok and ok_cond):
            bad.append(label)
    if bad:
        return Verdict("failed", "pattern or condition not met: " + "; ".join(bad))
    return Verdict(
        "confirmed",
        f"{len(_RESCALING_CASES)} cases: ||u(t)||^2 of the simulated flow at 41 times "
        "follows each predicted pattern",
        max_error=0.0,
        tolerance=None,
    )


def _alignment_direction(dps: int = 30) -> Verdict:
    """Section 2.2: zeta(t) is monotone, increasing iff alpha_+ > 1 (learning by
    alignment), decreasing iff alpha_+ < 1 (by disalignment); measured on simulated
    weights of the two d0 = 1 suite cases built for it."""
    import numerics
    from solvable.suites import xu_ziyin_case

    bad = []
    for name, expect in (("d0_1_align", 1), ("d0_1_disalign", -1)):
        case = xu_ziyin_case(name)
        traj = xu_ziyin.closed_form(case.setup, case.u0, case.W0, dps=dps)
        with mpmath.workdps(dps + 10):
            times = [traj.t_c * mpmath.mpf(j) / 4 for j in range(41)]
        states = numerics.simulate(case.setup, case.u0, case.W0, times, method="mpmath", dps=dps)
        zetas = [s.alignment for s in states]
        with mpmath.workdps(dps + 10):
            steps = [b - a for a, b in itertools.pairwise(zetas)]
        direction = 1 if traj.alpha_plus > 1 else -1
        if direction != expect or not all((1 if s > 0 else -1) == expect for s in steps):
            bad.append(name)
    if bad:
        return Verdict("failed", "zeta not monotone in the predicted direction: " + ", ".join(bad))
    return Verdict(
        "confirmed",
        "zeta monotone in the direction of sign(alpha_+ - 1) on 41 times per case",
        max_error=0.0,
    )


def _oracle(dps: int = 30, cases: Sequence[str] | None = None) -> Verdict:
    from solvable import testing

    return testing.xu_ziyin_agreement(dps=dps, cases=cases)


# ---------------------------------------------------------------------------
def claims() -> list[Theorem]:
    """Every claim of seed 001, Section 2 and Appendix A.1, in paper order."""

    def T(id_, eqs, statement, fn, kind="symbolic"):
        return Theorem(f"xu_ziyin.{id_}", f"{SEED} {eqs}", statement, kind, fn)

    laws = conservation_claims("xu_ziyin")
    return [
        T("eq_31", "eqs. (4), (5), (31)",
          "The gradient flow of L = (gamma u^T W x - y)^2 is eq. (31).", _eq31),
        *laws,
        T("eq_37", "eq. (37)",
          "dp_i/dt = -2 gamma rho sqrt(eta_u eta_w) (f - y) p_i, dq_i/dt = +... q_i.", _eq37),
        T("eq_39", "eq. (39)",
          "alpha = p_i^2/p_i(0)^2 obeys d alpha/dt = -4 (A alpha^2 - B alpha - C).", _eq39),
        T("theorem_1", "Theorem 1, eqs. (8)-(12)",
          "alpha(t) = (alpha_+ + xi alpha_-)/(1 - xi) solves (39) with alpha(0) = 1 "
          "(alpha_- = (D - B)/(2A) >= 0, see errata (12)).", _theorem_1),
        T("alpha_relations", "text after (14), eq. (12)",
          "alpha_+ alpha_- = Q/P, alpha_+ - alpha_- = B/A, alpha_+ + alpha_- = D/A.",
          _alpha_relations),
        T("eq_13", "eq. (13)",
          "u_i = (p_i - q_i)/sqrt(eta_w), (Wx)_i = rho (p_i + q_i)/sqrt(eta_u).", _eq13),
        T("eq_14", "eq. (14) (corrected, see errata)",
          "W(t) = W(0) + (Delta p + Delta q) x^T/(sqrt(eta_u) rho) = W(0)(I - x x^T/rho^2) "
          "+ (W(t)x) x^T/rho^2: only the x-direction of W moves.", _eq14),
        T("eq_15_16", "eqs. (15), (16)",
          "alpha(t) -> alpha_+ (a root of (39)): p_i -> p_i(0) sqrt(alpha_+), "
          "q_i -> q_i(0)/sqrt(alpha_+).", _eq15_16),
        T("orthogonal_output", "Section 2.1, after (16)",
          "For m orthogonal to x, W(t) m = W(0) m: d(Wm)/dt = -2 eta_w gamma (f-y)(x.m) u.",
          _orthogonal),
        T("eq_17", "eqs. (11), (17)",
          "t_c^-2 = eta_u eta_w gamma^2 rho^2 y^2 + 4 rho^4 (gamma^2 d)^2 P Q.", _eq17),
        T("eq_18", "eq. (18) (corrected, see errata)",
          "df/dt = -2 K (f - y) with K = gamma^2 x^T (eta_u W^T W + eta_w ||u||^2 I) x.", _eq18),
        T("eq_18_19_pq", "eqs. (18), (19)",
          "K = 2 gamma^2 rho^2 d (P alpha + Q/alpha); both evaluated forms of f equal (19).",
          _eq18_pq),
        T("eq_19", "eq. (19)",
          "gamma u_i (W x)_i = gamma rho (p_i^2 - q_i^2)/sqrt(eta_u eta_w), so "
          "f = (gamma d rho/sqrt(eta_u eta_w)) (P alpha - Q/alpha).", _eq19_unit),
        T("eq_19_limit", "text after (19)",
          "f(infinity) = c (alpha_+ P - Q/alpha_+) = y (P, Q > 0; see errata for Q = 0).",
          _eq19_limit),
        T("eq_21", "eq. (21)",
          "zeta = (alpha P - Q/alpha)/sqrt((alpha P + Q/alpha)^2 - (2/d sum p_i q_i)^2) "
          "(d0 = 1).", _eq21),
        T("eq_22", "eq. (22) (corrected, see errata)",
          "If p_i = C q_i for all i, zeta^2 = 1 for all t.", _eq22),
        T("eq_23", "eq. (23)",
          "d zeta/d alpha = (P + Q/alpha^2)(4PQ - S^2)/[(alpha P + Q/alpha)^2 - S^2]^(3/2), "
          "and 4PQ - S^2 = (4/d^2) sum_{i<j} (p_i q_j - p_j q_i)^2 >= 0.", _eq23),
        T("zeta_monotone", "Section 2.2, after (23)",
          "d alpha/dt = (alpha_+ - 1) x (positive): alpha moves monotonically from 1 to "
          "alpha_+, so zeta is monotone in t.", _zeta_monotone),
        T("eq_24", "eq. (24)", "(24) is alpha_+ > 1.", _eq24),
        T("eq_24_q_ge_p", "text after (24)",
          "For y > 0, (24) holds whenever Q >= P.", _eq24_q_ge_p),
        T("eq_25_26", "eqs. (25), (26) (corrected, see errata)",
          "||u||^2 = (d(alpha P + Q/alpha) - 2 sum p q)/eta_w, ||w||^2 = (... + ...)/eta_u; "
          "d||u||^2/d alpha = d(P - Q/alpha^2)/eta_w, of the sign of zeta.", _eq25_26),
        T("rescaling_sign", "Section 2.3",
          "d||u||^2/dt = (alpha_+ - 1)(alpha^2 P - Q) x (positive).", _rescaling_sign),
        T("proposition_1", "Proposition 1, eqs. (44)-(48)",
          "For P = 0: q_i(t)^2/q_i(0)^2 = alpha' xi'/(1 - xi') solves (48) from 1.",
          _proposition_1),
        T("proposition_1_saddle", "Appendix A.1 after (48)",
          "For P = 0 and y > 0, q_i(t) -> 0: the flow converges to the saddle.",
          _proposition_1_saddle),
        T("eq_49", "eq. (49)",
          "As B/sqrt(AC) -> 0, alpha_+ -> sqrt(Q/P), which is 1 when P = Q.", _eq49),
        T("stable_alpha", "eqs. (8)-(12) (evaluation form)",
          "log alpha = log1p(G tau/(1 + M tau)) = log1p(N tau) - log1p(M tau), "
          "tau = expm1(4Dt)/(2D), equals the textbook alpha(t); D +- B branches are exact.",
          _stable_alpha),
        T("stable_residual", "eqs. (19), (37) (evaluation form)",
          "f(t) - y = (f0 - y) e^{4Dt} / ((1 + N tau)(1 + M tau)).", _stable_residual),
        T("stable_units", "eqs. (8), (9), (13) (evaluation form)",
          "Both branches of u(t) and W(t)x equal eq. (13) with (8), (9).", _stable_units),
        T("stable_alignment", "eq. (21) (evaluation form)",
          "F/sqrt(F^2 + 4 Lambda), Lambda = sum_{i<j}(p_i q_j - p_j q_i)^2, is (21).",
          _stable_alignment),
        T("theorem_1_oracle", "Theorem 1, Proposition 1",
          "Closed form and the simulated raw flow (mpmath Taylor, same dps) agree to dps - 5 "
          "digits in u, W, f at t in {0, t_c/10, t_c, 10 t_c} over the suite.",
          _oracle, kind="numeric"),
        T("eq_21_25_measured", "eqs. (21), (25)",
          "zeta, ||u||^2, ||w||^2 measured on simulated weights equal (21), (25) (corrected) "
          "to dps - 10 digits.", _measured_vs_formula, kind="numeric"),
        T("alignment_direction", "Section 2.2",
          "Learning by alignment (alpha_+ > 1: zeta increases) and disalignment "
          "(alpha_+ < 1: zeta decreases), on simulated trajectories.",
          _alignment_direction, kind="numeric"),
        T("rescaling_cases", "Section 2.3, cases (1)-(4)",
          "The norms increase / decrease / decrease-then-increase as the case analysis says, "
          "on simulated trajectories.", _rescaling_cases, kind="numeric"),
    ]  # fmt: skip
