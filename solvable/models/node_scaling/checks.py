"""The claims of seed 000 (Sections 3, 4, 7, Appendix B.2) on node scalings (:func:`claims`):
eq. (1) sums to one, the sum of squares in closed form, the special cases, the Zipf
normalisation and sum of squares (symbolic and to ``dps`` digits, Section 4), the ``m -> oo``
limits and "feature learning iff gamma < 1", the lower bound used in eqs. (25), (27),
Theorems 7.9 / 7.10 (the zeroed model's first step) and the Section 5 sketch.
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from solvable._core.backends import generate
from solvable._core.claims import Theorem, Verdict, prove_zero
from solvable._core.numbers import exact_to_mpf as _to_mpf
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, error_in_units, worst_of
from solvable.models.node_scaling.first_step import FirstStep, _sigma_prime, first_step_symbolic
from solvable.models.node_scaling.network import preactivations
from solvable.models.node_scaling.numeric import (
    _GUARD,
    _PARAM,
    _lambdified,
    sum_of_squares_limit_numeric,
)
from solvable.models.node_scaling.remark_26 import remark_26_first_step
from solvable.models.node_scaling.scalings import (
    _generic_scaling,
    max_node_scaling_limit,
    node_scaling,
    node_scaling_limit,
    sum_of_scalings,
    sum_of_squares,
    sum_of_squares_limit,
)
from solvable.models.node_scaling.symbols import _KS, _N, _S, _W, GAMMA, SEED, J, M
from solvable.models.node_scaling.weights import (
    FiniteK,
    Weights,
    Zipf,
    _zipf_parts,
    finite_k,
    finite_k_symbolic,
    zipf,
    zipf_symbolic,
)


# ---------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------
def _positive(expr: sp.Expr) -> bool:
    """True when ``expr`` is provably > 0 once every ``zeta(s)`` (``s > 1``) and Hurwitz
    ``zeta(s, q)`` (``s > 1``, ``q > 0``) is replaced by a positive symbol: both are sums of
    positive terms, ``sum_{k>=0} (k + q)^(-s)``."""

    def pos(*args: sp.Expr) -> sp.Expr:
        s, q = args[0], (args[1] if len(args) > 1 else sp.S.One)
        if (s - 1).is_positive and q.is_positive:
            return sp.Dummy("zeta", positive=True)
        return sp.zeta(*args)

    return bool(sp.factor(sp.simplify(expr)).replace(sp.zeta, pos).is_positive)


def _concrete_families() -> list[Weights]:
    return [zipf(sp.Rational(1, 2)), zipf(sp.Rational(2, 3)), finite_k(2), finite_k(3)]


def _direct_sum(m: int, power: int, gamma: sp.Expr, weights: Weights) -> sp.Expr:
    return sum(node_scaling(m, j, gamma, weights) ** power for j in range(1, m + 1))


def _sums_to_one() -> Verdict:
    # by linearity for every m (both families, symbolic parameters), and by direct exact
    # summation of eq. (1) for m = 1..4 (Zipf alpha = 1/2, 2/3; K = 2, 3)
    res = [sum_of_scalings(M, GAMMA, w) - 1 for w in (zipf_symbolic(), finite_k_symbolic())]
    res += [_direct_sum(m, 1, GAMMA, w) - 1 for w in _concrete_families() for m in range(1, 5)]
    return prove_zero(*res)


def _sum_of_squares_identity() -> Verdict:
    # closed form (linearity) vs direct exact sums of node_scaling(); finite K symbolic with
    # m = K + n >= K: K nodes j <= K (node 1 stands for them) and n nodes j > K (node K + 1)
    res = [
        sum_of_squares(m, GAMMA, w) - _direct_sum(m, 2, GAMMA, w)
        for w in _concrete_families()
        for m in range(1, 5)
    ]
    fk = finite_k_symbolic()
    m = fk.K + _N
    inside, outside = node_scaling(m, 1, GAMMA, fk), node_scaling(m, fk.K + 1, GAMMA, fk)
    direct = fk.K * inside**2 + _N * outside**2
    res.append(sum_of_squares(m, GAMMA, fk) - direct)
    return prove_zero(*res)


def _special_cases() -> Verdict:
    # gamma = 1: lambda = 1/m (NTK); gamma = 0 with finite K: 1/K (j <= K <= m), 0 (j > K),
    # and 1/m when m < K (j <= m); every value from node_scaling() (eq. (1))
    K = _KS
    fk = finite_k_symbolic()
    res = [node_scaling(M, J, 1, w) - 1 / M for w in (zipf_symbolic(), fk)]
    i = sp.Symbol("i", positive=True, integer=True)
    res.append(node_scaling(K + _N, 1, 0, fk) - 1 / K)  # j = 1 <= K
    res.append(node_scaling(K + _N, K, 0, fk) - 1 / K)  # j = K <= m
    res.append(node_scaling(K + _N + i, K + i, 0, fk))  # j > K
    wide = FiniteK(M + _N + 1)  # K = m + n + 1 > m: every node j <= m has weight 1/K
    res += [node_scaling(M, j, 0, wide) - 1 / M for j in (1, M)]
    return prove_zero(*res)


def _zipf_normalised() -> Verdict:
    # sum_j lambda~_j = 1 for every alpha in (0, 1); alpha = 1/2 is 6/(pi^2 j^2)
    zs = zipf_symbolic()
    k = sp.Symbol("k", positive=True, integer=True)
    coefficient, term = zs.weight(k).as_independent(k, as_Add=False)
    total = coefficient * sp.summation(term, (k, 1, sp.oo))
    return prove_zero(total - 1, zipf(sp.Rational(1, 2)).weight(J) - 6 / (sp.pi**2 * J**2))


def _zipf_sum_of_squares() -> Verdict:
    zs = zipf_symbolic()
    a = zs.alpha
    fk = finite_k_symbolic()
    return prove_zero(
        zs.sum_of_squares() - sp.zeta(2 / a) / sp.zeta(1 / a) ** 2, fk.sum_of_squares() - 1 / fk.K
    )


def _limit_node_scaling() -> Verdict:
    res = [
        node_scaling_limit(J, GAMMA, w) - (1 - GAMMA) * w.weight(J)
        for w in (zipf_symbolic(), finite_k_symbolic())
    ]
    return prove_zero(*res)


def _limit_sum_of_squares() -> Verdict:
    res = [
        sum_of_squares_limit(GAMMA, w) - (1 - GAMMA) ** 2 * w.sum_of_squares()
        for w in (zipf_symbolic(), finite_k_symbolic())
    ]
    return prove_zero(*res)


def _feature_learning_iff() -> Verdict:
    # limits of max_j lambda_{m,j} and sum_j lambda_{m,j}^2: 0 at gamma = 1, > 0 at
    # gamma = 1 - g for every g in (0, 1] (g > 0 symbolic), both families, all alpha / K
    g = sp.Symbol("g", positive=True)
    res, details = [], []
    for w in (zipf_symbolic(), finite_k_symbolic()):
        for name, fn in (("max", max_node_scaling_limit), ("sum sq", sum_of_squares_limit)):
            res.append(fn(1, w))
            below = fn(1 - g, w)
            if not _positive(below):
                return Verdict("failed", f"{type(w).__name__} {name}: {below} not shown > 0")
            details.append(f"{type(w).__name__} {name}: {sp.factor(below)}")
    verdict = prove_zero(*res)
    if verdict.status != "proved":
        return verdict
    return Verdict(
        "proved",
        "limits vanish at gamma = 1; at gamma = 1 - g (0 < g <= 1): " + "; ".join(details)
        + " (> 0: zeta(s) > 0 for s > 1)",
        residuals=verdict.residuals,
    )  # fmt: skip


def _lower_bound() -> Verdict:
    # lambda_{m,j} - (1 - gamma) lambda~_j = gamma/m + (1 - gamma) lambda~_j (1 - S_m)/S_m,
    # each term >= 0 as 0 < S_m <= 1; 1 - S_m = zeta(s, m + 1)/zeta(s) (Zipf) and
    # (K - min(m, K))/K (finite K)
    lam = _generic_scaling(M, GAMMA)
    split = GAMMA / M + (1 - GAMMA) * _W * (1 - _S) / _S
    zs = zipf_symbolic()
    tail = (1 - zs.partial_sum(M)).rewrite(sp.zeta)
    res = [lam - (1 - GAMMA) * _W - split, tail - sp.zeta(zs.s, M + 1) / sp.zeta(zs.s)]
    verdict = prove_zero(*res)
    if verdict.status != "proved" or not _positive(tail):
        return Verdict("failed", "identity or 1 - S_m > 0 not shown", residuals=verdict.residuals)
    return Verdict(
        "proved",
        "lambda_{m,j} - (1 - gamma) lambda~_j = gamma/m + (1 - gamma) lambda~_j (1 - S_m)/S_m "
        ">= 0 (0 < S_m <= 1; Zipf: 1 - S_m = zeta(1/alpha, m + 1)/zeta(1/alpha) > 0)",
        residuals=verdict.residuals,
    )


def _symmetric_part() -> Verdict:
    # Section 5 sketch (B.2): (gamma/m) sum_j sqrt(lambda_{m,j}) <= gamma/sqrt(m) -> 0 by
    # Cauchy-Schwarz and sum_j lambda_{m,j} = 1; exact for finite K (m = K + n, the K nodes
    # j <= K alike, node 1 standing for them, and the n nodes j > K, node K + 1). The second
    # part (1 - gamma) sum_j lambda~_j sqrt(lambda_{m,j}) / S_m -> (1 - gamma)^(3/2)/sqrt(K).
    fk = finite_k_symbolic()
    K = fk.K
    m = K + _N
    inside, outside = node_scaling(m, 1, GAMMA, fk), node_scaling(m, K + 1, GAMMA, fk)
    first = GAMMA / m * (K * sp.sqrt(inside) + _N * sp.sqrt(outside))
    second = (1 - GAMMA) * K * fk.weight(1) * sp.sqrt(inside) / fk.partial_sum(m)
    g = sp.Symbol("g", positive=True)
    lim_second = sp.limit(second.subs(GAMMA, 1 - g), _N, sp.oo)
    res = [
        sp.limit(GAMMA / sp.sqrt(M), M, sp.oo),
        sp.limit(first, _N, sp.oo),
        lim_second - g ** sp.Rational(3, 2) / sp.sqrt(K),
        sp.limit(second.subs(GAMMA, 1), _N, sp.oo),
    ]
    verdict = prove_zero(*res)
    if verdict.status != "proved" or not lim_second.is_positive:
        return Verdict("failed", f"second part limit {lim_second}", residuals=verdict.residuals)
    return Verdict(
        "proved",
        "gamma/sqrt(m) -> 0 (bound for every family); finite K exact: first part -> 0, second "
        "-> (1 - gamma)^(3/2)/sqrt(K), > 0 iff gamma < 1",
        residuals=verdict.residuals,
    )


def _sign_patterns(fs: FirstStep) -> list[dict[sp.Symbol, int]]:
    """Every ``a`` in ``{-1, 1}^m`` (eq. (3))."""
    return [dict(zip(fs.a, signs, strict=True))
            for signs in itertools.product((1, -1), repeat=len(fs.a))]  # fmt: skip


def _theorem_7_9() -> Verdict:
    # n = 3 inputs in R^2, m = 2 nodes, generic sigma: the zeroed output vanishes at W_0
    # (Assumption 7.7); the first GD step of zeroed_loss (sympy.diff) moves Z_j(x_i) by
    # dZ with dZ^2 = eq. (24) for every a in {-1, 1}^2; g_i (the sum in (24)) is linear in y
    # with d g_i/d y_i = sigma'(Z_1(x_i)) |x_i|^2 (> 0 when sigma' > 0, x_i != 0), so g_i = 0
    # only on a hyperplane of y (probability 0 under Assumption 7.8); and (24) with
    # lambda_{m,1} -> its limit (node_scaling_limit) is exactly the printed (25).
    fs = first_step_symbolic(3, 2, 2)
    n, d, m = fs.shape
    res = list(fs.output0)
    for sub in _sign_patterns(fs):
        res += [sp.expand((fs.dZ[i, j] ** 2 - fs.eq24[i, j]).subs(sub))
                for i in range(n) for j in range(m)]  # fmt: skip
    Z0 = preactivations(fs.W0, fs.X, sp.sqrt(d))
    res += [sp.diff(fs.g[i, 0], fs.y[i]) - _sigma_prime(Z0[i, 0]) * (fs.X[i] @ fs.X[i])
            for i in range(n)]  # fmt: skip
    for w in (zipf_symbolic(), finite_k_symbolic()):
        lim = node_scaling_limit(1, GAMMA, w)
        eq25 = fs.eta**2 * (1 - GAMMA) * w.weight(1) / d**2 * fs.g[0, 0] ** 2
        res.append(fs.eq24[0, 0].subs(fs.s[0], sp.sqrt(lim)) - eq25)
    verdict = prove_zero(*res)
    if verdict.status != "proved":
        return verdict
    return Verdict(
        "proved",
        f"{len(res)} residuals (n = 3, d = 2, m = 2, generic sigma, a in {{-1, 1}}^2): f(W_0) = 0; "
        "(Z_j(x_i; W_1) - Z_j(x_i; W_0))^2 = eq. (24) from the gradient of the zeroed loss; "
        "dg_i/dy_i = sigma'(Z_1(x_i)) |x_i|^2; (24) -> (25) as m -> oo (Zipf, finite K); with "
        "lambda_{m,1} >= (1 - gamma) lambda~_1 (claim lower_bound) (24) >= (25) for every m",
        residuals=verdict.residuals,
    )


def _theorem_7_10() -> Verdict:
    # ||grad_{w_j} L(W_0)||^2 of the zeroed loss (sympy.diff) equals lambda_{m,j}/d times the
    # double sum of eq. (27) (a_j^2 = 1), that double sum is the squared norm ||sum_i y_i
    # sigma'(Z_j(x_i)) x_i||^2 (so the |.| of (27) is redundant and the sum is >= 0), its
    # vector is linear in y with d/dy_i = sigma'(Z_j(x_i)) x_i (zero only on a proper subspace
    # of y: probability 0 under Assumption 7.8), and lambda_{m,j}/d -> (1 - gamma) lambda~_j/d
    # (every j; node_scaling_limit): (27) with equality in the limit.
    fs = first_step_symbolic(3, 2, 2)
    n, d, m = fs.shape
    res = []
    for sub in _sign_patterns(fs):
        res += [sp.expand((fs.grad_norm_sq[j] - fs.s[j] ** 2 * fs.eq27_sum[j] / d).subs(sub))
                for j in range(m)]  # fmt: skip
    res += [sp.expand(fs.eq27_sum[j] - (fs.gradient_vector[j] ** 2).sum()) for j in range(m)]
    Z0 = preactivations(fs.W0, fs.X, sp.sqrt(d))
    res += [sp.diff(fs.gradient_vector[0, k], fs.y[i]) - _sigma_prime(Z0[i, 0]) * fs.X[i, k]
            for i in range(n) for k in range(d)]  # fmt: skip
    for w in (zipf_symbolic(), finite_k_symbolic()):
        res.append(node_scaling_limit(J, GAMMA, w) / d - (1 - GAMMA) * w.weight(J) / d)
    verdict = prove_zero(*res)
    if verdict.status != "proved":
        return verdict
    return Verdict(
        "proved",
        f"{len(res)} residuals (n = 3, d = 2, m = 2, generic sigma): ||grad_{{w_j}} L(W_0)||^2 "
        "= lambda_{m,j}/d * sum_{i,i'} y_i y_i' x_i^T x_i' sigma'_i sigma'_i' = lambda_{m,j}/d "
        "||sum_i y_i sigma'(Z_j(x_i)) x_i||^2 (so |.| in (27) is not needed); lambda_{m,j} -> "
        "(1 - gamma) lambda~_j: (27) holds for every m (claim lower_bound) and is attained in "
        "the limit",
        residuals=verdict.residuals,
    )


_NUMERIC_ALPHAS = (sp.Rational(1, 10), sp.Rational(1, 4), sp.Rational(1, 2), sp.Rational(2, 3))
"""The default Zipf exponents of ``zipf_sum_of_squares_mpmath``: both sides of alpha = 1/2
and the extremes 1/10 and 2/3; each has an integer 2/alpha, for which nsum's
Euler-Maclaurin tail converges in about 0.1 s.  The generated formula is the same
zeta(2/alpha)/zeta(1/alpha)^2 at every alpha (non-integer 1/alpha at 2/3), so these
exercise all of it."""
_NUMERIC_ALPHAS_FULL = (*_NUMERIC_ALPHAS, sp.Rational(9, 10))
"""With ``full=True`` also alpha = 9/10, near the pole at alpha = 1 (the summand j^(-20/9)
decays slowly: 0.9 s, more than the default set's total)."""


def _zipf_sum_of_squares_mpmath(dps: int = 30, full: bool = False) -> Verdict:
    # sum_j lambda~_j^2 summed by mpmath.nsum (Euler-Maclaurin, independent of zeta) over
    # the generated weight evaluator, vs the generated closed form, at dps digits
    tol = Tolerance.digits(dps - 5, "nsum Euler-Maclaurin extrapolation and the Hurwitz form, "
                           "both at dps + 10 digits: 5 digits of margin")  # fmt: skip
    # the j-free factor 1/zeta(s) of the weight is pulled out of the series (nsum evaluates
    # the summand many times; evaluating zeta there costs minutes)
    j = sp.Symbol("j", positive=True)
    coefficient, term = _zipf_parts(_PARAM)["weight"](j).as_independent(j, as_Add=False)
    coef_fn = generate((_PARAM,), coefficient, "mpmath")
    term_fn = generate((j, _PARAM), term, "mpmath")
    worst = NOTHING_COMPARED
    alphas = _NUMERIC_ALPHAS_FULL if full else _NUMERIC_ALPHAS
    for a in alphas:
        w = zipf(a)
        with mpmath.workdps(dps + _GUARD):
            s = _to_mpf(w.s)
            series = coef_fn(s) ** 2 * mpmath.nsum(
                lambda j, s=s: term_fn(j, s) ** 2, [1, mpmath.inf], method="e"
            )
        closed = sum_of_squares_limit_numeric(0, w, dps=dps + _GUARD)
        worst = worst_of(worst, error_in_units(series, closed, tol))
    return Verdict(
        "confirmed" if worst <= 1 else "failed",
        f"alpha in {[str(a) for a in alphas]}: worst {worst:.2g} tolerances",
        max_error=worst,
        tolerance=tol,
    )


def _zipf_decreasing(dps: int = 30) -> Verdict:
    # Section 4: zeta(2/alpha)/zeta(1/alpha)^2 decreases with alpha and lies in (0, 1]: the
    # sign of mpmath.diff of the generated closed form on a grid alpha = 0.05, ..., 0.95
    # (analytically: d/ds log(zeta(2s)/zeta(s)^2) = 2 (E_s[log j] - E_2s[log j]) > 0 for the
    # Zipf law of exponent s = 1/alpha, whose mean of log j decreases in s).
    tol = Tolerance.digits(
        dps - 5,
        "sign of a numerical derivative computed at dps + 10 "
        "digits; its error is far below the smallest |derivative| reported",
    )
    fn = _lambdified("sum_of_squares_limit", Zipf, "mpmath")
    grid = [sp.Rational(k, 20) for k in range(1, 20)]
    with mpmath.workdps(dps + _GUARD):
        values = [fn(0, 1 / _to_mpf(a)) for a in grid]
        slopes = [mpmath.diff(lambda x: fn(0, 1 / x), _to_mpf(a)) for a in grid]
    ok = all(0 < v <= 1 for v in values) and all(d < 0 for d in slopes)
    smallest = min(abs(d) for d in slopes)
    return Verdict(
        "confirmed" if ok else "failed",
        f"19 grid points: values in ({mpmath.nstr(min(values), 5)}, {mpmath.nstr(max(values), 5)}"
        f"], all slopes < 0 (smallest |slope| {mpmath.nstr(smallest, 3)})" if ok else
        "a value outside (0, 1] or a slope >= 0",
        max_error=0.0 if ok else float("inf"),
        tolerance=tol,
    )  # fmt: skip


def claims() -> list[Theorem]:
    """Every claim of seed 000 (Sections 3, 4, 7, Appendix B.2) that is checked here."""

    def T(name, where, statement, fn, kind="symbolic"):
        return Theorem(f"node_scaling.{name}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("sums_to_one", "Section 3.1, eq. (1)",
          "sum_{j<=m} lambda_{m,j} = 1 for every m (linearity, both families, all alpha, K; "
          "direct exact sums m = 1..4).", _sums_to_one),
        T("sum_of_squares_closed_form", "eq. (1), Section 5",
          "sum_{j<=m} lambda_{m,j}^2 = gamma (2 - gamma)/m + (1 - gamma)^2 Q_m/S_m^2 "
          "(Q_m, S_m partial sums of lambda~^2, lambda~).", _sum_of_squares_identity),
        T("special_cases", "Sections 1, 3.1",
          "gamma = 1 gives lambda_{m,j} = 1/m (NTK); gamma = 0 with finite K gives 1/K for "
          "j <= K <= m and 0 for j > K (a width-K network), 1/m for m < K.", _special_cases),
        T("zipf_normalised", "eq. (4), Section 1 example (a)",
          "sum_j lambda~_j = 1 for every alpha in (0, 1); alpha = 1/2 gives 6/(pi^2 j^2).",
          _zipf_normalised),
        T("zipf_sum_of_squares", "Section 4",
          "Zipf: sum_j lambda~_j^2 = zeta(2/alpha)/zeta(1/alpha)^2 for every alpha in (0, 1) "
          "(sympy summation); finite K: 1/K.", _zipf_sum_of_squares),
        T("zipf_sum_of_squares_mpmath", "Section 4",
          "The Zipf identity to dps digits: mpmath.nsum of the generated weight evaluator vs the "
          "generated closed form (alpha = 1/10, 1/4, 1/2, 2/3, 9/10).",
          _zipf_sum_of_squares_mpmath, "numeric"),
        T("zipf_sum_of_squares_decreasing", "Section 4",
          "zeta(2/alpha)/zeta(1/alpha)^2 lies in (0, 1] and decreases with alpha (grid "
          "0.05..0.95, sign of the derivative).", _zipf_decreasing, "numeric"),
        T("limit_node_scaling", "Section 5 (Appendix B.2)",
          "lambda_{m,j} -> (1 - gamma) lambda~_j as m -> oo, for all gamma, j and all alpha "
          "(Zipf) / K (finite K).", _limit_node_scaling),
        T("limit_sum_of_squares", "Section 5 (Appendix B.2)",
          "sum_{j<=m} lambda_{m,j}^2 -> (1 - gamma)^2 sum_j lambda~_j^2 as m -> oo (Zipf: "
          "(1 - gamma)^2 zeta(2/alpha)/zeta(1/alpha)^2; finite K: (1 - gamma)^2/K).",
          _limit_sum_of_squares),
        T("feature_learning_iff_gamma_below_one", "Sections 5, 7 (Theorems 7.5, 7.9)",
          "The limits of max_j lambda_{m,j} = lambda_{m,1} and of sum_j lambda_{m,j}^2 vanish "
          "at gamma = 1 and are > 0 for every gamma in [0, 1): they are > 0 iff gamma < 1.",
          _feature_learning_iff),
        T("lower_bound", "eqs. (25), (27)",
          "lambda_{m,j} >= (1 - gamma) lambda~_j for every m (used for the m-independent "
          "bounds of Theorems 7.9, 7.10).", _lower_bound),
        T("theorem_7_9_first_step", "Section 7.3, Theorem 7.9, eqs. (24), (25)",
          "For the zeroed model (Assumption 7.7) the first GD step (8) from W_0 gives (Z_j(x_i; "
          "W_1) - Z_j(x_i; W_0))^2 = eta^2 lambda_{m,j}/d^2 (sum_i' y_i' sigma'(Z_j(x_i')) x_i'^T "
          "x_i)^2 (eq. (24), derived from the loss), >= its m -> oo limit (25) for every m, "
          "and the sum is non-zero off a hyperplane of y (sigma' > 0).", _theorem_7_9),
        T("theorem_7_10_gradient_norm", "Section 7.3, Theorem 7.10, eq. (27)",
          "For the zeroed model, ||grad_{w_j} L(W_0)||^2 = lambda_{m,j}/d ||sum_i y_i "
          "sigma'(Z_j(x_i)) x_i||^2 exactly (the double sum of (27), a squared norm), so (27) "
          "holds for every m and with equality as m -> oo.", _theorem_7_10),
        T("symmetric_part_vanishes", "Section 5, proof sketch (Appendix B.2)",
          "(gamma/m) sum_j sqrt(lambda_{m,j}) -> 0; (1 - gamma) sum_j lambda~_j "
          "sqrt(lambda_{m,j})/S_m does not vanish unless gamma = 1 (exact for finite K).",
          _symmetric_part),
        T("remark_26_learning_rate_scaling", "Section 7.3, remark after eq. (26)",
          "With eta = sqrt(m) at gamma = 1 (and eta = m under the mean-field lambda = 1/m^2) "
          "eta^2 lambda_{m,1}/d^2 = 1/d^2: the first GD step of the zeroed model moves every "
          "pre-activation by a_j g_ij/d, free of m (eq. (24) derived from the loss), while at "
          "a fixed eta (gamma = 1) it vanishes as m -> oo.", remark_26_first_step),
]  # fmt: skip
