"""solvable: exact solutions of lazy vs rich training, as checked mathematics.

Public modules: :mod:`solvable.xu_ziyin` (seed 001, Theorem 1 / Proposition 1),
:mod:`solvable.theorems` (the registry of claims), :mod:`solvable.errata`
(disagreements with the papers), :mod:`solvable.suites` (shared test cases),
:mod:`solvable.tolerance` (the tolerance policy), :mod:`solvable.testing`
(oracle helpers for pytest).
"""

from solvable import errata, suites, testing, theorems, tolerance, xu_ziyin
from solvable.tolerance import Tolerance

__all__ = ["Tolerance", "errata", "suites", "testing", "theorems", "tolerance", "xu_ziyin"]
__version__ = "0.1.0"
