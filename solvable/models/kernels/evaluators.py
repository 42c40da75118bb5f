"""Seed 002, the numeric evaluators generated from the closed forms (2.4), (2.31):
the angle form in ``phi = pi - theta`` with ``J_1 = phi^3 sinc3(phi)``, Kahan's angle from
the chords, float64 (numpy), mpmath and torch (:func:`kernel_numeric`,
:func:`kernel_torch`), and the Gram matrices (:func:`gram`, :func:`gram_torch`; entries
near antiparallel recomputed exactly from the float inputs)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core.backends import generate, sinc3, torch_module
from solvable._core.geometry import DIFF_NORM, SUM_NORM, SUPPLEMENT, norms_and_chords
from solvable._core.numbers import FLOAT64_MAX, Float64RangeError, mpmath_in_mpmath_out
from solvable._core.numbers import check_dps as _check_dps
from solvable._core.numbers import describe as _describe
from solvable._core.numbers import exact_to_mpf as _to_mpf
from solvable._core.scaled import scaled_sum
from solvable.models.kernels.closed_forms import kernel_theta
from solvable.models.kernels.initialisation import (
    Initialisation,
    _check_dimension,
    _check_init,
    _check_name,
)
from solvable.models.kernels.symbols import A2, N1, N2, RHO, S2, THETA

# ---------------------------------------------------------------------------
# generated numeric evaluators
# ---------------------------------------------------------------------------
_GUARD = 10  # mpmath guard digits; the closed forms cancel no digits (all terms >= 0
# except rho J_0 in k0, which is bounded by the same norms)
_RHO_SLACK = 8 * np.finfo(float).eps  # a computed cosine may exceed 1 by a few ulps


PHI = sp.Symbol("phi", nonnegative=True)
"""``pi - theta``, the angle between ``x`` and ``-x'``: the variable of the evaluated forms."""


@functools.cache
def _supplement_form(name: str) -> sp.Expr:
    """:func:`kernel_theta` at ``theta = pi - phi`` with ``sin(phi) - phi cos(phi)`` written
    ``phi^3 sinc3(phi)`` (:class:`~solvable._core.backends.sinc3`): no cancellation near
    antiparallel inputs (``phi -> 0``), where the two terms are ``~ phi`` and their difference
    ``~ phi^3/3``; ``phi`` itself is computed directly (:data:`SUPPLEMENT`), never as
    ``pi - theta`` (claim ``stable_forms`` proves the form equal to :func:`kernel_theta`)."""
    e = kernel_theta(name).subs(THETA, sp.pi - PHI)
    return e.subs(sp.sin(PHI), PHI**3 * sinc3(PHI) + PHI * sp.cos(PHI))


@functools.cache
def _phi_of_rho() -> sp.Expr:
    """``pi - acos(rho)`` as :data:`SUPPLEMENT` of the chords of two unit vectors at cosine
    ``rho``: ``|u - v| = sqrt(2 (1 - rho))``, ``|u + v| = sqrt(2 (1 + rho))`` (``1 + rho`` is
    exact in float64 for ``rho`` in ``[-1, -1/2]``: full relative accuracy at ``rho -> -1``)."""
    return SUPPLEMENT.subs({DIFF_NORM: sp.sqrt(2 * (1 - RHO)), SUM_NORM: sp.sqrt(2 * (1 + RHO))})


_SCALES = (N1, N2, PHI, A2, S2)  # the unbounded factors, multiplied by scaled_sum


@functools.cache
def _terms(name: str) -> tuple[tuple[tuple[tuple[sp.Symbol, int], ...], sp.Expr], ...]:
    """The terms of :func:`_supplement_form`, each split into its powers of :data:`_SCALES`
    (norms, moments and ``phi``: unbounded) and the rest, a bounded function of ``phi``."""
    out = []
    for term in sp.Add.make_args(sp.expand(_supplement_form(name))):
        powers, rest = [], []
        for factor in sp.Mul.make_args(term):
            base, exp = factor.as_base_exp()
            if base in _SCALES and exp.is_Integer and exp > 0:
                powers.append((base, int(exp)))
            else:
                rest.append(factor)
        out.append((tuple(powers), sp.Mul(*rest)))
    return tuple(out)


