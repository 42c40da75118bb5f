"""Seed 002, the symbolic checks behind the claims of Sections 2.1, 2.3, Table 1 and
Exercise 1 (Plackett's identity, the arc-cosine kernels, the kernels integrated from their
definitions, the stable forms, Table 1's laws and the fourth cumulant): each returns a
:class:`~solvable._core.claims.Verdict` (the statements:
:mod:`solvable.models.kernels.statements`)."""

from __future__ import annotations

import functools
from collections.abc import Callable

import sympy as sp
from sympy.calculus.util import function_range, minimum

from solvable._core import activations as act
from solvable._core.backends import elementary
from solvable._core.claims import Verdict, decide, prove_zero
from solvable._core.geometry import ANGLE, DIFF_NORM, SUM_NORM, SUPPLEMENT
from solvable.models.kernels.closed_forms import (
    _cosine_stable,
    arccos_expectation,
    exercise_printed_ntk,
    kernel,
    kernel_of_vectors,
    kernel_theta,
)
from solvable.models.kernels.cumulants import (
    _unit_values,
    a_fourth_moment,
    output_cumulant,
    output_excess_kurtosis,
    relu_moment,
)
from solvable.models.kernels.evaluators import PHI, _phi_of_rho, _supplement_form
from solvable.models.kernels.initialisation import (
    Initialisation,
    exercise_initialisation,
    generic_initialisation,
    lecture_initialisation,
)
from solvable.models.kernels.symbols import A2, KERNELS, N1, N2, RHO, S2, THETA, D
from solvable.models.kernels.table_1 import (
    C1,
    C2,
    TABLE_1,
    P,
    default_initialisation,
    table_1_covariance,
)

# ---------------------------------------------------------------------------
# symbolic claims
# ---------------------------------------------------------------------------
_U, _V = sp.symbols("u v", real=True)
_T = sp.Symbol("t", positive=True)  # rho = (1 - t)/(1 + t) runs over (-1, 1) for t > 0


def _bivariate_density(rho: sp.Expr) -> sp.Expr:
    q = sp.factor(1 - rho**2)
    quad = sp.factor(_U**2 - 2 * rho * _U * _V + _V**2)
    return sp.exp(-quad / (2 * q)) / (2 * sp.pi * sp.sqrt(q))


def _plackett() -> Verdict:
    # (1) d/drho phi_2 = d^2/(du dv) phi_2 (the bivariate normal density's heat equation);
    # (2) int_0^oo int_0^oo phi_uv du dv = phi_2(0, 0): the inner integral is
    #     [phi_v]_{u=0}^{u=oo} = -phi_v(0, v) (phi_v -> 0 as u -> oo) and
    #     int_0^oo -phi_v(0, v) dv = phi_2(0, 0), by sympy with rho = (1 - t)/(1 + t), t > 0;
    # (3) phi_2(0, 0; rho) = 1/(2 pi sqrt(1 - rho^2)).
    F = _bivariate_density(RHO)
    Ft = _bivariate_density((1 - _T) / (1 + _T))
    Fv = sp.diff(Ft, _V)
    inner = sp.integrate(-Fv.subs(_U, 0), (_V, 0, sp.oo))
    return prove_zero(
        sp.diff(F, RHO) - sp.diff(F, _U, _V),
        sp.limit(sp.simplify(Fv), _U, sp.oo),
        inner - Ft.subs({_U: 0, _V: 0}),
        F.subs({_U: 0, _V: 0}) - 1 / (2 * sp.pi * sp.sqrt(1 - RHO**2)),
    )


def _gauss(z: sp.Expr) -> sp.Expr:
    return sp.exp(-(z**2) / 2) / sp.sqrt(2 * sp.pi)


