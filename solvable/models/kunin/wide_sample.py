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
                   inf: np.ndarray) -> tuple[dict[str, np.ndarray], Any, Any]:  # fmt: skip
    """The float64 fields ``beta``, ``outputs``, ``loss``, ``gram_a``, ``gram_w``, ``ntk``
    (each with a leading axis of the T times), and ``A``, ``W`` (``(T, 1, c)``, ``(T, 1,
    d)`` for ``h = 1``, else ``None``), at the normalised times ``ti`` with the limit where
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
        out["ntk"] = wide_ntk_stack(gram_a, gram_w, X, k["eta_a"], k["eta_w"])
    return out, A, W


def wide_ntk_stack(gram_a: np.ndarray, gram_w: np.ndarray, X: np.ndarray, eta_a: Any,
                   eta_w: Any) -> np.ndarray:  # fmt: skip
    """The NTK stack ``(T, n, c, n, c)`` of
    :func:`~solvable.models.kunin.reduction._wide_ntk_array` (``eta_a X W^T W X^T (x) I_c +
    eta_w X X^T (x) A^T A``), bit for bit, with no temporary of its size: the second term
    is written into the output, the first added in place (on the diagonal ``a = b`` its
    value, elsewhere its ``value * 0``, the signed zero the array code adds).  Not float64
    (object arrays): the array code itself."""
    xx = X @ X.T
    xwx = X @ gram_w @ X.T
    if not (gram_a.dtype == xwx.dtype == xx.dtype == np.float64):
        return _wide_ntk_array(gram_a, gram_w, X, eta_a, eta_w)
    T, c, n = len(gram_a), gram_a.shape[-1], len(X)
    p, q = eta_a * xwx, eta_w * xx  # (the array code's factors, in its order)
    out = np.empty((T, n, c, n, c))
    np.multiply(q[:, None, :, None], gram_a[:, None, :, None, :], out=out)
    diag = [out[:, :, a, :, a] + p for a in range(c)]  # p * 1 = p on the diagonal
    out += (p * 0)[:, :, None, :, None]  # elsewhere + p * 0
    for a in range(c):
        out[:, :, a, :, a] = diag[a]
    return out


def first_not_finite(out: dict[str, np.ndarray]) -> tuple[int, str] | None:
    """``(k, name)``: the first time index at which a field of ``out`` is not finite, and
    the first such field there (in the order of :data:`_CHECKED`); ``None`` if all are."""
    bad = {n: ~np.isfinite(out[n].reshape(len(out[n]), -1)).all(axis=1) for n in _CHECKED}
    anywhere = np.logical_or.reduce(list(bad.values()))
    if not anywhere.any():
        return None
    k = int(np.argmax(anywhere))
    return k, next(n for n in _CHECKED if bad[n][k])
