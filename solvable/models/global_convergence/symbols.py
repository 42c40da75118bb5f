"""The symbols of seed 000's global-convergence theorems (Sections 3.3, 5, 6): ``n``,
``d``, ``kappa_n``, ``delta``, ``C``, ``C_1`` (eq. (14)), ``M``, ``t``, ``L_0``, ``eta``,
``lambda_{m,j}``, ``sum_j lambda_{m,j}^2``, ``||y - u_0||``, the step count ``s``, a node's
weight change ``Delta_j`` and a weight radius ``R``.

Source: seed ``000_f57230b12d385b63.txt`` (asymmetrical node scaling)."""

from __future__ import annotations

import sympy as sp

SEED = "000_f57230b12d385b63.txt"


N = sp.Symbol("n", positive=True, integer=True)
"""The sample size ``n``."""
D = sp.Symbol("d", positive=True, integer=True)
"""The input dimension ``d``."""
KAPPA = sp.Symbol("kappa_n", positive=True)
"""``kappa_n = eig_min(Theta*(X))`` (Section 4)."""
DELTA = sp.Symbol("delta", positive=True)
"""The failure probability ``delta in (0, 1)``."""
CS = sp.Symbol("C", positive=True)
"""The bound ``C`` on ``|y_i|`` (Assumption 3.1(c))."""
C1 = sp.Symbol("C_1", positive=True)
"""The constant ``C_1`` of eq. (14)."""
MS = sp.Symbol("M", positive=True)
"""The bound ``M`` on ``|sigma''|`` (Assumption 3.2)."""
T = sp.Symbol("t", nonnegative=True)
"""Gradient-flow time."""
L0 = sp.Symbol("L_0", nonnegative=True)
"""The initial loss ``L_m(W_0)``."""
ETA = sp.Symbol("eta", positive=True)
"""The gradient-descent learning rate."""
LAM = sp.Symbol("lambda_mj", nonnegative=True)
"""One node scaling ``lambda_{m,j}``."""
SUM_SQ = sp.Symbol("S_2", nonnegative=True)
"""``sum_{j<=m} lambda_{m,j}^2``."""
R0 = sp.Symbol("R_0", nonnegative=True)
"""``||y - u_0||``, the initial residual norm of gradient descent (Section 6)."""
STEPS = sp.Symbol("s", nonnegative=True, integer=True)
"""The gradient-descent step count ``s``."""
MOVE = sp.Symbol("Delta_j", nonnegative=True)
"""One node's weight change ``||w_tj - w_0j||`` (Theorem 5.1(c), (d))."""
RADIUS = sp.Symbol("R_w", nonnegative=True)
"""A radius ``R`` with ``||w_tj - w_0j|| <= sqrt(lambda_{m,j}) R`` for every ``j`` (the
form of Theorem 5.1(c))."""
_CSCALE = sp.Symbol("c", positive=True)  # the c of eq. (14)
_ZQ = sp.Symbol("z_q", real=True)  # the integration variable of eq. (14)
_U = sp.Symbol("u", positive=True)
_K = sp.Symbol("k", positive=True)
_GUARD = 10  # mpmath guard digits of the quadratures
