r"""Seed 003 (Kunin et al.), Part I, regime 3: "delayed rich" (delta << 0) as a time scale.

Source: seed ``003_cfd8c5fad4b6665d.txt``, Part I ("Delayed rich -- when delta << 0,
``M ~ |delta| beta beta^T/||beta||^2``, initially lazy followed by rich").  Everything here is
read off the single-neuron closed form of :mod:`solvable.models.kunin` (whitened inputs
``X^T X = s I``; the primed ``delta' = s delta``, ``kappa = sqrt(eta_a' eta_w')``,
``Y = |beta*|``, ``Omega = sqrt(delta'^2/4 + kappa^2 Y^2)``; the coefficients
``c_+, c_-, c_perp`` of ``z0`` and the unit eigenvector ``v_+ = (v_x, v_y)``).  Write
``D = -delta' > 0`` (downstream).

The angle.  ``w(t) = sqrt(eta_w') (z_1 beta*-hat + z_perp c_perp_vec)`` with ``|c_perp_vec| =
c_perp``, so the angle ``theta`` between ``w`` and the line of ``beta*`` has, exactly (the
normaliser phi cancels)::

    tan theta(t) = c_perp z_perp / |z_1| = c_perp e^{-t/T_p} / |c_+ v_y + c_- v_x e^{-2 Omega t}|,

    T_p = 1/(Omega + delta'/2) = (Omega + D/2)/(kappa^2 Y^2)          (the plateau time)

(``Omega + delta'/2`` is kunin's ``om_plus``; claim ``delayed_rich.plateau_rate``).  After the
fast lazy phase (``t >> 1/Omega``: ``a`` fits the projection of ``beta*`` on ``w``), ``tan
theta`` decays like ``e^{-t/T_p}``; as ``D -> oo``, ``T_p = D/(kappa^2 Y^2) + 1/D - kappa^2
Y^2/D^3 + O(D^-5)`` (claim ``delayed_rich.plateau_series``): exponent 1 in ``|delta|``, relative
correction ``O((kappa Y/D)^2)``.  In the original variables ``T_p ~ |delta|/(s eta_a eta_w
|beta*|^2)``.

The NTK.  ``K = X M X^T`` (:func:`kunin.ntk`), ``M = eta_w a^2 I + eta_a w w^T``.  As ``D ->
oo`` at a fixed initial angle ``theta0`` (and ``a0 = O(1)``), ``eta_a |w|^2 = |delta| +
eta_w a^2`` is ``|delta| (1 + O(D^-2))`` and ``eta_w a^2`` is ``O(kappa^2 Y^2/D)``, so ``K`` is
``|delta'| u u^T`` (``u = w/|w|`` pushed through ``X``) up to ``O(D^-2)`` relative terms; with
``||u u^T - u0 u0^T||_F = sqrt(2) |sin(theta0 - theta)|`` (claim ``delayed_rich.profile``) the
relative NTK change at ``t = tau T_p`` tends to the profile::

    g(tau) = sqrt(2) sin(theta0 - atan(tan(theta0) e^{-tau}))   (:func:`ntk_profile`),

with ``g(0) = 0``, ``g(oo) = sqrt(2) sin(theta0)`` (an O(1) change) and ``g'(tau) <= 1/sqrt(2)``
(``theta(tau) = atan(tan(theta0) e^{-tau})`` solves ``theta' = -sin(2 theta)/2``): lazy, ``g(tau)
<= tau/sqrt(2)``, for ``tau << 1``, then rich.  The measured plateau time is

    T_half: the first t at which ||K(t) - K(0)||_F = ||K(oo) - K(0)||_F / 2    (:func:`half_time`),

computed exactly by a root find on the closed form; its leading order is ``T_p
log(tan(theta0)/tan(theta_half))``, ``theta_half = theta0 - asin(sin(theta0)/2)``, the solution
of ``g(tau) = g(oo)/2`` (claim ``delayed_rich.profile``; :func:`half_time` with
``leading=True``).  Simulation-backed claims (a sweep over delta of simulated neurons, the fitted
exponent, "lazy, then rich") are in :mod:`solvable.verification.confirmations.delayed_rich`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import brentq

from solvable._core import numbers as nb
from solvable._core.backends import check_backend, generate
from solvable._core.claims import Theorem, Verdict, prove_zero
from solvable._core.model import Model
from solvable._core.numbers import Number
from solvable._core.states import SequenceOfStates
from solvable._core.tolerance import NOTHING_COMPARED, Tolerance, beats, error_in_units
from solvable.models import kunin

__all__ = [
    "MODEL",
    "SEED",
    "Symbols",
    "evaluators",
    "example",
    "half_time",
    "ntk_change",
    "ntk_profile",
    "plateau_time",
    "symbolic",
]

SEED = kunin.SEED
_SHADOW_DPS = 17  # float64 results: evaluated at 17 digits (+ guard) in mpmath, rounded once


# ---------------------------------------------------------------------------
# symbolic layer
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Symbols:
    """Symbols and expressions (see the module docstring).  ``D = -delta' > 0``; ``kappa``,
    ``Y``, ``t``, ``Omega`` and the coefficients are :func:`kunin.symbolic`'s.

    ``exprs``: ``Omega`` (of D), ``T_p`` (= 1/om_plus, kunin's branch for delta < 0),
    ``T_p_form`` (= (Omega + D/2)/(kappa^2 Y^2), the evaluated form), ``T_p_series`` (its
    first three orders as D -> oo), ``tan_theta`` (exact angle of w(t) to beta*, with kunin's
    ``Omega`` symbol), ``theta_of_tau`` (= atan(tan(theta0) e^{-tau})), ``profile`` (g),
    ``theta_half``, ``half_factor`` (= log(tan(theta0)/tan(theta_half))), ``T_half_lead``."""

    D: sp.Symbol
    theta0: sp.Symbol
    tau: sp.Symbol
    exprs: dict[str, Any] = field(repr=False)


@functools.cache
def symbolic() -> Symbols:
    """The sympy source of every formula of this module (built on :func:`kunin.symbolic`)."""
    K = kunin.symbolic()
    ex = K.exprs
    D = sp.Symbol("D", positive=True)
    theta0 = sp.Symbol("theta0", positive=True)
    tau = sp.Symbol("tau", nonnegative=True)
    down = {K.delta: -D}
    omega = ex["Omega"].subs(down)
    # kunin's om_plus on its delta < 0 branch (no cancellation): the decay rate of z_perp
    # relative to the unstable in-plane mode
    om_plus = sp.piecewise_fold(ex["om_plus"].subs(down))
    ky2 = K.kappa**2 * K.Y**2
    T_p_form = (omega + D / 2) / ky2
    theta_tau = sp.atan(sp.tan(theta0) * sp.exp(-tau))
    theta_half = theta0 - sp.asin(sp.sin(theta0) / 2)
    half_factor = sp.log(sp.tan(theta0) / sp.tan(theta_half))
    exprs = {
        "Omega": omega,
        "om_plus": om_plus,
        "T_p": 1 / om_plus.subs(K.Omega, omega),
        "T_p_form": T_p_form,
        "T_p_series": D / ky2 + 1 / D - ky2 / D**3,
        # tan of the angle between w(t) and beta*: c_perp z_perp / z_1 (kunin's coefficients)
        "tan_theta": (K.cperp * ex["z_perp"] / ex["z_1"]).subs(down),
        "theta_of_tau": theta_tau,
        "profile": sp.sqrt(2) * sp.sin(theta0 - theta_tau),
        "theta_half": theta_half,
        "half_factor": half_factor,
        "T_half_lead": T_p_form * half_factor,
    }
    return Symbols(D=D, theta0=theta0, tau=tau, exprs=exprs)


def evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    """The generated evaluators for ``backend`` (``"numpy"``, ``"mpmath"``, ``"torch"``):
    ``primed`` = (D, kappa) of ``(eta_a, eta_w, s, delta)`` (kunin's ``delta_p``,
    ``kappa_of_rates``); ``T_p`` and ``T_half_lead`` of ``(D, kappa, Y[, theta0])``;
    ``profile`` of ``(tau, theta0)``; ``half_factor`` (= T_half_lead/T_p) of ``theta0``.
    Cached per backend."""
    return _evaluators(check_backend(backend))


@functools.cache
def _evaluators(backend: str) -> dict[str, Callable[..., Any]]:
    K = kunin.symbolic()
    S = symbolic()
    ex = S.exprs
    primed = (-K.exprs["delta_p"], K.exprs["kappa_of_rates"])
    return {
        "primed": generate((K.eta_a, K.eta_w, K.s, K.delta), primed, backend),
        "T_p": generate((S.D, K.kappa, K.Y), ex["T_p_form"], backend),
        "T_half_lead": generate((S.D, K.kappa, K.Y, S.theta0), ex["T_half_lead"], backend),
        "profile": generate((S.tau, S.theta0), ex["profile"], backend),
        "half_factor": generate((S.theta0,), ex["half_factor"], backend),
    }


# ---------------------------------------------------------------------------
# evaluated quantities
# ---------------------------------------------------------------------------
def example(delta: str, theta0: str = "0.9272952180016122324285124629224288040") -> tuple[
    kunin.Setup, str, tuple[str, str]
]:  # fmt: skip
    """The sweep's problem at ``delta < 0`` (a decimal string): whitened ``X`` (a rotation,
    ``s = 1``), ``y = (1, 0.5)`` (``beta* = (0.2, 1.1)``), ``eta_a = 1``, ``eta_w = 1/2``
    (``kappa Y = sqrt(0.625)``), ``a0 = 0`` and ``w0`` at the angle ``theta0`` (radians,
    default ``atan(4/3)``) to ``beta*``, of norm ``sqrt(-delta/eta_a)`` (decimal strings at 40
    digits)."""
    setup = kunin.Setup("1", "0.5", (("0.6", "0.8"), ("-0.8", "0.6")), ("1", "0.5"))
    with mpmath.workdps(50):
        dl = nb.to_mpf(nb.check_number("delta", delta))
        th = nb.to_mpf(nb.check_number("theta0", theta0, positive=True))
        if not dl < 0:
            raise ValueError(f"delta must be < 0 (downstream), got {nb.describe(delta)}")
        if not th < mpmath.pi / 2:
            raise ValueError(f"theta0 must be in (0, pi/2), got {nb.describe(theta0)}")
        b = mpmath.matrix(["0.2", "1.1"])
        b /= mpmath.norm(b)
        perp = mpmath.matrix([b[1], -b[0]])
        w = mpmath.sqrt(-dl) * (mpmath.cos(th) * b + mpmath.sin(th) * perp)
        return setup, "0", (mpmath.nstr(w[0], 40), mpmath.nstr(w[1], 40))


@dataclass(frozen=True)
class _Constants:
    D: Any
    kappa: Any
    Y: Any
    theta0: Any
    traj: kunin.Trajectory


def _constants(setup: kunin.Setup, a0: Number, w0: Any, work: int) -> _Constants:
    """D, kappa, Y and the angle theta0 of ``w0`` to the line of beta* at ``work`` digits
    (the closed form validates the setup, its isotropy and the weights); ``ValueError``
    unless downstream (delta < 0) with beta* != 0."""
    if not isinstance(setup, kunin.Setup):
        raise TypeError(f"setup must be a kunin.Setup, got {type(setup).__name__}")
    traj = kunin.closed_form(setup, a0, w0, dps=work)
    with nb.Precision(work):
        D, kappa = _evaluators("mpmath")["primed"](
            nb.to_mpf(setup.eta_a), nb.to_mpf(setup.eta_w), traj.s, traj.delta
        )
        if not D > 0:
            raise ValueError(
                "a0, w0 must give delta = eta_w a0^2 - eta_a |w0|^2 < 0 (downstream: the "
                f"delayed-rich regime), got delta = {mpmath.nstr(traj.delta, 6)}"
            )
        b = traj.beta_star
        Y = mpmath.sqrt(mpmath.fsum(v * v for v in b))
        if Y == 0:
            raise ValueError("X, y must give beta* = X^T y / s != 0 (else nothing is learned)")
        w = np.array([nb.to_mpf(v) for v in nb.check_vector("w0", w0)], dtype=object)
        par = mpmath.fsum(w * b) / Y
        perp = mpmath.sqrt(max(mpmath.fsum(w * w) - par**2, mpmath.mpf(0)))
        theta0 = mpmath.atan2(perp, abs(par))
    return _Constants(D, kappa, Y, theta0, traj)


def _out(value: Any, dps: int | None, what: str) -> Any:
    if dps is not None:
        return nb.round_to(dps)(value)
    out = float(value)
    if math.isfinite(out) or not mpmath.isfinite(value):
        return out
    raise nb.Float64RangeError(
        f"{what} = {mpmath.nstr(value, 6)} is outside the float64 range for this setup and "
        "these a0, w0; pass dps=..."
    )


@nb.mpmath_in_mpmath_out
def plateau_time(setup: kunin.Setup, a0: Number, w0: Any, *, dps: int | None = None) -> Any:
    """The plateau time ``T_p = 1/(Omega + delta'/2) = (Omega + D/2)/(kappa^2 Y^2)`` of the
    delayed-rich single neuron (seed 003, Part I, regime 3; claim
    ``delayed_rich.plateau_rate``): ``tan`` of the angle of ``w`` to ``beta*`` decays like
    ``e^{-t/T_p}`` once the fast lazy phase is over.

    Parameters
    ----------
    setup : kunin.Setup with isotropic inputs ``X^T X = s I`` (as :func:`kunin.closed_form`).
    a0, w0 : initial weights with ``delta = eta_w a0^2 - eta_a |w0|^2 < 0`` (else
        ``ValueError``); ``beta* != 0``.
    dps : None (float64: 17 digits in mpmath, rounded once) or mpmath digits.

    Notes
    -----
    The evaluated form has only positive terms (no cancellation at any ``|delta|``)."""
    dps = nb.check_dps(dps)
    work = _SHADOW_DPS if dps is None else dps
    c = _constants(setup, a0, w0, work)
    with nb.Precision(work):
        val = _evaluators("mpmath")["T_p"](c.D, c.kappa, c.Y)
    return _out(val, dps, "T_p")


def _frobenius(A: np.ndarray) -> Any:
    sq = (A * A).sum()
    return mpmath.sqrt(sq) if isinstance(sq, mpmath.mpf) else math.sqrt(float(sq))


@nb.mpmath_in_mpmath_out
def ntk_change(setup: kunin.Setup, states: Sequence[Any], start: Any, end: Any = None, *,
               dps: int | None = None) -> np.ndarray:  # fmt: skip
    """``||K(state) - K(start)||_F`` for each state (``K`` = :func:`kunin.ntk` on the data;
    seed 003, Part I), divided by ``||K(start)||_F`` (``end`` None: the relative change) or
    by ``||K(end) - K(start)||_F`` (the fraction of the total change when ``end`` is the state
    at t = oo).  States are anything with ``a`` and ``w`` (:class:`kunin.State`, from the
    closed form or :func:`numerics.simulate`).  ``dps`` None: float64 (the states' values
    as float64); ``dps=k``: mpmath at ``k`` digits (+ guard), rounded to ``k``.  A zero
    reference change is a ``ValueError``."""
    if not isinstance(setup, kunin.Setup):
        raise TypeError(f"setup must be a kunin.Setup, got {type(setup).__name__}")
    dps = nb.check_dps(dps)
    if isinstance(states, (str, bytes, Mapping)) or not (
        hasattr(states, "__len__") and hasattr(states, "__getitem__")
    ):
        raise TypeError(f"states must be a sequence of states (each with weights a and w), "
                        f"got {type(states).__name__} {nb.describe(states)}")  # fmt: skip
    if isinstance(states, SequenceOfStates):  # numerics.simulate's States: its State records
        states = list(states)
    mp_ = dps is not None
    with nb.Precision(dps):
        ws = [_weights(f"states[{k}]", states[k], setup.d, mp_) for k in range(len(states))]
        w0 = _weights("start", start, setup.d, mp_)
        w1 = None if end is None else _weights("end", end, setup.d, mp_)
        try:
            out = _ntk_change(setup, ws, w0, w1, mp_)
        except nb.Float64RangeError:
            raise ValueError("the NTK of these states (or of start, end) is beyond the float64 "
                             "range: pass dps=... (mpmath)") from None  # fmt: skip
    return out if dps is None else nb.rounded((out,), dps)[0]


def _weights(name: str, state: Any, d: int, mp_: bool) -> tuple[Any, tuple[Any, ...]]:
    """The weights ``(a, w)`` of ``state`` (anything with ``a`` and ``w`` (d,)), checked
    (``name``: the argument, in the messages) and converted (mpmath where ``mp_``)."""
    if not (hasattr(state, "a") and hasattr(state, "w")):
        raise TypeError(f"{name} must be a state with weights a and w (e.g. a kunin.State), "
                        f"got {type(state).__name__} {nb.describe(state)}")  # fmt: skip
    a, w = state.a, state.w
    a = nb.check_number(f"{name}.a", a.item() if isinstance(a, np.ndarray) and a.size == 1 else a)
    w = nb.check_vector(f"{name}.w", np.ravel(w) if isinstance(w, np.ndarray) else w, d)
    if mp_:
        return nb.to_mpf(a), tuple(nb.to_mpf(v) for v in w)
    return nb.to_float(a, f"{name}.a"), tuple(nb.to_float(v, f"{name}.w") for v in w)


def _ntk_change(setup: kunin.Setup, states: Sequence[Any], start: Any, end: Any,
                mp_: bool) -> np.ndarray:  # fmt: skip
    """:func:`ntk_change` at the working precision (mpmath when ``mp_``) on the weights
    ``(a, w)`` of each state (``end`` may be ``None``); a float64 NTK or change beyond the
    float64 range is a :class:`~solvable._core.numbers.Float64RangeError`."""
    conv = nb.to_mpf if mp_ else float
    dt = object if mp_ else float
    X = np.array([[conv(v) for v in row] for row in setup.X], dtype=dt)
    ea, ew = conv(setup.eta_a), conv(setup.eta_w)

    def ntk(st: Any) -> np.ndarray:
        a = np.array(st[0], dtype=dt)
        w = np.array(list(st[1]), dtype=dt)
        try:
            return kunin.ntk(a, w, X, ea, ew)
        except ValueError as exc:  # finite weights of the right shape: a float64 overflow
            raise nb.Float64RangeError(str(exc)) from None

    K0 = ntk(start)
    scale = _frobenius(K0 if end is None else ntk(end) - K0)
    if scale == 0:
        raise ValueError("the reference change is 0 (K(start) = 0, or K(end) = K(start))")
    with np.errstate(all="ignore"):
        out = np.array([_frobenius(ntk(s) - K0) / scale for s in states], dtype=dt)
    if not mp_ and not (math.isfinite(scale) and np.isfinite(out).all()):
        raise nb.Float64RangeError("the NTK change is beyond the float64 range")
    return out


def _fraction(traj: kunin.Trajectory, times: Sequence[Any]) -> list[Any]:
    """The fraction of the total NTK change of the closed form at ``times``."""
    st = traj.sample([0, math.inf if traj.dps is None else mpmath.inf, *times])
    ws = [(st.a[k], np.ravel(st.w[k])) for k in range(len(st))]
    return list(_ntk_change(traj.setup, ws[2:], ws[0], ws[1], traj.dps is not None))


@nb.mpmath_in_mpmath_out
def half_time(setup: kunin.Setup, a0: Number, w0: Any, *, dps: int | None = None,
              leading: bool = False) -> Any:  # fmt: skip
    """``T_half``: the first time at which the NTK on the data has moved by half of its total
    change, ``||K(t) - K(0)||_F = ||K(oo) - K(0)||_F / 2`` (seed 003, Part I, regime 3: the
    length of the lazy plateau).

    ``leading=False``: exact, a root of the closed form (:func:`kunin.closed_form`): the
    first sign change on a grid of 64 steps of ``T_p/8`` (doubling the span until one is
    found), then a bracketing root find (float64: Brent at ``xtol = 4 eps T``; mpmath:
    Illinois at ``dps`` digits).  ``leading=True``: the leading order as ``delta -> -oo`` at
    a fixed angle ``theta0`` of ``w0`` to ``beta*``, ``T_p log(tan(theta0)/tan(theta_half))``
    (claim ``delayed_rich.profile``), which needs ``0 < theta0 < pi/2`` (``w0`` neither
    parallel nor perpendicular to beta*).  Inputs as :func:`plateau_time`; a start whose NTK
    does not change (``w0`` parallel to beta* and at rest) is a ``ValueError``."""
    dps = nb.check_dps(dps)
    if not isinstance(leading, bool):
        raise TypeError(f"leading must be True or False, got {nb.describe(leading)}")
    work = _SHADOW_DPS if dps is None else dps
    c = _constants(setup, a0, w0, work)
    if leading:
        with nb.Precision(work):
            if not (0 < c.theta0 and c.theta0 < mpmath.pi / 2 * (1 - mpmath.eps * 8)):
                raise ValueError(
                    "w0 must be at an angle theta0 in (0, pi/2) to beta* for the leading order, "
                    f"got theta0 = {mpmath.nstr(c.theta0, 6)}"
                )
            val = _evaluators("mpmath")["T_half_lead"](c.D, c.kappa, c.Y, c.theta0)
        return _out(val, dps, "T_half")
    with nb.Precision(work):
        step = _evaluators("mpmath")["T_p"](c.D, c.kappa, c.Y) / 8
    if dps is None:
        return _half_time_float64(setup, a0, w0, float(step))
    traj = c.traj
    with nb.Precision(dps):
        lo, hi = _bracket(lambda ts: _fraction(traj, ts), step, mpmath.mpf(0))

        def f(t: Any) -> Any:
            return _fraction(traj, [t])[0] - mpmath.mpf(1) / 2

        root = mpmath.findroot(f, (lo, hi), solver="illinois",
                               tol=mpmath.mpf(10) ** (-2 * dps))  # fmt: skip
    return nb.round_to(dps)(root)


def _bracket(fraction: Callable[[list[Any]], list[Any]], step: Any, zero: Any) -> tuple[Any, Any]:
    """``(lo, hi)`` around the first crossing of 1/2 of ``fraction`` on a grid of ``step``."""
    lo = zero
    for _ in range(40):
        ts = [lo + step * (k + 1) for k in range(64)]
        vals = fraction(ts)
        for k, v in enumerate(vals):
            if v >= 0.5:
                return (ts[k - 1] if k else lo), ts[k]
        lo, step = ts[-1], step * 2
    raise ArithmeticError("half_time: the NTK change never reached half of its total")


def _half_time_float64(setup: kunin.Setup, a0: Number, w0: Any, step: float) -> float:
    traj = kunin.closed_form(setup, a0, w0)
    lo, hi = _bracket(lambda ts: _fraction(traj, ts), step, 0.0)
    eps = float(np.finfo(float).eps)
    return float(brentq(lambda t: _fraction(traj, [t])[0] - 0.5, lo, hi, xtol=4 * eps * hi,
                        rtol=4 * eps))  # fmt: skip


@nb.mpmath_in_mpmath_out
def ntk_profile(tau: Number, theta0: Number, *, dps: int | None = None) -> Any:
    """The leading-order relative NTK change ``g(tau) = sqrt(2) sin(theta0 - atan(tan(theta0)
    e^{-tau}))`` at ``t = tau T_p`` as ``delta -> -oo`` (seed 003, Part I, regime 3; claim
    ``delayed_rich.profile``): ``g <= tau/sqrt(2)`` (lazy), ``g(oo) = sqrt(2) sin(theta0)``.

    ``tau >= 0`` (``inf``: the limit), ``theta0`` in ``(0, pi/2)`` (radians); ``dps`` None
    (float64, the generated numpy evaluator) or mpmath digits."""
    dps = nb.check_dps(dps)
    if isinstance(tau, (float, mpmath.mpf)) and tau == math.inf:
        tau_v = None
    else:
        tau = nb.check_number("tau", tau, nonnegative=True)
        tau_v = tau
    theta0 = nb.check_number("theta0", theta0, positive=True)
    with mpmath.workdps(30):
        if not nb.to_mpf(theta0) < mpmath.pi / 2:
            raise ValueError(f"theta0 must be in (0, pi/2), got {nb.describe(theta0)}")
    if dps is None:
        th = nb.to_float(theta0, "theta0")
        t = math.inf if tau_v is None else nb.to_float(tau_v, "tau")
        return float(_evaluators("numpy")["profile"](t, th))
    with nb.Precision(dps):
        t = mpmath.inf if tau_v is None else nb.to_mpf(tau_v)
        val = _evaluators("mpmath")["profile"](t, nb.to_mpf(theta0))
    return nb.round_to(dps)(val)


# ---------------------------------------------------------------------------
# Claims
# ---------------------------------------------------------------------------
def _plateau_rate() -> Verdict:
    # tan theta(t) of the closed form (c_perp z_perp / z_1, delta' = -D): (i) tan theta
    # e^{t/T_p} (c_+ v_y + c_- v_x e^{-2 Omega t}) is constant (= c_perp): the rate is exactly
    # om_plus = 1/T_p; (ii) it tends to c_perp/(c_+ v_y) as t -> oo (Omega > 0); (iii) T_p =
    # 1/(Omega + delta'/2) = (Omega + D/2)/(kappa^2 Y^2) (the evaluated form), Omega of D
    K = kunin.symbolic()
    S = symbolic()
    ex = S.exprs
    vx, vy = K.exprs["vx"], K.exprs["vy"]
    om = sp.Symbol("Omega", positive=True)
    tan = ex["tan_theta"].subs(K.Omega, om)
    T_p = 1 / ex["om_plus"].subs(K.Omega, om)
    inner = K.c_plus * vy + K.c_minus * vx * sp.exp(-2 * om * K.t)
    res = [sp.diff(tan * sp.exp(K.t / T_p) * inner, K.t)]
    res.append(sp.limit(tan * sp.exp(K.t / T_p), K.t, sp.oo) - K.cperp / (K.c_plus * vy))
    res.append(ex["T_p"] - ex["T_p_form"])
    res.append(1 / (ex["Omega"] - S.D / 2) - ex["T_p"])
    return prove_zero(*res)


def _plateau_series() -> Verdict:
    # D -> oo: D^5 (T_p - T_p_series) tends to 2 kappa^4 Y^4 (finite: the series is right to
    # O(D^-5)), and the log-log slope D d log T_p/dD tends to 1 (the exponent)
    K = kunin.symbolic()
    S = symbolic()
    ex = S.exprs
    D = S.D
    res = [
        sp.limit(D**5 * (ex["T_p_form"] - ex["T_p_series"]), D, sp.oo) - 2 * K.kappa**4 * K.Y**4,
        sp.limit(D * sp.diff(sp.log(ex["T_p_form"]), D), D, sp.oo) - 1,
        sp.limit(ex["T_p_form"] / D, D, sp.oo) - 1 / (K.kappa**2 * K.Y**2),
    ]
    return prove_zero(*res)


def _profile() -> Verdict:
    # (i) unit vectors u, u0 at angles theta, theta0 in a plane: ||u u^T - u0 u0^T||_F^2 =
    # 2 sin^2(theta - theta0); (ii) theta(tau) = atan(tan(theta0) e^{-tau}) solves theta' =
    # -sin(2 theta)/2 (the D -> oo limit of plateau_rate, |theta'| <= 1/2, so g <= tau/sqrt2)
    # from theta0; (iii) g(0) = 0, g(oo) = sqrt(2) sin(theta0); (iv) at tau_half =
    # half_factor, g = g(oo)/2, and T_half_lead = T_p tau_half.  theta0 in (0, pi/2) is
    # written atan(T0), T0 > 0 (so that atan(tan(theta0)) = theta0 is known to sympy)
    S = symbolic()
    ex = S.exprs
    th, tau = sp.Symbol("theta", real=True), S.tau
    T0 = sp.Symbol("T0", positive=True)
    th0 = sp.atan(T0)
    u = sp.Matrix([sp.cos(th), sp.sin(th)])
    u0 = sp.Matrix([sp.cos(th0), sp.sin(th0)])
    Dm = u * u.T - u0 * u0.T
    res = [sum(v**2 for v in Dm) - 2 * sp.sin(th - th0) ** 2]
    at = {S.theta0: th0}
    tt = ex["theta_of_tau"].subs(at)
    res.append(sp.diff(tt, tau) + sp.sin(2 * tt) / 2)
    res.append(tt.subs(tau, 0) - th0)
    g = ex["profile"].subs(at)
    # g(oo) = sqrt(2) sin(theta0 - 0): theta(tau) -> 0
    res += [g.subs(tau, 0), sp.limit(tt, tau, sp.oo)]
    # at tau_half, theta(tau) = theta_half (tan of both; both angles in (0, pi/2)), where
    # sin(theta0 - theta_half) = sin(theta0)/2: g = g(oo)/2
    tau_h = ex["half_factor"].subs(at)
    res.append(sp.tan(tt.subs(tau, tau_h)) - sp.tan(ex["theta_half"].subs(at)))
    res.append(sp.sin(th0 - ex["theta_half"].subs(at)) - sp.sin(th0) / 2)
    res.append(ex["T_half_lead"] - ex["T_p_form"] * ex["half_factor"])
    return prove_zero(*res)


# float64 results are the 17-digit mpmath evaluation rounded once (<= 1/2 ulp after the
# guard digits), but the inputs (X, y, weights as floats or decimal strings) are exact, so 4
# eps leaves a factor 8; mpmath at dps digits against 2 dps: rounded once, dps - 1 digits
_F64 = Tolerance(4 * float(np.finfo(float).eps), reason="17 digits rounded once to float64")


def _evaluators_agree(dps: int = 30) -> Verdict:
    """:func:`plateau_time` and :func:`half_time` (leading order) in float64 and at ``dps``
    digits against ``2 dps`` digits, and :func:`ntk_profile` (float64, generated numpy
    evaluator; mpmath) at tau in {0, 0.1, 1, 10, inf}, on the sweep problem at delta in
    {-0.5, -20, -1e6}."""
    worst, where, n = NOTHING_COMPARED, "", 0
    for dl in ("-0.5", "-20", "-1e6"):
        setup, a0, w0 = example(dl)
        for name, fn in (("T_p", plateau_time),
                         ("T_half_lead", functools.partial(half_time, leading=True))):  # fmt: skip
            ref = fn(setup, a0, w0, dps=2 * dps)
            for prec in (None, dps):
                tol = _F64 if prec is None else Tolerance.digits(prec - 1, f"rounded to {prec}")
                err = error_in_units([fn(setup, a0, w0, dps=prec)], [ref], tol)
                n += 1
                if beats(err, worst):
                    worst, where = err, f"{name} at delta={dl}, dps={prec}"
    # the profile: float64 evaluates sin(theta0 - atan(.)), a difference of O(1) angles, so
    # its error is a few eps absolute; 16 eps (absolute floor) leaves a factor >= 4
    prof64 = Tolerance(16 * float(np.finfo(float).eps), 16 * float(np.finfo(float).eps),
                       "float64: sin of a difference of angles")  # fmt: skip
    for tau in (0, "0.1", 1, 10, math.inf):
        ref = ntk_profile(tau, "0.9", dps=2 * dps)
        for prec in (None, dps):
            tol = prof64 if prec is None else Tolerance.digits(prec - 1, f"rounded to {prec}")
            err = error_in_units([ntk_profile(tau, "0.9", dps=prec)], [ref], tol)
            n += 1
            if beats(err, worst):
                worst, where = err, f"profile at tau={tau}, dps={prec}"
    return Verdict.from_error(
        worst, f"{n} comparisons against {2 * dps} digits; worst {worst:.2g} tolerances"
        + (f" ({where})" if where else ""), _F64)  # fmt: skip


def claims() -> list[Theorem]:
    """The symbolic claims of the delayed-rich time scale (the simulation-backed ones are in
    :mod:`solvable.verification.confirmations.delayed_rich`)."""

    def T(id_, where, statement, fn, kind="symbolic"):
        return Theorem(f"delayed_rich.{id_}", f"{SEED} {where}", statement, kind, fn)

    return [
        T("plateau_rate", "Part I, regime 3 (delayed rich; exact solution)",
          "In the closed form with delta' = -D < 0, tan theta(t) (angle of w to beta*) times "
          "e^{t/T_p} (c_+ v_y + c_- v_x e^{-2 Omega t}) is constant, and tends to c_perp/(c_+ "
          "v_y) times e^{-t/T_p}: the plateau time T_p = 1/(Omega + delta'/2) = (Omega + D/2)/"
          "(kappa^2 Y^2).", _plateau_rate),
        T("plateau_series", "Part I, regime 3 (delayed rich, delta << -|beta|)",
          "T_p = D/(kappa^2 Y^2) + 1/D - kappa^2 Y^2/D^3 + O(D^-5) as D = |delta'| -> oo: "
          "exponent 1 (D dlog T_p/dD -> 1), relative correction O((kappa Y/D)^2).",
          _plateau_series),
        T("profile", "Part I, regime 3 (initially lazy followed by rich)",
          "||uu^T - u0u0^T||_F = sqrt2 |sin(theta - theta0)|; theta(tau) = atan(tan(theta0) "
          "e^-tau) solves theta' = -sin(2 theta)/2 (so g(tau) = sqrt2 sin(theta0 - theta(tau)) "
          "<= tau/sqrt2), g(0) = 0, g(oo) = sqrt2 sin(theta0), and g = g(oo)/2 at tau = "
          "log(tan(theta0)/tan(theta_half)): T_half ~ T_p log(tan(theta0)/tan(theta_half)).",
          _profile),
        T("evaluators", "Part I, regime 3",
          "plateau_time, half_time(leading=True) and ntk_profile (float64; mpmath at dps) equal "
          "their 2 dps-digit values, from delta = -0.5 to -1e6.", _evaluators_agree,
          kind="numeric"),
    ]  # fmt: skip


MODEL = Model(
    name="delayed_rich",
    seed=SEED,
    title="Kunin et al. Part I, regime 3: the delayed-rich plateau as a time scale",
    claims=claims,
)
