"""linear_node_scaling's float64 sample by batches of times (seed 000, Theorem 7.4): a state
does not depend on the times sampled with it, the matrix products of a fixed shape that make
this so (``_matvecs``), the exact scaling by powers of two (``times_power_of_two``), the
rank one written into the output (``rank_one_into``) and the outputs' parts that the fast
path evaluates (``f_t_y``, ``f_t_w``, ``residual_t_y``)."""

from __future__ import annotations

import math
from unittest import mock

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core.scaled import times_power_of_two
from solvable.models import linear_node_scaling as lns
from solvable.models import node_scaling as ns
from solvable.models.linear_node_scaling import _evaluators as ev
from solvable.models.linear_node_scaling import float64_sample as lns_f64
from solvable.models.linear_node_scaling.expressions import symbolic


def _trajectory(seed: int, n: int, d: int, m: int):
    rng = np.random.default_rng(seed)
    X, y = rng.standard_normal((n, d)), rng.standard_normal(n)
    lam, a = rng.uniform(0.1, 1.0, m), rng.choice([-1.0, 1.0], m)
    W0 = rng.standard_normal((m, d))
    return lns.closed_form(ns.Setup(X, y, lam, "linear", 0.7), a, W0)


# ------------------------------------------------- a state does not depend on its batch
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 9), d=st.integers(1, 9),
       m=st.integers(1, 6), T=st.integers(1, 3 * ev.GEMM_ROWS + 5),
       threads=st.booleans())  # fmt: skip
