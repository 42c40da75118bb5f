"""Seed 001 (Xu & Ziyin): the fast float64 engine of
:meth:`~solvable.models.xu_ziyin.trajectory.Trajectory.sample` (:class:`Float64Sample`, a
base class of the trajectory): the functions of time in chunks of :data:`TIME_CHUNK` times,
u, v and W in blocks of :data:`SAMPLE_BLOCK` entries, in two threads above
:data:`PARALLEL_SAMPLE`; the index sets of units on which a piece is chosen once, the
products of coefficients and units (:func:`_two_terms`) and the bound of their magnitude.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from solvable._core.backends import fill_in_halves, generate
from solvable.models.xu_ziyin.evaluators import _lazy_evaluators
from solvable.models.xu_ziyin.expressions import symbolic
from solvable.models.xu_ziyin.network import _squared_error
from solvable.models.xu_ziyin.units import _U_TERMS, _V_TERMS, _full, _initial_sums, _unit_sums

PARALLEL_SAMPLE = 2**22
"""The float64 :meth:`Trajectory.sample` fills the two halves of its times in two threads
where each half holds at least this many entries of W (32 MiB): below it the threads'
start costs more than they save.  Measured on the 2-core EPYC (issue 17,
``python benchmarks/closed_form_scale.py --only xu_ziyin``)."""


SAMPLE_BLOCK = 2**17
"""Elements per block of times of the float64 :meth:`Trajectory.sample` (at least one time
per block), for W and for each ``(times, d)`` array (u, v) alike: 1 MiB of float64,
the size of one core's L2 cache here (AMD EPYC, 1 MiB L2 per core), so that a block of W
written into the output is still in cache when ``W_perp`` is added to it.  The ``(times,
d)`` blocks are ``d0`` times longer in time than W's (the per-block Python cost of the
generated evaluators is then paid ``d0`` times less often).  Measured on the 2-core EPYC
(``python benchmarks/closed_form_family.py --only xu_ziyin``, 800 MB outputs): 2^15 was
30% slower at d = 524, d0 = 21 and 10% slower at d = 81, d0 = 1."""


TIME_CHUNK = 2**14
"""Times per chunk of the float64 :meth:`Trajectory.sample` (rounded down to a whole number
of :data:`SAMPLE_BLOCK`'s blocks of times, at least one): the functions of time alone (ell,
the residual, f, the NTK, the alignment, alpha) are evaluated on one chunk's times at a time,
so that their temporaries (128 KiB each) stay in cache and the two threads share that work
(before, they were evaluated on all the times at once, before the threads started).
Measured on the 2-core EPYC at d = 81, d0 = 1, 598 802 times (800 MB): 0.44 s before, 0.31
s with chunks of 2^14 (0.36 s with 2^12); at d = 524, d0 = 21 unchanged (0.11 s)."""


@functools.cache
def _unit_conditions() -> tuple[Callable[..., Any], ...]:
    """The generated numpy evaluators of the Piecewise conditions of ``p_t``, ``q_t`` (and so
    of the second pieces of ``u_t``, ``v_t``) that depend on the units alone (arguments
    ``(u0, v0, p0, q0)``: ``p0 == 0``, ``q0 == 0``): the fast path groups units by their
    values, so that within a group each condition is constant and :func:`_two_terms` knows
    which of ``p0``, ``q0`` is 0."""
    S = symbolic()
    args = (S.u0, S.v0, S.p0, S.q0)
    found: list[Any] = []
    for name in ("p_t", "q_t"):
        for pw in S.stable[name].atoms(sp.Piecewise):
            for _piece, c in pw.args:
                free = c.free_symbols
                if free and free <= set(args) and c not in found:
                    found.append(c)
    found.sort(key=sp.default_sort_key)
    return tuple(generate(args, c, "numpy") for c in found)


def _piece_terms(c: list[Any], first: bool, units: tuple[Any, ...], zp: bool,
                 zq: bool) -> tuple[Any, ...]:  # fmt: skip
    """The arguments of :func:`_two_terms` for one output in one piece (``first``: the
    pieces of ``|ell| <= 1``): its four coefficients ``c`` (columns of times), the units'
    values ``units`` (rows: those multiplying u0, v0, p0, q0) and whether each is 0 (``zp``:
    ``p0 = 0`` on these units)."""
    if first:
        return (c[0], units[0], False, c[1], units[1], False)
    return (c[2], units[2], zp, c[3], units[3], zq)


def _magnitude(first: np.ndarray, c: list[np.ndarray], mags: list[float]) -> float:
    """A bound of the magnitude of every entry :func:`_two_terms` makes from the four
    coefficients ``c`` (one value per time) and units of largest magnitudes ``mags`` (of
    the values multiplying u0, v0, p0, q0), three roundings included (``(1 + 2^-53)^3 < 1 +
    2^-50``); ``nan`` (no bound) where a coefficient is ``nan`` or ``inf`` meets a 0."""
    a = np.abs(c[0]) * mags[0] + np.abs(c[1]) * mags[1]
    b = np.abs(c[2]) * mags[2] + np.abs(c[3]) * mags[3]
    return float(np.max(np.where(first, a, b))) * (1 + 2.0**-50)


def _two_terms(ca: Any, xa: Any, za: bool, cb: Any, xb: Any, zb: bool, dst: np.ndarray,
               tmp: np.ndarray) -> np.ndarray:  # fmt: skip
    """``dst = (0 if za else ca xa) + (0 if zb else cb xb)`` (``c``: a column of times,
    ``x``: a row of units), the operations of :func:`_unit_value` on the same numbers (a
    zero term as the 0.0 it selects), written in place: the fast path's u, v of a block."""
    if za and zb:
        dst.fill(0.0)
    elif za:
        np.add(0.0, np.multiply(cb, xb, out=dst), out=dst)
    elif zb:
        np.add(np.multiply(ca, xa, out=dst), 0.0, out=dst)
    else:
        np.add(np.multiply(ca, xa, out=dst), np.multiply(cb, xb, out=tmp), out=dst)
    return dst


