"""The symbolic proofs of the deep linear network's claims that hold for general matrices:
the conservation law of every adjacent pair (:func:`balance_general`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable._core.claims import Verdict, explicit_matrix, prove_zero
from solvable.models.deep_linear import expressions as ex
from solvable.models.deep_linear.network import balance
from solvable.models.deep_linear.system import flow, rate_symbols

PROVED_DEPTHS = (2, 3, 4, 5, 6)
"""The depths at which sympy proves the closed-form ``t(u)`` (``cos(2 pi k/L)`` in radicals)."""

TIE_WIDTHS = (2, 3, 2, 1)
"""The non-square instance the general forms are tied to (L = 3, n = 2)."""


def _calculus(A: Any, Wu: Any, Wl: Any, B: Any, X: Any, Y: Any, eu: Any, el: Any) -> tuple:
    """The loss ``tr(R^T R)/2`` with ``R = X B^T W_l^T W_{l+1}^T A^T - Y`` (the network
    ``A W_{l+1} W_l B``), the fields of ``W_l``, ``W_{l+1}`` by sympy's matrix calculus and
    ``D_l``."""
    R = X * B.T * Wl.T * Wu.T * A.T - Y
    L = sp.Trace(R.T * R) / 2
    return L, -eu * sp.diff(L, Wu), -el * sp.diff(L, Wl), Wu.T * Wu / eu - Wl * Wl.T / el


def balance_general() -> Verdict:
    """``dD_l/dt`` is the zero matrix for general matrices: the layers above ``W_{l+1}`` as
    one matrix ``A`` (p, d_{l+1}) and those below ``W_l`` as ``B`` (d_{l-1}, q), data ``X``
    (n, q), ``Y`` (n, p), every size a symbol (so every depth L >= 2, every l, every width:
    ``A`` or ``B`` is the identity at the ends).  Tied to the package's flow on the
    non-square :data:`TIE_WIDTHS` for l = 1 (``A = W_3``, ``B = I``) and l = 2 (``A = I``,
    ``B = W_1``): the typed loss, fields and ``D_l`` are the package's exactly."""
    n, q, a, b, c, p = sp.symbols("n q d_lm1 d_l d_lp1 p", integer=True, positive=True)
    el, eu = sp.symbols("eta_l eta_lp1", positive=True)
    A, Wu = sp.MatrixSymbol("A", p, c), sp.MatrixSymbol("W_lp1", c, b)
    Wl, B = sp.MatrixSymbol("W_l", b, a), sp.MatrixSymbol("B", a, q)
    X, Y = sp.MatrixSymbol("X", n, q), sp.MatrixSymbol("Y", n, p)
    _, du, dl, _ = _calculus(A, Wu, Wl, B, X, Y, eu, el)
    rate = sp.expand((du.T * Wu + Wu.T * du) / eu - (dl * Wl.T + Wl * dl.T) / el)
    if not isinstance(rate, sp.ZeroMatrix):
        return Verdict("failed", f"dD_l/dt = {rate} for general shapes, not 0")
    F = flow(TIE_WIDTHS, 2)
    etas = rate_symbols(3)
    W = [sp.Matrix(F.block(f"W{l}")) for l in (1, 2, 3)]
    Xi = sp.Matrix(F.params[3:7]).reshape(2, 2)
    Yi = sp.Matrix(F.params[7:9]).reshape(2, 1)
    field = dict(zip(F.state, F.rhs, strict=True))
    residuals: list[Any] = []
    for l, Ai, Bi in ((1, W[2], sp.eye(2)), (2, sp.eye(1), W[0])):
        sub = {A: Ai, Wu: W[l], Wl: W[l - 1], B: Bi, X: Xi, Y: Yi, eu: etas[l], el: etas[l - 1],
               n: 2, q: 2, a: Bi.shape[0], b: W[l - 1].shape[0], c: W[l].shape[0],
               p: 1}  # fmt: skip
        loss_i, du_i, dl_i, D_i = (explicit_matrix(v.subs(sub)) for v in
                                   _calculus(A, Wu, Wl, B, X, Y, eu, el))  # fmt: skip
        own = balance(np.array(W[l]), np.array(W[l - 1]), etas[l], etas[l - 1])
        residuals += [loss_i[0, 0] - F.loss, *(D_i - sp.Matrix(own))]
        for M, Wm in ((du_i, W[l]), (dl_i, W[l - 1])):
            residuals += [M[i, j] - field[Wm[i, j]] for i in range(M.rows) for j in range(M.cols)]
    verdict = prove_zero(*residuals)
    if verdict.status != "proved":
        return Verdict("failed", f"the typed forms differ from the package's on {TIE_WIDTHS}: "
                                 f"{verdict.detail}")  # fmt: skip
    return Verdict("proved", f"dD_l/dt is the zero matrix for A (p, d_l+1), W_l+1, W_l, B "
                   f"(d_l-1, q), X (n, q), Y (n, p) of any sizes; on widths {TIE_WIDTHS} "
                   f"(l = 1, 2) the loss, fields and D_l are the package's ({verdict.detail})",
                   residuals=(sp.S.Zero, *verdict.residuals))  # fmt: skip


