"""The claims of seed 002, Sections 2.2-2.3, and their checks: the Hessian's block
structure and operator norm (eqs. (2.12)-(2.18)), the tanh bound ``4 sqrt(3)/9``, the
quadratic form and Taylor remainder (eqs. (2.9), (2.10), corrected), Gronwall (eqs.
(2.37)-(2.40)), the function-space flow and lazy relaxation (eqs. (2.22)-(2.29), (2.42),
corrected) and Exercise 2 (eq. (4.6)); :func:`claims` lists them."""

from __future__ import annotations

import sympy as sp

from solvable._core import activations as act
from solvable._core.claims import Theorem, Verdict, all_proved, decide, prove_nonzero, prove_zero
from solvable.models.linearisation.formulas import (
    _AJ,
    _M_1,
    _M_A,
    _M_S,
    _PHI,
    _S1,
    _S2,
    _SIGMA,
    _X2,
    EA2,
    ES1,
    G2,
    LAM,
    SEED,
    N,
    P,
    T,
    Z,
    activation,
    block_opnorm,
    composed_hessian_terms,
    full_block_opnorm,
    full_hessian_bound,
    gradient_norm_sq,
    gronwall_bound,
    second_derivative,
    second_derivative_sup,
)
from solvable.models.linearisation.symbolic_network import _flow_setup, _network, _ntk


# ---------------------------------------------------------------------------
# symbolic claims
# ---------------------------------------------------------------------------
def _deriv(k: int, at: sp.Expr) -> sp.Expr:
    u = sp.Dummy("u")
    return _SIGMA(u).diff(u, k).subs(u, at)


def _hessian_block_diagonal() -> Verdict:
    # p = 3, d = 2, generic sigma, a fixed: (2.12) and H_jk = delta_jk c_j x x^T (2.13)-(2.15)
    p, d = 3, 2
    f, a, w, x, z = _network(p, d)
    X = sp.Matrix(x)
    res = []
    for j in range(p):
        g = sp.Matrix([sp.diff(f, v) for v in w[j]])
        res.extend(g - a[j] * _deriv(1, z[j]) * X / sp.sqrt(p))
        for k in range(p):
            Hjk = sp.Matrix(d, d, lambda r, s, j=j, k=k: sp.diff(f, w[j][r], w[k][s]))
            target = (a[j] * _deriv(2, z[j]) / sp.sqrt(p)) * X * X.T if j == k else sp.zeros(d)
            res.extend(Hjk - target)
    return prove_zero(*res)


def _hessian_opnorm() -> Verdict:
    # (2.16): det(lambda I - c x x^T) = lambda^(d-1) (lambda - c |x|^2), d = 3, and x is the
    # eigenvector; (2.17): det(lambda I - H) = prod_j lambda (lambda - c_j |x|^2) for the
    # network's own Hessian (p = 2, d = 2), so spec(H) = {c_j |x|^2} u {0} and, H being
    # symmetric, ||H||_op = max_j |c_j| |x|^2 = max_j ||H_j||_op.
    lam, c = sp.symbols("lambda c", real=True)
    x3 = sp.Matrix(sp.symbols("x0:3", real=True))
    Hj = c * x3 * x3.T
    x2 = (x3.T * x3)[0]
    res = [sp.expand((lam * sp.eye(3) - Hj).det() - lam**2 * (lam - c * x2))]
    res.extend(Hj * x3 - c * x2 * x3)
    p, d = 2, 2
    f, a, w, x, z = _network(p, d)
    flat = [v for row in w for v in row]
    H = sp.hessian(f, flat)
    X2 = sum(v**2 for v in x)
    cs = [a[j] * _deriv(2, z[j]) / sp.sqrt(p) for j in range(p)]
    target = sp.Mul(*[lam ** (d - 1) * (lam - cj * X2) for cj in cs])
    res.append(sp.expand((lam * sp.eye(p * d) - H).det() - target))
    res.append((H - H.T).norm() ** 2)
    res.append(
        block_opnorm().subs({_AJ: a[0], _S2: _deriv(2, z[0]), _X2: X2, P: p}) - sp.Abs(cs[0]) * X2
    )
    return prove_zero(*res)


