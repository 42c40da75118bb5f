"""The claims of seed 000, Section 7.2 (:func:`claims`): Theorem 7.4 (gradient structure,
stationary point, uniqueness, the printed (19)-(20), the trajectory solving the flow and its
limit, the outputs in mode form, footnote 3's step size), Theorem 7.5 / Proposition 7.6 (the
group covariance, eq. (21), the mean-field bullet, the pruned mass, the Markov bound), and the
numeric checks of the generated evaluators and of the constants :func:`closed_form` reports.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core.backends import expm1
from solvable._core.claims import Theorem, Verdict, all_proved, decide, prove_zero
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, error_in_units, worst_of
from solvable.models import node_scaling as ns
from solvable.models.linear_node_scaling._instance import (
    _F,
    _QU,
    _QV,
    _SIGNS,
    _beta,
    _explicit,
    _gradient,
    _instance,
    _instance_with,
    _outputs,
    _sa,
    _zero,
)
from solvable.models.linear_node_scaling.expressions import (
    _DI,
    _DMAX,
    _EPS,
    _ETA,
    _G,
    _LT,
    _NB,
    _S,
    _T,
    _U,
    _V,
    _W0,
    _XB,
    _XPX,
    _XX,
    SEED,
    _a,
    _d,
    _Dinv,
    _k,
    _m,
    _n,
    _p,
    _s,
    _Xp,
    _y,
    symbolic,
)
from solvable.models.linear_node_scaling.linear_limit import limit
from solvable.models.linear_node_scaling.moments import (
    gd_step_bounds,
    mean_field_expressions,
    pruned_mass,
)
from solvable.models.linear_node_scaling.trajectory import closed_form


def _gradient_structure() -> Verdict:
    # grad_{w_j} L (the package's flow of eq. (5), sigma = id) equals -(s_j a_j / sqrt(d)) X^T r,
    # r = y - f(W) (node_scaling.network_output), for every W: all nodes move along one vector
    # X^T r, which lies in the row space of X; hence W_t - W_0 = (s * a) c(t)^T, c(t) in span V
    inst = _instance_with("W")
    W = _F(inst["W"], inst)
    X, V = _F(inst["X"], inst), _F(inst["V"], inst)
    r = _F(list(inst["y"]), inst) - _outputs(W, inst)
    grad = _gradient(W, inst)
    direction = X.T @ r
    res = _zero(grad + _sa(inst)[:, None] * direction[None, :] / 2)  # sqrt(d) = 2
    res += _zero(direction - V @ (V.T @ direction))
    return prove_zero(*res)


def _stationary_point() -> Verdict:
    # the limit of the generated trajectory (G = I, any a, S = sum lambda a^2; it is the
    # generated (19) when a_j^2 = 1, claim trajectory_limit) zeroes the package's loss
    # gradient on the instance; and in matrix form for every n, d, m, k (the generated
    # beta_final with non-commutative symbols reduced by U^T U = I, V^T V = I, D D^-1 = I,
    # (s a)^T (s a) = s^T s)
    inst = _instance()
    W_inf = _explicit("W_t", inst, G=sp.eye(inst["k"]))
    res = _zero(_gradient(W_inf, inst))
    res.append(_matrix_form_gradient())
    return prove_zero(*res)


def _noncommutative(expr: sp.Basic, names: dict[str, sp.Symbol]) -> sp.Expr:
    """A matrix expression of :func:`symbolic` as a product of non-commutative symbols
    (``X^T`` a symbol of its own, the 1x1 inverse a commutative ``1/S``)."""
    if isinstance(expr, sp.MatrixSymbol):
        return names[expr.name]
    if isinstance(expr, sp.Transpose):
        inner = expr.arg
        key = inner.name if isinstance(inner, sp.MatrixSymbol) else "sa"
        return names[f"{key}^T"]
    if isinstance(expr, sp.HadamardProduct):  # s * a, or (s * a)^T after doit()
        return names["sa^T" if all(isinstance(x, sp.Transpose) for x in expr.args) else "sa"]
    if isinstance(expr, sp.Inverse):
        return 1 / names["S"]
    if isinstance(expr, sp.MatMul):
        out = sp.S.One
        for arg in expr.args:
            out = out * _noncommutative(arg, names)
        return out
    if isinstance(expr, sp.MatAdd):
        return sp.Add(*[_noncommutative(arg, names) for arg in expr.args])
    return expr  # a scalar factor


def _matrix_form_gradient() -> sp.Expr:
    nc = dict(commutative=False)
    names = {q: sp.Symbol(q, **nc) for q in ("U", "V", "U^T", "V^T", "Dinv", "y", "W0", "W0^T",
                                             "sa", "sa^T")}  # fmt: skip
    names["S"] = sp.Symbol("S_p", positive=True)  # s^T s = (s a)^T (s a) under eq. (3)
    D = sp.Symbol("D", commutative=False)
    beta_final = _noncommutative(symbolic().beta_final.doit(), names)
    X, Xt = names["U"] * D * names["V^T"], names["V"] * D * names["U^T"]  # X = U D V^T
    r = names["y"] - X * beta_final / sp.sqrt(_d)
    g = sp.expand(Xt * r)  # X^T r, the direction of every node's gradient
    rules = {names["U^T"] * names["U"]: 1, names["V^T"] * names["V"]: 1, D * names["Dinv"]: 1,
             names["sa^T"] * names["sa"]: names["S"]}  # fmt: skip
    for _ in range(10):
        new = sp.expand(g.subs(rules))
        if new == g:
            break
        g = new
    return g


def _affine(inst: dict[str, Any], z: Any) -> np.ndarray:
    """``W0 + (s * a) (V z)^T``: the affine set the flow stays in (gradient_structure)."""
    V = _F(inst["V"], inst)
    return _F(inst["W0"], inst) + _sa(inst)[:, None] * (V @ np.asarray(z, dtype=object))[None, :]


def _limit_is_unique() -> Verdict:
    # derivation of (19): W - W0 = (s*a) (V z)^T (gradient_structure); the stationarity
    # condition (package gradient = 0) is affine in z, A z + b = 0, with A of full rank k = 2
    # (det(A^T A) > 0: unique solution), solved by V^T c of the generated trajectory at G = I
    # (denominator S = sum lambda a^2, any a); and (20) (the generated f, second form) is the
    # network's output at the generated W_inf on a probe x, for every a in {-1, 1}^2
    inst = _instance_with("xp")
    K, V = inst["K"], _F(inst["V"], inst)
    b = _gradient(_affine(inst, [K.zero, K.zero]), inst).ravel()
    cols = [_gradient(_affine(inst, e), inst).ravel() - b for e in ([K.one, K.zero],
                                                                    [K.zero, K.one])]  # fmt: skip
    A = np.stack(cols, axis=1)  # (m d, 2)
    gram = A.T @ A
    det = sp.factor((gram[0, 0] * gram[1, 1] - gram[0, 1] * gram[1, 0]).as_expr())
    c_gen = _explicit("c_t", inst, G=sp.eye(inst["k"]))[:, 0]
    z_star = V.T @ c_gen
    res = _zero(A @ z_star + b)
    res += _zero(c_gen - V @ z_star)  # c in span V
    xp = sp.Matrix(1, inst["d"], inst["xp"])
    for signs in _SIGNS:
        W_inf = _explicit("W_inf", inst, a=signs)
        res += _zero(_outputs(W_inf, inst, xp, signs) - _explicit("f", inst, Xp=xp,
                                                                  a=signs)[:, 0])  # fmt: skip
    unique = decide([(f"det(A^T A) = {det} > 0", bool(det.is_positive))], "A has rank 2")
    return all_proved(prove_zero(*res), unique)


def _paper_form() -> Verdict:
    # the generated (19) and (20) against the formulas as printed in Theorem 7.4 (the paper's
    # side, typed here as data), on the instance with a in {-1, 1}^2 and a probe x
    inst = _instance_with("xp")
    U, V, D, y, W0, s = (inst[q] for q in ("U", "V", "D", "y", "W0", "s"))
    d, m = inst["d"], inst["m"]
    xp = sp.Matrix(1, d, inst["xp"])
    res = []
    for signs in _SIGNS:
        beta0 = sum((s[j] * signs[j] * W0[j, :].T for j in range(m)), sp.zeros(d, 1))
        beta_inf = sp.sqrt(d) * V * D.inv() * U.T * y
        total = sum(s[j] ** 2 for j in range(m))
        printed_19 = sp.Matrix.vstack(*[(s[j] / total * signs[j] * (beta_inf - V * V.T * beta0)).T
                                        for j in range(m)])  # fmt: skip
        printed_20 = xp * (beta_inf + (sp.eye(d) - V * V.T) * beta0) / sp.sqrt(d)
        res += _zero(_explicit("delta_W", inst, a=signs) - _F(printed_19, inst))
        res += _zero(_explicit("f", inst, Xp=xp, a=signs) - _F(printed_20, inst))
        res += _zero(_explicit("f_nodes", inst, Xp=xp, a=signs) - _F(printed_20, inst))
    return prove_zero(*res)


def _trajectory_solves_flow() -> Verdict:
    # the generated W(t) (any a, S = sum lambda a^2) solves the package's gradient flow of
    # eq. (5) (linear), dW/dt = -eta grad L(W(t)), and W(0) = W0, on the instance.  W(t) is
    # W(G) at G = diag(g_1(t), g_2(t)), g_i the generated mode factors: by the chain rule
    # dW/dt = sum_i dW/dg_i g_i'(t), with g_i' by sympy; naming exp(-rate_i t) = E_i (so g_i
    # = 1 - E_i) the residual is a rational function of E_1, E_2 that is 0 in K (for all E_i)
    inst = _instance_with("g", "E")
    t = sp.Symbol("t", nonnegative=True)
    S = sum(v**2 for v in _sa(inst)).as_expr()  # (s*a)^T (s*a), as the generated total
    S_gen = _explicit("total", inst)[0, 0].as_expr()
    sub = [{_ETA: inst["eta"], _S: S_gen, _DI: inst["D"][i, i], _T: t, _d: inst["d"]}
           for i in range(inst["k"])]  # fmt: skip
    g = [symbolic().mode_factor.subs(q) for q in sub]
    rates = [symbolic().rate.subs(q) for q in sub]
    E, gs = inst["E"], inst["g"]

    def named(v: sp.Expr) -> sp.Expr:  # exp(-rate_i t) -> E_i
        def rep(z: sp.Expr) -> sp.Expr:
            for rt, Ei in zip(rates, E, strict=True):
                if sp.expand(z + rt * t) == 0:
                    return Ei
            return sp.exp(z)

        return v.replace(expm1, lambda z: sp.exp(z) - 1).replace(sp.exp, rep)

    K = inst["K"]
    at = [named(v) for v in g]  # g_i(t) with exp(-rate_i t) = E_i
    slopes = [_F(named(sp.diff(v, t)), inst) for v in g]  # g_i'(t)
    W_g = _explicit("W_t", inst, G=sp.diag(*gs))  # in K, with g_i free
    gens = [K.from_expr(q) for q in gs]
    dW_dg = [np.vectorize(lambda e, q=q: e.diff(q), otypes=[object])(W_g) for q in gens]
    res = []
    for dWi in dW_dg:  # W is affine in G: dW/dg_i does not depend on g
        for q in gens:
            res += _zero(np.vectorize(lambda e, q=q: e.diff(q), otypes=[object])(dWi))
    W_E = _explicit("W_t", inst, G=sp.diag(*at))
    dW = sum(dWi * si for dWi, si in zip(dW_dg, slopes, strict=True))
    res += _zero(dW + _gradient(W_E, inst) * _F(inst["eta"], inst))
    W_at_0 = _explicit("W_t", inst, G=sp.diag(*[v.subs(t, 0) for v in g]))
    res += _zero(W_at_0 - _F(inst["W0"], inst))
    res += [sp.expand(v - (1 - Ei)) for v, Ei in zip(at, E, strict=True)]  # g_i = 1 - E_i
    res.append(sp.expand(S - S_gen))
    return prove_zero(*res)


def _trajectory_limit() -> Verdict:
    # t -> oo: every generated mode factor 1 - exp(-eta S D_i^2 t/d) -> 1 (sympy limit), so
    # W(t) -> the generated trajectory at G = I, which is the generated (19) W_inf when
    # a_j^2 = 1 (every sign pattern); at t = 0 the factor is 0 (W(0) = W0)
    inst = _instance()
    sym = symbolic()
    res = [sp.limit(sym.mode_factor, _T, sp.oo) - 1, sym.mode_factor.subs(_T, 0)]
    for signs in _SIGNS:
        at_inf = _explicit("W_t", inst, G=sp.eye(inst["k"]), a=signs)
        res += _zero(at_inf - _explicit("W_inf", inst, a=signs))
    return prove_zero(*res)


def _output_mode_form() -> Verdict:
    # the outputs the trajectory reports: the generated f_t (mode form, G and E = I - G) equals
    # the network's output (node_scaling.network_output) at the generated W_t for every G =
    # diag(g1, g2), and residual_t equals y minus it; the generated decay is 1 - mode_factor
    inst = _instance_with("g")
    G = sp.diag(*inst["g"])
    E = sp.eye(inst["k"]) - G
    W_t = _explicit("W_t", inst, G=G)
    f_net = _outputs(W_t, inst)
    res = _zero(_explicit("f_t", inst, G=G, E=E)[:, 0] - f_net)
    res += _zero(_explicit("residual_t", inst, E=E)[:, 0] - (_F(list(inst["y"]), inst) - f_net))
    sym = symbolic()
    res.append(sym.decay - (1 - sym.mode_factor))
    return prove_zero(*res)


def _gd_step_size() -> Verdict:
    # GD on W with the package's gradient: W <- W - eta grad L(W).  From W in the affine set
    # W0 + (s*a)(V z)^T the data coordinates e = V^T(beta - beta*) evolve as e <- (I - eta S
    # D^2/d) e (S = sum lambda a^2; residual of the recursion on the instance, beta read off
    # the network).  Footnote 3: eta = theta d/(D_max^2 S), 0 < theta < 1, gives factors 1 -
    # theta D_i^2/D_max^2 in [0, 1) (convergence, monotone); the sharp bound is 2d/(D_max^2 S)
    inst = _instance_with("z", "eta_gd")
    V, D, d = _F(inst["V"], inst), inst["D"], inst["d"]
    eta = _F(inst["eta_gd"], inst)
    W = _affine(inst, _F(list(inst["z"]), inst))
    W_next = W - _gradient(W, inst) * eta  # (array * element: K's elements do not broadcast)
    S_gen = _explicit("total", inst)[0, 0]
    W_star = _explicit("W_t", inst, G=sp.eye(inst["k"]))
    e_now = V.T @ (_beta(W, inst) - _beta(W_star, inst))
    e_next = V.T @ (_beta(W_next, inst) - _beta(W_star, inst))
    D2 = _F(D**2, inst)
    factor = _F(sp.eye(2), inst) - D2 * (eta * S_gen) / d
    verdict = prove_zero(*_zero(e_next - factor @ e_now))
    t, u = sp.symbols("t u", positive=True)  # theta = 1/(1 + t) in (0, 1), q = 1/(1 + u)
    theta, q = 1 / (1 + t), 1 / (1 + u)  # q = D_i^2/D_max^2 in (0, 1)  (q = 1: below)
    # the generated footnote-3 bound: eta_bound S D_max^2/d = 1, so the factor at theta x it is
    # 1 - theta D_i^2/D_max^2
    Dm, Sm = sp.symbols("D_m S_m", positive=True)
    unit = sp.simplify(symbolic().eta_bound.subs({_d: d, _S: Sm, _DMAX: Dm}) * Sm * Dm**2 / d)
    f = 1 - theta * q

    def pos(e: sp.Expr) -> bool | None:
        return sp.factor(sp.together(e)).is_positive

    cases = [
        ("eta_bound S D_max^2/d = 1", unit == 1),
        ("factor > 0 (q < 1)", pos(f)),
        ("factor > 0 (q = 1)", pos(1 - theta)),
        ("factor < 1", pos(1 - f)),
        ("factor > -1 at eta = 2 theta d/(D_max^2 S)", pos(1 + (1 - 2 * theta * q))),
        ("divergence at q = 1, eta = 2 (1 + t) d/(D_max^2 S): factor < -1",
         pos(-(1 - 2 * (1 + t)) - 1)),
    ]  # fmt: skip
    cverdict = decide(cases, "contraction factor 1 - eta S D_i^2/d")
    return all_proved(
        verdict,
        cverdict,
        detail="GD error recursion e <- (I - eta S D^2/d) e (S = sum lambda a^2, exact on the "
        "instance); "
        "footnote 3's eta < d/(D_max^2 S) gives factors in [0, 1) (sufficient, monotone); "
        "the sharp condition is eta < 2 d/(D_max^2 S) (factor -1 - 2 theta beyond it)",
    )


def _group_covariance() -> Verdict:
    # the sum over a node set T of c_j = sqrt(lambda_j) a_j w_inf_j: mean Lambda_T/S beta_inf,
    # covariance Lambda_T (I - Lambda_T/S P) (m = 4, T = {3, 4}, d = 2, rank-1 P = v v^T),
    # u_k = sqrt(lambda_k) a_k w_0k ~ N(0, lambda_k I) independent: sum_T c_j = sum_k A_k u_k +
    # Lambda_T/S beta_inf with A_k = 1[k in T] I - Lambda_T/S P.  Compared with the generated
    # group_cov (and the printed form of Theorem 7.5, typed as data)
    lam = sp.symbols("lambda1:5", positive=True)
    S = sum(lam)
    T = (2, 3)
    LT = lam[2] + lam[3]
    t = sp.Symbol("t", real=True)
    v = sp.Matrix([sp.cos(t), sp.sin(t)])
    P = v * v.T
    I2 = sp.eye(2)
    cov = sp.zeros(2, 2)
    for k in range(4):
        A = (I2 if k in T else sp.zeros(2, 2)) - LT / S * P
        cov += lam[k] * A * A.T
    gc = _moment_explicit(symbolic().group_cov, v, LT, S)
    return prove_zero(*(cov - gc), *(gc - LT * (I2 - LT / S * P)))


def _moment_explicit(expr: sp.MatrixExpr, v: sp.Matrix, LT: Any, S: Any,
                     b: sp.Matrix | None = None) -> sp.Matrix:  # fmt: skip
    """The generated group_mean / group_cov made explicit with rank-1 ``V = v`` (d =
    len(v)), ``Lambda_T = LT``, ``S`` and ``beta_inf = b``."""
    d = v.rows
    ex = expr.subs(_d, d).subs(_k, 1)
    sub = {sp.MatrixSymbol("V", d, 1): v}
    if b is not None:
        sub[sp.MatrixSymbol("beta_inf", d, 1)] = b
    return sp.Matrix(ex.subs(sub).subs({_LT: LT, _S: S}).doit().as_explicit())


def _contribution_limit() -> Verdict:
    # eq. (21): with lambda_{m,j} -> (1 - gamma) lambda~_j (node_scaling_limit, sympy limit)
    # and S = 1 (eq. (1)), the generated moments (group_mean, group_cov with Lambda_T =
    # lambda_{m,j}) become the printed (1 - gamma) lambda~_j beta_inf and (1 - gamma)
    # lambda~_j (I - (1 - gamma) lambda~_j P), for Zipf (every alpha) and finite K (every K),
    # j = 1 and symbolic j; d = 1 with P = v^2
    b, v = sp.symbols("b_inf v", real=True)  # beta_inf and V in d = 1, P = v^2
    mean_of = _moment_explicit(symbolic().group_mean, sp.Matrix([v]), _LT, 1, sp.Matrix([b]))
    cov_of = _moment_explicit(symbolic().group_cov, sp.Matrix([v]), _LT, 1)
    res = []
    for w in (ns.zipf_symbolic(), ns.finite_k_symbolic()):
        for j in (1, ns.J):
            lam_lim = ns.node_scaling_limit(j, ns.GAMMA, w)
            mean, cov = mean_of[0, 0].subs(_LT, lam_lim), cov_of[0, 0].subs(_LT, lam_lim)
            wt = (1 - ns.GAMMA) * w.weight(j)
            res += [mean - wt * b, cov - wt * (1 - wt * v**2)]
    return prove_zero(*res)


def _mean_field_bullet() -> Verdict:
    # Instance d = 2, m = 2, n = 1, rank-1 V = (cos t, sin t), probe x, lambda_j = 1/m^2
    # (s_j = 1/2), every a in {-1, 1}^2, all from the generated expressions of symbolic():
    # (i) the rows of delta_W (19) are a_j (beta_inf - V V^T beta_0), so lambda_j (x^T
    # dw_j)^2/d is the same for every node: (18) = (17)/m, and (17) = N_m/D_m; (ii) E over
    # w_0k ~ N(0, I) of N_m is mean_N (beta_0 the generated beta0) and of D_m is mean_D;
    # (iii) as m -> oo, mean_N/mean_D -> limit and limit/m -> 0; the contribution moments
    # (group_mean, group_cov with Lambda_T = 1/m^2, S = 1/m) -> 0 ("contributions are
    # asymptotically vanishing").
    m, d = 2, 2
    t, yv, Dv = (
        sp.Symbol("t", real=True),
        sp.Symbol("y1", real=True),
        sp.Symbol("D1", positive=True),
    )
    v = sp.Matrix([sp.cos(t), sp.sin(t)])
    x = sp.Matrix(sp.symbols("x1 x2", real=True))
    W0 = sp.Matrix(m, d, sp.symbols(f"w1:{m * d + 1}", real=True))
    s_ = sp.Matrix([sp.Rational(1, m)] * m)
    e = symbolic()
    expr = mean_field_expressions()

    def explicit(M: sp.MatrixExpr, a: sp.Matrix) -> sp.Matrix:
        sub = {sp.MatrixSymbol("V", d, 1): v, sp.MatrixSymbol("W0", m, d): W0,
               sp.MatrixSymbol("s", m, 1): s_, sp.MatrixSymbol("a", m, 1): a,
               sp.MatrixSymbol("U", 1, 1): sp.Matrix([[1]]),
               sp.MatrixSymbol("Dinv", 1, 1): sp.Matrix([[1 / Dv]]),
               sp.MatrixSymbol("y", 1, 1): sp.Matrix([[yv]])}  # fmt: skip
        ex = M.subs({_m: m, _d: d, _k: 1, _n: 1}).subs(sub).doit()
        return sp.Matrix(ex.as_explicit()).applyfunc(sp.expand)

    P = v * v.T
    res = []
    for signs in itertools.product((1, -1), repeat=m):
        a = sp.Matrix(signs)
        dW, beta0, b = explicit(e.delta_W, a), explicit(e.beta0, a), explicit(e.beta_inf, a)
        res += [sp.expand(dW[j, k] - a[j] * (b - P * beta0)[k])
                for j in range(m) for k in range(d)]  # fmt: skip
        terms = [s_[j] ** 2 * ((x.T * dW.row(j).T)[0, 0]) ** 2 / d for j in range(m)]
        den = sum(s_[j] ** 2 * ((x.T * W0.row(j).T)[0, 0]) ** 2 / d for j in range(m))
        N = ((x.T * (b - P * beta0))[0, 0]) ** 2
        Dm = sum(((x.T * W0.row(j).T)[0, 0]) ** 2 for j in range(m)) / m
        res += [sp.expand(terms[j] - terms[0]) for j in range(1, m)]
        res.append(sp.expand(sum(terms) * Dm - N * den))  # (17) = N/D, cross-multiplied
        w = list(W0)
        sub_x = {_XB: (x.T * b)[0, 0], _XPX: ((P * x).T * (P * x))[0, 0], _XX: (x.T * x)[0, 0],
                 _m: m}  # fmt: skip
        res += [
            sp.expand(_gauss_expect(sp.expand(N), w) - expr["mean_N"].subs(sub_x)),
            sp.expand(_gauss_expect(sp.expand(Dm), w) - expr["mean_D"].subs(sub_x)),
        ]
    res += [sp.limit(expr["mean_N"] / expr["mean_D"], _m, sp.oo) - expr["limit"],
            sp.limit(expr["limit"] / _m, _m, sp.oo)]  # fmt: skip
    bvec = sp.Matrix(sp.symbols("bi1 bi2", real=True))
    mean_c = _moment_explicit(e.group_mean, v, 1 / _m**2, 1 / _m, bvec)
    cov_c = _moment_explicit(e.group_cov, v, 1 / _m**2, 1 / _m)
    res += [sp.limit(c, _m, sp.oo) for c in (*mean_c, *cov_c)]
    return prove_zero(*res)


def _gauss_expect(expr: sp.Expr, w: list[sp.Symbol]) -> sp.Expr:
    """``E`` of a polynomial of degree <= 2 in independent standard normal ``w``."""
    poly = sp.Poly(expr, *w)
    out = sp.S.Zero
    for powers, coeff in poly.terms():
        if sum(powers) == 0:
            out += coeff
        elif max(powers) == 2 and sum(powers) == 2:
            out += coeff
    return out


def _pruned_mass_limit() -> Verdict:
    # sum_{j > r} lambda_{m,j} = gamma (m - r)/m + (1 - gamma)(S_m - S_r)/S_m, r = floor(rho m):
    # (i) the identity against the direct sum (m <= 6, rho = 1/2, 1/3, Zipf 1/2, K = 2);
    # (ii) squeeze: rho m - 1 < r <= rho m, so gamma (m - r)/m is between gamma (1 - rho) and
    # gamma (1 - rho) + gamma/m, both -> gamma (1 - rho); 0 <= (S_m - S_r)/S_m <= (1 - S_r)/S_m
    # with S_m -> 1 and 1 - S_r -> 0 as r -> oo (Zipf every alpha: sympy limits); finite K:
    # S_r = S_m = 1 once r >= K, so the second part is exactly 0 for m >= (K + 1)/rho
    res = []
    for w in (ns.zipf(sp.Rational(1, 2)), ns.finite_k(2)):
        for rho in (sp.Rational(1, 2), sp.Rational(1, 3)):
            for m in range(1, 7):
                r = int(sp.floor(rho * m))
                direct = sum(ns.node_scaling(m, j, ns.GAMMA, w) for j in range(r + 1, m + 1))
                res.append(pruned_mass(m, rho, ns.GAMMA, w) - direct)
    rho = sp.Symbol("rho", positive=True)
    mm = sp.Symbol("m", positive=True)
    res += [
        sp.limit(ns.GAMMA * (1 - rho), mm, sp.oo) - ns.GAMMA * (1 - rho),
        sp.limit(ns.GAMMA * (1 - rho) + ns.GAMMA / mm, mm, sp.oo) - ns.GAMMA * (1 - rho),
    ]
    zs = ns.zipf_symbolic()
    N = sp.Symbol("N", positive=True, integer=True)
    res += [
        sp.limit(zs.partial_sum(N + 1), N, sp.oo) - 1,
        sp.limit(1 - zs.partial_sum(N + 1), N, sp.oo),
    ]
    fk = ns.finite_k_symbolic()
    i = sp.Symbol("i", nonnegative=True, integer=True)
    res.append(fk.partial_sum(fk.K + i) - 1)  # S_r = 1 for r >= K
    return prove_zero(*res)  # fmt: skip


def _markov_derivation() -> Verdict:
    # Proposition 7.6's bound from the generated exact moments: E|e| <= |mu| + sqrt(var)
    # (triangle and Jensen), with |x^T beta_inf| <= |x| |beta_inf| (Cauchy-Schwarz) in mu and
    # the non-positive -Lambda_T^2/S |V V^T x|^2/d dropped from var (S = 1); so eps * bound -
    # E-bound = |x|/sqrt(d) (sqrt(d) Lambda_T + sqrt(d Lambda_T) - sqrt(Lambda_T)) >= 0 (d >=
    # 1): the printed bound holds (with slack sqrt(d) Lambda_T + (sqrt(d) - 1) sqrt(Lambda_T)).
    # Residual: the identity of the slack; the sign by cases.
    x = sp.Symbol("x_norm", positive=True)
    e = symbolic()
    bound = e.bound.subs({_XX: x**2})
    mu_abs = e.error_mean.subs({_XB: -x * _NB, _S: 1})  # |x^T beta_inf| <= |x| |beta_inf|
    var_up = e.error_var.subs({_XX: x**2, _XPX: 0, _S: 1})
    eabs = mu_abs + sp.sqrt(var_up)
    slack = sp.expand(_EPS * bound - eabs)
    target = x / sp.sqrt(_d) * (sp.sqrt(_d) * _LT + sp.sqrt(_d * _LT) - sp.sqrt(_LT))
    q = sp.Symbol("q", nonnegative=True)  # sqrt(d) = 1 + q >= 1
    ok = sp.factor(sp.expand(target.subs(_d, (1 + q) ** 2))).is_nonnegative
    v1 = prove_zero(sp.simplify(slack - sp.expand(target)))
    v2 = decide([("slack >= 0 for d >= 1", ok)], "Markov bound of Proposition 7.6")
    status = "proved" if v1.status == v2.status == "proved" else "failed"
    return Verdict(status, f"{v1.detail}; {v2.detail}", residuals=v1.residuals + v2.residuals)


# ---------------------------------------------------------------------------
# numeric claims
# ---------------------------------------------------------------------------
def _rational_instance() -> dict[str, Any]:
    """An exact instance (n = d = 3, rank 2, m = 2, rate eta = 1/2): U, V rational orthogonal
    columns, D = diag(2, 1), y, W0, lambda rational, a = (1, -1), one probe."""
    U, V = _QU[:, :2], _QV[:, :2]
    D = sp.diag(2, 1)
    return {
        "U": U, "V": V, "D": D, "X": U * D * V.T,
        "y": sp.Matrix([1, sp.Rational(-1, 2), sp.Rational(1, 3)]),
        "W0": sp.Matrix([[sp.Rational(1, 2), -1, sp.Rational(1, 4)], [2, sp.Rational(-1, 3), 1]]),
        "lam": [sp.Rational(3, 4), sp.Rational(1, 4)], "a": [1, -1],
        "xp": sp.Matrix([[1, 2, -1]]), "eta": sp.Rational(1, 2),
    }  # fmt: skip


def _exact_values(inst: dict[str, Any], t: Any) -> dict[str, sp.Matrix]:
    """The generated expressions made explicit on the rational instance, exactly: ``W_t`` at
    ``t`` (``sp.oo``: the limit, G = I), ``delta_W`` and ``f`` of (19)-(20)."""
    sym = symbolic()
    shapes = {_n: 3, _d: 3, _m: 2, _k: 2, _p: 1}
    s = sp.Matrix([sp.sqrt(v) for v in inst["lam"]])
    a = sp.Matrix(inst["a"])
    vals = {_y: inst["y"], _U: inst["U"], _Dinv: inst["D"].inv(), _V: inst["V"],
            _W0: inst["W0"], _s: s, _a: a, _Xp: inst["xp"]}  # fmt: skip
    S = sum(v * w**2 for v, w in zip(inst["lam"], inst["a"], strict=True))
    if t == sp.oo:
        G = sp.eye(2)
    else:
        G = sp.diag(*[sym.mode_factor.subs({_ETA: inst["eta"], _S: S, _DI: inst["D"][i, i],
                                            _T: t, _d: 3}) for i in range(2)])  # fmt: skip
    vals[_G] = G

    def explicit(expr: sp.MatrixExpr) -> sp.Matrix:
        ex = expr.subs(shapes)
        ex = ex.subs({sp.MatrixSymbol(ms.name, *[shapes.get(q, q) for q in ms.shape]): v
                      for ms, v in vals.items()})  # fmt: skip
        return sp.Matrix(ex.doit().as_explicit())

    return {"W_t": explicit(sym.W_t), "delta_W": explicit(sym.delta_W), "f": explicit(sym.f)}


def _evaluators_mpmath(dps: int = 30) -> Verdict:
    # the generated float64 and mpmath evaluators of (19)-(20) (limit()) and of the trajectory
    # (closed_form(), at t = 0, 1/2, 3 and oo) against the same sympy expressions evaluated
    # exactly on a rational instance (then to dps + 10 digits)
    tol_mp = Tolerance.digits(dps - 3, "mpmath svd_r and products at dps + 10 digits; 3 digits "
                              "margin for the conditioning (D_max/D_min = 2)")  # fmt: skip
    tol_f = Tolerance(
        rtol=1e-12,
        reason="float64 SVD: backward error ~ 1e-16 times "
        "D_max/D_min = 2, amplified by the O(10) entries; 1e-12 leaves a margin",
    )
    inst = _rational_instance()
    times = [0, sp.Rational(1, 2), 3, sp.oo]
    exact = {t: _exact_values(inst, t) for t in times}
    dec = lambda v: str(sp.N(v, dps + 10))  # noqa: E731 - exact decimals for mpmath
    to = lambda M: [[dec(v) for v in row] for row in M.tolist()]  # noqa: E731
    args = (to(inst["X"]), [dec(v) for v in inst["y"]], [dec(v) for v in inst["lam"]],
            inst["a"], to(inst["W0"]))  # fmt: skip
    mp_res = limit(*args, probes=to(inst["xp"]), dps=dps, rank=2)
    f_res = limit(*(np.asarray(v, dtype=float) for v in args), probes=np.asarray(
        to(inst["xp"]), dtype=float), rank=2)  # fmt: skip
    with mpmath.workdps(dps + 10):
        mpf = lambda M: [[mpmath.mpf(dec(v)) for v in row] for row in M.tolist()]  # noqa: E731
        ex = {t: {q: mpf(M) for q, M in e.items()} for t, e in exact.items()}
    errs = {
        "limit delta_W mpmath": error_in_units(mp_res.delta_W, ex[sp.oo]["delta_W"], tol_mp),
        "limit f mpmath": error_in_units(mp_res.f, ex[sp.oo]["f"][0], tol_mp),
        "limit delta_W float64": error_in_units(f_res.delta_W, ex[sp.oo]["delta_W"], tol_f),
        "limit f float64": error_in_units(f_res.f, ex[sp.oo]["f"][0], tol_f),
    }
    setup = ns.Setup(args[0], args[1], args[2], "linear", dec(inst["eta"]))
    tnum = [0, "0.5", 3, math.inf]
    for label, digits, tol in (("mpmath", dps, tol_mp), ("float64", None, tol_f)):
        traj = closed_form(setup, inst["a"], args[4], dps=digits).sample(tnum)
        for k, t in enumerate(times):
            errs[f"W(t={t}) {label}"] = error_in_units(traj.W[k], ex[t]["W_t"], tol)
    worst = worst_of(*errs.values())
    return Verdict.from_error(
        worst,
        f"exact rational instance (n = d = 3, rank 2, m = 2, eta = 1/2), mpmath at dps = "
        f"{dps}, errors in tolerances: " + ", ".join(f"{k} {v:.2g}" for k, v in errs.items()),
        tol_mp,
    )


def _reported_constants(dps: int = 30) -> Verdict:
    # The constants closed_form() reports, at dps and 2 dps digits and in float64, against the
    # printed forms of Theorem 7.4 and footnote 3 (typed as data) computed directly from the
    # setup, without the SVD: S = sum_k lambda_{m,k} (a = +-1), beta_inf = sqrt(d) X^T (X
    # X^T)^-1 y (the minimum-norm solution, X of full row rank n < d), D_i^2 the eigenvalues of
    # X X^T (so rates = eta S D_i^2/d and footnote 3's d/(D_max^2 sum_k lambda_{m,k})), and
    # w_inf_j - w_0j of (19) with V V^T = X^T (X X^T)^-1 X; gd_step_bounds() against the same
    # footnote-3 bound and twice it
    X = [["0.6", "-0.3", "0.5", "0.1"], ["0.2", "0.7", "-0.4", "0.3"], ["-0.5", "0.1", "0.2",
         "0.8"]]  # fmt: skip
    y = ["0.9", "-0.4", "0.3"]
    lam = [str(v) for v in ns.node_scaling_numeric(4, np.arange(1, 5), 0.5, ns.zipf("0.5"))]
    a = [1, -1, -1, 1]
    W0 = [["0.5", "-1", "0.25", "0.1"], ["2", "-0.3", "1", "-0.7"], ["-0.4", "0.9", "0.3", "1.2"],
          ["0.1", "0.2", "-0.8", "0.6"]]  # fmt: skip
    setup = ns.Setup(X, y, lam, "linear", "0.5")
    n, d, m = 3, 4, 4
    tol_f = Tolerance(rtol=1e-12, reason="float64 SVD / solve: backward error ~1e-16 times the "
                      "condition number of X X^T (< 10 here) and O(10) entries")  # fmt: skip
    worst, parts = NOTHING_COMPARED, []
    for digits in (dps, 2 * dps, None):
        work = 30 if digits is None else digits + 10
        tol = tol_f if digits is None else Tolerance.digits(
            digits - 5, "SVD (svd_r) vs solve / eigsy, both at dps + 10 digits: 5 digits of "
            "margin for the conditioning of X X^T")  # fmt: skip
        traj = closed_form(setup, a, W0, dps=digits)
        with mpmath.workdps(work):
            Xm = mpmath.matrix([[mpmath.mpf(v) for v in row] for row in X])
            ym = mpmath.matrix([mpmath.mpf(v) for v in y])
            lm = [mpmath.mpf(v) for v in lam]
            S = mpmath.fsum(lm)  # the printed sum_k lambda_{m,k}
            XXt = Xm * Xm.T
            beta_inf = mpmath.sqrt(d) * Xm.T * mpmath.lu_solve(XXt, ym)
            ev, _ = mpmath.eigsy(XXt)
            D2 = sorted((ev[i] for i in range(n)), reverse=True)
            eta = mpmath.mpf("0.5")
            rates = [eta * S * v / d for v in D2]
            step = d / (D2[0] * S)  # footnote 3: d (D_max^2 sum_k lambda_{m,k})^-1
            P = Xm.T * mpmath.inverse(XXt) * Xm
            b0 = mpmath.matrix([mpmath.fsum(mpmath.sqrt(lm[j]) * a[j] * mpmath.mpf(W0[j][i])
                                            for j in range(m)) for i in range(d)])  # fmt: skip
            c = beta_inf - P * b0
            dW = [[mpmath.sqrt(lm[j]) / S * a[j] * c[i] for i in range(d)] for j in range(m)]
            W_inf = traj.at(math.inf).W
            got_dW = [[W_inf[j][i] - traj.W0[j][i] for i in range(d)] for j in range(m)]
            e = {
                "S": error_in_units(traj.S, S, tol),
                "beta_inf": error_in_units(traj.beta_inf, list(beta_inf), tol),
                "rates": error_in_units(traj.rates, rates, tol),
                "step_bound": error_in_units(traj.step_bound, step, tol),
                "(19)": error_in_units(got_dW, dW, tol),
            }
            if digits is None:
                fn, sharp = gd_step_bounds(np.array(X, dtype=float), np.array(lam, dtype=float))
                e["gd_step_bounds"] = error_in_units([fn, sharp], [step, 2 * step], tol)
        worst = worst_of(worst, *e.values())
        parts.append(f"{'float64' if digits is None else f'dps={digits}'}: "
                     + ", ".join(f"{k} {v:.2g}" for k, v in e.items()))  # fmt: skip
    return Verdict.from_error(
        worst,
        "closed_form(...) constants vs Theorem 7.4 / footnote 3 computed directly (n = 3 < d = "
        "4, m = 4, gamma = 1/2, Zipf 1/2, eta = 1/2), errors in tolerances: " + "; ".join(parts),
        tol_f,
    )


def claims() -> list[Theorem]:
    """The checks of seed 000, Section 7.2 (Theorem 7.4, Theorem 7.5, Proposition 7.6)."""

    def T(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"linear_node_scaling.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("gradient_structure", "Section 3.2, Theorem 7.4",
          "With sigma = id, grad_{w_j} L = -(sqrt(lambda_j) a_j/sqrt(d)) X^T r (the package's "
          "flow of eq. (5)) and X^T r lies in span V: W_t - W_0 = (sqrt(lambda) a) c(t)^T with "
          "c(t) in the row space of X (flow and GD).", _gradient_structure),
        T("stationary_point", "Theorem 7.4, eq. (19)",
          "The generated W_inf of (19) is a zero of the loss gradient for every a in {-1, 1}^m "
          "(instance n = d = 3, rank 2, m = 2; and in matrix form for all shapes).",
          _stationary_point),
        T("limit_is_unique", "Theorem 7.4, eqs. (19), (20)",
          "In the affine set reachable by the flow, the stationary point is unique and equals "
          "the trajectory's limit (denominator sum lambda a^2); under eq. (3) it is (19), and "
          "(20) is the network's output there.", _limit_is_unique),
        T("generated_formula", "Theorem 7.4, eqs. (19), (20)",
          "The generated delta_W, f and f_nodes equal (19) and both forms of (20) as printed "
          "(a in {-1, 1}^2).", _paper_form),
        T("trajectory_solves_flow", "Theorem 7.4 (the flow it solves)",
          "W(t) = W0 + (sqrt(lambda) a) (V diag(1 - exp(-eta S D_i^2 t/d)) V^T (beta_inf - "
          "beta_0)/S)^T solves the gradient flow of eq. (5) with sigma = id exactly, W(0) = W0 "
          "(any a, S = sum lambda a^2).", _trajectory_solves_flow),
        T("trajectory_limit", "Theorem 7.4, eqs. (19), (20)",
          "As t -> oo every mode factor 1 - exp(-eta S D_i^2 t/d) -> 1 and W(t) -> (19) "
          "(a in {-1, 1}^2); at t = 0 the factors vanish.", _trajectory_limit),
        T("output_mode_form", "Theorem 7.4 (the outputs along the flow)",
          "The trajectory's outputs in mode form, U E D V^T beta_0/sqrt(d) + U G U^T y with E = "
          "I - G = diag(exp(-rate_i t)), equal the network's output at W(t) for every G, and "
          "the residual form equals y minus it (no cancellation at large t or scale).",
          _output_mode_form),
        T("gd_step_size", "Theorem 7.4, footnote 3",
          "GD contracts the data-space error by I - eta S D^2/d per step: footnote 3's eta < "
          "d/(D_max^2 sum lambda) suffices (monotone); the sharp bound is twice it.",
          _gd_step_size),
        T("group_covariance", "Theorem 7.5, Proposition 7.6",
          "For a node set T of mass Lambda_T: sum_T sqrt(lambda_j) a_j w_inf_j has mean "
          "Lambda_T/S beta_inf and covariance Lambda_T (I - Lambda_T/S V V^T) (m = 4, "
          "|T| = 2, rank-1 V; T = {j} is Theorem 7.5).", _group_covariance),
        T("contribution_limit", "Theorem 7.5, eq. (21)",
          "With lambda_{m,j} -> (1 - gamma) lambda~_j and S = 1 the generated finite-m moments "
          "become those of eq. (21) (Zipf every alpha, finite K every K).", _contribution_limit),
        T("mean_field_bullet", "Theorem 7.5 (second bullet)",
          "Under the mean-field scaling lambda_{m,j} = 1/m^2, every node moves by a_j (beta_inf "
          "- V V^T beta_0) (eq. (19)), so ratio (18) = ratio (17)/m exactly; (17) = N_m/D_m "
          "with E N_m = (x^T beta_inf)^2 + |V V^T x|^2/m and E D_m = |x|^2 (Gaussian W_0), "
          "so (17) -> (x^T beta_inf)^2/|x|^2 > 0 (feature learning) while (18) -> 0 (no "
          "non-uniform feature learning).", _mean_field_bullet),
        T("pruned_mass_limit", "Proposition 7.6",
          "sum_{j > floor(rho m)} lambda_{m,j} -> gamma (1 - rho) (exact partial-sum form; "
          "squeeze over floor; Zipf every alpha, finite K).", _pruned_mass_limit),
        T("pruning_bound_derivation", "Proposition 7.6",
          "The printed bound is >= (E|mu| + sqrt(var))/eps from the generated error moments "
          "(Markov): it holds, with slack |x|/(eps sqrt d) (sqrt(d) Lambda_T + (sqrt(d) - 1) "
          "sqrt(Lambda_T)).", _markov_derivation),
        T("evaluators_mpmath", "Theorem 7.4, eqs. (19), (20)",
          "The generated float64 and mpmath evaluators of (19)-(20) (limit) and of the "
          "trajectory (closed_form, t = 0, 1/2, 3, oo) match the exact rational instance.",
          _evaluators_mpmath, "numeric"),
        T("reported_constants", "Theorem 7.4, footnote 3",
          "closed_form's S, beta_inf, rates, step_bound and W_inf - W0 (dps, 2 dps, float64) "
          "and gd_step_bounds equal the printed forms computed directly from the setup "
          "(normal equations, eigenvalues of X X^T).", _reported_constants, "numeric"),
]  # fmt: skip
