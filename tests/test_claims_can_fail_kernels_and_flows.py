"""Kernel, flow and autograd claims whose ``solvable verify`` max_error is tiny can still fail.

A fresh ``solvable verify`` reported these claims at max_error < 1e-3 of their tolerance
(two independent computations agreeing to rounding: autograd against a generated closed
form, a simulated flow against a formula, an evaluator against a definition integrated by
sympy).  Each test monkeypatches the package function the claim checks with a realistically
buggy version (a sign flip, a factor 2, swapped arguments, a wrong exponent, a time factor,
a lost precision) and asserts the verdict is ``"failed"`` by many orders of magnitude, next
to the right input, which is ``"confirmed"``.  Where a claim takes ``dps``, it runs at 20
digits, so every test runs in a few seconds at most.
"""

from __future__ import annotations

import re

import mpmath
import numpy as np
import pytest

from numerics import lazy_width as lw
from solvable.models import mirror_flow, ntg, xu_ziyin
from solvable.models.kernels import evaluators as kn_evaluators
from solvable.models.kernels import numeric_checks as kn_checks
from solvable.verification.confirmations import linearisation as clin
from solvable.verification.confirmations import mirror_flow as cmf
from solvable.verification.confirmations import ntg as cntg
from solvable.verification.confirmations import xu_ziyin as cxz

DPS = 20  # the claims' checks at 20 digits: tolerance 1e-15, far below every bug below
# a wrong input must miss by >= 1e6 tolerances: every bug below (but the clip, bounded on
# its own) misses by 1e9-1e18 (measured), an O(1) or 1e-16 error over a <= 1e-11 tolerance
FAR = 1e6


# ---------------------------------------------------------------------------
# linearisation.hessian_opnorm_autograd (max_error 8e-5: three computations agree to ~1e-16)
# ---------------------------------------------------------------------------
def test_hessian_opnorm_autograd_fails_on_a_wrong_closed_form(monkeypatch):
    """Dense autograd, Lanczos and (2.17) agree: confirmed.  (2.17) with ``|x|`` for
    ``|x|^2`` (x on the sphere of radius 2: a factor 2) or with ``1/p`` for ``1/sqrt(p)`` (a
    wrong exponent of the NTK scaling) is off by O(1) relative, ~1e11 tolerances: failed."""
    assert clin._hessian_formula_check().status == "confirmed"
    real = lw.hessian_opnorm_closed_form

    def unsquared(model, params, x):
        return real(model, params, x) / np.linalg.norm(x)

    monkeypatch.setattr(lw, "hessian_opnorm_closed_form", unsquared)
    v = clin._hessian_formula_check()
    assert v.status == "failed" and v.max_error > FAR, v.detail

    def over_p(model, params, x):
        return real(model, params, x) / np.sqrt(params["W"].shape[-2])

    monkeypatch.setattr(lw, "hessian_opnorm_closed_form", over_p)
    v = clin._hessian_formula_check()
    assert v.status == "failed" and v.max_error > FAR, v.detail


def test_hessian_opnorm_autograd_fails_when_lanczos_takes_the_largest_algebraic(monkeypatch):
    """Lanczos asked for the largest algebraic eigenvalue (``which="LA"``) instead of the
    largest magnitude (``"LM"``): on a network whose dominant ``a_j sigma''`` block is
    negative it returns a smaller eigenvalue (39% off here), against both dense eigvalsh and
    (2.17): failed."""
    real = lw.eigsh

    def largest_algebraic(*args, **kwargs):
        return real(*args, **{**kwargs, "which": "LA"})

    monkeypatch.setattr(lw, "eigsh", largest_algebraic)
    v = clin._hessian_formula_check()
    assert v.status == "failed" and v.max_error > FAR, v.detail