def _tanh_stable_form() -> Verdict:
    # the evaluated -2 tanh(z)/cosh(z)^2 is sympy's diff(tanh(z), z, 2) = -2 tanh(z)(1 - tanh^2 z)
    stable, textbook = act.stable_derivative("tanh", 2), second_derivative("tanh")
    return prove_zero((stable - textbook).rewrite(sp.exp))


def _tanh_bound() -> Verdict:
    # sigma'' = -2 t (1 - t^2), t = tanh z; with u = t^2 in [0, 1):
    # M^2 - sigma''^2 = 16/27 - 4 u (1 - u)^2 = 4 (u - 1/3)^2 (4/3 - u) >= 0, = 0 at u = 1/3
    tt, u = sp.Symbol("t", real=True), sp.Symbol("u", nonnegative=True)
    s2 = second_derivative("tanh")
    M = second_derivative_sup("tanh")
    res = [
        sp.simplify(s2.rewrite(sp.exp) - (-2 * sp.tanh(Z) * (1 - sp.tanh(Z) ** 2)).rewrite(sp.exp)),
        sp.expand(
            M**2 - 4 * u * (1 - u) ** 2 - 4 * (u - sp.Rational(1, 3)) ** 2 * (sp.Rational(4, 3) - u)
        ),
        (4 * u * (1 - u) ** 2).subs(u, sp.Rational(1, 3)) - M**2,
        sp.limit(sp.tanh(tt) ** 2, tt, sp.oo) - 1,  # sup tanh^2 = 1 < 4/3
    ]
    v = prove_zero(*res)
    if v.status != "proved":
        return v
    # 4/3 - q/(1+q) with q >= 0 (u = q/(1+q) covers [0, 1)): sympy decides it via the sign
    q = sp.Symbol("q", nonnegative=True)
    margin = sp.together(sp.Rational(4, 3) - q / (1 + q))
    ok = bool(margin.is_positive)
    sign = decide([("4/3 - u > 0 on u in [0, 1)", ok)], "sign")
    if sign.status != "proved":
        return sign
    return Verdict(
        "proved",
        f"sup|tanh''| = 4 sqrt(3)/9 ~ {float(M):.6f} (attained at tanh^2 z = 1/3); "
        "16/27 - tanh''^2 = 4 (u - 1/3)^2 (4/3 - u) >= 0; so (2.18) holds with M = 4 sqrt(3)/9",
        residuals=v.residuals + sign.residuals,
    )


def _quadratic_form_sup() -> Verdict:
    # H = blockdiag(c_j x x^T), p = 2, d = 2, v = (v_1, v_2): with C >= |c_j| (C = max |c_j|)
    # C |x|^2 |v|^2 -+ <v, H v> = sum_j (C -+ c_j)(x.v_j)^2 + C sum_j [x, v_j]^2 >= 0
    # (Lagrange: |x|^2 |v_j|^2 - (x.v_j)^2 = (x0 v_j1 - x1 v_j0)^2); equality at v = x/|x| in
    # the block j* of max |c_j|.  Without |.|: sup <v, H v> = max(max_j c_j, 0) |x|^2.
    C = sp.Symbol("C", nonnegative=True)
    c = sp.symbols("c0:2", real=True)
    x = sp.Matrix(sp.symbols("x0:2", real=True))
    v = [sp.Matrix(sp.symbols(f"v{j}_0:2", real=True)) for j in range(2)]
    x2 = (x.T * x)[0]
    quad = sum(c[j] * (x.T * v[j])[0] ** 2 for j in range(2))
    v2 = sum((vj.T * vj)[0] for vj in v)
    lag = [(x[0] * vj[1] - x[1] * vj[0]) ** 2 for vj in v]
    res = []
    for s in (1, -1):
        rhs = sum((C - s * c[j]) * (x.T * v[j])[0] ** 2 for j in range(2)) + C * sum(lag)
        res.append(sp.expand(C * x2 * v2 - s * quad - rhs))
    xn = x / sp.sqrt(x2)
    res.append(
        sp.simplify(
            quad.subs(dict(zip(v[0], xn, strict=True)) | {vi: 0 for vi in v[1]}) - c[0] * x2
        )
    )
    return prove_zero(*res)


