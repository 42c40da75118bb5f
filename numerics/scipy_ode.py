"""float64 integration of the raw gradient flow with scipy's DOP853, and the fixed-point test
shared with :mod:`numerics.torch_flow`.

The vector field is the same sympy expression as for the mpmath integrator,
lambdified to numpy (``cse=True``).  DOP853 (explicit Runge-Kutta of order 8) at
``rtol = 1e-13`` by default: the flows of this package are not stiff while they move
(their Jacobian spectrum is bounded by ~1/t_c), and DOP853's global error at these
tolerances stays within ~1e-11 relative over O(10) e-foldings.

Near a stable fixed point an explicit method's step is bounded by its stability region
(``h <~ 3.3 / lambda_max``), not by accuracy, so integrating to ``t = 1e6`` would cost
``~ t lambda_max`` steps.  :class:`LinearTail` decides, from the Hessian at the current
state, when the rest of the trajectory is the linearised flow to within the tolerance, and
then evaluates it in closed form (see its docstring for the criterion); the cost of a
simulation to any ``t`` is then what it takes to reach the fixed point.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from scipy.integrate import DOP853

from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable._core.flows import GradientFlow

__all__ = [
    "DEFAULT_RTOL",
    "FIXED_POINT_MAX_STATE",
    "MAX_STEPS",
    "PACE_WINDOW",
    "FlowError",
    "LinearTail",
    "PaceError",
    "check_interval",
    "integrate",
    "progress_bar",
    "projected_pace",
]

DEFAULT_RTOL = 1e-13
MAX_STEPS = 100_000
"""Default cap on the accepted steps of one integration: a clear error instead of a hang."""
FIXED_POINT_MAX_STATE = 64
"""The fixed-point test needs the dense Hessian (symbolic here, ``N^2`` entries): it runs for
flows of at most this many parameters; larger ones integrate to the end (``max_steps``)."""
_FIRST_CHECK = 64  # steps before the first fixed-point test (short runs never pay for it)


@functools.cache
def _compiled(flow: GradientFlow):
    return generate((flow.state, flow.params), list(flow.rhs), "numpy", cse=True)


@functools.cache
def _jacobian(flow: GradientFlow):
    """``d rhs / d state`` (N, N), generated from the same sympy vector field."""
    J = sp.Matrix(flow.rhs).jacobian(sp.Matrix(flow.state))
    return generate((flow.state, flow.params), list(J), "numpy", cse=True)


def check_interval(n_state: int) -> int:
    """Steps between two fixed-point tests: a test costs about ``N + 2`` evaluations of the
    field (the Hessian, and the field at the predicted limit) and a DOP853 step 12, so
    testing every ``max(16, (N + 2) / 3)`` steps adds at most ~25% to the cost
    (``n_state``: an int >= 0)."""
    n_state = nb.check_int("n_state", n_state, low=0)
    return max(16, math.ceil((n_state + 2) / 3))


def _check_flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} "
                        f"{nb.describe(value)}")  # fmt: skip
    return bool(value)


def _real(name: str, value: Any, *, low: float = -math.inf) -> float:
    """A finite real number ``>= low`` as a float64 (decimal strings, Fractions and ``mpf``
    included: :func:`solvable._core.numbers.check_number`)."""
    out = nb.to_float(nb.check_number(name, value), name)
    if not out >= low:
        raise ValueError(f"{name} must be >= {low:g}, got {nb.describe(value)}")
    return out


def _real_array(name: str, value: Any, ndim: int | tuple[int, ...], *,
                finite: bool = True) -> np.ndarray:  # fmt: skip
    """``value`` as a float64 array with ``ndim`` axes (one of them, if a tuple; empty
    allowed).  A numpy array of
    real numbers is taken as it is (with its non-finite entries where ``finite`` is False);
    anything else goes through :func:`solvable._core.numbers.check_float_array` (every entry
    a finite real number: no bool, complex, string, None or tensor)."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu":
        arr = value.astype(float, copy=False)
        ndims = (ndim,) if isinstance(ndim, int) else ndim
        if arr.ndim not in ndims:
            raise ValueError(f"{name} must have {' or '.join(map(str, ndims))} dimensions, got "
                             f"shape {arr.shape}")  # fmt: skip
        if finite and not np.isfinite(arr).all():
            raise ValueError(f"{name} must be finite, got {arr[~np.isfinite(arr)][0]!r}")
        return arr
    if ndim == 1 and isinstance(value, (list, tuple)) and not value:
        return np.empty(0)
    return nb.check_float_array(name, value, ndim=ndim)


