"""Seed 002, eqs. (2.3) and (2.28), Exercise 1: the initial law of the two-layer
network (:class:`Initialisation`: ``E[a^2]`` and ``w ~ N(0, s^2 I_d)``), the lecture's and
the exercise's records and the generic one, and the checks of a kernel name, a record and
the inputs' dimension."""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.numbers import check_int as _check_int
from solvable.models.kernels.symbols import A2, A_LAWS, S2, check_kernel_name


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _exact_positive(name: str, value: Any) -> sp.Expr:
    """An exact positive sympy number or a provably positive expression (floats through
    ``nsimplify(rational=True)``: 0.1 -> 1/10; strings as exact decimals)."""
    if isinstance(value, bool) or not isinstance(
        value, (numbers.Real, Fraction, sp.Expr, np.integer, np.floating, str)
    ):
        raise TypeError(f"{name} must be a positive real number or sympy expression, got {value!r}")
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    if isinstance(value, str):
        try:
            expr = sp.Rational(value.strip())
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a decimal number > 0, got {value!r}") from None
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{name} must be finite and > 0, got {value!r}")
        expr = sp.nsimplify(value, rational=True)
    elif isinstance(value, Fraction):
        expr = sp.Rational(value.numerator, value.denominator)
    else:
        expr = sp.sympify(value, strict=True)
    if expr.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or expr.is_positive is not True:
        raise ValueError(f"{name} must be finite and > 0 (provably, if symbolic), got {value!r}")
    return expr


def _check_name(name: Any) -> str:
    return check_kernel_name("name", name)


@dataclass(frozen=True)
class Initialisation:
    """Initial law of the two-layer network (2.3): ``a_j`` i.i.d. with second moment
    ``a_second_moment = E[a^2] > 0`` (law ``a_law``: ``"uniform"`` on ``[-c, c]``,
    ``"rademacher"`` on ``{-c, c}`` or ``"gaussian"``, scaled to that moment; the kernels
    depend on ``E[a^2]`` only), independent of ``w_j ~ N(0, w_variance I_d)``.

    Numbers are stored exactly (int, Fraction, exact-decimal str, float via
    ``nsimplify(rational=True)``, or a provably positive sympy expression).  ``d``: the input
    dimension the record is made for (``None``: any; :func:`lecture_initialisation` records
    its ``d`` because ``s^2 = 1/d`` is only the lecture's law in that dimension), checked by
    :func:`gram`, :func:`gram_torch` and :func:`kernel_of_vectors`."""

    a_second_moment: Any
    w_variance: Any
    a_law: str = "uniform"
    label: str = ""
    d: int | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "a_second_moment", _exact_positive("a_second_moment", self.a_second_moment))
        set_(self, "w_variance", _exact_positive("w_variance", self.w_variance))
        if self.a_law not in A_LAWS:
            raise ValueError(f"a_law must be one of {A_LAWS}, got {self.a_law!r}")
        if not isinstance(self.label, str):
            raise TypeError(f"label must be a str, got {self.label!r}")
        if self.d is not None:
            set_(self, "d", _check_int("d", self.d))

    @property
    def is_numeric(self) -> bool:
        """True when both moments are numbers (no free symbols)."""
        return not (self.a_second_moment.free_symbols or self.w_variance.free_symbols)

    def floats(self) -> tuple[float, float]:
        """``(E[a^2], s^2)`` as floats (a ``ValueError`` for a symbolic record)."""
        if not self.is_numeric:
            raise ValueError(f"init must have numeric moments here, got {self!r}")
        return float(self.a_second_moment), float(self.w_variance)


def lecture_initialisation(d: Any) -> Initialisation:
    """Eq. (2.28): ``a_j ~ Unif([-1, 1])`` (``E[a^2] = 1/3``), ``w_j ~ N(0, I_d/d)``
    (``s^2 = 1/d``); ``d`` an int >= 1 or a positive integer sympy symbol."""
    if isinstance(d, sp.Symbol):
        if not (d.is_integer and d.is_positive):
            raise ValueError(f"d must be a positive integer symbol, got {d!r}")
    elif isinstance(d, bool) or not isinstance(d, (numbers.Integral, sp.Integer)):
        raise TypeError(f"d must be an int >= 1, got {type(d).__name__} {d!r}")
    elif int(d) < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    d = d if isinstance(d, sp.Symbol) else sp.Integer(int(d))
    return Initialisation(
        sp.Rational(1, 3),
        1 / d,
        "uniform",
        f"eq. (2.28): a ~ Unif[-1, 1], w ~ N(0, I_d/{d})",
        None if isinstance(d, sp.Symbol) else int(d),
    )


def exercise_initialisation() -> Initialisation:
    """Exercise 1: ``a_j ~ Unif({-1, 1})`` (``E[a^2] = 1``), ``w ~ N(0, I_d)`` (``s^2 = 1``)."""
    return Initialisation(1, 1, "rademacher", "Exercise 1: a ~ Unif{-1, 1}, w ~ N(0, I_d)")


def generic_initialisation() -> Initialisation:
    """Every initialisation at once: ``E[a^2] = A2``, ``s^2 = S2`` (positive symbols)."""
    return Initialisation(A2, S2, "uniform", "generic")


def _check_init(init: Any) -> Initialisation:
    if init is None:
        return generic_initialisation()
    if not isinstance(init, Initialisation):
        raise TypeError(f"init must be an Initialisation record or None, got {init!r}")
    return init


def _check_dimension(name: str, d: int, init: Initialisation) -> None:
    """The inputs' dimension ``d`` against the one ``init`` is made for (if it records one)."""
    if init.d is not None and d != init.d:
        raise ValueError(
            f"{name} must have d = {init.d} columns (the input dimension of init "
            f"{init.label or init!r}), got {d}"
        )
