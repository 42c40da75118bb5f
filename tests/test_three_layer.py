"""Seed 004 (three-layer ReLU phase diagram), Sections 3-4: the rescaling proof (6)-(8),
its mutations, Table 1 against the paper's printed cells, the exponents (9) and input
errors.  Everything is exact (sympy); no tolerances are involved.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import assume, given
from hypothesis import strategies as st

from solvable import theorems
from solvable import three_layer as tl

M, M1, M2, D = tl.M, tl.M1, tl.M2, tl.D
A, B1, B2, B3 = tl.ALPHA, tl.B1, tl.B2, tl.B3

# The paper's Table 1 as printed (transcribed here independently of the module):
# name -> (kappa_2, kappa_3, gamma_2, gamma_3)
PAPER_TABLE_1 = {
    "NTK": (1, sp.sqrt(1 / (M1 * M2)), 0, 1),
    "LeCun": (sp.sqrt(D / M2), sp.sqrt(1 / (M1 * M2 * D)), sp.Rational(1, 2), 1),
    "He": (sp.sqrt(D / M2), sp.sqrt(8 / (M1 * M2 * D)), sp.Rational(1, 2), 1),
    "Xavier": (
        sp.sqrt((D + M1) / (M2 + 1)),
        sp.sqrt((8 / (M1 + M2)) / ((M2 + 1) * (D + M1))),
        0,
        sp.Rational(3, 2),
    ),
}
# Table 2 as printed: (alpha, a, W2, W1) exponents of m and (gamma_2, gamma_3)
PAPER_TABLE_2 = [
    (("-1/2", "-8/15", "-8/15", "-8/15"), ("0", "1.1")),
    (("0", "-11/30", "-11/30", "-11/30"), ("0", "1.1")),
    (("1/2", "-1/5", "-1/5", "-1/5"), ("0", "1.1")),
    (("-3/10", "-7/6", "-7/6", "-7/15"), ("0.7", "2.5")),
    (("0", "-16/15", "-16/15", "-11/30"), ("0.7", "2.5")),
    (("3/10", "-29/30", "-29/30", "-4/15"), ("0.7", "2.5")),
]


def _value_at_point(residuals, act=None):
    """Residuals at an exact rational point with every weight and input positive, so every
    ReLU unit is active (sigma = identity, sigma' = 1), or with the activation ``act``."""
    z = sp.Symbol("z")
    act = act or sp.Lambda(z, z)
    dact = sp.Lambda(z, sp.diff(act(z), z))
    out = []
    for r in residuals:
        r = r.replace(tl.sigma, act).replace(tl.sigma_prime, dact)
        syms = sorted(r.free_symbols, key=lambda s: s.name)
        point = {s: sp.Rational(k + 2, k + 3) if not s.name.startswith("y") else -1
                 for k, s in enumerate(syms)}  # fmt: skip
        out.append(sp.expand(r.subs(point)))  # exact: every symbol is a rational
    return out


# ---------------------------------------------------------------------------
# claims and errata
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("thm", theorems.select("three_layer.*"), ids=lambda t: t.id)
def test_claims_proved(thm):
    v = thm.verify()
    assert v.status == "proved", v.detail
    assert thm.source.startswith(tl.SEED)


@pytest.mark.parametrize("err", tl.errata(), ids=lambda e: e.equation)
def test_errata_checks(err):
    printed, corrected = err.residuals()
    assert corrected == 0
    assert printed != 0
    assert err.check()


# ---------------------------------------------------------------------------
# the rescaling proof and its mutations
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("m,d,n", [(1, 1, 1), (2, 1, 2), (1, 3, 2), (2, 2, 1)])
def test_rescaling_residuals_vanish(m, d, n):
    res = tl.rescaling_residuals(m, d, n)
    assert len(res) == m + m * m + m * d + n  # every component of the field, plus f
    assert all(sp.simplify(r) == 0 for r in res)


@pytest.mark.parametrize("m,d,n", [(1, 1, 1), (2, 1, 2), (1, 2, 2)])
def test_eq5_is_gradient(m, d, n):
    assert all(sp.simplify(r) == 0 for r in tl.gradient_flow_residuals(m, d, n))


def _k(k1=None, k2=None, k3=None):
    def fn(a, b1, b2, b3):
        base = tl.kappas(a, b1, b2, b3)
        return tuple(f(a, b1, b2, b3) if f else b for f, b in zip((k1, k2, k3), base, strict=True))

    return fn


MUTATIONS = {
    "time t/beta_3": {"time_fn": lambda a, b1, b2, b3: 1 / b3},
    "time t/beta_3^3": {"time_fn": lambda a, b1, b2, b3: b3**-3},
    "time exponent -1/3": {"time_fn": lambda a, b1, b2, b3: (a * b3**3 / a) ** sp.Rational(-1, 3)},
    "kappa_1 = beta_2/beta_3": {"kappa_fn": _k(k1=lambda a, b1, b2, b3: b2 / b3)},
    "kappa_2 = beta_3/beta_2": {"kappa_fn": _k(k2=lambda a, b1, b2, b3: b3 / b2)},
    "kappa_3 = beta_1 beta_2 beta_3 alpha": {
        "kappa_fn": _k(k3=lambda a, b1, b2, b3: b1 * b2 * b3 * a)
    },
    "no homogeneity (generic sigma)": {"homogeneous": False},
}


@pytest.mark.parametrize("mutation", MUTATIONS, ids=str)
def test_mutations_break_the_proof(mutation):
    """Each mutation leaves a non-zero exact residual at a rational point (all units active;
    for the generic-sigma mutation the non-homogeneous sigma(z) = z + z^2), while the
    unmutated residuals vanish at the same point."""
    z = sp.Symbol("z")
    act = sp.Lambda(z, z + z**2) if "homogeneity" in mutation else None
    mutated = _value_at_point(tl.rescaling_residuals(2, 1, 1, **MUTATIONS[mutation]), act)
    assert all(v.is_Rational for v in mutated) and any(v != 0 for v in mutated)
    assert all(v == 0 for v in _value_at_point(tl.rescaling_residuals(2, 1, 1)))


def test_time_factor_is_beta3_to_minus_2():
    assert sp.simplify(tl.time_factor(A, B1, B2, B3) - B3**-2) == 0
    # numeric scales: (alpha k1 k2 k3)^(-2/3) at alpha = 2, beta = (3, 5, 7)
    assert tl.time_factor(2, 3, 5, 7) == sp.Rational(1, 49)


rationals = st.fractions(min_value=-3, max_value=3, max_denominator=7)
positive = st.fractions(min_value=Fraction(1, 5), max_value=5, max_denominator=7)


@st.composite
def relu_points(draw):
    m, d, n = draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    a = draw(st.lists(rationals, min_size=m, max_size=m))
    W2 = [draw(st.lists(rationals, min_size=m, max_size=m)) for _ in range(m)]
    W1 = [draw(st.lists(rationals, min_size=d, max_size=d)) for _ in range(m)]
    X = [draw(st.lists(rationals, min_size=d, max_size=d)) for _ in range(n)]
    y = draw(st.lists(rationals, min_size=n, max_size=n))
    alpha = draw(positive)
    betas = draw(st.lists(positive, min_size=3, max_size=3))
    return a, W2, W1, X, y, alpha, betas


@given(relu_points())
def test_relu_rescaling_exact_at_rational_points(point):
    """The true ReLU (max(0, z), Heaviside), mixed activation patterns: exactly 0."""
    try:
        res = tl.relu_rescaling_residuals(*point)
    except ValueError as exc:  # a pre-activation exactly 0: sigma'(0) undefined
        assume("pre-activation" not in str(exc))
        raise
    assert all(r == 0 for r in res)


def test_relu_point_with_inactive_units():
    # unit 0 of layer 1 inactive (W1 x < 0), unit 1 of layer 2 inactive
    res = tl.relu_rescaling_residuals(
        [1, -2], [[1, 2], [-3, -1]], [[-1, 1], [2, 1]], [[1, 0], [1, 2]], [1, -1], 3, [2, 5, 7]
    )
    assert res and all(r == 0 for r in res)


# ---------------------------------------------------------------------------
# Table 1, Table 2 and the exponents (9)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", PAPER_TABLE_1)
def test_table_1_matches_printed_cells(name):
    row = next(r for r in tl.table_1() if r["name"] == name)
    k2p, k3p, g2p, g3p = PAPER_TABLE_1[name]
    # kappas are positive: equal iff their squares agree as rational functions
    assert sp.cancel(row["kappa_2"] ** 2 - sp.sympify(k2p) ** 2) == 0
    assert sp.cancel(row["kappa_3"] ** 2 - sp.sympify(k3p) ** 2) == 0
    assert row["gamma_2"] == g2p
    assert row["gamma_3"] == g3p
    assert row["gamma_1"] == 0


def test_table_1_rows_and_format():
    rows = tl.table_1()
    assert [r["name"] for r in rows] == list(PAPER_TABLE_1)
    for r in rows:
        assert {"alpha", "beta_1", "beta_2", "beta_3", "kappa_2", "kappa_3", "gamma_2",
                "gamma_3"} <= r.keys()  # fmt: skip
        # computed from the functions, not copied
        k3 = tl.kappas(r["alpha"], r["beta_1"], r["beta_2"], r["beta_3"])[2]
        assert sp.simplify(k3 - r["kappa_3"]) == 0
        assert r["gamma_3"] == tl.exponent(k3)
    text = tl.format_table_1()
    for name in PAPER_TABLE_1:
        assert name in text
    assert "3/2" in text and "1/2" in text


@pytest.mark.parametrize("row", PAPER_TABLE_2, ids=str)
def test_table_2_coordinates(row):
    (ea, e3, e2, e1), (g2, g3) = row
    q = sp.Rational
    g = tl.gamma_coordinates(M ** q(ea), M ** q(e1), M ** q(e2), M ** q(e3))
    assert g == (0, q(g2), q(g3))


@given(
    p=st.fractions(min_value=-3, max_value=3, max_denominator=12),
    q=st.fractions(min_value=-2, max_value=2, max_denominator=5),
    c=positive,
    shift=st.integers(0, 5),
)
def test_exponent_of_power_laws(p, q, c, shift):
    """-log(kappa)/log(m) -> p for kappa = c (m + shift)^-p d^q (d fixed)."""
    k = sp.Rational(c.numerator, c.denominator) * (M + shift) ** (-sp.Rational(p.numerator,
          p.denominator)) * D ** sp.Rational(q.numerator, q.denominator)  # fmt: skip
    assert tl.exponent(k) == sp.Rational(p.numerator, p.denominator)


@given(
    s=st.fractions(min_value=-2, max_value=2, max_denominator=6),
    e=st.lists(st.fractions(min_value=-2, max_value=2, max_denominator=6), min_size=4,
               max_size=4),
)  # fmt: skip
def test_gammas_invariant_under_joint_rescaling(s, e):
    """alpha -> m^(3s) alpha, beta_i -> m^s beta_i leaves every kappa, hence every gamma,
    unchanged; gamma_3 = -e_alpha + e_1 + e_2 + e_3 exponent-wise."""
    q = [sp.Rational(x.numerator, x.denominator) for x in e]
    sr = sp.Rational(s.numerator, s.denominator)
    base = tl.gamma_coordinates(*(M**x for x in q))
    moved = tl.gamma_coordinates(M ** (q[0] + 3 * sr), *(M ** (x + sr) for x in q[1:]))
    assert base == moved
    assert base == (q[2] - q[3], q[1] - q[3], -(q[1] + q[2] + q[3] - q[0]))


def test_float_and_fraction_inputs_are_exact():
    assert tl.kappas(0.5, Fraction(1, 3), 2, sp.Rational(1, 4)) == (
        sp.Rational(1, 8), sp.Rational(3, 4), sp.Rational(1, 3)
    )  # fmt: skip
    # a user's own symbol named m is matched by name
    assert tl.exponent(1 / sp.Symbol("m")) == 1


@pytest.mark.parametrize(
    "slope,expected",
    [(-0.41, "linear"), (0, "critical"), (sp.Rational(1, 40), "condensed"),
     (Fraction(-1, 2), "linear")],
)  # fmt: skip
def test_regime_from_slope(slope, expected):
    assert tl.regime_from_slope(slope) == expected


# ---------------------------------------------------------------------------
# bad inputs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "call,exc,match",
    [
        (lambda: tl.kappas(0, 1, 1, 1), ValueError, "alpha must be > 0"),
        (lambda: tl.kappas(1, -2, 1, 1), ValueError, "beta_1 must be > 0"),
        (lambda: tl.kappas(1, 1, -M, 1), ValueError, "beta_2 must be > 0"),
        (lambda: tl.kappas(1, 1, 1, "1"), TypeError, "beta_3 must be"),
        (lambda: tl.kappas(True, 1, 1, 1), TypeError, "alpha"),
        (lambda: tl.kappas(1, 1, 1, sp.Symbol("q")), ValueError, "not allowed"),
        (lambda: tl.kappas(float("nan"), 1, 1, 1), ValueError, "alpha"),
        (lambda: tl.exponent(sp.exp(M)), ValueError, "power-law"),
        (lambda: tl.exponent(sp.Symbol("B", positive=True) * 0), ValueError, "kappa must be > 0"),
        (lambda: tl.rescaling_residuals(0), ValueError, r"m must be in \[1, 4\]"),
        (lambda: tl.rescaling_residuals(2, 5), ValueError, "d must be in"),
        (lambda: tl.rescaling_residuals(2, 2, 1.5), TypeError, "n must be an int"),
        (lambda: tl.gradient_flow_residuals(True), TypeError, "m must be an int"),
        (lambda: tl.regime_from_slope(float("inf")), ValueError, "slope must be finite"),
        (lambda: tl.regime_from_slope("0.1"), TypeError, "slope must be a real number"),
        (lambda: tl.InitScheme("", 1, 1, 1, 1), ValueError, "name"),
        (lambda: tl.InitScheme("x", 1, 1, 0, 1), ValueError, "beta_2 must be > 0"),
        (
            lambda: tl.relu_rescaling_residuals([1], [[1]], [[1]], [[0]], [1], 1, [1, 1, 1]),
            ValueError,
            "pre-activation is exactly 0",
        ),
        (
            lambda: tl.relu_rescaling_residuals([1, 1], [[1]], [[1]], [[1]], [1], 1, [1, 1, 1]),
            ValueError,
            "shapes",
        ),
        (
            lambda: tl.relu_rescaling_residuals([1], [[1]], [[1]], [[1]], [1], M, [1, 1, 1]),
            ValueError,
            "numbers",
        ),
    ],
)
def test_bad_inputs(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
