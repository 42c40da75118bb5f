"""Seed 003 (Kunin et al.), the times at which the exact solutions are sampled: each ``>= 0`` or
``+inf`` (the limit), validated with messages that name the argument (:func:`_times`), and as
a float64 vector for the fast sample (:func:`_float_times`).
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.numbers import Number


def _float_times(times: Any, name: str = "t") -> tuple[np.ndarray, np.ndarray, Any]:
    """float64 times, which are ``+inf``, and the values as given (for the 17-digit
    fallback): a numeric 1-d array is validated vectorised (a bad value is reported by
    :func:`_times`), anything else through :func:`_times`."""
    if (isinstance(times, np.ndarray) and times.ndim == 1 and times.size
            and times.dtype.kind in "fiu"):  # fmt: skip
        tf = times.astype(float, copy=False)
        if not np.all(tf >= 0):  # nan, -inf or negative: _times raises the message
            _times(times, name)
        return tf, np.isinf(tf), tf
    ts, flags = _times(times, name)
    tf = np.array([math.inf if f else nb.to_float(v, name) for v, f in zip(ts, flags, strict=True)])
    return tf, np.array(flags, dtype=bool), ts


_SAMPLE_TIMES = "times: t"  # how sample() names a time in a message (its argument: times)


def _times(times: Any, name: str = "t") -> tuple[tuple[Number, ...], list[bool]]:
    """Validated times and which of them are ``+inf`` (``float("inf")``, ``numpy.inf`` or
    ``mpmath.inf``); every other value as :func:`numbers.check_times` demands (messages
    naming ``name``)."""

    def is_inf(v: Any) -> bool:
        if isinstance(v, (float, np.floating)):
            return bool(v == math.inf)
        return isinstance(v, mpmath.mpf) and v == mpmath.inf

    if isinstance(times, np.ndarray) and times.ndim == 0:
        times = times.item()
    if is_inf(times):
        return (0,), [True]
    if isinstance(times, (list, tuple, np.ndarray)) and len(times) > 0:
        items = list(times)
        flags = [is_inf(v) for v in items]
        if any(flags):
            finite = nb.check_times([0 if f else v for v, f in zip(items, flags, strict=True)],
                                    name)  # fmt: skip
            return finite, flags
    ts = nb.check_times(times, name)
    return ts, [False] * len(ts)
