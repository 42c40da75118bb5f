"""Seed 003 (Kunin et al.), the float64 engine of Part I's exact solution: where float64 cannot
under- or overflow (:func:`_f64_safe`, :func:`_f64_trusted`; elsewhere the 17-digit mpmath
fallback), the coefficients ``z_a``, ``z_1``, ``z_perp`` (and ``z_dev``) with every
``Piecewise`` resolved once per trajectory (:class:`resolved_piece`,
:func:`_resolved_coefficients`) and evaluated chunk by chunk, and the preallocated outputs of
the float64 sample.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import sympy as sp

from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable.models.kunin.expressions import symbolic
from solvable.models.kunin.states import States


def _chunk_coefficients(
    coeffs: Callable[..., Any],
    consts: tuple[Any, ...],
    lim: Any,
    tf: np.ndarray,
    fin: np.ndarray,
    inf: np.ndarray,
    last: bool = False,
) -> Any:
    """``z_a, z_1, z_perp`` on a chunk of times: the resolved evaluator at the finite safe
    times, the limits at ``+inf``, 0 elsewhere (the times of the 17-digit fallback).
    ``last``: ``coeffs`` gives one value (``z_dev``, as a 1-tuple) whose argument after
    ``t`` is the last of ``consts``; that value alone is returned."""
    head, tail = (consts[:-1], consts[-1:]) if last else (consts, ())

    def call(tt: np.ndarray) -> Any:
        return coeffs(*head, tt, *tail)

    if fin.all():
        out = [np.broadcast_to(v, tf.shape) for v in call(tf)]
        return out[0] if last else out
    out = [np.zeros(len(tf)) for _ in range(1 if last else 3)]
    if fin.any():
        tt = tf[fin]
        for arr, val in zip(out, call(tt), strict=True):
            arr[fin] = np.broadcast_to(val, tt.shape)
    if inf.any():
        for arr, val in zip(out, lim, strict=True):
            arr[inf] = val
    return out[0] if last else out


class resolved_piece(sp.Function):  # noqa: N801 - sympy function names are lower case
    """The piece of a ``Piecewise`` chosen once per trajectory, printed as a call of the
    identity: sympy keeps it as one factor, so the generated arithmetic is that of the
    ``Piecewise`` (no re-association of the piece into the product around it).  Any number
    of arguments, as ``Piecewise``: sympy then orders it among the factors of a product as it
    orders the ``Piecewise`` (its class key), so the printed products multiply in the same
    order."""


@functools.cache
def _coefficient_conditions() -> tuple[Any, ...]:
    """The conditions of the ``Piecewise`` in ``z_a``, ``z_1``, ``z_perp`` (other than
    ``True``); each depends on the trajectory's constants only (checked).  Cached: walking
    the sympy trees took 70% of a 20-time float64 sample (``benchmarks/peers_exact.py``)."""
    S = symbolic()
    conds: list[Any] = []
    for e in (S.exprs["z_a"], S.exprs["z_1"], S.exprs["z_perp"], S.exprs["z_dev"]):
        for pw in e.atoms(sp.Piecewise):
            for _, c in pw.args:
                if c is not sp.true and c not in conds:
                    if S.t in c.free_symbols:
                        raise AssertionError(f"condition {c} depends on t")
                    conds.append(c)
    return tuple(conds)


@functools.cache
def _condition_evaluators() -> tuple[Callable[[float], Any], ...]:
    """The numpy evaluators of :func:`_coefficient_conditions`, generated once."""
    S = symbolic()
    out = []
    for c in _coefficient_conditions():
        if c.free_symbols != {S.delta}:
            raise AssertionError(f"condition {c} depends on more than delta")
        out.append(sp.lambdify((S.delta,), c, modules="numpy"))
    return tuple(out)


def _piece_choice(delta_p: float) -> tuple[bool, ...]:
    """The truth value of each condition of :func:`_coefficient_conditions` for this
    trajectory (they depend on delta only; float64 ``delta_p >= 0`` as numpy decides it)."""
    return tuple(bool(cond(delta_p)) for cond in _condition_evaluators())


@functools.cache
def _resolved_coefficients(
    choice: tuple[bool, ...], names: tuple[str, ...] = ("z_a", "z_1", "z_perp")
) -> Callable[..., Any]:
    """The float64 evaluator of ``(z_a, z_1, z_perp)`` (or of the expressions ``names`` of
    :func:`symbolic`, ``z_dev`` taking ``k_dev`` last) with every ``Piecewise`` replaced by
    its first piece whose condition is true under ``choice`` (:func:`_piece_choice`), as a
    :class:`resolved_piece`: generated from the sympy pieces, evaluating only the one that
    applies, with the arithmetic of the ``Piecewise`` (bit-for-bit, ``tests/
    test_closed_form_scale_models.py``)."""
    S = symbolic()
    ex = S.exprs
    truth = dict(zip(_coefficient_conditions(), choice, strict=True))
    truth[sp.true] = True

    def pick(*args: Any) -> Any:
        for e, c in sp.Piecewise(*args, evaluate=False).args:
            if truth[c]:
                return resolved_piece(e)
        raise AssertionError("no piece applies")  # pragma: no cover - True closes each

    exprs = tuple(ex[n].replace(sp.Piecewise, pick) for n in names)
    targs = (S.delta, S.kappa, S.Y, S.Omega, S.c_plus, S.c_minus, S.cperp, ex["vx"], ex["vy"], S.t)
    if "z_dev" in names:
        targs = (*targs, S.k_dev)
    # no cse: sympy's cse re-associates the products (1/sqrt(phi) times ..., not a quotient),
    # which is not the arithmetic of the reference; the evaluation runs on cached chunks
    # (each repeated call, exp(-2 Omega t), the exprel's and the sqrt, made once: the same
    # arithmetic, bit for bit)
    return generate(targs, exprs, "numpy", hoist_calls=True,
                    extra={"resolved_piece": lambda x: x})  # fmt: skip


_ROWS_UP_TO = 12
"""Up to this dimension :func:`_w_and_beta` works on ``(d, times)`` rows: numpy's loops over
a ``(times, d)`` block broadcast along rows of ``d`` entries, a call per row (at d = 8 its
four passes cost 0.14 s per 5e6 times against 0.12 s on rows then copied; at d = 16 0.12 s
against 0.13 s: ``benchmarks/closed_form_family.py``).  The sum and ``beta`` are written
through the transposed views of the outputs (no copy after: 212 us against 240 us per
block of 18724 times at d = 7)."""


def _w_and_beta_scratch(times: int, d: int) -> np.ndarray:
    """The scratch :func:`_w_and_beta` needs for blocks of up to ``times`` times."""
    return np.empty((2 * d, times)) if d <= _ROWS_UP_TO else np.empty((times, d))


def _w_and_beta(cc: np.ndarray, a: np.ndarray, bhat: np.ndarray, cperp: np.ndarray,
                w: np.ndarray, beta: np.ndarray, scratch: np.ndarray) -> None:  # fmt: skip
    """``w = cc[:, 0] bhat + cc[:, 1] cperp`` and ``beta = a w`` for a block of times, into
    ``w`` and ``beta`` (``(times, d)``): two products, their sum and one product per entry,
    rounded as :meth:`Trajectory._states` rounds them, in either layout (``scratch`` from
    :func:`_w_and_beta_scratch`)."""
    m, d = w.shape
    if d <= _ROWS_UP_TO:  # the sum and beta written straight into the (times, d) outputs
        x, y = scratch[:d, :m], scratch[d:, :m]
        np.multiply(bhat[:, None], cc[:, 0], out=x)
        np.multiply(cperp[:, None], cc[:, 1], out=y)
        np.add(x, y, out=w.T)
        np.multiply(a, w.T, out=beta.T)
        return
    tmp = scratch[:m]
    np.multiply(cc[:, 0:1], bhat, out=w)
    np.multiply(cc[:, 1:2], cperp, out=tmp)
    np.add(w, tmp, out=w)
    np.multiply(a[:, None], w, out=beta)


def _empty_states(T: int, d: int, delta: Any) -> States:
    return States(t=np.empty(T), a=np.empty(T), w=np.empty((T, d)), beta=np.empty((T, d)),
                  delta=delta, loss=np.empty(T))  # fmt: skip


def _check_out(out: Any, T: int, d: int) -> States:
    """``out`` if it is a :class:`States` of writeable, non-overlapping float64 arrays of the
    shapes of ``T`` times in dimension ``d``; else ``TypeError`` / ``ValueError`` naming the
    field, the expected shape and dtype."""
    if not isinstance(out, States):
        raise TypeError(f"out must be a kunin.States (e.g. an earlier sample), got "
                        f"{type(out).__name__}")  # fmt: skip
    shapes = {"t": (T,), "a": (T,), "w": (T, d), "beta": (T, d), "loss": (T,)}
    nb.check_output_arrays(out, shapes)
    return out


# float64 is used where it cannot under- or overflow: constants in [1e-20, 1e20] (or 0), so
# that a product of three stays within [1e-60, 1e60]; t <= 1e100 (Omega = 0: phi grows like
# kappa^2 |c|^2 t <= 1e160); and either every exponent (2 Omega + |delta'|) t <= 250 (then
# e^{-2 Omega t}, e^{-2 om t} >= e^{-500} = 7e-218: a product with constants stays normal) or
# the unstable coefficient |c_+| > 1e-30 |c| (then phi_hat >= kappa^2 c_+^2 / (2 e Omega)
# >= 1e-161 stays normal, and the underflowing terms are below 1e-300 of it).
_F64_RANGE = 1e20
_F64_MAX_T = 1e100
_F64_MAX_EXPONENT = 250.0
_F64_MIN_UNSTABLE = 1e-30
_SHADOW_DPS = 17  # the mpmath fallback of float64: 17 digits (+ guard), rounded once


def _f64_safe(k: dict[str, Any], t: float, inf: bool) -> bool:
    if inf:
        return True
    if t > _F64_MAX_T:
        return False
    if (2 * k["Omega"] + abs(k["delta_p"])) * t <= _F64_MAX_EXPONENT:
        return True
    return abs(k["c_plus"]) > _F64_MIN_UNSTABLE * k["r"]


def _f64_trusted(k: dict[str, Any]) -> bool:
    """Every constant finite and 0 or within ``[1/_F64_RANGE, _F64_RANGE]``."""
    vals = [k[n] for n in ("delta_p", "kappa", "Y", "Omega", "sa", "sw", "r", "s")]
    if k["minimum"] is not None:  # (the least loss is added last: any finite value)
        vals.append(k["minimum"]["k_dev"])
        if not math.isfinite(k["minimum"]["floor"]):
            return False
    vals += [float(np.max(np.abs(k["X"]))), float(np.max(np.abs(k["y"])))]
    return all(
        math.isfinite(v) and (v == 0 or 1 / _F64_RANGE <= abs(v) <= _F64_RANGE) for v in vals
    )
