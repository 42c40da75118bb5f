"""The stable special functions (``expm1``, ``log1p``, ``exprel``, ``logaddexp``) as every
backend evaluates them (evaluators built by the package's one generator,
``solvable._core.backends.generate``), against their elementary definitions
(``backends.elementary``) evaluated by sympy at 50 digits; at the removable point ``z = 0``
the reference is sympy's limit of the elementary form.  These are the functions the stable
closed forms are written in (xu_ziyin's ``ell``, kunin's ``phi``), so a wrong continuation
or a cancelling rewrite shows here first, on every backend."""

from __future__ import annotations

import inspect
import math

import mpmath
import numpy as np
import pytest
import sympy as sp
import threadpoolctl
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from solvable._core import backends as bk
from solvable._core.tolerance import Tolerance, error_in_units

A, B = sp.symbols("a b", real=True)
UNARY = {"expm1": bk.expm1(A), "log1p": bk.log1p(A), "exprel": bk.exprel(A)}
BINARY = {"logaddexp": bk.logaddexp(A, B)}
MP_DPS = 30
# float64: numpy / torch expm1, log1p, exp are within 1-2 ulp and exprel / logaddexp add one
# division or one addition and a log1p of an argument in (0, 1] (condition <= 1): within
# 8 eps.  The unstable textbook forms lose ~|log10 z| digits near 0, far outside this.
F64 = Tolerance(8 * np.finfo(float).eps, reason="a few roundings of correctly-rounded-ish ops")
# mpmath at 30 digits: the same few roundings at 10^-30, with 2 guard digits of headroom
MP = Tolerance(1e-28, reason="30-digit evaluation, a few roundings")


def _reference(expr: sp.Expr, args: tuple[sp.Symbol, ...], values: list[float]) -> mpmath.mpf:
    """``expr`` from its elementary definition, evaluated at 400 digits: enough for the
    cancellation in ``exp(z) - 1`` / ``log(1 + z)`` at the smallest normal double (|z| >=
    2.2e-308: 308 digits cancel, ~90 remain); the limit at a removable 0/0 (exprel(0))."""
    form = bk.elementary(expr)
    with mpmath.workdps(400):
        try:
            return bk.generate(args, form, "mpmath")(*(mpmath.mpf(v) for v in values))
        except ZeroDivisionError:
            exact = {s: sp.Rational(v) for s, v in zip(args, values, strict=True)}
            (z, z0), *rest = exact.items()
            return mpmath.mpf(sp.N(sp.limit(form.subs(dict(rest)), z, z0), 50))


def _evaluate(expr: sp.Expr, args: tuple[sp.Symbol, ...], backend: str, values: list[float]):
    fn = bk.generate(args, expr, backend)
    if backend == "numpy":
        return float(fn(*(np.float64(v) for v in values)))
    if backend == "torch":
        return float(fn(*(torch.tensor(v, dtype=torch.float64) for v in values)))
    with mpmath.workdps(MP_DPS):
        return fn(*(mpmath.mpf(v) for v in values))


def _check(expr: sp.Expr, args: tuple[sp.Symbol, ...], values: list[float]) -> None:
    ref = _reference(expr, args, values)
    for backend in bk.BACKENDS:
        got = _evaluate(expr, args, backend, values)
        tol = MP if backend == "mpmath" else F64
        with mpmath.workdps(50):
            err = error_in_units(got, ref, tol)
        assert err <= 1, (backend, str(expr), values, got, ref, err)


# arguments where every function is finite in float64: |z| <= 700 (exp overflows at 709.8);
# log1p needs z > -1.  Normal doubles and exact zeros: a subnormal carries fewer than 53
# bits, so a relative tolerance in eps cannot hold there (numpy's expm1(5e-324) is 0).
_TINY = float(np.finfo(float).tiny)
_Z = st.one_of(
    st.floats(-700, 700, allow_nan=False, allow_subnormal=False),
    st.floats(-1e-8, 1e-8, allow_nan=False, allow_subnormal=False),
    st.sampled_from([0.0, -0.0, _TINY, -_TINY, 1e-300, -1e-300]),
)


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_at_zero_is_the_limit(name):
    _check(UNARY[name], (A,), [0.0])


@pytest.mark.parametrize("name", sorted(UNARY))
@settings(max_examples=40, deadline=None)
@given(z=_Z)
def test_unary_matches_its_elementary_definition(name, z):
    if name == "log1p" and z <= -1 + 1e-12:
        z = abs(z)  # log1p is defined for z > -1
    _check(UNARY[name], (A,), [z])


