"""Seed 004, Figure 6 (Section 5.3.1: "we also verify the results on the MNIST dataset, as
shown in Fig. 6, and obtain similar results"), on the offline stand-in for MNIST: scikit-learn's
bundled 8 x 8 digits (:func:`numerics.datasets.load_digits`).  Claim
``three_layer.figure_6_digits``, a companion of
:mod:`solvable.verification.confirmations.three_layer` (which registers it).

The measurement.  The training of every seed-004 claim
(:func:`numerics.phase_diagram.measure_points`: eq. (1) with both biases, the representative
``alpha = 1`` of each phase point, full-batch gradient descent with the learning-rate rule of
:mod:`numerics.sweep_three_layer`), on ``d = 64`` inputs instead of the four points on the line:
the first :data:`N_TRAIN` images of a seeded split (data seed :data:`DATA_SEED`), rows centred
and on the unit sphere, targets ``+1`` for even digits and ``-1`` for odd ones.  The paper's
MNIST net has ``d = 784`` and ten outputs; this one has 64 inputs and one output (a binary
task: :func:`numerics.datasets.load_digits`), and the paper prints neither its ``n`` nor its
stopping rule for MNIST.  Stopping rule here: ``R_S <= TOL`` (1e-4, against an initial risk
of about 0.5 for the +-1 targets: 2e-4 relative; the synthetic claims' 1e-6 is 7e-6 of their
initial 0.14; measured at the default size, seeds 0, 1: every slope at :data:`POINTS`
with 1e-6 is within 0.003 of the one with 1e-4, at 2.2 times the cost).  Slopes ``S_W`` of
eq. (11) and their standard errors as for the synthetic data
(:class:`numerics.phase_diagram.SlopeFit`), read with the same band ``max(0.1, 2 err)``.

What "similar results" is taken to mean, and what the claim asserts (at the default widths
32, 64, 128, seeds 0, 1, n = 32; full: the paper's widths 100..10000, 8 seeds, n = 200):

* at each phase point of :data:`POINTS` every regime the synthetic claims assert there
  (:data:`EXPECTED`: the paper's statements, :data:`solvable.models.three_layer.PAPER_POINTS`,
  and the synthetic measurement of ``three_layer.layers_differ`` for W2 at (0, 2.1)) is the
  one read on the digits, except, at the default size, the caveats of :data:`CAVEATS`, where
  the digits read the regime recorded there (so the claim fails when a caveat stops holding;
  ``full=True`` asserts the synthetic regimes everywhere);
* at ``gamma_2 = 0``, ``S_W1`` grows along ``gamma_3`` = 1.1, 1.5, 2.1 (Figure 4's statement
  on the synthetic data), each step beyond two combined standard errors;
* every run reached the stopping rule (no run excluded from a slope).

The rest of Figure 6 (the grid, its stars) is not asserted; the measured slopes are in the
detail and in ``docs/real_data.md``.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from numerics import phase_diagram as pdg
from numerics.datasets import load_digits
from numerics.torch_flow import threads
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import Tolerance, worst_item
from solvable.models import three_layer

__all__ = [
    "CAVEATS",
    "EXPECTED",
    "POINTS",
    "digits_data",
    "figure_6_claim",
    "judge_figure_6",
    "regime_units",
]

F = Fraction
POINTS: tuple[tuple[Fraction, Fraction], ...] = (
    (F(0), F(11, 10)),
    (F(0), F(3, 2)),
    (F(0), F(21, 10)),
    (F(1, 2), F(14, 5)),
)
"""Phase points where the synthetic claims assert a regime (``three_layer.paper_regimes``,
``three_layer.layers_differ``): Table 2 No. 1, Xavier, Figure 2's condensed W1, Figure 3's
condensed W2; the first three lie on Figure 4's line ``gamma_2 = 0``."""
GROWTH_LINE: tuple[tuple[Fraction, Fraction], ...] = POINTS[:3]
Z_GROWTH = 2.0  # each step of S_W1 along gamma_3 beyond 2 combined standard errors (Figure 4's)

