"""The exact gradient-flow solution of seed 001: :func:`closed_form`, its
:class:`Trajectory` (Theorem 1 and Proposition 1, eqs. (8)-(16), (19), (21), (44)-(47)) and
the states it reports (:class:`State`, :class:`States`: ``f`` of eq. (4), the alignment of
eqs. (20), (21), the NTK of eq. (18) corrected, also measured from given weights), the pieces
of :meth:`Trajectory.sample` (checks of ``engine`` and ``out``, the fast path's index sets,
the rounding of mpmath states to float64), and the reported constants from the scalars alone
(:func:`constants`, eqs. (11), (12), (47)).

Xu & Ziyin (seed ``001_070589003213e0cf.txt``).  float64 at any scale: data outside the
range of :data:`SAFE_INPUT` are evaluated by the same generated evaluators in mpmath at
:data:`EXTENDED_DPS` digits and rounded; the float64 ``sample`` fills its output in blocks
(:data:`SAMPLE_BLOCK`), in two threads above :data:`PARALLEL_SAMPLE`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np

from solvable._core import numbers as nb
from solvable._core.numbers import Number
from solvable._core.states import SequenceOfStates, check_index
from solvable.models.xu_ziyin._arithmetic import (
    _cosine,
    _dot,
    _exact_manifold_zeros,
    _lagrange,
    _scalar,
    _sqrt,
)
from solvable.models.xu_ziyin.evaluators import _evaluators
from solvable.models.xu_ziyin.float64_sample import Float64Sample
from solvable.models.xu_ziyin.network import _network_output, _ntk, _squared_error
from solvable.models.xu_ziyin.setups import Setup, _check_times, _check_weights
from solvable.models.xu_ziyin.units import (
    _U_TERMS,
    _V_TERMS,
    _full_any,
    _initial_sums,
    _unit_sums,
    _unit_value,
)

GUARD_DIGITS = nb.GUARD_DIGITS  # extra working digits of the mpmath closed form


@dataclass(frozen=True)
class State:
    """The network at one time: ``u`` (d,), ``W`` (d, d0), output ``f`` on ``x``,
    ``alignment`` (cosine between ``u`` and ``W x``; the paper's zeta, eq. (20),
    when d0 = 1; ``nan`` when ``u`` or ``W x`` is the zero vector, where the
    cosine is undefined), ``ntk`` (``K(x, x)``, eq. (18) corrected) and the ``loss``
    ``(f - y)^2`` of eq. (4) (float64: ``inf`` where it is beyond the float64 range while
    ``f`` is not, as float64 rounds an overflow)."""

    t: Any
    u: np.ndarray
    W: np.ndarray
    f: Any
    alignment: Any
    ntk: Any
    loss: Any

    @classmethod
    @nb.mpmath_in_mpmath_out
    def from_weights(cls, setup: Setup, t: Any, u: Any, W: Any, *, dps: int | None = None) -> State:
        """Measure ``f``, alignment and NTK directly from the weights ``u`` (d,), ``W`` (d,
        d0) at the time ``t`` (``0 <= t <= inf``), no closed form: float64 (``dps=None``;
        a measure beyond the float64 range is a ``ValueError``) or mpmath at ``dps``
        digits."""
        if not isinstance(setup, Setup):
            raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
        (t,) = _check_times([t], "t")
        uc, Wc = _check_weights(setup, u, W, ("u", "W"))
        dps = nb.check_dps(dps)
        with nb.Precision(dps):
            cu, cW = nb.converter(dps, "u"), nb.converter(dps, "W")
            uu = np.array([cu(v) for v in uc], dtype=nb.dtype(dps))
            WW = np.array([[cW(v) for v in row] for row in Wc], dtype=nb.dtype(dps))
        with np.errstate(all="ignore"):
            st = cls._measure(setup, t, uu, WW, dps)
        if dps is None and not all(math.isfinite(z) for z in (st.f, st.ntk)):
            raise ValueError(
                f"the output f = {st.f!r} or the NTK = {st.ntk!r} is beyond the float64 range "
                "for these weights u, W (and setup): rescale them or pass dps=k (mpmath)"
            )
        return st

    @classmethod
    def _measure(cls, setup: Setup, t: Any, u: Any, W: Any, dps: int | None) -> State:
        """:meth:`from_weights` on checked weights (arrays of float64 or ``mpf``)."""
        conv = nb.converter(dps)
        with nb.Precision(dps):
            x = np.array([conv(v) for v in setup.x], dtype=nb.dtype(dps))
            g, eu, ew = conv(setup.gamma), conv(setup.eta_u), conv(setup.eta_w)
            u = np.asarray(u, dtype=nb.dtype(dps))
            W = np.asarray(W, dtype=nb.dtype(dps))
            v = np.array(W @ x, dtype=nb.dtype(dps))
            f = _network_output(u, W, x, g)
            nu, nv = _sqrt(_dot(u, u), dps), _sqrt(_dot(v, v), dps)
            align = _cosine(f / g, nu, nv, dps)
            loss = _squared_error(f - conv(setup.y))
            return cls(t=t, u=u, W=W, f=f, alignment=align, ntk=_ntk(u, W, x, eu, ew, g),
                       loss=loss)  # fmt: skip


@dataclass(frozen=True)
class States(SequenceOfStates):
    """Many times at once: arrays with a leading time axis (the fields of :class:`State`,
    and ``alpha``, the paper's ``alpha(t)``: ``sum_i p_i(t)^2 = d P alpha``, Theorem 1);
    ``at(k)`` / iteration give the :class:`State` at each time
    (:mod:`solvable._core.states`)."""

    t: np.ndarray
    u: np.ndarray
    W: np.ndarray
    f: np.ndarray
    alignment: np.ndarray
    ntk: np.ndarray
    alpha: np.ndarray
    loss: np.ndarray

    def at(self, k: int) -> State:
        """The :class:`State` at the ``k``-th time."""
        k = check_index(k, len(self))
        return State(self.t[k], self.u[k], self.W[k], self.f[k], self.alignment[k],
                     self.ntk[k], self.loss[k])  # fmt: skip

    @classmethod
    def empty(cls, n_times: int, d: int, d0: int) -> States:
        """Uninitialised float64 arrays for ``n_times`` states of a width-``d`` network with
        ``d0`` inputs: the ``out=`` of :meth:`Trajectory.sample` (``t``, ``f``,
        ``alignment``, ``ntk``, ``alpha`` of shape ``(n_times,)``, ``u`` ``(n_times, d)``,
        ``W`` ``(n_times, d, d0)``), to be filled again and again without allocating.

        Parameters
        ----------
        n_times, d, d0 : int
            Number of times, hidden width and input dimension, each ``>= 1``.

        Returns
        -------
        States
            Arrays of the shapes above, C-contiguous, contents undefined.
        """
        n_times, d, d0 = (nb.check_int(k, v) for k, v in (("n_times", n_times), ("d", d),
                                                           ("d0", d0)))  # fmt: skip
        try:
            return cls(**{k: np.empty(shape) for k, shape in _shapes(n_times, d, d0).items()})
        except (ValueError, MemoryError) as exc:  # numpy: too big for the address space / RAM
            raise ValueError(
                f"States.empty(n_times={n_times}, d={d}, d0={d0}): the arrays (n_times d d0 = "
                f"{n_times * d * d0:.3g} entries of W) cannot be allocated ({exc})"
            ) from None


def _shapes(n: int, d: int, d0: int) -> dict[str, tuple[int, ...]]:
    """The shape of each field of :class:`States` for ``n`` times, width ``d``, ``d0``
    inputs."""
    return {"t": (n,), "u": (n, d), "W": (n, d, d0), "f": (n,), "alignment": (n,),
            "ntk": (n,), "alpha": (n,), "loss": (n,)}  # fmt: skip


@dataclass(frozen=True)
class Trajectory(Float64Sample):
    """Exact solution from one initialisation (Theorem 1 / Proposition 1).

    Attributes (corrected conventions, see the module docstring):
    ``P``, ``Q`` (eq. (7)); ``alpha_plus = lim alpha(t)`` (eq. (12) when P > 0;
    ``inf`` when P = 0 and y >= 0, ``C/|B| = 1/|alpha'|`` when P = 0 and y < 0);
    ``alpha_minus = (D - B)/(2A) >= 0`` (its P -> 0 limit ``2C/(D + B)`` when
    P = 0); ``t_c = 1/D`` (eq. (11); ``inf`` when D = 0, i.e. y = 0 and PQ = 0);
    ``alpha_prime = B/C`` (eq. (47), only when P = 0 and Q > 0, else ``None``).  All from
    the generated evaluator of ``symbolic().stable`` (see :func:`constants`); floats for
    float64, ``mpf`` rounded to ``dps`` digits otherwise.
    """

    setup: Setup
    u0: np.ndarray
    W0: np.ndarray
    dps: int | None
    P: Any
    Q: Any
    alpha_plus: Any
    alpha_minus: Any
    t_c: Any
    alpha_prime: Any
    _data: dict[str, Any] = field(repr=False)

    def at(self, t: Number) -> State:
        """The state at time ``t``: ``0 <= t <= inf`` (``float("inf")``, ``mpmath.inf`` or
        ``"inf"``: the limit state, e.g. the saddle for P = 0 < y)."""
        return self._sample(_check_times([t], "t"), None, "fast").at(0)

    def sample(self, times: Any, *, out: States | None = None, engine: str = "fast") -> States:
        """The states at many times (vectorised over ``times``; each ``0 <= t <= inf``).

        float64 (``dps=None``): where the setup and the initial weights lie in the range
        where float64 arithmetic neither overflows nor underflows (see :func:`closed_form`),
        the generated numpy evaluators; otherwise the mpmath evaluators at
        ``EXTENDED_DPS`` digits (no exponent range), rounded to float64.  A state component
        beyond the float64 range raises ``ValueError`` (the loss excepted: it rounds to
        ``inf``, as float64 rounds an overflow, while ``f`` itself is in range).

        Parameters
        ----------
        times : float or sequence of float
            The times, each ``>= 0`` (``inf``: the limit state).
        out : States, optional
            float64 only: preallocated arrays (e.g. :meth:`States.empty`) of the shapes
            ``(T,)``, ``(T, d)``, ``(T, d, d0)``, dtype float64 and C-contiguous,
            ``T = len(times)``, no two fields sharing memory; filled and returned (no output
            is allocated).
        engine : {"fast", "reference"}
            float64 only (an mpmath trajectory has one path).  ``"fast"``: blocks of times
            (:data:`SAMPLE_BLOCK`) written straight into the output, every Piecewise
            evaluating only the pieces that apply (decided once per trajectory, per index
            set of units and per block of times); ``"reference"``: the whole arrays at once
            through ``numpy.select`` (every piece everywhere).  The same operations on the
            same numbers: the two agree bit for bit.

        Returns
        -------
        States
            ``out`` filled, or new arrays (float64, or mpmath object arrays for
            ``dps=k``).
        """
        return self._sample(_check_times(times, "times"), out, _check_engine(engine))

    def _sample(
        self, ts: tuple[Number, ...] | np.ndarray, out: States | None, engine: str
    ) -> States:
        """:meth:`sample` at the checked times ``ts``."""
        if self.dps is not None:
            if out is not None:
                raise ValueError(
                    f"out= is for a float64 trajectory (closed_form(..., dps=None)); this one "
                    f"has dps={self.dps} (mpmath object arrays): leave out out"
                )
            return self._evaluate(ts, self._data["work_dps"])
        d, d0 = self.W0.shape
        if out is not None:
            _check_out(out, len(ts), d, d0)
        if self._data["work_dps"] is None:
            if engine == "fast":
                target = States.empty(len(ts), d, d0) if out is None else out
                if self._fill(_float_times(ts), target):
                    return target
            states = self._evaluate(ts, None)
            bad = np.flatnonzero(~_finite_rows(states))
            if bad.size:  # a float64 overflow the range check did not foresee: those times
                # (only) without one, so each time's state is the one it has sampled alone
                redone = _to_float64(self._extended()._evaluate(tuple(ts[i] for i in bad),
                                                                 EXTENDED_DPS))  # fmt: skip
                for name in _shapes(1, 1, 1):
                    getattr(states, name)[bad] = getattr(redone, name)
            return _copied(states, out)
        return _copied(_to_float64(self._evaluate(ts, self._data["work_dps"])), out)

    def _extended(self) -> Trajectory:
        """This trajectory evaluated with mpmath at ``EXTENDED_DPS`` digits."""
        u0c, W0c = self._data["given"]
        return closed_form(self.setup, u0c, W0c, dps=EXTENDED_DPS)

    def _evaluate(self, ts: tuple[Number, ...] | np.ndarray, dps: int | None) -> States:
        ev = _evaluators("numpy" if dps is None else "mpmath")
        k = self._data
        conv = nb.converter(dps, "t")
        with nb.Precision(dps):
            tt = np.array([conv(t) for t in ts], dtype=nb.dtype(dps))
            with np.errstate(all="ignore"):
                ell = ev.ell(k["D"], k["G"], k["N"], k["M"], tt)
                r = ev.residual(k["D"], k["N"], k["M"], k["f0"], k["y"], tt)
                n = len(tt)
                first = np.asarray(_full_any(ev.unit_piece(ell), n), dtype=bool)
                coef = [_full_any(c, n) for c in
                        ev.unit_coefficients(ell, k["eta_u"], k["eta_w"], k["rho"])]  # fmt: skip
                units = tuple(k[name][None, :] for name in ("u0", "v0", "p0", "q0"))
                u = _unit_value(first, [coef[i] for i in _U_TERMS], units)
                # eq. (14) as W(t) = W0 (I - x x^T/|x|^2) + v(t) x^T/|x|^2: the part of W
                # orthogonal to x never changes, the rest is v(t) = W(t) x (no cancellation
                # when W(t) x -> 0).  d0 = 1: the projector is exactly 0, and W = v x_0 /
                # |x|^2 is made from the coefficients of v over |x|^2 and the units' values
                # times x_0 (no v, as the fast path)
                c_v = [coef[i] for i in _V_TERMS]
                if len(k["x"]) == 1:
                    x0 = k["x"][0]
                    W = _unit_value(first, [c / k["x2"] for c in c_v],
                                    tuple(a * x0 for a in units))[:, :, None]  # fmt: skip
                else:
                    v = _unit_value(first, c_v, units)
                    W = k["W_perp"][None] + (v / k["x2"])[:, :, None] * k["x"][None, None, :]
                sp2, sq2 = _unit_sums(ev.unit_squares(ell), _initial_sums(k["p0"], k["q0"]), n)
                g, rho = k["gamma"], k["rho"]
                f = ev.f(sp2, sq2, r, k["y"], g, rho, k["eta_u"], k["eta_w"])
                K = ev.ntk(sp2, sq2, g, rho)
                loss = _squared_error(_full_any(r, n))  # from the residual: no cancellation
                align = ev.alignment(
                    f,
                    k["Lam"],
                    ell,
                    k["P"],
                    k["Q"],
                    k["y"],
                    k["eta_u"],
                    k["eta_w"],
                    k["gamma"],
                    k["rho"],
                )
                exp = np.exp if dps is None else np.vectorize(mpmath.exp, otypes=[object])
                alpha = exp(ell)
        if dps is not None:
            with mpmath.workdps(dps):
                rnd = np.vectorize(lambda z: +z, otypes=[object])
                tt, u, W, f, align, K, alpha, loss = (
                    rnd(a) for a in (tt, u, W, f, align, K, alpha, loss)
                )
        return States(t=tt, u=u, W=W, f=f, alignment=align, ntk=K, alpha=alpha, loss=loss)


EXTENDED_DPS = 17
"""Digits (plus ``GUARD_DIGITS``) at which a float64 closed form whose data lie outside the
float64-safe range is evaluated with mpmath (unbounded exponent), then rounded to float64."""
SAFE_INPUT = 2.0**250
"""float64 direct evaluation needs every non-zero input, ``v = W x``, ``p_i``, ``q_i`` in
``[1/SAFE_INPUT, SAFE_INPUT]`` and every derived scalar (``rho``, ``P``, ``Q``, ``A``, ``B``,
``C``, ``D``, ``N``, ``M``, ``G``, ``f0``, Lambda) in ``[SAFE_INPUT**-2, SAFE_INPUT**2]``:
then the products the evaluators form (``4AC``, ``B^2``, ``p_i^2``, ``N/M``, ``exp(ell/2)
p_i``) stay in float64's normal range."""


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


def _float_times(ts: tuple[Number, ...] | np.ndarray) -> np.ndarray:
    """The checked times as float64, as :meth:`Trajectory._evaluate` converts them (a float
    array, as :func:`_check_times` returns one, as it is)."""
    if isinstance(ts, np.ndarray):
        return ts
    if all(type(t) is float for t in ts):
        return np.fromiter(ts, dtype=float, count=len(ts))
    conv = nb.converter(None, "t")
    return np.array([conv(t) for t in ts], dtype=float)


def _to_float64(states: States) -> States:
    """``states`` (mpmath) rounded to float64; ``ValueError`` for a finite value beyond the
    float64 range (an underflow rounds to 0 or a subnormal, as float64 itself rounds)."""
    out = {}
    for name in ("t", "u", "W", "f", "alignment", "ntk", "alpha", "loss"):
        a = getattr(states, name)
        fa = np.array([float(z) for z in np.ravel(a)], dtype=float).reshape(np.shape(a))
        if name not in ("t", "alpha", "loss"):  # (the loss (f - y)^2 may round to inf)
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


@nb.mpmath_in_mpmath_out
def constants(
    eta_u: Number, eta_w: Number, gamma: Number, rho: Number, y: Number, d: int,
    P: Number, Q: Number, *, dps: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """``alpha_plus``, ``alpha_minus``, ``t_c`` (eqs. (11), (12), corrected sign) and
    ``alpha_prime`` (eq. (47); ``None`` unless ``P = 0 < Q``) of Theorem 1 / Proposition 1
    from the scalars they depend on: the rates, ``gamma``, ``rho = ||x||``, ``y``, the width
    ``d`` and ``P, Q >= 0`` of eq. (7) (e.g. their means under Gaussian initialisation,
    Section 3).  The values :func:`closed_form` reports, from the same generated evaluator
    (``symbolic().stable``): at ``P = 0`` the ``P -> 0`` limits (``alpha_plus = oo`` for
    ``y >= 0``, ``C/|B| = -1/alpha'`` for ``y < 0``; ``alpha_minus = 1/alpha'`` for ``y > 0``,
    ``oo`` for ``y <= 0``), ``t_c = oo`` where ``D = 0``.  ``dps``: as in
    :func:`closed_form` (float64 at any scale: outside the range of :data:`SAFE_INPUT` the
    same evaluator runs in mpmath at ``EXTENDED_DPS`` digits, and a constant that float64
    cannot hold is an ``mpmath.mpf`` of 17 digits, as there)."""
    dps = nb.check_dps(dps)
    args = {"eta_u": eta_u, "eta_w": eta_w, "gamma": gamma, "rho": rho}
    checked = [nb.check_number(k, v, positive=True) for k, v in args.items()]
    checked.append(nb.check_number("y", y))
    d = nb.check_int("d", d)
    checked += [nb.check_number(k, v, nonnegative=True) for k, v in (("P", P), ("Q", Q))]
    if dps is not None:
        out, PP, QQ = _constants_at(checked, d, dps)
        values = [_scalar(v, dps) for v in out]
    else:
        try:  # float64 first, where its data lie in the float64-safe range (closed_form's)
            out, PP, QQ = _constants_at(checked, d, None)
            safe = _constants_safe(checked, d)
        except (OverflowError, ZeroDivisionError, nb.Float64RangeError):
            safe = False
        if not safe:
            out, PP, QQ = _constants_at(checked, d, EXTENDED_DPS)
        values = [_report(v, None) for v in out]
    a_plus, a_minus, t_c, a_prime = values
    return {"alpha_plus": a_plus, "alpha_minus": a_minus, "t_c": t_c,
            "alpha_prime": a_prime if (PP == 0 and QQ > 0) else None}  # fmt: skip


def _constants_at(checked: list[Number], d: int, dps: int | None) -> tuple[Any, Any, Any]:
    """The reported constants of the checked ``(eta_u, eta_w, gamma, rho, y, P, Q)`` and
    ``d`` at ``dps`` (``None``: float64), with ``P`` and ``Q`` as evaluated."""
    conv = nb.converter(dps)
    with nb.Precision(dps), np.errstate(all="ignore"):
        *vals, PP, QQ = (conv(v) for v in checked)
        return _evaluators("numpy" if dps is None else "mpmath").reported(*vals, d, PP, QQ), PP, QQ


def _constants_safe(checked: list[Number], d: int) -> bool:
    """Whether float64 evaluates :func:`constants` of these inputs without over- or
    underflow: every non-zero input in ``[1/SAFE_INPUT, SAFE_INPUT]`` and ``A``, ``B``,
    ``C``, ``D`` in its square (the bounds of :func:`_float64_safe`)."""
    lo, hi = 1 / SAFE_INPUT, SAFE_INPUT
    with mpmath.workdps(20):
        if any(m != 0 and not lo <= m <= hi for m in (abs(nb.to_mpf(z)) for z in checked)):
            return False
    vals = [float(z) for z in checked]
    with np.errstate(all="ignore"):
        abcd = _evaluators("numpy").constants(*vals[:5], d, *vals[5:], 0.0)[:4]
    arr = np.abs(np.asarray(abcd, dtype=float))
    return bool(
        np.all(np.isfinite(arr)) and not np.any((arr != 0) & ((arr < lo**2) | (arr > hi**2)))
    )


@nb.mpmath_in_mpmath_out
def closed_form(setup: Setup, u0: Any, W0: Any, *, dps: int | None = None) -> Trajectory:
    """Exact gradient-flow solution from ``(u0, W0)``: Theorem 1 and Proposition 1.

    ``dps=None`` evaluates in float64 with numpy; ``dps=k`` with mpmath at ``k``
    significant digits (arrays are numpy object arrays of ``mpmath.mpf``).

    float64 at any scale: where an input, ``W x``, a ``p_i``/``q_i`` or a derived scalar
    leaves the range of :data:`SAFE_INPUT` (e.g. initial weights of scale 1e150 or 1e-160,
    learning rates of 1e-300), the same generated evaluators run in mpmath at
    ``EXTENDED_DPS`` (+ guard) digits, whose exponent range is unbounded, and the states are
    rounded to float64: right to float64 accuracy, or a ``ValueError`` where a component of
    the state itself is beyond the float64 range.  A reported constant that float64 cannot
    hold (e.g. ``P = 1e-600``) is then an ``mpmath.mpf`` of 17 digits.
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"setup must be a xu_ziyin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    u0c, W0c = _check_weights(setup, u0, W0)
    if dps is None:
        try:  # float64 first; Python floats raise OverflowError where numpy gives inf
            with np.errstate(all="ignore"):
                data, reported = _trajectory_data(setup, u0c, W0c, dps)
            safe = _float64_safe(setup, u0c, W0c, data)
        except (OverflowError, ZeroDivisionError, nb.Float64RangeError):
            safe = False
    else:
        data, reported = _trajectory_data(setup, u0c, W0c, dps)
    if dps is None and not safe:
        # outside the float64-safe range: the same evaluators in mpmath (no exponent range)
        data, reported = _trajectory_data(setup, u0c, W0c, EXTENDED_DPS)
    u, W, P, Q, a_plus, a_minus, t_c, alpha_prime = reported
    if data["work_dps"] is not None and dps is None:
        u, W = data["u0_f64"], data["W0_f64"]
    rep = functools.partial(_report, dps=dps)
    return Trajectory(
        setup=setup, u0=u, W0=W, dps=dps, P=rep(P), Q=rep(Q),
        alpha_plus=rep(a_plus), alpha_minus=rep(a_minus), t_c=rep(t_c),
        alpha_prime=None if alpha_prime is None else rep(alpha_prime), _data=data,
    )  # fmt: skip


def _trajectory_data(
    setup: Setup, u0c: tuple, W0c: tuple, dps: int | None
) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """The scalars and arrays the evaluators of :meth:`Trajectory.sample` take, at ``dps``
    (``None``: float64), and ``(u0, W0, P, Q, alpha_+, alpha_-, t_c, alpha')``."""
    ev = _evaluators("numpy" if dps is None else "mpmath")
    conv = nb.converter(dps)
    dt = nb.dtype(dps)
    with nb.Precision(dps):
        x = np.array([conv(v) for v in setup.x], dtype=dt)
        u = np.array([conv(v) for v in u0c], dtype=dt)
        W = np.array([[conv(v) for v in row] for row in W0c], dtype=dt)
        eta_u, eta_w, gamma, y = (conv(v) for v in (setup.eta_u, setup.eta_w, setup.gamma, setup.y))
        x2 = _dot(x, x)
        rho = _sqrt(x2, dps)
        v = np.array(W @ x, dtype=dt)
        d = len(u)
        p0, q0 = (np.array(a, dtype=dt) for a in ev.pq(u, v, eta_u, eta_w, rho))
        # exactly 0 where the exact inputs put a unit on an invariant manifold (Prop. 1)
        given = (u0c, W0c, setup.x, setup.eta_u, setup.eta_w)
        _exact_manifold_zeros(p0, q0, u, W, x, (eta_u, eta_w), given, dps)
        P, Q = (p0 * p0).sum() / d, (q0 * q0).sum() / d
        f0 = gamma * _dot(u, v)
        Lam = _lagrange(p0, q0)
        W_perp = W - np.outer(v, x) / x2
        with np.errstate(all="ignore"):
            _A, _B, _C, D, G, N, M = ev.constants(eta_u, eta_w, gamma, rho, y, d, P, Q, f0)
            a_plus, a_minus, t_c, a_prime = ev.reported(eta_u, eta_w, gamma, rho, y, d, P, Q)
        alpha_prime = a_prime if (P == 0 and Q > 0) else None
    data = dict(
        D=D, G=G, N=N, M=M, f0=f0, y=y, p0=p0, q0=q0, u0=u, v0=v, W0=W, x=x,
        eta_u=eta_u, eta_w=eta_w, rho=rho, gamma=gamma, Lam=Lam, P=P, Q=Q, x2=x2, W_perp=W_perp,
        A=_A, B=_B, C=_C, work_dps=dps, given=(u0c, W0c),
    )  # fmt: skip
    if dps is not None:
        data["u0_f64"] = np.array([float(z) for z in u], dtype=float)
        data["W0_f64"] = np.array([[float(z) for z in row] for row in W], dtype=float)
    return data, (u, W, P, Q, a_plus, a_minus, t_c, alpha_prime)


def _float64_safe(setup: Setup, u0c: tuple, W0c: tuple, data: Mapping[str, Any]) -> bool:
    """Whether the float64 data of a closed form lie in the range of :data:`SAFE_INPUT`
    (inputs given as strings are compared at their exact values: ``"1e-400"`` is not 0)."""
    lo, hi = 1 / SAFE_INPUT, SAFE_INPUT
    given = [setup.eta_u, setup.eta_w, setup.gamma, setup.y, *setup.x, *u0c]
    given += [w for row in W0c for w in row]
    # floats compared in float64 (exact: lo and hi are powers of two), the rest (decimal
    # strings, ints, mpf) at their exact values
    floats = np.abs(np.fromiter((z for z in given if type(z) is float), dtype=float))
    if np.any((floats != 0) & ((floats < lo) | (floats > hi))):
        return False
    with mpmath.workdps(20):
        for z in given:
            if type(z) is float:
                continue
            m = abs(nb.to_mpf(z))
            if m != 0 and not lo <= m <= hi:
                return False
    first = np.concatenate([np.asarray(data[k], dtype=float) for k in ("v0", "p0", "q0")])
    second = [data[k] for k in ("rho", "P", "Q", "A", "B", "C", "D", "N", "M", "G", "f0")]
    second.append(data["Lam"])
    for vals, (a, b) in ((first, (lo, hi)), (second, (lo * lo, hi * hi))):
        arr = np.abs(np.asarray(vals, dtype=float))
        if not np.all(np.isfinite(arr)) or np.any((arr != 0) & ((arr < a) | (arr > b))):
            return False
    return True


def _report(z: Any, dps: int | None) -> Any:
    """A reported constant: :func:`_scalar`; for a float64 closed form evaluated in mpmath
    (outside the float64-safe range) a float where float64 holds it to its normal precision
    and ``inf`` / ``0`` / ``nan`` where exactly so, else the ``mpf`` (17 digits)."""
    if dps is not None or not isinstance(z, mpmath.mpf):
        return _scalar(z, dps)
    if not mpmath.isfinite(z) or z == 0:
        return float(z)
    f = float(z)
    if math.isfinite(f) and abs(f) >= 2.0**-1022:
        return f
    return nb.round_to(EXTENDED_DPS)(z)
