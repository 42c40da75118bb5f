"""Still more details of the models that a user can observe and that no other test pins:
the grid and reach of ``delayed_rich``'s bracketing search, the keyword-only activation of
``linearisation.hessian_opnorm_formula``, the ``2 dps`` check of
``linear_node_scaling.reported_constants``, the exact scales of ``ntg.mean_ntg`` at ``dps``
digits, the inputs of ``ntg``'s claims, the counterexample reported by
``phases.eq_29_cases``, the printed residual of the Appendix A.2 erratum of ``xu_ziyin``, and
that every module compiles without a ``SyntaxWarning``."""

from __future__ import annotations

import dataclasses
import math
import pathlib
import warnings

import mpmath
import numpy as np
import pytest
import sympy as sp

from solvable.models import delayed_rich, kunin, linearisation, ntg, xu_ziyin
from solvable.models import linear_node_scaling as lns
from solvable.models.linear_node_scaling import checks as lns_checks
from solvable.models.phases import claim_checks as phases_claims
from solvable.verification.theorems import select

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _claim(claim_id: str):
    (claim,) = [c for c in select(claim_id.split(".")[0] + ".*") if c.id == claim_id]
    return claim


# ---------------------------------------------------------------------------
# delayed_rich._bracket: 64 steps, then the span doubles
# ---------------------------------------------------------------------------
def _step_at(T: float):
    """A fraction that jumps from 0 to 1 at ``T``."""
    return lambda ts: [1.0 if t >= T else 0.0 for t in ts]


def test_bracket_walks_a_grid_of_64_steps_then_doubles():
    """``half_time``'s search (docstring): the first sign change on a grid of 64 steps
    (``step, 2 step, ..., 64 step``), the span doubling until one is found.  With step 1 a
    jump at 10 is bracketed by (9, 10); a jump at 70 lies past the first 64 steps, on the
    doubled grid 66, 68, 70, ..., so by (68, 70)."""
    assert delayed_rich._bracket(_step_at(10.0), 1.0, 0.0) == (9.0, 10.0)
    assert delayed_rich._bracket(_step_at(70.0), 1.0, 0.0) == (68.0, 70.0)


def test_bracket_reaches_64_steps_times_2_to_the_40():
    """40 doublings of 64 steps reach ``64 (2^40 - 1)`` steps: a crossing at ``40 * 2^40``
    steps is found (bracketed by consecutive points of the grid at that doubling, ``2^39``
    apart), one beyond the reach is an ``ArithmeticError``."""
    T = 40.0 * 2.0**40
    lo, hi = delayed_rich._bracket(_step_at(T), 1.0, 0.0)
    assert lo < T <= hi and hi - lo == 2.0**39
    with pytest.raises(ArithmeticError, match="never reached half"):
        delayed_rich._bracket(_step_at(65.0 * 2.0**40), 1.0, 0.0)


# ---------------------------------------------------------------------------
# linearisation.hessian_opnorm_formula: a, W, x by name; activation by keyword only
# ---------------------------------------------------------------------------
def test_hessian_opnorm_formula_arguments():
    """``hessian_opnorm_formula(a, W, x, *, activation)``: the arrays may be passed by name,
    and ``activation`` only by keyword (a positional fourth argument is a ``TypeError``).
    The value is eq. (2.17) corrected, ``max_j |a_j sigma''(<w_j, x>)| |x|^2 / sqrt(p)``: at
    ``<w_j, x> = 0`` tanh'' vanishes, and at ``<w, x> = 1`` tanh''(1) = -2 tanh(1)
    sech(1)^2."""
    a = np.array([[2.0, -1.0]])
    W = np.array([[[0.0, 0.0], [1.0, 0.0]]])
    x = np.array([1.0, 0.0])
    got = linearisation.hessian_opnorm_formula(a=a, W=W, x=x, activation="tanh")
    t = np.tanh(1.0)
    want = abs(-1.0 * -2 * t * (1 - t**2)) * 1.0 / np.sqrt(2)
    # float64 evaluation of a few elementary functions: a few ulps
    np.testing.assert_allclose(got, [want], rtol=1e-14)
    with pytest.raises(TypeError):
        linearisation.hessian_opnorm_formula(a, W, x, "tanh")


# ---------------------------------------------------------------------------
# linear_node_scaling.reported_constants: checked at dps, 2 dps and float64
# ---------------------------------------------------------------------------
def test_reported_constants_checks_twice_the_digits(monkeypatch):
    """The claim checks the constants at ``dps``, at ``2 dps`` digits and in float64 (its
    comment and detail): at dps = 30 (verify's least) the detail names dps=30, dps=60 and
    float64, and a constant wrong only at 60 digits (S off by a relative 1e-40, far below
    the 25-digit tolerance of dps = 30 and float64's, far above the 55-digit one of dps = 60)
    fails it."""
    claim = _claim("linear_node_scaling.reported_constants")
    v = claim.verify(dps=30)
    assert v.status == "confirmed", v.detail
    assert "dps=30:" in v.detail and "dps=60:" in v.detail and "float64:" in v.detail
    real = lns.closed_form

    def wrong_at_30(setup, a0, W0, *, dps=None):
        traj = real(setup, a0, W0, dps=dps)
        if dps != 60:
            return traj
        with mpmath.workdps(80):
            return dataclasses.replace(traj, S=traj.S * (1 + mpmath.mpf("1e-40")))

    monkeypatch.setattr(lns_checks, "closed_form", wrong_at_30)  # the claim's lookup
    v = claim.verify(dps=30)
    assert v.status == "failed", v.detail