# the synthetic claims' regimes at POINTS: the paper's (PAPER_POINTS) and, for W2 at (0, 2.1)
# where the paper states none, the synthetic measurement asserted by three_layer.layers_differ
_SYNTHETIC_W2 = {(F(0), F(21, 10)): "linear"}
EXPECTED: dict[tuple[Fraction, Fraction], tuple[str, str]] = {
    k: (three_layer.PAPER_POINTS[k][0], _SYNTHETIC_W2.get(k, three_layer.PAPER_POINTS[k][1]))
    for k in POINTS
}

CAVEATS: dict[tuple[tuple[Fraction, Fraction], str], tuple[str, str]] = {
    ((F(0), F(3, 2)), "W1"): (
        "linear",
        "Xavier's point (0, 1.5), stated intermediate (critical) on the synthetic data and "
        "read critical there by three_layer.paper_regimes, reads linear on the digits: "
        "S_W1 = -0.134 +- 0.029 (widths 32, 64, 128, seeds 0, 1, n = 32), beyond the band "
        "0.1; with R_S <= 1e-6 instead of 1e-4 (same seeds) -0.136 +- 0.030 (every slope "
        "of POINTS within 0.003 of the 1e-4 one), with seeds 0, 1, 2 at 1e-6 -0.113 +- 0.038. "
        "A small-size effect: at n = 64, widths 64, 128, 256 (seeds 0, 1; 47 CPU s) it reads "
        "critical, -0.101 +- 0.068, as stated",
    ),
}
"""(point, layer) -> (the regime the digits read, evidence): where they disagree with
:data:`EXPECTED` at the default size.  The claim asserts the recorded regime there at the
default size (so it fails when a caveat stops holding); ``full=True`` asserts
:data:`EXPECTED` everywhere (at n = 64 and widths up to 256 the caveat already closes)."""

DATA_SEED = 0
N_TRAIN, N_TRAIN_FULL = 32, 200
TOL = 1e-4
SEEDS, SEEDS_FULL = (0, 1), pdg.FULL_SEEDS
_TEXT = {"linear": "S <= -B", "critical": "|S| <= B", "condensed": "S >= B"}


def digits_data(n: int) -> tuple[Any, Any]:
    """The inputs (n, 64) and +-1 targets (n,) of the claim: the first ``n`` training images
    of :func:`numerics.datasets.load_digits` (seed :data:`DATA_SEED`, even against odd)."""
    d = load_digits(n_train=n, n_test=1, seed=DATA_SEED)
    return d["X_train"], d["y_train"]


def regime_units(slope: float, err: float, want: str, band: float = pdg.BAND) -> float:
    """Error units of "the slope reads ``want``" with the band ``B = max(band, 2 err)``:
    ``|S|/B`` for critical, ``max(0, 2 + S/B)`` for linear, ``max(0, 2 - S/B)`` for
    condensed (<= 1 when it reads ``want``); ``inf`` for a slope that is not finite or that
    :func:`solvable.models.three_layer.regime_from_slope` reads otherwise (a tie on the band's
    edge reads critical)."""
    if want not in _TEXT:
        raise ValueError(f"want must be 'linear', 'critical' or 'condensed', got {want!r}")
    if not math.isfinite(slope):
        return math.inf
    B = max(band, 2 * err) if math.isfinite(err) else band
    u = {"critical": abs(slope) / B, "linear": max(0.0, 2 + slope / B),
         "condensed": max(0.0, 2 - slope / B)}[want]  # fmt: skip
    return u if three_layer.regime_from_slope(slope, B) == want else math.inf


def _where(key: tuple[Fraction, Fraction]) -> str:
    return f"({float(key[0]):g}, {float(key[1]):g})"


