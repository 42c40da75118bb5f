"""Phase conditions of the two-layer linear network in scaling limits (seed 001, Xu &
Ziyin, Section 3): every hyperparameter is a power of ``kappa -> oo``,

    d ~ kappa^c_d, gamma ~ kappa^c_gamma, sigma_u^2 ~ kappa^c_u, sigma_w^2 ~ kappa^c_w,
    eta_u ~ kappa^c_eta_u, eta_w ~ kappa^c_eta_w      (x, y = Theta(1), d0 fixed),

and the phase is decided by exact (rational) arithmetic on the exponents.

Derivation (Theorem 1): ``1/t_c^2 = D^2 = B^2 + 4 A C = rho^2 (eta_u eta_w gamma^2 y^2
+ 4 rho^2 (gamma^2 d)^2 P Q)``, eq. (27).  Under Gaussian initialisation ``P`` and ``Q``
concentrate at ``(eta_w sigma_u^2 + eta_u sigma_w^2)/4`` (for rho = ||x||, see
:func:`p_q_moments`), so ``P, Q ~ kappa^m`` with ``m = max(c_eta_w + c_u, c_eta_u + c_w)``
and ``1/t_c^2 ~ kappa^max(a, 2 b)`` with the two exponents of eq. (28)

    a = 2 c_gamma + c_eta_u + c_eta_w,      b = 2 c_gamma + c_d + m.

``max(a, 2b)`` has the sign of ``max(a, b)``: ``> 0`` unstable (t_c -> 0), ``< 0``
frozen (t_c -> oo), ``= 0`` learning (eq. (28)).  Then (Theorem 2) the NTK
``K = 2 gamma^2 rho^2 d (P alpha + Q/alpha)`` starts at ``Theta(kappa^b)`` and ends at
``alpha_+ = (B + D)/(2A) -> sqrt(Q/P)`` when ``b > a`` (eq. (30)): the kernel phase needs
``b > a`` and ``P/Q -> 1`` (eq. (29)), which holds (i) for ``c_d > 0`` (law of large
numbers: P and Q have the same mean), (ii) for a zero initial output (``P = Q``
exactly), (iii) for ``c_d = 0`` with ``c_u + c_eta_w != c_w + c_eta_u`` (one of the two
terms of p_i = q_i +- ... dominates).  Otherwise feature learning.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

__all__ = [
    "PHASES",
    "TABLE_1_COLUMNS",
    "Scaling",
    "format_table_1",
    "p_q_moments",
    "table_1",
    "xu_ziyin_phase",
]

Phase = Literal["kernel", "feature learning", "frozen", "unstable"]
PHASES: tuple[str, ...] = ("kernel", "feature learning", "frozen", "unstable")
SEED = "001_070589003213e0cf.txt"


def _exponent(name: str, value: Any) -> sp.Rational:
    """An exact rational exponent from int, Fraction, sympy Rational or float (a float is
    taken at its exact binary value, e.g. 0.5 -> 1/2; 0.1 is not 1/10: pass "1/10" as a
    Fraction)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number, got {value!r}")
    if isinstance(value, sp.Basic):
        if not (value.is_Rational or (value.is_number and value.is_rational)):
            raise ValueError(f"{name} must be a rational number, got {value}")
        return sp.Rational(value)
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, numbers.Integral):
        return sp.Integer(int(value))
    if isinstance(value, numbers.Real):
        f = float(value)
        if f != f or f in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be finite, got {value!r}")
        num, den = f.as_integer_ratio()
        return sp.Rational(num, den)
    raise TypeError(
        f"{name} must be an int, float, fractions.Fraction or sympy Rational, "
        f"got {type(value).__name__}"
    )


@dataclass(frozen=True)
class Scaling:
    """Exponents of ``kappa`` (seed 001, Section 3), exact rationals; ``c_d >= 0`` (the
    width cannot shrink).  ``zero_initial_output``: the initialisation has ``f(x) = 0``
    exactly (case 2 of eq. (29), e.g. lazy training of Chizat et al.)."""

    c_d: Any
    c_gamma: Any
    c_u: Any
    c_w: Any
    c_eta_u: Any
    c_eta_w: Any
    zero_initial_output: bool = False

    def __post_init__(self) -> None:
        for f in fields(self)[:6]:
            object.__setattr__(self, f.name, _exponent(f.name, getattr(self, f.name)))
        if self.c_d < 0:
            raise ValueError(f"c_d must be >= 0 (d ~ kappa^c_d is a width), got {self.c_d}")
        if not isinstance(self.zero_initial_output, bool):
            raise TypeError(f"zero_initial_output must be a bool, got {self.zero_initial_output!r}")

    @property
    def pq_exponent(self) -> sp.Rational:
        """``P, Q ~ kappa^m``, ``m = max(c_eta_w + c_u, c_eta_u + c_w)``."""
        return max(self.c_eta_w + self.c_u, self.c_eta_u + self.c_w)

    @property
    def first_term(self) -> sp.Rational:
        """``a = 2 c_gamma + c_eta_u + c_eta_w`` (eq. (28), from eta_u eta_w gamma^2)."""
        return 2 * self.c_gamma + self.c_eta_u + self.c_eta_w

    @property
    def second_term(self) -> sp.Rational:
        """``b = 2 c_gamma + c_d + m`` (eq. (28), from gamma^2 d sqrt(PQ)); also the
        exponent of the initial NTK."""
        return 2 * self.c_gamma + self.c_d + self.pq_exponent

    @property
    def t_c_exponent(self) -> sp.Rational:
        """``t_c ~ kappa^e`` with ``e = -max(a, 2 b)/2`` (eq. (27))."""
        return -max(self.first_term, 2 * self.second_term) / 2

    @property
    def p_over_q_case(self) -> int | None:
        """Which case of eq. (29) makes ``P/Q -> 1`` (1, 2 or 3), or ``None``."""
        if self.c_d > 0:
            return 1
        if self.zero_initial_output:
            return 2
        if self.c_u + self.c_eta_w != self.c_w + self.c_eta_u:
            return 3
        return None

    @property
    def phase(self) -> Phase:
        """Theorem 2 with eqs. (28)-(30)."""
        e = max(self.first_term, self.second_term)
        if e > 0:
            return "unstable"
        if e < 0:
            return "frozen"
        if self.second_term > self.first_term and self.p_over_q_case is not None:
            return "kernel"
        return "feature learning"


