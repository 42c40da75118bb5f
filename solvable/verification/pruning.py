"""The verdict of seed 000's pruning claim (Section 8.2, Figure 4, third panel) on the
digits stand-in of :func:`numerics.node_scaling_experiment.pruning.digits_pruning`.

Source: seed ``000_f57230b12d385b63.txt``, Section 8.2: "models with smaller gamma and/or
alpha values are likely to be more robust with respect to pruning, as long as gamma < 1".
Judged here: with the settings ordered by decreasing ``gamma`` (and ``alpha``, as Section
8.1.1's four pairs are), the mean test risk after pruning to each kept fraction at most
``heavy`` strictly decreases from one setting to the next, each step by more than two
standard errors of the two means over the repeats.  The figure reported (in units of that
tolerance) is the largest ``2 SE / gap`` over the adjacent pairs and the fractions: at most 1
passes; a gap of the wrong sign gives a figure above 1 (its size) or ``inf`` (a tie).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.tolerance import Tolerance

__all__ = ["HEAVY", "pruning_figure", "pruning_verdict"]

HEAVY = 0.1
"""Fractions of the nodes kept at most this are "heavy pruning", where the claim is judged
(Figure 4 shows the orderings apart once most nodes are pruned; unpruned, the paper's MNIST
networks are ordered the other way: "the unpruned symmetrical scaling gave the best test
accuracy", Section 9)."""

_TOL = Tolerance(
    rtol=1.0,
    reason="each adjacent gap of mean pruned test risks must exceed 2 standard errors of "
    "the two means over the repeats (figure = max 2 SE / gap; <= 1 passes)",
)


def _check(result: Any, heavy: Any) -> float:
    """``heavy`` as a float in (0, 1]; ``TypeError`` naming ``result`` unless it has the
    shape :func:`~numerics.node_scaling_experiment.pruning.digits_pruning` returns."""
    want = "result must be the dict node_scaling_experiment.digits_pruning returns"
    if not isinstance(result, dict) or not all(k in result for k in ("keep", "runs", "width",
                                                                     "steps")):  # fmt: skip
        raise TypeError(f"{want}, got {nb.describe(result)}")
    keep, runs = result["keep"], result["runs"]
    if not isinstance(keep, list) or not isinstance(runs, list) or not all(
            isinstance(r, dict) and {"gamma", "alpha", "test_risk"} <= r.keys()
            and isinstance(r["test_risk"], list) and len(r["test_risk"]) == len(keep)
            for r in runs):  # fmt: skip
        raise TypeError(f"{want}: result['runs'] must be dicts with gamma, alpha and one "
                        f"test_risk list per kept fraction")  # fmt: skip
    h = nb.to_float(nb.check_number("heavy", heavy, nonnegative=True), "heavy")
    if not 0 < h <= 1:
        raise ValueError(f"heavy must be in (0, 1], got {nb.describe(heavy)}")
    return h


def pruning_figure(result: dict[str, Any], heavy: float = HEAVY) -> tuple[float, list[str]]:
    """``(figure, lines)``: the largest ``2 SE / gap`` over the adjacent settings (by
    decreasing gamma) and the kept fractions ``<= heavy`` (``inf`` for a tie, ``2 + 2 SE /
    |gap|`` for a reversed pair, so that it fails), and one line per fraction with the
    means.  ``ValueError`` if fewer than two
    repeats (no standard error), fewer than two settings, or no fraction ``<= heavy``."""
    heavy = _check(result, heavy)
    runs = sorted(result["runs"], key=lambda r: (-r["gamma"], -(r["alpha"] or 1.0)))
    if len(runs) < 2:
        raise ValueError(f"result must hold at least two settings, got {len(runs)}")
    fractions = [k for k, f in enumerate(result["keep"]) if f <= heavy]
    if not fractions:
        raise ValueError(f"result['keep'] has no fraction <= heavy = {heavy}")
    figure, lines = 0.0, []
    for k in fractions:
        means, ses = [], []
        for run in runs:
            v = np.asarray(run["test_risk"][k], dtype=float)
            if v.size < 2:
                raise ValueError("the pruning verdict needs at least two repeats per setting")
            means.append(float(v.mean()))
            ses.append(float(v.std(ddof=1) / math.sqrt(v.size)))
        for i in range(len(runs) - 1):
            gap = means[i] - means[i + 1]  # must be > 0: risk falls as gamma goes down
            need = 2 * max(ses[i], ses[i + 1])
            if gap > 0:
                figure = max(figure, need / gap)
            elif gap == 0:
                figure = math.inf
            else:
                figure = max(figure, 2 + need / -gap)
        labels = ", ".join(f"gamma={r['gamma']:g}: {m:.3f}+-{s:.3f}"
                           for r, m, s in zip(runs, means, ses, strict=True))  # fmt: skip
        lines.append(f"keep {result['keep'][k]:g}: test risk {labels}")
    return figure, lines


def pruning_verdict(result: dict[str, Any], heavy: float = HEAVY) -> Verdict:
    """``confirmed`` if :func:`pruning_figure` is at most 1, else ``failed``; the detail
    lists the means, their standard errors and the unpruned risks."""
    figure, lines = pruning_figure(result, heavy)
    unpruned = [k for k, f in enumerate(result["keep"]) if f == 1.0]
    if unpruned:
        k = unpruned[0]
        lines.append(
            "unpruned (not judged): "
            + ", ".join(
                f"gamma={r['gamma']:g}: {np.mean(r['test_risk'][k]):.3f}" for r in result["runs"]
            )
        )
    detail = (
        f"digits, width {result['width']}, {result['steps']} GD steps, "
        f"{len(result['runs'][0]['test_risk'][0])} repeats; " + "; ".join(lines)
    )
    ok = figure <= 1
    return Verdict("confirmed" if ok else "failed", detail, max_error=figure if ok else
                   min(figure, 1e300), tolerance=_TOL)  # fmt: skip
