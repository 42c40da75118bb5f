"""Conservation laws as data, each with a symbolic proof that it is conserved.

A :class:`ConservationLaw` is an expression in a model's parameters, the gradient flow it
belongs to (:class:`solvable._core.flows.GradientFlow`, derived from the model's loss with
general learning rates) and its source.  ``residual()`` is its time derivative along the
flow, simplified: the law is proved when that is exactly 0.  A model lists its laws in its
``MODEL.laws``; each becomes a registered claim (:meth:`ConservationLaw.claim`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from solvable._core.claims import Theorem, prove_zero
from solvable._core.flows import GradientFlow

__all__ = ["ConservationLaw"]


@dataclass(frozen=True)
class ConservationLaw:
    """``expression`` is constant along ``flow`` (claimed by ``source``)."""

    id: str
    source: str
    statement: str
    expression: sp.Expr
    flow: GradientFlow = field(repr=False)
    flow_name: str = ""

    def derivative(self) -> sp.Expr:
        """d(expression)/dt along the flow, unsimplified."""
        return self.flow.ddt(self.expression)

    def residual(self) -> sp.Expr:
        """The simplified time derivative: exactly 0 when the law holds."""
        return sp.simplify(sp.together(self.derivative()))

    def claim(self) -> Theorem:
        """The law as a symbolic claim of the registry (same id, source and statement)."""
        return Theorem(self.id, self.source, self.statement, "symbolic",
                       lambda: prove_zero(self.derivative()))  # fmt: skip
