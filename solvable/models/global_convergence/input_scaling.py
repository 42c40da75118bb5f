"""Remark 5.2 of seed 000: every ``d`` of Theorem 5.1 comes from the ``1/sqrt(d)`` scaling
of the first layer's pre-activations, "if this scaling were removed in our model, the
statement of the theorem would not include d (i.e., we would have the theorem with d set
to 1)".

Source: seed ``000_f57230b12d385b63.txt``, Section 5, Remark 5.2.  Checked through the
package's one definition of eq. (2) (:func:`solvable.models.node_scaling.network_output`,
whose last argument is the scale ``root_d``), with a generic activation ``sigma``: for a
scale ``s > 0``, the network with ``1/s`` on inputs ``X`` is the unscaled network (scale
1) on ``X/s``, and so are its Jacobian in ``W`` (hence the NTG (7), ``J J^T``) and its
Hessian in each ``w_j``; the gradient of node ``j`` is ``sqrt(lambda_j) a_j sigma'(z) x/s``
and its Hessian ``sqrt(lambda_j) a_j sigma''(z) x x^T/s^2``, which are where the proof's
``1/sqrt(d)`` (the gradient bound ``sqrt(lambda_j)/sqrt(d)`` behind (c)) and ``M/d`` (the
Hessian bound behind (d) and the width condition) come from; and the model at scale
``sqrt(D)`` with ``D = 1`` is the unscaled one.  ``s = sqrt(d)`` is the paper's model, so
every ``d`` of these quantities is ``s^2``: removing the scaling (``s = 1``) is setting
``d = 1``.  The kernel quantities follow: the mean NTG (10) and ``C_1`` (14) are
expectations over the pre-activations, whose covariance ``X X^T/s^2`` is the unscaled
one at ``X/s`` (the numeric side, ``global_convergence.remark_5_2_numeric``, compares
:func:`solvable.models.ntg.mean_ntg` with a Monte Carlo of the unscaled network).
"""

from __future__ import annotations

import numpy as np
import sympy as sp

from solvable._core.claims import Verdict, prove_zero
from solvable.models.node_scaling import network_output

_S = sp.Symbol("s", positive=True)  # the scale of the pre-activations (sqrt(d) in eq. (2))
_DIM = sp.Symbol("D", positive=True)  # the d of "the theorem with d set to 1"


def _rescaling_residuals(n: int, m: int, d: int, shrink: sp.Expr | None = None) -> list[sp.Expr]:
    """The residuals of Remark 5.2's identity on an ``n x d`` symbolic instance of width
    ``m`` with a generic ``sigma``: output, Jacobian in ``vec(W)``, Jacobian Gram (the NTG
    (7)) and every node's Hessian of the network at scale ``s`` on ``X`` minus the unscaled
    network's on ``X * shrink`` (the remark: ``shrink = 1/s``; another ``shrink`` is the
    other side, used by the tests); then the node gradient ``sqrt(lambda_j) a_j sigma'(z)
    x/s`` and Hessian ``sqrt(lambda_j) a_j sigma''(z) x x^T/s^2`` as the proof bounds them,
    and the model at scale ``sqrt(D)``, ``D = 1``, minus the unscaled one."""
    shrink = 1 / _S if shrink is None else shrink
    sigma = sp.Function("sigma")
    X = sp.Matrix(n, d, lambda i, k: sp.Symbol(f"x{i + 1}{k + 1}", real=True))
    V = sp.Matrix(n, d, lambda i, k: sp.Symbol(f"v{i + 1}{k + 1}", real=True))  # unscaled
    W = sp.Matrix(m, d, lambda j, k: sp.Symbol(f"w{j + 1}{k + 1}", real=True))
    a = sp.symbols(f"a1:{m + 1}", real=True)
    lam = sp.symbols(f"lambda1:{m + 1}", positive=True)
    obj = lambda v: np.array(v, dtype=object)  # noqa: E731
    sig = np.vectorize(sigma, otypes=[object])

    def net(inputs: sp.Matrix, scale: sp.Expr) -> sp.Matrix:
        return sp.Matrix(network_output(obj(W.tolist()), obj(a), obj([sp.sqrt(v) for v in lam]),
                                        obj(inputs.tolist()), sig, scale).tolist())  # fmt: skip

    f_s, f_1 = net(X, _S), net(V, 1)
    at = {V[i, k]: X[i, k] * shrink for i in range(n) for k in range(d)}
    wv = list(W)
    J_s, J_1 = f_s.jacobian(wv), f_1.jacobian(wv).subs(at)
    res = list(f_s - f_1.subs(at)) + list(J_s - J_1) + list(J_s * J_s.T - J_1 * J_1.T)
    for i in range(n):
        for j in range(m):
            wj = list(W.row(j))
            res += list(sp.hessian(f_s[i], wj) - sp.hessian(f_1[i], wj).subs(at))
    t = sp.Symbol("t", real=True)
    for i in range(n):
        for j in range(m):
            z = (W.row(j) * X.row(i).T)[0] / _S
            d1 = sp.Subs(sp.Derivative(sigma(t), t), t, z).doit()
            d2 = sp.Subs(sp.Derivative(sigma(t), (t, 2)), t, z).doit()
            x = X.row(i).T
            wj = list(W.row(j))
            grad = sp.Matrix([sp.diff(f_s[i], w) for w in wj])
            res += list(grad - sp.sqrt(lam[j]) * a[j] * d1 * x / _S)
            res += list(sp.hessian(f_s[i], wj) - sp.sqrt(lam[j]) * a[j] * d2 * x * x.T / _S**2)
    res += list(net(X, sp.sqrt(_DIM)).subs(_DIM, 1) - net(X, 1))
    return [sp.expand(r.doit()) for r in res]


def _remark_5_2_input_scaling() -> Verdict:
    # n = m = 2 at d = 2 and d = 3 (every entry of the output, Jacobian, NTG and Hessians;
    # sympy, residual exactly 0, for an undefined sigma: every activation).
    return prove_zero(*_rescaling_residuals(2, 2, 2), *_rescaling_residuals(2, 2, 3))
