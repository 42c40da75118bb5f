"""The exact solutions as pytest oracles for users' own training and kernel code.

Every exact solution of the package checks a trajectory (or a Gram matrix) that a user's
code produced, with validated inputs, a stated tolerance and a failure message that says
where and by how much the trajectory left the exact one::

    from solvable.verification import testing
    oracle = testing.xu_ziyin(setup, u0, W0)          # seed 001, Theorem 1 / Proposition 1
    oracle.check(times, us, Ws)                       # exact flow (an ODE solver, tiny steps)
    oracle.check(times, us, Ws, lr=1e-3)              # gradient descent, t = k * lr

    testing.kunin(setup, a0, w0)                      # seed 003, single neuron (a, w)
    testing.linear_node_scaling(setup, a0, W0)        # seed 000, Theorem 7.4 (W; a fixed)
    testing.kernel("ntk", init, X).check(K)           # seed 002: your Gram matrix
    testing.kernel("ntk", init, X).check_samples(Ks)  # ... or its Monte Carlo estimates

The pytest plugin (:mod:`solvable.verification.pytest_plugin`, registered through the ``pytest11``
entry point) hands these out as the fixture ``solvable_oracle`` (an :class:`Oracle`) and the
named edge cases of the models as ``solvable_edge_case`` (:class:`EdgeCase`).

Time convention (every model): the flow is ``d theta/dt = -eta_block dL/dtheta`` with the
learning rate ``eta_block`` of each block in the setup (``eta_u, eta_w``; ``eta_a, eta_w``;
``eta``).  Gradient descent ``theta_{k+1} = theta_k - lr * eta_block * dL/dtheta(theta_k)``
is its explicit Euler method with step ``lr`` in flow time: ``times[k] = k * lr``.  A trainer
with per-layer step sizes ``h_u, h_w`` is this with ``lr = h_u / eta_u = h_w / eta_w``
(choose the setup's rates in the ratio of the step sizes).

Tolerance: block ``b`` at time ``t`` passes when ``max|got_b - exact_b| <= atol + rtol
max|exact_b| + A_b(t)``: normwise, as :mod:`solvable._core.tolerance`; errors are reported
in units of that allowance (pass: ``<= 1``).  ``A_b = 0`` for the exact flow;
``lr=`` adds the gradient-descent allowance of :func:`gd_allowance`.
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np
from scipy.integrate import solve_ivp

import solvable
from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable._core.flows import GradientFlow
from solvable._core.model import System
from solvable._core.tolerance import (
    MC_CONFIDENCE,
    NOTHING_COMPARED,
    Tolerance,
    beats,
    error_in_units,
    monte_carlo,
    worst_item,
    worst_of,
)
from solvable.models import kernels
from solvable.models import kunin as _kn
from solvable.models import linear_node_scaling as _lns
from solvable.models import node_scaling as ns
from solvable.models import xu_ziyin as _xz
from solvable.models.kernels import numeric_checks as kernel_checks

__all__ = [
    "GD_SAFETY",
    "GD_STEP_LIMIT",
    "EdgeCase",
    "KernelOracle",
    "Oracle",
    "OracleWarning",
    "Report",
    "TrajectoryOracle",
    "assert_matches_closed_form",
    "edge_case",
    "edge_cases",
    "gd_allowance",
    "kernel",
    "kunin",
    "linear_node_scaling",
    "state_errors",
    "xu_ziyin",
]

GD_SAFETY = 2.0
"""Factor on the first-order gradient-descent error ``lr max|e|`` (:func:`gd_allowance`): it
covers the neglected ``O(lr^2)`` terms while ``lr ||J|| <= GD_STEP_LIMIT``.  Measured with
``rtol = 1e-12`` (GD to t = 10 and 40, lr = 1e-4 ... 3e-3) on ``xu_ziyin.CASES`` generic,
near_parallel, P_zero_y_negative, P_zero_y_positive, Q_zero_y_negative and large_init: the
true GD error was at most 1.06 ``lr max|e|`` for ``lr ||J|| <= 0.35`` and 1.22 at ``lr ||J|| =
0.46`` (large_init); ``tests/test_oracle.py`` pins ``<= 1.25`` on five cases.  It is an
allowance for discretisation, not for rounding: GD's accumulated rounding (``~k eps`` after
``k`` steps) is amplified near a saddle (P_zero_y_positive at lr = 1e-4: 1.87 ``lr max|e|``
at rtol = 1e-12) and must fit in ``rtol``."""
GD_STEP_LIMIT = 0.25
"""Largest ``lr * max_t ||J(theta(t))||_2`` (``J`` the Jacobian of the flow's vector field)
for which the first-order allowance is used: beyond it the ``O(lr^2)`` remainder is no
longer small next to the first-order term, and the check refuses with a ``ValueError``."""
E1_FLOOR = 1e-4
"""Floor on ``lr max||J||`` in the second-order allowance of the update-rule diagnostic
(:meth:`TrajectoryOracle.compare`): ``lr e(t)`` is integrated to ``rtol = 1e-8`` with central
differences, so its own error is below ``1e-6 lr max|e|``; the floor keeps that error a
hundredth of the allowance when ``lr max||J||`` is tiny."""
_MAX_GD_STEPS = 2.0**53  # t = k lr: beyond 2^53 steps float64 has no distinct k
_REFERENCE_DPS = 30  # digits of the reference for rtol < _FLOAT64_RTOL
_FLOAT64_RTOL = 1e-10  # float64 closed forms are confirmed to ~1e-13 (their claims): a factor
# 1000 of margin; below it the reference is evaluated at _REFERENCE_DPS digits


class OracleWarning(UserWarning):
    """A trajectory passed, but the check could not tell it from some wrong ones: the times
    cover only the converged tail, or only ``t = 0``; or a gradient-descent trajectory's
    ``O(lr)`` error is not plain gradient descent's (the message says which and why).
    ``pytest -W error::solvable.verification.testing.OracleWarning`` turns these into failures."""


# ---------------------------------------------------------------------------
# validation of what the user hands in
# ---------------------------------------------------------------------------
def _real(name: str, value: Any) -> float:
    """A finite real number (an entry that is infinite, NaN or beyond float64 refused)."""
    out = _entry(name, value)
    if not math.isfinite(out):
        raise ValueError(f"{name} must be finite (and within the float64 range), got "
                         f"{nb.describe(value)}")  # fmt: skip
    return out


def _entry(name: str, value: Any) -> float:
    """One entry of an object array as a float: a real number (int, float, numpy scalar,
    ``Fraction``, ``mpf``); an infinity or NaN is kept (the caller's check decides, as for a
    float array), a finite value beyond the float64 range is refused."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, mpmath.mpf)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} "
                        f"{nb.describe(value)}")  # fmt: skip
    try:
        out = float(value)
    except OverflowError:  # an int or Fraction beyond float64
        out = math.inf
    if math.isinf(out) and not (isinstance(value, (float, mpmath.mpf)) and mpmath.isinf(value)):
        raise ValueError(f"{name} must be within the float64 range, got {nb.describe(value)}")
    return out


