"""Seed 004, Sections 4 and 5.3.1 with Assumptions 3.1-3.2: the power-law
initialisation at a phase point ``(gamma_2, gamma_3)`` with ``alpha = m^s``
(:func:`power_law_scheme`); Table 2's rows are that family."""

from __future__ import annotations

from typing import Any

import sympy as sp

from solvable.models.three_layer.coordinates import M, _number, _scale
from solvable.models.three_layer.tables import InitScheme


# ---------------------------------------------------------------------------
# Sections 4 and 5.3.1: the power-law initialisations behind the coordinates (9)
# ---------------------------------------------------------------------------
def _power_law_scales(
    gamma_2: sp.Expr, gamma_3: sp.Expr, s: sp.Expr, B: sp.Expr
) -> tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]:
    """``(alpha, beta_1, beta_2, beta_3) = (m^s, m^-q, B m^-p, m^-p)`` with
    ``p = (gamma_2 + gamma_3 - s)/3``, ``q = (gamma_3 - s - 2 gamma_2)/3``: the power laws of
    Assumptions 3.1-3.2 at the phase point ``(gamma_2, gamma_3)``, since eq. (9) gives
    ``gamma_2 = p - q`` and ``gamma_3 = 2p + q + s`` (claim ``three_layer.power_law_family``)."""
    p = (gamma_2 + gamma_3 - s) / 3
    q = (gamma_3 - s - 2 * gamma_2) / 3
    return M**s, M**-q, B * M**-p, M**-p


def power_law_scheme(gamma_2: Any, gamma_3: Any, alpha_exponent: Any = 0, B: Any = 1) -> InitScheme:
    """The initialisation with ``alpha = m^s`` (``s = alpha_exponent``), ``beta_3 = m^-p``,
    ``beta_2 = B beta_3`` (Assumption 3.2) and ``beta_1 = m^-q`` whose coordinates (9) are
    ``(gamma_1, gamma_2, gamma_3) = (0, gamma_2, gamma_3)``.

    For each ``s`` it is the only such power law (``p``, ``q`` solve a linear system), and
    Table 2's six rows are exactly this family at ``s`` = their alpha exponent, ``B = 1``
    (claims ``three_layer.power_law_family``, ``three_layer.table_2_family``).

    Parameters
    ----------
    gamma_2, gamma_3 : int, float, Fraction or sympy number
        The phase point (floats are read as the decimal they print as, 1.1 -> 11/10).
    alpha_exponent : int, float, Fraction or sympy number, optional
        ``s`` in ``alpha = m^s``; 0 (``alpha = 1``) by default.
    B : number or sympy expression, optional
        The constant of Assumption 3.2, ``> 0``.

    Returns
    -------
    InitScheme
        Named ``"power law (gamma_2, gamma_3; s)"``.
    """
    g2, g3, s = (_number(n, v) for n, v in (("gamma_2", gamma_2), ("gamma_3", gamma_3),
                                            ("alpha_exponent", alpha_exponent)))  # fmt: skip
    b = _scale("B", B)
    if b.free_symbols:
        raise ValueError(f"B must be a constant independent of m (Assumption 3.2), got {B!r}")
    alpha, b1, b2, b3 = _power_law_scales(g2, g3, s, b)
    return InitScheme(f"power law ({g2}, {g3}; {s})", alpha, b3, b2, b1)
