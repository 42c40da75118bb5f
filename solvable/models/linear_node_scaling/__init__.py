r"""Seed 000, Section 7.2: the linear-activation network with node scaling, solved exactly.

Source: seed ``000_f57230b12d385b63.txt`` ("Over-parameterised shallow neural networks with
asymmetrical node scaling"), Theorem 7.4 (eqs. (19), (20), footnote 3), Theorem 7.5 (eq.
(21)), Proposition 7.6, Definitions 7.1 / 7.3 with ``sigma(x) = x``.

Model: eqs. (2), (5) with the identity activation, the one definition
:func:`solvable.models.node_scaling.loss` (setup :class:`solvable.models.node_scaling.Setup` with
``activation="linear"``): ``f(x; W) = x^T beta(W) / sqrt(d)``, ``beta(W) = sum_j sqrt(lambda_j)
a_j w_j``, ``a_j`` fixed, ``L = 1/2 |y - X beta/sqrt(d)|^2`` and the flow ``dw_j/dt = -eta
grad_{w_j} L = eta sqrt(lambda_j) a_j X^T r / sqrt(d)``, ``r = y - X beta / sqrt(d)``.  Every
node moves along the same vector ``X^T r``, so ``W_t - W_0 = (sqrt(lambda) * a) c(t)^T`` with
``c(t)`` in the row space of X (claim ``gradient_structure``), and ``beta`` obeys the linear ODE
``dbeta/dt = eta S X^T r/sqrt(d)``, ``S = sum_k lambda_k a_k^2``.  With the reduced SVD ``X = U
D V^T`` (rank ``k``) its solution is exact (:func:`closed_form`, claims
``trajectory_solves_flow``, ``trajectory_limit``)::

    c(t) = V diag(1 - exp(-eta S D_i^2 t/d)) V^T (beta_inf - beta_0) / S
    w_j(t) = w_0j + sqrt(lambda_j) a_j c(t)

and as ``t -> oo`` it reaches the unique stationary point in that affine set (claims
``stationary_point``, ``limit_is_unique``)::

    w_inf_j - w_0j = sqrt(lambda_j) a_j / sum_k lambda_k (beta_inf - V V^T beta_0)      (19)
    beta_0 = sum_j sqrt(lambda_j) a_j w_0j,   beta_inf = sqrt(d) V D^-1 U^T y
    f(x; W_inf) = x^T (beta_inf + (I - V V^T) beta_0) / sqrt(d)                         (20)

for any node scalings (not only eq. (1)): the denominator is ``S = sum_k lambda_k a_k^2``,
which is the printed ``sum_k lambda_k`` because ``a_k^2 = 1`` (eq. (3)); (20) needs the same.
Gradient descent stays in the same affine set and contracts the data-space error by ``1 - eta
D_i^2 S / d`` per step: it converges to (19) iff ``eta < 2 d / (D_max^2 S)``; footnote 3's
``d / (D_max^2 S)`` is sufficient (it makes every factor lie in ``[0, 1)``, monotone
convergence), half the sharp bound.

Theorem 7.5 / Proposition 7.6: for a set ``T`` of nodes with ``Lambda_T = sum_{j in T}
lambda_j`` and ``S = sum_k lambda_k``, ``sum_{j in T} sqrt(lambda_j) a_j w_inf_j ~
N(Lambda_T/S beta_inf, Lambda_T (I - Lambda_T/S V V^T))`` exactly for Gaussian ``W_0`` (``T =
{j}``: Theorem 7.5; the pruned nodes ``j > floor(rho m)``: the pruning error of Proposition 7.6,
``f~ - f = -x^T (...) / sqrt(d)``, a normal variable whose exceedance probability
:func:`pruning_exceedance` is exact, next to the printed Markov-type bound
:func:`pruning_bound`).

Every formula is a sympy matrix expression of :func:`symbolic`; the evaluators are generated
from them by ``sympy.lambdify`` with a batch-aware printer (``matmul`` over leading batch axes):
float64 numpy, or mpmath at ``dps`` digits (numpy object arrays of ``mpmath.mpf``).  Two ways to
evaluate: :func:`closed_form` (the model protocol: one network, ``Trajectory.at(t)`` for ``t``
in ``[0, oo]``) and :func:`limit` (eqs. (19)-(20) for a batch of initialisations, for Monte
Carlo).  Simulations of the raw flow / GD that check them are in :mod:`numerics.simulate`,
:mod:`numerics.node_scaling_linear` and
:mod:`solvable.verification.confirmations.linear_node_scaling`.

Files (layers, each imports only those above it):

* ``expressions.py``: the sympy source, :class:`Symbols`, :func:`symbolic` (and :data:`SEED`);
* ``svd.py``: :func:`reduced_svd`, :class:`ReducedSVD`, input validation and conversion;
* ``_evaluators.py``: the lambdified evaluators (batch-aware printers, the float64 fast path);
* ``linear_limit.py``: :func:`limit`, :class:`LinearLimit` (eqs. (19)-(20) for a batch);
* ``states.py``: :class:`States` (many times at once), the validation of times and of ``out``;
* ``float64_sample.py``: the float64 engine of ``Trajectory.sample`` (chunks, blocks of W,
  two threads, :data:`PARALLEL_SAMPLE`), a base class of :class:`Trajectory`;
* ``reference_sample.py``: the reference engine of ``Trajectory.sample`` (the mpmath path and
  the float64 reference), a base class of :class:`Trajectory`;
* ``trajectory.py``: :func:`closed_form`, :class:`Trajectory` (the model protocol and the mode
  factors);
* ``moments.py``: footnote 3, Theorem 7.5, Proposition 7.6 in float64 (:func:`gd_step_bounds`,
  :func:`group_moments`, :func:`pruning_exceedance`, ...);
* ``_instance.py``: the exact instance (a field of rational functions) of the symbolic claims;
* ``checks.py``: the claims (:func:`claims`);
* ``corrections.py``: the erratum (:func:`errata`);
* this ``__init__``: the public names and :data:`MODEL`.
"""