class LinearTail:
    """The linearised gradient flow around the current state, and whether it is the rest of
    the trajectory to within the tolerance (batched: leading axis ``B``).

    The flow is ``theta' = -eta grad L(theta)`` with ``eta`` a positive diagonal (a block
    that does not train has ``eta = 0`` and never moves).  In ``z = theta / sqrt(eta)`` it
    is the plain gradient flow ``z' = -S (z - z*) + O(|z - z*|^2)`` with the symmetric
    ``S = sqrt(eta) H sqrt(eta)`` (``H`` the Hessian of ``L``), eigenpairs ``(lam_k, v_k)``.
    With ``c_k = v_k . z'`` the linearised flow moves by

        ``z(t + s) - z(t) = sum_k c_k phi_k(s) v_k``,  ``phi_k(s) = (1 - exp(-lam_k s)) / lam_k``,

    so at most ``|c_k| / lam_k`` along a stable mode however long it runs (for a gradient
    flow with smallest Hessian eigenvalue ``lam`` the remaining change is
    ``<= |grad| / lam``), and ``|c_k| (exp(|lam_k| s) - 1) / |lam_k|`` along an unstable one.
    Eigenvalues are resolved only to ``tau = max|lam| (64 N eps + 10 rtol)`` (the rounding
    of ``S``, and the state itself known to ``rtol``); a mode with ``|lam_k| <= tau`` is
    flat (a direction along a set of fixed points, e.g. a symmetry orbit, where ``z'`` is
    second order in the distance to that set and decays with the normal modes): its drift
    is bounded by ``|c_k| min(s, 1 / lam_+)``, ``lam_+`` the smallest eigenvalue above ``tau``.

    The criterion, with ``s = t_left`` (the time still to integrate) and in the
    integrator's own error norm ``atol + rtol |theta_i|`` (max over components ``i``):

    1. the rest of the trajectory is small: ``sqrt(eta_i) sum_k |v_ki| |c_k| phi_k`` is
       ``<= 1`` over the flat modes (their drift is not extrapolated) and ``<= 100`` over
       the others (it is: an explicit method near its stability limit leaves the stiffest
       mode excited at about the tolerance, which the linear flow then damps exactly).
       Near a saddle (a plateau of the delayed-rich regime) the unstable mode's
       ``exp(|lam| s)`` makes it fail: the flow will leave, and it is integrated on;
    2. a posteriori check of the linearisation: at the predicted end state
       ``theta + sqrt(eta) sum_k c_k phi_k(s) v_k`` the bound of 1. over all modes is
       ``<= 1`` (the end state is a fixed point to within the tolerance; a curvature that
       the linear model misses shows up here, its error being second order in a change of
       at most 100 tolerances);
    3. ``S`` is finite and symmetric to ``1e-3`` relative (a guard against rates that do
       not match the flow).

    When it holds, the state at a later time ``t + s`` is ``theta + sqrt(eta) sum_k c_k
    phi_k(s) v_k`` over the non-flat modes: its error is the linearisation's, second order
    in a change that is itself below the tolerance.

    Arguments (numpy arrays of real numbers): ``S`` (B, N, N) and ``zdot`` (B, N), where a
    non-finite entry makes its element inadmissible (criterion 3); ``scale`` and
    ``root_eta``, (B, N), (1, N) or (N,), finite and ``>= 0``; ``t_left``, B times ``>= 0``
    (``inf``: the limit); ``eps`` and ``rtol`` in ``[0, 1)``.  Anything else is a
    ``TypeError`` / ``ValueError`` naming the argument.
    """

    def __init__(self, S: np.ndarray, zdot: np.ndarray, scale: np.ndarray, root_eta: np.ndarray,
                 t_left: np.ndarray, eps: float, rtol: float) -> None:  # fmt: skip
        S, zdot, scale, root_eta, t_left, eps, rtol = _tail_arguments(
            S, zdot, scale, root_eta, t_left, eps, rtol
        )
        B, N = S.shape[0], S.shape[1]
        norm = np.abs(S).max(axis=(1, 2)) if N else np.zeros(B)
        asym = np.abs(S - np.swapaxes(S, 1, 2)).max(axis=(1, 2)) if N else np.zeros(B)
        S = 0.5 * (S + np.swapaxes(S, 1, 2))
        finite = np.isfinite(S).all(axis=(1, 2)) & np.isfinite(zdot).all(axis=1)
        S = np.where(finite[:, None, None], S, 0.0)
        self.lam, self.V = np.linalg.eigh(S)
        top = np.abs(self.lam).max(axis=1) if N else np.zeros(B)
        self.tau = top * (64 * N * eps + 10 * rtol)
        self.flat = np.abs(self.lam) <= self.tau[:, None]
        lam_plus = np.where(self.lam > self.tau[:, None], self.lam, np.inf).min(axis=1)
        self.t_left = np.asarray(t_left, dtype=float).reshape(B)
        self.flat_horizon = np.minimum(self.t_left, 1.0 / lam_plus)
        self.scale = scale
        self.root_eta = root_eta
        self.zdot = zdot
        self.admissible = finite & (asym <= 1e-3 * norm)
        self.remaining = self.bound(self.zdot, flat=False)
        self.drift = self.bound(self.zdot, modes=False)

    def _phi(self, s: np.ndarray) -> np.ndarray:
        """``phi_k(s)`` of the non-flat modes (0 on flat ones), (B, N); ``s`` (B,) >= 0."""
        lam = np.where(self.flat, 1.0, self.lam)
        with np.errstate(over="ignore", invalid="ignore"):
            phi = -np.expm1(-lam * s[:, None]) / lam
        return np.where(self.flat, 0.0, phi)

    def bound(self, zdot: np.ndarray, *, flat: bool = True, modes: bool = True) -> np.ndarray:
        """The remaining-change bound (criterion 1) for the velocity ``zdot``, in units of the
        tolerance, per batch element (``inf`` where it overflows), over the flat modes, the
        others, or both."""
        c = np.abs(np.einsum("bik,bi->bk", self.V, zdot))
        weight = self._phi(self.t_left) if modes else np.zeros_like(self.lam)
        if flat:
            weight = weight + np.where(self.flat, self.flat_horizon[:, None], 0.0)
        with np.errstate(over="ignore", invalid="ignore"):
            moved = np.einsum("bik,bk->bi", np.abs(self.V), c * weight)
            units = self.root_eta * moved / self.scale
        units = np.where(np.isnan(units), np.inf, units)
        return units.max(axis=1) if units.shape[1] else np.zeros(units.shape[0])

    def change(self, s: Any) -> np.ndarray:
        """``theta(t + s) - theta(t)`` of the linearised flow over its non-flat modes,
        ``0 <= s`` (scalar or (B,)), shape (B, N)."""
        s = np.maximum(np.broadcast_to(np.asarray(s, dtype=float), self.lam.shape[:1]), 0.0)
        c = np.einsum("bik,bi->bk", self.V, self.zdot)
        with np.errstate(over="ignore", invalid="ignore"):
            return self.root_eta * np.einsum("bik,bk->bi", self.V, c * self._phi(s))

    def end(self) -> np.ndarray:
        """The predicted state change by the end of the integration, (B, N)."""
        return self.change(self.t_left)

    def converged(self, zdot_at_end: np.ndarray) -> np.ndarray:
        """Criteria 1-3, given the velocity ``z'`` at the predicted end state ``end()``."""
        again = self.bound(np.asarray(zdot_at_end, dtype=float))
        return self.candidate() & (again <= 1.0)

    def candidate(self) -> np.ndarray:
        """Criteria 1 and 3 (the ones that need no further evaluation of the field)."""
        return self.admissible & (self.remaining <= 100.0) & (self.drift <= 1.0)


