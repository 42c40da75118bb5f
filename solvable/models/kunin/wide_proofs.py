"""Seed 003 (Kunin et al.), the symbolic proofs (sympy) of Part II's claims: the reduction of
the wide flow to the stacked Riccati flow, the Riccati solution and its evaluation form, its
limit at t = oo and the loss near it, and the wide NTK.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable._core.backends import elementary
from solvable._core.claims import Verdict, explicit_matrix, prove_zero
from solvable.models.kunin.expressions import symbolic, wide_symbolic
from solvable.models.kunin.flows import _data_symbols, beta_gradient, wide_flow
from solvable.models.kunin.losses import _wide_balance, wide_balance, wide_output
from solvable.models.kunin.reduction import (
    _riccati_deviation,
    riccati_core,
    riccati_direct,
    riccati_factor,
    riccati_gram,
    wide_field,
    wide_generator,
    wide_ntk,
)


# --- Part II: the wide exact solution ---------------------------------------------------
def _wide_reduction() -> Verdict:
    # isotropic inputs X = c I_2 (s = c^2), h = c = d = n = 2: the raw flow of wide_loss in
    # Q = [A/sqrt(eta_a'), W/sqrt(eta_w')] is wide_field(Q, K) + (s/2)(Delta - delta I) Q J,
    # J = diag(I_c, -I_d), K = wide_generator(delta', kappa, B*) with B* the zero of
    # grad_beta L (beta_gradient): exactly wide_field where Delta = delta I (conserved)
    S = symbolic()
    ex = S.exprs
    F = wide_flow(2, 2, 2, 2)
    A, W = F.block("A"), F.block("W")
    X, _ = _data_symbols(2, 2, 2)
    c = sp.Symbol("c", positive=True)
    iso = {X[0, 0]: c, X[0, 1]: 0, X[1, 0]: 0, X[1, 1]: c}
    B, _, _, grad = beta_gradient(2, 2, 2)
    (sol,) = sp.solve([g.subs(iso) for g in grad.ravel()], list(B.ravel()), dict=True)
    beta_star = np.array([[sol[b] for b in row] for row in B])
    prm = {S.s: c**2, S.delta: S.delta}
    delta_p, kappa, ra, rw = (ex[k].subs(prm) for k in ("delta_p", "kappa_of_rates", "root_a",
                                                        "root_w"))  # fmt: skip
    Q = np.concatenate([A / ra, W / rw], axis=1)
    dQ = np.concatenate([np.vectorize(F.ddt, otypes=[object])(A) / ra,
                         np.vectorize(F.ddt, otypes=[object])(W) / rw], axis=1)  # fmt: skip
    J = np.diag([1, 1, -1, -1])
    Delta = wide_balance(A, W, S.eta_a, S.eta_w)
    extra = c**2 / 2 * ((Delta - S.delta * np.eye(2, dtype=int)) @ Q @ J)
    target = wide_field(Q, wide_generator(delta_p, kappa, beta_star), kappa) + extra
    return prove_zero(*(np.vectorize(lambda e: e.subs(iso), otypes=[object])(dQ) - target).ravel())


def _wide_riccati() -> Verdict:
    # h = 2, m = 3, generic Y(t), N(t) (symmetric), K (symmetric): with Y' = Y K and N' =
    # kappa^2 Y Y^T, P = Y^T N^-1 Y obeys P' = K P + P K - kappa^2 P^2 (sympy differentiates);
    # h = 1: Q = Y/sqrt(N) obeys dQ/dt = wide_field(Q, K); N(t) = I + kappa^2 C Phi C^T in the
    # eigenbasis has N' = kappa^2 Y Y^T: d/dt g_minus = e^{2kt}, g_minus(0) = 0, and
    # g_plus = e^{-2kt} g_minus, e_plus = 1/e_minus (the scalar pieces of wide_symbolic)
    t, kap = sp.Symbol("t"), sp.Symbol("kappa", positive=True)
    h, m = 2, 3
    Yf = sp.Matrix(h, m, lambda i, j: sp.Function(f"Y{i}{j}")(t))
    Nf = sp.Matrix(h, h, lambda i, j: sp.Function(f"N{min(i, j)}{max(i, j)}")(t))
    K = sp.Matrix(m, m, lambda i, j: sp.Symbol(f"K{min(i, j)}{max(i, j)}"))
    dY, dN = Yf * K, kap**2 * Yf * Yf.T
    rules = {sp.Derivative(Yf[i, j], t): dY[i, j] for i in range(h) for j in range(m)}
    rules.update({sp.Derivative(Nf[i, j], t): dN[i, j] for i in range(h) for j in range(h)})
    P = Yf.T * Nf.inv() * Yf
    res = list((P.diff(t).subs(rules) - (K * P + P * K - kap**2 * P * P)).applyfunc(sp.cancel))
    y1 = sp.Matrix(1, m, lambda i, j: sp.Function(f"y{j}")(t))
    n1 = sp.Function("n")(t)
    r1 = {sp.Derivative(y1[j], t): (y1 * K)[j] for j in range(m)}
    r1[sp.Derivative(n1, t)] = kap**2 * (y1 * y1.T)[0]
    Q = np.array(y1 / sp.sqrt(n1))
    res += list((np.array(sp.Matrix(Q).diff(t).subs(r1)) - wide_field(Q, np.array(K), kap)).ravel())
    W = wide_symbolic()
    ex, k = W.exprs, W.k
    res.append(sp.diff(elementary(ex["g_minus"]), W.t) - sp.exp(2 * k * W.t))
    res.append(sp.limit(elementary(ex["g_minus"]), W.t, 0))
    res.append(ex["g_plus"] - sp.exp(-2 * k * W.t) * ex["g_minus"])
    res.append(ex["e_plus"] * ex["e_minus"] - 1)
    return prove_zero(*res)


def _generic_modes() -> dict[str, Any]:
    """Generic symbols for h = 2 ``+`` modes and one ``-`` mode: ``C_+`` (2 x 2), ``C_-``
    (2 x 1), ``lam = e^{k t}`` (3 positive), ``phi`` = int_0^t e^{2 k u} du (3 positive)."""
    Cp = np.array(sp.symbols("p00 p01 p10 p11", real=True), dtype=object).reshape(2, 2)
    Cm = np.array(sp.symbols("q0 q1", real=True), dtype=object).reshape(2, 1)
    lam = np.array(sp.symbols("l0:3", positive=True), dtype=object)
    phi = np.array(sp.symbols("f0:3", positive=True), dtype=object)
    return {"Cp": Cp, "Cm": Cm, "lam": lam, "phi": phi, "kappa": sp.Symbol("kappa", positive=True)}


def _wide_stable_form() -> Verdict:
    # the evaluated form (riccati_core, riccati_gram; e_+ = 1/lam_+, e_- = lam_-, g_+ =
    # phi_+/lam_+^2, g_- = phi_-: identities of wide_riccati) equals the textbook
    # Lam C^T N^-1 C Lam, N = I + kappa^2 C diag(phi) C^T (h = 2, one - mode); and for h = 1
    # (C_+ = p of either sign) sign(p) core^{-1/2} [1, M] equals N^{-1/2} C Lam
    g = _generic_modes()
    Cp, Cm, lam, phi, kap = g["Cp"], g["Cm"], g["lam"], g["phi"], g["kappa"]
    C = np.concatenate([Cp, Cm], axis=1)
    Z = np.array(sp.Matrix(Cp).inv())
    core, M = riccati_core(Z, Z @ Cm, 1 / lam[:2], lam[2:], phi[:2] / lam[:2] ** 2, phi[2:], kap)
    r_plus, r_minus = [sp.sqrt(v) for v in phi[:2] / lam[:2] ** 2], [sp.sqrt(phi[2])]
    L = riccati_factor(Z, Z @ Cm, 1 / lam[:2], r_plus, r_minus, kap)
    res = [sp.cancel(e) for e in (sp.Matrix(L @ L.T) - sp.Matrix(core))]
    P = riccati_gram(np.array(sp.Matrix(core).inv()), M)
    Yd, Nd = riccati_direct(C, lam, [sp.sqrt(v) for v in phi], kap)
    textbook = sp.Matrix(Yd).T * sp.Matrix(Nd).inv() * sp.Matrix(Yd)
    N = sp.eye(2) + kap**2 * sp.Matrix(C) * sp.diag(*phi) * sp.Matrix(C).T
    res += list(sp.Matrix(Nd) - N) + list(sp.Matrix(Yd) - sp.Matrix(C) * sp.diag(*lam))
    res += [sp.cancel(e) for e in (sp.Matrix(P) - textbook)]
    for sign in (1, -1):
        p = sign * sp.Symbol("p", positive=True)
        c1 = np.array([[p, Cm[0, 0]]], dtype=object)
        z1 = np.array([[1 / p]], dtype=object)
        core1, M1 = riccati_core(z1, z1 * Cm[0, 0], 1 / lam[:1], lam[2:], phi[:1] / lam[0] ** 2,
                                 phi[2:], kap)  # fmt: skip
        Q = sign * np.concatenate([[1], M1[0]]) / sp.sqrt(core1[0, 0])
        n1 = 1 + kap**2 * (p**2 * phi[0] + Cm[0, 0] ** 2 * phi[2])
        ref = c1[0] * np.array([lam[0], lam[2]]) / sp.sqrt(n1)
        res += list(Q - ref)
    return prove_zero(*res)


def _wide_limit_at_infinity() -> Verdict:
    # t -> oo with k_+ > 0 >= k_-: sympy's limits of the scalar pieces (e_+ -> 0, e_+ e_- -> 0,
    # g_+ -> 1/(2 k_+)), put into riccati_core / riccati_gram, give diag(p_inf) + 0 with
    # p_inf of wide_symbolic (h = 2, one - mode), a fixed point of P' = K P + P K - kappa^2
    # P^2 (K = diag(k) in the eigenbasis)
    W = wide_symbolic()
    ex, t = W.exprs, W.t
    k0, k1 = sp.symbols("k0 k1", positive=True)
    km = -sp.Symbol("km", nonnegative=True)
    g = _generic_modes()
    kap = W.kappa
    res = [
        sp.limit(elementary(ex["e_plus"]).subs(W.k, k0), t, sp.oo),
        sp.limit(elementary(ex["e_plus"] * ex["e_minus"].subs(W.k, km)).subs(W.k, k0), t, sp.oo),
    ]
    gp = [sp.limit(elementary(ex["g_plus"]).subs(W.k, kk), t, sp.oo) for kk in (k0, k1)]
    Z = np.array(sp.Matrix(g["Cp"]).inv())
    zero = np.array([0, 0], dtype=object)
    core, M = riccati_core(Z, Z @ g["Cm"], zero, np.array([0]), np.array(gp), g["phi"][2:], kap)
    P = sp.Matrix(riccati_gram(np.array(sp.Matrix(core).inv()), M))
    p_inf = [ex["p_inf"].subs(W.k, kk) for kk in (k0, k1, km)]
    res += list(P - sp.diag(*p_inf))
    Kd = sp.diag(k0, k1, km)
    res += list(Kd * P + P * Kd - kap**2 * P * P)
    return prove_zero(*res)


def _wide_deviation_from_limit() -> Verdict:
    # (1) u_plus = 1 - kappa^2 g_plus p_inf for k > 0, k < 0 and k = 0; (2) with core and L
    # of riccati_core / riccati_factor (h = 2, one - mode) and G = L[:, :3] L[:, :3]^T:
    # G = core - kappa^2 diag(g_plus), and _riccati_deviation with u_i = 1 - kappa^2 g_i p_i
    # is riccati_gram - diag(p, 0) for any p (so, with (1), P - P(oo)); (3) the limit gives
    # beta* on each singular plane of B*: kappa (R diag(p_inf, 0) R^T)_WA = kappa (2/kappa^2)
    # Omega v_x v_y / |v|^2 = sigma, both branches of v_raw; so beta - beta* = kappa (R (P -
    # P(oo)) R^T)_WA, and L = L_min + s |beta - beta*|_F^2 / 2 holds column by column (claim
    # kunin.deviation_from_minimum, for X^T X = s I exactly)
    W = wide_symbolic()
    ex, kap = W.exprs, W.kappa
    res = []
    for k in (sp.Symbol("kp", positive=True), -sp.Symbol("kn", positive=True), sp.S.Zero):
        piece = {n: elementary(ex[n].subs(W.k, k)) for n in ("u_plus", "g_plus", "p_inf")}
        res.append(piece["u_plus"] - (1 - kap**2 * piece["g_plus"] * piece["p_inf"]))
    g = _generic_modes()
    Z = np.array(sp.Matrix(g["Cp"]).inv())
    H = Z @ g["Cm"]
    ep = np.array(sp.symbols("e0:2", positive=True), dtype=object)
    gp = np.array(sp.symbols("g0:2", positive=True), dtype=object)
    gm = g["phi"][2:]
    core, M = riccati_core(Z, H, ep, g["lam"][2:], gp, gm, kap)
    L = riccati_factor(Z, H, ep, [sp.sqrt(v) for v in gp], [sp.sqrt(v) for v in gm], kap)
    G = L[:, :3] @ L[:, :3].T
    res += [sp.cancel(e) for e in sp.Matrix(G + kap**2 * np.diag(gp) - core)]
    p = np.array(sp.symbols("d0:2", positive=True), dtype=object)
    core_inv = np.array(sp.Matrix(core).inv())
    dev = _riccati_deviation(core_inv, M, G, 1 - kap**2 * gp * p, p)
    full = sp.Matrix(riccati_gram(core_inv, M)) - sp.diag(p[0], p[1], 0)
    res += [sp.cancel(e) for e in sp.Matrix(dev) - full]
    S = symbolic()
    for branch, sign in ((0, 1), (1, -1)):
        raw = S.exprs["v_raw"].args[branch][0]
        at = {S.delta: sign * sp.Symbol("dpos", positive=True)}
        limit = 2 / kap * S.Omega * raw[0] * raw[1] / (raw[0] ** 2 + raw[1] ** 2)
        res.append((limit.subs(S.kappa, kap) - S.Y).subs(S.Omega, S.exprs["Omega"]).subs(at))
    return prove_zero(*res)


def _wide_ntk() -> Verdict:
    # d vec(F)/dt = -K vec(F - Y) along the raw wide flow, F = X W^T A (wide_output), K =
    # wide_ntk(A^T A, W^T W) (h = n = d = c = 2, any X)
    S = symbolic()
    F = wide_flow(2, 2, 2, 2)
    A, W = F.block("A"), F.block("W")
    X, Y = _data_symbols(2, 2, 2)
    out = wide_output(A, W, X)
    K = wide_ntk(A.T @ A, W.T @ W, X, S.eta_a, S.eta_w)
    Kr = np.einsum("iajb,jb->ia", K, out - Y)
    return prove_zero(*(np.vectorize(F.ddt, otypes=[object])(out) + Kr).ravel())


# --- Part II: Delta is conserved for every shape --------------------------------------
def _wide_Delta_general() -> Verdict:
    # The law kunin.Delta_pq is proved entry by entry on h = c = d = n = 2; this proof is for
    # every shape: A (h, c), W (h, d), X (n, d), Y (n, c) as sympy MatrixSymbols of symbolic
    # sizes, the loss L = tr(R^T R)/2 with R = X W^T A - Y, its gradients by sympy's matrix
    # calculus (dA/dt = -eta_a dL/dA, dW/dt = -eta_w dL/dW), and d/dt Delta expanded to the
    # zero matrix.  The typed forms are tied to the package's own definitions on a
    # non-square instance (n, d, h, c) = (3, 2, 2, 4): the trace form is wide_loss exactly,
    # the Delta is wide_balance exactly, and the matrix gradients are the entries of
    # wide_flow's field (the flow numerics.simulate integrates).
    S = symbolic()
    ea, ew = S.eta_a, S.eta_w
    n, d, h, c = sp.symbols("n d h c", integer=True, positive=True)
    A, W = sp.MatrixSymbol("A", h, c), sp.MatrixSymbol("W", h, d)
    X, Y = sp.MatrixSymbol("X", n, d), sp.MatrixSymbol("Y", n, c)

    def calculus(A: Any, W: Any, X: Any, Y: Any) -> tuple[Any, Any, Any, Any]:
        R = X * W.T * A - Y
        loss = sp.Trace(R.T * R) / 2
        dA, dW = -ea * sp.diff(loss, A), -ew * sp.diff(loss, W)
        return loss, dA, dW, ew * A * A.T - ea * W * W.T

    _, dA, dW, _ = calculus(A, W, X, Y)
    rate = sp.expand(ew * (dA * A.T + A * dA.T) - ea * (dW * W.T + W * dW.T))
    if not isinstance(rate, sp.ZeroMatrix):  # (the general residual must vanish exactly)
        return Verdict("failed", f"d Delta/dt = {rate} for general shapes, not 0")
    F = wide_flow(3, 2, 2, 4)
    Ai, Wi = F.block("A"), F.block("W")
    Xi, Yi = _data_symbols(3, 2, 4)
    sub = {A: sp.Matrix(Ai), W: sp.Matrix(Wi), X: sp.Matrix(Xi), Y: sp.Matrix(Yi),
           n: 3, d: 2, h: 2, c: 4}  # fmt: skip
    loss_i, dA_i, dW_i, Delta_i = (explicit_matrix(v.subs(sub)) for v in calculus(A, W, X, Y))
    field = dict(zip(F.state, F.rhs, strict=True))
    residuals = [loss_i[0, 0] - F.loss, *(Delta_i - sp.Matrix(_wide_balance(Ai, Wi, ea, ew)))]
    residuals += [dA_i[i, j] - field[Ai[i, j]] for i in range(2) for j in range(4)]
    residuals += [dW_i[i, j] - field[Wi[i, j]] for i in range(2) for j in range(2)]
    verdict = prove_zero(*residuals)
    if verdict.status != "proved":
        return Verdict("failed", f"the typed forms differ from the package's on (3, 2, 2, 4): "
                                 f"{verdict.detail}")  # fmt: skip
    return Verdict("proved", f"d Delta/dt is the zero matrix for A (h, c), W (h, d), X (n, d), "
                   f"Y (n, c) of any sizes; on (n, d, h, c) = (3, 2, 2, 4) the loss, Delta "
                   f"and the field are the package's ({verdict.detail})",
                   residuals=(sp.S.Zero, *verdict.residuals))  # fmt: skip
