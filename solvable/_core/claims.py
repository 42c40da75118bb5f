"""The typed records of what the package checks, and the proof helpers.

* :class:`Theorem`: one claim of a paper (``id``, ``source``, ``statement``, how it is
  verified: ``kind`` ``"symbolic"``, ``"numeric"`` or ``"monitor"``); ``verify()`` returns a
  :class:`Verdict`.
* :class:`Verdict`: ``"proved"`` (symbolic: every residual simplified to exactly 0),
  ``"confirmed"`` (numeric: ``max_error`` in units of ``tolerance`` is <= 1),
  ``"observed"`` (a monitor: numbers measured outside the theorem's hypotheses, reported
  but not counted as a confirmation, because no outcome of them could contradict the
  theorem) or ``"failed"``.
* :class:`Erratum`: one disagreement with a printed paper, with the residuals of both
  versions.
* :func:`prove_zero`, :func:`decide`, :func:`prove_nonzero`: symbolic proofs that return a
  verdict carrying its residuals; :func:`all_proved` joins the parts of one proof.

These types know no model: model modules build them, the registry
(:mod:`solvable.verification.theorems`)
and the errata list (:mod:`solvable.verification.errata`) collect them.
"""

from __future__ import annotations

import inspect
import math
import numbers
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import sympy as sp

from solvable._core import numbers as nb
from solvable._core.backends import elementary
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance

__all__ = [
    "COUNTED",
    "VERIFY_OPTIONS",
    "Erratum",
    "Kind",
    "Status",
    "Theorem",
    "Verdict",
    "all_proved",
    "at_rational_point",
    "decide",
    "prove_nonzero",
    "prove_zero",
]

Status = Literal["proved", "confirmed", "observed", "failed"]
Kind = Literal["symbolic", "numeric", "monitor"]
VERIFY_OPTIONS = frozenset({"dps", "full", "scale_out"})
COUNTED: frozenset[str] = frozenset({"proved", "confirmed"})
"""The statuses that count as a verification: ``"observed"`` (a monitor) does not."""


@dataclass(frozen=True)
class Verdict:
    """Outcome of one verification.

    ``residuals`` (symbolic claims) are the simplified residuals, all ``0`` when
    proved; ``max_error`` (numeric claims) is in units of ``tolerance``; for an
    ``"observed"`` verdict (a monitor) it is the measured figure the detail explains (e.g.
    the largest observed/bound ratio), reported, never judged.
    """

    status: Status
    detail: str
    max_error: float | None = None
    tolerance: Tolerance | None = None
    residuals: tuple[sp.Expr, ...] = ()
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.status == "confirmed" and self.max_error is not None:
            e = self.max_error
            if not 0 <= e <= 1:  # NaN fails this too
                why = ("nothing was compared" if e == NOTHING_COMPARED
                       else "a term failed to compute" if e != e else "outside [0, 1]")  # fmt: skip
                raise ValueError(
                    f"a confirmed verdict has max_error in [0, 1] (errors in units of the "
                    f"tolerance), got {e!r} ({why}): {self.detail}"
                )

    @property
    def ok(self) -> bool:
        """Not failed (``"observed"`` is ok: a monitor that ran and gave finite numbers)."""
        return self.status != "failed"

    @property
    def counted(self) -> bool:
        """Whether the verdict counts as a verification (``proved`` or ``confirmed``)."""
        return self.status in COUNTED

    @classmethod
    def observe(cls, figure: float, detail: str, tolerance: Tolerance | None = None) -> Verdict:
        """A monitor's verdict: ``"observed"`` when ``figure`` (the measured number the
        detail explains) is finite, ``"failed"`` when it is NaN or infinite (a broken
        simulation is still a failure).  Never ``"confirmed"``: see :class:`Theorem`."""
        finite = math.isfinite(figure)
        return cls("observed" if finite else "failed",
                   detail if finite else f"non-finite figure {figure!r}: {detail}",
                   max_error=float(figure), tolerance=tolerance)  # fmt: skip

    @classmethod
    def from_error(cls, worst: float, detail: str, tolerance: Tolerance | None = None) -> Verdict:
        """``confirmed`` when ``0 <= worst <= 1`` (errors in units of ``tolerance``), else
        ``failed``: NaN (a term that failed to compute) and :data:`NOTHING_COMPARED` (a
        check that compared nothing) fail."""
        if worst == NOTHING_COMPARED:
            detail = f"nothing was compared: {detail}"
        return cls("confirmed" if 0 <= worst <= 1 else "failed", detail, max_error=worst,
                   tolerance=tolerance)  # fmt: skip


