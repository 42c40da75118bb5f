"""Seed 003 (Kunin et al.), the symbolic proofs (sympy) of Part I's claims: the self-consistent
flow and ``M(beta, delta)``, the NTK, the regimes, the unit rates, the loss in a frame, the
whitened reduction, the eigenvector, the Bernoulli lemma, the textbook and the stable forms of
the exact solution, its limit at t = oo and the loss near the minimum.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable._core.backends import elementary, exprel
from solvable._core.claims import Verdict, prove_zero
from solvable._core.flows import GradientFlow, symbol_array
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.flows import _data_symbols, _scalar, beta_gradient, flow
from solvable.models.kunin.frame import _frame, _gram_values
from solvable.models.kunin.losses import balance, loss, ntk, output, weight_preconditioner
from solvable.models.kunin.reduction import generator, reduced_field


# ---------------------------------------------------------------------------
# Claims (Part I, symbolic)
# ---------------------------------------------------------------------------
def _flow_parts(n: int = 2, d: int = 2) -> tuple[GradientFlow, Any, np.ndarray, np.ndarray, Any]:
    """The single-neuron flow with its blocks ``a`` (0-d), ``w`` and data symbols."""
    F = flow(n, d)
    X, y = _data_symbols(n, d)
    return F, F.block("a"), F.block("w"), X, y


def _at(exprs: np.ndarray, symbols: np.ndarray, values: Any) -> np.ndarray:
    """``exprs`` with ``symbols`` replaced by ``values`` (arrays of the same shape)."""
    sub = dict(zip(np.ravel(symbols), np.ravel(values), strict=True))
    return np.vectorize(lambda e: sp.sympify(e, strict=True).xreplace(sub), otypes=[object])(exprs)


def _factor_radicands(expr: sp.Expr) -> sp.Expr:
    """Every square root with its radicand factored (``sqrt(x^2) -> |x|`` then applies)."""
    return expr.replace(lambda x: x.is_Pow and x.exp == sp.S.Half,
                        lambda x: sp.sqrt(sp.factor(x.base)))  # fmt: skip


def _poster_delta(a: Any, w: Any) -> Any:
    """The poster's conserved quantity as printed (Part I), for equal unit rates:
    ``delta = a^2 - ||w||^2`` (paper data, not the module's)."""
    return a**2 - sum(v**2 for v in w)


def _beta_flow() -> Verdict:
    # d(a w)/dt along the flow of `loss` (n = d = 2, any X) is -M grad_beta L with M of
    # weight_preconditioner and grad_beta L derived from `loss` (beta_gradient)
    S = symbolic()
    F, a, w, _, _ = _flow_parts()
    beta = _scalar(a) * w
    B, _, _, grad = beta_gradient(2, 2)
    Mg = weight_preconditioner(a, w, S.eta_a, S.eta_w) @ _at(grad, B, beta)
    return prove_zero(*(F.ddt(beta[j]) + Mg[j] for j in range(2)))


def _m_of_beta_delta() -> Verdict:
    # weight_preconditioner(a, w) = lambda_1 I + lambda_2 beta beta^T/|beta|^2 with lambda_i of
    # symbolic() at delta = balance(a, w), |beta|^2 = |a w|^2 (d = 2, a != 0): sigma's radicand
    # is a perfect square
    S = symbolic()
    a = sp.Symbol("a", nonzero=True, real=True)
    w = np.array(sp.symbols("w0:2", real=True), dtype=object)
    beta = a * w
    b2 = beta @ beta
    at = {S.delta: balance(a, w, S.eta_a, S.eta_w), S.beta2: b2}
    lam1, lam2 = (_factor_radicands(S.exprs[k].subs(at)) for k in ("lambda_1", "lambda_2"))
    ref = lam1 * np.eye(2, dtype=int) + lam2 * np.outer(beta, beta) / b2
    return prove_zero(*(weight_preconditioner(a, w, S.eta_a, S.eta_w) - ref).ravel())


def _balanced_m() -> tuple[list[sp.Expr], list[sp.Expr]]:
    """Regime 2 (delta = 0) on the balanced manifold ``a = sqrt(eta_a/eta_w) |w|`` (d = 2):
    the entries of ``M - c (I + beta beta^T/|beta|^2)`` with ``M`` of
    :func:`weight_preconditioner` and ``c`` the poster's printed coefficient
    ``eta_a eta_w |beta|`` (paper data), resp. the module's ``lambda_1(delta = 0)`` (plus
    ``lambda_1 - lambda_2`` at delta = 0: the module's M has that form)."""
    S = symbolic()
    w = np.array(sp.symbols("w0:2", real=True), dtype=object)
    a = sp.sqrt(S.eta_a / S.eta_w) * sp.sqrt(w @ w)
    beta = a * w
    b2 = beta @ beta
    M = weight_preconditioner(a, w, S.eta_a, S.eta_w)
    rich = np.eye(2, dtype=int) + np.outer(beta, beta) / b2
    printed = S.eta_a * S.eta_w * sp.sqrt(b2)
    lam1, lam2 = (S.exprs[k].subs({S.delta: 0, S.beta2: b2}) for k in ("lambda_1", "lambda_2"))
    return list((M - printed * rich).ravel()), [*(M - lam1 * rich).ravel(), lam1 - lam2]


def _regimes() -> Verdict:
    # delta -> +oo: M/delta -> I (printed: M ~ delta I); delta -> -oo: M/|delta| -> bb^T/|b|^2
    # (printed: M ~ |delta| bb^T/|b|^2); delta = 0: M = lambda_1(0) (I + bb^T/|b|^2), checked
    # against weight_preconditioner on the balanced manifold (the corrected form, see errata)
    S = symbolic()
    l1, l2 = S.exprs["lambda_1"], S.exprs["lambda_2"]
    d = S.delta
    return prove_zero(
        sp.limit(l1 / d, d, sp.oo) - 1,
        sp.limit(l2 / d, d, sp.oo),
        sp.limit(l1 / -d, d, -sp.oo),
        sp.limit(l2 / -d, d, -sp.oo) - 1,
        *_balanced_m()[1],
    )


def _ntk() -> Verdict:
    # d f/dt = -K (f - y) along the flow, f = output(a, w, X), K = ntk(a, w, X) (n = d = 2)
    S = symbolic()
    F, a, w, X, y = _flow_parts()
    f = output(a, w, X)
    Kr = ntk(a, w, X, S.eta_a, S.eta_w) @ (f - y)
    return prove_zero(*(F.ddt(f[i]) + Kr[i] for i in range(2)))


def _loss_in_frame() -> Verdict:
    # loss(a, c, B, y) = loss(a, c, R, g) for the frame of B's Gram (_frame), every kind the
    # float64 path can pick (_frame_kind): generic columns (full), the second a multiple of the
    # first (rank_one), the first zero (swapped), both zero; n = 1, 2, 3 rows
    a = np.array(sp.Symbol("a", real=True), dtype=object)
    c = symbol_array("c", (2,), real=True)
    lam = sp.Symbol("lambda", real=True)
    res = []
    for n in (1, 2, 3):
        u, v, y = (symbol_array(name, (n,), real=True) for name in "uvy")
        zero = np.full(n, sp.Integer(0), dtype=object)
        cases = [(np.stack([u, lam * u], 1), "rank_one", False), (np.stack([zero, zero], 1),
                 "zero", False), (np.stack([zero, v], 1), "rank_one", True)]  # fmt: skip
        if n > 1:  # two generic columns of one row are always parallel
            cases.append((np.stack([u, v], 1), "full", False))
        for B, kind, swap in cases:
            R, g = _frame(_gram_values(B, y, lambda p, q: sum(p * q)), kind, swap)
            R = np.array(R.tolist(), dtype=object)
            g = np.array(list(g), dtype=object)
            res.append(loss(a, c, B, y) - loss(a, c, R, g))
    return prove_zero(*res)


def _unit_rates() -> Verdict:
    return prove_zero(*_unit_rates_residuals())


def _unit_rates_residuals() -> list[sp.Expr]:
    # a~ = a/sqrt(eta_a), w~ = w/sqrt(eta_w) follow the unit-rate flow of `loss` with inputs
    # sqrt(eta_a eta_w) X, and balance(a, w) = eta_a eta_w (a~^2 - |w~|^2): the poster's
    # printed delta of the equal-rate model, times eta_a eta_w
    S = symbolic()
    F, a, w, X, _ = _flow_parts()
    ra, rw = sp.sqrt(S.eta_a), sp.sqrt(S.eta_w)
    tilde = [_scalar(a) / ra, *(w / rw)]
    unit = {
        S.eta_a: 1,
        S.eta_w: 1,
        _scalar(a): tilde[0],
        **{x: ra * rw * x for x in X.ravel()},
        **dict(zip(w, tilde[1:], strict=True)),
    }
    rhs = [e.subs(unit, simultaneous=True) for e in F.rhs]
    res = [F.ddt(q) - r for q, r in zip(tilde, rhs, strict=True)]
    res.append(balance(a, w, S.eta_a, S.eta_w) - S.eta_a * S.eta_w * _poster_delta(
        tilde[0], tilde[1:]))  # fmt: skip
    return res


def _reduction() -> Verdict:
    # isotropic inputs X = c I_2 (s = c^2): z = (a/sqrt(eta_a'), w/sqrt(eta_w')) obeys
    # dz/dt = reduced_field(z, G, kappa), G = generator(delta', kappa, beta*) with beta* the
    # zero of grad_beta L (beta_gradient) and the primed quantities of symbolic(); G restricted
    # to the plane (e_a, beta*-hat) is the J of the exact solution, -delta'/2 across it
    S = symbolic()
    ex = S.exprs
    F, a, w, X, _ = _flow_parts()
    c = sp.Symbol("c", positive=True)
    iso = {X[0, 0]: c, X[0, 1]: 0, X[1, 0]: 0, X[1, 1]: c}
    B, _, _, grad = beta_gradient(2, 2)
    (sol,) = sp.solve([g.subs(iso) for g in grad], list(B), dict=True)
    beta_star = np.array([sol[b] for b in B])
    prm = {S.s: c**2, S.delta: balance(a, w, S.eta_a, S.eta_w)}
    delta_p, kappa, ra, rw = (ex[k].subs(prm) for k in ("delta_p", "kappa_of_rates", "root_a",
                                                        "root_w"))  # fmt: skip
    z = np.array([_scalar(a) / ra, *(w / rw)])
    field_ = reduced_field(z, generator(delta_p, kappa, beta_star), kappa)
    res = [F.ddt(z[i]).subs(iso) - field_[i] for i in range(3)]
    # the plane of (e_a, beta*-hat) and its complement, for a generic beta* = b
    b = np.array(sp.symbols("b0:2", real=True), dtype=object)
    G = generator(S.delta, S.kappa, b)
    Y = sp.sqrt(b @ b)
    e_a, u, perp = np.array([1, 0, 0]), np.array([0, *(b / Y)]), np.array([0, -b[1], b[0]])
    J = S.textbook["J"].subs(S.Y, Y)
    basis = (e_a, u)
    res += [basis[i] @ G @ basis[j] - J[i, j] for i in range(2) for j in range(2)]
    res += list(G @ perp + S.delta / 2 * perp)
    return prove_zero(*res)


def _eigenvector() -> Verdict:
    # on each branch of v_raw (delta > 0, delta < 0): J v_raw = Omega v_raw, J v_- = -Omega v_-
    # with v_- = (-v_y, v_x), Omega of symbolic(), and v_raw != 0
    S = symbolic()
    ex = S.exprs
    J = S.textbook["J"]
    res, nonzero = [], []
    for branch, sign in ((0, 1), (1, -1)):
        raw = ex["v_raw"].args[branch][0]
        at = {S.delta: sign * sp.Symbol("dpos", positive=True)}
        minus = sp.Matrix([-raw[1], raw[0]])
        for v, lam in ((raw, S.Omega), (minus, -S.Omega)):
            res += [r.subs(S.Omega, ex["Omega"]).subs(at) for r in J * v - lam * v]
        norm2 = (raw[0] ** 2 + raw[1] ** 2).subs(S.Omega, ex["Omega"]).subs(at)
        nonzero.append(sp.simplify(norm2).is_positive)
    verdict = prove_zero(*res)
    if verdict.status == "proved" and not all(nonzero):
        return Verdict("failed", f"v_raw may vanish on a branch: {nonzero}",
                       residuals=verdict.residuals)  # fmt: skip
    return verdict


def _bernoulli_lemma() -> Verdict:
    # z = y/sqrt(phi) with dy/dt = G y and dphi/dt = kappa^2 |y|^2 solves
    # dz/dt = reduced_field(z, G, kappa), for any symmetric G
    yv = np.array(sp.symbols("y0:3", real=True), dtype=object)
    phi, k = sp.symbols("phi kappa", positive=True)
    G = np.array([[sp.Symbol(f"G{min(i, j)}{max(i, j)}") for j in range(3)] for i in range(3)])
    dY = G @ yv
    dphi = k**2 * (yv @ yv)
    z = yv / sp.sqrt(phi)
    dz = dY / sp.sqrt(phi) - yv * dphi / (2 * phi ** sp.Rational(3, 2))
    return prove_zero(*(dz - reduced_field(z, G, k)))


def _textbook_solution() -> Verdict:
    # e^{Jt} = cosh(Omega t) I + sinh(Omega t)/Omega J solves dY/dt = J Y, Y(0) = I;
    # phi of the docstring has dphi/dt = kappa^2 (|e^{Jt} c|^2 + e^{-delta t} c_perp^2), phi(0) = 1
    S = symbolic()
    tb = S.textbook
    J, eJ, t = tb["J"], tb["eJ"], S.t
    c = sp.Matrix([S.c0, S.c1])
    y = eJ * c
    res = [sp.simplify((sp.diff(eJ[i], t) - (J * eJ)[i]).rewrite(sp.exp)) for i in range(4)]
    res += [(eJ.subs(t, 0) - sp.eye(2))[i] for i in range(4)]
    rate = S.kappa**2 * ((y.T * y)[0] + sp.exp(-S.delta * t) * S.cperp**2)
    res.append((sp.diff(tb["phi"], t) - rate).rewrite(sp.exp))
    res.append(sp.limit(tb["phi"], t, 0) - 1)
    return prove_zero(*res)


def _stable_solution() -> Verdict:
    # the evaluated form: e^{-Omega t} e^{Jt} c = c_+ v_+ + c_- e^{-2 Omega t} v_- and
    # phi_hat = e^{-2 Omega t} phi, for each sign branch of delta
    S = symbolic()
    ex, tb = S.exprs, S.textbook
    Omx = ex["Omega"]
    t = S.t
    res = []
    for sign in (1, -1):
        dl = sp.Symbol("dpos", positive=True) * sign
        branch = 0 if sign > 0 else 1
        raw = ex["v_raw"].args[branch][0]
        nrm = sp.sqrt(raw[0] ** 2 + raw[1] ** 2)
        vx, vy = raw[0] / nrm, raw[1] / nrm
        cp = vx * S.c0 + vy * S.c1
        cm = -vy * S.c0 + vx * S.c1
        E2 = sp.exp(-2 * S.Omega * t)
        stable = sp.Matrix([cp * vx - cm * E2 * vy, cp * vy + cm * E2 * vx])
        textbook = sp.exp(-S.Omega * t) * tb["eJ"].subs(Omx, S.Omega) * sp.Matrix([S.c0, S.c1])
        om = {S.Omega: Omx}
        for r in stable - textbook:
            res.append(sp.expand(r.subs(om).subs(S.delta, dl).rewrite(sp.exp)))
        # both Piecewise in phi_hat test delta >= 0 first: take this sign's branch
        phi_hat = elementary(ex["phi_hat"]).replace(
            lambda z: isinstance(z, sp.Piecewise), lambda z, b=branch: z.args[b][0]
        )
        # the cancellation-free Omega + delta/2 of the delta < 0 branch (proved equal below)
        om_neg = ex["om_plus"].args[1][0]
        phi_hat = phi_hat.subs(om_neg, S.Omega + S.delta / 2)
        res.append(sp.simplify((om_neg - (S.Omega + S.delta / 2)).subs(S.Omega, Omx)))
        phi_hat = phi_hat.subs({S.c_plus: cp, S.c_minus: cm})
        target = sp.exp(-2 * S.Omega * t) * tb["phi"].subs(Omx, S.Omega)
        diff = (phi_hat - target).subs(om).subs(S.delta, dl)
        res.append(sp.simplify(sp.expand(diff.rewrite(sp.exp))))
    return prove_zero(*res)


def _limit_at_infinity() -> Verdict:
    # sympy's limit t -> oo of the evaluated z_a, z_1, z_perp (symbolic(), exprel written
    # out) on every branch equals z_a_inf, z_1_inf, z_perp_inf of symbolic(): delta = D > 0,
    # = 0, = -D < 0 with Omega = |delta|/2 + q (q > 0: Y > 0; Omega + delta/2 = q for delta
    # < 0, proved in stable_solution), c_+ > 0, < 0 and = 0; and Omega = 0 (delta = Y = 0,
    # the limits delta -> 0, Omega -> 0 taken first)
    S = symbolic()
    ex, t = S.exprs, S.t
    D, q, cp, cm, cq = sp.symbols("D q c_p c_m c_q", positive=True)
    names = ("z_a", "z_1", "z_perp")
    res = []

    def branch(e: Any, b: int) -> Any:
        return e.replace(lambda z: isinstance(z, sp.Piecewise), lambda z: z.args[b][0])

    om_neg = ex["om_plus"].args[1][0]
    for sign, b in ((1, 0), (0, 0), (-1, 1)):
        dl = sign * D if sign else D  # delta = 0: the limit D -> 0+ taken before t -> oo
        for c_plus in (cp, -cp, sp.Integer(0)):
            at = {S.delta: dl, S.Omega: D / 2 + q, S.c_plus: c_plus, S.c_minus: cm, S.cperp: cq}
            for name in names:
                e = branch(elementary(ex[name]), b).subs(om_neg, S.Omega + S.delta / 2)
                e, at_inf = e.subs(at), at
                if not sign:
                    e, at_inf = sp.limit(e, D, 0, "+"), {**at, S.delta: 0, S.Omega: q}
                res.append(sp.limit(e, t, sp.oo) - ex[name + "_inf"].subs(at_inf))
    at0 = {S.c_plus: cp, S.c_minus: cm, S.cperp: cq}
    for name in names:
        e = branch(elementary(ex[name]), 0).subs(at0)
        e = sp.limit(sp.limit(e.subs(S.delta, D), D, 0), S.Omega, 0, "+")
        res.append(sp.limit(e, t, sp.oo) - ex[name + "_inf"].subs({**at0, S.delta: 0, S.Omega: 0}))
    return prove_zero(*res)


def _deviation_from_minimum() -> Verdict:
    # (1) z_a z_1 - Y/kappa = z_dev for k_dev = c0 c1 - Y/kappa (c0 = v_x c_+ - v_y c_-, c1 =
    # v_y c_+ + v_x c_-: the start's balanced coordinates), each sign branch of delta and
    # delta = 0 (v_+ from v_raw), and Omega = 0 (delta = Y = 0, v_+ = e_a): times phi_hat,
    # with e = e^{-Omega t}, t exprel(-2 Omega t) = (1 - e^2)/(2 Omega), the Piecewise factor
    # p and exprel(-|delta| t) = q as symbols, a polynomial in (c_+, c_-, c_perp, e, p, q, t)
    # whose coefficients sympy reduces to 0 with Omega = sqrt(delta^2/4 + kappa^2 Y^2)
    S = symbolic()
    ex, t = S.exprs, S.t
    e, p, q = sp.symbols("e p q", positive=True)
    res = []
    for dl, b in ((sp.Symbol("D", positive=True), 0), (sp.Integer(0), 0),
                  (-sp.Symbol("D", positive=True), 1), (None, 0)):  # fmt: skip
        if dl is None:  # Omega = 0
            at, vx, vy, two_omega_exprel = {S.delta: 0, S.Y: 0, S.Omega: 0}, 1, 0, t
        else:
            raw = ex["v_raw"].args[b][0]
            nrm = sp.sqrt(raw[0] ** 2 + raw[1] ** 2)
            vx, vy = raw[0] / nrm, raw[1] / nrm
            at, two_omega_exprel = {S.delta: dl}, (1 - e**2) / (2 * S.Omega)
        c0 = vx * S.c_plus - vy * S.c_minus
        c1 = vy * S.c_plus + vx * S.c_minus

        def plain(z: Any, two_omega_exprel: Any = two_omega_exprel) -> Any:
            z = z.replace(lambda u: isinstance(u, sp.Piecewise), lambda u: p)
            z = z.subs(t * exprel(-2 * S.Omega * t), two_omega_exprel)
            return z.subs(exprel(-sp.Abs(S.delta) * t), q).subs(ex["E"], e)

        r = plain(ex["z_a"]) * plain(ex["z_1"]) - S.Y / S.kappa \
            - plain(ex["z_dev"]).subs(S.k_dev, c0 * c1 - S.Y / S.kappa)  # fmt: skip
        num = sp.numer(sp.together(sp.expand(r * plain(ex["phi_hat"]))))
        num = num.subs({ex["vx"]: vx, ex["vy"]: vy}).subs(at)
        omega = ex["Omega"].subs(at)
        poly = sp.Poly(num, S.c_plus, S.c_minus, S.cperp, e, p, q, t)
        res += [sp.simplify(c.subs(S.Omega, omega)) for c in poly.coeffs()]
        if dl is not None:  # (2) the limit: z_a_inf z_1_inf - Y/kappa = z_dev_inf
            for cp in (sp.Symbol("c", positive=True), -sp.Symbol("c", positive=True), 0):
                sub = {S.c_plus: cp, ex["vx"]: vx, ex["vy"]: vy}
                lim = ex["z_a_inf"] * ex["z_1_inf"] - S.Y / S.kappa - ex["z_dev_inf"]
                lim = lim.subs(sub).subs(at)
                res.append(sp.simplify(lim.subs(S.Omega, omega).subs(S.Y, sp.Symbol(
                    "Yp", positive=True))))  # fmt: skip
    # (3) loss(1, beta, X, y) = L_min + s |beta - beta*|^2/2 + beta^T (X^T X - s I) beta/2
    # for any X (n = 3, d = 2), y, s > 0: beta* = X^T y/s, L_min = (y^T y - |X^T y|^2/s)/2,
    # and |beta - beta*|^2 from its coordinates D_1, u_2 c_n in any orthonormal frame
    # (rational rotation by m): loss_deviation is the loss where X^T X = s I exactly
    X, y = _data_symbols(3, 2)
    bvec = symbol_array("b", (2,), real=True)
    m = sp.Symbol("m", real=True)
    e1 = np.array([(1 - m**2) / (1 + m**2), 2 * m / (1 + m**2)], dtype=object)
    e2 = np.array([-e1[1], e1[0]], dtype=object)
    Dl, u2, rs, cn, lmin = S.deviation
    sv = rs**2
    bstar = X.T @ y / sv
    D = bvec - bstar
    F = X.T @ X - sv * np.eye(2, dtype=object)
    value = ex["loss_deviation"].subs(
        {Dl: D @ e1, u2: (D @ e2) / cn, lmin: (y @ y - (X.T @ y) @ (X.T @ y) / sv) / 2}
    )
    res.append(
        sp.simplify(
            sp.expand(
                loss(np.array(sp.Integer(1), dtype=object), bvec, X, y)
                - value
                - bvec @ F @ bvec / 2
            )
        )
    )
    return prove_zero(*res)
