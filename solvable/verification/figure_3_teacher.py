"""The verdict of seed 001 Section 3.1 (Figure 3) on the synthetic teacher of
:func:`numerics.teacher_task.figure_3_teacher`: each Appendix B.3 model's phase read off
the fitted exponent of ``RD(W)`` over ``kappa = d``, and Figure 3 left's ordering of the
test performance (feature-phase version better than kernel-phase version).

Prediction.  In ``T`` steps the first layer moves by ``|W_T - W_0|_F ~ T eta_w |gamma|
|u| |x| |r|`` (its gradient is ``gamma u_j relu'(w_j^T x) x r``) with ``|u| ~ sigma_u
sqrt(d)`` and residual ``|r| ~ max(1, |f_0|)``, while ``|W_0|_F ~ sigma_w sqrt(d d0)``; at
``t_c = Theta(1)`` (Table 1's rates, eq. (27)) and ``d = kappa``: ``RD(W) ~ kappa^e``,
``e = c_eta_w + c_gamma + (c_u - c_w)/2 + max(f0, 0)`` with ``f0`` the initial-output
exponent (:attr:`solvable.models.phases.Scaling.output_exponent`); :func:`rd_exponent`.
For the six models this is ``-1/2`` in each kernel cell (NTK, Kaiming-, Xavier-) and
``0`` (mean field, Xavier+) or ``+1/2`` (Kaiming+) in each feature-learning cell: the
first layer freezes relative to its scale exactly in the kernel phase (Theorem 2).  The
predicted ``e`` is reported, not judged (it is a leading-order estimate; the judged
statement is the phase).

Judged.  (1) :func:`phase_figure`: per model, the least-squares slope of ``log RD(W)``
against ``log kappa`` of each initialisation, averaged (mean ``s``, standard error
``SE``); a kernel cell (Theorem 2's phase of its Table 1 cell) needs ``s + 2 SE <=
-SLACK``, a feature-learning cell ``s - 2 SE >= -SLACK``.  Why ``SLACK = 1/4``: it is the
midpoint between the kernel cells' ``-1/2`` and the feature cells' smallest ``0``, so each
fitted exponent must lie, beyond two standard errors, on its phase's side of the midpoint
(measured at the default size: kernel slopes -0.48 to -0.43, feature slopes -0.03 to
+0.53, SE <= 0.03).  (2) :func:`generalisation_figure`: for each pair of Appendix B.3
(:data:`solvable.models.phases.appendix_b3.PAIRS`) and every ``kappa``, the feature-phase
member's mean test risk is at most ``GAP = 1/2`` of the kernel-phase member's.  Why 1/2:
Figure 3 left reports the feature versions 5-10 points of accuracy better; on the teacher
the measured ratio is at most 0.23 (default size), and 1/2 asks for a clear gain, never a
tie within the spread of the repeats (a tie or a reversal fails).  The figure is the
worst of both in units of the tolerance (<= 1 passes).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from numerics.teacher_task import model_scaling
from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, worst_of
from solvable.models.phases import appendix_b3

__all__ = ["GAP", "SLACK", "figure_3_teacher_verdict", "generalisation_figure",
           "phase_figure", "rd_exponent"]  # fmt: skip

SLACK = 0.25
"""How far below 0 (beyond 2 SE) a kernel cell's exponent of RD(W) must be, and how far
above ``-SLACK`` a feature cell's must stay (module docstring)."""
GAP = 0.5
"""The largest ratio of a feature-phase model's test risk to its kernel-phase partner's."""

_TOL = Tolerance(
    rtol=1.0,
    reason=f"phase: kernel slope + 2 SE <= -{SLACK}, feature slope - 2 SE >= -{SLACK} (in "
    f"units of {SLACK}); test risk of the feature model <= {GAP} x its kernel partner's "
    "(figure = the worst; <= 1 passes)",
)


def rd_exponent(model: str) -> float:
    """``e = c_eta_w + c_gamma + (c_u - c_w)/2 + max(f0, 0)`` of an Appendix B.3 model's
    Table 1 cell (module docstring), from :func:`numerics.teacher_task.model_scaling`."""
    s = model_scaling(model)
    f0 = s.output_exponent
    return float(s.c_eta_w + s.c_gamma + (s.c_u - s.c_w) / 2 + (f0 if f0 > 0 else 0))


def _runs(result: Any, keys: set[str]) -> list[dict[str, Any]]:
    want = "result must be the dict numerics.teacher_task.figure_3_teacher returns"
    if not isinstance(result, dict) or not all(k in result for k in ("models", "runs")):
        raise TypeError(f"{want}, got {nb.describe(result)}")
    models = result["models"]
    if isinstance(models, (str, bytes)) or not isinstance(models, (list, tuple)) or \
            not all(isinstance(m, str) and m in appendix_b3.CELLS for m in models):  # fmt: skip
        raise TypeError(f"{want}: result['models'] must list models of {list(appendix_b3.CELLS)}")
    runs = result["runs"]
    if not isinstance(runs, list) or not all(isinstance(r, dict) and keys <= r.keys()
                                             for r in runs):  # fmt: skip
        raise TypeError(f"{want}: result['runs'] must be dicts with {sorted(keys)}")
    return runs


