"""The claims of seed 001 (Xu & Ziyin, ``001_070589003213e0cf.txt``), Section 2 and
Appendix A.1, in paper order: :func:`claims`.
"""

from __future__ import annotations

from solvable._core.claims import Theorem
from solvable.models.xu_ziyin.alignment_claims import (
    _alignment_vs_scale,
    _eq3_4,
    _equal_rates,
    _small_eta_w,
)
from solvable.models.xu_ziyin.network import SEED
from solvable.models.xu_ziyin.numeric_claims import _reported_constants, _reported_relations
from solvable.models.xu_ziyin.symbolic_claims import (
    _alpha_relations,
    _eq13,
    _eq14,
    _eq15_16,
    _eq17,
    _eq18,
    _eq18_pq,
    _eq19_limit,
    _eq19_unit,
    _eq21,
    _eq22,
    _eq23,
    _eq24,
    _eq24_q_ge_p,
    _eq25_26,
    _eq31,
    _eq35,
    _eq37,
    _eq39,
    _eq49,
    _orthogonal,
    _proposition_1,
    _proposition_1_saddle,
    _rescaling_sign,
    _stable_alignment,
    _stable_alpha,
    _stable_constants,
    _stable_limits,
    _stable_residual,
    _stable_units,
    _theorem_1,
    _zeta_monotone,
)


def claims() -> list[Theorem]:
    """The claims of seed 001, Section 2 and Appendix A.1, in paper order (the
    conservation laws come from :func:`laws`; the simulation-backed confirmations are in
    :mod:`solvable.verification.confirmations.xu_ziyin`)."""

    def T(id_, eqs, statement, fn, kind="symbolic"):
        return Theorem(f"xu_ziyin.{id_}", f"{SEED} {eqs}", statement, kind, fn)

    return [
        T("eq_3_4", "eqs. (2), (3), (4)",
          "Data on a line x~ = a n: the loss (2) is (3), and (3) is the one-point loss (4) at "
          "x = sqrt(E a^2) n, y = E[a y]/sqrt(E a^2) plus E[y^2] - E[a y]^2/E[a^2], free of "
          "u and W: every gradient, hence the flow (5), is the same.", _eq3_4),
        T("eq_31", "eqs. (4), (5), (31)",
          "The gradient flow of L = (gamma u^T W x - y)^2 is eq. (31), per unit as "
          "unit_flow.", _eq31),
        T("pq_invariant", "eq. (35)",
          "4 p_i q_i = eta_u (W x)_i^2/rho^2 - eta_w u_i^2.", _eq35),
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
        T("zeta_equal_rates", "Section 2.2, after (24) (equal rates)",
          "With eta_u = eta_w = eta, alpha_+, zeta(alpha) and alpha(T/eta) equal their "
          "values at eta = 1: the change of zeta does not depend on the learning rate.",
          _equal_rates),
        T("zeta_small_eta_w", "Section 2.2, after (24) (eta_u >> eta_w; corrected)",
          "With eta_w = s^2 eta_u, alpha_+ - 1 = s 2 rho (y - f0)/(gamma ||W x||^2) + O(s^2): "
          "(24) moves linearly in sqrt(eta_w), not eta_w as printed.", _small_eta_w),
        T("rescaling_sign", "Section 2.3",
          "d||u||^2/dt = (alpha_+ - 1)(alpha^2 P - Q) x (positive).", _rescaling_sign),
        T("alignment_vs_scale", "Section 2.4",
          "alpha_+ - 1 has the sign of y - f(0) (g(1) = A - B - C = gamma rho sqrt(eta_u "
          "eta_w) (f0 - y), alpha_+ the positive root of g): initial weights scaled by c "
          "align for c^2 f0(1) < y and disalign beyond c* = sqrt(y/f0(1)).",
          _alignment_vs_scale),
        T("proposition_1", "Proposition 1, eqs. (44)-(48)",
          "For P = 0: q_i(t)^2/q_i(0)^2 = alpha' xi'/(1 - xi') solves (48) from 1.",
          _proposition_1),
        T("proposition_1_saddle", "Appendix A.1 after (48)",
          "For P = 0 and y > 0, q_i(t) -> 0: the flow converges to the saddle.",
          _proposition_1_saddle),
        T("eq_49", "eq. (49)",
          "As B/sqrt(AC) -> 0, alpha_+ -> sqrt(Q/P), which is 1 when P = Q.", _eq49),
        T("stable_alpha", "eqs. (8)-(12) (evaluation form)",
          "log alpha = log1p(G tau/(1 + M tau)) = log((N + s)/(M + s)), s = 1/tau = "
          "2D/expm1(4Dt), (and the forms on P = 0, Q = 0) equals the textbook alpha(t) on "
          "every branch of N, M; "
          "G = N - M; D +- B branches are exact.", _stable_alpha),
        T("stable_limits", "eqs. (8)-(12), (15), (16), Proposition 1 (t = oo)",
          "As t -> oo, alpha -> N/M = alpha_+ (P > 0), oo (P = 0 <= y: the saddle), 0 "
          "(Q = 0, y <= 0); the evaluated ell and f - y at t = oo (s = 0) are these limits "
          "(ell_inf, residual_inf, derived by sympy's limit).", _stable_limits),
        T("stable_residual", "eqs. (19), (37) (evaluation form)",
          "f(t) - y = (f0 - y) e^{4Dt} / ((1 + N tau)(1 + M tau)).", _stable_residual),
        T("stable_units", "eqs. (8), (9), (13) (evaluation form)",
          "Both branches of u(t) and W(t)x equal eq. (13) with (8), (9).", _stable_units),
        T("stable_alignment", "eq. (21) (evaluation form)",
          "F/sqrt(F^2 + 4 Lambda), Lambda = sum_{i<j}(p_i q_j - p_j q_i)^2, is (21).",
          _stable_alignment),
        T("stable_constants", "eqs. (11), (12), (47) (evaluation form)",
          "The evaluated alpha_+, alpha_-, t_c, alpha' equal (11), (12), (47) for P > 0 on "
          "every branch, and the P -> 0+ limits of (12) for P = 0 (Proposition 1).",
          _stable_constants),
        T("reported_constants", "eqs. (6), (7), (11), (12), (47)",
          "P, Q, alpha_+, alpha_-, t_c, alpha' reported by closed_form (float64, two mpmath "
          "precisions) equal the paper's forms evaluated exactly from each case's setup and "
          "initial weights (P = 0, Q = 0 and the saddle included).",
          _reported_constants, "numeric"),
        T("reported_relations", "text after (14), eq. (47)",
          "The reported constants satisfy alpha_+ alpha_- = Q/P, alpha_+ - alpha_- = B/A, "
          "alpha_+ + alpha_- = 1/(A t_c) (P > 0), alpha' C = B, t_c |B| = 1 (P = 0).",
          _reported_relations, "numeric"),
    ]  # fmt: skip
