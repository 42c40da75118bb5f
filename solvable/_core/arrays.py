"""Checked array arguments of the models' array code.

A model's definition is written once for float64 arrays, mpmath / sympy object arrays and
(where it is torch code) batched torch tensors, and called by users with numbers: the
public functions of :mod:`solvable.models.mirror_flow`, :mod:`solvable.models.kunin`,
:mod:`solvable.models.xu_ziyin`, :mod:`solvable.models.piecewise_linear`,
:mod:`solvable.models.node_scaling`,
:mod:`solvable.models.three_layer` and :mod:`solvable.models.linearisation` check every argument
with
:class:`ArrayArgs` (``TypeError`` / ``ValueError`` naming it) and refuse a result beyond the
float64 range.  :func:`symbolic_sizes` caps the size of a symbolic flow.
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb

_SYMPY_NONFINITE = (sp.nan, sp.zoo, sp.oo, sp.S.NegativeInfinity)
_EXACT_INT = 2**53  # ints of at most this magnitude are exact in float64


def is_tensor(value: Any) -> bool:
    """A torch tensor (torch not imported: no tensor can exist)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def check_entry(name: str, v: Any) -> None:
    """``v`` is a finite real number (``int``, ``float``, numpy scalar, ``Fraction``,
    ``mpmath.mpf``; within the float64 range unless an ``mpf``) or a real sympy expression
    (symbols allowed); else ``TypeError`` / ``ValueError`` naming ``name``.  Strings are
    refused, never parsed."""
    if isinstance(v, sp.Basic):
        if not isinstance(v, sp.Expr):
            raise TypeError(f"{name} must be a real number or sympy expression, got "
                            f"{type(v).__name__} {nb.describe(v)}")  # fmt: skip
        if v.is_number:
            if v.is_extended_real is False:
                raise TypeError(f"{name} must be real, got {nb.describe(v)}")
            if v.has(*_SYMPY_NONFINITE):
                raise ValueError(f"{name} must be finite, got {nb.describe(v)}")
        return
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            raise ValueError(f"{name} must be finite, got {nb.describe(v)}")
        return
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
        hint = " (pass float(t) or t.item())" if is_tensor(v) else ""
        raise TypeError(
            f"{name} must be a finite real number (int, float, numpy scalar, mpmath.mpf) or a "
            f"sympy expression, got {type(v).__name__} {nb.describe(v)}{hint}"
        )
    if isinstance(v, (int, np.integer, Fraction)):
        if abs(v) > nb.FLOAT64_MAX:
            num, den = (v.numerator, v.denominator) if isinstance(v, Fraction) else (int(v), 1)
            raise nb.Float64RangeError(
                f"{name} = {mpmath.nstr(mpmath.mpf(num) / den, 6)} is outside the float64 range "
                f"(|value| <= {nb.FLOAT64_MAX:.4g}): pass mpmath.mpf"
            )
        return
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {nb.describe(v)}")


def as_array(name: str, value: Any, torch: bool, tensor: bool | None = None) -> Any:
    """``value`` checked as an array: a real floating-point torch tensor (``tensor``; only
    if ``torch``), a numpy array of finite real numbers (integer, floating or object dtype),
    a nested list / tuple (returned as a float64 array when every entry is a float or an
    exact int, else an object array) or a number (returned unchanged)."""
    if tensor if tensor is not None else is_tensor(value):
        if not torch:
            raise TypeError(f"{name} must be a numpy array or sequence of numbers, got a torch "
                            "tensor (pass t.tolist() or t.cpu().numpy())")  # fmt: skip
        if value.is_complex() or not value.is_floating_point():
            raise TypeError(f"{name} must be a real floating-point tensor, got dtype {value.dtype}")
        return value
    if isinstance(value, (list, tuple)):
        try:
            arr = np.array(value, dtype=object)
        except ValueError:
            raise ValueError(f"{name} must be a rectangular array, got a ragged sequence "
                             f"{nb.describe(value)}") from None  # fmt: skip
        for idx, v in np.ndenumerate(arr):
            check_entry(f"{name}{list(idx)}", v)
        if all(isinstance(v, (float, np.floating)) or (isinstance(v, (int, np.integer))
               and abs(v) <= _EXACT_INT) for v in arr.flat):  # fmt: skip
            arr = arr.astype(np.float64)
        return arr
    if isinstance(value, np.ndarray):
        kind = value.dtype.kind
        if kind == "O":
            for idx, v in np.ndenumerate(value):
                check_entry(f"{name}{list(idx)}", v)
        elif kind == "f":
            bad = np.argwhere(~np.isfinite(value))
            if bad.size:
                idx = tuple(bad[0])
                raise ValueError(f"{name}{list(idx)} must be finite, got {value[idx]!r}")
        elif kind not in "iu":
            raise TypeError(f"{name} must hold finite real numbers, got dtype {value.dtype}")
        return value
    check_entry(name, value)
    return value