def _tail_arguments(S: Any, zdot: Any, scale: Any, root_eta: Any, t_left: Any, eps: Any,
                    rtol: Any) -> tuple[Any, ...]:  # fmt: skip
    """:class:`LinearTail`'s arguments checked (its docstring), as float64 arrays."""
    S = _real_array("S", S, 3, finite=False)
    B, N = S.shape[0], S.shape[1]
    if B < 1 or S.shape[2] != N:
        raise ValueError(f"S must have shape (B, N, N) with B >= 1, got {S.shape}")
    zdot = _real_array("zdot", zdot, 2, finite=False)
    if zdot.shape != (B, N):
        raise ValueError(f"zdot must have shape (B, N) = {(B, N)} (as S), got {zdot.shape}")
    rows = []
    for name, value in (("scale", scale), ("root_eta", root_eta)):
        arr = _real_array(name, value, (1, 2))
        if arr.shape not in ((B, N), (1, N), (N,)) or not (arr >= 0).all():
            raise ValueError(f"{name} must have shape (B, N) = {(B, N)}, (1, {N}) or ({N},) "
                             f"and entries >= 0, got shape {arr.shape}")  # fmt: skip
        rows.append(arr)
    flat = t_left.reshape(-1) if isinstance(t_left, np.ndarray) else t_left
    t_left = _real_array("t_left", flat, 1, finite=False)
    if t_left.shape != (B,) or not (t_left >= 0).all():
        raise ValueError(f"t_left must hold B = {B} times >= 0, got {nb.describe(t_left)}")
    eps, rtol = _real("eps", eps, low=0.0), _real("rtol", rtol, low=0.0)
    for name, value in (("eps", eps), ("rtol", rtol)):
        if not value < 1:
            raise ValueError(f"{name} must be in [0, 1) (a relative tolerance), got {value!r}")
    return S, zdot, rows[0], rows[1], t_left, eps, rtol


