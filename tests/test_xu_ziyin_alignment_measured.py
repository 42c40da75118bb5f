"""Seed 001's measured alignment claims (Sections 2.2, 2.4;
:mod:`solvable.verification.xu_ziyin_alignment`): registered and confirmed, each failing on
a wrong input, and hypothesis properties of the closed form they read (float64 against
mpmath at 40 digits)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numerics import sweeps
from solvable.models import xu_ziyin
from solvable.verification import theorems
from solvable.verification import xu_ziyin_alignment as xa

IDS = ("xu_ziyin.zeta_kernel_exponent", "xu_ziyin.zeta_equal_rates_measured",
       "xu_ziyin.zeta_small_eta_w_measured", "xu_ziyin.alignment_vs_scale_measured")  # fmt: skip


@pytest.mark.parametrize("claim_id", IDS)
def test_registered_and_confirmed(claim_id):
    (claim,) = [t for t in theorems.registry() if t.id == claim_id]
    assert claim.kind == "numeric" and claim.source.startswith(xu_ziyin.SEED)
    v = claim.verify()
    assert v.status == "confirmed", v.detail


def test_kernel_exponent_separates_the_phases():
    small = dict(widths=(64, 256, 1024), nets=4)
    ntk, mf = xa.kernel_exponent(-0.5, 0.0, **small), xa.kernel_exponent(-1.0, 1.0, **small)
    assert ntk.sign() == "-" and mf.sign() == "0"
    assert xa.kernel_verdict(ntk, mf).status == "confirmed"
    # the phases swapped: zeta = O(1) is not o(1)
    assert xa.kernel_verdict(mf, ntk).status == "failed"
    wrong = sweeps.ExponentFit(-1.0, 0.01, 0.01)  # o(1) but not the derived -1/2
    assert xa.kernel_verdict(wrong, mf).status == "failed"


def test_equal_rates_spread_sees_one_rate_moved():
    assert xa.equal_rates_spread((("0.3", "0.3"), ("3", "3")), 30) < 1e-25
    assert xa.equal_rates_spread((("1", "0.3"), ("1", "3")), 30) > 1e-3


def test_small_eta_w_exponent_is_one_half_not_one():
    e = xa.small_eta_w_exponent(None)
    assert abs(e - 0.5) < xa.SLOPE_TOL and abs(e - 1) > 0.4
    # away from eta_w << eta_u the slope is not the asymptotic one
    assert abs(xa.small_eta_w_exponent(None, ratios=(0.25, 0.5, 1.0)) - 0.5) > xa.SLOPE_TOL


def test_small_eta_w_verdict_fails_on_a_linear_exponent(monkeypatch):
    monkeypatch.setattr(xa, "small_eta_w_exponent", lambda dps, ratios=xa.RATIOS: 1.0)
    assert xa._zeta_small_eta_w_measured().status == "failed"


def test_scale_directions_flip_at_c_star():
    c_star = math.sqrt(2 / 0.35)  # f0(1) = 0.25 (0.7 + 0.1 - 0.12 + 0.72)
    assert xa.scale_directions([c_star / 2, 2 * c_star], 30) == [1, -1]


def test_alignment_vs_scale_fails_when_the_flow_disagrees(monkeypatch):
    monkeypatch.setattr(xa, "scale_directions", lambda scales, dps: [1, 1])
    assert xa._alignment_vs_scale_measured().status == "failed"


@settings(max_examples=15, deadline=None)
@given(eta=st.floats(0.05, 20.0), scale=st.floats(0.2, 5.0))
def test_alpha_plus_scale_free_in_a_common_rate_and_signed_by_the_residual(eta, scale):
    u = scale * np.array([float(v) for v in xa.U1])
    W = scale * np.array([[float(v[0])] for v in xa.W1])
    at = {}
    for rate, dps in ((eta, None), (1.0, None), (eta, 40)):
        setup = xu_ziyin.Setup(rate, rate, float(xa.GAMMA), (1.0,), float(xa.Y))
        at[(rate, dps)] = xu_ziyin.closed_form(setup, u, W, dps=dps).alpha_plus
    a64, ref, mp40 = at[(eta, None)], at[(1.0, None)], at[(eta, 40)]
    # float64 against 40 digits of the same closed form, then against eta = 1
    assert abs(a64 - float(mp40)) <= 1e-13 * abs(float(mp40))
    assert abs(a64 - ref) <= 1e-13 * abs(ref)
    f0 = float(xu_ziyin.network_output(u, W, np.array([1.0]), float(xa.GAMMA)))
    if abs(f0 - 2.0) > 1e-9:  # (f0 = y: alpha_+ = 1)
        with mpmath.workdps(40):
            assert (mp40 > 1) == (f0 < 2.0)


@settings(max_examples=8, deadline=None)
@given(log_scale=st.floats(-1.5, 1.5), eta=st.floats(0.2, 5.0))
def test_raw_flow_aligns_iff_the_initial_output_undershoots(log_scale, eta):
    # Section 2.4 on the raw flow: sign(zeta(T) - zeta(0)) = sign(y - f0), any common rate
    c = mpmath.mpf(math.exp(log_scale))
    f0 = c**2 * mpmath.mpf("0.35")  # gamma u1.w1 = 0.25 (0.7 + 0.1 - 0.12 + 0.72)
    if abs(f0 - 2) < mpmath.mpf("1e-6"):
        return  # (f0 = y: alpha_+ = 1, zeta constant)
    setup = xu_ziyin.Setup(eta, eta, xa.GAMMA, ("1",), xa.Y)
    t_c = xu_ziyin.closed_form(setup, *xa._start(c), dps=30).t_c
    z = xa.simulated_alignment(eta, eta, [0, 2 * t_c], 30, scale=c)
    assert (z[1] > z[0]) == (f0 < 2)


@pytest.mark.parametrize("spreads", [(0.0, 0.0), (1e-3, 1e-1)])
def test_equal_rates_verdict_fails_without_the_contrast_or_with_a_spread(monkeypatch, spreads):
    # equal rates must agree to dps - 5 digits and one rate moved alone must not
    it = iter(spreads)
    monkeypatch.setattr(xa, "equal_rates_spread", lambda rates, dps: mpmath.mpf(next(it)))
    assert xa._zeta_equal_rates_measured().status == "failed"
