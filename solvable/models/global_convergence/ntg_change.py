r"""Theorem 5.1(d) of seed 000 (the NTG-change bound) derived from (c) (the weight-change
bound), as sympy expressions (:func:`ntg_change_steps`).

Source: seed ``000_f57230b12d385b63.txt``, Theorem 5.1 (c), (d), eq. (7) and the proof
sketch of Section 5.  Appendix F (the proof) is not in the seed: the steps below are
reconstructed; the first term of the printed (d) comes out exactly (``2^7``), the second
with ``2^(9/2)`` where the paper prints ``2^5`` (so the printed (d) holds, ``sqrt(2)``
looser in that term; claim ``ntg_bound_from_weight_bound``).

Steps, for one pair of inputs ``(i, k)`` and one node ``j`` (``Delta_j = ||w_tj - w_0j||``,
``a = sigma'(Z_tj)``, ``b = sigma'(Z_0j)``):

1. ``a_i a_k - b_i b_k = (a_i - b_i)(a_k - b_k) + b_i (a_k - b_k) + (a_i - b_i) b_k``, and
   ``|b| <= 1``, ``|a - b| <= M |x^T (w_tj - w_0j)|/sqrt(d) <= e_j = M Delta_j/sqrt(d)``
   (Assumption 3.2, mean value theorem; ``||x_i|| <= 1``, Assumption 3.1(a)), so
   ``|a_i a_k - b_i b_k| <= e_j^2 + 2 e_j``;
2. eq. (7): ``|(Theta_t - Theta_0)_{ik}| <= sum_j lambda_j |x_i^T x_k|/d (e_j^2 + 2 e_j)``,
   ``|x_i^T x_k| <= 1`` and ``||A||_2 <= ||A||_F <= n max |A_ik|`` give :attr:`per_node`
   summed over ``j``: ``||Theta_t - Theta_0||_2 <= sum_j (n/d) lambda_j (M^2 Delta_j^2/d +
   2 M Delta_j/sqrt(d))`` -- for any two weight matrices, trained or not;
3. with ``Delta_j <= sqrt(lambda_j) R`` for every ``j`` (the form of (c)): ``sum_j
   lambda_j^2 = S_2`` and, by Cauchy-Schwarz and ``sum_j lambda_j = 1`` (eq. (1)), ``sum_j
   lambda_j^(3/2) <= sqrt(S_2)``: :attr:`given_radius` ``= n M^2 R^2 S_2/d^2 + 2 n M R
   sqrt(S_2)/d^(3/2)``;
4. ``R`` = the printed (c) over ``sqrt(lambda_j)``: :attr:`derived`; ``R`` = (c)'s step
   before Markov's inequality (:attr:`GradientFlowBounds.weight_given_loss`, a run's own
   ``L_0``): :attr:`given_loss`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from solvable.models.global_convergence.symbols import LAM, MOVE, MS, RADIUS, SUM_SQ, D, N
from solvable.models.global_convergence.theorems import theorem_5_1


@dataclass(frozen=True)
class NtgChangeSteps:
    """The steps of Theorem 5.1(d) from (c) (module docstring): ``per_node`` (step 2, one
    node's term in ``lambda_{m,j}`` and ``Delta_j``), ``given_radius`` (step 3, in the radius
    ``R`` and ``S_2``), ``derived`` (step 4 with the printed (c)) and ``given_loss`` (step 4
    with (c) before Markov, in ``L_0``)."""

    per_node: sp.Expr
    given_radius: sp.Expr
    derived: sp.Expr
    given_loss: sp.Expr


def lipschitz_factor(e: sp.Expr) -> sp.Expr:
    """Step 1: the bound ``e^2 + 2 e`` on ``|a_i a_k - b_i b_k|`` when ``|b| <= 1`` and
    ``|a - b| <= e`` (seed 000, eq. (7), Assumption 3.2)."""
    return e**2 + 2 * e


@functools.cache
def ntg_change_steps() -> NtgChangeSteps:
    """Theorem 5.1(d) of seed 000 from (c), step by step (module docstring; symbols
    :data:`N`, :data:`D`, :data:`MS`, :data:`LAM`, :data:`MOVE`, :data:`RADIUS`,
    :data:`SUM_SQ`, and :data:`L0` in ``given_loss``)."""
    t5 = theorem_5_1()
    per_node = N / D * LAM * lipschitz_factor(MS * MOVE / sp.sqrt(D))
    given_radius = (N * MS**2 * RADIUS**2 / D**2 * SUM_SQ
                    + 2 * N * MS * RADIUS / D ** sp.Rational(3, 2) * sp.sqrt(SUM_SQ))  # fmt: skip
    return NtgChangeSteps(
        per_node=per_node,
        given_radius=given_radius,
        derived=given_radius.subs(RADIUS, sp.simplify(t5.weight / sp.sqrt(LAM))),
        given_loss=given_radius.subs(RADIUS, sp.simplify(t5.weight_given_loss / sp.sqrt(LAM))),
    )
