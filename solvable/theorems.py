"""The registry of every claim the package checks, one typed record per claim.

``registry()`` lists :class:`Theorem` records; ``Theorem.verify()`` returns a
:class:`Verdict` whose ``status`` is ``"proved"`` (a sympy residual simplified
to exactly 0), ``"confirmed"`` (numeric agreement within the stated tolerance;
``max_error`` is the worst error in units of that tolerance) or ``"failed"``.
The tests are parametrised from this registry, and ``solvable verify`` runs it.
"""

from __future__ import annotations

import fnmatch
import functools
import inspect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import sympy as sp

from solvable._special import elementary
from solvable.tolerance import Tolerance

__all__ = ["Theorem", "Verdict", "decide", "prove_nonzero", "prove_zero", "registry", "select"]

Status = Literal["proved", "confirmed", "failed"]
VERIFY_OPTIONS = frozenset({"dps", "full"})


@dataclass(frozen=True)
class Verdict:
    """Outcome of one verification.

    ``residuals`` (symbolic claims) are the simplified residuals, all ``0`` when
    proved; ``max_error`` (numeric claims) is in units of ``tolerance``.
    """

    status: Status
    detail: str
    max_error: float | None = None
    tolerance: Tolerance | None = None
    residuals: tuple[sp.Expr, ...] = ()
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status != "failed"


@dataclass(frozen=True)
class Theorem:
    """One claim of a paper: ``id``, ``source`` (seed file and equations),
    ``statement`` and how it is verified (``kind``: ``"symbolic"`` or ``"numeric"``)."""

    id: str
    source: str
    statement: str
    kind: Literal["symbolic", "numeric"]
    _verify: Callable[..., Verdict] = field(repr=False)

    def verify(self, **options: Any) -> Verdict:
        """Run the check; options reach the numeric checks that take them: ``dps``
        (digits of the high-precision checks) and ``full`` (``True``: the full sweep of a
        simulation-backed check instead of its fast default).  Options a check does not
        take are ignored; an unknown option name is a ``TypeError``."""
        unknown = set(options) - VERIFY_OPTIONS
        if unknown:
            raise TypeError(
                f"unknown verify option(s) {sorted(unknown)}; valid: {sorted(VERIFY_OPTIONS)}"
            )
        start = time.perf_counter()
        try:
            if self.kind == "numeric":
                accepted = inspect.signature(self._verify).parameters
                verdict = self._verify(**{k: v for k, v in options.items() if k in accepted})
            else:
                verdict = self._verify()
        except ModuleNotFoundError as exc:  # a simulation-backed check without its extra
            verdict = Verdict(
                "failed",
                f"needs the optional dependency {exc.name!r}: pip install 'solvable[torch]'",
            )
        except Exception as exc:  # a crash is a failed verification, reported, not raised
            verdict = Verdict("failed", f"{type(exc).__name__}: {exc}")
        return Verdict(
            verdict.status, verdict.detail, verdict.max_error, verdict.tolerance,
            verdict.residuals, time.perf_counter() - start,
        )  # fmt: skip


def prove_zero(*residuals: sp.Expr, assumptions: dict[sp.Symbol, sp.Expr] | None = None) -> Verdict:
    """``proved`` when every residual simplifies to exactly 0 (after rewriting the
    stable special functions into exp/log and substituting ``assumptions``)."""
    simplified = []
    for r in residuals:
        r = elementary(sp.sympify(r))
        if assumptions:
            r = r.subs(assumptions)
        simplified.append(sp.simplify(r))
    bad = [r for r in simplified if r != 0]
    if bad:
        return Verdict("failed", f"non-zero residual: {bad[0]}", residuals=tuple(simplified))
    n = len(simplified)
    return Verdict(
        "proved", f"{n} residual{'s' * (n > 1)} simplify to 0", residuals=tuple(simplified)
    )


def decide(cases: Sequence[tuple[str, bool | None]], what: str) -> Verdict:
    """A proof by exhaustive cases, each decided by sympy (e.g. from the signs of its
    symbols): ``proved`` when every case holds.  The residual of a case is 0 when it
    holds and 1 when it fails or is undecided (``None``), so a proved verdict carries
    all-zero residuals like :func:`prove_zero`."""
    residuals = tuple(sp.Integer(0 if ok is True else 1) for _, ok in cases)
    bad = [name for name, ok in cases if ok is not True]
    if bad or not cases:
        return Verdict("failed", f"{what}: fails or undecided in {bad or 'no cases'}",
                       residuals=residuals)  # fmt: skip
    return Verdict("proved", f"{what}: {len(cases)} cases ({', '.join(n for n, _ in cases)})",
                   residuals=residuals)  # fmt: skip


def prove_nonzero(*values: sp.Expr, what: str) -> Verdict:
    """``proved`` when every value is an exactly known non-zero number (a counterexample
    claim, e.g. "this identity needs homogeneity"); residual 0 per non-zero value."""
    values = tuple(sp.nsimplify(sp.sympify(v)) if not isinstance(v, sp.Basic) else v
                   for v in values)  # fmt: skip
    ok = [bool(v.is_number and v.is_zero is False) for v in values]
    residuals = tuple(sp.Integer(0 if k else 1) for k in ok)
    status = "proved" if values and all(ok) else "failed"
    return Verdict(status, f"{what}: {', '.join(str(v) for v in values)}", residuals=residuals)


@functools.cache
def conservation_claims(model: str) -> list[Theorem]:
    """One symbolic claim per conservation law of ``model`` (the prefix of the law ids,
    e.g. ``"kunin"``): its time derivative along the flow simplifies to 0."""
    from solvable import conservation

    return [
        Theorem(law.id, law.source, law.statement, "symbolic",
                lambda law=law: prove_zero(law.derivative()))
        for law in conservation.laws()
        if law.id.startswith(f"{model}.")
    ]  # fmt: skip


def _registry() -> tuple[Theorem, ...]:
    from solvable import (
        claims_kunin,
        claims_phases,
        claims_xu_ziyin,
        global_convergence,
        kernels,
        lazy_training,
        linear_node_scaling,
        linearisation,
        node_scaling,
        ntg,
        three_layer,
    )

    return (
        *claims_xu_ziyin.claims(),
        *claims_kunin.claims(),
        *claims_phases.claims(),
        *three_layer.claims(),
        *lazy_training.claims(),
        *kernels.claims(),
        *linearisation.claims(),
        *node_scaling.claims(),
        *ntg.claims(),
        *global_convergence.claims(),
        *linear_node_scaling.claims(),
    )


def registry() -> list[Theorem]:
    """Every registered claim, in a stable order."""
    return list(_registry())


def select(pattern: str | None) -> list[Theorem]:
    """Claims whose id matches ``pattern`` (shell glob, or a substring)."""
    thms = registry()
    if not pattern:
        return thms
    glob = any(c in pattern for c in "*?[")
    return [t for t in thms if (fnmatch.fnmatch(t.id, pattern) if glob else pattern in t.id)]