@functools.cache
def _evaluator(kind: str, backend: str, name: str = "", k: int = 0) -> Callable[..., Any]:
    """Generated evaluators: ``"phi"`` (:data:`SUPPLEMENT` of the chords), ``"phi_rho"``
    (:func:`_phi_of_rho`), ``"form"`` (:func:`_supplement_form` of ``name``, for mpmath) and
    ``"bounded"`` (the bounded part of the ``k``-th of :func:`_terms`)."""
    if kind == "phi":
        return generate((DIFF_NORM, SUM_NORM), SUPPLEMENT, backend)
    if kind == "phi_rho":
        return generate((RHO,), _phi_of_rho(), backend)
    if kind == "form":
        return generate((N1, N2, PHI, A2, S2), _supplement_form(name), backend)
    return generate((PHI,), _terms(name)[k][1], backend)


def _to_float64(values: list[Any], name: str) -> np.ndarray:
    """``mpf`` kernel values as float64, a ``Float64RangeError`` beyond its range."""
    out = np.array([float(v) for v in values], dtype=np.float64)
    if not np.all(np.isfinite(out)):
        raise Float64RangeError(f"{name} kernel: a value exceeds the largest float64 (from the "
                                f"norms of X and Y); use dps= for an mpmath value")  # fmt: skip
    return out


def _float_kernel(name: str, backend: str, n1: Any, n2: Any, phi: Any, m2: float, s2: float,
                  where: str) -> Any:  # fmt: skip
    """The kernel in float64 (numpy) or the tensors' dtype (torch), each term's product
    formed by :func:`~solvable._core.scaled.scaled_sum` (no overflow or underflow of an
    intermediate); a value beyond the float type is a ``Float64RangeError`` naming ``where``."""
    values = {N1: n1, N2: n2, PHI: phi, A2: m2, S2: s2}
    terms = []
    for k, (powers, _) in enumerate(_terms(name)):
        bounded = _evaluator("bounded", backend, name, k)(phi)
        terms.append([(bounded, 1), *((values[b], e) for b, e in powers)])
    value, overflow = scaled_sum(terms, backend)
    if bool(overflow.any()):
        top = "float64" if backend == "numpy" else str(value.dtype).replace("torch.", "")
        raise Float64RangeError(
            f"{name} kernel: a value exceeds the largest {top} ({where}); evaluate with dps= "
            f"(mpmath) for it, or rescale the inputs (the kernels are homogeneous of degree 1 "
            f"in each norm)")  # fmt: skip
    return value


# Entries whose phi = pi - theta is below this are recomputed exactly (_exact_kernels): the
# chords of rounded unit vectors carry an absolute error of a few eps, so a float phi is
# good to ~eps/phi relative and the kernel (~phi^3 near antiparallel) to ~3 eps/phi, at most
# 48 eps above this cut
_REFINE_BELOW = 1 / 16


def _dyadic_rows(A: np.ndarray) -> list[tuple[list[int], int]]:
    """Each float row as exact integers times a power of two: ``(ints, e)`` with
    ``row = ints * 2^e`` (``math.frexp``: 53-bit mantissas)."""
    rows = []
    for row in A:
        parts = [math.frexp(float(v)) for v in row]
        exps = [e - 53 for m, e in parts if m != 0]
        low = min(exps) if exps else 0
        rows.append(([int(m * (1 << 53)) << (e - 53 - low) if m else 0 for m, e in parts], low))
    return rows