def progress_bar(total: float, unit: str = "t") -> Any:
    """A tqdm bar of the time reached (``progress=True`` of the integrators): ``total`` a
    finite real number >= 0, ``unit`` a str."""
    total = _real("total", total, low=0.0)
    if not isinstance(unit, str):
        raise TypeError(f"unit must be a str, got {type(unit).__name__} {nb.describe(unit)}")
    try:
        from tqdm.auto import tqdm
    except ImportError as exc:
        raise ImportError("progress=True needs tqdm: pip install 'solvable[torch]'") from exc
    return tqdm(total=total, unit=unit, bar_format="{l_bar}{bar}| " + unit + "={n:.3g}/{total:.3g}")


def integrate(
    flow: GradientFlow,
    params: Sequence[float],
    y0: Sequence[float],
    times: Sequence[float],
    rtol: float = DEFAULT_RTOL,
    *,
    rates: Sequence[float] | None = None,
    max_steps: int = MAX_STEPS,
    progress: bool = False,
) -> tuple[np.ndarray, dict[str, Any]]:
    """States at ``times`` (sorted, ``>= 0``), shape ``(len(times), len(y0))``.

    ``atol = rtol * 1e-3 * (max|y0| or 1)``: the error is controlled relative to each
    component, with a floor three orders below the initial scale so that components
    that decay (e.g. ``u`` flowing into the saddle) are not over-resolved.  The vector
    field is seed 001 eqs. (4)-(5) (or another model's), lambdified with ``cse=True``;
    times inside a step are DOP853's 7th-order dense output.

    ``rates``: the learning rate of each state component (``eta`` of the flow).  With it,
    and at most :data:`FIXED_POINT_MAX_STATE` components, the fixed-point test of
    :class:`LinearTail` runs every :func:`check_interval` steps after the first 64: once the
    rest of the trajectory is the linearised flow to within the tolerance, the remaining
    times are evaluated from it (so ``t = 1e6`` costs what reaching the fixed point costs).
    ``max_steps`` caps the accepted steps (``ArithmeticError`` naming it, instead of a hang),
    and is projected every :data:`PACE_WINDOW` steps (:func:`projected_pace`): a horizon it
    cannot reach stops after a few windows, not after ``max_steps`` steps;
    ``progress`` shows a tqdm bar of ``t``.  Statistics: ``nfev``, ``steps``, ``checks``
    and ``fixed_point_t`` (the time the test succeeded, or None).

    ``params`` (one per ``flow.params``), ``y0`` (one per ``flow.state``), ``times`` and
    ``rates`` are finite real numbers, ``0 < rtol < 1``; a wrong type or value is a
    ``TypeError`` / ``ValueError`` naming the argument, and so is a start where the field is
    not finite in float64.  A run that fails on the way (DOP853's step underflows: the flow
    leaves the float64 range or blows up in finite time) raises :class:`FlowError`, an
    ``ArithmeticError`` and a ``ValueError`` of ``params``, ``y0`` and ``times``.
    """
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be an integer >= 1, got {max_steps!r}")
    if not isinstance(flow, GradientFlow):
        raise TypeError(f"flow must be a GradientFlow, got {type(flow).__name__} "
                        f"{nb.describe(flow)}")  # fmt: skip
    y0, params = _real_array("y0", y0, 1), _real_array("params", params, 1).tolist()
    for name, value, want in (("y0", y0, flow.state), ("params", params, flow.params)):
        if len(value) != len(want):
            raise ValueError(
                f"{name} must have {len(want)} entries (one per symbol of "
                f"flow.{'state' if name == 'y0' else 'params'}), got {len(value)}"
            )
    rtol = _real("rtol", rtol)
    if not 0 < rtol < 1:
        raise ValueError(f"rtol must be in (0, 1), got {rtol!r}")
    if rates is not None:
        rates = _real_array("rates", rates, 1)
        if rates.shape != y0.shape or not (rates >= 0).all():
            raise ValueError(f"rates must hold {y0.size} learning rates >= 0 (one per entry "
                             f"of y0), got {nb.describe(rates.tolist())}")  # fmt: skip
    progress = _check_flag("progress", progress)
    times = _real_array("times", times, 1)
    if times.size and (times[0] < 0 or (np.diff(times) < 0).any()):
        raise ValueError(f"times must be sorted and >= 0, got {nb.describe(times.tolist())}")
    f = _compiled(flow)
    scale = float(np.max(np.abs(y0))) if y0.size else 0.0
    atol = rtol * 1e-3 * (scale if scale > 0 else 1.0)
    nfev = 0

    def rhs(_t: float, y: np.ndarray) -> np.ndarray:
        nonlocal nfev
        nfev += 1
        return np.asarray(f(y, params), dtype=float)

    stats: dict[str, Any] = {"nfev": 0, "steps": 0, "checks": 0, "fixed_point_t": None}
    t_end = float(times[-1]) if times.size else 0.0
    if t_end == 0.0:
        return np.tile(y0, (len(times), 1)), stats
    N = y0.size
    if N == 0:  # a flow with no state does not move (DOP853 takes no empty state)
        return np.empty((len(times), 0)), stats
    test = rates is not None and 0 < N <= FIXED_POINT_MAX_STATE
    root_eta = np.sqrt(np.asarray(rates, dtype=float)) if test else None
    every = check_interval(N)
    out = np.empty((len(times), N))
    j = 0
    while j < len(times) and times[j] <= 0.0:
        out[j] = y0
        j += 1
    with np.errstate(all="ignore"):  # the field at the start: a NaN there would loop forever
        solver = DOP853(rhs, 0.0, y0, t_end, rtol=rtol, atol=atol)
    if not (np.isfinite(solver.f).all() and np.isfinite(solver.h_abs)):
        raise ValueError("the field at the start is not finite in float64: params or y0 too "
                         "large for the flow's products (rescale them)")  # fmt: skip
    bar = progress_bar(t_end) if progress else None
    steps = 0
    pace: tuple[float, float] | None = None  # (t, mean step) at the last window's end
    try:
        while j < len(times):
            if steps >= max_steps:
                raise ArithmeticError(
                    f"max_steps={max_steps} steps taken by t = {solver.t:.6g} of "
                    f"{t_end:.6g}: raise max_steps (or rtol)"
                )
            message = solver.step()
            if solver.status == "failed":
                raise FlowError(
                    f"DOP853 failed at t = {solver.t:.6g}: {message} (the flow "
                    "leaves the float64 range or blows up in finite time from these "
                    "params and y0: rescale them, or ask for earlier times)"
                )
            steps += 1
            if steps % PACE_WINDOW == 0:
                pace = projected_pace(pace, float(solver.t), steps, t_end, max_steps)
            inside = j
            while inside < len(times) and times[inside] <= solver.t:
                inside += 1
            dense = None
            for k in range(j, inside):
                if times[k] == solver.t:
                    out[k] = solver.y
                else:
                    dense = solver.dense_output() if dense is None else dense
                    out[k] = dense(times[k])
            j = inside
            if bar is not None:
                bar.n = min(float(solver.t), t_end)
                bar.refresh()
            if test and j < len(times) and steps >= _FIRST_CHECK and steps % every == 0:
                stats["checks"] += 1
                tail = _tail(flow, params, solver.y, rtol, atol, root_eta, t_end - solver.t)
                if tail.candidate()[0]:
                    limit = solver.y + tail.end()[0]
                    done = bool(tail.converged(_zdot(rhs(0.0, limit), root_eta)[None])[0])
                else:
                    done = False
                if done:
                    stats["fixed_point_t"] = float(solver.t)
                    for k in range(j, len(times)):
                        out[k] = solver.y + tail.change(times[k] - solver.t)[0]
                    j = len(times)
    finally:
        if bar is not None:
            bar.close()
    stats.update(nfev=nfev, steps=steps)
    return out, stats


