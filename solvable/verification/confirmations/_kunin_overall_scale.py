"""Seed 003's motivating experiment, the overall-scale axis: the claim
``kunin.overall_scale`` (a companion of :mod:`solvable.verification.confirmations.kunin`,
which registers it).

The poster: "The best generalization occurs at small overall scale and large relative
scale."  The relative-scale axis is Part III's (claim ``kunin.alpha_scaling``); this claim
is the overall-scale axis at the standard relative scale ``alpha = 1``, measured by
:func:`numerics.overall_scale.scale_curve` (both layers of Part III's start times ``tau``,
GD on a single-index ReLU teacher).

The thresholds are those of ``kunin.alpha_scaling``, fixed by what they mean, not by the
measured numbers: lazy at the largest scale on every seed (kernel distance < 0.01, i.e.
the final NTK has cosine >= 0.99 with the initial one, and < 1% of the activation patterns
flipped); rich at the smallest (kernel distance > 0.1 and > 10% flipped) and fitting the
teacher (train error < 1% of Var y); the seed means of the test error strictly increase
along the grid (the best generalisation at the smallest scale) and those of the kernel
distance and the activation change strictly decrease; for every ``tau_lo <= 1/4`` and
``tau_hi >= 4`` of the grid the test error at ``tau_lo`` is below the one at ``tau_hi`` by
more than 3 paired standard errors (one-sided p ~ 0.03 with 4 seeds, Student t on 3
degrees of freedom); and GD is stable on every run (``lr lambda_max(K_T)/n < 2``).  Each
condition is a ratio that is <= 1 when it holds; the verdict's error is the largest.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from numerics import overall_scale
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import worst_item, worst_of
from solvable.models import kunin

__all__ = ["judge_overall_scale", "overall_scale_claim"]

LAZY_KD = LAZY_ACT = 0.01
RICH_KD = RICH_ACT = 0.1
FIT = 0.01
SIGMAS = 3.0


def error_gaps_of(curve: Any, grid: Sequence[float], worse_at_small: bool, sigmas: float,
                    label: str) -> tuple[list[float], dict[str, float]]:  # fmt: skip
    """The test-error gaps between every grid value ``<= 1/4`` and every one ``>= 4`` of a
    measured curve (``curve.difference("test_error", worse, better)``: mean difference and
    its paired standard error), with the worse end small (``worse_at_small``: the
    alpha-scaling of Part III) or large (the overall scale): the gaps in standard errors,
    and the checks ``sigmas SE / gap`` (<= 1 passes; ``inf`` for a gap of the wrong sign,
    or when the grid has no value at one end)."""
    inf = math.inf
    gaps: list[float] = []
    checks: dict[str, float] = {}
    for lo in (v for v in grid if v <= 0.25):
        for hi in (v for v in grid if v >= 4):
            worse, better = (lo, hi) if worse_at_small else (hi, lo)
            diff, se = curve.difference("test_error", worse, better)  # > 0: worse is worse
            gaps.append(diff / se if se > 0 else (inf if diff > 0 else 0.0))
            checks[f"test error gap {worse:g} vs {better:g}"] = (sigmas * se / diff if diff > 0
                                                                else inf)  # fmt: skip
    if not gaps:  # nothing to compare at one end of the grid
        checks[f"test error gap: no {label} <= 1/4 and >= 4 on the grid"] = inf
    return gaps, checks


def judge_overall_scale(curve: overall_scale.ScaleCurve) -> Verdict:
    """The conditions of the module docstring on a measured curve."""
    inf = math.inf
    kd, act = curve.values["kernel_distance"], curve.values["activation_change"]
    first, last = f"{curve.scales[0]:g}", f"{curve.scales[-1]:g}"
    checks = {
        f"lazy kernel distance at scale={last}": float(kd[-1].max()) / LAZY_KD,
        f"lazy activation change at scale={last}": float(act[-1].max()) / LAZY_ACT,
        f"rich kernel distance at scale={first}": RICH_KD / float(kd[0].min()),
        f"rich activation change at scale={first}": RICH_ACT / float(act[0].min()),
        f"rich nets fit the teacher at scale={first} (train error < {FIT:g})": float(
            curve.values["train_error"][0].max()
        )
        / FIT,
        "stability: max lr lambda_max(K_T)/n over 2": float(curve.values["edge"].max()) / 2,
    }
    for metric, increasing in (("test_error", True), ("kernel_distance", False),
                               ("activation_change", False)):  # fmt: skip
        m = curve.means[metric] if increasing else curve.means[metric][::-1]
        ratios = [a / b if b > 0 else inf for a, b in itertools.pairwise(m)]  # <= 1: grows
        label = "increasing" if increasing else "decreasing"
        checks[f"{label} {metric}"] = worst_of(*ratios) if ratios else inf
    gaps, gap_checks = error_gaps_of(curve, curve.scales, False, SIGMAS, "scale")
    checks.update(gap_checks)
    where, worst = worst_item(checks)

    def row(metric: str) -> str:
        return ", ".join(f"{v:.3g}" for v in curve.means[metric])

    s = curve.setup
    return Verdict.from_error(
        worst,
        f"scale in {{{', '.join(f'{t:g}' for t in curve.scales)}}} at alpha = "
        f"{curve.alpha:g}, {curve.seeds} seeds, width {s.width}, n={s.n_train}, d={s.d}, "
        f"{s.steps} GD steps ({curve.device}, {curve.dtype}, {curve.seconds:.1f} s), seed "
        f"means: test error [{row('test_error')}], train error [{row('train_error')}], "
        f"kernel distance [{row('kernel_distance')}], activation change "
        f"[{row('activation_change')}]; test-error gaps {min(gaps, default=0.0):.1f}.."
        f"{max(gaps, default=0.0):.1f} SE; worst {worst:.3g} ({where})",
        None,
    )


def _check(full: bool = False) -> Verdict:
    grid, seeds = (overall_scale.SCALES, 8) if full else (overall_scale.SCALES_SMALL, 4)
    return judge_overall_scale(overall_scale.scale_curve(grid, seeds=seeds))


def overall_scale_claim() -> Theorem:
    """The claim ``kunin.overall_scale``."""
    return Theorem(
        "kunin.overall_scale",
        f"{kunin.SEED} Motivating experiment (the overall-scale axis)",
        "Students a^T relu(W x) started from tau times Part III's standard draw (alpha = 1, "
        "symmetric, f = 0 at t = 0) and trained by GD on a single-index ReLU teacher "
        "generalise best at small overall scale: the seed-mean test error increases along "
        "tau = 1/8, 1, 8 (full: 1/8..8 by factors of 2, 8 seeds), every tau >= 4 is worse "
        "than every tau <= 1/4 by more than 3 paired standard errors; the nets are rich at "
        "tau = 1/8 (kernel distance > 0.1, > 10% of activation patterns flipped, train "
        "error < 1%) and lazy at tau = 8 (< 0.01, < 1%).",
        "numeric",
        _check,
    )
