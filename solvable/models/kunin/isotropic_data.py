"""Seed 003 (Kunin et al.), the condition of the exact solutions: isotropic inputs, ``X^T X = s
I`` (whitened data: ``s = 1``).  :func:`isotropy` measures ``s`` and the defect exactly,
:func:`whitening_rtol` is the defect that float64 whitening leaves, and :func:`_isotropic_s`
decides (in float64 with rigorous error bounds where it can, issue 17: :func:`_isotropy_f64`
and the compensated sum of squares :func:`_sum_of_squares`; else the exact reference).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.exact_gram import isotropy_defect
from solvable._core.numbers import Number
from solvable.models.kunin.setups import PiecewiseLinearSetup, Setup, WideSetup, _float64_X

# Whitening in float64 leaves X^T X = s (I + E) with |E_pq| up to about n eps (a dot product
# of n terms carries gamma_n ~ n eps of s; rounding the entries alone gives <= 2 eps s by
# Cauchy-Schwarz) times the condition number of the data whitened (ZCA divides by its
# eigenvalues).  Measured (numpy QR and ZCA, n = 3..2000, d = 2..20, 30 draws each): QR
# <= 0.7 n eps, ZCA of data of condition number k <= 0.7 n k eps; 4 leaves a factor >= 5.
WHITENING_C = 4


def whitening_rtol(n: int, condition: Number = 1) -> float:
    """The relative isotropy defect ``max|X^T X - s I| / s`` that float64 whitening
    leaves in ``n`` rows of data of condition number ``condition``:
    ``WHITENING_C * n * condition * eps`` (the default ``isotropy_rtol`` of
    :func:`closed_form` for float inputs, with ``condition = 1``)."""
    n = nb.check_int("n", n)
    cond = nb.to_float(nb.check_number("condition", condition, positive=True), "condition")
    if cond < 1:
        raise ValueError(f"condition must be >= 1, got {nb.describe(condition)}")
    eps = float(np.finfo(float).eps)
    try:
        rtol = WHITENING_C * n * cond * eps
        if not math.isfinite(rtol):  # n * condition alone overflows
            rtol = WHITENING_C * eps * cond * n
    except OverflowError:  # n beyond float64
        rtol = math.inf
    if not math.isfinite(rtol):
        raise ValueError(f"{WHITENING_C} n condition eps is outside the float64 range for n = "
                         f"{nb.describe(n)}, condition = {cond!r}")  # fmt: skip
    return rtol


def isotropy(setup: Setup, digits: int = 50) -> tuple[Any, Any]:
    """``(s, deviation)`` with ``s = tr(X^T X)/d`` and the largest entry of
    ``|X^T X - s I|``, exact (:func:`solvable._core.exact_gram.isotropy_defect`: integer
    arithmetic on BLAS, seconds at n = d = 1000), rounded to ``digits`` digits (mpf).  Data
    whose exact integers are too wide for that (entries over thousands of binades) is a
    ``ValueError`` naming ``X``.  ``digits``: an int in ``[1, MAX_DPS]``."""
    if not isinstance(setup, (Setup, WideSetup, PiecewiseLinearSetup)):
        raise TypeError(f"setup must be a kunin.Setup (or WideSetup, PiecewiseLinearSetup), "
                        f"got {type(setup).__name__}")  # fmt: skip
    digits = nb.check_int("digits", digits)
    if digits > nb.MAX_DPS:
        raise ValueError(f"digits must be <= {nb.MAX_DPS}, got {digits}")
    s, dev = isotropy_defect(setup.X, "X")
    with mpmath.workdps(digits):
        return (mpmath.mpf(s.numerator) / s.denominator,
                mpmath.mpf(dev.numerator) / dev.denominator)  # fmt: skip


def _default_rtol(values: Any, unit: float, n: int) -> float:
    """``max(10 u, 4 n eps)`` when any value is a Python float (rounded once in float64),
    else ``10 u``."""
    floats = any(isinstance(v, float) for v in values)
    return max(10 * unit, WHITENING_C * n * float(np.finfo(float).eps) if floats else 0.0)


def _isotropic_s(setup: Any, dps: int | None, isotropy_rtol: Number | None) -> Any:
    """``s`` (exact, at >= 50 digits) of data with ``X^T X = s I`` to ``isotropy_rtol`` (see
    :func:`closed_form`), else ``ValueError`` pointing to ``numerics.simulate``."""
    unit = 2.0**-52 if dps is None else 10.0 ** (-dps)
    if isotropy_rtol is None:
        rtol = _default_rtol(itertools.chain.from_iterable(setup.X), unit, setup.n)
    else:
        rtol = nb.to_float(nb.check_number("isotropy_rtol", isotropy_rtol, nonnegative=True),
                           "isotropy_rtol")  # fmt: skip
        if not rtol < 1:
            raise ValueError(f"isotropy_rtol must be in [0, 1), got {nb.describe(isotropy_rtol)}")
    digits = max(50, (dps or 17) + 20)
    X64 = _float64_X(setup)
    fast = None if X64 is None else _isotropy_f64(setup, X64, rtol, dps, digits)
    if fast is None:  # not float64 data, or undecided in float64: the reference
        s_exact, dev = isotropy(setup, digits)
        ok, dev_text = s_exact > 0 and not dev > rtol * s_exact, mpmath.nstr(dev, 3)
    else:
        ok, s_exact, dev_text = fast
    if not ok:
        raise ValueError(
            "X must have isotropic columns (X^T X = s I, e.g. whitened data) for the exact "
            f"solution; got max|X^T X - s I| = {dev_text} with s = "
            f"{mpmath.nstr(s_exact, 6)} (allowed: isotropy_rtol = {rtol:.1e} times s; data "
            "whitened from ill-conditioned inputs: isotropy_rtol=kunin.whitening_rtol(n, "
            "condition)). Use numerics.simulate."
        )
    return s_exact


# float64 isotropy (issue 17): the largest |entry| of X whose square, and the rounding error
# of that square (2^-106 smaller), are normal float64 with no overflow in the Gram matrix
# or in Dekker's splitting (2^27 x): 2^400 and 2^-400 leave hundreds of binades both ways
_F64_ISO_RANGE = (2.0**-400, 2.0**400)
_U = 2.0**-53  # the unit roundoff of float64
# the rows of one level of the compensated sum of squares: each lane adds 64 terms (its
# error bound gamma_64 u of the terms, about 1e-30 relative), and the lanes are 1/64 of the
# terms (long vectors: numpy's per-call overhead amortised)
_SUM_ROWS = 64
# the entries of X squared and added together (8 scratch vectors of 64 KiB: in L2)
_SQUARES_CHUNK = 8192


def _isotropy_f64(setup: Any, X: np.ndarray, rtol: float, dps: int | None,
                  digits: int) -> tuple[bool, Any, str] | None:  # fmt: skip
    """The verdict of :func:`_isotropic_s` (``s > 0`` and ``max|X^T X - s I| <= rtol s``,
    with ``s`` and the deviation as :func:`isotropy` computes them at ``digits`` digits)
    from float64 arithmetic with rigorous error bounds, or ``None`` where those cannot
    decide (then the caller runs :func:`isotropy`): ``(accepted, s_exact, deviation text)``.

    ``s``: float64 (``dps=None``) from an error-free sum of the squares
    (:func:`_sum_of_squares`, its value within a proved interval), taken when the interval's two
    ends round to the same float64 (as :func:`isotropy`'s 50-digit ``s`` then does); with
    ``dps`` (or when the ends differ) :func:`_trace` at ``digits`` digits, the reference's own
    arithmetic (O(n d), not O(n d^2)). Deviation: ``G = fl(X^T X)`` is within ``gamma_n |X|^T
    |X|`` of ``X^T X`` entry by entry whatever the order of the sums (Higham, Accuracy and
    Stability, section 3.1), and ``(|X|^T |X|)_pq <= |x_p| |x_q|`` with ``|x_p|^2 = G_pp`` to
    ``gamma_n`` (rounding of the bound: 8 units), which gives an interval ``[lower, upper]`` for
    the deviation; accepted when ``upper`` is below ``rtol s`` and refused when ``lower`` is
    above it, each with a margin of 4 units for the rounding of ``s`` and of the threshold. A
    refusal quotes the deviation to 3 digits when both ends print the same, else ``None`` (the
    reference prints it)."""
    nz = np.abs(X[X != 0])
    if nz.size and not (_F64_ISO_RANGE[0] <= nz.min() and nz.max() <= _F64_ISO_RANGE[1]):
        return None
    n, d = X.shape
    s_f = None
    if dps is None:
        total, bound = _sum_of_squares(X)
        # the 50-digit s of isotropy() lies within 1e-48 relative of the exact trace / d
        lo = (total - Fraction(bound)) / d * (1 - Fraction(1, 10**45))
        hi = (total + Fraction(bound)) / d * (1 + Fraction(1, 10**45))
        if float(lo) == float(hi):
            s_f, s_exact = float(lo), mpmath.mpf(float(lo))
            if s_f == 0 and total - Fraction(bound) <= 0:  # X = 0 (the squares are exact)
                s_exact = None
    if s_f is None or s_exact is None:
        s_exact = _trace(setup, digits)
        s_f = float(s_exact)
    if not s_exact > 0:
        return None if s_exact != 0 else (False, s_exact, mpmath.nstr(mpmath.mpf(0), 3))
    G = X.T @ X
    gam = n * _U / (1 - n * _U)
    # (|X|^T |X|)_pq <= |x_p| |x_q| (Cauchy-Schwarz), |x_p|^2 <= G_pp / (1 - gamma_n)
    norms = np.sqrt(np.diagonal(G) * ((1 + 4 * _U) / (1 - gam)))
    E = np.multiply.outer(norms, norms * (gam * (1 + 8 * _U)))
    G[np.diag_indices(d)] -= s_f
    D = np.abs(G, out=G)
    slack = 2 * _U * (float(D.max()) + s_f)  # the rounding of G - s_f I and of s_f
    buf = np.add(D, E)  # (one d x d scratch for D + E, then D - E)
    upper = (float(buf.max()) + slack) * (1 + 8 * _U)
    lower = max(0.0, (float(np.subtract(D, E, out=buf).max()) - slack) * (1 - 8 * _U))
    tau = rtol * s_f  # the threshold rtol s, within 2 units of rtol s_exact
    if upper <= tau * (1 - 4 * _U):
        return True, s_exact, ""
    if not lower > tau * (1 + 4 * _U):
        return None
    if dps is None:  # the message quotes s as isotropy() computes it
        s_exact = _trace(setup, digits)
    low, high = mpmath.nstr(mpmath.mpf(lower), 3), mpmath.nstr(mpmath.mpf(upper), 3)
    return (False, s_exact, low) if low == high else None


def _sum_of_squares(X: np.ndarray) -> tuple[Fraction, float]:
    """``(F, B)`` with ``|sum X_ij^2 - F| <= B``.  Each square is split exactly into ``p +
    e`` (Dekker's product with Veltkamp's splitting; no underflow or overflow in the range
    :data:`_F64_ISO_RANGE`), :data:`_SQUARES_CHUNK` entries at a time (scratch in cache, no
    temporary of X's size).  The ``p`` are added in one lane per position of a chunk by
    Knuth's TwoSum (each partial sum and its exact rounding error); the ``e`` (each at most
    ``u p``) in plain float64, within ``gamma_N sum |e|`` of their exact sum whatever the
    order of the ``N - 1`` additions (about ``1e-10 u`` of the total at ``N = 10^6``).  Then
    the lanes' sums, their error sums and the sum of the ``e`` are reduced in levels of
    :data:`_SUM_ROWS` rows the same way and added exactly (``F``); an error sum accumulated in
    float64 over ``L`` rows is within ``gamma_L sum |err|`` of exact (``B``: these bounds,
    doubled for the rounding of the bound itself)."""
    x = X.ravel()
    L = max(1, min(_SQUARES_CHUNK, x.size))
    s, s2, comp, mag = np.zeros(L), np.zeros(L), np.zeros(L), np.zeros(L)
    pad, p, xh, xl, e, z, err = (np.zeros(L) for _ in range(7))
    e_sum = e_mag = 0.0
    rows = 0
    for start in range(0, x.size, L):
        xc = x[start : start + L]
        if xc.size < L:  # the last chunk, padded with zeros (their squares add exactly)
            pad[: xc.size] = xc  # (pad: zeros, used once)
            xc = pad
        np.multiply(xc, xc, out=p)
        np.multiply(xc, 134217729.0, out=xh)  # c = (2^27 + 1) x
        np.subtract(xh, xc, out=xl)
        np.subtract(xh, xl, out=xh)  # xh = c - (c - x)
        np.subtract(xc, xh, out=xl)  # xl = x - xh
        # e = ((xh xh - p) + (2 xh) xl) + xl xl = x^2 - p, exactly
        np.subtract(np.multiply(xh, xh, out=e), p, out=e)
        np.add(e, np.multiply(np.multiply(xh, 2.0, out=z), xl, out=z), out=e)
        np.add(e, np.multiply(xl, xl, out=z), out=e)
        e_sum += float(np.sum(e))
        e_mag += float(np.sum(np.abs(e, out=e)))
        # TwoSum: s + p = s2 + err exactly, z = s2 - s, err = (s - (s2 - z)) + (p - z)
        np.add(s, p, out=s2)
        np.subtract(s2, s, out=z)
        np.subtract(s, np.subtract(s2, z, out=err), out=err)
        np.add(err, np.subtract(p, z, out=z), out=err)
        comp += err
        mag += np.abs(err, out=err)
        s, s2 = s2, s
        rows += 1
    bound = 2 * _gamma(rows) * float(np.sum(mag)) + 2 * _gamma(rows * L) * e_mag
    terms = np.concatenate([s, comp, [e_sum]])
    while terms.size > _SUM_ROWS:  # each level: _SUM_ROWS times fewer terms, twice over
        lanes = -(-terms.size // _SUM_ROWS)
        grid = np.zeros(_SUM_ROWS * lanes)
        grid[: terms.size] = terms
        s, comp, mag = np.zeros(lanes), np.zeros(lanes), np.zeros(lanes)
        for t in grid.reshape(_SUM_ROWS, lanes):
            s2 = s + t
            z = s2 - s
            err = (s - (s2 - z)) + (t - z)  # s + t = s2 + err exactly
            comp += err
            mag += np.abs(err)
            s = s2
        bound += 2 * _gamma(_SUM_ROWS) * float(np.sum(mag))
        terms = np.concatenate([s, comp])
    return _exact_sum(terms), bound * (1 + 4 * _U)


def _gamma(k: int) -> float:
    """Higham's ``gamma_k = k u / (1 - k u)``: the relative error bound of ``k`` roundings."""
    return k * _U / (1 - k * _U)


def _exact_sum(values: np.ndarray) -> Fraction:
    """The exact sum of float64 values, as a fraction (integer mantissas on a common power
    of two)."""
    ratios = [v.as_integer_ratio() for v in values.tolist() if v]
    if not ratios:
        return Fraction(0)
    den = max(q for _, q in ratios)  # powers of two: each divides the largest
    return Fraction(sum(p * (den // q) for p, q in ratios), den)


def _trace(setup: Any, digits: int) -> Any:
    """``s = tr(X^T X)/d`` exactly as :func:`isotropy` computes it at ``digits`` digits (its
    diagonal only)."""
    with mpmath.workdps(digits):
        X = [[nb.to_mpf(v) for v in row] for row in setup.X]
        diag = [mpmath.fsum(X[i][p] * X[i][p] for i in range(setup.n)) for p in range(setup.d)]
        return mpmath.fsum(diag) / setup.d