def _check_rtol(rtol: Any) -> float:
    out = _real("rtol", rtol)
    if not 0 < out < 1:
        raise ValueError(f"rtol must be in (0, 1) (a relative tolerance), got {nb.describe(rtol)}")
    return out


def _check_atol(atol: Any) -> float:
    out = _real("atol", atol)
    if out < 0:
        raise ValueError(f"atol must be >= 0, got {nb.describe(atol)}")
    return out


def _check_lr(lr: Any) -> float | None:
    if lr is None:
        return None
    out = _real("lr", lr)
    if not out > 0:
        raise ValueError(f"lr must be > 0 (the gradient-descent step in flow time), got "
                         f"{nb.describe(lr)}")  # fmt: skip
    return out


def _as_array(name: str, value: Any) -> np.ndarray:
    """``value`` as a float64 array, never reshaped: torch tensors (detached, on the CPU),
    numpy arrays, nested lists; bool, complex, strings and ragged lists are refused."""
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor, without torch
        value = value.detach().cpu()
        if value.is_floating_point():  # float16 / bfloat16 (numpy has no bfloat16)
            value = value.double()
        value = value.numpy()
    try:
        arr = np.asarray(value)
    except ValueError:
        raise ValueError(f"{name} must be a rectangular array (one entry per time), got a "
                         f"ragged sequence {nb.describe(value)}") from None  # fmt: skip
    if arr.dtype.kind == "O":
        try:
            with np.errstate(invalid="ignore"):  # a NaN entry: refused by the caller's check
                arr = np.vectorize(lambda v: _entry(name, v), otypes=[float])(arr)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"{name} must hold real numbers only: {exc}") from None
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype} "
                        f"({nb.describe(value)})")  # fmt: skip
    return arr.astype(np.float64)


def _check_finite(name: str, arr: np.ndarray) -> None:
    bad = ~np.isfinite(arr)
    if np.any(bad):
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must be finite: {name}{list(idx)} = {arr[idx]!r}")


def _check_times(times: Any, allow_inf: bool) -> np.ndarray:
    ts = _as_array("times", times)
    if ts.ndim != 1 or ts.size == 0:
        raise ValueError(f"times must be a non-empty 1-d sequence, got shape {ts.shape}")
    if np.any(np.isnan(ts)) or (not allow_inf and np.any(np.isinf(ts))):
        _check_finite("times", ts)
    if np.any(ts < 0):
        k = int(np.argmax(ts < 0))
        raise ValueError(f"times must be >= 0: times[{k}] = {float(ts[k])!r}")
    return ts


def _check_block(name: str, value: Any, shape: tuple[int, ...]) -> np.ndarray:
    arr = _as_array(name, value)
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape} (times, *block), got {arr.shape}; "
                         f"it is never reshaped")  # fmt: skip
    _check_finite(name, arr)
    return arr


# ---------------------------------------------------------------------------
# the gradient-descent allowance: the first-order global error of explicit Euler
# ---------------------------------------------------------------------------
@functools.cache
def _vector_field(flow: GradientFlow) -> Callable[[np.ndarray, list[float]], np.ndarray]:
    """The model's own flow ``theta' = F(theta)`` (sympy, from its loss), generated for numpy."""
    fn = generate((flow.state, flow.params), list(flow.rhs), "numpy", cse=True)
    return lambda y, p: np.asarray(fn(y, p), dtype=float)