PACE_WINDOW = 250
"""Every this many steps :func:`integrate` projects the steps left at the pace of the last
window: a run that cannot reach its last time within ``max_steps`` stops there, in
seconds, instead of at ``max_steps`` (minutes for a long horizon without the fixed-point
test)."""
PACE_GROWTH = 1.1  # a mean step that grew by more than this over a window is still growing:
# no projection then (a run that speeds up, e.g. leaving a transient, is never cut short)
PACE_MARGIN = 100  # refused only when the projection exceeds max_steps this many times over:
# a run whose steps later grow 100-fold (a transient left behind) is still never cut short


class FlowError(ArithmeticError, ValueError):
    """DOP853 failed (its step underflowed) in :func:`integrate`: an ``ArithmeticError`` of
    the run, and a ``ValueError`` of its ``params``, ``y0`` and ``times`` (the flow they
    define leaves the float64 range, or blows up, before the last time)."""


class PaceError(ArithmeticError, ValueError):
    """A horizon the integrator cannot reach within ``max_steps`` (:func:`projected_pace`):
    an ``ArithmeticError`` of the run, and a ``ValueError`` of its ``times`` / ``max_steps``
    arguments."""


def _g(x: Any, digits: int) -> str:
    """``x`` (a float or an ``mpf``, which has no format spec) to ``digits`` digits."""
    return mpmath.nstr(x, digits) if isinstance(x, mpmath.mpf) else f"{x:.{digits}g}"


