"""Table 1 of seed 001: its columns (the paper's scalings, :data:`TABLE_1_COLUMNS`), the
phases computed cell by cell (:func:`table_1`) and as text (:func:`format_table_1`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from solvable.models.phases.scaling import Scaling


# ---------------------------------------------------------------------------
# Table 1
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Column:
    """One column of Table 1: the initialisation (c_d, c_gamma, c_u, c_w) and the four
    choices of learning-rate (and output-scale) exponents, equal for both layers."""

    name: str
    c_d: Any
    c_gamma: Any
    c_u: Any
    c_w: Any
    c_eta: Any  # first block
    c_eta_star: Any  # second block
    plus: tuple[Any, Any]  # (c_eta^+, c_gamma^+)
    minus: tuple[Any, Any]  # (c_eta^-, c_gamma^-)
    zero_initial_output: bool = False
    printed: tuple[str, str, str, str] = ("", "", "", "")  # the paper's phases, as printed


_R = sp.Rational
# The scalings are the paper's data (Table 1); the phases are computed, and the printed
# ones kept only to compare.  The lazy column (Chizat et al.) starts from a zero output.
TABLE_1_COLUMNS: tuple[Column, ...] = (
    Column("NTK", 1, _R(-1, 2), 0, 0, 0, 0, (1, -1), (0, _R(-1, 2)),
           printed=("kernel", "kernel", "learning", "kernel")),
    Column("mean field", 1, -1, 0, 0, 0, 1, (1, -1), (0, _R(-1, 2)),
           printed=("frozen", "learning", "learning", "kernel")),
    Column("Xavier", 1, 0, -1, -1, 0, 0, (0, 0), (-2, 1),
           printed=("learning", "learning", "learning", "kernel")),
    Column("Kaiming", 1, 0, 0, -1, 0, -1, (1, -1), (-1, 0),
           printed=("unstable", "kernel", "learning", "kernel")),
    Column("lazy", 0, 1, 0, 0, 0, -2, (0, 0), (-2, 1), zero_initial_output=True,
           printed=("unstable", "kernel", "learning", "kernel")),
)  # fmt: skip

BLOCKS = ("c_eta", "c_eta^*", "(c_eta^+, c_gamma^+)", "(c_eta^-, c_gamma^-)")


def table_1() -> list[dict[str, Any]]:
    """Table 1 of seed 001 computed cell by cell: for each column and block, the
    :class:`Scaling` and its phase (and the printed phase, for comparison)."""
    rows = []
    for col in TABLE_1_COLUMNS:
        choices = [
            (col.c_eta, col.c_gamma),
            (col.c_eta_star, col.c_gamma),
            (col.plus[0], col.plus[1]),
            (col.minus[0], col.minus[1]),
        ]
        for block, (c_eta, c_gamma), printed in zip(BLOCKS, choices, col.printed, strict=True):
            s = Scaling(col.c_d, c_gamma, col.c_u, col.c_w, c_eta, c_eta, col.zero_initial_output)
            rows.append({"column": col.name, "block": block, "scaling": s, "phase": s.phase,
                         "printed": printed})  # fmt: skip
    return rows


def _short(phase: str) -> str:
    return "learning" if phase == "feature learning" else phase


def format_table_1() -> str:
    """Table 1 of seed 001 as text, computed (``!`` marks a cell that differs from print)."""
    rows = table_1()
    names = [c.name for c in TABLE_1_COLUMNS]
    by = {(r["column"], r["block"]): r for r in rows}
    width = 14
    lines = [
        "Seed 001 Table 1 (computed from solvable.models.phases; equal rates c_eta_u = c_eta_w)"
    ]
    lines.append("".ljust(22) + "".join(n.ljust(width) for n in names))
    for key in ("c_d", "c_gamma", "c_u", "c_w"):
        vals = [str(getattr(by[(n, BLOCKS[0])]["scaling"], key)) for n in names]
        lines.append(key.ljust(22) + "".join(v.ljust(width) for v in vals))
    for block in BLOCKS:
        sc = [by[(n, block)]["scaling"] for n in names]
        lines.append(f"{block}".ljust(22) + "".join(
            (f"{s.c_eta_u}" if "gamma" not in block else f"{s.c_eta_u}, {s.c_gamma}").ljust(width)
            for s in sc))  # fmt: skip
        cells = []
        for n in names:
            r = by[(n, block)]
            mark = "" if _short(r["phase"]) == r["printed"] else "!"
            cells.append((_short(r["phase"]) + mark).ljust(width))
        lines.append("  phase".ljust(22) + "".join(cells))
    return "\n".join(lines)
