"""The verdict of seed 000's Section 8.2 claims (Figure 4: pruning and transfer) on the
digits stand-in of :func:`numerics.node_scaling_experiment.section_8_2_digits`.

Source: seed ``000_f57230b12d385b63.txt``, Section 8.2: "models with smaller gamma and/or
alpha values are likely to be more robust with respect to pruning, as long as gamma < 1",
and "models with smaller values of gamma have lower risks when a small number of features
are used for the transfer".  Judged here, with the settings ordered by decreasing ``gamma``
(and ``alpha``, as Section 8.1.1's four pairs are):

* pruning (:func:`pruning_figure`): at each kept fraction at most ``heavy``, the mean test
  risk after pruning strictly decreases from one setting to the next, each step by more
  than two standard errors of the two means over the repeats;
* transfer (:func:`transfer_figure`): at each number of features at most ``few``, the
  smallest gamma's mean transferred risk is below the largest gamma's by more than two
  standard errors (the settings in between are reported, not judged: measured on the
  digits, their differences at few features are within their spread).

Each figure (in units of that tolerance) is the largest ``2 SE / gap`` over what is
judged: at most 1 passes; a tie gives ``inf`` and a gap of the wrong sign ``2 + 2 SE /
|gap|``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from solvable._core import numbers as nb
from solvable._core.claims import Verdict
from solvable._core.tolerance import Tolerance

__all__ = ["FEW", "HEAVY", "pruning_figure", "section_8_2_verdict", "transfer_figure"]

HEAVY = 0.1
"""Fractions of the nodes kept at most this are "heavy pruning", where the pruning claim is
judged (Figure 4 shows the orderings apart once most nodes are pruned; unpruned, the
paper's MNIST networks are ordered the other way: "the unpruned symmetrical scaling gave the
best test accuracy", Section 9)."""

FEW = 5
"""Transfers with at most this many features are "a small number of features", where the
transfer claim is judged."""

_TOL = Tolerance(
    rtol=1.0,
    reason="each judged gap of mean test risks must exceed 2 standard errors of the two "
    "means over the repeats (figure = max 2 SE / gap; <= 1 passes)",
)


def _fraction(name: str, value: Any) -> float:
    v = nb.to_float(nb.check_number(name, value, nonnegative=True), name)
    if not 0 < v <= 1:
        raise ValueError(f"{name} must be in (0, 1], got {nb.describe(value)}")
    return v


def _check(result: Any) -> list[dict[str, Any]]:
    """The runs of ``result``, by decreasing gamma (then alpha); ``TypeError`` naming
    ``result`` unless it has the shape ``section_8_2_digits`` returns."""
    want = "result must be the dict node_scaling_experiment.section_8_2_digits returns"
    keys = ("keep", "features", "runs", "width", "steps")
    if not isinstance(result, dict) or not all(k in result for k in keys):
        raise TypeError(f"{want}, got {nb.describe(result)}")
    keep, features, runs = result["keep"], result["features"], result["runs"]
    ok = isinstance(keep, list) and isinstance(features, list) and isinstance(runs, list)
    if not ok or not all(
            isinstance(r, dict) and {"gamma", "alpha", "test_risk", "transfer_risk"} <= r.keys()
            and isinstance(r["test_risk"], list) and len(r["test_risk"]) == len(keep)
            and isinstance(r["transfer_risk"], list)
            and len(r["transfer_risk"]) == len(features) for r in runs):  # fmt: skip
        raise TypeError(f"{want}: result['runs'] must be dicts with gamma, alpha, one "
                        f"test_risk list per kept fraction and one transfer_risk list per "
                        f"number of features")  # fmt: skip
    if len(runs) < 2:
        raise ValueError(f"result must hold at least two settings, got {len(runs)}")
    return sorted(runs, key=lambda r: (-r["gamma"], -(r["alpha"] or 1.0)))


def _mean_se(values: Any) -> tuple[float, float]:
    v = np.asarray(values, dtype=float)
    if v.size < 2:
        raise ValueError("the Section 8.2 verdicts need at least two repeats per setting")
    return float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size))