def projected_pace(last: tuple[Any, Any] | None, t: Any, steps: int, t_end: Any,
                    max_steps: int) -> tuple[Any, Any]:  # fmt: skip
    """The work budget of :func:`integrate`: the mean step of the last :data:`PACE_WINDOW`
    steps; where it has stopped growing (at most :data:`PACE_GROWTH` times the previous
    window's) and the steps left at that pace, ``(t_end - t) / mean``, exceed
    :data:`PACE_MARGIN` times what ``max_steps`` leaves, an ``ArithmeticError`` naming
    ``max_steps`` and the projection (and a finite-time blow-up, where the mean step fell
    by half or more since the previous window).  Times are floats, or ``mpf`` for the mpmath
    integrator (whose steps may be far below float64's range: t = 1e-598).  ``last`` is None or
    the pair returned by the previous call, ``t``, ``t_end`` finite floats (or ``mpf``),
    ``steps >= 0`` and ``max_steps >= 1`` ints."""
    if last is not None:
        if isinstance(last, (str, bytes)) or not isinstance(last, (tuple, list)) or \
                len(last) != 2:  # fmt: skip
            raise TypeError(f"last must be None or a pair (t, mean step), got "
                            f"{nb.describe(last)}")  # fmt: skip
        last = (_time("last[0]", last[0]), _time("last[1]", last[1]))
    t, t_end = _time("t", t), _time("t_end", t_end)
    steps, max_steps = nb.check_int("steps", steps, low=0), nb.check_int("max_steps", max_steps)
    t0 = 0 if last is None else last[0]
    mean = (t - t0) / PACE_WINDOW
    if last is not None and 0 < mean <= PACE_GROWTH * last[1]:
        left = (t_end - t) / mean
        if left > PACE_MARGIN * (max_steps - steps):
            raise PaceError(
                f"max_steps={max_steps} cannot reach the last of times, t = {_g(t_end, 6)}: at "
                f"the pace of the last {PACE_WINDOW} steps (mean step {_g(mean, 3)}, no longer "
                f"growing) it needs about {_g(left, 3)} more steps after {steps} (t = "
                f"{_g(t, 6)}); raise max_steps, or ask for earlier times"
                + (  # the steps shrink by half or more per window: no horizon is reachable
                    "; the steps shrink: a finite-time blow-up (or a flow too stiff for an "
                    "explicit method)"
                    if mean < last[1] / 2
                    else ""
                )
            )
    return t, mean