def test_each_state_is_the_one_sampled_alone(seed, n, d, m, T, threads):
    """Bit for bit, whatever the batch: T times (up to three blocks of matrix products and a
    part; or, ``threads``, chunks of 32 times in W blocks of 16, the chunks' two halves in
    two threads) against each time alone (one block, padded).  numpy's ``matmul`` of a
    stack and BLAS's gemm round by shape, so a product per batch of times would make a
    state depend on the others (a change tried and dropped for this)."""
    traj = _trajectory(seed, n, d, m)
    rng = np.random.default_rng(seed)
    times = np.concatenate([[0.0, np.inf], rng.exponential(3.0, T)])[:T]
    split = {"PARALLEL_SAMPLE": 1, "_CHUNK_TIMES": 32, "_BLOCK_BYTES": 16 * 8 * m * d}
    whole = {"PARALLEL_SAMPLE": 2**62}
    with mock.patch.multiple(lns_f64, **(split if threads else whole)):
        many = traj.sample(times)
    for i in sorted({0, T - 1, T // 2, min(T - 1, ev.GEMM_ROWS)}):
        one = traj.sample(times[i : i + 1])
        np.testing.assert_array_equal(many.W[i], one.W[0])
        np.testing.assert_array_equal(many.f[i], one.f[0])
        np.testing.assert_array_equal(many.loss[i], one.loss[0])


def test_blas_runs_one_thread_while_sampling(monkeypatch):
    """The products of one shape give one rounding only if BLAS splits them the same way:
    the sample enters :func:`one_blas_thread` (one thread) for the whole fill, the one-thread
    path included (a sample below ``PARALLEL_SAMPLE`` entries)."""
    from threadpoolctl import threadpool_info

    seen = []
    real = lns_f64.fill_in_halves

    def spy(*args):
        seen.append([i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"])
        return real(*args)

    monkeypatch.setattr(lns_f64, "fill_in_halves", spy)
    _trajectory(0, 5, 4, 3).sample(np.linspace(0, 2, 10))
    assert len(seen) == 1 and seen[0] and set(seen[0]) == {1}, seen


# ----------------------------------------------------------------- _matvecs
@pytest.mark.parametrize("T", [0, 1, ev.GEMM_ROWS - 1, ev.GEMM_ROWS, ev.GEMM_ROWS + 1, 300])
def test_matvecs_is_the_product_of_each_column(T):
    """``x @ y[t]`` for every t, to the rounding of a sum of q products (the values of
    numpy's own product per time within q eps of the largest term), shaped (T, p, 1)."""
    rng = np.random.default_rng(T)
    x, y = rng.standard_normal((7, 5)), rng.standard_normal((T, 5, 1))
    got = ev._matvecs(x, y)
    assert got.shape == (T, 7, 1)
    ref = np.matmul(x, y)
    scale = np.abs(x) @ np.abs(y)  # the sum of the terms' sizes, per entry
    assert np.all(np.abs(got - ref) <= 5 * np.finfo(float).eps * scale)
    if T:  # the values themselves, not a shape: a wrong column or block is far off
        np.testing.assert_allclose(got[-1, :, 0], x @ y[-1, :, 0], rtol=1e-14, atol=0)


def test_matvecs_calls_one_shape_only(monkeypatch):
    """Every BLAS product of ``_matvecs`` has exactly ``GEMM_ROWS`` rows: the last block is
    padded (a remainder of other shape would be rounded by other kernels), and the padding
    does not reach the result."""
    shapes = []
    real = np.matmul

    def spy(a, b, *args, **kw):
        shapes.append(a.shape)
        return real(a, b, *args, **kw)

    monkeypatch.setattr(np, "matmul", spy)
    rng = np.random.default_rng(1)
    x, y = rng.standard_normal((3, 4)), rng.standard_normal((2 * ev.GEMM_ROWS + 7, 4, 1))
    got = ev._matvecs(x, y)
    monkeypatch.undo()
    assert shapes == [(ev.GEMM_ROWS, 4)] * 3
    np.testing.assert_allclose(got[..., 0], y[..., 0] @ x.T, rtol=1e-13, atol=0)


def test_the_fast_printer_uses_matvecs_only_to_the_right_of_a_mode_matrix():
    """In ``c_t`` the fixed ``V^T (...)`` is one matrix product (no times yet), ``V`` times
    the columns ``G (...)`` of each time is ``matvecs``."""
    import inspect

    src = inspect.getsource(ev._fast_evaluator("c_t"))
    assert "matvecs(V, dmul(G, matmul(T(V)," in src, src
    src = inspect.getsource(ev._fast_evaluator("f_t_w"))
    assert src.count("matvecs(") == 1 and "matvecs(U, dmul(E," in src, src


# --------------------------------------------------------- rank_one_into
def test_rank_one_into_writes_the_outer_product_into_its_argument():
    rng = np.random.default_rng(2)
    s, a, c = rng.random((4, 1)), rng.standard_normal((4, 1)), rng.standard_normal((3, 5, 1))
    out = np.full((3, 4, 5), np.nan)
    got = ev._fast_evaluator("rank_one_into")(s, a, c, out)
    assert got is out
    np.testing.assert_array_equal(out, ev._fast_evaluator("rank_one")(s, a, c))
    np.testing.assert_array_equal(out[1], (a * s) @ c[1].T)


def test_the_into_printer_refuses_what_is_not_one_outer_product():
    """Only an expression that is one outer product can be written into ``out``; ``c_t``
    (a chain of products) is refused, not printed with a misplaced ``out``."""
    with pytest.raises(NotImplementedError, match="not one outer product"):
        ev.generate(ev._FAST_ARGS["c_t"], symbolic().c_t, "numpy", printer=ev._IntoPrinter,
                    extra={"matvecs": ev._matvecs})  # fmt: skip


# ------------------------------------------------------ times_power_of_two
_EDGE = [0.0, -0.0, 1.0, -3.5, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
         math.inf, -math.inf, 1 / 3]  # fmt: skip


@pytest.mark.parametrize("e", [0, 1, -1, 52, -1022, -1023, 1023, 1024, -1074, 2000, -2000])
def test_times_power_of_two_is_ldexp_bit_for_bit(e):
    """A multiplication by ``2^e`` where that is a normal float (-1022..1023), ldexp beyond
    (1024: 2^e overflows; -1023, -1074: 2^e subnormal or below): the same values as
    ``numpy.ldexp`` for each, subnormal results, infinities and signed zeros included."""
    v = np.array(_EDGE + [-x for x in _EDGE])
    with np.errstate(over="ignore"):
        ref = np.ldexp(v, e)
    got = times_power_of_two(v, e)  # overflow not reported (as documented)
    np.testing.assert_array_equal(got, ref)
    assert np.array_equal(np.signbit(got), np.signbit(ref))
    np.testing.assert_array_equal(times_power_of_two(v, np.full((v.size,), e)), ref)
    with np.errstate(over="ignore"):  # one exponent per entry, not all equal: ldexp itself
        mixed = np.ldexp(v, np.arange(v.size) % 3 + e)
    np.testing.assert_array_equal(times_power_of_two(v, np.arange(v.size) % 3 + e), mixed)


@settings(max_examples=200, deadline=None)
@given(x=st.floats(allow_nan=False), e=st.integers(-1100, 1100), same=st.booleans())
def test_times_power_of_two_matches_ldexp_everywhere(x, e, same):
    v = np.array([x, -x, x / 3])
    es = np.array([e, e, e]) if same else np.array([e, e - 1, e + 1])
    got = times_power_of_two(v, es)
    with np.errstate(over="ignore"):
        ref = np.ldexp(v, es)
    np.testing.assert_array_equal(got, ref)
    assert np.array_equal(np.signbit(got), np.signbit(ref))


def test_times_power_of_two_writes_into_out_and_leaves_v():
    v = np.array([1.0, -2.0, 3e-310])
    out = np.empty(3)
    assert times_power_of_two(v, 3, out=out) is out
    np.testing.assert_array_equal(out, np.ldexp(v, 3))  # 3e-310 8: a subnormal, rounded
    assert out[0] == 8.0 and out[1] == -16.0
    np.testing.assert_array_equal(v, [1.0, -2.0, 3e-310])
    assert times_power_of_two(v, 0) is v  # nothing to scale: v itself, no copy
    out0 = np.empty(3)
    assert times_power_of_two(v, np.zeros(3, dtype=int), out=out0) is out0
    np.testing.assert_array_equal(out0, v)


# ---------------------------------------------------- the parts of the outputs
def test_the_outputs_are_the_sums_of_their_parts():
    """The fast path evaluates ``f_t_y``, ``f_t_w`` and ``residual_t_y`` and forms ``f =
    f_t_w + f_t_y`` and ``y - f = residual_t_y - f_t_w``: sympy reduces both differences to
    the zero matrix (the claims check ``f_t`` and ``residual_t`` against the network)."""
    s = symbolic()
    for whole, parts in ((s.f_t, s.f_t_w + s.f_t_y), (s.residual_t, s.residual_t_y - s.f_t_w)):
        diff = (whole - parts).doit()
        assert isinstance(sp.simplify(diff), sp.ZeroMatrix) or diff == sp.ZeroMatrix(*diff.shape)
    # and the parts are not zero: a swapped part would not add up
    assert s.f_t_y != s.f_t_w and (s.f_t - s.f_t_y).doit() != s.f_t_y


# ------------------------------------------------ both parts' mode coefficients in one scale
@pytest.mark.parametrize(
    "y_scale, w_scale, fused",
    [(1e150, 1e-160, False), (1e-160, 1e150, False), (1e150, 1e-140, True), (1.0, 1.0, True)],
)
def test_parts_far_apart_in_scale_are_taken_apart(y_scale, w_scale, fused):
    """``_fused_modes`` adds the y-part's and the W_0-part's mode coefficients in the larger
    part's scale only where that scaling is exact: y at 1e150 and W_0 at 1e-160 (1029
    binades apart: the smaller part's coefficients would be subnormal) take the two parts
    apart at every time, 1e150 and 1e-140 (963 binades) still fuse.  Either way W and f
    match the dps = 30 reference to 64 eps of each time's largest entry (measured 5-25 eps:
    a chain of about six rounded products of k = 3 terms each, with cond(X) = 4.8)."""
    rng = np.random.default_rng(3)
    X, y = rng.standard_normal((4, 3)), y_scale * rng.standard_normal(4)
    lam, a, W0 = (
        rng.uniform(0.1, 1, 2),
        np.array([1.0, -1.0]),
        w_scale * rng.standard_normal((2, 3)),
    )
    setup = ns.Setup(X, y, lam, "linear", 0.5)
    traj = lns.closed_form(setup, a, W0)
    assert (traj._fused_modes() is not None) is fused
    times = [0.0, 0.3, 2.0, math.inf]
    got = traj.sample(times)
    ref = lns.closed_form(setup, a, W0, dps=30).sample(times)
    eps = np.finfo(float).eps
    for name in ("W", "f"):
        want = np.array(getattr(ref, name).tolist(), dtype=float)
        axes = tuple(range(1, want.ndim))
        scale = np.max(np.abs(want), axis=axes, keepdims=True)
        assert np.all(np.abs(getattr(got, name) - want) <= 64 * eps * scale), name


def test_fusable_decides_each_bound_from_both_sides():
    """``_fusable``'s three conditions per time, each just inside and just outside (1% off
    the bound), on nodes whose ``u = sqrt(lam) a`` (the mantissas) differ by 1e3: a nonzero
    ``c_j`` needs ``u_min |c_j| >= 2^-1022`` (every product normal; outsider mutants that
    took ``tiny`` alone, or ``u_min`` for ``u_max`` in the overflow bound, survived the
    sample tests), ``u_max |c_j| <= 2^1022``, and a nonzero mantissa ``c_m`` must not be
    lost to 0 by the rescaling; a zero is taken, a nan or an infinity is not."""
    rng = np.random.default_rng(4)
    X, y = rng.standard_normal((5, 3)), rng.standard_normal(5)
    # (lam and a of largest entries 0.9: their mantissas are 0.9, so u_max = 0.85 and the
    # overflow bound 2^1022 / u_max lies below the largest double)
    traj = lns.closed_form(ns.Setup(X, y, [1e-6, 0.5, 0.9], "linear", 0.5), [0.9, -0.9, 0.9],
                           rng.standard_normal((3, 3)))  # fmt: skip
    k = traj._data
    u = np.abs(k["s"] * k["a"])[:, 0]
    u_min, u_max = float(u.min()), float(u.max())
    tiny, huge = 2.0**-1022, 2.0**1022
    # the bounds differ from their naive forms: tiny / u_min > tiny, huge / u_max < huge / u_min
    assert u_min < 1e-2 and u_max > 100 * u_min and 1.01 * huge / u_max < math.inf

    def fused(value, mantissa=None):
        c = np.array([[[1.0], [value]]])  # one time, d = 2: a unit entry and the probe
        c_m = c if mantissa is None else np.array([[[1.0], [mantissa]]])
        return bool(traj._fusable(c_m, c)[0])

    assert fused(1.01 * tiny / u_min) and not fused(0.99 * tiny / u_min)
    assert fused(0.99 * huge / u_max) and not fused(1.01 * huge / u_max)
    assert fused(0.0) and fused(-0.0) and not fused(0.0, mantissa=0.5)
    assert not fused(math.nan) and not fused(math.inf) and not fused(-math.inf)