def _arccos_order_0() -> Verdict:
    # given Plackett: dk0/drho = phi_2(0,0;rho); at rho = 0, u and v are independent:
    # k0(0) = P(u > 0)^2 with P(u > 0) integrated by sympy.  The ODE with this initial value
    # has one solution on (-1, 1), continuous on [-1, 1].
    half = sp.integrate(_gauss(_U), (_U, 0, sp.oo))
    k0 = arccos_expectation(0)
    return prove_zero(
        sp.diff(k0, RHO) - 1 / (2 * sp.pi * sp.sqrt(1 - RHO**2)), k0.subs(RHO, 0) - half**2
    )


def _arccos_order_1() -> Verdict:
    # given Price: d/drho E[relu(u) relu(v)] = E[relu'(u) relu'(v)] = k0; at rho = 0,
    # k1(0) = E[relu(u)]^2 with E[relu(u)] = int_0^oo u phi(u) du = 1/sqrt(2 pi)
    mean = sp.integrate(_U * _gauss(_U), (_U, 0, sp.oo))
    k1 = arccos_expectation(1)
    return prove_zero(
        sp.diff(k1, RHO) - arccos_expectation(0),
        k1.subs(RHO, 0) - mean**2,
        k1.subs(RHO, 0) - 1 / (2 * sp.pi),
    )


def _unit_features() -> dict[str, sp.Expr]:
    """The integrands of the kernels, from one unit of the package's network
    (:func:`solvable.models.linearisation.network_output`, eqs. (2.3), (2.28); ``p = 1``, scale 1:
    ``f = a relu(<w, x>)``, ReLU from :mod:`solvable._core.activations`) at
    ``x = n1 e1``, ``x' = n2 (cos theta, sin theta)``, ``w = (w0, w1)`` on their span:
    ``f(x) f(x')`` (``"nngp"``, K_GP (2.4)), the ``a`` block ``df/da(x) df/da(x')``
    (``"rf"``, K_RF) and the ``w`` block ``<df/dw(x), df/dw(x')>`` (``"ntk_first_layer"``,
    K_NTK) of the tangent kernel (2.25), by sympy
    (the unit: :func:`_unit_values`)."""
    fx, fxp, a, w = _unit_values()
    return {
        "nngp": fx * fxp,
        "rf": sp.diff(fx, a) * sp.diff(fxp, a),
        "ntk_first_layer": sum(sp.diff(fx, v) * sp.diff(fxp, v) for v in w),
        "_a": a,
        "_w": w,
    }


@functools.cache
def _polar_kernels() -> dict[str, sp.Expr]:
    """The kernels (2.4), (2.31) integrated from their definitions in polar coordinates:
    the integrands are the package network's feature products (:func:`_unit_features`),
    ``w`` restricted to the span of ``x, x'`` is ``N(0, s2 I_2)`` (rotation invariance),
    ``w = r (cos phi, sin phi)``, and ``E[a^2] = A2`` (``a`` independent of ``w``).  For
    ``theta in [0, pi]`` both pre-activations are positive exactly on the arc
    ``phi in (theta - pi/2, pi/2)``, where ``relu(z) = z`` and ``relu'(z) = 1``; off it
    every integrand has a factor ``relu`` or ``relu'`` of a non-positive number, 0."""
    r, phi = sp.Symbol("r", positive=True), sp.Symbol("phi", real=True)
    density = r * sp.exp(-(r**2) / (2 * S2)) / (2 * sp.pi * S2)  # dr dphi
    arc = (phi, THETA - sp.pi / 2, sp.pi / 2)
    feats = _unit_features()
    a, (w0, w1) = feats["_a"], feats["_w"]

    def positive_branch(t: sp.Piecewise) -> sp.Expr:
        # relu's evaluated form Piecewise((0, z <= 0), (z, True)) and its derivative
        # Piecewise((0, z <= 0), (1, True)): for z > 0 the last branch
        (zero, _), (value, otherwise) = t.args
        if zero != 0 or otherwise is not sp.true:
            raise ArithmeticError(f"not a ReLU branch: {t}")
        return value

    def on_arc(e: sp.Expr) -> sp.Expr:
        return e.replace(lambda t: isinstance(t, sp.Piecewise), positive_branch)

    def expect(integrand: sp.Expr) -> sp.Expr:
        e = sp.expand(on_arc(integrand.subs({w0: r * sp.cos(phi), w1: r * sp.sin(phi)})))
        e = sp.expand(e.subs(a**2, A2))
        if a in e.free_symbols:
            raise ArithmeticError(f"the integrand is not a function of a^2: {e}")
        poly = sp.Poly(e, r)
        return sum((sp.integrate(r**k * density, (r, 0, sp.oo)) * sp.integrate(c, arc)
                    for (k,), c in poly.terms()), sp.S.Zero)  # fmt: skip

    rf, first, nngp = (sp.simplify(expect(feats[k])) for k in ("rf", "ntk_first_layer", "nngp"))
    return {"rf": rf, "ntk_first_layer": first, "nngp": nngp, "ntk": rf + first}