def _taylor_remainder() -> Verdict:
    # g(s) = f(W0 + s Delta): g'' = <Delta, H(W0 + s Delta) Delta> (network p = 2, d = 1,
    # generic sigma, a fixed); d/ds[(1 - s) g'(s) + g(s)] = (1 - s) g''(s) (generic g), so
    # g(1) - g(0) - g'(0) = int_0^1 (1 - s) g'' ds, and int_0^1 (1 - s) ds = 1/2.
    p, d = 2, 1
    f, _a, w, _x, _z = _network(p, d)
    s = sp.Symbol("s", real=True)
    flat = [v for row in w for v in row]
    w0 = sp.symbols(f"W0_0:{len(flat)}", real=True)
    dl = sp.symbols(f"D0:{len(flat)}", real=True)
    path = {v: w0[k] + s * dl[k] for k, v in enumerate(flat)}
    g = f.subs(path, simultaneous=True)
    H = sp.hessian(f, flat).subs(path, simultaneous=True)
    D = sp.Matrix(dl)
    res = [sp.simplify(sp.diff(g, s, 2) - (D.T * H * D)[0])]
    G = sp.Function("g")
    res.append(sp.diff((1 - s) * sp.diff(G(s), s) + G(s), s) - (1 - s) * sp.diff(G(s), s, 2))
    res.append(sp.integrate(1 - s, (s, 0, 1)) - sp.Rational(1, 2))
    return prove_zero(*res)


def _gronwall() -> Verdict:
    # (2.39)-(2.40): int_0^t R V c / sqrt(p) ds = R V c t / sqrt(p); with ||theta(s) - theta0||
    # <= V s (2.37): int_0^t (V c/sqrt(p)) V s ds = c V^2 t^2 / (2 sqrt(p)) and
    # R V c t/sqrt(p) - c V^2 t^2/(2 sqrt(p)) = (V c t/(2 sqrt(p))) (2R - V t) >= 0 on [0, R/V]
    R, V, c = sp.symbols("R V c", positive=True)
    s = sp.Symbol("s", nonnegative=True)
    tau = sp.Symbol("tau", nonnegative=True)
    res = [
        sp.integrate(R * V * c / sp.sqrt(P), (s, 0, T)) - gronwall_bound(),
        sp.integrate(V * c / sp.sqrt(P) * V * s, (s, 0, T)) - gronwall_bound(sharp=True),
        sp.expand(
            gronwall_bound()
            - gronwall_bound(sharp=True)
            - V * c * T / (2 * sp.sqrt(P)) * (2 * R - V * T)
        ),
    ]
    v = prove_zero(*res)
    # on t = tau R / V with tau in [0, 1]: 2R - V t = R (2 - tau) >= R > 0
    gap = sp.expand((2 * R - V * T).subs(T, tau * R / V) - R * (2 - tau))
    ok = gap == 0 and bool((2 - tau).subs(tau, 1).is_positive)  # 2 - tau >= 1 on [0, 1]
    cases = decide([("2R - V t >= R > 0 on [0, R/V]", ok)], "sign")
    return all_proved(
        v, cases, detail="E(t) <= c V^2 t^2/(2 sqrt(p)) <= R V c t/sqrt(p) on [0, R/V]; " + v.detail
    )


def _function_space_flow() -> Verdict:
    # (2.22): -grad R = (1/n) sum_i (y_i - f_i) grad f_i; (2.23)-(2.27) corrected:
    # df(x)/dt = +(1/n) sum_i K(x, x_i)(y_i - f_i), K the rate-weighted NTK; dr/dt = -(1/n) K r;
    # (2.29): at eta = 1, K = (1/p) sum_j sigma_j sigma_j' + (x x'/p) sum_j a_j^2 sigma'_j sigma'_j
    f, theta, vel, xs, ys, rate = _flow_setup()
    n = len(xs)
    x, xp = sp.symbols("x xp", real=True)
    res = []
    for v in theta:
        g = sum((ys[i] - f(xs[i])) * sp.diff(f(xs[i]), v) for i in range(n)) / n
        res.append(vel[v] - rate[v] * g)
    dfdt = sum(sp.diff(f(x), v) * vel[v] for v in theta)
    K = lambda u, uu: _ntk(f, theta, rate, u, uu)  # noqa: E731
    res.append(dfdt - sum(K(x, xs[i]) * (ys[i] - f(xs[i])) for i in range(n)) / n)
    for i in range(n):
        dri = -sum(sp.diff(f(xs[i]), v) * vel[v] for v in theta)
        res.append(dri + sum(K(xs[i], xs[k]) * (ys[k] - f(xs[k])) for k in range(n)) / n)
    a, w = theta[2:], theta[:2]
    p = 2
    K1 = K(x, xp).subs({rate[w[0]]: 1, rate[a[0]]: 1})
    eq229 = sum(_SIGMA(w[j] * x) * _SIGMA(w[j] * xp) for j in range(p)) / p + x * xp / p * sum(
        a[j] ** 2 * _deriv(1, w[j] * x) * _deriv(1, w[j] * xp) for j in range(p)
    )
    res.append(K1 - eq229)
    return prove_zero(*(sp.expand(r) for r in res))


