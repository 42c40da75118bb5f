"""Seed 004, the whole (gamma_2, gamma_3) plane: Figure 1 (four regimes), Figure 5(b) (the
zero crossings of ``S_W`` along gamma_2), Figure 7 (W1 still / condensed on either side of
its critical line) and Figure 8 (``zeta`` of W2 over the grid).  Claims
``three_layer.figure_1_plane``, ``figure_5b_crossings``, ``figure_7_w1_condensation`` and
``figure_8_zeta_map``, companions of :mod:`solvable.verification.confirmations.three_layer`,
which registers them and hands them its measured points (the grid below is part of its one
batched measurement: the same runs as every other seed-004 claim, never trained twice).

The critical lines.  The paper draws its boundaries only in Figures 1 and 5 (images; "the
dashed lines are our speculative boundary", Section 5.3.1) and prints no equation.  Its text
fixes one point of each line: W1 is critical at Xavier's ``(0, 3/2)`` (Table 1; Section
5.2, "gamma_3 = 1.5 ... intermediate"), W2 at Table 2 No. 2's ``(7/10, 5/2)``.  The lines
through them used here (:data:`CRITICAL_LINES`) carry slopes that are this package's
reading, not the paper's:

* W1: ``gamma_3 = 3/2 + 2 gamma_2``, the zero line of the estimate of a net that stays
  linear (:func:`numerics.sweep_three_layer.linear_estimate`, ``S_W1 = gamma_3 - 2 gamma_2
  - 3/2``): it passes through the paper's Xavier point by itself and gives Table 2's printed
  ``S_W1`` -0.41 / -0.32 as -0.4 / -0.4;
* W2: ``gamma_3 = 5/2``, flat: in the normalised flow (7) ``gamma_2`` enters only through
  ``kappa_2^2``, the rate of W1, so where W1 stays linear (its weights do not move in the
  limit) W2's flow, hence its regime, does not depend on ``gamma_2``.  Left of the W1 line
  (W1 condensed) this is an extrapolation: Figure 3's ``(1/2, 2.8)``, stated condensed, is
  the text's only W2 statement there.

The four regions they bound (:func:`paper_pair`): both linear below both lines; W1
condensed / W2 linear between them on the left; both condensed above both; W1 linear / W2
condensed between them on the right.  A grid point is "clearly inside" a region when it is
at least :data:`MARGIN` (in gamma_3) from each line: the paper's own illustrations of the
two sides of a line sit that far from it (Figure 2: ``gamma_3 = 1.0`` "very close" to the
start and ``2.0`` "condensed", about Xavier's ``1.5``).  Points nearer a line are not judged.

Default sizes (``full=False``): the grid :data:`GRID_FAST` (3 x 3, eight points beyond the
other claims'), widths 32, 64, 128, seeds 0-2; ``zeta`` at m = 64, seeds 0, 1.  ``full``:
:data:`GRID_FULL` (5 x 6), the paper's widths and eight seeds, ``zeta`` at m = 1000.  Where
the default size reads otherwise than the regions, it is recorded in :data:`CAVEATS` with
its numbers and asserted as a disagreement (it fails if the disagreement goes away, so a
stale caveat is noticed); under ``full`` every judged point must agree.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from numerics import phase_diagram as pdg
from numerics import scale_out as so
from solvable._core.claims import Theorem, Verdict
from solvable._core.tolerance import Tolerance, worst_item
from solvable.models import three_layer

__all__ = [
    "CAVEATS",
    "CRITICAL_LINES",
    "GRID_FAST",
    "GRID_FULL",
    "MARGIN",
    "ZETA_FACTOR",
    "ZETA_STILL",
    "critical_gamma_3",
    "grid",
    "judge_crossings",
    "judge_plane",
    "judge_w1_condensation",
    "judge_zeta_map",
    "paper_pair",
    "plane_claims",
    "regime_units",
    "side",
]

F = Fraction
Point = tuple[Fraction, Fraction]
Zetas = Sequence[tuple[float, float]]

GRID_FAST: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] = (
    (F(0), F(1, 2), F(1)),
    (F(1), F(2), F(3)),
)
"""Default grid (gamma_2s, gamma_3s): every one of the four regions holds a point at least
:data:`MARGIN` from both lines ((0, 1) both linear; (0, 2) W1 condensed / W2 linear; (1/2,
3) both condensed; (1, 3) W1 linear / W2 condensed)."""
GRID_FULL: tuple[tuple[Fraction, ...], tuple[Fraction, ...]] = (
    (F(0), F(1, 4), F(1, 2), F(3, 4), F(1)),
    (F(1), F(3, 2), F(2), F(5, 2), F(3), F(7, 2)),
)
"""``full``: a finer grid over the same window (steps 1/4 in gamma_2, 1/2 in gamma_3)."""

CRITICAL_LINES: dict[str, tuple[Fraction, Fraction]] = {
    "W1": (F(3, 2), F(2)),
    "W2": (F(5, 2), F(0)),
}
"""``layer -> (c, k)``: the critical line ``gamma_3 = c + k gamma_2`` (module docstring:
through the paper's stated critical point, the slope this package's reading)."""
MARGIN = F(1, 2)
"""How far (in gamma_3) from a line a point must be to be judged (module docstring)."""
ZETA_FACTOR = 2.0  # condensed: zeta at least doubles from its initial (random) value
ZETA_STILL = 0.05  # still: zeta moves by at most 5 % (relative)

# (point, layer) -> evidence: where the default size (widths 32, 64, 128; seeds 0-2) reads
# otherwise than the region (python -m solvable verify --only three_layer.figure_1_plane)
CAVEATS: dict[tuple[Point, str], str] = {
    ((F(0), F(3)), "W2"): (
        "reads critical, S_W2 = +0.072 +- 0.030 (region: condensed); at gamma_2 = 0, left of "
        "the W1 line where the flat W2 line is an extrapolation, the measured S_W2 crosses 0 "
        "at gamma_3 = 2.77 (+0.015 at 2.8, +0.117 at 3.2), not 2.5"
    ),
    ((F(1), F(2)), "W2"): (
        "reads critical, S_W2 = -0.088 +- 0.041 (region: linear): at gamma_2 = 1 the measured "
        "S_W2 crosses 0 at gamma_3 = 2.24 (-0.057 at 2.1, +0.104 at 2.5), 2.40 at gamma_2 = "
        "1/2: at widths 32..128 the W2 crossing falls with gamma_2 instead of staying at 5/2"
    ),
}


def _fraction(name: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        raise TypeError(f"{name} must be an int or a Fraction, got {value!r:.80}")
    return Fraction(value)


def _layer(layer: Any) -> str:
    if layer not in CRITICAL_LINES:
        raise ValueError(f"layer must be 'W1' or 'W2', got {layer!r}")
    return layer


def grid(full: bool = False) -> tuple[Point, ...]:
    """The grid points ``(gamma_2, gamma_3)`` of the claims, gamma_2-major."""
    g2s, g3s = GRID_FULL if full else GRID_FAST
    return tuple((a, b) for a in g2s for b in g3s)


def critical_gamma_3(layer: str, gamma_2: Any) -> Fraction:
    """gamma_3 of ``layer``'s critical line (:data:`CRITICAL_LINES`) at ``gamma_2``."""
    c, k = CRITICAL_LINES[_layer(layer)]
    return c + k * _fraction("gamma_2", gamma_2)


