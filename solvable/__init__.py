"""solvable: exact solutions of lazy vs rich training, as checked mathematics.

The package has three layers, each a folder, importing downward only:

* :mod:`solvable._core` knows no model: numbers and validation, backends, the claim records,
  the tolerance policy, gradient flows and the model protocol (:class:`Model`);
* :mod:`solvable.models`: one module (or subpackage) per paper or model, each its sympy
  source, generated evaluators, loss and flow, conservation laws, claims and errata;
* :mod:`solvable.verification`: the registry, errata, simulation-backed confirmations,
  figures, the CLI and the pytest oracle and plugin (above :mod:`numerics`, which integrates
  the raw flows).

:data:`MODELS` is the one list of models: the registry, the errata, ``solvable phases`` and
:func:`numerics.simulate` are built from it.  Adding a model is one module in
``solvable/models/`` (defining ``MODEL``, see :class:`solvable.Model`) and one line in
``_MODEL_MODULES`` below.

Short paths: ``solvable.<model>`` is ``solvable.models.<model>`` and ``solvable.theorems``,
``solvable.errata``, ``solvable.testing``, ... are ``solvable.verification.<name>``, the same
module objects (:mod:`solvable._core.aliases`), so ``from solvable import kunin`` and
``from solvable.testing import Oracle`` work; ``solvable.papers`` is the table of the source
papers (:data:`solvable._core.papers.PAPERS`) whose short citations every output prints.
The verification layer is imported only when one of its modules is.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from solvable._core.aliases import install
from solvable._core.lazy import lazy_module

if TYPE_CHECKING:
    from solvable._core.backends import generate
    from solvable._core.claims import Erratum, Theorem, Verdict
    from solvable._core.kernel_measures import (
        KernelPath,
        kernel_distance,
        kernel_norm_change,
        kernel_path,
        task_alignment,
    )
    from solvable._core.model import Model, System
    from solvable._core.tolerance import MC_CONFIDENCE, MonteCarlo, Tolerance, monte_carlo

# the core records, loaded on first use (sympy, behind them, takes 0.2 s to import: the
# pytest plugin, which every pytest run in the environment loads, must not pay it)
_claims = lazy_module("solvable._core.claims")
_model = lazy_module("solvable._core.model")
_tolerance = lazy_module("solvable._core.tolerance")
_backends = lazy_module("solvable._core.backends")
_CORE = {"Erratum": _claims, "Theorem": _claims, "Verdict": _claims, "Model": _model,
         "System": _model, "MonteCarlo": _tolerance, "Tolerance": _tolerance,
         "monte_carlo": _tolerance, "MC_CONFIDENCE": _tolerance,
         "generate": _backends}  # fmt: skip
# the kernel measures of issue 31 (solvable._core.kernel_measures), imported on first use by
# name (not by a stand-in: the module's own attributes stay patchable in tests)
_KERNEL_MEASURES = ("KernelPath", "kernel_distance", "kernel_norm_change", "kernel_path",
                    "task_alignment")  # fmt: skip

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
    "deep_linear",
)

MODELS: tuple[Model, ...]
"""Every model's :class:`Model` record, in the registry's order (its module,
``solvable.models.<name>``, is imported on the first use of ``MODELS``)."""

_VERIFICATION_MODULES = ("theorems", "errata", "testing", "cli", "pytest_plugin",
                         "verify_runner", "proof_cache", "confirmations", "figures")  # fmt: skip

install({
    f"{__name__}.papers": f"{__name__}._core.papers",  # the source papers and their citations
    **{f"{__name__}.{name}": f"{__name__}.models.{name}" for name in _MODEL_MODULES},
    **{f"{__name__}.{name}": f"{__name__}.verification.{name}" for name in _VERIFICATION_MODULES},
})  # fmt: skip


def __getattr__(name: str) -> object:
    """``MODELS``, ``solvable.<model>`` and the core records, imported on first use (PEP
    562, as scipy loads its submodules): ``import solvable`` takes 0.05 s instead of 1 s
    (issue 30); ``from solvable import kunin``, ``solvable.Theorem`` and ``solvable.MODELS``
    import what they name.  The modules are named above, at module level, so the import
    graph stays readable."""
    if name == "MODELS":
        models = tuple(importlib.import_module(f"{__name__}.models.{m}").MODEL
                       for m in _MODEL_MODULES)  # fmt: skip
        globals()["MODELS"] = models  # (the same records every time: each module's MODEL)
        return models
    if name in _MODEL_MODULES:
        return importlib.import_module(f"{__name__}.{name}")  # the alias binds it here too
    if name in _CORE:
        value = globals()[name] = getattr(_CORE[name], name)
        return value
    if name in _KERNEL_MEASURES:
        module = importlib.import_module(f"{__name__}._core.kernel_measures")
        value = globals()[name] = getattr(module, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "MC_CONFIDENCE",
    "MODELS",
    "Erratum",
    "KernelPath",
    "Model",
    "MonteCarlo",
    "System",
    "Theorem",
    "Tolerance",
    "Verdict",
    "generate",
    "kernel_distance",
    "kernel_norm_change",
    "kernel_path",
    "monte_carlo",
    "task_alignment",
    *_MODEL_MODULES,
]
__version__ = "0.1.0"
