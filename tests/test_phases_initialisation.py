"""Seed 001 Section 3.2 / Appendix B.4 (solvable.models.phases.initialisation_phase) and the errata
added with it (issue 16, item 3): the exact function over rational c_w, its agreement with
the closed form of Theorem 1 at kappa = 1e300 and 1e600, the moments of P - Q by Monte
Carlo, bad input, and that every new claim is proved and every new erratum checks."""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core.backends import generate
from solvable.models import phases
from solvable.models import xu_ziyin as xz
from solvable.models.phases import Scaling, initialisation_phase, section_3_2_scaling
from solvable.models.phases import claim_checks as phases_claims
from solvable.models.phases import section_3_2 as phases_s32
from solvable.verification import errata, theorems

# c_w: rationals with denominators <= 6 in [-3, 3]; a non-zero one has |c_w| >= 1/6
_cw = st.fractions(min_value=-3, max_value=3, max_denominator=6)

NEW_CLAIMS = ("phases.output_exponent", "phases.section_3_2", "phases.p_minus_q_moments")
NEW_ERRATA = (
    "Section 3.2 (initial output)",
    "Section 3.2 (phase)",
    "Appendix B.4 (gamma)",
    "Appendix B.4 (sigma_u, sigma_w)",
    "Table 1 (lazy column, c_eta^* and c_eta^- blocks)",
    "(19) and the limit after it",
    "(21) (x < 0)",
    "(2.24)",
)


def _check_exact(c_w: Fraction) -> None:
    r = initialisation_phase(c_w)
    z = initialisation_phase(c_w, zero_initial_output=True)
    c = sp.Rational(c_w.numerator, c_w.denominator)
    assert r.c_w == c and isinstance(r.c_w, sp.Rational)
    assert r.scaling == section_3_2_scaling(c_w) and r.scaling.c_d == 0
    # what Section 3.2 gets right: (28) for every c_w, (30) iff c_w > 0
    assert r.eq_28 and z.eq_28 and r.scaling.t_c_exponent == 0
    assert r.eq_30 == z.eq_30 == (c > 0)
    # what it gets wrong: the output ~ kappa^(c_w/2) is O(1) only for c_w <= 0 ...
    assert r.output_exponent == c / 2 and r.output_bounded == (c <= 0)
    assert z.output_exponent == -sp.oo and z.output_bounded
    # ... and under i.i.d. Gaussian initialisation no c_w is in the kernel phase: for c_w > 0
    # c_u = c_w leaves P/Q random (no case of eq. (29)); for c_w <= 0, a = b
    assert r.phase == "feature learning"
    assert r.p_over_q_case == (3 if c < 0 else None)
    # the printed statement holds for a zero initial output (case 2 of eq. (29))
    assert r.printed_phase == z.printed_phase == ("kernel" if c > 0 else "feature learning")
    assert z.phase == z.printed_phase and z.p_over_q_case == 2


@settings(max_examples=200)
@given(_cw)
def test_section_3_2_exactly(c_w):
    _check_exact(c_w)


@pytest.mark.slow
@settings(max_examples=2000)
@given(st.fractions(min_value=-50, max_value=50, max_denominator=60))
def test_section_3_2_exactly_thorough(c_w):
    _check_exact(c_w)


@pytest.mark.parametrize("c_w", [Fraction(1, 2), sp.Rational(1, 2), 0.5, 1, np.float64(0.5)])
def test_input_types_are_exact(c_w):
    r = initialisation_phase(c_w)
    assert r.c_w == sp.Rational(c_w) and isinstance(r.scaling.c_gamma, sp.Rational)


def test_the_papers_figure_4_and_appendix_b4():
    """Appendix B.4 as printed (gamma = kappa^(-min{0, -c/2})) is unstable for c > 0 (eq. (28)
    fails), Section 3.2's choice is not; for c <= 0 the two coincide up to the u <-> w swap,
    which leaves the phase unchanged."""
    b4 = phases_s32._appendix_b4()
    for c in (Fraction(1), Fraction(1, 3), Fraction(0), Fraction(-2)):
        values = {
            k: sp.Rational(v.xreplace({phases_s32._B4_C: sp.Rational(c)})) for k, v in b4.items()
        }
        printed = Scaling(**values)
        corrected = section_3_2_scaling(c)
        if c > 0:
            assert printed.phase == "unstable" and printed.t_c_exponent < 0
        else:
            assert (printed.c_u, printed.c_w) == (corrected.c_w, corrected.c_u)
            assert printed.phase == corrected.phase
        assert corrected.t_c_exponent == 0


