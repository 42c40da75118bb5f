"""One tolerance policy for every numeric comparison in the package.

Errors are normwise: for arrays ``a`` (computed) and ``b`` (reference),
``err = max|a - b| / (atol + rtol * max|b|)``, i.e. the error *in units of the
tolerance asked for*; a comparison passes when ``err <= 1``.  ``digits`` is the
number of agreeing significant digits, ``-log10(max|a - b| / max|b|)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

__all__ = ["Tolerance", "digits", "error_in_units", "relative_error"]


@dataclass(frozen=True)
class Tolerance:
    """``rtol`` (normwise relative) and ``atol`` (absolute floor), with the reason."""

    rtol: float
    atol: float = 0.0
    reason: str = ""

    def __post_init__(self) -> None:
        if not (self.rtol >= 0 and self.atol >= 0) or self.rtol + self.atol == 0:
            raise ValueError(
                f"rtol and atol must be >= 0 and not both 0, got rtol={self.rtol}, atol={self.atol}"
            )

    @classmethod
    def digits(cls, n: float, reason: str = "") -> Tolerance:
        """Agreement to ``n`` significant digits: ``rtol = 10**-n``."""
        return cls(rtol=10.0 ** (-n), reason=reason)


def _flat(a: Any) -> list[Any]:
    arr = np.asarray(a, dtype=object).ravel()
    return [mpmath.mpf(v) if not isinstance(v, mpmath.mpf) else v for v in arr]


def _norm_diff(a: Any, b: Any) -> tuple[Any, Any]:
    fa, fb = _flat(a), _flat(b)
    if len(fa) != len(fb):
        raise ValueError(f"shapes differ: {np.shape(a)} vs {np.shape(b)}")
    pairs = zip(fa, fb, strict=True)
    diff = max((abs(x - y) if x != y else mpmath.mpf(0) for x, y in pairs), default=0)
    scale = max((abs(y) for y in fb), default=mpmath.mpf(0))
    return diff, scale


def relative_error(a: Any, b: Any) -> float:
    """``max|a - b| / max|b|`` (``0`` when equal, ``inf`` when ``b == 0 != a``)."""
    with mpmath.workdps(60):
        diff, scale = _norm_diff(a, b)
        if diff == 0:
            return 0.0
        return float(diff / scale) if scale != 0 else float("inf")


def digits(a: Any, b: Any) -> float:
    """Significant digits of agreement (``inf`` for exact agreement)."""
    err = relative_error(a, b)
    return float("inf") if err == 0 else float(-np.log10(err))


def error_in_units(a: Any, b: Any, tol: Tolerance) -> float:
    """The normwise error of ``a`` against ``b`` in units of ``tol`` (pass: ``<= 1``)."""
    with mpmath.workdps(60):
        diff, scale = _norm_diff(a, b)
        if diff == 0:
            return 0.0
        return float(diff / (tol.atol + tol.rtol * scale))