def xu_ziyin_phase(
    c_d: Any, c_gamma: Any, c_u: Any, c_w: Any, c_eta_u: Any, c_eta_w: Any, *,
    zero_initial_output: bool = False,
) -> str:  # fmt: skip
    """The phase of the two-layer linear net (seed 001, Theorem 2 and eqs. (27)-(30)):
    ``"kernel"``, ``"feature learning"``, ``"frozen"`` (t_c -> oo) or ``"unstable"``
    (t_c -> 0).  Exponents may be int, float, ``fractions.Fraction`` or sympy Rational;
    the arithmetic is exact.  See :class:`Scaling` for the derivation."""
    return Scaling(c_d, c_gamma, c_u, c_w, c_eta_u, c_eta_w, zero_initial_output).phase


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
    lines = ["Seed 001 Table 1 (computed from solvable.phases; equal rates c_eta_u = c_eta_w)"]
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


# ---------------------------------------------------------------------------
# P and Q under Gaussian initialisation
# ---------------------------------------------------------------------------
def p_q_moments(rho_convention: str = "norm") -> dict[str, sp.Expr]:
    """Mean and variance of ``P = (1/d) sum_i p_i^2`` (and of Q) for ``u_i ~ N(0,
    sigma_u^2)``, ``W_ij ~ N(0, sigma_w^2)`` i.i.d., with ``p_i, q_i = (sqrt(eta_u) (W x)_i
    / rho +- sqrt(eta_w) u_i)/2`` (eq. (6)).  ``rho_convention``: ``"norm"`` (rho = ||x||,
    this package) or ``"printed"`` (rho^2 = ||x||^2/d0, as printed in eqs. (6)-(7)).

    ``(W x)_i ~ N(0, sigma_w^2 ||x||^2)`` and ``u_i`` are independent Gaussians, so
    ``p_i ~ N(0, s^2)`` with ``s^2 = (eta_w sigma_u^2 + eta_u sigma_w^2 ||x||^2/rho^2)/4``,
    ``E[p_i^4] = 3 s^4`` and, the p_i being i.i.d., ``Var P = 2 s^4 / d``.  Returns the
    sympy expressions (keys ``mean_P``, ``var_P``, ``mean_Q``, ``var_Q``, ``x2``, ``d0``)."""
    from sympy.stats import E, Normal, variance

    if rho_convention not in ("norm", "printed"):
        raise ValueError(f"rho_convention must be 'norm' or 'printed', got {rho_convention!r}")
    pos = {"positive": True}
    eta_u, eta_w, s_u, s_w, x2 = sp.symbols("eta_u eta_w sigma_u sigma_w x2", **pos)
    d = sp.Symbol("d", integer=True, positive=True)
    d0 = sp.Symbol("d0", integer=True, positive=True)
    rho2 = x2 if rho_convention == "norm" else x2 / d0
    u = Normal("u", 0, s_u)
    v = Normal("v", 0, s_w * sp.sqrt(x2))  # (W x)_i
    p = (sp.sqrt(eta_u) * v / sp.sqrt(rho2) + sp.sqrt(eta_w) * u) / 2
    q = (sp.sqrt(eta_u) * v / sp.sqrt(rho2) - sp.sqrt(eta_w) * u) / 2
    out = {"x2": x2, "d0": d0, "d": d, "eta_u": eta_u, "eta_w": eta_w, "sigma_u": s_u,
           "sigma_w": s_w}  # fmt: skip
    for name, z in (("P", p), ("Q", q)):
        out[f"mean_{name}"] = sp.simplify(E(z**2))
        out[f"var_{name}"] = sp.simplify(variance(z**2) / d)  # i.i.d. over i
    return out
