r"""Seed 003 (Kunin et al.), Part II: piecewise-linear networks neuron by neuron.

Source: seed ``003_cfd8c5fad4b6665d.txt``, Part II ("We consider the dynamics of a two-layer
piecewise linear network without biases ... the quantity delta_k is conserved").  The network
is :class:`solvable.models.kunin.PiecewiseLinearSetup`, ``f(x) = sum_k a_k relu(w_k . x)``, trained
by ``da/dt = -eta_a dL/da``, ``dW/dt = -eta_w dL/dW`` on ``L = 1/2 sum_i (f(x_i) - y_i)^2``.
Per neuron ``k``: ``beta_k = a_k w_k`` (d,), the conserved ``delta_k = eta_w a_k^2 - eta_a
|w_k|^2`` (:func:`solvable.models.kunin.balance`; the poster's ``a_k^2 - |w_k|^2`` is its equal-rate
case, erratum in :mod:`solvable.models.kunin`) and the activation pattern ``c_ki = relu'(w_k .
x_i)``
(``relu'(0) = 0``).

(1) The self-consistent equation.  Inside one activation region ``relu(z) = c z``, so
``f(x_i) = sum_k c_ki beta_k . x_i`` and, exactly (claim ``piecewise_linear.self_consistent``,
for any slopes ``c``, hence any piecewise-linear activation)::

    d beta_k/dt = -M_k g_k,   g_k = sum_i c_ki x_i (f(x_i) - y_i)   (:func:`neuron_gradient`)
    M_k = eta_w a_k^2 I + eta_a w_k w_k^T = lambda_1 I + lambda_2 beta_k beta_k^T/|beta_k|^2,

``lambda_{1,2} = (sqrt(delta_k^2 + 4 eta_a eta_w |beta_k|^2) +- delta_k)/2`` (the single
neuron's, :func:`solvable.models.kunin.preconditioner`): the right-hand side depends on the weights
only through ``(beta_k, delta_k)`` and the pattern (:func:`self_consistent_field`).  Across
neurons it is not shared: ``g_k`` carries neuron ``k``'s own pattern.

(2) The patterns.  ``c_ki = relu'(w_k . x_i) = relu'(s_k beta_k . x_i)`` with ``s_k =
sign(a_k)`` (:func:`activation_pattern`; claim ``piecewise_linear.pattern_from_beta``): the
direction of ``beta_k`` *and* the sign of ``a_k``, which is constant along the flow where
``delta_k > 0`` (``eta_w a_k^2 = delta_k + eta_a |w_k|^2 >= delta_k``).  The poster's "only
depend on the direction of beta_k" drops the sign: ``(a, w)`` and ``(-a, -w)`` have the same
``beta`` and ``delta`` and complementary patterns (erratum, :func:`errata`).

(3) Radial and directional dynamics.  With ``b = |beta_k|``, ``u = beta_k/b`` and ``P = I -
u u^T`` (claim ``piecewise_linear.radial_directional``)::

    db/dt = -sigma (u . g_k),   du/dt = -omega P g_k,
    sigma = lambda_1 + lambda_2 = sqrt(delta^2 + 4 eta_a eta_w b^2)      (:func:`radial_rate`)
    omega = lambda_1/b = eta_w |a_k|/|w_k|                               (:func:`angular_rate`)

The patterns move only through ``u``, at the angular rate ``omega``, which increases with
``delta`` (``d omega/d delta = omega/sigma > 0``) from ``omega ~ eta_a eta_w b/|delta| -> 0``
(``delta -> -oo``: the pattern is frozen; lazy, delayed rich) to ``omega ~ delta/b``
(``delta -> +oo``), while the radial rate ``sigma ~ |delta|`` is large at both ends (claim
``piecewise_linear.angular_rate``).  Upstream neurons (``delta_k >> 0``: ``a_k`` large,
``w_k`` small) therefore change their activation patterns quickly while their parameters,
dominated by ``a_k``, barely move: the poster's "rapid feature learning is due to a large
change in activation patterns, but a small change in parameter space", measured on a sweep
of ``delta`` in :mod:`solvable.verification.confirmations.piecewise_linear`.

:func:`neuron_start` splits chosen ``beta_k`` into ``(a_k, w_k)`` with chosen ``delta_k``
(``eta_w a_k^2 = lambda_1``), the way such sweeps are initialised.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.arrays import ArrayArgs
from solvable._core.backends import generate
from solvable._core.claims import Erratum, Theorem, Verdict, prove_zero
from solvable._core.flows import symbol_array
from solvable._core.model import Model
from solvable._core.numbers import Number
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats, error_in_units, worst_of
from solvable.models import kunin

__all__ = [
    "MODEL",
    "SEED",
    "Symbols",
    "activation_pattern",
    "angular_rate",
    "claims",
    "errata",
    "example",
    "neuron_gradient",
    "neuron_start",
    "ntk",
    "radial_rate",
    "self_consistent_field",
    "symbolic",
]

SEED = kunin.SEED


# ---------------------------------------------------------------------------
# Array code: one definition, run on sympy / mpmath object arrays, float64 and torch
# ---------------------------------------------------------------------------
def _preactivations(beta: Any, X: Any) -> Any:
    return X @ beta.T


def _gradient_raw(beta: Any, c: Any, X: Any, y: Any) -> Any:
    residual = (c * (X @ beta.T)).sum(-1) - y
    return (c * residual[:, None]).T @ X


def _ntk_raw(a: Any, W: Any, X: Any, eta_a: Any, eta_w: Any, c: Any) -> Any:
    Z = X @ W.T
    if c is None:
        c = (Z > 0) * 1  # the ReLU pattern as 0/1 (numpy, object arrays and torch alike)
    features = c * Z
    gram = X @ X.T
    return eta_a * (features @ features.T) + eta_w * (((c * a * a) @ c.T) * gram)


# The public functions check their arguments (_core.arrays.ArrayArgs, as kunin's array code:
# a TypeError / ValueError names the argument, a result beyond float64 is refused); the
# module's own code calls the unchecked forms above.
def _neurons(fn: str, beta: Any, X: Any, *, torch: bool, W: str = "beta") -> Any:
    """``beta`` (h, d) (named ``W``) and ``X`` (n, d) of ``fn``, checked."""
    v = ArrayArgs(fn, torch=torch)
    beta, X = v.array(W, beta, ndim=2), v.array("X", X, ndim=2)
    v.same("the input dimension d (columns of " + W + " and X)",
           (W, beta.shape[1]), ("X", X.shape[1]))  # fmt: skip
    return v, beta, X


def _slopes(v: ArrayArgs, c: Any, n: int, h: int, W: str) -> Any:
    """The slopes ``c`` (n, h) of ``n`` data points and ``h`` neurons, checked."""
    c = v.array("c", c, ndim=2)
    v.same("the number of data points n (rows of X and c)", ("X", n), ("c", c.shape[0]))
    v.same(f"the number of neurons h (rows of {W}, columns of c)", (W, h), ("c", c.shape[1]))
    return c


def activation_pattern(beta: Any, sign: Any, X: Any) -> np.ndarray:
    """``c_ki = relu'(s_k beta_k . x_i)``, 1 where ``s_k beta_k . x_i > 0`` (``relu'(0) =
    0``), as a boolean (n, h) array: ``beta`` (h, d), ``sign`` (h,) the signs ``s_k =
    sign(a_k)`` in {-1, 1}, ``X`` (n, d) (numpy arrays, float64 or of ``mpmath.mpf``, or
    nested lists; checked).  Equals ``relu'(w_k . x_i)`` for ``a_k != 0`` (claim
    ``piecewise_linear.pattern_from_beta``)."""
    v, beta, X = _neurons("activation_pattern", beta, X, torch=False)
    sign = v.array("sign", sign, ndim=1)
    v.same("the number of neurons h (rows of beta, entries of sign)",
           ("beta", beta.shape[0]), ("sign", sign.shape[0]))  # fmt: skip
    if any(s not in (-1, 1) for s in sign.flat if not (isinstance(s, sp.Basic) and s.free_symbols)):
        raise ValueError(f"sign must hold -1 or 1 (the signs of a_k), got {nb.describe(sign)}")
    Z = v(_preactivations, beta, X)  # finite (checked): the sign of every entry is right
    return np.asarray(Z * sign > 0, dtype=bool)


def neuron_gradient(beta: Any, c: Any, X: Any, y: Any) -> Any:
    """``g_k = sum_i c_ki x_i (f(x_i) - y_i)`` with ``f(x_i) = sum_k c_ki beta_k . x_i``: the
    gradient of the loss in ``beta_k`` inside the activation region ``c`` (n, h) (0/1, or any
    slopes); ``beta`` (h, d), ``X`` (n, d), ``y`` (n,); returns (h, d).  Array code (float64,
    mpmath / sympy object arrays, torch tensors, nested lists), checked."""
    v, beta, X = _neurons("neuron_gradient", beta, X, torch=True)
    c = _slopes(v, c, X.shape[0], beta.shape[0], "beta")
    y = v.array("y", y, ndim=1)
    v.same("the number of data points n (rows of X, entries of y)", ("X", X.shape[0]),
           ("y", y.shape[0]))  # fmt: skip
    return v(_gradient_raw, beta, c, X, y)


def ntk(a: Any, W: Any, X: Any, eta_a: Any, eta_w: Any, c: Any = None) -> Any:
    """The NTK on the data, ``K_ij = sum_k c_ki c_kj x_i^T M_k x_j`` (n, n), ``M_k = eta_w
    a_k^2 I + eta_a w_k w_k^T``: ``K = J diag(eta) J^T`` of the output's Jacobian in ``(a,
    W)`` (claim ``piecewise_linear.ntk``).  ``a`` (h,), ``W`` (h, d), ``X`` (n, d); ``c``
    (n, h) the slopes (default: the ReLU pattern ``w_k . x_i > 0``).  Array code, checked
    (as :func:`neuron_gradient`)."""
    v, W, X = _neurons("ntk", W, X, torch=True, W="W")
    a = v.array("a", a, ndim=1)
    v.same("the number of neurons h (entries of a, rows of W)", ("a", a.shape[0]),
           ("W", W.shape[0]))  # fmt: skip
    if c is not None:
        c = _slopes(v, c, X.shape[0], W.shape[0], "W")
    eta_a, eta_w = v.scalar("eta_a", eta_a), v.scalar("eta_w", eta_w)
    return v(_ntk_raw, a, W, X, eta_a, eta_w, c)


# ---------------------------------------------------------------------------
# Symbolic source
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Symbols:
    """``delta``, ``eta_a``, ``eta_w`` (those of :func:`solvable.models.kunin.symbolic`) and ``b =
    |beta_k| >= 0``; ``exprs``: ``sigma`` (the radial rate), ``lambda_1``, ``lambda_2`` (at
    ``|beta|^2 = b^2``), their cancellation-free forms ``lambda_1_stable``,
    ``lambda_2_stable``, ``angular_rate`` (``lambda_1/b``, with its
    limits at ``b = 0``) and ``a_magnitude`` (``|a| = sqrt(lambda_1/eta_w)``, in forms
    without ``b^2``, which underflows before ``|a|`` does; :func:`neuron_start`)."""

    delta: sp.Symbol
    eta_a: sp.Symbol
    eta_w: sp.Symbol
    b: sp.Symbol
    exprs: dict[str, sp.Expr] = field(repr=False)


@functools.cache
def symbolic() -> Symbols:
    """The sympy expressions of this module (see the module docstring)."""
    K = kunin.symbolic()
    delta, ea, ew = K.delta, K.eta_a, K.eta_w
    b = sp.Symbol("b", nonnegative=True)
    at = {K.beta2: b**2}
    sigma = K.exprs["sigma"].subs(at)
    kappa2 = ea * ew
    # lambda_1 = (sigma + delta)/2 = 2 kappa^2 b^2/(sigma - delta): the second form for
    # delta < 0, where the first cancels; lambda_2 likewise for delta >= 0
    lam1 = sp.Piecewise(
        ((sigma + delta) / 2, delta >= 0), (2 * kappa2 * b**2 / (sigma - delta), True)
    )
    lam2 = sp.Piecewise(
        (2 * kappa2 * b**2 / (sigma + delta), delta > 0), ((sigma - delta) / 2, True)
    )
    angular = sp.Piecewise(
        (sp.oo, sp.And(sp.Eq(b, 0), delta > 0)),
        (sp.sqrt(kappa2), sp.And(sp.Eq(b, 0), sp.Eq(delta, 0))),
        ((sigma + delta) / (2 * b), delta > 0),
        (2 * kappa2 * b / (sigma - delta), True),
    )
    exprs = {
        "sigma": sigma,
        "lambda_1": K.exprs["lambda_1"].subs(at),
        "lambda_2": K.exprs["lambda_2"].subs(at),
        "lambda_1_stable": lam1,
        "lambda_2_stable": lam2,
        "angular_rate": angular,
        "a_magnitude": sp.Piecewise(
            (sp.sqrt((sigma + delta) / (2 * ew)), delta >= 0),
            (b * sp.sqrt(2 * ea / (sigma - delta)), True),
        ),
    }
    return Symbols(delta=delta, eta_a=ea, eta_w=ew, b=b, exprs=exprs)


@functools.cache
def _evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    S = symbolic()
    args = (S.delta, S.eta_a, S.eta_w, S.b)
    names = ("sigma", "lambda_1_stable", "lambda_2_stable", "angular_rate", "a_magnitude")
    return {k: generate(args, S.exprs[k], backend) for k in names}


# ---------------------------------------------------------------------------
# Numeric API (float64, or mpmath at dps digits)
# ---------------------------------------------------------------------------
def _norm(v: np.ndarray, dps: int | None) -> Any:
    """``|v|`` without underflow or overflow of the squares (float64: scaled by max|v|)."""
    if dps is not None:
        return mpmath.sqrt(sum(x * x for x in v))
    m = float(np.max(np.abs(v)))
    return 0.0 if m == 0 else m * math.sqrt(float(np.sum((v / m) ** 2)))


# each expression's degree of homogeneity in (delta, |beta|) jointly
_DEGREE = {"sigma": 1, "lambda_1_stable": 1, "lambda_2_stable": 1, "angular_rate": 0,
           "a_magnitude": 0.5}  # fmt: skip


def _eval(name: str, dps: int | None, delta: Any, eta_a: Any, eta_w: Any, b: Any) -> Any:
    """The generated evaluator ``name`` at ``(delta, eta_a, eta_w, b)``.  In float64, where
    ``max(|delta|, b)`` lies outside ``2^+-500``, at ``(delta, b)`` scaled by a power of two to
    a maximum near 1 and the result scaled back (``_DEGREE``; exact), so that ``delta^2`` and
    ``b^2`` inside sigma neither overflow nor underflow from 1e-300 to 1e300."""
    if dps is not None:
        return _evaluators("mpmath")[name](delta, eta_a, eta_w, b)
    big = max(abs(delta), b)
    # scale only where a square would leave float64 (never otherwise: scaling by the larger
    # of the two could push the smaller, which multiplies in lambda_1 and |a|, into the
    # subnormal range); e even: a_magnitude has degree 1/2
    outside = big > 2.0**500 or 0 < big < 2.0**-500
    e = 2 * (math.frexp(big)[1] // 2) if outside else 0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):  # every branch runs
        value = float(_evaluators("numpy")[name](math.ldexp(delta, -e), eta_a, eta_w,
                                                 math.ldexp(b, -e)))  # fmt: skip
    if not math.isfinite(value):
        return value
    try:
        return math.ldexp(value, int(e * _DEGREE[name]))
    except OverflowError:  # the scaled-back value is beyond float64 (_finite refuses it)
        return math.inf


def _finite(name: str, value: Any, dps: int | None, args: str) -> Any:
    """``value``, or a ``ValueError`` (naming the arguments ``args``) where float64
    overflowed on finite inputs."""
    if dps is None and not np.all(np.isfinite(value)):
        raise ValueError(f"{name} overflows float64 for these {args} (|beta|, |delta| or the "
                         f"data near 1e150 or beyond): use dps=30")  # fmt: skip
    return value


def _rates(eta_a: Any, eta_w: Any) -> None:
    nb.check_number("eta_a", eta_a, positive=True)
    nb.check_number("eta_w", eta_w, positive=True)


def _scalar_rate(name: str, delta: Number, beta_norm: Number, eta_a: Number, eta_w: Number,
                 dps: int | None) -> Any:  # fmt: skip
    dps = nb.check_dps(dps)
    nb.check_number("delta", delta)
    nb.check_number("beta_norm", beta_norm, nonnegative=True)
    _rates(eta_a, eta_w)
    args = {"delta": delta, "eta_a": eta_a, "eta_w": eta_w, "beta_norm": beta_norm}
    with nb.Precision(dps):
        dl, ea, ew, b = (nb.converter(dps, k)(v) for k, v in args.items())
        value = _eval(name, dps, dl, ea, ew, b)
    if dps is not None:
        return nb.rounded((value,), dps)[0]
    if name == "angular_rate" and value == math.inf and b == 0:
        return math.inf  # the limit |beta| -> 0 at delta > 0
    return float(_finite(name, value, dps, "delta, beta_norm, eta_a, eta_w"))


@nb.mpmath_in_mpmath_out
def radial_rate(delta: Number, beta_norm: Number, eta_a: Number = 1, eta_w: Number = 1, *,
                dps: int | None = None) -> Any:  # fmt: skip
    """``sigma = lambda_1 + lambda_2 = sqrt(delta^2 + 4 eta_a eta_w |beta|^2)``: ``d|beta_k|/dt
    = -sigma (u . g_k)`` (Part II; claim ``piecewise_linear.radial_directional``)."""
    return _scalar_rate("sigma", delta, beta_norm, eta_a, eta_w, dps)


@nb.mpmath_in_mpmath_out
def angular_rate(delta: Number, beta_norm: Number, eta_a: Number = 1, eta_w: Number = 1, *,
                 dps: int | None = None) -> Any:  # fmt: skip
    """``omega = lambda_1/|beta| = eta_w |a|/|w|``: ``du/dt = -omega (I - u u^T) g_k`` for the
    direction ``u`` of ``beta_k``, the only part of the flow that moves the activation
    pattern (Part II; claims ``piecewise_linear.radial_directional``,
    ``piecewise_linear.angular_rate``).  Increasing in ``delta``; at ``|beta| = 0`` its limit:
    ``inf`` (delta > 0), ``sqrt(eta_a eta_w)`` (delta = 0), 0 (delta < 0)."""
    return _scalar_rate("angular_rate", delta, beta_norm, eta_a, eta_w, dps)


def _neuron_arrays(beta: Any, delta: Any, sign: Any, dps: int | None,
                   d: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    B = nb.check_matrix("beta", beta, (None, d))
    h = len(B)
    dl = nb.check_vector("delta", delta)
    if len(dl) != h:
        raise ValueError(f"delta must have one entry per neuron (per row of beta: h = {h}), "
                         f"got {len(dl)}")  # fmt: skip
    if sign is None:
        s = [1] * h
    else:
        s = nb.check_vector("sign", sign)
        if len(s) != h or any(v not in (-1, 1) for v in s):
            raise ValueError(f"sign must hold h = {h} entries (one per row of beta), each -1 or "
                             f"1, got {list(s)!r}")  # fmt: skip
    cB, cd = nb.converter(dps, "beta"), nb.converter(dps, "delta")
    dtype = float if dps is None else object
    Bm = np.array([[cB(v) for v in row] for row in B], dtype=dtype)
    return Bm, np.array([cd(v) for v in dl], dtype=dtype), np.array([int(v) for v in s])


@nb.mpmath_in_mpmath_out
def neuron_start(beta: Any, delta: Any, sign: Any = None, eta_a: Number = 1, eta_w: Number = 1,
                 *, dps: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``(a, W)`` with ``a_k w_k = beta_k`` and ``eta_w a_k^2 - eta_a |w_k|^2 = delta_k``:
    ``a_k = s_k sqrt(lambda_1/eta_w)``, ``w_k = beta_k/a_k`` (claim
    ``piecewise_linear.neuron_start``).  ``beta`` (h, d), ``delta`` (h,), ``sign`` (h,) in
    {-1, 1} (default all +1).  A neuron with ``beta_k = 0`` and ``delta_k < 0`` has ``a_k =
    0`` and ``|w_k|^2 = -delta_k/eta_a`` in a direction ``beta_k`` does not fix: a
    ``ValueError``."""
    dps = nb.check_dps(dps)
    _rates(eta_a, eta_w)
    with nb.Precision(dps):
        B, dl, s = _neuron_arrays(beta, delta, sign, dps)
        ea, ew = nb.converter(dps, "eta_a")(eta_a), nb.converter(dps, "eta_w")(eta_w)
        a = np.array([s[k] * _eval("a_magnitude", dps, dl[k], ea, ew, _norm(B[k], dps))
                      for k in range(len(B))], dtype=B.dtype)  # fmt: skip
        W = np.zeros_like(B)
        for k in range(len(B)):
            if a[k] != 0:
                W[k] = B[k] / a[k]
            elif np.any(B[k] != 0):  # |a_k| below float64's smallest subnormal
                raise ValueError(
                    f"a_{k} underflows float64 for these inputs (|beta_{k}| = "
                    f"{_norm(B[k], dps)!r} with delta_{k} < 0): use dps=30"
                )
            elif dl[k] < 0:
                raise ValueError(
                    f"beta[{k}] = 0 with delta[{k}] = {dl[k]} < 0: a = 0 and the direction "
                    f"of w_{k} (|w|^2 = -delta/eta_a) is not fixed by beta"
                )
    if dps is None:
        args = "beta, delta, eta_a, eta_w"
        return _finite("neuron_start a", a, dps, args), _finite("neuron_start W", W, dps, args)
    return nb.rounded((a, W), dps)


