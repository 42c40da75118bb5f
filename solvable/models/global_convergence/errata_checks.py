"""The errata of seed 000, Sections 3.3 and 6 (the rate (16) of Theorem 6.1; swish
outside Assumption 3.2), each with its check (:func:`errata`)."""

from __future__ import annotations

import functools

import sympy as sp

from solvable._core.activations import Z, activation, derivative
from solvable._core.claims import Erratum
from solvable.models.global_convergence.activation_constants import (
    _swish_second_derivative_identity,
)
from solvable.models.global_convergence.symbols import ETA, L0, SEED, T
from solvable.models.global_convergence.theorems import theorem_5_1, theorem_6_1


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def _eq16_rate() -> tuple[sp.Expr, sp.Expr]:
    # The per-step factor of ||y - u_s||^2 must be beta^2 (the width condition sums the
    # geometric series of ||y - u_s|| <= beta^s ||y - u_0||, via (1 - beta)^2; the remark gives
    # 1 - eta gamma kappa_n/2).  Printed: 1 - alpha with alpha the only alpha the paper defines
    # (the Zipf exponent, free of eta, gamma, kappa_n): its residual is non-zero.  Corrected:
    # 1 - eta gamma kappa_n/2 equals beta^2 and reproduces 5.1(b) as eta -> 0.
    t6 = theorem_6_1()
    alpha = sp.Symbol("alpha", positive=True)
    t = sp.Symbol("t", positive=True)
    printed = (1 - alpha) - t6.beta**2
    corrected = (t6.rate - t6.beta**2) + (
        sp.limit(t6.rate ** (t / ETA), ETA, 0) - theorem_5_1().loss.subs({T: t, L0: 1})
    )
    return printed, corrected


def _swish_assumption() -> tuple[sp.Expr, sp.Expr]:
    # Printed: swish satisfies |sigma'| <= 1; residual: the excess sigma'(2) - 1 = 0.0908 > 0.
    # Corrected: sup sigma' = sigma'(u*) with sigma''(u*) = 0, u* tanh(u*/2) = 2; residual: the
    # identity sigma'' = S(1 - S)(2 - u (2S - 1)) that locates u*, and sigma' - 1 = (1 - S)
    # (sigma - 1) (so sigma' > 1 wherever sigma > 1).
    s1 = derivative("swish")
    printed = sp.Max(0, s1.subs(Z, 2) - 1)
    s2, form = _swish_second_derivative_identity()
    S = 1 / (1 + sp.exp(-Z))
    excess = (s1 - 1) - (1 - S) * (activation("swish") - 1)
    return printed, (s2 - form) ** 2 + excess**2


@functools.cache
def _errata() -> tuple[Erratum, ...]:
    s = SEED
    return (
        Erratum(
            s, "(16), Theorem 6.1",
            "||y - u_s||^2 <= (1 - alpha)^s ||y - u_0||^2 (alpha not defined in the theorem)",
            "||y - u_s||^2 <= (1 - eta gamma kappa_n/2)^s ||y - u_0||^2 = beta^(2s) ||y - u_0||^2",
            "Theorem 6.1 defines beta = (1 - eta gamma kappa_n/2)^(1/2) but never alpha (the "
            "paper's only alpha is the Zipf exponent of (4)); the width condition's (1 - beta)^2 "
            "and the remark ('the best possible convergence rate is 1 - eta gamma kappa_n/2') "
            "fix the factor as beta^2, which also reproduces Theorem 5.1(b) for t = eta s, "
            "eta -> 0. Residuals: (1 - alpha) - beta^2 at a rational point (printed), and "
            "rate - beta^2 plus the eta -> 0 limit minus exp(-gamma kappa_n t/2) (corrected).",
            _eq16_rate,
            changes_math=False,
        ),
        Erratum(
            s, "Assumption 3.2 (text before it), Section 8",
            "Standard activation functions (softplus, tanh, sigmoid, swish) satisfy "
            "Assumption 3.2 (|sigma'| <= 1, |sigma''| <= M)",
            "swish has sup sigma' = sigma'(u*) = 1.09984 > 1 (u* = 2.39936, u* tanh(u*/2) = 2) "
            "and sup |sigma''| = 1/2; it satisfies Assumption 3.2 only after rescaling "
            "(sigma/1.09984), so Theorems 5.1 and 6.1 do not cover the swish networks of "
            "Section 8 as stated",
            "sigma'(u) - 1 = (1 - S(u))(sigma(u) - 1) with S the logistic function, so sigma' > 1 "
            "exactly where sigma(u) > 1, i.e. for every u > 1.27846 (sigma'(2) = 1.0908; "
            "sigma' -> 1 from above). Residuals: max(0, sigma'(2) - 1) (printed), and the "
            "identity sigma'' = S(1 - S)(2 - u (2S - 1)) whose root u* (u tanh(u/2) = 2) gives "
            "the supremum (corrected; the value is checked by claim "
            "global_convergence.activation_derivative_bounds).",
            _swish_assumption,
        ),
    )  # fmt: skip


def errata() -> list[Erratum]:
    """Disagreements with seed 000, Sections 3.3 and 6, each with its check."""
    return list(_errata())
