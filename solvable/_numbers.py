"""Validation and conversion of user-supplied numbers.

Numbers may be given as ``int``, ``float``, ``str`` (an exact decimal) or
``mpmath.mpf``; numpy scalars are accepted as floats.  They are stored as
given (after checking) and converted only when a precision is chosen, so that
``"0.1"`` means one tenth at every precision.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, Union

import mpmath
import numpy as np

Number = Union[int, float, str, mpmath.mpf]  # noqa: UP007 (a runtime alias on 3.10)

__all__ = [
    "Number",
    "check_dps",
    "check_int",
    "check_matrix",
    "check_number",
    "check_vector",
    "exact_to_mpf",
    "to_float",
    "to_mpf",
]


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_number(
    name: str, value: Any, *, positive: bool = False, nonnegative: bool = False
) -> Number:
    """Return ``value`` if it is a finite real number (with the stated sign).

    Raises ``TypeError`` for a value that is not a real number and
    ``ValueError`` (naming ``name`` and the valid range) for one out of range.
    """
    if isinstance(value, bool) or not isinstance(
        value, (numbers.Real, str, mpmath.mpf, np.floating, np.integer)
    ):
        raise TypeError(
            f"{name} must be a real number (int, float, str or mpmath.mpf), "
            f"got {type(value).__name__} {_describe(value)}"
        )
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    if isinstance(value, str):
        try:
            with mpmath.workdps(50):
                parsed = mpmath.mpf(value.strip())
        except (ValueError, TypeError):
            raise ValueError(f"{name} must be a decimal number, got {value!r}") from None
    else:
        with mpmath.workprec(mpmath.mp.prec):
            parsed = mpmath.mpf(value) if not isinstance(value, int) else value
    if not mpmath.isfinite(parsed):
        raise ValueError(f"{name} must be finite, got {_describe(value)}")
    if positive and not parsed > 0:
        raise ValueError(f"{name} must be > 0, got {_describe(value)}")
    if nonnegative and not parsed >= 0:
        raise ValueError(f"{name} must be >= 0, got {_describe(value)}")
    return value


def check_vector(name: str, value: Any, length: int | None = None) -> tuple[Number, ...]:
    """A 1-d sequence of finite numbers (numpy arrays, lists, tuples)."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu" and value.ndim == 1:
        # vectorised fast path for numeric arrays (e.g. many sample times)
        if value.size == 0:
            raise ValueError(f"{name} must not be empty")
        if length is not None and value.size != length:
            raise ValueError(f"{name} must have shape ({length},), got ({value.size},)")
        bad = np.flatnonzero(~np.isfinite(value))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"{name}[{i}] must be finite, got {value[i]!r}")
        return tuple(value.tolist())
    items = _as_nested(name, value)
    if not isinstance(items, list) or any(isinstance(v, list) for v in items):
        raise ValueError(f"{name} must be one-dimensional, got shape {_shape(value)}")
    if len(items) == 0:
        raise ValueError(f"{name} must not be empty")
    if length is not None and len(items) != length:
        raise ValueError(f"{name} must have shape ({length},), got ({len(items)},)")
    return tuple(check_number(f"{name}[{i}]", v) for i, v in enumerate(items))


def check_matrix(name: str, value: Any, shape: tuple[int, int]) -> tuple[tuple[Number, ...], ...]:
    """A 2-d array of finite numbers of the given shape."""
    items = _as_nested(name, value)
    rows, cols = shape
    if (
        not isinstance(items, list)
        or len(items) != rows
        or any(not isinstance(r, list) or len(r) != cols for r in items)
    ):
        raise ValueError(f"{name} must have shape {shape}, got {_shape(value)}")
    return tuple(
        tuple(check_number(f"{name}[{i},{j}]", v) for j, v in enumerate(row))
        for i, row in enumerate(items)
    )


def _as_nested(name: str, value: Any) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf" and value.dtype != object:
            raise TypeError(f"{name} must hold real numbers, got dtype {value.dtype}")
        return value.tolist()
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{name} must be an array or sequence, got {type(value).__name__}")
    return [_as_nested(name, v) if _is_seq(v) else v for v in value]


def _is_seq(v: Any) -> bool:
    return isinstance(v, np.ndarray) or (
        isinstance(v, Sequence) and not isinstance(v, (str, bytes))
    )


def _shape(value: Any) -> tuple[int, ...]:
    try:
        return np.shape(np.asarray(value, dtype=object))
    except ValueError:
        return ("ragged",)  # type: ignore[return-value]


def to_float(value: Number) -> float:
    """float64 value (strings are rounded once, correctly)."""
    if isinstance(value, mpmath.mpf):
        return float(value)
    return float(value)


def to_mpf(value: Number) -> mpmath.mpf:
    """mpmath value at the current working precision (strings parsed exactly)."""
    if isinstance(value, str):
        return mpmath.mpf(value.strip())
    return mpmath.mpf(value)


def check_dps(dps: Any) -> int | None:
    """``None`` (float64) or a positive number of significant digits, as an ``int``."""
    if dps is None:
        return None
    if isinstance(dps, bool) or not isinstance(dps, numbers.Integral) or dps < 1:
        raise ValueError(f"dps must be None (float64) or an integer >= 1, got {dps!r}")
    return int(dps)


def check_int(name: str, value: Any, low: int = 1) -> int:
    """An integer ``>= low`` (``TypeError`` for a non-integer, ``ValueError`` below ``low``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int >= {low}, got {type(value).__name__} {value!r}")
    if int(value) < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def exact_to_mpf(value: Any) -> mpmath.mpf:
    """``value`` at the working precision: sympy expressions and fractions evaluated with
    guard digits, strings parsed exactly, numpy scalars unwrapped; other types rejected."""
    from fractions import Fraction

    import sympy as sp

    if isinstance(value, sp.Expr):
        return mpmath.mpf(sp.N(value, mpmath.mp.dps + 5))
    if isinstance(value, Fraction):
        return mpmath.mpf(value.numerator) / value.denominator
    if isinstance(value, str):
        return mpmath.mpf(value.strip())
    if isinstance(value, (np.floating, np.integer)):
        value = value.item()
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise TypeError(f"expected a real number, got {value!r}")
    return mpmath.mpf(value)
