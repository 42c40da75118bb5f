"""The evaluators of seed 001's closed form, generated from its sympy source.

The one list of sympy expressions the closed form evaluates (:func:`_sources`, from
``symbolic().stable``: eqs. (8)-(12), (13), (18), (19), (21) in their evaluation forms),
printed for numpy (``numpy.select``, the reference path), for mpmath, and for numpy with a
lazy ``Piecewise`` (:func:`_lazy_select`, the fast path of ``Trajectory.sample``), each
evaluator generated on its first use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from sympy.logic.boolalg import ITE, simplify_logic
from sympy.printing.numpy import SciPyPrinter

from solvable._core.backends import generate, namespace
from solvable.models.xu_ziyin.expressions import symbolic

REPORTED = ("P", "Q", "alpha_plus", "alpha_minus", "t_c", "alpha_prime")
"""The constants a :class:`Trajectory` reports (and :func:`constants` returns, less P, Q)."""


# ---------------------------------------------------------------------------
# Generated evaluators
# ---------------------------------------------------------------------------
Backend = str  # "numpy" | "mpmath"


class _Evaluators:
    """The generated evaluators of one backend (:func:`_evaluators`), each generated from
    its sympy source (:func:`_sources`) on its first use and kept: a float64 closed form
    that is only constructed never prints the evaluators it does not call (``ell`` alone
    takes seconds to print), and each set is printed at most once per process."""

    def __init__(self, backend: Backend, lazy: bool) -> None:
        self._backend = backend
        self._lazy = lazy

    # the names of :func:`_sources`, for type checkers (each set on first use)
    constants: Callable[..., tuple[Any, ...]]
    reported: Callable[..., tuple[Any, ...]]
    ell: Callable[..., Any]
    residual: Callable[..., Any]
    unit_piece: Callable[..., Any]
    unit_coefficients: Callable[..., tuple[Any, ...]]
    unit_squares: Callable[..., tuple[Any, Any]]
    pq: Callable[..., tuple[Any, Any]]
    alignment: Callable[..., Any]
    f: Callable[..., Any]
    ntk: Callable[..., Any]

    def __getattr__(self, name: str) -> Callable[..., Any]:
        # called only for a name not generated yet
        sources = _sources()
        if name.startswith("_") or name not in sources:
            raise AttributeError(name)
        args, expr, elementwise = sources[name]
        if self._lazy:
            fn = generate(args, expr, "numpy", printer=_lazy_printer(),
                          extra={"lazy_select": _lazy_select})  # fmt: skip
        else:
            # mpmath: mapped over object arrays; 0/0 of an undefined quantity gives nan
            fn = generate(args, expr, self._backend, elementwise=elementwise)
        setattr(self, name, fn)
        return fn


@functools.cache
def _sources() -> dict[str, tuple[tuple[sp.Symbol, ...], Any, bool]]:
    """name -> (arguments, sympy expression(s), mapped elementwise in mpmath) of every
    evaluator of the closed form: the one list both :func:`_evaluators` sets print."""
    S = symbolic()
    co, st = S.coefficients, S.stable
    # stage 1: scalar constants from (eta_u, eta_w, gamma, rho, y, d, P, Q, f0)
    params = (S.eta_u, S.eta_w, S.gamma, S.rho, S.y, S.d, S.P, S.Q, S.f0)
    subs_abc = {S.A: co["A"], S.B: co["B"], S.C: co["C"]}
    Dx = co["D"].subs(subs_abc)
    abcd = {**subs_abc, S.D: Dx}
    const_exprs = (
        co["A"], co["B"], co["C"], Dx, co["G"], st["N"].subs(abcd), st["M"].subs(abcd)
    )  # fmt: skip
    sums = (S.Sp, S.Sq, S.R, S.y, S.gamma, S.rho, S.eta_u, S.eta_w)
    align_args = (S.f0, S.Lam, S.ell, S.P, S.Q, S.y, S.eta_u, S.eta_w, S.gamma, S.rho)
    forms = unit_forms()
    return {
        "constants": (params, const_exprs, False),
        # the reported constants (alpha_+, alpha_-, t_c, alpha') from the same eight scalars
        "reported": (params[:-1], _reported_exprs(abcd), False),
        "ell": ((S.D, S.G, S.N, S.M, S.t), st["ell"], True),
        "residual": ((S.D, S.N, S.M, S.f0, S.y, S.t), st["residual"], True),
        # u_t, v_t as functions of time times the units' initial values (unit_forms)
        "unit_piece": ((S.ell,), forms.condition, True),
        "unit_coefficients": ((S.ell, S.eta_u, S.eta_w, S.rho), forms.coefficients, True),
        "unit_squares": ((S.ell,), forms.squares, True),
        "pq": ((S.u, S.v, S.eta_u, S.eta_w, S.rho), (S.paper["p"], S.paper["q"]), True),
        "alignment": (align_args, st["alignment"].subs(S.F, st["F_of_f"]), True),
        "f": (sums, st["f"], True),
        "ntk": ((S.Sp, S.Sq, S.gamma, S.rho), st["ntk"], True),
    }


@dataclass(frozen=True)
class UnitForms:
    """``u_t`` and ``v_t`` of ``symbolic().stable`` (eq. (13) with (8), (9)) written as
    functions of time times the units' initial values: where ``condition`` holds (the first
    pieces, ``|ell| <= 1``), ``u_t = c[0] u0 + c[1] v0`` and ``v_t = c[2] u0 + c[3] v0``;
    elsewhere ``u_t = c[4] p0 + c[5] q0`` and ``v_t = c[6] p0 + c[7] q0``, a term whose
    ``p0`` or ``q0`` is 0 being 0 (as the Piecewise ``p_t``, ``q_t``: no ``0 * inf``).
    ``c`` = ``coefficients``, each a function of ``ell`` and the rates alone, so that a
    sample evaluates them once per time, not per time and unit."""

    condition: sp.Basic
    coefficients: tuple[sp.Expr, ...]
    squares: tuple[sp.Expr, sp.Expr]
    """The coefficients of ``p0^2`` in ``p_t^2`` and of ``q0^2`` in ``q_t^2`` (second
    pieces): ``sum_i p_i(t)^2`` is the first times ``sum_i p_i(0)^2`` (0 where that sum is
    0, as each ``p_t`` is), a function of time alone."""


@functools.cache
def unit_forms() -> UnitForms:
    """The coefficients of :class:`UnitForms`, read off ``u_t`` and ``v_t`` by sympy (not
    typed again), each decomposition checked: the residual ``piece - sum c x`` expands to
    exactly 0 (``tests/test_xu_ziyin_unit_forms.py`` proves it again)."""
    S = symbolic()
    st = S.stable
    (u_first, cond), (u_second, _) = st["u_t"].args
    (v_first, v_cond), (v_second, _) = st["v_t"].args
    if cond != v_cond:
        raise RuntimeError(f"u_t and v_t change piece at different times: {cond}, {v_cond}")
    general = {st["p_t"]: st["p_t"].args[-1].expr, st["q_t"]: st["q_t"].args[-1].expr}
    coefficients: list[sp.Expr] = []
    for piece, units in ((u_first, (S.u0, S.v0)), (v_first, (S.u0, S.v0)),
                         (u_second.xreplace(general), (S.p0, S.q0)),
                         (v_second.xreplace(general), (S.p0, S.q0))):  # fmt: skip
        expanded = sp.expand(piece)
        cs = [expanded.coeff(x) for x in units]
        if any(c.has(*units) for c in cs) or sp.expand(expanded - sum(
                c * x for c, x in zip(cs, units, strict=True))) != 0:  # fmt: skip
            raise RuntimeError(f"{piece} is not linear in {units}")
        coefficients += cs
    squares = []
    for name, x in (("p_t", S.p0), ("q_t", S.q0)):
        square = sp.expand(general[st[name]] ** 2)
        c = square.coeff(x**2)
        if c.has(x) or sp.expand(square - c * x**2) != 0:
            raise RuntimeError(f"{name}^2 = {square} is not a multiple of {x}^2")
        squares.append(c)
    return UnitForms(cond, tuple(coefficients), (squares[0], squares[1]))


@functools.cache
def _evaluators(backend: Backend) -> _Evaluators:
    """The evaluators of :func:`_sources` for ``backend`` (``"numpy"``: float64 through
    ``numpy.select``, the reference path of :meth:`Trajectory.sample`; ``"mpmath"``)."""
    return _Evaluators(backend, lazy=False)


@functools.cache
def _lazy_evaluators() -> _Evaluators:
    """The float64 evaluators of :func:`_sources` printed by :func:`_lazy_printer`: the same
    arithmetic as ``_evaluators("numpy")``, a piece of a Piecewise evaluated only where it
    applies (the fast path of :meth:`Trajectory.sample`)."""
    return _Evaluators("numpy", lazy=True)


class _LazyPiecewisePrinter(SciPyPrinter):
    """The printer :func:`sympy.lambdify` uses for the numpy backend (modules ``scipy``,
    ``numpy``: ``SciPyPrinter``), except for ``Piecewise``: ``numpy.select`` there, which
    evaluates every piece on the whole argument, and here
    ``lazy_select((lambda: cond, lambda: piece), ...)`` (:func:`_lazy_select`), which
    evaluates a piece only if its condition holds somewhere that no earlier one does.
    Everything else, each piece and each condition included, prints as lambdify prints it,
    so the arithmetic of a value is the same operations in the same order."""

    def _print_Piecewise(self, expr: sp.Piecewise) -> str:
        def cond(c: Any) -> str:  # as NumPyPrinter._print_Piecewise prints a condition
            return self._print(simplify_logic(c) if c.has(ITE) else c)

        pairs = (f"(lambda: {cond(a.cond)}, lambda: {self._print(a.expr)})" for a in expr.args)
        return f"lazy_select({', '.join(pairs)})"


@functools.cache
def _lazy_printer() -> _LazyPiecewisePrinter:
    # lambdify's own settings for the numpy namespace (names of the namespace printed as
    # themselves), plus lazy_select
    names = [*namespace("numpy")[0], "lazy_select"]
    return _LazyPiecewisePrinter({
        "fully_qualified_modules": False, "inline": True, "allow_unknown_functions": True,
        "user_functions": {n: n for n in names},
    })  # fmt: skip


def _lazy_select(*pairs: tuple[Callable[[], Any], Callable[[], Any]]) -> Any:
    """A Piecewise of ``(condition, piece)`` thunks, first true condition wins (``nan`` where
    none holds), as ``numpy.select``; a condition false everywhere skips its piece without
    evaluating it, and one true everywhere (e.g. ``p0 == 0`` on an index set where it holds,
    ``D > 0`` for a trajectory) ends the list.  If the first condition that holds anywhere
    holds everywhere, the value is that piece's, unbroadcast (a scalar piece stays a
    scalar: the caller broadcasts); where the conditions vary over the arguments, the pieces
    that apply somewhere are evaluated on the whole arguments and selected elementwise."""
    conds: list[np.ndarray] = []
    pieces: list[Any] = []
    for cond, piece in pairs:
        c = np.asarray(cond())
        if c.dtype != bool:  # a boolean-valued nested Piecewise gives 0.0 / 1.0
            c = c.astype(bool)
        if not c.any():
            continue
        everywhere = bool(c.all())
        if everywhere and not conds:
            return piece()
        conds.append(c)
        pieces.append(piece())
        if everywhere:
            break
    if not conds:
        return np.nan
    arrays = np.broadcast_arrays(*conds, *(np.asarray(a) for a in pieces))
    return np.select(arrays[: len(conds)], arrays[len(conds) :], default=np.nan)


def _reported_exprs(abcd: Mapping[sp.Symbol, sp.Expr]) -> tuple[sp.Expr, ...]:
    """``stable["alpha_plus"]``, ``["alpha_minus"]``, ``["t_c"]``, ``["alpha_prime"]`` in the
    eight scalars ``(eta_u, eta_w, gamma, rho, y, d, P, Q)`` (``abcd``: A, B, C, D as
    expressions of them)."""
    S = symbolic()
    st = S.stable
    nm = {S.N: st["N"], S.M: st["M"]}
    return tuple(st[k].subs(nm).subs(abcd) for k in REPORTED[2:])