def _stationary_interpolates() -> Verdict:
    # Remark 2(b), through the package's flow (p = 2, d = 1, n = 2, both layers, generic
    # sigma): J theta dot = (1/n) K r (K the rate-weighted NTK Gram matrix), hence
    # det(K) r = n adj(K) J theta dot: where K has rank n, theta dot = 0 forces r = y - f = 0.
    # Rank n is reached with P = 4 parameters > n = 2 (det K != 0 at a rational point, sigma
    # = z + z^2/2, unit rates); without it (x_1 = x_2, y_1 - f = f - y_2 = c) the flow is
    # stationary at r = (c, -c) != 0, a non-interpolating stationary point.
    f, theta, vel, xs, ys, rate = _flow_setup()
    n = len(xs)
    K = sp.Matrix(n, n, lambda i, k: _ntk(f, theta, rate, xs[i], xs[k]))
    r = sp.Matrix([ys[i] - f(xs[i]) for i in range(n)])
    J_vel = sp.Matrix([sum(sp.diff(f(xs[i]), v) * vel[v] for v in theta) for i in range(n)])
    identity = [sp.expand(e) for e in K.det() * r - n * K.adjugate() * J_vel]
    u = sp.Dummy("u")
    poly = {_SIGMA: sp.Lambda(u, u + u**2 / 2)}
    free = sorted(K.free_symbols, key=lambda q: q.name)
    point = {q: sp.Rational(k + 2, k + 3) for k, q in enumerate(free)}
    point.update({rv: 1 for rv in set(rate.values())})
    det_at = sp.nsimplify(K.det().subs(poly).doit().subs(point))
    c = sp.Symbol("c", real=True)
    same = {xs[1]: xs[0]}
    f1 = f(xs[0])
    degenerate = {ys[0]: f1 + c, ys[1]: f1 - c}
    stalled = [sp.expand(vel[v].subs(same).subs(degenerate)) for v in theta]
    residual_left = sp.expand((ys[0] - f(xs[0])).subs(same).subs(degenerate))
    zero = prove_zero(*identity, *stalled)
    ok = zero.status == "proved" and det_at != 0 and residual_left == c
    return Verdict(
        "proved" if ok else "failed",
        f"det(K) r = n adj(K) J theta dot ({zero.detail}); det K = {det_at} at a rational "
        f"point (rank n = 2 with 4 parameters); at x_1 = x_2 the flow stalls with r = (c, -c)",
        residuals=(
            *zero.residuals,
            sp.Integer(0 if det_at != 0 else 1),
            residual_left - c,
        ),
    )


