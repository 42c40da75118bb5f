"""Seed 002, the claims of Sections 2.1, 2.3 and Exercise 1: :func:`claims`, each
statement with its check (:mod:`solvable.models.kernels.proofs`,
:mod:`solvable.models.kernels.numeric_checks`)."""

from __future__ import annotations

from solvable._core.claims import Theorem
from solvable.models.kernels.hoeffding import _hoeffding_bound
from solvable.models.kernels.numeric_checks import (
    _diagonal_evaluated,
    _evaluators_agree,
    _gram_positive_definite,
)
from solvable.models.kernels.proofs import (
    _arccos_order_0,
    _arccos_order_1,
    _closed_forms_from_definitions,
    _diagonal_values,
    _exercise_ntk,
    _fourth_cumulant,
    _homogeneity,
    _lecture_k0,
    _ntk_from_rf,
    _plackett,
    _positivity,
    _stable_forms,
    _table_1_covariance,
    _table_1_variances,
)
from solvable.models.kernels.symbols import SEED


def claims() -> list[Theorem]:
    """Every claim of seed 002, Sections 2.1, 2.3 and Exercise 1, checked here."""

    def T(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"kernels.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("plackett_identity", "Section 2.1 (Gaussian orthant)",
          "The bivariate normal density satisfies d/drho phi_2 = d^2 phi_2/(du dv), hence "
          "d/drho P(u > 0, v > 0) = phi_2(0, 0; rho) = 1/(2 pi sqrt(1 - rho^2)) (|rho| < 1). "
          "Rests on exchanging d/drho with the orthant integral (dominated convergence; "
          "Gaussian decay).", _plackett),
        T("arccos_order_0", "eq. (2.31), Exercise 1",
          "Given Plackett's identity, E[1{u>0} 1{v>0}] = (pi - arccos rho)/(2 pi): it has the "
          "derivative 1/(2 pi sqrt(1 - rho^2)) and the value P(u > 0)^2 = 1/4 at rho = 0.",
          _arccos_order_0),
        T("arccos_order_1", "eqs. (2.4), (2.31)",
          "Given Price's theorem (d/drho E[g(u)h(v)] = E[g'(u)h'(v)]), E[relu(u) relu(v)] = "
          "(sqrt(1 - rho^2) + (pi - arccos rho) rho)/(2 pi): its derivative is the order-0 "
          "kernel and its value at rho = 0 is E[relu(u)]^2 = 1/(2 pi).", _arccos_order_1),
        T("closed_forms_from_definitions", "eqs. (2.4), (2.30), (2.31)",
          "Integrating the definitions in polar coordinates (x = n1 e1, x' = n2 (cos theta, "
          "sin theta), w ~ N(0, s^2 I) on span(x, x')) gives K_RF = s^2 n1 n2 J_1/(2 pi), "
          "K_NTK = E[a^2] n1 n2 cos(theta) J_0/(2 pi), K_GP = E[a^2] K_RF, K_0 = K_RF + K_NTK, "
          "for every E[a^2], s^2 > 0 and theta in [0, pi]. Rests on rotation invariance of "
          "N(0, s^2 I_d) and independence of a and w.", _closed_forms_from_definitions),
        T("stable_forms", "eqs. (2.31), (4.2) (numerics)",
          "The angle form at theta = arccos(rho) and the stable sqrt((1 - rho)(1 + rho)) form "
          "equal the cosine form of every kernel; |u - v| = 2 sin(theta/2), |u + v| = "
          "2 cos(theta/2) for unit vectors (Kahan's angle).", _stable_forms),
        T("diagonal_values", "eqs. (2.4), (2.21), (2.31), (4.2)",
          "rho = 1: the closed forms equal the definitions integrated directly over <w, x> ~ "
          "N(0, s^2|x|^2) (K_RF(x, x) = s^2|x|^2/2, K_NTK(x, x) = E[a^2]|x|^2/2, K_GP = E[a^2] "
          "K_RF), for generic moments and the (2.28) and Exercise 1 records, and K_NTK(x, x) "
          "is |x|^2 times the printed right-hand side of (4.2) at rho = 1; rho = -1 (x' = -c "
          "x): every kernel is 0, as is its definition.", _diagonal_values),
        T("homogeneity_and_zero_limit", "eqs. (2.4), (2.31)",
          "Every kernel is positively homogeneous of degree 1 in each argument, K(c x, c' x') "
          "= c c' K(x, x'), and tends to 0 as x -> 0 along any direction (= its value at x = 0).",
          _homogeneity),
        T("ntk_from_rf_derivative", "eqs. (2.4), (2.31)",
          "At fixed norms, K_NTK = (E[a^2]/s^2) <x,x'> dK_RF/d<x,x'> (Price's theorem with "
          "covariance s^2 <x,x'>), dK_RF/drho = s^2 n1 n2 J_0/(2 pi), and K_GP = E[a^2] K_RF.",
          _ntk_from_rf),
        T("positivity", "eqs. (2.31), (2.42), Exercise 1(c)",
          "J_0, J_1 >= 0 on [0, pi], vanishing only at theta = pi: K_RF, K_GP >= 0 entrywise, "
          "sign K_NTK = sign <x, x'>, K_0(x, x) > 0 for x != 0.", _positivity),
        T("exercise_1_ntk", "Exercise 1, eq. (4.2) (corrected)",
          "For a ~ Unif{-1, 1}, w ~ N(0, I_d): K_NTK(x, x') = <x, x'> (1/2 - arccos(rho)/(2 pi)) "
          "(closed form and polar integration of the definition).", _exercise_ntk),
        T("lecture_k0", "eqs. (2.28)-(2.31)",
          "For a ~ Unif[-1, 1], w ~ N(0, I_d/d): K_0 = (|x||x'|/d) J_1/(2 pi) + (<x, x'>/3) "
          "J_0/(2 pi).", _lecture_k0),
        T("evaluators_agree", "eqs. (2.4), (2.31) (generated evaluators)",
          "The float64 and mpmath evaluators generated from the closed forms agree (float64 to "
          "1e-13 normwise, incl. rho = +-1 and nearly (anti)parallel Gram rows; mpmath at dps "
          "and 2 dps to dps - 2 digits).", _evaluators_agree, "numeric"),
        T("diagonal_evaluated", "eqs. (2.4), (2.31), (4.2) (evaluators at rho = +-1)",
          "The evaluated kernels (float64 and mpmath kernel_numeric at rho = 1, gram at x' = x "
          "and x' = -2x) equal the definitions integrated directly: K_RF(x, x) = E[relu(<w, "
          "x>)^2], K_NTK(x, x) = |x|^2 E[a^2 relu'(<w, x>)^2], K_GP = E[a^2] K_RF, 0 for "
          "antiparallel inputs.", _diagonal_evaluated, "numeric"),
        T("gram_positive_definite", "Exercise 1(c), eq. (2.42)",
          "lambda_min of the K_NTK, K_RF and K_0 Gram matrices (Exercise 1 init) of 12 "
          "pairwise non-parallel unit vectors in R^3 is > 0, although X X^T has rank 3.",
          _gram_positive_definite, "numeric"),
        T("hoeffding_bound", "Exercise 1(b), (c), eqs. (4.3), (4.4)",
          "Exercise 1 init (a^2 = 1), data in B(0, 1): each entry of (4.4) averages p i.i.d. "
          "terms in an interval of length |<x_i, x_j>| <= 1, so Hoeffding at s = epsilon/n and "
          "a union over the n(n+1)/2 entries give P(||K^ - K||_F > epsilon) <= n(n+1) "
          "exp(-2 p epsilon^2/n^2); its unique root in p is n^2 log(n(n+1)/delta)/(2 "
          "epsilon^2) = Theta(epsilon^-2 n^2 log(n/delta)) (the exercise's width, reading "
          "'log n/delta' as log(n/delta)), in epsilon n sqrt(log(n(n+1)/delta)/(2p)).",
          _hoeffding_bound),
        T("table_1_variances", "Table 1, eqs. (2.2), (2.3)",
          "Integrating the uniform laws of Table 1: Var a_j = 2/p (Kaiming), 2/(p+1) (Xavier), "
          "Var w_jk = 2/d, 2/(p+d), all centred; sqrt(p) std(a_j) -> sqrt(2) under both rows "
          "(2.2), and a~ = sqrt(p) a of (2.3) has E[a~^2] = 2 (Kaiming) and 2p/(p+1) -> 2.",
          _table_1_variances),
        T("table_1_output_covariance", "Table 1, eqs. (2.1)-(2.5)",
          "ReLU, b = 0, at every width p: E[f(x) f(x')] = p Var(a) Var(w) |x||x'|/2 for x' = c x "
          "(c > 0), p Var(a) (w_bound/4)^2 |x||x'| for orthogonal coordinate axes, 0 for "
          "x' = -c x (the definitions integrated over the uniform laws). Kaiming: Var f(x) = "
          "2|x|^2/d free of p; Xavier: 2p|x|^2/((p+1)(p+d)) -> 0 like 2|x|^2/p. The Kaiming "
          "limit kernel exceeds the Gaussian-weight arc-cosine kernel of the same variances at "
          "orthogonal axes (3/(4d) vs 2/(pi d)), though both agree on the diagonal.",
          _table_1_covariance),
        T("fourth_cumulant", "eqs. (2.3)-(2.5), (2.28), Exercise 1",
          "For the ReLU net (2.3) with a symmetric, independent of w ~ N(0, s^2 I): the "
          "projection c1 f(x) + c2 f(x') has kappa_2 = c^T K_GP c and kappa_4 = (E[a^4] E[s^4] "
          "- 3 E[a^2]^2 E[s^2]^2)/p exactly (cumulants of a sum of p i.i.d. units; mixed ReLU "
          "moments by polar integration); the excess kurtosis of f(x) is 39/(5p) under (2.28) "
          "and 3/p under Exercise 1, so kappa_4 -> 0 as p -> oo.", _fourth_cumulant),
]  # fmt: skip
