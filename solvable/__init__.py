"""solvable: exact solutions of lazy vs rich training, as checked mathematics."""

from solvable import xu_ziyin

__all__ = ["xu_ziyin"]
__version__ = "0.1.0"