def _exercise_3_full_hessian() -> Verdict:
    # Exercise 3: the Hessian of the package's network (p = 2, d = 2, generic sigma) in all
    # of (a_j, w_j): no cross-unit blocks; unit j's block is [[0, s1 x^T], [s1 x, a_j s2 x
    # x^T]]/sqrt(p) (s1, s2 = sigma', sigma'' at z_j); its characteristic polynomial is
    # lam^(d-1) (lam^2 - b lam/sqrt(p) - c^2/p), b = a_j s2 |x|^2, c^2 = s1^2 |x|^2; the
    # largest |root| is full_block_opnorm (exact at rational points, b of both signs and 0);
    # and (|b| + sqrt(b^2 + 4c^2))/2 <= |b| + |c| (the square gap is 4|b||c| >= 0), which
    # with |a_j| <= m, |sigma''| <= M, |sigma'| <= M_1 is full_hessian_bound.
    p, d = 2, 2
    f, a, w, x, z = _network(p, d)
    units = [[a[j], *w[j]] for j in range(p)]
    res = []
    for j in range(p):
        for k in range(p):
            block = sp.Matrix([[sp.diff(f, u, v) for v in units[k]] for u in units[j]])
            if j != k:
                res.extend(block)
                continue
            s1, s2 = _deriv(1, z[j]), _deriv(2, z[j])
            xv = sp.Matrix(x)
            expected = sp.zeros(d + 1, d + 1)
            expected[0, 1:] = s1 * xv.T
            expected[1:, 0] = s1 * xv
            expected[1:, 1:] = a[j] * s2 * xv * xv.T
            res.extend(block - expected / sp.sqrt(p))
            lam = sp.Symbol("lam")
            x2 = sum(v**2 for v in x)
            b, c2 = a[j] * s2 * x2, s1**2 * x2
            quad = lam ** (d - 1) * (lam**2 - b * lam / sp.sqrt(p) - c2 / p)
            res.append(sp.expand(block.charpoly(lam).as_expr() - quad))
    bb, cc = sp.symbols("b c", real=True)
    lp, lm = ((bb + sgn * sp.sqrt(bb**2 + 4 * cc**2)) / (2 * sp.sqrt(P)) for sgn in (1, -1))
    norm = full_block_opnorm().subs({_AJ: bb, _S2: 1, _X2: 1, _S1: cc})
    for point in ({bb: 3, cc: 2}, {bb: -sp.Rational(5, 7), cc: 1}, {bb: 0, cc: -2}):
        res.append((sp.Max(sp.Abs(lp), sp.Abs(lm)) - norm).subs(point))
    res.append(sp.expand((sp.Abs(bb) + 2 * sp.Abs(cc)) ** 2 - bb**2 - 4 * cc**2
                         - 4 * sp.Abs(bb) * sp.Abs(cc)))  # fmt: skip
    # the bound at its extremes |a_j| = m, |sigma''| = M, |sigma'| = M_1 is (|b| + |c|)/sqrt(p)
    aj, s1, s2 = sp.symbols("a_j s_1 s_2", real=True)
    extremes = {_M_A: sp.Abs(aj), _M_S: sp.Abs(s2), _M_1: sp.Abs(s1)}
    b_c = (sp.Abs(aj * s2 * _X2) + sp.Abs(s1) * sp.sqrt(_X2)) / sp.sqrt(P)
    res.append(full_hessian_bound().subs(extremes) - b_c)
    return prove_zero(*res)


def _lazy_relaxation() -> Verdict:
    # constant symmetric K (3 x 3 generic), r' = -(1/n) K r:
    # d/dt (e^{2 lam t/n} |r|^2) = -(2/n) e^{2 lam t/n} r^T (K - lam I) r  (<= 0 at lam =
    # lambda_min(K), K - lam I >= 0), so |r(t)| <= e^{-lambda_min t/n} |r(0)|; equality along
    # the eigenvector of lambda_min (r = e^{-lam t/n} u, K u = lam u solves the flow);
    # relaxation rate -lim log|r(t)|/t = lambda_min/n (K = diag(1, 2), n = 2, r0 = (1, 1)).
    k = sp.symbols("k0:6", real=True)
    K = sp.Matrix([[k[0], k[1], k[2]], [k[1], k[3], k[4]], [k[2], k[4], k[5]]])
    r = sp.Matrix([sp.Function(f"r{i}")(T) for i in range(3)])
    flow = {sp.diff(r[i], T): (-K * r / N)[i] for i in range(3)}
    energy = sp.exp(2 * LAM * T / N) * (r.T * r)[0]
    lhs = sp.diff(energy, T).subs(flow)
    rhs = -2 / N * sp.exp(2 * LAM * T / N) * (r.T * (K - LAM * sp.eye(3)) * r)[0]
    u = sp.Matrix(sp.symbols("u0:3", real=True))
    eig = {k[0]: LAM, k[1]: 0, k[2]: 0}  # K e_0 = lam e_0 (first column lam e_0)
    r_slow = sp.exp(-LAM * T / N) * sp.Matrix([u[0], 0, 0])
    res = [
        sp.expand(lhs - rhs),
        sp.simplify(sp.diff(r_slow, T) + K.subs(eig) * r_slow / N).norm() ** 2,
    ]
    t = sp.Symbol("t", positive=True)
    norm = sp.sqrt(sp.exp(-t) + sp.exp(-2 * t))  # |e^{-K t/n} r0|, K = diag(1, 2), n = 2
    res.append(sp.limit(-sp.log(norm) / t, t, sp.oo) - sp.Rational(1, 2))
    return prove_zero(*res)


