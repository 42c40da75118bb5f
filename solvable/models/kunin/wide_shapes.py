"""Seed 003 (Kunin et al.), Part II's exact solution for every shape the balance allows
(issue 31, item 1): ``Delta(0) = delta I_h`` with ``h <= c`` (``delta > 0``), ``h <= d``
(``delta < 0``) or any ``h`` (``delta = 0``), not only ``h = c`` / ``h = d``.

The textbook solution ``P = Lam C^T N^{-1} C Lam`` (``C = Q0 R``, ``Lam = e^{k t}``, ``N = I +
kappa^2 C diag(g) C^T``, claim ``kunin.wide_riccati``) holds for every shape; its stable
evaluation ``Z = C_+^{-1}`` needs ``C_+`` square.  Here it is replaced by the **echelon form**
of the start (derived here):

* order the modes by rate, largest first, and pick pivots greedily: a mode is a pivot when
  its column of ``C`` is not in the span of the pivots before it (Gram-Schmidt, to
  ``100 h u |Q0|``).  The pivots ``J`` (``r`` of them, ``r`` the rank of ``Q0``) are the
  modes that win: generically the ``h`` fastest, but a mode that the start does not touch,
  or touches only through faster pivots, is skipped.
* ``C = U_1 R_1 E``: ``U_1`` (h x r) orthonormal, ``R_1 = U_1^T C_J`` (r x r, invertible),
  ``E = R_1^{-1} U_1^T C`` (r x m), with ``E_J = I`` and row ``i`` zero on every mode before
  its pivot ``J_i`` in the order, so that ``k_j <= k_{J_i}`` wherever ``E_ij != 0``.
* ``P = Yh^T (L L^T)^{-1} Yh`` with ``Yh = E o e^{(k_j - k_{J_i}) t}`` (:func:`echelon_factor`)
  and ``L = [e^{-k_J t} Z, kappa E o w]``, ``Z = R_1^{-1}``, ``w_ij = e^{-k_{J_i} t}
  sqrt(g_j)`` (``weight`` of :func:`~solvable.models.kunin.expressions.wide_symbolic`):
  every exponent <= 0 (claim ``kunin.wide_echelon_form``).
* ``t = inf``: ``P(oo) = (2/kappa^2) sum_g k_g Pi_g`` over the distinct pivot rates ``k_g >
  0``, ``Pi_g`` the orthogonal projector onto the row space of ``E``'s rows with pivot rate
  ``k_g``, restricted to the modes of rate ``k_g`` (ties: the whole eigenspace's part that
  the start reaches; a pivot of rate 0 contributes 0: P decays like 1/t there).  Claim
  ``kunin.wide_echelon_limit``.

``A``, ``W``: ``Q = S Q0 e^{Kt}`` with ``S^T S = N^{-1}`` fixes ``Q`` up to a rotation of
the hidden layer that obeys an ODE of its own; for ``r = h = 1`` it is ``S = N^{-1/2}``
(``Q = sign(R_1) Yh / sqrt(L L^T)``), and for ``h >= 2`` where the rate-group Gram
matrices commute (:func:`decoupled`, claim ``kunin.wide_decoupled_weights``); ``A``, ``W``
are returned exactly then.
"""

from __future__ import annotations

from typing import Any

import mpmath
import numpy as np


def echelon_factor(Z: Any, E: Any, gap: Any, weight: Any, e_pivot: Any,
                   kappa: Any) -> tuple[Any, Any]:  # fmt: skip
    """``(Yh, L)`` of the echelon form: ``Yh = E o gap`` (r x m) and ``L = [e_pivot Z, kappa
    E o weight]`` (r x (r + m)), so that ``P = Yh^T (L L^T)^{-1} Yh`` (:func:`echelon_gram`).
    ``gap``, ``weight`` (r x m), ``e_pivot`` (r,) may carry leading axes (times).  Array code
    (float64, mpmath, sympy object arrays)."""
    E = np.asarray(E)
    Yh = E * np.asarray(gap)
    L = np.concatenate([np.asarray(e_pivot)[..., :, None] * Z,
                        np.broadcast_to(kappa * E * np.asarray(weight), Yh.shape)],
                       axis=-1)  # fmt: skip
    return Yh, L