def _slopes(mine: list[dict[str, Any]]) -> np.ndarray:
    """The least-squares slope of ``log RD`` on ``log kappa`` per repeat; NaN where an RD
    is not positive and finite."""
    rd = np.array([r["rd_w"] for r in mine], dtype=float)  # (kappas, repeats)
    rd = np.where(np.isfinite(rd) & (rd > 0), rd, np.nan)
    x = np.log(np.array([r["kappa"] for r in mine], dtype=float))
    x = x - x.mean()
    return (x @ np.log(rd)) / (x @ x)


def phase_figure(result: Any) -> tuple[float, list[str]]:
    """``(figure, lines)``: the worst phase error over the models of ``result`` (module
    docstring; a model without two kappas and two repeats, or with a non-positive or
    non-finite RD, is NaN: it fails) and one line per model;
    :data:`~solvable._core.tolerance.NOTHING_COMPARED` for no model."""
    runs = _runs(result, {"model", "kappa", "rd_w"})
    worst, lines = NOTHING_COMPARED, []
    for name in result["models"]:
        phase = model_scaling(name).phase
        mine = sorted((r for r in runs if r["model"] == name), key=lambda r: r["kappa"])
        reps = {len(r["rd_w"]) for r in mine}
        if len({r["kappa"] for r in mine}) < 2 or len(mine) != len({r["kappa"] for r in mine}) \
                or len(reps) != 1 or min(reps) < 2:  # fmt: skip
            worst = worst_of(worst, math.nan)
            lines.append(f"{name}: the slope needs two distinct kappas and two repeats each")
            continue
        slopes = _slopes(mine)
        mean = float(slopes.mean())
        se = float(slopes.std(ddof=1) / math.sqrt(len(slopes)))
        if phase == "kernel":
            err = 1 + (mean + 2 * se + SLACK) / SLACK  # <= 1 iff mean + 2 SE <= -SLACK
        elif phase == "feature learning":
            err = 1 + (-SLACK - (mean - 2 * se)) / SLACK  # <= 1 iff mean - 2 SE >= -SLACK
        else:  # not a B.3 model's phase: no reading to judge
            err = math.nan
        worst = worst_of(worst, worst_of(0.0, err))
        lines.append(f"{name} ({phase}): slope of RD(W) {mean:+.3f} +- {se:.3f} "
                     f"(leading order {rd_exponent(name):+.2f})")  # fmt: skip
    return worst, lines


def generalisation_figure(result: Any) -> tuple[float, list[str]]:
    """``(figure, lines)``: the largest ratio (mean test risk of the feature-phase model) /
    (that of its kernel-phase partner) / :data:`GAP` over the pairs of Appendix B.3 both
    measured in ``result`` and their common kappas; NaN for a non-finite ratio;
    :data:`~solvable._core.tolerance.NOTHING_COMPARED` when no pair was measured."""
    runs = _runs(result, {"model", "kappa", "test_risk"})
    risk = {(r["model"], r["kappa"]): float(np.mean(np.asarray(r["test_risk"], dtype=float)))
            if len(r["test_risk"]) else math.nan for r in runs}  # fmt: skip
    worst, lines = NOTHING_COMPARED, []
    for a, b in appendix_b3.PAIRS:
        by_phase = {model_scaling(m).phase: m for m in (a, b)}
        kern, feat = by_phase.get("kernel"), by_phase.get("feature learning")
        if kern is None or feat is None:
            worst = worst_of(worst, math.nan)
            lines.append(f"{a} / {b}: not one kernel and one feature-learning model")
            continue
        kappas = sorted({k for (m, k) in risk if m == kern} & {k for (m, k) in risk if m == feat})
        for kappa in kappas:
            rk, rf = risk[(kern, kappa)], risk[(feat, kappa)]
            # a non-finite risk or a zero kernel risk has no ratio: NaN fails
            ratio = rf / rk if math.isfinite(rf) and math.isfinite(rk) and rk > 0 else math.nan
            worst = worst_of(worst, ratio / GAP)
            lines.append(f"kappa = {kappa}: test risk {feat} {rf:.4g} vs {kern} {rk:.4g} "
                         f"(ratio {ratio:.3f})")  # fmt: skip
    return worst, lines


def figure_3_teacher_verdict(result: Any) -> Verdict:
    """``confirmed`` when both :func:`phase_figure` and :func:`generalisation_figure` are
    at most 1 (NaN or nothing compared fails), else ``failed``."""
    pf, pl = phase_figure(result)
    gf, gl = generalisation_figure(result)
    detail = "; ".join(pl) + f" [phase figure {pf:.3g}]; " + "; ".join(gl) + \
        f" [test-risk figure {gf:.3g}]"  # fmt: skip
    # either part comparing nothing fails the whole (worst_of would let the other stand)
    worst = NOTHING_COMPARED if NOTHING_COMPARED in (pf, gf) else worst_of(pf, gf)
    return Verdict.from_error(worst, detail, _TOL)