def side(layer: str, gamma_2: Any, gamma_3: Any, margin: Any = MARGIN) -> str | None:
    """``"linear"`` (at least ``margin`` below ``layer``'s line), ``"condensed"`` (at least
    ``margin`` above it) or ``None`` (nearer; ``margin >= 0``)."""
    g3, m = _fraction("gamma_3", gamma_3), _fraction("margin", margin)
    if m < 0:
        raise ValueError(f"margin must be >= 0, got {margin!r}")
    d = g3 - critical_gamma_3(layer, gamma_2)
    return "condensed" if d >= m and d > 0 else "linear" if d <= -m and d < 0 else None


def paper_pair(gamma_2: Any, gamma_3: Any, margin: Any = MARGIN) -> tuple[str, str] | None:
    """The regime pair (W1, W2) of the region the point is clearly inside, ``None`` if it is
    nearer than ``margin`` to either line."""
    w1, w2 = (side(L, gamma_2, gamma_3, margin) for L in ("W1", "W2"))
    return None if w1 is None or w2 is None else (w1, w2)


def regime_units(p: pdg.PhasePoint, layer: str, want: str, band: float = pdg.BAND) -> float:
    """Error units of "the regime of ``layer`` at ``p`` is ``want``", <= 1 exactly when the
    regime read with the band ``B = max(band, 2 err)`` is ``want``: ``|S|/B`` (critical),
    ``max(0, 2 + S/B)`` (linear), ``max(0, 2 - S/B)`` (condensed); ``inf`` for a slope that
    is not finite."""
    if want not in ("linear", "critical", "condensed"):
        raise ValueError(f"want must be 'linear', 'critical' or 'condensed', got {want!r}")
    S, err = p.slope(layer), p.err(layer)
    if not math.isfinite(S):
        return math.inf
    B = max(band, 2 * err) if math.isfinite(err) else band
    if want == "critical":
        return abs(S) / B
    if want == "linear":
        return max(0.0, 2 + S / B)
    return max(0.0, 2 - S / B)  # condensed


