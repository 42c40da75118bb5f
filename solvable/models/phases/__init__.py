"""Phase conditions of the two-layer linear network in scaling limits (seed 001, Xu &
Ziyin, Section 3): every hyperparameter is a power of ``kappa -> oo``,

    d ~ kappa^c_d, gamma ~ kappa^c_gamma, sigma_u^2 ~ kappa^c_u, sigma_w^2 ~ kappa^c_w,
    eta_u ~ kappa^c_eta_u, eta_w ~ kappa^c_eta_w      (x, y = Theta(1), d0 fixed),

and the phase is decided by exact (rational) arithmetic on the exponents.

Derivation (Theorem 1): ``1/t_c^2 = D^2 = B^2 + 4 A C = rho^2 (eta_u eta_w gamma^2 y^2
+ 4 rho^2 (gamma^2 d)^2 P Q)``, eq. (27).  Under Gaussian initialisation ``P`` and ``Q``
concentrate at ``(eta_w sigma_u^2 + eta_u sigma_w^2)/4`` (for rho = ||x||, see
:func:`p_q_moments`), so ``P, Q ~ kappa^m`` with ``m = max(c_eta_w + c_u, c_eta_u + c_w)``
and ``1/t_c^2 ~ kappa^max(a, 2 b)`` with the two exponents of eq. (28)

    a = 2 c_gamma + c_eta_u + c_eta_w,      b = 2 c_gamma + c_d + m.

``max(a, 2b)`` has the sign of ``max(a, b)``: ``> 0`` unstable (t_c -> 0), ``< 0``
frozen (t_c -> oo), ``= 0`` learning (eq. (28)).  Then (Theorem 2) the NTK
``K = 2 gamma^2 rho^2 d (P alpha + Q/alpha)`` starts at ``Theta(kappa^b)`` and ends at
``alpha_+ = (B + D)/(2A) -> sqrt(Q/P)`` when ``b > a`` (eq. (30)): the kernel phase needs
``b > a`` and ``P/Q -> 1`` (eq. (29)), which holds (i) for ``c_d > 0`` (law of large
numbers: P and Q have the same mean), (ii) for a zero initial output (``P = Q``
exactly), (iii) for ``c_d = 0`` with ``c_u + c_eta_w != c_w + c_eta_u`` (one of the two
terms of p_i = q_i +- ... dominates).  Otherwise feature learning.

Section 3.2 (:func:`initialisation_phase`): ``d`` and ``eta`` fixed, ``c_u = max{0, c_w}``,
``c_gamma = min{-c_w/2, 0}``.  Eq. (28) holds for every ``c_w`` and eq. (30) iff ``c_w >
0``, but the initial output grows as ``kappa^(c_w/2)`` for ``c_w > 0``, and there
``c_u = c_w`` at fixed ``d`` leaves ``P/Q`` random under i.i.d. Gaussian initialisation
(as in Table 1's lazy column without a zero output): feature learning for every ``c_w``
unless the initial output is zero (errata of this module, with Appendix B.4's exponents).

The files, in import order:

* ``scaling.py``: the exponents of eqs. (27)-(28), :class:`Scaling` and
  :func:`xu_ziyin_phase`;
* ``section_3_2.py``: Section 3.2 and Appendix B.4 (:func:`initialisation_phase`);
* ``table.py``: Table 1 (:func:`table_1`, :func:`format_table_1`);
* ``moments.py``: the moments of ``P`` and ``Q`` (:func:`p_q_moments`);
* ``claim_checks.py``: the claims and their proofs (:func:`claims`);
* ``errata_checks.py``: the errata and their checks (:func:`errata`);
* this file: the re-exports and :data:`MODEL`.
"""

from __future__ import annotations

from solvable._core.model import Model
from solvable.models.phases.claim_checks import claims
from solvable.models.phases.errata_checks import errata
from solvable.models.phases.moments import p_q_moments
from solvable.models.phases.scaling import (
    EXPONENT_NAMES,
    EXPONENT_SYMBOLS,
    PHASES,
    Scaling,
    exponents,
    xu_ziyin_phase,
)
from solvable.models.phases.scaling import SEED as SEED
from solvable.models.phases.scaling import Phase as Phase
from solvable.models.phases.section_3_2 import (
    C_W,
    InitialisationPhase,
    initialisation_phase,
    section_3_2_exponents,
    section_3_2_scaling,
)
from solvable.models.phases.table import BLOCKS as BLOCKS
from solvable.models.phases.table import TABLE_1_COLUMNS, format_table_1, table_1
from solvable.models.phases.table import Column as Column

__all__ = [
    "C_W",
    "EXPONENT_NAMES",
    "EXPONENT_SYMBOLS",
    "MODEL",
    "PHASES",
    "TABLE_1_COLUMNS",
    "InitialisationPhase",
    "Scaling",
    "exponents",
    "format_table_1",
    "initialisation_phase",
    "p_q_moments",
    "section_3_2_exponents",
    "section_3_2_scaling",
    "table_1",
    "xu_ziyin_phase",
]

MODEL = Model(
    name="phases",
    seed=SEED,
    title="Xu & Ziyin Section 3: phases of the two-layer linear network in scaling limits",
    claims=claims,
    errata=errata,
    tables=format_table_1,
)