def _closed_forms_from_definitions() -> Verdict:
    polar = _polar_kernels()
    return prove_zero(*(polar[k] - kernel_theta(k) for k in KERNELS))


def _stable_forms() -> Verdict:
    # angle form at theta = acos(rho) (a bijection [-1, 1] -> [0, pi]) is the cosine form;
    # the stable square root equals the textbook one
    res = [kernel_theta(k).subs(THETA, sp.acos(RHO)) - kernel(k) for k in KERNELS]
    res += [_cosine_stable(kernel(k)) - kernel(k) for k in KERNELS]
    res.append(sp.sqrt((1 - RHO) * (1 + RHO)) ** 2 - (1 - RHO**2))
    # Kahan: for unit u, v at angle theta, |u - v| = 2 sin(theta/2), |u + v| = 2 cos(theta/2)
    u = sp.Matrix([1, 0])
    v = sp.Matrix([sp.cos(THETA), sp.sin(THETA)])
    half = THETA / 2
    res.append(sp.expand_trig(((u - v).dot(u - v) - 4 * sp.sin(half) ** 2).rewrite(sp.cos)))
    res.append(sp.expand_trig(((u + v).dot(u + v) - 4 * sp.cos(half) ** 2).rewrite(sp.cos)))
    # the evaluated form: phi = pi - theta with sinc3, equal to the angle form
    res += [sp.simplify(elementary(_supplement_form(k)) - kernel_theta(k).subs(THETA, sp.pi - PHI))
            for k in KERNELS]  # fmt: skip
    # SUPPLEMENT = pi - ANGLE: with t = |u + v| / |u - v| > 0, atan(t) + atan(1/t) is constant
    # (zero derivative) and pi/2 at t = 1 (the edges t = 0, oo are atan2's exact 0, pi/2)
    t = sp.Symbol("t", positive=True)
    both = (ANGLE + SUPPLEMENT).subs({SUM_NORM: t, DIFF_NORM: 1})
    res += [sp.simplify(sp.diff(both, t)), both.subs(t, 1) - sp.pi]
    # phi_of_rho is SUPPLEMENT of the chords of two unit vectors at cosine rho
    u1, v1 = sp.Matrix([1, 0]), sp.Matrix([RHO, sp.sqrt(1 - RHO**2)])
    chords = {DIFF_NORM: sp.sqrt(sp.expand((u1 - v1).dot(u1 - v1))),
              SUM_NORM: sp.sqrt(sp.expand((u1 + v1).dot(u1 + v1)))}  # fmt: skip
    res.append(sp.simplify(_phi_of_rho() - SUPPLEMENT.subs(chords)))
    return prove_zero(*res)


