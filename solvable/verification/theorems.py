"""The registry of every claim the package checks, one typed record per claim.

``registry()`` lists :class:`Theorem` records; ``Theorem.verify()`` returns a
:class:`Verdict` whose ``status`` is ``"proved"`` (a sympy residual simplified
to exactly 0), ``"confirmed"`` (numeric agreement within the stated tolerance;
``max_error`` is the worst error in units of that tolerance), ``"observed"`` (a
monitor, ``kind="monitor"``: numbers measured outside the theorem's hypotheses, reported
with ``Theorem.reason`` and not counted as a verification) or ``"failed"``.
The tests are parametrised from this registry, and ``solvable verify`` runs it.

Nothing is listed here by hand: for every model of :data:`solvable.MODELS`, in order, the
registry takes its conservation laws and claims (``MODEL.theorems()``) and then the
simulation-backed claims of the module of the same name in
:mod:`solvable.verification.confirmations`
(:func:`solvable.verification.confirmations.claims_of`).
"""

from __future__ import annotations

import fnmatch
import functools

import solvable
from solvable._core.claims import (
    Theorem,
    Verdict,
    decide,
    prove_nonzero,
    prove_zero,
)
from solvable.verification import confirmations

__all__ = ["Theorem", "Verdict", "decide", "prove_nonzero", "prove_zero", "registry", "select"]


@functools.cache
def _registry(models: tuple[solvable.Model, ...]) -> tuple[Theorem, ...]:
    out: list[Theorem] = []
    for model in models:
        out.extend(model.theorems())
        extra = confirmations.claims_of(model.name)
        for thm in extra:
            if not thm.id.startswith(f"{model.name}."):
                raise ValueError(f"confirmation {thm.id!r} must start with '{model.name}.'")
        out.extend(extra)
    ids = [t.id for t in out]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"claim ids must be unique, repeated: {dupes}")
    return tuple(out)


def registry() -> list[Theorem]:
    """Every registered claim, in a stable order (model by model, as in ``solvable.MODELS``)."""
    return list(_registry(solvable.MODELS))


def select(pattern: str | None) -> list[Theorem]:
    """Claims whose id matches ``pattern`` (shell glob, or a substring)."""
    thms = registry()
    if not pattern:
        return thms
    glob = any(c in pattern for c in "*?[")
    return [t for t in thms if (fnmatch.fnmatch(t.id, pattern) if glob else pattern in t.id)]
