"""The verdict of seed 001 Section 3.2 (Figure 4, corrected) on the digits stand-in of
:func:`numerics.initialisation_scale.section_3_2_digits`.

Prediction.  After training to a fixed time, the first layer has moved by ``|W_T - W_0| ~
eta_w gamma sigma_u`` (its gradient is ``gamma u_j x r``; ``t_c = Theta(1)`` by eq. (28)),
so ``|W_T - W_0| ~ kappa^(c_eta_w + c_gamma + c_u/2)``, while ``|W_0| ~ kappa^(c_w/2)`` at
fixed width: ``RD(W) ~ kappa^e`` with ``e = c_eta_w + c_gamma + c_u/2 - c_w/2``
(:func:`rd_exponent`, from the model's :func:`solvable.models.phases.section_3_2_scaling`).
With Section 3.2's ``c_u = max{0, c_w}``, ``c_gamma = min{-c_w/2, 0}`` and a fixed rate,
``e = -c_w/2``: the weights freeze relative to their scale (kernel) iff ``c_w > 0``, as the
corrected Section 3.2 says for a zero initial output.

Judged (:func:`slope_figure`): for every ``c_w``, the least-squares slope of ``log RD(W)``
against ``log kappa`` of each repeat, averaged over the repeats, is within ``0.1 + 2 SE``
of ``e``.  Why 0.1: the prediction is the leading order; at the fast defaults the slopes
are within 0.02 of it (measured); 0.1 is a fifth of the distance of ``e = -+1/2`` from 0,
so the two phases cannot be mistaken for each other.  The figure is the largest
``|slope - e| / (0.1 + 2 SE)``: at most 1 passes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.tolerance import Tolerance
from solvable.models import phases

__all__ = ["SLACK", "rd_exponent", "section_3_2_verdict", "slope_figure"]

SLACK = 0.1
"""The allowance on each fitted exponent beyond two standard errors (module docstring)."""

_TOL = Tolerance(
    rtol=1.0,
    reason=f"|mean slope - predicted exponent| <= {SLACK} + 2 SE over "
    "the repeats, for every c_w (figure = the largest ratio; <= 1 passes)",
)


def rd_exponent(c_w: Any) -> float:
    """``e = c_eta_w + c_gamma + c_u/2 - c_w/2`` of Section 3.2's scaling at ``c_w``
    (module docstring), from :func:`solvable.models.phases.section_3_2_scaling`."""
    s = phases.section_3_2_scaling(c_w)
    return float(s.c_eta_w + s.c_gamma + s.c_u / 2 - s.c_w / 2)


def _check(result: Any) -> list[dict[str, Any]]:
    want = "result must be the dict numerics.initialisation_scale.section_3_2_digits returns"
    if not isinstance(result, dict) or not all(k in result for k in ("c_ws", "kappas", "runs")):
        raise TypeError(f"{want}, got {nb.describe(result)}")
    runs = result["runs"]
    keys = {"c_w", "kappa", "rd_w"}
    if not isinstance(runs, list) or not all(isinstance(r, dict) and keys <= r.keys()
                                             for r in runs):  # fmt: skip
        raise TypeError(f"{want}: result['runs'] must be dicts with c_w, kappa and rd_w")
    return runs


def slope_figure(result: Any) -> tuple[float, list[str]]:
    """``(figure, lines)``: the largest ``|mean slope - e| / (SLACK + 2 SE)`` over the
    ``c_w`` of ``result`` and one line per ``c_w``.  ``ValueError`` for fewer than two
    kappas or two repeats per ``c_w``, or a non-positive ``RD``."""
    runs = _check(result)
    figure, lines = 0.0, []
    for c_w in result["c_ws"]:
        mine = sorted((r for r in runs if r["c_w"] == c_w), key=lambda r: r["kappa"])
        if len(mine) < 2:
            raise ValueError(f"c_w = {c_w}: the slope needs at least two kappas")
        rd = np.array([r["rd_w"] for r in mine], dtype=float)  # (kappas, repeats)
        if rd.shape[1] < 2:
            raise ValueError("the slope's standard error needs at least two repeats")
        if not np.all(rd > 0):
            raise ValueError(f"c_w = {c_w}: RD(W) must be positive to take its log")
        x = np.log([r["kappa"] for r in mine])
        slopes = np.polyfit(x, np.log(rd), 1)[0]  # one slope per repeat
        mean, se = float(slopes.mean()), float(slopes.std(ddof=1) / math.sqrt(len(slopes)))
        e = rd_exponent(c_w)
        figure = max(figure, abs(mean - e) / (SLACK + 2 * se))
        lines.append(f"c_w = {c_w:g}: slope of RD(W) {mean:+.3f} +- {se:.3f} (predicted "
                     f"{e:+.3f}, {'kernel' if e < 0 else 'feature learning'})")  # fmt: skip
    return figure, lines


def section_3_2_verdict(result: Any) -> Verdict:
    """``confirmed`` if :func:`slope_figure` is at most 1, else ``failed``; the detail adds
    the test accuracies at the largest ``kappa`` (reported, not judged)."""
    figure, lines = slope_figure(result)
    top = max(r["kappa"] for r in result["runs"])
    at_top = [r for r in result["runs"] if r["kappa"] == top and "test_accuracy" in r]
    acc = ", ".join(f"c_w = {r['c_w']:g}: {np.mean(r['test_accuracy']):.3f}" for r in at_top)
    detail = "; ".join(lines) + (f"; test accuracy at kappa = {top:g} (not judged): {acc}"
                                 if acc else "")  # fmt: skip
    return Verdict("confirmed" if figure <= 1 else "failed", detail,
                   max_error=min(figure, 1e300), tolerance=_TOL)  # fmt: skip