class ArrayArgs:
    """The checked arguments of one call of array code ``fn``: :meth:`array` and
    :meth:`scalar` check each (``TypeError`` / ``ValueError`` naming it); calling the
    instance on the raw function checks that the arrays share one backend (all torch
    tensors of one dtype and device, or none), runs it and refuses a result beyond the
    float64 range (``ValueError`` naming every argument: the inputs were finite).  A
    tensor's values are not read (no device synchronisation in the batched flows)."""

    def __init__(self, fn: str, *, torch: bool = False) -> None:
        self.fn, self.torch = fn, torch
        self.names: list[str] = []
        self.tensors: dict[str, Any] = {}
        self.arrays: list[str] = []
        self.batch: tuple[int, ...] = ()  # the callers' broadcast batch shape, if they keep one

    def array(self, name: str, value: Any, *, ndim: int | None = None, min_ndim: int = 0,
              wrap: bool = False) -> Any:  # fmt: skip
        """An array argument (``ndim`` axes, or at least ``min_ndim``); a number is
        returned as a 0-d array if ``wrap`` (the code indexes it), else unchanged."""
        tensor = is_tensor(value)
        arr = as_array(name, value, self.torch, tensor)
        self.names.append(name)
        if tensor:
            self.tensors[name] = arr
            shape = tuple(arr.shape)
        elif isinstance(arr, np.ndarray):
            self.arrays.append(name)
            shape = arr.shape
        else:
            shape = ()
            if wrap:  # the code indexes it
                self.arrays.append(name)
                arr = np.asarray(arr, dtype=float if isinstance(arr, float) else object)
        if (ndim is not None and len(shape) != ndim) or len(shape) < min_ndim:
            want = f"{ndim}" if ndim is not None else f"at least {min_ndim}"
            raise ValueError(f"{name} must have {want} axes, got shape {shape}")
        return arr

    def scalar(self, name: str, value: Any) -> Any:
        """A scalar argument: a number, an ``mpf`` or a sympy expression (or a 0-d array /
        tensor), returned unchanged."""
        arr = self.array(name, value)
        if shape_of(arr):
            raise ValueError(f"{name} must be a scalar, got shape {shape_of(arr)}")
        return arr

    def same(self, what: str, *sizes: tuple[str, int]) -> None:
        """The sizes ``(name, size)`` agree, else ``ValueError`` naming each and ``what``."""
        if len({s for _, s in sizes}) > 1:
            got = ", ".join(f"{n} gives {s}" for n, s in sizes)
            raise ValueError(f"{what} must agree: {got}")

    def broadcast(self, *shapes: tuple[str, Any]) -> tuple[int, ...]:
        """The batch shapes ``(description, shape)`` broadcast together: their broadcast
        shape, else ``ValueError`` naming them."""
        out = []
        for axis in range(1, max(len(s) for _, s in shapes) + 1):
            sizes = {s[-axis] for _, s in shapes if len(s) >= axis}
            if len(sizes - {1}) > 1:
                got = ", ".join(f"{n} {tuple(s)}" for n, s in shapes)
                raise ValueError(f"the batch shapes must broadcast together, got {got}")
            out.append(max(sizes) if sizes != {0, 1} else 0)
        return tuple(reversed(out))

    def __call__(self, raw: Callable[..., Any], *args: Any) -> Any:
        if self.tensors and self.arrays:
            raise TypeError(
                f"{self.fn}: {', '.join(self.tensors)} torch tensor(s) but "
                f"{', '.join(self.arrays)} not: pass every array as a torch tensor or none"
            )
        if len({(t.dtype, t.device) for t in self.tensors.values()}) > 1:
            got = ", ".join(f"{n} {t.dtype} on {t.device}" for n, t in self.tensors.items())
            raise TypeError(f"{self.fn}: the tensors must share one dtype and device, got {got}")
        if self.tensors:  # torch code: no numpy warnings, values not read
            return raw(*args)
        with np.errstate(all="ignore"):
            try:
                out = raw(*args)
            except OverflowError:  # a Python float's power (x**2 raises where x*x gives inf)
                out = math.inf
        if not all_finite(out):
            raise nb.Float64RangeError(
                f"{self.fn}({', '.join(self.names)}): the result is outside the float64 range "
                f"(|value| <= {nb.FLOAT64_MAX:.4g}) for these values: rescale them, or pass "
                "mpmath.mpf entries (mpmath has no exponent limit)"
            )
        return out