def _gap_figure(a: tuple[float, float], b: tuple[float, float]) -> float:
    """``2 max(SE) / (mean_a - mean_b)`` for ``mean_a > mean_b``; ``inf`` for a tie;
    ``2 + 2 max(SE) / |gap|`` for the wrong order."""
    gap, need = a[0] - b[0], 2 * max(a[1], b[1])
    if gap > 0:
        return need / gap
    return math.inf if gap == 0 else 2 + need / -gap


def _labels(runs: list[dict[str, Any]], stats: list[tuple[float, float]]) -> str:
    return ", ".join(f"gamma={r['gamma']:g}: {m:.3f}+-{s:.3f}"
                     for r, (m, s) in zip(runs, stats, strict=True))  # fmt: skip


def pruning_figure(result: Any, heavy: Any = HEAVY) -> tuple[float, list[str]]:
    """``(figure, lines)`` of the pruning claim (module docstring): the largest ``2 SE /
    gap`` over the adjacent settings and the kept fractions ``<= heavy``, and one line per
    judged fraction.  ``ValueError`` for fewer than two repeats or settings, or no kept
    fraction ``<= heavy``."""
    runs, heavy = _check(result), _fraction("heavy", heavy)
    judged = [k for k, f in enumerate(result["keep"]) if f <= heavy]
    if not judged:
        raise ValueError(f"result['keep'] has no fraction <= heavy = {heavy}")
    figure, lines = 0.0, []
    for k in judged:
        stats = [_mean_se(r["test_risk"][k]) for r in runs]
        for i in range(len(runs) - 1):
            figure = max(figure, _gap_figure(stats[i], stats[i + 1]))
        lines.append(f"pruned to {result['keep'][k]:g}: test risk {_labels(runs, stats)}")
    return figure, lines


def transfer_figure(result: Any, few: Any = FEW) -> tuple[float, list[str]]:
    """``(figure, lines)`` of the transfer claim (module docstring): the largest ``2 SE /
    gap`` between the largest and the smallest gamma over the numbers of features ``<=
    few``, and one line per judged number (every setting's mean reported).  ``ValueError``
    for fewer than two repeats or settings, or no number of features ``<= few``."""
    runs = _check(result)
    few = nb.check_int("few", few, 1)
    judged = [k for k, n in enumerate(result["features"]) if n <= few]
    if not judged:
        raise ValueError(f"result['features'] has no number <= few = {few}")
    figure, lines = 0.0, []
    for k in judged:
        stats = [_mean_se(r["transfer_risk"][k]) for r in runs]
        figure = max(figure, _gap_figure(stats[0], stats[-1]))
        lines.append(f"transfer with {result['features'][k]} features: risk "
                     f"{_labels(runs, stats)}")  # fmt: skip
    return figure, lines


def section_8_2_verdict(result: Any, heavy: Any = HEAVY, few: Any = FEW) -> Verdict:
    """``confirmed`` if both :func:`pruning_figure` and :func:`transfer_figure` are at most
    1 (the figure reported is the larger), else ``failed``; the detail lists the means,
    their standard errors and the unpruned risks (not judged)."""
    f_prune, lines = pruning_figure(result, heavy)
    f_transfer, more = transfer_figure(result, few)
    lines += more
    unpruned = [k for k, f in enumerate(result["keep"]) if f == 1.0]
    if unpruned:
        k = unpruned[0]
        lines.append(
            "unpruned (not judged): "
            + ", ".join(
                f"gamma={r['gamma']:g}: {np.mean(r['test_risk'][k]):.3f}" for r in result["runs"]
            )
        )
    figure = max(f_prune, f_transfer)
    detail = (
        f"digits, width {result['width']}, {result['steps']} GD steps, "
        f"{len(result['runs'][0]['test_risk'][0])} repeats; figures: pruning "
        f"{f_prune:.3g}, transfer {f_transfer:.3g}; " + "; ".join(lines)
    )
    ok = figure <= 1
    return Verdict("confirmed" if ok else "failed", detail, max_error=min(figure, 1e300),
                   tolerance=_TOL)  # fmt: skip
