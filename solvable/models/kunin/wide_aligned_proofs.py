"""Seed 003 (Kunin et al.), the claim of the wide net on inputs that are not whitened (issue 31,
item 3a; :mod:`~solvable.models.kunin.wide_aligned`): the reduction of an aligned start to the
whitened wide net of the virtual setup ``X = I, Y = B*``, rates ``s eta``, and the equivalent
setup ``X = q I, Y = q B*``, rates ``(s / q^2) eta`` the closed form evaluates
(``kunin.wide_aligned_reduction``).

The data of the proof (``n = d = 4``, ``h = c = 2``), as the single neuron's
(:mod:`~solvable.models.kunin.aligned_proofs`): ``X = D R`` with ``R`` the exact rational
rotation off every axis and ``D = diag(r, r, l, 0)``: ``X^T X`` has the eigenspace ``E =
span(u_0, u_1)`` (eigenvalue ``s = r^2``), the eigenvalue ``l^2`` on ``u_2`` and the kernel
``u_3`` (``u_i`` the rows of ``R``).  Targets ``Y`` with rows ``(Y_0, Y_1, 0, Y_3)`` (symbols):
the columns of ``X^T Y`` in ``E``, ``Y_3`` outside the range of ``X``.  ``W = C R`` with
symbolic coordinates ``C`` (h x 4, ``C[:, 2] = 0``): ``W_E = C[:, :2] R[:2]``, ``W_N = C[:, 3]
R[3]``, whose rows are not a multiple of one another (``W_N W_N^T`` of rank one, any
``A``).  Every field, loss and balance is the package's own (:func:`wide_flow`,
:func:`wide_loss`, :func:`wide_balance`), on both sides.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable._core.claims import Verdict, prove_zero
from solvable.models.kunin.aligned_proofs import _rotation
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.flows import _data_symbols, wide_flow
from solvable.models.kunin.losses import wide_balance, wide_loss


def _field(F: Any, sub: dict[Any, Any], point: dict[Any, Any], block: str) -> np.ndarray:
    """``d block/dt`` of the flow ``F`` with the data ``sub`` at the state ``point``."""
    return np.vectorize(lambda v: sp.sympify(F.ddt(v), strict=True).xreplace(sub)
                        .xreplace(point), otypes=[object])(F.block(block))  # fmt: skip


def _wide_aligned_reduction(y2: Any = 0, c2: Any = 0) -> Verdict:
    # The raw field of (A, W) on X = D R, Y (rows Y_0, Y_1, y2, Y_3) at W = C R equals, on
    # (A, C[:, :2]), the whitened wide net's with X = I_2, Y = (Y_0; Y_1)/r and rates r^2
    # eta (the virtual setup: B* = X^T Y / s in E's coordinates); the coordinates of dW/dt
    # on u_2 and u_3 are 0 (W_N constant); L = r^2 L_virtual + (|Y|^2 - |X^T Y|^2/s)/2 and
    # that floor is |Y_3|^2/2; Delta = Delta_E - eta_a W_N W_N^T with Delta_E the balance of
    # (A, W_E), the virtual setup's balance r^2 Delta_E.  (y2, c2: a target row and a weight
    # column on the second eigenvalue, for the tests that the proof fails off the
    # condition; the claim is y2 = c2 = 0.)
    S = symbolic()
    ea, ew = S.eta_a, S.eta_w
    R = _rotation()
    r, l = sp.symbols("r l", positive=True)
    Xv = sp.diag(r, r, l, 0) * R
    Yr = sp.Matrix(4, 2, lambda i, b: y2 if i == 2 else sp.Symbol(f"y{i}{b}", real=True))
    C = sp.Matrix(2, 4, lambda i, j: c2 if j == 2 else sp.Symbol(f"c{i}{j}", real=True))
    F = wide_flow(4, 4, 2, 2)
    A, W = F.block("A"), F.block("W")
    X, Y = _data_symbols(4, 4, 2)
    sub = {X[i, j]: Xv[i, j] for i in range(4) for j in range(4)}
    sub.update({Y[i, b]: Yr[i, b] for i in range(4) for b in range(2)})
    Wv = C * R
    point = {W[i, j]: Wv[i, j] for i in range(2) for j in range(4)}
    # the virtual setup: X = I_2, Y = (Y_0; Y_1)/r, rates r^2 eta_a, r^2 eta_w
    G = wide_flow(2, 2, 2, 2)
    Av, Wvv = G.block("A"), G.block("W")
    Xw, Yw = _data_symbols(2, 2, 2)
    vsub = {Xw[i, j]: int(i == j) for i in range(2) for j in range(2)}
    vsub.update({Yw[i, b]: Yr[i, b] / r for i in range(2) for b in range(2)})
    vsub.update({ea: r**2 * ea, ew: r**2 * ew})
    vpoint = {Av[i, b]: A[i, b] for i in range(2) for b in range(2)}
    vpoint.update({Wvv[i, j]: C[i, j] for i in range(2) for j in range(2)})
    # the setup the closed form evaluates: X = q I_2, Y = q (Y_0; Y_1)/r, rates (r/q)^2 eta
    # (q = 2^j near r): the same field as the virtual one, its loss q^2 times, its balance
    # (r/q)^2 Delta_E
    q = sp.Symbol("q", positive=True)
    esub = {Xw[i, j]: q * int(i == j) for i in range(2) for j in range(2)}
    esub.update({Yw[i, b]: q * Yr[i, b] / r for i in range(2) for b in range(2)})
    esub.update({ea: (r / q) ** 2 * ea, ew: (r / q) ** 2 * ew})
    res = list((R.T * R - sp.eye(4)).applyfunc(sp.cancel))  # R is a rotation
    for blk in ("A", "W"):
        res += list((_field(G, esub, vpoint, blk) - _field(G, vsub, vpoint, blk)).ravel())
    CE = np.array(C[:, :2].tolist(), dtype=object)
    Yv = np.array((Yr[:2, :] / r).tolist(), dtype=object)
    res.append(wide_loss(A, CE, q * np.eye(2, dtype=int), q * Yv)
               - q**2 * wide_loss(A, CE, np.eye(2, dtype=int), Yv))  # fmt: skip
    res += list((wide_balance(A, CE, (r / q) ** 2 * ea, (r / q) ** 2 * ew)
                 - (r / q) ** 2 * wide_balance(A, CE, ea, ew)).ravel())  # fmt: skip
    res += list((_field(F, sub, point, "A") - _field(G, vsub, vpoint, "A")).ravel())
    dC = sp.Matrix(_field(F, sub, point, "W")) * R.T  # dW/dt in the coordinates u_i
    dCv = _field(G, vsub, vpoint, "W")
    res += [dC[i, j] - dCv[i, j] for i in range(2) for j in range(2)]
    res += [dC[i, j] for i in range(2) for j in (2, 3)]
    Xa, Ya = np.array(Xv.tolist(), dtype=object), np.array(Yr.tolist(), dtype=object)
    Wa = np.array(Wv.tolist(), dtype=object)
    WE = np.array((C[:, :2] * R[:2, :]).tolist(), dtype=object)
    WN = np.array((C[:, 3:] * R[3:, :]).tolist(), dtype=object)
    Lv = wide_loss(A, np.array(C[:, :2].tolist(), dtype=object), np.eye(2, dtype=int),
                   np.array((Yr[:2, :] / r).tolist(), dtype=object))  # fmt: skip
    q = Xa.T @ Ya  # X^T Y
    floor = ((Ya * Ya).sum() - (q * q).sum() / r**2) / 2
    res += [wide_loss(A, Wa, Xa, Ya) - r**2 * Lv - floor,
            floor - sum(Yr[3, b] ** 2 for b in range(2)) / 2]  # fmt: skip
    DE = wide_balance(A, WE, ea, ew)
    res += list((wide_balance(A, Wa, ea, ew) - DE + ea * (WN @ WN.T)).ravel())
    res += list((wide_balance(A, np.array(C[:, :2].tolist(), dtype=object), r**2 * ea,
                              r**2 * ew) - r**2 * DE).ravel())  # fmt: skip
    return prove_zero(*(sp.cancel(sp.expand(e)) for e in res))