def shape_of(x: Any) -> tuple[int, ...]:
    """The shape of a checked argument (a number: ``()``)."""
    return tuple(x.shape) if isinstance(x, np.ndarray) or is_tensor(x) else ()


def all_finite(out: Any) -> bool:
    """Whether the float64 and mpmath numbers in ``out`` are finite (tensors and sympy
    expressions are not read)."""
    if isinstance(out, tuple):
        return all(all_finite(v) for v in out)
    if isinstance(out, np.ndarray):
        if out.dtype.kind in "fc":
            return bool(np.isfinite(out).all())
        return out.dtype.kind != "O" or all(all_finite(v) for v in out.flat)
    if isinstance(out, (float, np.floating, mpmath.mpf)):
        return bool(mpmath.isfinite(out))
    return True


def max_abs(x: np.ndarray) -> float:
    """The largest ``|entry|`` of a float64 array in two reductions and no temporary (a
    bound that fast paths compare with the float64 range): ``nan`` where an entry is
    ``nan``, ``0.0`` for an empty array."""
    if x.size == 0:
        return 0.0
    hi, lo = float(np.max(x)), float(np.min(x))
    return math.nan if math.isnan(hi) or math.isnan(lo) else max(hi, -lo)


MAX_SYMBOLIC_ENTRIES = 10**5
"""The most entries (data and weights together) of a symbolic flow
(:func:`solvable.models.mirror_flow.diagonal_flow`, :func:`solvable.models.kunin.flow` and the
like): sympy
derives one of 3000 entries in about ten seconds, so 10^5 take minutes; more is refused (a
typo more often than not)."""


def symbolic_sizes(fn: str, entries: Callable[..., int], **sizes: Any) -> dict[str, int]:
    """The sizes of a symbolic flow, each an int >= 1, with ``entries(**sizes)`` at most
    :data:`MAX_SYMBOLIC_ENTRIES` (else ``ValueError`` naming every size)."""
    out = {k: nb.check_int(k, v) for k, v in sizes.items()}
    count = entries(**out)
    if count > MAX_SYMBOLIC_ENTRIES:
        got = ", ".join(f"{k}={v}" for k, v in out.items())
        raise ValueError(
            f"{fn}({got}) has {count:.3g} symbolic entries (data and weights), more than "
            f"MAX_SYMBOLIC_ENTRIES = {MAX_SYMBOLIC_ENTRIES}: sympy would take hours"
        )
    return out