# ---------------------------------------------------------------------------
# xu_ziyin.eq_21_25_measured (max_error 1e-4: simulation and formula agree to dps digits)
# ---------------------------------------------------------------------------
def test_eq_21_25_measured_fails_on_swapped_arguments_or_a_time_factor(monkeypatch):
    """zeta, ||u||^2, ||w||^2 on the simulated weights equal (21), (25): confirmed.  The
    formulas evaluated with eta_u and eta_w swapped (two of the three d0 = 1 cases have
    unequal rates), with P and Q swapped (u and W x's roles exchanged), or at the closed
    form's alpha(2t) (a time factor 2: the loss's 1/2 convention mixed up) fail by > 1e14."""
    assert cxz._measured_vs_formula(dps=DPS).status == "confirmed"  # caches the simulation
    real = cxz._norm_evaluators()

    def rates_swapped():
        return lambda a, P, Q, spq, d, eu, ew: real(a, P, Q, spq, d, ew, eu)

    monkeypatch.setattr(cxz, "_norm_evaluators", rates_swapped)
    v = cxz._measured_vs_formula(dps=DPS)
    assert v.status == "failed" and v.max_error > FAR, v.detail

    def pq_swapped():
        return lambda a, P, Q, spq, d, eu, ew: real(a, Q, P, spq, d, eu, ew)

    monkeypatch.setattr(cxz, "_norm_evaluators", pq_swapped)
    v = cxz._measured_vs_formula(dps=DPS)
    assert v.status == "failed" and v.max_error > FAR, v.detail

    monkeypatch.undo()
    sample = xu_ziyin.Trajectory.sample

    def twice_the_time(self, times, **kwargs):
        return sample(self, [2 * t for t in times], **kwargs)

    monkeypatch.setattr(xu_ziyin.Trajectory, "sample", twice_the_time)
    v = cxz._measured_vs_formula(dps=DPS)
    assert v.status == "failed" and v.max_error > FAR, v.detail


# ---------------------------------------------------------------------------
# mirror_flow.implicit_bias (max_error 3e-4: simulated limit and Bregman interpolant agree)
# ---------------------------------------------------------------------------
def test_implicit_bias_fails_on_a_balance_with_the_rates_swapped(monkeypatch):
    """The simulated limit equals the hyperbolic-entropy Bregman interpolant: confirmed.  The
    interpolant built from ``delta_j = eta_a a_j^2 - eta_w w_j^2`` (the rates swapped:
    eta_a = 1, eta_w = 1/2, so delta off by a factor 2) predicts another limit: failed, in
    the mpmath half (dps digits) and in the float64 half (DOP853 at t = 1e6) each on its
    own.  (No bug: delta's sign flipped, since from beta(0) = 0 the potential depends on
    delta only through delta^2: measured, still confirmed.)"""
    assert cmf._implicit_bias(dps=DPS).status == "confirmed"
    real = mirror_flow.diagonal_balance
    monkeypatch.setattr(mirror_flow, "diagonal_balance",
                        lambda a, w, eta_a, eta_w: real(a, w, eta_w, eta_a))  # fmt: skip
    v = cmf._implicit_bias(dps=DPS)
    assert v.status == "failed" and v.max_error > FAR, v.detail

    monkeypatch.undo()
    interpolant = mirror_flow.bregman_interpolant

    def swapped_when(wrong_dps):
        def predict(setup, a0, w0, *, dps=None):
            if (dps is None) == (wrong_dps is None):
                setup = mirror_flow.DiagonalSetup(setup.eta_w, setup.eta_a, setup.X, setup.y)
            return interpolant(setup, a0, w0, dps=dps)

        return predict

    for half, wrong_dps in (("mpmath", DPS), ("float64", None)):
        monkeypatch.setattr(mirror_flow, "bregman_interpolant", swapped_when(wrong_dps))
        v = cmf._implicit_bias(dps=DPS)
        assert v.status == "failed" and v.max_error > FAR, (half, v.detail)
        assert ("in float64" in v.detail) == (half == "float64"), (half, v.detail)


