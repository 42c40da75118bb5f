"""Every disagreement found with the printed papers, each with a check.

``Erratum.check()`` returns True when the check shows the printed version false and the
corrected version true.  Each check computes a *residual* for both versions
(``Erratum.residuals()``): an expression that vanishes exactly when the version is right,
simplified by sympy (the printed one evaluated exactly at a rational point).

The errata are data of the model modules (``MODEL.errata()``); :data:`ERRATA` collects them
from :data:`solvable.MODELS`, in that order.
"""

from __future__ import annotations

from solvable import MODELS
from solvable._core.claims import Erratum

__all__ = ["ERRATA", "Erratum"]

ERRATA: tuple[Erratum, ...] = tuple(e for model in MODELS for e in model.errata())
