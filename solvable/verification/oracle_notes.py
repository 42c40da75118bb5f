"""What a passing comparison of :class:`~solvable.verification.testing.TrajectoryOracle`
could not tell apart, as notes (warnings,
:class:`~solvable.verification.reports.OracleWarning`): times that look like step
indices, only ``t = 0``, only the converged tail, and a gradient-descent trajectory whose
``O(lr)`` error is not plain gradient descent's.
:class:`OracleNotes` is a base class of the oracle (it uses its ``blocks`` and ``exact``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from solvable._core.tolerance import NOTHING_COMPARED, beats
from solvable.verification.gradient_descent import E1_FLOOR
from solvable.verification.reports import _blockmax, _units


class OracleNotes:
    """The notes of :meth:`TrajectoryOracle.compare
    <solvable.verification.testing.TrajectoryOracle.compare>`."""

    def _notes(self, ts: np.ndarray, got: Mapping[str, np.ndarray],
               ref: Mapping[str, np.ndarray], allowed: Mapping[str, np.ndarray],
               dps: int | None, lr: float | None) -> tuple[str, ...]:  # fmt: skip
        """What the comparison cannot tell apart (see :class:`OracleWarning`), and a hint
        when the times look like step indices."""
        notes: list[str] = []
        n = len(ts)
        late = ts > 0
        whole = bool(np.all(ts == np.round(ts))) and n >= 2 and (lr is None or lr != 1)
        if whole and any(np.any(_units(_blockmax(got[b] - ref[b], n), allowed[b]) > 1)
                         for b in self.blocks):  # fmt: skip
            notes.append("every time is a whole number: if times[k] is the step index k of "
                         "gradient descent, pass times = k * lr (flow time) and lr=")  # fmt: skip
        if not late.any():
            notes.append("every time is t = 0: only the initial condition is checked, not "
                         "the training; include times t > 0")  # fmt: skip
            return tuple(notes)
        try:
            ends = self.exact([0.0, math.inf], dps=dps)
        except (ArithmeticError, ValueError):  # no finite limit: no converged tail either
            return tuple(notes)
        # the trajectory that jumps from the start straight to the limit t -> inf
        jump_passes = all(
            np.all(_units(_blockmax(ends[b][1] - ref[b][late], int(late.sum())),
                          allowed[b][late]) <= 1) for b in self.blocks)  # fmt: skip
        # ... and the one that never moves: if it passes too, the exact solution is at rest
        # and the check is a real one (any motion fails)
        rest_passes = all(
            np.all(_units(_blockmax(ends[b][0] - ref[b], n), allowed[b]) <= 1)
            for b in self.blocks)  # fmt: skip
        if jump_passes and not rest_passes:
            t0 = float(np.min(ts[late]))
            notes.append(
                f"every time t > 0 given (the first: {t0:.6g}) is in the converged tail: "
                f"there the exact solution is within the tolerance of its limit t -> inf, so a "
                f"trainer that jumps straight to the right limit passes too; include times "
                f"before t = {t0:.6g}, where the weights still move"
            )
        return tuple(notes)

    def _update_rule_note(self, ts: np.ndarray, got: Mapping[str, np.ndarray],
                          ref: Mapping[str, np.ndarray], base: Mapping[str, np.ndarray],
                          extra: Mapping[str, np.ndarray], first: Mapping[str, np.ndarray],
                          step: float) -> tuple[str, ...]:  # fmt: skip
        """Gradient descent's error is ``lr e(t) + O(lr^2)``: the residual ``got - exact -
        lr e(t)`` measured against ``atol + rtol max|exact| + GD_SAFETY lr max|e| max(lr
        max||J||, E1_FLOOR)`` (the second-order term is ``lr max||J||`` times the first
        order or less: measured at most 0.6 of this allowance on xu_ziyin's and kunin's
        regular cases at lr = 1e-4 ... 1e-2).  A trainer with another update rule (layers
        in sequence, momentum, an implicit step) has an ``O(lr)`` residual: 14 to 3e4
        allowances for layers updated in sequence on the same cases.  A warning, not a
        failure: near a saddle plain gradient descent's higher-order terms reach it too."""
        n = len(ts)
        worst, where = NOTHING_COMPARED, ("", 0)
        for b in self.blocks:
            resid = _blockmax(got[b] - ref[b] - first[b], n)
            units = _units(resid, base[b] + extra[b] * max(step, E1_FLOOR))
            k = int(np.argmax(units))
            if beats(units[k], worst):
                worst, where = float(units[k]), (b, k)
        if worst <= 1:
            return ()
        b, k = where
        return (
            f"the O(lr) error is not plain gradient descent's: |got - exact - lr e(t)| of "
            f"block {b} at t = {ts[k]:.6g} is {worst:.3g} times the second-order allowance "
            f"(e the first-order error term of gradient_descent, see gd_allowance); a trainer "
            f"that updates the layers one after the other, uses momentum or an implicit step "
            f"looks like this (near a saddle, plain gradient descent's higher-order terms can "
            f"be as large)",
        )
