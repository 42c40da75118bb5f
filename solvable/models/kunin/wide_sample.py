"""Seed 003 (Kunin et al.), Part II's exact solution: the float64 engine of
:meth:`WideTrajectory.sample <solvable.models.kunin.wide.WideTrajectory.sample>` (issue 31,
item 5): the times are grouped by branch (the limit ``t = inf``, the textbook form at small
``t``, the stable form), and each group is evaluated at once: the generated scalar pieces on
the vector of times, the Riccati helpers of :mod:`~solvable.models.kunin.reduction` on
stacks ``(T, h, h)`` (numpy's stacked ``matmul``, ``inv`` and ``qr``), with no loop over
the times.  The arithmetic is that of the per-time :meth:`WideTrajectory.at` (the same
helpers, the same order of operations), so the fields agree with it to a few ulps.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from solvable._core import numbers as nb
from solvable._core.states import StackedStates
from solvable.models.kunin.expressions import _wide_evaluators
from solvable.models.kunin.losses import _wide_loss
from solvable.models.kunin.reduction import (
    _riccati_deviation,
    _riccati_direct,
    _riccati_factor,
    _riccati_gram,
    _wide_ntk_array,
)
from solvable.models.kunin.wide_shapes import decoupled_q, echelon_states

# the fields of a wide state checked for finiteness, in the order the per-time state names
# the first one that is not (the NTK last: it is built from the finite Gram matrices)
_CHECKED = ("beta", "outputs", "loss", "gram_a", "gram_w", "ntk")


def _converged_r(rates: np.ndarray, t: Any, r: Any) -> np.ndarray:
    """float64 ``r = sqrt(t exprel(-2 |k| t))`` where ``2 |k| t`` overflows (``t`` near the
    float64 maximum): there ``t exprel(-2 |k| t) = (1 - e^{-2 |k| t})/(2 |k|) = 1/(2 |k|)``
    exactly in float64 (the generated form gives ``sqrt(t) * 0``).  ``t`` a float, or a
    ``(T, 1)`` column of times with ``r`` ``(T, modes)``."""
    rates = np.abs(np.asarray(rates, dtype=float))
    big = ~np.isfinite(2 * rates * t)
    return np.where(big, np.sqrt(0.5 / np.where(big, rates, 1.0)), r) if big.any() else r


def internal_times(
    tf: np.ndarray, inf: np.ndarray, k: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray]:
    """The vectorised ``_internal_time`` of :mod:`~solvable.models.kunin.wide`: the times
    ``tf * t_scale`` of the normalised data and which of them are the limit (``inf``, or a
    product beyond the float64 range where the slowest nonzero rate is above 1e-290); else
    the ``ValueError`` of the first such time (pass dps)."""
    scale = k["t_scale"]
    with np.errstate(over="ignore", invalid="ignore"):
        ti = np.where(inf, math.inf, tf * scale)
    over = ~inf & ~np.isfinite(ti)
    if over.any():
        rates = [abs(float(r)) for r in k["rates"] if r != 0]
        if not min(rates, default=1.0) > 1e-290:
            t = float(tf[np.argmax(over)])
            raise ValueError(
                f"t = {t!r} is beyond the float64 range of this setup's normalised time "
                f"(t * {scale:.3g}); pass dps=... for mpmath"
            )
    return ti, inf | over


def sample_float64(k: dict[str, Any], h: int, c: int, condition: float, ti: np.ndarray,
                   inf: np.ndarray, ntk: np.ndarray | None = None
                   ) -> tuple[dict[str, np.ndarray], Any, Any, np.ndarray]:  # fmt: skip
    """The float64 fields ``beta``, ``outputs``, ``loss``, ``gram_a``, ``gram_w``, ``ntk``
    (each with a leading axis of the T times; the NTK written into ``ntk`` if given, a
    C-contiguous ``(T, n, c, n, c)`` float64 array), ``A``, ``W`` (``(T, h, c)``, ``(T, h,
    d)`` for ``h = 1`` or decoupled rows, else ``None``), and per time whether the NTK is
    proved finite (:func:`ntk_bounded`), at the normalised times ``ti`` with the limit where
    ``inf``: the branches of ``WideTrajectory._state``, each on its group of times at once
    (``k``: the trajectory's data)."""
    ev = _wide_evaluators("numpy")
    rates, kappa = k["rates"], k["kappa"]
    kp, km = rates[:h], rates[h:]
    m, T = len(rates), len(ti)
    with np.errstate(all="ignore"):
        direct = ~inf & (2 * max(rates) * ti <= math.log(condition))
    stable = ~inf & ~direct
    P_eig = np.empty((T, m, m))
    row = np.empty((T, m)) if h == 1 else None
    general = k.get("echelon") is not None  # (every other shape: the echelon form)
    with np.errstate(all="ignore"):
        if general and (inf | stable).any():
            far = inf | stable
            P_eig[far], rows = echelon_states(k["echelon"], rates, kappa, ti[far], inf[far],
                                              None, ev)  # fmt: skip
            if h == 1:
                row[far] = rows
        if inf.any() and not general:  # the limit: P = diag(p_inf, 0) (claim
            # kunin.wide_limit_at_infinity)
            core_inv = np.diag(np.asarray(ev["p_inf"](kp, kappa)))
            M = np.zeros((h, m - h))
            P_eig[inf] = _riccati_gram(core_inv, M)
            if h == 1:
                scale = np.sqrt(core_inv[0, 0])
                row[inf] = np.concatenate([np.array([1 + 0 * scale]), M[0]]) * (k["sign"] * scale)
        if direct.any():  # small t: the textbook form, P = Y^T N^-1 Y (no C_+^{-1})
            lam, rr = ev["minus"](rates[None, :], ti[direct][:, None])
            Yd, Nd = _riccati_direct(k["C"], lam, rr, kappa)
            P_eig[direct] = Yd.swapaxes(-1, -2) @ np.linalg.inv(Nd) @ Yd
            if h == 1:
                row[direct] = Yd[:, 0] / np.sqrt(Nd[:, 0, 0])[:, None]
        if stable.any() and not general:  # every exponent <= 0: P = [I, M]^T core^-1 [I, M]
            ts = ti[stable][:, None]
            ep, rp = ev["plus"](kp[None, :], ts)
            em, rm = ev["minus"](km[None, :], ts)
            rp, rm = _converged_r(kp, ts, rp), _converged_r(km, ts, rm)
            M = ep[:, :, None] * k["H"] * em[:, None, :]
            L = _riccati_factor(k["Z"], k["H"], ep, rp, rm, kappa)
            Rinv = np.linalg.inv(np.linalg.qr(L.swapaxes(-1, -2), mode="r"))
            core_inv = Rinv @ Rinv.swapaxes(-1, -2)
            P_eig[stable] = _riccati_gram(core_inv, M)
            if h == 1:
                scale = 1 / np.sqrt((L @ L.swapaxes(-1, -2))[:, 0, 0])
                ones = np.ones((len(ts), 1))
                row[stable] = np.concatenate([ones, M[:, 0]], axis=1) * (k["sign"] * scale)[:, None]
            if k["floor"] is not None and not k["stationary"]:
                # every term decaying: relative accuracy down to the minimum (claim
                # kunin.wide_deviation_from_limit)
                G = L[..., :m] @ L[..., :m].swapaxes(-1, -2)
                u, p_inf = ev["u_plus"](kp[None, :], ts), ev["p_inf"](kp, kappa)
                dev_eig = _riccati_deviation(core_inv, M, G, u, p_inf)
        R = k["R"]
        P = R @ P_eig @ R.T
        gram_a, gram_w = k["sa"] ** 2 * P[:, :c, :c], k["sw"] ** 2 * P[:, c:, c:]
        beta = k["sa"] * k["sw"] * P[:, c:, :c]
        A = W = None
        if h == 1:
            Q = (row @ R.T)[:, None, :]
            A, W = k["sa"] * Q[:, :, :c], k["sw"] * Q[:, :, c:]
        elif k.get("decoupled") is not None:  # the rows decouple: Q = N^{-1/2} Y
            Q = decoupled_q(*k["decoupled"], rates, kappa, ti, inf, None, ev) @ R.T
            A, W = k["sa"] * Q[:, :, :c], k["sw"] * Q[:, :, c:]
        X, Y = k["X"], k["Y"]
        if k["floor"] is None:  # the residual's loss: accurate to ~eps |Y|^2 absolutely
            loss = _wide_loss(beta, np.eye(X.shape[1], dtype=int), X, Y)
        else:
            loss = np.full(T, k["floor"])
            # L_min + s |beta - beta*|^2 / 2 (claim kunin.wide_deviation_from_limit; a start
            # at beta* stays there: L = L_min)
            if not k["stationary"] and direct.any():  # beta far from beta*: little is lost
                dbeta = beta[direct] - k["B"]
                loss[direct] = k["floor"] + k["s"] * (dbeta * dbeta).sum((-1, -2)) / 2
            if not k["stationary"] and stable.any():  # every term decaying
                dbeta = k["sa"] * k["sw"] * (R @ dev_eig @ R.T)[:, c:, :c]
                loss[stable] = k["floor"] + k["s"] * (dbeta * dbeta).sum((-1, -2)) / 2
        out = dict(beta=beta, outputs=X @ beta, loss=loss, gram_a=gram_a, gram_w=gram_w)
        p, q = ntk_factors(gram_w, X, k["eta_a"], k["eta_w"])
        out["ntk"] = np.empty((T, len(X), c, len(X), c)) if ntk is None else ntk
        write_ntk(out["ntk"], gram_a, p, q)
        proved = ntk_bounded(gram_a, p, q)
    return out, A, W, proved


# The NTK stack is written in blocks of about this many bytes (a block of times, or of the
# rows i of one time): each block's diagonal is added while it is still in cache.
NTK_BLOCK_BYTES = 1 << 21


def ntk_factors(gram_w: np.ndarray, X: np.ndarray, eta_a: Any,
                eta_w: Any) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """``(p, q)``: the NTK's two factors as :func:`~solvable.models.kunin.reduction.
    _wide_ntk_array` computes them, ``p = eta_a X W^T W X^T`` (T, n, n) and ``q = eta_w X
    X^T`` (n, n), so that ``K[t, i, a, j, b] = p[t, i, j] delta_ab + q[i, j] (A^T A)[t, a,
    b]``."""
    return eta_a * (X @ gram_w @ X.T), eta_w * (X @ X.T)


def wide_ntk_stack(gram_a: np.ndarray, gram_w: np.ndarray, X: np.ndarray, eta_a: Any,
                   eta_w: Any, out: np.ndarray | None = None,
                   block_bytes: int = NTK_BLOCK_BYTES) -> np.ndarray:  # fmt: skip
    """The NTK stack ``(T, n, c, n, c)`` of
    :func:`~solvable.models.kunin.reduction._wide_ntk_array` (``eta_a X W^T W X^T (x) I_c +
    eta_w X X^T (x) A^T A``; seed 003 Part II, claim ``kunin.wide_ntk``), bit for bit (the
    same bytes, signed zeros included), written once into ``out`` (a C-contiguous float64
    array of that shape; allocated if ``None``) with no temporary of its size (blocks of
    about ``block_bytes``: :func:`write_ntk`).  Not float64 (object arrays): the array code
    itself (``out`` must be ``None``)."""
    p, q = ntk_factors(gram_w, X, eta_a, eta_w)
    if not (gram_a.dtype == p.dtype == q.dtype == np.float64):
        if out is not None:
            raise ValueError("out must be None for object (mpmath / sympy) arrays")
        return _wide_ntk_array(gram_a, gram_w, X, eta_a, eta_w)
    T, c, n = len(gram_a), gram_a.shape[-1], len(X)
    if out is None:
        out = np.empty((T, n, c, n, c))
    elif out.shape != (T, n, c, n, c) or out.dtype != np.float64 or not out.flags.c_contiguous:
        raise ValueError(f"out must be a C-contiguous float64 array of shape {(T, n, c, n, c)}, "
                         f"got {out.dtype} {out.shape}")  # fmt: skip
    write_ntk(out, gram_a, p, q, block_bytes)
    return out


def write_ntk(out: np.ndarray, gram_a: np.ndarray, p: np.ndarray, q: np.ndarray,
              block_bytes: int = NTK_BLOCK_BYTES) -> None:  # fmt: skip
    """``out[t, i, a, j, b] = q[i, j] g[t, a, b]`` (``g = gram_a``), plus ``p[t, i, j]`` on the
    diagonal ``a = b`` (``p + q g``) and ``p * 0`` elsewhere, as the array code adds them, in
    blocks of about ``block_bytes`` (``out`` C-contiguous ``(T, n, c, n, c)``).

    One pass over ``out``: the product is one broadcast multiply per block whose inner axis
    is a whole row ``(j, b)`` of ``n c`` entries (``q`` repeated ``c`` times along it, ``g``
    tiled ``n`` times), then the diagonal is added in place.  The off-diagonal ``+ p * 0``
    changes nothing where ``p`` is finite and ``q g`` is not zero (``x + (+-0) = x`` for every
    ``x != 0``, inf and nan included); it is applied (a second pass over the block, the
    diagonal kept aside as ``p + q g``) only at the times where some ``q[i, j] g[t, a, b]``
    may be a zero of either sign (a zero entry, or the two smallest magnitudes' product
    rounding to 0: rounding is monotone, so then no product of nonzero entries does) or
    ``p[t]`` is not finite."""
    T, n, c = out.shape[0], out.shape[1], out.shape[2]
    if T == 0 or out.size == 0:
        return
    with np.errstate(all="ignore"):
        q_min = float(np.min(np.abs(q)))
        g_min = np.abs(gram_a).reshape(T, -1).min(axis=1)
        plain = (q_min * g_min > 0) & np.isfinite(p).reshape(T, -1).all(axis=1)
    q_rep = np.repeat(q, c, axis=1)  # q_rep[i, j c + b] = q[i, j]
    row = 8 * c * n * c  # the bytes of one (t, i)
    times = max(1, block_bytes // (n * row))  # times per block (all rows)
    rows = n if times > 1 else max(1, min(n, block_bytes // row))  # rows per block
    for t0 in range(0, T, times):
        t1 = min(T, t0 + times)
        g_rep = np.tile(gram_a[t0:t1], (1, 1, n))  # g_rep[t, a, j c + b] = g[t, a, b]
        for i0 in range(0, n, rows):
            i1 = min(n, i0 + rows)
            block = out[t0:t1, i0:i1]
            np.multiply(q_rep[None, i0:i1, None, :], g_rep[:, None, :, :],
                        out=block.reshape(t1 - t0, i1 - i0, c, n * c))  # fmt: skip
            s = block.strides  # the diagonal a = b: diag[t, i, a, j] = block[t, i, a, j, a]
            diag = as_strided(block, (t1 - t0, i1 - i0, c, n), (s[0], s[1], s[2] + s[4], s[3]))
            pb = p[t0:t1, i0:i1, None, :]
            if plain[t0:t1].all():
                diag += pb  # q g + p = p + q g (addition commutes)
                continue
            kept = diag + pb
            block += (p[t0:t1, i0:i1] * 0)[:, :, None, :, None]
            diag[...] = kept


def ntk_bounded(gram_a: np.ndarray, p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Per time: whether every entry of the NTK at that time is finite by the bound
    ``fl(max|p| + fl(max|q| max|g|))`` being finite (``g = gram_a``).  Each entry is
    ``fl(q g)``, ``fl(q g) + (+-0)`` or ``fl(p + fl(q g))``, and rounding is monotone, so its
    magnitude is at most that bound (a nan in ``p``, ``q`` or ``g`` makes the bound nan:
    not proved).  Where it is not finite the entries themselves decide (the caller scans
    that time)."""
    T = len(gram_a)
    if T == 0 or gram_a.size == 0 or p.size == 0:  # (no entry: nothing can overflow)
        return np.ones(T, dtype=bool)
    with np.errstate(all="ignore"):
        p_max = np.abs(p).reshape(T, -1).max(axis=1, initial=0.0)
        g_max = np.abs(gram_a).reshape(T, -1).max(axis=1, initial=0.0)
        q_max = float(np.abs(q).max(initial=0.0))
        return np.isfinite(p_max + q_max * g_max)


def first_not_finite(out: dict[str, np.ndarray],
                     ntk_proved: np.ndarray) -> tuple[int, str] | None:  # fmt: skip
    """``(k, name)``: the first time index at which a field of ``out`` is not finite, and
    the first such field there (in the order of :data:`_CHECKED`); ``None`` if all are.
    The NTK (nearly all of the output) is scanned only at the times where ``ntk_proved``
    (:func:`ntk_bounded`) is false."""
    bad = {n: ~np.isfinite(out[n].reshape(len(out[n]), -1)).all(axis=1)
           for n in _CHECKED if n != "ntk"}  # fmt: skip
    bad["ntk"] = np.zeros(len(ntk_proved), dtype=bool)
    for t in np.flatnonzero(~ntk_proved):
        bad["ntk"][t] = not np.isfinite(out["ntk"][t]).all()
    anywhere = np.logical_or.reduce([bad[n] for n in _CHECKED])
    if not anywhere.any():
        return None
    k = int(np.argmax(anywhere))
    return k, next(n for n in _CHECKED if bad[n][k])


def check_out(out: Any, state_type: type, T: int, n: int, c: int, d: int, h: int,
              weights: bool) -> StackedStates:  # fmt: skip
    """``out`` if it is a :class:`StackedStates` of ``state_type`` (``WideExactState``)
    whose fields can take the float64 sample of ``T`` times (``n`` inputs, ``c`` outputs,
    ``d`` input dimensions, ``h`` hidden units) in place: ``t``, ``loss``, ``delta`` (T,),
    ``beta`` (T, d, c), ``outputs`` (T, n, c), ``ntk`` (T, n, c, n, c; C-contiguous),
    ``gram_a`` (T, c, c), ``gram_w`` (T, d, d) writeable float64 arrays that do not overlap,
    and ``A`` (T, h, c), ``W`` (T, h, d) likewise where the trajectory determines them
    (``weights``), else writeable object arrays (T,) (they get ``None``); else ``TypeError``
    / ``ValueError`` naming the field, the expected shape and dtype."""
    if not isinstance(out, StackedStates) or out.state_type is not state_type:
        got = type(out).__name__
        if isinstance(out, StackedStates):
            got += f" of {out.state_type.__name__}"
        raise TypeError(f"out must be the StackedStates of {state_type.__name__} of an earlier "
                        f"sample, got {got}")  # fmt: skip
    shapes = dict(t=(T,), beta=(T, d, c), outputs=(T, n, c), loss=(T,), ntk=(T, n, c, n, c),
                  gram_a=(T, c, c), gram_w=(T, d, d), delta=(T,))  # fmt: skip
    if weights:
        shapes.update(A=(T, h, c), W=(T, h, d))
    nb.check_output_arrays(out, shapes, sizes=f" ({T} times, n = {n}, c = {c}, d = {d}, h = {h})")
    if not out.ntk.flags.c_contiguous:
        raise ValueError(f"out.ntk must be C-contiguous, got strides {out.ntk.strides}")
    if not weights:
        for name in ("A", "W"):
            arr = getattr(out, name)
            if not (isinstance(arr, np.ndarray) and arr.dtype == object and arr.shape == (T,)
                    and arr.flags.writeable):  # fmt: skip
                what = type(arr).__name__
                if isinstance(arr, np.ndarray):
                    what = f"{arr.dtype} array of shape {arr.shape}"
                raise ValueError(f"out.{name} must be a writeable object array of shape ({T},) "
                                 f"(this trajectory does not determine {name}: each entry is "
                                 f"None), got {what}")  # fmt: skip
    return out
