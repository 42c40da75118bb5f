"""The Gram matrix ``X^T X`` of exact data, exactly, in seconds for n = d = 1000.

Data given as ints, decimal strings, fractions, floats or ``mpmath.mpf`` are exact
rationals: with one common denominator ``D`` they are an integer matrix ``Z = D X``.  Its
Gram ``Z^T Z`` is computed exactly with float64 matrix products (BLAS) by splitting ``Z``
into limbs of ``b`` bits, ``Z = sum_k Z_k 2^(b k)`` with ``|Z_k| < 2^b``, where ``b`` is small
enough that every product ``Z_k^T Z_l`` has entries below ``n 2^(2b) <= 2^53``: each is then
exact in float64, whatever the order of the sums (Ozaki, Ogita and Oishi's error-free
splitting).  The ``K^2`` products (``K`` limbs) are recombined in Python integers.  This
replaces an ``O(n d^2)`` loop of high-precision products (25 s at n = d = 240, days at
5000) by ``K^2`` BLAS products; data whose integers need too many limbs (entries spread
over thousands of binades) are refused with a ``ValueError`` before any work.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

__all__ = [
    "MAX_WORK",
    "IsotropicProjection",
    "exact_gram",
    "exact_matmul",
    "isotropic_projection",
    "isotropy_defect",
    "span_membership",
    "to_fraction",
]

MAX_WORK = 2 * 10**11
"""The most float64 multiply-adds (``K^2 n d^2``) :func:`exact_gram` starts: about a minute
on one core; n = d = 1000 data of 60-bit integers (3 limbs) is 9e9."""


def to_fraction(value: Any) -> Fraction:
    """An exact rational from an int, float, decimal string, ``Fraction``, numpy scalar or
    ``mpmath.mpf`` (the entries :class:`solvable.models.kunin.Setup` stores)."""
    if isinstance(value, (np.integer, np.floating)):
        value = value.item()
    if isinstance(value, mpmath.mpf):
        man, exp = value.man_exp  # (mpmath 1.3: the magnitude's mantissa, sign dropped)
        mag = Fraction(abs(int(man))) * (Fraction(2) ** int(exp))
        return -mag if value < 0 else mag
    if isinstance(value, str):
        return Fraction(value.strip())
    return Fraction(value)


def _limb_bits(n: int) -> int:
    """``b`` with ``n 2^(2b) <= 2^53``: a limb product summed over ``n`` rows is exact."""
    return max(1, (53 - max(1, math.ceil(math.log2(max(n, 2))))) // 2)


def exact_gram(rows: Sequence[Sequence[Any]], name: str = "X") -> tuple[Any, int]:
    """``(G, D2)`` with ``X^T X = G / D2`` exactly: ``G`` a ``(d, d)`` numpy object array of
    Python ints, ``D2`` a positive int (the square of the common denominator).

    Raises ``ValueError`` naming ``name`` when the work would exceed :data:`MAX_WORK`.
    """
    fracs = [[to_fraction(v) for v in row] for row in rows]
    n, d = len(fracs), len(fracs[0])
    den = math.lcm(*{f.denominator for row in fracs for f in row})
    Z = np.array([[f.numerator * (den // f.denominator) for f in row] for row in fracs],
                 dtype=object)  # fmt: skip
    top = max((abs(int(z)) for z in Z.flat), default=0)
    b = _limb_bits(n)
    limbs = max(1, -(-top.bit_length() // b))
    work = limbs * limbs * n * d * d
    if work > MAX_WORK:
        raise ValueError(
            f"{name}: the exact isotropy check of these {n} x {d} entries needs {limbs} limbs "
            f"of {b} bits ({work:.1e} multiply-adds, above {MAX_WORK:.0e}): the entries span "
            f"{top.bit_length()} bits over one common denominator; rescale {name} or give it "
            f"as float64 within 2^-400 .. 2^400 (checked in float64 arithmetic)"
        )
    sign = np.where(Z < 0, -1, 1).astype(object)
    mag = np.abs(Z)
    mask = (1 << b) - 1
    parts = [((mag >> (b * k)) & mask).astype(np.float64) * sign.astype(np.float64)
             for k in range(limbs)]  # fmt: skip
    G = np.zeros((d, d), dtype=object)
    for k in range(limbs):
        for m in range(k, limbs):
            P = parts[k].T @ parts[m]  # exact: every |entry| < n 2^(2b) <= 2^53
            block = P.astype(np.int64).astype(object)
            if m != k:
                block = block + block.T  # Z_k^T Z_m + Z_m^T Z_k
            G = G + (block << (b * (k + m)) if k + m else block)
    return G, den * den


def isotropy_defect(rows: Sequence[Sequence[Any]], name: str = "X") -> tuple[Fraction, Fraction]:
    """``(s, dev)`` exactly: ``s = tr(X^T X) / d`` and ``dev = max |X^T X - s I|``."""
    G, D2 = exact_gram(rows, name)
    d = G.shape[0]
    trace = sum(int(G[p, p]) for p in range(d))
    # d (X^T X - s I) D2 = d G - trace I: compared as integers, then divided once
    scaled = G * d
    for p in range(d):
        scaled[p, p] = scaled[p, p] - trace
    dev = max(abs(int(v)) for v in scaled.flat)
    return Fraction(trace, d * D2), Fraction(dev, d * D2)


@dataclass(frozen=True)
class IsotropicProjection:
    """Exact data of targets ``y`` (n,) on exactly isotropic inputs ``X^T X = s I``: ``s``,
    ``Xty = X^T y`` (d,) and ``yy = y^T y``, each an exact rational.  Then ``beta* = X^T y /
    s`` and ``min_beta 1/2 |X beta - y|^2 = (yy - |Xty|^2 / s) / 2`` exactly (:attr:`floor`)."""

    s: Fraction
    Xty: tuple[Fraction, ...]
    yy: Fraction

    @property
    def floor(self) -> Fraction:
        """The least loss ``1/2 |y|^2 - 1/2 |X^T y|^2 / s`` (the distance of ``y`` from the
        column space of ``X``, squared and halved), exactly."""
        return (self.yy - sum(v * v for v in self.Xty) / self.s) / 2


def isotropic_projection(rows: Sequence[Sequence[Any]], y: Sequence[Any],
                         name: str = "X") -> IsotropicProjection | None:  # fmt: skip
    """:class:`IsotropicProjection` of data ``rows`` (n, d) and targets ``y`` (n,) when
    ``X^T X = s I`` holds exactly with ``s > 0``, else ``None``: one :func:`exact_gram` of the
    rows with ``y`` appended (``ValueError`` naming ``name`` beyond :data:`MAX_WORK`)."""
    G, D2 = exact_gram([(*row, v) for row, v in zip(rows, y, strict=True)], name)
    d = G.shape[0] - 1
    s = int(G[0, 0])
    if s <= 0 or any(int(G[p, q]) != (s if p == q else 0) for p in range(d) for q in range(d)):
        return None
    return IsotropicProjection(s=Fraction(s, D2), Xty=tuple(Fraction(int(G[p, d]), D2)
                               for p in range(d)), yy=Fraction(int(G[d, d]), D2))  # fmt: skip


def span_membership(rows: Sequence[Sequence[Fraction]],
                    span: Sequence[Sequence[Fraction]]) -> tuple[list[bool], int]:  # fmt: skip
    """For each of ``rows`` (rational vectors), whether it lies exactly in the span of the
    vectors ``span`` (of the same length), and the span's dimension (its exact rank):
    rational Gaussian elimination, each row reduced by an echelon basis of the span."""
    basis: list[tuple[int, list[Fraction]]] = []  # (pivot, row with 1 at the pivot)

    def reduce(v: Sequence[Fraction]) -> list[Fraction]:
        r = list(v)
        for p, b in basis:  # b is 0 at every earlier pivot: no pivot is filled in again
            if r[p]:
                f = r[p]
                r = [x - f * y for x, y in zip(r, b, strict=True)]
        return r

    for v in span:
        r = reduce(v)
        p = next((i for i, x in enumerate(r) if x), None)
        if p is not None:
            basis.append((p, [x / r[p] for x in r]))
    return [not any(reduce(row)) for row in rows], len(basis)


MAX_MATMUL_BITS = 4096
"""The widest integer (bits) :func:`exact_matmul` forms from one matrix's entries; wider
(entries spread over more binades): the mpmath product, each operation rounded."""


def _dyadic(M: np.ndarray) -> tuple[np.ndarray, int] | None:
    """``(Z, e)`` with ``M = Z 2^e`` exactly (``Z`` Python integers) for an object array of
    ``mpf`` and Python floats, or None beyond :data:`MAX_MATMUL_BITS` (or for other entries)."""
    raw = []  # (signed mantissa, exponent, bits)
    for v in M.ravel():
        if type(v) is float:
            man, exp = math.frexp(v)
            raw.append((int(man * 2**53), exp - 53, 53))
        elif isinstance(v, mpmath.mpf):
            sign, man, exp, bits = v._mpf_  # (the mantissa is unsigned)
            raw.append((-int(man) if sign else int(man), exp, bits))
        else:
            return None
    exps = [r[1] for r in raw if r[0]]
    if not exps:
        return np.zeros(M.shape, dtype=object), 0
    e = min(exps)
    if max(r[1] + r[2] for r in raw if r[0]) - e > MAX_MATMUL_BITS:
        return None
    ints = [r[0] << (r[1] - e) if r[0] else 0 for r in raw]
    return np.array(ints, dtype=object).reshape(M.shape), e


def exact_matmul(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``A @ B`` for object arrays of ``mpf`` and Python floats (1-d or 2-d): the exact
    product in Python integers (binary floating-point numbers are integers times a power of
    two), rounded once to the working precision: 10-20 times faster than the mpf products
    for a (100, 100) matrix (and no rounding inside the sums).  Entries spread over more than
    :data:`MAX_MATMUL_BITS` bits, or of another type: the product ``A @ B`` as it is."""
    za, zb = _dyadic(np.asarray(A)), _dyadic(np.asarray(B))
    if za is None or zb is None:
        return A @ B
    Z = za[0] @ zb[0]
    e, prec = za[1] + zb[1], mpmath.mp.prec

    def rounded(z: Any) -> mpmath.mpf:
        return mpmath.mp.make_mpf(mpmath.libmp.from_man_exp(int(z), e, prec, "n"))

    if np.ndim(Z) == 0:
        return rounded(Z)
    return np.array([rounded(z) for z in np.ravel(Z)], dtype=object).reshape(np.shape(Z))
