"""The validation of what a user hands to the oracles of :mod:`solvable.verification.testing`
(tolerances, step sizes, times and the blocks of a trajectory): a ``TypeError`` or
``ValueError`` naming the argument and the valid range.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb


# ---------------------------------------------------------------------------
# validation of what the user hands in
# ---------------------------------------------------------------------------
def _real(name: str, value: Any) -> float:
    """A finite real number (an entry that is infinite, NaN or beyond float64 refused)."""
    out = _entry(name, value)
    if not math.isfinite(out):
        raise ValueError(f"{name} must be finite (and within the float64 range), got "
                         f"{nb.describe(value)}")  # fmt: skip
    return out


def _entry(name: str, value: Any) -> float:
    """One entry of an object array as a float: a real number (int, float, numpy scalar,
    ``Fraction``, ``mpf``); an infinity or NaN is kept (the caller's check decides, as for a
    float array), a finite value beyond the float64 range is refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} "
                        f"{nb.describe(value)}")  # fmt: skip
    try:
        out = float(value)
    except OverflowError:  # an int or Fraction beyond float64
        out = math.inf
    if math.isinf(out) and not (isinstance(value, (float, mpmath.mpf)) and mpmath.isinf(value)):
        raise ValueError(f"{name} must be within the float64 range, got {nb.describe(value)}")
    return out


def _check_rtol(rtol: Any) -> float:
    out = _real("rtol", rtol)
    if not 0 < out < 1:
        raise ValueError(f"rtol must be in (0, 1) (a relative tolerance), got {nb.describe(rtol)}")
    return out


def _check_atol(atol: Any) -> float:
    out = _real("atol", atol)
    if out < 0:
        raise ValueError(f"atol must be >= 0, got {nb.describe(atol)}")
    return out


def _check_lr(lr: Any) -> float | None:
    if lr is None:
        return None
    out = _real("lr", lr)
    if not out > 0:
        raise ValueError(f"lr must be > 0 (the gradient-descent step in flow time), got "
                         f"{nb.describe(lr)}")  # fmt: skip
    return out


def _as_array(name: str, value: Any) -> np.ndarray:
    """``value`` as a float64 array, never reshaped: torch tensors (detached, on the CPU),
    numpy arrays, nested lists; bool, complex, strings and ragged lists are refused."""
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor, without torch
        value = value.detach().cpu()
        if value.is_floating_point():  # float16 / bfloat16 (numpy has no bfloat16)
            value = value.double()
        value = value.numpy()
    try:
        arr = np.asarray(value)
    except ValueError:
        raise ValueError(f"{name} must be a rectangular array (one entry per time), got a "
                         f"ragged sequence {nb.describe(value)}") from None  # fmt: skip
    if arr.dtype.kind == "O":
        try:
            with np.errstate(invalid="ignore"):  # a NaN entry: refused by the caller's check
                arr = np.vectorize(lambda v: _entry(name, v), otypes=[float])(arr)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name} must hold real numbers only: {exc}") from None
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype} "
                        f"({nb.describe(value)})")  # fmt: skip
    return arr.astype(np.float64)


def _check_finite(name: str, arr: np.ndarray) -> None:
    bad = ~np.isfinite(arr)
    if np.any(bad):
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must be finite: {name}{list(idx)} = {arr[idx]!r}")


def _check_times(times: Any, allow_inf: bool) -> np.ndarray:
    ts = _as_array("times", times)
    if ts.ndim != 1 or ts.size == 0:
        raise ValueError(f"times must be a non-empty 1-d sequence, got shape {ts.shape}")
    if np.any(np.isnan(ts)) or (not allow_inf and np.any(np.isinf(ts))):
        _check_finite("times", ts)
    if np.any(ts < 0):
        k = int(np.argmax(ts < 0))
        raise ValueError(f"times must be >= 0: times[{k}] = {float(ts[k])!r}")
    return ts


def _check_block(name: str, value: Any, shape: tuple[int, ...]) -> np.ndarray:
    arr = _as_array(name, value)
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (times, *block), got {arr.shape}; "
                         f"it is never reshaped")  # fmt: skip
    _check_finite(name, arr)
    return arr
