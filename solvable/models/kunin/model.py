"""Seed 003 (Kunin et al.), the model's record: :func:`claims` (proved or checked from this
package alone), :func:`errata` (every disagreement with the printed poster, each with its
check) and ``MODEL`` (with the conservation laws of :func:`~solvable.models.kunin.flows.laws`
and the systems).
"""

from __future__ import annotations

import sympy as sp

from solvable._core.claims import Erratum, Theorem
from solvable._core.model import Model
from solvable.models.kunin.aligned_proofs import (
    _aligned_coupling,
    _aligned_reduction,
    _aligned_rescaling,
)
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.flows import _scalar, laws
from solvable.models.kunin.kernel_distance import CLAIMS as KERNEL_DISTANCE_CLAIMS
from solvable.models.kunin.losses import SEED, balance
from solvable.models.kunin.numeric_checks import (
    _delta_continuity,
    _preconditioner_evaluators,
    _reported_constants,
    _wide_preconditioner_single,
    _wide_single_neuron,
)
from solvable.models.kunin.proofs import (
    _balanced_m,
    _bernoulli_lemma,
    _beta_flow,
    _deviation_from_minimum,
    _eigenvector,
    _flow_parts,
    _limit_at_infinity,
    _loss_in_frame,
    _m_of_beta_delta,
    _ntk,
    _poster_delta,
    _reduction,
    _regimes,
    _stable_solution,
    _textbook_solution,
    _unit_rates,
    _unit_rates_residuals,
)
from solvable.models.kunin.systems import SYSTEMS
from solvable.models.kunin.wide_aligned_proofs import _wide_aligned_reduction
from solvable.models.kunin.wide_proofs import (
    _wide_Delta_general,
    _wide_deviation_from_limit,
    _wide_limit_at_infinity,
    _wide_ntk,
    _wide_reduction,
    _wide_riccati,
    _wide_stable_form,
)
from solvable.models.kunin.wide_shapes_proofs import (
    _wide_decoupled_weights,
    _wide_echelon_form,
    _wide_echelon_limit,
)