@functools.cache
def _diagonal_direct() -> dict[str, sp.Expr]:
    """The definitions (2.4), (2.31) at ``x' = x`` (keys ``"rf"``, ...) and at ``x' = -c x``
    (keys ``"rf-"``, ..., ``|x'| = n2``), integrated directly: ``<w, x> = sqrt(s2) n1 u`` with
    ``u ~ N(0, 1)``, the package's ``relu`` and ``relu'`` (:mod:`solvable._core.activations`),
    one-dimensional Gaussian integrals by sympy; generic moments ``E[a^2] = A2``, ``s^2 = S2``."""
    u, v = sp.Symbol("u", real=True), sp.Symbol("v", positive=True)
    relu, drelu = act.activation("relu"), act.derivative("relu")

    def mean(e: sp.Expr) -> sp.Expr:
        # int_R e(u) phi(u) du = int_0^oo (e(v) + e(-v)) phi(v) dv: with v > 0 declared,
        # relu and relu' of +-c v (c > 0) evaluate themselves
        folded = (e.subs(u, v) + e.subs(u, -v)) * _gauss(v)
        return sp.simplify(sp.integrate(sp.expand(folded), (v, 0, sp.oo)))

    z, zm = sp.sqrt(S2) * N1 * u, -sp.sqrt(S2) * N2 * u
    out = {}
    for tag, z2, dot in (("", z, N1**2), ("-", zm, -N1 * N2)):
        rf = mean(relu.subs(act.Z, z) * relu.subs(act.Z, z2))
        first = A2 * dot * mean(drelu.subs(act.Z, z) * drelu.subs(act.Z, z2))
        out.update({f"rf{tag}": rf, f"ntk_first_layer{tag}": first, f"nngp{tag}": A2 * rf,
                    f"ntk{tag}": rf + first})  # fmt: skip
    return out


def _moments(init: Initialisation) -> dict[sp.Symbol, sp.Expr]:
    return {A2: init.a_second_moment, S2: init.w_variance}


def _diagonal_values() -> Verdict:
    # rho = 1 (x' = x) and rho = -1 (x' = -c x): the closed forms (the expressions every
    # evaluator is generated from) against the definitions integrated directly, for the
    # generic, lecture (2.28) and Exercise 1 records; the arc-cosine expectations against
    # E[relu(u)^2], E[relu'(u)^2]; K_NTK(x, x) against the corrected (4.2) at rho = 1
    # (<x, x> times its printed right-hand side)
    direct = _diagonal_direct()
    res = [
        arccos_expectation(0, 1) - direct["ntk_first_layer"].subs({A2: 1, N1: 1}),  # relu'^2
        arccos_expectation(1, 1) - direct["rf"].subs({S2: 1, N1: 1}),  # E[relu(u)^2]
        arccos_expectation(0, -1), arccos_expectation(1, -1),
        kernel("ntk_first_layer", exercise_initialisation(), N1, N1, 1)
        - N1**2 * exercise_printed_ntk(1),
    ]  # fmt: skip
    for init in (generic_initialisation(), lecture_initialisation(D), exercise_initialisation()):
        mom = _moments(init)
        res += [kernel(k, init, N1, N1, 1) - direct[k].subs(mom) for k in KERNELS]
        res += [kernel(k, init, N1, N2, -1) - direct[f"{k}-"].subs(mom) for k in KERNELS]
    return prove_zero(*res)


def _homogeneity() -> Verdict:
    c1, c2 = sp.symbols("c1 c2", positive=True)
    res = [kernel(k, None, c1 * N1, c2 * N2, RHO) - c1 * c2 * kernel(k) for k in KERNELS]
    # x -> 0 along any direction: K = n1 * (bounded in rho) -> 0
    n = sp.Symbol("n", positive=True)
    res += [sp.limit(kernel(k, None, n, N2, RHO), n, 0) for k in KERNELS]
    res += [kernel_of_vectors(k, None, [0, 0], [1, 2]) for k in KERNELS]
    return prove_zero(*res)


def _ntk_from_rf() -> Verdict:
    # Price's theorem with covariance s2 c, c = <x, x'> = n1 n2 rho at fixed norms:
    # dK_RF/dc = s2 E[relu'(.) relu'(.)], so K_NTK = (E[a^2]/s2) c dK_RF/dc; K_GP = E[a^2] K_RF
    c = sp.Symbol("c", real=True)
    rf_c = kernel("rf").subs(RHO, c / (N1 * N2))
    dK = sp.diff(rf_c, c).subs(c, N1 * N2 * RHO)
    return prove_zero(
        kernel("ntk_first_layer") - A2 / S2 * (N1 * N2 * RHO) * dK,
        kernel("nngp") - A2 * kernel("rf"),
        sp.diff(kernel("rf"), RHO) - S2 * N1 * N2 * arccos_expectation(0),
    )


