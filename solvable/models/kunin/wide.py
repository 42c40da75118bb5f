"""Seed 003 (Kunin et al.), Part II's exact solution of the wide linear net ``f(x) = A^T W x``
in Theorem 4.2's setting (``Delta(0) = delta I_h``, ``X^T X = s I``; derived here):
:func:`wide_closed_form` and its :class:`WideTrajectory` (``P = Q^T Q`` from the matrix Riccati
equation, evaluated in the eigenbasis of ``K`` with every exponent <= 0), its states
:class:`WideExactState`, and :func:`wide_start` (initial weights with ``Delta = delta I_h``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.exact_gram import exact_matmul, span_membership, to_fraction
from solvable._core.numbers import Number
from solvable._core.states import StackedStates
from solvable.models.kunin.expressions import _evaluators, _wide_evaluators
from solvable.models.kunin.flows import _scalar
from solvable.models.kunin.isotropic_data import _default_rtol, _isotropic_s
from solvable.models.kunin.losses import GUARD_DIGITS, _wide_balance, _wide_loss
from solvable.models.kunin.minimum import _wide_floor, _working_rational
from solvable.models.kunin.reduction import (
    _riccati_deviation,
    _riccati_direct,
    _riccati_factor,
    _riccati_gram,
    wide_ntk,
)
from solvable.models.kunin.setups import WideSetup, _arrays, _weights
from solvable.models.kunin.times import _SAMPLE_TIMES, _float_times, _times
from solvable.models.kunin.wide_aligned import (
    AlignedWideTrajectory,
    aligned_wide_closed_form,
    alignment_tolerance,
)
from solvable.models.kunin.wide_sample import (
    _converged_r,
    check_out,
    first_not_finite,
    internal_times,
    sample_float64,
)
from solvable.models.kunin.wide_shapes import decoupled, decoupled_q, echelon, echelon_states

_F64_TINY = float(np.finfo(float).tiny)  # the smallest normal double


def _svd(B: np.ndarray, dps: int | None) -> tuple[np.ndarray, list[Any], np.ndarray]:
    """Full SVD ``B = U S V^T`` of a (d, c) matrix: ``U`` (d, d), the min(c, d) singular
    values, ``V`` (c, c) (float64, or mpmath at the working precision)."""
    d, c = B.shape
    if dps is None:
        U, sv, Vt = np.linalg.svd(np.asarray(B, dtype=float), full_matrices=True)
        return U, [float(v) for v in sv], Vt.T
    Um, Sm, Vm = mpmath.svd_r(mpmath.matrix(B.tolist()), full_matrices=True)
    U = np.array([[Um[i, j] for j in range(d)] for i in range(d)], dtype=object)
    V = np.array([[Vm[j, i] for j in range(c)] for i in range(c)], dtype=object)
    return U, [Sm[k] for k in range(min(c, d))], V


def _wide_eigenbasis(
    delta_p: Any, kappa: Any, B: np.ndarray, side: str, dps: int | None
) -> tuple[np.ndarray, np.ndarray, int, dict[str, list[int]]]:
    """``(R, k, h, null)``: ``K = R diag(k) R^T`` (:func:`wide_generator`), columns ordered
    ``+`` first, and ``null``: the columns of the null modes ``[v; 0]`` (``"A"``) and
    ``[0; u]`` (``"W"``).  Each singular triple ``(sigma, u, v)`` of ``B*`` with ``sigma >
    0`` spans a plane ``([v; 0], [0; u])`` on which K is the single neuron's 2 x 2 block
    ``J`` with ``Y = sigma``: eigenvalues ``+-Omega`` and eigenvectors ``v_+``, ``(-v_y,
    v_x)`` from the single neuron's generated evaluators.  The rest: ``[v; 0]`` (rate
    ``delta'/2``) and ``[0; u]`` (rate ``-delta'/2``).  ``side = "A"``: the ``+`` modes are
    the ``+Omega`` ones and the ``[v; 0]`` ones (c modes, rates >= 0 when delta >= 0);
    ``"W"``: ``+Omega`` and ``[0; u]`` (d modes, rates >= 0 when delta <= 0)."""
    ev = _evaluators("numpy" if dps is None else "mpmath")
    d, c = B.shape
    U, sv, V = _svd(B, dps)
    sqrt = np.sqrt if dps is None else mpmath.sqrt
    zc, zd = np.zeros(c, dtype=V.dtype), np.zeros(d, dtype=U.dtype)
    if dps is not None:
        zc, zd = np.full(c, mpmath.mpf(0), dtype=object), np.full(d, mpmath.mpf(0), dtype=object)
    plus, minus, a_null, w_null = [], [], [], []
    for i in range(max(c, d)):
        sigma = sv[i] if i < len(sv) else 0
        if sigma > 0:
            Om = ev["Omega"](delta_p, kappa, sigma)
            rx, ry = (ev["v_pos"] if delta_p >= 0 else ev["v_neg"])(delta_p, kappa, sigma, Om)
            nrm = sqrt(rx * rx + ry * ry)
            vx, vy = rx / nrm, ry / nrm
            plus.append((Om, np.concatenate([vx * V[:, i], vy * U[:, i]])))
            minus.append((-Om, np.concatenate([-vy * V[:, i], vx * U[:, i]])))
            continue
        if i < c:
            a_null.append((delta_p / 2, np.concatenate([V[:, i], zd])))
        if i < d:
            w_null.append((-delta_p / 2, np.concatenate([zc, U[:, i]])))
    n_r = len(plus)
    plus += a_null if side == "A" else w_null
    minus += w_null if side == "A" else a_null
    modes = plus + minus
    R = np.array([v for _, v in modes]).T
    k = np.array([r for r, _ in modes], dtype=nb.dtype(dps))
    # the columns of the null modes: a_null after the ranged + modes (side A) or after the
    # ranged - modes (side W), w_null the other way round
    first = {"A": n_r, "W": len(plus) + n_r}[side]
    second = {"A": len(plus) + n_r, "W": n_r}[side]
    cols = {"A": list(range(first, first + len(a_null))),
            "W": list(range(second, second + len(w_null)))}  # fmt: skip
    return R, k, len(plus), cols


def _inverse(M: np.ndarray, dps: int | None) -> np.ndarray:
    """The inverse of a (symmetric positive definite) matrix, float64 or mpmath."""
    if dps is None:
        return np.linalg.inv(np.asarray(M, dtype=float))
    inv = mpmath.inverse(mpmath.matrix(M.tolist()))
    n = M.shape[0]
    return np.array([[inv[i, j] for j in range(n)] for i in range(n)], dtype=object)


def _inverse_gram(L: np.ndarray, dps: int | None) -> np.ndarray:
    """``(L L^T)^{-1}`` as ``R^{-1} R^{-T}`` from the QR factor ``L^T = Q R`` (float64 or
    mpmath)."""
    if dps is None:
        Rinv = np.linalg.inv(np.linalg.qr(np.asarray(L, dtype=float).T, mode="r"))
        return Rinv @ Rinv.T
    _, Rm = mpmath.qr(mpmath.matrix(L.T.tolist()), mode="skinny")
    Rinv = _inverse(np.array(Rm.tolist(), dtype=object), dps)
    return Rinv @ Rinv.T


@dataclass(frozen=True)
class WideExactState:
    """The wide net at ``t`` (Part II, exact solution): ``beta = W^T A`` (d, c), ``outputs
    = X beta`` (n, c), ``loss``, ``ntk`` (n, c, n, c; :func:`wide_ntk`), ``gram_a = A^T A``
    (c, c), ``gram_w = W^T W`` (d, d), the conserved ``delta`` (``Delta = delta I_h``), and
    ``A`` (h, c), ``W`` (h, d) when ``h = 1`` or the start decouples by modes (else
    ``None``: determined only up to a rotation of the hidden layer that has no closed form
    here, see :func:`wide_closed_form`)."""

    t: Any
    beta: np.ndarray
    outputs: np.ndarray
    loss: Any
    ntk: np.ndarray
    gram_a: np.ndarray
    gram_w: np.ndarray
    delta: Any
    A: np.ndarray | None
    W: np.ndarray | None


@dataclass(frozen=True)
class WideTrajectory:
    """Exact solution of the wide net from ``(A0, W0)`` with ``Delta(0) = delta I_h`` and
    ``X^T X = s I``: attributes ``delta``, ``s``, ``beta_star`` (= X^T Y / s), ``rates``
    (the eigenvalues of ``K``, ``+`` modes first; :func:`wide_generator`), ``h``,
    ``condition`` (``|Q0|_F / sigma_min(C_+)``, ``C_+ = Q0 R_+``, or of the pivot block
    ``R_1`` of the echelon form for the other shapes: float64 results carry ~``condition *
    eps``);
    ``at(t)`` for ``t`` in ``[0, inf]`` (``t = inf``: the limit)."""

    setup: WideSetup
    dps: int | None
    delta: Any
    s: Any
    beta_star: np.ndarray
    rates: np.ndarray
    h: int
    condition: float
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> WideExactState:
        """The state at time ``t`` in ``[0, inf]``."""
        ts, inf = _times(t)
        if len(ts) != 1:
            raise ValueError(f"t must be one time, got {len(ts)}; use sample() for many")
        return self._state(ts[0], inf[0], "t")

    def sample(self, times: Any, *, out: StackedStates | None = None) -> StackedStates:
        """The states at many times (each in ``[0, inf]``), stacked: each field of
        :class:`WideExactState` with a leading time axis (``states.beta`` (T, d, c), ...;
        ``A``, ``W`` an object array of ``None`` where the trajectory does not determine
        them), ``states.at(k)`` the :class:`WideExactState` at the ``k``-th time.

        ``out`` (float64 only, ``dps=None``): a preallocated result, e.g. an earlier
        ``sample`` of as many times (:func:`~solvable.models.kunin.wide_sample.check_out`
        lists its fields); every field is written in place and ``out`` itself returned (the
        NTK, nearly all of the output, is computed straight into ``out.ntk``).  After a
        refusal its contents are unspecified.

        float64 (issue 31): the times are grouped by branch (the limit, the textbook form at
        small t, the stable form) and each group is evaluated at once on stacks of matrices
        (:mod:`~solvable.models.kunin.wide_sample`), with no loop over the times; the fields
        are those of :meth:`at` to a few ulps (the NTK from the Gram matrices bit for bit as
        :func:`~solvable.models.kunin.reduction.wide_ntk` builds it, in one pass over the
        output).  A field that is not finite in float64 is a ``ValueError`` naming the first
        such time (pass dps); the NTK's finiteness follows from a bound on its factors
        (:func:`~solvable.models.kunin.wide_sample.ntk_bounded`) and is scanned only where
        that bound fails.  At ``dps`` the states are evaluated one time after another (mpmath
        has no stacked linear algebra)."""
        if self.dps is not None:
            if out is not None:
                raise ValueError(
                    f"out must be None for dps={self.dps} (preallocated outputs are float64 "
                    f"only, dps=None), got {type(out).__name__}"
                )
            ts, inf = _times(times, _SAMPLE_TIMES)
            return StackedStates.stack([self._state(t, i, _SAMPLE_TIMES)
                                        for t, i in zip(ts, inf, strict=True)])  # fmt: skip
        if isinstance(times, (list, tuple)) and times and all(type(v) is float for v in times):
            times = np.array(times)  # (validated at once, not number by number)
        tf, inf, given = _float_times(times, _SAMPLE_TIMES)
        T, S = len(tf), self.setup
        weights = self.h == 1 or self._data.get("decoupled") is not None
        if out is not None:
            out = check_out(out, WideExactState, T, S.n, S.c, S.d, self.h, weights)
        ti, limit = internal_times(tf, inf, self._data)
        fields, A, W, proved = sample_float64(self._data, self.h, S.c, self.condition, ti, limit,
                                              None if out is None else out.ntk)  # fmt: skip
        bad = first_not_finite(fields, proved)
        if bad is not None:  # (the time as given: a numpy scalar as its Python number)
            t = given[bad[0]].item() if isinstance(given[bad[0]], np.generic) else given[bad[0]]
            raise ValueError(f"the state's {bad[1]} is not finite in float64 at t = {t!r}; "
                             "pass dps=... for mpmath")  # fmt: skip
        if out is None:
            none = np.full(T, None, dtype=object)
            return StackedStates(WideExactState, dict(
                t=tf, beta=fields["beta"], outputs=fields["outputs"], loss=fields["loss"],
                ntk=fields["ntk"], gram_a=fields["gram_a"], gram_w=fields["gram_w"],
                delta=np.full(T, self.delta), A=none if A is None else A,
                W=none if W is None else W))  # fmt: skip
        for name, value in (("t", tf), *fields.items(), ("A", A), ("W", W)):
            if value is not out.ntk:  # (the NTK is already there)
                getattr(out, name)[...] = value
        out.delta.fill(self.delta)
        return out

    def _state(self, t: Number, inf: bool, name: str) -> WideExactState:
        k, dps = self._data, self.dps
        ev = _wide_evaluators("numpy" if dps is None else "mpmath")
        conv = nb.converter(dps, name)
        h = self.h
        with nb.Precision(dps), np.errstate(all="ignore"):
            kp, km, kappa = k["rates"][:h], k["rates"][h:], k["kappa"]
            sqrt = math.sqrt if dps is None else mpmath.sqrt
            tt = (math.inf if dps is None else mpmath.inf) if inf else conv(t)
            ti, inf = _internal_time(tt, inf, k)  # the time of the normalised data
            direct = not inf and 2 * max(k["rates"]) * ti <= math.log(self.condition)
            general = k.get("echelon") is not None
            if general and not direct:  # every other shape: the echelon form (wide_shapes)
                times = np.array([ti], dtype=nb.dtype(dps))
                Ps, rows = echelon_states(k["echelon"], k["rates"], kappa, times,
                                          np.array([inf]), dps, ev)  # fmt: skip
                P_eig, row = Ps[0], (None if rows is None else rows[0])
            elif inf:
                core_inv = np.diag(np.asarray(ev["p_inf"](kp, kappa)))
                M = np.zeros((h, len(km)), dtype=nb.dtype(dps))
                if dps is not None:
                    M[...] = mpmath.mpf(0)
                scale = sqrt(core_inv[0, 0])
            elif direct:  # small t: the textbook form, P = Y^T N^-1 Y (no C_+^{-1})
                lam, rr = ev["minus"](k["rates"], ti)
                Yd, Nd = _riccati_direct(k["C"], lam, rr, kappa)
                P_eig = Yd.T @ _inverse(Nd, dps) @ Yd
                row = Yd[0] / sqrt(Nd[0, 0])
            else:
                ep, rp = ev["plus"](kp, ti)
                em, rm = ev["minus"](km, ti)
                if dps is None:
                    rp, rm = _converged_r(kp, ti, rp), _converged_r(km, ti, rm)
                M = np.asarray(ep)[:, None] * k["H"] * np.asarray(em)[None, :]
                L = _riccati_factor(k["Z"], k["H"], ep, rp, rm, kappa)
                core_inv = _inverse_gram(L, dps)
                scale = 1 / sqrt((L @ L.T)[0, 0])
            if not direct and not general:
                P_eig = _riccati_gram(core_inv, M)
                # h = 1: Q = sign(c_+) core^{-1/2} [1, M] R^T (claim kunin.wide_stable_form)
                if h == 1:
                    row = np.concatenate([np.array([1 + 0 * scale]), M[0]]) * (k["sign"] * scale)
            R = k["R"]
            P = R @ P_eig @ R.T
            c = self.setup.c
            gram_a, gram_w = k["sa"] ** 2 * P[:c, :c], k["sw"] ** 2 * P[c:, c:]
            beta = k["sa"] * k["sw"] * P[c:, :c]
            A = W = None
            if h == 1:
                Q = (R @ row)[None, :]
                A, W = k["sa"] * Q[:, :c], k["sw"] * Q[:, c:]
            elif k.get("decoupled") is not None:  # the rows decouple: Q = N^{-1/2} Y
                times = np.array([ti], dtype=nb.dtype(dps))
                Q = decoupled_q(*k["decoupled"], k["rates"], kappa, times, np.array([inf]),
                                dps, ev)[0] @ R.T  # fmt: skip
                A, W = k["sa"] * Q[:, :c], k["sw"] * Q[:, c:]
            X, Y = k["X"], k["Y"]
            eye = np.eye(self.setup.d, dtype=int)
            if k["floor"] is None:  # the residual's loss: accurate to ~eps |Y|^2 absolutely
                loss = _scalar(_wide_loss(beta, eye, X, Y))
            elif inf or k["stationary"]:  # (a start at beta* stays there: L = L_min)
                loss = k["floor"]
            else:  # L_min + s |beta - beta*|^2 / 2 (claim kunin.wide_deviation_from_limit)
                if direct:  # small t: beta far from beta*, the subtraction loses little
                    dbeta = beta - k["B"]
                else:  # every term decaying: relative accuracy down to the minimum
                    m = L.shape[1] - h
                    G = L[:, :m] @ L[:, :m].T
                    u, p_inf = ev["u_plus"](kp, ti), ev["p_inf"](kp, kappa)
                    dev = _riccati_deviation(core_inv, M, G, u, p_inf)
                    dbeta = k["sa"] * k["sw"] * (R @ dev @ R.T)[c:, :c]
                loss = k["floor"] + k["s"] * (dbeta * dbeta).sum() / 2
            out = dict(beta=beta, outputs=X @ beta, loss=_scalar(loss), gram_a=gram_a,
                       gram_w=gram_w)  # fmt: skip
            # (the ntk from finite grams only: wide_ntk refuses others, naming its arguments)
            if dps is None:
                _f64_finite(out, t)
            try:
                out["ntk"] = wide_ntk(gram_a, gram_w, X, k["eta_a"], k["eta_w"])
            except nb.Float64RangeError:  # the state's own refusal, naming t
                out["ntk"] = np.full(1, math.inf)
        if dps is None:
            _f64_finite(out, t)
        else:
            names = list(out)
            vals = nb.rounded([out[n] for n in names] + [v for v in (A, W) if v is not None], dps)
            out = dict(zip(names, vals[: len(names)], strict=True))
            if A is not None:
                A, W = vals[len(names) :]
        return WideExactState(t=tt, delta=self.delta, A=A, W=W, **out)


def _shape_note(h: int, c: int, d: int) -> str:
    """What the balance allows for ``h`` hidden units when ``h`` exceeds c or d (else "")."""
    if h <= min(c, d):
        return ""
    return (f" (h = {h} hidden units: Delta = delta I_h allows delta > 0 only for h <= c = "
            f"{c}, delta < 0 only for h <= d = {d}, and any h at delta = 0)")  # fmt: skip


# The exact test of the null modes runs up to this many rational multiply-adds (the products
# X^T Y and the eliminations): about 0.1 s; larger setups keep the modes as computed.
_NULL_MODES_WORK = 2**17


def _exact_null_modes(C: np.ndarray, null: dict[str, list[int]], setup: WideSetup,
                      A0c: Any, W0c: Any) -> None:  # fmt: skip
    """Set to exactly 0 the entries of ``C = Q0 R`` of the null modes where they are 0 for
    the exact inputs: a row of W0 in the column span of beta* (of A0 in its row span) has
    no part along the null modes ``[0; u]`` (``[v; 0]``), but ``Q0 R`` of the rounded
    singular vectors leaves a residue of ~1e-17 there.  That residue decays at the null
    mode's rate, more slowly than ``beta - beta*``, and became the loss near the minimum
    (6.6e-122 for 4.5e-156 at t = 10; found by an outside reviewer).  Decided in rationals
    (``X^T Y`` spans what ``beta* = X^T Y / s`` spans), within :data:`_NULL_MODES_WORK`."""
    n, d, c, h = setup.n, setup.d, setup.c, len(A0c)
    # only rows whose null-mode entries are at the rounding level of the row can be 0 there
    unit = 2.0**-52 if C.dtype != object else mpmath.eps  # (the working precision's)
    size = [max(abs(v) for v in row) for row in C]  # ~ |Q0 row|: R is orthogonal
    near = {side: [i for i in range(h) if cols and
                   max(abs(v) for v in C[i, cols]) <= 64 * (c + d) * unit * size[i]]
            for side, cols in null.items()}  # fmt: skip
    if not any(near.values()):
        return
    if n * d * c + h * (c + d) * min(c, d) * (c + d) > _NULL_MODES_WORK:
        return
    XtY, _ = _exact_moments(setup)
    columns = [[XtY[a][b] for a in range(d)] for b in range(c)]  # span of beta* in R^d
    # the modes of the rounded beta* with sigma > 0 (the rest are its null modes)
    ranged = (C.shape[1] - len(null["A"]) - len(null["W"])) // 2
    for side, rows, span in (("W", W0c, columns), ("A", A0c, XtY)):
        if not null[side]:
            continue
        if not near[side]:
            continue
        inside, rank = span_membership([[to_fraction(v) for v in rows[i]] for i in near[side]],
                                       span)  # fmt: skip
        if rank != ranged:  # the rounded beta* has another rank (e.g. it underflowed): its
            continue  # null modes are not the exact ones
        for i, flag in zip(near[side], inside, strict=True):
            if flag:
                C[i, null[side]] = 0 * C[i, null[side][0]]


def _starts_at_beta_star(setup: WideSetup, A0c: Any, W0c: Any) -> bool:
    """Whether ``beta(0) = W0^T A0`` is exactly ``beta* = X^T Y / s`` (for exactly isotropic
    data, ``s = |x_1|^2``): then the gradient ``X^T (X beta - Y)`` is 0 and the start stays
    put, with ``L = L_min`` at every time (the decaying terms of the deviation would give
    their rounding, ~1e-30 at t = 0; found by an outside reviewer).  In rationals, within
    :data:`_NULL_MODES_WORK`; ``False`` beyond it."""
    n, d, c, h = setup.n, setup.d, setup.c, len(A0c)
    if n * d * c + h * d * c > _NULL_MODES_WORK:
        return False
    XtY, s = _exact_moments(setup)
    A = [[to_fraction(v) for v in row] for row in A0c]
    W = [[to_fraction(v) for v in row] for row in W0c]
    return all(
        s * sum((W[k][a] * A[k][b] for k in range(h)), Fraction(0)) == XtY[a][b]
        for a in range(d) for b in range(c)
    )  # fmt: skip


def _exact_moments(setup: WideSetup) -> tuple[list[list[Fraction]], Fraction]:
    """``(X^T Y, s)`` of a wide setup in rationals, ``s = |x_1|^2`` (the isotropy constant
    where ``X^T X = s I`` holds exactly); computed once per setup, cached on it."""
    got = setup.__dict__.get("_exact_moments")
    if got is None:
        X = [[to_fraction(v) for v in row] for row in setup.X]
        Y = [[to_fraction(v) for v in row] for row in setup.Y]
        n, d, c = setup.n, setup.d, setup.c
        XtY = [[sum((X[i][a] * Y[i][b] for i in range(n)), Fraction(0)) for b in range(c)]
               for a in range(d)]  # fmt: skip
        got = (XtY, sum((row[0] * row[0] for row in X), Fraction(0)))
        object.__setattr__(setup, "_exact_moments", got)
    return got


def _wide_range_error(s: float) -> ValueError:
    """The refusal of a wide setup whose float64 intermediates leave the float64 range."""
    return ValueError(
        f"X, Y: the closed form's float64 intermediates overflow or underflow for this setup "
        f"(s = tr(X^T X)/d = {s:.3g}, time scales ~1/s); pass dps=... (mpmath), or rescale X "
        f"and Y together (the flow at (c X, c Y) is the flow at time c^2 t)"
    )


def _internal_time(t: Any, inf: bool, k: dict[str, Any]) -> tuple[Any, bool]:
    """The time ``t * t_scale`` of the float64 trajectory's normalised data (``t_scale``
    an exact power of 2; 1 at ``dps``) and whether it is the limit: a product beyond the
    float64 range is the limit where the slowest nonzero rate (of the normalised data) is
    above 1e-290, so that ``e^{-rate t}`` is 0 and ``1/t`` below 1e-308 there; else a
    ``ValueError`` (pass dps)."""
    scale = k.get("t_scale")
    if inf or scale is None:
        return t, inf
    ti = t * scale
    if math.isfinite(ti):
        return ti, False
    rates = [abs(float(r)) for r in k["rates"] if r != 0]
    if min(rates, default=1.0) > 1e-290:
        return math.inf, True
    raise ValueError(f"t = {t!r} is beyond the float64 range of this setup's normalised "
                     f"time (t * {scale:.3g}); pass dps=... for mpmath")  # fmt: skip


def _f64_finite(out: dict[str, Any], t: Any) -> None:
    """``ValueError`` naming the first of the float64 state's entries ``out`` that is not
    finite, and the time ``t``."""
    for name, v in out.items():
        if not np.all(np.isfinite(np.asarray(v, dtype=float))):
            raise ValueError(f"the state's {name} is not finite in float64 at t = {t!r}; pass "
                             f"dps=... for mpmath")  # fmt: skip


@nb.mpmath_in_mpmath_out
def wide_start(setup: WideSetup, delta: Number, *, A: Any = None, W: Any = None,
               dps: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Initial weights with ``Delta = eta_w A A^T - eta_a W W^T = delta I_h`` (Theorem 4.2's
    setting): give ``A`` (h, c) and get ``W = [L, 0]`` (h, d; ``L L^T = (eta_w A A^T - delta
    I)/eta_a``, Cholesky, needs ``d >= h``), or give ``W`` (h, d) and get ``A = [L, 0]`` (``L
    L^T = (delta I + eta_a W W^T)/eta_w``, needs ``c >= h``).  float64 (``dps=None``) or mpmath
    at ``dps`` digits; ``ValueError`` when the matrix is not positive definite."""
    if not isinstance(setup, WideSetup):
        raise TypeError(f"setup must be a kunin.WideSetup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    delta = nb.check_number("delta", delta)
    if (A is None) == (W is None):
        raise ValueError("wide_start needs exactly one of A (h, c) or W (h, d)")
    given_name, given = ("A", A) if W is None else ("W", W)
    width = setup.c if given_name == "A" else setup.d
    rows = nb.check_matrix(given_name, given, (None, width))
    h = len(rows)
    other = setup.d if given_name == "A" else setup.c
    if other < h:
        raise ValueError(f"{given_name} has h = {h} rows but the other layer has only "
                         f"{other} columns: need h <= {other}")  # fmt: skip
    with mpmath.workdps((dps or 17) + GUARD_DIGITS):
        G = mpmath.matrix([[nb.to_mpf(v) for v in r] for r in rows])
        ea, ew, dl = (nb.to_mpf(v) for v in (setup.eta_a, setup.eta_w, delta))
        if given_name == "A":
            target = (ew * G * G.T - dl * mpmath.eye(h)) / ea
        else:
            target = (dl * mpmath.eye(h) + ea * G * G.T) / ew
        try:
            L = mpmath.cholesky(target)
        except ValueError:
            raise ValueError(f"delta = {nb.describe(delta)} leaves the other layer's Gram "
                             "matrix not positive definite for this "
                             f"{given_name}") from None  # fmt: skip
        made = [[L[i, j] if j < h else mpmath.mpf(0) for j in range(other)] for i in range(h)]
        rnd = (lambda v: float(v)) if dps is None else nb.round_to(dps)
        made_arr = np.array([[rnd(v) for v in r] for r in made], dtype=nb.dtype(dps))
        given_arr = np.array([[rnd(v) for v in r] for r in G.tolist()], dtype=nb.dtype(dps))
    return (given_arr, made_arr) if given_name == "A" else (made_arr, given_arr)


@nb.mpmath_in_mpmath_out
def wide_closed_form(setup: WideSetup, A0: Any, W0: Any, *, dps: int | None = None,
                     isotropy_rtol: Number | None = None,
                     balance_rtol: Number | None = None,
                     alignment_rtol: Number | None = None,
                     ) -> WideTrajectory | AlignedWideTrajectory:  # fmt: skip
    """Exact gradient flow of the wide net ``f = A^T W x`` (seed 003 Part II, Theorem 4.2's
    setting), derived here.

    Conditions (else ``ValueError``, pointing to ``numerics.simulate``): ``X^T X = s I``
    (as :func:`closed_form`, ``isotropy_rtol``) and ``Delta(0) = eta_w A0 A0^T - eta_a W0
    W0^T = delta I_h`` (to ``balance_rtol`` times ``max diag(eta_w A A^T + eta_a W W^T)``;
    default ``10 u``, or ``4 (c + d) eps`` for float entries).  Every shape the balance
    allows is solved (issue 31): ``h <= c`` if ``delta > 0``, ``h <= d`` if ``delta < 0``,
    any ``h`` if ``delta = 0`` (a start of rank ``r < h`` is that of its ``r`` independent
    rows).  Refused: ``h > c`` with ``delta > 0`` and ``h > d`` with ``delta < 0`` (no such
    start: the message names the balance), and at ``delta = 0`` a start on the stable
    manifold of a saddle (the origin, or a direction of Q0 that reaches no mode of rate
    >= 0).

    Derivation: with ``eta' = s eta``, ``kappa = sqrt(eta_a' eta_w')``, ``delta' = s delta``
    and ``Q = [A/sqrt(eta_a'), W/sqrt(eta_w')]`` (h x (c + d)), the flow is ``dQ/dt = Q K -
    (kappa^2/2) Q Q^T Q`` (:func:`wide_generator`, claim ``kunin.wide_reduction``); ``P = Q^T
    Q`` obeys the matrix Riccati equation ``P' = K P + P K - kappa^2 P^2``, solved by ``P =
    e^{Kt} Q0^T N^{-1} Q0 e^{Kt}``, ``N = I + kappa^2 Q0 int_0^t e^{2Ku} du Q0^T`` (claim
    ``kunin.wide_riccati``).  P gives ``A^T A = eta_a' P_AA``, ``W^T W = eta_w' P_WW``,
    ``beta = W^T A = kappa P_WA``, the outputs, the loss and the NTK.  ``Q`` itself is ``S
    Q0 e^{Kt}`` with ``S^T S = N^{-1}`` and ``S' S^{-1}`` symmetric: ``S = N^{-1/2}`` up to a
    rotation of the hidden layer that obeys an ODE of its own, so ``A``, ``W`` are returned
    exactly where ``S = N^{-1/2}``: for ``h = 1`` (every shape), and for ``h >= 2`` where the
    start's rate-group Gram matrices ``M_l = sum_{k_j = l} c_j c_j^T`` commute pairwise (to
    ``100 h u |C|_F^4``: rows that decouple by modes up to a rotation of the hidden layer;
    claim ``kunin.wide_decoupled_weights``), evaluated row by row in their common eigenbasis
    (:func:`~solvable.models.kunin.wide_shapes.decoupled`).  Otherwise ``A``, ``W`` are
    ``None``: the rotation ``U`` in ``S = U N^{-1/2}`` obeys ``U' = U X(t)`` with ``X``
    antisymmetric and built from the commutator of ``N`` and ``N'``, which has no closed form
    here (the Gram matrices, beta, the outputs, the loss and the NTK are exact).  Evaluation: in the
    eigenbasis of ``K`` with every exponent <= 0: for ``h = c`` (``delta > 0``) / ``h = d``
    (``delta < 0``) through ``Z = C_+^{-1}`` (:func:`riccati_core`), ``t = inf`` giving ``P
    = (2/kappa^2) K_+`` (claim ``kunin.wide_limit_at_infinity``); for the other shapes
    through the echelon form of ``C`` (pivots by decreasing rate;
    :mod:`~solvable.models.kunin.wide_shapes`, claim ``kunin.wide_echelon_form``), ``t =
    inf`` giving ``(2/kappa^2) sum_g k_g Pi_g`` over the pivots' rates (the modes that win:
    generically the h fastest that the start touches; claim ``kunin.wide_echelon_limit``).
    The loss of the other shapes is the residual's (accurate to ``~eps |Y|^2`` absolutely).

    Inputs that are not whitened (issue 31, item 3a; :mod:`~solvable.models.kunin.wide_aligned`):
    an :class:`~solvable.models.kunin.wide_aligned.AlignedWideTrajectory` when the columns of
    ``X^T Y`` and of ``X^T X W0^T`` lie in one eigenspace of ``X^T X`` (eigenvalue ``s > 0``;
    to ``alignment_rtol``, decided in rationals as :func:`~solvable.models.kunin.closed_form`:
    exactly for exact entries of X, to the isotropy tolerance for float ones) and the reduced
    balance ``Delta_E = Delta(0) + eta_a W_N W_N^T = delta_E I_h`` holds (``W_N``: the rows of
    ``W0`` in ``ker X``; ``balance_rtol`` of the start's terms).  Rank-deficient inputs
    ``X^T X = s P`` from any ``W0`` are such data.  ``A``, ``W = W_E + W_N`` are returned
    where the reduced start ``(A0, W_E)`` determines them (as above); where it does not,
    ``W_N != 0`` is refused (``beta`` would depend on the undetermined rotation).  Anything
    else is a ``ValueError`` naming both conditions (isotropy and alignment) and pointing to
    ``numerics.simulate``, or, for a start aligned with the singular vectors shared by
    ``X^T X`` and ``X^T Y`` (each mode its own ``s_k``), to ``deep_linear.closed_form``."""
    if not isinstance(setup, WideSetup):
        raise TypeError(f"setup must be a kunin.WideSetup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    A0c = nb.check_matrix("A0", A0, (None, setup.c))
    W0c = nb.check_matrix("W0", W0, (len(A0c), setup.d))
    h, c, d = len(A0c), setup.c, setup.d
    try:  # inputs that are not whitened: the aligned start (wide_aligned), else refused
        s_exact = _isotropic_s(setup, dps, isotropy_rtol)
    except ValueError as err:
        if "isotropic columns" not in str(err):  # (a bad isotropy_rtol, too-large data)
            raise
        rtol = alignment_tolerance(setup, dps, isotropy_rtol, alignment_rtol)
        return aligned_wide_closed_form(setup, A0c, W0c, dps, rtol, balance_rtol,
                                        wide_closed_form, str(err))  # fmt: skip
    unit = 2.0**-52 if dps is None else 10.0 ** (-dps)
    if balance_rtol is None:
        brtol = _default_rtol([v for r in (*A0c, *W0c) for v in r], unit, c + d)
    else:
        brtol = nb.to_float(nb.check_number("balance_rtol", balance_rtol, nonnegative=True),
                            "balance_rtol")  # fmt: skip
    with mpmath.workdps(max(50, (dps or 17) + 20)):
        Am = np.array([[nb.to_mpf(v) for v in r] for r in A0c], dtype=object)
        Wm = np.array([[nb.to_mpf(v) for v in r] for r in W0c], dtype=object)
        ea, ew = nb.to_mpf(setup.eta_a), nb.to_mpf(setup.eta_w)
        Dl = _wide_balance(Am, Wm, ea, ew, exact_matmul)  # (each Gram exact, rounded once)
        delta_x = mpmath.fsum(Dl[i, i] for i in range(h)) / h
        dev = max(abs(Dl[i, j] - (delta_x if i == j else 0)) for i in range(h) for j in range(h))
        scale = max(ew * mpmath.fsum(Am[i] ** 2) + ea * mpmath.fsum(Wm[i] ** 2) for i in range(h))
        if dev > brtol * scale:
            raise ValueError(
                "wide_closed_form needs Delta(0) = eta_w A0 A0^T - eta_a W0 W0^T = delta I_h "
                f"(Theorem 4.2's setting); got max|Delta - delta I| = {mpmath.nstr(dev, 3)} "
                f"with terms of size {mpmath.nstr(scale, 3)} (allowed: balance_rtol = "
                f"{brtol:.1e} times that){_shape_note(h, c, d)}. Use numerics.simulate."
            )
        tiny = brtol * scale
        general = False  # (h < c, h < d, or delta = 0 with h > c, d: the echelon form)
        if h == c and (delta_x > tiny or (abs(delta_x) <= tiny and (h != d or delta_x >= 0))):
            side = "A"
        elif h == d and delta_x < tiny:
            side = "W"
        elif (delta_x > tiny and h > c) or (delta_x < -tiny and h > d):
            raise ValueError(
                f"the balance Delta = delta I_h forbids h = {h} hidden units here: delta > 0 "
                f"needs h <= c (eta_w A A^T = delta I + eta_a W W^T has rank h <= c), delta < "
                f"0 needs h <= d; got c = {c}, d = {d}, delta = {mpmath.nstr(delta_x, 6)} (no "
                f"such start exists: Delta is not delta I_h). Use numerics.simulate."
            )
        else:
            general, side = True, ("A" if delta_x >= 0 else "W")
    conv = nb.converter(dps)
    with nb.Precision(dps), np.errstate(all="ignore"):
        X, Y = _arrays(setup, dps)
        eta_a, eta_w = conv(setup.eta_a), conv(setup.eta_w)
        s = conv(s_exact) if dps is not None else float(s_exact)
        delta = conv(delta_x) if dps is not None else float(delta_x)
        # float64: the flow of the data (c X, c Y), c = 2^j (exact), s c^2 in [1, 4): its
        # state at t / c^2 is the state at t (the loss scales by c^2), and every intermediate
        # (kappa, the rates, the eigenbasis, C) is of the order of the start and beta*
        c2, t_scale, s_int = 1, None, s
        if dps is None:
            if not _F64_TINY <= s < math.inf:
                raise ValueError(
                    f"X: s = tr(X^T X)/d = {s:.3g} is outside the normal float64 range; pass "
                    f"dps=... (mpmath), or rescale X and Y together (the flow at (c X, c Y) "
                    f"is the flow at time c^2 t)"
                )
            j = -math.floor(math.log2(s) / 2)
            c2, t_scale = math.ldexp(1.0, 2 * j), math.ldexp(1.0, -2 * j)
            s_int = s * c2
            X_int, Y_int = X * math.ldexp(1.0, j), Y * math.ldexp(1.0, j)
        delta_p, kappa, sa, sw = _evaluators("numpy" if dps is None else "mpmath")["primed"](
            eta_a, eta_w, s_int, delta)  # fmt: skip
        B = X.T @ Y / s if dps is not None else X_int.T @ Y_int / s_int
        if dps is None and not np.all(np.isfinite(B)):
            raise ValueError(
                "X, Y: beta* = X^T Y / s exceeds the float64 range for this setup; pass "
                "dps=... (mpmath)"
            )
        try:
            R, rates, _, null = _wide_eigenbasis(delta_p, kappa, B, side, dps)
        except OverflowError:  # float64 (Python floats in the generated Omega): its range
            raise _wide_range_error(s) from None
        A, W = _weights(A0c, dps, "A0"), _weights(W0c, dps, "W0")
        Q0 = np.concatenate([A / sa, W / sw], axis=1)
        C = Q0 @ R
        floor = _wide_floor(setup)
        stationary = False
        if floor is not None:  # (exactly isotropic data: the loss from decaying terms)
            _exact_null_modes(C, null, setup, A0c, W0c)
            stationary = _starts_at_beta_star(setup, A0c, W0c)
        Cp, Cm = C[:, :h], C[:, h:]
        # singular to the working precision, relative to the size of the start
        size = max(abs(v) for v in Q0.ravel())
        # kappa^2 (in N = I + kappa^2 C diag(g) C^T) a normal double and p_inf = 2 k /
        # kappa^2 finite: else the flow's nonlinearity is lost (kappa^2 = 0 returns the start
        # at every t) or its limit overflows
        k2 = kappa * kappa
        ranged = dps is not None or (
            np.all(np.isfinite(C)) and np.all(np.isfinite(R)) and _F64_TINY <= k2 < math.inf
            and math.isfinite(2 * float(np.max(np.abs(rates))) / k2)
        )  # fmt: skip
        if not ranged:
            raise _wide_range_error(s)
        singular = general
        if not general:
            if dps is None:
                sv = [float(v) for v in np.linalg.svd(Cp, compute_uv=False)]
            else:
                sv = list(mpmath.svd_r(mpmath.matrix(Cp.tolist()), compute_uv=False))
            singular = not min(sv) > 100 * h * unit * size
        if singular:  # (C_+ singular: possible only at delta = 0) every other shape, or a
            # start of rank < h, or one on a saddle's stable manifold (refused there)
            return _general_trajectory(setup, dps, delta, s, B, R, rates, C, Q0, t_scale,
                                       dict(kappa=kappa, sa=sa, sw=sw, X=X, Y=Y, eta_a=eta_a,
                                            eta_w=eta_w, s=s), 100 * h * unit * size)  # fmt: skip
        # |Q0|_F / sigma_min(C_+): how much C_+^{-1} amplifies the start's rounding errors
        condition = math.sqrt(float(sum(v * v for v in Q0.ravel()))) / float(min(sv))
        Z = _inverse(Cp, dps)
        tie = 16 * unit * max(abs(v) for v in rates)
        rows = decoupled(C, rates, tie, 100 * h * unit * size, dps) if h > 1 else None
        data = dict(decoupled=rows, rates=rates, kappa=kappa, R=R, Z=Z, H=Z @ Cm, C=C, sa=sa,
                    sw=sw, X=X, Y=Y,
                    eta_a=eta_a, eta_w=eta_w, B=B, s=s, t_scale=t_scale,
                    floor=None if floor is None else _working_rational(floor, dps),
                    stationary=stationary,
                    sign=int(Cp[0, 0] > 0) - int(Cp[0, 0] < 0) if h == 1 else None)  # fmt: skip
        if h == 1 and dps is not None:
            data["sign"] = mpmath.mpf(data["sign"])
    return _trajectory(setup, dps, delta, s, B, rates, t_scale, h, condition, data)


def _trajectory(setup: WideSetup, dps: int | None, delta: Any, s: Any, B: np.ndarray,
                rates: np.ndarray, t_scale: Any, h: int, condition: Any,
                data: dict[str, Any]) -> WideTrajectory:  # fmt: skip
    """The :class:`WideTrajectory` of the evaluation ``data``: its reported ``rates`` those
    of the data itself (the normalised data's times ``t_scale``, exact)."""
    rnd = nb.round_to(dps)
    if t_scale is not None:
        with np.errstate(over="ignore"):
            rates = rates * t_scale
        if not np.all(np.isfinite(rates)):
            raise _wide_range_error(s)
    brnd = nb.rounded((B, rates), dps)
    return WideTrajectory(setup=setup, dps=dps, delta=rnd(delta), s=rnd(s),
                          beta_star=brnd[0], rates=brnd[1], h=h,
                          condition=float(condition), _data=data)  # fmt: skip


def _general_trajectory(setup: WideSetup, dps: int | None, delta: Any, s: Any, B: np.ndarray,
                        R: np.ndarray, rates: np.ndarray, C: np.ndarray, Q0: np.ndarray,
                        t_scale: Any, common: dict[str, Any],
                        tol: Any) -> WideTrajectory:  # fmt: skip
    """Every other shape the balance allows (``h < c``, ``h < d``, ``delta = 0``): the
    echelon form of :mod:`~solvable.models.kunin.wide_shapes` (pivots by decreasing rate);
    ``ValueError`` where the start has no pivot of rate >= 0 (the origin, or a start on a
    saddle's stable manifold, possible only at delta = 0)."""
    ech = echelon(C, rates, tol, dps)
    if not ech["pivots"] or min(ech["q"]) < 0:
        raise ValueError(
            "the start lies on the stable manifold of a saddle (a direction of Q0 reaches no "
            "growing mode of K, possible only at delta = 0): not covered by "
            "wide_closed_form. Use numerics.simulate."
        )
    unit = 2.0**-52 if dps is None else mpmath.mpf(10) ** (-dps)
    ech["tie"] = 16 * unit * max(abs(v) for v in rates)
    condition = math.sqrt(float(sum(v * v for v in Q0.ravel()))) / float(ech["sigma_min"])
    rows = None if len(Q0) == 1 else decoupled(C, rates, ech["tie"], tol, dps)
    data = dict(common, rates=rates, R=R, C=C, B=B, t_scale=t_scale, floor=None,
                stationary=False, echelon=ech, decoupled=rows)  # fmt: skip
    return _trajectory(setup, dps, delta, s, B, rates, t_scale, len(Q0), condition, data)