def _at(key: Point) -> str:
    return f"({float(key[0]):g}, {float(key[1]):g})"


def _fmt(p: pdg.PhasePoint, layer: str) -> str:
    return f"S_{layer} {p.slope(layer):+.3f}+-{p.err(layer):.3f}"


# ---------------------------------------------------------------------------
# judges: pure functions of measurements
# ---------------------------------------------------------------------------
def judge_plane(points: Mapping[Point, pdg.PhasePoint],
                caveats: Mapping[tuple[Point, str], str] | None = None) -> Verdict:  # fmt: skip
    """Figure 1: at every point of ``points`` clearly inside a region (:func:`paper_pair`)
    both layers read the region's regimes (:func:`regime_units`); each of the four regions
    must hold a judged point.  A ``(point, layer)`` of ``caveats`` is expected to read
    otherwise: its units are ``1/u`` (<= 1 while the recorded disagreement stands)."""
    caveats = dict(caveats or {})
    checks: dict[str, float] = {}
    parts, regions = [], set()
    for key, p in points.items():
        pair = paper_pair(*key)
        if pair is None:
            parts.append(f"{_at(key)} near a line (not judged)")
            continue
        regions.add(pair)
        for layer, want in zip(("W1", "W2"), pair, strict=True):
            u = regime_units(p, layer, want)
            if (key, layer) in caveats:
                u = math.inf if not math.isfinite(p.slope(layer)) else 1 / u if u else math.inf
                tag = " [caveat: expected to read otherwise]"
            else:
                tag = ""
            checks[f"{_at(key)} {layer}"] = u
            parts.append(f"{_at(key)} {layer} {want}: {_fmt(p, layer)} ({p.regime(layer)}), "
                         f"{u:.2f} units{tag}")  # fmt: skip
    stale = [k for k in caveats if k[0] not in points or paper_pair(*k[0]) is None]
    where, worst = worst_item(checks)
    tol = Tolerance(1.0, reason="slope band B = max(0.1, 2 err): units <= 1 iff the regime read "
                    "with band B is the region's (a caveat: iff it is not)")  # fmt: skip
    missing = 4 - len(regions)
    if missing or stale:
        why = (f"{missing} of the four regions hold no judged point" if missing
               else f"caveats at points not judged {stale}")  # fmt: skip
        return Verdict("failed", why + ": " + "; ".join(parts), math.inf, tol)
    return Verdict.from_error(worst, "; ".join(parts) + f"; worst {worst:.2f} ({where})", tol)