from __future__ import annotations

from solvable._core.model import Model
from solvable.models.linear_node_scaling.checks import claims
from solvable.models.linear_node_scaling.corrections import errata
from solvable.models.linear_node_scaling.expressions import SEED, Symbols, symbolic
from solvable.models.linear_node_scaling.linear_limit import LinearLimit, limit
from solvable.models.linear_node_scaling.moments import (
    MAX_PRUNED_WIDTH,
    contribution_limit_moments,
    gd_step_bounds,
    group_moments,
    mean_field_expressions,
    mean_field_moments,
    pruned_mass,
    pruned_mass_numeric,
    pruning_bound,
    pruning_error_moments,
    pruning_exceedance,
)
from solvable.models.linear_node_scaling.svd import ReducedSVD, reduced_svd
from solvable.models.linear_node_scaling.trajectory import (
    PARALLEL_SAMPLE as PARALLEL_SAMPLE,
)
from solvable.models.linear_node_scaling.trajectory import (
    States,
    Trajectory,
    closed_form,
)

# the setup is node_scaling's (one definition of the network and its loss), under the name a
# user of this model looks for: lns.Setup(X, y, lam, "linear", eta) (issue 30)
from solvable.models.node_scaling import Setup

__all__ = [
    "MAX_PRUNED_WIDTH",
    "LinearLimit",
    "ReducedSVD",
    "Setup",
    "States",
    "Symbols",
    "Trajectory",
    "claims",
    "closed_form",
    "contribution_limit_moments",
    "errata",
    "gd_step_bounds",
    "group_moments",
    "limit",
    "mean_field_expressions",
    "mean_field_moments",
    "pruned_mass",
    "pruned_mass_numeric",
    "pruning_bound",
    "pruning_error_moments",
    "pruning_exceedance",
    "reduced_svd",
    "symbolic",
]

MODEL = Model(
    name="linear_node_scaling",
    seed=SEED,
    title="Seed 000 Section 7.2: linear activation, Theorems 7.4, 7.5, Proposition 7.6",
    claims=claims,
    errata=errata,
)
