"""Seed 004, Section 5.3.1: the regime of a layer (linear / critical / condensed) from
the slope ``S_W = lim log RD(W)/log m`` of eq. (11), and the points of the
``(gamma_2, gamma_3)`` plane where the paper states a regime (data)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from solvable.models.three_layer.coordinates import _describe, _number


# ---------------------------------------------------------------------------
# Section 5.3.1: regime of a layer from the slope S_W of eq. (11)
# ---------------------------------------------------------------------------
def regime_from_slope(slope: Any, band: Any = 0) -> Literal["linear", "critical", "condensed"]:
    """Regime of a layer from ``S_W = lim log RD(W)/log m`` (eq. (11)): ``S_W < 0``
    (RD -> 0) linear, ``S_W = 0`` (RD ~ O(1)) critical, ``S_W > 0`` (RD -> oo) condensed
    (Section 5.3.1 and the abstract).  The paper gives no closed-form boundary in the
    (gamma_2, gamma_3) plane, so none is implemented.

    ``band >= 0``: a slope measured at finite widths is read as critical when
    ``|S_W| <= band`` (``band = 0``: the paper's sign criterion; the paper's own three
    parametrisations of one point differ by up to 0.025 in Table 2)."""
    s = _number("slope", slope)
    b = _number("band", band)
    if b < 0:
        raise ValueError(f"band must be >= 0, got {_describe(band)}")
    return "linear" if s < -b else "condensed" if s > b else "critical"


# (gamma_2, gamma_3) -> (regime of W1, regime of W2, where the paper says so): data, the
# points where the text states a regime or prints the slopes (it prints no boundary curves;
# Figure 5's stars and dashed lines are not in the text).  "n/s": not stated.
PAPER_POINTS: dict[tuple[Fraction, Fraction], tuple[str, str, str]] = {
    (Fraction(0), Fraction(11, 10)): (
        "linear", "linear", "Table 2 No.1: S_W1=-0.41, S_W2=-0.93"),
    (Fraction(0), Fraction(3, 2)): (
        "critical", "n/s", "Xavier (Table 1); Fig.2/Sec.5.2: g3=1.5 intermediate"),
    (Fraction(0), Fraction(21, 10)): (
        "condensed", "n/s", "Fig.2: g3=2.0 condensed; Fig.4(c) slope grows"),
    (Fraction(7, 10), Fraction(5, 2)): (
        "linear", "critical", "Table 2 No.2: S_W1=-0.32, S_W2=0.026"),
    (Fraction(1, 2), Fraction(14, 5)): (
        "n/s", "condensed", "Fig.3: g3=2.8 strong condensation of W2"),
}  # fmt: skip