@nb.mpmath_in_mpmath_out
def self_consistent_field(setup: kunin.PiecewiseLinearSetup, beta: Any, delta: Any,
                          sign: Any = None, *, dps: int | None = None) -> np.ndarray:  # fmt: skip
    """``d beta_k/dt = -M(beta_k, delta_k) g_k`` (h, d) for every neuron (Part II, the
    self-consistent equation): ``g_k`` of :func:`neuron_gradient` on the pattern
    :func:`activation_pattern` of ``(beta, sign)``, ``M = lambda_1 I + lambda_2 u u^T`` with
    the generated cancellation-free ``lambda_1``, ``lambda_2`` and ``u = beta_k/|beta_k|``.
    A neuron with ``beta_k = 0`` and ``delta_k >= 0`` has ``w_k = 0`` (``delta_k > 0``) or
    ``a_k = w_k = 0``: it does not move; ``beta_k = 0`` with ``delta_k < 0`` is a
    ``ValueError`` (the flow then depends on the direction of ``w_k``, which ``beta_k`` does
    not carry).  float64 (inputs scaled so that no square under- or overflows; a
    ``ValueError`` naming ``dps`` where the field itself leaves float64), or mpmath at
    ``dps`` digits."""
    if not isinstance(setup, kunin.PiecewiseLinearSetup):
        raise TypeError(f"setup must be a kunin.PiecewiseLinearSetup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    with nb.Precision(dps), np.errstate(all="ignore"):  # a float64 overflow: refused below
        B, dl, s = _neuron_arrays(beta, delta, sign, dps, setup.d)
        cX, cy = nb.converter(dps, "setup.X"), nb.converter(dps, "setup.y")
        X = np.array([[cX(v) for v in row] for row in setup.X], dtype=B.dtype)
        y = np.array([cy(v) for v in setup.y], dtype=B.dtype)
        ea, ew = (nb.converter(dps, f"setup.{k}")(getattr(setup, k)) for k in ("eta_a", "eta_w"))
        g = _gradient_raw(B, np.asarray(_preactivations(B, X) * s > 0, dtype=int), X, y)
        out = np.zeros_like(B)
        for k in range(len(B)):
            b = _norm(B[k], dps)
            if b == 0:
                if dl[k] < 0:
                    raise ValueError(f"beta[{k}] = 0 with delta[{k}] = {dl[k]} < 0: the flow "
                                     f"of beta_{k} depends on the direction of w_{k}")  # fmt: skip
                continue
            lam1 = _eval("lambda_1_stable", dps, dl[k], ea, ew, b)
            lam2 = _eval("lambda_2_stable", dps, dl[k], ea, ew, b)
            u = B[k] / b
            out[k] = -(lam1 * g[k] + lam2 * u * sum(u * g[k]))
    if dps is not None:
        return nb.rounded((out,), dps)[0]
    return _finite("self_consistent_field", out, dps, "beta, delta (and setup)")


# ---------------------------------------------------------------------------
# The example the confirmations simulate
# ---------------------------------------------------------------------------
def example(seed: int = 14) -> tuple[kunin.PiecewiseLinearSetup, np.ndarray, np.ndarray]:
    """ReLU student (h = 4, d = 2) on n = 5 points labelled by a 3-neuron ReLU teacher, rates
    eta_a = 1, eta_w = 0.4, data and weights from ``numpy.random.default_rng(seed)`` rounded
    to 4 decimals.  ``seed=14``: delta_k of both signs, 3 activation changes in t <= 2, no
    a_k crosses 0; ``seed=8``: 4 activation changes and a_k crossing 0 (at t ~ 0.18, where
    beta_k passes through 0 and the sign in :func:`activation_pattern` flips).  Both are
    fixed: with many other seeds (4 of 10 at h = 5, n = 6) a neuron slides along its kink (a
    Filippov sliding mode: the vector field, discontinuous across ``w_k . x_i = 0``, pushes
    towards it from both sides), which an explicit integrator resolves only with ever
    smaller steps."""
    rng = np.random.default_rng(nb.check_int("seed", seed, low=0))
    h, d, n = 4, 2, 5
    X = np.round(rng.normal(size=(n, d)), 4)
    teacher_W, teacher_a = rng.normal(size=(3, d)), rng.normal(size=3)
    y = np.round(teacher_a @ np.maximum(teacher_W @ X.T, 0), 4)
    a0, W0 = np.round(rng.normal(size=h), 4), np.round(rng.normal(size=(h, d)), 4)
    setup = kunin.PiecewiseLinearSetup(1, 0.4, tuple(map(tuple, X.tolist())), tuple(y.tolist()))
    return setup, a0, W0


# ---------------------------------------------------------------------------
# Claims
# ---------------------------------------------------------------------------
def _self_consistent() -> Verdict:
    # the region flow (slopes c symbolic: any piecewise-linear activation) of
    # kunin.piecewise_linear_flow, n = 3, d = 2, h = 2: d(a_k w_k)/dt = -M_k g_k with M_k of
    # kunin.weight_preconditioner and g_k of neuron_gradient at the slopes c; and g is the
    # gradient in beta of the region loss (kunin.piecewise_linear_loss at a = 1, W = beta)
    n, d, h = 3, 2, 2
    F = kunin.piecewise_linear_flow(n, d, h, region=True)
    a, W = F.block("a"), F.block("W")
    S = kunin.symbolic()
    X, y = F.params[2 : 2 + n * d], F.params[2 + n * d : 2 + n * d + n]
    X = np.array(X, dtype=object).reshape(n, d)
    y = np.array(y, dtype=object)
    c = np.array(F.params[2 + n * d + n :], dtype=object).reshape(h, n).T
    beta = a[:, None] * W
    g = neuron_gradient(beta, c, X, y)
    res = []
    for k in range(h):
        Mg = kunin.weight_preconditioner(a[k], W[k], S.eta_a, S.eta_w) @ g[k]
        res += [F.ddt(beta[k, j]) + Mg[j] for j in range(d)]
    B = symbol_array("beta", (h, d), real=True)
    one = np.array([sp.Integer(1)] * h, dtype=object)
    L = sp.sympify(kunin.piecewise_linear_loss(one, B, X, y, lambda Z: c * Z), strict=True)
    gB = neuron_gradient(B, c, X, y)
    res += [sp.diff(L, B[k, j]) - gB[k, j] for k in range(h) for j in range(d)]
    return prove_zero(*res)


def _ntk() -> Verdict:
    # K = J diag(eta) J^T with J the Jacobian of f(x_i) = sum_k a_k c_ki w_k . x_i (slopes c
    # symbolic) in (a, W), n = 3, d = 2, h = 2, against ntk(..., c=c)
    n, d, h = 3, 2, 2
    S = kunin.symbolic()
    a = symbol_array("a", (h,), real=True)
    W = symbol_array("W", (h, d), real=True)
    X = symbol_array("x", (n, d), real=True)
    c = symbol_array("c", (n, h), real=True)
    f = (c * (X @ W.T) * a).sum(-1)
    params = [(v, S.eta_a) for v in a] + [(v, S.eta_w) for v in W.ravel()]
    K = ntk(a, W, X, S.eta_a, S.eta_w, c)
    res = [
        sum(eta * sp.diff(f[i], v) * sp.diff(f[j], v) for v, eta in params) - K[i, j]
        for i in range(n)
        for j in range(n)
    ]
    return prove_zero(*res)


def _radial_directional() -> Verdict:
    # M = lambda_1 I + lambda_2 u u^T (d = 3, |beta| = b > 0): u . M g = sigma u . g,
    # (I - u u^T) M g = lambda_1 (I - u u^T) g, sigma = lambda_1 + lambda_2, and the
    # stable forms equal lambda_1, lambda_2/b^2 and lambda_1/b on every branch
    S = symbolic()
    ex = S.exprs
    u = np.array(sp.symbols("u0:3", real=True), dtype=object)
    g = np.array(sp.symbols("g0:3", real=True), dtype=object)
    lam1, lam2 = ex["lambda_1"], ex["lambda_2"]
    Mg = lam1 * g + lam2 * u * (u @ g)
    P = lambda v: v - u * (u @ v)  # noqa: E731
    unit = {u[2]: sp.sqrt(1 - u[0] ** 2 - u[1] ** 2)}
    res = [sp.sympify(u @ Mg - ex["sigma"] * (u @ g), strict=True).subs(unit)]
    res += [sp.sympify(e, strict=True).subs(unit) for e in P(Mg) - lam1 * P(g)]
    res.append(lam1 + lam2 - ex["sigma"])
    bpos = sp.Symbol("b_pos", positive=True)
    for stable, exact in (("lambda_1_stable", lam1), ("lambda_2_stable", lam2)):
        for _, (e, _cond) in enumerate(ex[stable].args):
            res.append((e - exact).subs(S.b, bpos))
    for e, cond in ex["angular_rate"].args:
        if not cond.has(sp.Eq):  # the b > 0 branches; the b = 0 ones are limits (angular_rate)
            res.append((e - lam1 / S.b).subs(S.b, bpos))
    return prove_zero(*res)


def _angular_rate() -> Verdict:
    # d omega/d delta = omega/sigma (omega = lambda_1/b > 0, so increasing in delta); omega
    # |delta| -> eta_a eta_w b (delta -> -oo), omega b/delta -> 1 (delta -> +oo), sigma/|delta|
    # -> 1 at both ends; the b = 0 branches of the generated form are the limits b -> 0+
    S = symbolic()
    ex = S.exprs
    bpos = sp.Symbol("b_pos", positive=True)
    om = (ex["lambda_1"] / S.b).subs(S.b, bpos)
    sig = ex["sigma"].subs(S.b, bpos)
    dl = S.delta
    res = [sp.diff(om, dl) - om / sig]
    res.append(sp.limit(om * (-dl), dl, -sp.oo) - S.eta_a * S.eta_w * bpos)
    res.append(sp.limit(om * bpos / dl, dl, sp.oo) - 1)
    res.append(sp.limit(sig / (-dl), dl, -sp.oo) - 1)
    res.append(sp.limit(sig / dl, dl, sp.oo) - 1)
    pos, neg = sp.Symbol("dp", positive=True), sp.Symbol("dn", negative=True)
    branches = ex["angular_rate"].args
    res.append(sp.limit(om.subs(dl, 0), bpos, 0) - branches[1][0])
    res.append(sp.limit(branches[3][0].subs({dl: neg, S.b: bpos}), bpos, 0))
    lim_pos = sp.limit(om.subs(dl, pos), bpos, 0)
    res.append(sp.Integer(0) if lim_pos == branches[0][0] else lim_pos)
    return prove_zero(*res)


def _pattern_from_beta() -> Verdict:
    # relu'(z) = Heaviside(z, 0) is a function of sign(z); sign(w . x) = sign(s beta . x) with
    # s = sign(a), a != 0; and eta_w a^2 = delta + eta_a |w|^2 (so a keeps its sign when
    # delta > 0)
    S = kunin.symbolic()
    a = sp.Symbol("a", real=True, nonzero=True)
    w = np.array(sp.symbols("w0:2", real=True), dtype=object)
    x = np.array(sp.symbols("x0:2", real=True), dtype=object)
    z = sp.Symbol("z", real=True)
    sz = sp.sign(z)
    heav = (sz + sz**2) / 2
    res = [(heav - sp.Heaviside(z, 0)).subs(z, v) for v in (sp.Rational(3, 2), 0, -2)]
    res.append(sp.sign(w @ x) - sp.sign(sp.sign(a) * (a * w) @ x))
    res.append(S.eta_w * a**2 - (kunin.balance(a, w, S.eta_a, S.eta_w) + S.eta_a * (w @ w)))
    return prove_zero(*res)


def _neuron_start() -> Verdict:
    # |a| = sqrt(lambda_1/eta_w) on both branches, w = beta/a (d = 2, b = |beta| > 0): a w =
    # beta and eta_w a^2 - eta_a |w|^2 = delta
    S = symbolic()
    beta = np.array(sp.symbols("beta0:2", real=True), dtype=object)
    res = []
    for e, _cond in S.exprs["a_magnitude"].args:
        a2 = (e**2).subs(S.b, sp.sqrt(beta @ beta))
        res.append(S.eta_w * a2 - S.eta_a * (beta @ beta) / a2 - S.delta)
    return prove_zero(*res)


def _evaluators_agree(dps: int = 30) -> Verdict:
    """The float64 and dps-digit evaluators against 2 dps digits: angular_rate and
    radial_rate at delta in {-1e8, -3, 0, 0.5, 1e8} x |beta| in {0, 1e-9, 0.7, 1e6}, and
    self_consistent_field and neuron_start on :func:`example`'s weights at t = 0."""
    worst, where = NOTHING_COMPARED, ""
    # float64: the generated forms have no cancellation (claim radial_directional), so the
    # error is a few roundings of O(1) relative size: 8 eps leaves a factor 2; mpmath: dps - 1
    tol64 = Tolerance(rtol=8 * float(np.finfo(float).eps), reason="a few float64 roundings")
    tolmp = Tolerance(rtol=10.0 ** (1 - dps), reason=f"{dps} digits rounded once")
    for dl in ("-1e8", "-3", "0", "0.5", "1e8"):
        for bn in ("0", "1e-9", "0.7", "1e6"):
            for fn in (angular_rate, radial_rate):
                ref = fn(dl, bn, "0.6", "1.5", dps=2 * dps)
                for got, tol in ((fn(dl, bn, "0.6", "1.5"), tol64),
                                 (fn(dl, bn, "0.6", "1.5", dps=dps), tolmp)):  # fmt: skip
                    if ref == np.inf or got == np.inf:
                        e = 0.0 if ref == got else float("inf")
                    else:
                        e = error_in_units(got, ref, tol)
                    if beats(e, worst):
                        worst, where = e, f"{fn.__name__}({dl}, {bn})"
    setup, a0, W0 = example()
    ea, ew = float(setup.eta_a), float(setup.eta_w)
    beta = a0[:, None] * W0
    delta = kunin.balance(a0, W0, ea, ew)
    sign = np.sign(a0).astype(int)
    ref = self_consistent_field(setup, beta, delta, sign, dps=2 * dps)
    # the field: inner products over n = 5, d = 2 and the residual f - y (no cancellation at
    # t = 0: |f - y| ~ |y|), a few dozen roundings normwise: 64 eps
    tolf = Tolerance(rtol=64 * float(np.finfo(float).eps), reason="inner products, residual")
    got64 = self_consistent_field(setup, beta, delta, sign)
    gotmp = self_consistent_field(setup, beta, delta, sign, dps=dps)
    for got, tol in ((got64, tolf), (gotmp, tolmp)):
        e = error_in_units(got, ref, tol)
        if beats(e, worst):
            worst, where = e, "self_consistent_field"
    ref = neuron_start(beta, delta, sign, ea, ew, dps=2 * dps)
    for got, tol in ((neuron_start(beta, delta, sign, ea, ew), tol64),
                     (neuron_start(beta, delta, sign, ea, ew, dps=dps), tolmp)):  # fmt: skip
        e = worst_of(*(error_in_units(g, r, tol) for g, r in zip(got, ref, strict=True)))
        if beats(e, worst):
            worst, where = e, "neuron_start"
    return Verdict.from_error(worst, f"worst {worst:.3g} tolerances ({where})", tol64)


def claims() -> list[Theorem]:
    """Part II's per-neuron claims (symbolic, plus the evaluators' agreement)."""

    def T(id_, where, statement, fn, kind="symbolic"):
        return Theorem(f"piecewise_linear.{id_}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("self_consistent", "Part II (piecewise-linear networks)",
          "Inside an activation region (slopes c, any piecewise-linear activation), d beta_k/dt "
          "= -M_k g_k with M_k = eta_w a_k^2 I + eta_a w_k w_k^T and g_k = sum_i c_ki x_i (f_i "
          "- y_i) = dL/dbeta_k (neuron_gradient), derived from the loss.", _self_consistent),
        T("ntk", "Part II (the NTK of a piecewise-linear net)",
          "K_ij = sum_k c_ki c_kj x_i^T M_k x_j (ntk) is J diag(eta) J^T of the output's "
          "Jacobian in (a, W), inside any activation region.", _ntk),
        T("pattern_from_beta", "Part II (activation patterns)",
          "relu'(w_k . x_i) = relu'(sign(a_k) beta_k . x_i), and eta_w a_k^2 = delta_k + eta_a "
          "|w_k|^2 (a_k keeps its sign where delta_k > 0).", _pattern_from_beta),
        T("radial_directional", "Part II (radial and directional dynamics of beta_k)",
          "d|beta|/dt = -sigma u.g and du/dt = -(lambda_1/|beta|)(I - uu^T) g with sigma = "
          "lambda_1 + lambda_2; the generated stable forms equal lambda_1, lambda_2/|beta|^2 "
          "and lambda_1/|beta| on every branch.", _radial_directional),
        T("angular_rate", "Part II (the influence of delta_k)",
          "omega = lambda_1/|beta| has d omega/d delta = omega/sigma > 0, omega ~ eta_a eta_w "
          "|beta|/|delta| (delta -> -oo), ~ delta/|beta| (delta -> +oo), sigma ~ |delta| at "
          "both ends; the |beta| = 0 branches are the limits.", _angular_rate),
        T("neuron_start", "Part II (delta_k per neuron)",
          "|a| = sqrt(lambda_1/eta_w), w = beta/a gives a w = beta and eta_w a^2 - eta_a |w|^2 = "
          "delta.", _neuron_start),
        T("evaluators", "Part II",
          "angular_rate, radial_rate, self_consistent_field and neuron_start in float64 and at "
          "dps digits equal their 2 dps-digit values (delta from -1e8 to 1e8, |beta| from 0 "
          "to 1e6).", _evaluators_agree, kind="numeric"),
    ]  # fmt: skip


