"""The pieces of :meth:`Trajectory.sample` below the trajectory itself: the checks of its
``engine`` and ``out``, the index sets on which the fast float64 path evaluates one piece of
each Piecewise (:func:`_conditions`, :func:`_uniform_sets`), and the rounding of mpmath states
to float64 (:func:`_to_float64`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable._core.numbers import Number
from solvable.models.xu_ziyin.evaluators import _sources
from solvable.models.xu_ziyin.expressions import symbolic
from solvable.models.xu_ziyin.states import States, _shapes

ENGINES = ("fast", "reference")
"""The paths of the float64 :meth:`Trajectory.sample` (same arithmetic, same result)."""


def _check_engine(engine: Any) -> str:
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    return engine


def _check_out(out: Any, n: int, d: int, d0: int) -> None:
    """``out`` of :meth:`Trajectory.sample`: a :class:`States` of writeable float64 arrays
    of the shapes of ``n`` states (:func:`_shapes`) that share no memory."""
    if not isinstance(out, States):
        raise TypeError(
            "out must be a xu_ziyin.States of float64 arrays (e.g. States.empty(len(times), "
            f"{d}, {d0})), got {type(out).__name__}"
        )
    nb.check_output_arrays(out, _shapes(n, d, d0), contiguous=True,
                           sizes=f" (len(times) = {n}, d = {d}, d0 = {d0})")  # fmt: skip


def _finite_rows(states: States) -> np.ndarray:
    """``(T,)``: whether u, W, f and the NTK are finite at each time."""
    T = len(states.t)
    rows = [np.isfinite(np.reshape(getattr(states, n), (T, -1))).all(axis=1)
            for n in ("u", "W", "f", "ntk")]  # fmt: skip
    return np.logical_and.reduce(rows)


def _copied(states: States, out: States | None) -> States:
    """``states``, or ``out`` (checked shapes) with ``states`` copied into it."""
    if out is None:
        return states
    for name in _shapes(1, 1, 1):
        np.copyto(getattr(out, name), getattr(states, name))
    return out


def _float_times(ts: tuple[Number, ...]) -> np.ndarray:
    """The checked times as float64, as :meth:`Trajectory._evaluate` converts them."""
    if all(type(t) is float for t in ts):
        return np.fromiter(ts, dtype=float, count=len(ts))
    conv = nb.converter(None, "t")
    return np.array([conv(t) for t in ts], dtype=float)


def _full(a: Any, n: int) -> np.ndarray:
    """A function of time as a float64 ``(n,)`` array (a lazy Piecewise whose one piece is
    a constant returns the scalar)."""
    return np.broadcast_to(np.asarray(a, dtype=float), (n,))


@functools.cache
def _conditions(kind: str) -> tuple[Callable[..., Any], ...]:
    """The generated numpy evaluators of the Piecewise conditions of the per-unit
    evaluators (``p``, ``q``, ``neuron``) that depend on the units alone (``kind="units"``:
    arguments ``(u0, v0, p0, q0)``, e.g. ``p0 == 0``) or on ``ell`` alone (``"times"``:
    argument ``ell``, e.g. ``|ell| <= 1``): the fast path groups units and times by their
    values, so that within a group each condition is constant and :func:`_lazy_select`
    evaluates one piece.  A condition of any other kind is left to ``_lazy_select``."""
    S = symbolic()
    args = {"units": (S.u0, S.v0, S.p0, S.q0), "times": (S.ell,)}[kind]
    sources = _sources()
    found: list[Any] = []
    for name in ("p", "q", "neuron"):
        exprs = sources[name][1]
        for e in exprs if isinstance(exprs, tuple) else (exprs,):
            for pw in e.atoms(sp.Piecewise):
                for _piece, c in pw.args:
                    free = c.free_symbols
                    if free and free <= set(args) and c not in found:
                        found.append(c)
    found.sort(key=sp.default_sort_key)
    return tuple(generate(args, c, "numpy") for c in found)


def _condition_code(values: list[Any], n: int) -> np.ndarray:
    """One integer per element of a length-``n`` axis: bit ``j`` is condition ``j``."""
    code = np.zeros(n, dtype=np.int64)
    for j, c in enumerate(values):
        code |= np.broadcast_to(np.asarray(c, dtype=bool).ravel(), (n,)).astype(np.int64) << j
    return code


def _uniform_sets(values: list[Any], n: int) -> list[Any]:
    """The index sets of a length-``n`` axis on which every condition is constant:
    ``[slice(None)]`` when there is one (the usual case), else index arrays."""
    code = _condition_code(values, n)
    if (code == code[0]).all():
        return [slice(None)]
    return [np.flatnonzero(code == c) for c in np.unique(code)]


def _cross(rows: Any, cols: Any, n: int, d: int) -> Any:
    """The index of a block of ``n`` times by ``d`` units at ``rows`` x ``cols`` (each a
    ``slice(None)`` or an index array)."""
    if isinstance(rows, slice) and isinstance(cols, slice):
        return (rows, cols)
    r = np.arange(n) if isinstance(rows, slice) else rows
    c = np.arange(d) if isinstance(cols, slice) else cols
    return np.ix_(r, c)


def _to_float64(states: States) -> States:
    """``states`` (mpmath) rounded to float64; ``ValueError`` for a finite value beyond the
    float64 range (an underflow rounds to 0 or a subnormal, as float64 itself rounds)."""
    out = {}
    for name in ("t", "u", "W", "f", "alignment", "ntk", "alpha"):
        a = getattr(states, name)
        fa = np.array([float(z) for z in np.ravel(a)], dtype=float).reshape(np.shape(a))
        if name not in ("t", "alpha"):
            with mpmath.workdps(30):
                big = [
                    (i, z) for i, z in enumerate(np.ravel(a))
                    if mpmath.isfinite(z) and not math.isfinite(float(z))
                ]  # fmt: skip
            if big:
                i, z = big[0]
                t = states.t[np.unravel_index(i, np.shape(a))[0]]
                raise ValueError(
                    f"the state's {name} at t = {mpmath.nstr(t, 6)} is "
                    f"{mpmath.nstr(z, 6)}, beyond the float64 range (|value| <= 1.8e308) for "
                    "this setup and these initial weights (u0, W0); use closed_form(..., dps=k) "
                    "(mpmath has no exponent range)"
                )
        out[name] = fa
    return States(**out)