def judge_crossings(points: Mapping[Point, pdg.PhasePoint], band: float = pdg.BAND) -> Verdict:
    """Figure 5(b): along gamma_2 at each gamma_3 of the grid ``points`` (a full
    rectangle), ``S_W`` of each layer crosses 0 (:func:`numerics.phase_diagram.boundaries`)
    exactly where its critical line does inside the row's range (once or not at all; where
    the line meets the row at an end, once or not at all); a crossing lies at the line's
    gamma_2 within ``max(2 err, band/|dS/dgamma_2|)`` (two
    propagated standard errors, or the finite-width band mapped to gamma_2, as
    ``three_layer.boundary_w1``).  A row on a flat line (the whole row critical) is not
    judged.  Units: ``|at - expected| / allowed``; ``inf`` for a wrong number of
    crossings."""
    g2s = tuple(sorted({k[0] for k in points}))
    g3s = tuple(sorted({k[1] for k in points}))
    if len(points) != len(g2s) * len(g3s) or len(g2s) < 2:
        raise ValueError(f"points must form a full grid with >= 2 gamma_2 values, got "
                         f"{sorted(points)!r:.120}")  # fmt: skip
    rows = tuple(tuple(points[a, b] for b in g3s) for a in g2s)
    first = rows[0][0]
    diag = pdg.PhaseDiagram(g2s, g3s, first.widths, first.seeds, rows)
    checks: dict[str, float] = {}
    parts = []
    for layer in ("W1", "W2"):
        c, k = CRITICAL_LINES[layer]
        found = pdg.boundaries(diag, layer, "gamma_2")
        for g3 in g3s:
            if k == 0 and g3 == c:
                continue
            want = (g3 - c) / k if k else None
            inside = want is not None and g2s[0] < want < g2s[-1]
            # the line meets the row at its end (e.g. W1 at Xavier's (0, 3/2)): a crossing
            # measured just inside that end is the line's, and none is as right
            edge = want is not None and want in (g2s[0], g2s[-1])
            row = [x for x in found if x.fixed == float(g3)]
            name = f"S_{layer} at gamma_3 = {float(g3):g}"
            if len(row) != int(inside) and not (edge and len(row) == 1):
                checks[name] = math.inf
                parts.append(f"{name}: {len(row)} crossings, the line gives {int(inside)}"
                             + (" or 1 (it meets the row's end)" if edge else ""))  # fmt: skip
                continue
            if not row:
                checks[name] = 0.0
                parts.append(f"{name}: no crossing, as the line")
                continue
            x = row[0]
            allow = max(2 * x.err, band / abs(x.dS))
            checks[name] = abs(x.at - float(want)) / allow
            parts.append(f"{name}: crosses at gamma_2 = {x.at:.3f} +- {x.err:.3f} (dS/dgamma_2 "
                         f"{x.dS:.2f}), line {float(want):.3f}, allowed {allow:.3f}: "
                         f"{checks[name]:.2f} units")  # fmt: skip
    where, worst = worst_item(checks)
    tol = Tolerance(1.0, reason="|crossing - line| / max(2 err, 0.1/|dS/dgamma_2|); the "
                    "number of crossings per row must be the line's")  # fmt: skip
    head = f"widths {list(first.widths)}, seeds {list(first.seeds)}: "
    return Verdict.from_error(worst, head + "; ".join(parts) + f"; worst {worst:.2f} ({where})",
                              tol)  # fmt: skip


def _moves(zs: Zetas) -> list[float]:
    return [z / z0 - 1 for z0, z in zs]


def judge_w1_condensation(zetas: Mapping[Point, Zetas], still: float = ZETA_STILL) -> Verdict:
    """Figure 7 / Section 5.4: ``(zeta_initial, zeta_trained)`` of W1's input weights per
    seed.  At every point at least :data:`MARGIN` below W1's critical line zeta moves by at
    most ``still`` (relative; units ``|move|/still``); at every point at least
    :data:`MARGIN` above it zeta grows by more than ``still`` (units ``still/move``, inf
    for a move <= 0), so every point on the right moved more than every point on the left.
    Both sides must hold a point."""
    checks: dict[str, float] = {}
    parts, sides = [], set()
    for key, zs in zetas.items():
        s = side("W1", *key)
        if s is None:
            continue
        sides.add(s)
        for j, mv in enumerate(_moves(zs)):
            checks[f"{_at(key)} seed#{j}"] = (abs(mv) / still if s == "linear"
                                              else still / mv if mv > 0 else math.inf)  # fmt: skip
        moves = ", ".join(f"{z0:.3f}->{z:.3f}" for z0, z in zs)
        parts.append(f"{_at(key)} {'left (still)' if s == 'linear' else 'right (grows)'}: "
                     f"{moves}")  # fmt: skip
    tol = Tolerance(1.0, reason=f"left of the W1 line zeta(W1) moves <= {still:.0%}, right of "
                    f"it it grows by more")  # fmt: skip
    if sides != {"linear", "condensed"}:
        return Verdict("failed", f"points on {sorted(sides)} sides only: " + "; ".join(parts),
                       math.inf, tol)  # fmt: skip
    where, worst = worst_item(checks)
    return Verdict.from_error(worst, "; ".join(parts) + f"; worst {worst:.2f} ({where})", tol)


