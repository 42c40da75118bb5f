"""Seed 001's symbolic claims on eqs. (2)-(4) and on what sets the change of the alignment
(Sections 2.2, 2.4): each proved, and each failing on a wrong input or a wrong model piece
(:mod:`solvable.models.xu_ziyin.alignment_claims`)."""

from __future__ import annotations

import pytest
import sympy as sp

from solvable.models import xu_ziyin
from solvable.models.xu_ziyin import alignment_claims as ac
from solvable.models.xu_ziyin import network
from solvable.verification import theorems

IDS = ("xu_ziyin.eq_3_4", "xu_ziyin.zeta_equal_rates", "xu_ziyin.zeta_small_eta_w",
       "xu_ziyin.alignment_vs_scale")  # fmt: skip


@pytest.mark.parametrize("claim_id", IDS)
def test_registered_and_proved(claim_id):
    (claim,) = [t for t in theorems.registry() if t.id == claim_id]
    assert claim.source.startswith("001_070589003213e0cf.txt")
    assert claim.kind == "symbolic"
    assert claim.verify().status == "proved"


def test_eq3_4_on_more_samples_and_one_unit():
    assert ac._eq3_4(samples=4, d=1, d0=3).status == "proved"


def test_eq3_4_fails_with_a_wrong_loss(monkeypatch):
    # a loss with a factor 1/2 is not the (3) the expansion gives
    monkeypatch.setattr(ac, "loss", lambda *a: network.loss(*a) / 2)
    assert ac._eq3_4().status == "failed"


def test_equal_rates_fails_when_one_rate_is_fixed():
    # eta_u = 1, eta_w = eta: the ratio of the rates moves with eta, so alpha_+ does
    assert ac._equal_rates(eta_u=sp.Integer(1)).status == "failed"
    assert ac._equal_rates(eta_w=sp.Integer(2)).status == "failed"


def test_equal_rates_holds_for_any_common_ratio():
    # the statement is scale invariance: eta_w = 3 eta_u scales together as well
    eta = sp.Symbol("eta", positive=True)
    assert ac._equal_rates(eta_u=eta, eta_w=3 * eta).status == "proved"


@pytest.mark.parametrize("check", [ac._small_eta_w, ac._alignment_vs_scale])
def test_sign_claims_fail_with_a_wrong_initial_output(monkeypatch, check):
    # f0 enters both slopes: twice the output is caught
    monkeypatch.setattr(ac, "network_output", lambda *a: 2 * network.network_output(*a))
    assert check().status == "failed"


def test_screen_reports_a_non_identity_at_once():
    x = sp.Symbol("x", positive=True)
    v = ac._screened(sp.sqrt(x**2 + 1) - x)
    assert v.status == "failed" and "residual 0" in v.detail
    assert ac._screened(sp.sqrt(x**2) - x).status == "proved"


def test_small_eta_w_erratum():
    # the printed "linear in eta_w" needs no term in sqrt(eta_w): there is one
    (err,) = [e for e in xu_ziyin.errata() if e.equation == "text after (24) (eta_u >> eta_w)"]
    printed, corrected = err.residuals()
    assert printed != 0 and corrected == 0 and err.check()
    at0, coef, _slope = ac.small_eta_w_terms()
    assert sp.simplify(at0 - 1) == 0 and coef.free_symbols >= {sp.Symbol("y", real=True)}