def _phi_at(k: int, at: sp.Expr) -> sp.Expr:
    u = sp.Dummy("u")
    return _PHI(u).diff(u, k).subs(u, at) if k else _PHI(at)


def _exercise_2_hessian() -> Verdict:
    # (4.6) on the package's network (p = 2, d = 2, generic sigma and phi, a fixed):
    # Hess_W phi(f) = phi'(f) Hess_W f + phi''(f) grad_W f grad_W f^T (chain rule twice)
    f, _a, w, _x, _z = _network(2, 2)
    flat = [v for row in w for v in row]
    grad = sp.Matrix([sp.diff(f, v) for v in flat])
    Hg = sp.hessian(_PHI(f), flat)
    target = _phi_at(1, f) * sp.hessian(f, flat) + _phi_at(2, f) * grad * grad.T
    return prove_zero(*(Hg - target))


def _exercise_2_scalings() -> Verdict:
    # (b) the rank-one term: det(lambda - c g g^T) = lambda^3 (lambda - c |g|^2) and
    # (g g^T) g = |g|^2 g (n = 4), so ||phi'' grad f grad f^T||_op = |phi''| |grad_W f|^2;
    # (2.21) on the network (p = 3, d = 2, generic sigma): |grad_W f|^2 = sum_j a_j^2
    # sigma'(z_j)^2 |x|^2 / p, whose mean over i.i.d. units, E[a^2] E[sigma'^2] |x|^2, is free
    # of p; the other term's bound (2.18) -> 0 as p -> oo (phi = tanh and generic phi).
    lam, c = sp.symbols("lambda c", real=True)
    g = sp.Matrix(sp.symbols("g0:4", real=True))
    g2 = (g.T * g)[0]
    R = c * g * g.T
    res = [sp.expand((lam * sp.eye(4) - R).det() - lam**3 * (lam - c * g2))]
    res.extend(R * g - c * g2 * g)
    p = 3
    f, a, w, x, z = _network(p, 2)
    X2 = sum(v**2 for v in x)
    grad2 = sum(sp.diff(f, v) ** 2 for row in w for v in row)
    per_unit = [gradient_norm_sq().subs({_AJ: a[j], _S1: _deriv(1, z[j]), _X2: X2, P: p})
                for j in range(p)]  # fmt: skip
    res.append(sp.expand(grad2 - sum(per_unit)))
    res.append(P * gradient_norm_sq().subs({_AJ**2: EA2, _S1**2: ES1}) - gradient_norm_sq(True))
    for phi in (None, "tanh"):
        first, second = composed_hessian_terms(phi)
        res.append(sp.limit(first, P, sp.oo))
        res.append(sp.diff(second.subs(G2, gradient_norm_sq(True)), P))
    return prove_zero(*res)