def judge_figure_6(points: Mapping[tuple[Fraction, Fraction], pdg.PhasePoint],
                   caveats: Mapping[tuple[tuple[Fraction, Fraction], str], tuple[str, str]]
                   = CAVEATS) -> Verdict:  # fmt: skip
    """``points``: the digits' :class:`numerics.phase_diagram.PhasePoint` at each of
    :data:`POINTS`.  Every regime of :data:`EXPECTED` (or the caveat's, where ``caveats``
    records one) is the one read (:func:`regime_units`); ``S_W1`` grows along
    :data:`GROWTH_LINE` by more than :data:`Z_GROWTH` combined standard errors a step (units
    ``z e / dS``, inf for a step that does not grow); no run is excluded (units inf)."""
    checks: dict[str, float] = {}
    parts = []
    for key in POINTS:
        p = points.get(key)
        # a missing point, or one with a run that did not reach the stopping rule, fails
        checks[f"{_where(key)} runs"] = math.inf if p is None or p.excluded else 0.0
        if p is None:
            continue
        for layer, want in zip(pdg.LAYERS, EXPECTED[key], strict=True):
            if want == "n/s":
                continue
            read, note = want, ""
            if (key, layer) in caveats:
                read, note = caveats[key, layer][0], f" (caveat: {want} on synthetic data)"
            u = regime_units(p.slope(layer), p.err(layer), read)
            checks[f"{_where(key)} {layer} {read}"] = u
            parts.append(f"{_where(key)} S_{layer} = {p.slope(layer):+.3f} +- "
                         f"{p.err(layer):.3f}, {read}{note}: {u:.2f}")  # fmt: skip
    for a, b in itertools.pairwise(GROWTH_LINE):
        if a not in points or b not in points:
            continue  # failed above
        pa, pb = points[a], points[b]
        d = pb.slope("W1") - pa.slope("W1")
        e = math.hypot(pa.err("W1"), pb.err("W1"))
        u = Z_GROWTH * e / d if d > 0 else math.inf  # a tie or NaN does not grow: fails
        checks[f"S_W1 {_where(a)}->{_where(b)}"] = u
        parts.append(f"S_W1 step {_where(a)}->{_where(b)} {d:+.3f} ({d / e:.1f} SE)" if e > 0
                     else f"S_W1 step {_where(a)}->{_where(b)} {d:+.3f}")  # fmt: skip
    where, worst = worst_item(checks)
    first = next(iter(points.values()), None)
    size = "nothing measured" if first is None else (f"widths {list(first.widths)}, seeds "
                                                      f"{list(first.seeds)}")  # fmt: skip
    tol = Tolerance(1.0, reason="regime: the band B = max(0.1, 2 err) of the synthetic claims "
                    "(units <= 1 iff the stated regime is read); growth: each step of S_W1 "
                    "beyond 2 standard errors (Figure 4's check)")  # fmt: skip
    return Verdict.from_error(worst, f"digits, {size}: " + "; ".join(parts)
                              + f"; worst {worst:.2f} ({where})", tol)  # fmt: skip


@functools.cache
def _measure(full: bool) -> dict[tuple[Fraction, Fraction], pdg.PhasePoint]:
    X, y = digits_data(N_TRAIN_FULL if full else N_TRAIN)
    widths = pdg.FULL_WIDTHS if full else pdg.FAST_WIDTHS
    with threads(1):
        pts = pdg.measure_points(list(POINTS), widths, SEEDS_FULL if full else SEEDS,
                                 device=None if full else "cpu", normalised_lr=True, x=X, y=y,
                                 tol=TOL)  # fmt: skip
    return dict(zip(POINTS, pts, strict=True))


def _check(full: bool = False) -> Verdict:
    v = judge_figure_6(_measure(full), caveats={} if full else CAVEATS)
    n = N_TRAIN_FULL if full else N_TRAIN
    return Verdict(v.status, f"n = {n} images (d = 64), R_S <= {TOL:g}; {v.detail}",
                   v.max_error, v.tolerance)  # fmt: skip


def figure_6_claim() -> Theorem:
    """The claim ``three_layer.figure_6_digits``."""
    return Theorem(
        "three_layer.figure_6_digits",
        f"{three_layer.SEED} Figure 6, Section 5.3.1 (MNIST: 'similar results'), on "
        "scikit-learn's digits",
        "On real images (scikit-learn's 8 x 8 digits, d = 64, even against odd, n = 32; full: "
        "n = 200), S_W1 and S_W2 of eq. (11) read with the band max(0.1, 2 err) give the "
        "synthetic regimes: both layers linear at (0, 1.1), W1 condensed and W2 linear at "
        "(0, 2.1), W2 condensed at (1/2, 2.8); at Xavier's (0, 1.5), stated critical, W1 reads "
        "linear at the default size (a recorded caveat; full: critical as stated); S_W1 grows "
        "along gamma_3 = 1.1, 1.5, 2.1 at gamma_2 = 0, each step beyond two standard errors; "
        "every run reaches R_S <= 1e-4 (widths 32, 64, 128, seeds 0, 1; full: 100..10000, "
        "8 seeds).",
        "numeric",
        _check,
    )