def _exact_kernels(name: str, init: Initialisation, X: np.ndarray, Y: np.ndarray,
                   pairs: Any, digits: int) -> list[Any]:  # fmt: skip
    """The kernel at the rows ``(X[i], Y[j])`` for ``(i, j)`` in ``pairs``, as ``mpf`` at
    ``digits`` significant digits (plus guard digits), from the exact float inputs: with
    integers, ``|x|^2``, ``|y|^2``, ``x . y`` and ``|x|^2 |y|^2 - (x . y)^2 = |x|^2 |y|^2
    sin^2(theta)`` (Lagrange's identity) are exact, so ``phi = atan2(|x||y| sin(theta),
    -x . y)`` keeps full relative precision at every angle, down to exactly antiparallel
    (``phi = 0``)."""
    xs = _dyadic_rows(X)
    ys = xs if Y is X else _dyadic_rows(Y)
    form = _evaluator("form", "mpmath", name)
    out = []
    with mpmath.workdps(digits + _GUARD):
        m2, s2 = _to_mpf(init.a_second_moment), _to_mpf(init.w_variance)
        for i, j in pairs:
            (a, ea), (b, eb) = xs[i], ys[j]
            sx, sy = sum(v * v for v in a), sum(v * v for v in b)
            dot = sum(u * v for u, v in zip(a, b, strict=True))
            if sx == 0 or sy == 0:
                out.append(mpmath.mpf(0))
                continue
            phi = mpmath.atan2(mpmath.sqrt(sx * sy - dot * dot), -dot)
            n1 = mpmath.ldexp(mpmath.sqrt(sx), ea)
            n2 = mpmath.ldexp(mpmath.sqrt(sy), eb)
            out.append(form(n1, n2, phi, m2, s2))
    return out


def _float_array(name: str, value: Any, torch_fn: str = "the *_torch functions") -> np.ndarray:
    """``value`` as a float64 array of finite real numbers: ``TypeError`` for what is not
    real numbers (None, bools, complex, non-numeric strings, a torch tensor: use
    ``torch_fn``), ``ValueError`` for a ragged shape or a non-finite entry; each message
    names ``name`` and quotes the value."""
    want = f"{name} must be an array of finite real numbers"
    if type(value).__module__.split(".", 1)[0] == "torch":
        raise TypeError(f"{want}, got a torch tensor (use {torch_fn} for tensors)")
    if value is None or isinstance(value, (str, bytes, bool, complex)):
        raise TypeError(f"{want}, got {type(value).__name__} {_describe(value)}")
    try:
        raw = np.asarray(value)
    except ValueError:  # numpy refuses ragged nesting
        raise ValueError(f"{want} of one rectangular shape, got {_describe(value)}") from None
    if raw.dtype.kind == "O":
        bad = [
            v
            for v in raw.ravel()
            if v is None
            or isinstance(v, (bool, np.bool_, complex, np.complexfloating, str, bytes))
            or type(v).__module__.split(".", 1)[0] == "torch"
        ]
        if bad:
            raise TypeError(f"{want}, got an entry {type(bad[0]).__name__} {_describe(bad[0])}")
    elif raw.dtype.kind not in "iuf":
        raise TypeError(f"{want}, got dtype {raw.dtype} ({_describe(value)})")
    try:
        arr = raw.astype(np.float64)
    except OverflowError:  # an int entry like 10**400
        raise Float64RangeError(
            f"{name} has an entry outside the float64 range (|value| <= {FLOAT64_MAX:.4g})"
        ) from None
    except (TypeError, ValueError):
        raise TypeError(f"{want}, got {_describe(value)}") from None
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite, got {_describe(value)}")
    return arr


def _check_norms_cosine(n1: Any, n2: Any, rho: Any) -> tuple[np.ndarray, ...]:
    a1, a2, r = (_float_array(k, v, "kernel_torch") for k, v in (("n1", n1), ("n2", n2),
                                                                  ("rho", rho)))  # fmt: skip
    for name, arr in (("n1", a1), ("n2", a2)):
        if np.any(arr < 0):
            raise ValueError(f"{name} must be >= 0 (a norm), got {arr[arr < 0].ravel()[0]!r}")
    outside = r[np.abs(r) > 1 + _RHO_SLACK]
    if outside.size:
        raise ValueError(f"rho must be in [-1, 1], got {outside.ravel()[0]!r}")
    return a1, a2, np.clip(r, -1.0, 1.0)


