"""The exponents of seed 001, Section 3 (Xu & Ziyin): every hyperparameter a power of
``kappa -> oo``, the exponents ``m``, ``a``, ``b``, ``t_c``, ``f0`` of eqs. (27)-(28)
(:func:`exponents`), exact rational :class:`Scaling` and its phase by Theorem 2 with eqs.
(28)-(30) (:func:`xu_ziyin_phase`)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

Phase = Literal["kernel", "feature learning", "frozen", "unstable"]
PHASES: tuple[str, ...] = ("kernel", "feature learning", "frozen", "unstable")
SEED = "001_070589003213e0cf.txt"

EXPONENT_NAMES = ("c_d", "c_gamma", "c_u", "c_w", "c_eta_u", "c_eta_w")
EXPONENT_SYMBOLS: tuple[sp.Symbol, ...] = sp.symbols(EXPONENT_NAMES, real=True)


def exponents() -> dict[str, sp.Expr]:
    """The exponents of eqs. (27)-(28) as sympy expressions in :data:`EXPONENT_SYMBOLS`
    (the one definition: :class:`Scaling` evaluates them, the claims prove them from
    :func:`solvable.models.xu_ziyin.symbolic`'s coefficients and :func:`p_q_moments`):
    ``m = max(c_eta_w + c_u, c_eta_u + c_w)`` (P, Q ~ kappa^m), ``a = 2 c_gamma + c_eta_u +
    c_eta_w`` (B^2 ~ kappa^a), ``b = 2 c_gamma + c_d + m`` (4AC ~ kappa^(2b); the initial
    NTK ~ kappa^b), ``t_c = -max(a, 2 b)/2`` (t_c ~ kappa^t_c) and ``f0 = c_gamma + (c_d +
    c_u + c_w)/2`` (the initial output ``gamma u^T W x`` has r.m.s. ~ kappa^f0 under i.i.d.
    Gaussian initialisation; claim ``phases.output_exponent``)."""
    c_d, c_gamma, c_u, c_w, c_eta_u, c_eta_w = EXPONENT_SYMBOLS
    m = sp.Max(c_eta_w + c_u, c_eta_u + c_w)
    a = 2 * c_gamma + c_eta_u + c_eta_w
    b = 2 * c_gamma + c_d + m
    f0 = c_gamma + (c_d + c_u + c_w) / 2
    return {"m": m, "a": a, "b": b, "t_c": -sp.Max(a, 2 * b) / 2, "f0": f0}


_EXPONENTS = exponents()


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

    def exponent(self, name: str) -> sp.Rational:
        """``exponents()[name]`` (``"m"``, ``"a"``, ``"b"``, ``"t_c"`` or ``"f0"``) at these
        exponents, exactly."""
        values = dict(zip(EXPONENT_SYMBOLS, (getattr(self, k) for k in EXPONENT_NAMES),
                          strict=True))  # fmt: skip
        return sp.Rational(_EXPONENTS[name].xreplace(values))

    @property
    def pq_exponent(self) -> sp.Rational:
        """``P, Q ~ kappa^m``, ``m = max(c_eta_w + c_u, c_eta_u + c_w)``."""
        return self.exponent("m")

    @property
    def first_term(self) -> sp.Rational:
        """``a = 2 c_gamma + c_eta_u + c_eta_w`` (eq. (28), from eta_u eta_w gamma^2)."""
        return self.exponent("a")

    @property
    def second_term(self) -> sp.Rational:
        """``b = 2 c_gamma + c_d + m`` (eq. (28), from gamma^2 d sqrt(PQ)); also the
        exponent of the initial NTK."""
        return self.exponent("b")

    @property
    def t_c_exponent(self) -> sp.Rational:
        """``t_c ~ kappa^e`` with ``e = -max(a, 2 b)/2`` (eq. (27))."""
        return self.exponent("t_c")

    @property
    def output_exponent(self) -> sp.Expr:
        """The initial output ``f_0 = gamma u^T W x`` is ``Theta(kappa^e)`` (its r.m.s. under
        i.i.d. Gaussian initialisation), ``e = c_gamma + (c_d + c_u + c_w)/2``; ``-oo`` for a
        zero initial output (``zero_initial_output``)."""
        return sp.S.NegativeInfinity if self.zero_initial_output else self.exponent("f0")

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
