"""Seed 004, the checks behind the claims of Sections 3-5 and Tables 1-2: each returns a
:class:`~solvable._core.claims.Verdict` (the statements that name them:
:mod:`solvable.models.three_layer.statements`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import sympy as sp
from sympy import stats

from solvable._core.activations import Z, activation, derivative
from solvable._core.claims import Verdict, decide, prove_nonzero, prove_zero
from solvable.models.three_layer.coordinates import (
    ALPHA,
    B1,
    B2,
    B3,
    M1,
    M2,
    D,
    M,
    exponent,
    gamma_coordinates,
    kappas,
    time_factor,
)
from solvable.models.three_layer.flow import _network, gradient_flow_residuals
from solvable.models.three_layer.measures import (
    _inner,
    condensation,
    cosine_similarity,
    relative_distance,
)
from solvable.models.three_layer.power_law import _power_law_scales, power_law_scheme
from solvable.models.three_layer.rescaling import (
    BLOCKS,
    _normalised_lhs,
    _rescaling_by_block,
    rescaling_residuals,
)
from solvable.models.three_layer.symbolic import _Params, _params, homogeneity, sigma, sigma_prime
from solvable.models.three_layer.tables import (
    _PRINTED_TABLE_1,
    _PRINTED_TABLE_2,
    INITIALISATIONS,
    TABLE_2,
    InitScheme,
    table_1,
)


# ---------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------
def _eq5() -> Verdict:
    v = prove_zero(*gradient_flow_residuals(2, 2, 2), *gradient_flow_residuals(2, 1, 2, bias=True))
    return Verdict(v.status, f"(m, d, n) = (2, 2, 2), and (2, 1, 2) with biases: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _rescaling() -> Verdict:
    res = [r for size in ((2, 2, 2), (3, 1, 1)) for b in BLOCKS for r in _claim_residuals(*size)[b]]
    v = prove_zero(*res)
    return Verdict(v.status, f"(m, d, n) = (2, 2, 2) and (3, 1, 1): {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _time_scale() -> Verdict:
    # (alpha kappa_1 kappa_2 kappa_3)^(-2/3) = beta_3^-2, and it is forced: the a-equation of
    # (7) has prefactor kappa_3 exactly when dtbar/dt = beta_3^-2 (dabar/dt = -kappa_3/beta_3^2
    # (...), from (5) with (6)); so tbar = t/beta_3^2.
    k1, k2, k3 = kappas(ALPHA, B1, B2, B3)
    return prove_zero(
        time_factor(ALPHA, B1, B2, B3) - B3**-2,
        ALPHA * k1 * k2 * k3 - B3**3,
    )


def _kappa1_assumption() -> Verdict:
    # Assumption 3.2, beta_2 = B beta_3: kappa_1 = 1/B, constant, so gamma_1 = 0
    Bc = sp.Symbol("B", positive=True)
    k1 = kappas(ALPHA, B1, Bc * B3, B3)[0]
    return prove_zero(k1 - 1 / Bc, exponent(k1))


def _printed_cells_rescale(init: InitScheme) -> list[sp.Expr]:
    """A direct computation of the printed kappa_2, kappa_3 of a row of Table 1: with the
    row's scalings in (6), the package's flow (the gradient of risk (3), generic positively
    homogeneous sigma, m = d = n = 1) becomes the printed (7) with the printed cells (and
    kappa_1 = beta_3/beta_2, not printed), under the time change of (8) built from them; at
    the widths ``m_1, m_2, d = 3, 5, 2`` (exact algebraic numbers: the cells themselves are
    compared with eq. (8) for every width by the row's first residuals)."""
    k2p, k3p, _, _ = _PRINTED_TABLE_1[init.name]
    k1 = init.beta_3 / init.beta_2

    def printed(*_: Any) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        return k1, k2p, k3p

    def time(*_: Any) -> sp.Expr:
        return sp.powsimp((init.alpha * k1 * k2p * k3p) ** sp.Rational(-2, 3), force=True)

    row = {ALPHA: init.alpha, B1: init.beta_1, B2: init.beta_2, B3: init.beta_3}
    widths = {M1: 3, M2: 5, D: 2}
    res = rescaling_residuals(1, 1, 1, kappa_fn=printed, time_fn=time)
    return [r.subs(row).subs(widths) for r in res]


def _table_row(name: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        # the reported values (table_1(): kappas of eq. (8), gammas by the limit (9)) against
        # the printed cells, and the printed cells against the rescaled flow (direct)
        init = next(i for i in INITIALISATIONS if i.name == name)
        row = next(r for r in table_1() if r["name"] == name)
        k2p, k3p, g2p, g3p = _PRINTED_TABLE_1[name]
        # kappas are positive: equal iff their squares are (exact rational functions)
        return prove_zero(sp.cancel(row["kappa_2"] ** 2 - k2p**2),
                          sp.cancel(row["kappa_3"] ** 2 - k3p**2),
                          row["gamma_2"] - g2p, row["gamma_3"] - g3p, row["gamma_1"],
                          *_printed_cells_rescale(init))  # fmt: skip

    return check


def _assumption_32() -> Verdict:
    # B = beta_2/beta_3 at m_1 = m_2 = m: 1 for NTK, LeCun, He; sqrt((m + 1)/(2m)) for Xavier,
    # which satisfies Assumption 3.2 only as m -> oo (B -> 1/sqrt(2)); gamma_1 = 0 for all
    res = []
    for init in INITIALISATIONS:
        B = sp.simplify((init.beta_2 / init.beta_3).subs({M1: M, M2: M}))
        expect = sp.sqrt((M + 1) / (2 * M)) if init.name == "Xavier" else 1
        res += [sp.cancel(B**2 - expect**2), init.gammas[0]]
    xav = next(i for i in INITIALISATIONS if i.name == "Xavier")
    B = (xav.beta_2 / xav.beta_3).subs({M1: M, M2: M})
    res.append(sp.limit(B, M, sp.oo) - 1 / sp.sqrt(2))
    return prove_zero(*res)


def _table_2() -> Verdict:
    res = []
    for init in TABLE_2:
        g2p, g3p = _PRINTED_TABLE_2[init.name[:5]]
        _, g2, g3 = init.gammas
        res += [g2 - g2p, g3 - g3p]
    return prove_zero(*res)


def _homogeneity_needed() -> Verdict:
    # generic sigma without the homogeneity rules: the residuals do not vanish; at the
    # concrete smooth non-homogeneous sigma(z) = z + z^2 they are exactly non-zero
    res = rescaling_residuals(1, 1, 1, homogeneous=False)
    z = sp.Symbol("z")
    concrete = {sigma: sp.Lambda(z, z + z**2), sigma_prime: sp.Lambda(z, 1 + 2 * z)}
    point = {ALPHA: 2, B1: 3, B2: 5, B3: 7, sp.Symbol("abar_0", real=True): 1,
             sp.Symbol("W2bar_00", real=True): 1, sp.Symbol("W1bar_00", real=True): 1,
             sp.Symbol("x_00", real=True): 1, sp.Symbol("y_0", real=True): 0}  # fmt: skip
    values = [sp.expand(r.replace(sigma, concrete[sigma])
                           .replace(sigma_prime, concrete[sigma_prime]).subs(point))
              for r in res]  # fmt: skip
    return prove_nonzero(
        values[0],
        what="rescaling (6)+(8) leaves (5) not of the form (7) for sigma(z) = z + z^2: the "
        "a-component residual at m = d = n = 1, alpha = 2, beta = (3, 5, 7), all weights and "
        "x 1, y 0 (exact rational, non-zero)",
    )


def _merge(*verdicts: Verdict) -> Verdict:
    """One verdict from several proofs: proved when all are."""
    bad = [v for v in verdicts if v.status != "proved"]
    res = tuple(r for v in verdicts for r in v.residuals)
    if bad:
        return Verdict("failed", bad[0].detail, residuals=res)
    return Verdict("proved", "; ".join(v.detail for v in verdicts), residuals=res)


def _eq6_standard_normal() -> Verdict:
    # (6): a ~ N(0, beta_3^2) => abar = a/beta_3 ~ N(0, 1), likewise W2, W1 (densities)
    z = sp.Symbol("z", real=True)
    unit = stats.density(stats.Normal("u", 0, 1))(z)
    res = [stats.density(stats.Normal(name, 0, b) / b)(z) - unit
           for name, b in (("a_k", B3), ("W2_kl", B2), ("W1_kl", B1))]  # fmt: skip
    return prove_zero(*res)


def _relu_homogeneity() -> Verdict:
    # the package's ReLU max(0, z) and its derivative Heaviside(z, 0), at z = u, -u, 0
    # (u > 0: every real z), scaled by c > 0: sigma(cz) = c sigma(z), sigma'(cz) = sigma'(z)
    relu, drelu = activation("relu"), derivative("relu")
    c, u = sp.symbols("c u", positive=True)
    res = []
    for z in (u, -u, sp.Integer(0)):
        res += [relu.subs(Z, c * z) - c * relu.subs(Z, z), drelu.subs(Z, c * z) - drelu.subs(Z, z)]
    proved = prove_zero(*res)
    # c > 0 is needed: c = -1, z = 1 gives max(0, -1) - (-1) max(0, 1) = 1
    counter = prove_nonzero(relu.subs(Z, -1) + relu.subs(Z, 1),
                            what="c = -1, z = 1: sigma(cz) - c sigma(z)")  # fmt: skip
    return _merge(proved, counter)


@functools.cache
def _claim_residuals(m: int, d: int, n: int) -> dict[str, tuple[sp.Expr, ...]]:
    """:func:`rescaling_residuals` by block, computed once for the claims that share them
    (``three_layer.rescaling`` and ``three_layer.eq7.*``); tests that break the network
    clear this cache with :func:`_flow`'s."""
    return {b: tuple(r) for b, r in _rescaling_by_block(m, d, n).items()}


def _eq7_block(block: str) -> Callable[[], Verdict]:
    def check() -> Verdict:
        v = prove_zero(*_claim_residuals(2, 2, 2)[block], *_claim_residuals(3, 1, 1)[block])
        return Verdict(v.status, f"(m, d, n) = (2, 2, 2), (3, 1, 1): {v.detail}",
                       residuals=v.residuals)  # fmt: skip

    return check


def _bias_first_layer() -> Verdict:
    v = prove_zero(*rescaling_residuals(2, 1, 2, bias="first"))
    return Verdict(v.status, f"(m, d, n) = (2, 1, 2), b1 folded into W1: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _time_exponent() -> Verdict:
    # the a-block of (7) (prefactor kappa_3) fixes dtbar/dt: solve its residual for T, then
    # (alpha kappa_1 kappa_2 kappa_3)^r = T has the single solution r = -2/3
    T, r = sp.Symbol("T", positive=True), sp.Symbol("r", real=True)
    res = rescaling_residuals(1, 1, 1, time_fn=lambda *_: T, block="a")
    sols_T = sp.solve(res[0], T)
    k1, k2, k3 = kappas(ALPHA, B1, B2, B3)
    sols_r = []
    if len(sols_T) == 1:
        eq = sp.expand_log(sp.log((ALPHA * k1 * k2 * k3) ** r) - sp.log(sols_T[0]), force=True)
        sols_r = sp.solve(eq, r)
    if len(sols_T) != 1 or len(sols_r) != 1:
        return Verdict("failed", f"no unique solution: T in {sols_T}, r in {sols_r}")
    v = prove_zero(sols_T[0] - B3**-2, sols_r[0] + sp.Rational(2, 3))
    return Verdict(v.status, f"dtbar/dt = {sols_T[0]}, exponent r = {sols_r[0]}: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _log_jacobian(fns: Sequence[sp.Expr]) -> sp.Matrix:
    """``d log f_i / d log p_j`` for ``p = (alpha, beta_1, beta_2, beta_3)``."""
    ps = (ALPHA, B1, B2, B3)
    return sp.Matrix([[sp.simplify(p * sp.diff(f, p) / f) for p in ps] for f in fns])


def _kappas_independent() -> Verdict:
    # the kappas have a rank-3 log-Jacobian whose kernel is (3, 1, 1, 1) (alpha -> c^3
    # alpha, beta_i -> c beta_i), along which the time factor tbar/t moves as c^-2
    J = _log_jacobian(kappas(ALPHA, B1, B2, B3))
    ker = J.nullspace()
    joint = sp.Matrix([3, 1, 1, 1])
    Jt = _log_jacobian([time_factor(ALPHA, B1, B2, B3)])
    res = [sp.Integer(J.rank() - 3), sp.Integer(len(ker) - 1), *(J * joint),
           (Jt * joint)[0] + 2]  # fmt: skip
    if len(ker) == 1:  # the kernel is the joint direction: ker x joint has rank 1
        res.append(sp.Integer(sp.Matrix.hstack(ker[0], joint).rank() - 1))
    return prove_zero(*res)


def _joint_rescaling() -> Verdict:
    # the normalised flow computed from the package's flow (not from (7)) at (c^3 alpha,
    # c beta_i) equals that at (alpha, beta_i), block by block, and so does the output
    c = sp.Symbol("c", positive=True)
    pb = _params(2, 1, 2, bar=True)
    base = (ALPHA, B1, B2, B3)
    moved = (c**3 * ALPHA, c * B1, c * B2, c * B3)
    lhs0, lhs1 = (_normalised_lhs(pb, sc, rule=homogeneity) for sc in (base, moved))
    res = [sp.expand(a - b) for L0, L1 in zip(lhs0, lhs1, strict=True)
           for a, b in zip(L0, L1, strict=True)]  # fmt: skip
    for x in pb.X:
        f = [homogeneity(_network(_Params(b3 * pb.a, b2 * pb.W2, b1 * pb.W1, pb.X, pb.y),
                                  1 / al, x)) for al, b1, b2, b3 in (base, moved)]  # fmt: skip
        res.append(f[0] - f[1])
    res += [a - b for a, b in zip(kappas(*base), kappas(*moved), strict=True)]
    v = prove_zero(*res)
    return Verdict(v.status, f"(m, d, n) = (2, 1, 2), every block and f: {v.detail}",
                   residuals=v.residuals)  # fmt: skip


def _power_law_family() -> Verdict:
    # for symbolic gamma_2, gamma_3, s (real) and B > 0: the coordinates (9) of the family
    # are (0, gamma_2, gamma_3), and its (p, q) solve the linear system uniquely
    g2, g3, s_ = sp.symbols("gamma_2 gamma_3 s", real=True)
    Bc = sp.Symbol("B", positive=True)
    alpha, b1, b2, b3 = _power_law_scales(g2, g3, s_, Bc)
    got = gamma_coordinates(alpha, b1, b2, b3)
    p, q = sp.symbols("p q", real=True)
    k = kappas(M**s_, M**-q, Bc * M**-p, M**-p)
    sol = sp.solve([exponent(k[1]) - g2, exponent(k[2]) - g3], [p, q], dict=True)
    res = [got[0], got[1] - g2, got[2] - g3, sp.Integer(len(sol) - 1)]
    if len(sol) == 1:
        res += [sol[0][p] - exponent(b3), sol[0][q] - exponent(b1)]
    return prove_zero(*res)


def _table_2_family() -> Verdict:
    # each row of Table 2 is power_law_scheme(printed gamma_2, gamma_3, s = alpha's
    # exponent, B = 1); within a group the kappas are equal as functions of m, and only
    # the time factor tbar/t = beta_3^-2 differs
    res, cases = [], []
    for group in ("No. 1", "No. 2"):
        rows = [r for r in TABLE_2 if r.name.startswith(group)]
        g2p, g3p = _PRINTED_TABLE_2[group]
        for row in rows:
            fam = power_law_scheme(g2p, g3p, -exponent(row.alpha))
            res += [row.alpha - fam.alpha, row.beta_1 - fam.beta_1, row.beta_2 - fam.beta_2,
                    row.beta_3 - fam.beta_3]  # fmt: skip
            res += [a - b for a, b in zip(row.kappas, rows[0].kappas, strict=True)]
        times = [time_factor(r.alpha, r.beta_1, r.beta_2, r.beta_3) for r in rows]
        cases.append((f"{group}: time factors {times} distinct",
                      len({sp.simplify(t) for t in times}) == len(rows)))  # fmt: skip
    return _merge(prove_zero(*res), decide(cases, "Table 2 groups"))


def _rd_invariance() -> Verdict:
    # RD (10) of W1 (m x (d+1), bias folded) and of W2 (m x (m+1)) at m = 2, d = 1: the same
    # for theta = beta thetabar and thetabar (any beta > 0), so S_W (11) agrees for the raw
    # and the normalised net; RD reads only the two end points, so the time change is moot
    res = []
    for name, beta, shape in (("W1", B1, (2, 2)), ("W2", B2, (2, 3))):
        fin = sp.Matrix(*shape, lambda i, j, n=name: sp.Symbol(f"{n}s_{i}{j}", real=True))
        ini = sp.Matrix(*shape, lambda i, j, n=name: sp.Symbol(f"{n}0_{i}{j}", real=True))
        res.append(relative_distance(beta * fin, beta * ini) - relative_distance(fin, ini))
    return prove_zero(*res)


def _cosine_claim() -> Verdict:
    # Figure 3's reading of D (2): 1 for equal, -1 for opposite, 0 for perpendicular
    # directions; |D| <= 1 by Lagrange's identity; D(c u, c' v) = D(u, v) for c, c' > 0
    # (so Figure 3 and zeta read the same on W2 and on W2bar = W2/beta_2, eq. (6))
    u = sp.symbols("u_0:3", real=True)
    v = sp.symbols("v_0:3", real=True)
    c, c2 = sp.symbols("c c'", positive=True)
    perp = (u[1], -u[0], 0)  # perpendicular to u (u_0 or u_1 non-zero)
    lagrange = (
        _inner(u, u) * _inner(v, v)
        - _inner(u, v) ** 2
        - sum((u[i] * v[j] - u[j] * v[i]) ** 2 for i in range(3) for j in range(i))
    )
    res = [
        cosine_similarity(u, u) - 1,
        cosine_similarity(u, [-x for x in u]) + 1,
        cosine_similarity(u, perp),
        sp.expand(lagrange),
        cosine_similarity([c * x for x in u], [c2 * x for x in v]) - cosine_similarity(u, v),
    ]  # fmt: skip
    return prove_zero(*res)


def _condensation_claim() -> Verdict:
    # zeta = 1 for parallel/opposite rows (m = 6, rows c_i u with signs mixed); 2/m for
    # mutually perpendicular rows (m = 4); unchanged by W2 -> W2/beta_2 (eq. (6))
    r = sp.Rational
    u = (1, -2, 3)
    cs = (3, r(-1, 2), 2, -5, r(1, 3), r(7, 4))
    collinear = [[ci * x for x in u] for ci in cs]
    perpendicular = [[2, 0, 0, 0], [0, -3, 0, 0], [0, 0, r(1, 2), 0], [0, 0, 0, 5]]
    generic = [[1, -2, r(1, 3)], [r(3, 2), 1, -1], [-2, r(1, 2), 4], [r(2, 3), 3, 1]]
    beta = r(7, 3)
    return prove_zero(
        condensation(collinear) - 1,
        condensation(perpendicular) - r(2, 4),
        condensation([[x / beta for x in row] for row in generic]) - condensation(generic),
    )