def judge_zeta_map(points: Mapping[Point, pdg.PhasePoint], zetas: Mapping[Point, Zetas],
                   still: bool = True) -> Verdict:  # fmt: skip
    """Figure 8: ``zeta`` of W2 per seed at the grid points.  Where W2 reads condensed it
    at least grows by :data:`ZETA_FACTOR` (units ``ZETA_FACTOR zeta_0/zeta``); where both
    layers read linear it moves by at most :data:`ZETA_STILL` (``still``; units
    ``|zeta/zeta_0 - 1|/ZETA_STILL``), or, with ``still=False``, grows less than at every
    condensed point (units ``max linear growth / min condensed growth``, growth
    ``zeta/zeta_0``).  Both kinds of point must be present."""
    checks: dict[str, float] = {}
    cond, lin, parts = {}, {}, []
    for key, zs in zetas.items():
        p = points[key]
        r = (p.regime("W1"), p.regime("W2"))
        if r[1] == "condensed":
            cond[key] = zs
        elif r == ("linear", "linear"):
            lin[key] = zs
    for key, zs in cond.items():
        for j, (z0, z) in enumerate(zs):
            checks[f"{_at(key)} condensed seed#{j}"] = ZETA_FACTOR * z0 / z if z > 0 else math.inf
    if still:
        for key, zs in lin.items():
            for j, mv in enumerate(_moves(zs)):
                checks[f"{_at(key)} linear seed#{j}"] = abs(mv) / ZETA_STILL
    elif cond and lin:
        top = max(z / z0 for zs in lin.values() for z0, z in zs)
        low = min(z / z0 for zs in cond.values() for z0, z in zs)
        # strictly less: a tie is not "grows less"
        checks["linear growth / condensed growth"] = top / low if top < low else math.inf
    for name, group in (("W2 condensed", cond), ("both linear", lin)):
        parts.append(f"{name}: " + ", ".join(
            f"{_at(k)} " + "/".join(f"{z0:.3f}->{z:.3f}" for z0, z in zs)
            for k, zs in group.items()))  # fmt: skip
    what = f"<= {ZETA_STILL:.0%}" if still else "less than at every condensed point"
    tol = Tolerance(1.0, reason=f"W2 condensed: zeta x >= {ZETA_FACTOR:g}; both linear: zeta "
                    f"moves {what}")  # fmt: skip
    if not cond or not lin:
        return Verdict("failed", "needs W2-condensed and both-linear points: " + "; ".join(parts),
                       math.inf, tol)  # fmt: skip
    where, worst = worst_item(checks)
    return Verdict.from_error(worst, "; ".join(parts) + f"; worst {worst:.2f} ({where})", tol)


# ---------------------------------------------------------------------------
# the claims
# ---------------------------------------------------------------------------
PointFn = Callable[..., pdg.PhasePoint]
ZetaFn = Callable[..., tuple[tuple[float, float], ...]]


def _kw(scale_out: so.ScaleOut | None) -> dict[str, Any]:
    return {} if scale_out is None else {"scale_out": scale_out}