@settings(max_examples=40, deadline=None)
@given(a=_Z, b=_Z)
def test_logaddexp_matches_its_elementary_definition(a, b):
    _check(BINARY["logaddexp"], (A, B), [a, b])


@pytest.mark.parametrize("backend", ["numpy", "torch", "mpmath"])
def test_logaddexp_at_the_infinities(backend):
    """log(e^a + e^b) where an argument is infinite: +inf with +inf (also both: inf - inf
    must not be formed, mpmath's branch compared the mpf with ``is`` and gave nan, a seed-20
    survivor), the other argument with -inf, -inf with both -inf."""
    inf = math.inf
    cases = [((inf, inf), inf), ((inf, 3.0), inf), ((3.0, inf), inf), ((-inf, 3.0), 3.0),
             ((3.0, -inf), 3.0), ((-inf, -inf), -inf), ((inf, -inf), inf)]  # fmt: skip
    for values, want in cases:
        assert _evaluate(BINARY["logaddexp"], (A, B), backend, list(values)) == want, values


# --- generate(..., hoist_calls=True): each repeated call made once, the same numbers --------
X_, Y_ = sp.symbols("x y", real=True)
HOISTED = (
    sp.exp(-2 * X_ * Y_) * Y_ + sp.sqrt(sp.exp(-2 * X_ * Y_) + bk.exprel(-X_)) * X_,
    sp.exp(-2 * X_ * Y_) / sp.sqrt(sp.exp(-2 * X_ * Y_) + bk.exprel(-X_)) - bk.exprel(-X_),
)


@settings(max_examples=40, deadline=None)
@given(x=st.lists(st.floats(-50, 50), min_size=1, max_size=9),
       y=st.floats(-5, 5))  # fmt: skip
def test_hoisted_calls_give_the_numbers_of_the_generated_code(x, y):
    """The evaluator with every repeated call hoisted gives, bit for bit, the numbers of
    ``lambdify``'s code (numpy; nan where both give nan); the hoisted source makes each of
    ``exp(-2 x y)``, ``exprel(-x)`` and the ``sqrt`` once and every other call as often as
    the plain code."""
    plain = bk.generate((X_, Y_), HOISTED, "numpy")
    hoisted = bk.generate((X_, Y_), HOISTED, "numpy", hoist_calls=True)
    xs = np.array(x)
    with np.errstate(all="ignore"):
        for got, want in zip(hoisted(xs, y), plain(xs, y), strict=True):
            assert np.array_equal(got, want, equal_nan=True)
    src, plain_src = inspect.getsource(hoisted), inspect.getsource(plain)
    for call in ("exp(-2 * x * y)", "exprel(-x)", "sqrt("):
        assert src.count(call) == 1, (call, src)
    assert plain_src.count("exp(") == 4 and src.count("exp(") == 1, src


def test_hoisting_leaves_a_branch_alone():
    """A call inside a conditional expression (mpmath prints ``Piecewise`` as one) is not
    made outside it: ``gamma(x)`` has a pole at 0, where its branch is not taken."""
    pw = sp.Piecewise((sp.gamma(X_), X_ > 0), (0, True))
    expr = pw * 2 + sp.Piecewise((sp.gamma(X_), X_ > 0), (1, True))
    plain = bk.generate((X_,), expr, "mpmath")
    hoisted = bk.generate((X_,), expr, "mpmath", hoist_calls=True)

    def value(fn, v):
        try:
            return fn(v)
        except ValueError as exc:  # the pole, evaluated outside its branch
            return exc

    for v in (mpmath.mpf(0), mpmath.mpf(-1), mpmath.mpf("2.5")):
        assert value(hoisted, v) == value(plain, v)


