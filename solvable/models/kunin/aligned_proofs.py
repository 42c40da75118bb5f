"""Seed 003 (Kunin et al.), the claims of the single neuron on inputs that are not whitened
(issue 31, item 3; :mod:`~solvable.models.kunin.aligned_data`): the reduction of an aligned
start to the whitened neuron (``kunin.aligned_reduction``), the rescaled setup the closed form
evaluates it by (``kunin.aligned_rescaling``), and the coupling that a second eigenvalue adds
(``kunin.aligned_coupling``: why such a start is refused).

The data of the proofs (``n = d = 4``): ``X = D R`` with ``R`` an exact rational rotation off
every axis (:func:`_rotation`, ``R^T R = I`` proved), ``D = diag(r, r, l, 0)``;
so ``X^T X = R^T D^2 R`` has the eigenspace ``E = span(u_0, u_1)`` (eigenvalue ``s = r^2``), the
eigenvalue ``l^2`` on ``u_2`` and the kernel ``u_3`` (``u_i`` the rows of ``R``), none of them
on the coordinate axes.  Targets ``y = (y_0, y_1, 0, y_3)``: ``X^T y`` in ``E``, ``y_3`` outside
the range of ``X``.  Every field, loss and balance is the package's own (:func:`flow`,
:func:`loss`, :func:`balance`), on both sides.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from solvable._core.claims import Verdict, prove_zero
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.flows import _data_symbols, _scalar, flow
from solvable.models.kunin.losses import balance, loss


def _rotation() -> sp.Matrix:
    """An exact rational rotation of R^4, off every coordinate axis: the rotations of the
    Pythagorean triples (3, 4, 5), (5, 12, 13), (8, 15, 17) in the planes (0, 2), (1, 3), (2,
    3) and (7, 24, 25) in (0, 1).  (The flow, loss and balance are invariant under a rotation
    of the inputs with the weights, ``X -> X R^T``, ``w -> R w``: one rotation off the axes
    stands for all; symbolic rotation parameters make the rational residuals too large to
    simplify in seconds.)"""

    def givens(i: int, j: int, c: sp.Rational, s: sp.Rational) -> sp.Matrix:
        G = sp.eye(4)
        G[i, i], G[j, j], G[i, j], G[j, i] = c, c, -s, s
        return G

    Q = sp.Rational
    return (givens(0, 2, Q(3, 5), Q(4, 5)) * givens(1, 3, Q(5, 13), Q(12, 13))
            * givens(2, 3, Q(8, 17), Q(15, 17)) * givens(0, 1, Q(7, 25), Q(24, 25)))  # fmt: skip


def _instance(y2: Any = 0) -> dict[str, Any]:
    """The symbols and substitutions shared by the claims (see the module docstring);
    ``y2``: the target on the range direction of the second eigenvalue (0: aligned)."""
    S = symbolic()
    F = flow(4, 4)
    a, w = F.block("a"), F.block("w")
    X, y = _data_symbols(4, 4)
    R = _rotation()
    r, l = sp.symbols("r l", positive=True)
    D = sp.diag(r, r, l, 0)
    Xv = D * R
    y0, y1, y3 = sp.symbols("y0 y1 y3", real=True)
    yv = [y0, y1, y2, y3]
    c = sp.symbols("c0:4", real=True)  # w's coordinates on u_0 .. u_3
    sub = {X[i, j]: Xv[i, j] for i in range(4) for j in range(4)}
    sub.update({y[i]: yv[i] for i in range(4)})
    return dict(S=S, F=F, a=_scalar(a), w=w, X=X, y=y, R=R, r=r, l=l, Xv=Xv, yv=yv, c=c,
                sub=sub, y01=(y0, y1), y3=y3)  # fmt: skip


def _whitened(r: Any, y01: Any, rates: tuple[Any, Any] | None = None) -> dict[str, Any]:
    """The package's single neuron on d = n = 2 with ``X = r I_2``, targets ``y01`` (and
    rates ``rates``, default the symbolic ones): its flow and data substitution."""
    S = symbolic()
    F = flow(2, 2)
    X, y = _data_symbols(2, 2)
    sub = {X[0, 0]: r, X[0, 1]: 0, X[1, 0]: 0, X[1, 1]: r, y[0]: y01[0], y[1]: y01[1]}
    if rates is not None:
        sub.update({S.eta_a: rates[0], S.eta_w: rates[1]})
    return dict(F=F, a=_scalar(F.block("a")), w=F.block("w"), X=X, y=y, sub=sub)


def _field_at(F: Any, state: Any, sub: dict[Any, Any], point: dict[Any, Any]) -> sp.Expr:
    """``d state/dt`` of the flow ``F`` with the data ``sub`` at the state ``point``."""
    return sp.sympify(F.ddt(state), strict=True).xreplace(sub).xreplace(point)


def _aligned_reduction(y2: Any = 0, c2: Any = 0) -> Verdict:
    # w = R^T (c0, c1, 0, c3): w_E = R^T (c0, c1, 0, 0) in E, w_N = R^T (0, 0, 0, c3) in ker X.
    # The raw field of (a, w) is the whitened neuron's (X = r I_2, y = (y0, y1)) on (a, c0, c1)
    # with s = r^2, the other coordinates of dw/dt are 0 (w_N constant); the loss is the
    # whitened one plus y3^2/2 = (|y|^2 - |X^T y|^2/s)/2; delta = delta_E - eta_a c3^2
    # (y2, c2: a target and a weight on the second eigenvalue, for the tests that the proof
    # fails off the condition; the claim is y2 = c2 = 0)
    I = _instance(y2)
    S, R, c = I["S"], I["R"], I["c"]
    res = list((R.T * R - sp.eye(4)).applyfunc(sp.cancel))  # R is a rotation
    wv = R.T * sp.Matrix([c[0], c[1], c2, c[3]])
    pt = {I["w"][j]: wv[j] for j in range(4)}
    Wh = _whitened(I["r"], I["y01"])
    wpt = {Wh["w"][0]: c[0], Wh["w"][1]: c[1]}
    res.append(
        _field_at(I["F"], I["a"], I["sub"], pt) - _field_at(Wh["F"], Wh["a"], Wh["sub"], wpt)
    )
    dw = R * sp.Matrix([_field_at(I["F"], I["w"][j], I["sub"], pt) for j in range(4)])
    res += [dw[0] - _field_at(Wh["F"], Wh["w"][0], Wh["sub"], wpt),
            dw[1] - _field_at(Wh["F"], Wh["w"][1], Wh["sub"], wpt), dw[2], dw[3]]  # fmt: skip
    Xv, yv = np.array(I["Xv"].tolist(), dtype=object), np.array(I["yv"], dtype=object)
    wn = np.array(list(wv), dtype=object)
    wE = np.array(list(R.T * sp.Matrix([c[0], c[1], c2, 0])), dtype=object)
    L = loss(I["a"], wn, Xv, yv)
    Xw = np.array([[I["r"], 0], [0, I["r"]]], dtype=object)
    Lw = loss(I["a"], np.array(c[:2], dtype=object), Xw, np.array(I["y01"], dtype=object))
    q = Xv.T @ yv  # X^T y
    floor = (yv @ yv - (q @ q) / I["r"] ** 2) / 2
    res += [L - Lw - I["y3"] ** 2 / 2, floor - I["y3"] ** 2 / 2]
    res.append(balance(I["a"], wn, S.eta_a, S.eta_w) - balance(I["a"], wE, S.eta_a, S.eta_w)
               + S.eta_a * c[3] ** 2)  # fmt: skip
    return prove_zero(*(sp.cancel(sp.expand(e)) for e in res))


def _aligned_rescaling() -> Verdict:
    # the whitened neuron with X = r I, y: its field equals that of X = I, y / r with the
    # rates r^2 eta_a, r^2 eta_w (beta* = y / r on both), its loss is r^2 times that one's,
    # and its balance r^2 times smaller: the setup Setup(s eta_a, s eta_w, I, beta*) of the
    # closed form (s = r^2; delta of the rescaled setup = s delta_E)
    S = symbolic()
    r = sp.Symbol("r", positive=True)
    y01 = sp.symbols("y0 y1", real=True)
    A = _whitened(r, y01)
    B = _whitened(1, (y01[0] / r, y01[1] / r), (r**2 * S.eta_a, r**2 * S.eta_w))
    c0, c1, a = sp.symbols("c0 c1 a", real=True)
    pa = {A["a"]: a, A["w"][0]: c0, A["w"][1]: c1}
    pb = {B["a"]: a, B["w"][0]: c0, B["w"][1]: c1}
    res = [_field_at(A["F"], A[k] if k == "a" else A["w"][k], A["sub"], pa)
           - _field_at(B["F"], B[k] if k == "a" else B["w"][k], B["sub"], pb)
           for k in ("a", 0, 1)]  # fmt: skip
    w = np.array([c0, c1], dtype=object)
    LA = loss(a, w, np.array([[r, 0], [0, r]], dtype=object), np.array(y01, dtype=object))
    LB = loss(a, w, np.array([[1, 0], [0, 1]], dtype=object),
              np.array([y01[0] / r, y01[1] / r], dtype=object))  # fmt: skip
    res += [LA - r**2 * LB,
            balance(a, w, r**2 * S.eta_a, r**2 * S.eta_w) - r**2 * balance(a, w, S.eta_a,
                                                                            S.eta_w)]  # fmt: skip
    return prove_zero(*(sp.cancel(sp.expand(e)) for e in res))


def _aligned_coupling() -> Verdict:
    # a component c2 of w on the second eigenvalue l^2: d c2/dt = -eta_w a^2 l^2 c2 (it
    # moves) and da/dt gains -eta_a a l^2 c2^2 over the whitened neuron of (a, c0, c1): the
    # two modes exchange through a, and (a, w_E) is no longer the whitened neuron
    I = _instance()
    S, R, c = I["S"], I["R"], I["c"]
    wv = R.T * sp.Matrix(c)
    pt = {I["w"][j]: wv[j] for j in range(4)}
    Wh = _whitened(I["r"], I["y01"])
    wpt = {Wh["w"][0]: c[0], Wh["w"][1]: c[1]}
    a, l2 = I["a"], I["l"] ** 2
    da = _field_at(I["F"], a, I["sub"], pt) - _field_at(Wh["F"], Wh["a"], Wh["sub"], wpt)
    dw = R * sp.Matrix([_field_at(I["F"], I["w"][j], I["sub"], pt) for j in range(4)])
    res = [da + S.eta_a * a * l2 * c[2] ** 2, dw[2] + S.eta_w * a**2 * l2 * c[2], dw[3]]
    return prove_zero(*(sp.cancel(sp.expand(e)) for e in res))