# ---------------------------------------------------------------------------
# ntg: exact scales at dps digits; the claims' inputs
# ---------------------------------------------------------------------------
def test_mean_ntg_at_dps_uses_the_exact_scale():
    """``mean_ntg(X, "tanh", dps=30)`` for the single input ``x = (1, 0, 0)`` (d = 3) is
    eq. (10) on the diagonal, ``|x|^2/d E[tanh'(s z)^2]`` with ``s = |x|/sqrt(d) =
    1/sqrt(3)``, computed here by mpmath quadrature at 45 digits: to 30 digits (a float64
    ``sqrt(3)`` would err by ~1e-17)."""
    K = ntg.mean_ntg([[1, 0, 0]], "tanh", dps=30)
    with mpmath.workdps(45):
        s = 1 / mpmath.sqrt(3)
        E = mpmath.quad(lambda z: mpmath.sech(s * z) ** 4 * mpmath.npdf(z),
                        [-mpmath.inf, 0, mpmath.inf])  # fmt: skip
        # 30 digits returned: their rounding, 1e-30 relative of a value ~0.2
        assert abs(K[0, 0] - E / 3) < mpmath.mpf("1e-29")


def test_unit_ball_data_norms():
    """The inputs of ``ntg``'s claims (``_unit_ball_data``, its docstring): in the unit ball
    with norms in [0.5, 1], fixed by the seed."""
    for n, d, seed in ((4, 3, 0), (6, 3, 1), (3, 4, 6), (200, 5, 11)):
        X = ntg._unit_ball_data(n, d, seed)
        norms = np.linalg.norm(X, axis=1)
        # norms of unit rows times U[0.5, 1]: float64 rounding of a few ulps
        assert X.shape == (n, d)
        assert np.all(norms >= 0.5 - 1e-15) and np.all(norms <= 1 + 1e-15), norms
        np.testing.assert_array_equal(X, ntg._unit_ball_data(n, d, seed))


# ---------------------------------------------------------------------------
# phases.eq_29_cases: the balanced counterexample it reports
# ---------------------------------------------------------------------------
def test_eq_29_cases_reports_the_balanced_counterexample(monkeypatch):
    """The balanced finite-width case of eq. (29): ``P/Q = sum (g_i + h_i)^2 / sum (g_i -
    h_i)^2`` at ``g = (1, 2)``, ``h = (3, -1)`` (the claim's point) is (16 + 1)/(4 + 9) =
    17/13, so the detail reports ``P/Q - 1 = 4/13``.  (The moments, 11 s of sympy.stats and
    checked by the claim ``phases.p_q_moments``, are replaced by their values with equal
    means and variances O(1/d).)"""
    d = sp.Symbol("d", positive=True)
    fake = {"mean_P": sp.S(1), "mean_Q": sp.S(1), "var_P": 1 / d, "var_Q": 2 / d, "d": d}
    monkeypatch.setattr(phases_claims, "p_q_moments", lambda *a, **k: dict(fake))
    v = phases_claims._eq_29_cases()
    assert v.status == "proved", v.detail
    assert v.detail.endswith("balanced d = 2 counterexample P/Q - 1 = 4/13"), v.detail


# ---------------------------------------------------------------------------
# xu_ziyin: the Appendix A.2 erratum's printed residual
# ---------------------------------------------------------------------------
def test_a2_erratum_printed_residual():
    """Appendix A.2 prints ``alpha(0) = (alpha_+ - xi alpha_-)/(1 - xi)``; with ``xi(0) =
    (1 - alpha_+)/(1 + alpha_-)`` (so the corrected ``(alpha_+ + xi alpha_-)/(1 - xi)`` is
    1) the printed one minus 1 is ``-2 xi alpha_-/(1 - xi) = -2 alpha_- (1 - alpha_+)/D``;
    at (A, B, C) = (1, 1/2, 1/3), ``D = sqrt(19/12)``, ``alpha_+- = (D +- 1/2)/2``, that is
    ``7/(6 D) - 1 = 7 sqrt(57)/57 - 1``."""
    (err,) = [e for e in xu_ziyin.errata() if e.equation == "Appendix A.2, after (49)"]
    printed, corrected = err.residuals()
    assert sp.simplify(printed - (7 * sp.sqrt(57) / 57 - 1)) == 0, printed
    assert corrected == 0
    assert err.check()


# ---------------------------------------------------------------------------
# kunin: sampling a trajectory with beta* = 0 raises no floating-point warning
# ---------------------------------------------------------------------------
def test_kunin_sample_with_zero_targets_is_warning_free():
    """Targets ``y = 0`` (so ``beta* = 0``, ``beta*-hat`` the zero vector) on isotropic data
    (``X^T X = 2 I``): the float64 sample emits no warning (it runs under ``python -W
    error``), and the flow goes to ``w(oo) = 0`` (``a w -> beta* = 0``) at zero loss."""
    setup = kunin.Setup("1", "2", (("1", "1"), ("1", "-1")), ("0", "0"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        s = kunin.closed_form(setup, 0.5, (0.3, -0.2)).sample([0.0, 1.0, math.inf])
    assert not caught, [str(w.message) for w in caught]
    np.testing.assert_array_equal(s.w[0], [0.3, -0.2])
    # L = 1/2 sum (a x_i.w - y_i)^2 with X w0 = (0.1, 0.5), a0 = 1/2: 1/2 (0.05^2 + 0.25^2)
    assert s.loss[0] == pytest.approx(0.0325, rel=1e-15)  # float64 rounding of a few operations
    np.testing.assert_array_equal(s.w[2], [0.0, 0.0])
    assert s.loss[2] == 0.0
    assert np.isfinite(s.w).all() and np.isfinite(s.loss).all()
