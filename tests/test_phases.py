"""solvable.models.phases (seed 001, Section 3): the public phase function, exact arithmetic over
every input type, the corollaries as properties over random exponents, Table 1, the
moments of P and Q (symbolic, and by Monte Carlo), and input errors."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core.backends import generate
from solvable.models import phases
from solvable.models import xu_ziyin as xz
from solvable.models.phases import Scaling, xu_ziyin_phase
from solvable.models.phases import claim_checks as phases_claims
from solvable.models.phases import table as phases_table

# exponents: rationals with small denominators in [-3, 3] (c_d >= 0)
_q = st.fractions(min_value=-3, max_value=3, max_denominator=6)
_qd = st.fractions(min_value=0, max_value=3, max_denominator=6)


def test_the_four_phases_and_the_papers_examples():
    assert xu_ziyin_phase(1, Fraction(-1, 2), 0, 0, 0, 0) == "kernel"  # NTK
    assert xu_ziyin_phase(1, -1, 0, 0, 0, 0) == "frozen"  # mean field, c_eta = 0
    assert xu_ziyin_phase(1, -1, 0, 0, 1, 1) == "feature learning"  # mean field, c_eta = 1
    assert xu_ziyin_phase(1, 0, 0, -1, 0, 0) == "unstable"  # Kaiming, c_eta = 0
    # Chizat et al. (c_gamma = 1, c_eta = -2, c_u = c_w = 0, fixed d): kernel only from a
    # zero initial output (case 2 of eq. (29)); balanced and finite: feature learning
    assert xu_ziyin_phase(0, 1, 0, 0, -2, -2, zero_initial_output=True) == "kernel"
    assert xu_ziyin_phase(0, 1, 0, 0, -2, -2) == "feature learning"
    # case 3: finite d, c_u + c_eta_w != c_w + c_eta_u
    # (a = -3, b = 0)
    assert xu_ziyin_phase(0, Fraction(1, 2), 1, 0, -2, -2) == "kernel"
    assert Scaling(0, Fraction(1, 2), 1, 0, -2, -2).p_over_q_case == 3


@pytest.mark.parametrize(
    "half", [Fraction(1, 2), sp.Rational(1, 2), 0.5, np.float64(0.5), sp.Integer(1) / 2]
)
def test_exponent_types_are_exact(half):
    assert xu_ziyin_phase(1, -half, 0, 0, 0, 0) == "kernel"
    s = Scaling(1, -half, 0, 0, 0, 0)
    assert s.c_gamma == sp.Rational(-1, 2) and isinstance(s.c_gamma, sp.Rational)


def test_exactness_at_a_boundary():
    """a = b = 0 exactly (feature learning); thirds are not floats."""
    third = Fraction(1, 3)
    # a = 2 c_gamma + 2 c_eta = 0, b = 2 c_gamma + c_d + c_eta + max(c_u, c_w) = 0
    assert xu_ziyin_phase(third, -third, 0, -1, third, third) == "feature learning"
    r = sp.Rational(1, 3)
    assert xu_ziyin_phase(r, -r, 0, -1, r, r) == "feature learning"
    # 2 c_gamma + c_eta_u + c_eta_w in floats would not cancel exactly in general; here
    # the exact binary values are kept, so the verdict is that of the numbers given
    assert Scaling(third, -third, 0, -1, third, third).second_term == 0
    # 1/3 as a float is not 1/3: its exact binary value breaks the tie, as it should
    assert Scaling(1, -1 / 3, 0, -1, 1 / 3, 1 / 3).c_gamma != sp.Rational(-1, 3)


@given(_qd, _q, _q, _q)
def test_corollary_1_gives_learning_time_of_order_one(c_d, c_gamma, c_u, c_w):
    c_eta = min(-c_gamma, -2 * c_gamma - c_d - max(c_u, c_w))
    s = Scaling(c_d, c_gamma, c_u, c_w, c_eta, c_eta)
    assert s.t_c_exponent == 0
    assert s.phase in ("kernel", "feature learning")


@given(_qd, _q, _q, st.fractions(min_value=0, max_value=3, max_denominator=6))
def test_corollary_2_gives_feature_learning(c_d, c_u, c_w, slack):
    c_eta = c_d + max(c_u, c_w) + slack
    assert xu_ziyin_phase(c_d, -c_eta, c_u, c_w, c_eta, c_eta) == "feature learning"


@given(st.fractions(min_value=Fraction(1, 6), max_value=3, max_denominator=6), _q, _q,
       st.fractions(min_value=Fraction(1, 6), max_value=3, max_denominator=6))  # fmt: skip
def test_corollary_3_gives_the_kernel_phase(c_d, c_u, c_w, slack):
    c_eta = c_d + max(c_u, c_w) - slack  # c_eta < c_d + M; c_d > 0 gives P/Q -> 1
    c_gamma = -(c_d + max(c_u, c_w) + c_eta) / 2
    assert xu_ziyin_phase(c_d, c_gamma, c_u, c_w, c_eta, c_eta) == "kernel"


@functools.cache
def _mean_p():
    m = phases.p_q_moments()
    args = (m["eta_u"], m["eta_w"], m["sigma_u"], m["sigma_w"])
    return generate(args, m["mean_P"], "mpmath")


def _measured(c_d, c_gamma, c_u, c_w, c_eu, c_ew, log10_kappa):
    """t_c and alpha_+ of Theorem 1 (xu_ziyin.constants, 30 digits) with every
    hyperparameter a power of kappa = 10**log10_kappa, x = y = 1 and P = Q = E[P] under
    Gaussian initialisation (phases.p_q_moments)."""
    with mpmath.workdps(40):

        def power(c):
            return mpmath.mpf(10) ** (log10_kappa * mpmath.mpf(c.numerator) / c.denominator)

        eta_u, eta_w, gamma = power(c_eu), power(c_ew), power(c_gamma)
        P = _mean_p()(eta_u, eta_w, mpmath.sqrt(power(c_u)), mpmath.sqrt(power(c_w)))
        d = int(mpmath.nint(power(c_d)))
        out = xz.constants(eta_u, eta_w, gamma, 1, 1, d, P, P, dps=30)
    return out["t_c"], out["alpha_plus"]


@settings(max_examples=30, deadline=None)
@given(_qd, _q, _q, _q, _q, _q, st.booleans())
def test_phase_agrees_with_the_closed_form_at_large_kappa(c_d, c_gamma, c_u, c_w, c_eu, c_ew, zero):
    """Scaling's exponents and phase against the model of Section 2 evaluated at kappa =
    1e1200 and 1e2400 (nothing retyped: xu_ziyin.constants on the hyperparameters; the
    exponents drawn have denominators <= 6, so a and 2b are multiples of 1/60):
    * the measured exponent of t_c is Scaling.t_c_exponent (the subdominant term of D^2
      changes the slope by at most kappa^(-1/60) = 1e-20);
    * alpha_+ -> 1 (P = Q, so the NTK does not move, eq. (49)) exactly when a < 2 b: then
      |alpha_+ - 1| ~ kappa^((a - 2b)/2) <= 1e-20, else it is >= sqrt(2) - 1 or grows;
    * the phase: unstable / frozen by the sign of the t_c exponent, else kernel exactly when
      alpha_+ -> 1 and eq. (29) has a case, else feature learning."""
    s = Scaling(c_d, c_gamma, c_u, c_w, c_eu, c_ew, zero_initial_output=zero)
    t1, _ = _measured(c_d, c_gamma, c_u, c_w, c_eu, c_ew, 1200)
    t2, ap = _measured(c_d, c_gamma, c_u, c_w, c_eu, c_ew, 2400)
    with mpmath.workdps(30):
        slope = mpmath.log(t2 / t1) / (1200 * mpmath.log(10))
        kernel_like = abs(ap - 1) < mpmath.mpf(10) ** -6
    assert abs(slope - float(s.t_c_exponent)) < 1e-9, (slope, s.t_c_exponent)
    assert kernel_like == (s.first_term < 2 * s.second_term)
    if s.t_c_exponent > 0:
        assert s.phase == "frozen"
    elif s.t_c_exponent < 0:
        assert s.phase == "unstable"
    elif kernel_like and s.p_over_q_case is not None:
        assert s.phase == "kernel"
    else:
        assert s.phase == "feature learning"


def test_exponents_are_one_set_of_expressions():
    """Scaling evaluates phases.exponents() (the expressions the claims prove)."""
    ex = phases.exponents()
    s = Scaling(1, Fraction(-1, 2), Fraction(1, 3), 0, 2, -1)
    values = dict(zip(phases.EXPONENT_SYMBOLS, (1, sp.Rational(-1, 2), sp.Rational(1, 3), 0, 2,
                                                -1), strict=True))  # fmt: skip
    for name, attr in (("a", "first_term"), ("b", "second_term"), ("m", "pq_exponent"),
                       ("t_c", "t_c_exponent")):  # fmt: skip
        assert getattr(s, attr) == ex[name].subs(values) == s.exponent(name)


@pytest.mark.parametrize("which", ["b drops c_gamma", "a halved", "a doubled"])
def test_exponent_claim_fails_on_a_wrong_exponent(monkeypatch, which):
    """phases.eq_28_exponents derives a, b, m from the model's coefficients: an exponent that
    drops the factor 2 of c_gamma in b (the printed kernel condition) fails it, and so does
    an exponent a of B^2 off by a factor (a residual that is a difference, not a remainder:
    B^2's exponent is a multiple of a / 2)."""
    real = phases.exponents()
    wrong = dict(real)
    c_gamma = phases.EXPONENT_SYMBOLS[1]
    wrong.update({"b drops c_gamma": {"b": real["b"] - c_gamma}, "a halved": {"a": real["a"] / 2},
                  "a doubled": {"a": 2 * real["a"]}}[which])  # fmt: skip
    monkeypatch.setattr(phases_claims, "exponents", lambda: wrong)
    assert phases_claims._eq_28_exponents().status == "failed"


def test_table_1_is_reproduced_cell_by_cell():
    rows = phases.table_1()
    assert len(rows) == 20
    for r in rows:
        short = "learning" if r["phase"] == "feature learning" else r["phase"]
        assert short == r["printed"], r
    text = phases.format_table_1()
    assert "!" not in text and text.count("kernel") == 9  # the printed table has 9 kernels


def test_moments_of_p_and_q_by_monte_carlo():
    """E[P] and Var P (Section 3) from 20000 draws of d = 8 neurons, d0 = 3, rho = ||x||.
    Standard errors: the mean of P over N draws has sd sqrt(Var P / N); the sample variance
    has relative sd ~ sqrt((kurtosis - 1)/N) <= sqrt(8/N) for P (a scaled chi^2_8/8, excess
    kurtosis 12/8); both checked within 5 standard errors (false alarm ~ 6e-7)."""
    rng = np.random.default_rng(0)
    N, d, d0 = 20000, 8, 3
    eta_u, eta_w, s_u, s_w = 0.7, 1.9, 0.8, 1.3
    x = np.array([0.5, -1.2, 2.0])
    rho = np.linalg.norm(x)
    u = rng.normal(0, s_u, size=(N, d))
    W = rng.normal(0, s_w, size=(N, d, d0))
    v = W @ x
    p = (np.sqrt(eta_u) * v / rho + np.sqrt(eta_w) * u) / 2
    P = (p**2).mean(1)
    m = phases.p_q_moments()
    sub = {m["eta_u"]: eta_u, m["eta_w"]: eta_w, m["sigma_u"]: s_u, m["sigma_w"]: s_w, m["d"]: d}
    mean, var = float(m["mean_P"].subs(sub)), float(m["var_P"].subs(sub))
    assert abs(P.mean() - mean) <= 5 * math.sqrt(var / N)
    assert abs(P.var() / var - 1) <= 5 * math.sqrt(8 / N)


@pytest.mark.parametrize(
    ("args", "exc", "message"),
    [
        ((-1, 0, 0, 0, 0, 0), ValueError, "c_d must be >= 0"),
        ((1, math.nan, 0, 0, 0, 0), ValueError, "c_gamma must be finite"),
        ((1, math.inf, 0, 0, 0, 0), ValueError, "c_gamma must be finite"),
        ((1, 0, "1", 0, 0, 0), TypeError, "c_u must be an int"),
        ((1, 0, 0, True, 0, 0), TypeError, "c_w must be a number"),
        ((1, 0, 0, 0, sp.sqrt(2), 0), ValueError, "c_eta_u must be a rational"),
        ((1, 0, 0, 0, 0, sp.Symbol("c")), ValueError, "c_eta_w must be a rational"),
    ],
)
def test_bad_input(args, exc, message):
    with pytest.raises(exc, match=message):
        xu_ziyin_phase(*args)


def test_bad_flag_and_convention():
    with pytest.raises(TypeError, match="zero_initial_output must be a bool"):
        Scaling(1, 0, 0, 0, 0, 0, zero_initial_output=1)
    with pytest.raises(ValueError, match="rho_convention"):
        phases.p_q_moments("rms")


def test_table_claim_fails_on_a_wrong_cell(monkeypatch):
    from dataclasses import replace

    cols = list(phases.TABLE_1_COLUMNS)
    cols[0] = replace(cols[0], printed=("learning", *cols[0].printed[1:]))
    monkeypatch.setattr(phases_table, "TABLE_1_COLUMNS", tuple(cols))
    verdict = phases_claims._table_1()
    assert verdict.status == "failed" and "NTK c_eta: kernel vs printed learning" in verdict.detail


def test_cli_prints_the_tables(capsys):
    from solvable.verification.cli import main

    assert main(["phases"]) == 0
    out = capsys.readouterr().out
    assert "Seed 001 Table 1" in out and "mean field" in out


@pytest.mark.parametrize("which", [1, 2, 3])
def test_corollaries_cover_equal_initial_scales(monkeypatch, which):
    """Corollaries 1-3 split on c_u >= c_w and c_u < c_w: the first case includes c_u = c_w
    (its gap r >= 0, not r > 0). A statement made false exactly at c_u = c_w (1 added to
    the exponent a there) must not be proved; as it stands each corollary is (a strict gap
    proved it all the same: a seed-20 survivor)."""
    assert phases_claims._corollary(which).status == "proved"
    real = phases_claims._terms

    def planted(c_d, c_gamma, c_u, c_w, c_eta):
        S = real(c_d, c_gamma, c_u, c_w, c_eta)
        return {**S, "a": S["a"] + sp.Piecewise((1, sp.Eq(c_u, c_w)), (0, True))}

    monkeypatch.setattr(phases_claims, "_terms", planted)
    assert phases_claims._corollary(which).status != "proved"
