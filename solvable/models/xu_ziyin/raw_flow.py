"""The raw gradient flow of seed 001, derived from the loss, and its conservation laws.

Eqs. (4), (5) as a :class:`solvable._core.flows.GradientFlow` (:func:`flow`), the per-unit
flow of eq. (31) (:func:`unit_flow`, :class:`UnitFlow`), and the conserved quantities of
eqs. (32)-(38) and the Lagrange form of (23) (:func:`laws`).  Xu & Ziyin (seed
``001_070589003213e0cf.txt``), Section 2.1 and Appendix A.1.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import sympy as sp

from solvable._core.arrays import symbolic_sizes
from solvable._core.conservation import ConservationLaw
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable.models.xu_ziyin.expressions import symbolic
from solvable.models.xu_ziyin.network import SEED, _loss


# ---------------------------------------------------------------------------
# The raw gradient flow (derived from the loss) and its conservation laws
# ---------------------------------------------------------------------------
def flow(d: int, d0: int) -> GradientFlow:
    """Eqs. (4)-(5): the gradient flow of :func:`loss` for ``d`` hidden units and ``d0``
    inputs, rates ``eta_u``, ``eta_w``; parameters ``(eta_u, eta_w, gamma, y, x_0, ...)``.
    ``d, d0 >= 1`` with at most ``MAX_SYMBOLIC_ENTRIES`` symbolic entries (see
    :mod:`solvable.models.mirror_flow`).  Cached per size."""
    sizes = symbolic_sizes("flow", lambda d, d0: d * d0 + d + d0, d=d, d0=d0)
    return _flow(sizes["d"], sizes["d0"])


@functools.cache
def _flow(d: int, d0: int) -> GradientFlow:
    S = symbolic()
    x = symbol_array("x", (d0,), real=True)
    return gradient_flow(
        lambda u, W: _loss(u, W, x, S.y, S.gamma),
        {"u": ((d,), S.eta_u), "W": ((d, d0), S.eta_w)},
        (S.eta_u, S.eta_w, S.gamma, S.y, *x),
    )


flow.cache_clear = _flow.cache_clear  # type: ignore[attr-defined]  # (benchmarks)


def laws() -> tuple[ConservationLaw, ...]:
    """Eqs. (32)-(38) and the Lagrange form of (23), each proved conserved along the full
    flow with ``d = 2`` hidden units, ``d0 = 3`` inputs and ``eta_u != eta_w``."""
    S = symbolic()
    d, d0 = 2, 3
    F = flow(d, d0)
    name = f"xu_ziyin gradient flow, d = {d}, d0 = {d0}"
    u, W = F.block("u"), F.block("W")
    x = np.array(F.params[4 : 4 + d0], dtype=object)
    rho = sp.sqrt((x * x).sum())
    v = W @ x
    p = [S.paper["p"].subs({S.rho: rho, S.u: u[i], S.v: v[i]}) for i in range(d)]
    q = [S.paper["q"].subs({S.rho: rho, S.u: u[i], S.v: v[i]}) for i in range(d)]
    w0 = W[0]

    def law(id_: str, eqs: str, statement: str, expr: sp.Expr) -> ConservationLaw:
        return ConservationLaw(f"xu_ziyin.{id_}", f"{SEED} {eqs}", statement, expr, F, name)

    return (
        law("eq_32", "eq. (32)", "eta_u ||w_i||^2 - eta_w u_i^2 is conserved.",
            S.eta_u * (w0 * w0).sum() - S.eta_w * u[0] ** 2),
        law("eq_33", "eq. (33)", "w_ij/x_j - w_ij'/x_j' is conserved (x_j, x_j' != 0).",
            w0[0] / x[0] - w0[1] / x[1]),
        law("eq_34", "eq. (34)", "||w_i||^2 - (w_i.x)^2/||x||^2 is conserved.",
            (w0 * w0).sum() - v[0] ** 2 / rho**2),
        law("eq_36", "eqs. (35), (36)", "p_i q_i is conserved (rho = ||x||).", p[0] * q[0]),
        law("eq_38", "eq. (38)", "p_i / p_i' is conserved.", p[0] / p[1]),
        law("q_ratio", "eqs. (36), (38)", "q_i / q_i' is conserved (from (36) and (38)).",
            q[0] / q[1]),
        law("lagrange", "eqs. (21), (23)",
            "p_i q_i' - p_i' q_i is conserved (so is 4PQ - (2/d sum p_i q_i)^2 of (23)).",
            p[0] * q[1] - p[1] * q[0]),
    )  # fmt: skip


@dataclass(frozen=True)
class UnitFlow:
    """Eq. (31) for one hidden unit ``i`` with ``d0`` inputs, the residual
    ``r = f - y`` kept as a symbol: ``du_i/dt = -2 eta_u gamma (w_i . x) r``,
    ``dw_ij/dt = -2 eta_w gamma u_i x_j r``.  (That this is the gradient flow of
    eq. (4) is proved from the loss in :mod:`solvable.verification.theorems`.)"""

    u: sp.Symbol
    w: tuple[sp.Symbol, ...]
    x: tuple[sp.Symbol, ...]
    r: sp.Symbol
    du: sp.Expr
    dw: tuple[sp.Expr, ...]

    def ddt(self, expr: sp.Expr) -> sp.Expr:
        """Time derivative of ``expr(u, w)`` along the flow (chain rule)."""
        out = sp.diff(expr, self.u) * self.du
        for wj, dwj in zip(self.w, self.dw, strict=True):
            out += sp.diff(expr, wj) * dwj
        return out


def unit_flow(d0: int) -> UnitFlow:
    """The per-unit flow of eq. (31) with input dimension ``d0 >= 1`` (at most
    ``MAX_SYMBOLIC_ENTRIES`` symbolic entries, see :mod:`solvable._core.arrays`).  Cached."""
    return _unit_flow(symbolic_sizes("unit_flow", lambda d0: 2 * d0 + 2, d0=d0)["d0"])


@functools.cache
def _unit_flow(d0: int) -> UnitFlow:
    S = symbolic()
    u = sp.Symbol("u_i", real=True)
    w = tuple(sp.Symbol(f"w_i{j}", real=True) for j in range(d0))
    x = tuple(sp.Symbol(f"x_{j}", real=True) for j in range(d0))
    r = sp.Symbol("r", real=True)
    v = sum(wj * xj for wj, xj in zip(w, x, strict=True))
    du = -2 * S.eta_u * S.gamma * v * r
    dw = tuple(-2 * S.eta_w * S.gamma * u * xj * r for xj in x)
    return UnitFlow(u=u, w=w, x=x, r=r, du=du, dw=dw)
