"""Seed 004, the errata (:func:`errata`): the second-layer bias of Section 3 with
(6)-(7), ``kappa_1`` in the text after (9) (Assumptions 3.1-3.2), and ``e_i`` outside the
sum in (7); each with the residuals of the printed and the corrected reading."""

from __future__ import annotations

import sympy as sp

from solvable._core.claims import Erratum
from solvable.models.three_layer.coordinates import ALPHA, B1, B2, B3, SEED, kappas, time_factor
from solvable.models.three_layer.flow import _gradient_field
from solvable.models.three_layer.rescaling import rescaling_residuals
from solvable.models.three_layer.symbolic import _Params, _params, homogeneity, sigma, sigma_prime


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _kappa1_residuals() -> tuple[sp.Expr, sp.Expr]:
    Bc = sp.Symbol("B", positive=True)
    k1 = kappas(ALPHA, B1, Bc * B3, B3)[0]
    return k1 - Bc, k1 - 1 / Bc


def _sum_residuals() -> tuple[sp.Expr, sp.Expr]:
    # first component of dabar/dtbar (m = d = 1, n = 2, all units active: sigma = identity,
    # sigma' = 1, a consistent ReLU pattern for positive weights and inputs).  Printed
    # reading: -(1/n sum_i kappa_3 sigma(...)) e_j with e_j taken out of the sum, for each
    # j in {1, 2} (the product vanishes if either reading were right); corrected: e_i inside.
    pb = _params(1, 1, 2, bar=True)
    k3 = kappas(ALPHA, B1, B2, B3)[2]
    z = sp.Symbol("z")
    ident = {sigma: sp.Lambda(z, z), sigma_prime: sp.Lambda(z, 1)}

    def concrete(e: sp.Expr) -> sp.Expr:
        return e.replace(sigma, ident[sigma]).replace(sigma_prime, ident[sigma_prime])

    true = concrete(_rescaling_lhs_a(pb))
    h = [(pb.W2 * pb.W1 * x)[0, 0] for x in pb.X]  # sigma(W2bar sigma(W1bar x_i)), active
    g = [k3 * hi for hi in h]  # the summand of (7) without e_i
    e = [k3 * pb.a[0] * hi - yi for hi, yi in zip(h, pb.y, strict=True)]  # e_i
    mean_g = sum(g) / 2
    printed = sp.Mul(*[(-mean_g * ej) - true for ej in e])
    corrected = -sum(gi * ei for gi, ei in zip(g, e, strict=True)) / 2 - true
    return printed, corrected


def _rescaling_lhs_a(pb: _Params) -> sp.Expr:
    """First component of ``d abar/dtbar`` obtained from the package's flow (the gradient
    of risk (3)) by (6) and (8)."""
    orig = _Params(B3 * pb.a, B2 * pb.W2, B1 * pb.W1, pb.X, pb.y)
    da = _gradient_field(orig, ALPHA)[0]
    return homogeneity(da[0]) / (B3 * time_factor(ALPHA, B1, B2, B3))


def _bias_2_residuals() -> tuple[sp.Expr, sp.Expr]:
    # m = d = n = 1, both biases folded (Section 3); printed: the normalised hidden layer
    # extended by 1, as for the raw one; corrected: by 1/beta_1.  The printed residuals with
    # sigma = identity (every unit active at the positive rational point of the check, so
    # exactly ReLU there); the corrected ones for a generic homogeneous sigma.
    z = sp.Symbol("z")
    active = {sigma: sp.Lambda(z, z), sigma_prime: sp.Lambda(z, 1)}
    printed = rescaling_residuals(1, 1, 1, bias="both", appended=1)
    printed = [r.replace(sigma, active[sigma]).replace(sigma_prime, active[sigma_prime])
               for r in printed]  # fmt: skip
    corrected = rescaling_residuals(1, 1, 1, bias="both")
    return sp.Add(*(r**2 for r in printed)), sp.Add(*(r**2 for r in corrected))


def errata() -> list[Erratum]:
    """Disagreements with the printed Sections 3-4 of seed 004."""
    return [
        Erratum(
            SEED, "Section 3 (bias b^[2]) with (6)-(7)",
            "b^[2] is incorporated by expanding xbar = sigma(W1 x) to (xbar^T, 1)^T and W2 "
            "to (W2, b^[2]); the rescaling (6) then gives the normalised flow (7)",
            "with b2bar = b2/beta_2 (eq. (6) on the folded W2) the normalised flow is (7) "
            "with sigma(W1bar x) extended by 1/beta_1 = kappa_2/beta_3, not by 1: with a "
            "second-layer bias the normalised model depends on beta_1 besides kappa_1..3",
            "sigma(W1 x) = beta_1 sigma(W1bar x) is rescaled but the appended constant is "
            "not, so W2 (xbar, 1) = beta_2 beta_1 (W2bar sigma(W1bar x) + b2bar/beta_1). "
            "The first-layer bias folds in exactly (claim three_layer.bias_first_layer). "
            "Consequence: along Table 2's family (alpha -> c^3 alpha, beta_i -> c beta_i) "
            "the constant 1/beta_1 changes, so with b^[2] the rows of a group are not the "
            "same normalised network. Residual: every component of the rescaled flow and "
            "the output minus (7) (sum of squares, m = d = n = 1, both biases), with 1 "
            "(printed) vs 1/beta_1 (corrected).",
            _bias_2_residuals,
        ),
        Erratum(
            SEED, "text after (9) (Assumptions 3.1-3.2)",
            "assumptions 3.1 and 3.2 mean kappa_1 = B",
            "assumptions 3.1 and 3.2 mean kappa_1 = 1/B",
            "kappa_1 = beta_3/beta_2 (eq. (8)) and beta_2 = B beta_3 (Assumption 3.2) give "
            "kappa_1 = 1/B. The conclusion gamma_1 = 0 is unaffected. "
            "Residual: kappa_1 - B vs kappa_1 - 1/B with beta_2 = B beta_3.",
            _kappa1_residuals,
        ),
        Erratum(
            SEED, "(7)",
            "d abar/dtbar = -( (1/n) sum_i kappa_3 sigma(...) ) e_i  (e_i outside the sum, "
            "likewise for W2bar, W1bar)",
            "d abar/dtbar = -(1/n) sum_i kappa_3 sigma(...) e_i  (e_i inside, as in (5))",
            "The error e_i depends on the summation index; factored out of the sum the "
            "equation is not the gradient flow for any fixed i. Residual: first component of "
            "d abar/dtbar (m = d = 1, n = 2, ReLU units active) minus the printed reading with "
            "e_1 times that with e_2, vs minus the corrected form.",
            _sum_residuals,
            changes_math=False,
        ),
    ]  # fmt: skip
