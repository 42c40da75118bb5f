r"""One mode's strength ``u(t)`` of the balanced aligned flow ``du/dt = L eta |u|^(2-2/L)
(s - lambda u)`` (:func:`~solvable.models.deep_linear.expressions.mode_rhs`), exactly:
``t(u)`` in closed form (:mod:`~solvable.models.deep_linear.expressions`), inverted by
bracketed root finding.

Branches (``z = lambda u/s``, ``kappa`` of :func:`~solvable.models.deep_linear.expressions.kappa`):

* ``u0 = 0`` or ``z0 = 1``: fixed points, ``u(t) = u0``.  ``lambda = 0`` (then ``s = 0``):
  ``u`` is constant.
* ``s = 0 < lambda``: ``d|u|/dt = -L eta lambda |u|^(3-2/L)``, explicitly
  ``|u(t)| = (|u0|^(-a) + (2L-2) eta lambda t)^(-1/a)``, ``a = 2 - 2/L``; ``u -> 0``.
* ``0 < z0 < 1`` (the mode grows to ``s/lambda``): unknown ``w = log(1 - z)`` in the proved
  bracket ``[w0 - kappa t, w0 - kappa z0^a t]`` (Groenwall: ``d(1-z)/dt = -kappa z^a (1-z)``
  with ``z0^a <= z^a < 1`` on the path).
* ``z0 > 1`` (it shrinks to ``s/lambda``): ``w = log(z - 1)`` in
  ``[w0 - kappa z0^a t, w0 - kappa t]`` (``1 <= z^a <= z0^a``).
* ``z0 < 0`` (``u`` and ``s`` of opposite signs: ``u`` decays to the saddle 0, never changing
  sign): ``x = -z``, ``dx/dt = -kappa x^a (1 + x)`` with ``x^a <= x^a (1+x) <= x^a (1+x0)``:
  ``w = log x`` in ``[w0 - kappa (1+x0) t, w0 - kappa t]`` (L = 2) or
  ``[-log(x0^(1-a) + (a-1) kappa (1+x0) t)/(a-1), -log(x0^(1-a) + (a-1) kappa t)/(a-1)]``.

Beyond ``|z| = 2`` ``T`` is evaluated by its series in ``y = 1/|z|`` (``sum y^(a+n)/(a+n)``,
alternating for ``z < 0``; the closed form's logarithms cancel there), matched at ``|z| = 2``.
float64 refuses a mode whose ``kappa t`` under- or overflows (``ValueError``: use ``dps``).

float64 runs on arrays of times (:func:`strengths`; :func:`strength` is it at one time): every
entry its own bracket and Illinois iteration, each piece of ``T`` evaluated on its own entries;
mpmath runs one time at a time.  ``t(w)`` is monotone on each bracket (``T' > 0`` or ``< 0``
throughout a branch), so the Illinois iteration, which keeps a sign change, converges to the
one root.  ``t = inf``: ``s/lambda``
(``0 < z0``), ``0`` (``z0 < 0``, ``s = 0``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from solvable.models.deep_linear.expressions import evaluator

MAX_ITERATIONS = 2000


@dataclass(frozen=True)
class ModeFlow:
    """The scalar flow of one mode: depth ``L``, folded rate ``eta``, ``s``, ``lam``
    (``>= 0``) and the start ``u0`` (numbers of one kind: float or mpf)."""

    L: int
    eta: Any
    s: Any
    lam: Any
    u0: Any

    @property
    def a(self) -> Any:
        return 2 - mpmath.mpf(2) / self.L if isinstance(self.u0, mpmath.mpf) else 2 - 2 / self.L


def _ops(x: Any) -> Any:
    return mpmath if isinstance(x, mpmath.mpf) else _Array()


class _Array:
    """float64 (numpy, elementwise over arrays of times) versions of the mpmath functions
    used here."""

    log, exp, log1p, expm1 = np.log, np.exp, np.log1p, np.expm1

    @staticmethod
    def mpf(x: Any) -> float:
        return float(x)


def _where(m: Any, cond: Any, a: Any, b: Any) -> Any:
    """``a`` where ``cond`` else ``b``: elementwise for float64 arrays; for mpmath scalars
    both arguments are callables and only the one taken is evaluated."""
    if m is mpmath:
        return a() if cond else b()
    with np.errstate(all="ignore"):  # (the piece not taken may be out of its domain)
        return np.where(cond, a(), b())


def _max(m: Any, a: Any, b: Any) -> Any:
    return max(a, b) if m is mpmath else np.maximum(a, b)


def _min(m: Any, a: Any, b: Any) -> Any:
    return min(a, b) if m is mpmath else np.minimum(a, b)


def _log_d(w: Any, branch: str, L: int, m: Any) -> tuple[Any, Any]:
    """``(log z, log|1 - z^(1/L)|)`` for ``z = 1 - e^w`` (branch ``"grow"``) or ``1 + e^w``
    (``"shrink"``), without cancellation (a float64 series where ``e^w`` is tiny)."""
    q = m.exp(w)
    if branch == "shrink":
        sgn, lz = 1, m.log1p(q)
    else:  # z = 1 - q: log1p where q is small, else -expm1(w) (no cancellation)
        sgn, lz = -1, _where(m, q < 0.5, lambda: m.log1p(-q), lambda: m.log(-m.expm1(w)))
    with np.errstate(all="ignore"):  # (float64: q = 0 where e^w underflows)
        ld = m.log(abs(m.expm1(lz / L)))
        if m is mpmath:
            return lz, ld
        # float64, q < 1e-8: (1 -+ q)^(1/L) - 1 = -+(q/L)(1 +- (L-1) q/(2L) + O(q^2))
        small = q < 1e-8
        lz_small = sgn * q - q * q / 2
        ld_small = w - math.log(L) + np.log1p(-sgn * (L - 1) * q / (2 * L))
        return np.where(small, lz_small, lz), np.where(small, ld_small, ld)


FAR = 0.5
"""``|z| >= 1/FAR``: ``T`` by its series in ``y = 1/|z|`` (the closed form's logs cancel there)."""


def _series(y: Any, a: Any, alt: int, m: Any) -> Any:
    """``sum_n alt^n y^(a+n)/(a+n)`` for ``0 < y <= FAR`` (``alt = 1``: ``int y^(a-1)/(1-y)``,
    ``-1``: ``int y^(a-1)/(1+y)``), to the working precision (float64: elementwise, each
    entry's sum stopped at its own last term)."""
    eps = mpmath.eps if m is mpmath else 2.0**-53
    total, term, n = 0 * y, y**a, 0
    live = None if m is mpmath else np.ones(np.shape(y), dtype=bool)
    while True:
        part = term / (a + n)
        step = part if n % 2 == 0 or alt == 1 else -part
        total = total + step if m is mpmath else np.where(live, total + step, total)
        done = (abs(part) <= eps * abs(total) / 4) | (part == 0)
        if m is mpmath and done:
            return total
        if m is not mpmath:
            live = live & ~done
            if not live.any():
                return total
        term, n = term * y, n + 1


def _near(f: ModeFlow, branch: str, w: Any, m: Any) -> Any:
    """``kappa t`` by the closed form (logs and arctangents), up to a constant."""
    L = f.L
    if branch == "decay":  # z = -e^w, kappa t = -T_-(v), v = e^(w/L)
        return -evaluator(L, -1, _backend(m))(m.exp(w / L), w / L)
    lz, ld = _log_d(w, branch, L, m)
    return evaluator(L, 1, _backend(m))(m.exp(lz / L), lz / L, ld)


def _t_of_w(f: ModeFlow, branch: str, w: Any, m: Any) -> Any:
    """``kappa t`` at the state ``w`` (up to a constant, the same on the whole branch): the
    closed form near the fixed point and the saddle, the series in ``y = 1/|z|`` beyond
    ``|z| = 2`` (both antiderivatives of ``1/(|z|^a (1 - z))``, matched at ``|z| = 2``;
    float64: elementwise, each piece evaluated on its own entries only)."""
    if branch == "grow":
        return _near(f, branch, w, m)
    a, one = f.a, m.mpf(1)
    if branch == "shrink":  # z = 1 + e^w, y = 1/z; far when z >= 2 (w >= 0)
        pivot, alt = 0 * one, 1

        def y_far(x: Any) -> Any:
            e = m.exp(-x)
            return e / (1 + e)
    else:  # decay: x = -z = e^w, kappa t = K(1/x) = sum (-1)^n y^(a+n)/(a+n) for x >= 2
        pivot, alt = m.log(2 * one), -1

        def y_far(x: Any) -> Any:
            return m.exp(-x)

    def near(x: Any) -> Any:
        return _near(f, branch, x, m) - _near(f, branch, pivot, m) + _series(FAR * one, a, alt, m)

    if m is mpmath:
        return _series(y_far(w), a, alt, m) if w >= pivot else near(w)
    far = w >= pivot
    out = np.empty(np.shape(w))
    out[far] = _series(y_far(w[far]), a, alt, m)
    out[~far] = near(w[~far])
    return out


def _backend(m: Any) -> str:
    return "mpmath" if m is mpmath else "numpy"


def _illinois(g: Any, lo: Any, hi: Any, glo: Any, ghi: Any, tol: Any, floor: int) -> Any:
    """The root of ``g`` in ``[lo, hi]`` with ``glo = g(lo) <= 0 <= ghi = g(hi)`` (a checked
    sign change); Illinois regula falsi, the bracket kept throughout, to ``tol`` relative to
    ``max(floor, |lo|, |hi|)``."""
    if not (glo <= 0 <= ghi):
        raise ArithmeticError(f"deep_linear: the proved bracket lost its sign change "
                              f"(g(lo) = {glo}, g(hi) = {ghi}); please report")  # fmt: skip
    side = 0
    for _ in range(MAX_ITERATIONS):
        if abs(hi - lo) <= tol * max(floor, abs(lo), abs(hi)) or glo == 0 or ghi == 0:
            break
        x = (lo * ghi - hi * glo) / (ghi - glo)
        if not (min(lo, hi) < x < max(lo, hi)):
            x = (lo + hi) / 2
            if not (min(lo, hi) < x < max(lo, hi)):  # adjacent numbers: nothing between
                break
        gx = g(x)
        if gx == 0:
            return x
        if gx < 0:
            lo, glo = x, gx
            if side == -1:
                ghi /= 2
            side = -1
        else:
            hi, ghi = x, gx
            if side == 1:
                glo /= 2
            side = 1
    else:
        raise ArithmeticError("deep_linear: root finding did not converge; please report")
    return lo if abs(glo) <= abs(ghi) else hi


def _widen(g: Any, w: Any, side: int, tol: Any) -> tuple[Any, Any]:
    """The bound ``w`` (``side = -1``: lower, where ``g >= 0``; ``+1``: upper, ``g <= 0``)
    and ``g(w)``, moved outward until the sign holds (at most 200 doublings of a step of
    ``tol max(1, |w|)``)."""
    gw = g(w)
    step = tol * max(1, abs(w))
    for _ in range(200):
        if (gw >= 0) if side == -1 else (gw <= 0):
            return w, gw
        w, step = w + side * step, 2 * step
        gw = g(w)
    return w, gw  # (_illinois reports the lost sign change)


def _illinois_array(g: Any, lo: np.ndarray, hi: np.ndarray, glo: np.ndarray,
                    ghi: np.ndarray, tol: float, floor: int) -> np.ndarray:  # fmt: skip
    """:func:`_illinois` on float64 arrays: every entry its own bracket and the same
    iteration, ``g(x, idx)`` evaluating the entries ``idx`` at ``x``."""
    bad = ~((glo <= 0) & (ghi >= 0))
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ArithmeticError(f"deep_linear: the proved bracket lost its sign change "
                              f"(g(lo) = {glo[k]}, g(hi) = {ghi[k]}); please report")  # fmt: skip
    lo, hi, glo, ghi = lo.copy(), hi.copy(), glo.copy(), ghi.copy()
    side = np.zeros(lo.shape, dtype=int)
    root = np.where(np.abs(glo) <= np.abs(ghi), lo, hi)
    act = np.arange(lo.size)
    for _ in range(MAX_ITERATIONS):
        l, h, gl, gh = lo[act], hi[act], glo[act], ghi[act]
        done = np.abs(h - l) <= tol * np.maximum(floor, np.maximum(np.abs(l), np.abs(h)))
        done |= (gl == 0) | (gh == 0)
        a, b = np.minimum(l, h), np.maximum(l, h)
        with np.errstate(all="ignore"):  # (entries already done)
            x = (l * gh - h * gl) / (gh - gl)
        outside = ~((a < x) & (x < b))
        x = np.where(outside, (l + h) / 2, x)
        done |= outside & ~((a < x) & (x < b))  # adjacent numbers: nothing between
        fin = act[done]
        root[fin] = np.where(np.abs(glo[fin]) <= np.abs(ghi[fin]), lo[fin], hi[fin])
        act, x = act[~done], x[~done]
        if act.size == 0:
            return root
        gx = g(x, act)
        zero = gx == 0
        root[act[zero]] = x[zero]
        act, x, gx = act[~zero], x[~zero], gx[~zero]
        neg, pos = act[gx < 0], act[gx > 0]
        lo[neg], glo[neg] = x[gx < 0], gx[gx < 0]
        ghi[neg[side[neg] == -1]] /= 2
        side[neg] = -1
        hi[pos], ghi[pos] = x[gx > 0], gx[gx > 0]
        glo[pos[side[pos] == 1]] /= 2
        side[pos] = 1
        if act.size == 0:
            return root
    raise ArithmeticError("deep_linear: root finding did not converge; please report")


def _widen_array(g: Any, w: np.ndarray, side: int, tol: float) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_widen` on float64 arrays (``g(x, idx)`` as in :func:`_illinois_array`)."""
    w = w.copy()
    gw = g(w, np.arange(w.size))
    step = tol * np.maximum(1, np.abs(w))
    for _ in range(200):
        wrong = np.flatnonzero((gw < 0) if side == -1 else (gw > 0))
        if wrong.size == 0:
            break
        w[wrong], step[wrong] = w[wrong] + side * step[wrong], 2 * step[wrong]
        gw[wrong] = g(w[wrong], wrong)
    return w, gw  # (_illinois_array reports a lost sign change)


class RateOutOfRangeError(ValueError):
    """A mode's ``kappa t`` outside float64's range at the time of index ``index``."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def _exp(x: Any, m: Any) -> Any:
    """``e^x``, ``inf`` beyond the float64 range (no ``OverflowError``)."""
    if m is mpmath:
        return m.exp(x)
    with np.errstate(over="ignore"):
        return np.exp(x)


def _bracket(f: ModeFlow, t: Any, m: Any) -> tuple[str, Any, Any, Any, Any]:
    """``(branch, w0, lo, hi, kappa t)``: the mode's branch, its start ``w0`` and the proved
    bracket ``lo <= w(t) <= hi`` of the root (before :func:`_widen`), for a mode that moves
    (``u0 != 0``, ``lam != 0``, ``s != 0``, not at its fixed point, ``t > 0``)."""
    u0, s, lam, eta, L, a = f.u0, f.s, f.lam, f.eta, f.L, f.a
    same = (u0 > 0) == (s > 0)  # z0 > 0
    # y0 = 1/|z0| (no overflow where s is tiny), log|z0|
    y0 = abs(s) / (lam * abs(u0))
    lz0 = m.log(lam) + m.log(abs(u0)) - m.log(abs(s))
    kappa = L * eta * lam ** (m.mpf(2) / L - 1) * abs(s) ** a
    with np.errstate(over="ignore"):  # (float64: an overflow is refused just below)
        kt = kappa * t
    if m is not mpmath and not np.all((0 < kt) & (kt < math.inf)):
        k = int(np.flatnonzero(~((0 < kt) & (kt < math.inf)))[0])
        raise RateOutOfRangeError(k, (
            f"the mode's rate kappa t = L eta lambda^(2/L-1) |s|^(2-2/L) t = {float(kt[k])!r} "
            f"is outside float64's range (s = {s!r}, lambda = {lam!r}, t = {float(t[k])!r}): "
            f"use dps=30 (mpmath has no exponent limit)"))  # fmt: skip
    if same and lz0 > 0:  # z0 > 1: Groenwall; and z - 1 >= min(z0 - 1, 1) e^(-kappa 2^a t)
        # (dz/dt >= -kappa 2^a (z - 1) while z <= 2, and w >= 0 while z >= 2)
        branch, w0 = "shrink", lz0 + m.log1p(-y0)
        lo = _max(m, w0 - _exp(m.log(kt) + a * lz0, m), min(w0, 0) - kt * 2**a)
        hi = w0 - kt
    elif same:
        branch, w0 = "grow", m.log1p(-1 / y0)
        z0 = 1 / y0
        lo, hi = w0 - kt, w0 - kt * z0**a
    else:  # x = -z: x^a <= dx/dt / (-kappa) <= x^a (1 + x0), and <= 2 x^(a+1) (x >= 1), <= 2 x^a
        # (x <= 1; from x0, or from the time x reached 1)
        branch, w0 = "decay", lz0
        if L == 2:
            far = _min(m, -m.log(y0 + 2 * kt), -2 * kt) if lz0 >= 0 else w0 - 2 * kt
            lo = _max(m, w0 - kt - _exp(m.log(kt) + lz0, m), far)
            hi = w0 - kt
        else:
            extra = _exp(m.log((a - 1) * kt) + lz0, m)
            lo = -m.log(y0 ** (a - 1) + (a - 1) * kt + extra) / (a - 1)
            if lz0 >= 0:
                far = _min(
                    m, -m.log(y0**a + 2 * a * kt) / a, -m.log(1 + 2 * (a - 1) * kt) / (a - 1)
                )
            else:
                far = -m.log(y0 ** (a - 1) + 2 * (a - 1) * kt) / (a - 1)
            lo = _max(m, lo, far)
            hi = -m.log(y0 ** (a - 1) + (a - 1) * kt) / (a - 1)
    return branch, w0, lo, hi, kt


def strength(f: ModeFlow, t: Any, inf: bool = False) -> Any:
    """``u(t)`` (``inf``: the limit ``t -> oo``), in the number kind of ``f`` (float64:
    :func:`strengths` at one time)."""
    if not isinstance(f.u0, mpmath.mpf):
        return float(strengths(f, np.array([0.0 if inf else float(t)]), np.array([inf]))[0])
    m = mpmath
    u0, s, lam = f.u0, f.s, f.lam
    if u0 == 0 or lam == 0 or (s != 0 and lam * u0 == s) or (t == 0 and not inf):
        return u0
    sign = 1 if u0 > 0 else -1
    if s == 0:
        if inf:
            return u0 * 0
        return sign * _decay_to_zero(f, t)
    same = (u0 > 0) == (s > 0)  # z0 > 0
    if inf:
        return s / lam if same else u0 * 0
    branch, w0, lo, hi, kt = _bracket(f, t, m)
    T0 = _t_of_w(f, branch, w0, m)

    def g(w: Any) -> Any:  # kappa t(w) - kappa t
        return _t_of_w(f, branch, w, m) - T0 - kt

    # t(w) decreases in w on every branch (w falls as t grows): root of -g, increasing
    # (a few units in the last place: the bracket cannot shrink below one ulp)
    tol = mpmath.mpf(2) ** (4 - mpmath.mp.prec)
    # the bounds are proved; where one is nearly tight, rounding in T (relative eps of
    # |T|, which is large near the saddle) can give it the wrong sign: move it outward (the
    # root stays inside) by steps growing from a few ulps
    lo, glo = _widen(g, lo, -1, tol)
    hi, ghi = _widen(g, hi, 1, tol)
    w = _illinois(lambda x: -g(x), lo, hi, -glo, -ghi, tol, _floor(branch)) if lo != hi else lo
    return _u_of_w(f, branch, w, m)


def _decay_to_zero(f: ModeFlow, t: Any) -> Any:
    """``|u(t)|`` for ``s = 0 < lambda``: ``(|u0|^(-a) + (2L-2) eta lambda t)^(-1/a)``."""
    a = f.a
    base = abs(f.u0) ** (-a) + (2 * f.L - 2) * f.eta * f.lam * t
    return base ** (-1 / a)


def _floor(branch: str) -> int:
    """growing from a small z0: w = log(1 - z) ~ -z, so w is found to a relative tolerance"""
    return 0 if branch == "grow" else 1


def _u_of_w(f: ModeFlow, branch: str, w: Any, m: Any) -> Any:
    """``u`` at the root ``w`` of the branch."""
    s, lam = f.s, f.lam
    scale = m.log(abs(s) / lam)
    sgn_s = 1 if s > 0 else -1
    if branch == "grow":
        return (s / lam) * -m.expm1(w)
    if branch == "shrink":
        return s / lam + sgn_s * _exp(scale + w, m)
    return -sgn_s * _exp(scale + w, m)


def strengths(f: ModeFlow, t: np.ndarray, inf: np.ndarray) -> np.ndarray:
    """float64 ``u(t)`` at every entry of the float array ``t`` (``inf[k]``: the limit;
    ``t >= 0``), elementwise as :func:`strength`: the same branches, proved brackets and
    Illinois iteration on arrays.  A ``kappa t`` outside float64's range:
    :class:`RateOutOfRangeError` naming the entry."""
    u0, s, lam = float(f.u0), float(f.s), float(f.lam)
    out = np.full(t.shape, u0)
    if u0 == 0 or lam == 0 or (s != 0 and lam * u0 == s):
        return out
    still = (t == 0) & ~inf  # (at the start)
    sign = 1 if u0 > 0 else -1
    same = (u0 > 0) == (s > 0)  # z0 > 0
    out[inf] = s / lam if same and s != 0 else u0 * 0
    idx = np.flatnonzero(~still & ~inf)
    if idx.size == 0:
        return out
    tm = t[idx]
    if s == 0:
        out[idx] = sign * _decay_to_zero(f, tm)
        return out
    m = _Array()
    try:
        branch, w0, lo, hi, kt = _bracket(f, tm, m)
    except RateOutOfRangeError as exc:
        raise RateOutOfRangeError(int(idx[exc.index]), str(exc)) from None
    T0 = _t_of_w(f, branch, np.array([w0]), m)[0]

    def g(w: np.ndarray, k: np.ndarray) -> np.ndarray:  # kappa t(w) - kappa t
        return _t_of_w(f, branch, w, m) - T0 - kt[k]

    def minus_g(w: np.ndarray, k: np.ndarray) -> np.ndarray:
        return -g(w, k)

    # as strength(): the root of -g, bounds widened against rounding, a few ulps
    tol = 2e-15
    lo, glo = _widen_array(g, np.broadcast_to(lo, tm.shape).astype(float), -1, tol)
    hi, ghi = _widen_array(g, np.broadcast_to(hi, tm.shape).astype(float), 1, tol)
    w = lo.copy()
    moving = np.flatnonzero(lo != hi)
    if moving.size:
        w[moving] = _illinois_array(lambda x, k: minus_g(x, moving[k]), lo[moving],
                                    hi[moving], -glo[moving], -ghi[moving], tol,
                                    _floor(branch))  # fmt: skip
    out[idx] = _u_of_w(f, branch, w, m)
    return out