def claims() -> list[Theorem]:
    """The claims of seed 003 proved or checked from this module alone (the conservation
    laws come from :func:`laws`, the simulation-backed confirmations are in
    :mod:`solvable.verification.confirmations.kunin`)."""

    def T(id_, where, statement, fn, kind="symbolic"):
        return Theorem(f"kunin.{id_}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("beta_flow", "Part I (self-consistent flow)",
          "d beta/dt = -M grad_beta L with M = eta_w a^2 I + eta_a w w^T "
          "(weight_preconditioner; grad_beta L derived from the loss).", _beta_flow),
        T("M_of_beta_delta", "Part I",
          "M = (sigma + delta)/2 I + (sigma - delta)/2 beta beta^T/|beta|^2, "
          "sigma = sqrt(delta^2 + 4 eta_a eta_w |beta|^2).", _m_of_beta_delta),
        T("ntk", "Part I", "The NTK on the data is K = X M X^T: df/dt = -K (f - y).", _ntk),
        T("loss_in_frame", "Part I (the loss, eq. L = 1/2 sum_i (a w^T x_i - y_i)^2)",
          "For data B (n, 2) (the plane of w: X beta*-hat, X c_perp) and targets y, the "
          "three rows R (Cholesky factor of B^T B over a zero row) and targets g = (R^-T "
          "B^T y, dist(y, span B)) give the same loss for every a and coordinates c: "
          "loss(a, c, B, y) = loss(a, c, R, g) (full rank, rank one, a zero column; n = 1..3; "
          "the float64 sample's O(1) loss).", _loss_in_frame),
        T("regimes", "Part I, regimes 1-3 (corrected, see errata)",
          "delta -> +oo: M ~ delta I (lazy); delta = 0: M = sqrt(eta_a eta_w)|beta|(I + "
          "bb^T/|b|^2) (rich); delta -> -oo: M ~ |delta| bb^T/|b|^2 (delayed rich).", _regimes),
        T("unit_rates", "Part I (delta = a^2 - ||w||^2)",
          "a/sqrt(eta_a), w/sqrt(eta_w) follow the unit-rate flow with inputs sqrt(eta_a eta_w) "
          "X, and delta = eta_w a^2 - eta_a |w|^2 is eta_a eta_w times the poster's a^2 - "
          "||w||^2 in those variables.", _unit_rates),
        T("whitened_reduction", "Part I (exact solution)",
          "For X^T X = s I: z = (a/sqrt(eta_a'), w/sqrt(eta_w')) obeys dz/dt = G z - "
          "(kappa^2/2)|z|^2 z, G = [[delta'/2, kappa beta*^T], [kappa beta*, -delta'/2 I]]; "
          "G is J on the plane of (a, beta*) and -delta'/2 across it.", _reduction),
        T("eigenvector", "Part I (exact solution)",
          "Omega and v_+ (both sign branches of delta) are the unstable eigenpair of J, "
          "(-v_y, v_x) the stable one.", _eigenvector),
        T("bernoulli_lemma", "Part I (exact solution)",
          "z = e^{Gt} z0 / sqrt(phi), phi' = kappa^2 |e^{Gt} z0|^2, phi(0) = 1, solves it.",
          _bernoulli_lemma),
        T("textbook_solution", "Part I (exact solution)",
          "e^{Jt} = cosh(Omega t) + sinh(Omega t) J/Omega and the closed-form phi(t).",
          _textbook_solution),
        T("stable_solution", "Part I (evaluation form)",
          "The evaluated form (eigen-decomposed, all terms >= 0, exponents <= 0) equals the "
          "textbook one for delta > 0 and delta < 0.", _stable_solution),
        T("deviation_from_minimum", "Part I (exact solution; the loss)",
          "beta's coordinate along beta*-hat minus |beta*| is kappa z_dev (every term decaying "
          "in t; z_dev_inf at t = oo) and, for X^T X = s I exactly, L = L_min + s |beta - "
          "beta*|^2 / 2 (loss_deviation): the loss near a minimum without the cancellation "
          "of the residual X a w - y.", _deviation_from_minimum),
        T("limit_at_infinity", "Part I (exact solution, t -> oo)",
          "The state at t = oo (z_a_inf, z_1_inf, z_perp_inf: the fixed point along sign(c_+) "
          "v_+, the downstream rest point across beta* when c_+ = 0, or the saddle) is the "
          "limit of the evaluated solution on every branch (delta >< 0, c_+ >< 0, Omega = 0).",
          _limit_at_infinity),
        T("delta_continuity", "Part I (balanced limit)",
          "The balanced (delta = 0) solution is the continuous limit of unbalanced ones.",
          _delta_continuity, kind="numeric"),
        T("reported_constants", "Part I (exact solution)",
          "closed_form's s, beta_star, delta and Omega (float64; mpmath at two precisions) "
          "equal their definitions evaluated exactly (X^T X = s I; the least-squares "
          "solution; the poster's delta; the largest eigenvalue of G) over the suite.",
          _reported_constants, kind="numeric"),
        T("preconditioner_evaluators", "Part I",
          "The generated M(beta, delta) (float64; mpmath at two precisions) equals eta_w a^2 I "
          "+ eta_a w w^T at the suite's initial weights.", _preconditioner_evaluators,
          kind="numeric"),
        T("wide_preconditioner_single", "Part II, Theorem 4.2 (h = c = 1)",
          "Theorem 4.2's preconditioners at h = c = 1 add up to the single neuron's M "
          "(delta >= 0, or d = 1).", _wide_preconditioner_single, kind="numeric"),
        T("wide_reduction", "Part II, Theorem 4.2 setting (exact solution)",
          "For X^T X = s I, Q = [A/sqrt(eta_a'), W/sqrt(eta_w')] obeys dQ/dt = Q K - "
          "(kappa^2/2) Q Q^T Q + (s/2)(Delta - delta I) Q J, K = [[delta'/2 I, kappa B*^T], "
          "[kappa B*, -delta'/2 I]]: the Riccati flow wherever Delta = delta I.", _wide_reduction),
        T("wide_Delta_general", "Part II (conservation of Delta)",
          "Delta = eta_w A A^T - eta_a W W^T is conserved by the wide net's gradient flow for "
          "every shape: A (h, c), W (h, d), X (n, d), Y (n, c) as matrices of symbolic sizes, "
          "the gradients by matrix calculus; the typed loss, Delta and field are the "
          "package's on (n, d, h, c) = (3, 2, 2, 4).", _wide_Delta_general),
        T("wide_riccati", "Part II (exact solution)",
          "P = Y^T N^-1 Y (Y' = Y K, N' = kappa^2 Y Y^T) solves P' = K P + P K - kappa^2 P^2; "
          "for h = 1, Q = Y/sqrt(N) solves the Q flow; N = I + kappa^2 C diag(t exprel(2kt)) "
          "C^T in the eigenbasis.", _wide_riccati),
        T("wide_stable_form", "Part II (exact solution, evaluation form)",
          "The evaluated form (riccati_core = L L^T with L of riccati_factor, riccati_gram: "
          "exponents <= 0) equals Lam C^T N^-1 C Lam, and for h = 1 sign(c_+) core^-1/2 "
          "[1, M] = N^-1/2 C Lam.", _wide_stable_form),
        T("wide_limit_at_infinity", "Part II (exact solution, t -> oo)",
          "As t -> oo, P tends to diag(2 k_+/kappa^2) (+ modes, rates k_+ > 0) and 0 elsewhere, "
          "a fixed point of the Riccati equation: P(oo) = (2/kappa^2) K_+.",
          _wide_limit_at_infinity),
        T("wide_deviation_from_limit", "Part II (exact solution; the loss)",
          "P - P(oo) in decaying terms: core^-1 - diag(p_inf) = core^-1 (diag(u_plus) - G "
          "diag(p_inf)), G = core - kappa^2 diag(g_plus), u_plus = 1 - kappa^2 g_plus p_inf "
          "(e^{-2kt} for k > 0, else 1); the limit's beta is beta* on each singular plane, so "
          "for X^T X = s I exactly L = L_min + s |beta - beta*|_F^2 / 2 keeps its relative "
          "digits near the minimum.", _wide_deviation_from_limit),
        T("wide_echelon_form", "Part II, every shape the balance allows (exact solution, "
          "evaluation form; derived here)",
          "For h <= c (delta > 0), h <= d (delta < 0) or any h (delta = 0): with the echelon "
          "form C = U1 R1 E of C = Q0 R (pivots by decreasing rate), Yh = E o e^{(k_j - "
          "k_{J_i}) t} and L = [e^{-k_J t} R1^-1, kappa E o e^{-k_{J_i} t} sqrt(g_j)] "
          "(every exponent <= 0), Yh^T (L L^T)^-1 Yh is the textbook Lam C^T N^-1 C Lam "
          "(also for a start of rank r < h), and for h = 1 U1 Yh / sqrt(L L^T) = N^-1/2 C "
          "Lam.", _wide_echelon_form),
        T("wide_echelon_limit", "Part II, every shape the balance allows (t -> oo)",
          "As t -> oo, P tends to (2/kappa^2) sum_g k_g Pi_g over the pivot rates k_g > 0 "
          "(Pi_g: the projector onto the start's part in the modes of rate k_g, among the rows "
          "whose pivot has that rate; ties and untouched modes included), a fixed point of "
          "the Riccati equation.", _wide_echelon_limit),
        T("wide_decoupled_weights", "Part II, every shape (A and W themselves; derived here)",
          "Where the start's rate-group Gram matrices M_l = sum_{k_j = l} c_j c_j^T commute "
          "(rows that decouple by modes, up to a rotation O of the hidden layer), N is "
          "diagonal in O's basis and Q = N^-1/2 C e^{Kt} solves the Q flow; the flow is "
          "equivariant under O: A and W are determined in closed form (h = 2, a tie and a "
          "single mode).", _wide_decoupled_weights),
        T("wide_ntk", "Part II (NTK)",
          "d F/dt = -K (F - Y) along the wide flow with K[i,a,j,b] = eta_a x_i^T W^T W x_j "
          "delta_ab + eta_w (A^T A)_ab x_i^T x_j (wide_ntk).", _wide_ntk),
        T("aligned_reduction", "Part I (exact solution; inputs not whitened, issue 31)",
          "If X^T y and w0's part outside ker X lie in one eigenspace E of X^T X (eigenvalue "
          "s), w = w_E + w_N with w_N in ker X constant and (a, w_E) the whitened neuron with "
          "s; L = L_whitened + (|y|^2 - |X^T y|^2/s)/2; delta = delta_E - eta_a |w_N|^2 "
          "(the package's flow, loss and balance on X = diag(r, r, l, 0) R, a rational "
          "rotation R off the axes).", _aligned_reduction),
        T("aligned_rescaling", "Part I (exact solution; inputs not whitened, issue 31)",
          "The whitened neuron with X = r I, y is that with X = I, y / r and rates r^2 eta "
          "(the same field), its loss r^2 times that one's, its delta r^-2 times: the setup "
          "Setup(s eta_a, s eta_w, I, beta*) the aligned closed form evaluates.",
          _aligned_rescaling),
        T("aligned_coupling", "Part I (inputs not whitened: the refused starts, issue 31)",
          "A component c2 of w on a second eigenvalue l^2 of X^T X moves (dc2/dt = -eta_w a^2 "
          "l^2 c2) and adds -eta_a a l^2 c2^2 to da/dt: (a, w_E) is no longer the whitened "
          "neuron (closed_form refuses such a start).", _aligned_coupling),
        T("wide_aligned_reduction", "Part II (exact solution; inputs not whitened, issue 31)",
          "If the columns of X^T Y and of X^T X W0^T lie in one eigenspace E of X^T X "
          "(eigenvalue s), W = W_E + W_N with W_N (rows in ker X) constant and (A, W_E) the "
          "whitened wide net of X = I, Y = B* = X^T Y / s with rates s eta; L = s L_virtual + "
          "(|Y|^2 - |X^T Y|^2/s)/2; Delta = Delta_E - eta_a W_N W_N^T, the virtual balance s "
          "Delta_E; and the evaluated setup X = q I, Y = q B*, rates (s/q^2) eta has the same "
          "field, q^2 times its loss (the package's flow, loss and balance on X = diag(r, r, l, "
          "0) R, a rational rotation R off the axes, h = c = 2).", _wide_aligned_reduction),
        T("wide_single_neuron", "Part II vs Part I (h = c = 1)",
          "At h = c = 1 wide_closed_form's A, W, beta are closed_form's a, w, beta (delta >= 0, "
          "or d = 1), float64 and mpmath, t in [0, oo].", _wide_single_neuron, kind="numeric"),
        *(T(*claim) for claim in KERNEL_DISTANCE_CLAIMS),
    ]  # fmt: skip


