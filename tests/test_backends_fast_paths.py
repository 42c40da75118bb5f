"""The fast paths of the generated evaluators (issue 17) give the reference path's answers.

* numpy: ``select`` (sympy's ``Piecewise``) called with scalars only (a scipy right-hand
  side evaluated one entry at a time) takes the first true branch directly instead of
  broadcasting; the result must be the general path's, bit for bit: the same value (signed
  zeros and nan included), dtype and type.
* torch: ``Piecewise((v, x <= t), (x, True))`` (ReLU's evaluated form) is printed as
  ``torch.threshold(x, t, v)`` instead of ``where(le(x, t), v, x)``; values, signs of zero
  and first and second autograd derivatives must be those of the where form (relu'(0) = 0,
  relu(-0.0) = +0.0; ``torch.relu`` would give -0.0 there).
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import sympy as sp
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from sympy.printing.pytorch import TorchPrinter

from solvable._core import activations as act
from solvable._core import backends as bk

Z = act.Z


# ---------------------------------------------------------------------------
# numpy select: scalar fast path == broadcasting path
# ---------------------------------------------------------------------------
def _same(got, ref) -> None:
    """Equal bit for bit: type, dtype, shape and the bytes (nan payloads and -0.0 too)."""
    assert type(got) is type(ref), (type(got), type(ref))
    assert got.dtype == ref.dtype and got.shape == ref.shape, (got, ref)
    assert got.tobytes() == ref.tobytes(), (got, ref)


_SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e308, np.inf, -np.inf, np.nan]
_FLOAT = st.one_of(st.floats(allow_nan=True), st.sampled_from(_SPECIAL))
# a choice in each form the generated code passes: Python numbers, numpy scalars of
# several dtypes, 0-d arrays
_CHOICE = st.one_of(
    _FLOAT,
    _FLOAT.map(np.float64),
    st.floats(width=32).map(np.float32),
    _FLOAT.map(lambda v: np.asarray(v)),
    st.integers(-(2**40), 2**40),
    st.integers(-5, 5).map(np.int64),
    st.booleans(),
)
# conditions: booleans of every kind, and the 0.0 / 1.0 (or nan) of a nested
# boolean-valued Piecewise
_COND = st.one_of(
    st.booleans(),
    st.booleans().map(np.bool_),
    st.booleans().map(lambda b: np.asarray(b)),
    st.sampled_from([0.0, 1.0, np.nan, -0.0]),
    st.sampled_from([0.0, 1.0]).map(np.float64),
)


@settings(max_examples=300, deadline=None)
@given(branches=st.lists(st.tuples(_COND, _CHOICE), min_size=1, max_size=4))
def test_scalar_select_is_the_broadcasting_select(branches):
    conds, choices = [c for c, _ in branches], [v for _, v in branches]
    _same(bk._np_select(conds, choices), bk._np_select_arrays(conds, choices))


@pytest.mark.parametrize(
    ("conds", "choices"),
    [
        ([False, False], [1.0, 2.0]),  # no branch: the default nan
        ([True, True], [-0.0, 2.0]),  # the first of two true branches, signed zero
        ([np.bool_(False), True], [np.float32(1.5), np.float32(-0.0)]),  # float32 stays
        ([1.0, True], [3, 4]),  # integer choices: float64 (the nan default)
        ([np.nan, True], [2.5, 1.0]),  # a nan condition is true, as in astype(bool)
        ([True], [np.float64(7.0)]),
    ],
)
def test_scalar_select_pinned(conds, choices):
    got = bk._np_select(conds, choices)
    _same(got, bk._np_select_arrays(conds, choices))
    assert got.ndim == 0


def test_select_with_an_array_takes_the_broadcasting_path():
    conds, choices = [np.array([True, False]), True], [0.5, np.array([1.0, 2.0])]
    got = bk._np_select(conds, choices)
    assert np.array_equal(got, [0.5, 2.0])
    _same(got, bk._np_select_arrays(conds, choices))
    with pytest.raises(ValueError, match="same length"):
        bk._np_select([True], [1.0, 2.0])


_PIECEWISE = sp.Piecewise(
    (Z**2, Z < -1), (-Z, Z <= 0), (sp.Piecewise((1, Z > 3), (0, True)) * Z, sp.Eq(Z, 5)),
    (sp.sin(Z), True)
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(z=st.one_of(st.floats(-10, 10), st.sampled_from([-1.0, 0.0, -0.0, 5.0, 3.0])))
def test_generated_piecewise_scalar_equals_array(z):
    """The generated numpy evaluator at a scalar (the fast path) against the same
    evaluator on an array holding it (the broadcasting path)."""
    fn = bk.generate((Z,), _PIECEWISE, "numpy")
    one = fn(np.float64(z))
    arr = fn(np.array([z, 0.5]))
    assert np.asarray(one).tobytes() == arr[:1].tobytes()


# ---------------------------------------------------------------------------
# torch: threshold == where(le(x, t), v, x), values and derivatives
# ---------------------------------------------------------------------------
def _stock(expr: sp.Expr):
    """``expr`` generated with sympy's own TorchPrinter (``where(le(x, t), v, x)``): the
    reference form."""
    names = tuple(sorted(bk.namespace("torch")[0]))
    printer = TorchPrinter({"fully_qualified_modules": False, "inline": True,
                            "allow_unknown_functions": True,
                            "user_functions": {n: n for n in names}})  # fmt: skip
    return bk.generate((Z,), expr, "torch", printer=printer)


_TINY64 = float(np.finfo(np.float64).tiny)
_EDGES = [0.0, -0.0, 5e-324, -5e-324, _TINY64, -_TINY64, 1e-300, -1e-300, 1.0, -1.0,
          1e308, -1e308, float(np.finfo(np.float64).max), -float(np.finfo(np.float64).max),
          float("inf"), float("-inf"), float("nan"), -2.0, 2.0, -3.0, 3.0]  # fmt: skip


def _values_and_derivatives(fn, z: torch.Tensor):
    """``fn(z)``, d/dz and d2/dz2 of ``c * fn(z)^2`` (the second derivative goes through the
    first one's backward: double backward of the piecewise branch), entrywise."""
    z = z.detach().clone().requires_grad_(True)
    y = fn(z)
    (g,) = torch.autograd.grad(y.sum(), z, create_graph=True)
    sq = (0.7 * fn(z) ** 2).sum()
    (g2,) = torch.autograd.grad(sq, z, create_graph=True)
    (h,) = torch.autograd.grad(g2.sum(), z, allow_unused=True)
    return y.detach(), g.detach(), g2.detach(), (torch.zeros_like(z) if h is None else h)


def _check_same(expr: sp.Expr, z: torch.Tensor) -> None:
    fast, ref = bk.generate((Z,), expr, "torch"), _stock(expr)
    for a, b in zip(_values_and_derivatives(fast, z), _values_and_derivatives(ref, z),
                    strict=True):  # fmt: skip
        assert a.dtype == b.dtype == z.dtype
        assert torch.equal(torch.signbit(a), torch.signbit(b)), (expr, z, a, b)
        assert torch.equal(torch.isnan(a), torch.isnan(b)), (expr, z, a, b)
        assert torch.equal(torch.nan_to_num(a), torch.nan_to_num(b)), (expr, z, a, b)


_FORMS = {
    "relu": act.evaluated_form("relu"),
    "shifted": sp.Piecewise((3, Z <= -2), (Z, True)),  # threshold(z, -2, 3)
    "strict": sp.Piecewise((0, Z < 0), (Z, True)),  # not the threshold form: where
}


@pytest.mark.parametrize("form", sorted(_FORMS))
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_threshold_form_is_the_where_form_at_the_edges(form, dtype):
    _check_same(_FORMS[form], torch.tensor(_EDGES, dtype=torch.float64).to(dtype))


@pytest.mark.parametrize("form", sorted(_FORMS))
@settings(max_examples=40, deadline=None)
@given(zs=st.lists(st.floats(width=64), min_size=1, max_size=8))
def test_threshold_form_is_the_where_form(form, zs):
    _check_same(_FORMS[form], torch.tensor(zs, dtype=torch.float64))


def test_relu_is_printed_as_threshold_and_others_as_where():
    relu = act.evaluator("relu", "torch")
    assert "threshold(z, 0.0, 0.0)" in inspect.getsource(relu)
    assert "threshold(z, -2.0, 3.0)" in inspect.getsource(bk.generate((Z,), _FORMS["shifted"],
                                                                         "torch"))  # fmt: skip
    for expr in (_FORMS["strict"], sp.Piecewise((0, Z <= sp.Rational(1, 3)), (Z, True)),
                 sp.Piecewise((0, Z <= 1000), (Z, True)),
                 sp.Piecewise((0, Z <= 0), (2 * Z, True))):  # fmt: skip
        assert bk._threshold_form(expr) is None, expr
        assert "threshold" not in inspect.getsource(bk.generate((Z,), expr, "torch"))
    z = torch.tensor([-0.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    y = relu(z)
    assert y.tolist() == [0.0, 0.0, 2.0] and not torch.signbit(y).any()
    (g,) = torch.autograd.grad(y.sum(), z)
    assert g.tolist() == [0.0, 0.0, 1.0]  # relu'(0) = 0, the sympy derivative's Heaviside(z, 0)


def test_relu_under_vmap_jacrev_is_the_where_form():
    """The NTK code differentiates the ReLU with torch.func (vmap of jacrev)."""
    from torch.func import jacrev, vmap

    fast, ref = act.evaluator("relu", "torch"), _stock(act.evaluated_form("relu"))
    w = torch.tensor([0.3, -0.7, 1.1, 2.0], dtype=torch.float64)
    z = torch.tensor([[-0.0, 0.0, 1.0, -2.0], [3.0, -1e-300, 1e-300, 0.5]], dtype=torch.float64)
    for order in (1, 2):
        outs = []
        for fn in (fast, ref):
            g = lambda x, fn=fn: (w * fn(x) ** 2).sum()  # noqa: E731
            d = jacrev(g) if order == 1 else jacrev(jacrev(g))
            outs.append(vmap(d)(z))
        assert torch.equal(outs[0], outs[1])
