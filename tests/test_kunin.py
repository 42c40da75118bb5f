"""The single neuron of seed 003 (Kunin et al., Part I): float64 closed form against the
same closed form at 30 digits over a hypothesis-generated space, the balanced limit
delta -> 0 in float64, degenerate cases, input errors, and the float64 simulation.

The 30-digit closed form is itself checked against the 50-digit Taylor integration of
the raw flow (registry entry ``kunin.closed_form_oracle``, run by test_registry).

Error measure: the state ``(a / sqrt(eta_a), w / sqrt(eta_w))`` normwise, i.e. in the
balanced coordinates in which delta is a difference of squares (one block may decay to
an exponentially small value and is then only determined relative to the whole state),
beta relative to ``|beta| + |beta*|`` and the loss relative to ``L + L*`` (L* = the loss
at beta* when the least-squares residual is not zero).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

import numerics
from solvable._core.tolerance import relative_error
from solvable.models import kunin

# 1e-11: measured worst 3e-15 over kunin.CASES; the map (a0, w0, t) -> state is
# well-conditioned away from the saddle (the balanced coordinates rotate hyperbolically
# at a rate Omega, and relative errors stay relative).  Near-saddle starts are excluded
# by the strategy below (|beta_0| >= 1e-3 |beta*| or a large |delta|), where the
# float64 rounding of the initial state is amplified by the escape time.
RTOL = 1e-11
EPS = np.finfo(float).eps

# Pythagorean rotations (cos, sin) = (p/r, q/r) with r a power of 5: exact decimals, so
# X^T X = s I holds exactly for the 30-digit reference as well
_TRIPLES = ((3, 4, 5), (7, 24, 25), (44, 117, 125), (336, 527, 625))


def _f64(a):
    return np.vectorize(float, otypes=[float])(np.asarray(a, dtype=object))


def _decimal(q: Fraction) -> str:
    with localcontext() as ctx:
        ctx.prec = 60  # p 2^k / 5^m has at most ~15 significant digits: exact
        return str(Decimal(q.numerator) / Decimal(q.denominator))


@st.composite
def isotropic_data(draw):
    """X (n, d) with X^T X = s I exactly: a signed permutation times a Givens rotation by
    a Pythagorean angle, scaled by 2^k, padded with zero rows; entries as exact decimal
    strings.  y arbitrary."""
    d = draw(st.integers(1, 3))
    n = d + draw(st.integers(0, 2))
    perm = draw(st.permutations(range(d)))
    signs = draw(st.lists(st.sampled_from([-1, 1]), min_size=d, max_size=d))
    R = [[Fraction(signs[j]) if perm[j] == i else Fraction(0) for j in range(d)]
         for i in range(d)]  # fmt: skip
    if d >= 2:
        p, q, r = draw(st.sampled_from(_TRIPLES))
        i, j = draw(st.sampled_from([(i, j) for i in range(d) for j in range(d) if i < j]))
        G = [[Fraction(int(a == b)) for b in range(d)] for a in range(d)]
        G[i][i] = G[j][j] = Fraction(p, r)
        G[i][j], G[j][i] = Fraction(-q, r), Fraction(q, r)
        R = [[sum(G[a][c] * R[c][b] for c in range(d)) for b in range(d)] for a in range(d)]
    scale = Fraction(2) ** draw(st.integers(-3, 3))
    rows = R + [[Fraction(0)] * d for _ in range(n - d)]
    X = tuple(tuple(_decimal(v * scale) for v in row) for row in rows)
    y = tuple(draw(st.lists(st.floats(-3, 3), min_size=n, max_size=n)))
    return X, y


@st.composite
def problems(draw):
    X, y = draw(isotropic_data())
    d = len(X[0])
    eta_a = 10.0 ** draw(st.floats(-2, 2))
    eta_w = 10.0 ** draw(st.floats(-2, 2))
    scale = 10.0 ** draw(st.floats(-3, 1))
    a0 = scale * draw(st.floats(-1, 1).filter(lambda z: abs(z) > 1e-2))
    w0 = scale * np.array(draw(st.lists(st.floats(-1, 1), min_size=d, max_size=d)))
    setup = kunin.Setup(eta_a, eta_w, X, y)
    Xf = np.array(X, dtype=float)
    s = float(np.sum(Xf[:, 0] ** 2))
    beta_star = Xf.T @ np.array(y) / s
    rate = s * max(eta_a, eta_w) * max(1.0, np.linalg.norm(beta_star))
    t = draw(st.sampled_from([0.0, 0.1, 1.0, 10.0, 1000.0])) / rate
    return setup, a0, w0, t


def _state_error(f64, mp, setup):
    ea, ew = float(setup.eta_a), float(setup.eta_w)
    got = np.concatenate([[f64.a / math.sqrt(ea)], np.asarray(f64.w) / math.sqrt(ew)])
    ref = np.concatenate([[float(mp.a) / math.sqrt(ea)], _f64(mp.w) / math.sqrt(ew)])
    return relative_error(got, ref) if np.any(ref) else float(np.max(np.abs(got)))


@given(problems())
def test_float64_matches_30_digits(problem):
    setup, a0, w0, t = problem
    exact = kunin.closed_form(setup, a0, w0, dps=30)
    fast = kunin.closed_form(setup, a0, w0)
    f, m = fast.at(t), exact.at(t)
    assert _state_error(f, m, setup) <= RTOL
    bstar = float(np.linalg.norm(_f64(exact.beta_star)))
    ref_b = _f64(m.beta)
    assert np.max(np.abs(f.beta - ref_b)) <= RTOL * (np.max(np.abs(ref_b)) + bstar + EPS)
    # the conserved delta is reported from the initial weights (exact up to rounding)
    assert abs(f.delta - float(m.delta)) <= 4 * EPS * (
        float(setup.eta_w) * a0**2 + float(setup.eta_a) * w0 @ w0
    )


@pytest.mark.parametrize("case", kunin.CASES, ids=lambda c: c.name)
def test_suite_float64_matches_30_digits(case):
    times = [0.0, 0.1, 0.5, 2.0, 10.0, 100.0]
    fast = kunin.closed_form(case.setup, case.a0, case.w0).sample(times)
    exact = kunin.closed_form(case.setup, case.a0, case.w0, dps=30).sample(times)
    for k in range(len(times)):
        # measured <= 3.3e-15 (zero_target); RTOL as above
        assert _state_error(fast.at(k), exact.at(k), case.setup) <= RTOL
        assert abs(fast.loss[k] - float(exact.loss[k])) <= RTOL * (1 + float(exact.loss[k]))


@pytest.mark.parametrize("sign", [1, -1])
@pytest.mark.parametrize("exponent", [2, 5, 8, 12, 16, 30, 300])
def test_float64_is_continuous_through_balance(sign, exponent):
    """delta = +-10^-k (k up to 300, below any cancellation) against the balanced
    solution: the difference is O(delta) (first order in delta), and the float64 result
    at that delta matches the 30-digit one (no loss of accuracy as delta -> 0)."""
    base = next(c for c in kunin.CASES if c.name == "balanced")
    setup = base.setup  # eta_a = 1, eta_w = 0.5, a0 = 1, |w0|^2 = 0.5: delta = 0
    eps = sign * 10.0**-exponent
    with mpmath.workdps(400):
        # raise a0 so that eta_w a0^2 - eta_a |w0|^2 = eps exactly at 400 digits
        a0 = mpmath.sqrt((mpmath.mpf("0.5") + mpmath.mpf(eps)) / mpmath.mpf("0.5"))
        a0s = mpmath.nstr(a0, 380)
    times = [0.0, 0.3, 1.0, 5.0, 50.0]
    bal = kunin.closed_form(setup, base.a0, base.w0).sample(times)
    near = kunin.closed_form(setup, a0s, base.w0).sample(times)
    ref = kunin.closed_form(setup, a0s, base.w0, dps=30).sample(times)
    for k in range(len(times)):
        assert _state_error(near.at(k), ref.at(k), setup) <= RTOL
        # |d state / d delta| <= 10 on this case (measured 1.3 at t = 1): a first-order
        # change, plus float64 rounding of a0 (which carries eps only down to 1e-16)
        gap = _state_error(near.at(k), bal.at(k), setup)
        assert gap <= 10 * abs(eps) + 10 * EPS


@pytest.mark.parametrize(
    ("a0", "w0", "what"),
    [
        ("0", ("0", "0"), "origin: a saddle, stays"),
        ("0", ("0.3", "-0.2"), "a = 0: beta = 0 at t = 0, a grows"),
        ("0.7", ("0", "0"), "w = 0: beta = 0 at t = 0, w grows"),
    ],
)
def test_degenerate_starts_match_simulation(a0, w0, what):
    setup = kunin.CASES[0].setup
    times = [0.0, 0.5, 3.0]
    exact = kunin.closed_form(setup, a0, w0, dps=30).sample(times)
    sim = numerics.simulate(setup, a0, w0, times, method="mpmath", dps=30)
    for k, s in enumerate(sim):
        got = [s.a, *s.w]
        ref = [exact.a[k], *exact.w[k]]
        if all(v == 0 for v in ref):
            assert all(v == 0 for v in got), what
        else:
            # Taylor integrator at 50 digits, closed form at 40: 25 digits is dps - 5
            assert relative_error(got, ref) <= 1e-25, what


def test_zero_targets_decay_to_the_origin_or_a_balanced_rest():
    """y = 0 (beta* = 0): beta -> 0; with delta != 0 the larger layer keeps sqrt|delta|."""
    X = kunin.CASES[0].setup.X
    setup = kunin.Setup(1, 2, X, (0, 0, 0))
    late = kunin.closed_form(setup, "0.8", ("0.1", "0.3")).at(200.0)
    assert np.max(np.abs(late.beta)) < 1e-12  # exponential decay at rate >= delta'
    assert late.a**2 == pytest.approx(float(late.delta) / 2, rel=1e-12)


@pytest.mark.parametrize("case", kunin.CASES, ids=lambda c: c.name)
def test_scipy_simulation_matches_closed_form(case):
    times = [0.0, 0.5, 2.0, 10.0]
    sim = numerics.simulate(case.setup, case.a0, case.w0, times, method="scipy")
    exact = kunin.closed_form(case.setup, case.a0, case.w0).sample(times)
    for k, s in enumerate(sim):
        assert isinstance(s, kunin.State)
        # DOP853 at rtol 1e-13 over ~10 e-foldings: global error ~1e-12 of the state
        assert _state_error(s, exact.at(k), case.setup) <= 1e-10


def test_non_isotropic_inputs_are_refused_but_simulate():
    X = (("1", "0"), ("0", "2"), ("0", "0"))
    setup = kunin.Setup(1, 1, X, ("1", "1", "0"))
    with pytest.raises(ValueError, match=r"X\^T X = s I.*numerics.simulate"):
        kunin.closed_form(setup, 1, (0.1, 0.2))
    (s,) = numerics.simulate(setup, 1, (0.1, 0.2), [50.0], method="scipy")
    # converges to the least-squares solution beta* = (X^T X)^-1 X^T y = (1, 0.5)
    assert np.allclose(s.beta, [1.0, 0.5], rtol=1e-8)


def test_nearly_isotropic_inputs_are_refused_at_the_precision_asked():
    X = (("1", "0"), ("0", "1.000000000000000000001"), ("0", "0"))
    setup = kunin.Setup(1, 1, X, ("1", "1", "0"))
    kunin.closed_form(setup, 1, (0.1, 0.2))  # 1e-21 is below float64 resolution
    with pytest.raises(ValueError, match="isotropic"):
        kunin.closed_form(setup, 1, (0.1, 0.2), dps=30)


_X = (("0.6", "0.8"), ("-0.8", "0.6"))


@pytest.mark.parametrize(
    ("call", "exc", "message"),
    [
        (lambda: kunin.Setup(0, 1, _X, (1, 2)), ValueError, "eta_a"),
        (lambda: kunin.Setup(1, -1, _X, (1, 2)), ValueError, "eta_w"),
        (lambda: kunin.Setup(1, math.nan, _X, (1, 2)), ValueError, "eta_w"),
        (lambda: kunin.Setup(1, 1, _X, (1, 2, 3)), ValueError, "X must have shape"),
        (lambda: kunin.Setup(1, 1, (1, 2), (1, 2)), ValueError, "X must be a 2-d"),
        (lambda: kunin.Setup(1, 1, _X, (1, math.inf)), ValueError, "y"),
        (lambda: kunin.closed_form(kunin.Setup(1, 1, _X, (1, 2)), 1, (1,)), ValueError, "w0"),
        (lambda: kunin.closed_form(kunin.Setup(1, 1, _X, (1, 2)), math.nan, (1, 1)),
         ValueError, "a0"),
        (lambda: kunin.closed_form(kunin.Setup(1, 1, _X, (1, 2)), 1, (1, 1), dps=0),
         ValueError, "dps"),
        (lambda: kunin.closed_form(object(), 1, (1, 1)), TypeError, "kunin.Setup"),
        (lambda: kunin.closed_form(kunin.Setup(1, 1, _X, (1, 2)), 1, (1, 1)).at(-1),
         ValueError, "t"),
    ],
)  # fmt: skip
def test_bad_input(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


# ---------------------------------------------------------------------------
# the preconditioners and the erratum, through the public functions
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("erratum", kunin.errata(), ids=lambda e: e.equation)
def test_erratum_printed_form_is_false_and_the_module_form_true(erratum):
    printed, corrected = erratum.residuals()
    assert corrected == 0 and abs(float(printed)) > 1e-3
    assert erratum.check()


@pytest.mark.parametrize(
    ("eta_a", "eta_w"), [(2, 3), (2, sp.Rational(1, 2)), (sp.Rational(1, 3), 3), (5, 7)]
)
def test_balanced_m_erratum_residual_is_the_coefficient_gap(eta_a, eta_w):
    """Regime 2 erratum: on the balanced manifold M = sqrt(eta_a eta_w) |beta| (I + P), P =
    beta beta^T/|beta|^2 (the corrected form), so M - c (I + P) with the printed c =
    eta_a eta_w |beta| has squared entries summing to (eta_a eta_w - sqrt(eta_a eta_w))^2
    |beta|^2 |I + P|_F^2, |I + P|_F^2 = 1^2 + 2^2 = 5 (eigenvalues 1, 2): zero exactly when
    eta_a eta_w = 1; the corrected residual is 0.  Exact (sympy), at w = (1, 2): a =
    sqrt(eta_a/eta_w) |w| on the manifold, |beta|^2 = a^2 |w|^2 = (eta_a/eta_w) 25."""
    (erratum,) = [e for e in kunin.errata() if e.paper.startswith("M = eta_a eta_w ||beta||")]
    printed, corrected = erratum._residuals()
    names = {"eta_a": eta_a, "eta_w": eta_w, "w0": 1, "w1": 2}
    at = {x: names[x.name] for x in sp.sympify(printed).free_symbols}
    assert len(at) == 4  # the residual is a function of these four (no other free symbol)
    prod, beta2 = sp.sympify(eta_a) * eta_w, sp.sympify(eta_a) / eta_w * 25
    expected = 5 * beta2 * (prod - sp.sqrt(prod)) ** 2
    assert sp.simplify(printed.subs(at) - expected) == 0
    assert sp.simplify(sp.sympify(corrected).subs(at)) == 0


@given(
    a=st.floats(-3, 3).filter(lambda v: abs(v) > 1e-2),
    w=st.lists(st.floats(-3, 3), min_size=1, max_size=3).filter(lambda v: max(map(abs, v)) > 1e-2),
    eta=st.tuples(st.floats(0.1, 10), st.floats(0.1, 10)),
)
def test_preconditioner_of_beta_and_delta_is_the_weight_form(a, w, eta):
    """M(beta, delta) (generated lambda_1, lambda_2) at beta = a w, delta = balance(a, w)
    equals eta_w a^2 I + eta_a w w^T (normwise: lambda_1 = (sigma + delta)/2 cancels for
    delta << 0, relative to |M| it is a few roundings)."""
    ea, ew = eta
    w = np.array(w)
    M = kunin.weight_preconditioner(a, w, ea, ew)
    got = kunin.preconditioner(a * w, kunin.balance(a, w, ea, ew), ea, ew)
    assert relative_error(got, M) <= 64 * EPS


def test_preconditioner_at_two_precisions_and_its_validation():
    case = kunin.case("downstream")
    a, w = float(case.a0), np.array([float(v) for v in case.w0])
    args = (a * w, kunin.balance(a, w, 1.0, 0.5), 1.0, 0.5)
    lo, hi = kunin.preconditioner(*args), kunin.preconditioner(*args, dps=30)
    assert hi.dtype == object and relative_error(lo, hi) <= 16 * EPS  # same float64 inputs
    with pytest.raises(ValueError, match="dps"):
        kunin.preconditioner(*args, dps=0)


def test_wide_preconditioner_is_symmetric_and_positive_semidefinite():
    beta = np.array([[0.3, -0.2], [0.5, 0.1], [-0.4, 0.6]])
    for delta in (-0.7, 0.0, 0.6):
        left, right = kunin.wide_preconditioner(beta, delta, 1.0, 0.5)
        for m in (left, right):
            assert np.allclose(m, m.T, rtol=0, atol=8 * EPS)
            assert np.min(np.linalg.eigvalsh(m)) >= -8 * EPS


def test_ntk_is_the_gram_matrix_of_the_output_jacobian():
    """K = X M X^T equals sum_theta eta_theta (df/dtheta)(df/dtheta)^T, the NTK's definition,
    with df/dtheta from sympy's derivative of ``kunin.output`` (n = 3, d = 2)."""
    setup = kunin.case("upstream").setup
    F = kunin.flow(3, 2)
    a, w = F.block("a"), F.block("w")
    X = np.array(F.params[2:8]).reshape(3, 2)  # (eta_a, eta_w, X entries, y entries)
    f = kunin.output(a, w, X)
    rates = [F.params[0]] + [F.params[1]] * 2
    J = np.array([[sp.diff(fi, s) for s in F.state] for fi in f])
    K = (J * np.array(rates)) @ J.T
    at = {
        F.state[0]: sp.Rational("1.2"),
        F.state[1]: sp.Rational("0.2"),
        F.state[2]: sp.Rational("0.3"),
        F.params[0]: 1,
        F.params[1]: sp.Rational("0.5"),
        **{x: sp.Rational(v) for x, v in zip(X.ravel(), np.ravel(setup.X), strict=True)},
    }
    ref = np.vectorize(lambda e: float(e.subs(at)), otypes=[float])(K)
    got = kunin.ntk(1.2, np.array([0.2, 0.3]), np.array(setup.X, dtype=float), 1.0, 0.5)
    assert relative_error(got, ref) <= 8 * EPS