# ---------------------------------------------------------------------------
# kernels.diagonal_evaluated (max_error 4e-4: evaluators at rho = +-1 equal the definitions)
# ---------------------------------------------------------------------------
def test_diagonal_evaluated_fails_on_the_supplementary_angle(monkeypatch):
    """K(x, x) and K(x, -2x) from kernel_numeric and gram equal the definitions: confirmed.
    The evaluated angle phi = pi - theta with atan2's arguments swapped (``2 atan2(|u - v|,
    |u + v|)`` = theta: parallel rows read as antiparallel) gives K(x, x) = 0 and K(x, -2x)
    != 0: failed, in float64 (1e13 tolerances) and in mpmath (1e18 at 20 digits) each."""
    assert kn_checks._diagonal_evaluated(dps=DPS).status == "confirmed"
    real = kn_evaluators._evaluator

    def supplementary(kind, backend, name="", k=0):
        fn = real(kind, backend, name, k)
        if kind not in ("phi", "phi_rho"):
            return fn
        pi = np.pi if backend == "numpy" else mpmath.pi
        return lambda *args: pi - fn(*args)

    monkeypatch.setattr(kn_evaluators, "_evaluator", supplementary)
    v = kn_checks._diagonal_evaluated(dps=DPS)
    assert v.status == "failed" and v.max_error > FAR, v.detail
    f64, mp = (float(x) for x in re.search(r"float64 (\S+) x .* digits (\S+) x", v.detail).groups())
    assert f64 > FAR and mp > FAR, v.detail  # both halves fail, not only the worse one


def test_diagonal_evaluated_fails_on_a_cosine_clipped_below_one(monkeypatch):
    """kernel_numeric clipping the cosine to the float below 1 (a clip to ``[-1, 1)``, e.g.
    to keep arccos' derivative finite) moves theta at rho = 1 from 0 to sqrt(2 eps) ~ 2e-8,
    so K(x, x) by ~5e-9 relative: ~5e4 tolerances of 1e-13, failed."""
    real = kn_evaluators._check_norms_cosine

    def clipped(n1, n2, rho):
        a1, a2, r = real(n1, n2, rho)
        return a1, a2, np.minimum(r, np.nextafter(1.0, 0.0))

    monkeypatch.setattr(kn_evaluators, "_check_norms_cosine", clipped)
    v = kn_checks._diagonal_evaluated(dps=DPS)
    # ~5e-9 relative over the 1e-13 float64 tolerance: 5e4 units; 1e3 leaves a factor 50
    assert v.status == "failed" and v.max_error > 1e3, v.detail


def test_diagonal_evaluated_fails_when_mpmath_evaluates_at_15_digits(monkeypatch):
    """kernel_numeric(dps=30) and gram(dps=30) evaluating the generated mpmath form outside
    their ``workdps`` (at mpmath's default 15 digits: the precision silently lost) are right
    to ~1e-16 only: ~1e11 tolerances of 1e-28, failed (the float64 half is untouched)."""
    real = kn_evaluators._evaluator

    def at_15_digits(kind, backend, name="", k=0):
        fn = real(kind, backend, name, k)
        if backend != "mpmath":
            return fn

        def low(*args):
            with mpmath.workdps(15):
                return fn(*args)

        return low

    monkeypatch.setattr(kn_evaluators, "_evaluator", at_15_digits)
    v = kn_checks._diagonal_evaluated(dps=30)  # 30 digits: tolerance 1e-28 (the claim's default)
    assert v.status == "failed" and v.max_error > FAR, v.detail


