"""Seed 004, eqs. (5)-(8): the rescaling (6) ``a = beta_3 abar``, ``W2 = beta_2 W2bar``,
``W1 = beta_1 W1bar`` with the time change of (8) maps the flow (5) to the normalised flow
(7).  :func:`rescaling_residuals` (generic positively homogeneous ``sigma``, optionally with
the biases folded in as Section 3 says) and :func:`relu_rescaling_residuals` (the true
ReLU at one exact rational point)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
import sympy as sp

from solvable.models.linearisation import check_flag
from solvable.models.three_layer.coordinates import (
    ALPHA,
    B1,
    B2,
    B3,
    _describe,
    _number,
    _scale,
    _size,
    kappas,
    time_factor,
)
from solvable.models.three_layer.flow import _field, _gradient_field, _network, _printed_network
from solvable.models.three_layer.symbolic import _Params, _params, homogeneity, sigma

KappaFn = Callable[[Any, Any, Any, Any], tuple[sp.Expr, sp.Expr, sp.Expr]]
TimeFn = Callable[[Any, Any, Any, Any], sp.Expr]


BLOCKS = ("a", "W2", "W1", "f")
"""The parts of the rescaling claim: the three blocks of (7) and the output ``f`` (``e_i``)."""


def _folded_params(m: int, d: int, n: int, bias: str) -> _Params:
    """Normalised weights ``(abar, W2bar, W1bar)`` and data; ``bias`` ``"first"`` folds
    ``b1bar`` into ``W1bar`` (inputs ``(x, 1)``), ``"both"`` also ``b2bar`` into ``W2bar``
    (Section 3)."""
    pb = _params(m, d, n, bar=True)
    if bias == "none":
        return pb
    b1 = sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b1bar_{i}", real=True))
    W1 = pb.W1.row_join(b1)
    X = [x.col_join(sp.Matrix([[1]])) for x in pb.X]
    W2 = pb.W2
    if bias == "both":
        W2 = W2.row_join(sp.Matrix(m, 1, lambda i, _: sp.Symbol(f"b2bar_{i}", real=True)))
    return _Params(pb.a, W2, W1, X, pb.y)


def _normalised_lhs(
    pb: _Params,
    scales: tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr],
    time_fn: TimeFn = time_factor,
    rule: Callable[[sp.Expr], sp.Expr] = lambda e: e,
) -> list[sp.Matrix]:
    """``d thetabar/dtbar = (dt/dtbar) D^-1 (-grad R_S at theta = D thetabar)`` for the
    blocks ``a``, ``W2``, ``W1`` (``D = diag(beta_3, beta_2, beta_1)``, eq. (6); ``-grad
    R_S`` from the package's flow, :func:`_gradient_field`; ``dtbar/dt = time_fn``),
    ``scales = (alpha, beta_1, beta_2, beta_3)``, with ``rule`` applied to every entry."""
    al, b1, b2, b3 = scales
    orig = _Params(b3 * pb.a, b2 * pb.W2, b1 * pb.W1, pb.X, pb.y)
    dt_dtbar = 1 / time_fn(al, b1, b2, b3)
    return [
        (dt_dtbar / scale) * block.applyfunc(rule)
        for block, scale in zip(_gradient_field(orig, al), (b3, b2, b1), strict=True)
    ]


def rescaling_residuals(
    m: int = 2,
    d: int = 2,
    n: int = 2,
    *,
    kappa_fn: KappaFn = kappas,
    time_fn: TimeFn = time_factor,
    homogeneous: bool = True,
    bias: Literal["none", "first", "both"] = "none",
    appended: Any = None,
    block: Literal["a", "W2", "W1", "f"] | None = None,
) -> list[sp.Expr]:
    """Residuals of the claim "(6) + (8) map (5) to (7)", one per component of the vector
    field plus ``f(theta) - f_bar(theta_bar)``.

    The left side is ``d thetabar/dtbar = (dt/dtbar) D^-1 (rhs of (5) at theta = D thetabar)``
    with ``D = diag(beta_3, beta_2, beta_1)`` and ``dtbar/dt = time_fn(...)``; the right side
    is (7) with the kappas of ``kappa_fn`` (e_i inside the sum).  ``homogeneous`` applies
    ReLU's positive homogeneity; ``kappa_fn``/``time_fn`` exist to test mutations.

    Parameters
    ----------
    m, d, n : int
        Width, input dimension and number of samples, each in ``[1, MAX_SIZE]``.
    kappa_fn, time_fn : callable
        ``(alpha, beta_1, beta_2, beta_3) -> (kappa_1, kappa_2, kappa_3)`` and
        ``-> dtbar/dt`` (eq. (8) by default).
    homogeneous : bool
        Apply ``sigma(cz) = c sigma(z)``, ``sigma'(cz) = sigma'(z)`` (``c > 0``).
    bias : {"none", "first", "both"}
        Fold ``b1`` into ``W1`` (inputs ``(x, 1)``), and with ``"both"`` also ``b2`` into
        ``W2`` (``sigma(W1 x)`` extended by a constant), as Section 3 says; the folded
        columns are normalised with their weight (``b1bar = b1/beta_1``,
        ``b2bar = b2/beta_2``, eq. (6)).
    appended : number or sympy expression, optional
        With ``bias="both"``: the constant that extends ``sigma(W1bar x)`` in the normalised
        model (7).  Default ``1/beta_1``, the value that makes the residuals vanish;
        Section 3's ``1`` leaves them non-zero (erratum "Section 3 (bias b^[2]) with (6)-(7)").
    block : {"a", "W2", "W1", "f"}, optional
        Only the residuals of that block of (7), or of the output (``e_i``).

    Returns
    -------
    list of sympy.Expr
        Expanded residuals; all simplify to 0 when the claim holds.
    """
    m, d, n = _size("m", m), _size("d", d), _size("n", n)
    homogeneous = check_flag("homogeneous", homogeneous)
    kappa_fn = _hook("kappa_fn", kappa_fn, 3)
    time_fn = _hook("time_fn", time_fn, None)
    if bias not in ("none", "first", "both"):
        raise ValueError(f"bias must be 'none', 'first' or 'both', got {_describe(bias)}")
    if block is not None and block not in BLOCKS:
        raise ValueError(f"block must be None or one of {BLOCKS}, got {_describe(block)}")
    if appended is not None and bias != "both":
        raise ValueError(f"appended needs bias='both', got bias={bias!r}")
    extra = 1 / B1 if appended is None else _scale("appended", appended, free=True)
    pb = _folded_params(m, d, n, bias)
    k1, k2, k3 = kappa_fn(ALPHA, B1, B2, B3)
    rule = homogeneity if homogeneous else (lambda e: e)

    # d thetabar/dtbar from the package's flow (gradient of risk (3)) at theta = D thetabar
    lhs = _normalised_lhs(pb, (ALPHA, B1, B2, B3), time_fn, rule)
    ga, g2, g1 = _field(pb, k3, appended=extra)
    # eq. (7), the paper's form (the rule acts only where a positive factor sits inside
    # sigma: the appended constant 1/beta_1 of the second layer's folded bias)
    rhs = [blk.applyfunc(rule) for blk in (ga, k1**2 * g2, k2**2 * g1)]
    res = {
        name: [sp.expand(left - right) for left, right in zip(L, R, strict=True)]
        for name, L, R in zip(BLOCKS[:3], lhs, rhs, strict=True)
    }
    orig = _Params(B3 * pb.a, B2 * pb.W2, B1 * pb.W1, pb.X, pb.y)
    if bias == "none":  # the package's network_output (1) against (7)'s kappa_3-network
        res["f"] = [rule(_network(orig, 1 / ALPHA, x)) - _network(pb, k3, x) for x in pb.X]
    else:  # biases folded (Section 3): (1) with the constant 1, (7) with ``extra``
        res["f"] = [
            sp.expand(rule(_printed_network(orig, 1 / ALPHA, x, sigma))
                      - rule(_printed_network(pb, k3, x, sigma, extra)))
            for x in pb.X
        ]  # fmt: skip
    return res[block] if block else [r for name in BLOCKS for r in res[name]]


def _hook(name: str, fn: Any, size: int | None) -> Callable[..., Any]:
    """A function of ``(alpha, beta_1, beta_2, beta_3)`` returning ``size`` sympy expressions
    (one if ``None``), checked: ``TypeError`` naming ``name`` otherwise."""
    if not callable(fn):
        raise TypeError(f"{name} must be a callable (alpha, beta_1, beta_2, beta_3) -> ..., got "
                        f"{type(fn).__name__} {_describe(fn)}")  # fmt: skip

    def call(*args: Any) -> Any:
        out = fn(*args)
        parts = (out,) if size is None else out
        if (
            size is not None and (not isinstance(out, (tuple, list)) or len(out) != size)
        ) or not all(isinstance(e, sp.Expr) for e in parts):
            want = "a sympy expression" if size is None else f"{size} sympy expressions"
            raise TypeError(f"{name} must return {want}, got {_describe(out)}")
        return out

    return call


def _rescaling_by_block(m: int, d: int, n: int) -> dict[str, list[sp.Expr]]:
    """:func:`rescaling_residuals` (defaults) split by block, computed once."""
    flat = rescaling_residuals(m, d, n)
    sizes = {"a": m, "W2": m * m, "W1": m * d, "f": n}
    out, start = {}, 0
    for name in BLOCKS:
        out[name] = flat[start : start + sizes[name]]
        start += sizes[name]
    return out


def relu_rescaling_residuals(
    a_bar: Sequence[Any],
    W2_bar: Sequence[Sequence[Any]],
    W1_bar: Sequence[Sequence[Any]],
    X: Sequence[Sequence[Any]],
    y: Sequence[Any],
    alpha: Any,
    betas: Sequence[Any],
) -> list[sp.Expr]:
    """The same residuals at one exact rational point with the true ReLU
    (``max(0, z)``, ``sigma' = Heaviside``); every pre-activation must be non-zero
    (``sigma'(0)`` is undefined).  Inputs: rationals (floats are converted exactly)."""
    ab = sp.Matrix(_rationals("a_bar", a_bar))
    m = ab.rows
    W2b, W1b = (
        sp.Matrix(_rational_rows("W2_bar", W2_bar)),
        sp.Matrix(_rational_rows("W1_bar", W1_bar)),
    )
    Xs = [sp.Matrix(row) for row in _rational_rows("X", X)]
    ys = _rationals("y", y)
    if W2b.shape != (m, m) or W1b.rows != m or any(x.rows != W1b.cols for x in Xs):
        raise ValueError(
            f"shapes must be a_bar (m,), W2_bar (m, m), W1_bar (m, d), X (n, d); got a_bar "
            f"({m},), W2_bar {W2b.shape}, W1_bar {W1b.shape}, X rows of length "
            f"{[x.rows for x in Xs]}"
        )
    if len(ys) != len(Xs):
        raise ValueError(f"y must have one entry per row of X, got {len(ys)}, {len(Xs)}")
    al = _scale("alpha", alpha)
    if isinstance(betas, (str, bytes)) or not isinstance(betas, (Sequence, np.ndarray)):
        raise TypeError(f"betas must be a sequence (beta_1, beta_2, beta_3), got "
                        f"{type(betas).__name__} {_describe(betas)}")  # fmt: skip
    if len(betas) != 3:
        raise ValueError(f"betas must be (beta_1, beta_2, beta_3), got {_describe(betas)}")
    b1, b2, b3 = (_scale(f"betas[{i}] (beta_{i + 1})", b) for i, b in enumerate(betas))
    if not all(v.is_Rational for v in (al, b1, b2, b3)):
        raise ValueError("alpha and betas must be numbers here (not expressions in m)")

    def relu(z: sp.Expr) -> sp.Expr:
        return sp.Max(0, z)

    def step(z: sp.Expr) -> sp.Expr:
        if z == 0:
            raise ValueError(
                "a pre-activation is exactly 0 (of W1_bar x or W2_bar sigma(W1_bar x), from "
                "W1_bar, W2_bar and X): sigma'(0) is undefined"
            )
        return sp.Heaviside(z)

    pb = _Params(ab, W2b, W1b, Xs, ys)
    orig = _Params(b3 * ab, b2 * W2b, b1 * W1b, Xs, ys)
    k1, k2, k3 = kappas(al, b1, b2, b3)
    dt_dtbar = 1 / time_factor(al, b1, b2, b3)
    ga, g2, g1 = _field(pb, k3, relu, step)  # (7) as printed; refuses a zero pre-activation
    # the package's ReLU flow (gradient of risk (3), sigma' = Heaviside) at theta = D thetabar
    lhs = [(dt_dtbar / s) * blk for blk, s in
           zip(_gradient_field(orig, al, "relu"), (b3, b2, b1), strict=True)]  # fmt: skip
    rhs = [ga, k1**2 * g2, k2**2 * g1]
    return [sp.expand(left - right) for L, R in zip(lhs, rhs, strict=True)
            for left, right in zip(L, R, strict=True)]  # fmt: skip


def _rationals(name: str, value: Any) -> list[sp.Rational]:
    """A non-empty 1-d sequence of exact numbers (:func:`_number`), each named."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of numbers, got {type(value).__name__} "
                        f"{_describe(value)}")  # fmt: skip
    out = [_number(f"{name}[{i}]", v) for i, v in enumerate(list(value))]
    if not out:
        raise ValueError(f"{name} must not be empty")
    return out


def _rational_rows(name: str, value: Any) -> list[list[sp.Rational]]:
    """A non-empty 2-d sequence of exact numbers, rows of one length."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a 2-d sequence of numbers, got {type(value).__name__} "
                        f"{_describe(value)}")  # fmt: skip
    rows = [_rationals(f"{name}[{i}]", r) for i, r in enumerate(list(value))]
    if not rows or len({len(r) for r in rows}) != 1:
        raise ValueError(f"{name} must have n >= 1 rows of one length, got {_describe(value)}")
    return rows