@mpmath_in_mpmath_out
def kernel_numeric(name: str, init: Initialisation, n1: Any, n2: Any, rho: Any, *,
                   dps: int | None = None) -> Any:  # fmt: skip
    """:func:`kernel` evaluated numerically: float64 numpy (``dps=None``; arrays broadcast;
    cosines within 8 ulps outside ``[-1, 1]`` are clipped) or an ``mpmath.mpf`` with ``dps``
    significant digits (scalars; int, float, exact-decimal str, Fraction, mpf).  Norms 0 give
    0 whatever ``rho``."""
    name, init, dps = _check_name(name), _check_init(init), _check_dps(dps)
    m2, s2 = init.floats() if dps is None else (init.a_second_moment, init.w_variance)
    if not init.is_numeric:
        raise ValueError(f"init must have numeric moments, got {init!r}")
    if dps is None:
        a1, a2, r = _check_norms_cosine(n1, n2, rho)
        phi = _evaluator("phi_rho", "numpy")(r)
        return _float_kernel(name, "numpy", a1, a2, phi, m2, s2, "from n1 * n2")
    with mpmath.workdps(dps + _GUARD):
        args = []
        for label, value in (("n1", n1), ("n2", n2), ("rho", rho)):
            try:
                args.append(_to_mpf(value))
            except TypeError:
                raise TypeError(f"{label} must be a real number, got {value!r}") from None
            if not mpmath.isfinite(args[-1]):
                raise ValueError(f"{label} must be finite, got {value!r}")
        if args[0] < 0 or args[1] < 0:
            raise ValueError(f"n1, n2 must be >= 0 (norms), got {n1!r}, {n2!r}")
        if abs(args[2]) > 1:
            raise ValueError(f"rho must be in [-1, 1], got {rho!r}")
        phi = _evaluator("phi_rho", "mpmath")(args[2])
        value = _evaluator("form", "mpmath", name)(args[0], args[1], phi, _to_mpf(m2),
                                                     _to_mpf(s2))  # fmt: skip
    with mpmath.workdps(dps):
        return +value


def kernel_torch(name: str, init: Initialisation, n1: Any, n2: Any, rho: Any) -> Any:
    """:func:`kernel` on torch tensors (same device and dtype as ``rho``, broadcast; cosines
    clipped to ``[-1, 1]``), generated by ``lambdify(modules="torch")``."""
    torch = torch_module()
    name, init = _check_name(name), _check_init(init)
    m2, s2 = init.floats()

    def tensor(label: str, value: Any, like: Any) -> Any:
        if not torch.is_tensor(value):  # numbers, numpy, nested sequences: as kernel_numeric
            value = torch.as_tensor(_float_array(label, value, "kernel_torch"))
        elif not torch.is_floating_point(value):
            raise TypeError(f"{label} must be a real floating-point tensor, got {value.dtype}")
        if like is not None:
            value = value.to(dtype=like.dtype, device=like.device)
        if not bool(torch.isfinite(value).all()):
            raise ValueError(f"{label} must be finite")
        return value

    rho = tensor("rho", rho, None)
    n1, n2 = tensor("n1", n1, rho), tensor("n2", n2, rho)
    for label, value in (("n1", n1), ("n2", n2)):
        if bool((value < 0).any()):
            raise ValueError(f"{label} must be >= 0 (a norm)")
    if bool((rho.abs() > 1 + _RHO_SLACK).any()):
        raise ValueError(f"rho must be in [-1, 1], got max |rho| = {float(rho.abs().max())}")
    phi = _evaluator("phi_rho", "torch")(rho.clamp(-1.0, 1.0))
    return _float_kernel(name, "torch", n1, n2, phi, m2, s2, "from n1 * n2")


def _check_data(name: str, X: Any, init: Initialisation) -> np.ndarray:
    arr = _float_array(name, X, "gram_torch")
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty (n, d) matrix, got shape {arr.shape}")
    _check_dimension(name, arr.shape[1], init)
    return arr


