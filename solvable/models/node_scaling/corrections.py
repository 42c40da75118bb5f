"""The erratum of seed 000, Sections 3-5 (:func:`errata`): the proof sketch of Theorem 5.1 bounds
``sum_i |y_i - f_m(x_i)|`` by ``2 n L_m`` where Cauchy-Schwarz gives ``sqrt(2 n L_m)``, checked
with the package's loss (5).
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.activations import elementwise
from solvable._core.claims import Erratum
from solvable.models.node_scaling.network import loss
from solvable.models.node_scaling.symbols import SEED


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _loss_at_residuals(r: Any) -> sp.Expr:
    """``L_m`` of eq. (5) (:func:`loss`, the one definition) when the residuals ``y_i -
    f(x_i)`` are ``r``: a width-1 linear network with zero inputs (``f = 0``) and ``y = r``."""
    n = len(r)
    zero = np.full((n, 1), sp.S.Zero, dtype=object)
    W, a, s = (np.full(shape, sp.S.One, dtype=object) for shape in ((1, 1), (1,), (1,)))
    return sp.expand(loss(W, a, s, zero, np.array(r, dtype=object),
                          elementwise("linear", "sympy"), sp.S.One))  # fmt: skip


def _section5_cauchy_schwarz() -> tuple[sp.Expr, sp.Expr]:
    # sum_i |r_i| <= 2 n L (printed) vs <= sqrt(2 n L) (Cauchy-Schwarz), L = L_m of eq. (5)
    # at residuals r.  Printed: its violation at n = 1, r = 1/10.  Corrected: 2 n L -
    # (sum |r_i|)^2 equals 1/2 sum_{i,k} (|r_i| - |r_k|)^2 >= 0 (n = 3, r_i >= 0 stand for
    # |r_i|).
    r = sp.Rational(1, 10)
    printed = sp.Max(0, r - 2 * 1 * _loss_at_residuals([r]))
    rs = sp.symbols("r1:4", nonnegative=True)
    n = len(rs)
    gap = 2 * n * _loss_at_residuals(list(rs)) - sum(rs) ** 2
    corrected = gap - sum((ri - rk) ** 2 for ri in rs for rk in rs) / 2
    return printed, corrected


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    s = SEED
    return (
        Erratum(
            s, "Section 5, proof sketch of Theorem 5.1",
            "|dw_tj/dt| <= sqrt(lambda_{m,j}) sum_i |y_i - f_m(x_i)| <= sqrt(lambda_{m,j}) 2 n "
            "L_m(W_t)",
            "... <= sqrt(lambda_{m,j}) sqrt(2 n L_m(W_t))",
            "Cauchy-Schwarz gives sum_i |r_i| <= sqrt(n) ||r|| = sqrt(2 n L_m); the printed "
            "2 n L_m is smaller than sum |r_i| whenever L_m < 1/(2n) (e.g. n = 1, r = 1/10). "
            "The conclusion (the first NTK part barely moves) is unaffected, since "
            "sqrt(L_m(W_t)) also decays exponentially. Residuals: the violation at n = 1, "
            "r = 1/10, and the sum-of-squares form of 2nL - (sum |r_i|)^2 (n = 3).",
            _section5_cauchy_schwarz,
        ),
    )  # fmt: skip


def errata() -> list[Erratum]:
    """Disagreements with seed 000 (Sections 3-5) found here, each with its check (the
    ``argmax`` of Theorem 7.4 is :func:`solvable.models.linear_node_scaling.errata`)."""
    return list(_errata())
