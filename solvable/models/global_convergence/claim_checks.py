"""The claims of seed 000, Sections 3.3, 5 and 6 (:func:`claims`), with the checks of
:mod:`solvable.models.global_convergence.symbolic_checks` and
:mod:`solvable.models.global_convergence.numeric_checks`."""

from __future__ import annotations

from solvable._core.claims import Theorem
from solvable.models.global_convergence.input_scaling import _remark_5_2_input_scaling
from solvable.models.global_convergence.numeric_checks import (
    _activation_derivative_bounds,
    _c1_quadrature,
    _ntg_bound_chain,
    _reported_constants,
)
from solvable.models.global_convergence.symbolic_checks import (
    _best_rate,
    _bounds_vanish_iff,
    _c1_sup_at_one,
    _chernoff_first_width_term,
    _gd_matches_gf,
    _gd_weight_bound,
    _gd_width_stable,
    _gronwall,
    _ntg_bound_derivation,
    _redundant_terms,
    _weight_bound_derivation,
)
from solvable.models.global_convergence.symbols import SEED


def claims() -> list[Theorem]:
    """The claims of seed 000, Sections 3.3, 5 and 6, checked here."""

    def T_(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"global_convergence.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T_("reported_constants", "Theorems 5.1, 6.1, eq. (14)",
           "The width terms, bounds (a)-(d), step-size limit, GD width condition and rate that "
           "the evaluators report, and C, C_1 of Constants.from_data (float64, dps, 2 dps), "
           "equal the printed forms evaluated directly (C_1 by quadrature of its definition).",
           _reported_constants, "numeric"),
        T_("c1_supremum_at_one", "eq. (14)",
           "For linear, relu, swish and tanh, E[sigma(c z/sqrt d)^2] increases in c, so the sup "
           "over c in (0, 1] in C_1 is attained at c = 1.", _c1_sup_at_one),
        T_("c1_quadrature", "eq. (14)",
           "C_1 by the generated mpmath quadrature: equals 1/d (linear), 1/(2d) (relu); agrees "
           "with Gauss-Hermite (swish, tanh); increasing on a c-grid (d = 1, 5).",
           _c1_quadrature, "numeric"),
        T_("activation_derivative_bounds", "Assumption 3.2, Section 8",
           "swish: sup |sigma''| = M = 1/2 and sup sigma' = 1.0998... > 1 (outside Assumption "
           "3.2); tanh: |sigma'| <= 1, M = 4 sqrt(3)/9.", _activation_derivative_bounds,
           "numeric"),
        T_("loss_bound_from_eigenvalue_bound", "Theorem 5.1 (a), (b)",
           "Along gradient flow dL/dt = -r^T Theta r, so eig_min >= gamma kappa_n/4 gives "
           "L(t) <= exp(-gamma kappa_n t/2) L_0 (Gronwall; the exponent matches exactly).",
           _gronwall),
        T_("first_width_term_matrix_chernoff", "Theorem 5.1 width condition, proof sketch (i)",
           "m >= 8 n log(2n/delta)/(kappa_n d) is exactly the matrix-Chernoff condition for "
           "eig_min(Theta^(1)(W_0)) >= gamma kappa_n/2 with probability 1 - delta/2.",
           _chernoff_first_width_term),
        T_("weight_bound_from_loss_decay", "Theorem 5.1 (c)",
           "Integrating |dw_j/dt| <= sqrt(lambda_j) sqrt(2 n L/d) along (b), with Markov on "
           "L_0 (E L_0 <= n (C^2 + C_1)/2), gives (c) with 2^5: the printed 2^7 is valid "
           "(twice that).", _weight_bound_derivation),
        T_("ntg_bound_from_weight_bound", "Theorem 5.1 (c), (d), eq. (7) (proof: Appendix F, "
           "not in the seed; reconstructed)",
           "||Theta_t - Theta_0||_2 <= sum_j (n/d) lambda_j (M^2 Delta_j^2/d + 2 M Delta_j/"
           "sqrt d) with Delta_j = ||w_tj - w_0j|| (|sigma'| <= 1, |sigma''| <= M, |x_i| <= 1); "
           "with (c)'s Delta_j <= sqrt(lambda_j) R, sum_j lambda_j = 1 and Cauchy-Schwarz this "
           "is n M^2 R^2 S_2/d^2 + 2 n M R sqrt(S_2)/d^(3/2), which at (c)'s R gives (d)'s "
           "first term exactly (2^7) and its second with 2^(9/2): the printed 2^5 is valid "
           "(sqrt(2) times that).", _ntg_bound_derivation),
        T_("ntg_bound_chain_numeric", "Theorem 5.1 (c), (d)",
           "Through the package's evaluators (float64 and 50 digits): the step-2 bound "
           "sum_j (n/d) lambda_j (M^2 Delta_j^2/d + 2 M Delta_j/sqrt d) at Delta_j = (c), the "
           "step-3 bound at (c)'s radius and the printed (d) equal the derived terms (2^7 ... "
           "S_2, 2^(9/2) ... sqrt(S_2)) evaluated directly, step 2 <= step 3 <= printed (d) "
           "(equal steps at uniform lambda, gamma = 1; step 2 strictly below at gamma = 1/2 "
           "with lambda = (1/2, 1/4, 1/8, 1/8)).", _ntg_bound_chain, "numeric"),
        T_("never_binding_terms", "Theorems 5.1, 6.1",
           "kappa_n <= 1/d makes the second width term of Theorem 5.1 (<= term 3 / 32) and the "
           "first step-size term 2/(gamma kappa_n) of Theorem 6.1 (>= 16 x term 2) redundant.",
           _redundant_terms),
        T_("remark_5_2_input_scaling", "Remark 5.2 (with Theorem 5.1 and its proof sketch)",
           "The network (2) with the scale 1/s on its inputs X equals the unscaled network on "
           "X/s, and so do its Jacobian in W, its NTG (7) and every node's Hessian; the node "
           "gradient is sqrt(lambda_j) a_j sigma'(z) x/s and its Hessian sqrt(lambda_j) a_j "
           "sigma''(z) x x^T/s^2 (the proof's 1/sqrt(d) and M/d at s = sqrt(d)), and the model "
           "at scale sqrt(D) with D = 1 is the unscaled one: removing the scaling is setting d "
           "= 1 (generic sigma, n = m = 2, d = 2 and 3; residuals exactly 0).",
           _remark_5_2_input_scaling),
        T_("bounds_vanish_iff_gamma_one", "Theorem 5.1 (c), (d) and the text after it",
           "As m -> oo the bounds (c) (if lambda~_j > 0) and (d) tend to 0 iff gamma = 1 (Zipf, "
           "every alpha; finite K).", _bounds_vanish_iff),
        T_("gd_best_rate", "Section 6, remark after Theorem 6.1",
           "At the largest admissible eta, 1 - eta gamma kappa_n/2 = 1 - C_0 gamma^2 kappa_n^2/"
           "n^2 with C_0 independent of n, gamma, kappa_n.", _best_rate),
        T_("gd_width_stable_form", "Theorem 6.1 (width condition)",
           "The evaluated width terms, with 1 - beta = (eta gamma kappa_n/2)/(1 + beta) (no "
           "cancellation in float64), equal the printed ones.", _gd_width_stable),
        T_("gd_rate_matches_gradient_flow", "Theorem 6.1, eq. (16) (corrected)",
           "beta^2 = 1 - eta gamma kappa_n/2 and (1 - eta gamma kappa_n/2)^(t/eta) -> "
           "exp(-gamma kappa_n t/2) as eta -> 0: the GD rate reproduces Theorem 5.1(b).",
           _gd_matches_gf),
        T_("gd_weight_bound_from_rate", "Theorem 6.1 (width condition; proof, Appendix H)",
           "Summing ||grad_{w_j} L|| <= sqrt(n lambda_j/d) ||y - u_k|| over GD steps with (16) "
           "bounds ||w_sj - w_0j|| by eta sqrt(n lambda_j/d) ||y - u_0|| (1 - beta^s)/(1 - "
           "beta); with Markov on L_0 this radius R sqrt(lambda_j) is the one Theorem 6.1's "
           "width terms 2, 3 are written in (2^4 n M^2 R^2/(kappa_n d^2), 2^10 n^2 M^2 R^2/"
           "(kappa_n^2 d^3)).", _gd_weight_bound),
]  # fmt: skip
