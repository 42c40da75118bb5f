"""The weight families ``lambda~_j`` of seed 000 (exact sympy records): :class:`Zipf` (eq. (4):
``lambda~_j = j^(-1/alpha) / zeta(1/alpha)``, ``S_m = H_m(1/alpha)/zeta(1/alpha)``) and
:class:`FiniteK` (Section 3.1, example (b): ``1/K`` for ``j <= K``), with their partial sums
``S_m``, ``Q_m`` and ``sum_j lambda~_j^2``; :func:`zipf_symbolic` / :func:`finite_k_symbolic`
hold every ``alpha`` / ``K`` at once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Union

import sympy as sp

from solvable.models.node_scaling._checks import _check_alpha, _check_integer
from solvable.models.node_scaling.symbols import _BZ, _KS

# ---------------------------------------------------------------------------
# weight families
# ---------------------------------------------------------------------------
MAX_EXACT_WIDTH = 1000
"""The largest concrete width ``m`` of the exact (sympy) Zipf partial sums ``S_m``, ``Q_m``:
sympy writes ``H_m(s)`` for a concrete ``m`` as a sum of ``m`` terms (0.5 s at 1000, 11 s at
10^4, never at 10^30); beyond it use the numeric evaluators (:func:`node_scaling_numeric`,
:func:`sum_of_squares_numeric`: the Hurwitz-zeta form, O(1) for any ``m``) or a symbol."""


def _harmonic(m: sp.Expr, s: sp.Expr) -> sp.Expr:
    """``H_m(s)``, exact; a concrete ``m`` beyond :data:`MAX_EXACT_WIDTH` is refused."""
    if m.is_Integer and m > MAX_EXACT_WIDTH:
        raise ValueError(
            f"m must be <= MAX_EXACT_WIDTH = {MAX_EXACT_WIDTH} for the exact Zipf partial sums "
            f"(sympy sums m terms), got m = {m}: use the numeric evaluators "
            f"(node_scaling_numeric, sum_of_squares_numeric: any m) or a symbol"
        )
    return sp.harmonic(m, s)


def _zipf_parts(s: sp.Expr) -> dict[str, Callable[[sp.Expr], sp.Expr]]:
    """Zipf weights with exponent ``s = 1/alpha``: weight, partial sums S_m and Q_m."""
    return {
        "weight": lambda j: j ** (-s) / sp.zeta(s),
        "partial_sum": lambda m: _harmonic(m, s) / sp.zeta(s),
        "partial_sum_squares": lambda m: _harmonic(m, 2 * s) / sp.zeta(s) ** 2,
    }


def _finite_k_parts(K: sp.Expr) -> dict[str, Callable[[sp.Expr], sp.Expr]]:
    """Finite-K weights: weight, partial sums S_m = min(m, K)/K and Q_m = min(m, K)/K^2."""

    def weight(j: sp.Expr) -> sp.Expr:
        inside = sp.Le(j, K)
        if inside in (sp.true, sp.false):
            return 1 / K if inside == sp.true else sp.S.Zero
        return sp.Piecewise((1 / K, inside), (0, True))

    return {
        "weight": weight,
        "partial_sum": lambda m: sp.Min(m, K) / K,
        "partial_sum_squares": lambda m: sp.Min(m, K) / K**2,
    }


class _WeightFamily:
    """What Zipf and finite-K weights share: everything follows from their ``_parts()``
    (closed forms of the weight and of the partial sums)."""

    def _parts(self) -> dict[str, Callable[[sp.Expr], sp.Expr]]:  # pragma: no cover
        raise NotImplementedError

    def weight(self, j: Any) -> sp.Expr:
        """``lambda~_j`` (eq. (4), or ``1/K`` for ``j <= K``; ``Piecewise`` if undecidable)."""
        return self._parts()["weight"](_check_integer("j", j))

    def partial_sum(self, m: Any) -> sp.Expr:
        """``S_m = sum_{k<=m} lambda~_k`` (Zipf: ``H_m(1/alpha)/zeta(1/alpha)``; finite K:
        ``min(m, K)/K``)."""
        return self._parts()["partial_sum"](_check_integer("m", m))

    def partial_sum_squares(self, m: Any) -> sp.Expr:
        """``Q_m = sum_{k<=m} lambda~_k^2`` (Zipf: ``H_m(2/alpha)/zeta(1/alpha)^2``; finite
        K: ``min(m, K)/K^2``)."""
        return self._parts()["partial_sum_squares"](_check_integer("m", m))

    def sum_of_squares(self) -> sp.Expr:
        """``sum_{j>=1} lambda~_j^2`` by ``sympy.summation`` (Zipf: ``zeta(2/alpha)/
        zeta(1/alpha)^2``; finite K: ``1/K``)."""
        return _summed_squares(self)


@dataclass(frozen=True)
class Zipf(_WeightFamily):
    """Zipf weights, eq. (4): ``lambda~_j = j^(-1/alpha) / zeta(1/alpha)``, ``alpha in (0, 1)``.

    ``alpha``: int/Fraction/Rational (exact), float (through ``nsimplify(rational=True)``)
    or a sympy expression provably in (0, 1) (e.g. ``1/(1 + b)``, ``b > 0``).
    """

    alpha: sp.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "alpha", _check_alpha(self.alpha))

    @property
    def s(self) -> sp.Expr:
        """The Zipf exponent ``1/alpha > 1``."""
        return sp.simplify(1 / self.alpha)

    def _parts(self) -> dict[str, Callable[[sp.Expr], sp.Expr]]:
        return _zipf_parts(self.s)

    def large_width(self, n: sp.Expr) -> sp.Expr:
        """A width ``m`` running to infinity with ``n`` (any ``m >= 1`` for Zipf)."""
        return n + 1


@dataclass(frozen=True)
class FiniteK(_WeightFamily):
    """Finite-K weights (Section 3.1): ``lambda~_j = 1/K`` for ``j <= K`` and 0 after.

    ``K``: an int >= 1 or a positive integer sympy symbol.
    """

    K: sp.Expr

    def __post_init__(self) -> None:
        object.__setattr__(self, "K", _check_integer("K", self.K))

    def _parts(self) -> dict[str, Callable[[sp.Expr], sp.Expr]]:
        return _finite_k_parts(self.K)

    def large_width(self, n: sp.Expr) -> sp.Expr:
        """A width ``m >= K`` running to infinity with ``n`` (there ``S_m = 1``)."""
        return self.K + n


Weights = Union[Zipf, FiniteK]  # noqa: UP007 (a runtime alias on 3.10)


def zipf(alpha: Any) -> Zipf:
    """The Zipf weights of eq. (4) (``alpha in (0, 1)``)."""
    return Zipf(alpha)


def finite_k(K: Any) -> FiniteK:
    """The finite-K weights of Section 3.1 (``K >= 1``)."""
    return FiniteK(K)


def zipf_symbolic() -> Zipf:
    """Zipf weights for every ``alpha in (0, 1)`` at once: ``alpha = 1/(1 + b)``, ``b > 0``."""
    return Zipf(1 / (1 + _BZ))


def finite_k_symbolic() -> FiniteK:
    """Finite-K weights for every ``K >= 1`` at once (``K`` a positive integer symbol)."""
    return FiniteK(_KS)


def _check_weights(weights: Any) -> Weights:
    if not isinstance(weights, (Zipf, FiniteK)):
        raise TypeError(f"weights must be a Zipf or FiniteK record, got {weights!r}")
    return weights


@functools.cache
def _summed_squares(weights: Weights) -> sp.Expr:
    k = sp.Symbol("k", positive=True, integer=True)
    if isinstance(weights, FiniteK):
        return sp.summation((1 / weights.K) ** 2, (k, 1, weights.K))
    coefficient, term = (weights._parts()["weight"](k) ** 2).as_independent(k, as_Add=False)
    return coefficient * sp.summation(sp.powsimp(term), (k, 1, sp.oo))
