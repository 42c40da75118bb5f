r"""Wide two-layer networks close to and away from initialisation (seed 002, Sections 2.2, 2.3).

Source: seed ``002_938675732d5dff93.txt``, B. Loureiro, "Mathematics of Deep Learning,
Lecture 3: Neural networks close to initialisation" (Liu, Zhu & Belkin 2020; Du et al. 2019).

Network, eq. (2.19) / (2.28): ``f(x; theta) = (1/sqrt(p)) sum_{j<=p} a_j sigma(<w_j, x>)``,
empirical risk ``R = 1/(2n) sum_i (y_i - f(x_i))^2`` (eq. (2.22)).

Hessian in ``W`` for fixed ``a`` (eqs. (2.12)-(2.17), corrected indices)::

    H_jk = delta_jk (1/sqrt(p)) a_j sigma''(<w_j, x>) x x^T          (printed: delta_ij)
    ||H||_op = max_j ||H_j||_op = max_j |a_j sigma''(<w_j, x>)| |x|^2 / sqrt(p)
                                                                  (printed: sup_j ||H||_op)

and with ``|a_j| <= m``, ``|sigma''| <= M`` (tanh: ``M = 4 sqrt(3)/9``, proved here)
``||H||_op <= m M |x|^2 / sqrt(p)`` (2.18) for *every* ``W``.  ``H`` is not positive
semi-definite (``a_j sigma''`` takes both signs), so (2.9)-(2.10) need absolute values:
``sup_{|v|<=1} |<v, H v>| = ||H||_op`` while ``sup <v, H v> = max(max_j c_j, 0) |x|^2``.  And
(2.9) is not an equality beyond second order; the exact statement is Taylor's formula with
integral remainder, ``f - f_lin = int_0^1 (1 - s) <delta, H(theta0 + s delta) delta> ds``, so
``sup_{B(theta0, R)} |f - f_lin| <= (R^2/2) sup_{B(theta0, R)} ||H||_op <= R^2 m M |x|^2 /
(2 sqrt(p))`` (Proposition 1).

Function-space flow, eqs. (2.22)-(2.27) with the learning-rate weighted NTK ``K``: the
residual ``r = y - f`` obeys ``dr/dt = -(1/n) K r``, i.e. ``df/dt = +(1/n) K (y - f)`` (the
printed (2.24), (2.26), (2.27), (2.41) carry a minus sign, which makes the residual grow).
With constant ``K``: ``||r(t)|| <= exp(-lambda_min(K) t / n) ||r(0)||`` (printed (2.42):
``exp(-lambda_min t)``).  Du et al.'s Theorem 1 (2.43) in this normalisation reads
``||r(t)|| <= exp(-lambda_0 t / (2n)) ||r(0)||`` (their squared-norm statement; the factor 2
pays for ``lambda_min(K_t) >= lambda_0/2`` along the finite-width flow).

Every formula is a sympy expression here; the numeric evaluators (numpy / torch) are
generated from them (:func:`hessian_opnorm_formula`, :func:`relaxation_envelope`).  The
simulations that test them live in :mod:`numerics.lazy_width`.

The files, in import order:

* ``formulas.py``: the symbols and the formulas as sympy expressions (eqs. (2.16)-(2.18),
  (2.40), (2.42), (2.43), Exercise 2);
* ``evaluators.py``: the numeric evaluators generated from them;
* ``network.py``: the network (2.19), its risk (2.22) and ``g = phi(f)`` on every backend;
* ``system.py``: :class:`Setup`, :class:`State`, :class:`TwoLayerSystem` (the gradient flow);
* ``symbolic_network.py``: the network and its flow on sympy symbols, for the checks;
* ``claim_checks.py``: the claims and their checks (:func:`claims`);
* ``errata_checks.py``: the errata and their checks (:func:`errata`);
* this file: the re-exports and :data:`MODEL`.
"""

from __future__ import annotations

from solvable._core.model import Model
from solvable.models.linearisation.claim_checks import claims
from solvable.models.linearisation.errata_checks import errata
from solvable.models.linearisation.evaluators import hessian_opnorm_formula, relaxation_envelope
from solvable.models.linearisation.formulas import (
    ACTIVATIONS,
    EA2,
    ES1,
    F_OUT,
    G2,
    SEED,
    P,
    Z,
    activation,
    block_opnorm,
    composed_hessian_terms,
    full_block_opnorm,
    full_hessian_bound,
    gradient_norm_sq,
    gronwall_bound,
    hessian_opnorm_bound,
    relaxation_exponent,
    second_derivative,
    second_derivative_sup,
)
from solvable.models.linearisation.formulas import LAM as LAM
from solvable.models.linearisation.formulas import N as N
from solvable.models.linearisation.formulas import T as T
from solvable.models.linearisation.formulas import check_flag as check_flag
from solvable.models.linearisation.network import checked_callable as checked_callable
from solvable.models.linearisation.network import composed_output, network_output, risk
from solvable.models.linearisation.system import SYSTEM, Setup, State, TwoLayerSystem

__all__ = [
    "ACTIVATIONS",
    "EA2",
    "ES1",
    "F_OUT",
    "G2",
    "MODEL",
    "SEED",
    "SYSTEM",
    "P",
    "Setup",
    "State",
    "TwoLayerSystem",
    "Z",
    "activation",
    "block_opnorm",
    "claims",
    "composed_hessian_terms",
    "composed_output",
    "errata",
    "full_block_opnorm",
    "full_hessian_bound",
    "gradient_norm_sq",
    "gronwall_bound",
    "hessian_opnorm_bound",
    "hessian_opnorm_formula",
    "network_output",
    "relaxation_envelope",
    "relaxation_exponent",
    "risk",
    "second_derivative",
    "second_derivative_sup",
]

MODEL = Model(
    name="linearisation",
    seed=SEED,
    title="Seed 002 Sections 2.2-2.3: the Hessian, linearisation error and lazy relaxation",
    claims=claims,
    errata=errata,
    systems=(SYSTEM,),
)
