"""float64 integration of the raw gradient flow with ``scipy.integrate.solve_ivp``.

The vector field is the same sympy expression as for the mpmath integrator,
lambdified to numpy (``cse=True``).  DOP853 (explicit Runge-Kutta of order 8) at
``rtol = 1e-13`` by default: the flows of this package are not stiff (their
Jacobian spectrum is bounded by ~1/t_c), and DOP853's global error at these
tolerances stays within ~1e-11 relative over O(10) e-foldings.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

from solvable._core.backends import generate
from solvable._core.flows import GradientFlow

__all__ = ["DEFAULT_RTOL", "integrate"]

DEFAULT_RTOL = 1e-13


@functools.cache
def _compiled(flow: GradientFlow):
    return generate((flow.state, flow.params), list(flow.rhs), "numpy", cse=True)


def integrate(
    flow: GradientFlow,
    params: Sequence[float],
    y0: Sequence[float],
    times: Sequence[float],
    rtol: float = DEFAULT_RTOL,
) -> tuple[np.ndarray, dict[str, Any]]:
    """States at ``times`` (sorted, ``>= 0``), shape ``(len(times), len(y0))``.

    ``atol = rtol * 1e-3 * (max|y0| or 1)``: the error is controlled relative to each
    component, with a floor three orders below the initial scale so that components
    that decay (e.g. ``u`` flowing into the saddle) are not over-resolved.  The vector
    field is seed 001 eqs. (4)-(5) (or another model's), lambdified with ``cse=True``.
    """
    f = _compiled(flow)
    y0 = np.asarray(y0, dtype=float)
    params = list(params)
    scale = float(np.max(np.abs(y0))) if y0.size else 0.0
    atol = rtol * 1e-3 * (scale if scale > 0 else 1.0)

    def rhs(_t: float, y: np.ndarray) -> np.ndarray:
        return np.asarray(f(y, params), dtype=float)

    times = np.asarray(times, dtype=float)
    t_end = float(times[-1]) if times.size else 0.0
    if t_end == 0.0:
        return np.tile(y0, (len(times), 1)), {"nfev": 0}
    # t_eval must be strictly increasing: evaluate the distinct times, then repeat
    grid, where = np.unique(times, return_inverse=True)
    sol = solve_ivp(rhs, (0.0, t_end), y0, method="DOP853", t_eval=grid, rtol=rtol, atol=atol)
    if not sol.success:
        raise RuntimeError(f"solve_ivp failed: {sol.message}")
    return sol.y.T[where.ravel()].copy(), {"nfev": int(sol.nfev)}
