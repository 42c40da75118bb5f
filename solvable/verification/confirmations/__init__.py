"""Simulation-backed confirmations: the claims that compare a model's theory with the raw
gradient flow integrated by :mod:`numerics` (or with Monte Carlo over initialisations).

This package is part of the verification layer: it may import the models and
:mod:`numerics`; nothing below it imports it.  Each module is named after the model it
confirms (``confirmations/xu_ziyin.py`` for :mod:`solvable.models.xu_ziyin`) and defines
``claims() -> list[Theorem]``; :func:`claims_of` finds it by that name, so no list of these
modules is kept by hand (a model without simulation-backed claims simply has no module
here).
"""

from __future__ import annotations

import importlib
import pkgutil

from solvable._core.claims import Theorem

__all__ = ["claims_of", "modules"]


def modules() -> list[str]:
    """The names of the confirmation modules (one per model that has any).  A private
    module (``_three_layer_table2``) is a companion of a model's module, which imports it
    and registers its claims; it is not listed."""
    return sorted(info.name for info in pkgutil.iter_modules(__path__)
                  if not info.ispkg and not info.name.startswith("_"))  # fmt: skip


def claims_of(model: str) -> list[Theorem]:
    """The simulation-backed claims of the model named ``model`` (none if it has no module
    here)."""
    if model not in modules():
        return []
    return list(importlib.import_module(f"{__name__}.{model}").claims())
