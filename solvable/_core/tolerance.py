"""One tolerance policy for every numeric comparison in the package.

Errors are normwise: for arrays ``a`` (computed) and ``b`` (reference),
``err = max|a - b| / (atol + rtol * max|b|)``, i.e. the error *in units of the
tolerance asked for*; a comparison passes when ``err <= 1``.  ``digits`` is the
number of agreeing significant digits, ``-log10(max|a - b| / max|b|)``.

Monte Carlo estimates (:func:`monte_carlo`) carry their own tolerance: the half-width of a
normal-approximation confidence interval, Bonferroni-corrected over the entries compared, at
the one confidence level :data:`MC_CONFIDENCE`; their error in units is
``max|mean - exact| / half_width`` (pass: ``<= 1``).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb

_NORMAL = NormalDist()  # the standard normal (its quantile: inv_cdf)

__all__ = [
    "MC_CONFIDENCE",
    "NOTHING_COMPARED",
    "MonteCarlo",
    "Tolerance",
    "beats",
    "digits",
    "error_in_units",
    "monte_carlo",
    "relative_error",
    "worst_item",
    "worst_of",
]


@dataclass(frozen=True)
class Tolerance:
    """``rtol`` (normwise relative) and ``atol`` (absolute floor), with the reason."""

    rtol: float
    atol: float = 0.0
    reason: str = ""

    def __post_init__(self) -> None:
        for name in ("rtol", "atol"):
            value = nb.check_number(name, getattr(self, name), nonnegative=True)
            object.__setattr__(self, name, nb.to_float(value, name))
        if not isinstance(self.reason, str):
            raise TypeError(f"reason must be a str, got {type(self.reason).__name__}")
        if self.rtol + self.atol == 0:
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


NOTHING_COMPARED = -math.inf
"""The start of a running worst error.  A check whose loops compared nothing (an empty
sweep) keeps it, and :meth:`~solvable._core.claims.Verdict.from_error` fails it: a zero
start would read as a perfect agreement."""


def _is_nan(x: Any) -> bool:
    return isinstance(x, (float, np.floating, mpmath.mpf)) and x != x


def beats(err: Any, worst: Any) -> bool:
    """Whether ``err`` replaces ``worst`` as the running worst error: it is larger, or it is
    NaN and ``worst`` is not (``err > worst`` is False for a NaN, which would drop a term
    that failed to compute; once NaN, the worst stays NaN)."""
    if _is_nan(worst):
        return False
    return _is_nan(err) or err > worst


def worst_item(errors: Mapping[Any, Any]) -> tuple[Any, Any]:
    """The ``(key, error)`` of the largest of ``errors`` (a mapping key -> error), a NaN
    first (as :func:`worst_of`); ``("nothing compared", NOTHING_COMPARED)`` for none."""
    name: Any = "nothing compared"
    worst: Any = NOTHING_COMPARED
    for key, err in errors.items():
        if beats(err, worst):
            name, worst = key, err
    return name, worst


def worst_of(*errors: Any) -> Any:
    """The largest of ``errors`` (errors in units of a tolerance, ratios to a bound), NaN if
    any is NaN.  Python's ``max`` drops a NaN that is not first (``max(0.5, nan)`` is 0.5),
    so a term that failed to compute would pass a check; a NaN here fails it
    (:meth:`~solvable._core.claims.Verdict.from_error` confirms only ``worst <= 1``)."""
    if any(_is_nan(e) for e in errors):
        return math.nan
    return max(errors)


def error_in_units(a: Any, b: Any, tol: Tolerance) -> float:
    """The normwise error of ``a`` against ``b`` in units of ``tol`` (pass: ``<= 1``);
    ``inf`` when the allowance ``atol + rtol max|b|`` is 0 and ``a != b``.  float64 inputs
    are compared in float64 (``|a - b|`` of two doubles is exact to rounding), others
    (``mpf``, mixed) at 60 digits."""
    fa, fb = np.asarray(a), np.asarray(b)
    if fa.dtype.kind in "fiu" and fb.dtype.kind in "fiu":
        if fa.shape != fb.shape and fa.size != fb.size:
            raise ValueError(f"shapes differ: {fa.shape} vs {fb.shape}")
        diff = float(np.max(np.abs(fa.ravel() - fb.ravel()), initial=0.0))
        if diff == 0:
            return 0.0
        allowance = tol.atol + tol.rtol * float(np.max(np.abs(fb), initial=0.0))
        return diff / allowance if allowance > 0 else math.inf
    with mpmath.workdps(60):
        diff, scale = _norm_diff(a, b)
        if diff == 0:
            return 0.0
        allowance = tol.atol + tol.rtol * scale
        return float(diff / allowance) if allowance > 0 else math.inf


# ---------------------------------------------------------------------------
# Monte Carlo: one confidence policy
# ---------------------------------------------------------------------------
MC_CONFIDENCE = 0.999
"""Simultaneous confidence of every Monte Carlo interval in the package: a correct formula
falls outside it with probability about 1e-3 per comparison (seeded runs are reproducible)."""


@dataclass(frozen=True)
class MonteCarlo:
    """A Monte Carlo mean with its simultaneous confidence interval.

    ``mean`` and ``stderr`` have the shape of one sample; ``half_width = z * stderr`` with
    ``z`` the two-sided normal quantile at ``1 - (1 - confidence) / entries`` (Bonferroni over
    the ``entries`` compared), so every entry is covered at once with probability
    ``>= confidence`` up to the normal approximation (``samples`` i.i.d. draws)."""

    mean: np.ndarray
    stderr: np.ndarray
    samples: int
    confidence: float
    z: float

    @property
    def half_width(self) -> np.ndarray:
        return self.z * self.stderr

    @property
    def low(self) -> np.ndarray:
        return self.mean - self.half_width

    @property
    def high(self) -> np.ndarray:
        return self.mean + self.half_width

    def error_in_units(self, exact: Any) -> float:
        """``max |mean - exact| / half_width`` over the entries (pass: ``<= 1``); ``inf`` if
        an entry with zero spread differs, 0 where both the spread and the error vanish."""
        diff = np.abs(self.mean - np.asarray(exact, dtype=float))
        hw = np.broadcast_to(self.half_width, diff.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            units = np.where(
                hw > 0, diff / np.where(hw > 0, hw, 1.0), np.where(diff > 0, np.inf, 0.0)
            )
        return float(np.max(units)) if units.size else 0.0

    def covers(self, exact: Any) -> bool:
        """Whether every entry of ``exact`` lies in its interval."""
        return self.error_in_units(exact) <= 1.0

    def summary(self) -> str:
        """``mean +- half_width`` for scalars, the largest half-width for arrays."""
        if np.ndim(self.mean) == 0:
            return (f"{float(self.mean):.6g} +- {float(self.half_width):.2g} "
                    f"({self.confidence:.1%} CI, {self.samples} samples)")  # fmt: skip
        worst = float(np.max(self.half_width))
        return (f"max half-width {worst:.2g} over {np.size(self.mean)} entries "
                f"({self.confidence:.1%} simultaneous CI, {self.samples} samples)")  # fmt: skip


def monte_carlo(samples: Any, *, confidence: float = MC_CONFIDENCE, axis: int = 0) -> MonteCarlo:
    """The mean of i.i.d. ``samples`` (draws along ``axis``) with a simultaneous normal
    confidence interval (see :class:`MonteCarlo`).  Needs at least 2 draws."""
    confidence = nb.to_float(nb.check_number("confidence", confidence), "confidence")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    arr = nb.check_float_array("samples", samples)
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"axis must be an int, got {type(axis).__name__} {nb.describe(axis)}")
    if arr.ndim == 0 or not -arr.ndim <= axis < arr.ndim:
        raise ValueError(f"axis must be in [-{arr.ndim}, {arr.ndim}) for samples of shape "
                         f"{arr.shape}, got {axis}")  # fmt: skip
    arr = np.moveaxis(arr, int(axis), 0)
    n = arr.shape[0]
    if n < 2:
        raise ValueError(f"samples must hold at least 2 draws along axis {axis}, got {n}")

    entries = max(int(np.prod(arr.shape[1:])), 1)
    # the normal quantile: the standard library's (Wichura's AS241, within 6 units of the
    # last place of scipy's norm.ppf on [0.5, 1 - 1e-15]); scipy.stats / scipy.special took
    # 0.5 s / 0.15 s to import with the package (issue 30: import solvable under 0.5 s)
    z = _NORMAL.inv_cdf(1 - (1 - confidence) / (2 * entries))
    # far from 1, scaled by a power of two (exact) near the largest |sample|, so that the
    # squares in the standard error neither overflow (1e300) nor underflow (1e-300)
    top = float(np.max(np.abs(arr)))
    scale = 2.0 ** math.frexp(top)[1] if top and not 2.0**-500 < top < 2.0**500 else 1.0
    mean = (arr / scale).mean(0) * scale
    stderr = (arr / scale).std(0, ddof=1) / np.sqrt(n) * scale
    if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(stderr))):
        raise ValueError("samples' mean or standard error is beyond the float64 range: rescale")
    return MonteCarlo(mean, stderr, n, confidence, z)