def echelon_gram(core_inv: Any, Yh: Any) -> Any:
    """``P = Yh^T core^{-1} Yh`` (m x m; leading axes kept)."""
    return Yh.swapaxes(-1, -2) @ core_inv @ Yh


def echelon(C: np.ndarray, rates: np.ndarray, tol: Any, dps: int | None) -> dict[str, Any]:
    """The echelon form of ``C = Q0 R`` (h x m) for the ``rates`` of its columns: ``pivots``
    (mode indices, in order of decreasing rate), ``U1`` (h x r), ``R1`` (r x r), ``Z =
    R1^{-1}``, ``E`` (r x m, exact zeros before each pivot, the identity on the pivots),
    ``q`` (the pivot rates, (r,)) and ``sigma_min`` (of R1).  A column is a pivot when its
    part orthogonal to the earlier pivots' columns exceeds ``tol``."""
    h, m = C.shape
    sqrt = np.sqrt if dps is None else mpmath.sqrt
    order = sorted(range(m), key=lambda j: -rates[j])  # (stable: ties keep the mode order)
    basis: list[np.ndarray] = []
    pivots: list[int] = []
    for j in order:
        v = C[:, j].copy()
        for _ in range(2):  # (Gram-Schmidt twice: orthogonal to the working precision)
            for u in basis:
                v = v - u * (u @ v)
        nrm = sqrt(v @ v)
        if nrm > tol:
            basis.append(v / nrm)
            pivots.append(j)
        if len(pivots) == h:
            break
    r = len(pivots)
    U1 = np.array(basis, dtype=C.dtype).T.reshape(h, r)
    Cr = U1.T @ C
    R1 = Cr[:, pivots]
    if dps is None:
        Z = np.linalg.inv(R1) if r else np.zeros((0, 0))
        sigma = float(np.linalg.svd(R1, compute_uv=False).min()) if r else 0.0
    else:
        Zm = mpmath.inverse(mpmath.matrix(R1.tolist())) if r else None
        Z = np.array([[Zm[i, j] for j in range(r)] for i in range(r)], dtype=object)
        sigma = min(mpmath.svd_r(mpmath.matrix(R1.tolist()), compute_uv=False)) if r else 0
    E = Z @ Cr
    position = {j: i for i, j in enumerate(order)}
    zero, one = 0 * C.flat[0], 0 * C.flat[0] + 1
    for i, p in enumerate(pivots):  # the echelon structure, exactly
        for j in range(m):
            if position[j] < position[p]:
                E[i, j] = zero
        E[:, p] = zero
        E[i, p] = one
    return dict(pivots=pivots, U1=U1, R1=R1, Z=Z, E=E, q=rates[pivots], sigma_min=sigma)