@pytest.mark.parametrize("dps", [20, 45])
def test_mpmath_states_are_rounded_to_dps_digits(dps):
    """At ``dps`` digits the states are evaluated with guard digits and rounded once to
    ``dps`` digits (Trajectory's docstring: "the rounded result keeps dps digits"): each of
    a, w, beta and the loss is a number of ``dps`` digits (rounding it again at ``dps``
    leaves it unchanged), and at least one is not one of ``dps - 5`` digits (the rounding
    is to ``dps``, not fewer).  Seed-4 mutant kunin.py:1182 (``is not None`` -> ``is None``)
    returned the guard digits unrounded."""
    case = kunin.case("downstream")
    states = kunin.closed_form(case.setup, case.a0, case.w0, dps=dps).sample([0.3, 2.0])
    values = [*states.a, *np.ravel(states.w), *np.ravel(states.beta), *states.loss]
    assert all(isinstance(z, mpmath.mpf) for z in values)
    with mpmath.workdps(dps):
        assert all(+z == z for z in values)
    with mpmath.workdps(dps - 5):
        assert any(+z != z for z in values)


def test_high_dps_trajectories_keep_their_digits_where_refined():
    """At dps = 100 the states keep 100 digits, also at a time where the trajectory is
    refined with more digits (t = 30: e^{-Omega t} needs them) and with an isotropy
    constant that is not a binary fraction (X = 0.3 I: s = 0.09): against dps = 140, 1e-98
    relative (10 units in the 100th digit).  Seed-4 mutant kunin.py:1699 computed the
    refinement's isotropy constant at dps - 20 digits (80 kept: 8.6e-83 at t = 30)."""
    setup = kunin.Setup(eta_a="1", eta_w="0.5", X=(("0.3", "0"), ("0", "0.3")), y=("0.7", "-0.2"))
    a = kunin.closed_form(setup, "0.4", ("0.3", "0.1"), dps=100).sample([0.5, 30.0])
    b = kunin.closed_form(setup, "0.4", ("0.3", "0.1"), dps=140).sample([0.5, 30.0])
    with mpmath.workdps(150):
        for k in range(2):
            got = [a.a[k], *a.w[k], a.loss[k]]
            want = [b.a[k], *b.w[k], b.loss[k]]
            err = max(abs(x - y) / abs(y) for x, y in zip(got, want, strict=True))
            assert err < mpmath.mpf("1e-98"), (k, mpmath.nstr(err, 3))
