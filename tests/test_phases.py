"""solvable.phases (seed 001, Section 3): the public phase function, exact arithmetic over
every input type, the corollaries as properties over random exponents, Table 1, the
moments of P and Q (symbolic, and by Monte Carlo), and input errors."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from solvable import phases
from solvable.phases import Scaling, xu_ziyin_phase

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


@given(_qd, _q, _q, _q, _q, _q, st.booleans())
def test_phase_agrees_with_its_definition(c_d, c_gamma, c_u, c_w, c_eu, c_ew, zero):
    """An independent restatement of Theorem 2 / eq. (28) in Fractions."""
    a = 2 * c_gamma + c_eu + c_ew
    b = 2 * c_gamma + c_d + max(c_ew + c_u, c_eu + c_w)
    pq = c_d > 0 or zero or c_u + c_ew != c_w + c_eu
    expect = (
        "unstable" if max(a, b) > 0 else "frozen" if max(a, b) < 0
        else "kernel" if (b > a and pq) else "feature learning"
    )  # fmt: skip
    assert xu_ziyin_phase(c_d, c_gamma, c_u, c_w, c_eu, c_ew, zero_initial_output=zero) == expect
    # t_c ~ kappa^e: e = 0 exactly when learning, and of the right sign otherwise
    e = Scaling(c_d, c_gamma, c_u, c_w, c_eu, c_ew).t_c_exponent
    assert (e > 0) == (expect == "frozen") and (e < 0) == (expect == "unstable")


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
    monkeypatch.setattr(phases, "TABLE_1_COLUMNS", tuple(cols))
    verdict = phases._table_1()
    assert verdict.status == "failed" and "NTK c_eta: kernel vs printed learning" in verdict.detail


def test_cli_prints_the_tables(capsys):
    from solvable.cli import main

    assert main(["phases"]) == 0
    out = capsys.readouterr().out
    assert "Seed 001 Table 1" in out and "mean field" in out