def mode_reduction() -> Verdict:
    """Balanced modes: with ``dc_l/dt = eta_l (u/c_l)(s - lambda u)`` (one mode of the raw
    flow, ``u = prod c_l``) and ``c_l = sqrt(eta_l tau)`` (balance), ``du/dt = sum_l (u/c_l)
    dc_l/dt`` equals :func:`~solvable.models.deep_linear.expressions.mode_rhs` with ``eta =
    (prod eta_l)^(1/L)``, for ``L`` in :data:`PROVED_DEPTHS` and ``u > 0``; and ``z = lambda
    u/s`` obeys ``dz/dt = kappa |z|^(2-2/L)(1 - z)`` (``s > 0`` and ``s < 0``)."""
    residuals: list[Any] = []
    tau, lam, z = sp.symbols("tau lambda z", positive=True)
    s_, eta_, u_ = ex.S, ex.ETA, ex.U
    for L in PROVED_DEPTHS:
        etas = rate_symbols(L)
        c = [sp.sqrt(e * tau) for e in etas]
        u = sp.Mul(*c)
        du = sum((u / cl) * e * (u / cl) * (s_ - lam * u) for cl, e in zip(c, etas, strict=True))
        target = ex.mode_rhs(L).subs({u_: u, eta_: sp.Mul(*etas) ** sp.Rational(1, L),
                                      ex.LAM: lam})  # fmt: skip
        residuals.append(sp.simplify(sp.powsimp(sp.expand_power_base(du - target, force=True),
                                                force=True)))  # fmt: skip
        for sign in (1, -1):
            sv = sign * sp.Symbol("sigma", positive=True)
            uz = sv * z / lam  # u of z (z > 0: u and s of one sign)
            dz = lam / sv * ex.mode_rhs(L).subs({u_: uz, s_: sv, ex.LAM: lam})
            k = ex.kappa(L).subs({s_: sv, ex.LAM: lam})
            residuals.append(sp.simplify(dz - k * z ** (2 - sp.Rational(2, L)) * (1 - z)))
    return prove_zero(*residuals)


def antiderivative() -> Verdict:
    """``dT_+/dv = L v^(1-L)/(1 - v^L)`` and ``dT_-/dv = L v^(1-L)/(1 + v^L)`` for ``L`` in
    :data:`PROVED_DEPTHS`, with ``T_+-`` of
    :func:`~solvable.models.deep_linear.expressions.antiderivative` (the generated evaluators'
    source)."""
    return prove_zero(*(sp.simplify(ex.derivative_residual(L, sg)) for L in PROVED_DEPTHS
                        for sg in (1, -1)))  # fmt: skip