# ---------------------------------------------------------------------------
# Errata
# ---------------------------------------------------------------------------
def _kunin_balanced_m() -> tuple[sp.Expr, sp.Expr]:
    # on the balanced manifold: M (weight_preconditioner) minus the printed coefficient times
    # (I + bb^T/|b|^2), resp. minus the module's lambda_1(delta = 0) times it; as sums of squares
    printed, corrected = _balanced_m()
    return sum(r**2 for r in printed), sum(sp.simplify(r) ** 2 for r in corrected)


def _rates_delta() -> tuple[sp.Expr, sp.Expr]:
    # along the flow with rates eta_a, eta_w (n = d = 2): d/dt of the printed a^2 - |w|^2
    # (non-zero unless eta_a = eta_w), resp. d/dt of balance() = eta_w a^2 - eta_a |w|^2 plus
    # the residuals of the claim kunin.unit_rates (balance = eta_a eta_w times the printed
    # delta of the unit-rate variables), as sums of squares
    S = symbolic()
    F, a, w, _, _ = _flow_parts()
    printed = F.ddt(_poster_delta(_scalar(a), w))
    corrected = sp.simplify(F.ddt(_scalar(balance(a, w, S.eta_a, S.eta_w)))) ** 2
    return printed, corrected + sum(sp.simplify(r) ** 2 for r in _unit_rates_residuals())