def test_numpy_exprel_on_arrays_is_its_value_entry_by_entry():
    """The generated numpy ``exprel`` on an array (divided in place, the zeros set after)
    gives, entry by entry and bit for bit, its value on each number alone (the 0-d path):
    at exact and signed zeros (the limit 1), subnormals, both overflow sides, +-inf and
    nan; the shape kept (2-d, empty)."""
    fn = bk.generate((A,), bk.exprel(A), "numpy")
    z = np.array([0.0, -0.0, 5e-324, -1e-300, 1e-8, 1.0, -700.0, 700.0, 710.0, math.inf,
                  -math.inf, math.nan])  # fmt: skip
    got = fn(z)
    each = np.array([float(fn(np.float64(v))) for v in z])
    assert got.shape == z.shape and np.array_equal(got, each, equal_nan=True)
    assert got[0] == got[1] == 1.0 and got[-3] == math.inf and got[-2] == 0.0
    assert np.isnan(got[-1]) and got[4] != 1.0  # (1e-8 is not rounded to the limit)
    both = fn(np.array([math.nan, math.inf, 0.0]))  # (a nan beside +inf: the limit still)
    assert np.isnan(both[0]) and both[1] == math.inf and both[2] == 1.0
    torch_fn = bk.generate((A,), bk.exprel(A), "torch")
    t = torch_fn(torch.tensor([math.inf, -math.inf, 0.0, math.nan], dtype=torch.float64))
    assert t[0] == math.inf and t[1] == 0 and t[2] == 1 and torch.isnan(t[3])
    with mpmath.workdps(20):
        mp_fn = bk.generate((A,), bk.exprel(A), "mpmath")
        assert mp_fn(mpmath.inf) == mpmath.inf and mp_fn(-mpmath.inf) == 0
    grid = fn(z[:6].reshape(2, 3))
    assert grid.shape == (2, 3) and np.array_equal(grid.ravel(), each[:6])
    assert fn(np.zeros((0, 3))).shape == (0, 3)


def _blas_threads() -> list[int]:
    """The threads of numpy's BLAS (the one the fast paths call), as set now."""
    infos = threadpoolctl.ThreadpoolController().select(user_api="blas").info()
    return [i["num_threads"] for i in infos if "numpy" in i["filepath"]]


def test_small_blas_work_runs_on_one_thread_and_the_setting_is_restored():
    """``blas_threads_for``: below ``SMALL_BLAS`` multiply-adds BLAS runs one thread inside
    the context, at or above it as configured; either way the setting after is the one
    before.  ``fill_in_halves``'s two threads run BLAS on one thread too, its one-thread
    path as configured (BLAS set to 2 threads around the test, so that 1 is a change)."""
    np.ones((2, 2)) @ np.ones((2, 2))  # (BLAS loaded)
    assert _blas_threads(), "numpy's BLAS is not seen by threadpoolctl"
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        context = bk.blas_threads_for(bk.SMALL_BLAS - 1)
        assert set(_blas_threads()) == {2}  # (made, not entered: nothing set yet)
        with context:
            assert set(_blas_threads()) == {1}
        assert set(_blas_threads()) == {2}
        with bk.blas_threads_for(bk.SMALL_BLAS):
            assert set(_blas_threads()) == {2}
        seen: list[list[int]] = []

        def fill(start: int, stop: int) -> int:
            seen.append(_blas_threads())
            return stop - start

        assert bk.fill_in_halves(fill, 10, 2, 100, 10) == [6, 4]  # two threads
        assert bk.fill_in_halves(fill, 10, 2, 19, 10) == [10]  # one (below 2 x threshold)
        assert [set(s) for s in seen] == [{1}, {1}, {2}]
        assert set(_blas_threads()) == {2}


@pytest.mark.parametrize("args, expr, bad", [
    (("x",), "X", "args"),                  # a string where a symbol belongs
    ("x", "X", "args"),                     # a string for the whole sequence
    (("X",), "x**2", "expr"),               # a string sympy would eval
    (("X",), ("X", "y"), "expr"),
    (("X",), None, "expr"),
    ((("X",), "y"), "X", "args"),           # a string inside a group
])  # fmt: skip
def test_generate_refuses_anything_but_sympy_objects(args, expr, bad):
    """``generate``'s ``args`` and ``expr`` must be sympy objects (or nested tuples / lists
    of them, empty groups included): a string, which ``lambdify`` would ``eval``, is a
    ``TypeError`` naming the argument."""
    x = sp.Symbol("x")

    def sym(v):
        if isinstance(v, tuple):
            return tuple(sym(w) for w in v)
        return x if v == "X" else v

    with pytest.raises(TypeError, match=f"^{bad} must be"):
        bk.generate(sym(args), sym(expr), "numpy")


def test_generate_takes_groups_of_arguments_empty_ones_too():
    x, c = sp.Symbol("x"), sp.Symbol("c")
    assert bk.generate(((x,), ()), x**2, "numpy")((3.0,), ()) == 9.0
    assert bk.generate(((), (c,)), sp.Integer(2) * c, "numpy")((), (4.0,)) == 8.0
    assert bk.generate([x], (x, (x**2,)), "numpy")(2.0) == (2.0, (4.0,))
