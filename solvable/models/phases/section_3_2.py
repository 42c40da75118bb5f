"""Seed 001 Section 3.2 (and Appendix B.4): the initialisation scale at fixed width,
``c_u = max{0, c_w}``, ``c_gamma = min{-c_w/2, 0}`` (:func:`section_3_2_exponents`,
:func:`section_3_2_scaling`, :func:`initialisation_phase`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from solvable.models.phases.scaling import EXPONENT_SYMBOLS, Phase, Scaling, _exponent

# ---------------------------------------------------------------------------
# Section 3.2: the initialisation scale at fixed width
# ---------------------------------------------------------------------------
C_W = EXPONENT_SYMBOLS[3]
"""The parameter of Section 3.2 (``sigma_w^2 ~ kappa^c_w``)."""


def section_3_2_exponents() -> dict[str, sp.Expr]:
    """Seed 001 Section 3.2's choice as sympy expressions in :data:`C_W` (the one
    definition): ``d`` fixed (``c_d = 0``), the learning rate fixed (``c_eta_u = c_eta_w =
    0``, Appendix B.4), ``c_u = max{0, c_w}`` and ``c_gamma = min{-c_w/2, 0}``."""
    zero = sp.Integer(0)
    return {"c_d": zero, "c_gamma": sp.Min(-C_W / 2, 0), "c_u": sp.Max(0, C_W), "c_w": C_W,
            "c_eta_u": zero, "c_eta_w": zero}  # fmt: skip


_B4_C = sp.Symbol("c", real=True)


def _appendix_b4() -> dict[str, sp.Expr]:
    """Appendix B.4's choice as printed, in its parameter ``c`` (data: the errata
    ``Appendix B.4`` correct it): ``sigma_u^2 = kappa^c``, ``sigma_w^2 = kappa^max{c, 0}``,
    ``gamma = kappa^-min{0, -c/2}``, ``d`` and ``eta`` fixed."""
    zero = sp.Integer(0)
    return {"c_d": zero, "c_gamma": -sp.Min(0, -_B4_C / 2), "c_u": _B4_C,
            "c_w": sp.Max(_B4_C, 0), "c_eta_u": zero, "c_eta_w": zero}  # fmt: skip


def section_3_2_scaling(c_w: Any, *, zero_initial_output: bool = False) -> Scaling:
    """The :class:`Scaling` of seed 001 Section 3.2 at ``c_w`` (exact rational; types as
    for :class:`Scaling`): :func:`section_3_2_exponents` evaluated exactly."""
    value = _exponent("c_w", c_w)
    ex = {k: sp.Rational(v.xreplace({C_W: value})) for k, v in section_3_2_exponents().items()}
    return Scaling(**ex, zero_initial_output=zero_initial_output)


@dataclass(frozen=True)
class InitialisationPhase:
    """Seed 001 Section 3.2 at one ``c_w``, derived from :class:`Scaling`.

    ``output_exponent``: the initial output is ``Theta(kappa^e)`` (``-oo``: zero output);
    ``output_bounded``: ``e <= 0`` (the printed "initial model output is O(1)");
    ``eq_28``: ``max(a, b) = 0`` (t_c = Theta(1)); ``eq_30``: ``b > a``;
    ``p_over_q_case``: the case of eq. (29) that gives ``P/Q -> 1`` (``None``: at fixed
    ``d`` under i.i.d. Gaussian initialisation with ``c_u = c_w``, ``P/Q`` stays random);
    ``phase``: Theorem 2; ``printed_phase``: the paper's "kernel iff c_w > 0"."""

    c_w: sp.Rational
    scaling: Scaling
    output_exponent: sp.Expr
    output_bounded: bool
    eq_28: bool
    eq_30: bool
    p_over_q_case: int | None
    phase: Phase
    printed_phase: Phase


def initialisation_phase(c_w: Any, *, zero_initial_output: bool = False) -> InitialisationPhase:
    """Seed 001 Section 3.2 (and Appendix B.4, corrected): ``d`` and the learning rates
    fixed, ``sigma_w^2 ~ kappa^c_w``, ``c_u = max{0, c_w}``, ``c_gamma = min{-c_w/2, 0}``.

    Exact rational arithmetic.  What holds (claims ``phases.section_3_2``): eq. (28) for
    every ``c_w``; ``b - a = max{c_w, 0}``, so eq. (30) iff ``c_w > 0``; the initial output
    ``~ kappa^(c_w/2)``.  What does not (errata): the output is ``O(1)`` only for ``c_w <= 0``,
    and for ``c_w > 0`` (``c_u = c_w``, fixed ``d``) ``P/Q`` does not tend to 1 under i.i.d.
    Gaussian initialisation, so Theorem 2 gives feature learning for every ``c_w``; the
    printed "kernel iff c_w > 0" holds for a zero initial output (``zero_initial_output``,
    case 2 of eq. (29))."""
    s = section_3_2_scaling(c_w, zero_initial_output=zero_initial_output)
    e = s.output_exponent
    return InitialisationPhase(
        c_w=s.c_w, scaling=s, output_exponent=e, output_bounded=bool(e <= 0),
        eq_28=max(s.first_term, s.second_term) == 0, eq_30=s.second_term > s.first_term,
        p_over_q_case=s.p_over_q_case, phase=s.phase,
        printed_phase="kernel" if s.c_w > 0 else "feature learning",
    )  # fmt: skip
