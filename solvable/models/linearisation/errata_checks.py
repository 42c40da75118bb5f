"""The errata of seed 002, Sections 2.2-2.3 (eqs. (2.9), (2.10), (2.13), (2.24), (2.26),
(2.27), (2.41), (2.42), (2.43), Remark 2), each with the check of its printed and corrected
forms; :func:`errata` lists them."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import sympy as sp
from sympy.calculus.util import maximum, minimum

from solvable._core.claims import Erratum
from solvable.models.linearisation.formulas import _SIGMA, LAM, SEED, N, T, Z, relaxation_exponent
from solvable.models.linearisation.symbolic_network import _flow_setup, _network, _ntk


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _eq29_equality() -> tuple[sp.Expr, sp.Expr]:
    # The package's network (2.19) at p = 1, d = 1, sigma = tanh, a = x = 1, w0 = 0:
    # f = tanh(w), f_lin = f(w0) + f'(w0) w = w, H(w0) = tanh''(0) = 0.
    # Printed: sup_{|w|<=1} |f - f_lin| = |f(1) - f_lin(1)| = 1 - tanh 1 (f - f_lin is odd and
    # monotone) equals 1/2 sup <D, H D> = 0.
    # Corrected: f(w) - f_lin(w) = int_0^1 (1 - s) w^2 f''(s w) ds, via the antiderivative
    # (1 - s) g'(s) + g(s) of (1 - s) g''(s), g(s) = f(s w).
    s = sp.Symbol("s", real=True)
    net, a, wrow, x, _ = _network(1, 1, sp.tanh)
    w = wrow[0][0]
    f = net.subs({a[0]: 1, x[0]: 1})
    f_lin = f.subs(w, 0) + sp.diff(f, w).subs(w, 0) * w
    printed = sp.Abs((f - f_lin).subs(w, 1)) - sp.Rational(1, 2) * sp.diff(f, w, 2).subs(w, 0)
    g = f.subs(w, s * w)
    anti = (1 - s) * sp.diff(g, s) + g
    corrected = (sp.diff(anti, s) - (1 - s) * sp.diff(g, s, 2)) ** 2 + (
        anti.subs(s, 1) - anti.subs(s, 0) - (f - f_lin)
    ) ** 2
    return printed, corrected


def _sup_on_circle(expr_in_phi: Any, phi: sp.Symbol, absolute: bool = False) -> sp.Expr:
    """sup over phi in [0, 2 pi] (of |expr| when ``absolute``: max(sup, -inf))."""

    dom = sp.Interval(0, 2 * sp.pi)
    top = maximum(expr_in_phi, phi, dom)
    return sp.Max(top, -minimum(expr_in_phi, phi, dom)) if absolute else top


def _eq210_quadratic_form() -> tuple[sp.Expr, sp.Expr]:
    # H = blockdiag(c_1 x x^T, c_2 x x^T), d = 1, x = 1, c = (1, -3) (a_j sigma'' of both
    # signs): ||H||_op = 3.  Printed: sup_{|v|=1} <v, H v> = 1/2 ||H||_op, i.e. 1 = 3/2.
    # Corrected: 1/2 sup_{|v|<=1} |<v, H v>| = 1/2 ||H||_op (v = (cos, sin): 3/2 = 3/2).
    phi = sp.Symbol("phi", real=True)
    quad = sp.cos(phi) ** 2 - 3 * sp.sin(phi) ** 2
    opnorm = 3
    printed = _sup_on_circle(quad, phi) - sp.Rational(1, 2) * opnorm
    corrected = (
        sp.Rational(1, 2) * _sup_on_circle(quad, phi, absolute=True) - sp.Rational(1, 2) * opnorm
    )
    return printed, corrected


def _eq213_delta() -> tuple[sp.Expr, sp.Expr]:
    # p = 2, d = 1, sigma = tanh: the off-diagonal block H_12 vanishes; the printed delta_ij
    # with i = 1 (= j) gives a_1 sigma''(w_1 x) x^2 / sqrt(2) there.
    f, a, w, x, z = _network(2, 1, sp.tanh)
    H12 = sp.diff(f, w[0][0], w[1][0])
    c1 = a[0] * sp.diff(sp.tanh(Z), Z, 2).subs(Z, z[0]) * x[0] ** 2 / sp.sqrt(2)
    return (H12 - c1) ** 2, H12**2


def _flow_sign() -> tuple[sp.Expr, sp.Expr]:
    # df(x)/dt along (2.22) against -/+ (1/n) sum_i K(x, x_i)(y_i - f_i) (p = 2, d = 1, n = 2,
    # sigma = tanh for the printed residual at a rational point, generic for the corrected)
    f, theta, vel, xs, ys, rate = _flow_setup()
    x = sp.Symbol("x", real=True)
    n = len(xs)
    dfdt = sum(sp.diff(f(x), v) * vel[v] for v in theta)
    drive = sum(_ntk(f, theta, rate, x, xs[i]) * (ys[i] - f(xs[i])) for i in range(n)) / n
    u = sp.Dummy("u")
    # the sign does not depend on sigma: the printed residual uses sigma(u) = u + u^2/2 at a
    # rational point (an exact rational, 2 df/dt != 0: the flow is not stationary there)
    to_poly = {_SIGMA: sp.Lambda(u, u + u**2 / 2)}
    free = sorted((dfdt + drive).free_symbols, key=lambda q: q.name)
    point = {q: sp.Rational(k + 2, k + 3) for k, q in enumerate(free)}
    printed = sp.nsimplify((dfdt + drive).subs(to_poly).doit().subs(point))
    return printed, sp.expand(dfdt - drive)


def _eq224_gradient() -> tuple[sp.Expr, sp.Expr]:
    # df(x)/dt along (2.22) at unit rates (as printed there; p = 2, d = 1, n = 2), sign as
    # corrected above, against (1/n) sum_i (y_i - f_i) <grad f(x), g_i> with g_i = f(x_i) 1
    # (the printed pairing, the scalar f(x_i) in every component) and g_i = grad f(x_i).
    # Printed: sigma(u) = u + u^2/2 at a rational point (exact); corrected: generic sigma.
    f, theta, vel, xs, ys, rate = _flow_setup()
    unit = {r: 1 for r in set(rate.values())}
    x = sp.Symbol("x", real=True)
    n = len(xs)
    dfdt = sum(sp.diff(f(x), v) * vel[v] for v in theta).subs(unit)

    def drive(pair: Callable[[Any, int], sp.Expr]) -> sp.Expr:
        return sum((ys[i] - f(xs[i])) * sum(sp.diff(f(x), v) * pair(v, i) for v in theta)
                   for i in range(n)) / n  # fmt: skip

    printed = dfdt - drive(lambda v, i: f(xs[i]))
    corrected = dfdt - drive(lambda v, i: sp.diff(f(xs[i]), v))
    u = sp.Dummy("u")
    to_poly = {_SIGMA: sp.Lambda(u, u + u**2 / 2)}
    free = sorted(printed.free_symbols, key=lambda q: q.name)
    point = {q: sp.Rational(k + 2, k + 3) for k, q in enumerate(free)}
    return sp.nsimplify(printed.subs(to_poly).doit().subs(point)), sp.expand(corrected)


def _eq242_exponent() -> tuple[sp.Expr, sp.Expr]:
    # Constant K = diag(1, 2), n = 2, r(0) = e_1 (slowest eigenvector), t = 1: the exact
    # r(t) = e^{-K t/n} r(0) has |r(1)| = e^{-1/2}; printed bound e^{-lambda_min t} = e^{-1}:
    # violation e^{-1/2} - e^{-1} > 0.  Corrected: violation of e^{-lambda_min t/n}, and the
    # exact solution's ODE residual.
    n, lam_min = 2, 1
    t = sp.Symbol("t", nonnegative=True)
    r = sp.exp(-lam_min * t / n)  # the only non-zero component of r(t)
    printed = sp.Max(
        0, r.subs(t, 1) - sp.exp(relaxation_exponent(printed=True)).subs({LAM: lam_min, T: 1})
    )
    corrected = sp.Max(0, r - sp.exp(relaxation_exponent()).subs({LAM: lam_min, N: n, T: t}))
    return printed, corrected + (sp.diff(r, t) + lam_min * r / n) ** 2


def _eq243_theorem() -> tuple[sp.Expr, sp.Expr]:
    # Printed: violated as p -> oo, where the flow becomes the constant-kernel flow and y - f(0)
    # has a.s. a component on the slowest eigenvector (same point as (2.42)).  Corrected
    # (Du et al., 1/n risk): with lambda_min(K_t) >= lambda_0/2,
    # d/dt(e^{lambda_0 t/n} |r|^2) = -(2/n) e^{lambda_0 t/n} r^T (K_t - lambda_0/2) r <= 0.
    printed, _ = _eq242_exponent()
    K = sp.Matrix(
        [[sp.Function("K0")(T), sp.Function("K1")(T)], [sp.Function("K1")(T), sp.Function("K2")(T)]]
    )
    r = sp.Matrix([sp.Function(f"r{i}")(T) for i in range(2)])
    flow = {sp.diff(r[i], T): (-K * r / N)[i] for i in range(2)}
    energy = sp.exp(LAM * T / N) * (r.T * r)[0]
    lhs = sp.diff(energy, T).subs(flow)
    rhs = -2 / N * sp.exp(LAM * T / N) * (r.T * (K - LAM / 2 * sp.eye(2)) * r)[0]
    return printed, sp.expand(lhs - rhs)


def _remark2_rate() -> tuple[sp.Expr, sp.Expr]:
    # K = diag(1, 2), n = 2, r(0) = (1, 1): -lim log|r(t)|/t = 1/2 = lambda_min/n, not
    # lambda_max/n = 1 (nor lambda_max = 2).
    t = sp.Symbol("t", positive=True)
    rate = sp.limit(-sp.log(sp.sqrt(sp.exp(-t) + sp.exp(-2 * t))) / t, t, sp.oo)
    return rate - sp.Rational(2, 2), rate - sp.Rational(1, 2)


def _theorem1_width() -> tuple[sp.Expr, sp.Expr]:
    # Du et al. (2019), proof of Theorem 3.2: the kernel keeps lambda_min >= lambda_0/2 while
    # every w_r stays within R = c delta lambda_0 / n^2 of its start (their Lemma 3.2), and
    # the flow moves each w_r at most R' = sqrt(n) |y - u(0)| / (sqrt(m) lambda_0) (Lemma
    # 3.3), with |y - u(0)|^2 <= C n / delta (Markov).  The width m at which R' = R, solved
    # by sympy, against the printed n^6/(lambda_0 delta^3) (its lambda_0-dependence: the
    # derivative of the log-ratio in lambda_0, -3/lambda_0 != 0 at lambda_0 = 1) and the
    # corrected n^6/(lambda_0^4 delta^3) (ratio free of n, lambda_0, delta).
    m, n, lam, dl, c, cc = sp.symbols("m n lambda_0 delta c C", positive=True)
    radius = c * dl * lam / n**2
    moved = sp.sqrt(n) * sp.sqrt(cc * n / dl) / (sp.sqrt(m) * lam)
    (m_star,) = sp.solve(sp.Eq(moved, radius), m)

    def dependence(form: sp.Expr) -> sp.Expr:
        ratio = sp.expand_log(sp.log(m_star / form), force=True)
        return sum(sp.diff(ratio, v) ** 2 for v in (n, lam, dl))

    printed = dependence(n**6 / (lam * dl**3)).subs({n: 1, lam: 1, dl: 1})
    return printed, dependence(n**6 / (lam**4 * dl**3))


def _eq236_any_u() -> tuple[sp.Expr, sp.Expr]:
    # p = d = 1, a = x = 1, sigma = tanh, theta0 = 0, theta(t) = 1 (the package's network).
    # Printed: |f'(theta) - f'(theta0)| <= |f''(u theta0 + (1 - u) theta)| |theta - theta0|
    # for any u; at u = 1 the right side is |tanh''(0)| = 0 < tanh(1)^2: violation.
    # Corrected: f'(theta) - f'(theta0) = int_0^1 f''(theta0 + s D) D ds (so the bound holds
    # with sup over u).
    s = sp.Symbol("s", real=True)
    net, a, wrow, x, _ = _network(1, 1, sp.tanh)
    w = wrow[0][0]
    f = net.subs({a[0]: 1, x[0]: 1})
    g1, g2 = sp.diff(f, w), sp.diff(f, w, 2)
    printed = sp.Max(0, sp.Abs(g1.subs(w, 1) - g1.subs(w, 0)) - sp.Abs(g2.subs(w, 0)))
    corrected = g1.subs(w, 1) - g1.subs(w, 0) - sp.integrate(g2.subs(w, s), (s, 0, 1))
    return printed, corrected


def _eq238_norm() -> tuple[sp.Expr, sp.Expr]:
    # p = d = 1, a = 1, sigma(z) = M z^2/2 (|sigma''| <= M), velocity theta dot = V (one
    # parameter): d/dt (f - f_lin) = (f'(w) - f'(w0)) V = M x^2 (w - w0) V (the package's
    # network).  Against the bound V M |x| |w - w0| / sqrt(p) as printed and V M |x|^2 |w -
    # w0| / sqrt(p) (from (2.18)), at x = 2, w - w0 = 1, M = V = 1: violations 2 and 0.
    mm, vv, w0 = sp.Symbol("M", positive=True), sp.Symbol("V", positive=True), sp.Integer(0)
    net, a, wrow, x, _ = _network(1, 1, lambda z: mm * z**2 / 2)
    w = wrow[0][0]
    f = net.subs(a[0], 1)
    rate = sp.Abs((sp.diff(f, w) - sp.diff(f, w).subs(w, w0)) * vv)
    point = {x[0]: 2, w: 1, mm: 1, vv: 1}
    printed = sp.Max(0, (rate - vv * mm * sp.Abs(x[0]) * sp.Abs(w - w0)).subs(point))
    corrected = sp.Max(0, (rate - vv * mm * x[0] ** 2 * sp.Abs(w - w0)).subs(point))
    return printed, corrected


def _velocity_bound() -> tuple[sp.Expr, sp.Expr]:
    # theta(t) = V t e (theta0 = 0, constant velocity of norm V): the printed "||theta(t)|| <=
    # V" fails at t = 2 (2V > V), while ||theta dot|| = V <= V and (2.37) ||theta(t) -
    # theta0|| <= V t hold for every t.
    v, t = sp.Symbol("V", positive=True), sp.Symbol("t", nonnegative=True)
    theta = v * t
    printed = sp.Max(0, theta.subs(t, 2) - v)
    corrected = sp.Max(0, sp.diff(theta, t) - v) + sp.Max(0, sp.simplify(theta - v * t))
    return printed, corrected


def _eq211_bias() -> tuple[sp.Expr, sp.Expr]:
    # The pre-activation of unit j (d = 2): printed <w_j, x + b_j> (b_j added to every
    # coordinate) against (2.1)'s <w_j, x> + b_j, at w_j = (1/2, 1/3), b_j = 1 (printed: b_j
    # (w_j1 + w_j2 - 1) = -1/6); corrected <w_j, x> + b_j itself (generic symbols).
    w = sp.symbols("w1 w2", real=True)
    x = sp.symbols("x1 x2", real=True)
    b = sp.Symbol("b", real=True)
    eq21 = sum(wk * xk for wk, xk in zip(w, x, strict=True)) + b
    printed = sum(wk * (xk + b) for wk, xk in zip(w, x, strict=True)) - eq21
    point = {w[0]: sp.Rational(1, 2), w[1]: sp.Rational(1, 3), b: 1}
    corrected = sum(wk * xk for wk, xk in zip(w, x, strict=True)) + b - eq21
    return sp.expand(printed.subs(point)), sp.expand(corrected)


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    s = SEED
    return (
        Erratum(
            s,
            "(2.9)",
            "sup_{B(theta0,1)} |f - f_lin| = 1/2 sup_{B(theta0,1)} <theta - theta0, H (theta - "
            "theta0)>,  H = Hessian at theta0",
            "f - f_lin = int_0^1 (1 - s) <D, H(theta0 + s D) D> ds (D = theta - theta0), so "
            "sup_{B(theta0,R)} |f - f_lin| <= (R^2/2) sup_{B(theta0,R)} ||H||_op",
            "Taylor's formula stops at second order only for quadratic f; in general the "
            "remainder involves the Hessian along the segment, and (2.9) is an inequality "
            "(Proposition 1 survives: the bound (2.18) holds for every W when a is fixed). "
            "Counterexample p = d = 1, a = x = 1, w0 = 0: f = tanh w, H(w0) = 0, but "
            "sup_{|w|<=1} |tanh w - w| = 1 - tanh 1. Residuals: that gap, and the "
            "integration-by-parts identity for g(s) = tanh(s w).",
            _eq29_equality,
        ),
        Erratum(
            s,
            "(2.10)",
            "sup_{||v||=1} <v, H v> := 1/2 ||H||_op  (using 'A >= 0')",
            "1/2 sup_{||v||<=1} |<v, H v>| = 1/2 ||H||_op  (H symmetric)",
            "The factor 1/2 belongs on both sides, and H = blockdiag(a_j sigma''_j x x^T/sqrt(p)) "
            "is not PSD (a_j sigma'' takes both signs), so the quadratic form needs |.|: "
            "sup <v, H v> = max(max_j c_j, 0)|x|^2 can be below ||H||_op. The chain's "
            "conclusion (||H||_op controls the second-order term) stands. Residuals at "
            "H = diag(1, -3): sup <v,Hv> - 3/2 = -1/2, and 1/2 sup |<v,Hv>| - 3/2 = 0.",
            _eq210_quadratic_form,
            changes_math=False,
        ),
        Erratum(
            s,
            "(2.13)",
            "H_jk = (1/sqrt(p)) a_j sigma''(<w_j, x>) delta_ij x x^T",
            "H_jk = (1/sqrt(p)) a_j sigma''(<w_j, x>) delta_jk x x^T",
            "A typo of the block indices (i is free); the text and (2.14) mean delta_jk "
            "(block diagonal). (2.17)'s middle term sup_j ||H||_op is likewise ||H_j||_op "
            "(harmless there). Residual: the off-diagonal block H_12 (p = 2, d = 1, tanh) "
            "minus each form with i = 1.",
            _eq213_delta,
            changes_math=False,
        ),
        Erratum(
            s,
            "(2.24), (2.26), (2.27), (2.41)",
            "df(x)/dt = -(1/n) sum_i K(x_i, x)(y_i - f(x_i)),  f dot = -(1/n) K (y - f)",
            "df(x)/dt = +(1/n) sum_i K(x_i, x)(y_i - f(x_i)),  i.e. r dot = -(1/n) K r for "
            "r = y - f",
            "Inserting (2.22), theta dot = +(1/n) sum_i (y_i - f_i) grad f_i, into (2.23) gives "
            "a plus sign; with the printed minus d|y - f|^2/dt = +(2/n) r^T K r >= 0 and the "
            "residual would grow. (2.24) also writes <grad f(x), f(x_i)> for <grad f(x), "
            "grad f(x_i)>. Residual: df/dt -/+ (1/n) sum_i K(x, x_i) r_i for p = 2, d = 1, "
            "n = 2, generic sigma (printed: sigma(u) = u + u^2/2 at a rational point).",
            _flow_sign,
        ),
        Erratum(
            s,
            "(2.24)",
            "df(x)/dt = ... sum_i (y_i - f(x_i)) <grad f(x; theta), f(x_i; theta)>",
            "df(x)/dt = ... sum_i (y_i - f(x_i)) <grad f(x; theta), grad f(x_i; theta)>  "
            "(= K(x, x_i) of (2.25), as (2.26) uses)",
            "Inserting theta dot of (2.22), a combination of the gradients grad f(x_i), into "
            "<grad f(x), theta dot> of (2.23) pairs grad f(x) with grad f(x_i); the printed "
            "f(x_i) is a scalar, not a vector of parameter space (the gradient is missing). "
            "Residual (sign as corrected by the (2.24), (2.26) erratum, unit rates as in "
            "(2.22)): df/dt minus each form, the printed pairing read as <grad f(x), f(x_i) 1>; "
            "p = 2, d = 1, n = 2, generic sigma (printed: sigma(u) = u + u^2/2 at a rational "
            "point).",
            _eq224_gradient,
        ),
        Erratum(
            s,
            "(2.42)",
            "||y - f(t)|| <= exp(-lambda_min(K_0) t) ||y - f(0)||",
            "||y - f(t)|| <= exp(-lambda_min(K_0) t / n) ||y - f(0)||  (constant K_0, "
            "R = 1/(2n) sum)",
            "With the 1/n-normalised risk of (2.22) the kernel flow is r dot = -(1/n) K r; "
            "the slowest mode decays at lambda_min/n, so the printed rate is n times too fast "
            "(right only for n = 1 or the un-normalised risk 1/2 sum). Residuals: K = "
            "diag(1, 2), n = 2, r(0) = e_1, t = 1: the violation e^{-1/2} - e^{-1}; corrected: "
            "the violation (0) and the exact solution's ODE residual.",
            _eq242_exponent,
        ),
        Erratum(
            s,
            "(2.43), Theorem 1",
            "||y - f(t)|| <= exp(-lambda_0 t) ||y - f(0)||",
            "||y - f(t)||^2 <= exp(-lambda_0 t / n) ||y - f(0)||^2, i.e. ||y - f(t)|| <= "
            "exp(-lambda_0 t / (2n)) ||y - f(0)||  (1/n-normalised risk)",
            "Du et al. state the squared norm for the un-normalised risk 1/2 sum; the proof "
            "keeps lambda_min(K_t) >= lambda_0/2. The printed form fails already in the "
            "p -> oo limit (constant kernel, y - f(0) a.s. not orthogonal to the slowest "
            "mode; same point as (2.42)). Corrected residual: the energy identity "
            "d/dt(e^{lambda_0 t/n}|r|^2) = -(2/n) e^{lambda_0 t/n} r^T (K_t - lambda_0/2) r for "
            "a time-dependent 2 x 2 kernel. The width condition (Du et al.: "
            "m = Omega(n^6/(lambda_0^4 delta^3))) is not checked here.",
            _eq243_theorem,
        ),
        Erratum(
            s,
            "Remark 2, third item",
            "exponential relaxation ... with the relaxation rate given by the largest "
            "eigenvalue of K",
            "... given by the smallest eigenvalue: rate lambda_min(K)/n",
            "For r dot = -(1/n) K r every mode decays at its own rate lambda_k/n; the slowest, "
            "lambda_min/n, sets the relaxation (as (2.42) itself uses). Residual: "
            "-lim log|r(t)|/t at K = diag(1, 2), n = 2, r(0) = (1, 1) minus lambda_max/n and "
            "minus lambda_min/n.",
            _remark2_rate,
        ),
        Erratum(
            s,
            "(2.11)",
            "f(x; theta) = p^(-1/2) sum_j a_j sigma(<w_j, x + b_j>)",
            "f(x; theta) = p^(-1/2) sum_j a_j sigma(<w_j, x> + b_j)  (the bias of (2.1))",
            "Read literally, <w_j, x + b_j> adds b_j to every coordinate of x, giving <w_j, x> "
            "+ b_j sum_k w_jk, not the bias b_j of (2.1). The text sets b_j = 0 at once, so "
            "nothing downstream changes. Residuals (d = 2): the printed pre-activation minus "
            "(2.1)'s at w_j = (1/2, 1/3), b_j = 1 (-1/6), and the corrected one's (0).",
            _eq211_bias,
            changes_math=False,
        ),
        Erratum(
            s,
            "(2.36)",
            "||grad f(theta(t)) - grad f(theta0)|| <= ||grad^2 f(u theta0 + (1 - u) theta(t))||_op "
            "||theta(t) - theta0|| for any u in [0, 1]",
            "... <= sup_{u in [0, 1]} ||grad^2 f(u theta0 + (1 - u) theta(t))||_op ||theta(t) - "
            "theta0||  (grad f(theta) - grad f(theta0) = int_0^1 H(theta0 + s D) D ds)",
            "The mean value theorem gives no single point for a vector-valued map, and 'any u' "
            "would allow the Hessian at theta0 alone, which can vanish while the gradient "
            "moves. Counterexample p = d = 1, a = x = 1, tanh, theta0 = 0, theta = 1: "
            "|tanh'(1) - tanh'(0)| = tanh(1)^2 but tanh''(0) = 0. Residuals: that violation; "
            "the integral form's identity.",
            _eq236_any_u,
            changes_math=False,
        ),
        Erratum(
            s,
            "(2.36)-(2.37) (velocity bound)",
            "the velocity is bounded ||theta(t)||_2 <= V",
            "the velocity is bounded ||theta dot(t)||_2 <= V (then ||theta(t) - theta0|| <= V t, "
            "(2.37))",
            "A bound on theta itself says nothing about the distance travelled; (2.37) "
            "integrates theta dot. Residuals for theta(t) = V t e: the printed bound's "
            "violation at t = 2 (V), and the corrected bound's and (2.37)'s (0).",
            _velocity_bound,
            changes_math=False,
        ),
        Erratum(
            s,
            "(2.38)",
            "|d/dt (f - f_lin)| <= (V M ||x||_2 / sqrt(p)) ||theta(t) - theta0||_2",
            "|d/dt (f - f_lin)| <= (V M ||x||_2^2 / sqrt(p)) ||theta(t) - theta0||_2",
            "(2.18) bounds ||H||_op by M ||x||_2^2 / sqrt(p), not M ||x||_2 / sqrt(p); the "
            "printed bound fails for ||x|| > 1. (2.39) absorbs the factor into c, so the "
            "conclusion stands. Residuals (p = d = 1, sigma = M z^2/2, x = 2, |w - w0| = 1, "
            "M = V = 1): the violation of each bound by |(f'(w) - f'(w0)) V|.",
            _eq238_norm,
            changes_math=False,
        ),
        Erratum(
            s,
            "Theorem 1 (width condition)",
            "for p >= O(n^6 / (lambda_0 delta^3)), with probability at least 1 - delta",
            "for p = Omega(n^6 / (lambda_0^4 delta^3)) (Du et al. 2019, Theorem 3.2), with "
            "probability at least 1 - delta",
            "Du et al.'s proof needs the distance R' = sqrt(n) |y - u(0)| / (sqrt(m) lambda_0) "
            "travelled by each neuron (|y - u(0)|^2 = O(n/delta)) below the radius R = c delta "
            "lambda_0 / n^2 within which lambda_min(K) >= lambda_0/2: R' < R is m > C n^6 / "
            "(c^2 lambda_0^4 delta^3). The printed lambda_0^-1 understates the width for "
            "small lambda_0 (by lambda_0^-3), and a lower bound on p needs Omega, not O. "
            "Residuals: the squared n-, lambda_0- and delta-derivatives of log(m*/form), m* "
            "the root of R' = R solved by sympy, for the printed form (9 at n = lambda_0 = "
            "delta = 1) and the corrected (0).",
            _theorem1_width,
        ),
    )


def errata() -> list[Erratum]:
    """Disagreements with seed 002, Sections 2.2-2.3, each with its check."""
    return list(_errata())