def limit_pieces(E: np.ndarray, rates: np.ndarray, q: np.ndarray, kappa: Any, tie: Any,
                 sqrt: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """The rows with a positive pivot rate, and the scalar pieces' limits at ``t = inf``
    there (claim ``kunin.wide_echelon_limit``): ``gap = 1`` on the modes the row touches at
    its pivot's rate (``|k_j - q_i| <= tie``), else 0; ``weight = gap / sqrt(2 k_j)``;
    ``e_pivot = 0``.  Returns ``(rows, gap, weight)``; ``sqrt`` of the precision (float64,
    mpmath, sympy)."""
    rows = np.array([i for i in range(len(q)) if q[i] > 0], dtype=int)
    gap = np.array([[1 if abs(rates[j] - q[i]) <= tie and E[i, j] != 0 else 0
                     for j in range(len(rates))] for i in rows], dtype=E.dtype)  # fmt: skip
    gap = gap.reshape(len(rows), len(rates))
    weight = np.array([[gap[a, j] / sqrt(2 * rates[j]) if gap[a, j] else 0 * kappa
                        for j in range(len(rates))] for a in range(len(rows))],
                      dtype=E.dtype).reshape(gap.shape)  # fmt: skip
    return rows, gap, weight


def _inverse_gram(L: np.ndarray, dps: int | None) -> np.ndarray:
    """``(L L^T)^{-1}`` of a stack of factors (T, r, n) as ``R^{-1} R^{-T}`` from the QR
    factor of ``L^T`` (float64 stacked; mpmath one by one)."""
    if dps is None:
        Rinv = np.linalg.inv(np.linalg.qr(L.swapaxes(-1, -2), mode="r"))
        return Rinv @ Rinv.swapaxes(-1, -2)
    out = np.empty((L.shape[0], L.shape[1], L.shape[1]), dtype=object)
    for a in range(L.shape[0]):
        _, Rm = mpmath.qr(mpmath.matrix(L[a].T.tolist()), mode="skinny")
        Rinv = mpmath.inverse(Rm)
        n = L.shape[1]
        Ri = np.array([[Rinv[i, j] for j in range(n)] for i in range(n)], dtype=object)
        out[a] = Ri @ Ri.T
    return out


def echelon_states(ech: dict[str, Any], rates: np.ndarray, kappa: Any, ti: np.ndarray,
                   limit: np.ndarray, dps: int | None,
                   ev: dict[str, Any]) -> tuple[np.ndarray, np.ndarray | None]:  # fmt: skip
    """``P`` in the eigenbasis (T, m, m) at the (normalised) times ``ti`` ((T,) array; the
    limit where ``limit``) from the echelon form ``ech`` (:func:`echelon`), and for ``h =
    1`` the row ``Q R`` (T, m) (else ``None``).  ``ev``: the generated wide evaluators of
    the precision.  float64: a time where ``2 max|k| t`` overflows is the limit (every
    decaying factor is 0 there)."""
    E, Z, q, U1 = ech["E"], ech["Z"], ech["q"], ech["U1"]
    m, T = len(rates), len(ti)
    dtype = float if dps is None else object
    if dps is None:
        with np.errstate(over="ignore", invalid="ignore"):
            limit = limit | ~np.isfinite(2 * float(np.max(np.abs(rates))) * ti)
    P = np.empty((T, m, m), dtype=dtype)
    rows = np.empty((T, m), dtype=dtype) if U1.shape[0] == 1 else None
    sqrt = np.sqrt if dps is None else np.vectorize(mpmath.sqrt, otypes=[object])
    mask = E != 0
    fin = ~limit
    if fin.any():
        tt = ti[fin]
        with np.errstate(all="ignore"):
            gap, weight = ev["echelon"](rates[None, None, :], q[None, :, None],
                                        tt[:, None, None])  # fmt: skip
            e_pivot, _ = ev["plus"](q[None, :], tt[:, None])
        gap, weight = np.where(mask, gap, 0 * kappa), np.where(mask, weight, 0 * kappa)
        Yh, L = echelon_factor(Z, E, gap, weight, e_pivot, kappa)
        P[fin] = echelon_gram(_inverse_gram(L, dps), Yh)
        if rows is not None:
            rows[fin] = U1[0, 0] * Yh[:, 0] / sqrt((L[:, 0] * L[:, 0]).sum(-1))[:, None]
    if limit.any():
        tie = ech["tie"]
        act, gap, weight = limit_pieces(E, rates, q, kappa, tie,
                                        np.sqrt if dps is None else mpmath.sqrt)  # fmt: skip
        Pl = np.zeros((m, m), dtype=dtype) * kappa
        rowl = np.zeros(m, dtype=dtype) * kappa
        if len(act):
            Yh, L = echelon_factor(Z[act], E[act], gap, weight, 0 * q[act], kappa)
            Pl = echelon_gram(_inverse_gram(L[None], dps)[0], Yh)
            if rows is not None:
                rowl = U1[0, 0] * Yh[0] / sqrt((L[0] * L[0]).sum())
        P[limit] = Pl
        if rows is not None:
            rows[limit] = rowl
    return P, rows


Rows = list[dict[str, Any] | None]  # the echelon forms of the rows of a decoupled start


def decoupled(C: np.ndarray, rates: np.ndarray, tie: Any, tol: Any,
              dps: int | None) -> tuple[np.ndarray, Rows] | None:  # fmt: skip
    """Where the hidden layer's rotation is determined in closed form for ``h >= 2``: the
    rate-group Gram matrices ``M_l = sum_{k_j = l} c_j c_j^T`` (``c_j`` the columns of
    ``C``) commute pairwise (to ``100 h u |C|_F^4``).  Then ``N(t) = I + kappa^2 sum_l g_l
    M_l`` commutes with ``N' = kappa^2 Y Y^T`` at every t, ``S = N^{-1/2}`` solves ``S' =
    -(kappa^2/2) S Y Y^T S^T S`` (``Q = S Y``), and in the common eigenbasis ``O`` of the
    ``M_l`` the rows of ``O C`` are independent h = 1 starts (orthogonal in every rate
    group; claim ``kunin.wide_echelon_form``).  Returns ``O`` and the echelon form of each row
    of ``O C`` (``None`` for a zero row, which stays 0), or ``None`` where the ``M_l`` do
    not commute."""
    h, m = C.shape
    order = sorted(range(m), key=lambda j: -rates[j])
    groups: list[list[int]] = []
    for j in order:
        if groups and abs(rates[groups[-1][0]] - rates[j]) <= tie:
            groups[-1].append(j)
        else:
            groups.append([j])
    Ms = [C[:, g] @ C[:, g].T for g in groups]
    unit = 2.0**-52 if dps is None else mpmath.mpf(10) ** (-dps)
    scale = sum(v * v for v in C.ravel())
    bound = 100 * h * unit * scale * scale
    for a in range(len(Ms)):
        for b in range(a):
            if max(abs(v) for v in (Ms[a] @ Ms[b] - Ms[b] @ Ms[a]).ravel()) > bound:
                return None
    # the common eigenbasis: of a combination with unequal weights (1, sqrt 2, sqrt 3, ...)
    sqrt = np.sqrt if dps is None else mpmath.sqrt
    combo = sum(sqrt(a + 1) * M for a, M in enumerate(Ms))
    if dps is None:
        _, V = np.linalg.eigh(np.asarray(combo, dtype=float))
    else:
        _, Vm = mpmath.eigsy(mpmath.matrix(combo.tolist()))
        V = np.array([[Vm[i, j] for j in range(h)] for i in range(h)], dtype=object)
    O = V.T
    for M in Ms:  # (a degenerate combination: the basis must diagonalise every M_l)
        D = O @ M @ O.T
        if max((abs(D[i, j]) for i in range(h) for j in range(h) if i != j), default=0) > (
            100 * h * unit * scale
        ):
            return None
    rows: Rows = []
    for row in O @ C:
        if sqrt(row @ row) <= tol:
            rows.append(None)
            continue
        one = echelon(row[None, :], rates, tol, dps)
        one["tie"] = tie
        rows.append(one)
    return O, rows


def decoupled_q(O: np.ndarray, rows: Rows, rates: np.ndarray,
                kappa: Any, ti: np.ndarray, limit: np.ndarray, dps: int | None,
                ev: dict[str, Any]) -> np.ndarray:  # fmt: skip
    """``Q`` in the eigenbasis of K, (T, h, m), of a decoupled start (:func:`decoupled`):
    ``O^T`` times the rows, each the h = 1 solution of its row of ``O C``."""
    m, T = len(rates), len(ti)
    dtype = float if dps is None else object
    Qt = np.zeros((T, len(rows), m), dtype=dtype) * kappa
    for i, one in enumerate(rows):
        if one is not None:
            Qt[:, i] = echelon_states(one, rates, kappa, ti, limit, dps, ev)[1]
    return O.T @ Qt