G = (0.5, -1.25, 0.5)  # u / sigma_u
H = ((0.5, -0.25), (1.0, 0.75), (0.75, -0.5))  # W / sigma_w
H_ZERO = ((0.5, -0.25), (1.0, 0.75), (6.25, 0.0))  # u . W x = 0 exactly: (W x) = (0, 2.5, 6.25)
X = (1, 2)


def _run(c_w: Fraction, zero: bool, log10_kappa: int) -> tuple[Any, Any, Any]:
    """Theorem 1's closed form (30 digits) for the Section 3.2 scaling at kappa = 10^k, d = 3,
    d0 = 2, x = (1, 2), y = 1, eta = 1, from fixed draws (dyadic, so exact in mpmath):
    u = sigma_u G, W = sigma_w H (H_ZERO: zero initial output).  Returns the initial output
    (xu_ziyin.network_output), t_c and the relative change of the NTK from t = 0 to t = oo."""
    s = section_3_2_scaling(c_w, zero_initial_output=zero)
    with mpmath.workdps(60):
        kappa = mpmath.mpf(10) ** log10_kappa

        def power(c):
            return kappa ** (mpmath.mpf(int(c.p)) / int(c.q))

        u = np.array([mpmath.mpf(g) * mpmath.sqrt(power(s.c_u)) for g in G], dtype=object)
        W = np.array([[mpmath.mpf(h) * mpmath.sqrt(power(s.c_w)) for h in row]
                      for row in (H_ZERO if zero else H)], dtype=object)  # fmt: skip
        gamma = power(s.c_gamma)
        f0 = xz.network_output(u, W, np.array([mpmath.mpf(v) for v in X], dtype=object), gamma)
    traj = xz.closed_form(xz.Setup(1, 1, gamma, X, 1), u, W, dps=30)
    change = traj.at(mpmath.inf).ntk / traj.at(0).ntk - 1
    return f0, traj.t_c, change


def _check_closed_form(c_w: Fraction, zero: bool, k: int = 300) -> None:
    """initialisation_phase against Theorem 1 at kappa = 10^k and 10^(2k) (nothing retyped:
    network_output and closed_form on the scaled weights); with k = 300 and |c_w| >= 1/6:
    * the initial output's slope in log kappa is output_exponent (f_0 is kappa^e times a fixed
      number, so the slope is exact up to the 30-60 digit rounding);
    * t_c does not change between the two kappas (eq. (28)): its relative change is the
      subleading term of D^2, ~ kappa^-|c_w| <= 1e-50, or 0;
    * the NTK moves by less than 1e-20 from t = 0 to t = oo exactly when the phase is kernel:
      then alpha_+ - 1 ~ kappa^(-c_w/2) <= 1e-25; otherwise it moves by a fixed O(1) amount,
      the same at both kappas (to the same 1e-20: P/Q keeps its value, it does not tend to 1).
    """
    r = initialisation_phase(c_w, zero_initial_output=zero)
    f1, t1, k1 = _run(c_w, zero, k)
    f2, t2, k2 = _run(c_w, zero, 2 * k)
    e = section_3_2_scaling(c_w).output_exponent  # the size of each term of u . W x
    with mpmath.workdps(30):
        if zero:  # u . W x = 0 exactly; the 60-digit rounding of kappa^(c/2) leaves ~1e-59
            assert abs(f1) < 1e-50 * mpmath.mpf(10) ** (k * mpmath.mpf(int(e.p)) / int(e.q))
        else:
            slope = mpmath.log(abs(f2 / f1)) / (k * mpmath.log(10))
            assert abs(slope - mpmath.mpf(int(e.p)) / int(e.q)) < 1e-25
        assert abs(t2 / t1 - 1) < 1e-20
        kernel_like = abs(k1) < 1e-20 and abs(k2) < 1e-20
    assert kernel_like == (r.phase == "kernel"), (k1, k2, r)
    if not kernel_like:
        with mpmath.workdps(30):
            assert abs(k1) > 1e-3 and abs(k1 - k2) < 1e-20


@settings(max_examples=200)
@given(_cw, st.booleans())
def test_section_3_2_against_the_closed_form(c_w, zero):
    _check_closed_form(c_w, zero)


@pytest.mark.slow
@settings(max_examples=2000)
@given(st.fractions(min_value=-4, max_value=4, max_denominator=8), st.booleans())
def test_section_3_2_against_the_closed_form_thorough(c_w, zero):
    # |c_w| >= 1/8: kappa^(-|c_w|/2) at kappa = 1e300 is 1e-19, above the 1e-20 threshold,
    # so this run takes kappa = 1e600 and 1e1200 (1e-37)
    _check_closed_form(c_w, zero, 600)


