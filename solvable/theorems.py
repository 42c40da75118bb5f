"""The registry of every claim the package checks, one typed record per claim.

``registry()`` lists :class:`Theorem` records; ``Theorem.verify()`` returns a
:class:`Verdict` whose ``status`` is ``"proved"`` (a sympy residual simplified
to exactly 0), ``"confirmed"`` (numeric agreement within the stated tolerance;
``max_error`` is the worst error in units of that tolerance) or ``"failed"``.
The tests are parametrised from this registry, and ``solvable verify`` runs it.
"""

from __future__ import annotations

import fnmatch
import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import sympy as sp

from solvable import xu_ziyin
from solvable._special import elementary
from solvable.tolerance import Tolerance

__all__ = ["Theorem", "Verdict", "prove_zero", "registry", "select"]

Status = Literal["proved", "confirmed", "failed"]
SEED_XU_ZIYIN = "001_070589003213e0cf.txt"


@dataclass(frozen=True)
class Verdict:
    """Outcome of one verification.

    ``residuals`` (symbolic claims) are the simplified residuals, all ``0`` when
    proved; ``max_error`` (numeric claims) is in units of ``tolerance``.
    """

    status: Status
    detail: str
    max_error: float | None = None
    tolerance: Tolerance | None = None
    residuals: tuple[sp.Expr, ...] = ()
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status != "failed"


@dataclass(frozen=True)
class Theorem:
    """One claim of a paper: ``id``, ``source`` (seed file and equations),
    ``statement`` and how it is verified (``kind``: ``"symbolic"`` or ``"numeric"``)."""

    id: str
    source: str
    statement: str
    kind: Literal["symbolic", "numeric"]
    _verify: Callable[..., Verdict] = field(repr=False)

    def verify(self, **options: Any) -> Verdict:
        """Run the check; options (e.g. ``dps``) reach numeric checks."""
        start = time.perf_counter()
        try:
            verdict = self._verify(**options) if self.kind == "numeric" else self._verify()
        except Exception as exc:  # a crash is a failed verification, reported, not raised
            verdict = Verdict("failed", f"{type(exc).__name__}: {exc}")
        return Verdict(
            verdict.status, verdict.detail, verdict.max_error, verdict.tolerance,
            verdict.residuals, time.perf_counter() - start,
        )  # fmt: skip


def prove_zero(*residuals: sp.Expr, assumptions: dict[sp.Symbol, sp.Expr] | None = None) -> Verdict:
    """``proved`` when every residual simplifies to exactly 0 (after rewriting the
    stable special functions into exp/log and substituting ``assumptions``)."""
    simplified = []
    for r in residuals:
        r = elementary(sp.sympify(r))
        if assumptions:
            r = r.subs(assumptions)
        simplified.append(sp.simplify(r))
    bad = [r for r in simplified if r != 0]
    if bad:
        return Verdict("failed", f"non-zero residual: {bad[0]}", residuals=tuple(simplified))
    n = len(simplified)
    return Verdict(
        "proved", f"{n} residual{'s' * (n > 1)} simplify to 0", residuals=tuple(simplified)
    )


