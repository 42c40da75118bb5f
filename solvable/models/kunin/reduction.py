"""Seed 003 (Kunin et al.), the reduced flows of isotropic inputs (``X^T X = s I``) as checked
array code (float64, mpmath / sympy object arrays).

Part I (exact solution): in the balanced coordinates ``z = (a/sqrt(eta_a'), w/sqrt(eta_w'))``
the flow is ``dz/dt = G z - (kappa^2/2)|z|^2 z`` (:func:`generator`, :func:`reduced_field`;
claim ``kunin.whitened_reduction``).  Part II (Theorem 4.2's setting, ``Delta = delta I_h``):
the stacked ``Q = [A/sqrt(eta_a'), W/sqrt(eta_w')]`` follows ``dQ/dt = Q K - (kappa^2/2) Q Q^T
Q`` (:func:`wide_generator`, :func:`wide_field`; claim ``kunin.wide_reduction``); the NTK of
the wide net (:func:`wide_ntk`) and the evaluation forms of the matrix Riccati solution in the
eigenbasis of ``K`` (:func:`riccati_core`, :func:`riccati_factor`, :func:`riccati_direct`,
:func:`riccati_gram`; claims ``kunin.wide_riccati``, ``kunin.wide_stable_form``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from solvable._core.arrays import ArrayArgs


def _generator(delta_p: Any, kappa: Any, beta_star: Any) -> np.ndarray:
    b = list(beta_star)
    d = len(b)
    rows = [[delta_p / 2, *(kappa * v for v in b)]]
    for i in range(d):
        rows.append([kappa * b[i], *(-delta_p / 2 if j == i else 0 * delta_p for j in range(d))])
    return np.array(rows)


def _reduced_field(z: Any, G: Any, kappa: Any) -> Any:
    z = np.asarray(z)
    return G @ z - kappa**2 / 2 * (z @ z) * z


def generator(delta_p: Any, kappa: Any, beta_star: Any) -> np.ndarray:
    """``G = [[delta'/2, kappa beta*^T], [kappa beta*, -delta'/2 I_d]]`` (d + 1, d + 1) of
    the whitened flow ``dz/dt = G z - (kappa^2/2)|z|^2 z`` (:func:`reduced_field`; claim
    ``kunin.whitened_reduction``), from the primed ``delta' = s delta``, ``kappa =
    sqrt(eta_a' eta_w')`` and ``beta*``; ``Omega`` is its largest eigenvalue.  Array code
    (float64, mpmath / sympy), checked."""
    v = ArrayArgs("generator")
    delta_p, kappa = v.scalar("delta_p", delta_p), v.scalar("kappa", kappa)
    beta_star = v.array("beta_star", beta_star, ndim=1)
    return v(_generator, delta_p, kappa, beta_star)


def reduced_field(z: Any, G: Any, kappa: Any) -> Any:
    """``G z - (kappa^2/2) |z|^2 z``: the flow in the balanced coordinates ``z = (a /
    sqrt(eta_a'), w / sqrt(eta_w'))`` for isotropic inputs (Part I, exact solution).  Array
    code (float64, mpmath / sympy), checked."""
    v = ArrayArgs("reduced_field")
    z, G = v.array("z", z, ndim=1), v.array("G", G, ndim=2)
    v.same("the size d + 1 (length of z, rows and columns of G)",
           ("z", z.shape[0]), ("G rows", G.shape[0]), ("G columns", G.shape[1]))  # fmt: skip
    return v(_reduced_field, z, G, v.scalar("kappa", kappa))


# ---------------------------------------------------------------------------
# Part II: the exact solution of the wide linear network (Theorem 4.2's setting)
# ---------------------------------------------------------------------------
def _wide_generator(delta_p: Any, kappa: Any, beta_star: Any) -> np.ndarray:
    B = np.asarray(beta_star, dtype=object)
    d, c = B.shape
    zero = 0 * delta_p
    rows = [
        [delta_p / 2 if i == j else zero for j in range(c)] + [kappa * B[j, i] for j in range(d)]
        for i in range(c)
    ]
    rows += [
        [kappa * B[i, j] for j in range(c)] + [-delta_p / 2 if i == j else zero for j in range(d)]
        for i in range(d)
    ]
    return np.array(rows)


def _wide_field(Q: Any, K: Any, kappa: Any) -> Any:
    return Q @ K - kappa**2 / 2 * (Q @ Q.T @ Q)


def _wide_ntk_array(gram_A: Any, gram_W: Any, X: Any, eta_a: Any, eta_w: Any) -> np.ndarray:
    # (gram_A, gram_W may be stacks with leading axes: the float64 sample's times)
    X = np.asarray(X)
    gram_A = np.asarray(gram_A)
    c = gram_A.shape[-1]
    xx = X @ X.T
    xwx = X @ np.asarray(gram_W) @ X.T
    eye = np.eye(c, dtype=int)
    return (eta_a * xwx[..., :, None, :, None] * eye[None, :, None, :]
            + eta_w * xx[:, None, :, None] * gram_A[..., None, :, None, :])  # fmt: skip


def _riccati_core(Z: Any, H: Any, e_plus: Any, e_minus: Any, g_plus: Any, g_minus: Any,
                  kappa: Any) -> tuple[Any, Any]:  # fmt: skip
    e_plus, e_minus = np.asarray(e_plus), np.asarray(e_minus)
    M = e_plus[:, None] * H * e_minus[None, :]
    inner = Z @ Z.T + kappa**2 * ((H * np.asarray(g_minus)[None, :]) @ H.T)
    core = e_plus[:, None] * inner * e_plus[None, :] + kappa**2 * np.diag(np.asarray(g_plus))
    return core, M


def _riccati_factor(Z: Any, H: Any, e_plus: Any, r_plus: Any, r_minus: Any,
                    kappa: Any) -> Any:  # fmt: skip
    # (e_plus, r_plus, r_minus may be stacks (..., modes): then L is one per leading index)
    e_plus, r_plus = np.asarray(e_plus), np.asarray(r_plus)
    eZ = e_plus[..., :, None] * Z
    eH = kappa * e_plus[..., :, None] * H * np.asarray(r_minus)[..., None, :]
    return np.concatenate([eZ, eH, kappa * _diag(r_plus)], axis=-1)


def _diag(v: Any) -> np.ndarray:
    """``diag(v)`` of the last axis of ``v`` (leading axes kept; zeros as ``np.diag``)."""
    v = np.asarray(v)
    n = v.shape[-1]
    out = np.zeros((*v.shape, n), dtype=v.dtype)
    out[..., range(n), range(n)] = v
    return out


def _riccati_direct(C: Any, lam: Any, r: Any, kappa: Any) -> tuple[Any, Any]:
    lam, r = np.asarray(lam), np.asarray(r)  # (or stacks (..., m): one per leading index)
    Cr = C * r[..., None, :]
    eye = np.eye(C.shape[0], dtype=int)
    return C * lam[..., None, :], eye + kappa**2 * (Cr @ Cr.swapaxes(-1, -2))


def _riccati_gram(core_inv: Any, M: Any) -> np.ndarray:
    Mt = M.swapaxes(-1, -2)  # (core_inv, M may be stacks with leading axes)
    top = np.concatenate([core_inv, core_inv @ M], axis=-1)
    return np.concatenate([top, np.concatenate([Mt @ core_inv, Mt @ core_inv @ M], axis=-1)],
                          axis=-2)  # fmt: skip


def _riccati_deviation(core_inv: Any, M: Any, G: Any, u_plus: Any, p_inf: Any) -> np.ndarray:
    """``P - P(oo)`` in the eigenbasis (:func:`_riccati_gram` less ``diag(p_inf, 0)``) in
    decaying terms: ``core^-1 - diag(p_inf) = core^-1 (diag(u_plus) - G diag(p_inf))`` with
    ``G = core - kappa^2 diag(g_plus)`` (the first m columns of the Riccati factor, times
    their transpose); the other blocks of P already decay (claim
    ``kunin.wide_deviation_from_limit``)."""
    u_plus = np.asarray(u_plus)  # (..., h): leading axes (times) with stacked core_inv, M, G
    T = -np.asarray(G) * np.asarray(p_inf)[..., None, :]
    h = u_plus.shape[-1]
    for i in range(h):
        T[..., i, i] = T[..., i, i] + u_plus[..., i]
    out = _riccati_gram(core_inv, M)
    out[..., :h, :h] = core_inv @ T
    return out


def wide_generator(delta_p: Any, kappa: Any, beta_star: Any) -> np.ndarray:
    """``K = [[delta'/2 I_c, kappa B*^T], [kappa B*, -delta'/2 I_d]]`` ((c + d) x (c + d),
    A-block first) of the stacked flow ``dQ/dt = Q K - (kappa^2/2) Q Q^T Q`` of ``Q = [A /
    sqrt(eta_a'), W / sqrt(eta_w')]`` (h x (c + d); claim ``kunin.wide_reduction``), from
    ``delta' = s delta``, ``kappa = sqrt(eta_a' eta_w')`` and ``B* = X^T Y / s`` (d, c).  For
    ``c = 1`` it is the single neuron's :func:`generator`.  Array code (float64,
    mpmath / sympy), checked."""
    v = ArrayArgs("wide_generator")
    delta_p, kappa = v.scalar("delta_p", delta_p), v.scalar("kappa", kappa)
    return v(_wide_generator, delta_p, kappa, v.array("beta_star", beta_star, ndim=2))


def wide_field(Q: Any, K: Any, kappa: Any) -> Any:
    """``Q K - (kappa^2/2) Q Q^T Q`` (Q: h x (c + d)): the wide flow in the stacked
    coordinates when ``Delta = delta I_h`` (claim ``kunin.wide_reduction``).  Array code,
    checked."""
    v = ArrayArgs("wide_field", torch=True)
    Q, K = v.array("Q", Q, ndim=2), v.array("K", K, ndim=2)
    v.same("the size c + d (columns of Q, rows and columns of K)",
           ("Q", Q.shape[1]), ("K rows", K.shape[0]), ("K columns", K.shape[1]))  # fmt: skip
    return v(_wide_field, Q, K, v.scalar("kappa", kappa))


def wide_ntk(gram_A: Any, gram_W: Any, X: Any, eta_a: Any, eta_w: Any) -> np.ndarray:
    """The NTK of ``f = A^T W x`` on the data, (n, c, n, c): ``K[i, a, j, b] = eta_a x_i^T
    W^T W x_j delta_ab + eta_w (A^T A)_ab x_i^T x_j``, from ``gram_A = A^T A`` (c, c) and
    ``gram_W = W^T W`` (d, d); ``d F/dt = -K (F - Y)`` with ``F = X W^T A`` (claim
    ``kunin.wide_ntk``).  Checked array code."""
    v = ArrayArgs("wide_ntk")
    gram_A, gram_W = v.array("gram_A", gram_A, ndim=2), v.array("gram_W", gram_W, ndim=2)
    X = v.array("X", X, ndim=2)
    v.same("gram_A (c, c) is square: its rows and columns", ("gram_A rows", gram_A.shape[0]),
           ("gram_A columns", gram_A.shape[1]))  # fmt: skip
    v.same("the input dimension d (rows and columns of gram_W, columns of X)",
           ("gram_W rows", gram_W.shape[0]), ("gram_W columns", gram_W.shape[1]),
           ("X", X.shape[1]))  # fmt: skip
    eta_a, eta_w = v.scalar("eta_a", eta_a), v.scalar("eta_w", eta_w)
    return v(_wide_ntk_array, gram_A, gram_W, X, eta_a, eta_w)


def riccati_core(Z: Any, H: Any, e_plus: Any, e_minus: Any, g_plus: Any, g_minus: Any,
                 kappa: Any) -> tuple[Any, Any]:  # fmt: skip
    """The evaluated form of the Riccati solution in the eigenbasis of ``K`` (Part II, exact
    solution; claim ``kunin.wide_stable_form``): ``core = e_+ (Z Z^T + kappa^2 H g_- H^T) e_+
    + kappa^2 g_+`` (h x h, symmetric positive definite) and ``M = e_+ H e_-`` (h x (m - h)),
    with ``Z = C_+^{-1}``, ``H = Z C_-``, ``C = Q0 R`` split into the h modes ``+`` (rates
    ``k_+ >= 0``) and the rest (``k_- <= 0``), ``e_+ = e^{-k_+ t}``, ``e_- = e^{k_- t}``,
    ``g_+ = t exprel(-2 k_+ t)``, ``g_- = t exprel(2 k_- t)`` (diagonals as vectors).  Every
    exponent is <= 0.  Array code: runs on float64, mpmath and sympy object arrays.  Checked."""
    v = ArrayArgs("riccati_core")
    Z, H = v.array("Z", Z, ndim=2), v.array("H", H, ndim=2)
    ep, em = v.array("e_plus", e_plus, ndim=1), v.array("e_minus", e_minus, ndim=1)
    gp, gm = v.array("g_plus", g_plus, ndim=1), v.array("g_minus", g_minus, ndim=1)
    v.same("the h modes + (rows and columns of Z, rows of H, e_plus, g_plus)",
           ("Z rows", Z.shape[0]), ("Z columns", Z.shape[1]), ("H rows", H.shape[0]),
           ("e_plus", ep.shape[0]), ("g_plus", gp.shape[0]))  # fmt: skip
    v.same("the m - h modes - (columns of H, e_minus, g_minus)", ("H columns", H.shape[1]),
           ("e_minus", em.shape[0]), ("g_minus", gm.shape[0]))  # fmt: skip
    return v(_riccati_core, Z, H, ep, em, gp, gm, v.scalar("kappa", kappa))


def riccati_factor(Z: Any, H: Any, e_plus: Any, r_plus: Any, r_minus: Any,
                   kappa: Any) -> Any:  # fmt: skip
    """``L`` (h x (2h + m - h)) with ``L L^T`` = the ``core`` of :func:`riccati_core`:
    ``[e_+ Z, kappa e_+ H r_-, kappa r_+]`` with ``r_+- = sqrt(g_+-)`` (diagonals as
    vectors).  The evaluation inverts ``core`` through the QR factor of ``L^T`` (its condition
    is the square root of core's: cond(C_+), not cond(C_+)^2, at small t).  Checked."""
    v = ArrayArgs("riccati_factor")
    Z, H = v.array("Z", Z, ndim=2), v.array("H", H, ndim=2)
    ep, rp = v.array("e_plus", e_plus, ndim=1), v.array("r_plus", r_plus, ndim=1)
    rm = v.array("r_minus", r_minus, ndim=1)
    v.same("the h modes + (rows and columns of Z, rows of H, e_plus, r_plus)",
           ("Z rows", Z.shape[0]), ("Z columns", Z.shape[1]), ("H rows", H.shape[0]),
           ("e_plus", ep.shape[0]), ("r_plus", rp.shape[0]))  # fmt: skip
    v.same("the m - h modes - (columns of H, r_minus)", ("H columns", H.shape[1]),
           ("r_minus", rm.shape[0]))  # fmt: skip
    return v(_riccati_factor, Z, H, ep, rp, rm, v.scalar("kappa", kappa))


def riccati_direct(C: Any, lam: Any, r: Any, kappa: Any) -> tuple[Any, Any]:
    """The textbook form in the eigenbasis of ``K``: ``Y = C e^{k t}`` and ``N = I + kappa^2
    C diag(r^2) C^T`` (``r = sqrt(t exprel(2 k t))``), so that ``P = Y^T N^{-1} Y`` and, for
    ``h = 1``, ``Q = Y / sqrt(N)`` (claim ``kunin.wide_riccati``).  Evaluated at small t
    (``e^{2 k_max t} <= condition``), where it is better conditioned than
    :func:`riccati_core` (no ``C_+^{-1}``): the textbook form's rounding error grows like
    ``eps e^{2 k_max t}`` and the stable form's falls like ``eps condition^2 e^{-2 k_max t}``,
    equal at the switch (measured: with the switch at ``condition^2`` a start of condition
    1325 lost 2.2 tolerances at t = 3, and 0.0006 with the stable form).  Array code (float64,
    mpmath, sympy).  Checked."""
    v = ArrayArgs("riccati_direct")
    C, lam, r = v.array("C", C, ndim=2), v.array("lam", lam, ndim=1), v.array("r", r, ndim=1)
    v.same("the m modes (columns of C, lam, r)", ("C", C.shape[1]), ("lam", lam.shape[0]),
           ("r", r.shape[0]))  # fmt: skip
    return v(_riccati_direct, C, lam, r, v.scalar("kappa", kappa))


def riccati_gram(core_inv: Any, M: Any) -> np.ndarray:
    """``P = Q^T Q`` in the eigenbasis of ``K``: ``[[core^-1, core^-1 M], [M^T core^-1, M^T
    core^-1 M]]`` (m x m) from :func:`riccati_core` (``= [I, M]^T core^-1 [I, M]``).  Checked."""
    v = ArrayArgs("riccati_gram")
    core_inv, M = v.array("core_inv", core_inv, ndim=2), v.array("M", M, ndim=2)
    v.same("the h modes + (rows and columns of core_inv, rows of M)",
           ("core_inv rows", core_inv.shape[0]), ("core_inv columns", core_inv.shape[1]),
           ("M rows", M.shape[0]))  # fmt: skip
    return v(_riccati_gram, core_inv, M)
