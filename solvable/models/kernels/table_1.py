"""Seed 002, Table 1 and eq. (2.2): the frameworks' default initialisations (Kaiming
(Pytorch), Xavier (Tensorflow)) of the network (2.1), their variances and the exact output
covariance ``E[f(x) f(x')]`` at every width."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from solvable._core.numbers import check_int as _check_int
from solvable._core.numbers import to_expr
from solvable.models.kernels.symbols import N1, N2, SEED, D

# ---------------------------------------------------------------------------
# Table 1 and eq. (2.2): the frameworks' default initialisations
# ---------------------------------------------------------------------------
P = sp.Symbol("p", positive=True)
"""The width ``p``."""
C1, C2 = sp.symbols("c1 c2", real=True)
"""Coefficients of a projection ``c1 f(x) + c2 f(x')`` of the output pair."""
TABLE_1 = ("kaiming", "xavier")
"""The rows of Table 1."""
COVARIANCE_PAIRS = ("same_direction", "orthogonal_axes", "antipodal")
"""Input pairs on which :func:`table_1_covariance` is exact (see there)."""


def uniform_variance(bound: Any) -> sp.Expr:
    """``Var Unif([-c, c]) = c^2 / 3`` (claim ``table_1_variances`` integrates it)."""
    return to_expr("bound", bound) ** 2 / 3


@dataclass(frozen=True)
class DefaultInitialisation:
    """One row of Table 1 for the network (2.1) ``f(x) = sum_j a_j sigma(<w_j, x> + b_j)``
    (no ``1/sqrt(p)``): ``a_j ~ Unif([-a_bound, a_bound])``, ``w_jk ~ Unif([-w_bound,
    w_bound])`` i.i.d., ``b_j = b`` (bounds are sympy expressions in :data:`P` and
    :data:`D`)."""

    name: str
    framework: str
    a_bound: sp.Expr
    w_bound: sp.Expr
    b: sp.Expr
    source: str

    @property
    def a_variance(self) -> sp.Expr:
        """``Var a_j = a_bound^2 / 3``."""
        return uniform_variance(self.a_bound)

    @property
    def w_variance(self) -> sp.Expr:
        """``Var w_jk = w_bound^2 / 3``."""
        return uniform_variance(self.w_bound)

    def at(self, p: int, d: int) -> dict[str, float]:
        """The bounds as floats at width ``p`` and dimension ``d`` (ints >= 1)."""
        p, d = _check_int("p", p), _check_int("d", d)
        sub = {P: p, D: d}
        return {"a_bound": float(self.a_bound.subs(sub)), "w_bound": float(self.w_bound.subs(sub))}


def default_initialisation(name: str) -> DefaultInitialisation:
    """Table 1's row ``name``: ``"kaiming"`` (printed "Kaiming (Pytorch)": ``a ~ Unif[+-
    sqrt(6/p)]``, ``w ~ Unif[+- sqrt(6/d)]``, ``b = 0``) or ``"xavier"`` ("Xavier
    (Tensorflow)": ``a ~ Unif[+- sqrt(6/(p+1))]``, ``w ~ Unif[+- sqrt(6/(p+d))]``, ``b = 0``)."""
    if name not in TABLE_1:
        raise ValueError(f"name must be one of {TABLE_1}, got {name!r}")
    where = f"{SEED} Table 1"
    if name == "kaiming":
        return DefaultInitialisation(name, "Pytorch (as printed; see errata)",
                                     sp.sqrt(6 / P), sp.sqrt(6 / D), sp.S.Zero, where)  # fmt: skip
    return DefaultInitialisation(name, "Tensorflow", sp.sqrt(6 / (P + 1)), sp.sqrt(6 / (P + D)),
                                 sp.S.Zero, where)  # fmt: skip


def table_1_covariance(name: str, pair: str = "same_direction") -> sp.Expr:
    """``E[f(x) f(x')]`` at initialisation for Table 1's row ``name``, ReLU, ``b = 0``, exact
    at every width ``p`` (:data:`P`; ``E f = 0`` and ``E[a_j a_k] = 0`` for ``j != k``, so it is
    ``p Var(a) E[relu(<w, x>) relu(<w, x'>)]``), with ``|x| = n1``, ``|x'| = n2``:

    * ``"same_direction"`` (``x' = c x``, ``c > 0``; any direction): ``<w, x>`` is symmetric,
      so ``E[relu(<w,x>)^2] = E[<w,x>^2]/2 = Var(w) |x|^2/2``: ``p Var(a) Var(w) n1 n2 / 2``
      (``n1 = n2``: the output variance);
    * ``"orthogonal_axes"`` (``x = n1 e_k``, ``x' = n2 e_l``, ``k != l``): independent
      coordinates, ``E[relu(w)] = w_bound/4``: ``p Var(a) (w_bound/4)^2 n1 n2``;
    * ``"antipodal"`` (``x' = -c x``): 0.
    """
    init = default_initialisation(name)
    if pair not in COVARIANCE_PAIRS:
        raise ValueError(f"pair must be one of {COVARIANCE_PAIRS}, got {pair!r}")
    scale = P * init.a_variance * N1 * N2
    if pair == "same_direction":
        return scale * init.w_variance / 2
    if pair == "orthogonal_axes":
        return scale * (init.w_bound / 4) ** 2
    return sp.S.Zero
