"""Seed 003 (Kunin et al.), the symbolic proofs (sympy) of the wide net's exact solution for
every shape the balance allows (issue 31, item 1; :mod:`~solvable.models.kunin.wide_shapes`):
the echelon form equals the textbook Riccati solution, and its limit at t = oo.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable._core.backends import elementary
from solvable._core.claims import Verdict, prove_zero
from solvable.models.kunin.expressions import wide_symbolic
from solvable.models.kunin.reduction import wide_field
from solvable.models.kunin.wide_shapes import echelon_factor, echelon_gram, limit_pieces


def _textbook(C: sp.Matrix, lam: list[Any], phi: list[Any], kap: Any) -> sp.Matrix:
    """``Lam C^T N^{-1} C Lam``, ``N = I + kappa^2 C diag(phi) C^T`` (claim
    ``kunin.wide_riccati``)."""
    N = sp.eye(C.rows) + kap**2 * C * sp.diag(*phi) * C.T
    Lam = sp.diag(*lam)
    return Lam * C.T * N.inv() * C * Lam


def _wide_echelon_form() -> Verdict:
    # (1) the scalar pieces: gap = e^{k t} e^{-q t}; weight^2 = e^{-2 q t} g_minus(k) for k >
    # 0, k < 0 and k = 0 (its two forms, every exponent <= 0 where q >= k).  (2) r = 2 pivots
    # among m = 4 modes (pivots 0 and 2; row 1 zero before its pivot): with lam_j = e^{k_j t}
    # and phi_j = g_minus(k_j) generic, echelon_factor / echelon_gram (gap_ij = lam_j /
    # lam_{J_i}, weight_ij = sqrt(phi_j) / lam_{J_i}, e_pivot = 1 / lam_J) give the textbook
    # P of C' = R1 E, and the textbook P of C = U1 C' (h = 3 rows, U1 orthonormal columns:
    # a start of rank 2 < h) is the same P.  (3) h = r = 1: U1 Yh / sqrt(L L^T) is N^{-1/2}
    # C Lam (Q itself) for U1 = +-1.
    W = wide_symbolic()
    ex, kap, t, q = W.exprs, W.kappa, W.t, W.q
    res = [ex["gap"] - ex["e_minus"] * ex["e_plus"].subs(W.k, q)]
    for k in (sp.Symbol("kp", positive=True), -sp.Symbol("kn", positive=True), sp.S.Zero):
        weight = elementary(ex["weight"].subs(W.k, k))
        g_minus = elementary(ex["g_minus"].subs(W.k, k))
        res.append(sp.simplify(weight**2 - sp.exp(-2 * q * t) * g_minus))
    lam = list(sp.symbols("l0:4", positive=True))
    phi = list(sp.symbols("f0:4", positive=True))
    e01, e03, e13 = sp.symbols("e01 e03 e13", real=True)
    R1 = sp.Matrix(2, 2, sp.symbols("r00 r01 r10 r11", real=True))
    E = np.array([[1, e01, 0, e03], [0, 0, 1, e13]], dtype=object)
    pivots = (0, 2)
    gap = np.array([[lam[j] / lam[p] for j in range(4)] for p in pivots], dtype=object)
    weight = np.array([[sp.sqrt(phi[j]) / lam[p] for j in range(4)] for p in pivots], dtype=object)
    e_pivot = np.array([1 / lam[p] for p in pivots], dtype=object)
    Z = np.array(R1.inv())
    Yh, L = echelon_factor(Z, E, gap, weight, e_pivot, kap)
    P = echelon_gram(np.array(sp.Matrix(L @ L.T).inv()), Yh)
    Cr = R1 * sp.Matrix(E)
    ref = _textbook(Cr, lam, phi, kap)
    res += [sp.cancel(v) for v in sp.Matrix(P) - ref]
    U1 = sp.Matrix([[sp.Rational(3, 5), 0], [sp.Rational(4, 5), 0], [0, 1]])
    res += [sp.cancel(v) for v in _textbook(U1 * Cr, lam, phi, kap) - ref]
    r = sp.Symbol("r", positive=True)
    E1 = np.array([[1, e01, e03, e13]], dtype=object)
    for u in (1, -1):
        Yh1, L1 = echelon_factor(np.array([[1 / r]]), E1, gap[:1], weight[:1], e_pivot[:1], kap)
        row = u * Yh1[0] / sp.sqrt((L1[0] * L1[0]).sum())
        C1 = u * r * sp.Matrix(E1)
        N1 = 1 + kap**2 * (C1 * sp.diag(*phi) * C1.T)[0]
        res += [sp.simplify(v) for v in sp.Matrix([list(row)]) - C1 * sp.diag(*lam) / sp.sqrt(N1)]
    return prove_zero(*res)


def _projector(rows: sp.Matrix) -> sp.Matrix:
    """The orthogonal projector onto the row space of ``rows`` (full row rank)."""
    return rows.T * (rows * rows.T).inv() * rows


def _wide_echelon_limit() -> Verdict:
    # (1) sympy's limits t -> oo of the scalar pieces: gap -> 1 at k = q, -> 0 for k < q;
    # weight -> 1/sqrt(2 q) at k = q > 0, -> 0 for k < q (k > 0, k = 0, k < 0); e_pivot =
    # e^{-q t} -> 0 (q > 0): the values limit_pieces puts in.  (2) With them,
    # echelon_factor / echelon_gram give P(oo) = (2/kappa^2) sum_g k_g Pi_g (Pi_g: the
    # projector onto the row space of E's rows with pivot rate k_g, restricted to the modes
    # of rate k_g), for rates (3, 3, 2, 1, 0, -1): pivots 0 (tie with mode 1) and 2, and a
    # row whose pivot has rate 0 (no part in the limit); and for two pivots in one tie
    # (rates (2, 2, 2, 1)); each P(oo) a fixed point of P' = K P + P K - kappa^2 P^2.  L L^T
    # stays invertible at these values (the pivots' identity columns), so P(oo) is the
    # limit of the (continuous) evaluation.
    W = wide_symbolic()
    ex, kap, t, q = W.exprs, W.kappa, W.t, W.q
    qp, d1 = sp.Symbol("qp", positive=True), sp.Symbol("d1", positive=True)

    def lim(name: str, k: Any) -> Any:
        return sp.limit(elementary(ex[name].subs({W.k: k, q: qp})), t, sp.oo)

    res = [lim("gap", qp) - 1, lim("gap", qp - d1), lim("weight", qp) - 1 / sp.sqrt(2 * qp)]
    res += [lim("weight", k) for k in (qp / 2, sp.S.Zero, -d1)]
    res.append(sp.limit(elementary(ex["e_plus"].subs(W.k, qp)), t, sp.oo))
    a, b, c_, e = sp.symbols("a b c e", real=True)
    for rates, E, groups in (
        ((3, 3, 2, 1, 0, -1),
         [[1, a, 0, b, c_, e], [0, 0, 1, a, b, c_], [0, 0, 0, 0, 1, e]],
         {3: ([0], [0, 1]), 2: ([1], [2])}),
        ((2, 2, 2, 1), [[1, 0, a, b], [0, 1, c_, e]], {2: ([0, 1], [0, 1, 2])}),
    ):  # fmt: skip
        E = np.array(E, dtype=object)
        m, r = len(rates), len(E)
        q_rows = np.array([rates[next(j for j in range(m) if E[i, j] == 1)] for i in range(r)],
                          dtype=object)  # fmt: skip
        rates_a = np.array([sp.Integer(v) for v in rates], dtype=object)
        act, gap, weight = limit_pieces(E, rates_a, q_rows, kap, 0, sp.sqrt)
        Z = np.array(sp.eye(r))[act]
        Yh, L = echelon_factor(Z, E[act], gap, weight, 0 * q_rows[act], kap)
        P = sp.Matrix(echelon_gram(np.array(sp.Matrix(L @ L.T).inv()), Yh))
        ref = sp.zeros(m, m)
        for k, (rows, cols) in groups.items():
            block = sp.Matrix([[E[i, j] if j in cols else 0 for j in range(m)] for i in rows])
            ref += 2 * k / kap**2 * _projector(block)
        res += [sp.cancel(v) for v in P - ref]
        K = sp.diag(*rates)
        res += [sp.cancel(v) for v in K * P + P * K - kap**2 * P * P]
    return prove_zero(*res)


def _wide_decoupled_weights() -> Verdict:
    # h = 2, K = diag(k0, k0, k2) (a tie and a single mode) in the eigenbasis, C with rows
    # orthogonal within each rate group (the rate-group Gram matrices M_l diagonal): N = I
    # + kappa^2 C diag(g) C^T is diagonal, and Q = N^{-1/2} C e^{Kt} solves the Q flow
    # dQ/dt = wide_field(Q, K) (sympy differentiates); the flow is equivariant under a
    # rotation O of the hidden layer (wide_field(O Q) = O wide_field(Q)), so a start whose
    # M_l commute (common eigenbasis O) has Q = O^T N~^{-1/2} (O C) e^{Kt}: S = N^{-1/2}.
    t = sp.Symbol("t", nonnegative=True)
    kap = sp.Symbol("kappa", positive=True)
    k0, k2 = sp.symbols("k0 k2", positive=True)
    p, q, r, s = sp.symbols("p q r s", real=True)
    C = sp.Matrix([[p, q, 0], [-q * r, p * r, s]])
    ks = (k0, k0, k2)
    lam = sp.diag(*(sp.exp(k * t) for k in ks))
    g = [(sp.exp(2 * k * t) - 1) / (2 * k) for k in ks]
    N = sp.eye(2) + kap**2 * C * sp.diag(*g) * C.T
    res = [sp.simplify(N[0, 1])]
    Q = sp.diag(1 / sp.sqrt(N[0, 0]), 1 / sp.sqrt(N[1, 1])) * C * lam
    K = np.array(sp.diag(*ks))
    field = sp.Matrix(wide_field(np.array(Q), K, kap))
    res += [sp.simplify(v) for v in Q.diff(t) - field]
    th = sp.Symbol("theta", real=True)
    O = sp.Matrix([[sp.cos(th), -sp.sin(th)], [sp.sin(th), sp.cos(th)]])
    Qg = sp.Matrix(2, 3, lambda i, j: sp.Symbol(f"Q{i}{j}", real=True))
    Kg = sp.Matrix(3, 3, lambda i, j: sp.Symbol(f"K{min(i, j)}{max(i, j)}", real=True))
    rotated = sp.Matrix(wide_field(np.array(O * Qg), np.array(Kg), kap))
    plain = O * sp.Matrix(wide_field(np.array(Qg), np.array(Kg), kap))
    # exact and deterministic: cos, sin -> symbols C, S, and the numerator reduced modulo
    # S^2 + C^2 - 1 (a remainder 0 is the identity on the circle); sp.simplify's trigsimp
    # took 6 s here, and in one CI run (another hash seed) factored for over 16 minutes
    C, S = sp.symbols("C S", real=True)
    for v in rotated - plain:
        num = sp.numer(sp.together(sp.expand(v.subs({sp.cos(th): C, sp.sin(th): S}))))
        res.append(sp.expand(sp.rem(sp.expand(num), S**2 + C**2 - 1, S)))
    return prove_zero(*res)