def _positivity() -> Verdict:

    th = THETA
    J0 = 2 * sp.pi * kernel_theta("ntk_first_layer", exercise_initialisation(), 1, 1) / sp.cos(th)
    J1 = 2 * sp.pi * kernel_theta("rf", exercise_initialisation(), 1, 1)
    dJ1 = sp.factor(sp.diff(J1, th))
    dom = sp.Interval(0, sp.pi)
    k0_diag = kernel("ntk", None, N1, N1, 1)
    cases = [
        ("J_0 = pi - theta", sp.simplify(J0 - (sp.pi - th)) == 0),
        ("min J_0 on [0, pi] = 0", minimum(J0, th, dom) == 0),
        ("J_0 = 0 only at pi", sp.solveset(J0, th, dom) == sp.FiniteSet(sp.pi)),
        ("min J_1 on [0, pi] = 0", minimum(J1, th, dom) == 0),
        ("J_1' = (theta - pi) sin theta", sp.simplify(dJ1 - (th - sp.pi) * sp.sin(th)) == 0),
        ("sin([0, pi]) = [0, 1]", function_range(sp.sin(th), th, dom) == sp.Interval(0, 1)),
        ("J_1' = 0 only at 0, pi", sp.solveset(dJ1, th, dom) == sp.FiniteSet(0, sp.pi)),
        ("J_1(pi) = 0", sp.simplify(J1.subs(th, sp.pi)) == 0),
        ("K_0(x, x) > 0", bool(k0_diag.is_positive)),
    ]
    verdict = decide(cases, "ReLU kernel signs")
    if verdict.status != "proved":
        return verdict
    return Verdict(
        "proved",
        verdict.detail + ". Hence J_0 > 0 on [0, pi) (0 at pi); J_1' = (theta - pi) sin theta "
        "<= 0 vanishing only at 0, pi, so J_1 decreases strictly to J_1(pi) = 0: J_1 > 0 on "
        "[0, pi). So K_RF, K_GP >= 0 (= 0 iff x' = -c x or a zero input), sign K_NTK = "
        "sign <x, x'>, K_0(x, x) = (E[a^2] + s^2)|x|^2/2 > 0 for x != 0.",
        residuals=verdict.residuals,
    )


def _exercise_ntk() -> Verdict:
    # the corrected (4.2): <x, x'> times its printed right-hand side (data), against the
    # closed form and the definition integrated in polar coordinates (package network)
    e = exercise_initialisation()
    corrected = N1 * N2 * RHO * exercise_printed_ntk()
    polar = _polar_kernels()["ntk_first_layer"].subs(_moments(e)).subs(THETA, sp.acos(RHO))
    return prove_zero(kernel("ntk_first_layer", e) - corrected, polar - corrected)


def _lecture_k0() -> Verdict:
    # eq. (2.28): the record's moments are those of a ~ Unif[-1, 1] (E[a^2] integrated) and
    # w ~ N(0, I_d/d); its K_0 is the definition integrated in polar coordinates with them
    init = lecture_initialisation(D)
    a = sp.Symbol("a", real=True)
    m2 = sp.integrate(a**2 / 2, (a, -1, 1))  # Unif[-1, 1] has density 1/2
    polar = _polar_kernels()["ntk"].subs({A2: m2, S2: 1 / D}).subs(THETA, sp.acos(RHO))
    return prove_zero(init.a_second_moment - m2, init.w_variance - 1 / D,
                      kernel("ntk", init) - polar)  # fmt: skip