def _pattern_erratum() -> tuple[sp.Expr, sp.Expr]:
    """Printed: the pattern is a function of the direction of beta alone, so ``(a, w)`` and
    ``(-a, -w)`` (same beta, same delta) would share it: the residual ``sign(w . x) -
    sign(-w . x)`` at a point.  Corrected: ``sign(w . x) - sign(sign(a) beta . x)``."""
    a = sp.Symbol("a", real=True, nonzero=True)
    w = np.array(sp.symbols("w0:2", positive=True), dtype=object)
    x = np.array(sp.symbols("x0:2", positive=True), dtype=object)
    printed = sp.sign(w @ x) - sp.sign((-w) @ x)
    corrected = sp.sign(w @ x) - sp.sign(sp.sign(a) * (a * w) @ x)
    return printed, corrected


def errata() -> tuple[Erratum, ...]:
    """The poster's statement on activation patterns, made exact."""
    return (
        Erratum(
            SEED, "Part II (the activation patterns c_ki only depend on the direction of "
            "beta_k)",
            "c_ki = sigma'(w_k . x_i) depends only on the direction of beta_k",
            "c_ki = sigma'(sign(a_k) beta_k . x_i): the direction of beta_k and the sign of "
            "a_k (constant along the flow where delta_k > 0)",
            "beta_k = a_k w_k fixes the line of w_k, not its orientation: (a, w) and (-a, -w) "
            "have the same beta_k and delta_k and complementary ReLU patterns. Residuals: "
            "sign(w.x) - sign(-w.x) at a point with w.x > 0 (printed: the two would agree), "
            "sign(w.x) - sign(sign(a) beta.x) (corrected).",
            _pattern_erratum,
        ),
    )  # fmt: skip


MODEL = Model(
    name="piecewise_linear",
    seed=SEED,
    title="Kunin et al. Part II: piecewise-linear networks neuron by neuron (self-consistent "
    "flow, activation patterns, radial and angular rates)",
    claims=claims,
    errata=errata,
)
