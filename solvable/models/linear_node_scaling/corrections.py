"""The erratum of seed 000, Section 7.2 (:func:`errata`): Theorem 7.4's ``argmax`` (the
least-squares objective is minimised, not maximised, by ``beta_inf``), checked with the
package's loss (5).
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from solvable._core.activations import elementwise
from solvable._core.claims import Erratum
from solvable.models import node_scaling as ns
from solvable.models.linear_node_scaling._instance import _obj
from solvable.models.linear_node_scaling.expressions import SEED, _d, _k, _n, symbolic


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _theorem74_argmax() -> tuple[sp.Expr, sp.Expr]:
    # L(beta) is loss (5) of the linear network (node_scaling.loss) with one node of weight
    # beta (lambda = 1, a = 1), X = diag(1, 2), d = 2; beta_inf is the generated expression
    # (U = V = I, D = X).  Printed (argmax): beta_inf maximises L, violated by how much L(beta_inf
    # + e) exceeds L(beta_inf) at e = (1, 0).  Corrected (argmin): the gradient vanishes at
    # beta_inf and L(beta_inf + e) - L(beta_inf) = 1/2 |X e/sqrt(d)|^2 >= 0.
    y = sp.Matrix(sp.symbols("y1 y2", real=True))
    e = sp.Matrix(sp.symbols("e1 e2", real=True))
    X = sp.diag(1, 2)
    d = 2
    shapes = {_n: 2, _d: d, _k: 2}
    ex = symbolic().beta_inf.subs(shapes)
    ex = ex.subs(
        {
            sp.MatrixSymbol("y", 2, 1): y,
            sp.MatrixSymbol("U", 2, 2): sp.eye(2),
            sp.MatrixSymbol("Dinv", 2, 2): X.inv(),
            sp.MatrixSymbol("V", 2, 2): sp.eye(2),
        }
    )
    beta = sp.Matrix(ex.doit().as_explicit())  # fmt: skip
    sigma = elementwise("linear", "sympy")
    one = np.array([sp.S.One], dtype=object)

    def L(b: sp.Matrix) -> sp.Expr:
        return ns.loss(_obj(b.T), one, one, _obj(X), _obj(list(y)), sigma, sp.sqrt(d))

    printed = sp.Max(0, (L(beta + sp.Matrix([1, 0])) - L(beta)))
    grad = [sp.diff(L(beta + e), ei).subs({e[0]: 0, e[1]: 0}) for ei in e]
    corrected = (
        sum(gi**2 for gi in grad)
        + (L(beta + e) - L(beta) - ((X * e).T * (X * e))[0] / (2 * d)) ** 2
    )
    return printed, corrected


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    return (
        Erratum(
            SEED, "Theorem 7.4",
            "beta_inf = sqrt(d) V D^-1 U^T y is the minimum-norm solution of "
            "argmax_beta 1/2 ||y - X beta/sqrt(d)||^2",
            "... of argmin_beta 1/2 ||y - X beta/sqrt(d)||^2",
            "The least-squares objective is unbounded above; beta_inf is its minimum-norm "
            "minimiser (gradient zero, L(beta_inf + e) - L(beta_inf) = |X e|^2/(2d) >= 0). "
            "Residuals at X = diag(1, 2), d = 2 with the package's loss (5) and beta_inf: the "
            "increase of L away from beta_inf (printed), and the gradient plus the exact "
            "expansion (corrected).",
            _theorem74_argmax,
            changes_math=False,
        ),
    )  # fmt: skip


def errata() -> list[Erratum]:
    """Disagreements with seed 000, Section 7.2, found here: the ``argmax`` of Theorem 7.4;
    (19), (20), (21), footnote 3 and Proposition 7.6 check out (see :func:`claims`)."""
    return list(_errata())
