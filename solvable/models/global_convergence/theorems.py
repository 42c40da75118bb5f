"""Theorem 5.1 (gradient flow) and Theorem 6.1 (gradient descent, rate (16) corrected)
of seed 000 as sympy expressions (:func:`theorem_5_1`, :func:`theorem_6_1`): the width
conditions, the bounds (a)-(d), the step-size condition, ``beta`` and the rate."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import sympy as sp

from solvable.models.global_convergence.symbols import (
    C1,
    CS,
    DELTA,
    ETA,
    KAPPA,
    L0,
    LAM,
    MS,
    R0,
    STEPS,
    SUM_SQ,
    D,
    N,
    T,
)
from solvable.models.node_scaling import (
    GAMMA,
)


# ---------------------------------------------------------------------------
# Theorem 5.1 and Theorem 6.1 as expressions
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class GradientFlowBounds:
    """Theorem 5.1 (gradient flow), as printed: ``width_terms`` (the three lower bounds on
    ``m``), ``eig_min`` (a), ``loss`` (b, in ``t`` and ``L_0``), ``weight`` (c, in
    ``lambda_{m,j}``) and ``ntg_change`` (d, in ``S_2 = sum_j lambda_{m,j}^2``).
    ``weight_given_loss`` is the step of the proof of (c) before Markov's inequality,
    ``4 sqrt(2 n L_0 lambda_{m,j}/d)/(gamma kappa_n)``: it holds for every run in which (a)
    holds (claim ``weight_bound_from_loss_decay``), with the run's own ``L_0``."""

    width_terms: tuple[sp.Expr, sp.Expr, sp.Expr]
    eig_min: sp.Expr
    loss: sp.Expr
    weight: sp.Expr
    ntg_change: sp.Expr
    weight_given_loss: sp.Expr

    @property
    def width(self) -> sp.Expr:
        """The width condition ``m >= max(width_terms)``."""
        return sp.Max(*self.width_terms)


@dataclass(frozen=True)
class GradientDescentBounds:
    """Theorem 6.1 (gradient descent): ``step_size_terms`` (``eta < min``), ``beta``,
    ``width_terms`` and the per-step factor ``rate`` of ``||y - u_s||^2`` (corrected (16):
    ``1 - eta gamma kappa_n/2 = beta^2``; the printed one reads ``1 - alpha``);
    ``residual_sq`` the bound (16) after :data:`STEPS` steps, ``rate^s R_0^2``.  The weights'
    distance bound that the width condition is built from (the proof in Appendix H is not in
    the seed; reconstructed, claim ``gd_weight_bound_from_rate``): ``weight_given_residual``
    ``= eta sqrt(n lambda_{m,j}/d) R_0 (1 - beta^s)/(1 - beta)`` (holds on every run where
    (16) holds, with the run's ``R_0``) and ``weight`` ``= eta sqrt(n lambda_{m,j}/d)
    sqrt(2 n (C^2 + C_1)/delta)/(1 - beta)`` (all ``s``, after Markov's inequality on
    ``L_0``)."""

    step_size_terms: tuple[sp.Expr, sp.Expr, sp.Expr]
    beta: sp.Expr
    width_terms: tuple[sp.Expr, sp.Expr, sp.Expr]
    rate: sp.Expr
    residual_sq: sp.Expr
    weight_given_residual: sp.Expr
    weight: sp.Expr

    @property
    def step_size(self) -> sp.Expr:
        return sp.Min(*self.step_size_terms)

    @property
    def width(self) -> sp.Expr:
        return sp.Max(*self.width_terms)


@functools.cache
def theorem_5_1() -> GradientFlowBounds:
    """Theorem 5.1 of seed 000 as printed (symbols :data:`N`, :data:`D`, :data:`KAPPA`,
    ``GAMMA``, :data:`DELTA`, :data:`CS`, :data:`C1`, :data:`MS`, :data:`T`, :data:`L0`,
    :data:`LAM`, :data:`SUM_SQ`)."""
    n, d, k, g, dl = N, D, KAPPA, GAMMA, DELTA
    cc = CS**2 + C1
    width = (
        2**3 * n * sp.log(2 * n / dl) / (k * d),
        2**10 * n**3 * MS**2 * cc / (k**3 * d**3 * g**2 * dl),
        2**15 * n**4 * MS**2 * cc / (k**4 * d**4 * g**2 * dl),
    )
    return GradientFlowBounds(
        width_terms=width,
        eig_min=g * k / 4,
        loss=sp.exp(-g * k * T / 2) * L0,
        weight=n * sp.sqrt(LAM) / (k * sp.sqrt(d)) * sp.sqrt(2**7 * cc / (g**2 * dl)),
        ntg_change=2**7 * n**3 * MS**2 * cc / (k**2 * d**3 * g**2 * dl) * SUM_SQ
        + 2**5 * n**2 * MS * sp.sqrt(cc) / (k * d**2 * g * sp.sqrt(dl)) * sp.sqrt(SUM_SQ),
        weight_given_loss=4 * sp.sqrt(2 * n * L0 * LAM / d) / (g * k),
    )


@functools.cache
def theorem_6_1() -> GradientDescentBounds:
    """Theorem 6.1 of seed 000 (rate corrected, see :func:`errata`)."""
    n, d, k, g, dl = N, D, KAPPA, GAMMA, DELTA
    cc = CS**2 + C1
    beta = sp.sqrt(1 - ETA * g * k / 2)
    return GradientDescentBounds(
        step_size_terms=(
            2 / (g * k),
            g * k * d**2 / (8 * n**2),
            g * k * d**2 * sp.sqrt(dl) / (2 ** sp.Rational(9, 2) * n**2 * MS * sp.sqrt(cc)),
        ),
        beta=beta,
        width_terms=(
            2**3 * n * sp.log(2 * n / dl) / (k * d),
            2**5 * ETA**2 * n**3 * MS**2 * cc / (k * d**3 * (1 - beta) ** 2 * dl),
            2**11 * ETA**2 * n**4 * MS**2 * cc / (k**2 * d**4 * (1 - beta) ** 2 * dl),
        ),
        rate=1 - ETA * g * k / 2,
        residual_sq=(1 - ETA * g * k / 2) ** STEPS * R0**2,
        weight_given_residual=ETA * sp.sqrt(n * LAM / d) * R0 * (1 - beta**STEPS) / (1 - beta),
        weight=ETA * sp.sqrt(n * LAM / d) * sp.sqrt(2 * n * cc / dl) / (1 - beta),
    )
