"""Seed 002, Exercise 1(b), (c): the Hoeffding bound (solvable.models.kernels.hoeffding) and its
claims (kernels.hoeffding_bound, kernels.hoeffding_finite_width,
kernels.finite_width_positive_definite), each shown able to fail."""

from __future__ import annotations

import math

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core.backends import generate
from solvable.models import kernels
from solvable.models.kernels import hoeffding as hf
from solvable.models.kernels.table_1 import P
from solvable.verification.confirmations import kernels as ck

_DPS = 40
_F64 = 1e-13  # a log, a sqrt, an exp and ~6 roundings: a few 1e-16 each; 1e-13 with margin
_deltas = st.floats(1e-12, 1 - 1e-9)
_ns = st.integers(1, 10_000)
_ps = st.integers(1, 10**12)
_eps = st.floats(1e-6, 1e3)


def _mp(expr: sp.Expr, args: tuple, values: tuple) -> mpmath.mpf:
    fn = generate(args, expr, "mpmath")
    with mpmath.workdps(_DPS):
        return fn(*[mpmath.mpf(v) for v in values])


def _rel(a: float, b: mpmath.mpf) -> float:
    return float(abs(mpmath.mpf(a) - b) / abs(b)) if b != 0 else abs(a)


@settings(max_examples=60, deadline=None)
@given(eps=_eps, delta=_deltas, n=_ns)
def test_width_float64_against_mpmath(eps: float, delta: float, n: int) -> None:
    exact = _mp(hf.width_expr(), (hf.EPS, hf.DELTA, hf.NPTS), (eps, delta, n))
    assert _rel(kernels.hoeffding_width(eps, delta, n), exact) <= _F64


@settings(max_examples=60, deadline=None)
@given(p=_ps, delta=_deltas, n=_ns)
def test_epsilon_float64_against_mpmath(p: int, delta: float, n: int) -> None:
    exact = _mp(hf.epsilon_expr(), (P, hf.DELTA, hf.NPTS), (p, delta, n))
    assert _rel(kernels.hoeffding_epsilon(p, delta, n), exact) <= _F64


@settings(max_examples=60, deadline=None)
@given(p=st.integers(1, 10**6), eps=st.floats(1e-3, 2.0), n=st.integers(1, 50))
def test_failure_probability_float64_against_mpmath(p: int, eps: float, n: int) -> None:
    exact = _mp(hf.failure_probability_expr(), (P, hf.EPS, hf.NPTS), (p, eps, n))
    got = kernels.hoeffding_failure_probability(p, eps, n)
    if exact < mpmath.mpf(2.0**-1022):  # below float64's normal range: an absolute error
        assert abs(got - float(exact)) <= 2.0**-1074 * 4
    else:
        assert _rel(got, exact) <= _F64


@settings(max_examples=60, deadline=None)
@given(eps=st.floats(1e-2, 2.0), delta=st.floats(1e-6, 0.99), n=st.integers(1, 30))
def test_width_is_the_threshold_from_both_sides(eps: float, delta: float, n: int) -> None:
    # at the width the bound is delta; one unit below it, above delta; at or above, <= delta
    w = kernels.hoeffding_width(eps, delta, n)
    above = math.ceil(w)
    assert kernels.hoeffding_failure_probability(above, eps, n) <= delta * (1 + 1e-12)
    below = math.ceil(w) - 1
    if below >= 1:
        assert kernels.hoeffding_failure_probability(below, eps, n) > delta * (1 - 1e-12)


@settings(max_examples=40, deadline=None)
@given(p=st.integers(1, 10**6), delta=st.floats(1e-6, 0.99), n=st.integers(1, 30))
def test_epsilon_inverts_the_failure_probability(p: int, delta: float, n: int) -> None:
    eps = kernels.hoeffding_epsilon(p, delta, n)
    assert math.isclose(kernels.hoeffding_failure_probability(p, eps, n), delta, rel_tol=1e-12)


def test_edges() -> None:
    # huge widths: the bound underflows to an exact 0 (its true value is below 1e-308)
    assert kernels.hoeffding_failure_probability(10**18, 1.0, 2) == 0.0
    # a huge epsilon needs a tiny width; a tiny one a width beyond float64: refused
    assert 0 < kernels.hoeffding_width(1e150, 0.5, 3) < 1e-290
    with pytest.raises(ValueError, match="epsilon"):
        kernels.hoeffding_width(1e-160, 0.5, 3)
    # n = 1: the single diagonal entry, n (n + 1) = 2: two-sided Hoeffding
    assert math.isclose(kernels.hoeffding_failure_probability(8, 0.5, 1), 2 * math.exp(-4))


@pytest.mark.parametrize(
    ("call", "arg"),
    [
        (lambda: kernels.hoeffding_width(0.3, 0.0, 4), "delta"),
        (lambda: kernels.hoeffding_width(0.3, 1.0, 4), "delta"),
        (lambda: kernels.hoeffding_width(0.0, 0.5, 4), "epsilon"),
        (lambda: kernels.hoeffding_width(-1.0, 0.5, 4), "epsilon"),
        (lambda: kernels.hoeffding_width(0.3, 0.5, 0), "n"),
        (lambda: kernels.hoeffding_epsilon(0, 0.5, 4), "p"),
        (lambda: kernels.hoeffding_epsilon(8, 1.5, 4), "delta"),
        (lambda: kernels.hoeffding_failure_probability(8, 0.0, 4), "epsilon"),
        (lambda: kernels.hoeffding_failure_probability(8, 0.5, 0), "n"),
    ],
)
def test_refusals_name_the_argument(call, arg: str) -> None:
    with pytest.raises(ValueError, match=arg):
        call()


def test_refusals_of_types() -> None:
    with pytest.raises(TypeError, match="p"):
        kernels.hoeffding_epsilon(8.5, 0.5, 4)
    with pytest.raises(TypeError, match="delta"):
        kernels.hoeffding_width(0.3, None, 4)


def test_symbolic_claim_fails_on_a_wrong_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    assert hf._hoeffding_bound().status == "proved"
    # a union over all n^2 entries (not n(n+1)/2) does not match the width's root
    wrong = hf.NPTS**2 * sp.exp(-2 * P * hf.EPS**2 / hf.NPTS**2)
    monkeypatch.setattr(hf, "failure_probability_expr", lambda: wrong)
    assert hf._hoeffding_bound().status == "failed"


def test_finite_width_claims_confirm_and_fail_on_wrong_bounds() -> None:
    assert ck._hoeffding_finite_width().status == "confirmed"
    # epsilon without the factor n (the Frobenius step dropped), and epsilon 10x too small
    assert (
        ck._hoeffding_finite_width(
            epsilon_fn=lambda p, d, n: kernels.hoeffding_epsilon(p, d, n) / n
        ).status
        == "failed"
    )
    assert (
        ck._hoeffding_finite_width(
            epsilon_fn=lambda p, d, n: kernels.hoeffding_epsilon(p, d, n) / 10
        ).status
        == "failed"
    )


def test_positive_definite_claim_confirms_and_fails_on_a_wrong_width() -> None:
    assert ck._finite_width_positive_definite().status == "confirmed"
    # a width bound that returns 1: one unit, K^ = (X X^T) o (s s^T) has rank <= 3 < n = 4
    assert ck._finite_width_positive_definite(width_fn=lambda e, d, n: 1.0).status == "failed"