@mpmath_in_mpmath_out
def gram(name: str, init: Initialisation, X: Any, Y: Any = None, *,
         dps: int | None = None) -> np.ndarray:  # fmt: skip
    """The Gram matrix ``K(x_i, y_j)`` (n, m) on the rows of ``X`` (n, d) and ``Y`` (m, d)
    (default ``Y = X``): float64 (``dps=None``) or an object array of ``mpmath.mpf`` at
    ``dps`` digits (inputs converted exactly from their float64 values).  Uses the angle form
    with Kahan's stable angle (module docstring); zero rows give zero rows."""
    name, init, dps = _check_name(name), _check_init(init), _check_dps(dps)
    Xa = _check_data("X", X, init)
    Ya = Xa if Y is None else _check_data("Y", Y, init)
    if Ya.shape[1] != Xa.shape[1]:
        raise ValueError(f"Y must have {Xa.shape[1]} columns (as X), got {Ya.shape[1]}")
    if not init.is_numeric:
        raise ValueError(f"init must have numeric moments, got {init!r}")
    if dps is None:
        m2, s2 = init.floats()
        nx, ny, diff, summ = norms_and_chords(Xa, Ya, "numpy")
        phi = _evaluator("phi", "numpy")(diff, summ)
        out = _float_kernel(name, "numpy", nx, ny, phi, m2, s2, "from the norms of X and Y")
        pairs = np.argwhere(phi < _REFINE_BELOW)
        if len(pairs):
            exact = _exact_kernels(name, init, Xa, Xa if Y is None else Ya, pairs, 17)
            out[tuple(pairs.T)] = _to_float64(exact, name)
        return out
    pairs = [(i, j) for i in range(len(Xa)) for j in range(len(Ya))]
    exact = _exact_kernels(name, init, Xa, Xa if Y is None else Ya, pairs, dps)
    with mpmath.workdps(dps):
        return np.array([+v for v in exact], dtype=object).reshape(len(Xa), len(Ya))


def gram_torch(name: str, init: Initialisation, X: Any, Y: Any = None) -> Any:
    """:func:`gram` on torch tensors (device and dtype of ``X``; numpy input becomes a
    float64 CPU tensor)."""
    torch = torch_module()
    name, init = _check_name(name), _check_init(init)
    m2, s2 = init.floats()

    def tensor(label: str, value: Any, like: Any) -> Any:
        if not torch.is_tensor(value):  # numpy / nested sequences: checked as by gram
            value = torch.as_tensor(_float_array(label, value, "gram_torch"))
        elif not torch.is_floating_point(value):
            raise TypeError(f"{label} must be a real floating-point tensor, got {value.dtype}")
        if like is not None:
            value = value.to(dtype=like.dtype, device=like.device)
        return value

    X = tensor("X", X, None)
    Y = X if Y is None else tensor("Y", Y, X)
    if X.ndim != 2 or Y.ndim != 2 or X.shape[1] != Y.shape[1] or 0 in (*X.shape, *Y.shape):
        raise ValueError(f"X, Y must be non-empty (n, d), (m, d) matrices, got {tuple(X.shape)}, "
                         f"{tuple(Y.shape)}")  # fmt: skip
    _check_dimension("X", X.shape[1], init)
    if not (bool(torch.isfinite(X).all()) and bool(torch.isfinite(Y).all())):
        raise ValueError("X and Y must be finite")

    nx, ny, diff, summ = norms_and_chords(X, Y, "torch")
    phi = _evaluator("phi", "torch")(diff, summ)
    out = _float_kernel(name, "torch", nx, ny, phi, m2, s2, "from the norms of X and Y")
    pairs = torch.nonzero(phi < _REFINE_BELOW)
    if len(pairs):
        # exact values from the float64 inputs (on the CPU), as gram does.  Where a gradient
        # is wanted the correction is added detached: the values are exact and the
        # gradient is the float formula's (whose own accuracy there is ~eps/phi)
        Xc = X.detach().to("cpu", torch.float64).numpy()
        Yc = Xc if Y is X else Y.detach().to("cpu", torch.float64).numpy()
        exact = _to_float64(_exact_kernels(name, init, Xc, Yc, pairs.tolist(), 17), name)
        exact = torch.as_tensor(exact, dtype=out.dtype, device=out.device)
        i, k = pairs[:, 0], pairs[:, 1]
        if out.requires_grad:
            correction = torch.zeros_like(out, requires_grad=False)
            correction[i, k] = exact - out.detach()[i, k]
            out = out + correction
        else:
            out = out.clone()
            out[i, k] = exact
        if bool(torch.isinf(out).any()):
            raise Float64RangeError(f"{name} kernel: a value exceeds the largest "
                                    f"{str(out.dtype).replace('torch.', '')} (from the norms of "
                                    f"X and Y)")  # fmt: skip
    return out