# ---------------------------------------------------------------------------
# seed 001: Xu & Ziyin, Theorem 1 and its derivation (Appendix A.1)
# ---------------------------------------------------------------------------
def _unit(d0: int = 3) -> tuple[xu_ziyin.UnitFlow, sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """Flow (31) for one unit, with v = w.x, rho = ||x||, and p, q of eq. (6)."""
    S = xu_ziyin.symbolic()
    F = xu_ziyin.unit_flow(d0)
    v = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    rho = sp.sqrt(sum(xj**2 for xj in F.x))
    sub = {S.rho: rho, S.u: F.u, S.v: v}
    return F, v, rho, S.paper["p"].subs(sub), S.paper["q"].subs(sub)


def _eq31() -> Verdict:
    # -eta dL/dtheta of the loss (4), d = 2, d0 = 2, equals eq. (31) with r = f - y.
    S = xu_ziyin.symbolic()
    d, d0 = 2, 2
    u = sp.symbols(f"u0:{d}", real=True)
    W = [sp.symbols(f"w{i}_0:{d0}", real=True) for i in range(d)]
    x = sp.symbols(f"x0:{d0}", real=True)
    L = xu_ziyin.loss(u, W, x, S.y, S.gamma)
    r = xu_ziyin.network_output(u, W, x, S.gamma) - S.y
    res = []
    for i in range(d):
        v_i = sum(W[i][j] * x[j] for j in range(d0))
        res.append(-S.eta_u * sp.diff(L, u[i]) - (-2 * S.eta_u * S.gamma * v_i * r))
        for j in range(d0):
            res.append(-S.eta_w * sp.diff(L, W[i][j]) - (-2 * S.eta_w * S.gamma * u[i] * x[j] * r))
    return prove_zero(*res)


def _eq32() -> Verdict:
    S = xu_ziyin.symbolic()
    F, *_ = _unit()
    law = S.eta_u * sum(wj**2 for wj in F.w) - S.eta_w * F.u**2
    return prove_zero(F.ddt(law))


def _eq34() -> Verdict:
    F, v, rho, _, _ = _unit()
    law = sum(wj**2 for wj in F.w) - v**2 / rho**2
    return prove_zero(F.ddt(law))


def _eq33() -> Verdict:
    F, *_ = _unit()
    return prove_zero(F.ddt(F.w[0] / F.x[0] - F.w[1] / F.x[1]))


def _eq36() -> Verdict:
    F, _v, _rho, p, q = _unit()
    return prove_zero(F.ddt(p * q))


def _eq37() -> Verdict:
    S = xu_ziyin.symbolic()
    F, _v, rho, p, q = _unit()
    k = S.coefficients["k"].subs(S.rho, rho)
    return prove_zero(F.ddt(p) + k * F.r * p, F.ddt(q) - k * F.r * q)


def _eq38() -> Verdict:
    # two units share the residual r; by (37) each p_i obeys dp_i/dt = -k r p_i.
    k, r = sp.Symbol("k", positive=True), sp.Symbol("r", real=True)
    p1, p2 = sp.symbols("p_1 p_2", positive=True)
    dp1, dp2 = -k * r * p1, -k * r * p2
    ratio_dot = (dp1 * p2 - p1 * dp2) / p2**2
    return prove_zero(ratio_dot)


def _eq19_unit() -> Verdict:
    # gamma u_i v_i = gamma rho (p_i^2 - q_i^2) / sqrt(eta_u eta_w): summing gives (19).
    S = xu_ziyin.symbolic()
    p, q = S.paper["p"], S.paper["q"]
    lhs = S.gamma * S.u * S.v
    rhs = S.gamma * S.rho * (p**2 - q**2) / sp.sqrt(S.eta_u * S.eta_w)
    return prove_zero(lhs - rhs)


def _eq39() -> Verdict:
    # alpha = p_i^2/p_i(0)^2 with dp_i/dt = -k r p_i and r = c(P alpha - Q/alpha) - y
    # gives d alpha/dt = -2 k alpha r = -4(A alpha^2 - B alpha - C).
    S = xu_ziyin.symbolic()
    co = S.coefficients
    a = S.alpha
    r = co["c"] * (S.P * a - S.Q / a) - S.y
    rhs = S.riccati_rhs(a).subs({S.A: co["A"], S.B: co["B"], S.C: co["C"]})
    return prove_zero(-2 * co["k"] * a * r - rhs)


def _theorem_1() -> Verdict:
    S = xu_ziyin.symbolic()
    alpha = S.paper["alpha"]
    D = sp.sqrt(S.B**2 + 4 * S.A * S.C)
    ode = sp.diff(alpha, S.t) - S.riccati_rhs(alpha)
    return prove_zero(ode, alpha.subs(S.t, 0) - 1, assumptions={S.D: D})


def _t_infinity() -> Verdict:
    # eq. (15): alpha(t) -> alpha_plus, i.e. alpha_plus is the stable root of (39)
    S = xu_ziyin.symbolic()
    D = sp.sqrt(S.B**2 + 4 * S.A * S.C)
    ap = S.paper["alpha_plus"]
    am = S.paper["alpha_minus"]
    return prove_zero(S.riccati_rhs(ap), ap * am - S.C / S.A, assumptions={S.D: D})


def _proposition_1() -> Verdict:
    # P = 0: beta = q_i^2/q_i(0)^2 obeys d beta/dt = -4 beta (C beta + B) (from (48)).
    S = xu_ziyin.symbolic()
    beta = S.paper["beta"].subs({S.B: S.coefficients["B"], S.C: S.coefficients["C"]})
    B, C = S.coefficients["B"], S.coefficients["C"]
    ode = sp.diff(beta, S.t) + 4 * beta * (C * beta + B)
    return prove_zero(ode, beta.subs(S.t, 0) - 1)


def _stable_alpha() -> Verdict:
    S = xu_ziyin.symbolic()
    st = S.stable
    A, B, C, t = S.A, S.B, S.C, S.t
    D = sp.sqrt(B**2 + 4 * A * C)
    N, M = D + B + 2 * C, D - B + 2 * A
    tau = sp.exp(st["lam"])
    textbook = S.paper["alpha"].subs(S.D, D)
    vals = {S.N: N, S.M: M, S.D: D, S.G: 2 * (B + C - A)}
    res = [
        elementary(tau).subs(S.D, D) - (sp.exp(4 * D * t) - 1) / (2 * D),
        (1 + N * (sp.exp(4 * D * t) - 1) / (2 * D)) / (1 + M * (sp.exp(4 * D * t) - 1) / (2 * D))
        - textbook,
    ]
    # each branch of ell is log(alpha)
    alpha_stable = (1 + N * tau) / (1 + M * tau)
    for expr, _cond in st["ell"].args:
        res.append(sp.exp(elementary(expr).subs(vals)) - elementary(alpha_stable).subs(vals))
    for key, exact in (("D_plus", D + B), ("D_minus", D - B)):
        for expr, _cond in st[key].args:
            res.append(expr.subs(S.D, D) - exact)
    return prove_zero(*res)


def _stable_residual() -> Verdict:
    # f(t) - y = (f0 - y) exp(4 D t) / ((1 + N tau)(1 + M tau)) solves d alpha/dt = -2 k alpha r
    # with r(0) = f0 - y; -k (f0 - y) = G = N - M.
    S = xu_ziyin.symbolic()
    st = S.stable
    A, B, C, t = S.A, S.B, S.C, S.t
    D = sp.sqrt(B**2 + 4 * A * C)
    N, M = D + B + 2 * C, D - B + 2 * A
    k = sp.Symbol("k", positive=True)
    f0 = S.y - 2 * (B + C - A) / k
    vals = {S.N: N, S.M: M, S.D: D, S.f0: f0}
    tau = (sp.exp(4 * D * t) - 1) / (2 * D)
    alpha = (1 + N * tau) / (1 + M * tau)
    r = elementary(st["residual"]).subs(vals) - S.y
    r = r.subs(S.y, 0)  # r does not depend on y once f0 - y is substituted
    return prove_zero(sp.diff(alpha, t) + 2 * k * alpha * r)


def _stable_units() -> Verdict:
    # both branches of u(t), v(t) = W(t) x equal eq. (13) and the inverse of (6), with p, q
    # from (8), (9)
    S = xu_ziyin.symbolic()
    st = S.stable
    p0 = S.paper["p"].subs({S.u: S.u0, S.v: S.v0})
    q0 = S.paper["q"].subs({S.u: S.u0, S.v: S.v0})
    e = sp.exp(S.ell / 2)
    u_t = (p0 * e - q0 / e) / sp.sqrt(S.eta_w)
    v_t = S.rho * (p0 * e + q0 / e) / sp.sqrt(S.eta_u)
    res = []
    for key, exact in (("u_t", u_t), ("v_t", v_t)):
        for expr, _cond in st[key].args:
            expr = elementary(expr)
            # inner Piecewise (p0 = 0 / q0 = 0 guards) reduce to their generic branch
            expr = expr.replace(lambda z: isinstance(z, sp.Piecewise), lambda z: z.args[-1][0])
            res.append(expr.subs({S.p0: p0, S.q0: q0}) - exact)
    return prove_zero(*(sp.expand(r.rewrite(sp.exp)) for r in res))


def _eq14() -> Verdict:
    # d0 = 2: both forms of W(t) agree, with W(t) x = rho (p + q)/sqrt(eta_u) (inverse of (6))
    S = xu_ziyin.symbolic()
    F = xu_ziyin.unit_flow(2)
    rho2 = sum(xj**2 for xj in F.x)
    rho = sp.sqrt(rho2)
    p0, q0, p1, q1 = sp.symbols("p_0 q_0 p_t q_t", real=True)
    v0 = sum(wj * xj for wj, xj in zip(F.w, F.x, strict=True))
    # p0 + q0 = sqrt(eta_u) v0 / rho fixes the initial pair
    sub = {q0: sp.sqrt(S.eta_u) * v0 / rho - p0}
    v_t = rho * (p1 + q1) / sp.sqrt(S.eta_u)
    res = []
    for j, xj in enumerate(F.x):
        paper = F.w[j] + (p1 - p0 + q1 - q0) * xj / (sp.sqrt(S.eta_u) * rho)
        perp = F.w[j] - v0 * xj / rho2 + v_t * xj / rho2
        res.append((paper - perp).subs(sub))
    return prove_zero(*res)


def _ntk_pq() -> Verdict:
    # K per unit: gamma^2 (eta_u v_i^2 + eta_w rho^2 u_i^2) = 2 gamma^2 rho^2 (p_i^2 + q_i^2);
    # with sum p_i^2 = d P alpha, sum q_i^2 = d Q/alpha the evaluated forms of K and f
    # (stable["ntk"], both branches of stable["f"]) equal eqs. (18), (19).
    S = xu_ziyin.symbolic()
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


def _oracle(dps: int = 30, cases: Sequence[str] | None = None) -> Verdict:
    from solvable import testing

    return testing.xu_ziyin_agreement(dps=dps, cases=cases)


@functools.cache
def _registry() -> tuple[Theorem, ...]:
    s = SEED_XU_ZIYIN

    def T(id_, eqs, statement, fn, kind="symbolic"):
        return Theorem(f"xu_ziyin.{id_}", f"{s} {eqs}", statement, kind, fn)

    return (
        T("eq_31", "eqs. (4), (5), (31)",
          "The gradient flow of L = (gamma u^T W x - y)^2 is eq. (31).", _eq31),
        T("eq_32", "eq. (32)", "eta_u ||w_i||^2 - eta_w u_i^2 is conserved.", _eq32),
        T("eq_33", "eq. (33)", "w_ij/x_j - w_ij'/x_j' is conserved (x_j, x_j' != 0).", _eq33),
        T("eq_34", "eq. (34)", "||w_i||^2 - (w_i.x)^2/||x||^2 is conserved.", _eq34),
        T("eq_36", "eqs. (35), (36)", "p_i q_i is conserved (rho = ||x||).", _eq36),
        T("eq_37", "eq. (37)",
          "dp_i/dt = -2 gamma rho sqrt(eta_u eta_w) (f - y) p_i, dq_i/dt = +... q_i.", _eq37),
        T("eq_38", "eq. (38)", "p_i/p_i' is conserved.", _eq38),
        T("eq_19_unit", "eq. (19)",
          "gamma u_i (W x)_i = gamma rho (p_i^2 - q_i^2)/sqrt(eta_u eta_w), so "
          "f = (gamma d rho/sqrt(eta_u eta_w)) (P alpha - Q/alpha).", _eq19_unit),
        T("eq_39", "eq. (39)",
          "alpha = p_i^2/p_i(0)^2 obeys d alpha/dt = -4 (A alpha^2 - B alpha - C).", _eq39),
        T("theorem_1", "Theorem 1, eqs. (8)-(12)",
          "alpha(t) = (alpha_+ + xi alpha_-)/(1 - xi) solves (39) with alpha(0) = 1 "
          "(alpha_- = (D - B)/(2A) >= 0, see errata (12)).", _theorem_1),
        T("eq_15_16", "eqs. (15), (16), text after (14)",
          "alpha_plus is a root of (39) (so alpha(infinity) = alpha_plus) and "
          "alpha_+ alpha_- = Q/P.", _t_infinity),
        T("proposition_1", "Proposition 1, eqs. (44)-(48)",
          "For P = 0: q_i(t)^2/q_i(0)^2 = alpha' xi'/(1 - xi') solves (48) from 1.",
          _proposition_1),
        T("stable_alpha", "eqs. (8)-(12) (evaluation form)",
          "log alpha = log1p(G tau/(1 + M tau)) = log1p(N tau) - log1p(M tau), "
          "tau = expm1(4Dt)/(2D), equals the textbook alpha(t); D +- B branches are exact.",
          _stable_alpha),
        T("stable_residual", "eqs. (19), (37) (evaluation form)",
          "f(t) - y = (f0 - y) e^{4Dt} / ((1 + N tau)(1 + M tau)).", _stable_residual),
        T("stable_units", "eqs. (8), (9), (13), (14) (evaluation form)",
          "Both branches of u(t) and W(t)x equal eq. (13) and the inverse of (6).", _stable_units),
        T("eq_14", "eq. (14) (corrected, see errata)",
          "W(t) = W(0) + (Delta p + Delta q) x^T/(sqrt(eta_u) rho) = W(0)(I - x x^T/rho^2) "
          "+ (W(t)x) x^T/rho^2: only the x-direction of W moves.", _eq14),
        T("eq_18_pq", "eqs. (18) corrected, (19)",
          "K(x,x) = gamma^2 (eta_u ||Wx||^2 + eta_w ||u||^2 ||x||^2) "
          "= 2 gamma^2 rho^2 d (P alpha + Q/alpha); both evaluated forms of f equal (19).",
          _ntk_pq),
        T("theorem_1_oracle", "Theorem 1, Proposition 1",
          "Closed form and the simulated raw flow (mpmath Taylor, same dps) agree to dps - 5 "
          "digits in u, W, f at t in {0, t_c/10, t_c, 10 t_c} over the suite.",
          _oracle, kind="numeric"),
    )  # fmt: skip


def registry() -> list[Theorem]:
    """Every registered claim, in a stable order."""
    return list(_registry())


def select(pattern: str | None) -> list[Theorem]:
    """Claims whose id matches ``pattern`` (shell glob, or a substring)."""
    thms = registry()
    if not pattern:
        return thms
    glob = any(c in pattern for c in "*?[")
    return [t for t in thms if (fnmatch.fnmatch(t.id, pattern) if glob else pattern in t.id)]
