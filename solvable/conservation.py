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


def _kunin_laws() -> tuple[ConservationLaw, ...]:
    from solvable.flows import kunin_flow, piecewise_linear_flow, wide_flow

    s = "003_cfd8c5fad4b6665d.txt"
    single = kunin_flow(3, 2)
    ea, ew = single.params[0], single.params[1]
    a, w = single.block("a")[0], single.block("w")
    laws = [
        ConservationLaw(
            "kunin.delta", f"{s} Part I",
            "delta = eta_w a^2 - eta_a ||w||^2 is conserved (single neuron, any X, n = 3, d = 2).",
            ew * a**2 - ea * sum(wj**2 for wj in w), single, "single neuron, n = 3, d = 2",
        )
    ]  # fmt: skip
    wide = wide_flow(2, 2, 2, 2)
    eA, eW = wide.params[0], wide.params[1]
    A, W = wide.block("A"), wide.block("W")
    for p, q in ((0, 0), (0, 1), (1, 1)):
        entry = eW * sum(A[p][o] * A[q][o] for o in range(2)) - eA * sum(
            W[p][j] * W[q][j] for j in range(2)
        )
        laws.append(
            ConservationLaw(
                f"kunin.Delta_{p}{q}", f"{s} Part II",
                f"Entry ({p},{q}) of Delta = eta_W A A^T - eta_A W W^T is conserved "
                "(f = A^T W x, h = c = d = n = 2).",
                entry, wide, "wide linear net, h = c = d = n = 2",
            )
        )  # fmt: skip
    pl = piecewise_linear_flow(2, 2, 2)
    pa, pw = pl.params[0], pl.params[1]
    av, Wv = pl.block("a"), pl.block("W")
    for k in range(2):
        laws.append(
            ConservationLaw(
                f"kunin.delta_k{k}", f"{s} Part II",
                f"delta_{k} = eta_w a_{k}^2 - eta_a ||w_{k}||^2 is conserved for a "
                "piecewise-linear f = a^T sigma(W x) (inside an activation region).",
                pw * av[k] ** 2 - pa * sum(v**2 for v in Wv[k]), pl,
                "piecewise-linear net, h = 2, d = 2, n = 2",
            )
        )  # fmt: skip
    return tuple(laws)


@functools.cache
def laws() -> tuple[ConservationLaw, ...]:
    """Every registered conservation law."""
    return (*_xu_ziyin_laws(), *_kunin_laws())
