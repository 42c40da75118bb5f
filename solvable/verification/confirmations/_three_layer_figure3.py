"""Seed 004, Figure 3: at ``gamma_2 = 0.5`` the second layer's input weights "hardly have a
strong relationship with each other" at ``gamma_3 = 2.2`` while at ``2.8`` "most of them
are very close to each other" (Section 5.2).  Claim ``three_layer.figure_3_contrast``, a
companion of :mod:`solvable.verification.confirmations.three_layer` (which registers it).

Measured with Figure 8's condensation measure ``zeta`` (:func:`numerics.phase_diagram.zeta`:
the mean ``|D(u, v)|`` of eq. (2) over the half of the W2 rows with the largest norm) on nets
trained at both points (:func:`numerics.phase_diagram.measure_points`, the training of every
seed-004 claim), the same draws at both points (paired).  The statement checked is the
contrast, on every (width, seed): ``zeta`` after training is larger at ``gamma_3 = 2.8``
than at ``2.2`` (units ``zeta(2.2)/zeta(2.8)``, <= 1 when it holds).  The absolute reading
("hardly related" at 2.2) is not asserted: at the default widths 64 and 128, ``zeta`` at
2.2 already grows about twofold from its random start (measured 0.13 -> 0.22..0.31), so
the two columns of the figure differ in degree there; the detail reports both growths.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from numerics import phase_diagram as pdg
from numerics import scale_out as so
from numerics.torch_flow import threads
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import Tolerance, worst_item
from solvable.models import three_layer

__all__ = ["POINTS", "figure_3_claim", "judge_contrast"]

POINTS = ((Fraction(1, 2), Fraction(11, 5)), (Fraction(1, 2), Fraction(14, 5)))
"""Figure 3's two columns: (gamma_2, gamma_3) = (0.5, 2.2) and (0.5, 2.8)."""
WIDTHS, SEEDS = (64, 128), (0, 1)
WIDTHS_FULL, SEEDS_FULL = (1000, 2500), (0, 1, 2, 3)


def judge_contrast(zetas: Mapping[tuple[int, int], tuple[Sequence[float], Sequence[float]]]
                   ) -> Verdict:  # fmt: skip
    """``zetas[(m, seed)] = ((zeta0, zeta) at 2.2, (zeta0, zeta) at 2.8)``: the trained
    ``zeta`` at 2.8 exceeds the one at 2.2 on every key (units ``zeta(2.2)/zeta(2.8)``)."""
    checks, parts = {}, []
    for (m, seed), (low, high) in sorted(zetas.items()):
        # strictly larger: a tie is not "more condensed"
        checks[f"m = {m}, seed {seed}"] = low[1] / high[1] if high[1] > low[1] else float("inf")
        parts.append(f"m = {m}, seed {seed}: 2.2 {low[0]:.3f}->{low[1]:.3f}, 2.8 "
                     f"{high[0]:.3f}->{high[1]:.3f}")  # fmt: skip
    where, worst = worst_item(checks)
    tol = Tolerance(1.0, reason="zeta(W2) trained at gamma_3 = 2.2 over the one at 2.8")
    return Verdict.from_error(worst, "; ".join(parts) + f"; worst {worst:.3f} ({where})", tol)


def _zeta_w2(run: Mapping[str, Any]) -> list[float] | None:
    if run["diverged"]:
        return None
    w = [pdg.input_weights({k: v[0].detach().cpu().double().numpy() for k, v in q.items()},
                           "W2") for q in (run["p0"], run["p"])]  # fmt: skip
    return [pdg.zeta(w[0]), pdg.zeta(w[1])]


@functools.cache
def _measure(full: bool, scale_out: so.ScaleOut | None = None
             ) -> dict[tuple[int, int], tuple[Sequence[float], Sequence[float]]]:  # fmt: skip
    """``zeta`` of W2 at both points per (width, seed); under a ``scale_out`` (``solvable
    verify --full --executor/--device/--max-width``) the runs go through
    :func:`numerics.scale_out.measure_points` (every run keeps its weights: trained in this
    process, batched); under a cap (``--max-width``/``--max-seeds``) the widths are the two
    largest of the paper's (:data:`numerics.phase_diagram.FULL_WIDTHS`) that fit and the
    seeds the first ``max_seeds``."""
    widths, seeds = (WIDTHS_FULL, SEEDS_FULL) if full else (WIDTHS, SEEDS)
    extra = {"zeta_w2": _zeta_w2}
    with threads(1):
        if scale_out is None:
            pts = pdg.measure_points(list(POINTS), widths, seeds, normalised_lr=True,
                                     device=None if full else "cpu", extra=extra)  # fmt: skip
        else:
            if scale_out.capped:  # the two largest of the paper's widths that fit
                fit, seeds = scale_out.limit(pdg.FULL_WIDTHS if full else widths, seeds)
                widths = fit[-2:]
            pts = so.measure_points(list(POINTS), widths, seeds, scale_out=scale_out,
                                    device=None if full else "cpu", normalised_lr=True,
                                    extra=extra)  # fmt: skip
    runs = [{(r["m"], r["seed"]): r["zeta_w2"] for r in p.results} for p in pts]
    out = {}
    for key in runs[0]:
        low, high = runs[0][key], runs[1][key]
        if low is None or high is None:
            raise ArithmeticError(f"training diverged at m = {key[0]}, seed {key[1]}")
        out[key] = (tuple(low), tuple(high))
    return out


def _check(full: bool = False, scale_out: so.ScaleOut | None = None) -> Verdict:
    return judge_contrast(_measure(full, scale_out))


def figure_3_claim() -> Theorem:
    """The claim ``three_layer.figure_3_contrast``."""
    return Theorem(
        "three_layer.figure_3_contrast",
        f"{three_layer.SEED} Figure 3, Section 5.2 (gamma_2 = 0.5: gamma_3 = 2.2 vs 2.8)",
        "At gamma_2 = 1/2 the trained W2 rows are more condensed at gamma_3 = 14/5 than at "
        "11/5: Figure 8's zeta (mean |D(u, v)| of eq. (2) over the half of the rows with the "
        "largest norm) after training is larger at 2.8 on every width and seed (widths 64, "
        "128, seeds 0, 1; full: 1000, 2500, 4 seeds), the same draws at both points.",
        "numeric",
        _check,
    )
