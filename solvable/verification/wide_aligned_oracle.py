"""The confirmation ``kunin.wide_aligned_oracle`` (seed 003, Part II on inputs that are not
whitened; issue 31, item 3a; registered by :mod:`solvable.verification.confirmations.kunin`):
``wide_closed_form``'s aligned branch (:mod:`solvable.models.kunin.wide_aligned`) against the
raw flow of the original data (:func:`~solvable.verification.wide_compare.wide_compare`, 30
digits), over :func:`wide_aligned_cases`.

Data (n = d = 4): ``a = (1, 1, 1, 1)``, ``b = (1, -1, 1, -1)`` span the range ``E`` and ``k1 =
(1, 1, -1, -1)``, ``k2 = (1, -1, -1, 1)`` the rest (orthogonal, each of norm 2, off every axis).
``X = [a; b; 0; 0]``: ``X^T X = 4 P`` (rank 2, ``ker X = span(k1, k2)``; the last two target
rows are outside the range of X).  ``X = [a; b; 2 k1; 0]``: eigenvalues 4 (on ``E``), 16 (on
``k1``) and 0 (on ``k2``), targets with a zero third row (``X^T Y`` in ``E``).  Decoupled
``h = 2`` starts: ``Y`` with ``X^T Y / 4 = [a y_0 / 4, b y_1 / 4]`` (singular vectors ``a/2``,
``b/2``), hidden unit ``i`` on mode ``i`` (``A_i = alpha_i e_i``, ``W_E,i = w_i u_i``) and ``W_N
= m [k1/2; k2/2]`` (``W_N W_N^T = m^2 I``): ``Delta_E = delta_E I`` exactly with Pythagorean
pairs (rates ``eta_a = 2``, ``eta_w = 1/2``: ``0.5 alpha^2 - 2 w^2``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction as Fr
from typing import Any

from solvable._core.claims import Verdict
from solvable.models import kunin
from solvable.verification.wide_compare import wide_compare

_A, _B = (1, 1, 1, 1), (1, -1, 1, -1)
_K1, _K2 = (1, 1, -1, -1), (1, -1, -1, 1)
_ZERO = (0, 0, 0, 0)
RANK2 = (_A, _B, _ZERO, _ZERO)  # X^T X = 4 P
THREE_EIGS = (_A, _B, tuple(2 * v for v in _K1), _ZERO)  # eigenvalues 4, 16, 0


def _comb(*terms: tuple[Any, tuple[int, ...]]) -> tuple[Fr, ...]:
    """``sum_k c_k v_k`` of ``(c_k, v_k)`` pairs, exactly."""
    return tuple(sum((Fr(c) * v[j] for c, v in terms), Fr(0)) for j in range(4))


Rows = tuple[tuple[Fr, ...], ...]


def _decoupled(pairs: tuple[tuple[str, str], tuple[str, str]], m: str) -> tuple[Rows, Rows]:
    """The h = 2 start with unit ``i`` on mode ``i``: ``(alpha_i, w_i)`` pairs, ``W_N = m [k1/2;
    k2/2]``."""
    A = ((Fr(pairs[0][0]), Fr(0)), (Fr(0), Fr(pairs[1][0])))
    half = Fr(1, 2)
    W = (_comb((Fr(pairs[0][1]) * half, _A), (Fr(m) * half, _K1)),
         _comb((Fr(pairs[1][1]) * half, _B), (Fr(m) * half, _K2)))  # fmt: skip
    return A, W


def wide_aligned_cases(dps: int) -> list[tuple[str, kunin.WideSetup, tuple[Any, Any]]]:
    """``(name, setup, (A0, W0))``: rank-deficient X with h = 1, 2, 3 and a three-eigenvalue
    X, delta > 0, < 0 and = 0, kernel parts ``W_N != 0`` where the balance allows them (the
    ``wide_start`` ones at ``dps + 20`` digits)."""
    y2 = (("0.6", "-0.2"), ("0.3", "0.5"), ("0.4", "0.1"), ("-0.2", "0.3"))
    y_dec = (("1.2", "0"), ("0", "0.8"), ("0.4", "0.1"), ("-0.2", "0.3"))
    y3 = (("0.6", "-0.2", "0.5"), ("0.3", "0.5", "-0.4"), ("0", "0", "0"),
          ("0.2", "0.1", "0.3"))  # fmt: skip
    p2 = kunin.WideSetup("1", "0.5", RANK2, y2)
    dec = kunin.WideSetup("2", "0.5", RANK2, y_dec)
    three = kunin.WideSetup("2", "0.5", THREE_EIGS, y3)
    # h = 3 on the three-eigenvalue data: W_E = M [a/2; b/2] (rank 2), W_N = 0
    M = ((Fr(1, 2), Fr(1, 4)), (Fr(-1, 4), Fr(1, 2)), (Fr(1, 4), Fr(1, 4)))
    WE3 = tuple(_comb((r[0] / 2, _A), (r[1] / 2, _B)) for r in M)
    A3 = tuple((2 * r[0], 2 * r[1], Fr(0)) for r in M)  # 0.5 A A^T = 2 W_E W_E^T: delta = 0
    h1_up = ((("1.2", "0.4"),), (_comb(("0.2", _A), ("-0.1", _B), ("0.15", _K1)),))
    h1_down = ((("0.1", "-0.05"),), (_comb(("-0.1", _A), ("0.2", _B), ("0.1", _K2)),))
    wide = kunin.wide_start(dec, "0.6", W=(_comb(("0.2", _A), ("-0.1", _B)),
                                           _comb(("0.05", _A), ("0.15", _B))),
                            dps=dps + 20)  # fmt: skip
    return [
        ("rank 2, h = 1, delta > 0, W_N != 0", p2, h1_up),
        ("rank 2, h = 1, delta < 0, W_N != 0", p2, h1_down),
        ("rank 2, h = 2 decoupled, delta_E > 0, W_N != 0", dec,
         _decoupled((("5/2", "3/4"), ("13/6", "5/12")), "0.3")),
        ("rank 2, h = 2 decoupled, delta_E < 0, W_N != 0", dec,
         _decoupled((("3/2", "5/4"), ("5/6", "13/12")), "0.2")),
        ("rank 2, h = 2 decoupled, delta_E = 0, W_N != 0", dec,
         _decoupled((("1", "1/2"), ("3/2", "3/4")), "0.25")),
        ("rank 2, h = 2 (A, W not determined), delta > 0, W_N = 0", dec, wide),
        ("eigenvalues 4, 16, 0, h = 3, delta = 0, W_N = 0", three, (A3, WE3)),
        ("eigenvalues 4, 16, 0, h = 3, delta > 0, W_N = 0", three,
         kunin.wide_start(three, "0.3", W=WE3, dps=dps + 20)),
    ]  # fmt: skip


def wide_aligned_oracle(dps: int = 30, cases: Sequence[str] | None = None) -> Verdict:
    """:func:`~solvable.verification.wide_compare.wide_compare` over
    :func:`wide_aligned_cases` (``cases``: only those names), each start checked to take the
    aligned branch: beta, the outputs, the loss, ``A^T A``, ``W^T W``, the NTK and (where
    returned) ``A``, ``W`` at dps - 5 digits."""
    chosen = [c for c in wide_aligned_cases(dps) if cases is None or c[0] in cases]
    if not chosen:
        raise ValueError(f"no wide aligned case named in {cases!r}")
    for name, setup, (A0, W0) in chosen:
        if not isinstance(kunin.wide_closed_form(setup, A0, W0), kunin.AlignedWideTrajectory):
            return Verdict("failed", f"{name}: wide_closed_form took the whitened path")
    return wide_compare(chosen, dps)
