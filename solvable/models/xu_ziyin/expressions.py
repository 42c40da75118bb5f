r"""The sympy source of seed 001: every formula of Theorem 1 and Proposition 1 once.

Xu & Ziyin (seed ``001_070589003213e0cf.txt``), Section 2.1, Theorem 1, Proposition 1 and
Appendix A.1: :func:`symbolic` returns the :class:`Symbols` with the textbook forms
(``paper``, with the corrected conventions of the package docstring: ``rho = ||x||``,
``alpha_minus >= 0``) and the forms used for evaluation (``stable``: free of cancellation and
overflow at every ``t`` in ``[0, oo]``, early in ``tau = expm1(4Dt)/(2D)``, late in
``s = 1/tau``), each proved equal to the textbook form by a claim.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import sympy as sp

from solvable._core.backends import expm1, exprel, log1p


# ---------------------------------------------------------------------------
# Symbolic layer: every formula once, as a sympy expression
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Symbols:
    """The sympy symbols and expressions of Theorem 1 / Proposition 1.

    ``paper`` holds the textbook forms (with the corrected conventions of the
    module docstring), ``stable`` the forms used for evaluation.  Indexed
    quantities (``u_i``, ``v_i = (W x)_i``, ``p_i``, ``q_i``) are written for one
    generic hidden unit ``i``.
    """

    # parameters
    eta_u: sp.Symbol
    eta_w: sp.Symbol
    gamma: sp.Symbol
    rho: sp.Symbol
    y: sp.Symbol
    d: sp.Symbol
    P: sp.Symbol
    Q: sp.Symbol
    t: sp.Symbol
    # one hidden unit
    u: sp.Symbol
    v: sp.Symbol
    p0: sp.Symbol
    q0: sp.Symbol
    u0: sp.Symbol
    v0: sp.Symbol
    ell: sp.Symbol
    alpha: sp.Symbol
    # reduced-dynamics coefficients, as symbols and as expressions
    A: sp.Symbol
    B: sp.Symbol
    C: sp.Symbol
    D: sp.Symbol
    G: sp.Symbol
    N: sp.Symbol
    M: sp.Symbol
    f0: sp.Symbol
    F: sp.Symbol
    Lam: sp.Symbol
    Sp: sp.Symbol
    Sq: sp.Symbol
    R: sp.Symbol
    # sum_i p_i(0) q_i(0) (conserved, eq. (36)); alpha_+ and alpha_- as symbols; eq. (14)
    Spq: sp.Symbol
    ap: sp.Symbol
    am: sp.Symbol
    w0: sp.Symbol
    xj: sp.Symbol
    pt: sp.Symbol
    qt: sp.Symbol
    coefficients: dict[str, sp.Expr] = field(repr=False)
    paper: dict[str, sp.Expr] = field(repr=False)
    stable: dict[str, sp.Expr] = field(repr=False)

    def riccati_rhs(self, alpha: sp.Expr) -> sp.Expr:
        """Right side of ``d alpha/dt = -4 (A alpha^2 - B alpha - C)`` (from eq. (39))."""
        return -4 * (self.A * alpha**2 - self.B * alpha - self.C)


@functools.cache
def symbolic() -> Symbols:
    """The sympy expressions of Theorem 1 and Proposition 1 (seed 001).

    Keys of ``paper``: ``p``, ``q`` (eq. (6)), ``u``, ``v`` (eq. (13), and
    ``v = W x``), ``four_pq`` (``4 p_i q_i`` from eq. (35); the text after (21), corrected,
    at ``x = 1``), ``alpha_plus``, ``alpha_minus`` (eq. (12), corrected sign),
    ``t_c`` (eq. (11)), ``xi`` (eq. (10), corrected), ``alpha`` (the bracket of
    eqs. (8)-(9)), ``alpha_roots`` (the same bracket with the symbols ``ap``, ``am`` for
    alpha_+-), ``p_alpha``, ``q_alpha`` (eqs. (8), (9) as functions of ``alpha``), ``p_t``,
    ``q_t`` (eqs. (8), (9)), ``w_t`` (eq. (14), corrected: ``w_ij(t)`` from ``w0 = w_ij(0)``,
    ``xj = x_j`` and ``pt``, ``qt``), ``f`` (eq. (19)), ``zeta`` (eq. (21): the cosine
    between ``u`` and ``W x``, with ``Spq = sum_i p_i(0) q_i(0)``), ``norm_u2``,
    ``norm_w2`` (eq. (25) corrected: ``||u||^2`` and ``||W x||^2 / rho^2``, which is
    ``||w||^2`` for d0 = 1), ``alpha_prime``, ``xi_prime``, ``beta`` (Proposition 1,
    eqs. (45)-(47); ``q_i(t) = q_i(0) sqrt(beta)``), ``ntk`` (eq. (18) corrected, in p/q
    form).

    Keys of ``stable``: ``D_plus``, ``D_minus`` (``D +- B`` without
    cancellation), ``N``, ``M`` (``alpha(t) = (1 + N tau)/(1 + M tau)``,
    ``tau = expm1(4 D t) / (2 D)``, key ``tau``), ``s`` (``1/tau``, 0 at ``t = oo``), ``Es``
    (``e^{4Dt} s``), ``L_N``, ``L_M`` (``log(1 + N tau)``, ``log(1 + M tau)``), ``delta``
    (``alpha - 1``), ``ell`` (``log alpha``: early in ``tau``, late ``log((N + s)/(M + s))``,
    on the manifolds M = 0 / N = 0 ``+-L_N``/``L_M``), ``ell_inf`` (its ``t -> oo`` limit),
    ``residual`` (``f(t) - y``), ``residual_inf`` (its limit), ``u_t``, ``v_t``,
    ``p_t``, ``q_t``, ``alignment`` (eq. (21) as
    ``F / sqrt(F^2 + 4 Lambda)``, ``F_of_f`` gives ``F`` from ``f`` (symbol
    ``f0``)), the reported constants ``alpha_plus``, ``alpha_minus`` (in terms of ``N``,
    ``M``, ``D_plus``, ``D_minus``: their P -> 0 limits included), ``t_c``, ``alpha_prime``
    (``nan`` where ``Q = 0``), ``G`` (``N - M`` from the initial residual).
    """
    pos = {"positive": True}
    eta_u, eta_w, gamma, rho = sp.symbols("eta_u eta_w gamma rho", **pos)
    d = sp.Symbol("d", integer=True, positive=True)
    y = sp.Symbol("y", real=True)
    P, Q = sp.symbols("P Q", nonnegative=True)
    t = sp.Symbol("t", nonnegative=True)
    u, v, p0, q0, u0, v0, ell, f0 = sp.symbols("u v p0 q0 u0 v0 ell f0", real=True)
    alpha = sp.Symbol("alpha", positive=True)
    A, C, D, N, M = sp.symbols("A C D N M", nonnegative=True)
    B, G, F = sp.symbols("B G F", real=True)
    Lam = sp.Symbol("Lambda", nonnegative=True)
    # sum_i p_i(t)^2 = d P alpha, sum_i q_i(t)^2 = d Q / alpha, and the residual f - y
    Sp, Sq = sp.symbols("Sigma_p2 Sigma_q2", nonnegative=True)
    R = sp.Symbol("R", real=True)
    Spq = sp.Symbol("Sigma_pq", real=True)
    ap_, am_ = sp.symbols("alpha_p alpha_m", nonnegative=True)
    w0, xj, pt, qt = sp.symbols("w0 x_j p_t q_t", real=True)
    s = sp.sqrt(eta_u * eta_w)
    half = sp.Rational(1, 2)

    coefficients = {
        "A": gamma**2 * d * rho**2 * P,
        "B": gamma * rho * y * s,
        "C": gamma**2 * d * rho**2 * Q,
        "k": 2 * gamma * rho * s,  # d log p_i / dt = -k (f - y), eq. (37)
        "c": gamma * rho * d / s,  # f = c (P alpha - Q / alpha), eq. (19)
    }
    coefficients["D"] = sp.sqrt(B**2 + 4 * A * C)
    coefficients["G"] = -coefficients["k"] * (f0 - y)  # = 2 (B + C - A)

    # ---- textbook forms (corrected conventions) ----------------------------
    ap = (B + D) / (2 * A)
    am = (D - B) / (2 * A)
    xi_roots = (1 - ap_) / (1 + am_) * sp.exp(-4 * t * D)
    alpha_roots = (ap_ + xi_roots * am_) / (1 - xi_roots)
    roots = {ap_: ap, am_: am}
    alpha_t = alpha_roots.subs(roots)
    alpha_prime = B / C
    xi_prime = sp.exp(-4 * B * t) / (1 + alpha_prime)
    p_alpha, q_alpha = p0 * sp.sqrt(alpha), q0 / sp.sqrt(alpha)
    sum_pq = (alpha * P + Q / alpha, 2 * Spq / d)  # (alpha P + Q/alpha, (2/d) sum p_i q_i)
    paper = {
        "p": (sp.sqrt(eta_u) * v + sp.sqrt(eta_w) * rho * u) / (2 * rho),
        "q": (sp.sqrt(eta_u) * v - sp.sqrt(eta_w) * rho * u) / (2 * rho),
        "u": (p0 - q0) / sp.sqrt(eta_w),
        "v": rho * (p0 + q0) / sp.sqrt(eta_u),
        "four_pq": eta_u * v**2 / rho**2 - eta_w * u**2,
        "alpha_plus": ap,
        "alpha_minus": am,
        "t_c": 1 / D,
        "xi": xi_roots.subs(roots),
        "alpha": alpha_t,
        "alpha_roots": alpha_roots,
        "p_alpha": p_alpha,
        "q_alpha": q_alpha,
        "p_t": p_alpha.subs(alpha, alpha_t),
        "q_t": q_alpha.subs(alpha, alpha_t),
        "w_t": w0 + (pt - p0 + qt - q0) * xj / (sp.sqrt(eta_u) * rho),
        "f": coefficients["c"] * (P * alpha - Q / alpha),
        "zeta": (alpha * P - Q / alpha) / sp.sqrt(sum_pq[0] ** 2 - sum_pq[1] ** 2),
        "norm_u2": (d * sum_pq[0] - 2 * Spq) / eta_w,
        "norm_w2": (d * sum_pq[0] + 2 * Spq) / eta_u,
        "alpha_prime": alpha_prime,
        "xi_prime": xi_prime,
        "beta": alpha_prime * xi_prime / (1 - xi_prime),
        "ntk": 2 * gamma**2 * rho**2 * d * (P * alpha + Q / alpha),
    }

    # ---- stable forms -------------------------------------------------------
    D_plus = sp.Piecewise((D + B, B >= 0), (4 * A * C / (D - B), True))
    D_minus = sp.Piecewise((D - B, B <= 0), (4 * A * C / (D + B), True))
    # tau = expm1(4Dt)/(2D) = 2t exprel(4Dt) (2t at D = 0), alpha = (1 + N tau)/(1 + M tau).
    # Early (tau <= 1) the forms in tau; late (tau > 1) the same ratios in s = 1/tau =
    # 2D e^{-4Dt}/(-expm1(-4Dt)) (1/(2t) at D = 0), which is 0 at t = oo and neither it nor
    # any rearrangement sympy makes of it (e.g. in a Piecewise condition) overflows:
    # alpha = (N + s)/(M + s).  Es = e^{4Dt} s = 2D/(-expm1(-4Dt)) (s at D = 0).
    tau = 2 * t * exprel(4 * D * t)
    # tau <= 1, written without tau (2t exprel(4Dt) is inf * 0 = nan in numpy at t = oo)
    early = sp.Or(sp.And(D > 0, expm1(4 * D * t) <= 2 * D), sp.And(sp.Eq(D, 0), 2 * t <= 1))
    decay = sp.exp(-4 * D * t)
    s_inv = sp.Piecewise((-2 * D * decay / expm1(-4 * D * t), D > 0), (1 / (2 * t), True))
    Es = sp.Piecewise((-2 * D / expm1(-4 * D * t), D > 0), (s_inv, True))

    def log1p_tau(K: sp.Expr) -> sp.Expr:
        # log(1 + K tau) for K >= 0: late, 4Dt + log(-expm1(-4Dt)) + log((K + s)/(2D)), a sum
        # of terms that do not cancel (K >= 2D where it is used: N when M = 0, M when N = 0)
        return sp.Piecewise(
            (log1p(K * tau), early),
            (4 * D * t + sp.log(-expm1(-4 * D * t)) + sp.log((K + s_inv) / (2 * D)), D > 0),
            (sp.log(2 * t) + sp.log(K + s_inv), True),
        )

    L_N, L_M = log1p_tau(N), log1p_tau(M)
    delta = sp.Piecewise((G * tau / (1 + M * tau), early), (G / (M + s_inv), True))  # alpha - 1
    ell_t = sp.Piecewise(
        (0, sp.Eq(G, 0)),  # f0 = y: alpha = 1 for all t (N = M)
        (-L_M, sp.Eq(N, 0)),  # Q = 0, y <= 0: alpha = 1/(1 + M tau) -> 0
        (L_N, sp.Eq(M, 0)),  # P = 0, y >= 0: alpha = 1 + N tau -> oo (into the saddle)
        (log1p(delta), sp.Abs(delta) <= half),
        (sp.log((1 + N * tau) / (1 + M * tau)), early),
        (sp.log((N + s_inv) / (M + s_inv)), True),
    )
    # t -> oo (claim stable_limits): alpha -> N/M, or 0 / oo on the manifolds Q = 0 / P = 0
    ell_inf = sp.Piecewise(
        (0, sp.Eq(G, 0)), (-sp.oo, sp.Eq(N, 0)), (sp.oo, sp.Eq(M, 0)), (sp.log(N / M), True)
    )
    # f - y = (f0 - y) e^{4Dt}/((1 + N tau)(1 + M tau)); late: (f0 - y) Es s/((N + s)(M + s))
    residual = sp.Piecewise(
        (0, sp.Eq(f0, y)),
        ((f0 - y) * sp.exp(4 * D * t) / ((1 + N * tau) * (1 + M * tau)), early),
        ((f0 - y) * Es / (N + s_inv), sp.Eq(M, 0)),
        ((f0 - y) * Es / (M + s_inv), sp.Eq(N, 0)),
        ((f0 - y) * Es * s_inv / ((N + s_inv) * (M + s_inv)), True),
    )
    residual_inf = sp.Piecewise(
        (0, sp.Eq(f0, y)),
        ((f0 - y) * 2 * D / N, sp.Eq(M, 0)),
        ((f0 - y) * 2 * D / M, sp.Eq(N, 0)),
        (0, True),
    )
    ch, sh = sp.cosh(ell / 2), sp.sinh(ell / 2)
    r_uv = sp.sqrt(eta_u / eta_w) / rho  # u-units per v-unit
    p_t = sp.Piecewise((0, sp.Eq(p0, 0)), (p0 * sp.exp(ell / 2), True))
    q_t = sp.Piecewise((0, sp.Eq(q0, 0)), (q0 * sp.exp(-ell / 2), True))
    small = sp.Abs(ell) <= 1
    stable = {
        "D_plus": D_plus,
        "D_minus": D_minus,
        "N": D_plus + 2 * C,
        "M": D_minus + 2 * A,
        # the reported constants: alpha_+ = N/M is (B + D)/(2A) for P > 0 and its P -> 0
        # limit C/|B| (y < 0) or oo (y >= 0) for P = 0; alpha_- likewise (2C/D_plus: the
        # P -> 0 limit C/B = 1/alpha' for y > 0)
        "alpha_plus": sp.Piecewise((N / M, M > 0), (sp.oo, True)),
        "alpha_minus": sp.Piecewise(
            (D_minus / (2 * A), A > 0), (2 * C / D_plus, D_plus > 0), (sp.oo, True)
        ),
        "t_c": sp.Piecewise((1 / D, D > 0), (sp.oo, True)),
        "alpha_prime": sp.Piecewise((alpha_prime, C > 0), (sp.nan, True)),
        "tau": tau,
        "s": s_inv,
        "Es": Es,
        "L_N": L_N,
        "L_M": L_M,
        "delta": delta,
        "ell": ell_t,
        "ell_inf": ell_inf,
        "residual": residual,
        "residual_inf": residual_inf,
        "p_t": p_t,
        "q_t": q_t,
        "u_t": sp.Piecewise(
            (u0 * ch + r_uv * v0 * sh, small), ((p_t - q_t) / sp.sqrt(eta_w), True)
        ),
        "v_t": sp.Piecewise(
            (v0 * ch + u0 * sh / r_uv, small), (rho * (p_t + q_t) / sp.sqrt(eta_u), True)
        ),
        # eq. (19) from the unit sums, or y + (f - y): the form with the smaller condition
        # number (sum of the magnitudes of its terms) is used
        "f": sp.Piecewise(
            (
                gamma * rho * (Sp - Sq) / s,
                gamma * rho * (Sp + Sq) / s < sp.Abs(y) + sp.Abs(R),
            ),
            (y + R, True),
        ),
        "ntk": 2 * gamma**2 * rho**2 * (Sp + Sq),  # eq. (18) corrected, from the unit sums
        # cos(u, W x) = F / sqrt(F^2 + 4 Lambda) with F = sum(p^2 - q^2) (= f sqrt(eta_u eta_w)
        # / (gamma rho)) and the conserved Lambda = sum_{i<j} (p_i q_j - p_j q_i)^2 (eq. (21))
        "F_of_f": f0 * s / (gamma * rho),
        # Lambda = 0 (aligned layers): the cosine is sign(F), taken from f while f is
        # representable; for y = 0, f = f0 exp(...) keeps the sign of f0 = c (P - Q), and on
        # the manifolds P = 0 / Q = 0 (also at t = oo, ell = +-oo) so does sign(P - Q); else
        # (flow into the saddle, ell -> +-oo) sign(F) = sign(ell - log(Q/P)/2).
        # 0/0 (u = 0 or W x = 0) gives nan.
        "alignment": sp.Piecewise(
            (sp.sign(F), sp.And(sp.Eq(Lam, 0), sp.Ne(F, 0))),
            (
                (P - Q) / sp.Abs(P - Q),
                sp.And(sp.Eq(Lam, 0), sp.Or(sp.Eq(y, 0), sp.Eq(P, 0), sp.Eq(Q, 0))),
            ),
            (sp.sign(ell - (sp.log(Q) - sp.log(P)) / 2), sp.Eq(Lam, 0)),
            (F / sp.sqrt(F**2 + 4 * Lam), True),
        ),
    }
    return Symbols(
        eta_u=eta_u, eta_w=eta_w, gamma=gamma, rho=rho, y=y, d=d, P=P, Q=Q, t=t,
        u=u, v=v, p0=p0, q0=q0, u0=u0, v0=v0, ell=ell, alpha=alpha,
        A=A, B=B, C=C, D=D, G=G, N=N, M=M, f0=f0, F=F, Lam=Lam, Sp=Sp, Sq=Sq, R=R,
        Spq=Spq, ap=ap_, am=am_, w0=w0, xj=xj, pt=pt, qt=qt,
        coefficients=coefficients, paper=paper, stable=stable,
    )  # fmt: skip
