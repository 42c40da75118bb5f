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
    p: Callable[..., Any]
    q: Callable[..., Any]
    neuron: Callable[..., tuple[Any, Any]]
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
    neuron_args = (S.u0, S.v0, S.p0, S.q0, S.ell, S.eta_u, S.eta_w, S.rho)
    return {
        "constants": (params, const_exprs, False),
        # the reported constants (alpha_+, alpha_-, t_c, alpha') from the same eight scalars
        "reported": (params[:-1], _reported_exprs(abcd), False),
        "ell": ((S.D, S.G, S.N, S.M, S.t), st["ell"], True),
        "residual": ((S.D, S.N, S.M, S.f0, S.y, S.t), st["residual"], True),
        "p": ((S.p0, S.ell), st["p_t"], True),
        "q": ((S.q0, S.ell), st["q_t"], True),
        "neuron": (neuron_args, (st["u_t"], st["v_t"]), True),
        "pq": ((S.u, S.v, S.eta_u, S.eta_w, S.rho), (S.paper["p"], S.paper["q"]), True),
        "alignment": (align_args, st["alignment"].subs(S.F, st["F_of_f"]), True),
        "f": (sums, st["f"], True),
        "ntk": ((S.Sp, S.Sq, S.gamma, S.rho), st["ntk"], True),
    }


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
