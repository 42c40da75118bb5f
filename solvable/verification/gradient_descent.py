"""The gradient-descent allowance of the trajectory oracles
(:mod:`solvable.verification.testing`): the first-order global error of explicit Euler,
gradient descent ``theta_{k+1} = theta_k - lr eta dL/dtheta(theta_k)`` with step ``lr`` in
flow time, ``lr e(t) + O(lr^2)`` with ``e`` from the variational equation.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence

import numpy as np
from scipy.integrate import solve_ivp

from solvable._core import numbers as nb
from solvable._core.backends import generate
from solvable._core.flows import GradientFlow
from solvable._core.tolerance import worst_of
from solvable.verification.oracle_inputs import _check_lr, _check_times

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
    E, limit, _ = first_order(flow, params, y0, times, lr)
    return E, limit


def first_order(flow: GradientFlow, params: Sequence[float], y0: Sequence[float],
                times: Sequence[float], lr: float
                ) -> tuple[np.ndarray, float, np.ndarray]:  # fmt: skip
    """:func:`gd_allowance` and the flow ``theta(times)`` it integrated alongside (shape
    ``(len(times), N)``, to ``rtol = 1e-8``): the point at which an oracle that compares
    functions of the weights linearises ``lr e(t)`` (same frame as ``e``)."""
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
    return E, limit, out[:, :N]
