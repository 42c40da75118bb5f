"""The kernel oracle of :mod:`solvable.verification.testing` (seed 002, the NTK and lazy
regime lecture notes): a user's Gram matrix, or its Monte Carlo estimates, against the exact
kernel of an initialisation (:func:`kernel`, :class:`KernelOracle`, :class:`KernelReport`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.papers import cite
from solvable._core.tolerance import MC_CONFIDENCE, Tolerance, error_in_units, monte_carlo
from solvable.models import kernels
from solvable.models.kernels import numeric_checks as kernel_checks
from solvable.verification.oracle_inputs import (
    _as_array,
    _check_atol,
    _check_finite,
    _check_rtol,
    _real,
)


# ---------------------------------------------------------------------------
# kernels (seed 002)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class KernelReport:
    """A Gram matrix (or a Monte Carlo estimate of one) against the closed form: the error
    in units of the tolerance, the worst entry ``(i, j)``, both values there."""

    kernel: str
    units: float
    worst: tuple[int, int]
    exact: float
    got: float
    tolerance: str

    @property
    def passed(self) -> bool:
        return self.units <= 1

    def __str__(self) -> str:
        state = "matches" if self.passed else "does not match"
        i, j = self.worst
        return (
            f"kernel {self.kernel!r} ({cite('002')}, {_KERNEL_EQ[self.kernel]}): the Gram matrix "
            f"{state} the closed form: {self.units:.3g} tolerances at entry ({i}, {j}): "
            f"exact {self.exact:.10g}, got {self.got:.10g}; tolerance: {self.tolerance}"
        )


_KERNEL_EQ = {"nngp": "eq. (2.4)", "rf": "eq. (2.31)", "ntk_first_layer": "eq. (2.31)",
              "ntk": "eq. (2.30)"}  # fmt: skip
_KERNEL_MEANING = {
    "nngp": "K_GP = E[a^2] K_RF, the output covariance at initialisation (the NNGP kernel)",
    "rf": "K_RF, the random-features kernel, the second layer's part of the NTK",
    "ntk_first_layer": "the lecture's K_NTK, the first layer's part of the NTK only",
    "ntk": "K_0 = K_RF + K_NTK, the NTK of both layers (what neural-tangents calls the NTK)",
}


class KernelOracle:
    """The infinite-width kernel ``name`` of seed 002 (:func:`solvable.models.kernels.gram`) on the
    rows of ``X`` (n, d) and ``Y`` (m, d) (default ``X``) as the oracle of a user's kernel
    code: :meth:`check` for an analytic Gram matrix, :meth:`check_samples` for empirical
    (finite-width) kernels of random initialisations."""

    def __init__(self, name: str, init: kernels.Initialisation, X: Any, Y: Any = None) -> None:
        self.name = name
        self.exact = kernels.gram(name, init, X, Y)
        self.init = init
        self._points = (X, Y)

    def _other_kernel_matched(self, report: KernelReport, check: Any) -> str:
        """The message of a failed ``report``, with a hint where the user's matrix is another
        of the four kernels (``check(oracle)`` its report against it): the lecture calls
        the first layer's part alone ``K_NTK`` (2.31), the package ``"ntk_first_layer"``;
        ``"ntk"`` is the NTK of both layers, ``K_0`` (2.30), as in neural-tangents, so a
        user who passes the lecture's ``K_NTK`` as ``"ntk"`` is told it is
        ``"ntk_first_layer"``."""
        for other in _KERNEL_EQ:
            if other != self.name and check(KernelOracle(other, self.init, *self._points)).passed:
                return (f"{report}\nhint: it matches kernel {other!r} ({_KERNEL_EQ[other]}, "
                        f"{_KERNEL_MEANING[other]}) instead: {self.name!r} is "
                        f"{_KERNEL_MEANING[self.name]}")  # fmt: skip
        return str(report)

    def _got(self, name: str, value: Any, lead: bool = False) -> np.ndarray:
        arr = _as_array(name, value)
        want = ("S", *self.exact.shape) if lead else self.exact.shape
        ok = arr.shape[1:] == self.exact.shape and arr.ndim == 3 if lead else (
            arr.shape == self.exact.shape)  # fmt: skip
        if not ok:
            raise ValueError(f"{name} must have shape {want}, got {arr.shape}; it is never "
                             f"reshaped")  # fmt: skip
        _check_finite(name, arr)
        return arr

    def compare(self, K: Any, *, rtol: Any = 1e-10, atol: Any = 0.0) -> KernelReport:
        """An analytic Gram matrix ``K`` (n, m) against the closed form, normwise: ``max|K -
        exact| <= atol + rtol max|exact|``.  Default ``rtol = 1e-10``: the package's float64
        kernels are confirmed to 1e-13 (claim ``kernels.evaluators_agree``), a user's
        float64 evaluation of the same angle forms to a few hundred ulps."""
        rtol, atol = _check_rtol(rtol), _check_atol(atol)
        got = self._got("K", K)
        tol = Tolerance(rtol=rtol, atol=atol)
        units = error_in_units(got, self.exact, tol)
        i, j = np.unravel_index(int(np.argmax(np.abs(got - self.exact))), got.shape)
        return KernelReport(self.name, units, (int(i), int(j)), float(self.exact[i, j]),
                            float(got[i, j]), f"rtol = {rtol:.3g}, atol = {atol:.3g}")  # fmt: skip

    def check(self, K: Any, *, rtol: Any = 1e-10, atol: Any = 0.0) -> KernelReport:
        """:meth:`compare`, raising ``AssertionError`` (with the worst entry) on a mismatch."""
        __tracebackhide__ = True
        report = self.compare(K, rtol=rtol, atol=atol)
        if not report.passed:
            raise AssertionError(self._other_kernel_matched(
                report, lambda o: o.compare(K, rtol=rtol, atol=atol)))  # fmt: skip
        return report

    def compare_samples(self, samples: Any, *, confidence: Any = MC_CONFIDENCE) -> KernelReport:
        """Empirical kernels ``samples`` (S, n, m), one per independent random initialisation
        (any width ``p``: the width-``p`` kernel of the network (2.3) is an average of ``p``
        i.i.d. unit terms, so its expectation is the closed form exactly), against the closed
        form: the Monte Carlo mean must lie in the simultaneous ``confidence`` interval of
        :func:`solvable._core.tolerance.monte_carlo` (Bonferroni over the entries; a correct
        kernel fails with probability about ``1 - confidence``).  The half-width is at least
        ``kernels``' float64 tolerance (1e-13 relative to ``max|exact|``): entries whose
        samples are all equal (e.g. ``relu(u) relu(-u) = 0`` for antipodal inputs, or the
        same exact matrix passed S times) are compared at that accuracy."""
        conf = _real("confidence", confidence)
        if not 0 < conf < 1:
            raise ValueError(f"confidence must be in (0, 1), got {nb.describe(confidence)}")
        arr = self._got("samples", samples, lead=True)
        if arr.shape[0] < 2:
            raise ValueError(f"samples must hold at least 2 kernels (S >= 2), got {arr.shape[0]}")
        est = monte_carlo(arr, confidence=conf)
        hw = np.broadcast_to(est.half_width, self.exact.shape)
        diff = np.abs(est.mean - self.exact)
        # the interval is never narrower than the kernels' float64 accuracy: entries whose
        # samples are (nearly) all equal have a half-width of 0 or of a few ulps from
        # rounding the mean and variance (a false failure at 5 "tolerances" before)
        floor = kernel_checks._F64_TOL.rtol * (float(np.max(np.abs(self.exact))) or 1.0)
        allow = np.maximum(hw, floor)
        units = diff / allow
        i, j = np.unravel_index(int(np.argmax(units)), units.shape)
        tol = (f"{est.confidence:.1%} simultaneous normal CI of the mean of {est.samples} "
               f"samples (half-width {float(allow[i, j]):.3g} at the worst entry, at least "
               f"{kernel_checks._F64_TOL.rtol:.0e} max|exact|)")  # fmt: skip
        return KernelReport(self.name, float(units[i, j]), (int(i), int(j)),
                            float(self.exact[i, j]), float(est.mean[i, j]), tol)  # fmt: skip

    def check_samples(self, samples: Any, *, confidence: Any = MC_CONFIDENCE) -> KernelReport:
        """:meth:`compare_samples`, raising ``AssertionError`` on a mismatch."""
        __tracebackhide__ = True
        report = self.compare_samples(samples, confidence=confidence)
        if not report.passed:
            raise AssertionError(self._other_kernel_matched(
                report, lambda o: o.compare_samples(samples, confidence=confidence)))  # fmt: skip
        return report


def kernel(name: str, init: kernels.Initialisation, X: Any, Y: Any = None) -> KernelOracle:
    """Oracle of seed 002's infinite-width kernel ``name`` (``"nngp"``, ``"rf"``,
    ``"ntk_first_layer"``, ``"ntk"``: :data:`solvable.models.kernels.KERNELS`; the old
    ``"gp"`` and ``"k0"`` are a ``ValueError`` saying what they became) for the
    initialisation ``init`` on the rows of ``X`` (and ``Y``)."""
    return KernelOracle(name, init, X, Y)
