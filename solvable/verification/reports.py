"""What the trajectory oracles of :mod:`solvable.verification.testing` report: a
:class:`Report` (every block's error in units of its allowance, the first failing time, the
exact and measured output and loss) and :class:`OracleWarning` (a pass that could not tell
some wrong trajectories apart); errors in units of an allowance (:func:`_units`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from solvable._core.tolerance import worst_item, worst_of
from solvable.verification.gradient_descent import GD_SAFETY


class OracleWarning(UserWarning):
    """A trajectory passed, but the check could not tell it from some wrong ones: the times
    cover only the converged tail, or only ``t = 0``; or a gradient-descent trajectory's
    ``O(lr)`` error is not plain gradient descent's (the message says which and why).
    ``pytest -W error::solvable.verification.testing.OracleWarning`` turns these into failures."""


# ---------------------------------------------------------------------------
# reports
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Report:
    """The comparison of a trajectory with the exact solution.

    ``errors[b][k]``: block ``b``'s error at ``times[k]`` in units of its allowance
    ``allowed[b][k]`` (pass: ``<= 1``); ``first_failure``: the index of the first failing
    time (``None`` when all pass); ``exact_f``, ``got_f``, ``exact_loss``, ``got_loss``: the
    network output(s) on the data and the loss, exact and measured from the given weights,
    at every time."""

    model: str
    source: str
    times: np.ndarray
    errors: Mapping[str, np.ndarray]
    diffs: Mapping[str, np.ndarray]
    allowed: Mapping[str, np.ndarray]
    exact_f: np.ndarray
    got_f: np.ndarray
    exact_loss: np.ndarray
    got_loss: np.ndarray
    rtol: float
    atol: float
    lr: float | None
    notes: tuple[str, ...] = ()

    @property
    def first_failure(self) -> int | None:
        bad = np.zeros(len(self.times), dtype=bool)
        for err in self.errors.values():
            bad |= ~(err <= 1)  # a NaN error fails
        return int(np.argmax(bad)) if bad.any() else None

    @property
    def passed(self) -> bool:
        return self.first_failure is None

    @property
    def worst(self) -> float:
        """The largest error, in units of the allowance."""
        return float(worst_of(*(float(np.max(e)) for e in self.errors.values())))

    def __str__(self) -> str:
        k = self.first_failure
        n_bad = int(sum(np.any([not e[j] <= 1 for e in self.errors.values()])
                        for j in range(len(self.times))))  # fmt: skip
        worst_b, _ = worst_item({b: float(np.max(e)) for b, e in self.errors.items()})
        j = int(np.argmax(self.errors[worst_b]))
        if k is None:
            head = (f"{self.model} ({self.source}): matches the exact solution at all "
                    f"{len(self.times)} times (worst: {worst_b}, {self.worst:.3g} tolerances "
                    f"at t = {self.times[j]:.6g})")  # fmt: skip
            k = j
        else:
            head = (f"{self.model} ({self.source}): the trajectory leaves the exact solution "
                    f"at times[{k}] = {self.times[k]:.6g}, the first of {n_bad} failing "
                    f"times of {len(self.times)} (worst: {worst_b}, {self.worst:.3g} "
                    f"tolerances at t = {self.times[j]:.6g})")  # fmt: skip
        gd = ("" if self.lr is None else
              f" + {GD_SAFETY:g} lr max|e| (gradient descent, lr = {self.lr:.6g})")  # fmt: skip
        lines = [head, f"  tolerance per block: atol + rtol max|exact| (rtol = {self.rtol:.3g}, "
                 f"atol = {self.atol:.3g}){gd}", f"  at t = {self.times[k]:.6g}:"]  # fmt: skip
        for b in self.errors:
            err, diff, allow = self.errors[b][k], self.diffs[b][k], self.allowed[b][k]
            lines.append(f"    {b:>6}: {err:10.3g} tolerances  (max|got - exact| = {diff:.3g}, "
                         f"allowed {allow:.3g})")  # fmt: skip
        lines.append(f"    {'f':>6}: exact {_fmt(self.exact_f[k])}, got {_fmt(self.got_f[k])}")
        lines.append(f"    {'loss':>6}: exact {_fmt(self.exact_loss[k])}, got "
                     f"{_fmt(self.got_loss[k])}")  # fmt: skip
        if self.first_failure is not None and self.lr is None:
            lines.append(
                "  (a gradient-descent trajectory has an O(lr) discretisation error: "
                "pass lr=<step in flow time>, times[k] = k * lr, to allow for it)"
            )
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _blockmax(values: np.ndarray, n: int) -> np.ndarray:
    """``max|values|`` over each of the ``n`` times (0 for an empty block)."""
    return np.abs(values).reshape(n, -1).max(axis=1, initial=0.0)


def _units(diff: np.ndarray, allow: np.ndarray) -> np.ndarray:
    """``diff / allow`` elementwise, ``0`` where ``diff == 0`` and ``inf`` where only the
    allowance is 0 (an exact block identically zero with ``atol = 0`` admits no error), or
    where the allowance is not a number >= 0 (it fails closed: no caller makes one)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        units = np.where(diff == 0, 0.0, diff / np.where(allow > 0, allow, 1.0))
    return np.where(~(allow > 0) & (diff != 0), np.inf, units)


def _fmt(value: Any) -> str:
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return f"{float(arr):.10g}"
    return np.array2string(arr, precision=8, max_line_width=200, threshold=12)