def _condition_code(values: list[Any], n: int) -> np.ndarray:
    """One integer per element of a length-``n`` axis: bit ``j`` is condition ``j``."""
    code = np.zeros(n, dtype=np.int64)
    for j, c in enumerate(values):
        code |= np.broadcast_to(np.asarray(c, dtype=bool).ravel(), (n,)).astype(np.int64) << j
    return code


def _uniform_sets(values: list[Any], n: int) -> list[Any]:
    """The index sets of a length-``n`` axis on which every condition is constant:
    ``[slice(None)]`` when there is one (the usual case), else index arrays."""
    code = _condition_code(values, n)
    if (code == code[0]).all():
        return [slice(None)]
    return [np.flatnonzero(code == c) for c in np.unique(code)]


def _cross(rows: Any, cols: Any, n: int, d: int) -> Any:
    """The index of a block of ``n`` times by ``d`` units at ``rows`` x ``cols`` (each a
    ``slice(None)`` or an index array)."""
    if isinstance(rows, slice) and isinstance(cols, slice):
        return (rows, cols)
    r = np.arange(n) if isinstance(rows, slice) else rows
    c = np.arange(d) if isinstance(cols, slice) else cols
    return np.ix_(r, c)


class Float64Sample:
    """The fast float64 engine of :meth:`Trajectory.sample
    <solvable.models.xu_ziyin.trajectory.Trajectory.sample>` (``engine="fast"``): uses the
    trajectory's ``_data`` and ``W0``."""

    def _fill(self, tt: np.ndarray, out: Any) -> bool:
        """The float64 states at the times ``tt`` written into ``out`` (checked shapes): the
        arithmetic of :meth:`_evaluate` (``dps=None``), elementwise, in chunks of
        :data:`TIME_CHUNK` times (the functions of time alone: ell, the coefficients of
        :func:`~solvable.models.xu_ziyin.evaluators.unit_forms`, the residual, the sums of
        squares, then f, the NTK, the alignment, alpha, each on the chunk's ``(times,)``
        vector) and, within a chunk, blocks of :data:`SAMPLE_BLOCK` elements (u, v
        ``(times, d)`` and W): u and v as coefficients of time times the units' initial
        values (two products and a sum per entry, :func:`_two_terms`), the piece chosen
        once per index set of units (where ``p_i(0) = 0``, ...) and per block (``|ell| <=
        1``).  ``False`` (``out`` partly written) where u, W, f or the NTK is not finite:
        the caller evaluates in mpmath."""
        ev = _lazy_evaluators()
        k = self._data
        T, d = len(tt), len(k["u0"])
        x, x2, W_perp = k["x"], k["x2"], k["W_perp"]
        eta_u, eta_w, rho, gamma, y = (k[n] for n in ("eta_u", "eta_w", "rho", "gamma", "y"))
        d0 = len(x)
        # times per block (at least one): of the (T, d) arrays, and of W (T, d, d0); times
        # per chunk: a whole number of blocks
        n_b, n_w = max(1, SAMPLE_BLOCK // d), max(1, SAMPLE_BLOCK // (d * d0))
        n_c = n_b * max(1, TIME_CHUNK // n_b)
        np.copyto(out.t, tt)
        with np.errstate(all="ignore"):
            # index sets of units on which every per-unit condition (p_i(0) = 0, ...) is
            # constant, with the units' arguments as the reference path broadcasts them
            unit_args = (k["u0"], k["v0"], k["p0"], k["q0"])
            units = [
                (cols, *(a[None, cols] for a in unit_args))
                for cols in _uniform_sets([c(*unit_args) for c in _unit_conditions()], d)
            ]  # fmt: skip
            wp_max, x_max = float(np.max(np.abs(W_perp))), float(np.max(np.abs(x)))
            sums0 = _initial_sums(k["p0"], k["q0"])
            W_flat, W_perp_flat = out.W.reshape(T, d * d0), W_perp.reshape(d * d0)
            unit_of, x_tiled = np.repeat(np.arange(d), d0), np.tile(x, d)
            # d0 = 1: W = v x^T / |x|^2 straight from the coefficients (see _unit_value)
            direct = d0 == 1
            # the largest |u0|, |v0|, |p0|, |q0| (times x_0 for W when direct), for the bounds
            mags = [float(np.max(np.abs(a))) for a in unit_args]
            w_mags = mags
            if direct:  # each index set of units also with its values times x_0
                w_units = [(a * x[0])[None, :] for a in unit_args]
                units = [(*e, *(w[:, e[0]] for w in w_units)) for e in units]
                w_mags = [float(np.max(np.abs(w))) for w in w_units]

            def chunks(start: int, stop: int) -> bool:
                """The times ``start:stop`` (the halves cut at a multiple of ``n_b``, so that
                small outputs split evenly) in chunks of ``n_c`` from ``start``, with their
                own scratch; False where u or W is not finite."""
                v_b, tmp_b = np.empty((n_b, d)), np.empty((n_b, d))
                for c0 in range(start, stop, n_c):
                    c1 = min(c0 + n_c, stop)
                    tc = tt[c0:c1]
                    ell = _full(ev.ell(k["D"], k["G"], k["N"], k["M"], tc), c1 - c0)
                    first = _full(ev.unit_piece(ell), c1 - c0).astype(bool)  # |ell| <= 1
                    coef = [_full(c, c1 - c0) for c in ev.unit_coefficients(ell, eta_u, eta_w,
                                                                            rho)]  # fmt: skip
                    c_u = [coef[i] for i in _U_TERMS]
                    c_v = [coef[i] for i in _V_TERMS]
                    if direct:
                        c_v = [c / x2 for c in c_v]
                    # every entry of u (of v, or W for d0 = 1) is finite where these bounds
                    # of its magnitude are below 1e308 (each entry two products and a sum:
                    # three roundings, (1 + 2^-53)^3 < 1 + 2^-50); else look at each
                    u_ok = _magnitude(first, c_u, mags) <= 1e308
                    v_max = _magnitude(first, c_v, w_mags)
                    w_ok = (v_max if direct else wp_max + v_max / x2 * x_max) <= 1e308
                    outputs = ((out.u, c_u, 1), (W_flat, c_v, 5)) if direct else (
                        (out.u, c_u, 1), (None, c_v, 1))  # fmt: skip
                    for b0 in range(c0, c1, n_b):
                        b1 = min(b0 + n_b, c1)
                        n = b1 - b0
                        fb = first[b0 - c0 : b1 - c0]
                        if fb.all() or not fb.any():  # one piece for the whole block
                            times = [(slice(None), bool(fb[0]))]
                        else:
                            times = [(np.flatnonzero(fb), True), (np.flatnonzero(~fb), False)]
                        for target, cs, at_units in outputs:
                            dst = v_b[:n] if target is None else target[b0:b1]
                            cb = [c[b0 - c0 : b1 - c0] for c in cs]
                            for e in units:
                                cols, xs = e[0], e[at_units : at_units + 4]
                                zp, zq = bool(e[3][0, 0] == 0), bool(e[4][0, 0] == 0)
                                for rows, is_first in times:
                                    term = _piece_terms([a[rows, None] for a in cb], is_first,
                                                        xs, zp, zq)  # fmt: skip
                                    at = _cross(rows, cols, n, d)
                                    if isinstance(at[0], slice) and isinstance(at[1], slice):
                                        _two_terms(*term, dst, tmp_b[:n])
                                    else:  # some of the rows or units: into new arrays
                                        shape = (len(term[0]), len(e[1][0]))
                                        dst[at] = _two_terms(*term, np.empty(shape),
                                                             np.empty(shape))  # fmt: skip
                        u = out.u[b0:b1]
                        if not (u_ok or math.isfinite(max(u.max(), -u.min()))):  # nan too
                            return False
                        if direct:
                            if not (w_ok or np.isfinite(W_flat[b0:b1]).all()):
                                return False
                            continue
                        # eq. (14) as in _evaluate: W(t) = W_perp + (v(t) / |x|^2) x^T, in
                        # place in the output seen as (T, d d0), so that each operation runs
                        # along d d0 numbers (broadcasting v against x would loop over runs
                        # of d0)
                        v = np.divide(v_b[:n], x2, out=v_b[:n])
                        for w0 in range(0, n, n_w):
                            W = W_flat[b0 + w0 : b0 + min(w0 + n_w, n)]
                            # v_i, d0 times (mode "clip": the indices are valid, and take
                            # buffers its output under the default "raise")
                            np.take(v[w0 : w0 + n_w], unit_of, axis=1, out=W, mode="clip")
                            np.multiply(W, x_tiled, out=W)
                            np.add(W_perp_flat, W, out=W)
                            if not (w_ok or np.isfinite(W).all()):
                                return False
                    # the functions of time of the chunk, from its sums of squares
                    r = ev.residual(k["D"], k["N"], k["M"], k["f0"], k["y"], tc)
                    S_p, S_q = _unit_sums(ev.unit_squares(ell), sums0, c1 - c0)
                    f = ev.f(S_p, S_q, r, y, gamma, rho, eta_u, eta_w)
                    out.f[c0:c1] = f
                    out.loss[c0:c1] = _squared_error(r)  # (f - y)^2 without cancellation
                    out.ntk[c0:c1] = ev.ntk(S_p, S_q, gamma, rho)
                    out.alignment[c0:c1] = ev.alignment(f, k["Lam"], ell, k["P"], k["Q"], y,
                                                        eta_u, eta_w, gamma, rho)  # fmt: skip
                    np.exp(ell, out=out.alpha[c0:c1])
                return True

            _ = ev.unit_piece, ev.unit_coefficients, ev.unit_squares, ev.ell, ev.residual
            _ = ev.f, ev.ntk, ev.alignment
            # (generated here, not by two threads at once)
            if not all(fill_in_halves(chunks, T, n_b, T * d * d0, PARALLEL_SAMPLE)):
                return False
        return bool(np.isfinite(out.f).all() and np.isfinite(out.ntk).all())
