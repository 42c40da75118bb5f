"""The fast decisions in deep_linear's mode extraction (issue 31, item 5): the float64 balance
check with a proved rounding bound (``_certainly_balanced``: True only where the exact check
accepts) and ``exact_matmul`` (the exact product rounded once)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable import deep_linear as dl
from solvable._core.exact_gram import MAX_MATMUL_BITS, exact_matmul, to_fraction
from solvable.models.deep_linear import modes as modes_module
from solvable.models.deep_linear.modes import _balance_defect, _certainly_balanced


def _pair(seed: int, n: int, m: int, defect: float, eta=(1.0, 0.5)):
    """A balanced pair (W_l, W_{l+1}) from spectral_start, W_l perturbed by ``defect``."""
    rng = np.random.default_rng(seed)
    Q, _ = np.linalg.qr(rng.standard_normal((8, n)))
    setup = dl.Setup(eta, 2.0 * Q, rng.standard_normal((8, n)))
    W1, W2 = dl.spectral_start(setup, list(rng.uniform(0.1, 2.0, n)), (m,))
    W1 = W1 * (1 + defect * rng.standard_normal(W1.shape))
    return tuple(map(tuple, W2.tolist())), tuple(map(tuple, W1.tolist())), eta


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 4), st.integers(0, 3),
       st.sampled_from([0.0, 1e-16, 1e-14, 3e-13, 1e-12, 3e-12, 1e-10]),
       st.sampled_from([1e-12, 1e-13, 1e-11]))  # fmt: skip
def test_float64_accepts_only_what_the_exact_check_accepts(seed, n, extra, defect, rtol):
    upper, lower, (e1, e2) = _pair(seed, n, n + extra, defect)
    fast = _certainly_balanced(upper, lower, e2, e1, rtol)
    dev, scale = _balance_defect(upper, lower, e2, e1)
    if fast:
        assert dev <= to_fraction(rtol) * scale
    if dev <= Fraction(rtol) * scale / 100:  # (well inside: the bound, ~1e-14, decides it)
        assert fast


def test_the_float64_check_declines_what_it_cannot_bound():
    upper, lower, (e1, e2) = _pair(0, 2, 3, 0.0)
    assert _certainly_balanced(upper, lower, e2, e1, 1e-12)
    assert not _certainly_balanced(upper, lower, e2, e1, 1e-17)  # (below its own rounding)
    assert not _certainly_balanced(upper, lower, "0.5", e1, 1e-12)  # (a decimal string)
    tiny = tuple(tuple(v * 1e-200 for v in row) for row in upper)
    assert not _certainly_balanced(tiny, lower, e2, e1, 1e-12)  # (squares underflow)
    mixed = ((mpmath.mpf(upper[0][0]), *upper[0][1:]), *upper[1:])
    assert not _certainly_balanced(mixed, lower, e2, e1, 1e-12)
    zero = tuple(tuple(0.0 for _ in row) for row in upper)
    assert not _certainly_balanced(zero, tuple(tuple(0.0 for _ in r) for r in lower), e2, e1,
                                   1e-12)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 3), st.integers(0, 10**6))
def test_exact_matmul_is_the_exact_product_rounded_once(r, k, c, seed):
    rng = np.random.default_rng(seed)
    with mpmath.workdps(30):
        A = np.array([[mpmath.mpf(float(v)) / 3 for v in row]
                      for row in rng.standard_normal((r, k))], dtype=object)  # fmt: skip
        B = rng.standard_normal((k, c)).astype(object)  # Python floats
        got = exact_matmul(A, B)
        for i in range(r):
            for j in range(c):
                exact = sum((to_fraction(A[i, p]) * Fraction(B[p, j]) for p in range(k)),
                            Fraction(0))  # fmt: skip
                want = mpmath.mpf(exact.numerator) / exact.denominator  # (rounded once)
                assert got[i, j] == want
        v = exact_matmul(A, B[:, 0])  # a vector
        assert v.shape == (r,) and all(v[i] == got[i, 0] for i in range(r))


def test_exact_matmul_falls_back_for_wide_spreads_and_other_entries():
    with mpmath.workdps(20):
        wide = np.array([[mpmath.mpf(2) ** (MAX_MATMUL_BITS + 10), mpmath.mpf(1)]], dtype=object)
        col = np.array([mpmath.mpf(1), mpmath.mpf(1)], dtype=object)
        assert exact_matmul(wide, col)[0] == wide[0, 0] + 1
        frac = np.array([[Fraction(1, 3)]], dtype=object)
        assert exact_matmul(frac, np.array([[Fraction(3)]], dtype=object))[0, 0] == 1
        assert exact_matmul(np.zeros((2, 2), dtype=object) * 0.0, col).tolist() == [0, 0]


@pytest.mark.parametrize("defect", [0.0, 1e-6])
def test_closed_form_decides_balance_the_same_with_the_fast_check_off(monkeypatch, defect):
    upper, lower, eta = _pair(3, 3, 5, defect)
    setup_rng = np.random.default_rng(3)
    Q, _ = np.linalg.qr(setup_rng.standard_normal((8, 3)))
    setup = dl.Setup(eta, 2.0 * Q, setup_rng.standard_normal((8, 3)))
    weights = [np.array(lower), np.array(upper)]

    def outcome():
        try:
            return type(dl.closed_form(setup, weights)).__name__
        except ValueError as exc:
            return str(exc)

    fast = outcome()
    monkeypatch.setattr(modes_module, "_certainly_balanced", lambda *a: False)
    assert outcome() == fast


@pytest.mark.parametrize("big", ["upper", "lower"])
def test_the_float64_scale_divides_by_each_layer_s_own_rate(big):
    """``D = U^T U / eta_u - L L^T / eta_l`` with ``U^T U / eta_u = 1`` and a rate of 4 on the
    named side: the exact ratio ``max|D| / scale`` is ``r``; at ``rtol = r / 2`` the float64
    check must decline (the exact check refuses), at ``rtol = 2 r`` accept (its rounding bound,
    ~1e-15, is far below the margin ``r = 4e-12``). A scale read with the rate added, or
    divided with a floor, moves one side."""
    r = 4e-12
    a, b = 2.0, float(np.sqrt(1 - r))
    if big == "upper":
        upper, lower, eu, el = ((a,),), ((b,),), 4.0, 1.0  # 4 / 4 - b^2 / 1 = r (rounded)
    else:
        upper, lower, eu, el = ((b,),), ((a,),), 1.0, 4.0  # b^2 / 1 - 4 / 4 = -r
    dev, scale = _balance_defect(upper, lower, eu, el)
    ratio = float(dev / scale)
    assert abs(ratio - r) < 1e-15
    assert not _certainly_balanced(upper, lower, eu, el, ratio / 2)
    assert _certainly_balanced(upper, lower, eu, el, 2 * ratio)