def _exercise_2_no_linearisation() -> Verdict:
    # (c) sigma linear (p = 3, d = 2, generic phi): f is linear in W, so along the unit
    # gradient direction u = grad_W f / G (G = |grad_W f|) f(W + t u) = f + t G exactly and
    # f - f_lin = 0, while g = phi(f) has g(W + t u) - g_lin = phi(f + t G) - phi(f) - t G
    # phi'(f) at every width: with G^2 -> E[a^2] |x|^2 > 0 (LLN) this stays O(1).  Example:
    # phi = tanh, f = 0, a ~ Unif[-1, 1] (E[a^2] = 1/3), |x|^2 = 3, t = 1: tanh(1) - 1 != 0.
    f, _a, w, _x, _z = _network(3, 2, sp.Id)
    flat = [v for row in w for v in row]
    grad = [sp.diff(f, v) for v in flat]
    G = sp.sqrt(sum(gk**2 for gk in grad))
    t = sp.Symbol("t", real=True)
    moved = f.subs({v: v + t * gk / G for v, gk in zip(flat, grad, strict=True)},
                   simultaneous=True)  # fmt: skip
    step = sum(gk * t * gk / G for gk in grad)  # <grad f, t u>: f_lin - f and g_lin's step
    proof = prove_zero(moved - (f + t * G), step - t * G)
    if proof.status != "proved":
        return proof
    tanh = activation("tanh")
    G_inf = sp.sqrt(sp.Rational(1, 3) * 3)
    gap = tanh.subs(Z, G_inf) - tanh.subs(Z, 0) - G_inf * sp.diff(tanh, Z).subs(Z, 0)
    nonzero = prove_nonzero(gap, what="tanh(f + G) - tanh(f) - G tanh'(f) at f = 0, G = 1")
    ok = nonzero.status == "proved"
    return Verdict(
        "proved" if ok else "failed",
        f"f(W + t u) = f + t G and <grad f, t u> = t G ({proof.detail}): f - f_lin = 0, g - "
        f"g_lin = phi(f + t G) - phi(f) - t G phi'(f) at every p; {nonzero.detail} "
        f"(~ {float(gap):.4f})",
        residuals=proof.residuals + nonzero.residuals,
    )


# ---------------------------------------------------------------------------
# numeric claims (simulations in numerics.lazy_width)
# ---------------------------------------------------------------------------


