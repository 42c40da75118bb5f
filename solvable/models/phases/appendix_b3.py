"""Appendix B.3 of seed 001 (Xu & Ziyin): the output scales and learning rates of the six
CIFAR-10 models of Section 3.1 / Figure 3, as functions of the width ``d``, checked against
Table 1 (:func:`solvable.models.phases.table.table_1`) and against the text's "the same
for d = 100".

:data:`B3` holds the printed settings (``gamma(d)``, ``eta(d)``); :func:`b3_exponents`
their exponents ``c_gamma = lim log gamma / log d``, ``c_eta`` (``kappa = d``, ``c_d = 1``).
"""

from __future__ import annotations

import sympy as sp

from solvable._core.claims import Verdict, decide
from solvable.models.phases.table import table_1

D = sp.Symbol("d", positive=True)
ETA0 = sp.Rational(1, 20)  # the base learning rate 0.05
B3: dict[str, tuple[sp.Expr, sp.Expr]] = {
    "NTK": (1 / sp.sqrt(D), ETA0),
    "mean field": (10 / D, ETA0 * D / 100),
    "Kaiming-": (sp.Integer(1), ETA0 * D / 100),
    "Kaiming+": (100 / D, ETA0),
    "Xavier+": (sp.Integer(1), ETA0),
    "Xavier-": (D / 100, ETA0 * (100 / D) ** 2),
}
"""Appendix B.3 as printed: model -> (gamma(d), eta(d))."""
B3_CORRECTED = {**B3, "Kaiming-": (sp.Integer(1), ETA0 * 100 / D),
                "Kaiming+": (100 / D, ETA0 * D / 100)}  # fmt: skip
"""Kaiming+- with Table 1's learning-rate exponents (c_eta^- = -1, c_eta^+ = 1)."""
PAIRS = (("NTK", "mean field"), ("Kaiming-", "Kaiming+"), ("Xavier+", "Xavier-"))
CELLS = {"NTK": ("NTK", "c_eta"), "mean field": ("mean field", "c_eta^*"),
         "Kaiming-": ("Kaiming", "(c_eta^-, c_gamma^-)"),
         "Kaiming+": ("Kaiming", "(c_eta^+, c_gamma^+)"),
         "Xavier+": ("Xavier", "(c_eta^+, c_gamma^+)"),
         "Xavier-": ("Xavier", "(c_eta^-, c_gamma^-)")}  # fmt: skip
"""The Table 1 cell each B.3 model is (Section 3.1: "c_gamma and c_eta are chosen according
to Table 1")."""


def _exponent(expr: sp.Expr) -> sp.Expr:
    return sp.limit(sp.log(expr) / sp.log(D), D, sp.oo)


def b3_exponents(settings: dict[str, tuple[sp.Expr, sp.Expr]] = B3) -> dict[str, tuple]:
    """model -> ``(c_gamma, c_eta)`` of ``settings`` (``d = kappa``)."""
    return {m: (_exponent(g), _exponent(e)) for m, (g, e) in settings.items()}


def table_exponents() -> dict[str, tuple]:
    """model -> ``(c_gamma, c_eta)`` of its Table 1 cell (:data:`CELLS`)."""
    cells = {(r["column"], r["block"]): r["scaling"] for r in table_1()}
    return {m: (cells[c].c_gamma, cells[c].c_eta_u) for m, c in CELLS.items()}


def _appendix_b3(settings: dict[str, tuple[sp.Expr, sp.Expr]] | None = None,
                 models: tuple[str, ...] = ("NTK", "mean field", "Xavier+", "Xavier-")
                 ) -> Verdict:  # fmt: skip
    """Each pair of :data:`PAIRS` has the same ``gamma`` and ``eta`` at ``d = 100`` (exact),
    and each of ``models`` has its Table 1 cell's exponents (Kaiming+- only as corrected:
    :func:`solvable.models.phases.errata_checks.errata`)."""
    s = B3 if settings is None else settings
    got, want = b3_exponents(s), table_exponents()
    cases = [(f"{a} = {b} at d = 100", all(sp.simplify((x - y).subs(D, 100)) == 0
                                           for x, y in zip(s[a], s[b], strict=True)))
             for a, b in PAIRS]  # fmt: skip
    cases += [(f"{m}: Table 1 exponents", got[m] == tuple(want[m])) for m in models]
    return decide(cases, "Appendix B.3 against Table 1")


def _kaiming_learning_rates() -> tuple[sp.Expr, sp.Expr]:
    """The erratum's residuals: (printed, corrected) ``sum (c_eta - c_eta of Table 1)^2``
    over Kaiming+-."""
    want = table_exponents()
    res = []
    for settings in (B3, B3_CORRECTED):
        got = b3_exponents(settings)
        res.append(sum((got[m][1] - want[m][1]) ** 2 for m in ("Kaiming-", "Kaiming+")))
    return res[0], res[1]