def _time(name: str, value: Any) -> Any:
    """A finite time for :func:`projected_pace`: an ``mpf`` as it is, another real number as
    a float64."""
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise ValueError(f"{name} must be finite, got {value}")
        return value
    if isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be a float or an mpmath.mpf, got str {nb.describe(value)}")
    return _real(name, value)


def _zdot(fy: np.ndarray, root_eta: np.ndarray) -> np.ndarray:
    """``z' = theta' / sqrt(eta)`` (0 on blocks that do not train)."""
    return np.where(root_eta > 0, fy / np.where(root_eta > 0, root_eta, 1.0), 0.0)


def _tail(flow: GradientFlow, params: list[float], y: np.ndarray, rtol: float, atol: float,
          root_eta: np.ndarray, t_left: float) -> LinearTail:  # fmt: skip
    """:class:`LinearTail` at ``y`` from the generated Jacobian ``J = -eta H``:
    ``S_ij = -J_ij sqrt(eta_j / eta_i)`` (0 on blocks that do not train)."""
    N = y.size
    J = np.asarray(_jacobian(flow)(y, params), dtype=float).reshape(N, N)
    inv = np.where(root_eta > 0, 1.0 / np.where(root_eta > 0, root_eta, 1.0), 0.0)
    S = -(inv[:, None] * J * root_eta[None, :])
    zdot = _zdot(np.asarray(_compiled(flow)(y, params), dtype=float), root_eta)
    scale = atol + rtol * np.abs(y)
    return LinearTail(S[None], zdot[None], scale[None], root_eta[None], np.array([t_left]),
                      float(np.finfo(float).eps), rtol)  # fmt: skip