def plane_claims(point: PointFn, zetas: ZetaFn, cond_width: Callable[[bool], int]
                 ) -> list[Theorem]:  # fmt: skip
    """The four claims; ``point(gamma_2, gamma_3, full=, [scale_out=])`` is a measured grid
    point and ``zetas(point, key, full, [scale_out])`` its ``(zeta_0, zeta)`` per seed of
    the condensation runs (``key`` ``"zeta_w1"`` or ``"zeta_w2"``), both from
    ``three_layer``'s one batch; ``cond_width(full)`` their width (for the statements)."""

    def pts(full: bool, scale_out: so.ScaleOut | None) -> dict[Point, pdg.PhasePoint]:
        return {k: point(*k, full=full, **_kw(scale_out)) for k in grid(full)}

    def zs(key: str, full: bool, scale_out: so.ScaleOut | None) -> dict[Point, Zetas]:
        return {k: zetas(k, key, full, scale_out) for k in grid(full)}

    def plane(full: bool = False, scale_out: so.ScaleOut | None = None) -> Verdict:
        return judge_plane(pts(full, scale_out), None if full else CAVEATS)

    def crossings(full: bool = False, scale_out: so.ScaleOut | None = None) -> Verdict:
        return judge_crossings(pts(full, scale_out))

    def w1(full: bool = False, scale_out: so.ScaleOut | None = None) -> Verdict:
        v = judge_w1_condensation(zs("zeta_w1", full, scale_out))
        return Verdict(v.status, f"m = {cond_width(full)}: {v.detail}", v.max_error, v.tolerance)

    def zeta_map(full: bool = False, scale_out: so.ScaleOut | None = None) -> Verdict:
        v = judge_zeta_map(pts(full, scale_out), zs("zeta_w2", full, scale_out), still=full)
        note = "" if full else " (default size: the 5 % stillness is asserted under --full only)"
        return Verdict(v.status, f"m = {cond_width(full)}{note}: {v.detail}", v.max_error,
                       v.tolerance)  # fmt: skip

    def T(name: str, where: str, statement: str, fn: Any) -> Theorem:
        return Theorem(f"three_layer.{name}", f"{three_layer.SEED} {where}", statement,
                       "numeric", fn)  # fmt: skip

    lines = ("critical lines through the paper's stated critical points, W1: gamma_3 = 3/2 + 2 "
             "gamma_2 (Xavier's (0, 3/2)), W2: gamma_3 = 5/2 (Table 2 No. 2's (7/10, 5/2)); the "
             "slopes are the package's reading (linear estimate; W2 flat by eq. (7)), not in "
             "the text")  # fmt: skip
    return [
        T("figure_1_plane", "Figure 1, Sections 5.3-5.3.1",
          f"The {lines}, bound four regions: both linear; W1 condensed / W2 linear; both "
          "condensed; W1 linear / W2 condensed.  On the grid gamma_2 in {0, 1/2, 1} x gamma_3 "
          "in {1, 2, 3} (full: {0, 1/4, ..., 1} x {1, 3/2, ..., 7/2}) every point at least 1/2 "
          "(in gamma_3) from both lines reads its region's regime pair by S_W of eq. (11) with "
          "the band max(0.1, 2 err); each region holds such a point (default size: W2 at (0, 3) "
          "and (1, 2) reads critical, recorded caveats asserted as disagreements).", plane),
        T("figure_5b_crossings", "Figure 5(b), Section 5.3.1 (stars along gamma_2)",
          "Along gamma_2 at each gamma_3 of the same grid, S_W1 and S_W2 cross zero (linear "
          f"interpolation, Figure 5's stars) where the {lines} do: S_W1 once at gamma_2 = "
          "(gamma_3 - 3/2)/2 inside the grid within max(2 err, 0.1/|dS_W1/dgamma_2|) (err "
          "propagated from the slopes), and not at all otherwise; S_W2 nowhere.", crossings),
        T("figure_7_w1_condensation", "Figure 7, Section 5.4",
          "Figure 8's zeta (mean |D(u, v)| over the half of the rows with the largest norm) "
          "of W1's input weights (W1_k, b1_k) moves by at most 5 % in training at every grid "
          "point at least 1/2 below W1's critical line gamma_3 = 3/2 + 2 gamma_2 ('very close' "
          "to the start) and grows by more than 5 % at every one at least 1/2 above it "
          "(condensing), on every seed (m = 64, seeds 0, 1; full: m = 1000, 4 seeds).", w1),
        T("figure_8_zeta_map", "Figure 8, Section 5.4",
          "Over the same grid, zeta of W2 at least doubles in training on every seed at every "
          "point where W2 reads condensed, and where both layers read linear it moves by at "
          "most 5 % (default size: grows less than at every condensed point; the 5 % under "
          "--full) (m = 64, seeds 0, 1; full: m = 1000, 4 seeds).", zeta_map),
    ]  # fmt: skip