def _jvp(F: Callable[[np.ndarray], np.ndarray], y: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``J(y) v`` by a central difference: exact up to ``h^2 F'''`` (the flows are polynomials
    of degree <= 3, so the relative error is ~``(h |v| / |y|)^2 = 1e-10``, below the rounding
    ``eps / 1e-5`` of the difference)."""
    nv = float(np.max(np.abs(v)))
    if nv == 0:
        return np.zeros_like(y)
    h = 1e-5 * max(1.0, float(np.max(np.abs(y)))) / nv
    return (F(y + h * v) - F(y - h * v)) / (2 * h)


def _jacobian_norm(F: Callable[[np.ndarray], np.ndarray], y: np.ndarray) -> float:
    eye = np.eye(y.size)
    J = np.column_stack([_jvp(F, y, eye[i]) for i in range(y.size)])
    return float(np.linalg.norm(J, 2)) if J.size else 0.0


def _check_steps(steps: float) -> None:
    """``max(times) / lr`` gradient-descent steps, at most 2^53 (``ValueError`` naming both)."""
    if steps > _MAX_GD_STEPS:
        raise ValueError(
            f"times and lr: max(times) / lr = {steps:.3g} gradient-descent steps, more than "
            f"2^53 (float64 cannot tell t = k lr from t = (k + 1) lr)"
        )


def gd_allowance(flow: GradientFlow, params: Sequence[float], y0: Sequence[float],
                 times: Sequence[float], lr: float) -> tuple[np.ndarray, float]:  # fmt: skip
    """First-order global error of gradient descent with step ``lr`` and the check that it
    applies: ``(lr * e(times), lr * max ||J||)``, ``e`` of shape ``(len(times), N)``.

    Gradient descent is explicit Euler for ``theta' = F(theta)``.  Its global error has the
    asymptotic expansion ``theta_k - theta(k lr) = lr e(t) + O(lr^2)`` (Hairer, Nørsett &
    Wanner, Solving ODEs I, Thm. II.8.1), where ``e`` solves the variational equation
    ``e' = J(theta(t)) (e - F(theta(t))/2)``, ``e(0) = 0`` (the local error of one step is
    ``-(lr^2/2) J F``).  ``e`` is integrated here, with ``theta``, from the model's own sympy
    vector field (``J v`` by central differences); it is exact to first order, whatever the
    Lipschitz constant (the classical bound ``lr M2 (e^{Lip t} - 1)/(2 Lip)`` is valid but
    useless beyond ``t ~ 1/Lip``).  The ``O(lr^2)`` remainder is small next to it while
    ``lr ||J||`` is small: the second value is ``lr max ||J(theta(t))||_2`` over ``times``,
    checked against :data:`GD_STEP_LIMIT` by the oracle."""
    if not isinstance(flow, GradientFlow):
        raise TypeError(f"flow must be a GradientFlow (a model's System.flow(setup, shapes)), "
                        f"got {type(flow).__name__} {nb.describe(flow)}")  # fmt: skip
    p = [nb.to_float(v, f"params[{i}]") for i, v in
         enumerate(nb.check_vector("params", params, len(flow.params)))]  # fmt: skip
    y0 = np.array([nb.to_float(v, f"y0[{i}]") for i, v in
                   enumerate(nb.check_vector("y0", y0, len(flow.state)))])  # fmt: skip
    ts = _check_times(times, allow_inf=False)
    if lr is None:
        raise TypeError("lr must be a real number > 0 (the gradient-descent step), got None")
    lr = _check_lr(lr)
    with np.errstate(over="ignore"):
        _check_steps(float(np.max(ts)) / lr)
    F0 = _vector_field(flow)

    def F(y: np.ndarray) -> np.ndarray:
        return F0(y, p)

    N = y0.size
    order = np.argsort(ts, kind="stable")
    t_end = float(ts[order[-1]])
    out = np.zeros((ts.size, 2 * N))
    if t_end > 0:

        def rhs(_t: float, z: np.ndarray) -> np.ndarray:
            th, e = z[:N], z[N:]
            f = F(th)
            return np.concatenate([f, _jvp(F, th, e - f / 2)])

        scale = max(1.0, float(np.max(np.abs(y0))))
        # a few digits of e suffice (it sets a tolerance); LSODA for the stiff tail near a
        # fixed point
        sol = solve_ivp(rhs, (0.0, t_end), np.concatenate([y0, np.zeros(N)]), method="LSODA",
                        t_eval=ts[order], rtol=1e-8, atol=1e-12 * scale)  # fmt: skip
        if not sol.success:
            raise ArithmeticError(f"the first-order error equation failed: {sol.message}")
        out[order] = sol.y.T
    else:
        out[:, :N] = y0
    # every time given (each distinct one once): a subsample in the caller's order missed
    # the peak of ||J|| and made the verdict depend on the order of the times
    step = worst_of(*(_jacobian_norm(F, out[k, :N]) for k in np.unique(ts, return_index=True)[1]))
    with np.errstate(over="ignore"):
        E, limit = lr * out[:, N:], lr * step
    if not (np.all(np.isfinite(E)) and math.isfinite(limit)):
        raise nb.Float64RangeError(f"lr = {lr:.6g} is too large: lr * e(t) or lr * max||J|| "
                                   f"exceeds the float64 range")  # fmt: skip
    return E, limit


# ---------------------------------------------------------------------------
# reports
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Report:
    """The comparison of a trajectory with the exact solution.

    ``errors[b][k]``: block ``b``'s error at ``times[k]`` in units of its allowance
    ``allowed[b][k]`` (pass: ``<= 1``); ``first_failure``: the index of the first failing
    time (``None`` when all pass); ``exact_f``, ``got_f``, ``exact_loss``, ``got_loss``: the
    network output(s) on the data and the loss, exact and measured from the given weights,
    at every time."""

    model: str
    source: str
    times: np.ndarray
    errors: Mapping[str, np.ndarray]
    diffs: Mapping[str, np.ndarray]
    allowed: Mapping[str, np.ndarray]
    exact_f: np.ndarray
    got_f: np.ndarray
    exact_loss: np.ndarray
    got_loss: np.ndarray
    rtol: float
    atol: float
    lr: float | None
    notes: tuple[str, ...] = ()

    @property
    def first_failure(self) -> int | None:
        bad = np.zeros(len(self.times), dtype=bool)
        for err in self.errors.values():
            bad |= ~(err <= 1)  # a NaN error fails
        return int(np.argmax(bad)) if bad.any() else None

    @property
    def passed(self) -> bool:
        return self.first_failure is None

    @property
    def worst(self) -> float:
        """The largest error, in units of the allowance."""
        return float(worst_of(*(float(np.max(e)) for e in self.errors.values())))

    def __str__(self) -> str:
        k = self.first_failure
        n_bad = int(sum(np.any([not e[j] <= 1 for e in self.errors.values()])
                        for j in range(len(self.times))))  # fmt: skip
        worst_b, _ = worst_item({b: float(np.max(e)) for b, e in self.errors.items()})
        j = int(np.argmax(self.errors[worst_b]))
        if k is None:
            head = (f"{self.model} ({self.source}): matches the exact solution at all "
                    f"{len(self.times)} times (worst: {worst_b}, {self.worst:.3g} tolerances "
                    f"at t = {self.times[j]:.6g})")  # fmt: skip
            k = j
        else:
            head = (f"{self.model} ({self.source}): the trajectory leaves the exact solution "
                    f"at times[{k}] = {self.times[k]:.6g}, the first of {n_bad} failing "
                    f"times of {len(self.times)} (worst: {worst_b}, {self.worst:.3g} "
                    f"tolerances at t = {self.times[j]:.6g})")  # fmt: skip
        gd = ("" if self.lr is None else
              f" + {GD_SAFETY:g} lr max|e| (gradient descent, lr = {self.lr:.6g})")  # fmt: skip
        lines = [head, f"  tolerance per block: atol + rtol max|exact| (rtol = {self.rtol:.3g}, "
                 f"atol = {self.atol:.3g}){gd}", f"  at t = {self.times[k]:.6g}:"]  # fmt: skip
        for b in self.errors:
            err, diff, allow = self.errors[b][k], self.diffs[b][k], self.allowed[b][k]
            lines.append(f"    {b:>6}: {err:10.3g} tolerances  (max|got - exact| = {diff:.3g}, "
                         f"allowed {allow:.3g})")  # fmt: skip
        lines.append(f"    {'f':>6}: exact {_fmt(self.exact_f[k])}, got {_fmt(self.got_f[k])}")
        lines.append(f"    {'loss':>6}: exact {_fmt(self.exact_loss[k])}, got "
                     f"{_fmt(self.got_loss[k])}")  # fmt: skip
        if self.first_failure is not None and self.lr is None:
            lines.append(
                "  (a gradient-descent trajectory has an O(lr) discretisation error: "
                "pass lr=<step in flow time>, times[k] = k * lr, to allow for it)"
            )
        lines += [f"  note: {note}" for note in self.notes]
        return "\n".join(lines)


def _blockmax(values: np.ndarray, n: int) -> np.ndarray:
    """``max|values|`` over each of the ``n`` times (0 for an empty block)."""
    return np.abs(values).reshape(n, -1).max(axis=1, initial=0.0)


def _units(diff: np.ndarray, allow: np.ndarray) -> np.ndarray:
    """``diff / allow`` elementwise, ``0`` where ``diff == 0`` and ``inf`` where only the
    allowance is 0 (an exact block identically zero with ``atol = 0`` admits no error), or
    where the allowance is not a number >= 0 (it fails closed: no caller makes one)."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        units = np.where(diff == 0, 0.0, diff / np.where(allow > 0, allow, 1.0))
    return np.where(~(allow > 0) & (diff != 0), np.inf, units)


def _fmt(value: Any) -> str:
    arr = np.asarray(value, dtype=float)
    if arr.ndim == 0:
        return f"{float(arr):.10g}"
    return np.array2string(arr, precision=8, max_line_width=200, threshold=12)


# ---------------------------------------------------------------------------
# trajectory oracles
# ---------------------------------------------------------------------------
def _system(setup: Any) -> System:
    for model in solvable.MODELS:
        for system in model.systems:
            if type(setup) is system.setup_type:
                return system
    raise TypeError(f"no system simulates {type(setup).__name__}")  # pragma: no cover


class TrajectoryOracle:
    """An exact gradient-flow solution as the oracle of a user's trajectory.

    ``blocks``: the trained weights, in the order :meth:`check` takes them, with their
    shapes; ``model`` and ``source`` name the solution (paper and theorem)."""

    model: str = ""
    source: str = ""

    def __init__(self, setup: Any, out0: Any, in0: Any, trajectory: Any,
                 blocks: Mapping[str, tuple[int, ...]]) -> None:  # fmt: skip
        self.setup = setup
        self.trajectory = trajectory
        self.blocks = dict(blocks)
        self._system = _system(setup)
        self._data = self._system.data(setup, "numpy")
        self._out0, self._in0 = out0, in0

    # -- per model ---------------------------------------------------------
    def _weights(self, blocks: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """All of the system's parameters (adds fixed blocks)."""
        return dict(blocks)

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        """The network output(s) on the data from weights with a leading time axis."""
        raise NotImplementedError

    # -- shared --------------------------------------------------------------
    def exact(self, times: Any, *, dps: int | None = None) -> dict[str, np.ndarray]:
        """The exact blocks at ``times`` (float64 arrays with a leading time axis; ``dps``:
        evaluated with mpmath at ``dps`` digits, then rounded to float64)."""
        ts = _check_times(times, allow_inf=True)
        out = self._sample(ts.tolist(), dps)
        return {b: np.asarray(v, dtype=float).reshape(len(ts), *self.blocks[b])
                for b, v in out.items()}  # fmt: skip

    def loss(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        """The model's loss (its one definition) from weights with a leading time axis."""
        return np.asarray(self._system.loss(self._weights(weights), self._data), dtype=float)

    def _resolve(self, arrays: tuple[Any, ...], named: Mapping[str, Any]) -> dict[str, Any]:
        names = list(self.blocks)
        if len(arrays) > len(names):
            raise TypeError(f"{self.model} has {len(names)} blocks {names}, got "
                            f"{len(arrays)} arrays")  # fmt: skip
        given = dict(zip(names, arrays, strict=False))
        for k, v in named.items():
            if k not in names:
                raise TypeError(f"unknown block {k!r}: {self.model}'s blocks are {names}")
            if k in given:
                raise TypeError(f"block {k!r} given twice")
            given[k] = v
        missing = [b for b in names if b not in given]
        if missing:
            raise TypeError(f"missing block(s) {missing} ({self.model}'s blocks: {names})")
        return given

    def compare(self, times: Any, *arrays: Any, lr: Any = None, rtol: Any = 1e-6,
                atol: Any = 0.0, **named: Any) -> Report:  # fmt: skip
        """The :class:`Report` of a trajectory ``arrays[b][k]`` at ``times[k]`` (blocks in
        the order of ``blocks``, positional or by name), without raising on a mismatch.

        ``lr``: the trajectory is gradient descent with step ``lr`` in flow time (``times``
        must be multiples ``k * lr``); the allowance grows by :func:`gd_allowance`."""
        __tracebackhide__ = True  # pytest: the user's line, not the oracle's frames
        return self._compare(times, self._resolve(arrays, named), lr, rtol, atol, {})

    def _compare(self, times: Any, given: Mapping[str, Any], lr: Any, rtol: Any, atol: Any,
                 labels: Mapping[str, str]) -> Report:  # fmt: skip
        """:meth:`compare` of the blocks ``given``; ``labels``: the argument names of the
        blocks in messages (default ``"u (xu_ziyin block)"``)."""
        __tracebackhide__ = True
        rtol, atol, lr = _check_rtol(rtol), _check_atol(atol), _check_lr(lr)
        ts = _check_times(times, allow_inf=lr is None)
        if lr is not None:
            with np.errstate(over="ignore"):  # a tiny lr: k = inf
                k = ts / lr
            _check_steps(float(np.max(k)))
            off = np.abs(k - np.round(k))
            if np.any(off > 1e-6 * np.maximum(1.0, k)):  # float t = k * lr or a running sum
                j = int(np.argmax(off > 1e-6 * np.maximum(1.0, k)))
                raise ValueError(
                    f"times must be multiples k * lr of lr = {lr:.6g} (gradient "
                    f"descent's time), got times[{j}] = {float(ts[j])!r} = {k[j]:.6g} lr"
                )
        got = {b: _check_block(labels.get(b, f"{b} ({self.model} block)"), given[b],
                               (len(ts), *shape)) for b, shape in self.blocks.items()}  # fmt: skip
        dps = None if rtol >= _FLOAT64_RTOL else _REFERENCE_DPS
        ref = self.exact(ts, dps=dps)
        n = len(ts)
        extra = {b: np.zeros(n) for b in self.blocks}
        first, step = None, 0.0
        if lr is not None:
            extra, first, step = self._gd_terms(ts, lr)
        base = {b: atol + rtol * _blockmax(ref[b], n) for b in self.blocks}
        errors, diffs, allowed = {}, {}, {}
        for b in self.blocks:  # every block, each against its own allowance
            diffs[b] = _blockmax(got[b] - ref[b], n)
            allowed[b] = base[b] + extra[b]
            errors[b] = _units(diffs[b], allowed[b])
        notes = self._notes(ts, got, ref, allowed, dps, lr)
        if first is not None:
            notes += self._update_rule_note(ts, got, ref, base, extra, first, step)
        with np.errstate(over="ignore"):  # diverged weights: their output and loss may be inf
            got_f, got_l = self.output(got), self.loss(got)
        ref_f, ref_l = self.output(ref), self.loss(ref)
        return Report(self.model, self.source, ts, errors, diffs, allowed, ref_f, got_f, ref_l,
                      got_l, rtol, atol, lr, notes)  # fmt: skip

    def _notes(self, ts: np.ndarray, got: Mapping[str, np.ndarray],
               ref: Mapping[str, np.ndarray], allowed: Mapping[str, np.ndarray],
               dps: int | None, lr: float | None) -> tuple[str, ...]:  # fmt: skip
        """What the comparison cannot tell apart (see :class:`OracleWarning`), and a hint
        when the times look like step indices."""
        notes: list[str] = []
        n = len(ts)
        late = ts > 0
        whole = bool(np.all(ts == np.round(ts))) and n >= 2 and (lr is None or lr != 1)
        if whole and any(np.any(_units(_blockmax(got[b] - ref[b], n), allowed[b]) > 1)
                         for b in self.blocks):  # fmt: skip
            notes.append("every time is a whole number: if times[k] is the step index k of "
                         "gradient descent, pass times = k * lr (flow time) and lr=")  # fmt: skip
        if not late.any():
            notes.append("every time is t = 0: only the initial condition is checked, not "
                         "the training; include times t > 0")  # fmt: skip
            return tuple(notes)
        try:
            ends = self.exact([0.0, math.inf], dps=dps)
        except (ArithmeticError, ValueError):  # no finite limit: no converged tail either
            return tuple(notes)
        # the trajectory that jumps from the start straight to the limit t -> inf
        jump_passes = all(
            np.all(_units(_blockmax(ends[b][1] - ref[b][late], int(late.sum())),
                          allowed[b][late]) <= 1) for b in self.blocks)  # fmt: skip
        # ... and the one that never moves: if it passes too, the exact solution is at rest
        # and the check is a real one (any motion fails)
        rest_passes = all(
            np.all(_units(_blockmax(ends[b][0] - ref[b], n), allowed[b]) <= 1)
            for b in self.blocks)  # fmt: skip
        if jump_passes and not rest_passes:
            t0 = float(np.min(ts[late]))
            notes.append(
                f"every time t > 0 given (the first: {t0:.6g}) is in the converged tail: "
                f"there the exact solution is within the tolerance of its limit t -> inf, so a "
                f"trainer that jumps straight to the right limit passes too; include times "
                f"before t = {t0:.6g}, where the weights still move"
            )
        return tuple(notes)

    def _update_rule_note(self, ts: np.ndarray, got: Mapping[str, np.ndarray],
                          ref: Mapping[str, np.ndarray], base: Mapping[str, np.ndarray],
                          extra: Mapping[str, np.ndarray], first: Mapping[str, np.ndarray],
                          step: float) -> tuple[str, ...]:  # fmt: skip
        """Gradient descent's error is ``lr e(t) + O(lr^2)``: the residual ``got - exact -
        lr e(t)`` measured against ``atol + rtol max|exact| + GD_SAFETY lr max|e| max(lr
        max||J||, E1_FLOOR)`` (the second-order term is ``lr max||J||`` times the first
        order or less: measured at most 0.6 of this allowance on xu_ziyin's and kunin's
        regular cases at lr = 1e-4 ... 1e-2).  A trainer with another update rule (layers
        in sequence, momentum, an implicit step) has an ``O(lr)`` residual: 14 to 3e4
        allowances for layers updated in sequence on the same cases.  A warning, not a
        failure: near a saddle plain gradient descent's higher-order terms reach it too."""
        n = len(ts)
        worst, where = NOTHING_COMPARED, ("", 0)
        for b in self.blocks:
            resid = _blockmax(got[b] - ref[b] - first[b], n)
            units = _units(resid, base[b] + extra[b] * max(step, E1_FLOOR))
            k = int(np.argmax(units))
            if beats(units[k], worst):
                worst, where = float(units[k]), (b, k)
        if worst <= 1:
            return ()
        b, k = where
        return (
            f"the O(lr) error is not plain gradient descent's: |got - exact - lr e(t)| of "
            f"block {b} at t = {ts[k]:.6g} is {worst:.3g} times the second-order allowance "
            f"(e the first-order error term of gradient_descent, see gd_allowance); a trainer "
            f"that updates the layers one after the other, uses momentum or an implicit step "
            f"looks like this (near a saddle, plain gradient descent's higher-order terms can "
            f"be as large)",
        )

    def check(self, times: Any, *arrays: Any, lr: Any = None, rtol: Any = 1e-6,
              atol: Any = 0.0, **named: Any) -> Report:  # fmt: skip
        """Assert that the trajectory follows the exact solution (see :meth:`compare`):
        ``AssertionError`` with the first failing time, every block's error in units of the
        tolerance and the exact and actual output and loss there; the report otherwise."""
        __tracebackhide__ = True  # pytest: the user's line, not the oracle's frames
        return self._verdict(self.compare(times, *arrays, lr=lr, rtol=rtol, atol=atol, **named))

    def _verdict(self, report: Report) -> Report:
        """``report``, or ``AssertionError`` when it failed; its notes as warnings (at the
        line of the caller of :meth:`check`)."""
        __tracebackhide__ = True
        if not report.passed:
            raise AssertionError(str(report))
        for note in report.notes:
            warnings.warn(f"{self.model}: the trajectory passes, but {note}", OracleWarning,
                          stacklevel=3)  # fmt: skip
        return report

    def _gd_terms(self, ts: np.ndarray, lr: float
                  ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray], float]:  # fmt: skip
        """``(allowance, first, lr max||J||)``: per block the gradient-descent allowance
        ``GD_SAFETY`` times the running max of ``lr max|e|``, and the signed first-order
        error ``lr e(t)`` with the block's shape."""
        system = self._system
        weights = system.initial(self.setup, self._out0, self._in0)
        flow = system.flow(self.setup, {b: w.shape for b, w in weights.items()})
        params = system.flow_parameters(self.setup, float)
        y0 = [float(v) for v in flow.pack(weights)]
        E, step = gd_allowance(flow, params, y0, ts, lr)
        if step > GD_STEP_LIMIT:
            raise ValueError(
                f"lr = {lr:.6g} is too large for the first-order gradient-descent allowance: "
                f"lr * max||J|| = {step:.3g} > GD_STEP_LIMIT = {GD_STEP_LIMIT} (J the "
                f"Jacobian of the flow); use a smaller step or compare at a smaller lr"
            )
        spans = {name: span for (name, _), span in zip(flow.blocks, flow.spans(), strict=True)}
        out, first = {}, {}
        for b in self.blocks:
            lo, hi = spans[b]
            first[b] = E[:, lo:hi].reshape(len(ts), *self.blocks[b])
            per_time = np.abs(E[:, lo:hi]).max(axis=1, initial=0.0)
            # running max over the given times (sorted): robust where e(t) crosses zero and
            # the O(lr^2) term is all there is
            order = np.argsort(ts, kind="stable")
            run = np.maximum.accumulate(per_time[order])
            allow = np.empty_like(run)
            allow[order] = run
            out[b] = GD_SAFETY * allow
        return out, first, step


class _XuZiyin(TrajectoryOracle):
    model = "xu_ziyin"
    source = "seed 001, Theorem 1 / Proposition 1"

    def __init__(self, setup: _xz.Setup, u0: Any, W0: Any) -> None:
        traj = _xz.closed_form(setup, u0, W0)
        d = len(traj.u0)
        super().__init__(setup, u0, W0, traj, {"u": (d,), "W": (d, setup.d0)})

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        if dps is None:
            st = self.trajectory.sample(times)
        else:
            u0, W0 = self.trajectory._data["given"]
            st = _xz.closed_form(self.setup, u0, W0, dps=dps).sample(times)
        return {"u": st.u, "W": st.W}

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        d = self._data
        return np.asarray(_xz.network_output(weights["u"], weights["W"], d["x"],
                                                   d["gamma"]), dtype=float)  # fmt: skip


class _Kunin(TrajectoryOracle):
    model = "kunin"
    source = "seed 003, single neuron, exact solution for X^T X = s I"

    def __init__(self, setup: _kn.Setup, a0: Any, w0: Any) -> None:
        traj = _kn.closed_form(setup, a0, w0)
        super().__init__(setup, a0, w0, traj, {"a": (), "w": (setup.d,)})
        self._given = (a0, w0)

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        traj = self.trajectory
        if dps is not None:
            traj = _kn.closed_form(self.setup, *self._given, dps=dps)
        st = traj.sample(times)
        return {"a": st.a, "w": st.w}

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        return np.asarray(_kn.output(weights["a"], weights["w"], self._data["X"]), dtype=float)


class _LinearNodeScaling(TrajectoryOracle):
    model = "linear_node_scaling"
    source = "seed 000, Theorem 7.4 (sigma = id)"

    def __init__(self, setup: ns.Setup, a0: Any, W0: Any) -> None:
        traj = _lns.closed_form(setup, a0, W0)
        super().__init__(setup, a0, W0, traj, {"W": (setup.m, setup.d)})
        self._a = np.asarray(traj.a, dtype=float)

    def _weights(self, blocks: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {"a": self._a, "W": blocks["W"]}

    def _sample(self, times: Sequence[Any], dps: int | None) -> dict[str, np.ndarray]:
        traj = self.trajectory
        if dps is not None:
            traj = _lns.closed_form(self.setup, self._out0, self._in0, dps=dps)
        return {"W": traj.sample(times).W}

    def output(self, weights: Mapping[str, np.ndarray]) -> np.ndarray:
        d = self._data
        return np.asarray(ns.network_output(weights["W"], self._a, d["s"], d["X"], d["sigma"],
                                            d["root_d"]), dtype=float)  # fmt: skip


def xu_ziyin(setup: _xz.Setup, u0: Any, W0: Any) -> TrajectoryOracle:
    """Oracle of seed 001's two-layer linear network (Theorem 1 / Proposition 1): blocks
    ``u`` (d,) and ``W`` (d, d0); rates ``eta_u``, ``eta_w``; loss ``(gamma u^T W x - y)^2``
    (no 1/2): GD is ``u -= lr eta_u dL/du``, ``W -= lr eta_w dL/dW``, ``t = k lr``."""
    return _XuZiyin(setup, u0, W0)


def kunin(setup: _kn.Setup, a0: Any, w0: Any) -> TrajectoryOracle:
    """Oracle of seed 003's single neuron ``f = a w^T x`` (exact for ``X^T X = s I``): blocks
    ``a`` (a scalar: shape ``()``, so ``(T,)`` over times) and ``w`` (d,); loss ``1/2 sum_i
    (a w^T x_i - y_i)^2``; GD ``a -= lr eta_a dL/da``, ``w -= lr eta_w dL/dw``."""
    return _Kunin(setup, a0, w0)


def linear_node_scaling(setup: ns.Setup, a0: Any, W0: Any) -> TrajectoryOracle:
    """Oracle of seed 000's Theorem 7.4 (``activation="linear"``): block ``W`` (m, d) (the
    output weights ``a0`` are fixed); loss (5) ``1/2 sum_i (y_i - f(x_i))^2``; GD ``W -= lr
    eta dL/dW``."""
    return _LinearNodeScaling(setup, a0, W0)


# ---------------------------------------------------------------------------
# kernels (seed 002)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class KernelReport:
    """A Gram matrix (or a Monte Carlo estimate of one) against the closed form: the error
    in units of the tolerance, the worst entry ``(i, j)``, both values there."""

    kernel: str
    units: float
    worst: tuple[int, int]
    exact: float
    got: float
    tolerance: str

    @property
    def passed(self) -> bool:
        return self.units <= 1

    def __str__(self) -> str:
        state = "matches" if self.passed else "does not match"
        i, j = self.worst
        return (
            f"kernel {self.kernel!r} (seed 002, {_KERNEL_EQ[self.kernel]}): the Gram matrix "
            f"{state} the closed form: {self.units:.3g} tolerances at entry ({i}, {j}): "
            f"exact {self.exact:.10g}, got {self.got:.10g}; tolerance: {self.tolerance}"
        )


_KERNEL_EQ = {"gp": "eq. (2.4)", "rf": "eq. (2.31)", "ntk": "eq. (2.31)", "k0": "eq. (2.30)"}


class KernelOracle:
    """The infinite-width kernel ``name`` of seed 002 (:func:`solvable.models.kernels.gram`) on the
    rows of ``X`` (n, d) and ``Y`` (m, d) (default ``X``) as the oracle of a user's kernel
    code: :meth:`check` for an analytic Gram matrix, :meth:`check_samples` for empirical
    (finite-width) kernels of random initialisations."""

    def __init__(self, name: str, init: kernels.Initialisation, X: Any, Y: Any = None) -> None:
        self.name = name
        self.exact = kernels.gram(name, init, X, Y)
        self.init = init

    def _got(self, name: str, value: Any, lead: bool = False) -> np.ndarray:
        arr = _as_array(name, value)
        want = ("S", *self.exact.shape) if lead else self.exact.shape
        ok = arr.shape[1:] == self.exact.shape and arr.ndim == 3 if lead else (
            arr.shape == self.exact.shape)  # fmt: skip
        if not ok:
            raise ValueError(f"{name} must have shape {want}, got {arr.shape}; it is never "
                             f"reshaped")  # fmt: skip
        _check_finite(name, arr)
        return arr

    def compare(self, K: Any, *, rtol: Any = 1e-10, atol: Any = 0.0) -> KernelReport:
        """An analytic Gram matrix ``K`` (n, m) against the closed form, normwise: ``max|K -
        exact| <= atol + rtol max|exact|``.  Default ``rtol = 1e-10``: the package's float64
        kernels are confirmed to 1e-13 (claim ``kernels.evaluators_agree``), a user's
        float64 evaluation of the same angle forms to a few hundred ulps."""
        rtol, atol = _check_rtol(rtol), _check_atol(atol)
        got = self._got("K", K)
        tol = Tolerance(rtol=rtol, atol=atol)
        units = error_in_units(got, self.exact, tol)
        i, j = np.unravel_index(int(np.argmax(np.abs(got - self.exact))), got.shape)
        return KernelReport(self.name, units, (int(i), int(j)), float(self.exact[i, j]),
                            float(got[i, j]), f"rtol = {rtol:.3g}, atol = {atol:.3g}")  # fmt: skip

    def check(self, K: Any, *, rtol: Any = 1e-10, atol: Any = 0.0) -> KernelReport:
        """:meth:`compare`, raising ``AssertionError`` (with the worst entry) on a mismatch."""
        __tracebackhide__ = True
        report = self.compare(K, rtol=rtol, atol=atol)
        if not report.passed:
            raise AssertionError(str(report))
        return report

    def compare_samples(self, samples: Any, *, confidence: Any = MC_CONFIDENCE) -> KernelReport:
        """Empirical kernels ``samples`` (S, n, m), one per independent random initialisation
        (any width ``p``: the width-``p`` kernel of the network (2.3) is an average of ``p``
        i.i.d. unit terms, so its expectation is the closed form exactly), against the closed
        form: the Monte Carlo mean must lie in the simultaneous ``confidence`` interval of
        :func:`solvable._core.tolerance.monte_carlo` (Bonferroni over the entries; a correct
        kernel fails with probability about ``1 - confidence``).  The half-width is at least
        ``kernels``' float64 tolerance (1e-13 relative to ``max|exact|``): entries whose
        samples are all equal (e.g. ``relu(u) relu(-u) = 0`` for antipodal inputs, or the
        same exact matrix passed S times) are compared at that accuracy."""
        conf = _real("confidence", confidence)
        if not 0 < conf < 1:
            raise ValueError(f"confidence must be in (0, 1), got {nb.describe(confidence)}")
        arr = self._got("samples", samples, lead=True)
        if arr.shape[0] < 2:
            raise ValueError(f"samples must hold at least 2 kernels (S >= 2), got {arr.shape[0]}")
        est = monte_carlo(arr, confidence=conf)
        hw = np.broadcast_to(est.half_width, self.exact.shape)
        diff = np.abs(est.mean - self.exact)
        # the interval is never narrower than the kernels' float64 accuracy: entries whose
        # samples are (nearly) all equal have a half-width of 0 or of a few ulps from
        # rounding the mean and variance (a false failure at 5 "tolerances" before)
        floor = kernel_checks._F64_TOL.rtol * (float(np.max(np.abs(self.exact))) or 1.0)
        allow = np.maximum(hw, floor)
        units = diff / allow
        i, j = np.unravel_index(int(np.argmax(units)), units.shape)
        tol = (f"{est.confidence:.1%} simultaneous normal CI of the mean of {est.samples} "
               f"samples (half-width {float(allow[i, j]):.3g} at the worst entry, at least "
               f"{kernel_checks._F64_TOL.rtol:.0e} max|exact|)")  # fmt: skip
        return KernelReport(self.name, float(units[i, j]), (int(i), int(j)),
                            float(self.exact[i, j]), float(est.mean[i, j]), tol)  # fmt: skip

    def check_samples(self, samples: Any, *, confidence: Any = MC_CONFIDENCE) -> KernelReport:
        """:meth:`compare_samples`, raising ``AssertionError`` on a mismatch."""
        __tracebackhide__ = True
        report = self.compare_samples(samples, confidence=confidence)
        if not report.passed:
            raise AssertionError(str(report))
        return report


def kernel(name: str, init: kernels.Initialisation, X: Any, Y: Any = None) -> KernelOracle:
    """Oracle of seed 002's infinite-width kernel ``name`` (``"gp"``, ``"rf"``, ``"ntk"``,
    ``"k0"``) for the initialisation ``init`` on the rows of ``X`` (and ``Y``)."""
    return KernelOracle(name, init, X, Y)


# ---------------------------------------------------------------------------
# the fixture objects
# ---------------------------------------------------------------------------
class Oracle:
    """What the ``solvable_oracle`` fixture hands out: one method per exact solution."""

    xu_ziyin = staticmethod(xu_ziyin)
    kunin = staticmethod(kunin)
    linear_node_scaling = staticmethod(linear_node_scaling)
    kernel = staticmethod(kernel)


_CASE_MODELS: dict[str, Any] = {"xu_ziyin": _xz, "kunin": _kn}


@dataclass(frozen=True)
class EdgeCase:
    """A named initial condition of a model (``xu_ziyin.CASES``, ``kunin.CASES``) as float64
    arrays, ready for a trainer: ``out0`` / ``in0`` are the output / input layer (``u0``,
    ``W0`` or ``a0`` (a float), ``w0``); :meth:`oracle` is the exact solution from them."""

    model: str
    name: str
    covers: str
    setup: Any
    out0: np.ndarray | float
    in0: np.ndarray

    @property
    def id(self) -> str:
        return f"{self.model}:{self.name}"

    def oracle(self) -> TrajectoryOracle:
        return {"xu_ziyin": xu_ziyin, "kunin": kunin}[self.model](self.setup, self.out0, self.in0)


def edge_cases(model: str | None = None) -> list[str]:
    """The ids ``"model:name"`` of every named case (of ``model``, or of all models)."""
    if model is not None and (not isinstance(model, str) or model not in _CASE_MODELS):
        raise ValueError(f"model must be one of {sorted(_CASE_MODELS)}, got {model!r}")
    names = [model] if model is not None else list(_CASE_MODELS)
    return [f"{m}:{c.name}" for m in names for c in _CASE_MODELS[m].CASES]


def edge_case(case_id: str) -> EdgeCase:
    """The :class:`EdgeCase` ``"model:name"`` (see :func:`edge_cases`)."""
    if not isinstance(case_id, str) or case_id.count(":") != 1:
        raise ValueError(f"case_id must be 'model:name' (one of solvable.testing.edge_cases()), "
                         f"got {case_id!r}")  # fmt: skip
    model, name = case_id.split(":")
    if model not in _CASE_MODELS:
        raise ValueError(f"case_id's model must be one of {sorted(_CASE_MODELS)}, got {model!r}")
    c = _CASE_MODELS[model].case(name)
    out0, in0 = (c.u0, c.W0) if model == "xu_ziyin" else (c.a0, c.w0)
    out = np.array(out0, dtype=float)
    return EdgeCase(model, c.name, c.covers, c.setup, float(out) if out.ndim == 0 else out,
                    np.array(in0, dtype=float))  # fmt: skip


# ---------------------------------------------------------------------------
# the original helpers
# ---------------------------------------------------------------------------
def state_errors(
    got: _xz.State, ref: _xz.State, y: Any, tol: Tolerance, *, f_floor: Any = 0
) -> dict[str, float]:
    """Errors of ``got`` against ``ref`` in units of ``tol``: ``u`` and ``W``
    normwise relative, ``f`` relative to ``|y| + |f_ref - y| + f_floor`` (the scale
    at which the target and the residual fix the output; ``f_floor`` adds e.g. the
    conditioning ``gamma ||u|| ||W x||`` of measuring ``f`` as a float64 dot product)."""
    for name, state in (("got", got), ("ref", ref)):
        if not all(hasattr(state, k) for k in ("u", "W", "f")):
            raise TypeError(f"{name} must be a state with u, W and f (a solvable.xu_ziyin.State, "
                            f"Trajectory.at(t)), got {type(state).__name__} "
                            f"{nb.describe(state)}")  # fmt: skip
    if not isinstance(tol, Tolerance):
        raise TypeError(f"tol must be a solvable.Tolerance, got {type(tol).__name__} "
                        f"{nb.describe(tol)}")  # fmt: skip
    y = nb.check_number("y", y)
    f_floor = nb.check_number("f_floor", f_floor, nonnegative=True)
    with mpmath.workdps(60):
        yy = nb.to_mpf(y)
        f_ref = mpmath.mpf(ref.f)
        f_scale = abs(yy) + abs(f_ref - yy) + nb.to_mpf(f_floor)
        f_atol = tol.atol + tol.rtol * f_scale  # in mpmath: y, f_floor may exceed float64
        f_err = float(abs(mpmath.mpf(got.f) - f_ref) / (f_atol or 1))
    return {
        "u": error_in_units(got.u, ref.u, tol),
        "W": error_in_units(got.W, ref.W, tol),
        "f": f_err if f_scale != 0 else error_in_units([got.f], [ref.f], tol),
    }


def assert_matches_closed_form(
    setup: _xz.Setup,
    u0: Any,
    W0: Any,
    times: Sequence[Any],
    us: Sequence[Any],
    Ws: Sequence[Any],
    *,
    rtol: float = 1e-6,
    atol: float = 0.0,
    lr: float | None = None,
) -> Report:
    """Assert that a trajectory ``(us[k], Ws[k])`` at ``times[k]`` follows the exact gradient
    flow of seed 001 (Theorem 1 / Proposition 1) to ``rtol`` (normwise relative per block),
    with the gradient-descent allowance when ``lr`` is given: ``xu_ziyin(setup, u0,
    W0).check(times, us, Ws, lr=lr, rtol=rtol, atol=atol)``."""
    __tracebackhide__ = True
    oracle = _XuZiyin(setup, u0, W0)
    labels = {"u": "us: u (xu_ziyin block)", "W": "Ws: W (xu_ziyin block)"}
    return oracle._verdict(oracle._compare(times, {"u": us, "W": Ws}, lr, rtol, atol, labels))