@dataclass(frozen=True)
class Theorem:
    """One claim of a paper: ``id``, ``source`` (seed file and equations),
    ``statement`` and how it is verified (``kind``):

    * ``"symbolic"``: proved by sympy (``"proved"`` or ``"failed"``);
    * ``"numeric"``: confirmed by a simulation or a high-precision evaluation within a stated
      tolerance, in a regime where the check could fail (``"confirmed"`` or ``"failed"``);
    * ``"monitor"``: numbers measured where the theorem's hypotheses are not met (e.g. widths
      far below its width condition), so that no outcome could confirm or contradict it.
      Its verdict is ``"observed"`` (finite numbers, reported with ``reason``) or
      ``"failed"`` (a crash, a non-finite number); ``solvable verify`` does not count it.
      ``reason`` (required for a monitor, empty otherwise) says why it cannot fail.
    """

    id: str
    source: str
    statement: str
    kind: Kind
    _verify: Callable[..., Verdict] = field(repr=False)
    reason: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("symbolic", "numeric", "monitor"):
            raise ValueError(f"kind must be 'symbolic', 'numeric' or 'monitor', got {self.kind!r}")
        for name in ("id", "source", "statement"):
            if not isinstance(getattr(self, name), str) or not getattr(self, name):
                raise ValueError(f"{name} must be a non-empty str, got {getattr(self, name)!r}")
        if not isinstance(self.reason, str) or (self.kind == "monitor") != bool(self.reason):
            raise ValueError(
                f"reason must be a non-empty str for a monitor and empty otherwise "
                f"(kind {self.kind!r}), got {self.reason!r}"
            )

    def verify(self, **options: Any) -> Verdict:
        """Run the check; options reach the numeric checks that take them: ``dps``
        (digits of the high-precision checks) and ``full`` (``True``: the full sweep of a
        simulation-backed check instead of its fast default) and ``scale_out`` (a
        :class:`numerics.scale_out.ScaleOut`: executor, device, point cache and progress bar
        of the checks that run sweeps).  Options a check does not take are ignored; an
        unknown option name is a ``TypeError``."""
        unknown = set(options) - VERIFY_OPTIONS
        if unknown:
            raise TypeError(
                f"unknown verify option(s) {sorted(unknown)}; valid: {sorted(VERIFY_OPTIONS)}"
            )
        _check_options(options)
        start = time.perf_counter()
        try:
            if self.kind != "symbolic":
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
        verdict = self._as_kind(verdict)
        return Verdict(
            verdict.status, verdict.detail, verdict.max_error, verdict.tolerance,
            verdict.residuals, time.perf_counter() - start,
        )  # fmt: skip

    def _as_kind(self, verdict: Verdict) -> Verdict:
        """The status the kind allows: a monitor's non-failed verdict is ``"observed"``
        (with :attr:`reason` in its detail), or ``"failed"`` when its figure is not finite;
        ``"observed"`` from a symbolic or numeric claim is ``"failed"`` (a counted check
        must decide)."""
        v = verdict
        if self.kind == "monitor":
            if v.status == "failed":
                return v
            if v.max_error is not None and not math.isfinite(v.max_error):
                return Verdict("failed", f"non-finite figure {v.max_error!r}: {v.detail}",
                               v.max_error, v.tolerance, v.residuals)  # fmt: skip
            detail = v.detail
            if not detail.startswith("not counted"):
                detail = f"not counted ({self.reason}): {detail}"
            return Verdict("observed", detail, v.max_error, v.tolerance, v.residuals)
        if v.status == "observed":
            return Verdict("failed", f"a {self.kind} claim must decide, got 'observed': "
                           f"{v.detail}", v.max_error, v.tolerance, v.residuals)  # fmt: skip
        return v


def _check_options(options: dict[str, Any]) -> None:
    """``dps`` an int from :data:`~solvable._core.numbers.VERIFY_MIN_DPS` (30, the floor of
    ``solvable verify --dps``: below it some claims' tolerances cannot be met and a correct
    claim would be reported failed) to ``MAX_DPS``; ``full`` a bool; ``scale_out`` ``None``
    or a ``ScaleOut``."""
    if "dps" in options:
        dps = options["dps"]
        valid = f"an int >= {nb.VERIFY_MIN_DPS} (and <= {nb.MAX_DPS})"
        if isinstance(dps, bool) or not isinstance(dps, numbers.Integral):
            raise TypeError(f"dps must be {valid}, got {type(dps).__name__} {nb.describe(dps)}")
        if not nb.VERIFY_MIN_DPS <= dps <= nb.MAX_DPS:  # fewer: false failures
            raise ValueError(f"dps must be {valid}, got {dps!r}")
    if "full" in options and not isinstance(options["full"], bool):
        raise TypeError(f"full must be a bool, got {type(options['full']).__name__} "
                        f"{nb.describe(options['full'])}")  # fmt: skip
    scale_out = options.get("scale_out")
    # numerics.scale_out.ScaleOut (a layer above: recognised by its interface, not imported)
    if scale_out is not None and not callable(getattr(scale_out, "sweep_kwargs", None)):
        raise TypeError(f"scale_out must be None or a numerics.scale_out.ScaleOut, got "
                        f"{type(scale_out).__name__} {nb.describe(scale_out)}")  # fmt: skip


