r"""Seed 003 (Kunin et al.), Part II: the hyperbolic-entropy mirror flow of the singular
values, and the implicit bias it implies (diagonal linear network).

Source: seed ``003_cfd8c5fad4b6665d.txt``, Part II ("the dynamics of the singular values of
beta can be described as a mirror flow with a hyperbolic entropy potential, which smoothly
interpolates between an l1 and l2 penalty on the singular values for the rich (delta -> 0)
and lazy (delta -> +-oo) regimes").

Mirror flow (Theorem 4.2, wide net ``f = A^T W x`` from ``Delta = delta I``): a simple singular
value ``s`` of ``beta = W^T A`` with singular vectors ``u, v`` moves as
``ds/dt = u^T (d beta/dt) v = -(lambda_2(s^2) + lambda_1(s^2)) u^T G v = -m(s) dL/ds`` with
:math:`m(s) = \sqrt{\delta^2 + k^2 s^2}`, :math:`k = 2 \sqrt{\eta_a \eta_w}` (``G = grad_beta L``,
``dL/ds = u^T G v``).  With a potential ``phi`` such that ``phi''(s) m(s) = 1``, the mirror
coordinate ``phi'(s)`` obeys ``d phi'(s)/dt = -dL/ds``: a mirror flow (closed in ``s`` when
the singular vectors are fixed, the aligned case).

The potential (:func:`hyperbolic_entropy`), for singular values ``s >= 0`` and any real
``delta``:

.. math::

    \phi(s) = \frac{s}{k} \log\frac{k s + m(s)}{2 k} - \frac{s^2}{m(s) + |\delta|},
    \qquad \phi(0) = 0,


is continuous through ``delta = 0``, where it is ``(s/k)(log s - 1)`` (claim
``mirror_flow.balanced_form``), and has no cancellation for large ``s/|delta|`` (all terms
positive in ``k s + m``; ``m - |delta|`` written as ``k^2 s^2/(m + |delta|)``).  It differs from
the textbook hyperbolic entropy (Woodworth et al. 2020, Azulay et al. 2021)
``(k s asinh(k s/|delta|) - m + |delta|)/k^2`` (= its log form) by ``(s/k) log(|delta|/(2k))``,
linear in ``s`` (claim ``mirror_flow.textbook_form``): same ``phi''``, same mirror flow, same
Bregman divergence.  The textbook form is the Bregman divergence from ``s = 0``; after
rescaling it tends to ``|s|/k`` (l1) as ``delta -> 0`` and to ``s^2/2`` (l2) as ``|delta| ->
oo`` (claims ``mirror_flow.l1_limit``, ``mirror_flow.l2_limit``).

Implicit bias (:func:`bregman_interpolant`): for a signed coordinate the mirror map is
``theta(beta) = asinh(k beta/|delta|)/k`` (:func:`mirror_map`, ``theta' m = 1`` on all of R
for ``delta != 0``), inverse ``beta = (|delta|/k) sinh(k theta)``.  The model where this is
exact for every coordinate is the diagonal linear network (:class:`DiagonalSetup`,
Woodworth et al. 2020; each coordinate is Part I's single neuron with ``d = 1``)::

    f(x) = sum_j a_j w_j x_j = x^T beta,   beta = a * w,
    L = 1/2 ||X beta - y||^2,   da/dt = -eta_a dL/da,   dw/dt = -eta_w dL/dw,

with every ``delta_j = eta_w a_j^2 - eta_a w_j^2`` conserved (:func:`diagonal_balance`) and
``d beta_j/dt = -m_j(beta_j) dL/dbeta_j``, so ``theta(beta(t)) - theta(beta(0))`` stays in the
row space of ``X``: a limit that interpolates (``X beta = y``) is
``argmin_beta sum_j D_phi_j(beta_j, beta_j(0))`` subject to ``X beta = y`` (its KKT conditions),
which :func:`bregman_interpolant` solves (Newton on the dual, ``Psi_j(theta) = (|delta_j|/k^2)
cosh(k theta)``).  The wide net's regression loss does not couple singular values (each
output column is fitted on its own), so the diagonal net is the model whose limit is decided
by the potential.  This module does not import :mod:`solvable.models.kunin` (which may re-export
:func:`hyperbolic_entropy`).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.arrays import (
    ArrayArgs,
    all_finite,
    shape_of,
    symbolic_sizes,
)
from solvable._core.backends import check_backend, generate, log1p, torch_module
from solvable._core.claims import Theorem, Verdict, decide, prove_zero
from solvable._core.conservation import ConservationLaw
from solvable._core.flows import GradientFlow, gradient_flow, symbol_array
from solvable._core.model import Model, System
from solvable._core.numbers import Number
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats

__all__ = [
    "MODEL",
    "SEED",
    "DiagonalSetup",
    "DiagonalState",
    "DiagonalSystem",
    "Setup",
    "Symbols",
    "bregman_interpolant",
    "diagonal_balance",
    "diagonal_flow",
    "diagonal_loss",
    "evaluators",
    "hyperbolic_entropy",
    "inverse_mirror_map",
    "mirror_map",
    "symbolic",
]

SEED = "003_cfd8c5fad4b6665d.txt"


# ---------------------------------------------------------------------------
# symbolic layer
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Symbols:
    """Symbols and expressions (see the module docstring).

    ``exprs``: ``k`` (= 2 sqrt(eta_a eta_w)), ``m`` (= sqrt(delta^2 + k^2 s^2)), ``phi``,
    ``dphi``, ``d2phi`` (phi, phi', phi''), ``dphi_near_zero`` (phi' as ``log1p(x)/k``, free
    of cancellation near its zero), ``dphi_evaluated`` (phi' as evaluated: that form where
    ``(k s + m)/(2k)`` is in [1/2, 2], ``dphi`` elsewhere), ``phi_asinh`` and
    ``phi_log`` (the textbook potential and its log form), ``theta`` (the signed mirror map of
    ``beta``), ``inverse`` (its inverse, of ``theta``), ``Psi`` (the dual potential),
    ``m_beta`` (m at ``beta``)."""

    s: sp.Symbol
    beta: sp.Symbol
    theta: sp.Symbol
    delta: sp.Symbol
    eta_a: sp.Symbol
    eta_w: sp.Symbol
    exprs: dict[str, Any] = field(repr=False)


@functools.cache
def symbolic() -> Symbols:
    """The sympy source of every formula of this module."""
    s = sp.Symbol("s", nonnegative=True)
    beta, theta = sp.symbols("beta theta", real=True)
    delta = sp.Symbol("delta", real=True)
    eta_a, eta_w = sp.symbols("eta_a eta_w", positive=True)
    k = 2 * sp.sqrt(eta_a * eta_w)
    D = sp.Abs(delta)
    m = sp.sqrt(delta**2 + k**2 * s**2)
    at_origin = sp.And(sp.Eq(s, 0), sp.Eq(delta, 0))
    # phi' = log(q)/k, q = (k s + m)/(2k), has a zero at s = 1 - delta^2/(4k^2) where q = 1
    # and log(q) loses every digit of q - 1; there q - 1 is written without cancellation:
    # (k s + m - 2k)(m + 2k - k s) = m^2 - k^2 (s - 2)^2 = delta^2 + 4 k^2 (s - 1)
    near_zero = log1p((delta**2 + 4 * k**2 * (s - 1)) / (2 * k * (m + k * (2 - s)))) / k
    exprs = {
        "k": k,
        "m": m,
        # phi(0) = 0 on every branch; at s = delta = 0 the formula is 0 log 0 - 0/0
        "phi": sp.Piecewise(
            (0, sp.Eq(s, 0)), (s / k * sp.log((k * s + m) / (2 * k)) - s**2 / (m + D), True)
        ),
        "dphi": sp.Piecewise((-sp.oo, at_origin), (sp.log((k * s + m) / (2 * k)) / k, True)),
        "dphi_near_zero": near_zero,
        "d2phi": sp.Piecewise((sp.oo, at_origin), (1 / m, True)),
        # the evaluated phi': the cancellation-free form where q is in [1/2, 2] (there k s +
        # m < 4k, so s < 2 and its denominator m + k (2 - s) > 0), log(q)/k elsewhere
        "dphi_evaluated": sp.Piecewise(
            (-sp.oo, at_origin),
            (near_zero, sp.And(k * s + m >= k, k * s + m <= 4 * k)),
            (sp.log((k * s + m) / (2 * k)) / k, True),
        ),
        "phi_asinh": (k * s * sp.asinh(k * s / D) - m + D) / k**2,
        "phi_log": (k * s * sp.log((k * s + m) / D) - m + D) / k**2,
        "theta": sp.asinh(k * beta / D) / k,
        "inverse": D / k * sp.sinh(k * theta),
        "Psi": D / k**2 * sp.cosh(k * theta),
        "m_beta": sp.sqrt(delta**2 + k**2 * beta**2),
    }
    return Symbols(s=s, beta=beta, theta=theta, delta=delta, eta_a=eta_a, eta_w=eta_w,
                   exprs=exprs)  # fmt: skip


def evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    """The generated evaluators for ``backend`` (``"numpy"``, ``"mpmath"``, ``"torch"``):
    ``phi`` = (phi, phi', phi'') of ``(s, delta, eta_a, eta_w)``; ``theta``, ``inverse``,
    ``Psi``, ``m_beta`` of ``(x, delta, eta_a, eta_w)`` (x = beta or theta).  Cached per
    backend."""
    return _evaluators(check_backend(backend))


@functools.cache
def _evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    S = symbolic()
    ex = S.exprs
    rest = (S.delta, S.eta_a, S.eta_w)
    out = {"phi": generate((S.s, *rest), (ex["phi"], ex["dphi_evaluated"], ex["d2phi"]), backend)}
    out["theta"] = generate((S.beta, *rest), ex["theta"], backend)
    out["m_beta"] = generate((S.beta, *rest), ex["m_beta"], backend)
    out["inverse"] = generate((S.theta, *rest), ex["inverse"], backend)
    out["Psi"] = generate((S.theta, *rest), ex["Psi"], backend)
    return out


# ---------------------------------------------------------------------------
# The potential and the mirror map, evaluated
# ---------------------------------------------------------------------------
# float64 is used where no intermediate can over- or underflow: every non-zero |delta|,
# k s, k and s within [1e-150, 1e150] (their squares and products of two stay within
# [1e-300, 1e300]); otherwise the mpmath evaluator at 17 digits (+ guard) is rounded once
_F64_RANGE = 1e150
_SHADOW_DPS = 17


def _in_range(*values: float) -> bool:
    return all(
        math.isfinite(v) and (v == 0 or 1 / _F64_RANGE <= abs(v) <= _F64_RANGE) for v in values
    )


def _check_derivative(derivative: Any) -> int:
    if isinstance(derivative, (bool, np.bool_)) or not isinstance(derivative, numbers.Integral):
        raise TypeError(f"derivative must be the int 0, 1 or 2, got "
                        f"{type(derivative).__name__} {nb.describe(derivative)}")  # fmt: skip
    if derivative not in (0, 1, 2):
        raise ValueError(f"derivative must be 0, 1 or 2, got {nb.describe(derivative)}")
    return int(derivative)


def _to_float(value: Any, what: str, args: str) -> float:
    """``value`` (an mpf) in float64, else ``Float64RangeError`` naming ``what`` and the
    arguments ``args`` it comes from."""
    out = float(value)
    if math.isfinite(out) or not mpmath.isfinite(value):
        return out
    raise nb.Float64RangeError(
        f"{what} = {mpmath.nstr(value, 6)} (of {args}) is outside the float64 range (|value| "
        f"<= {nb.FLOAT64_MAX:.4g}); pass dps=... for mpmath"
    )


@nb.mpmath_in_mpmath_out
def hyperbolic_entropy(s: Number, delta: Number, eta_a: Number, eta_w: Number, *,
                       derivative: int = 0, dps: int | None = None) -> Any:  # fmt: skip
    """The hyperbolic-entropy potential of a singular value (seed 003, Part II; Theorem 4.2's
    mirror flow): ``phi(s)`` with ``phi''(s) sqrt(delta^2 + 4 eta_a eta_w s^2) = 1`` (claim
    ``mirror_flow.potential``), normalised by ``phi(0) = 0`` and so that it is continuous
    through ``delta = 0`` (``phi(s) = (s/k)(log s - 1)`` there, ``k = 2 sqrt(eta_a eta_w)``).

    Parameters
    ----------
    s : number >= 0 (a singular value; finite).
    delta : finite real number (the conserved ``Delta = delta I`` of Theorem 4.2; any sign).
    eta_a, eta_w : numbers > 0.
    derivative : 0 (``phi``), 1 (``phi'``, the mirror coordinate) or 2 (``phi'' = 1/m``).
        At ``s = delta = 0``: ``phi = 0``, ``phi' = -inf``, ``phi'' = +inf`` (the limits).
    dps : None (float64, or, when an argument is an ``mpmath.mpf``, mpmath at the current
        ``mpmath.mp.dps``: mpmath in, mpmath out) or mpmath digits (result rounded to
        ``dps``).

    Notes
    -----
    The float64 value is the generated numpy evaluator where every input is 0 or within
    ``[1e-150, 1e150]``, else the mpmath evaluator at 17 digits rounded once; a value beyond
    the float64 range is a ``ValueError`` (pass ``dps``)."""
    s = nb.check_number("s", s, nonnegative=True)
    delta = nb.check_number("delta", delta)
    eta_a = nb.check_number("eta_a", eta_a, positive=True)
    eta_w = nb.check_number("eta_w", eta_w, positive=True)
    j = _check_derivative(derivative)
    dps = nb.check_dps(dps)
    if dps is None:
        named = ((s, "s"), (delta, "delta"), (eta_a, "eta_a"), (eta_w, "eta_w"))
        args = [nb.to_float(v, n) if _fits(v) else None for v, n in named]
        if None not in args:
            k = 2 * math.sqrt(args[2] * args[3])
            if _in_range(*args, k, k * args[0]):
                with np.errstate(all="ignore"):
                    val = float(evaluators("numpy")["phi"](*args)[j])
                if math.isfinite(val) or (args[0] == 0 and args[1] == 0):
                    return val
        with nb.Precision(_SHADOW_DPS):
            val = evaluators("mpmath")["phi"](*(nb.to_mpf(v) for v in (s, delta, eta_a, eta_w)))[j]
            return _to_float(val, ("phi", "phi'", "phi''")[j], "s, delta, eta_a, eta_w")
    with nb.Precision(dps):
        val = evaluators("mpmath")["phi"](*(nb.to_mpf(v) for v in (s, delta, eta_a, eta_w)))[j]
    return nb.round_to(dps)(val)


def _fits(value: Any) -> bool:
    """Whether a checked number has a float64 value (its magnitude, not its precision)."""
    try:
        nb.to_float(value)
    except ValueError:
        return False
    return True


def _signed(name: str, x: Number, delta: Number, eta_a: Number, eta_w: Number,
            dps: int | None) -> Any:  # fmt: skip
    """Evaluate ``name`` (``theta`` / ``inverse``) at ``x`` in mpmath (dps or 17 digits)."""
    x = nb.check_number("beta" if name == "theta" else "theta", x)
    delta = nb.check_number("delta", delta)
    eta_a = nb.check_number("eta_a", eta_a, positive=True)
    eta_w = nb.check_number("eta_w", eta_w, positive=True)
    dps = nb.check_dps(dps)
    with mpmath.workdps(30):
        if nb.to_mpf(delta) == 0:
            raise ValueError(
                f"delta must be non-zero for the signed mirror map (at delta = 0 a coordinate "
                f"cannot change sign; use hyperbolic_entropy on |beta|), got {nb.describe(delta)}"
            )
    with nb.Precision(_SHADOW_DPS if dps is None else dps):
        val = evaluators("mpmath")[name](*(nb.to_mpf(v) for v in (x, delta, eta_a, eta_w)))
        if dps is None:
            x_name = "beta" if name == "theta" else "theta"
            return _to_float(val, name, f"{x_name}, delta, eta_a, eta_w")
    return nb.round_to(dps)(val)


@nb.mpmath_in_mpmath_out
def mirror_map(beta: Number, delta: Number, eta_a: Number, eta_w: Number, *,
               dps: int | None = None) -> Any:  # fmt: skip
    """The signed mirror map ``theta(beta) = asinh(k beta/|delta|)/k`` of one coordinate of
    the diagonal network (``theta' m = 1`` on R, claim ``mirror_flow.mirror_map``);
    ``delta != 0``.  Evaluated in mpmath (``dps`` digits, or 17 and rounded to float64)."""
    return _signed("theta", beta, delta, eta_a, eta_w, dps)


@nb.mpmath_in_mpmath_out
def inverse_mirror_map(theta: Number, delta: Number, eta_a: Number, eta_w: Number, *,
                       dps: int | None = None) -> Any:  # fmt: skip
    """``beta = (|delta|/k) sinh(k theta)``, the inverse of :func:`mirror_map`."""
    return _signed("inverse", theta, delta, eta_a, eta_w, dps)


# ---------------------------------------------------------------------------
# The diagonal linear network (the implicit-bias model)
# ---------------------------------------------------------------------------
def _diagonal_loss(a: Any, w: Any, X: Any, y: Any) -> Any:
    return (((a * w) @ X.swapaxes(-1, -2) - y) ** 2).sum(-1) / 2


def _diagonal_balance(a: Any, w: Any, eta_a: Any, eta_w: Any) -> Any:
    return eta_w * a**2 - eta_a * w**2


def diagonal_loss(a: Any, w: Any, X: Any, y: Any) -> Any:
    """``L = 1/2 ||X (a * w) - y||^2``: ``a, w`` (..., d), ``X`` (n, d), ``y`` (n,).

    Array code (float64 arrays, mpmath / sympy object arrays, torch tensors, lists); every
    argument is checked (``TypeError`` / ``ValueError`` naming it), as is the result."""
    v = ArrayArgs("diagonal_loss", torch=True)
    a, w = v.array("a", a, min_ndim=1), v.array("w", w, min_ndim=1)
    X, y = v.array("X", X, ndim=2), v.array("y", y, min_ndim=1)
    v.same("the dimension d (last axis of a and w, columns of X)",
           ("a", a.shape[-1]), ("w", w.shape[-1]), ("X", X.shape[1]))  # fmt: skip
    v.same("the number of data points n (rows of X, last axis of y)",
           ("X", X.shape[0]), ("y", y.shape[-1]))  # fmt: skip
    v.broadcast(("a", a.shape[:-1]), ("w", w.shape[:-1]), ("y", y.shape[:-1]))
    return v(_diagonal_loss, a, w, X, y)


def diagonal_balance(a: Any, w: Any, eta_a: Any, eta_w: Any) -> Any:
    """The conserved ``delta_j = eta_w a_j^2 - eta_a w_j^2`` of every coordinate (..., d);
    array code, checked as :func:`diagonal_loss`."""
    v = ArrayArgs("diagonal_balance", torch=True)
    a, w = v.array("a", a), v.array("w", w)
    eta_a, eta_w = v.scalar("eta_a", eta_a), v.scalar("eta_w", eta_w)
    v.broadcast(("a", shape_of(a)), ("w", shape_of(w)))
    return v(_diagonal_balance, a, w, eta_a, eta_w)


def diagonal_flow(n: int, d: int) -> GradientFlow:
    """The gradient flow of :func:`diagonal_loss`: blocks ``a``, ``w`` (d,) at rates eta_a,
    eta_w; parameters ``(eta_a, eta_w, X entries, y entries)``.  Cached per size."""
    return _diagonal_flow(**symbolic_sizes("diagonal_flow", lambda n, d: n * d + n + 2 * d,
                                            n=n, d=d))  # fmt: skip


@functools.cache
def _diagonal_flow(n: int, d: int) -> GradientFlow:
    S = symbolic()
    X = symbol_array("X", (n, d), real=True)
    y = symbol_array("y", (n,), real=True)
    return gradient_flow(lambda a, w: _diagonal_loss(a, w, X, y),
                         {"a": ((d,), S.eta_a), "w": ((d,), S.eta_w)},
                         (S.eta_a, S.eta_w, *X.ravel(), *y))  # fmt: skip


@dataclass(frozen=True)
class DiagonalSetup:
    """Diagonal linear network ``f(x) = x^T (a * w)``: rates ``eta_a, eta_w > 0``, data ``X``
    (n, d), targets ``y`` (n,); ``L = 1/2 ||X (a * w) - y||^2`` (:func:`diagonal_loss`)."""

    eta_a: Number
    eta_w: Number
    X: tuple[tuple[Number, ...], ...]
    y: tuple[Number, ...]

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "eta_a", nb.check_number("eta_a", self.eta_a, positive=True))
        set_(self, "eta_w", nb.check_number("eta_w", self.eta_w, positive=True))
        y = nb.check_vector("y", self.y)
        set_(self, "X", nb.check_rows("X", self.X, len(y), "y"))
        set_(self, "y", y)

    @property
    def n(self) -> int:
        return len(self.y)

    @property
    def d(self) -> int:
        return len(self.X[0])


Setup = DiagonalSetup
"""The model's setup under the name every simulatable model exports (issue 30):
``mirror_flow.Setup`` is :class:`DiagonalSetup`."""


def _arrays(setup: DiagonalSetup, dps: int | None) -> tuple[np.ndarray, np.ndarray]:
    conv, dt = nb.converter(dps), nb.dtype(dps)
    X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
    return X, np.array([conv(v) for v in setup.y], dtype=dt)


@dataclass(frozen=True)
class DiagonalState:
    """``a``, ``w``, ``beta = a * w``, every conserved ``delta_j`` (all (d,)) and the ``loss``."""

    t: Any
    a: np.ndarray
    w: np.ndarray
    beta: np.ndarray
    delta: np.ndarray
    loss: Any

    @classmethod
    @nb.mpmath_in_mpmath_out
    def from_weights(cls, setup: DiagonalSetup, t: Any, a: Any, w: Any, *,
                     dps: int | None = None) -> DiagonalState:  # fmt: skip
        """The state measured from the weights ``a``, ``w`` (d,) at time ``t >= 0``
        (float64, or mpmath at ``dps`` digits); a measure beyond the float64 range is a
        ``ValueError``."""
        if not isinstance(setup, DiagonalSetup):
            raise TypeError(f"setup must be a mirror_flow.DiagonalSetup, got "
                            f"{type(setup).__name__}")  # fmt: skip
        t = nb.check_number("t", t, nonnegative=True)
        a, w = nb.check_vector("a", a, setup.d), nb.check_vector("w", w, setup.d)
        dps = nb.check_dps(dps)
        conv = nb.converter(dps)
        with nb.Precision(dps), np.errstate(all="ignore"):
            a = np.array([nb.converter(dps, "a")(v) for v in a], dtype=nb.dtype(dps))
            w = np.array([nb.converter(dps, "w")(v) for v in w], dtype=nb.dtype(dps))
            X, y = _arrays(setup, dps)
            ea, ew = conv(setup.eta_a), conv(setup.eta_w)
            st = cls(t=t, a=a, w=w, beta=a * w, delta=_diagonal_balance(a, w, ea, ew),
                     loss=_diagonal_loss(a, w, X, y))  # fmt: skip
        if not all_finite((st.beta, st.delta, st.loss)):
            raise ValueError(
                "the state's beta, delta or loss is outside the float64 range for "
                "these a, w (and X, y, eta_a, eta_w): pass dps=... for mpmath"
            )
        return st


class DiagonalSystem(System):
    """The diagonal network for :func:`numerics.simulate`: ``out0 = a0``, ``in0 = w0``."""

    setup_type = DiagonalSetup
    blocks = ("a", "w")

    def example(self) -> tuple[DiagonalSetup, Any, Any]:
        setup, a0, w0 = _bias_problem("-0.05")
        return setup, a0, w0

    def initial(self, setup: DiagonalSetup, out0: Any, in0: Any) -> dict[str, np.ndarray]:
        a0 = nb.check_vector("a0", out0, setup.d)
        w0 = nb.check_vector("w0", in0, setup.d)
        return {"a": np.array(a0, dtype=object), "w": np.array(w0, dtype=object)}

    def flow(self, setup: DiagonalSetup, shapes: Mapping[str, tuple[int, ...]]) -> GradientFlow:
        return diagonal_flow(setup.n, setup.d)

    def flow_parameters(self, setup: DiagonalSetup, convert: Callable[[Any], Any]) -> list[Any]:
        flat = [v for row in setup.X for v in row]
        return [convert(v) for v in (setup.eta_a, setup.eta_w, *flat, *setup.y)]

    def rates(self, setup: DiagonalSetup) -> dict[str, float]:
        return {"a": float(setup.eta_a), "w": float(setup.eta_w)}

    def data(self, setup: DiagonalSetup, backend: str, like: Any = None) -> dict[str, Any]:
        X, y = _arrays(setup, None)
        if backend == "torch":
            torch = torch_module()
            X = torch.as_tensor(X, dtype=like.dtype, device=like.device)
            y = torch.as_tensor(y, dtype=like.dtype, device=like.device)
        return {"X": X, "y": y}

    def loss(self, params: Mapping[str, Any], data: Mapping[str, Any]) -> Any:
        return _diagonal_loss(params["a"], params["w"], data["X"], data["y"])

    def state(self, setup: DiagonalSetup, t: Any, params: Mapping[str, Any],
              dps: int | None) -> DiagonalState:  # fmt: skip
        return DiagonalState.from_weights(setup, t, params["a"], params["w"], dps=dps)


def _bias_problem(delta: str) -> tuple[DiagonalSetup, tuple[str, ...], tuple[str, ...]]:
    """An underdetermined problem (n = 2, d = 4, eta_a = 1, eta_w = 1/2) started at beta0 = 0
    with every ``delta_j = delta``: ``a0 = 0``, ``w0 = sqrt(-delta/eta_a)`` (delta < 0) or
    ``w0 = 0``, ``a0 = sqrt(delta/eta_w)`` (delta > 0), as decimal strings at 40 digits."""
    X = (("1", "0.5", "-0.3", "0.8"), ("0.2", "-1", "0.6", "0.4"))
    setup = DiagonalSetup("1", "0.5", X, ("1", "-0.6"))
    with mpmath.workdps(40):
        dl = mpmath.mpf(delta)
        root = mpmath.nstr(mpmath.sqrt(abs(dl) / (1 if dl < 0 else mpmath.mpf("0.5"))), 40)
    zero = ("0",) * setup.d
    return (setup, zero, (root,) * setup.d) if dl < 0 else (setup, (root,) * setup.d, zero)


@nb.mpmath_in_mpmath_out
def bregman_interpolant(setup: DiagonalSetup, a0: Any, w0: Any, *,
                        dps: int | None = None) -> np.ndarray:  # fmt: skip
    """What the potential predicts for the diagonal network's limit from ``(a0, w0)``:
    ``argmin_beta sum_j D_phi_j(beta_j, beta_j(0))`` subject to ``X beta = y``, ``phi_j`` the
    hyperbolic entropy of ``delta_j = eta_w a0_j^2 - eta_a w0_j^2`` (seed 003 Part II; the
    Bregman statement of Woodworth et al. 2020 / Azulay et al. 2021).

    Solved from its KKT conditions ``theta_j(beta_j) = theta_j(beta0_j) + (X^T nu)_j``, ``X beta
    = y``: Newton's method with backtracking on the (strictly convex) dual ``sum_j
    Psi_j(theta0_j + (X^T nu)_j) - y^T nu``, at ``dps + 10`` digits (float64: 27, rounded).
    Needs every ``delta_j != 0`` and ``X`` of full row rank (n <= d); else ``ValueError``.
    Returns beta (d,), float64 or mpmath at ``dps`` digits."""
    if not isinstance(setup, DiagonalSetup):
        raise TypeError(f"setup must be a mirror_flow.DiagonalSetup, got {type(setup).__name__}")
    a0 = nb.check_vector("a0", a0, setup.d)
    w0 = nb.check_vector("w0", w0, setup.d)
    dps = nb.check_dps(dps)
    work = _SHADOW_DPS if dps is None else dps
    ev = evaluators("mpmath")
    with nb.Precision(work):
        tol = mpmath.mpf(10) ** -(work + nb.GUARD_DIGITS - 3)
        X, y = _arrays(setup, work)
        ea, ew = nb.to_mpf(setup.eta_a), nb.to_mpf(setup.eta_w)
        a = np.array([nb.to_mpf(v) for v in a0], dtype=object)
        w = np.array([nb.to_mpf(v) for v in w0], dtype=object)
        deltas = diagonal_balance(a, w, ea, ew)
        scale = ew * a**2 + ea * w**2
        for j, (dl, sc) in enumerate(zip(deltas, scale, strict=True)):
            if abs(dl) <= tol * sc or dl == 0:
                raise ValueError(
                    f"a0, w0 must give every delta_j = eta_w a0_j^2 - eta_a w0_j^2 != 0 (the "
                    f"signed mirror map needs it); delta_{j} = {mpmath.nstr(dl, 5)}"
                )
        Xm = mpmath.matrix(X.tolist())
        if setup.n > setup.d or abs(mpmath.det(Xm * Xm.T)) <= tol * mpmath.mnorm(Xm, 1) ** (
            2 * setup.n
        ):
            raise ValueError(f"X must have full row rank (n <= d and X X^T invertible), got "
                             f"shape ({setup.n}, {setup.d})")  # fmt: skip
        args = [(dl, ea, ew) for dl in deltas]
        theta0 = np.array([ev["theta"](b, *p) for b, p in zip(a * w, args, strict=True)])

        def primal(nu: np.ndarray) -> np.ndarray:
            th = theta0 + X.T @ nu
            return np.array([ev["inverse"](t, *p) for t, p in zip(th, args, strict=True)])

        def dual(nu: np.ndarray) -> Any:
            th = theta0 + X.T @ nu
            return mpmath.fsum(ev["Psi"](t, *p) for t, p in zip(th, args, strict=True)) - sum(
                y * nu
            )

        nu = np.array([mpmath.mpf(0)] * setup.n, dtype=object)
        unit = mpmath.mpf(10) ** -(work + nb.GUARD_DIGITS)
        for _ in range(500):
            beta = primal(nu)
            grad = X @ beta - y
            # the residual X beta - y to within the rounding of its terms |X| |beta| + |y|
            terms = np.abs(X) @ np.abs(beta) + np.abs(y)
            if all(abs(g) <= tol * (s_ + 1) for g, s_ in zip(grad, terms, strict=True)):
                break
            mvals = [ev["m_beta"](b, *p) for b, p in zip(beta, args, strict=True)]
            H = mpmath.matrix((X * np.array(mvals, dtype=object)) @ X.T.tolist())
            step = np.array(list(mpmath.lu_solve(H, mpmath.matrix(list(-grad)))), dtype=object)
            f0, slope, t = dual(nu), sum(grad * step), mpmath.mpf(1)
            # Armijo backtracking while the predicted decrease is resolved at the working
            # precision; below that, Newton is in its quadratic range: the full step
            if abs(slope) > 1000 * unit * (abs(f0) + 1):
                while dual(nu + t * step) > f0 + t * slope / 4 and t > tol:
                    t /= 2
            nu = nu + t * step
        else:  # pragma: no cover - Newton on a smooth strictly convex dual converges
            raise ArithmeticError("bregman_interpolant: Newton did not converge in 500 steps")
    if dps is None:  # float() rounds an mpf correctly at any working precision
        return np.array([_to_float(b, "beta", "setup, a0, w0") for b in beta])
    return nb.rounded((beta,), dps)[0]


# ---------------------------------------------------------------------------
# Claims
# ---------------------------------------------------------------------------
def _sign_cases() -> tuple[sp.Symbol, tuple[tuple[str, sp.Expr], ...]]:
    """A positive symbol D and the substitutions ``delta = D``, ``delta = -D``."""
    D = sp.Symbol("D", positive=True)
    return D, (("delta > 0", D), ("delta < 0", -D))


def _positive_s(expr: sp.Expr) -> sp.Expr:
    """``expr`` at a positive ``s`` (the Piecewise branch s = 0 drops)."""
    S = symbolic()
    sp_ = sp.Symbol("s", positive=True)
    return sp.piecewise_fold(sp.sympify(expr, strict=True).subs(S.s, sp_)), sp_


def _potential() -> Verdict:
    # phi' and phi'' are the derivatives of phi, and phi'' m = 1, for s > 0 and both signs
    # of delta and for delta = 0 (m = k s)
    S = symbolic()
    ex = S.exprs
    _, cases = _sign_cases()
    res = []
    for dv in (*(v for _, v in cases), sp.Integer(0)):
        phi, s = _positive_s(ex["phi"].subs(S.delta, dv))
        dphi, _ = _positive_s(ex["dphi"].subs(S.delta, dv))
        d2phi, _ = _positive_s(ex["d2phi"].subs(S.delta, dv))
        m = ex["m"].subs({S.delta: dv, S.s: s})
        res += [sp.diff(phi, s) - dphi, sp.diff(dphi, s) - d2phi, d2phi * m - 1]
        # the evaluated phi' near its zero: log1p(x)/k with 1 + x = (k s + m)/(2k)
        near = ex["dphi_near_zero"].subs(S.delta, dv).subs(S.s, s)
        (x,) = next(iter(near.atoms(log1p))).args
        res.append(1 + x - (ex["k"] * s + m) / (2 * ex["k"]))
    return prove_zero(*res)


def _textbook_form() -> Verdict:
    # phi minus the textbook asinh form, and minus its log form, is (s/k) log(|delta|/(2k)):
    # linear in s (the same mirror flow and Bregman divergence); s > 0, delta of either sign
    S = symbolic()
    ex = S.exprs
    _, cases = _sign_cases()
    res = []
    for _, dv in cases:
        phi, s = _positive_s(ex["phi"].subs(S.delta, dv))
        sub = {S.delta: dv, S.s: s}
        lin = s / ex["k"] * sp.log(sp.Abs(dv) / (2 * ex["k"]))
        res.append(phi - ex["phi_asinh"].subs(sub) - lin)
        res.append(phi - ex["phi_log"].subs(sub) - lin)
    return prove_zero(*(sp.expand_log(r.rewrite(sp.log), force=True) for r in res))


def _balanced_form() -> Verdict:
    # delta = 0: phi = (s/k)(log s - 1), and it is the limit delta -> 0 (both sides) of phi
    S = symbolic()
    ex = S.exprs
    D, _ = _sign_cases()
    phi0, s = _positive_s(ex["phi"].subs(S.delta, 0))
    target = s / ex["k"].subs(S.s, s) * (sp.log(s) - 1)
    res = [phi0 - target]
    for dv in (D, -D):
        phi, s2 = _positive_s(ex["phi"].subs(S.delta, dv))
        res.append(sp.limit(phi, D, 0, "+") - target.subs(s, s2))
    return prove_zero(*res)


def _textbook_at(dv: sp.Expr) -> tuple[sp.Expr, sp.Symbol]:
    S = symbolic()
    s = sp.Symbol("s", positive=True)
    return S.exprs["phi_asinh"].subs({S.delta: dv, S.s: s}), s


def _l1_limit() -> Verdict:
    # delta -> 0 (either side): the textbook potential (the Bregman divergence from 0) over
    # log(1/|delta|) tends to s/k = s/(2 sqrt(eta_a eta_w)): an l1 penalty on s
    D, cases = _sign_cases()
    res = []
    for _, dv in cases:
        phi, s = _textbook_at(dv)
        res.append(sp.limit(phi / sp.log(1 / D), D, 0, "+") - s / symbolic().exprs["k"])
    return prove_zero(*res)


def _l2_limit() -> Verdict:
    # |delta| -> oo (either sign): |delta| times the textbook potential tends to s^2/2: l2
    D, cases = _sign_cases()
    res = []
    for _, dv in cases:
        phi, s = _textbook_at(dv)
        res.append(sp.limit(D * phi, D, sp.oo) - s**2 / 2)
    return prove_zero(*res)


def _mirror_map() -> Verdict:
    # the signed mirror map: theta' m = 1 on R (delta != 0), theta(inverse(theta)) = theta,
    # Psi' = inverse (Psi is the dual potential), and for s > 0 phi' - theta(s) is a
    # constant (log(|delta|/(2k))/k): the two mirror maps differ by a constant
    S = symbolic()
    ex = S.exprs
    D, cases = _sign_cases()
    res = []
    for _, dv in cases:
        sub = {S.delta: dv}
        th, inv = ex["theta"].subs(sub), ex["inverse"].subs(sub)
        res.append(sp.diff(th, S.beta) * ex["m_beta"].subs(sub) - 1)
        # theta(inverse(theta)) = theta, through sinh (injective on R): sinh(k theta(.))
        res.append(sp.sinh(ex["k"] * th.subs(S.beta, inv)) - sp.sinh(ex["k"] * S.theta))
        res.append(sp.diff(ex["Psi"].subs(sub), S.theta) - inv)
        dphi, s = _positive_s(ex["dphi"].subs(sub))
        const = sp.log(D / (2 * ex["k"])) / ex["k"]
        res.append(dphi - th.subs(S.beta, s) - const)
    return prove_zero(*(sp.expand_log(r.rewrite(sp.log), force=True) for r in res))


def _textbook_even() -> Verdict:
    # the textbook potential is even in s and its own Bregman divergence from 0 (phi(0) =
    # phi'(0) = 0), so the limits at s > 0 cover every signed coordinate (cases decided
    # by sympy)
    S = symbolic()
    ex = S.exprs
    b = S.beta
    _, cases = _sign_cases()
    out = []
    for name, dv in cases:
        phi = ex["phi_asinh"].subs({S.delta: dv}).subs(S.s, b)
        out.append((f"even, {name}", sp.simplify(phi - phi.subs(b, -b)) == 0))
        out.append((f"phi(0) = 0, {name}", sp.simplify(phi.subs(b, 0)) == 0))
        out.append((f"phi'(0) = 0, {name}", sp.simplify(sp.diff(phi, b).subs(b, 0)) == 0))
    return decide(out, "textbook hyperbolic entropy")


# float64: phi is a few (<= ~10) roundings of inputs rounded once, and the logarithm's
# argument carries a relative error of a few eps, i.e. an absolute one in log (hence the
# floor s/k in :func:`_units`); measured worst below 2 eps: 32 eps leaves a factor >= 10
F64 = Tolerance(
    rtol=32 * float(np.finfo(float).eps),
    reason="float64: <= ~10 roundings; log of an argument with a few eps error",
)

# (s, delta, eta_a, eta_w): both signs of delta, delta = 0, s = 0, s >> |delta| (rich),
# s << |delta| (lazy), unequal rates, and values out of the float64-safe range
EVAL_POINTS = (
    ("0.7", "-0.3", "1", "0.5"), ("0.7", "0.3", "1", "0.5"), ("2.5", "0", "1", "0.5"),
    ("0", "1.5", "2", "0.25"), ("0", "0", "1", "1"), ("1e6", "1e-9", "1", "1"),
    ("1e-8", "40", "3", "0.1"), ("1e-200", "-1e-190", "1", "1"), ("1e200", "5", "0.5", "2"),
    # at and next to the zero of phi' (s = 1 - delta^2/(4k^2)): phi' ~ 1e-41 and ~ 6e-8 (s =
    # 1 + 2^-23, exact in float64: phi' is ill-conditioned in s there, not in its digits)
    ("1", "1e-20", "1", "1"), ("1.00000011920928955078125", "0", "1", "1"),
)  # fmt: skip


def _units(s: Any, delta: Any, val: Any, dval: Any, k: Any, j: int) -> Any:
    """The size of the terms of the evaluated form (its rounding-error floor): ``phi``:
    ``s |phi'| + s/k + s^2 phi''``; ``phi'``: ``|phi'| + min(1, delta^2/(4k^2) + |s - 1|)/k``
    (the terms of ``x`` in ``log1p(x)/k`` near the zero of ``phi'``, ``log 2/k`` or more
    away from it); ``phi''``: ``|phi''|``."""
    if j == 0:
        return s * abs(dval[1]) + s / k + s**2 * dval[2]
    if j == 1:
        return abs(val) + min(1, delta**2 / k**2 / 4 + abs(s - 1)) / k
    return abs(val)


def _evaluators_agree(dps: int = 30) -> Verdict:
    """:func:`hyperbolic_entropy` (phi, phi', phi''; float64 and mpmath at ``dps`` and 2 dps
    digits) against the mpmath evaluator at 3 dps digits, at :data:`EVAL_POINTS`; errors
    relative to the size of the terms (:func:`_units`), infinities compared exactly."""
    worst, where = NOTHING_COMPARED, ""
    for pt in EVAL_POINTS:
        s, dl, ea, ew = pt
        with mpmath.workdps(3 * dps):
            ref = [hyperbolic_entropy(*pt, derivative=j, dps=3 * dps) for j in range(3)]
            k = 2 * mpmath.sqrt(mpmath.mpf(ea) * mpmath.mpf(ew))
        for prec in (None, dps, 2 * dps):
            tol = F64 if prec is None else Tolerance.digits(prec - 1, f"rounded to {prec}")
            for j in range(3):
                got = hyperbolic_entropy(*pt, derivative=j, dps=prec)
                if mpmath.isinf(ref[j]):
                    err = 0.0 if got == ref[j] else math.inf
                else:
                    with mpmath.workdps(3 * dps):
                        floor = max(abs(ref[j]), _units(mpmath.mpf(s), mpmath.mpf(dl), ref[j],
                                                        ref, k, j))  # fmt: skip
                        diff = abs(mpmath.mpf(got) - ref[j])
                        err = 0.0 if diff == 0 else float(diff / (tol.rtol * floor))
                if beats(err, worst):
                    worst, where = err, f"{pt} phi^({j}) at dps={prec}"
    return Verdict.from_error(
        worst,
        f"{len(EVAL_POINTS)} points x (phi, phi', phi'') x (float64, dps {dps}, {2 * dps}); "
        f"worst {worst:.2g} tolerances" + (f" ({where})" * bool(where)),
        F64,
    )


def laws() -> tuple[ConservationLaw, ...]:
    """Every ``delta_j`` of the diagonal network (n = 2, d = 2), proved along its flow."""
    F = diagonal_flow(2, 2)
    S = symbolic()
    deltas = _diagonal_balance(F.block("a"), F.block("w"), S.eta_a, S.eta_w)
    return tuple(
        ConservationLaw(
            f"mirror_flow.diagonal_delta_{j}", f"{SEED} Part II (diagonal network)",
            f"delta_{j} = eta_w a_{j}^2 - eta_a w_{j}^2 is conserved along the diagonal "
            "network's flow (n = d = 2).", deltas[j], F, "diagonal network, n = d = 2",
        )
        for j in range(2)
    )  # fmt: skip


def _diagonal_mirror_flow() -> Verdict:
    # along the diagonal network's flow (n = d = 2, any X, y): d theta(beta_j)/dt = -dL/dbeta_j
    # (theta the signed mirror map of delta_j, written with the conserved delta_j of the
    # weights; delta_j = +D_j and -D_j) -- the mirror flow, coordinatewise
    S = symbolic()
    F = diagonal_flow(2, 2)
    a, w = F.block("a"), F.block("w")
    beta = symbol_array("b", (2,), real=True)
    X = symbol_array("X", (2, 2), real=True)
    y = symbol_array("y", (2,), real=True)
    L = sp.sympify(((X @ beta - y) ** 2).sum() / 2, strict=True)
    res = []
    for j in range(2):
        bj = a[j] * w[j]
        dbj = F.ddt(bj)
        grad = sp.diff(L, beta[j]).xreplace(dict(zip(beta, a * w, strict=True)))
        # theta'(beta_j) m(beta_j) = 1 (claim mirror_map) with m^2 = delta_j^2 + k^2 beta_j^2
        # = (eta_w a_j^2 + eta_a w_j^2)^2: d theta/dt = dbeta_j/dt / m
        m = S.eta_w * a[j] ** 2 + S.eta_a * w[j] ** 2
        msq = S.exprs["m_beta"].subs({S.beta: bj, S.delta: _diagonal_balance(
            a[j], w[j], S.eta_a, S.eta_w)}) ** 2  # fmt: skip
        res += [msq - m**2, dbj / m + grad]
    return prove_zero(*res)


def claims() -> list[Theorem]:
    """The symbolic claims of the mirror flow and its potential (the simulation-backed ones
    are in :mod:`solvable.verification.confirmations.mirror_flow`)."""

    def T(id_, where, statement, fn, kind="symbolic"):
        return Theorem(f"mirror_flow.{id_}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("potential", "Part II (mirror flow, hyperbolic entropy)",
          "phi' and phi'' are the derivatives of the evaluated phi, and phi''(s) sqrt(delta^2 + "
          "4 eta_a eta_w s^2) = 1 for s > 0 (delta > 0, < 0, = 0); phi' is evaluated near its "
          "zero as log1p(x)/k with 1 + x = (k s + m)/(2k) and x = (delta^2 + 4k^2(s - 1))/(2k "
          "(m + k(2 - s))), free of cancellation.", _potential),
        T("textbook_form", "Part II (hyperbolic entropy)",
          "phi minus the textbook (k s asinh(k s/|delta|) - m + |delta|)/k^2, and minus its log "
          "form, is (s/k) log(|delta|/(2k)), linear in s (same mirror flow and Bregman "
          "divergence).", _textbook_form),
        T("balanced_form", "Part II (rich, delta = 0)",
          "At delta = 0, phi = (s/k)(log s - 1), the limit delta -> 0+- of phi (continuous "
          "through delta = 0).", _balanced_form),
        T("l1_limit", "Part II (delta -> 0: l1)",
          "The textbook potential over log(1/|delta|) tends to s/(2 sqrt(eta_a eta_w)) as "
          "delta -> 0 (either side): an l1 penalty on the singular values.", _l1_limit),
        T("l2_limit", "Part II (|delta| -> oo: l2)",
          "|delta| times the textbook potential tends to s^2/2 as delta -> +-oo: an l2 "
          "penalty.", _l2_limit),
        T("textbook_even", "Part II (hyperbolic entropy)",
          "The textbook potential is even, with phi(0) = phi'(0) = 0 (the Bregman divergence "
          "from 0).", _textbook_even),
        T("mirror_map", "Part II (mirror flow, signed coordinates)",
          "theta(beta) = asinh(k beta/|delta|)/k has theta' m = 1 on R, inverse (|delta|/k) "
          "sinh(k theta) = Psi' with Psi = (|delta|/k^2) cosh(k theta), and phi'(s) - theta(s) "
          "is constant for s > 0.", _mirror_map),
        T("diagonal_mirror_flow", "Part II (mirror flow; diagonal network)",
          "Along the diagonal network's flow, m(beta_j)^2 = (eta_w a_j^2 + eta_a w_j^2)^2 and "
          "d beta_j/dt = -m(beta_j) dL/dbeta_j: d theta(beta_j)/dt = -dL/dbeta_j.",
          _diagonal_mirror_flow),
        T("evaluators", "Part II (hyperbolic entropy)",
          "hyperbolic_entropy (phi, phi', phi''; float64 and mpmath at two precisions) equals "
          "the generated mpmath evaluator at 3 dps digits, at delta <, =, > 0, s = 0, s >> "
          "|delta|, s << |delta| and out of the float64-safe range.", _evaluators_agree,
          kind="numeric"),
    ]  # fmt: skip


MODEL = Model(
    name="mirror_flow",
    seed=SEED,
    title="Kunin et al. Part II: hyperbolic-entropy mirror flow of the singular values; "
    "implicit bias of the diagonal network",
    claims=claims,
    laws=laws,
    systems=(DiagonalSystem(),),
)