def errata() -> tuple[Erratum, ...]:
    """Every disagreement of this module with the printed poster, each with its check."""
    return (
        Erratum(
            SEED, "Part I, regime 2 (delta = 0)",
            "M = eta_a eta_w ||beta|| (I_d + beta beta^T/||beta||^2)",
            "M = sqrt(eta_a eta_w) ||beta|| (I_d + beta beta^T/||beta||^2)",
            "With delta = 0, eta_w a^2 = eta_a ||w||^2 and ||beta||^2 = a^2 ||w||^2 give "
            "eta_w a^2 = eta_a ||w||^2 = sqrt(eta_a eta_w) ||beta||; the rates enter under a "
            "square root (the printed form is not even dimensionally consistent). Residual: "
            "M = eta_w a^2 I + eta_a w w^T on the balanced manifold minus each form (squared "
            "entries), the printed one at a rational point.",
            _kunin_balanced_m,
        ),
        Erratum(
            SEED, "Part I (delta = a^2 - ||w||^2)",
            "delta = a^2 - ||w||^2 is conserved",
            "delta = eta_w a^2 - eta_a ||w||^2 is conserved (a^2 - ||w||^2 only when eta_a = "
            "eta_w; in the unit-rate variables a/sqrt(eta_a), w/sqrt(eta_w) it is eta_a eta_w "
            "(a~^2 - ||w~||^2))",
            "The printed quantity is the conserved one of equal learning rates only: along the "
            "flow da/dt = -eta_a dL/da, dw/dt = -eta_w dL/dw, d(a^2 - |w|^2)/dt = -2 (eta_a - "
            "eta_w) beta . grad_beta L. Residuals: d/dt of each form along the flow (the printed "
            "one at a rational point, eta_a != eta_w), the corrected one with the claim "
            "kunin.unit_rates.",
            _rates_delta,
        ),
    )  # fmt: skip


MODEL = Model(
    name="kunin",
    seed=SEED,
    title="Kunin et al.: single neuron (delta, lazy / rich / delayed rich), wide and "
    "piecewise-linear networks",
    claims=claims,
    errata=errata,
    laws=laws,
    systems=SYSTEMS,
)
