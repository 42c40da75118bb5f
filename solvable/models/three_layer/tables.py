"""Seed 004, Tables 1 and 2: :class:`InitScheme` (the scalings ``alpha``, ``beta_3``,
``beta_2``, ``beta_1`` of one row), Table 1's NTK, LeCun, He and Xavier initialisations,
Table 2's two groups of three scalings sharing ``(gamma_2, gamma_3)``, the paper's printed
cells (data, never used to compute anything) and Table 1 recomputed by eqs. (8)-(9)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from solvable.models.three_layer.coordinates import (
    M1,
    M2,
    D,
    M,
    _describe,
    _scale,
    gamma_coordinates,
    kappas,
)


# ---------------------------------------------------------------------------
# Table 1 (and the scalings of Table 2)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class InitScheme:
    """One row's scalings: ``alpha`` and the standard deviations ``beta_3`` (of ``a``),
    ``beta_2`` (of ``W2``), ``beta_1`` (of ``W1``), as expressions in m_1, m_2, d (or m)."""

    name: str
    alpha: sp.Expr
    beta_3: sp.Expr
    beta_2: sp.Expr
    beta_1: sp.Expr

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty str, got {_describe(self.name)}")
        for field in ("alpha", "beta_3", "beta_2", "beta_1"):
            object.__setattr__(self, field, _scale(field, getattr(self, field)))

    @property
    def kappas(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        return tuple(
            sp.simplify(k) for k in kappas(self.alpha, self.beta_1, self.beta_2, self.beta_3)
        )

    @property
    def gammas(self) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
        return gamma_coordinates(self.alpha, self.beta_1, self.beta_2, self.beta_3)


_r = sp.Rational
INITIALISATIONS: tuple[InitScheme, ...] = (
    # Table 1, columns alpha, a, W2, W1 (the schemes' definitions, Section 3 and refs.)
    InitScheme("NTK", sp.sqrt(M1 * M2), sp.Integer(1), sp.Integer(1), sp.Integer(1)),
    InitScheme("LeCun", sp.Integer(1), sp.sqrt(1 / M2), sp.sqrt(1 / M1), sp.sqrt(1 / D)),
    InitScheme("He", sp.Integer(1), sp.sqrt(2 / M2), sp.sqrt(2 / M1), sp.sqrt(2 / D)),
    InitScheme(
        "Xavier",
        sp.Integer(1),
        sp.sqrt(2 / (M2 + 1)),
        sp.sqrt(2 / (M1 + M2)),
        sp.sqrt(2 / (D + M1)),
    ),
)

TABLE_2: tuple[InitScheme, ...] = (
    # Table 2 (Section 5.3.1): two groups of three scalings sharing (gamma_2, gamma_3)
    InitScheme("No. 1a", M ** _r(-1, 2), M ** _r(-8, 15), M ** _r(-8, 15), M ** _r(-8, 15)),
    InitScheme("No. 1b", sp.Integer(1), M ** _r(-11, 30), M ** _r(-11, 30), M ** _r(-11, 30)),
    InitScheme("No. 1c", M ** _r(1, 2), M ** _r(-1, 5), M ** _r(-1, 5), M ** _r(-1, 5)),
    InitScheme("No. 2a", M ** _r(-3, 10), M ** _r(-7, 6), M ** _r(-7, 6), M ** _r(-7, 15)),
    InitScheme("No. 2b", sp.Integer(1), M ** _r(-16, 15), M ** _r(-16, 15), M ** _r(-11, 30)),
    InitScheme("No. 2c", M ** _r(3, 10), M ** _r(-29, 30), M ** _r(-29, 30), M ** _r(-4, 15)),
)

# The paper's printed cells (Table 1: kappa_2, kappa_3, gamma_2, gamma_3; Table 2: gamma_2,
# gamma_3), data to compare with, never used to compute anything.
_PRINTED_TABLE_1: dict[str, tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]] = {
    "NTK": (sp.Integer(1), sp.sqrt(1 / (M1 * M2)), sp.Integer(0), sp.Integer(1)),
    "LeCun": (sp.sqrt(D / M2), sp.sqrt(1 / (M1 * M2 * D)), _r(1, 2), sp.Integer(1)),
    "He": (sp.sqrt(D / M2), sp.sqrt(8 / (M1 * M2 * D)), _r(1, 2), sp.Integer(1)),
    "Xavier": (
        sp.sqrt((D + M1) / (M2 + 1)),
        sp.sqrt((8 / (M1 + M2)) / ((M2 + 1) * (D + M1))),
        sp.Integer(0),
        _r(3, 2),
    ),
}
_PRINTED_TABLE_2 = {"No. 1": (sp.Integer(0), _r(11, 10)), "No. 2": (_r(7, 10), _r(5, 2))}


def table_1() -> list[dict[str, Any]]:
    """Table 1 recomputed: per initialisation its scalings (inputs) and ``kappa_1..3``
    (eq. (8), in m_1, m_2, d) and ``gamma_1..3`` (eq. (9), m_1 = m_2 = m), sympy values."""
    return [dict(row) for row in _table_1()]


@functools.cache
def _table_1() -> tuple[dict[str, Any], ...]:
    rows = []
    for init in INITIALISATIONS:
        k1, k2, k3 = init.kappas
        g1, g2, g3 = init.gammas
        rows.append({
            "name": init.name, "alpha": init.alpha, "beta_3": init.beta_3,
            "beta_2": init.beta_2, "beta_1": init.beta_1, "kappa_1": k1, "kappa_2": k2,
            "kappa_3": k3, "gamma_1": g1, "gamma_2": g2, "gamma_3": g3,
        })  # fmt: skip
    return tuple(rows)


def format_table_1() -> str:
    """Table 1 as plain text (for ``solvable phases``)."""
    cols = [("name", "name"), ("alpha", "alpha"), ("a: beta_3", "beta_3"),
            ("W2: beta_2", "beta_2"), ("W1: beta_1", "beta_1"), ("kappa_2", "kappa_2"),
            ("kappa_3", "kappa_3"), ("gamma_2", "gamma_2"), ("gamma_3", "gamma_3")]  # fmt: skip
    rows = [[str(r[key]) for _, key in cols] for r in table_1()]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, (h, _) in enumerate(cols)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    head = [
        "Table 1 (seed 004): kappa_i of eq. (8); gamma_i = lim -log(kappa_i)/log(m), "
        "m_1 = m_2 = m, d fixed (eq. (9))",
        line([h for h, _ in cols]),
        line(["-" * w for w in widths]),
    ]
    return "\n".join(head + [line(r) for r in rows])
