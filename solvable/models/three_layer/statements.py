"""Seed 004, the claims of Sections 3-5 and Tables 1-2: :func:`claims`, each statement
with its check (:mod:`solvable.models.three_layer.proofs`)."""

from __future__ import annotations

from solvable._core.claims import Theorem
from solvable.models.three_layer.coordinates import SEED
from solvable.models.three_layer.proofs import (
    _assumption_32,
    _bias_first_layer,
    _condensation_claim,
    _cosine_claim,
    _eq5,
    _eq6_standard_normal,
    _eq7_block,
    _homogeneity_needed,
    _joint_rescaling,
    _kappa1_assumption,
    _kappas_independent,
    _power_law_family,
    _rd_invariance,
    _relu_homogeneity,
    _rescaling,
    _table_2,
    _table_2_family,
    _table_row,
    _time_exponent,
    _time_scale,
)
from solvable.models.three_layer.tables import INITIALISATIONS


def claims() -> list[Theorem]:
    """Every closed-form claim of Sections 3-4 (and the coordinates of Table 2)."""
    s = SEED
    out = [
        Theorem(
            "three_layer.eq5_gradient",
            f"{s} eqs. (3)-(5)",
            "Eq. (5) as printed is -grad R_S of the package's risk (3) for the network (1) "
            "(the flow numerics.simulate integrates; any differentiable activation; explicit "
            "m = d = n = 2, and m = 2, d = 1, n = 2 with biases folded into W1, W2).",
            "symbolic",
            _eq5,
        ),
        Theorem(
            "three_layer.rescaling",
            f"{s} eqs. (5)-(8)",
            "The rescaling (6) with the time change of (8) maps the flow (5) to the "
            "normalised flow (7) with kappa_1 = beta_3/beta_2, kappa_2 = beta_3/beta_1, "
            "kappa_3 = beta_1 beta_2 beta_3/alpha, using only sigma(cz) = c sigma(z), "
            "sigma'(cz) = sigma'(z) for c > 0 (so it holds for every positively "
            "1-homogeneous activation); every component, (m, d, n) = (2, 2, 2), (3, 1, 1).",
            "symbolic",
            _rescaling,
        ),
        Theorem(
            "three_layer.time_scale",
            f"{s} eq. (8)",
            "tbar = (alpha kappa_1 kappa_2 kappa_3)^(-2/3) t = t/beta_3^2, since "
            "alpha kappa_1 kappa_2 kappa_3 = beta_3^3.",
            "symbolic",
            _time_scale,
        ),
        Theorem(
            "three_layer.kappa1_assumption",
            f"{s} text after eq. (9), Assumption 3.2",
            "Under beta_2 = B beta_3, kappa_1 = 1/B (printed: B), hence gamma_1 = 0.",
            "symbolic",
            _kappa1_assumption,
        ),
        Theorem(
            "three_layer.assumption_3_2",
            f"{s} Assumption 3.2, Table 1",
            "beta_2/beta_3 = 1 for NTK, LeCun, He; for Xavier it is sqrt((m+1)/(2m)), "
            "not constant (Assumption 3.2 holds only as m -> oo, B -> 1/sqrt(2)); "
            "gamma_1 = 0 for all four rows.",
            "symbolic",
            _assumption_32,
        ),
        Theorem(
            "three_layer.table_2_coordinates",
            f"{s} Table 2",
            "The six scalings of Table 2 give (gamma_2, gamma_3) = (0, 1.1) (group 1) and "
            "(0.7, 2.5) (group 2) by eqs. (8)-(9).",
            "symbolic",
            _table_2,
        ),
        Theorem(
            "three_layer.homogeneity_needed",
            f"{s} Section 6 (Conclusion)",
            "Homogeneity is what the normalisation uses: (7)-(8) hold for every positively "
            "1-homogeneous activation (ReLU, leaky ReLU; three_layer.rescaling uses only the "
            "two rules), and fail for the non-homogeneous sigma(z) = z + z^2.",
            "symbolic",
            _homogeneity_needed,
        ),
    ]
    out += [
        Theorem(
            "three_layer.eq6_standard_normal",
            f"{s} eq. (6) and Section 3",
            "With a_k ~ N(0, beta_3^2), W2_kl ~ N(0, beta_2^2), W1_kl ~ N(0, beta_1^2) (Section "
            "3), the rescaled abar = a/beta_3, W2bar = W2/beta_2, W1bar = W1/beta_1 of (6) are "
            "standard normal ('so that all the parameters are picked from standard normal "
            "distribution'): their densities equal exp(-z^2/2)/sqrt(2 pi).",
            "symbolic",
            _eq6_standard_normal,
        ),
        Theorem(
            "three_layer.relu_homogeneity",
            f"{s} Section 4, text after eq. (6)",
            "The package's ReLU max(0, z) and its derivative Heaviside(z, 0) satisfy "
            "sigma(c z) = c sigma(z) and sigma'(c z) = sigma'(z) for every real z and c > 0 "
            "(cases z > 0, z < 0, z = 0); the condition c > 0 is needed (c = -1, z = 1 "
            "fails).",
            "symbolic",
            _relu_homogeneity,
        ),
        Theorem(
            "three_layer.eq7.a",
            f"{s} eqs. (6)-(8), first line of (7)",
            "The a-block: d abar/dtbar = -(1/n) sum_i kappa_3 sigma(W2bar sigma(W1bar x_i)) "
            "e_i, derived from the package's flow (gradient of (3)) by (6) and the time "
            "change (8), generic positively homogeneous sigma; (m, d, n) = (2, 2, 2), "
            "(3, 1, 1).",
            "symbolic",
            _eq7_block("a"),
        ),
        Theorem(
            "three_layer.eq7.W2",
            f"{s} eqs. (6)-(8), second line of (7)",
            "The W2-block: d W2bar/dtbar = -kappa_1^2 (1/n) sum_i kappa_3 (abar o "
            "sigma'(W2bar sigma(W1bar x_i))) sigma(W1bar x_i)^T e_i with kappa_1 = "
            "beta_3/beta_2; (m, d, n) = (2, 2, 2), (3, 1, 1).",
            "symbolic",
            _eq7_block("W2"),
        ),
        Theorem(
            "three_layer.eq7.W1",
            f"{s} eqs. (6)-(8), third line of (7)",
            "The W1-block: d W1bar/dtbar = -kappa_2^2 (1/n) sum_i kappa_3 (W2bar^T (abar o "
            "sigma'(...)) o sigma'(W1bar x_i)) x_i^T e_i with kappa_2 = beta_3/beta_1; "
            "(m, d, n) = (2, 2, 2), (3, 1, 1).",
            "symbolic",
            _eq7_block("W1"),
        ),
        Theorem(
            "three_layer.eq7.output",
            f"{s} eqs. (1), (6)-(8): e_i in (7)",
            "The error e_i of (5) is that of the normalised network: (1/alpha) a^T sigma(W2 "
            "sigma(W1 x)) = kappa_3 abar^T sigma(W2bar sigma(W1bar x)) with kappa_3 = beta_1 "
            "beta_2 beta_3/alpha, so (7) is closed in the normalised variables; (m, d, n) = "
            "(2, 2, 2), (3, 1, 1).",
            "symbolic",
            _eq7_block("f"),
        ),
        Theorem(
            "three_layer.bias_first_layer",
            f"{s} Section 3 (bias b^[1]) with eqs. (6)-(7)",
            "The first-layer bias folded into W1 as Section 3 says (x -> (x^T, 1)^T, W1 -> "
            "(W1, b1), normalised with W1: b1bar = b1/beta_1) keeps the normalised flow (7) "
            "exact, every block and the output; (m, d, n) = (2, 1, 2). (The second-layer "
            "bias does not: see the erratum on Section 3.)",
            "symbolic",
            _bias_first_layer,
        ),
        Theorem(
            "three_layer.time_exponent",
            f"{s} eq. (8)",
            "The exponent -2/3 of the time change is forced: the a-block of (7) (prefactor "
            "kappa_3) holds for the package's flow only with dtbar/dt = beta_3^-2 (solved "
            "from its residual), and (alpha kappa_1 kappa_2 kappa_3)^r = beta_3^-2 has the "
            "single solution r = -2/3.",
            "symbolic",
            _time_exponent,
        ),
        Theorem(
            "three_layer.kappas_independent",
            f"{s} Section 1 and Section 4 (principles (i)-(ii))",
            "'Since we only care about the training trajectory up to a time scaling, we "
            "obtain three independent quantities': d log(kappa_1, kappa_2, kappa_3) / d "
            "log(alpha, beta_1, beta_2, beta_3) has rank 3, its kernel is the joint scaling "
            "(alpha, beta_i) -> (c^3 alpha, c beta_i), and along it tbar/t = beta_3^-2 moves "
            "as c^-2 (the time scaling).",
            "symbolic",
            _kappas_independent,
        ),
        Theorem(
            "three_layer.joint_rescaling",
            f"{s} Section 4 (principle (ii)), eqs. (6)-(8)",
            "Two networks related by alpha -> c^3 alpha, beta_i -> c beta_i (c > 0) have "
            "the same kappas and the same normalised flow in tbar: the field d thetabar/dtbar "
            "computed from the package's flow (not from (7)) and the output agree exactly at "
            "(m, d, n) = (2, 1, 2); only the time change t = beta_3^2 tbar differs.",
            "symbolic",
            _joint_rescaling,
        ),
        Theorem(
            "three_layer.power_law_family",
            f"{s} eq. (9), Assumptions 3.1-3.2",
            "For alpha = m^s, beta_3 = m^-p, beta_2 = B m^-p, beta_1 = m^-q: gamma_1 = 0, "
            "gamma_2 = p - q, gamma_3 = 2p + q + s; for symbolic real gamma_2, gamma_3, s "
            "and B > 0 the unique (p, q) is ((gamma_2 + gamma_3 - s)/3, (gamma_3 - s - "
            "2 gamma_2)/3), and power_law_scheme's coordinates are (0, gamma_2, gamma_3).",
            "symbolic",
            _power_law_family,
        ),
        Theorem(
            "three_layer.table_2_family",
            f"{s} Table 2, Section 5.3.1",
            "Each row of Table 2 is power_law_scheme(gamma_2, gamma_3, s) with s the "
            "exponent of its alpha (B = 1); within a group the three rows have equal "
            "kappa_1, kappa_2, kappa_3 as functions of m (not only equal gammas), hence the "
            "same normalised flow (7), and differ only in the time factor tbar/t = beta_3^-2.",
            "symbolic",
            _table_2_family,
        ),
        Theorem(
            "three_layer.rd_invariance",
            f"{s} eqs. (6), (10)-(11)",
            "RD(W) of (10) is unchanged by the rescaling (6), RD(beta Wbar*, beta Wbar(0)) = "
            "RD(Wbar*, Wbar(0)) for beta > 0 (W1 with its bias, 2 x 2; W2 with its bias, "
            "2 x 3), and reads only the end points (not the time change (8)); so S_W of "
            "(11) is the same for a network and its normalised model.",
            "symbolic",
            _rd_invariance,
        ),
        Theorem(
            "three_layer.cosine_similarity",
            f"{s} eq. (2), caption of Figure 3",
            "D(u, v) of (2) is 1 for equal, -1 for opposite and 0 for perpendicular "
            "directions (Figure 3's reading), |D| <= 1 ((u.u)(v.v) - (u.v)^2 = sum_{i<j} "
            "(u_i v_j - u_j v_i)^2, d = 3), and D(c u, c' v) = D(u, v) for c, c' > 0.",
            "symbolic",
            _cosine_claim,
        ),
        Theorem(
            "three_layer.condensation",
            f"{s} Section 5.4 (zeta), captions of Figures 3 and 8",
            "zeta = (1/(m/2)^2) sum_{i,j<=m/2} |D(u_i, u_j)| over the m/2 largest rows is 1 "
            "when the rows condense on one line (m = 6, rows c_k u with mixed signs), 2/m "
            "(only the diagonal) for mutually perpendicular rows (m = 4), and unchanged by "
            "W2 -> W2/beta_2 (eq. (6)); exact.",
            "symbolic",
            _condensation_claim,
        ),
    ]
    for init in INITIALISATIONS:
        out.append(Theorem(
            f"three_layer.table_1.{init.name.lower()}", f"{s} Table 1, row {init.name}",
            f"{init.name}: kappa_2, kappa_3 from eq. (8) and gamma_1..3 from eq. (9) "
            "(m_1 = m_2 = m), as table_1() reports them, equal the printed cells; and the "
            "printed kappa_2, kappa_3 turn the package's flow at this row's scalings into "
            "(7) under the time change (8) (direct computation, m = d = n = 1, at m_1, m_2, "
            "d = 3, 5, 2).",
            "symbolic", _table_row(init.name),
        ))  # fmt: skip
    return out