# ---------------------------------------------------------------------------
# Table 1, (2.2) and the fourth cumulant: symbolic claims
# ---------------------------------------------------------------------------
def _uniform_mean(integrand: Callable[[sp.Expr], sp.Expr], bound: sp.Expr) -> sp.Expr:
    """``E[integrand(u)]`` for ``u ~ Unif([-bound, bound])`` (density ``1/(2 bound)``)."""
    u = sp.Symbol("u", real=True)
    return sp.integrate(integrand(u) / (2 * bound), (u, -bound, bound))


def _table_1_variances() -> Verdict:
    # Var of each row's laws integrated from the uniform density; (2.2): sqrt(p) std(a_j) ->
    # sqrt(2) under both rows (std = Theta(1/sqrt(p))); the rescaled a~ = sqrt(p) a of (2.3)
    # has E[a~^2] = 2 (Kaiming, every p) and 2p/(p+1) -> 2 (Xavier)
    res = []
    for name, var_a, var_w in (("kaiming", 2 / P, 2 / D), ("xavier", 2 / (P + 1), 2 / (P + D))):
        init = default_initialisation(name)
        for bound, var, rec in ((init.a_bound, var_a, init.a_variance),
                                (init.w_bound, var_w, init.w_variance)):  # fmt: skip
            res += [_uniform_mean(lambda u: u**2, bound) - var, rec - var,
                    _uniform_mean(lambda u: u, bound)]  # fmt: skip
        res.append(sp.limit(sp.sqrt(P) * sp.sqrt(init.a_variance), P, sp.oo) - sp.sqrt(2))
        res.append(sp.limit(P * init.a_variance, P, sp.oo) - 2)
    res.append(P * default_initialisation("kaiming").a_variance - 2)
    return prove_zero(*res)


def _table_1_covariance() -> Verdict:
    # each exact covariance against the definition integrated over the uniform laws with the
    # package's ReLU (axis-aligned inputs: one coordinate for same direction / antipodal,
    # two independent coordinates for orthogonal axes); E[a] = 0 kills j != k.  Then the
    # widths: Kaiming's output variance 2|x|^2/d is free of p (the NTK scaling (2.3) with
    # O(1) first layer); Xavier's, 2 p |x|^2/((p+1)(p+d)), tends to 0 like 2|x|^2/p.  And
    # the Kaiming limit kernel differs from the Gaussian-weight arc-cosine kernel with the
    # same variances (E[a~^2] = 2, s^2 = 2/d) at orthogonal axes (equal on the diagonal).
    relu = act.activation("relu")
    res = []
    for name in TABLE_1:
        init = default_initialisation(name)
        c = init.w_bound
        same = _uniform_mean(lambda w: relu.subs(act.Z, N1 * w) * relu.subs(act.Z, N2 * w), c)
        anti = _uniform_mean(lambda w: relu.subs(act.Z, N1 * w) * relu.subs(act.Z, -N2 * w), c)
        axis = (_uniform_mean(lambda w: relu.subs(act.Z, N1 * w), c)
                * _uniform_mean(lambda w: relu.subs(act.Z, N2 * w), c))  # fmt: skip
        pre = P * _uniform_mean(lambda u: u**2, init.a_bound)
        res += [pre * same - table_1_covariance(name, "same_direction"),
                pre * anti - table_1_covariance(name, "antipodal"),
                pre * axis - table_1_covariance(name, "orthogonal_axes")]  # fmt: skip
    var_k = table_1_covariance("kaiming").subs(N2, N1)
    var_x = table_1_covariance("xavier").subs(N2, N1)
    res += [sp.diff(var_k, P), var_k - 2 * N1**2 / D, sp.limit(var_x, P, sp.oo),
            sp.limit(P * var_x, P, sp.oo) - 2 * N1**2]  # fmt: skip
    proof = prove_zero(*res)
    gauss = Initialisation(2, 2 / D, "uniform", "Gaussian w, same variances as Kaiming")
    diff = sp.simplify(table_1_covariance("kaiming", "orthogonal_axes")
                       - kernel("nngp", gauss, N1, N2, 0))  # fmt: skip
    same = sp.simplify(var_k - kernel("nngp", gauss, N1, N1, 1))
    ok = proof.status == "proved" and same == 0 and bool(diff.is_positive)
    return Verdict(
        "proved" if ok else "failed",
        f"{proof.detail}; at orthogonal axes K_Kaiming - K_arccos = {diff} > 0, on the "
        f"diagonal equal",
        residuals=(*proof.residuals, same, sp.Integer(0 if diff.is_positive else 1)),
    )


