"""The vector fields numerics integrates: :mod:`solvable.flows` (derived from each
model's loss by sympy), re-exported for the integrators."""

from solvable.flows import GradientFlow, gradient_flow, xu_ziyin_flow, xu_ziyin_parameters

__all__ = ["GradientFlow", "gradient_flow", "xu_ziyin_flow", "xu_ziyin_parameters"]