@functools.cache
def _pq_evaluators():
    S = xz.symbolic()
    args = (S.u, S.v, S.eta_u, S.eta_w, S.rho)
    return generate(args, S.paper["p"], "numpy"), generate(args, S.paper["q"], "numpy")


def test_moments_of_p_minus_q_by_monte_carlo():
    """E[P - Q] and E[(P - Q)^2] (phases.p_q_moments) from 20000 draws of d = 8 neurons,
    d0 = 3, in the balanced case eta_w sigma_u^2 = eta_u sigma_w^2 where the ratio
    E[(P - Q)^2]/E[P]^2 = 4/d does not shrink with the scale.  p, q from the evaluator
    generated from xu_ziyin.symbolic().paper (eq. (6)).  P - Q is a mean of d i.i.d. terms
    a_i b_i/d with a, b independent normals: Var((P - Q)^2) = E[(P-Q)^4] - msq^2 <= 8 msq^2
    (kurtosis of a product of normals is 9, of its d-mean at most that), so the sample mean
    of (P - Q)^2 has sd <= sqrt(8/N) msq; both checked within 5 standard errors."""
    rng = np.random.default_rng(1)
    N, d = 20000, 8
    eta_u, eta_w, s_w = 0.7, 1.9, 1.3
    s_u = s_w * math.sqrt(eta_u / eta_w)  # balanced: eta_w sigma_u^2 = eta_u sigma_w^2
    x = np.array([0.5, -1.2, 2.0])
    u = rng.normal(0, s_u, size=(N, d))
    v = rng.normal(0, s_w, size=(N, d, 3)) @ x
    p_fn, q_fn = _pq_evaluators()
    rho = np.linalg.norm(x)
    diff = (p_fn(u, v, eta_u, eta_w, rho) ** 2 - q_fn(u, v, eta_u, eta_w, rho) ** 2).mean(1)
    m = phases.p_q_moments()
    sub = {m["eta_u"]: eta_u, m["eta_w"]: eta_w, m["sigma_u"]: s_u, m["sigma_w"]: s_w, m["d"]: d}
    msq = float(m["msq_P_minus_Q"].subs(sub))
    assert float(m["mean_P_minus_Q"]) == 0
    assert abs(diff.mean()) <= 5 * math.sqrt(msq / N)
    assert abs((diff**2).mean() / msq - 1) <= 5 * math.sqrt(8 / N)
    assert math.isclose(msq / float(m["mean_P"].subs(sub)) ** 2, 4 / d, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "exc", "message"),
    [
        ({"c_w": "1"}, TypeError, "c_w must be an int"),
        ({"c_w": True}, TypeError, "c_w must be a number"),
        ({"c_w": math.nan}, ValueError, "c_w must be finite, got nan"),
        ({"c_w": -math.inf}, ValueError, "c_w must be finite, got -inf"),
        ({"c_w": sp.sqrt(2)}, ValueError, "c_w must be a rational number, got sqrt"),
        ({"c_w": 1, "zero_initial_output": 1}, TypeError, "zero_initial_output must be a bool"),
    ],
)
def test_bad_input(kwargs, exc, message):
    with pytest.raises(exc, match=message):
        initialisation_phase(**kwargs)
    with pytest.raises(exc, match=message):
        section_3_2_scaling(**kwargs)


def test_new_claims_are_proved():
    found = {t.id: t for t in theorems.select("phases.*")}
    for cid in NEW_CLAIMS:
        verdict = found[cid].verify()
        assert verdict.status == "proved", (cid, verdict.detail)
        assert verdict.residuals and all(r == 0 for r in verdict.residuals)


def test_new_errata_check():
    by_equation = {e.equation: e for e in errata.ERRATA}
    for eq in NEW_ERRATA:
        e = by_equation[eq]
        printed, corrected = e.residuals()
        assert corrected == 0 and printed.free_symbols == set() and printed != 0, eq
        assert e.check(), eq


def test_section_3_2_claim_fails_on_a_wrong_choice(monkeypatch):
    """The section_3_2 claim evaluates section_3_2_exponents(): the choice that makes the
    output O(1) (c_gamma = -max{c_w, 0}) breaks eq. (28) for c_w > 0, and the claim fails."""
    real = phases.section_3_2_exponents()
    wrong = {**real, "c_gamma": -sp.Max(phases.C_W, 0)}
    monkeypatch.setattr(phases_s32, "section_3_2_exponents", lambda: wrong)
    monkeypatch.setattr(phases_claims, "section_3_2_exponents", lambda: wrong)
    assert phases_claims._section_3_2().status == "failed"
    assert initialisation_phase(1).phase == "frozen" and initialisation_phase(1).output_bounded