def prove_zero(*residuals: sp.Expr, assumptions: dict[sp.Symbol, sp.Expr] | None = None) -> Verdict:
    """``proved`` when every residual simplifies to exactly 0 (after rewriting the
    stable special functions into exp/log and substituting ``assumptions``).  A residual
    that mixes ``Heaviside`` (the ReLU derivative convention) with ``Piecewise`` (ReLU's
    evaluated form, differentiated) and does not simplify is tried once more with every
    ``Heaviside`` rewritten as its ``Piecewise`` (an identity) and the branches folded."""
    simplified = []
    for r in residuals:
        r = elementary(sp.sympify(r, strict=True))
        if assumptions:
            r = r.subs(assumptions)
        s = sp.simplify(r)
        if s != 0 and s.has(sp.Heaviside) and s.has(sp.Piecewise):
            s = sp.simplify(sp.piecewise_fold(s.rewrite(sp.Piecewise)))
        simplified.append(s)
    bad = [r for r in simplified if r != 0]
    if bad or not simplified:
        return Verdict("failed", f"non-zero residual: {bad[0] if bad else 'none given'}",
                       residuals=tuple(simplified))  # fmt: skip
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


def all_proved(*verdicts: Verdict, detail: str | None = None) -> Verdict:
    """``proved`` when every one of ``verdicts`` (parts of one proof, e.g. a
    :func:`prove_zero` and a :func:`decide`) is proved, with ``detail`` (default: the
    parts' details joined by ``"; "``); else ``failed`` with the parts' details.  The
    residuals of all parts are kept either way."""
    residuals = tuple(r for v in verdicts for r in v.residuals)
    joined = "; ".join(v.detail for v in verdicts)
    if not verdicts or any(v.status != "proved" for v in verdicts):
        return Verdict("failed", joined or "no parts given", residuals=residuals)
    return Verdict("proved", joined if detail is None else detail, residuals=residuals)


def prove_nonzero(*values: sp.Expr, what: str) -> Verdict:
    """``proved`` when every value is an exactly known non-zero number (a counterexample
    claim, e.g. "this identity needs homogeneity"); residual 0 per non-zero value."""
    values = tuple(sp.nsimplify(sp.sympify(v, strict=True)) if not isinstance(v, sp.Basic) else v
                   for v in values)  # fmt: skip
    ok = [bool(v.is_number and v.is_zero is False) for v in values]
    residuals = tuple(sp.Integer(0 if k else 1) for k in ok)
    status = "proved" if values and all(ok) else "failed"
    return Verdict(status, f"{what}: {', '.join(str(v) for v in values)}", residuals=residuals)


# ---------------------------------------------------------------------------
# errata
# ---------------------------------------------------------------------------
def at_rational_point(expr: sp.Expr) -> sp.Expr:
    """``expr`` with each free symbol set to a distinct positive rational ``(k+2)/(k+3)``
    (in name order), simplified exactly: a non-zero value proves ``expr`` not identically
    zero."""
    expr = sp.sympify(expr, strict=True)
    free = sorted(expr.free_symbols, key=lambda s: s.name)
    point = {sym: sp.Rational(k + 2, k + 3) for k, sym in enumerate(free)}
    return sp.radsimp(sp.simplify(expr.subs(point)))


@dataclass(frozen=True)
class Erratum:
    """One disagreement with a paper: where (``source`` seed file, ``equation`` as printed),
    the printed and the corrected statement, why, and the residuals of both versions
    (``_residuals()`` returns ``(printed, corrected)``; each vanishes exactly when its
    version is right).  ``changes_math=False`` marks a minor (wording) erratum."""

    source: str
    equation: str
    paper: str
    corrected: str
    explanation: str
    _residuals: Callable[[], tuple[sp.Expr, sp.Expr]] = field(repr=False)
    changes_math: bool = True

    def residuals(self) -> tuple[sp.Expr, sp.Expr]:
        """(residual of the printed version, residual of the corrected version).

        The corrected residual is simplified symbolically (it must be exactly 0).
        The printed one is evaluated exactly at a rational point (each free symbol
        set to a distinct positive rational), so a non-zero value is a proof that
        the printed version is false, not a failure of ``simplify``.
        """
        paper, corrected = self._residuals()
        return at_rational_point(paper), sp.simplify(elementary(sp.sympify(corrected, strict=True)))

    def check(self) -> bool:
        """True when the printed version is shown false and the corrected one true."""
        return self.judge(*self.residuals())

    @staticmethod
    def judge(paper: sp.Expr, corrected: sp.Expr) -> bool:
        """:meth:`check` on residuals already computed by :meth:`residuals` (``solvable
        errata`` prints them and judges them without computing them twice)."""
        # the printed residual is a closed number: non-zero to 50 digits is a proof
        return bool(abs(sp.N(paper, 50)) > sp.Float("1e-40", 50)) and corrected == 0


def explicit_matrix(e: Any) -> sp.Matrix:
    """A matrix expression of explicit matrices (or a trace of one) as an explicit
    ``sp.Matrix`` (a scalar as 1 x 1): the matrix-calculus proofs' bridge from symbolic
    shapes to the package's array code on one instance."""
    if isinstance(e, sp.MatrixExpr):
        return sp.Matrix(e.as_explicit())
    return sp.Matrix([[sp.expand(sp.sympify(e, strict=True).doit())]])