def claims() -> list[Theorem]:
    """Every claim of seed 002, Sections 2.2-2.3, checked here."""

    def T_(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"linearisation.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T_(
            "hessian_block_diagonal",
            "eqs. (2.12)-(2.15) (delta_jk corrected)",
            "For fixed a, grad_{w_j} f = a_j sigma'(<w_j,x>) x / sqrt(p) and the W-Hessian is "
            "block diagonal, H_jk = delta_jk a_j sigma''(<w_j,x>) x x^T / sqrt(p) (p = 3, d = 2, "
            "generic sigma).",
            _hessian_block_diagonal,
        ),
        T_(
            "hessian_opnorm",
            "eqs. (2.16), (2.17) (||H_j|| corrected)",
            "Each block c_j x x^T has spectrum {c_j |x|^2, 0, ..., 0}; det(lambda - H) = "
            "prod_j lambda^(d-1)(lambda - c_j |x|^2) (p = 2, d = 2), so ||H||_op = max_j "
            "|a_j sigma''_j| |x|^2/sqrt(p).",
            _hessian_opnorm,
        ),
        T_(
            "tanh_second_derivative_stable_form",
            "eq. (2.18) (evaluation form)",
            "The evaluated tanh''(z) = -2 tanh(z)/cosh(z)^2 (no cancellation in 1 - tanh^2 z at "
            "large |z|) equals sympy's second derivative of tanh.",
            _tanh_stable_form,
        ),
        T_(
            "tanh_second_derivative_bound",
            "eq. (2.18)",
            "sup_z |tanh''(z)| = 4 sqrt(3)/9 (16/27 - tanh''^2 = 4(u - 1/3)^2(4/3 - u), "
            "u = tanh^2), so for a in [-1, 1]: ||H||_op <= 4 sqrt(3) |x|^2/(9 sqrt(p)) for "
            "every W.",
            _tanh_bound,
        ),
        T_(
            "quadratic_form_sup",
            "eqs. (2.9), (2.10) (corrected)",
            "For H = blockdiag(c_j x x^T): |<v, H v>| <= max_j |c_j| |x|^2 |v|^2 (sum-of-squares "
            "identities), attained at v = x/|x| in the block of max |c_j|: sup_{|v|<=1} "
            "|<v,Hv>| = ||H||_op although H is not PSD.",
            _quadratic_form_sup,
        ),
        T_(
            "taylor_remainder",
            "eq. (2.9) (corrected), Proposition 1",
            "f(theta0 + D) - f_lin = int_0^1 (1 - s) <D, H(theta0 + s D) D> ds (chain rule on "
            "the network, p = 2, d = 1; integration by parts), so sup_{B(theta0,R)} |f - f_lin| "
            "<= (R^2/2) sup_{B(theta0,R)} ||H||_op.",
            _taylor_remainder,
        ),
        T_(
            "gronwall",
            "eqs. (2.37)-(2.40)",
            "With ||theta dot|| <= V and dE/dt <= (V c/sqrt(p)) ||theta - theta0||: E(t) <= "
            "c V^2 t^2/(2 sqrt(p)) <= R V c t/sqrt(p) on [0, R/V].",
            _gronwall,
        ),
        T_(
            "function_space_flow",
            "eqs. (2.22)-(2.29) (sign corrected)",
            "Along theta dot = -eta grad R, R = 1/(2n) sum (y - f)^2: df(x)/dt = +(1/n) sum_i "
            "K(x, x_i)(y_i - f_i) with the rate-weighted NTK, dr/dt = -(1/n) K r, and (2.29) at "
            "eta = 1 (p = 2, d = 1, n = 2, both layers, generic sigma).",
            _function_space_flow,
        ),
        T_(
            "stationary_points_interpolate",
            "Remark 2 (second item), eqs. (2.22), (2.27)",
            "Along the package's flow (p = 2, d = 1, n = 2, both layers, generic sigma): "
            "det(K) (y - f) = n adj(K) J theta dot, so where the NTK Gram matrix has rank n "
            "every stationary point interpolates (f = y); rank n is attained with 4 parameters "
            "> n, and for x_1 = x_2 (rank 1) the flow is stationary at y - f = (c, -c) != 0.",
            _stationary_interpolates,
        ),
        T_(
            "exercise_3_full_hessian",
            "Exercise 3, eqs. (2.14)-(2.18), Proposition 1",
            "With the second layer trained (Hessian in all of (a_j, w_j); p = 2, d = 2, generic "
            "sigma, the package's network): the Hessian stays block diagonal over units, unit "
            "j's block [[0, sigma' x^T], [sigma' x, a_j sigma'' x x^T]]/sqrt(p) has norm "
            "(|a_j sigma''| |x|^2 + sqrt(a_j^2 sigma''^2 |x|^4 + 4 sigma'^2 |x|^2))/(2 sqrt(p)) "
            "<= (m M |x|^2 + M_1 |x|)/sqrt(p): Proposition 1's O(1/sqrt(p)) carries over.",
            _exercise_3_full_hessian,
        ),
        T_(
            "lazy_relaxation",
            "eqs. (2.27), (2.42) (corrected), Remark 2",
            "Constant K: d/dt(e^{2 lam t/n}|r|^2) = -(2/n) e^{2 lam t/n} r^T(K - lam)r, so "
            "||r(t)|| <= e^{-lambda_min(K) t/n} ||r(0)||, with equality on the slowest "
            "eigenvector; the relaxation rate is lambda_min/n.",
            _lazy_relaxation,
        ),
        T_(
            "exercise_2_hessian",
            "Exercise 2(a), eq. (4.6)",
            "For g = phi(f) and fixed a: H_g = phi'(f) H + phi''(f) grad_w f grad_w f^T "
            "(p = 2, d = 2, generic sigma and phi).",
            _exercise_2_hessian,
        ),
        T_(
            "exercise_2_scalings",
            "Exercise 2(b), eqs. (2.18), (2.21), (4.6)",
            "||phi'(f) H||_op <= |phi'(f)| m M |x|^2/sqrt(p) -> 0, while the rank-one term has "
            "||phi''(f) grad_w f grad_w f^T||_op = |phi''(f)| ||grad_w f||^2 with "
            "||grad_w f||^2 = (1/p) sum_j a_j^2 sigma'(z_j)^2 |x|^2, of mean E[a^2] "
            "E[sigma'^2] |x|^2 at every p: Theta(1).",
            _exercise_2_scalings,
        ),
        T_(
            "exercise_2_no_linearisation",
            "Exercise 2(c), Remark 1 (third item)",
            "For linear sigma, along the unit gradient direction u: f(W + t u) - f_lin = 0 but "
            "g(W + t u) - g_lin = phi(f + t G) - phi(f) - t G phi'(f) (G = ||grad_w f||, "
            "G^2 -> E[a^2]|x|^2) at every width; for phi = tanh it is tanh(1) - 1 != 0 at "
            "f = 0, G = 1: g does not linearise as p -> oo.",
            _exercise_2_no_linearisation,
        ),
    ]
