"""Conservation laws as data, each with a symbolic proof that it is conserved.

A :class:`ConservationLaw` is an expression in a model's parameters, the
gradient flow it belongs to (:class:`solvable.flows.GradientFlow`, derived from
the loss with general learning rates) and its source.  ``residual()`` is its time
derivative along the flow, simplified: the law is proved when that is exactly 0.
Other models add their laws to :func:`laws` by the same recipe.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import sympy as sp

from solvable import xu_ziyin
from solvable.flows import GradientFlow, xu_ziyin_flow

__all__ = ["ConservationLaw", "laws"]

SEED_XU_ZIYIN = "001_070589003213e0cf.txt"


@dataclass(frozen=True)
class ConservationLaw:
    """``expression`` is constant along ``flow`` (claimed by ``source``)."""

    id: str
    source: str
    statement: str
    expression: sp.Expr
    flow: GradientFlow = field(repr=False)
    flow_name: str = ""

    def derivative(self) -> sp.Expr:
        """d(expression)/dt along the flow, unsimplified."""
        return self.flow.ddt(self.expression)

    def residual(self) -> sp.Expr:
        """The simplified time derivative: exactly 0 when the law holds."""
        return sp.simplify(sp.together(self.derivative()))


def _xu_ziyin_laws() -> tuple[ConservationLaw, ...]:
    # the full flow of eqs. (4)-(5) with d = 2 hidden units, d0 = 3 inputs, eta_u != eta_w
    S = xu_ziyin.symbolic()
    d, d0 = 2, 3
    flow = xu_ziyin_flow(d, d0)
    name = f"xu_ziyin gradient flow, d = {d}, d0 = {d0}"
    u, W = flow.block("u"), flow.block("W")
    x = flow.params[4 : 4 + d0]
    rho = sp.sqrt(sum(xj**2 for xj in x))
    v = [sum(W[i][j] * x[j] for j in range(d0)) for i in range(d)]
    p = [S.paper["p"].subs({S.rho: rho, S.u: u[i], S.v: v[i]}) for i in range(d)]
    q = [S.paper["q"].subs({S.rho: rho, S.u: u[i], S.v: v[i]}) for i in range(d)]
    w0 = W[0]
    s = SEED_XU_ZIYIN

    def law(id_: str, eqs: str, statement: str, expr: sp.Expr) -> ConservationLaw:
        return ConservationLaw(f"xu_ziyin.{id_}", f"{s} {eqs}", statement, expr, flow, name)

    return (
        law("eq_32", "eq. (32)", "eta_u ||w_i||^2 - eta_w u_i^2 is conserved.",
            S.eta_u * sum(wj**2 for wj in w0) - S.eta_w * u[0] ** 2),
        law("eq_33", "eq. (33)", "w_ij/x_j - w_ij'/x_j' is conserved (x_j, x_j' != 0).",
            w0[0] / x[0] - w0[1] / x[1]),
        law("eq_34", "eq. (34)", "||w_i||^2 - (w_i.x)^2/||x||^2 is conserved.",
            sum(wj**2 for wj in w0) - v[0] ** 2 / rho**2),
        law("eq_36", "eqs. (35), (36)", "p_i q_i is conserved (rho = ||x||).", p[0] * q[0]),
        law("eq_38", "eq. (38)", "p_i / p_i' is conserved.", p[0] / p[1]),
        law("q_ratio", "eqs. (36), (38)", "q_i / q_i' is conserved (from (36) and (38)).",
            q[0] / q[1]),
        law("lagrange", "eqs. (21), (23)",
            "p_i q_i' - p_i' q_i is conserved (so is 4PQ - (2/d sum p_i q_i)^2 of (23)).",
            p[0] * q[1] - p[1] * q[0]),
    )  # fmt: skip


@functools.cache
def laws() -> tuple[ConservationLaw, ...]:
    """Every registered conservation law."""
    return _xu_ziyin_laws()