def _fourth_cumulant() -> Verdict:
    # (1) f = p^(-1/2) sum_j u_j, u_j i.i.d. symmetric (a symmetric, independent of w) with
    # moments m2, m4: the cumulant generating function p log M_u(t/sqrt(p)), M_u = 1 + m2
    # t^2/2 + m4 t^4/24 + O(t^6), has kappa_2 = m2 and kappa_4 = (m4 - 3 m2^2)/p;
    # (2) the ReLU moments (polar integration) against 1-D integrals and the kernels: E[relu^2]
    # = s^2 n^2/2, E[relu^4] = 3 s^4 n^4/2, relu_moment(1, 1) = K_RF, relu_moment(2, 2) at
    # theta = 0 is E[relu^4] |x'|^2/|x|^2..., 0 at theta = pi; kappa_2 = c^T K_GP c;
    # (3) E[a^4] of each law integrated; (4) excess kurtosis of f(x): 39/(5p) (eq. (2.28)),
    # 3/p (Exercise 1), and p kappa_4 free of p: kappa_4 -> 0 as p -> oo.
    t, m2, m4 = sp.Symbol("t", real=True), sp.Symbol("m2", positive=True), sp.Symbol("m4")
    cgf = P * sp.log(1 + m2 * (t / sp.sqrt(P)) ** 2 / 2 + m4 * (t / sp.sqrt(P)) ** 4 / 24)
    ser = sp.series(cgf, t, 0, 6).removeO()
    res = [sp.simplify(2 * ser.coeff(t, 2) - m2),
           sp.simplify(24 * ser.coeff(t, 4) - (m4 - 3 * m2**2) / P)]  # fmt: skip
    u = sp.Symbol("u", real=True)
    relu = act.activation("relu")
    gauss1 = lambda e: sp.integrate(e * _gauss(u), (u, -sp.oo, sp.oo))  # noqa: E731
    z = sp.sqrt(S2) * N1 * u
    res += [relu_moment(2, 0) - gauss1(relu.subs(act.Z, z) ** 2),
            relu_moment(4, 0) - gauss1(relu.subs(act.Z, z) ** 4),
            relu_moment(0, 4) - relu_moment(4, 0).subs(N1, N2),
            relu_moment(1, 1) - kernel_theta("rf"),
            relu_moment(2, 2).subs(THETA, 0) - 3 * S2**2 * N1**2 * N2**2 / 2,
            relu_moment(2, 2).subs(THETA, sp.pi), relu_moment(3, 1).subs(THETA, sp.pi)]  # fmt: skip
    quad = (C1**2 * kernel_theta("nngp", None, N1, N1, 0) + 2 * C1 * C2 * kernel_theta("nngp")
            + C2**2 * kernel_theta("nngp", None, N2, N2, 0))  # fmt: skip
    res.append(output_cumulant(2) - quad)
    for law, m4_law in (("uniform", _uniform_mean(lambda v: v**4, sp.sqrt(3 * A2))),
                        ("rademacher", A2**2),
                        ("gaussian", gauss1((sp.sqrt(A2) * u) ** 4))):  # fmt: skip
        res.append(a_fourth_moment(Initialisation(A2, S2, law)) - m4_law)
    for init, value in ((lecture_initialisation(D), sp.Rational(39, 5) / P),
                        (exercise_initialisation(), 3 / P)):  # fmt: skip
        res.append(output_excess_kurtosis(init) - value)
        res.append(sp.diff(P * output_cumulant(4, init), P))
    res.append(sp.limit(output_cumulant(4, exercise_initialisation()), P, sp.oo))
    return prove_zero(*res)