# ---------------------------------------------------------------------------
# ntg.reported_constants (mpmath tolerance 10^-(digits - 3); measured 2e-5 of it)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["kappa_n", "frobenius_constant"])
def test_ntg_reported_constants_fail_on_a_constant_off_at_the_mpmath_precisions(monkeypatch,
                                                                                name):  # fmt: skip
    """kappa_n and C_0 at dps and 2 dps are held to 10^-(digits - 3) relative: a value off
    by 1e-10 (relative and absolute) there only (float64 untouched) is ~1e7 tolerances at
    dps = 20 and fails (seed-22 survivor ``ntg.py:823``: ``digits - 3`` made ``digits % 3``,
    a tolerance of 1e-2 that passed it)."""
    assert ntg._claim_reported_constants().status == "confirmed"
    real = getattr(ntg, name)

    def off(X, activation, *, dps=None):
        v = real(X, activation, dps=dps)
        return v if dps is None else v * (1 + mpmath.mpf("1e-10")) + mpmath.mpf("1e-10")

    monkeypatch.setattr(ntg, name, off)
    v = ntg._claim_reported_constants()
    assert v.status == "failed" and v.max_error > FAR, v.detail


# ---------------------------------------------------------------------------
# ntg.ntg_matches_autograd (max_error 5e-4: generated NTG and autograd agree to rounding)
# ---------------------------------------------------------------------------
def test_ntg_matches_autograd_fails_on_a_wrong_node_scaling_or_activation(monkeypatch):
    """The generated NTG (numpy, torch) equals autograd's J J^T: confirmed.  The NTG fed
    ``s`` for the node scalings ``lambda = s^2`` (a wrong exponent), evaluated with another
    activation's derivative (relu for every activation, linear for relu), or, in numpy only,
    without the ``1/d`` of ``X X^T / d`` (a factor d = 3) fails; so does the reference
    ``ntk_node_scaled`` fed ``s`` for ``s^2``."""
    assert cntg._claim_autograd().status == "confirmed"
    real = cntg.ntg
    wrong = {
        "sqrt lambda": lambda X, W, a, lam, name: real(X, W, a, lam**0.5, name),
        "activation": lambda X, W, a, lam, name: real(
            X, W, a, lam, "linear" if name == "relu" else "relu"
        ),
        "numpy X X^T": lambda X, W, a, lam, name: (
            real(X, W, a, lam, name) * (X.shape[1] if isinstance(W, np.ndarray) else 1)
        ),
    }
    for label, fn in wrong.items():
        monkeypatch.setattr(cntg, "ntg", fn)
        v = cntg._claim_autograd()
        assert v.status == "failed" and v.max_error > FAR, (label, v.detail)
    monkeypatch.undo()

    def reference_unsquared(model, p):
        return model.eta * real(model._t("X", p["W"]), p["W"], p["a"], p["s"], model.activation)

    monkeypatch.setattr(cntg, "ntk_node_scaled", reference_unsquared)
    v = cntg._claim_autograd()
    assert v.status == "failed" and v.max_error > FAR, v.detail


# ---------------------------------------------------------------------------
# xu_ziyin.theorem_1_oracle: the manifold cases are also checked far beyond the simulation
# ---------------------------------------------------------------------------
def test_xu_ziyin_oracle_checks_a_manifold_case_at_far_times_t_far_t(monkeypatch):
    """On the manifolds P = 0, Q = 0 the oracle evaluates the closed form (dps and float64)
    at ``t = FAR T``, far past the simulated times, where only the conserved alignment can
    be compared (seed-23 survivor ``confirmations/xu_ziyin.py:182``: ``T / FAR``, a time
    inside the simulated range, passed every test)."""
    calls = []
    real = xu_ziyin.Trajectory.at

    def spy(self, t):
        calls.append((self.dps, t))
        return real(self, t)

    monkeypatch.setattr(xu_ziyin.Trajectory, "at", spy)
    name = "P_zero_y_positive"
    verdict = cxz.oracle(cases=[name])
    assert verdict.status == "confirmed", verdict.detail
    _, _, T = cxz._simulation(name, 30)
    far = T * cxz.FAR
    assert (30, far) in calls and (None, float(far)) in calls, calls  # mpmath and float64
