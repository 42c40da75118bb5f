"""solvable: exact solutions of lazy vs rich training, as checked mathematics.

Models (one module per paper or model; each is its sympy source, its generated evaluators,
its loss and flow, its conservation laws, claims and errata):

* :mod:`solvable.xu_ziyin`, :mod:`solvable.phases`: seed 001 (Xu & Ziyin), Sections 2 and 3;
* :mod:`solvable.kunin`: seed 003 (Kunin et al.);
* :mod:`solvable.three_layer`: seed 004;
* :mod:`solvable.lazy_training`, :mod:`solvable.kernels`, :mod:`solvable.linearisation`:
  seed 002 (the NTK lecture);
* :mod:`solvable.node_scaling`, :mod:`solvable.ntg`, :mod:`solvable.global_convergence`,
  :mod:`solvable.linear_node_scaling`: seed 000 (asymmetrical node scaling).

:data:`MODELS` is the one list of models: the registry (:mod:`solvable.theorems`), the
errata (:mod:`solvable.errata`), ``solvable phases`` and :func:`numerics.simulate` are built
from it.  Adding a model is one module (defining ``MODEL``, see :class:`solvable.Model`) and
one line in ``_MODEL_MODULES`` below.

Verification (import them by name; they sit above :mod:`numerics`):
:mod:`solvable.theorems`, :mod:`solvable.errata`, :mod:`solvable.testing` (pytest oracle),
:mod:`solvable.cli`, :mod:`solvable.confirmations`.
"""

import importlib

from solvable._core.claims import Erratum, Theorem, Verdict
from solvable._core.model import Model, System
from solvable._core.tolerance import MonteCarlo, Tolerance, monte_carlo

_MODEL_MODULES = (  # the one list of models, in the registry's order: one line per model
    "xu_ziyin",
    "kunin",
    "phases",
    "three_layer",
    "lazy_training",
    "kernels",
    "linearisation",
    "node_scaling",
    "ntg",
    "global_convergence",
    "linear_node_scaling",
    "mirror_flow",
    "delayed_rich",
    "piecewise_linear",
)

MODELS: tuple[Model, ...] = tuple(
    importlib.import_module(f"{__name__}.{name}").MODEL for name in _MODEL_MODULES
)
"""Every model's :class:`Model` record (its module, ``solvable.<name>``, is imported here)."""

__all__ = [
    "MODELS",
    "Erratum",
    "Model",
    "MonteCarlo",
    "System",
    "Theorem",
    "Tolerance",
    "Verdict",
    "monte_carlo",
    *_MODEL_MODULES,
]
__version__ = "0.1.0"
