"""The exact instance the symbolic claims of seed 000, Section 7.2 run on: a small generic network
of :func:`solvable.models.node_scaling.loss` (``sigma = id``) whose entries live in a field of
rational functions, the package's gradient (from
:func:`solvable.models.node_scaling.flow_symbolic`) and outputs evaluated there, and the
generated matrix evaluators run in that exact arithmetic.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp
from sympy.polys.fields import field as rational_field

from solvable._core.activations import Z, activation
from solvable._core.backends import generate
from solvable.models import node_scaling as ns
from solvable.models.linear_node_scaling._evaluators import (
    _MATRIX_ARGS,
    _BatchedPrinter,
    _matrix_namespace,
)
from solvable.models.linear_node_scaling.expressions import (
    _E,
    _G,
    _R,
    _U,
    _V,
    _W0,
    _a,
    _d,
    _Dinv,
    _Dm,
    _s,
    _Xp,
    _y,
    symbolic,
)
from solvable.models.node_scaling.network import _network_output

# ---------------------------------------------------------------------------
# symbolic claims, on an instance of the package's network (node_scaling.loss)
# ---------------------------------------------------------------------------
_QU = sp.Matrix([[1, 2, 2], [2, 1, -2], [2, -2, 1]]) / 3  # rational orthogonal matrices
_QV = sp.Matrix([[2, 3, 6], [3, -6, 2], [6, 2, -3]]) / 7
_QH = sp.Matrix([[1, 1, 1, 1], [1, 1, -1, -1], [1, -1, 1, -1], [1, -1, -1, 1]]) / 2
_SIGNS = ((1, 1), (1, -1), (-1, 1), (-1, -1))  # every a in {-1, 1}^2 (eq. (3))


def _obj(M: Any) -> np.ndarray:
    return np.array(M.tolist() if isinstance(M, sp.MatrixBase) else list(M), dtype=object)


@functools.cache
def _instance() -> dict[str, Any]:
    """A small generic instance: n = 3, d = 4 (sqrt(d) = 2, rational), rank k = 2 (so U U^T
    != I and V V^T != I), m = 2 nodes; U, V two columns of rational orthogonal matrices,
    everything else symbolic (D, y, W0, s = sqrt(lambda) > 0, a real non-zero, the rate eta >
    0).  ``flow`` is the sympy gradient flow of loss (5)
    (:func:`solvable.models.node_scaling.flow_symbolic`, linear) and ``values`` sets its parameters
    to
    this data.  ``K`` is the field of rational functions in every symbol used here: the claims
    evaluate the package's expressions in it (exact arithmetic, a residual is 0 in ``K`` iff it
    is identically 0), which is much faster than simplifying large sympy expressions."""
    n, d, k, m = 3, 4, 2, 2
    U, V = _QU[:, :k], _QH[:, :k]
    D = sp.diag(*sp.symbols("D1:3", positive=True))
    X = U * D * V.T
    y = sp.Matrix(sp.symbols("y1:4", real=True))
    s = sp.symbols("s1:3", positive=True)
    a = sp.symbols("a1:3", real=True, nonzero=True)
    W0 = sp.Matrix(m, d, sp.symbols("w1:9", real=True))
    W = sp.Matrix(m, d, sp.symbols("v1:9", real=True))
    flow = ns.flow_symbolic(n, d, m, "linear")
    eta = flow.params[0]
    values = dict(zip(flow.params, [eta, *X, *y, *s], strict=True))
    extra = dict(z=sp.symbols("z1:3", real=True), g=sp.symbols("g1:3"), E=sp.symbols("E1:3"),
                 xp=sp.symbols(f"x1:{d + 1}", real=True), eta_gd=sp.Symbol("eta_gd"))  # fmt: skip
    gens = (*D.diagonal(), *y, *s, *a, *W0, eta)
    return dict(n=n, d=d, k=k, m=m, U=U, V=V, D=D, X=X, y=y, s=s, a=a, W0=W0, W=W, eta=eta,
                flow=flow, values=values, gens=gens, K=rational_field(gens, sp.QQ)[0],
                **extra)  # fmt: skip


@functools.cache
def _instance_with(*names: str) -> dict[str, Any]:
    """:func:`_instance` with the field ``K`` extended by the extra symbols ``names`` (``"W"``,
    ``"z"``, ``"g"``, ``"E"``, ``"xp"``, ``"eta_gd"``): fewer generators, faster arithmetic."""
    inst = _instance()
    extra = [x for q in names for x in (inst[q] if q != "eta_gd" else [inst[q]])]
    return {**inst, "K": rational_field([*inst["gens"], *extra], sp.QQ)[0]}


def _F(value: Any, inst: dict[str, Any]) -> Any:
    """Sympy matrices / sequences / expressions as (object arrays of) elements of ``K``."""
    K = inst["K"]
    if isinstance(value, sp.MatrixBase):
        return np.array([[K.from_expr(v) for v in row] for row in value.tolist()], dtype=object)
    if isinstance(value, (list, tuple)):
        return np.array([K.from_expr(sp.sympify(v, strict=True)) for v in value], dtype=object)
    return K.from_expr(sp.sympify(value, strict=True))


def _zero(values: Any) -> list[sp.Expr]:
    """Residuals computed in ``K`` as sympy expressions (``0`` exactly when they vanish)."""
    return [v.as_expr() for v in np.asarray(values, dtype=object).ravel()]


def _evaluate(expr: sp.Expr, vals: dict[sp.Symbol, Any], K: Any, memo: dict) -> Any:
    """A polynomial sympy expression (the package's flow) evaluated in ``K``."""
    if expr in memo:
        return memo[expr]
    if expr.is_Symbol:
        out = vals[expr]
    elif expr.is_Number:
        out = K.from_expr(expr)
    elif expr.is_Add or expr.is_Mul:
        parts = [_evaluate(x, vals, K, memo) for x in expr.args]
        out = functools.reduce(lambda p, q: p + q if expr.is_Add else p * q, parts)
    elif expr.is_Pow and expr.exp.is_Integer:
        out = _evaluate(expr.base, vals, K, memo) ** int(expr.exp)
    else:  # pragma: no cover - the linear network's flow is polynomial
        raise TypeError(f"cannot evaluate {expr} in the rational function field")
    memo[expr] = out
    return out


def _gradient(W: np.ndarray, inst: dict[str, Any], a: Any = None) -> np.ndarray:
    """``grad_W L`` of loss (5), in ``K``: minus the W-block of the package's sympy flow (the
    one definition, :func:`solvable.models.node_scaling.flow_symbolic`) divided by ``eta``, at the
    weights ``W`` (an (m, d) array in ``K``) and output weights ``a``."""
    flow, K = inst["flow"], inst["K"]
    a = _F(list(inst["a"] if a is None else a), inst)
    vals = {**dict(zip(flow.block("a").ravel(), a, strict=True)),
            **dict(zip(flow.block("W").ravel(), W.ravel(), strict=True)),
            **{q: _F(v, inst) for q, v in inst["values"].items()}}  # fmt: skip
    rhs = dict(zip(flow.state, flow.rhs, strict=True))
    memo: dict = {}
    eta = _F(inst["eta"], inst)
    return np.array([-_evaluate(rhs[w], vals, K, memo) / eta for w in flow.block("W").ravel()],
                    dtype=object).reshape(W.shape)  # fmt: skip


def _outputs(W: np.ndarray, inst: dict[str, Any], X: Any = None, a: Any = None) -> np.ndarray:
    """``f`` of eq. (2) (sigma = id) on the rows of ``X`` (default the data), in ``K``:
    :func:`solvable.models.node_scaling.network_output`, the one definition (its unchecked form:
    the entries are rational functions, elements of ``K``, not numbers)."""
    X = _F(inst["X"] if X is None else X, inst)
    a = _F(list(inst["a"] if a is None else a), inst)
    sigma = np.vectorize(sp.lambdify(Z, activation("linear")), otypes=[object])
    return _network_output(W, a, _F(list(inst["s"]), inst), X, sigma, 2)  # sqrt(d) = 2


def _beta(W: np.ndarray, inst: dict[str, Any], a: Any = None) -> np.ndarray:
    """``beta(W)`` read off the network: ``f(e_k) = beta_k/sqrt(d)`` for the unit vectors."""
    return 2 * _outputs(W, inst, sp.eye(inst["d"]), a)


@functools.cache
def _field_evaluator(name: str, K: Any) -> Callable[..., Any]:
    """The generated evaluator of ``name`` (the same lambdified code as the numpy / mpmath
    ones) with a namespace for object arrays of elements of the instance's field ``K``
    (``sqrt(4) = 2`` exactly; scalars as 0-d object arrays, so that they broadcast)."""

    def identity(n: Any) -> np.ndarray:
        return np.array([[K.one if i == j else K.zero for j in range(int(n))]
                         for i in range(int(n))], dtype=object)  # fmt: skip

    space = {
        **_matrix_namespace("mpmath"),
        "identity": identity,
        "sqrt": lambda v: np.array(K.from_expr(sp.sqrt(sp.sympify(v, strict=True))), dtype=object),
    }
    return generate(_MATRIX_ARGS[name], getattr(symbolic(), name), "numpy",
                    printer=_BatchedPrinter, extra=space)  # fmt: skip


def _explicit(name: str, inst: dict[str, Any], *, G: sp.Matrix | None = None,
              Xp: sp.Matrix | None = None, a: Any = None,
              E: sp.Matrix | None = None) -> np.ndarray:  # fmt: skip
    """The generated evaluator of the matrix expression ``name`` of :func:`symbolic`, run on
    the instance in exact arithmetic (elements of ``K``)."""
    a = inst["a"] if a is None else a
    col = lambda v: _F(sp.Matrix(list(v)), inst)  # noqa: E731
    values = {
        _d: inst["d"],
        _y: col(inst["y"]),
        _U: _F(inst["U"], inst),
        _Dinv: _F(inst["D"].inv(), inst),
        _V: _F(inst["V"], inst),
        _W0: _F(inst["W0"], inst),
        _s: col(inst["s"]),
        _a: col(a),
        _G: None if G is None else _F(G, inst),
        _E: None if E is None else _F(E, inst),
        _Dm: _F(inst["D"], inst),
        _Xp: None if Xp is None else _F(Xp, inst),
    }
    # R, the part of y off the range of X, from its own expression (y - U U^T y)
    values[_R] = _field_evaluator("least_residual", inst["K"])(values[_y], values[_U])
    out = _field_evaluator(name, inst["K"])(*[values[q] for q in _MATRIX_ARGS[name]])
    return np.asarray(out, dtype=object)


def _sa(inst: dict[str, Any], a: Any = None) -> np.ndarray:
    a = inst["a"] if a is None else a
    return _F([si * ai for si, ai in zip(inst["s"], a, strict=True)], inst)
