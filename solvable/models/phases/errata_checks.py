"""The errata of seed 001, Section 3 (the kernel condition's text, Section 3.2's initial
output and phase, Appendix B.4, Table 1's lazy column), each with its check
(:func:`errata`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import sympy as sp

from solvable._core.claims import Erratum
from solvable.models.phases.appendix_b3 import _kaiming_learning_rates
from solvable.models.phases.claim_checks import (
    _POS_S,
    _SIGN_CASES,
    _balanced_fluctuation,
    _evaluate,
    _fluctuation,
    _p_minus_q_is_output,
    _section_3_2_at,
)
from solvable.models.phases.scaling import (
    EXPONENT_NAMES,
    EXPONENT_SYMBOLS,
    SEED,
    Scaling,
    exponents,
)
from solvable.models.phases.section_3_2 import _B4_C, _appendix_b4, section_3_2_exponents
from solvable.models.phases.table import table_1


# ---------------------------------------------------------------------------
# Errata
# ---------------------------------------------------------------------------
def _kernel_condition_text() -> tuple[sp.Expr, sp.Expr]:
    # at the NTK column of Table 1 (c_d = 1, c_gamma = -1/2, c_u = c_w = c_eta = 0), which
    # the paper itself places in the kernel phase, the equality part must vanish: printed
    # c_gamma + c_d + m, and this module's b (Scaling.second_term)
    ntk = Scaling(1, sp.Rational(-1, 2), 0, 0, 0, 0)
    printed = ntk.c_gamma + ntk.c_d + ntk.pq_exponent
    return printed, ntk.second_term


def _max_ab(values: dict[str, Any]) -> sp.Expr:
    """The left side of eq. (28), max(a, b), at the exponents ``values``."""
    return sp.Max(_evaluate(values, "a"), _evaluate(values, "b"))


def _initial_output() -> tuple[sp.Expr, sp.Expr]:
    # printed "O(1)" for every c_w: max(f0, 0) = 0 (at a rational point c_w > 0).  Corrected:
    # f0 = c_w/2 in each sign case, and at c_w = s > 0 the c_gamma = -s that makes f0 = 0
    # gives max(a, b) = -s (frozen, eta fixed)
    printed = sp.Max(_evaluate(section_3_2_exponents(), "f0"), 0)
    res = [(_evaluate(_section_3_2_at(c), "f0") - c / 2) ** 2 for _, c in _SIGN_CASES]
    alt = {**_section_3_2_at(_POS_S), "c_gamma": -_POS_S}
    res += [_evaluate(alt, "f0") ** 2, (_max_ab(alt) + _POS_S) ** 2]
    return printed, sum(res)


def _section_3_2_phase() -> tuple[sp.Expr, sp.Expr]:
    # printed "kernel iff c_w > 0" needs P/Q -> 1 at c_w > 0 (eq. (29)): the limit of
    # E[(P - Q)^2]/E[P]^2 there must vanish.  Corrected: b - a = max(c_w, 0) in each sign case;
    # that limit is the balanced constant for c_w >= 0 (c_u = c_w) and 0 for c_w < 0; a zero
    # initial output gives P = Q (P - Q = f/c)
    printed = _fluctuation(_section_3_2_at(_POS_S))
    res = []
    for _, c in _SIGN_CASES:
        v = _section_3_2_at(c)
        target = 0 if c.is_negative else _balanced_fluctuation()
        res += [(_evaluate(v, "b") - _evaluate(v, "a") - sp.Max(c, 0)) ** 2,
                (_fluctuation(v) - target) ** 2]  # fmt: skip
    return printed, sum(res) + _p_minus_q_is_output() ** 2


def _b4_gamma() -> tuple[sp.Expr, sp.Expr]:
    # (28) requires max(a, b) = 0: B.4 as printed (a rational point has c > 0), and with
    # the sign of gamma's exponent corrected, in each sign case of c
    b4 = _appendix_b4()
    fixed = {**b4, "c_gamma": -b4["c_gamma"]}
    corrected = sum(_max_ab({k: v.xreplace({_B4_C: c}) for k, v in fixed.items()}) ** 2
                    for _, c in _SIGN_CASES)  # fmt: skip
    return _max_ab(b4), corrected


def _b4_roles() -> tuple[sp.Expr, sp.Expr]:
    # (c_u, c_w) of B.4 (gamma's sign corrected) against Section 3.2's at c_w = c: printed at
    # c = -s (they agree for c >= 0); corrected (sigma_u, sigma_w swapped back) in each sign
    # case, all six exponents; and at equal rates a, b, m, f0 are symmetric in c_u <-> c_w and
    # case 3 of eq. (29) depends on |c_u - c_w| only, so the swap changes no phase
    b4 = _appendix_b4()
    b4 = {**b4, "c_gamma": -b4["c_gamma"]}
    swapped = {**b4, "c_u": b4["c_w"], "c_w": b4["c_u"]}

    def gap(values: dict[str, sp.Expr], c: sp.Expr, keys: tuple[str, ...]) -> sp.Expr:
        at = {k: v.xreplace({_B4_C: c}) for k, v in values.items()}
        return sum((at[k] - _section_3_2_at(c)[k]) ** 2 for k in keys)

    printed = gap(b4, -_POS_S, ("c_u", "c_w"))
    corrected = sum(gap(swapped, c, EXPONENT_NAMES) for _, c in _SIGN_CASES)
    _c_d, _c_gamma, c_u, c_w, c_eta_u, c_eta_w = EXPONENT_SYMBOLS
    equal = {c_eta_w: c_eta_u}
    swap = {c_u: c_w, c_w: c_u}
    for e in exponents().values():
        e = e.xreplace(equal)
        corrected += (e - e.xreplace(swap)) ** 2
    case_3 = (c_u + c_eta_w - c_w - c_eta_u).xreplace(equal)
    return printed, corrected + (case_3 + case_3.xreplace(swap)) ** 2


def _lazy_column() -> tuple[sp.Expr, sp.Expr]:
    # the lazy cells printed "kernel": (29) needs the limit of E[(P - Q)^2]/E[P]^2 to vanish;
    # under i.i.d. Gaussian initialisation it is the balanced constant (c_d = 0, c_u = c_w,
    # equal rates).  Corrected: that value, P = Q for a zero output (P - Q = f/c), and the
    # phases Scaling gives with and without zero output
    cells = [r["scaling"] for r in table_1() if r["column"] == "lazy" and r["printed"] == "kernel"]
    values = [{k: getattr(s, k) for k in EXPONENT_NAMES} for s in cells]
    printed = sum(_fluctuation(v) for v in values)
    corrected = sum((_fluctuation(v) - _balanced_fluctuation()) ** 2 for v in values)
    phases_ok = all(s.phase == "kernel" and replace(s, zero_initial_output=False).phase
                    == "feature learning" for s in cells)  # fmt: skip
    corrected += _p_minus_q_is_output() ** 2 + sp.Integer(0 if cells and phases_ok else 1)
    return printed, corrected


def errata() -> tuple[Erratum, ...]:
    """The disagreements of Section 3 with this module, each with its check."""
    return (
        Erratum(
            SEED, "Section 3 conclusion and Section 3.1 (kernel condition)",
            "0 = c_gamma + c_d + max{c_eta_w + c_u, c_eta_u + c_w} > c_eta_u + c_eta_w",
            "0 = 2 c_gamma + c_d + max{c_eta_w + c_u, c_eta_u + c_w} > 2 c_gamma + c_eta_u + "
            "c_eta_w",
            "The two terms of eq. (28) both carry 2 c_gamma (gamma^2 in eq. (27)); eq. (30) "
            "drops it from both sides consistently, the prose keeps one c_gamma on one side "
            "only. With the printed text the NTK column of Table 1 would not be in the kernel "
            "phase. Residual: the equality part at the NTK column (c_d, c_gamma) = (1, -1/2).",
            _kernel_condition_text,
        ),
        Erratum(
            SEED, "Appendix B.3 (Kaiming+- learning rates)",
            "gamma = 1 and eta = 0.05 d/100 for the Kaiming- model, gamma = 100/d and eta = "
            "0.05 for the Kaiming+ model",
            "Kaiming-: gamma = 1, eta = 0.05 (100/d) (c_eta^- = -1); Kaiming+: gamma = 100/d, "
            "eta = 0.05 d/100 (c_eta^+ = 1), as Table 1 and Section 3.1 say; still equal at "
            "d = 100",
            "With Kaiming's c_u = 0, c_w = -1, the printed rates give c_eta = 1 for Kaiming- "
            "and 0 for Kaiming+, Table 1's c_eta^- = -1 and c_eta^+ = 1 swapped: by eq. (28) "
            "the printed Kaiming- is unstable and Kaiming+ frozen. Residual: the sum of the "
            "squared differences of c_eta from Table 1's, over Kaiming+-.",
            _kaiming_learning_rates,
        ),
        Erratum(
            SEED, "Section 3.2 (initial output)",
            "c_u = max{0, c_w}, c_gamma = min{-c_w/2, 0}: this choice ensures that the initial "
            "model output is O(1)",
            "the initial output is ~ kappa^(c_w/2): O(1) only for c_w <= 0; for c_w > 0 it "
            "grows as kappa^(c_w/2) (an O(1) output needs c_gamma = -c_w, which at fixed eta "
            "gives max(a, b) = -c_w < 0: frozen)",
            "f_0 = gamma u^T W x has r.m.s. kappa^(c_gamma + (c_d + c_u + c_w)/2) (claim "
            "phases.output_exponent); with c_d = 0, c_u = c_w and c_gamma = -c_w/2 that is "
            "kappa^(c_w/2). Residuals: max(f0, 0) at c_w > 0; f0 - c_w/2 in each sign case, "
            "and f0 and max(a, b) + c_w at c_gamma = -c_w.",
            _initial_output,
        ),
        Erratum(
            SEED, "Section 3.2 (phase)",
            "By Theorem 2, the network is in the kernel phase if and only if c_w > 0",
            "eq. (30) holds iff c_w > 0 (b - a = max{c_w, 0}), but with c_u = c_w at fixed d "
            "P/Q does not tend to 1 under i.i.d. Gaussian initialisation (eq. (29) fails): "
            "feature learning for every c_w; kernel iff c_w > 0 for a zero initial output "
            "(case 2 of eq. (29))",
            "At fixed d, c_u + c_eta_w = c_w + c_eta_u makes p_i and q_i of the same order and "
            "the law of (P, Q)/E[P] independent of kappa: E[(P - Q)^2]/E[P]^2 -> 16AB/(d(A + "
            "B)^2) (4/d at equal prefactors; claim phases.p_minus_q_moments), so alpha_+ -> "
            "sqrt(Q/P) != 1 and the NTK moves by O(1/d) (small at the paper's d = 2000, but not "
            "o(1) in kappa). For c_w <= 0, a = b: feature learning, as printed. Residuals: that "
            "limit at c_w > 0; b - a - max(c_w, 0) and the limit in each sign case, and P - Q - "
            "f/c.",
            _section_3_2_phase,
        ),
        Erratum(
            SEED, "Appendix B.4 (gamma)",
            "gamma = kappa^(-min{0, -c/2})",
            "gamma = kappa^(min{0, -c/2})  (Section 3.2's c_gamma = min{-c_w/2, 0})",
            "For c > 0 the printed gamma grows as kappa^(c/2): with sigma_u^2, sigma_w^2 = "
            "kappa^c, a = c and b = 2c, so t_c -> 0 (unstable) and eq. (28) fails; with the "
            "sign of Section 3.2 max(a, b) = 0 for every c. Residual: max(a, b) of eq. (28), "
            "printed at c > 0, corrected in each sign case.",
            _b4_gamma,
        ),
        Erratum(
            SEED, "Appendix B.4 (sigma_u, sigma_w)",
            "sigma_u^2 = kappa^c, sigma_w^2 = kappa^max{c, 0}",
            "sigma_w^2 = kappa^c, sigma_u^2 = kappa^max{c, 0}  (Section 3.2: c_u = max{0, c_w})",
            "B.4 swaps the roles of u and w relative to Section 3.2 (they differ for c < 0). "
            "At equal learning rates the exponents a, b, m, f0 are symmetric in c_u <-> c_w "
            "and case 3 of eq. (29) depends on |c_u - c_w|, so the swap changes no phase; "
            "Section 3.2's labelling is taken as the intended one. Residuals: (c_u, c_w) of "
            "B.4 minus Section 3.2's at c < 0; swapped back, all exponents in each sign case, "
            "plus the symmetry.",
            _b4_roles,
            changes_math=False,
        ),
        Erratum(
            SEED, "Table 1 (lazy column, c_eta^* and c_eta^- blocks)",
            "lazy (c_d = 0, c_u = c_w = 0, equal rates): kernel",
            "kernel only for a zero initial output (case 2 of eq. (29), Chizat et al.'s "
            "assumption; this package's Table 1 column); under Section 3's i.i.d. Gaussian "
            "initialisation P/Q stays random at fixed d and these cells are feature learning",
            "Section 3 states Gaussian initialisation, and the table does not state the zero "
            "output. With c_d = 0 and c_u + c_eta_w = c_w + c_eta_u none of the three cases "
            "of eq. (29) holds: E[(P - Q)^2]/E[P]^2 -> 16AB/(d(A + B)^2) > 0 (claim "
            "phases.p_minus_q_moments). Residuals: that limit at the two cells; corrected, "
            "its value, P - Q - f/c, and Scaling's phase with and without zero output.",
            _lazy_column,
        ),
    )  # fmt: skip
