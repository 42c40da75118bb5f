"""The verdict of seed 001 Section 2.3 (Figure 2) on the synthetic teacher of
:func:`numerics.teacher_task.figure_2_teacher`: a larger multiplier ``sigma`` of the
Kaiming initialisation gives a larger final norm of all weights (Figure 2 right) and a
worse test performance (Figure 2 left, as test risk).

Judged (:func:`ordering_figure`): for each of the two measures (the final norm
``sqrt(|W|_F^2 + |u|^2)`` and the test risk) and each pair of consecutive ``sigma``, the
mean over the initialisations increases with ``sigma`` by at least two standard errors of
the difference (``sqrt(SE_1^2 + SE_2^2)``).  The error of a pair is ``2 SE / gap`` (at most
1 iff the gap is at least two standard errors; a tie or a decrease fails, and NaN fails);
the figure is the largest.  Why two standard errors: the claim is an ordering of means
over random initialisations, so it is asserted only where the measurement resolves it.
The final training risk is reported, not judged (the paper's premise "all models achieve a
100% training accuracy" is not reached in the same time here: see the detail).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, worst_of

__all__ = ["MEASURES", "figure_2_teacher_verdict", "ordering_figure"]

MEASURES = ("norm_end", "test_risk")
"""The measures that must increase with ``sigma``: the final norm and the test risk."""

_TOL = Tolerance(
    rtol=1.0,
    reason="each consecutive pair of sigma: the mean final norm and the mean test risk grow "
    "by at least 2 standard errors of the difference (error 2 SE / gap; <= 1 passes)",
)


def _runs(result: Any) -> list[dict[str, Any]]:
    want = "result must be the dict numerics.teacher_task.figure_2_teacher returns"
    if not isinstance(result, dict) or "runs" not in result:
        raise TypeError(f"{want}, got {nb.describe(result)}")
    runs = result["runs"]
    keys = {"sigma", *MEASURES}
    if not isinstance(runs, list) or not all(isinstance(r, dict) and keys <= r.keys()
                                             for r in runs):  # fmt: skip
        raise TypeError(f"{want}: result['runs'] must be dicts with {sorted(keys)}")
    return runs


def _mean_se(values: Any) -> tuple[float, float]:
    v = np.asarray(values, dtype=float)
    if v.size < 2:  # no standard error from one initialisation
        return math.nan, math.nan
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size))


def ordering_figure(result: Any) -> tuple[float, list[str]]:
    """``(figure, lines)``: the largest ``2 SE / gap`` over the measures of
    :data:`MEASURES` and the consecutive pairs of ``sigma`` (module docstring); NaN for a
    NaN, a single initialisation or a repeated ``sigma``;
    :data:`~solvable._core.tolerance.NOTHING_COMPARED` for fewer than two ``sigma``."""
    runs = sorted(_runs(result), key=lambda r: r["sigma"])
    worst, lines = NOTHING_COMPARED, []
    for key in MEASURES:
        for lo, hi in itertools.pairwise(runs):
            (m1, s1), (m2, s2) = _mean_se(lo[key]), _mean_se(hi[key])
            gap, se = m2 - m1, math.hypot(s1, s2)
            if lo["sigma"] == hi["sigma"] or not (math.isfinite(gap) and math.isfinite(se)):
                err = math.nan
            else:  # a tie or a decrease: no margin at all (1e300 keeps the number finite)
                err = 2 * se / gap if gap > 0 else 1e300
            worst = worst_of(worst, err)
            lines.append(f"{key} sigma {lo['sigma']:g} -> {hi['sigma']:g}: {m1:.4g} -> "
                         f"{m2:.4g} (2 SE {2 * se:.2g})")  # fmt: skip
    return worst, lines


def figure_2_teacher_verdict(result: Any) -> Verdict:
    """``confirmed`` if :func:`ordering_figure` is at most 1, else ``failed``; the detail
    adds each ``sigma``'s final training risk relative to its start (reported, not
    judged)."""
    figure, lines = ordering_figure(result)
    fit = [f"sigma {r['sigma']:g}: {np.mean(r['risk_end']) / np.mean(r['risk_0']):.3f}"
           for r in sorted(result["runs"], key=lambda r: r["sigma"])
           if len(r.get("risk_end", ())) and len(r.get("risk_0", ()))
           and np.mean(r["risk_0"]) > 0]  # fmt: skip
    detail = "; ".join(lines) + (f"; final / initial training risk (not judged): "
                                 f"{', '.join(fit)}" if fit else "")  # fmt: skip
    return Verdict.from_error(figure, detail, _TOL)
